#!/usr/bin/python3
"""Frames as ParaView sees them (issue 12: "Warp By Vector shows the motion twice"): runs a small
scene through `simrun run` with each output.points setting, opens frames.pvd with ParaView's own
Python (pvpython, Debian's paraview package) and applies Warp By Vector with its default settings,
as a user who warps out of habit does. Checks that

- "deformed" (the default): the default warp picks the all-zero `already_deformed` array, and the
  warped points are the frame's deformed points (the motion once), not X + 2u;
- "rest": the default warp picks `displacement`, and the warped points are X + u.

    tests/readers/check_frames_paraview.py --simrun build/apps/simrun/simrun
Exit 0 when all hold, 1 otherwise, 77 (ctest SKIP, with the reason) when pvpython is missing.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

SCENE = {
    "name": "paraview_check",
    "time": {"dt": 0.01, "steps": 6},
    "objects": [
        {"mesh": {"box": {"size": [1.0, 0.2, 0.2], "cells": [5, 2, 2]}},
         "material": {"model": "neohookean", "E": 1e5, "nu": 0.3, "density": 1000},
         "dirichlet": [{"select": {"side": "-x"}}]},
    ],
    "integrator": {"type": "be"},
    "output": {"every": 3},
}

# Runs inside pvpython: prints one JSON line with what the default warp did at the last frame.
PROBE = r'''
import json, sys
from paraview.simple import PVDReader, WarpByVector, servermanager
from vtk.numpy_interface import dataset_adapter as dsa
reader = PVDReader(FileName=sys.argv[1])
t = reader.TimestepValues[-1]
reader.UpdatePipeline(t)  # the arrays are known before the filter picks its default
warp = WarpByVector(Input=reader)
warp.UpdatePipeline(t)
def points(source):
    data = dsa.WrapDataObject(servermanager.Fetch(source))
    if hasattr(data, "GetNumberOfBlocks") and data.GetNumberOfBlocks():
        data = dsa.WrapDataObject(data.GetBlock(0))
    return data.Points, data.PointData["displacement"]
file_points, u = points(reader)
warped, _ = points(warp)
print(json.dumps({"vectors": list(warp.Vectors),
                  "warp_minus_file": float(abs(warped - file_points).max()),
                  "max_u": float(abs(u).max())}))
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simrun", required=True)
    args = parser.parse_args()
    pvpython = shutil.which("pvpython")
    if pvpython is None:
        print("SKIP: pvpython not found (Debian: apt-get install paraview python3-paraview); "
              "tests/readers/check_frames_meshio.py checks the same arrays with meshio")
        return 77
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as folder:
        probe = os.path.join(folder, "probe.py")
        with open(probe, "w") as f:
            f.write(PROBE)
        scene = os.path.join(folder, "scene.json")
        with open(scene, "w") as f:
            json.dump(SCENE, f)
        seen = {}
        for points in ("deformed", "rest"):
            out = os.path.join(folder, points)
            subprocess.run([args.simrun, "run", scene, "-o", out, "--quiet", "--threads", "1",
                            "--set", f'/output/points="{points}"'], check=True)
            probe_run = subprocess.run(
                [pvpython, "--force-offscreen-rendering", probe, os.path.join(out, "frames.pvd")],
                capture_output=True, text=True, timeout=300)
            lines = [l for l in probe_run.stdout.splitlines() if l.startswith("{")]
            if probe_run.returncode != 0 or not lines:
                print(probe_run.stdout + probe_run.stderr)
                check(False, f"pvpython read the {points} frames")
                continue
            seen[points] = json.loads(lines[-1])
            print(f"{points}: {seen[points]}")
        if "deformed" in seen:
            d = seen["deformed"]
            check(d["max_u"] > 1e-4, f"the bar moves (max |u| = {d['max_u']:.3g} m)")
            check(d["vectors"][-1] == "already_deformed",
                  f"deformed frames: the default warp takes already_deformed ({d['vectors']})")
            # Zeros added to the points: exact.
            check(d["warp_minus_file"] == 0.0,
                  "deformed frames: the default warp leaves the deformed points (the motion once)")
        if "rest" in seen:
            r = seen["rest"]
            check(r["vectors"][-1] == "displacement",
                  f"rest frames: the default warp takes displacement ({r['vectors']})")
            # X + u against X: the warp moves the points by the whole displacement.
            check(abs(r["warp_minus_file"] - r["max_u"]) <= 1e-12 * max(1.0, r["max_u"]),
                  "rest frames: the default warp moves the rest points by the displacement")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
