#!/usr/bin/python3
"""Kharevych thesis Fig. 2.4 and Fig. 3.5: step-size independent visco-elastic damping with a
variational integrator.

(a) Fig. 2.4, a damped bar flying and spinning: scenes/kharevych_flying_bar.json, a free
    neo-Hookean bar (1 x 0.2 x 0.2 m, 10 x 2 x 2 cubes x 5 tets, E = 1e5 Pa, nu = 0.3, no gravity)
    twisted by 90 degrees, drifting and spinning, integrated by the variational midpoint rule
    (h = 1 ms) with the thesis' explicit damping, k_D = 5 ms. The thesis: the deformation dies
    out and the body ends as a rigid body that keeps its linear and angular momentum.
    Checked: elastic energy at the end < 5 % of the start (quick mode, 0.3 s: < 60 %); |P| and |L| (energy.csv px..lz)
    change by < 1e-10 relative (Newton tolerance 1e-10 m/s).
(b) Fig. 3.5, the same damping at h and h/2 against damped Newmark at h and h/2: the thesis
    shows the variational runs' energy curves on top of each other and Newmark's apart. Newmark
    here is its numerically dissipative variant (gamma = 0.6, beta = (gamma + 1/2)^2 / 4 =
    0.3025), an assumption: the thesis does not say how its Newmark is damped. Checked: the energy
    lost at the end differs by < 2 % between h and h/2 for the viscous damping and by > 10 % for
    Newmark.
The thesis' bar mesh, material constants and k_D are not given; these are our choices.

Writes OUT/kharevych_damping_fig24.csv (t, kinetic, elastic, |P|, |L|),
OUT/kharevych_damping_fig35.csv (t and the total energy per run) and the .png figures.

usage: scripts/figures/kharevych_damping.py [--simrun PATH] [--out DIR] [--quick]
                                             [--format png|pdf|svg[,...]]
"""
import argparse
import csv
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENE = os.path.join(ROOT, "scenes", "kharevych_flying_bar.json")
H = 0.001
NEWMARK = {"/integrator/type": "newmark", "/damping": {}, "/integrator/newmark_gamma": 0.6,
           "/integrator/newmark_beta": 0.3025}


def run(binary, work, name, points, duration):
    """Energy rows per label of `points` ((label, h, extra settings)): one `simrun sweep`."""
    spec = [(label, {"/time/dt": h, "/time/steps": int(round(duration / h)), **extra})
            for label, h, extra in points]
    runs = simrun.run_sweep(SCENE, spec, work, name, fixed={"/output/frames": []}, binary=binary)
    return {label: simrun.read_run(r["dir"]).energy.rows()
            for label, r in runs.items()}


def norm(row, keys):
    return math.sqrt(sum(row[k] ** 2 for k in keys))


def figure_24(binary, work, duration, out_dir, formats, elastic_bound):
    rows = run(binary, work, "fig24", [("fig24", H, {})], duration)["fig24"]
    P = [norm(r, ("px", "py", "pz")) for r in rows]
    L = [norm(r, ("lx", "ly", "lz")) for r in rows]
    with open(os.path.join(out_dir, "kharevych_damping_fig24.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "kinetic", "elastic", "P", "L"])
        for r, p, l in zip(rows, P, L):
            w.writerow([r["t"], r["kinetic"], r["elastic"], p, l])
    elastic_ratio = rows[-1]["elastic"] / rows[0]["elastic"]
    dP = max(abs(p - P[0]) for p in P) / P[0]
    dL = max(abs(l - L[0]) for l in L) / L[0]
    print(f"(a) Fig. 2.4 flying bar, {duration:g} s: elastic energy {rows[0]['elastic']:.4g} J -> "
          f"{rows[-1]['elastic']:.4g} J ({100 * elastic_ratio:.2f} %), kinetic {rows[0]['kinetic']:.4g} "
          f"-> {rows[-1]['kinetic']:.4g} J; max relative change of |P| {dP:.1e}, of |L| {dL:.1e}")
    plt = plotting.pyplot()
    if plt:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
        t = [r["t"] for r in rows]
        ax1.plot(t, [r["elastic"] for r in rows], label="elastic")
        ax1.plot(t, [r["kinetic"] for r in rows], "--", label="kinetic")
        ax1.set_xlabel("t [s]")
        ax1.set_ylabel("energy [J]")
        ax1.legend()
        ax1.set_title(r"variational midpoint, $k_D$ = 5 ms")
        ax2.plot(t, [l / L[0] - 1 for l in L], label=r"$|L|/|L_0| - 1$")
        ax2.plot(t, [p / P[0] - 1 for p in P], "--", label=r"$|P|/|P_0| - 1$")
        ax2.set_xlabel("t [s]")
        ax2.set_ylabel("relative change")
        ax2.legend()
        ax2.set_title("momentum")
        fig.tight_layout()
        plotting.save_figure(fig, out_dir, "kharevych_damping_fig24", formats)
    return [(f"(a) elastic energy at the end < {100 * elastic_bound:g} % of the start",
             elastic_ratio < elastic_bound),
            ("(a) |P| and |L| kept to 1e-10", dP < 1e-10 and dL < 1e-10)]


def figure_35(binary, work, duration, out_dir, formats):
    runs = run(binary, work, "fig35", [("viscous h", H, {}), ("viscous h/2", H / 2, {}),
                                       ("Newmark h", H, NEWMARK), ("Newmark h/2", H / 2, NEWMARK)],
               duration)
    lost = {k: r[0]["total"] - r[-1]["total"] for k, r in runs.items()}
    with open(os.path.join(out_dir, "kharevych_damping_fig35.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "t", "total"])
        for k, rows in runs.items():
            for r in rows:
                w.writerow([k, r["t"], r["total"]])
    print(f"(b) Fig. 3.5, energy lost over {duration:g} s [J]:")
    for k, v in lost.items():
        print(f"    {k:12s} {v:10.5f}")
    visc = abs(lost["viscous h"] - lost["viscous h/2"]) / lost["viscous h/2"]
    nm = abs(lost["Newmark h"] - lost["Newmark h/2"]) / lost["Newmark h/2"]
    print(f"    h vs h/2: viscous damping differs by {100 * visc:.3f} %, damped Newmark by "
          f"{100 * nm:.1f} %")
    plt = plotting.pyplot()
    if plt:
        fig, ax = plt.subplots(figsize=(6.4, 4))
        for i, (k, rows) in enumerate(runs.items()):
            ax.plot([r["t"] for r in rows], [r["total"] for r in rows], label=k,
                    **plotting.curve_style(i, len(rows)))
        ax.set_xlabel("t [s]")
        ax.set_ylabel("total energy [J]")
        ax.set_title("Fig. 3.5: viscous damping vs damped Newmark")
        ax.legend()
        fig.tight_layout()
        plotting.save_figure(fig, out_dir, "kharevych_damping_fig35", formats)
    return [("(b) viscous damping: energy lost at h and h/2 within 2 %", visc < 0.02),
            ("(b) damped Newmark: energy lost at h and h/2 differs by > 10 %", nm > 0.10)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="0.3 s instead of 2 s and 1 s")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        # Quick mode stops at 0.3 s, when the damping has removed about half the elastic energy.
        checks = figure_24(args.simrun, work, 0.3 if args.quick else 2.0, args.out, args.format,
                           0.6 if args.quick else 0.05)
        checks += figure_35(args.simrun, work, 0.3 if args.quick else 1.0, args.out, args.format)
    failed = [name for name, ok in checks if not ok]
    for name, ok in checks:
        print(f"  {'yes' if ok else 'NO '}  {name}")
    if failed:
        sys.exit(f"failed: {failed}")


if __name__ == "__main__":
    main()
