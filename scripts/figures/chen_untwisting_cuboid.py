#!/usr/bin/python3
"""Chen thesis Sec. 6.4.2 (Figs. 6.7-6.8): the untwisting cuboid. A free neo-Hookean cuboid
(E = 1e5 Pa, h = 0.01, no gravity) starts highly twisted about its long axis and is released.
The thesis: SI and ERE go unstable within a few steps, SIERE and BE are stable; SIERE's
elastic energy for s = 5, 6, 10, 20 (Fig. 6.7e): s = 6 already captures the motion, s = 5 is
"lively", s = 6 and 20 differ little.

Also (issue 13 part 6) rotation-aware damping: the same cuboid, twisted and spinning about its
axis at 5 rad/s, with Rayleigh damping beta = 0.005 s on the rest stiffness (which resists the
rigid spin: K_rest v != 0 for a rotation) and on the current stiffness (which does not), both
with SIERE s = 5 and BE.

Scene: scenes/chen_untwisting_cuboid.json (1 x 0.2 x 0.2 m, 25 x 5 x 5 cubes x 5 tets = 3125
tets, nu = 0.3, rho = 1000, twist 360 degrees, 150 steps; the thesis gives neither the size nor
the twist, see Chen thesis Sec. 6.4.2). The script runs BE (projected Newton with line
search, at most 50 iterations, tolerance 1e-6) and SI at the scene's twist and at larger twists
(the twist at which SI fails is itself a result), and reports for every run its status
and message, and for BE the Newton iterations per step.

The spin is measured by the angular momentum about the axis, energy.csv's lx (the cuboid has
no linear momentum, so lx about the origin is about its centre), and compared by its half-life
(the first time L_x(t) < L_x(0) / 2). The script fails unless SIERE (s = 5) finishes every twist
at which SI fails (it runs at the larger twists too), the rest-stiffness damping halves
the spin sooner than the current-stiffness damping for SIERE and BE, and, in quick mode, unless
s = 6 is within 6 % of s = 20 (Fig. 6.7e; measured 5 %). K(q) annihilates rigid rotations only
in an unstressed body (for a stressed one K(q)(w x x) = w x f, the geometric stiffness), so on
the twisted cuboid current-stiffness damping brakes the spin too, only more slowly.

Writes OUT/chen_untwisting_cuboid.csv (step, t, kinetic, elastic, total per run, lx for the
spinning runs), OUT/chen_untwisting_cuboid_newton.csv (BE Newton iterations per step) and three
figures: .png (total energy of BE and SI per twist), _siere.png (Fig. 6.7e) and _spin.png (the
spin kept, rest vs current stiffness damping).

usage: scripts/figures/chen_untwisting_cuboid.py [--simrun PATH] [--out DIR] [--quick]
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
SCENE = os.path.join(ROOT, "scenes", "chen_untwisting_cuboid.json")
METHODS = ["be", "si"]
# Fig. 6.7: SIERE with s modes, and ERE, at the scene's twist.
MODES = [5, 6, 10, 20]
SPIN = {"/objects/0/initial/angular_velocity": [5, 0, 0], "/damping/stiffness": 0.005}


def run_summary(r, method, angle):
    """One run's energies, Newton iterations and end status from its folder."""
    result = simrun.read_run(r["dir"])
    energy = result.energy.rows()
    iters = [int(n) for n in result.stats["newton_iters"].tolist()]
    return {"method": method, "angle": angle, "finished": r["status"] == "finished",
            "status": r["status"], "message": r["message"], "energy": energy, "iters": iters}


def columns(r):
    """The energy.csv columns the combined CSV keeps of a run (lx for the spinning ones)."""
    return ("kinetic", "elastic", "total") + (("lx",) if "_spin_" in r["method"] else ())


def spin_kept(r):
    """L_x(t) / L_x(0): the angular momentum about the cuboid's axis that a run keeps."""
    return [e["lx"] / r["energy"][0]["lx"] for e in r["energy"]]


def finish(fig, ax, ylabel, title, stem, args, grid="major"):
    """Labels (t on x), grid, legend and the figure files of one of the script's plots."""
    ax.set_xlabel(r"$t$ [s]")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which=grid, alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    plotting.save_figure(fig, args.out, stem, args.format)


def half_life(r):
    """The first time at which L_x(t) < L_x(0) / 2 (inf if never)."""
    return next((e["t"] for e, kept in zip(r["energy"], spin_kept(r)) if kept < 0.5), math.inf)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true",
                        help="10 x 2 x 2 cubes (200 tets), 40 steps instead of 25 x 5 x 5, 150 steps")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # 360 deg is the scene; the larger twists probe where SI (and BE) stop working. On the quick
    # mesh 1080 deg already inverts elements in the initial state (infinite neo-Hookean energy).
    angles = [360, 720] if args.quick else [360, 720, 1080]
    fixed = {"/output/frames": []}
    if args.quick:
        fixed.update({"/objects/0/mesh/box/cells": [10, 2, 2], "/time/steps": 40})
    # (label, method, twist, further settings); the method and twist are settings too.
    jobs = [(m, m, a, {}) for a in angles for m in METHODS]
    jobs += [(f"siere_s{s}", "siere", 360, {"/integrator/modes": s}) for s in MODES]
    # SIERE (s = 5) at the larger twists too: stable where SI is not (thesis Sec. 6.4.2).
    jobs += [("siere_s5", "siere", a, {"/integrator/modes": 5}) for a in angles if a != 360]
    jobs += [("ere", "ere", 360, {})]
    for at in ("rest", "current"):
        damping = {**SPIN, "/damping/stiffness_at": at}
        jobs += [(f"siere_s5_spin_{at}", "siere", 360, {**damping, "/integrator/modes": 5}),
                 (f"be_spin_{at}", "be", 360, damping)]
    points = [((label, angle), {"/integrator/type": method,
                                "/objects/0/initial/twist/angle_deg": angle, **sets})
              for label, method, angle, sets in jobs]
    with tempfile.TemporaryDirectory() as work:
        # Two runs at a time, one thread each. Divergence and failure are results here.
        done = simrun.run_sweep(SCENE, points, work, "cuboid", fixed=fixed, jobs=2,
                                accept=("finished", "diverged", "failed"), binary=args.simrun)
        runs = [run_summary(done[key], key[0], key[1]) for key, _ in points]

    steps = max(len(r["energy"]) for r in runs)
    csv_path = os.path.join(args.out, "chen_untwisting_cuboid.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "t"] + [f"{c}_{r['method']}_{r['angle']}" for r in runs
                                    for c in columns(r)])
        for i in range(steps):
            row = [i, None]
            for r in runs:
                e = r["energy"][i] if i < len(r["energy"]) else None
                if e and row[1] is None:
                    row[1] = e["t"]
                row += [e[c] for c in columns(r)] if e else [""] * len(columns(r))
            w.writerow(row)
    be_runs = [r for r in runs if r["method"] == "be"]
    with open(os.path.join(args.out, "chen_untwisting_cuboid_newton.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step"] + [f"newton_iters_be_{r['angle']}" for r in be_runs])
        for i in range(max(len(r["iters"]) for r in be_runs)):
            w.writerow([i + 1] + [r["iters"][i] if i < len(r["iters"]) else "" for r in be_runs])

    total_steps = 40 if args.quick else 150
    print(f"untwisting cuboid {'10x2x2 (quick)' if args.quick else '25x5x5'} cubes x 5 tets, "
          f"neo-Hookean E = 1e5, h = 0.01, {total_steps} steps")
    print(f"{'method':>22} {'twist':>6} {'status':>9} {'steps':>5} {'E0 [J]':>9} {'E_end [J]':>10} "
          f"{'KE_end [J]':>10} {'newton mean/max':>16}  message")
    for r in runs:
        e, it = r["energy"], r["iters"]
        newton = f"{sum(it) / len(it):.2f}/{max(it)}" if r["method"].startswith("be") and it else "-"
        print(f"{r['method']:>22} {r['angle']:>6} {r['status']:>9} {len(e) - 1:>5} "
              f"{e[0]['total']:>9.4g} {e[-1]['total']:>10.4g} {e[-1]['kinetic']:>10.4g} {newton:>16}  "
              f"{r['message']}")
    for r in be_runs:
        if r["iters"]:
            print(f"BE {r['angle']} deg Newton iterations per step: " + " ".join(map(str, r["iters"])))
    be_ok = all(r["finished"] for r in be_runs if r["angle"] == 360)
    si_fail = [r["angle"] for r in runs if r["method"] == "si" and not r["finished"]]
    print("thesis: SI goes unstable within a few steps, BE stays stable")
    print(f"  BE at the scene's 360 deg finished (all steps converged): {'yes' if be_ok else 'NO'}; "
          f"BE failed at twist(s): {[r['angle'] for r in be_runs if not r['finished']] or 'none'}")
    for r in runs:
        if not math.isfinite(r["energy"][0]["total"]):
            print(f"  note: {r['method']} {r['angle']} deg: the initial twist inverts elements (infinite "
                  "neo-Hookean energy), so this is no test of the integrator")
    print(f"  SI failed at twist(s): {si_fail if si_fail else 'none'}; finished at "
          f"{[r['angle'] for r in runs if r['method'] == 'si' and r['finished']]}")
    by_label = {r["method"]: r for r in runs if r["angle"] == 360}
    siere_ok = [s for s in MODES if by_label[f"siere_s{s}"]["finished"]]
    print(f"  SIERE finished at 360 deg for s = {siere_ok} of {MODES}; ERE: "
          f"{'finished' if by_label['ere']['finished'] else by_label['ere']['status']}")

    def elastic(label):
        return [e["elastic"] for e in by_label[label]["energy"]]

    def gap(a, b):  # max |difference| of elastic energy curves over the common steps, / E0
        x, y = elastic(a), elastic(b)
        n = min(len(x), len(y))
        return max(abs(x[i] - y[i]) for i in range(n)) / x[0]
    if set(siere_ok) >= {5, 6, 20}:
        print("Fig. 6.7e: max |elastic(s) - elastic(s = 20)| / E0: "
              + ", ".join(f"s = {s}: {gap(f'siere_s{s}', 'siere_s20'):.3f}" for s in MODES[:-1]))
    failures = []
    siere_at = {r["angle"]: r for r in runs if r["method"] == "siere_s5"}
    print("  SIERE s = 5 where SI failed: " + (", ".join(
        f"{a} deg {'finished' if siere_at[a]['finished'] else siere_at[a]['status']}" for a in si_fail)
        or "(SI failed nowhere)"))
    for a in si_fail:
        if not siere_at[a]["finished"]:
            failures.append(f"SIERE s = 5 did not finish the {a} deg twist, where SI fails")
    if args.quick and {6, 20} <= set(siere_ok) and not gap("siere_s6", "siere_s20") < 0.06:
        failures.append(f"Fig. 6.7e: s = 6 is {gap('siere_s6', 'siere_s20'):.3f} E0 from s = 20 (expected < 0.06)")
    print("rotation-aware damping (spinning at 5 rad/s, beta = 0.005 s): half-life of the angular "
          "momentum about the axis L_x, L_x(T) / L_x(0) and kinetic energy at the end")
    for method in ("siere_s5", "be"):
        rest, current = by_label[f"{method}_spin_rest"], by_label[f"{method}_spin_current"]
        half_rest, half_current = half_life(rest), half_life(current)
        print(f"  {method}: rest stiffness {half_rest:.3g} s ({spin_kept(rest)[-1]:.3f}, "
              f"{rest['energy'][-1]['kinetic']:.4g} J), current stiffness {half_current:.3g} s "
              f"({spin_kept(current)[-1]:.3f}, {current['energy'][-1]['kinetic']:.4g} J): rest "
              f"damps the spin{'' if half_rest < half_current else ' NOT'} faster")
        if not half_rest < half_current:
            failures.append(f"{method}: the spin's half-life is {half_rest:.3g} s with rest-stiffness "
                            f"damping, {half_current:.3g} s with current")

    plt = plotting.pyplot()
    if plt:
        fig, ax = plt.subplots(figsize=(6, 3.8))
        colors = {360: "C0", 720: "C1", 1080: "C3"}
        shown = [r for r in runs if r["method"] in METHODS]
        for i, r in enumerate(shown):
            t = [e["t"] for e in r["energy"]]
            tot = [e["total"] for e in r["energy"]]
            label = f"{r['method'].upper()} ${r['angle']}^\\circ$" + ("" if r["finished"] else f" ({r['status']})")
            # BE and SI start at the same energy: markers keep both visible where they meet.
            style = plotting.curve_style(i, len(t), series=len(shown))
            style["linestyle"] = "-" if r["method"] == "be" else "--"
            if not r["finished"]:
                style.update(marker="x", markevery=None)
            ax.semilogy(t, [max(x, 1e-12) for x in tot], color=colors.get(r["angle"], "k"), label=label, **style)
        finish(fig, ax, r"$E_\mathrm{total}$ [J]",
               r"Untwisting neo-Hookean cuboid, $E = 10^5$ Pa, $h = 0.01$ s", "chen_untwisting_cuboid",
               args, grid="both")
        fig, ax = plt.subplots(figsize=(6, 3.8))  # Fig. 6.7e: elastic energy, SIERE per s
        # s = 6 and s = 10 nearly coincide: distinct markers and dashes.
        for i, s_modes in enumerate(MODES):
            r = by_label[f"siere_s{s_modes}"]
            ax.plot([e["t"] for e in r["energy"]], [e["elastic"] for e in r["energy"]], label=f"SIERE $s = {s_modes}$",
                    **plotting.curve_style(i, len(r["energy"]), series=len(MODES) + 1))
        r = by_label["be"]
        ax.plot([e["t"] for e in r["energy"]], [e["elastic"] for e in r["energy"]], "k", label="BE",
                **plotting.curve_style(len(MODES), len(r["energy"]), series=len(MODES) + 1))
        finish(fig, ax, r"$E_\mathrm{elastic}$ [J]",
               r"Untwisting cuboid, $360^\circ$: SIERE for $s = 5, 6, 10, 20$",
               "chen_untwisting_cuboid_siere", args)
        fig, ax = plt.subplots(figsize=(6, 3.8))  # rotation-aware damping: the spin kept
        spins = [(m, at) for m in ("siere_s5", "be") for at in ("rest", "current")]
        for i, (method, at) in enumerate(spins):
            r = by_label[f"{method}_spin_{at}"]
            style = plotting.curve_style(i, len(r["energy"]), series=len(spins))
            style["linestyle"] = "-" if at == "current" else "--"
            name = "SIERE $s = 5$" if method == "siere_s5" else "BE"
            ax.plot([e["t"] for e in r["energy"]], spin_kept(r), label=f"{name}, $K$ at {at}", **style)
        finish(fig, ax, r"$L_x(t) / L_x(0)$",
               r"Twisted cuboid spinning at 5 rad/s, $D = \beta K$, $\beta = 0.005$ s",
               "chen_untwisting_cuboid_spin", args)
    print(f"wrote {csv_path}")
    if not be_ok:
        failures.append("BE failed on the scene (360 deg twist)")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))


if __name__ == "__main__":
    main()
