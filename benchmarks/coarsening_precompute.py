#!/usr/bin/python3
"""Issue 9's precomputation target on a ~200k-tet organ stand-in (Kharevych thesis Fig. 4.1: a
liver of ~200k tets coarsened to ~640): the whole numerical-coarsening precomputation (tet
overlaps, the six harmonic solves, the tensors) against the time of fine-mesh steps, target
<= 20 steps, and the overlap rate over the whole overlap computation, target >= 1e6 tet pairs/s
(benchmarks/overlap_bench.cpp times the clipping kernel alone).

Organ: an ellipsoid with semi-axes 0.12 x 0.06 x 0.08 m with a branching tree of stiff tubes
(radius 9 mm; the tets whose centroid lies within, Medit reference 2), corotated tissue
E = 2e4 Pa, nu = 0.4, tubes 2e6 Pa, 1000 kg/m^3. Fine mesh: TetGen (through simrun, target
70,000 tets, ~188k in practice) on a 4-times subdivided icosahedron with its vertices on the
ellipsoid (scripts/figures/voxel_meshes.py), so it lies inside it. Coarse mesh: TetGen on a
once-subdivided icosahedron around the ellipsoid (80 triangles), target 60 tets (~460).

Timed, one thread, the coarsening cache in an empty folder:
  - `simrun coarsen` (--repeat runs, medians; it always recomputes): report.txt's overlap,
    harmonic-solve and tensor seconds (their sum is the precomputation) and the whole process;
  - the fine mesh alone: semi-implicit Euler steps (one assembly, one factorization and one
    solve each, the corotated model's stiffness changing every step), run.json's stepping
    seconds over --steps steps, dropped from rest under gravity.
Prints the ratios with PASS/MISS; exits 0 unless a run fails (benchmarks inform).

usage: benchmarks/coarsening_precompute.py [--simrun PATH] [--steps N] [--repeat N] [--quick]
"""
import argparse
import json
import os
import re
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "figures"))
import simrun  # noqa: E402
import voxel_meshes  # noqa: E402
from organ_stand_in import CENTRE, SEMI_AXES  # noqa: E402
import organ_stand_in  # noqa: E402

TARGET_STEPS = 20
TARGET_PAIRS_PER_S = 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--steps", type=int, default=5, help="fine SI steps timed")
    parser.add_argument("--repeat", type=int, default=3, help="`simrun coarsen` runs timed (medians)")
    parser.add_argument("--quick", action="store_true", help="a ~9k-tet fine mesh (a smoke test, not the target)")
    args = parser.parse_args()
    target, subdivisions = (1000, 3) if args.quick else (70000, 4)
    with tempfile.TemporaryDirectory() as work:
        fine, _, tets, regions = organ_stand_in.fine_mesh(args.simrun, work, target, subdivisions)
        fine_tets, tube_fraction = len(tets), float(np.mean(regions == 2))
        coarse = os.path.join(work, "organ_coarse.off")
        voxel_meshes.write_ellipsoid_off(coarse, CENTRE, SEMI_AXES, 1, around=True)
        scene = {"name": "organ", "format": 1, "time": {"dt": 0.005, "steps": args.steps},
                 "objects": [{"name": "organ", "mesh": {"file": coarse, "tetgen": {"target_tets": 60}},
                              "reference": {"mesh": {"file": fine}},
                              "coarsening": {"method": "harmonic"},
                              "material": {"model": "corotated", "E": 2e4, "nu": 0.4, "density": 1000},
                              "regions": [{"select": {"region": 2}, "E": 2e6}]}],
                 "gravity": [0, -9.81, 0], "mass": "lumped", "integrator": {"type": "si"},
                 "output": {"every": args.steps, "frames": []}}
        scene_file = os.path.join(work, "organ.json")
        with open(scene_file, "w") as f:
            json.dump(scene, f)

        walls, parts = [], []
        for r in range(args.repeat):
            out = os.path.join(work, f"coarsen{r}")
            wall = simrun.call(["coarsen", scene_file, "-o", out, "--threads", "1"], binary=args.simrun,
                               env={"SIMRUN_CACHE_DIR": os.path.join(work, "cache_coarsen")}, check=True).wall_seconds
            with open(os.path.join(out, "report.txt")) as f:
                report = f.read()
            times = dict(re.findall(r"(overlaps|harmonic solves|tensors) ([0-9.eE+-]+) s", report))
            walls.append(wall)
            parts.append([float(times[k]) for k in ("overlaps", "harmonic solves", "tensors")])
        coarsen_wall = float(np.median(walls))
        overlap_s, harmonic_s, tensor_s = (float(v) for v in np.median(np.array(parts), axis=0))
        pairs = int(re.search(r"(\d+) overlapping pairs", report).group(1))
        coarse_tets = int(re.search(r"onto (\d+) coarse", report).group(1))
        max_condition = float(re.search(r"max cond G_q ([0-9.eE+-]+)", report).group(1))
        precompute = overlap_s + harmonic_s + tensor_s

        fine_scene = json.loads(json.dumps(scene))
        fine_object = fine_scene["objects"][0]
        fine_object["mesh"] = {"file": fine}
        del fine_object["reference"], fine_object["coarsening"]
        fine_scene_file = os.path.join(work, "organ_fine.json")
        with open(fine_scene_file, "w") as f:
            json.dump(fine_scene, f)
        fine_out = os.path.join(work, "fine")
        simrun.run(fine_scene_file, fine_out, threads=1, binary=args.simrun,
                   env={"SIMRUN_CACHE_DIR": os.path.join(work, "cache_fine")})
        stepping = simrun.read_run(fine_out).wall_seconds["stepping"]
        per_step = stepping / args.steps

    print(f"organ stand-in: fine {fine_tets} tets ({tube_fraction * 100:.1f} % stiff tubes), coarse {coarse_tets} "
          f"tets, one thread; `simrun coarsen` times are medians of {args.repeat} runs")
    print(f"  precomputation: overlaps {overlap_s:.2f} s ({pairs} pairs), harmonic solves {harmonic_s:.2f} s, "
          f"tensors {tensor_s:.2f} s = {precompute:.2f} s; `simrun coarsen` whole process {coarsen_wall:.2f} s")
    print(f"  fine SI step (corotated): {per_step:.3f} s (the mean over {args.steps} steps)")
    print(f"  max cond G_q {max_condition:.4g} (simrun warns above 1e4)")
    ratio = precompute / per_step
    rate = pairs / overlap_s
    print("ratios")
    print(f"  precomputation / fine step (target <= {TARGET_STEPS})        {ratio:8.2f}  "
          f"{'PASS' if ratio <= TARGET_STEPS else 'MISS'}")
    print(f"  whole `simrun coarsen` / fine step                      {coarsen_wall / per_step:8.2f}")
    print(f"  overlap pairs per second, whole tet_overlaps (>= 1e6)   {rate:8.3g}  "
          f"{'PASS' if rate >= TARGET_PAIRS_PER_S else 'MISS'}  ({rate / TARGET_PAIRS_PER_S:.2f} x the target)")
    if args.quick:
        print("  (quick: a 9k-tet fine mesh; the targets are for ~200k)")


if __name__ == "__main__":
    main()
