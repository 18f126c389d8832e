#!/usr/bin/python3
"""Chen thesis Sec. 4.2.3, Figs. 4.11-4.13: ERE, SI, BE and IM on soft neo-Hookean solids, by
runtime and energy (the thesis gives neither the meshes, the bar sizes, the density, the step of
Fig. 4.11 nor the bunny's contact model).

Fig. 4.11, twisted soft bar (scenes/chen_twisted_soft_bar.json: 1 x 0.2 x 0.2 m, 20 x 4 x 4
cubes, 1,600 tets, nu = 0.45, rho = 1000, lumped mass, twisted 180 degrees about its axis and
released, no gravity, h = 1/60, 180 steps), E = 10 Pa ... 10 kPa. Thesis: ERE is cheaper than BE
and IM on soft material, SI and BE lose energy, ERE follows IM.

Fig. 4.12, bar dropping under gravity with one end fixed (scenes/chen_dropping_bar.json: 0.1 x
0.05 x 0.05 m, 8 x 4 x 4 cubes, -x face fixed, released horizontal, h = 1/60, 180 steps), E = 10
... 50 kPa (the tip's static sag would be ~60 % of the length at 10 kPa, a strongly nonlinear
drop). Thesis: (a) ERE's cost rises with stiffness, (b) at 10 kPa BE and SI lose energy and ERE
tracks IM.

Fig. 4.13, bunny bouncing (scenes/chen_bouncing_bunny.json: the Stanford bunny of Debian's
libcgal-demo, scripts/fetch_meshes.sh, scaled to 0.2 m and simplified to 600 surface triangles,
6,042 tets, E = 100 kPa, nu = 0.4, dropped 10 cm onto a penalty floor of 300 N/m per vertex,
docs/obstacles.md, h = 1/180, 360 steps). Thesis: energy per integrator "with the same
conclusions". The floor is soft on purpose: its flat base lands on ~250 vertices at once, and
full mode also reruns the impact on a floor of 1e4 N/m per vertex to show what a stiffer one
does (the integrators fail there).

Each experiment's runs are one `simrun sweep` (simrun.run_sweep; its sweep files stay in the work
folder), run one after another on one thread, each capped at 600 s of wall time.

Measured: per run the exit (0, or 2 with the step where it diverged), the stepping time (sum of
stats.csv wall_s, one thread), ERE's Krylov vectors per step, and the energy: the twisted bar's
total energy relative to its initial (elastic) energy; the dropping bar's and the bunny's total
energy relative to the largest |gravity energy| of the run (they start at zero energy).

Claims marked [checked] make the script exit 1 when they fail (as do SI/BE/IM failures where the
thesis has them finish); the others are printed with yes/NO. Writes OUT/chen_soft_solids_*.csv
and three figures.

usage: scripts/figures/chen_soft_solids.py [--simrun PATH] [--out DIR] [--quick]
                                           [--format png|pdf|svg[,...]]
(--quick: 10 x 2 x 2 cubes for the twisted bar and E = 10 and 1e3 Pa, E = 1e4 and 5e4 for the
dropping bar, 60 steps each; the bunny at 300 surface triangles for 60 steps. The bunny is
skipped, not failed, when its mesh is missing and scripts/fetch_meshes.sh cannot fetch it.)
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENES = os.path.join(ROOT, "scenes")
BUNNY_MESH = os.path.join(ROOT, ".cache", "meshes", "bunny.off")
METHODS = ("ere", "si", "be", "im")
LABELS = {"ere": "ERE", "si": "SI", "be": "BE", "im": "IM"}
CAP_S = 600  # wall-clock cap per run
STIFF_FLOOR = 1e4  # N/m per vertex: the bunny's floor in the check of why ours is soft


def read_rows(path):
    """The CSV file's rows, or none when a run stopped before writing the file."""
    return simrun.read_csv(path).rows() if os.path.exists(path) else []


def run_series(args, scene, work, name, points, fixed):
    """One `simrun sweep` (simrun.run_sweep) of `points`, a list of (label, {pointer: value}),
    each run on one thread after the other (their stepping seconds are compared), capped at CAP_S
    of wall time. Returns {label: exit code (0 finished, 2 diverged or failed, None capped),
    message, energies, steps, stepping seconds, Newton iterations and Krylov vectors per step}."""
    fixed = {"/output/frames": [], **fixed}
    runs = simrun.run_sweep(scene, points, work, name, fixed=fixed,
                            accept=("finished", "diverged", "failed", "interrupted"), time_limit=CAP_S,
                            binary=args.simrun)
    results = {}
    for label, run in runs.items():
        stats = read_rows(os.path.join(run["dir"], "stats.csv"))
        energy = read_rows(os.path.join(run["dir"], "energy.csv"))
        capped = simrun.capped(run)
        rc = 0 if run["status"] == "finished" else None if capped else 2
        results[label] = {
            "rc": rc, "message": f"> {CAP_S} s (capped)" if capped else run["message"],
            "energy": energy, "steps": len(stats), "seconds": sum(r["wall_s"] for r in stats),
            "krylov": sum(r["krylov_vectors"] for r in stats) / len(stats) if stats else 0.0,
            "newton": sum(r["newton_iters"] for r in stats) / len(stats) if stats else 0.0}
    return results


def status(r, steps):
    if r["rc"] == 0:
        return "ok"
    if r["rc"] == 2:
        return f"diverged at step {r['steps'] + 1}"
    return r["message"] or f"exit {r['rc']}"


def relative_total(r, reference):
    """Total energy over time as a fraction of `reference` (a positive energy scale)."""
    return [x["total"] / reference for x in r["energy"]]


def gravity_scale(r):
    return max((abs(x.get("gravity", 0.0)) for x in r["energy"]), default=0.0) or 1.0


def print_table(res, moduli, steps, scale, scale_name):
    """One row per E: each method's stepping seconds and total energy at the end over `scale`
    (or its status when it did not finish), BE's and IM's Newton iterations per step and ERE's
    Krylov vectors per step."""
    print(f"{'E [Pa]':>8} " + " ".join(f"{LABELS[m] + ' s':>8} {LABELS[m] + ' ' + scale_name:>9}" for m in METHODS)
          + f" {'BE/IM Newton':>13} {'ERE vec':>8}")
    for E in moduli:
        cells = []
        for m in METHODS:
            r = res[m, E]
            end = r["energy"][-1]["total"] / scale(r) if r["energy"] else float("nan")
            cells.append(f"{r['seconds']:>8.2f} {end:>9.3f}" if r["rc"] == 0 else f"{status(r, steps):>18}")
        newton = f"{res['be', E]['newton']:.1f} / {res['im', E]['newton']:.1f}"
        print(f"{E:>8g} " + " ".join(cells) + f" {newton:>13} {res['ere', E]['krylov']:>8.0f}")


def initial_total(r):
    return r["energy"][0]["total"] if r["energy"] else 1.0


def twisted_bar(args, work, claims):
    scene = os.path.join(SCENES, "chen_twisted_soft_bar.json")
    moduli = (10.0, 1e3) if args.quick else (10.0, 1e2, 1e3, 1e4)
    steps = 60 if args.quick else 180
    mesh = {"/objects/0/mesh/box/cells": [10, 2, 2]} if args.quick else {}
    runs = run_series(args, scene, work, "twist",
                      [(f"{m}_{E:g}", {"/integrator/type": m, "/objects/0/material/E": E})
                       for E in moduli for m in METHODS], {"/time/steps": steps, **mesh})
    res = {(m, E): runs[f"{m}_{E:g}"] for E in moduli for m in METHODS}
    print(f"\nFig. 4.11: twisted soft bar, {steps} steps of h = 1/60 s; stepping seconds (one thread), total "
          "energy at the end / initial")
    print_table(res, moduli, steps, initial_total, "E/E0")
    for (m, E), r in res.items():
        if m != "ere" and r["rc"] != 0:
            claims.append((f"twisted bar E = {E:g}: {LABELS[m]} finishes", False, True))
    top = max(moduli)
    soft = [E for E in moduli if E <= 1e3]
    for E in soft:
        ere, im = res["ere", E], res["im", E]
        if ere["rc"] == 0 and im["rc"] == 0:
            e0 = im["energy"][0]["total"]
            gap = max(abs(a["total"] - b["total"]) for a, b in zip(ere["energy"], im["energy"])) / e0
            claims.append((f"twisted bar E = {E:g}: ERE's energy follows IM's (largest gap {gap:.2%} of E0 < 2 %)",
                           gap < 0.02, True))
        else:
            claims.append((f"twisted bar E = {E:g}: ERE and IM finish", False, True))
    for m in ("si", "be"):
        r = res[m, 1e3]
        if r["rc"] == 0:
            lost = 1 - r["energy"][-1]["total"] / r["energy"][0]["total"]
            claims.append((f"twisted bar E = 1e3: {LABELS[m]} loses energy ({lost:.0%} > 10 %)", lost > 0.10, True))
    kry = ", ".join(f"{res['ere', E]['krylov']:.0f}" for E in moduli)
    claims.append((f"twisted bar: ERE's cost grows with E (Krylov vectors per step {kry} at "
                   f"{', '.join(f'{E:g}' for E in moduli)} Pa)",
                   res["ere", top]["krylov"] > 1.2 * res["ere", min(moduli)]["krylov"], False))
    if res["ere", top]["rc"] != 0:
        claims.append((f"twisted bar E = {top:g}: ERE {status(res['ere', top], steps)}", False, False))
    cheaper = [E for E in moduli if res["ere", E]["rc"] == 0 and
               res["ere", E]["seconds"] < min(res["be", E]["seconds"], res["im", E]["seconds"])]
    claims.append((f"twisted bar: ERE cheaper than BE and IM (thesis) at E = {', '.join(f'{E:g}' for E in cheaper) or 'none'}"
                   f" of {', '.join(f'{E:g}' for E in moduli)} Pa", len(cheaper) == len(moduli), False))
    write_csv(args, "twisted_bar", res, initial_total)
    return res, moduli


def dropping_bar(args, work, claims):
    scene = os.path.join(SCENES, "chen_dropping_bar.json")
    moduli = (1e4, 5e4) if args.quick else (1e4, 2e4, 3e4, 4e4, 5e4)
    steps = 60 if args.quick else 180
    runs = run_series(args, scene, work, "drop",
                      [(f"{m}_{E:g}", {"/integrator/type": m, "/objects/0/material/E": E})
                       for E in moduli for m in METHODS], {"/time/steps": steps})
    res = {(m, E): runs[f"{m}_{E:g}"] for E in moduli for m in METHODS}
    refined = {}
    if not args.quick:  # ERE at smaller steps, same end time
        runs = run_series(args, scene, work, "drop_ere",
                          [(f"h{k}", {"/time/dt": 1 / (60 * k), "/time/steps": steps * k})
                           for k in (2, 4, 8)], {"/integrator/type": "ere"})
        refined = {k: runs[f"h{k}"] for k in (2, 4, 8)}
    print(f"\nFig. 4.12: dropping bar, {steps} steps of h = 1/60 s; stepping seconds, total energy at the end "
          "/ largest |gravity energy|")
    print_table(res, moduli, steps, gravity_scale, "E/G")
    for k, r in refined.items():
        end = r["energy"][-1]["total"] / gravity_scale(r) if r["energy"] else float("nan")
        drift = max(abs(x["total"]) for x in r["energy"]) / gravity_scale(r) if r["energy"] else float("nan")
        print(f"  ERE at E = 1e4, h = 1/{60 * k}: {status(r, steps * k)}, {r['steps']} steps, "
              f"end E/G = {end:.3f}, largest |E|/G = {drift:.3f}")
    low = min(moduli)
    for m in ("si", "be", "im"):
        for E in moduli:
            if res[m, E]["rc"] != 0:
                claims.append((f"dropping bar E = {E:g}: {LABELS[m]} finishes", False, True))
    for m in ("si", "be"):
        r = res[m, low]
        if r["rc"] == 0:
            lost = -r["energy"][-1]["total"] / gravity_scale(r)
            claims.append((f"dropping bar E = {low:g}: {LABELS[m]} loses energy ({lost:.0%} of the largest "
                           "|gravity energy| > 10 %)", lost > 0.10, True))
    im = res["im", low]
    if im["rc"] == 0:
        drift = max(abs(x["total"]) for x in im["energy"]) / gravity_scale(im)
        claims.append((f"dropping bar E = {low:g}: IM keeps the energy (largest |E|/G {drift:.1%} < 3 %)",
                       drift < 0.03, True))
    ere = res["ere", low]
    claims.append((f"dropping bar E = {low:g}: ERE tracks IM at h = 1/60 (thesis): ERE {status(ere, steps)}",
                   ere["rc"] == 0, False))
    kry = [res["ere", E]["krylov"] for E in moduli if res["ere", E]["steps"]]
    claims.append((f"dropping bar: ERE's cost rises with E (Krylov vectors per step "
                   f"{', '.join(f'{k:.0f}' for k in kry)} over the steps it made)",
                   len(kry) >= 2 and kry[-1] > kry[0], False))
    write_csv(args, "dropping_bar", res, gravity_scale)
    return res, moduli, refined


def bunny(args, work, claims):
    scene = os.path.join(SCENES, "chen_bouncing_bunny.json")
    if not os.path.exists(BUNNY_MESH):
        fetch = subprocess.run([os.path.join(ROOT, "scripts", "fetch_meshes.sh")], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        if fetch.returncode != 0 or not os.path.exists(BUNNY_MESH):
            print(f"\nFig. 4.13 SKIPPED: {BUNNY_MESH} is missing and scripts/fetch_meshes.sh failed:\n"
                  f"{fetch.stdout[-1000:]}")
            return None
    steps = 60 if args.quick else 360
    sets = {"/objects/0/mesh/tetgen/surface_faces": 300} if args.quick else {}
    res = run_series(args, scene, work, "bunny", [(m, {"/integrator/type": m}) for m in METHODS],
                     {"/time/steps": steps, **sets})
    print(f"\nFig. 4.13: bunny dropped on a penalty floor, {steps} steps of h = 1/180 s; stepping seconds, "
          "total energy at the end / largest |gravity energy|")
    for m in METHODS:
        r = res[m]
        end = r["energy"][-1]["total"] / gravity_scale(r) if r["energy"] else float("nan")
        print(f"  {LABELS[m]:>3}: {status(r, steps)}, {r['steps']} steps, {r['seconds']:.2f} s, E/G = {end:.3f}")
    if not args.quick:
        for m in ("si", "be"):
            r = res[m]
            if r["rc"] == 0:
                lost = -r["energy"][-1]["total"] / gravity_scale(r)
                claims.append((f"bunny: {LABELS[m]} loses energy ({lost:.0%} of the drop > 50 %)", lost > 0.5, True))
            else:
                claims.append((f"bunny: {LABELS[m]} finishes", False, True))
    for m in ("ere", "im"):
        claims.append((f"bunny: {LABELS[m]} keeps the bounce (thesis): {status(res[m], steps)}",
                       res[m]["rc"] == 0, False))
    if not args.quick:  # why the floor is soft: a stiffer one through the first impact (step ~27)
        stiff = run_series(args, scene, work, "bunny_stiff_floor",
                           [(m, {"/integrator/type": m}) for m in METHODS],
                           {"/time/steps": 60, "/obstacles/0/plane/stiffness": STIFF_FLOOR})
        print(f"  with a floor of {STIFF_FLOOR:g} N/m per vertex, 60 steps: "
              + ", ".join(f"{LABELS[m]} {status(r, 60)}" for m, r in stiff.items()))
    write_csv(args, "bunny", {(m, 1e5): r for m, r in res.items()}, gravity_scale)
    return res


def write_csv(args, stem, res, scale):
    path = os.path.join(args.out, f"chen_soft_solids_{stem}.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["method", "E", "exit", "steps", "stepping_seconds", "krylov_vectors_per_step", "step", "t",
                    "total_energy", "total_over_scale"])
        for (m, E), r in res.items():
            s = scale(r)
            for x in r["energy"]:
                w.writerow([m, E, r["rc"], r["steps"], f"{r['seconds']:.4f}", f"{r['krylov']:.1f}", int(x["step"]),
                            x["t"], x["total"], x["total"] / s])
    print(f"wrote {path}")


def plot(args, twist, drop, bunny_res):
    plt = plotting.pyplot()
    if not plt:
        return
    res, moduli = twist
    dres, dmoduli, refined = drop
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    # Fig. 4.11 (a): stepping time against E; (b) energy at E = 1e3.
    for i, m in enumerate(METHODS):
        pts = [(E, res[m, E]["seconds"]) for E in moduli if res[m, E]["rc"] == 0]
        if pts:
            axes[0].plot(*zip(*pts), label=f"{LABELS[m]}, twisted bar", **plotting.curve_style(i, len(pts)))
        pts = [(E, dres[m, E]["seconds"]) for E in dmoduli if dres[m, E]["rc"] == 0]
        if pts:
            axes[0].plot(*zip(*pts), color=f"C{i}", alpha=0.5, label=f"{LABELS[m]}, dropping bar",
                         **plotting.curve_style(i, len(pts)))
    axes[0].set_xscale("log")
    axes[0].set_yscale("log")
    axes[0].set_xlabel(r"Young's modulus $E$ [Pa]")
    axes[0].set_ylabel("stepping time [s] (finished runs)")
    axes[0].set_title("Figs. 4.11a, 4.12a: runtime", fontsize=9)
    axes[0].legend(fontsize=6, ncol=2)
    for i, m in enumerate(METHODS):
        r = res[m, 1e3]
        if r["energy"]:
            t = [x["t"] for x in r["energy"]]
            axes[1].plot(t, relative_total(r, r["energy"][0]["total"]), label=LABELS[m],
                         **plotting.curve_style(i, len(t)))
    axes[1].set_xlabel(r"$t$ [s]")
    axes[1].set_ylabel(r"total energy / $E_0$")
    axes[1].set_title(r"Fig. 4.11b: twisted bar, $E = 10^{3}$ Pa", fontsize=9)
    axes[1].legend(fontsize=8)
    low = min(dmoduli)
    for i, m in enumerate(METHODS):
        r = dres[m, low]
        if r["energy"]:
            t = [x["t"] for x in r["energy"]]
            label = LABELS[m] + ("" if r["rc"] == 0 else f" (diverged at step {r['steps'] + 1})")
            axes[2].plot(t, relative_total(r, gravity_scale(r)), label=label, **plotting.curve_style(i, len(t)))
    for j, (k, r) in enumerate(refined.items()):
        if r["energy"]:
            t = [x["t"] for x in r["energy"]]
            axes[2].plot(t, relative_total(r, gravity_scale(r)), color="C0", alpha=0.4 + 0.3 * j, linewidth=0.8,
                         label=f"ERE $h = 1/{60 * k}$" + ("" if r["rc"] == 0 else " (diverged)"))
    axes[2].set_xlabel(r"$t$ [s]")
    axes[2].set_ylabel(r"total energy / max $|E_{\mathrm{gravity}}|$")
    axes[2].set_title(rf"Fig. 4.12b: dropping bar, $E = {plotting.sci(low)}$ Pa", fontsize=9)
    axes[2].set_ylim(-1.0, 0.5)
    axes[2].legend(fontsize=7)
    fig.tight_layout()
    plotting.save_figure(fig, args.out, "chen_soft_solids_bars", args.format)
    if bunny_res:
        fig, ax = plt.subplots(figsize=(6, 4))
        for i, m in enumerate(METHODS):
            r = bunny_res[m]
            if r["energy"]:
                t = [x["t"] for x in r["energy"]]
                label = LABELS[m] + ("" if r["rc"] == 0 else f" (diverged at step {r['steps'] + 1})")
                ax.plot(t, relative_total(r, gravity_scale(r)), label=label, **plotting.curve_style(i, len(t)))
        ax.set_xlabel(r"$t$ [s]")
        ax.set_ylabel(r"total energy / max $|E_{\mathrm{gravity}}|$")
        ax.set_title("Fig. 4.13: bunny on a penalty floor", fontsize=9)
        ax.set_ylim(-1.1, 0.5)
        ax.legend(fontsize=8)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "chen_soft_solids_bunny", args.format)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="small meshes, short runs (see usage)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    claims = []  # (text, holds, checked)
    with tempfile.TemporaryDirectory() as work:
        twist = twisted_bar(args, work, claims)
        drop = dropping_bar(args, work, claims)
        bunny_res = bunny(args, work, claims)
    plot(args, twist, drop, bunny_res)
    print("\nclaims")
    for text, holds, checked in claims:
        print(f"  {'yes' if holds else 'NO '} {'[checked] ' if checked else ''}{text}")
    failed = [text for text, holds, checked in claims if checked and not holds]
    if failed:
        sys.exit("FAILED: " + "; ".join(failed))


if __name__ == "__main__":
    main()
