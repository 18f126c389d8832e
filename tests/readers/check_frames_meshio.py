#!/usr/bin/python3
"""Frames as a user's reader sees them: runs a small scene through `simrun run` and reads the
output with meshio (an independent VTU/OBJ reader, Debian's python3-meshio), checking

- compressed (zlib) and plain VTU frames decode to the same arrays;
- output.points "current": points = X + displacement (rest positions from step 0), and the
  active vectors are the all-zero "already_deformed" (so Warp By Vector does not apply the
  displacement twice);
- output.points "rest": points = X at every frame, displacement the active vectors;
- the cell arrays E, region, object, and the surface OBJ holding boundary vertices only;
- frames.pvd listing every frame with its time.

    tests/readers/check_frames_meshio.py --simrun build/apps/simrun/simrun
Exit 0 when all hold, 1 otherwise, 77 (ctest SKIP) when meshio is not installed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import meshio
    import numpy as np
except ImportError as e:
    print(f"SKIP: meshio/numpy not importable ({e}); scripts/setup.sh installs python3-meshio")
    sys.exit(77)

SCENE = {
    "name": "reader_check",
    "time": {"dt": 0.01, "steps": 6},
    "objects": [
        {"name": "bar", "mesh": {"box": {"size": [1.0, 0.2, 0.2], "cells": [5, 2, 2]}},
         "material": {"model": "neohookean", "E": 1e5, "nu": 0.3, "density": 1000},
         "dirichlet": [{"select": {"side": "-x"}}]},
        {"name": "cube", "mesh": {"box": {"size": [0.2, 0.2, 0.2], "cells": [1, 1, 1]},
                                  "transform": {"translate": [0, 1, 0]}},
         "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000}},
    ],
    "integrator": {"type": "be"},
    "output": {"every": 2, "surface": True},
}

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(simrun, folder, name, sets):
    out = os.path.join(folder, name)
    scene = os.path.join(folder, name + ".json")
    with open(scene, "w") as f:
        json.dump(SCENE, f)
    cmd = [simrun, "run", scene, "-o", out, "--quiet", "--threads", "1"]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True)
    return out


def frames(out):
    names = sorted(n for n in os.listdir(os.path.join(out, "frames")) if n.endswith(".vtu"))
    return [meshio.read(os.path.join(out, "frames", n)) for n in names], names


def active_vectors(path):
    with open(path, "rb") as f:
        head = f.read(4096).decode("latin-1")
    m = re.search(r'<PointData([^>]*)>', head)
    return re.search(r'Vectors="([^"]*)"', m.group(1)).group(1) if m and "Vectors=" in m.group(1) else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simrun", default="build/apps/simrun/simrun")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        zipped = run(args.simrun, folder, "zlib", [])
        plain = run(args.simrun, folder, "plain", ["/output/compress=false"])
        rest = run(args.simrun, folder, "rest", ["/output/points=\"rest\""])
        fz, names = frames(zipped)
        fp, _ = frames(plain)
        fr, _ = frames(rest)
        check(len(fz) == 4, f"4 frames (steps 0, 2, 4, 6): {names}")
        with open(os.path.join(zipped, "frames", names[-1]), "rb") as f:
            check(b'compressor="vtkZLibDataCompressor"' in f.read(2000), "zlib frames say so")
        same = all(np.array_equal(a.points, b.points) and
                   all(np.array_equal(a.point_data[k], b.point_data[k]) for k in a.point_data) and
                   all(np.array_equal(a.cell_data[k][0], b.cell_data[k][0]) for k in a.cell_data)
                   for a, b in zip(fz, fp))
        check(same, "compressed and plain frames decode to identical arrays")
        X = fz[0].points - fz[0].point_data["displacement"]
        moved = np.abs(fz[-1].point_data["displacement"]).max()
        check(moved > 1e-4, f"the bar moves (max |u| = {moved:.3g} m)")
        check(all(np.allclose(f.points, X + f.point_data["displacement"], atol=1e-12) for f in fz),
              "deformed points = X + displacement in every frame")
        check(active_vectors(os.path.join(zipped, "frames", names[-1])) == "already_deformed" and
              all(not f.point_data["already_deformed"].any() for f in fz),
              "deformed frames mark an all-zero already_deformed array as the active vectors "
              "(Warp By Vector by displacement would double the motion)")
        check(all(np.allclose(f.points, X, atol=1e-12) for f in fr), "rest frames: points = X")
        check(np.allclose(fr[-1].point_data["displacement"], fz[-1].point_data["displacement"]),
              "rest frames carry the same displacement")
        check(active_vectors(os.path.join(rest, "frames", names[-1])) == "displacement",
              "rest frames mark displacement as the active vectors")
        obj = fz[-1].cell_data["object"][0]
        n_bar = 5 * 2 * 2 * 5
        check(list(np.bincount(obj)) == [n_bar, 5], f"object ids per tet: {np.bincount(obj)}")
        check(set(np.unique(fz[-1].cell_data["E"][0])) == {1e5, 1e6}, "E per tet")
        surf = meshio.read(os.path.join(zipped, "surface", names[-1].replace(".vtu", ".obj")))
        boundary = np.unique(surf.cells_dict["triangle"])
        check(len(surf.points) == len(boundary),
              f"surface OBJ: {len(surf.points)} vertices, all on its {len(surf.cells_dict['triangle'])} triangles")
        # (6 x 3 x 3 grid vertices minus the 4 x 1 x 1 interior) + the cube's 8.
        check(len(surf.points) == 6 * 3 * 3 - 4 + 8, "surface OBJ holds the boundary vertices only")
        with open(os.path.join(zipped, "frames.pvd")) as f:
            times = [float(t) for t in re.findall(r'timestep="([^"]*)"', f.read())]
        check(times == [0.0, 0.02, 0.04, 0.06], f"frames.pvd times {times}")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
