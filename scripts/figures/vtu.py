"""The point coordinates of a simrun VTU frame, without VTK (chen_cloth.py, chen_rope_ere_rk4.py).

simrun writes inline binary arrays with a UInt64 header, either plain (base64 over [byte count]
[data]) or zlib-compressed (`output/compress`, the VTKFile's compressor="vtkZLibDataCompressor":
base64 over the header [blocks, block size, last block size, compressed size of each block],
then base64 over the compressed blocks). Both are read.
"""
import base64
import re
import struct
import zlib


def decode_array(data, compressed):
    """The raw bytes of one inline binary DataArray's base64 text (plain or zlib blocks)."""
    if compressed:
        blocks = struct.unpack("<Q", base64.b64decode(data[:12])[:8])[0]
        header_chars = 4 * -(-8 * (3 + blocks) // 3)  # base64 of (3 + blocks) UInt64, padded
        sizes = struct.unpack(f"<{3 + blocks}Q", base64.b64decode(data[:header_chars]))[3:]
        body = base64.b64decode(data[header_chars:])
        raw, at = bytearray(), 0
        for size in sizes:
            raw += zlib.decompress(body[at:at + size])
            at += size
        return bytes(raw)
    raw = base64.b64decode(data)
    return raw[8:8 + struct.unpack("<Q", raw[:8])[0]]


def points(path):
    """The frame's Points as a flat tuple x0, y0, z0, x1, ... (Float64)."""
    with open(path) as f:
        text = f.read()
    m = re.search(r'Name="Points"[^>]*format="binary">\s*([A-Za-z0-9+/=]+)\s*<', text)
    if not m:
        raise RuntimeError(f"{path}: no binary Points array")
    head = re.search(r"<VTKFile[^>]*>", text)
    compressed = bool(head and 'compressor="vtkZLibDataCompressor"' in head.group(0))
    raw = decode_array(m.group(1), compressed)
    return struct.unpack(f"<{len(raw) // 8}d", bytes(raw))
