#!/usr/bin/python3
"""Chen thesis Sec. 6.4.3, Figs. 6.9 and 6.10: energies over time of the hanging ball and of the
bouncing ball.

Fig. 6.9, hanging ball (scenes/chen_hanging_ball.json, our stand-in for the thesis' 1,018-vertex
/ 4,637-tet ball: a TetGen icosphere of radius 10 cm with ~4.7k tets, 2 cm shell E = 1e8 Pa
around a core E = 1e6 Pa, neo-Hookean, nu = 0.45, rho = 1000, lumped mass, top cap fixed,
gravity_scale 20 for the thesis' "uniform downward pulling force (20 x g)", h = 0.005, from
rest, 100 steps = the thesis' "100 frames" of Table 6.2). The thesis compares SI, SIERE (s = 5)
and ERE: "SIERE has as good an energy behavior as ERE", "SI damps out gravitation potential
very fast", "SI ... typical decline in energy, both ERE and SIERE are close to conserving it".
It also says that SI with a 5x smaller step showed "no clear damping reduction", and that with
the stiffness x 100 the cost of SI and SIERE stays constant while ERE's grows (x2 in the text,
36 s -> 112 s in Table 6.2). The thesis gives neither nu, density, the mesh, nor the duration
of the plot; the stiffness x 100 run scales both shell and core (1e10 / 1e8).

Fig. 6.10, bouncing ball (scenes/chen_bouncing_ball.json: the 10 cm icosphere, TetGen quality
1.5, 497 tets, homogeneous neo-Hookean E = 1e6 Pa, nu = 0.4, dropped from 40 cm clearance onto
a penalty floor k = 1e6 N/m per vertex (docs/obstacles.md), h = 0.005, 300 steps). The thesis'
text says "the same ball", its caption "a soft ball"; the scene follows the caption. Full mode
also drops it on a softer floor (k = 1e4 N/m), and drops the hanging ball's shell/core ball
(4.7k tets) on both floors. The thesis compares SIERE (s = 5) and SI: SI "loses height
faster", "does not recover the ball height after collision well and it loses the secondary
motion"; "SIERE preserves the energy level after two impacts". The floor stiffness and drop
height are not in the thesis.

Measured, hanging ball: the total-energy loss over the run relative to the largest |gravity
energy| of the ERE run (the energy that the oscillation exchanges); the oscillation energy
(total minus the static equilibrium's, where SI comes to rest) left after 5 and 25 ms, for SI at
h and at h/5; the per-step cost at both stiffnesses: median stats.csv wall_s, CPU time per step
(see run()) and Krylov vectors, and the same per 100 steps next to the thesis' Table 6.2.
Bouncing ball: the rebound after each impact (centre-of-mass rise over the drop), the energy
level after each impact (mechanical energy relative to resting on the floor, at the end of the
following flight), the median elastic energy in flight (secondary motion) and the largest
penalty energy (the step in which vertices first cross the floor stores energy in the penalty:
SI and SIERE see the floor one step late, docs/obstacles.md). The centre-of-mass height is
gravity / (M g), with M = 2 KE_1 / (h g)^2 from the free-fall first step (every integrator here
moves a free body under uniform gravity by v = h g in step 1).

Writes OUT/chen_ball_energies_hanging.csv, _bouncing.csv, _cost.csv and two PNGs, prints the
tables and the thesis' claims with yes/NO. Exit 1 if a run of SI or SIERE fails or if an
asserted claim (marked [checked]) fails.

usage: scripts/figures/chen_ball_energies.py [--simrun PATH] [--out DIR] [--quick]
                                              [--format png|pdf|svg[,...]]
(--quick: the hanging ball meshed with TetGen quality 1.5 and no volume bound (~500 tets), 40
steps, the stiffness x 100 cost over 3 steps, the bounce for 150 steps; no shell/core bounce.)
"""
import argparse
import csv
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HANGING = os.path.join(ROOT, "scenes", "chen_hanging_ball.json")
BOUNCING = os.path.join(ROOT, "scenes", "chen_bouncing_ball.json")
G = 9.81
H = 0.005
# Chen thesis Table 6.2, ball: CPU seconds for 100 frames at stiffness 1e8 and 1e10 (core i7).
THESIS_100 = {"si": (44, 42), "siere": (97, 96), "ere": (36, 112)}
CAP_S = 300  # wall-clock cap per run (ERE at stiffness x 100 costs seconds per step)
LABELS = {"si": "SI", "siere": "SIERE s=5", "ere": "ERE", "si_h5": "SI h/5"}
COLORS = {"si": "C4", "siere": "C0", "ere": "C1", "si_h5": "C3"}
PLOT_LABELS = {"si": "SI", "siere": r"SIERE $s = 5$", "ere": "ERE", "si_h5": r"SI $h/5$"}
# Scene settings as (JSON pointer, value) pairs.
SIERE = [("/integrator/modes", 5)]
STIFF_X100 = [("/objects/0/material/E", 1e10), ("/objects/0/regions/0/E", 1e8)]
COARSE = [("/objects/0/mesh/tetgen", {"quality": 1.5, "target_tets": 0})]
# The hanging ball's shell/core material on the bouncing ball (its centre is at y = 0.5).
SHELL_CORE_BOUNCE = [("/objects/0/mesh/tetgen", {"quality": 2.0, "target_tets": 1000}),
                     ("/objects/0/material/E", 1e8), ("/objects/0/material/nu", 0.45),
                     ("/objects/0/regions", [{"select": {"sphere": {"center": [0, 0.5, 0], "radius": 0.08}},
                                             "E": 1e6}])]
SOFT_FLOOR = [("/obstacles/0/plane/stiffness", 1e4)]


def read_rows(path):
    return simrun.read_csv(path).rows() if os.path.exists(path) else []


def child_cpu(binary, args):
    """Run simrun ARGS with the CAP_S cap; returns (exit code or None if capped, output, CPU seconds)."""
    process = simrun.call(args, binary=binary, timeout=CAP_S)
    if process.timed_out:
        return None, f"> {CAP_S} s (capped)", process.cpu_seconds
    return process.returncode, process.output.strip(), process.cpu_seconds


def run(binary, scene, name, method, sets, work, steps, timed=False):
    """One simrun run, one thread, capped at CAP_S seconds; returns its energies and stats.
    sets: (pointer, value) pairs. timed: also run the same command with 0 steps, so that the CPU
    time per step (process CPU time minus the 0-step run's, over the steps) leaves out the setup
    (TetGen, assembly). Unlike stats.csv's wall_s, CPU time does not count waiting for a core on
    a loaded machine."""
    out = os.path.join(work, name)
    sets = [("/output/frames", []), ("/integrator/type", method)] + (SIERE if method == "siere" else []) + sets

    def args(folder, n):
        return simrun.run_arguments(scene, folder, sets, steps=n, threads=1, force=False)
    setup = child_cpu(binary, args(out + "_setup", 0))[2] if timed else 0.0
    rc, message, cpu = child_cpu(binary, args(out, steps))
    stats = read_rows(os.path.join(out, "stats.csv"))
    cpu_ms = 1e3 * (cpu - setup) / len(stats) if timed and stats else None
    return {"name": name, "method": method, "rc": rc, "message": message, "cpu_ms": cpu_ms,
            "energy": read_rows(os.path.join(out, "energy.csv")), "stats": stats}


def step_cost(r):
    """Median wall time [ms] and Krylov vectors per step, skipping step 1 (SIERE's first
    eigensolve starts cold)."""
    rows = r["stats"][1:] or r["stats"]
    if not rows:
        return None, None
    return 1e3 * statistics.median(x["wall_s"] for x in rows), statistics.median(x["krylov_vectors"] for x in rows)


def osc_left(r, e_eq, t):
    """Oscillation energy (total - e_eq, e_eq = the static equilibrium's energy) left at time t,
    as a fraction of its initial value."""
    e0 = r["energy"][0]["total"] - e_eq
    x = min(r["energy"], key=lambda x: abs(x["t"] - t))
    return (x["total"] - e_eq) / e0


def bounce_metrics(r):
    """Rebound, energy kept per impact and elastic energy in flight of a dropped ball."""
    e = r["energy"]
    mass = 2 * e[1]["kinetic"] / (H * G) ** 2
    dy = [x["gravity"] / (mass * G) for x in e]
    contact = [x.get("obstacles", 0.0) > 0 for x in e]
    if not any(contact):
        return None
    first = contact.index(True)
    g_c, y_c = e[first]["gravity"], dy[first]
    # Impacts: runs of contact steps; gaps of < 5 steps (25 ms) do not end an impact.
    impacts, i = [], first
    while i < len(e):
        if contact[i]:
            j = i
            while j < len(e) and (contact[j] or any(contact[j:j + 5])):
                j += 1
            impacts.append((i, j))  # contact from step i, airborne again at step j
            i = j
        else:
            i += 1
    # Energy level after impact k: the mechanical energy relative to resting on the floor (g_c),
    # (total - g_c) / (total_0 - g_c), at the end of the flight that follows (the step before the
    # next contact, or the run's end), so damping of the vibration in flight counts too.
    ends = [impacts[k + 1][0] - 1 if k + 1 < len(impacts) else len(e) - 1 for k in range(len(impacts))]
    kept = [(e[n]["total"] - g_c) / (e[0]["total"] - g_c) for (_, j), n in zip(impacts, ends) if j < len(e)]
    # Rebound k: the highest centre-of-mass point of the flight after impact k, over the drop.
    apexes = [max(dy[j:n + 1]) for (_, j), n in zip(impacts, ends) if j <= n]
    rebounds = [(a - y_c) / (0.0 - y_c) for a in apexes]
    # Secondary motion: elastic energy in flight after the first contact (no vertex below the
    # floor, centre of mass > 1 cm above its height at the first contact): the ball wobbles.
    # The median, because the steps just after leaving the floor still carry the impact's
    # deformation.
    flight = [x["elastic"] for x, y, c in zip(e[first:], dy[first:], contact[first:]) if y - y_c > 0.01 and not c]
    return {"mass": mass, "dy": dy, "first": first, "impacts": impacts, "kept": kept, "rebounds": rebounds,
            "rebound": rebounds[0] if rebounds else 0.0, "drop_cm": -100 * y_c,
            "flight_steps": len(flight), "flight_elastic": statistics.median(flight) if flight else None,
            "g_c": g_c, "max_penalty": max(x.get("obstacles", 0.0) for x in e)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="coarse hanging ball, short runs (see usage)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mesh = COARSE if args.quick else []
    n_hang = 40 if args.quick else 100
    n_cost = 3 if args.quick else 10
    n_bounce = 150 if args.quick else 300
    failed = []
    with tempfile.TemporaryDirectory() as work:
        hang = {m: run(args.simrun, HANGING, f"hang_{m}", m, mesh, work, n_hang, timed=True)
                for m in ("si", "siere", "ere")}
        hang["si_h5"] = run(args.simrun, HANGING, "hang_si_h5", "si", mesh + [("/time/dt", H / 5)], work,
                            5 * n_hang)
        stiff = {m: run(args.simrun, HANGING, f"hang_{m}_x100", m, mesh + STIFF_X100, work, n_cost, timed=True)
                 for m in ("si", "siere", "ere")}
        bounce = {m: run(args.simrun, BOUNCING, f"bounce_{m}", m, [], work, n_bounce) for m in ("si", "siere")}
        if not args.quick:  # a softer floor, and the hanging ball's shell/core ball
            variants = {"k1e4": SOFT_FLOOR, "shellcore": SHELL_CORE_BOUNCE,
                        "shellcore_k1e4": SHELL_CORE_BOUNCE + SOFT_FLOOR}
            for v, sets in variants.items():
                for m in ("si", "siere"):
                    bounce[f"{m}_{v}"] = run(args.simrun, BOUNCING, f"bounce_{m}_{v}", m, sets, work, n_bounce)
    for r in list(hang.values()) + list(stiff.values()) + list(bounce.values()):
        if r["rc"] != 0:
            print(f"{r['name']}: simrun exit {r['rc']}: {r['message']}")
            if r["method"] != "ere":
                failed.append(r["name"])
    if failed:
        sys.exit(f"runs failed: {failed}")

    # ---- Fig. 6.9: hanging ball energies -------------------------------------------------------
    path = os.path.join(args.out, "chen_ball_energies_hanging.csv")
    cols = ("kinetic", "elastic", "gravity", "total")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t"] + [f"{c}_{m}" for m in hang for c in cols])
        rows = {}
        for m, r in hang.items():
            for x in r["energy"]:
                rows.setdefault(round(x["t"], 9), {})[m] = x
        for t in sorted(rows):
            w.writerow([t] + [rows[t][m][c] if m in rows[t] else "" for m in hang for c in cols])
    ere_ok = hang["ere"]["rc"] == 0
    scale = -min(x["gravity"] for x in (hang["ere"] if ere_ok else hang["siere"])["energy"])
    # The static equilibrium's energy: where SI at h/5 comes to rest (SI at h gets there too).
    e_eq = hang["si_h5"]["energy"][-1]["total"]
    print(f"hanging ball {'(quick: coarse mesh) ' if args.quick else ''}{n_hang} steps of h = {H}: "
          f"energy scale (largest |gravity| of {'ERE' if ere_ok else 'SIERE'}) {scale:.4g} J, "
          f"static equilibrium total {e_eq:.4g} J")
    print(f"{'method':>10} {'exit':>4} {'steps':>5} {'E_total end [J]':>15} {'lost / scale':>12} "
          f"{'osc. left 5 ms':>14} {'25 ms':>7} {'ms/step':>8} {'Krylov/step':>11}")
    loss = {}
    for m, r in hang.items():
        e = r["energy"]
        loss[m] = (e[0]["total"] - e[-1]["total"]) / scale
        ms, kv = step_cost(r)
        print(f"{LABELS[m]:>10} {str(r['rc']):>4} {len(e) - 1:>5} {e[-1]['total']:>15.4g} {loss[m]:>12.4f} "
              f"{osc_left(r, e_eq, H):>14.4f} {osc_left(r, e_eq, 5 * H):>7.4f} {ms:>8.1f} {kv:>11.0f}")
    # SI's damping at h and at h/5: the oscillation energy left after one step of h (5 ms).
    left_si, left_h5 = osc_left(hang["si"], e_eq, H), osc_left(hang["si_h5"], e_eq, H)

    # ---- stiffness x 100: cost per step ----------------------------------------------------------
    print(f"stiffness x 100 (shell 1e10, core 1e8): per-step cost, median over steps 2..{n_cost} "
          f"(x 1: steps 2..{n_hang})")
    print(f"{'method':>10} {'ms/step x1':>10} {'ms/step x100':>12} {'ratio':>6} {'CPU ms x1':>9} {'CPU ms x100':>11} "
          f"{'ratio':>6} {'Krylov x1':>9} {'Krylov x100':>11} {'ratio':>6}  note")
    cost = {}
    with open(os.path.join(args.out, "chen_ball_energies_cost.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["method", "shell_E", "steps", "status", "ms_per_step", "cpu_ms_per_step",
                    "krylov_vectors_per_step"])
        for m in ("si", "siere", "ere"):
            a, b = step_cost(hang[m]), step_cost(stiff[m])
            cost[m] = (a, b)
            w.writerow([m, 1e8, len(hang[m]["stats"]), hang[m]["rc"], a[0], hang[m]["cpu_ms"], a[1]])
            w.writerow([m, 1e10, len(stiff[m]["stats"]), stiff[m]["rc"] if stiff[m]["rc"] is not None else "capped",
                        b[0], stiff[m]["cpu_ms"], b[1]])
            ca, cb = hang[m]["cpu_ms"], stiff[m]["cpu_ms"] or float("nan")
            note = "" if stiff[m]["rc"] == 0 else stiff[m]["message"][:60]
            kr = f"{b[1] / a[1]:.2f}" if a[1] else "-"
            nan = float("nan")
            b_ms, b_kv = (nan if x is None else x for x in b)
            print(f"{LABELS[m]:>10} {a[0]:>10.1f} {b_ms:>12.1f} {b_ms / a[0]:>6.2f} {ca:>9.1f} {cb:>11.1f} "
                  f"{cb / ca:>6.2f} {a[1]:>9.0f} {b_kv:>11.0f} {kr:>6}  {note}")

    print("per 100 steps, CPU seconds (ours: CPU ms per step x 100; thesis Table 6.2, 100 frames, core i7)")
    print(f"{'method':>10} {'ours 1e8':>9} {'ours 1e10':>9} {'thesis 1e8':>10} {'thesis 1e10':>11}")
    for m in ("si", "siere", "ere"):
        a, b = hang[m]["cpu_ms"], stiff[m]["cpu_ms"]
        print(f"{LABELS[m]:>10} {a / 10:>9.2f} {b / 10 if b is not None else float('nan'):>9.2f} "
              f"{THESIS_100[m][0]:>10} {THESIS_100[m][1]:>11}")

    # ---- Fig. 6.10: bouncing ball ----------------------------------------------------------------
    metrics = {m: bounce_metrics(r) for m, r in bounce.items()}
    path_b = os.path.join(args.out, "chen_ball_energies_bouncing.csv")
    cols_b = ("kinetic", "elastic", "gravity", "obstacles", "total")
    with open(path_b, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "t"] + [f"{c}_{m}" for m in bounce for c in cols_b + ("com_dy",)])
        for i in range(max(len(r["energy"]) for r in bounce.values())):
            row = [i, i * H]
            for m, r in bounce.items():
                if i < len(r["energy"]):
                    x = r["energy"][i]
                    row += [x[c] for c in cols_b] + [metrics[m]["dy"][i] if metrics[m] else ""]
                else:
                    row += [""] * (len(cols_b) + 1)
            w.writerow(row)
    print(f"bouncing ball, {n_bounce} steps of h = {H}: rebound = centre-of-mass rise after the first "
          "contact / drop; kept_k = mechanical energy kept after impact k")
    print(f"{'run':>22} {'drop [cm]':>9} {'rebound_1':>9} {'rebound_2':>9} {'impacts':>7} "
          f"{'kept_1':>7} {'kept_2':>7} {'kept_3':>7} {'flight steps':>12} {'flight elastic median [J]':>25} "
          f"{'max penalty [J]':>15}")
    for m, b in metrics.items():
        if b is None:
            print(f"{m:>22}  no contact")
            continue
        kept = [f"{k:.3f}" for k in b["kept"]] + ["-"] * 3
        reb = [f"{k:.3f}" for k in b["rebounds"]] + ["-"] * 2
        fe = f"{b['flight_elastic']:.4g}" if b["flight_elastic"] is not None else "-"
        print(f"{m:>22} {b['drop_cm']:>9.2f} {reb[0]:>9} {reb[1]:>9} {len(b['impacts']):>7} "
              f"{kept[0]:>7} {kept[1]:>7} {kept[2]:>7} {b['flight_steps']:>12} {fe:>25} {b['max_penalty']:>15.4g}")

    # ---- claims ----------------------------------------------------------------------------------
    si_b, siere_b = metrics["si"], metrics["siere"]
    claims = [
        # SI's step damps the vertical mode (h omega ~ 3-4) within a few steps.
        (True, "Fig. 6.9: SI loses > 10 % of the energy scale", loss["si"] > 0.10),
        (True, "Fig. 6.9: SIERE is close to conserving (loses < 2 % of the scale)", abs(loss["siere"]) < 0.02),
        (True, "Fig. 6.9: SI loses > 10x what SIERE loses", loss["si"] > 10 * abs(loss["siere"])),
        (False, "Fig. 6.9: ERE is close to conserving (|change| < 2 % of the scale)",
         ere_ok and abs(loss["ere"]) < 0.02),
        (False, "Fig. 6.9: SIERE's loss within 2 % of the scale of ERE's",
         ere_ok and abs(loss["siere"] - loss["ere"]) < 0.02),
        (False, f"SI at h/5: 'no clear damping reduction' (oscillation energy left after 5 ms: "
                f"{left_h5:.3f} at h/5, {left_si:.3f} at h; both < 0.2)", left_si < 0.2 and left_h5 < 0.2),
        (False, "x100 stiffness: SI and SIERE CPU time per step within 1.5x", all(
            stiff[m]["cpu_ms"] is not None and stiff[m]["cpu_ms"] < 1.5 * hang[m]["cpu_ms"] for m in ("si", "siere"))),
        (False, "x100 stiffness: ERE CPU time per step grows >= 2x (thesis: x2 text, x3 table)",
         stiff["ere"]["cpu_ms"] is not None and (stiff["ere"]["rc"] is None or
                                                 stiff["ere"]["cpu_ms"] >= 2 * hang["ere"]["cpu_ms"])),
        (True, "x100 stiffness: ERE Krylov vectors per step grow >= 2x",
         cost["ere"][1][1] is not None and cost["ere"][1][1] >= 2 * cost["ere"][0][1]),
        (True, "Fig. 6.10: SIERE rebounds > 50 % of the drop and > 2x SI's rebound",
         si_b and siere_b and siere_b["rebound"] > 0.5 and siere_b["rebound"] > 2 * max(si_b["rebound"], 0)),
        (False, "Fig. 6.10: SIERE keeps > 90 % of the energy level after two impacts",
         siere_b["kept"][1] > 0.9 if siere_b and len(siere_b["kept"]) >= 2 else None),
        (True, "Fig. 6.10: secondary motion: SIERE's median elastic energy in flight > 10x SI's",
         bool(siere_b and si_b and siere_b["flight_steps"] > 0 and
              siere_b["flight_elastic"] > 10 * (si_b["flight_elastic"] or 0.0))),
    ]
    print("thesis claims ([checked] = exit 1 if it fails):")
    for checked, text, ok in claims:
        verdict = "n/a" if ok is None else "yes" if ok else "NO "
        print(f"  {verdict}  {'[checked] ' if checked else ''}{text}{' (too few impacts)' if ok is None else ''}")

    plt = plotting.pyplot()
    if plt:
        fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
        # SIERE lies on ERE and SI h/5 on SI: staggered markers and dashes keep all four visible.
        for i, (m, r) in enumerate(hang.items()):
            t = [x["t"] for x in r["energy"]]
            style = plotting.curve_style(i, len(t), series=len(hang))
            for ax, col in zip(axes, ("total", "gravity", "elastic")):
                ax.plot(t, [x[col] for x in r["energy"]], color=COLORS[m], lw=1.0, label=PLOT_LABELS[m], **style)
        for ax, lab in zip(axes, (r"$E_\mathrm{total}$ [J]", r"$E_\mathrm{gravity}$ ($20\,g$) [J]",
                                  r"$E_\mathrm{elastic}$ [J]")):
            ax.set_xlabel(r"$t$ [s]")
            ax.set_ylabel(lab)
            ax.grid(True, alpha=0.3)
        axes[0].legend(fontsize=8)
        fig.suptitle(r"Hanging ball (shell $E = 10^8$ Pa, core $10^6$ Pa, $20\,g$), $h = 0.005$ s: "
                     "Chen thesis Fig. 6.9", fontsize=10)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "chen_ball_energies_hanging", args.format)
        fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
        for i, m in enumerate(("si", "siere")):
            r, b = bounce[m], metrics[m]
            t = [x["t"] for x in r["energy"]]
            style = plotting.curve_style(i, len(t), series=2)
            axes[0].plot(t, [100 * y for y in b["dy"]], color=COLORS[m], label=PLOT_LABELS[m], **style)
            axes[1].plot(t, [x["total"] for x in r["energy"]], color=COLORS[m], label=PLOT_LABELS[m], **style)
            axes[2].plot(t, [x["elastic"] for x in r["energy"]], color=COLORS[m], label=PLOT_LABELS[m], **style)
        for ax, lab in zip(axes, (r"centre-of-mass height change $\Delta y$ [cm]", r"$E_\mathrm{total}$ [J]",
                                  r"$E_\mathrm{elastic}$ [J]")):
            ax.set_xlabel(r"$t$ [s]")
            ax.set_ylabel(lab)
            ax.grid(True, alpha=0.3)
        axes[2].set_yscale("symlog", linthresh=1e-3)
        # The step in which vertices first cross the floor stores up to "max penalty" J in the
        # penalty springs (the step-late contact of linearly implicit methods): clip the axis.
        g_c = metrics["siere"]["g_c"]
        axes[1].set_ylim(1.2 * g_c, -0.6 * g_c)
        axes[1].set_title("clipped: contact-step penalty spikes leave the axis", fontsize=8)
        axes[0].legend(fontsize=8)
        fig.suptitle(r"Soft ball ($E = 10^6$ Pa) dropped on a penalty floor, $h = 0.005$ s: Chen thesis Fig. 6.10",
                     fontsize=10)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "chen_ball_energies_bouncing", args.format)
    print(f"wrote {path}, {path_b}")
    bad = [text for checked, text, ok in claims if checked and ok is not True]
    if bad:
        sys.exit(f"checked claims failed: {bad}")


if __name__ == "__main__":
    main()
