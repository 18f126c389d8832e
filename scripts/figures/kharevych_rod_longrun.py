#!/usr/bin/python3
"""Kharevych thesis Figs. 3.3 and 3.4: long runs of the explicit variational integrator
(Stormer-Verlet) on a 160-tet elastic rod with a non-zero initial deformation and momentum, no
external forces, h = 0.004 s: without damping (Fig. 3.3: "energy remains stable, momenta exactly
preserved", 2 million steps, 8000 s) and with the thesis' explicit visco-elastic damping (Fig.
3.4: the energy decreases smoothly, the momenta stay exactly preserved).

Scene: scenes/kharevych_rod.json, a neo-Hookean rod 1 x 0.1 x 0.1 m (8 x 2 x 2 cubes x 5 tets =
160 tets), E = 2e4 Pa, nu = 0.3, rho = 1000, twisted by 60 degrees, drifting and spinning,
`verlet` at h = 0.004 s (h w_max ~ 1, inside Verlet's limit 2). The damped run adds
"damping": {"viscous": {"k_d": 0.002}} (the explicit form needs k_D w_max^2 h < 2). The thesis
gives neither the rod's size nor its material constants or k_D: these are our choices. The
thesis' modified neo-Hookean (Eq. 2.4) is simrun's `neohookean` up to the convention of mu
(Eq. 2.4 has no 1/2 on its isochoric term, so its mu is half the Lame shear modulus).

Checked (both modes): |P| and |L| (energy.csv px..lz) change by < 1e-10 relative over the run;
undamped: the total energy's deviation from its start over the last third of the run is within
1.2x its deviation over the first third (bounded, no drift); damped: the elastic energy at the
end is < 10 % of its start and the total energy never rises by more than 1e-9 relative between
samples 1 s apart.

Full mode: 2,000,000 steps per run (as the thesis; about 1 minute each); quick mode (ctest):
5,000 steps. The CSVs are streamed (energy.csv of a full run is ~300 MB) and decimated to
about 2000 points for OUT/kharevych_rod_longrun.csv and the figure.

usage: scripts/figures/kharevych_rod_longrun.py [--simrun PATH] [--out DIR] [--quick]
                                                [--steps N] [--format png|pdf|svg[,...]]
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
SCENE = os.path.join(ROOT, "scenes", "kharevych_rod.json")
DAMPING = {"viscous": {"k_d": 0.002}}
KEEP_POINTS = 2000


def run(binary, work, steps):
    """The undamped and the damped rod, both at once (`simrun sweep -j 2`): per run the
    decimated rows and statistics of its energy.csv."""
    runs = simrun.run_sweep(SCENE, [("undamped", {"/damping": {}}), ("damped", {"/damping": DAMPING})],
                            work, "rod", fixed={"/output/frames": [], "/time/steps": steps}, jobs=2,
                            binary=binary)
    return [read_energy(runs[label]["dir"], steps) for label in ("undamped", "damped")]


def read_energy(out, steps):
    """Streams OUT/energy.csv: decimated rows and the run's statistics."""
    every = max(1, steps // KEEP_POINTS)
    kept = []
    stats = {"dP": 0.0, "dL": 0.0, "first": 0.0, "last": 0.0, "rise": 0.0}
    third = steps // 3
    columns = ("t", "step", "total", "elastic", "px", "py", "pz", "lx", "ly", "lz")
    for row in simrun.iter_csv(os.path.join(out, "energy.csv"), columns):
        step = int(row["step"])
        total = row["total"]
        P = math.sqrt(sum(row[k] ** 2 for k in ("px", "py", "pz")))
        L = math.sqrt(sum(row[k] ** 2 for k in ("lx", "ly", "lz")))
        if step == 0:
            E0, P0, L0, elastic0 = total, P, L, row["elastic"]
            previous_sample = total
        stats["dP"] = max(stats["dP"], abs(P - P0) / P0)
        stats["dL"] = max(stats["dL"], abs(L - L0) / L0)
        deviation = abs(total - E0) / E0
        if step <= third:
            stats["first"] = max(stats["first"], deviation)
        if step >= 2 * third:
            stats["last"] = max(stats["last"], deviation)
        if step % 250 == 0 and step > 0:  # samples 1 s apart
            stats["rise"] = max(stats["rise"], (total - previous_sample) / E0)
            previous_sample = total
        if step % every == 0:
            kept.append((row["t"], total, row["elastic"], P, L))
    stats["elastic_ratio"] = kept[-1][2] / elastic0
    return kept, stats


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="5,000 steps instead of 2,000,000")
    parser.add_argument("--steps", type=int, help="steps per run (overrides the mode)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    steps = args.steps or (5000 if args.quick else 2_000_000)
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        (free, s_free), (damped, s_damped) = run(args.simrun, work, steps)
    with open(os.path.join(args.out, "kharevych_rod_longrun.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "t", "total", "elastic", "P", "L"])
        for label, rows in (("undamped", free), ("damped", damped)):
            for r in rows:
                w.writerow([label, *r])
    print(f"160-tet rod, Verlet, h = 0.004 s, {steps} steps ({steps * 0.004:g} s):")
    print(f"  Fig. 3.3 undamped: max |E - E0|/E0 first third {s_free['first']:.3e}, last third "
          f"{s_free['last']:.3e}; max relative change of |P| {s_free['dP']:.1e}, of |L| {s_free['dL']:.1e}")
    print(f"  Fig. 3.4 damped (k_D = 2 ms): elastic energy at the end {100 * s_damped['elastic_ratio']:.3g} % "
          f"of the start; largest rise of the total over 1 s {s_damped['rise']:.1e} of E0; "
          f"|P| {s_damped['dP']:.1e}, |L| {s_damped['dL']:.1e}")
    plt = plotting.pyplot()
    if plt:
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
        for ax, (label, rows) in zip(axes, (("Fig. 3.3: undamped", free), ("Fig. 3.4: damped", damped))):
            t = [r[0] for r in rows]
            ax.plot(t, [r[1] / rows[0][1] for r in rows], label=r"$E/E_0$")
            ax.plot(t, [r[4] / rows[0][4] for r in rows], "--", label=r"$|L|/|L_0|$")
            ax.plot(t, [r[3] / rows[0][3] for r in rows], ":", label=r"$|P|/|P_0|$")
            ax.set_xlabel("t [s]")
            ax.set_title(label)
            ax.legend()
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "kharevych_rod_longrun", args.format)
    checks = [
        ("undamped: |P|, |L| kept to 1e-10", s_free["dP"] < 1e-10 and s_free["dL"] < 1e-10),
        ("undamped: energy bounded, no drift (last third <= 1.2 x first third)",
         s_free["last"] <= 1.2 * s_free["first"]),
        ("damped: |P|, |L| kept to 1e-10", s_damped["dP"] < 1e-10 and s_damped["dL"] < 1e-10),
        ("damped: elastic energy at the end < 10 % of the start", s_damped["elastic_ratio"] < 0.1),
        ("damped: the total energy never rises over 1 s (1e-9 of E0)", s_damped["rise"] <= 1e-9),
    ]
    for name, ok in checks:
        print(f"  {'yes' if ok else 'NO '}  {name}")
    failed = [name for name, ok in checks if not ok]
    if failed:
        sys.exit(f"failed: {failed}")


if __name__ == "__main__":
    main()
