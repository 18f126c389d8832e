#!/usr/bin/python3
"""Survey Fig. 4 (after Chen et al. [12], thesis Table 6.2): the cost of ERE grows with the
stiffness because its Krylov approximation of phi_1(hJ) F needs more vectors, while SIERE's
cost "does not grow significantly with stiffness". The survey's figure is for a swinging
armadillo whose mesh, stiffness range and step are not given; we sweep Young's modulus over
five decades on a fixed scene instead.

Scene: scenes/survey_fig6_beam.json (the survey's Fig. 6 beam: 32 x 4 x 4 cubes x 5 tets,
0.8 x 0.1 x 0.1 m, both ends fixed, gravity, stable neo-Hookean, nu = 0.4, rho = 1000, lumped
mass, h = 0.01, from rest) with E = 1e5 ... 1e10 Pa set by --set, 20 steps per run. Methods:
ERE (Krylov dimension 30, tolerance 1e-7: the defaults, docs/exponential_integrators.md),
SIERE with s = 5 (the thesis' default; a Lanczos eigensolve every step) and SI. Runs go one at a
time on one thread, each capped at 300 s of wall time (a capped run is reported as "> 300 s"
with the steps it finished).

Measured per run from stats.csv, over steps 2..N (step 1 starts the eigensolver cold): the
median wall time per step, the median Krylov vectors (products with J) and substeps per step for
ERE, and for SIERE the shift-invert back-solves of the eigensolver (eigen_products) plus the
step's own solves. The slope of log(Krylov vectors) against log(E) over the stiff end says how
ERE's work grows: the Krylov work scales with h ||J|| ~ h omega_max ~ sqrt(E), slope 1/2.

Writes OUT/survey_fig4_cost.csv and .png, prints the table and the claims. Exit 1 if a SI or
SIERE run fails or a [checked] claim fails (those use the solver counters, not timings: on a
shared machine the wall times are noisy).

usage: scripts/figures/survey_fig4_cost.py [--simrun PATH] [--out DIR] [--quick] [--format png|pdf|svg[,...]]
(--quick: 16 x 2 x 2 cubes (320 tets), E = 1e5 ... 1e9, 4 steps per run.)
"""
import argparse
import csv
import math
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENE = os.path.join(ROOT, "scenes", "survey_fig6_beam.json")
METHODS = ["ere", "siere", "si"]
LABELS = {"ere": "ERE", "siere": "SIERE s=5", "si": "SI"}
COLORS = {"ere": "C1", "siere": "C0", "si": "C4"}
PLOT_LABELS = {"ere": "ERE", "siere": r"SIERE $s = 5$", "si": "SI"}
CAP_S = 300


def run(binary, method, young, steps, extra, work):
    """One run, one thread, capped at CAP_S s; extra: further (pointer, value) settings."""
    out = os.path.join(work, f"{method}_{young:g}")
    sets = [("/output/frames", []), ("/integrator/type", method), ("/integrator/modes", 5),
            ("/objects/0/material/E", young)] + extra
    process = simrun.call(simrun.run_arguments(SCENE, out, sets, steps=steps, threads=1, force=False), binary=binary,
                          timeout=CAP_S)
    if process.timed_out:
        rc, message = None, f"> {CAP_S} s"
    else:
        rc, message = process.returncode, process.output.strip()
    cpu = process.cpu_seconds
    path = os.path.join(out, "stats.csv")
    rows = simrun.read_csv(path).rows() if os.path.exists(path) else []
    body = rows[1:] or rows

    def med(key):
        return statistics.median(r[key] for r in body) if body else float("nan")
    # CPU time of the whole process (setup included, a few ms here) per step: unlike the wall
    # time it does not count the time the process waited for a core on a loaded machine.
    return {"method": method, "E": young, "rc": rc, "message": message, "steps": len(rows),
            "ms": 1e3 * med("wall_s"), "cpu_ms": 1e3 * cpu / max(len(rows), 1), "krylov_vectors": med("krylov_vectors"),
            "krylov_substeps": med("krylov_substeps"),
            "siere_solves": med("eigen_products") + med("solves") if body else float("nan"),
            "factorizations": med("factorizations")}


def slope(xs, ys):
    """Least-squares slope of log y against log x."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = statistics.mean(lx), statistics.mean(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="16 x 2 x 2 cubes, E = 1e5 ... 1e9, 4 steps")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.quick:
        youngs, steps, extra = [1e5, 1e6, 1e7, 1e8, 1e9], 4, [("/objects/0/mesh/box/cells", [16, 2, 2])]
    else:
        youngs, steps, extra = [1e5, 1e6, 1e7, 1e8, 1e9, 1e10], 20, []
    with tempfile.TemporaryDirectory() as work:
        res = {(m, e): run(args.simrun, m, e, steps, extra, work) for e in youngs for m in METHODS}

    csv_path = os.path.join(args.out, "survey_fig4_cost.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["method", "E", "status", "steps", "ms_per_step", "cpu_ms_per_step", "krylov_vectors_per_step",
                    "krylov_substeps_per_step", "siere_backsolves_per_step", "factorizations_per_step"])
        for r in res.values():
            status = "capped" if r["rc"] is None else r["rc"]
            w.writerow([r["method"], r["E"], status, r["steps"], r["ms"], r["cpu_ms"], r["krylov_vectors"],
                        r["krylov_substeps"], r["siere_solves"] if r["method"] == "siere" else "",
                        r["factorizations"]])

    print(f"beam {'16x2x2 (quick)' if args.quick else '32x4x4'} cubes x 5 tets, h = 0.01, {steps} steps per run; "
          "medians over steps 2..N")
    print("ms = median wall per step (CPU = process CPU time / steps)")
    print(f"{'E [Pa]':>8} | {'ERE ms (CPU)':>14} {'Krylov vec':>10} {'substeps':>8} | {'SIERE ms (CPU)':>14} "
          f"{'backsolves':>10} | {'SI ms (CPU)':>12} | {'ERE/SIERE CPU':>13}")
    for e in youngs:
        a, b, c = res[("ere", e)], res[("siere", e)], res[("si", e)]
        ere_ms = f"> {CAP_S} s" if a["rc"] is None else f"{a['ms']:.1f} ({a['cpu_ms']:.1f})"
        flag = "" if a["rc"] in (0, None) else f"  ERE exit {a['rc']}: {a['message'][:60]}"
        print(f"{e:>8.0e} | {ere_ms:>14} {a['krylov_vectors']:>10.0f} {a['krylov_substeps']:>8.1f} | "
              f"{b['ms']:>6.1f} ({b['cpu_ms']:>5.1f}) {b['siere_solves']:>10.1f} | "
              f"{c['ms']:>4.1f} ({c['cpu_ms']:>4.1f}) | "
              f"{a['cpu_ms'] / b['cpu_ms']:>13.2f}{flag}")
    failed = [f"{r['method']} E={r['E']:g}: exit {r['rc']}: {r['message']}" for r in res.values()
              if r["method"] != "ere" and r["rc"] != 0]
    for text in failed:
        print(text)

    ere = [res[("ere", e)] for e in youngs]
    siere = [res[("siere", e)] for e in youngs]
    si = [res[("si", e)] for e in youngs]
    vec = [r["krylov_vectors"] for r in ere]
    p = slope(youngs[-3:], vec[-3:])
    grow_ms = ere[-1]["ms"] / ere[0]["ms"]
    siere_work = [r["siere_solves"] for r in siere]
    siere_ms = [r["ms"] for r in siere]
    siere_cpu = [r["cpu_ms"] for r in siere]
    si_ms = [r["ms"] for r in si]
    print(f"ERE Krylov vectors per step grow {vec[-1] / vec[0]:.1f}x from E = {youngs[0]:g} to {youngs[-1]:g}; "
          f"log-log slope over the stiffest three: {p:.2f} (sqrt(E) scaling: 0.5)")
    print(f"ERE time per step grows {grow_ms:.1f}x (CPU {ere[-1]['cpu_ms'] / ere[0]['cpu_ms']:.1f}x); SIERE's max/min "
          f"over E {max(siere_ms) / min(siere_ms):.2f}x (CPU {max(siere_cpu) / min(siere_cpu):.2f}x), "
          f"SI's {max(si_ms) / min(si_ms):.2f}x")
    claims = [
        (True, "ERE's Krylov vectors per step never decrease as E grows",
         all(b >= a for a, b in zip(vec, vec[1:]))),
        (True, "ERE's Krylov vectors per step grow >= 10x over the range", vec[-1] >= 10 * vec[0]),
        (True, "SIERE's solver work per step (eigensolver back-solves + solves) varies < 1.5x over E",
         max(siere_work) <= 1.5 * min(siere_work)),
        (False, "ERE's time per step grows >= 10x over the range", grow_ms >= 10),
        (False, "SIERE's CPU time per step varies < 2x over E", max(siere_cpu) <= 2 * min(siere_cpu)),
        (False, "ERE is slower than SIERE at the stiffest E", ere[-1]["rc"] is None or ere[-1]["ms"] > siere[-1]["ms"]),
    ]
    ratio = [a["cpu_ms"] / b["cpu_ms"] for a, b in zip(ere, siere)]
    above = next((e for e, r in zip(youngs, ratio) if r > 1.5), None)
    print(f"ERE/SIERE CPU time per step: {ratio[0]:.2f} at E = {youngs[0]:g}, {ratio[-1]:.1f} at E = {youngs[-1]:g}; "
          + (f"first above 1.5 at E = {above:g}" if above else "never above 1.5"))
    # Thesis Table 6.2, ERE per 100x stiffness: ball 36 -> 112 s (3.1x), honeycomb 537 -> 5840 s (10.9x).
    print("ERE growth per 100x stiffness (Krylov vectors / CPU time), thesis Table 6.2: ball 3.1x, honeycomb 10.9x: "
          + ", ".join(f"{youngs[i]:g}->{youngs[i + 2]:g}: {vec[i + 2] / vec[i]:.1f}x / "
                      f"{ere[i + 2]['cpu_ms'] / ere[i]['cpu_ms']:.1f}x" for i in range(len(youngs) - 2)))
    print("survey Fig. 4: ERE's cost becomes prohibitive as the stiffness grows; SIERE's does not grow much")
    for checked, text, ok in claims:
        print(f"  {'yes' if ok else 'NO '}  {'[checked] ' if checked else ''}{text}")

    plt = plotting.pyplot()
    if plt:
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
        # ERE and SIERE cost the same at the soft end: a marker and dash per method.
        for i, m in enumerate(METHODS):
            rs = [res[(m, e)] for e in youngs]
            axes[0].loglog(youngs, [r["ms"] for r in rs], color=COLORS[m], label=PLOT_LABELS[m],
                           **plotting.curve_style(i, len(youngs)))
        axes[1].loglog(youngs, vec, color=COLORS["ere"], label="ERE: Krylov vectors", **plotting.curve_style(0, len(vec)))
        axes[1].loglog(youngs, siere_work, color=COLORS["siere"], label=r"SIERE $s = 5$: back-solves",
                       **plotting.curve_style(1, len(siere_work)))
        axes[0].set_ylabel("wall time per step [ms]")
        axes[1].set_ylabel("count per step")
        for ax in axes:
            ax.set_xlabel(r"Young's modulus $E$ [Pa]")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
        fig.suptitle("Cost vs stiffness, survey Fig. 6 beam (survey Fig. 4)", fontsize=10)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "survey_fig4_cost", args.format)
    print(f"wrote {csv_path}")
    bad = [text for checked, text, ok in claims if checked and not ok]
    if failed or bad:
        sys.exit(f"failed: {failed + bad}")


if __name__ == "__main__":
    main()
