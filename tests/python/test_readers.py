#!/usr/bin/python3
"""The Python package's readers (python/simrun) against a real run: scenes/quickstart.json for a
few steps, with zlib-compressed and with plain frames. read_run's energy, stats and frames are
checked against the raw files, read_vtu's points against run.json's vertex count, the two frame
encodings against each other, and the VTK encodings simrun does not write (ascii, appended raw
and base64, UInt32 headers) against the same arrays re-encoded here.

    tests/python/test_readers.py [--simrun PATH] [unittest options]

Runs with the standard library's unittest (ctest python_readers); needs numpy.
"""
import argparse
import base64
import csv
import json
import math
import os
import struct
import sys
import tempfile
import unittest
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import numpy as np  # noqa: E402

import simrun  # noqa: E402

SCENE = os.path.join(ROOT, "scenes", "quickstart.json")
STEPS, EVERY = 8, 4
BINARY = None  # --simrun


def raw_rows(path):
    """A CSV file as the csv module reads it: the header and the rows of text."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


class RunReaders(unittest.TestCase):
    """read_run, read_csv, read_pvd and read_vtu on the quickstart's output folders."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        sets = {"/output/every": EVERY}
        cls.out = simrun.run(SCENE, os.path.join(cls.tmp.name, "zlib"), sets, steps=STEPS, threads=1,
                             binary=BINARY)
        cls.plain = simrun.run(SCENE, os.path.join(cls.tmp.name, "plain"), dict(sets, **{"/output/compress": False}),
                               steps=STEPS, threads=1, binary=BINARY)
        cls.result = simrun.read_run(cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_record_is_run_json(self):
        with open(os.path.join(self.out, "run.json")) as f:
            record = json.load(f)
        self.assertEqual(self.result.record, record)
        self.assertEqual(self.result.status, "finished")
        self.assertEqual(self.result.counts["steps_done"], STEPS)
        self.assertEqual(self.result.counts["objects"][0]["name"], "bar")

    def test_tables_hold_the_csv_files_values(self):
        for name, table in (("energy.csv", self.result.energy), ("stats.csv", self.result.stats)):
            header, rows = raw_rows(os.path.join(self.out, name))
            self.assertEqual(table.columns, header, name)
            self.assertEqual(table.num_rows, len(rows), name)
            for i, column in enumerate(header):
                self.assertEqual(table[column].dtype, np.float64, f"{name} {column}")
                self.assertEqual(table[column].tolist(), [float(r[i]) for r in rows], f"{name} {column}")
            self.assertEqual(table.rows()[-1], {c: float(v) for c, v in zip(header, rows[-1])}, name)
        self.assertEqual(self.result.energy.num_rows, STEPS + 1)  # step 0 and every step
        self.assertEqual(self.result.stats["step"].tolist(), list(range(1, STEPS + 1)))

    def test_text_cells_stay_text(self):
        path = os.path.join(self.tmp.name, "mixed.csv")
        with open(path, "w") as f:
            f.write("label,x,note\na,1,\nb,2.5,late\n")
        table = simrun.read_csv(path)
        self.assertEqual(table["label"].tolist(), ["a", "b"])
        self.assertEqual(table["x"].tolist(), [1.0, 2.5])
        self.assertEqual(table["note"].tolist(), ["", "late"])
        self.assertEqual(simrun.read_csv(path, as_text=True).rows()[0], {"label": "a", "x": "1", "note": ""})
        self.assertEqual(list(simrun.iter_csv(path, ["x"])), [{"x": 1.0}, {"x": 2.5}])
        with open(path, "w") as f:
            f.write("a,b\n1,\n")
        self.assertTrue(math.isnan(simrun.read_csv(path)["b"][0]))

    def test_frames_follow_frames_pvd(self):
        frames = self.result.frames
        self.assertEqual(len(frames), STEPS // EVERY + 1)
        self.assertEqual(len(frames), self.result.counts["frames"])
        for k, frame in enumerate(frames):
            self.assertEqual(frame.path, os.path.join(self.out, "frames", f"{k * EVERY:06d}.vtu"))
            self.assertTrue(os.path.exists(frame.path))
        dt = self.result.scene["time"]["dt"]
        self.assertAlmostEqual(frames[-1].time, STEPS * dt, delta=1e-12)

    def test_frame_points_and_cells_match_run_json(self):
        frame = self.result.frame(-1)
        counts = self.result.counts
        self.assertEqual(frame.points.shape, (counts["vertices"], 3))
        self.assertEqual(frame.tets.shape, (counts["tets"], 4))
        self.assertEqual(frame.num_cells, counts["tets"])
        self.assertEqual(frame.point_data["displacement"].shape, (counts["vertices"], 3))
        self.assertEqual(len(frame.cell_data["E"]), counts["tets"])
        self.assertAlmostEqual(frame.time, self.result.frames[-1].time, delta=1e-12)
        self.assertTrue(frame.points.flags.writeable)
        # Points at x = X + u: the rest frame's points plus this frame's displacement.
        rest = self.result.frame(0)
        np.testing.assert_allclose(frame.points - frame.point_data["displacement"], rest.points, atol=1e-12)

    def test_compressed_and_plain_frames_hold_the_same_arrays(self):
        zlib_frame = self.result.frame(-1)
        plain = simrun.read_run(self.plain).frame(-1)
        with open(self.result.frames[-1].path) as f:
            self.assertIn('compressor="vtkZLibDataCompressor"', f.read(2000))
        np.testing.assert_array_equal(zlib_frame.points, plain.points)
        np.testing.assert_array_equal(zlib_frame.connectivity, plain.connectivity)
        for name in zlib_frame.point_data:
            np.testing.assert_array_equal(zlib_frame.point_data[name], plain.point_data[name])
        for name in zlib_frame.cell_data:
            np.testing.assert_array_equal(zlib_frame.cell_data[name], plain.cell_data[name])


def encode(array, compressed, header="<Q"):
    """A DataArray's binary payload as VTK writes it: header, then the data."""
    data = array.tobytes()
    if not compressed:
        return struct.pack(header, len(data)) + data
    block = zlib.compress(data)
    return struct.pack(header[0] + 4 * header[1], 1, len(data), len(data), len(block)) + block


def vtu_text(arrays, mode, compressed=False, header="<Q"):
    """An UnstructuredGrid with `arrays` ({section: {name: (type, components, array)}}) in one
    encoding: "ascii", "binary" (inline base64, header and data encoded separately as VTK does),
    "appended" (raw) or "appended64" (base64)."""
    attributes = ' header_type="UInt32"' if header == "<I" else ""
    attributes += ' compressor="vtkZLibDataCompressor"' if compressed else ""
    text = f'<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" byte_order="LittleEndian"{attributes}>\n'
    text += '<UnstructuredGrid><Piece NumberOfPoints="4" NumberOfCells="1">\n'
    appended, offset = b"", 0
    for section, fields in arrays.items():
        text += f"<{section}>"
        for name, (vtk_type, components, values) in fields.items():
            text += f'<DataArray type="{vtk_type}" Name="{name}" NumberOfComponents="{components}"'
            if mode == "ascii":
                text += ' format="ascii">' + " ".join(repr(v) for v in values.ravel().tolist()) + "</DataArray>"
                continue
            payload = encode(values, compressed, header)
            if mode in ("binary", "appended64"):
                size = len(struct.pack(header, 0)) * (4 if compressed else 1)
                payload = base64.b64encode(payload[:size]) + base64.b64encode(payload[size:])
            if mode == "binary":
                text += ' format="binary">' + payload.decode() + "</DataArray>"
                continue
            text += f' format="appended" offset="{offset}"/>'
            appended += payload
            offset += len(payload)
        text += f"</{section}>"
    text += "</Piece></UnstructuredGrid>\n"
    blob = text.encode()
    if mode.startswith("appended"):
        encoding = "base64" if mode == "appended64" else "raw"
        blob += f'<AppendedData encoding="{encoding}">\n_'.encode() + appended + b"\n</AppendedData>\n"
    return blob + b"</VTKFile>\n"


class VtuEncodings(unittest.TestCase):
    """read_vtu on the encodings other writers use, built here from known arrays."""

    POINTS = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype="<f8")
    ARRAYS = {"Points": {"Points": ("Float64", 3, POINTS)},
              "Cells": {"connectivity": ("Int64", 1, np.arange(4, dtype="<i8")),
                        "offsets": ("Int64", 1, np.array([4], dtype="<i8")),
                        "types": ("UInt8", 1, np.array([10], dtype="u1"))},
              "PointData": {"u": ("Float32", 3, POINTS.astype("<f4") * 0.5)},
              "CellData": {"id": ("Int32", 1, np.array([7], dtype="<i4"))}}

    def check(self, blob):
        with tempfile.NamedTemporaryFile(suffix=".vtu") as f:
            f.write(blob)
            f.flush()
            grid = simrun.read_vtu(f.name)
        np.testing.assert_array_equal(grid.points, self.POINTS)
        np.testing.assert_array_equal(grid.tets, [[0, 1, 2, 3]])
        np.testing.assert_array_equal(grid.point_data["u"], self.POINTS * 0.5)
        self.assertEqual(grid.cell_data["id"].tolist(), [7])
        self.assertEqual(grid.cell_data_of("tetra")["id"].tolist(), [7])

    def test_ascii(self):
        self.check(vtu_text(self.ARRAYS, "ascii"))

    def test_inline_binary_with_separately_encoded_headers(self):
        for compressed in (False, True):
            for header in ("<Q", "<I"):
                with self.subTest(compressed=compressed, header=header):
                    self.check(vtu_text(self.ARRAYS, "binary", compressed, header))

    def test_appended_raw_plain_and_zlib(self):
        for compressed in (False, True):
            for header in ("<Q", "<I"):
                with self.subTest(compressed=compressed, header=header):
                    self.check(vtu_text(self.ARRAYS, "appended", compressed, header))

    def test_appended_base64_plain_and_zlib(self):
        for compressed in (False, True):
            with self.subTest(compressed=compressed):
                self.check(vtu_text(self.ARRAYS, "appended64", compressed))


class Runner(unittest.TestCase):
    """How simrun.run reports bad input and failures."""

    def test_bad_input_raises_scene_error_with_the_message(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(simrun.SceneError) as caught:
                simrun.run(SCENE, os.path.join(tmp, "out"), {"/time/dt": -1.0}, binary=BINARY)
        self.assertEqual(caught.exception.returncode, 1)
        self.assertIn("/time/dt", str(caught.exception))

    def test_run_arguments_encode_values_as_json(self):
        args = simrun.run_arguments("s.json", "o", {"/a": "si", "/b": [1, 2], "/c": True}, steps=3, threads=1)
        self.assertEqual(args, ["run", "s.json", "-o", "o", "--set", '/a="si"', "--set", "/b=[1, 2]",
                                "--set", "/c=true", "--steps", "3", "--threads", "1", "--force", "--quiet"])

    def test_a_missing_binary_is_named(self):
        with self.assertRaises(FileNotFoundError) as caught:
            simrun.find_binary(os.path.join(ROOT, "no", "such", "simrun"))
        self.assertIn("no/such/simrun", str(caught.exception))


def main():
    global BINARY
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    args, rest = parser.parse_known_args()
    BINARY = args.simrun
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
