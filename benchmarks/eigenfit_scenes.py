#!/usr/bin/python3
"""EigenFit's cost (Chen et al. 2019 (EigenFit), SCA 2019, Table 2, Secs. 3.4 and 4),
on whole simrun runs of a coarse/fine pair:

  --pair box (default): a box bar derived from scenes/eigenfit_bar.json (1 x 0.2 x 0.2 m, -x
      face fixed, 20 degree initial twist, nu = 0.45, beta = 0.01, consistent mass, SI, h = 0.01;
      coarse 25 x 6 x 6 cubes x 6 tets = 5,400 tets, fine 60 x 12 x 12 = 51,840 tets), linear
      (E = 1e5) and neo-Hookean (E = 1e5), 150 steps, 3 repetitions;
  --pair armadillo: scenes/eigenfit_armadillo.json (the paper's Table 2 armadillo rows; run
      scripts/fetch_meshes.sh first): the armadillo surface simplified to 800 triangles (5,891
      tets; paper 4,902) with an 8,000-triangle reference (82,177 tets; paper 54,233), E = 1e6,
      nu = 0.45, feet shaken for 30 steps, SI, h = 0.01, linear and ARAP, 200 steps (the paper's
      run), 1 repetition;

  1. EigenFit (m = s = 10) SI step / plain coarse SI step     target <= 1.2 (linear), <= 1.8 (NH)
                                                              (paper Table 2: bar linear 1.15,
                                                              Fert NH 3.0, whole runs)
  2. EigenFit run / fine run (same steps)                     target <= 0.2 (paper: 0.14-0.65;
                                                              bar linear 0.22, armadillo 0.22)
     "run" = run.json's total wall seconds: EigenFit's includes its setup (the fine mesh's rest
     eigensolve, the embedding and the compatibility test); stepping only is shown too. Every run
     is made twice: with an empty cache folder (SIMRUN_CACHE_DIR, "first run") and again with
     what that run cached ("cache warm": the TetGen meshes of both runs and EigenFit's rest
     eigensolves are reused, docs/caches.md, as in a sweep over anything but the meshes and
     materials). Both totals are shown; step times are from the first runs.
  3. EigenFit's per-step overhead over plain coarse SI, split into the eigensolve (stats.csv
     eigen_s) and the rest (Woodbury setup and solves, projections); paper: ~20 % eigensolve.
  4. Nonlinear materials also run "tracked": EigenFit with "eigen_update": "subspace" and
     "eigen_refresh": 10 (a Lanczos solve every 10 steps, the modes tracked by one subspace
     iteration with the step's factorization in between; docs/eigenfit.md).

The plain runs (coarse and fine) use the scene without its reference mesh; no run simulates the
reference alongside (that would be in wall_s). Runs alternate (A B C ... A B C ...) `--reps`
times with one thread; per-step times are medians of stats.csv's wall_s over the steps after
the first five; the table shows the median over repetitions. Prints ratios with PASS/MISS;
always exits 0 unless a run fails (benchmarks inform).

usage: benchmarks/eigenfit_scenes.py [--simrun PATH] [--pair box|armadillo] [--reps N] [--steps N]
                                     [--quick]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import simrun  # noqa: E402

SKIP = 5  # first steps: factorization, linear EigenFit's one-time eigensolve, warm-up
TRACKED_REFRESH = 10  # "tracked": a Lanczos solve every this many steps, subspace tracking between
# Per pair: scene, mesh key that sets the resolution, (coarse, fine) values full and quick,
# materials, default steps and repetitions, and per material the paper's Table 2 row with its
# coarse / fine, EigenFit / fine and EigenFit / coarse run-time ratios.
PAIRS = {
    "box": {"scene": "eigenfit_bar.json", "key": ("box", "cells"),
            "full": ([25, 6, 6], [60, 12, 12]), "quick": ([10, 2, 2], [30, 6, 6]),
            "materials": ("linear", "neohookean"), "steps": 150, "reps": 3,
            "paper": {"linear": ("Bar (Linear)", 0.20, 0.22, 1.15),
                      "neohookean": ("Fert (Neo-Hookean)", 0.15, 0.44, 3.0)}},
    "armadillo": {"scene": "eigenfit_armadillo.json", "key": ("tetgen", "surface_faces"),
                  "full": (800, 8000), "quick": (400, 1500),
                  "materials": ("linear", "arap"), "steps": 200, "reps": 1,
                  "paper": {"linear": ("Armadillo (Linear)", 0.16, 0.22, 1.34),
                            "arap": ("Armadillo (ARAP)", 0.08, 0.23, 2.76)}},
}


def describe(mesh_key, value):
    return f"{value} cubes" if mesh_key[0] == "box" else f"{value} surface triangles"


def scenes(work, pair, coarse, fine):
    """Writes the EigenFit scene (coarse + reference mesh) and the plain coarse and fine scenes."""
    scene_path = os.path.join(ROOT, "scenes", pair["scene"])
    with open(scene_path) as f:
        base = json.load(f)
    group, key = pair["key"]
    obj = base["objects"][0]
    for mesh in (obj["mesh"], obj["reference"]["mesh"]):  # mesh files relative to the scene
        if "file" in mesh:
            mesh["file"] = os.path.normpath(os.path.join(os.path.dirname(scene_path), mesh["file"]))
            if not os.path.exists(mesh["file"]):
                sys.exit(f"{mesh['file']} is missing: run scripts/fetch_meshes.sh first")
    obj["mesh"][group][key] = coarse
    obj["reference"]["mesh"][group][key] = fine
    obj["eigenfit"] = {"method": "eigenfit", "modes": 10}
    base["reference"] = {"run": False}
    base["output"]["frames"] = []
    paths = {}
    for name, value in (("eigenfit", None), ("tracked", None), ("coarse", coarse), ("fine", fine)):
        scene = json.loads(json.dumps(base))
        scene["name"] = f"eigenfit_bench_{name}"
        if name == "tracked":  # modes tracked between Lanczos solves (docs/eigenfit.md)
            scene["integrator"].update({"eigen_update": "subspace", "eigen_refresh": TRACKED_REFRESH})
        if value is not None:  # plain FEM on one mesh: no reference, no EigenFit
            scene["objects"][0]["mesh"][group][key] = value
            del scene["objects"][0]["reference"], scene["objects"][0]["eigenfit"], scene["reference"]
        paths[name] = os.path.join(work, f"{name}.json")
        with open(paths[name], "w") as f:
            json.dump(scene, f, indent=1)
    return paths


def run_cold_and_warm(args, scene, material, label, rep, work):
    """The run with an empty cache folder, then again with what it cached (docs/caches.md: the
    TetGen meshes and EigenFit's rest eigensolves); step times from the first, both totals."""
    cache = os.path.join(work, f"cache_{label}_{material}_{rep}")
    cold = run(args, scene, material, label, rep, work, cache, "cold")
    warm = run(args, scene, material, label, rep, work, cache, "warm")
    if "failed" in cold or "failed" in warm:
        return cold if "failed" in cold else warm
    cold.update(setup_warm=warm["setup"], total_warm=warm["total"])
    return cold


def run(args, scene, material, label, rep, work, cache, tag):
    out = os.path.join(work, f"{label}_{material}_{rep}_{tag}")
    sets = {"/objects/0/material/model": material}
    process = simrun.call(simrun.run_arguments(scene, out, sets, steps=args.steps, threads=1, force=False),
                          binary=args.simrun, timeout=args.timeout, env={"SIMRUN_CACHE_DIR": cache})
    if process.timed_out:
        return {"failed": f"> {args.timeout} s (capped)"}
    if process.returncode != 0:
        return {"failed": f"exit {process.returncode}: {process.output.strip()}"}
    result = simrun.read_run(out)
    rows = result.stats.rows()
    wall = result.wall_seconds
    later = rows[SKIP:] if len(rows) > SKIP else rows
    return {"tets": result.counts.get("tets", 0),
            "step": statistics.median(r["wall_s"] for r in later),
            "eigen": statistics.median(r["eigen_s"] for r in later),
            "eigen_mean": statistics.mean(r["eigen_s"] for r in later),
            "eigen_total": sum(r["eigen_s"] for r in rows),
            "failed_tracking": sum(int(r["eigenfit_tracking_failed"]) for r in rows),
            "stepping": wall["stepping"], "setup": wall["setup"], "total": wall["total"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--pair", choices=sorted(PAIRS), default="box")
    parser.add_argument("--reps", type=int, help="repetitions (default: box 3, armadillo 1)")
    parser.add_argument("--steps", type=int, help="steps per run (default: box 150, armadillo 200)")
    parser.add_argument("--timeout", type=float, default=1800, help="cap per run [s]")
    parser.add_argument("--quick", action="store_true",
                        help="box 10 x 2 x 2 / 30 x 6 x 6 cubes, armadillo 400 / 1500 triangles; 20 steps, 1 rep")
    args = parser.parse_args()
    pair = PAIRS[args.pair]
    coarse, fine = pair["quick" if args.quick else "full"]
    args.steps = args.steps or (20 if args.quick else pair["steps"])
    args.reps = args.reps or (1 if args.quick else pair["reps"])
    # "tracked" only for nonlinear materials (a linear one solves for its modes once).
    cases = [(m, label) for m in pair["materials"]
             for label in ("coarse", "eigenfit", "tracked", "fine") if label != "tracked" or m != "linear"]
    results = {c: [] for c in cases}
    with tempfile.TemporaryDirectory() as work:
        paths = scenes(work, pair, coarse, fine)
        for rep in range(args.reps):
            for material, label in cases:
                results[(material, label)].append(
                    run_cold_and_warm(args, paths[label], material, label, rep, work))
    print(f"EigenFit cost, {args.pair} pair: coarse {describe(pair['key'], coarse)} ({results[cases[0]][0].get('tets', '?')} tets), "
          f"fine {describe(pair['key'], fine)} ({results[cases[2]][0].get('tets', '?')} tets), SI, "
          f"{args.steps} steps, 1 thread, median of {args.reps} run(s)")
    print(f"{'material':>10} {'run':>9} {'step [ms]':>10} {'eigen/step [ms]':>16} {'setup [s]':>10} "
          f"{'stepping [s]':>13} {'total [s]':>10} {'tracking failed':>16} {'setup warm':>11} {'total warm':>11}")
    s = {}
    failed = False
    for (material, label), reps in results.items():
        ok = [r for r in reps if "failed" not in r]
        if not ok:
            print(f"{material:>10} {label:>9} failed: {reps[0]['failed']}")
            failed = True
            continue
        s[(material, label)] = m = {k: statistics.median(r[k] for r in ok) for k in ok[0]}
        print(f"{material:>10} {label:>9} {1e3 * m['step']:>10.3f} {1e3 * m['eigen_mean']:>16.3f} "
              f"{m['setup']:>10.2f} {m['stepping']:>13.2f} {m['total']:>10.2f} "
              f"{m['failed_tracking'] if label in ('eigenfit', 'tracked') else '-':>16} "
              f"{m['setup_warm']:>11.2f} {m['total_warm']:>11.2f}")

    def line(text, value, target=None):
        verdict = "" if target is None else ("PASS" if value <= target else "MISS")
        print(f"  {text:<78} {value:>8.3f}  {verdict}")
    print("ratios")
    for material in pair["materials"]:
        step_target = 1.2 if material == "linear" else 1.8
        c, e, f = (s.get((material, x)) for x in ("coarse", "eigenfit", "fine"))
        row, paper_cf, paper_ef, paper_ec = pair["paper"][material]
        if c and e:
            line(f"{material}: EigenFit step / coarse step (target <= {step_target})", e["step"] / c["step"],
                 step_target)
            line(f"{material}: EigenFit run / coarse run, total (paper {row}: {paper_ec})",
                 e["total"] / c["total"])
            over = e["step"] - c["step"]
            eig = e["eigen_mean"]
            print(f"  {material}: overhead per step {1e3 * over:.3f} ms = eigensolve {1e3 * eig:.3f} ms "
                  f"({eig / over:.0%}) + rest {1e3 * (over - eig):.3f} ms ({(over - eig) / over:.0%}); "
                  f"eigensolve over the whole run {e['eigen_total']:.3f} s" if over > 0 else
                  f"  {material}: no per-step overhead measured ({1e3 * over:.3f} ms)")
        t = s.get((material, "tracked"))
        if c and t:
            line(f"{material}: EigenFit tracked (subspace, Lanczos every {TRACKED_REFRESH}) step / coarse step "
                 f"(target <= {step_target})", t["step"] / c["step"], step_target)
            line(f"{material}: EigenFit tracked run / coarse run, total", t["total"] / c["total"])
        if t and f:
            line(f"{material}: EigenFit tracked run / fine run, total (target <= 0.2)", t["total"] / f["total"], 0.2)
            line(f"{material}: same, cache warm (target <= 0.2)", t["total_warm"] / f["total_warm"], 0.2)
        if e and f:
            line(f"{material}: EigenFit run / fine run, total incl. setup (target <= 0.2; paper {paper_ef})",
                 e["total"] / f["total"], 0.2)
            line(f"{material}: same, cache warm (meshes and rest eigensolves reused; target <= 0.2)",
                 e["total_warm"] / f["total_warm"], 0.2)
            line(f"{material}: EigenFit run / fine run, stepping only", e["stepping"] / f["stepping"])
            # Run length from which the total ratio is <= 0.2, from the measured setup and per-step
            # times: (setup_e + n step_e) <= 0.2 (setup_f + n step_f).
            gain = 0.2 * f["step"] - e["step"]
            n = (e["setup"] - 0.2 * f["setup"]) / gain if gain > 0 else float("inf")
            print(f"  {material}: total ratio <= 0.2 from about {max(n, 0):.0f} steps on "
                  f"(setup {e['setup']:.2f} s vs {f['setup']:.2f} s)")
        if c and f:
            line(f"{material}: coarse run / fine run, total (paper {row}: {paper_cf})", c["total"] / f["total"])
    if failed:
        sys.exit("a run failed")


if __name__ == "__main__":
    main()
