#!/usr/bin/python3
"""Cantilever first bending frequency vs. mesh refinement, from `simrun modes`, against
Euler-Bernoulli beam theory. Writes OUT/cantilever_convergence.csv and .png and prints the table.

usage: scripts/figures/cantilever_convergence.py [--simrun PATH] [--out DIR] [--quick]
                                                  [--format png|pdf|svg[,...]]
"""
import argparse
import csv
import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
L, SIDE, E, RHO = 1.0, 0.05, 1e6, 1000.0


def euler_bernoulli_f1():
    beta_l = 1.87510406871196
    inertia, area = SIDE ** 4 / 12.0, SIDE * SIDE
    return beta_l ** 2 / (2 * math.pi * L * L) * math.sqrt(E * inertia / (RHO * area))


def first_frequency(binary, refine, workdir):
    scene = {
        "name": f"cantilever_r{refine}",
        "objects": [{
            "mesh": {"box": {"size": [L, SIDE, SIDE], "cells": [10 * refine, refine, refine], "split": 6}},
            "material": {"model": "linear", "E": E, "nu": 0.0, "density": RHO},
            "dirichlet": [{"select": {"side": "-x", "tol": 1e-9}}],
        }],
        "mass": "consistent",
    }
    path = os.path.join(workdir, f"r{refine}.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    out = os.path.join(workdir, f"out_r{refine}")
    simrun.call(["modes", path, "-n", "1", "-o", out, "--quiet"], binary=binary, check=True)
    return float(simrun.read_csv(os.path.join(out, "modes.csv"))["frequency_hz"][0])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="three refinements instead of five")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    refinements = [1, 2, 4] if args.quick else [1, 2, 4, 8, 12]
    f_eb = euler_bernoulli_f1()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for r in refinements:
            f1 = first_frequency(args.simrun, r, work)
            rows.append((r, 6 * 10 * r ** 3, f1, (f1 - f_eb) / f_eb))
    csv_path = os.path.join(args.out, "cantilever_convergence.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["refine", "tets", "f1_hz", "relative_error_vs_euler_bernoulli"])
        w.writerows(rows)
    print(f"Euler-Bernoulli f1 = {f_eb:.6g} Hz")
    print(f"{'refine':>6} {'tets':>7} {'f1 [Hz]':>10} {'error':>8}")
    for r, tets, f1, err in rows:
        print(f"{r:>6} {tets:>7} {f1:>10.5g} {100 * err:>7.1f}%")
    plt = plotting.pyplot()
    if plt:
        fig, ax = plt.subplots(figsize=(5, 3.5))
        ax.loglog([r[1] for r in rows], [r[3] for r in rows], "o-", label="P1 tets, consistent mass")
        ax.set_xlabel("tets")
        ax.set_ylabel(r"relative error of $f_1$ vs Euler-Bernoulli")
        ax.set_title(r"Cantilever $1 \times 0.05 \times 0.05$ m, $E = 10^6$ Pa, $\nu = 0$", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "cantilever_convergence", args.format)
    print(f"wrote {csv_path}")


if __name__ == "__main__":
    main()
