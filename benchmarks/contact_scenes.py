#!/usr/bin/python3
"""IPC contact's cost inside whole simrun steps (issue 14, Performance; docs/contact.md).

A neo-Hookean ball (scenes/meshes/sphere.off, r = 0.1 m, TetGen to about 50,000 tets; E 1e6,
nu 0.4, rho 1000, BE, dt 2 ms, Newton cap 100, one thread), three runs:

  contact   the ball starts 0.5 mm above a barrier plane moving down at 0.5 m/s: it touches in
            the first steps. Per step, stats.csv splits the contact work into contact_pairs_s
            (broad phase + distances of the active set), contact_ccd_s (the line search's
            CCD-limited feasible steps) and contact_assembly_s (barrier energies, gradients,
            projected Hessians). Target: (pairs + ccd + assembly) / wall_s <= 0.30 per contact
            step (median over the steps with contacts > 0).
  idle      the same ball 0.5 m above the plane with contact on: no pair is ever active.
  free      the same ball without "contact" and without the plane.
            Target: median step time idle / free <= 2 (CCD is never why a step without active
            pairs takes twice as long).

Prints the split and the two ratios with PASS/MISS; always exits 0 unless a run fails
(benchmarks inform). The broad-phase + CCD rate in candidate pairs per second is the
contact_ccd_bench kernel (scripts/bench.sh).

usage: benchmarks/contact_scenes.py [--simrun PATH] [--tets N] [--steps N] [--quick]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import simrun  # noqa: E402

SPLIT = ("contact_pairs_s", "contact_ccd_s", "contact_assembly_s")
# The whole step's split (stats.csv); the contact columns above are parts of these.
STEP_SPLIT = ("gradient_s", "hessian_s", "factor_s", "linear_solve_s", "line_search_s")


def ball_scene(tets, steps, height, speed, contact):
    scene = {
        "name": "contact_bench",
        "time": {"dt": 0.002, "steps": steps},
        "objects": [{
            "name": "ball",
            "mesh": {"file": os.path.join(ROOT, "scenes", "meshes", "sphere.off"),
                     "tetgen": {"target_tets": tets},
                     "transform": {"translate": [0, 0.1 + height, 0]}},
            "material": {"model": "neohookean", "E": 1e6, "nu": 0.4, "density": 1000},
            "initial": {"velocity": [0, -speed, 0]},
        }],
        "integrator": {"type": "be", "newton": {"max_iterations": 100}},
        "output": {"frames": []},
    }
    if contact:
        scene["contact"] = {"dhat": 1e-3}
        scene["obstacles"] = [{"plane": {"point": [0, 0, 0], "normal": [0, 1, 0]}}]
    return scene


def run(binary, work, name, scene):
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(scene, f, indent=1)
    out = simrun.run(path, os.path.join(work, name), threads=1, binary=binary)
    return simrun.read_run(out).stats.rows()


def verdict(ok):
    return "PASS" if ok else "MISS"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--tets", type=int, default=50000)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--quick", action="store_true", help="a 3,000-tet ball, 4 steps")
    args = parser.parse_args()
    tets, steps = (3000, 4) if args.quick else (args.tets, args.steps)
    with tempfile.TemporaryDirectory() as work:
        contact = run(args.simrun, work, "contact", ball_scene(tets, steps, 5e-4, 0.5, True))
        idle = run(args.simrun, work, "idle", ball_scene(tets, steps, 0.5, 0.0, True))
        free = run(args.simrun, work, "free", ball_scene(tets, steps, 0.5, 0.0, False))

    print(f"ball: ~{tets} tets requested, {steps} steps of 2 ms, BE, one thread")
    print("step  contacts  newton  wall_s   pairs_s  ccd_s    assembly_s  contact share")
    shares = []
    for row in contact:
        spent = sum(row[k] for k in SPLIT)
        share = spent / row["wall_s"] if row["wall_s"] > 0 else 0.0
        if row["contacts"] > 0:
            shares.append(share)
        print(f"{int(row['step']):4d}  {int(row['contacts']):8d}  {int(row['newton_iters']):6d}  "
              f"{row['wall_s']:.4f}  {row['contact_pairs_s']:.4f}   {row['contact_ccd_s']:.4f}   "
              f"{row['contact_assembly_s']:.4f}      {100 * share:5.1f} %")
    if not shares:
        print("no step had an active pair: the contact split is not measured")
        return 0
    share = statistics.median(shares)
    idle_step = statistics.median(r["wall_s"] for r in idle)
    free_step = statistics.median(r["wall_s"] for r in free)
    idle_share = statistics.median(sum(r[k] for k in SPLIT) / r["wall_s"] for r in idle)
    print(f"contact share of a contact step (median of {len(shares)}): {100 * share:.1f} % "
          f"(target <= 30 %) {verdict(share <= 0.30)}")
    contact_rows = [r for r in contact if r["contacts"] > 0]
    print("where a contact step's time went (median share of wall_s over the contact steps):")
    for key in STEP_SPLIT + ("contact_pairs_s", "contact_ccd_s", "contact_assembly_s"):
        part = statistics.median(r[key] / r["wall_s"] for r in contact_rows if r["wall_s"] > 0)
        print(f"  {key:20s} {100 * part:5.1f} %")
    rest = statistics.median(1 - sum(r[k] for k in STEP_SPLIT) / r["wall_s"]
                             for r in contact_rows if r["wall_s"] > 0)
    print(f"  {'rest (step set-up)':20s} {100 * rest:5.1f} %")
    print(f"step without active pairs: {idle_step:.4f} s with contact on, {free_step:.4f} s "
          f"without contact: ratio {idle_step / free_step:.2f} (target <= 2) "
          f"{verdict(idle_step / free_step <= 2.0)}; contact share there {100 * idle_share:.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
