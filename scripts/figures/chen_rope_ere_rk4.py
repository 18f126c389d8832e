#!/usr/bin/python3
"""Chen thesis Table 4.2 and Fig. 4.3: ERE at h = 1/60 against RK4 at its largest stable step on
a swinging rope, and ERE against SI, BE and IM (all at h = 1/60) in run time, position error and
energy.

Scene: scenes/chen_rope_table42.json, the thesis' 1 m rope of 50 springs in series (51
particles), linear density 0.1 kg/m (particle_mass 0.002 kg), Rayleigh alpha = beta = 0.01
(thesis Sec. 4.2), gravity 9.81, 2 s. Not given by the thesis: the rope starts straight and
horizontal (along +x) at rest, pinned at its first particle, and swings down; K_l is the spring
constant of every spring (--stiffness-per spring, the default) or the stiffness of the whole
rope (--stiffness-per rope: every spring gets 50 K_l). K_l = 1, 10, 100, 1000 N/m.

Damping: the thesis' D = alpha M + beta K0 with K0 the stiffness at the initial state
("stiffness_at": "rest"). For a straight rope K0 acts only along the rope, so once the rope
hangs, its stiff longitudinal (now vertical) vibrations are undamped but for alpha M; ERE (and
IM) then blow up at h = 1/60 for K_l = 100 and 1000. The script therefore runs every comparison twice: with
"rest" (the thesis' model) and with "current" (beta times the stiffness at the current state).
Each model has its own RK4 truth.

RK4's largest stable step is searched over h = 1/(60 j), j = 1, 2, ... (the thesis' steps 1/180,
1/420, 1/1080, 1/4680 are all of this form, and RK4 then lands on every ERE frame; steps above
1/60 are not tried): j is doubled until the run is stable, then bisected. Stable means: simrun
exits 0 and the total energy never exceeds its initial value by more than 0.01 J (the rope's
weight times its length is 0.98 J; with damping the energy can only fall). The ground truth is
RK4 at that step (as in the thesis); its own error is estimated against RK4 at half that step.

The position error is eps(t) = max_i |x_i(t) - x_i^RK4(t)| over the particles, at the frames
t = k/60; the table gives max_t eps(t) ("max ||eps||", the thesis' column) and eps(2 s). Times are
simrun's stepping wall time (run.json), medians over 3 runs without frame output, one thread
(the thesis' are Matlab CPU seconds: compare ratios, not values). BE and IM use the thesis'
Ch. 4 Newton: tolerance 1e-6, no line search, step halving when the residual stalls.

Writes OUT/chen_rope_table42.csv (Table 4.2 plus SI, BE, IM, per damping model),
OUT/chen_rope_fig43_energy.csv (total energy at t = k/60 per method and damping model, K_l = 100)
and OUT/chen_rope_ere_rk4.png (Fig. 4.3 a-c).

usage: scripts/figures/chen_rope_ere_rk4.py [--simrun PATH] [--out DIR] [--quick]
                                            [--stiffness-per spring|rope] [--damping rest,current]
                                            [--format png|pdf|svg[,...]]
(--quick: K_l = 10 and 100, rest damping, ERE and RK4 only, one timing run.)
Exit 1 if RK4's stable step does not shrink from the softest to the stiffest K_l, if ERE does not
stay within 0.1 m of RK4 at K_l = 10, or if a run fails with exit 1 or 3.
"""
import argparse
import csv
import math
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENE = os.path.join(ROOT, "scenes", "chen_rope_table42.json")
SPRINGS = 50
ENERGY_SLACK = 0.01  # J; the energy scale is m g L = 0.98 J
NEWTON = [("/integrator/newton/line_search", False), ("/integrator/newton/step_halving", True),
          ("/integrator/newton/tolerance", 1e-6)]
# Thesis Table 4.2: K_l -> (t_ere, max eps_ere, h_rk = 1/x, t_rk)
THESIS = {1: (5.2278, 0.0720, 180, 9.7558), 10: (4.9717, 0.0210, 420, 19.0327),
          100: (6.1674, 0.0511, 1080, 41.7449), 1000: (6.6823, 0.1424, 4680, 179.1033)}
ENERGY_K = 100  # Fig. 4.3c


def read_points(path):
    """Current positions ('Points') of a VTU frame written by simrun, as lists [x, y, z]."""
    return simrun.read_vtu(path).points.tolist()


class Runner:
    def __init__(self, binary, work, factor):
        self.binary, self.work, self.factor, self.count = binary, work, factor, 0

    def __call__(self, method, kl, damping, j=1, frames=False):
        """Run `method` at h = 1/(60 j) for 2 s; frames every j steps (t = k/60) if asked."""
        self.count += 1
        out = os.path.join(self.work, f"run{self.count}_{method}_{kl:g}_{damping}_{j}")
        sets = [("/integrator/type", method), ("/objects/0/material/stiffness", kl * self.factor),
                ("/damping/stiffness_at", damping), ("/time/dt", 1.0 / (60 * j)), ("/time/steps", 120 * j),
                ("/output/frames", ["vtu"] if frames else []), ("/output/every", j)]
        sets += NEWTON if method in ("be", "im") else []
        process = simrun.call(simrun.run_arguments(SCENE, out, sets, threads=1, force=False), binary=self.binary,
                              timeout=300)
        if process.timed_out:
            return {"rc": "timeout", "message": "> 300 s", "energy": [(0, 0), (0, math.inf)], "stepping": math.nan,
                    "frames": [], "steps": 0}
        if process.returncode in (1, 3):
            simrun.raise_for_status(process, out)
        result = simrun.read_run(out)
        rows = result.energy.rows()
        pts = []
        if frames and process.returncode == 0:
            pts = [read_points(frame.path) for frame in result.frames]
        # energy at the frame times t = k/60 (every j-th step), keyed by k
        energy = [(int(r["step"]) // j, r["total"]) for r in rows if int(r["step"]) % j == 0]
        return {"rc": process.returncode, "message": process.output.strip().replace("simrun: ", "").split("; outputs")[0],
                "frames": pts, "energy": energy, "all_energy": [r["total"] for r in rows],
                "stepping": result.wall_seconds["stepping"], "steps": int(rows[-1]["step"])}


def stable(r):
    e = r["all_energy"] if "all_energy" in r else [x for _, x in r["energy"]]
    return r["rc"] == 0 and all(math.isfinite(x) for x in e) and max(e) <= e[0] + ENERGY_SLACK


def largest_stable_j(run, kl, damping):
    """Smallest j (largest h = 1/(60 j)) at which RK4 is stable: doubling, then bisection."""
    hi = 1
    while not stable(run("rk4", kl, damping, hi)):
        hi *= 2
        if hi > 8192:
            sys.exit(f"RK4 not stable at h = 1/{60 * hi // 2} for K_l = {kl}")
    lo = hi // 2  # unstable (0: none tried)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if stable(run("rk4", kl, damping, mid)):
            hi = mid
        else:
            lo = mid
    return hi


def errors(frames, truth):
    """(max_t eps(t), eps(2 s)), eps(t) = max_i |x_i - x_i^truth|; nan if a run stopped early."""
    if not frames or len(frames) != len(truth):
        return math.nan, math.nan
    eps = [max(math.dist(a, b) for a, b in zip(f, g)) for f, g in zip(frames, truth)]
    return max(eps), eps[-1]


def measure(run, kl, damping, methods, repeats):
    j = largest_stable_j(run, kl, damping)
    truth = run("rk4", kl, damping, j, frames=True)
    finer = run("rk4", kl, damping, 2 * j, frames=True)
    row = {"K_l": kl, "damping": damping, "j_rk": j, "truth_err": errors(truth["frames"], finer["frames"])[0],
           "t_rk": statistics.median(run("rk4", kl, damping, j)["stepping"] for _ in range(repeats)),
           "energy": {f"RK4 h=1/{60 * j}": truth["energy"]}}
    for method in methods:
        r = run(method, kl, damping, 1, frames=True)
        err_max, err_end = errors(r["frames"], truth["frames"])
        t = statistics.median(run(method, kl, damping, 1)["stepping"] for _ in range(repeats)) if r["rc"] == 0 else math.nan
        row[method] = {"rc": r["rc"], "message": r["message"], "steps": r["steps"], "err_max": err_max,
                       "err_end": err_end, "t": t, "E_end": r["energy"][-1][1]}
        row["energy"][method.upper()] = r["energy"]
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="K_l = 10, 100; rest damping; ERE and RK4; one timing")
    parser.add_argument("--stiffness-per", choices=["spring", "rope"], default="spring",
                        help="K_l is each spring's constant (default) or the whole rope's (springs get 50 K_l)")
    parser.add_argument("--damping", default=None, help="comma-separated stiffness_at models (default rest,current)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    stiffnesses = [10, 100] if args.quick else [1, 10, 100, 1000]
    methods = ["ere"] if args.quick else ["ere", "si", "be", "im"]
    dampings = (args.damping or ("rest" if args.quick else "rest,current")).split(",")
    repeats = 1 if args.quick else 3
    factor = 1 if args.stiffness_per == "spring" else SPRINGS
    rows = []
    with tempfile.TemporaryDirectory() as work:
        run = Runner(args.simrun, work, factor)
        for damping in dampings:
            for kl in stiffnesses:
                row = measure(run, kl, damping, methods, repeats)
                rows.append(row)
                e = row["ere"]
                print(f"damping at {damping}, K_l = {kl:g}: RK4 stable at h = 1/{60 * row['j_rk']} (vs h/2: "
                      f"{row['truth_err']:.1e} m); ERE " + ("finished" if e["rc"] == 0 else
                                                          f"stopped at step {e['steps']}: {e['message']}"), flush=True)

    csv_path = os.path.join(args.out, "chen_rope_table42.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["damping_at", "K_l", "spring_k", "h_rk", "t_rk_s", "rk_truth_err_m"]
                   + [f"{m}_{c}" for m in methods for c in ("exit", "steps", "t_s", "max_eps_m", "eps_end_m", "E_end_J")]
                   + ["thesis_t_ere", "thesis_max_eps_ere", "thesis_h_rk", "thesis_t_rk"])
        for row in rows:
            th = THESIS[row["K_l"]]
            w.writerow([row["damping"], row["K_l"], row["K_l"] * factor, f"1/{60 * row['j_rk']}", row["t_rk"],
                        row["truth_err"]]
                       + [row[m][c] for m in methods for c in ("rc", "steps", "t", "err_max", "err_end", "E_end")]
                       + [th[0], th[1], f"1/{th[2]}", th[3]])
    energy_rows = [r for r in rows if r["K_l"] == (ENERGY_K if ENERGY_K in stiffnesses else stiffnesses[-1])]
    energy_k = energy_rows[0]["K_l"]
    curves = {f"{name} ({r['damping']})": dict(c) for r in energy_rows for name, c in r["energy"].items()}
    fig_csv = os.path.join(args.out, "chen_rope_fig43_energy.csv")
    with open(fig_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t"] + [f"total {n}" for n in curves])
        for k in range(121):
            w.writerow([k / 60] + [c.get(k, "") for c in curves.values()])

    print(f"\nTable 4.2: rope of {SPRINGS} springs, 0.1 kg/m, 2 s, K_l per {args.stiffness_per}; simrun (thesis). "
          f"Times: stepping wall [s], 1 thread, median of {repeats}")
    for damping in dampings:
        print(f"Rayleigh stiffness at the {damping} state" + (" (thesis)" if damping == "rest" else ""))
        print(f"{'K_l':>6} {'h_ere':>6} {'t_ere [s]':>17} {'max eps_ere [m]':>18} {'eps(2 s)':>9} "
              f"{'h_rk':>16} {'t_rk [s]':>19} {'t_rk/t_ere':>13}")
        for row in (r for r in rows if r["damping"] == damping):
            th, e = THESIS[row["K_l"]], row["ere"]
            if e["rc"] == 0:
                ere = f"{e['t']:>8.3f} ({th[0]:>6.3f}) {e['err_max']:>9.4f} ({th[1]:.4f}) {e['err_end']:>9.4f}"
                ratio = f"{row['t_rk'] / e['t']:>5.2f} ({th[3] / th[0]:>4.1f})"
            else:
                ere = f"{'diverged at step %d' % (e['steps'] + 1):>46}"
                ratio = f"{'-':>5} ({th[3] / th[0]:>4.1f})"
            print(f"{row['K_l']:>6g} {'1/60':>6} {ere} {'1/%d' % (60 * row['j_rk']):>7} ({'1/%d' % th[2]:>6}) "
                  f"{row['t_rk']:>8.3f} ({th[3]:>8.3f}) {ratio}")
    if len(methods) > 1:
        print("\nFig. 4.3 a, b: all at h = 1/60: stepping time [s] / max eps [m] against the RK4 truth")
        print(f"{'damping':>8} {'K_l':>6} " + " ".join(f"{m.upper():>20}" for m in methods))
        for row in rows:
            cells = [f"{row[m]['t']:.4f} / {row[m]['err_max']:.4f}" if row[m]["rc"] == 0
                     else f"diverged at step {row[m]['steps'] + 1}" for m in methods]
            print(f"{row['damping']:>8} {row['K_l']:>6g} " + " ".join(f"{c:>20}" for c in cells))
    print(f"\nFig. 4.3c: total energy at the end, K_l = {energy_k:g} (starts at 0 J): "
          + ", ".join(f"{n}: {c[max(c)]:.3f} J" + ("" if max(c) == 120 else f" at t = {max(c) / 60:.3f} s")
                      for n, c in curves.items()))

    first, last = rows[0], [r for r in rows if r["damping"] == rows[0]["damping"]][-1]
    shrinks = last["j_rk"] > first["j_rk"]
    print(f"RK4's stable step shrinks from K_l = {first['K_l']:g} to {last['K_l']:g}: {'yes' if shrinks else 'NO'}; "
          "thesis 1/180, 1/420, 1/1080, 1/4680")
    soft = [r for r in rows if r["K_l"] == 10 and r["damping"] == dampings[0]][0]["ere"]
    close = soft["rc"] == 0 and soft["err_max"] < 0.1
    print(f"ERE within 0.1 m of RK4 at K_l = 10: {'yes' if close else 'NO'} ({soft['err_max']:.4f} m)")
    for damping in dampings:
        print(f"ERE stable at h = 1/60 ({damping}): " + ", ".join(
            f"K_l = {r['K_l']:g}: {'yes' if r['ere']['rc'] == 0 else 'NO'}" for r in rows if r["damping"] == damping)
              + " (thesis: all)")

    plt = plotting.pyplot()
    if plt:
        fig, axes = plt.subplots(1, 3, figsize=(15, 4))
        # One marker per method (SI and BE nearly coincide), solid/filled for rest damping,
        # dashed/open for current.
        markers = {m: plotting.MARKERS[i] for i, m in enumerate(methods)}
        markers["RK4"] = "D"
        for d, damping in enumerate(dampings):
            part = [r for r in rows if r["damping"] == damping]
            kls = [r["K_l"] for r in part]
            style = {"linestyle": "-" if d == 0 else "--", "markerfacecolor": None if d == 0 else "none"}
            for i, m in enumerate(methods):
                axes[0].loglog(kls, [r[m]["t"] for r in part], marker=markers[m], color=f"C{i}",
                               label=f"{m.upper()} ({damping})", **style)
                axes[1].loglog(kls, [r[m]["err_max"] for r in part], marker=markers[m], color=f"C{i}",
                               label=f"{m.upper()} ({damping})", **style)
            axes[0].loglog(kls, [r["t_rk"] for r in part], marker=markers["RK4"], color="k",
                           label=f"RK4 at its stable $h$ ({damping})", **style)
        axes[1].loglog(list(THESIS), [v[1] for v in THESIS.values()], "kx", ms=8, label="thesis ERE")
        axes[0].set_ylabel("stepping wall time, 2 s [s]")
        axes[1].set_ylabel(r"$\mathrm{max}_{t,i}\, \|x_i(t) - x_i^\mathrm{RK4}(t)\|$ [m]")
        for a, title in zip(axes[:2], ["Fig. 4.3a: run time ($h = 1/60$ s)",
                                       "Fig. 4.3b: position error (missing: diverged)"]):
            a.set_xlabel(r"$K_l$ [N/m]")
            a.set_title(title, fontsize=9)
            a.grid(True, which="both", alpha=0.3)
            a.legend(fontsize=6)
        colors = {m.upper(): f"C{i}" for i, m in enumerate(methods)}
        for i, (n, c) in enumerate(curves.items()):
            ks = sorted(c)
            method = n.split()[0]
            every = max(1, len(ks) // 8)
            label = re.sub(r"h=(1/\d+)", r"$h = \1$", n)
            axes[2].plot([k / 60 for k in ks], [c[k] for k in ks], color=colors.get(method, "k"),
                         linestyle="--" if "(current)" in n else "-", marker=markers.get(method.lower(), "D"),
                         markevery=(i * every // len(curves), every), markersize=4, markerfacecolor="none",
                         label=label)
        axes[2].set_ylim(-0.6, 0.3)
        axes[2].set_xlabel(r"$t$ [s]")
        axes[2].set_ylabel(r"$E_\mathrm{total}$ [J]")
        axes[2].set_title(f"Fig. 4.3c: total energy, $K_l = {energy_k:g}$ N/m, $h = 1/60$ s", fontsize=9)
        axes[2].grid(True, alpha=0.3)
        axes[2].legend(fontsize=6)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "chen_rope_ere_rk4", args.format)
    print(f"wrote {csv_path} and {fig_csv}")
    return 0 if shrinks and close else 1


if __name__ == "__main__":
    sys.exit(main())
