"""Reads simrun's VTU frames (inline base64 arrays with UInt64 byte-count headers)."""
import base64
import re
import struct

import numpy as np


def _array(text, name, dtype):
    match = re.search(r'Name="%s"[^>]*format="binary">\s*([^<\s]+)\s*<' % re.escape(name), text)
    if not match:
        raise KeyError(name)
    raw = base64.b64decode(match.group(1))
    count = struct.unpack("<Q", raw[:8])[0]
    return np.frombuffer(raw[8:8 + count], dtype=dtype)


def read_vtu(path):
    """Points (n x 3) and tets (m x 4, int64) of a frame."""
    text = open(path).read()
    points = _array(text, "Points", "<f8").reshape(-1, 3).copy()
    types = _array(text, "types", "u1")
    connectivity = _array(text, "connectivity", "<i8")
    tets = connectivity[:4 * int(np.sum(types == 10))].reshape(-1, 4).astype(np.int64)
    return points, tets


def read_point_vectors(path, name):
    """A per-point 3-vector array of a frame (e.g. displacement)."""
    return _array(open(path).read(), name, "<f8").reshape(-1, 3).copy()
