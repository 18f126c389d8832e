#!/usr/bin/python3
"""EigenFit (Chen et al., SCA 2019) Fig. 5: the first three eigenvalues over time of a soft
(E = 1e4 Pa) and a stiff (E = 1e5 Pa) neo-Hookean bar, with the per-step mode-tracking test
(Sec. 3.5: the step's modes against the rest modes, |U^T M U_rest| > 0.6 in at
least half of the columns). The paper's claim: the soft bar's modes cross (the tracking test is
what detects it), the stiff bar's do not.

Scene: scenes/eigenfit_bar.json (1 x 0.2 x 0.2 m bar, 10 x 2 x 2 cubes x 6 tets, consistent mass,
beta = 0.01, SI, h = 0.01, m = s = 10, -x face fixed) with --set: neo-Hookean, no initial twist,
gravity 9.81 m/s^2 along -y from the straight rest state (the paper does not say how its bar is
loaded; gravity is a load that does not scale with E, so the soft bar deforms 10x more), no
reference run. simrun writes the corrected eigenvalues per step (eigenvalues.csv) and the
tracking counters (stats.csv: eigenfit_tracked, eigenfit_tracking_failed).

Writes OUT/eigenfit_fig5_modes.csv (t, lambda_1..3 and tracked modes for both bars) and .png;
prints, per bar, the range of lambda_1..3, the fewest modes that passed the tracking test in a
step and the steps that failed it. Exit 1 when a run fails or when the soft bar does not track
worse than the stiff one (fewest passing modes).

usage: scripts/figures/eigenfit_fig5_modes.py [--simrun PATH] [--out DIR] [--quick]
                                               [--format png|pdf|svg[,...]]
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
SCENE = os.path.join(ROOT, "scenes", "eigenfit_bar.json")
STIFFNESSES = [1e4, 1e5]


def run(binary, steps, work):
    """Both stiffnesses in one `simrun sweep`: eigenvalue and tracking rows per E."""
    fixed = {"/output/frames": [], "/reference/run": False, "/objects/0/material/model": "neohookean",
             "/objects/0/initial": {}, "/gravity": [0, -9.81, 0], "/time/steps": steps}
    points = [(E, {"/objects/0/material/E": E}) for E in STIFFNESSES]
    runs = simrun.run_sweep(SCENE, points, work, "fig5", fixed=fixed, binary=binary)
    out = {}
    for E, r in runs.items():
        result = simrun.read_run(r["dir"])
        eig, stats = result.table("eigenvalues"), result.stats
        failed = stats["eigenfit_tracking_failed"] > 0
        out[E] = {
            "t": eig["t"].tolist(),
            "lambda": [eig[f"lambda_{k}"].tolist() for k in (1, 2, 3)],
            "tracked": stats["eigenfit_tracked"].tolist(),
            "failed": [int(step) for step in stats["step"][failed].tolist()],
        }
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true",
                        help="the same run (the full mode takes ~3 s; the crossing is at 2.3 s)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    steps = 300

    with tempfile.TemporaryDirectory() as work:
        runs = run(args.simrun, steps, work)

    path = os.path.join(args.out, "eigenfit_fig5_modes.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t"] + [f"{name}_{E:g}" for E in STIFFNESSES
                            for name in ("lambda_1", "lambda_2", "lambda_3", "tracked")])
        for i, t in enumerate(runs[STIFFNESSES[0]]["t"]):
            row = [t]
            for E in STIFFNESSES:
                r = runs[E]
                row += [r["lambda"][0][i], r["lambda"][1][i], r["lambda"][2][i], r["tracked"][i]]
            w.writerow(row)

    print(f"EigenFit Fig. 5: neo-Hookean bar under gravity, {steps} steps of 10 ms, s = 10")
    print(f"{'E [Pa]':>8} {'lambda_1 range':>18} {'lambda_2 range':>18} {'lambda_3 range':>18}"
          f" {'fewest tracked':>15} {'failed steps':>13}")
    for E in STIFFNESSES:
        r = runs[E]
        ranges = ["%7.3g..%-7.3g" % (min(l), max(l)) for l in r["lambda"]]
        print(f"{E:8.0e} {ranges[0]:>18} {ranges[1]:>18} {ranges[2]:>18} "
              f"{min(r['tracked']):>12.0f}/10 {len(r['failed']):>13}")

    plt = plotting.pyplot()
    if plt:
        fig, axes = plt.subplots(2, 2, figsize=(10, 6), sharex=True)
        for col, E in enumerate(STIFFNESSES):
            r = runs[E]
            # The soft bar's lambda_2 and lambda_3 meet: a marker and dash per mode.
            for k in range(3):
                axes[0][col].plot(r["t"], r["lambda"][k], label=f"$\\lambda_{k + 1}$",
                                  **plotting.curve_style(k, len(r["t"]), series=3))
            axes[0][col].set_title(f"$E = {plotting.sci(E)}$ Pa")
            axes[0][col].set_ylabel(r"eigenvalue $\lambda_i$ [s$^{-2}$]")
            axes[0][col].legend()
            axes[1][col].plot(r["t"], r["tracked"], drawstyle="steps-post")
            axes[1][col].axhline(5, color="gray", linestyle=":")
            axes[1][col].set_ylabel("modes passing tracking (of 10)")
            axes[1][col].set_xlabel(r"$t$ [s]")
            axes[1][col].set_ylim(0, 10.5)
        fig.suptitle("EigenFit Fig. 5: first three eigenvalues over time, neo-Hookean bar under gravity "
                     "(dotted: half of the modes, the tracking test's threshold)", fontsize=10)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "eigenfit_fig5_modes", args.format)
    print(f"wrote {path}")

    def closest_gap(r):
        # Closest approach of lambda_3 to lambda_2 (relative): ~0 where the modes cross.
        return min((l3 - l2) / abs(l2) for l2, l3 in zip(r["lambda"][1], r["lambda"][2]))

    soft, stiff = (runs[E] for E in STIFFNESSES)
    gap_soft, gap_stiff = closest_gap(soft), closest_gap(stiff)
    print(f"closest approach (lambda_3 - lambda_2) / lambda_2: soft {gap_soft:.3g}, "
          f"stiff {gap_stiff:.3g}")
    fewest_soft, fewest_stiff = min(soft["tracked"]), min(stiff["tracked"])
    crossing = gap_soft < 0.1 and gap_stiff > 1.0
    mixing = fewest_soft < fewest_stiff
    print(f"paper: the soft bar's modes cross (lambda_3 meets lambda_2: "
          f"{'yes' if crossing else 'NO'}) and mix more (fewest tracked {fewest_soft:.0f} < "
          f"{fewest_stiff:.0f}: {'yes' if mixing else 'NO'}); the tracking test fails in "
          f"{len(soft['failed'])} (soft) and {len(stiff['failed'])} (stiff) steps")
    return 0 if crossing and mixing else 1


if __name__ == "__main__":
    sys.exit(main())
