#!/usr/bin/python3
"""Chen thesis Table 2.1: total Newton iterations of backward Euler over 20 steps of a
5-particle mass-spring chain, for spring constants k = 1e-1 ... 1e4 N/m.

Setup (the thesis gives 5 particles, 20 frames, h = 0.1 s; topology, masses and gravity are not
given in Sec. 2.2.1 or Table 2.1): a 1 m chain of 5 particles (4 springs of 0.25 m), 1 kg
each, pinned at the first particle, released horizontally (along +x) so it swings down under
gravity (9.81 m/s^2). BE with the thesis' Ch. 4 Newton settings: velocity-residual tolerance
1e-6, no line search, step halving when Newton stalls (20 iterations at most per solve).
One step per frame. The iteration count is the sum of stats.csv's newton_iters (halved
steps count the iterations of both halves).

Writes OUT/chen_table21_newton.csv (k, newton_iters_simrun, newton_iters_thesis,
bfgs_iters_thesis) and .png, and prints both columns. Exit 1 if a run fails or if the
iteration count does not grow with stiffness overall (last > first, as in the thesis).

usage: scripts/figures/chen_table21_newton.py [--simrun PATH] [--out DIR] [--quick]
                                               [--format png|pdf|svg[,...]]
(--quick is the same run: 6 x 20 steps of a 5-particle system take well under a second.)
"""
import argparse
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENE = os.path.join(ROOT, "scenes", "chen_table21_chain.json")
STIFFNESS = [1e-1, 1e0, 1e1, 1e2, 1e3, 1e4]
THESIS_NEWTON = [20, 20, 39, 45, 70, 80]
THESIS_BFGS = [59, 100, 205, 614, 1199, 1510]


def run(binary, work):
    """Total Newton iterations per k: one `simrun sweep` over the spring constant."""
    points = [(k, {"/objects/0/material/stiffness": k}) for k in STIFFNESS]
    runs = simrun.run_sweep(SCENE, points, work, "table21", binary=binary)
    return [sum(int(r["newton_iters"]) for r in simrun.read_run(runs[k]["dir"]).stats.rows()) for k in STIFFNESS]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="same as the full run (it is small)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        iters = run(args.simrun, work)  # a failed run stops the script with its message
    csv_path = os.path.join(args.out, "chen_table21_newton.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["k", "newton_iters_simrun", "newton_iters_thesis", "bfgs_iters_thesis"])
        for row in zip(STIFFNESS, iters, THESIS_NEWTON, THESIS_BFGS):
            w.writerow(row)
    print("5-particle chain, BE, h = 0.1 s, 20 steps: total Newton iterations")
    print(f"{'k [N/m]':>8} {'simrun':>7} {'thesis Newton':>14} {'thesis BFGS':>12}")
    for k, n, t, b in zip(STIFFNESS, iters, THESIS_NEWTON, THESIS_BFGS):
        print(f"{k:>8g} {n:>7d} {t:>14d} {b:>12d}")
    grows = iters[-1] > iters[0]
    monotone = all(b >= a for a, b in zip(iters, iters[1:]))
    print(f"grows with stiffness (last > first): {'yes' if grows else 'NO'}; "
          f"monotone: {'yes' if monotone else 'no'}; "
          f"exact thesis numbers: {'yes' if iters == THESIS_NEWTON else 'no'}")
    plt = plotting.pyplot()
    if plt:
        fig, ax = plt.subplots(figsize=(5.5, 3.6))
        ax.loglog(STIFFNESS, iters, "o-", label="simrun Newton (BE)")
        ax.loglog(STIFFNESS, THESIS_NEWTON, "s--", mfc="none", label="thesis Newton")
        ax.loglog(STIFFNESS, THESIS_BFGS, "^:", label="thesis BFGS")
        ax.set_xlabel(r"spring constant $k$ [N/m]")
        ax.set_ylabel("total iterations, 20 steps")
        ax.set_title("Chen thesis Table 2.1: 5-particle chain, BE, $h = 0.1$ s", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "chen_table21_newton", args.format)
    print(f"wrote {csv_path}")
    return 0 if grows else 1


if __name__ == "__main__":
    sys.exit(main())
