#!/usr/bin/python3
"""Kharevych thesis Ch. 1 (a single 1D spring: explicit Euler vs symplectic Euler) and Fig. 3.1
(a pendulum: explicit Euler, implicit Euler, symplectic Euler): explicit Euler gains energy and
blows up, sooner for a larger step; implicit Euler loses energy; symplectic Euler keeps it
bounded.

(a) scenes/kharevych_spring.json: one 1 kg particle on a 100 N/m spring (w = 10 rad/s), the other
    end fixed, no gravity, pushed at 1 m/s along the spring (the rope lies along -y); 20 s at h = 0.01 and 0.03 s
    (h w = 0.1, 0.3) with `fe` and `symplectic_euler`.
(b) scenes/pendulum.json: a 1 kg particle on a 1 m stiff spring (1e4 N/m, a near-inextensible
    pendulum) released at 30 degrees under gravity; 10 s at h = 0.002 s with `fe`, `be` and
    `symplectic_euler`. The thesis' pendulum is a rigid rod; the spring's own mode (w = 100
    rad/s, h w = 0.2) is what explicit Euler amplifies first.
simrun stops a run whose energy grows by 1000x (exit 2, "diverged"): that time is reported as
the blow-up time, a result.

Checked: explicit Euler diverges in both (a) runs, earlier at the larger step, and in (b);
symplectic Euler's energy stays within 20 % of its start in (a) (within 20 % of the swing's
energy in (b)) with no growth between the first and last thirds; implicit Euler loses > 10 % of
the swing's energy in (b).

Writes OUT/kharevych_explicit_vs_symplectic.csv (run, t, total) and .png.

usage: scripts/figures/kharevych_explicit_vs_symplectic.py [--simrun PATH] [--out DIR] [--quick]
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
SPRING = os.path.join(ROOT, "scenes", "kharevych_spring.json")
PENDULUM = os.path.join(ROOT, "scenes", "pendulum.json")


def run(binary, work, name, scene, runs, duration):
    """[(label, method, h)] on one scene for `duration` seconds: one `simrun sweep`."""
    points = [(label, {"/integrator/type": method, "/time/dt": h,
                       "/time/steps": int(round(duration / h))}) for label, method, h in runs]
    done = simrun.run_sweep(scene, points, work, name, fixed={"/output/frames": []},
                            accept=("finished", "diverged"), binary=binary)
    results = []
    for label, _ in points:
        energy = simrun.read_run(done[label]["dir"]).energy
        rows = list(zip(energy["t"].tolist(), energy["total"].tolist(), energy["kinetic"].tolist()))
        results.append({"label": label, "rows": rows, "diverged": done[label]["status"] == "diverged",
                        "t_end": rows[-1][0]})
    return results


def band(rows, e0, scale, part):
    """Max |E - e0| / scale over the first (part = 0) or last (part = 2) third."""
    n = len(rows)
    seg = rows[part * n // 3:(part + 1) * n // 3]
    return max(abs(r[1] - e0) for r in seg) / scale


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="shorter runs (same checks)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    spring_time, pendulum_time = (15.0, 5.0) if args.quick else (20.0, 10.0)
    checks = []
    with tempfile.TemporaryDirectory() as work:
        spring = run(args.simrun, work, "spring", SPRING,
                     [(f"{m} h={h}", m, h) for h in (0.01, 0.03) for m in ("fe", "symplectic_euler")],
                     spring_time)
        pendulum = run(args.simrun, work, "pendulum", PENDULUM,
                       [(m, m, 0.002) for m in ("fe", "be", "symplectic_euler")], pendulum_time)
    print(f"(a) Ch. 1 spring, w = 10 rad/s, {spring_time:g} s:")
    for r in spring:
        e0 = r["rows"][0][1]
        if r["diverged"]:
            print(f"    {r['label']:24s} diverged at t = {r['t_end']:.2f} s")
        else:
            print(f"    {r['label']:24s} max |E - E0|/E0 first third {band(r['rows'], e0, e0, 0):.3f}, "
                  f"last third {band(r['rows'], e0, e0, 2):.3f}")
    fe01, se01, fe03, se03 = spring
    checks.append(("(a) explicit Euler blows up, earlier at the larger step",
                   fe01["diverged"] and fe03["diverged"] and fe03["t_end"] < fe01["t_end"]))
    for r in (se01, se03):
        e0 = r["rows"][0][1]
        checks.append((f"(a) symplectic Euler {r['label']}: bounded (< 20 %), no growth",
                       not r["diverged"] and band(r["rows"], e0, e0, 0) < 0.2
                       and band(r["rows"], e0, e0, 2) <= 1.2 * band(r["rows"], e0, e0, 0)))
    # The pendulum starts at E = 0 (gravity measured from rest): the swing's energy scale is the
    # largest kinetic energy of the symplectic run.
    fe, be, se = pendulum
    scale = max(r[2] for r in se["rows"])
    print(f"(b) Fig. 3.1 pendulum, h = 0.002 s, {pendulum_time:g} s (energy scale {scale:.3f} J):")
    for r in pendulum:
        if r["diverged"]:
            print(f"    {r['label']:18s} diverged at t = {r['t_end']:.2f} s")
        else:
            print(f"    {r['label']:18s} E at the end {r['rows'][-1][1] / scale:+.3f} of the scale, "
                  f"max |E - E0| first third {band(r['rows'], 0.0, scale, 0):.3f}, "
                  f"last third {band(r['rows'], 0.0, scale, 2):.3f}")
    checks.append(("(b) explicit Euler blows up", fe["diverged"]))
    checks.append(("(b) implicit Euler loses > 10 % of the swing's energy",
                   not be["diverged"] and be["rows"][-1][1] < -0.1 * scale))
    checks.append(("(b) symplectic Euler bounded (< 20 %), no growth",
                   not se["diverged"] and band(se["rows"], 0.0, scale, 0) < 0.2
                   and band(se["rows"], 0.0, scale, 2) <= 1.2 * band(se["rows"], 0.0, scale, 0)))
    with open(os.path.join(args.out, "kharevych_explicit_vs_symplectic.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "t", "total"])
        for r in spring + pendulum:
            for t, e, _ in r["rows"]:
                w.writerow([r["label"], t, e])
    plt = plotting.pyplot()
    if plt:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
        for i, r in enumerate(spring):
            ax1.plot([x[0] for x in r["rows"]], [x[1] for x in r["rows"]], label=r["label"],
                     **plotting.curve_style(i, len(r["rows"])))
        ax1.set_yscale("log")
        ax1.set_xlabel("t [s]")
        ax1.set_ylabel("total energy [J]")
        ax1.set_title("Ch. 1: 1D spring")
        ax1.legend(fontsize=8)
        for i, r in enumerate(pendulum):
            ax2.plot([x[0] for x in r["rows"]], [x[1] / scale for x in r["rows"]], label=r["label"],
                     **plotting.curve_style(i, len(r["rows"])))
        ax2.set_ylim(-1.5, 1.5)
        ax2.set_xlabel("t [s]")
        ax2.set_ylabel(r"$E / E_{swing}$")
        ax2.set_title("Fig. 3.1: pendulum")
        ax2.legend(fontsize=8)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "kharevych_explicit_vs_symplectic", args.format)
    for name, ok in checks:
        print(f"  {'yes' if ok else 'NO '}  {name}")
    failed = [name for name, ok in checks if not ok]
    if failed:
        sys.exit(f"failed: {failed}")


if __name__ == "__main__":
    main()
