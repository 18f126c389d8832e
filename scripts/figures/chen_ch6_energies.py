#!/usr/bin/python3
"""Chen thesis Ch. 6 energy plots on the Table 6.2 stand-ins (thesis Sec.
6.4): Fig. 6.6 (coiled rope, SIERE s = 1 against BE), Fig. 6.8 (the untwisting cuboid in ARAP,
SIERE against BE, SI), Fig. 6.11 (honeycomb sheet), Fig. 6.12 (Moebius ball, StVK), Fig. 6.13
(Eiffel Tower in wind), Fig. 6.14 (bridge, ARAP, in wind; 200 steps as the thesis' 200 frames)
and Fig. 6.15 (tree in a storm), each with SI and SIERE (s = 5).

The stand-ins are those of chen_table62.py: scenes/chen_standin_cuboid.json (4,680 tets,
twisted 360 degrees and released; here with "arap", the thesis' ARAP variant, 150 steps as its
150 frames) and the meshes scripts/figures/standin_meshes.py generates into
OUT/chen_ch6_energies_meshes/ (rope 47k, honeycomb 10k, Moebius ball 17k, tower 70k, tree 78k, bridge 99k tets; loads,
materials and steps in that script's docstring). 100 steps each (the thesis plots 400 rope frames and 200 bridge frames; our rope
stand-in fails at full extension near step 70 for every integrator, chen_table62.py's notes).

The thesis' claims: rope, SIERE "is more dynamic" than BE and "regains the elastic potential
energy after each oscillation"; ARAP cuboid, SIERE keeps more energy than BE and SI fails;
honeycomb, SIERE's energy "is good for the dominant motion" and it damps only high frequencies;
tower, tree, Moebius ball: energy plots (SI diverges on the tree); bridge: "after 200 frames SIERE
still oscillates visibly while SI is heavily damped". Measured per run: exit (⊗ = exit 2 with
its step), the kinetic energy over time (the motion: under gravity and wind the elastic energy
also holds the static sag, at which a damping integrator settles), and its mean over the second
half of the steps done; per scene the ratio SIERE / SI (and SIERE / BE) of that mean. For the
cuboid (no gravity, no wind) also the total energy kept at the end.

Claims marked [checked] make the script exit 1 when they fail; the others print yes/NO.
Writes OUT/chen_ch6_energies.csv (energies per step per run) and OUT/chen_ch6_energies.png.

usage: scripts/figures/chen_ch6_energies.py [--simrun PATH] [--out DIR] [--quick] [--cap S]
                                            [--format png|pdf|svg[,...]]
(--quick: the stand-ins at chen_table62.py's reduced sizes, 10-20 steps, and a 13 x 3 x 3-cube
cuboid for 50 steps; --cap: CPU seconds per run, default 900.)
"""
import argparse
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402
import chen_table62  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LABELS = {"si": "SI", "siere": "SIERE", "be": "BE"}
# (figure, stand-in, methods, steps full, steps quick, extra settings)
FIGURES = [
    ("6.6", "rope", ("siere", "be", "si"), 100, 20, []),
    ("6.8", "cuboid", ("siere", "be", "si"), 150, 50, [("/objects/0/material/model", "arap")]),
    ("6.11", "honeycomb", ("siere", "si"), 100, 20, []),
    ("6.13", "tower", ("siere", "si"), 100, 10, []),
    ("6.15", "tree", ("siere", "si"), 100, 10, []),
    ("6.12", "moebius", ("siere", "si"), 100, 20, []),
    ("6.14", "bridge", ("siere", "si"), 200, 5, []),
]
TITLES = {"rope": "coiled rope", "cuboid": "untwisting cuboid, ARAP", "honeycomb": "honeycomb sheet",
          "tower": "Eiffel Tower stand-in, wind", "tree": "tree stand-in, storm",
          "moebius": "Moebius ball stand-in, StVK", "bridge": "bridge stand-in, ARAP, wind"}


def read_energy(out):
    path = os.path.join(out, "energy.csv")
    return simrun.read_csv(path).rows() if os.path.exists(path) else []


def vibration(rows):
    """The motion's kinetic energy: under gravity and wind the elastic energy holds the static
    sag too, which an integrator that damps everything keeps (SI settles at it)."""
    return [r["kinetic"] for r in rows]


def late_mean(values):
    """Mean over the second half of the steps done (the first half holds the initial transient)."""
    tail = values[len(values) // 2:]
    return sum(tail) / len(tail) if tail else float("nan")


def status(r):
    if r["stopped"]:
        return f"stopped at the CPU cap after {r['steps']} steps"
    if r["rc"] == 2:
        return f"⊗ step {r['steps'] + 1}"
    return "ok" if r["rc"] == 0 else f"exit {r['rc']}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="reduced stand-ins, 10-20 steps")
    parser.add_argument("--cap", type=float, default=900.0, help="CPU seconds per run")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # Own folder for the generated stand-ins: ctest runs chen_table62.py's quick mode, which
    # writes the same files under OUT/, at the same time.
    paths, sizes = chen_table62.scene_paths(os.path.join(args.out, "chen_ch6_energies_meshes"), args.quick)
    claims = []  # (text, holds, checked)
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for fig, name, methods, steps_full, steps_quick, extra in FIGURES:
            steps = steps_quick if args.quick else steps_full
            sets = list(extra)
            if args.quick and name == "cuboid":
                sets.append(("/objects/0/mesh/box/cells", [13, 3, 3]))
            for m in methods:
                out = os.path.join(work, f"{name}_{m}")
                run_sets = sets + [("/integrator/type", m)]
                if m == "siere":
                    run_sets.append(("/integrator/modes", chen_table62.MODES.get(name, 5)))
                r = chen_table62.run(args.simrun, paths[name], out, steps, args.cap, run_sets)
                r["energy"] = read_energy(out)
                results[name, m] = r
                print(f"Fig. {fig} {name} {m}: {status(r)}, {r['steps']} steps, {r['seconds']:.1f} s CPU", flush=True)

    print("\nkinetic energy, mean over the second half of the steps done [J]")
    print(f"{'figure':>6} {'stand-in':>10} " + " ".join(f"{LABELS[m]:>22}" for m in ("siere", "si", "be")))
    for fig, name, methods, *_ in FIGURES:
        cells = []
        for m in ("siere", "si", "be"):
            r = results.get((name, m))
            cells.append("-" if r is None else
                         f"{late_mean(vibration(r['energy'])):.4g} ({status(r)})"[:22])
        print(f"{fig:>6} {name:>10} " + " ".join(f"{c:>22}" for c in cells))

    def ratio(name, a, b):
        ra, rb = results[name, a], results[name, b]
        if not ra["energy"] or not rb["energy"]:
            return float("nan")
        return late_mean(vibration(ra["energy"])) / late_mean(vibration(rb["energy"]))

    print("\nclaims")
    for fig, name, methods, *_ in FIGURES:
        siere = results[name, "siere"]
        if name != "rope":
            claims.append((f"Fig. {fig} {name}: SIERE finishes", siere["rc"] == 0, True))
    rope = {m: results["rope", m] for m in ("siere", "be", "si")}
    claims.append((f"Fig. 6.6 rope: SIERE keeps more kinetic energy than BE (thesis): "
                   f"{ratio('rope', 'siere', 'be'):.2f}x over the steps both did "
                   f"(SIERE {status(rope['siere'])}, BE {status(rope['be'])}, SI {status(rope['si'])})",
                   ratio("rope", "siere", "be") > 1, False))
    cub = {m: results["cuboid", m] for m in ("siere", "be", "si")}
    kept = {m: (r["energy"][-1]["total"] / r["energy"][0]["total"] if r["energy"] and r["rc"] == 0 else float("nan"))
            for m, r in cub.items()}
    claims.append((f"Fig. 6.8 ARAP cuboid: SIERE keeps more energy than BE (total at the end / initial: SIERE "
                   f"{kept['siere']:.3f}, BE {kept['be']:.3f})", kept["siere"] > kept["be"], True))
    claims.append((f"Fig. 6.8 ARAP cuboid: SI fails (thesis): SI {status(cub['si'])}, total kept {kept['si']:.3f}",
                   cub["si"]["rc"] == 2, False))
    claims.append((f"Fig. 6.11 honeycomb: SIERE keeps more kinetic energy than SI "
                   f"({ratio('honeycomb', 'siere', 'si'):.3g}x)", ratio("honeycomb", "siere", "si") > 1, True))
    for name, fig in (("tower", "6.13"), ("tree", "6.15"), ("moebius", "6.12"), ("bridge", "6.14")):
        claims.append((f"Fig. {fig} {name}: SIERE / SI kinetic energy {ratio(name, 'siere', 'si'):.3g}x "
                       f"(SI {status(results[name, 'si'])})", ratio(name, "siere", "si") >= 1, False))
    claims.append((f"Fig. 6.15 tree: SI diverges (thesis): SI {status(results['tree', 'si'])}",
                   results["tree", "si"]["rc"] == 2, False))

    csv_path = os.path.join(args.out, "chen_ch6_energies.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["figure", "standin", "vertices", "tets", "method", "exit", "steps", "cpu_seconds", "step", "t",
                    "kinetic", "elastic", "total"])
        for fig, name, methods, *_ in FIGURES:
            v, t = sizes.get(name, ("", ""))
            for m in methods:
                r = results[name, m]
                for x in r["energy"]:
                    w.writerow([fig, name, v, t, m, r["rc"], r["steps"], f"{r['seconds']:.2f}", int(x["step"]),
                                x["t"], x["kinetic"], x["elastic"], x["total"]])
    print(f"wrote {csv_path}")
    plot(args, results)
    for text, holds, checked in claims:
        print(f"  {'yes' if holds else 'NO '} {'[checked] ' if checked else ''}{text}")
    failed = [text for text, holds, checked in claims if checked and not holds]
    if failed:
        sys.exit("FAILED: " + "; ".join(failed))


def plot(args, results):
    plt = plotting.pyplot()
    if not plt:
        return
    fig, axes = plt.subplots(2, 4, figsize=(18, 7))
    for ax, (fig_no, name, methods, *_) in zip(axes.flat, FIGURES):
        top = max((max(vibration(results[name, m]["energy"]), default=0.0) for m in methods), default=0.0)
        for i, m in enumerate(methods):
            r = results[name, m]
            if not r["energy"]:
                continue
            t = [x["t"] for x in r["energy"]]
            label = LABELS[m] + ("" if r["rc"] == 0 else f" ({status(r)})")
            ax.plot(t, vibration(r["energy"]), label=label, **plotting.curve_style(i, len(t)))
        ax.set_title(f"Fig. {fig_no}: {TITLES[name]}", fontsize=9)
        ax.set_xlabel(r"$t$ [s]")
        ax.set_ylabel("kinetic energy [J]")
        ax.set_yscale("log")
        if top > 0:  # scenes that start at rest begin at ~0 J: show the last four decades
            ax.set_ylim(bottom=1e-4 * top)
        ax.legend(fontsize=7)
    axes.flat[-1].axis("off")
    fig.tight_layout()
    plotting.save_figure(fig, args.out, "chen_ch6_energies", args.format)


if __name__ == "__main__":
    main()
