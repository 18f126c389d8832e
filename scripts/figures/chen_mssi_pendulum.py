#!/usr/bin/python3
"""Chen thesis Sec. 5.3.1, Fig. 5.2: kinetic energy of a stiff pendulum, MSSI vs SI.

A 1 kg bob on a spring of k = 1e4 N/m (the thesis writes "k = 1e4 m/s^2", i.e. k/m = 1e4 s^-2)
swings under gravity at h = 0.1 s. The thesis: SI damps the kinetic energy strongly; MSSI (SI
with only the material stiffness k s s^T implicit, eq. 5.8) keeps oscillating, at the same cost
per step (one linear solve).

Scene: scenes/chen_mssi_pendulum.json, a rope primitive of 2 particles (rest length 1 m, the
first one fixed, 1 kg each), released from rest at 30 degrees from the vertical, no damping,
100 steps (10 s). Not in the thesis (our choices): the rest length, the initial angle, the
duration. The script runs
  - SI and MSSI (`mssi_form` "derived", the default: (M + h D + h^2 K_s) dv = h (f - h K_s v)),
  - MSSI with `mssi_form` "literal" (thesis eq. 5.8 as printed: (M + h^2 K_s) dv = h f),
  - a reference: RK4 at h = 1e-3 (h*omega_spring = 0.1; quick mode h = 2e-3),
and measures per run the largest kinetic energy in the first and in the last 2 s, against the
reference and against m g L (1 - cos 30 deg), the kinetic energy at the bottom of the swing of
a rigid pendulum. The cost claim is checked on the counters of stats.csv (factorizations and
solves per step) and, in full mode, on the median wall time per step of 5 repeated runs, also
on a 2001-particle chain of the same springs, 0.1 m and 10 g each, without gravity, moving at
0.1 m/s (the 2-particle pendulum takes a few us per step, too little to time).

Checks (exit 1 if one fails, quick mode too): SI's KE peak over the last 2 s is < 10 % of its
first-swing peak, MSSI's (derived) is > 50 % of it, and both take 1 factorization and 1 solve
per step.

Writes OUT/chen_mssi_pendulum.csv (t and kinetic energy per run; the reference sampled at the
h = 0.1 steps) and OUT/chen_mssi_pendulum.png.

usage: scripts/figures/chen_mssi_pendulum.py [--simrun PATH] [--out DIR] [--quick]
                                              [--format png|pdf|svg[,...]]
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
SCENE = os.path.join(ROOT, "scenes", "chen_mssi_pendulum.json")
H = 0.1
STEPS = 100
WINDOW = 2.0  # s: the first and last windows whose KE peaks are compared
RUNS = [("si", "SI", {"/integrator/type": "si"}), ("mssi", "MSSI", {"/integrator/type": "mssi"}),
        ("mssi_literal", "MSSI literal (eq. 5.8)", {"/integrator/type": "mssi",
                                                     "/integrator/mssi_form": "literal"})]


def outcome(out):
    """energy.csv, stats.csv and run.json's status of a run folder."""
    result = simrun.read_run(out)
    return {"status": result.status, "message": result.record.get("message", ""),
            "energy": result.energy.rows(), "stats": result.stats.rows()}


def simulate(binary, work, label, sets, timeout=300):
    """One run by itself: the timing repeats (a sweep runs each point once); sets: (pointer,
    value) pairs. A run past the timeout stops the script (RunError)."""
    out = os.path.join(work, label)
    process = simrun.call(simrun.run_arguments(SCENE, out, [("/output/frames", [])] + sets, threads=1, force=False),
                          binary=binary, timeout=timeout)
    if process.timed_out:
        simrun.raise_for_status(process, out)
    return dict(outcome(out), rc=process.returncode)


def peak(energy, t0, t1):
    return max(e["kinetic"] for e in energy if t0 - 1e-9 <= e["t"] <= t1 + 1e-9)


def step_wall(stats):  # median wall time of one step [s]
    return statistics.median(r["wall_s"] for r in stats)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true",
                        help="reference RK4 at h = 2e-3 instead of 1e-3, no timing repeats")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    t_end = H * STEPS
    h_ref = 2e-3 if args.quick else 1e-3
    n_ref = round(t_end / h_ref)
    runs = {}
    with tempfile.TemporaryDirectory() as work:
        points = [(key, sets) for key, _, sets in RUNS]
        points.append(("ref", {"/integrator/type": "rk4", "/time/dt": h_ref, "/time/steps": n_ref}))
        done = simrun.run_sweep(SCENE, points, work, "pendulum", fixed={"/output/frames": []}, time_limit=300,
                                accept=("finished", "diverged", "failed", "interrupted"), binary=args.simrun)
        runs = {key: outcome(done[key]["dir"]) for key, _ in points}
        timing = {}
        if not args.quick:  # cost per step: median of 5 repeats, on the pendulum and on a long chain
            # No gravity, a small uniform velocity: a swinging 2001-particle chain under gravity at
            # h = 0.1 gains energy without bound with MSSI (its explicit geometric stiffness, the
            # thesis' "unstable as size and stiffness increase"), and only the cost is wanted here.
            chain = [("/objects/0/mesh/rope/particles", 2001), ("/objects/0/mesh/rope/length", 200),
                     ("/objects/0/material/particle_mass", 0.01), ("/gravity", [0, 0, 0]),
                     ("/objects/0/initial/velocity", [0, 0, 0.1])]
            for key in ("si", "mssi"):
                for system, extra in (("pendulum", []), ("chain2001", chain)):
                    timed = [simulate(args.simrun, work, f"t_{key}_{system}_{i}",
                                      [("/integrator/type", key)] + extra) for i in range(5)]
                    timing[(key, system)] = (statistics.median(step_wall(r["stats"]) for r in timed),
                                             [r["rc"] for r in timed])

    ref = runs["ref"]["energy"]
    stride = round(H / h_ref)
    ref_coarse = ref[::stride]  # sampled at t = 0, 0.1, ...
    csv_path = os.path.join(args.out, "chen_mssi_pendulum.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t"] + [f"kinetic_{k}" for k, _, _ in RUNS] + [f"kinetic_rk4_h{h_ref:g}"])
        for i in range(STEPS + 1):
            row = [f"{i * H:.10g}"]
            for key, _, _ in RUNS:
                e = runs[key]["energy"]
                row.append(f"{e[i]['kinetic']:.10g}" if i < len(e) else "")
            row.append(f"{ref_coarse[i]['kinetic']:.10g}" if i < len(ref_coarse) else "")
            w.writerow(row)

    m, g, L, theta = 1.0, 9.81, 1.0, math.radians(30)
    ke_rigid = m * g * L * (1 - math.cos(theta))
    print(f"stiff pendulum: m = 1 kg, k = 1e4 N/m, L = 1 m, 30 deg, no damping, h = {H}, {t_end:g} s; "
          f"rigid-pendulum KE at the bottom m g L (1 - cos 30) = {ke_rigid:.4f} J")
    print(f"{'run':>24} {'status':>9} {'KE peak 0-2 s':>14} {'KE peak 8-10 s':>15} {'last/first':>10} "
          f"{'last/ref last':>13} {'fact/step':>9} {'solves/step':>11}")
    ref_last = peak(ref, t_end - WINDOW, t_end)
    result = {}
    for key, label in [(k, lb) for k, lb, _ in RUNS] + [("ref", f"RK4 h = {h_ref:g} (reference)")]:
        r = runs[key]
        e, st = r["energy"], r["stats"]
        first, last = peak(e, 0, WINDOW), peak(e, t_end - WINDOW, t_end) if e[-1]["t"] >= t_end - 1e-9 else float("nan")
        fact = sum(int(s["factorizations"]) for s in st) / max(len(st), 1)
        solves = sum(int(s["solves"]) for s in st) / max(len(st), 1)
        result[key] = (first, last, fact, solves, r["status"])
        print(f"{label:>24} {r['status']:>9} {first:>14.4f} {last:>15.4f} {last / first:>10.3f} "
              f"{last / ref_last:>13.3f} {fact:>9.2f} {solves:>11.2f}"
              + ("" if r["status"] == "finished" else f"  {r['message']}"))
    if timing:
        print("median wall time per step [us], 5 runs each:")
        for system in ("pendulum", "chain2001"):
            (si, si_rc), (ms, ms_rc) = timing[("si", system)], timing[("mssi", system)]
            print(f"  {system:>10}: SI {si * 1e6:8.1f}  MSSI {ms * 1e6:8.1f}  MSSI/SI {ms / si:.2f}"
                  + ("" if not any(si_rc + ms_rc) else f"  (exit codes SI {si_rc}, MSSI {ms_rc})"))

    failures = []
    si_first, si_last = result["si"][0], result["si"][1]
    ms_first, ms_last = result["mssi"][0], result["mssi"][1]
    print("thesis: SI damps the kinetic energy strongly; MSSI keeps oscillating; same cost per step")
    ok_si = result["si"][4] == "finished" and si_last < 0.1 * si_first
    ok_ms = result["mssi"][4] == "finished" and ms_last > 0.5 * ms_first
    ok_cost = all(result[k][2] == 1 and result[k][3] == 1 for k in ("si", "mssi"))
    print(f"  SI KE peak last 2 s / first 2 s = {si_last / si_first:.3g} (< 0.1: {'yes' if ok_si else 'NO'})")
    print(f"  MSSI KE peak last 2 s / first 2 s = {ms_last / ms_first:.3g} (> 0.5: {'yes' if ok_ms else 'NO'})")
    print(f"  1 factorization + 1 solve per step for both: {'yes' if ok_cost else 'NO'}")
    if not ok_si:
        failures.append("SI does not damp the swing")
    if not ok_ms:
        failures.append("MSSI does not keep the swing")
    if not ok_cost:
        failures.append("SI and MSSI differ in factorizations/solves per step")

    plt = plotting.pyplot()
    if plt:
        fig, ax = plt.subplots(figsize=(8.5, 3.6))
        ax.plot([e["t"] for e in ref], [e["kinetic"] for e in ref], color="0.7", lw=1,
                label=f"RK4 $h = {h_ref:g}$ s (reference)")
        # MSSI and its literal form nearly coincide: distinct markers (staggered) and dashes.
        styles = {"si": ("C3", "-"), "mssi": ("C0", "-"), "mssi_literal": ("C2", "--")}
        for i, (key, label, _) in enumerate(RUNS):
            e = runs[key]["energy"]
            c, ls = styles[key]
            style = plotting.curve_style(i, len(e), series=len(RUNS), marks=15)
            style.update(linestyle=ls, markersize=3.5)
            ax.plot([x["t"] for x in e], [x["kinetic"] for x in e], color=c, lw=1.2, label=f"{label}, $h = {H}$ s",
                    **style)
        ax.set_xlabel(r"$t$ [s]")
        ax.set_ylabel(r"$E_\mathrm{kin}$ [J]")
        ax.set_title(r"Stiff pendulum (Chen thesis Fig. 5.2): $m = 1$ kg, $k = 10^4$ N/m", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))  # outside: the swings fill the axes
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "chen_mssi_pendulum", args.format)
    print(f"wrote {csv_path}")
    if failures:
        sys.exit("; ".join(failures))


if __name__ == "__main__":
    main()
