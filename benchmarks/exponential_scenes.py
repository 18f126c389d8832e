#!/usr/bin/python3
"""Issue 13's speed targets for the exponential integrators, on whole simrun runs of the hanging
ball stand-in (scenes/chen_hanging_ball.json: r = 10 cm, 2 cm shell around a soft core, ~4.7k
tets, neo-Hookean, nu = 0.45, top fixed, 20 g, h = 0.005; Chen thesis Sec. 6.4.3, Table 6.2):

  1. SIERE (s = 5) step time / SI step time on the same scene      target <= 1.5 (thesis 1.4-3.7)
     (with a Lanczos eigensolve every step, and with "eigen_update": "subspace" tracking and a
     Lanczos solve every 50 steps), on the scene's 4.7k tets and, as the issue asks for >= 5k
     tets, on the same ball meshed to 6.2k tets (`_6k` runs); and what tracking costs in
     accuracy: the largest gap between the tracked and the Lanczos-every-step run's total energy,
     over the largest |gravity energy|
  2. SIERE step time at shell E = 1e10 / at E = 1e8                 target within 10 % (flatness)
  3. thesis' 97 s for 100 SIERE steps of its 4.6k-tet ball / ours   aim >= 20 (different CPU)
  4. ERE step time and Krylov vectors at E = 1e10 / at E = 1e8      measured, no target (growth)

Runs alternate (A B A B ...) `--reps` times with one thread; per-step times are medians over
the steps of stats.csv's wall_s, run times are run.json's stepping seconds; the table shows the
median over repetitions. Prints ratios with PASS/MISS; always exits 0 (benchmarks inform).

usage: benchmarks/exponential_scenes.py [--simrun PATH] [--reps N] [--steps N] [--threads N]
"""
import argparse
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import simrun  # noqa: E402

SCENE = os.path.join(ROOT, "scenes", "chen_hanging_ball.json")
THESIS_SIERE_100_STEPS = 97.0  # Chen thesis Table 6.2, ball 1e8, CPU seconds for 100 frames

# Scene settings per case, {JSON pointer: value}.
FINER = {"/objects/0/mesh/tetgen/target_tets": 1100}
SIERE = {"/integrator/type": "siere", "/integrator/modes": 5}
TRACK = {"/integrator/eigen_update": "subspace", "/integrator/eigen_refresh": 50}
STIFF = {"/objects/0/material/E": 1e10}
CASES = {
    "si_1e8": {"/integrator/type": "si"},
    "siere_1e8": SIERE,
    "siere_1e10": {**SIERE, **STIFF},
    "siere_track_1e8": {**SIERE, **TRACK},
    "siere_track_1e10": {**SIERE, **TRACK, **STIFF},
    # Issue 13 asks for a >= 5k-tet scene: the same ball meshed finer (target_tets 1100 gives
    # 6248 tets, 4986 free DOFs; the scene's 1000 gives 4757 tets).
    "si_6k": {"/integrator/type": "si", **FINER},
    "siere_6k": {**SIERE, **FINER},
    "siere_track_6k": {**SIERE, **TRACK, **FINER},
    "ere_1e8": {"/integrator/type": "ere"},
    "ere_1e10": {"/integrator/type": "ere", **STIFF},
}


# ERE costs seconds per step on this ball: its per-step median needs only a few steps.
ERE_STEPS = 5


def run(binary, name, rep, steps, threads, work):
    steps = min(steps, ERE_STEPS) if name.startswith("ere") else steps
    out = os.path.join(work, f"{name}_{rep}")
    sets = {"/output/frames": [], "/time/steps": steps, **CASES[name]}
    process = simrun.call(simrun.run_arguments(SCENE, out, sets, threads=threads, force=False), binary=binary)
    if process.returncode != 0:
        return {"failed": process.output.strip()}
    result = simrun.read_run(out)
    stats, energy = result.stats, result.energy
    return {"energy": list(zip(energy["total"].tolist(), energy["gravity"].tolist())),  # (total, gravity) per step:
            # the tracked runs' accuracy below
            "step": statistics.median(stats["wall_s"].tolist()),
            "run100": result.wall_seconds["stepping"] * 100 / stats.num_rows,  # per 100 steps
            "krylov_vectors": statistics.median(stats["krylov_vectors"].tolist()),
            "eigen_products": statistics.median(stats["eigen_products"].tolist()),
            "factorizations": statistics.median(stats["factorizations"].tolist())}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    results = {name: [] for name in CASES}
    with tempfile.TemporaryDirectory() as work:
        for rep in range(args.reps):
            for name in CASES:
                results[name].append(run(args.simrun, name, rep, args.steps, args.threads, work))
    summary = {}
    print(f"exponential integrators on {os.path.relpath(SCENE, ROOT)}, {args.steps} steps, "
          f"{args.threads} thread(s), median of {args.reps} runs (A B A B)")
    print(f"{'run':>16} {'step [ms]':>10} {'100 steps [s]':>14} {'krylov vectors':>15} {'eigen products':>15} {'factorizations':>15}")
    for name, reps in results.items():
        ok = [r for r in reps if "failed" not in r]
        if not ok:
            print(f"{name:>16} failed: {reps[0]['failed']}")
            continue
        s = {k: statistics.median(r[k] for r in ok) for k in ok[0] if k != "energy"}
        s["energy"] = ok[0]["energy"]
        summary[name] = s
        print(f"{name:>16} {1e3 * s['step']:>10.2f} {s['run100']:>14.2f} "
              f"{s['krylov_vectors']:>15.0f} {s['eigen_products']:>15.0f} {s['factorizations']:>15.0f}")

    def line(text, value, ok):
        print(f"  {text:<62} {value:>8.2f}  {'PASS' if ok else 'MISS'}")
    print("ratios")
    if {"si_1e8", "siere_1e8"} <= summary.keys():
        r = summary["siere_1e8"]["step"] / summary["si_1e8"]["step"]
        line("SIERE s=5 step / SI step (target <= 1.5; thesis 1.4-3.7)", r, r <= 1.5)
    if {"si_1e8", "siere_track_1e8"} <= summary.keys():
        r = summary["siere_track_1e8"]["step"] / summary["si_1e8"]["step"]
        line("SIERE s=5 tracking step / SI step (target <= 1.5)", r, r <= 1.5)
    if {"si_6k", "siere_6k"} <= summary.keys():
        r = summary["siere_6k"]["step"] / summary["si_6k"]["step"]
        line("6.2k tets: SIERE s=5 step / SI step (target <= 1.5)", r, r <= 1.5)
    if {"si_6k", "siere_track_6k"} <= summary.keys():
        r = summary["siere_track_6k"]["step"] / summary["si_6k"]["step"]
        line("6.2k tets: SIERE s=5 tracking step / SI step (target <= 1.5)", r, r <= 1.5)
    for label, a, b in (("", "siere_1e8", "siere_1e10"), (" tracking", "siere_track_1e8", "siere_track_1e10")):
        if {a, b} <= summary.keys():
            r = summary[b]["step"] / summary[a]["step"]
            line(f"SIERE{label} step E=1e10 / E=1e8 (target within 10%)", r, abs(r - 1) <= 0.1)
    for label, name in (("", "siere_1e8"), (" tracking", "siere_track_1e8")):
        if name in summary:
            r = THESIS_SIERE_100_STEPS / summary[name]["run100"]
            line(f"thesis 97 s / our 100 SIERE{label} steps (aim >= 20, other CPU)", r, r >= 20)
    # What tracking costs in accuracy: the tracked run's total energy against the Lanczos-every-
    # step run's, over the largest |gravity energy| (the energy the ball's oscillation exchanges).
    for a, b in (("siere_1e8", "siere_track_1e8"), ("siere_1e10", "siere_track_1e10"),
                 ("siere_6k", "siere_track_6k")):
        if {a, b} <= summary.keys():
            ea, eb = summary[a]["energy"], summary[b]["energy"]
            scale = max(abs(g) for _, g in ea) or 1.0
            gap = max(abs(x[0] - y[0]) for x, y in zip(ea, eb)) / scale
            print(f"  {b + ' vs ' + a + ': largest total-energy gap / |gravity|':<62} {gap:>8.1e}")
    if {"ere_1e8", "ere_1e10"} <= summary.keys():
        r = summary["ere_1e10"]["step"] / summary["ere_1e8"]["step"]
        v = summary["ere_1e10"]["krylov_vectors"] / max(summary["ere_1e8"]["krylov_vectors"], 1)
        print(f"  {'ERE step E=1e10 / E=1e8 (measured; thesis ball 3.1x)':<62} {r:>8.2f}")
        print(f"  {'ERE Krylov vectors per step E=1e10 / E=1e8':<62} {v:>8.2f}")


if __name__ == "__main__":
    main()
