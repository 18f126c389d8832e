"""Reading VTK XML unstructured grids (.vtu) without VTK: simrun's frames and mode shapes.

simrun writes inline binary arrays (base64) with a UInt64 header, plain (base64 over [byte
count][data]) or zlib-compressed (output/compress: the header [blocks, block size, last block
size, compressed size of each block] and the compressed blocks, base64-encoded separately). The
reader also takes ascii arrays, appended data (raw or base64), UInt32 headers and big-endian
files, as other VTK writers produce them.
"""
import base64
import re
import zlib
import xml.etree.ElementTree as ElementTree

import numpy as np

_TYPES = {"Int8": "i1", "UInt8": "u1", "Int16": "i2", "UInt16": "u2", "Int32": "i4",
          "UInt32": "u4", "Int64": "i8", "UInt64": "u8", "Float32": "f4", "Float64": "f8",
          "Char": "i1", "UChar": "u1", "Short": "i2", "UShort": "u2", "Int": "i4", "UInt": "u4",
          "Long": "i8", "ULong": "u8", "Float": "f4", "Double": "f8"}
# VTK cell type -> (meshio-style name, vertices per cell); others keep their number as the name.
CELL_TYPES = {1: ("vertex", 1), 3: ("line", 2), 5: ("triangle", 3), 9: ("quad", 4),
              10: ("tetra", 4), 12: ("hexahedron", 8), 13: ("wedge", 6), 14: ("pyramid", 5)}


class VtuData:
    """One unstructured grid read by read_vtu.

    points: (n, 3) array; connectivity, offsets, types: the Cells arrays as stored; cells:
    {type name: (count, vertices per cell) int64 array} ("tetra", "line", "triangle", ...) in
    the order the types first appear; tets: cells["tetra"] ((0, 4) without tets);
    point_data, cell_data, field_data: {name: array}, (n,) or (n, components), cell_data over
    every cell (cell_data_of(type): one type's); time: the FieldData TimeValue (None without
    it)."""

    def __init__(self, points, connectivity, offsets, types, point_data, cell_data, field_data):
        self.points = points
        self.connectivity = connectivity
        self.offsets = offsets
        self.types = types
        self.point_data = point_data
        self.cell_data = cell_data
        self.field_data = field_data
        self.cells = _cells_by_type(connectivity, offsets, types)

    @property
    def tets(self):
        """The tetrahedra, (m, 4) int64."""
        return self.cells.get("tetra", np.zeros((0, 4), dtype=np.int64))

    def cell_data_of(self, cell_type="tetra"):
        """cell_data on the cells of one type only, {name: array} (simrun writes the tets
        first, then spring lines, then obstacle triangles)."""
        code = next((k for k, (name, _) in CELL_TYPES.items() if name == cell_type), None)
        chosen = self.types == (code if code is not None else int(cell_type))
        return {name: values[chosen] for name, values in self.cell_data.items()}

    @property
    def num_points(self):
        """The number of points."""
        return len(self.points)

    @property
    def num_cells(self):
        """The number of cells of every type."""
        return len(self.types)

    @property
    def time(self):
        """The frame's time (FieldData TimeValue), None without it."""
        value = self.field_data.get("TimeValue")
        return float(value.ravel()[0]) if value is not None and value.size else None

    def __repr__(self):
        counts = ", ".join(f"{len(v)} {k}" for k, v in self.cells.items())
        return f"VtuData({self.num_points} points, {counts or 'no cells'})"


def _cells_by_type(connectivity, offsets, types):
    if types is None or not len(types):
        return {}
    starts = np.concatenate([[0], offsets[:-1]]).astype(np.int64)
    sizes = offsets.astype(np.int64) - starts
    cells = {}
    for vtk_type in dict.fromkeys(types.tolist()):
        name = CELL_TYPES.get(vtk_type, (str(vtk_type),))[0]
        chosen = types == vtk_type
        size = int(sizes[chosen][0])
        index = starts[chosen][:, None] + np.arange(size)
        cells[name] = connectivity[index].astype(np.int64)
    return cells


class _Decoder:
    """The file-wide settings (byte order, header type, compressor, appended data) that every
    DataArray's decoding needs."""

    def __init__(self, root, appended):
        self.order = ">" if root.get("byte_order") == "BigEndian" else "<"
        self.header = np.dtype(self.order + ("u4" if root.get("header_type") == "UInt32" else "u8"))
        compressor = root.get("compressor") or ""
        if compressor not in ("", "vtkZLibDataCompressor"):
            raise ValueError(f"unsupported compressor {compressor}")
        self.compressed = bool(compressor)
        self.appended, self.appended_base64 = appended
        self.offsets = sorted(int(e.get("offset", "0")) for e in root.iter("DataArray")
                              if e.get("format") == "appended")

    def array(self, element):
        """The DataArray's values, (tuples, components) when it has several components."""
        dtype = np.dtype(self.order + _TYPES[element.get("type")])
        kind = element.get("format", "ascii")
        if kind == "ascii":
            values = np.array((element.text or "").split(), dtype=dtype)
        elif kind == "binary":
            values = np.frombuffer(self._inline(element.text or ""), dtype=dtype)
        elif kind == "appended":
            values = np.frombuffer(self._appended(int(element.get("offset", "0"))), dtype=dtype)
        else:
            raise ValueError(f"DataArray {element.get('Name')}: unknown format {kind!r}")
        values = values.astype(dtype.newbyteorder("="))  # native order, and a writable copy
        components = int(element.get("NumberOfComponents", "1"))
        return values.reshape(-1, components) if components > 1 else values

    def _header_bytes(self, first_int):
        """The header's length in bytes, from its first number (the block count if zlib)."""
        size = self.header.itemsize
        return size * (3 + int(np.frombuffer(first_int[:size], self.header)[0])) if self.compressed else size

    def _inline(self, text):
        """The bytes of base64 text: header and data encoded separately (VTK's way: the header's
        base64 then ends in padding) or together."""
        text = re.sub(r"\s+", "", text)
        first = base64.b64decode(text[:4 * -(-self.header.itemsize // 3)])
        header_bytes = self._header_bytes(first)
        chars = 4 * -(-header_bytes // 3)
        if text[:chars].endswith("="):
            return self._payload(base64.b64decode(text[:chars]), base64.b64decode(text[chars:]))
        raw = base64.b64decode(text)
        return self._payload(raw[:header_bytes], raw[header_bytes:])

    def _appended(self, offset):
        """The bytes of the array at `offset` of the appended data (raw bytes, or characters of
        base64 text, up to the next array's offset)."""
        if self.appended_base64:
            later = [o for o in self.offsets if o > offset]
            return self._inline(self.appended[offset:later[0] if later else None].decode())
        data = self.appended
        header_bytes = self._header_bytes(data[offset:offset + self.header.itemsize])
        header = data[offset:offset + header_bytes]
        return self._payload(header, data[offset + header_bytes:])

    def _payload(self, header, body):
        """The raw bytes from a header and what follows it (zlib blocks or plain data)."""
        numbers = np.frombuffer(header, self.header)
        if not self.compressed:
            return body[:int(numbers[0])]
        raw, at = bytearray(), 0
        for size in numbers[3:].tolist():
            raw += zlib.decompress(body[at:at + size])
            at += size
        return bytes(raw)


def _split_appended(blob):
    """(XML text without the appended data, (appended bytes, base64?)). The appended section
    starts after '_' and is not XML when raw."""
    start = blob.find(b"<AppendedData")
    if start < 0:
        return blob, (b"", False)
    tag_end = blob.index(b">", start)
    encoding = re.search(rb'encoding="(\w+)"', blob[start:tag_end])
    data_start = blob.index(b"_", tag_end) + 1
    end = blob.rfind(b"</AppendedData>")
    data = blob[data_start:end if end > data_start else len(blob)]
    is_base64 = bool(encoding) and encoding.group(1) == b"base64"
    if is_base64:
        data = re.sub(rb"\s+", b"", data)
    return blob[:start] + b"</VTKFile>", (data, is_base64)


def _arrays(node, decoder):
    """{Name: values} of the DataArrays directly under `node` ({} when node is None)."""
    return {} if node is None else {e.get("Name"): decoder.array(e) for e in node.findall("DataArray")}


def read_vtu(path):
    """A .vtu file (simrun's frames/*.vtu, modes/*.vtu) as a VtuData: points, cells (tets,
    lines, triangles), point, cell and field data, as numpy arrays."""
    with open(path, "rb") as f:
        text, appended = _split_appended(f.read())
    root = ElementTree.fromstring(text)
    if root.get("type") != "UnstructuredGrid":
        raise ValueError(f"{path}: a {root.get('type')} file, not an UnstructuredGrid")
    piece = root.find("UnstructuredGrid/Piece")
    if piece is None:
        raise ValueError(f"{path}: no Piece")
    decoder = _Decoder(root, appended)
    points = piece.find("Points/DataArray")
    cells = _arrays(piece.find("Cells"), decoder)
    return VtuData(decoder.array(points) if points is not None else np.zeros((0, 3)),
                   cells.get("connectivity", np.zeros(0, np.int64)),
                   cells.get("offsets", np.zeros(0, np.int64)), cells.get("types", np.zeros(0, np.uint8)),
                   _arrays(piece.find("PointData"), decoder), _arrays(piece.find("CellData"), decoder),
                   _arrays(root.find("UnstructuredGrid/FieldData"), decoder))
