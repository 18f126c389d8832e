#!/usr/bin/python3
"""Trusty et al. (multilevel sparse bases), Table 1: the statistics and parameters of every
scene simrun runs the multilevel solver on, beside the paper's, with the precomputation times
(the paper, Sec. 4, reports no precomputation times).

Columns, as in the paper: |V|, |F| (boundary triangles of the tet meshes), |T|, cubature points,
|U| (12 x SMS handles), dt, mu (friction), E range, TI (integrator), polish iterations (the
paper's "# CG iters": full-space refinement iterations). Added: the precomputation (partition,
bases, cubature fit) in seconds and the mean CG iterations per Newton iteration (affine + SMS +
polish) over the steps run.

Each scene runs a few steps with `"solver": {"type": "multilevel", "cubature": true}` (the
paper's cubature, so its point count is known) and its other settings as in the scene file
(scenes without multilevel settings get the defaults: 16 partitions, automatic polish count),
one thread. The counts come from run.json, frame 0 (VTU: E per tet, boundary faces) and
stats.csv. Our scenes are stand-ins a few times to a hundred times smaller than the paper's.

Must hold (exit 1 otherwise): every run finishes, every scene gets SMS handles and a cubature
rule with points on at most every tet.

Writes OUT/trusty_table1.csv and prints the table with the paper's rows.

usage: scripts/figures/trusty_table1.py [--simrun PATH] [--out DIR] [--quick] [--runs DIR]
Full mode: seven scenes (the Fig. 14 ball, the stressball stand-in, the Figs. 4, 8, 9 and 10
scenes, and the benchmark's shoe), 3 steps each (about a minute).
--quick: the Fig. 9 cantilever and the Fig. 4 layers, 1 step each (a few seconds).
"""
import argparse
import csv
import json
import os
import re
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import simrun  # noqa: E402
import multilevel_scenes  # noqa: E402  (the benchmark's shoe scene)

# (name, the paper's scene it stands in for, scene file or None for the benchmark's shoe)
SCENES = [
    ("Fig. 14 ball", "Basketball (Fig. 14)", "scenes/trusty_fig14_ball.json"),
    ("stressball stand-in", "Stressball (Fig. 18)", "scenes/ipc_stressball.json"),
    ("shoe stand-in (benchmark)", "Shoe (Fig. 17)", None),
    ("Fig. 8 impact", "Jello (Fig. 22)", "scenes/trusty_fig8_impact.json"),
    ("Fig. 4 layers", "(Fig. 4, 2D)", "scenes/trusty_fig4_layers.json"),
    ("Fig. 9 cantilever", "(Fig. 9, 2D)", "scenes/trusty_fig9_cantilever.json"),
    ("Fig. 10 H in a slab", "(Fig. 10, 2D)", "scenes/trusty_fig10_h_shape.json"),
]
QUICK = ["Fig. 9 cantilever", "Fig. 4 layers"]
# The paper's Table 1 (Trusty et al. Sec. 4), for the print-out.
PAPER = [
    ("Basketball hoop", "83k", "160k", "229k", "94k", "2k", 0.01, 0.1, "5e5-1e10", "BDF2", 20),
    ("Basketball", "61k", "124k", "168k", "33k", "1.5k", 0.01, 0.5, "1e7-1e9", "BDF2", 20),
    ("Kooshball", "150k", "245k", "450k", "13k", "4.8k", 0.01, 0.2, "5e5", "BDF2", 40),
    ("Shoe", "200k", "167k", "875k", "10k", "756", 0.01, 0.5, "1e6-1e8", "BDF2", 20),
    ("Roller", "110k", "85k", "516k", "34k", "2.1k", 0.01, 0.1, "2e4-1e6", "IE", 20),
    ("Stressball", "100k", "20k", "539k", "99k", "3k", 0.001, 0.5, "4e5-1e8", "BDF2", 20),
    ("Jello (hires)", "148k", "37k", "813k", "19k", "1.5k", 0.005, 0.1, "4e5-1e9", "BDF2", 20),
]
failures = []


def check(claim, ok):
    print(f"  [{'ok' if ok else 'FAILED'}] {claim}")
    if not ok:
        failures.append(claim)


def boundary_faces(tets):
    """Triangles used by exactly one tet."""
    faces = np.sort(np.concatenate([tets[:, [1, 2, 3]], tets[:, [0, 2, 3]], tets[:, [0, 1, 3]],
                                    tets[:, [0, 1, 2]]]), axis=1)
    _, counts = np.unique(faces, axis=0, return_counts=True)
    return int((counts == 1).sum())


def run_scene(args, work, name, path, steps):
    out = os.path.join(work, re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_"))
    sets = {"/solver/type": "multilevel", "/solver/cubature": True, "/output/frames": ["vtu"], "/output/every": 1000}
    process = simrun.call(simrun.run_arguments(path, out, sets, steps=steps, threads=1), binary=args.simrun)
    if process.returncode != 0:
        check(f"{name}: simrun exits 0 (got {process.returncode}: {process.output.strip()[-300:]})", False)
        return None
    with open(path) as f:
        scene = json.load(f)
    result = simrun.read_run(out)
    frame = result.frame(0)
    tets = frame.tets
    youngs = frame.cell_data_of("tetra")["E"]
    stats = result.stats.rows()
    newton = sum(r["newton_iters"] for r in stats)
    multilevel = result.counts.get("multilevel", {})
    seconds = result.wall_seconds
    handles = multilevel.get("sms_handles")
    row = {
        "scene": name, "V": len(frame.points), "F": boundary_faces(tets), "T": len(tets),
        "cubature_points": multilevel.get("cubature_points"),
        "U": 12 * handles if handles else None, "dt": scene["time"]["dt"],
        "mu": scene.get("contact", {}).get("friction", 0.0) if "contact" in scene else None,
        "E_min": float(youngs.min()), "E_max": float(youngs.max()),
        "TI": scene["integrator"]["type"].upper().replace("BE", "IE"),
        "polish": multilevel.get("polish_iterations"),
        "partition_s": seconds.get("multilevel_partition"),
        "bases_s": seconds.get("multilevel_bases"),
        "cubature_fit_s": seconds.get("cubature_fit"),
        "cg_per_newton": sum(r["cg_iters"] for r in stats) / newton if newton else None,
        "steps": len(stats),
    }
    check(f"{name}: {handles} SMS handles and a cubature rule of {row['cubature_points']} points on "
          f"{row['T']} tets", bool(handles) and row["cubature_points"] is not None
          and 0 < row["cubature_points"] <= row["T"])
    return row


def shoe_scene(work):
    path = os.path.join(work, "shoe.json")
    with open(path, "w") as f:
        json.dump(multilevel_scenes.scene("shoe", 6000, 40, 1e5, work), f)
    return path


def short(x):
    return "-" if x is None else (f"{x / 1000:.1f}k" if x >= 10000 else str(x))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="two small scenes, one step each")
    parser.add_argument("--runs", help="keep the simrun output folders here (default: a temporary folder)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    steps = 1 if args.quick else 3
    scenes = [s for s in SCENES if not args.quick or s[0] in QUICK]

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.abspath(args.runs or tmp)
        os.makedirs(work, exist_ok=True)
        for name, paper, path in scenes:
            path = shoe_scene(work) if path is None else os.path.join(ROOT, path)
            row = run_scene(args, work, name, path, steps)
            if row:
                row["paper_scene"] = paper
                rows.append(row)

    print(f"Trusty Table 1 analogue ({steps} step(s) per scene, multilevel with cubature, one thread)")
    header = (f"{'scene':28s} {'|V|':>7s} {'|F|':>7s} {'|T|':>7s} {'cub.pts':>7s} {'|U|':>5s} {'dt':>6s} "
              f"{'mu':>4s} {'E [Pa]':>13s} {'TI':>4s} {'polish':>6s} | {'part s':>6s} {'bases s':>7s} "
              f"{'fit s':>6s} {'CG/Newton':>9s}  stands in for")
    print(header)
    for r in rows:
        e = f"{r['E_min']:.0e}" if r["E_min"] == r["E_max"] else f"{r['E_min']:.0e}-{r['E_max']:.0e}"
        print(f"{r['scene']:28s} {short(r['V']):>7s} {short(r['F']):>7s} {short(r['T']):>7s} "
              f"{short(r['cubature_points']):>7s} {short(r['U']):>5s} {r['dt']:>6g} "
              f"{'-' if r['mu'] is None else format(r['mu'], 'g'):>4s} {e:>13s} {r['TI']:>4s} "
              f"{short(r['polish']):>6s} | {r['partition_s']:6.2f} {r['bases_s']:7.2f} "
              f"{r['cubature_fit_s'] if r['cubature_fit_s'] is not None else float('nan'):6.2f} "
              f"{r['cg_per_newton']:9.1f}  {r['paper_scene']}")
    print("paper (Table 1):")
    for p in PAPER:
        print(f"{p[0]:28s} {p[1]:>7s} {p[2]:>7s} {p[3]:>7s} {p[4]:>7s} {p[5]:>5s} {p[6]:>6g} {p[7]:>4g} "
              f"{p[8]:>13s} {p[9]:>4s} {p[10]:>6d}")
    keys = ["scene", "paper_scene", "V", "F", "T", "cubature_points", "U", "dt", "mu", "E_min", "E_max", "TI",
            "polish", "partition_s", "bases_s", "cubature_fit_s", "cg_per_newton", "steps"]
    path = os.path.join(args.out, "trusty_table1.csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    print("wrote", path)
    if failures:
        sys.exit(f"{len(failures)} check(s) failed")


if __name__ == "__main__":
    main()
