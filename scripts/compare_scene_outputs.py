#!/usr/bin/env python3
"""Run every scene for a few steps and compare its outputs with a reference set.

    scripts/compare_scene_outputs.py record REF_DIR [--simrun BIN] [--steps N]
    scripts/compare_scene_outputs.py compare REF_DIR [--simrun BIN] [--steps N] [--rtol R]

`record` runs each scenes/*.json (N steps, 1 thread) into REF_DIR/<scene>/; `compare` runs the
same into a temporary folder and compares energy.csv, error.csv and the other CSVs value by value
(relative tolerance R, default 1e-12: round-off), stats.csv without its timing columns, and the
VTU frames byte for byte. Both run with a fresh cache folder, so every precomputation runs. A refactor that must not change behaviour passes `compare` against a
`record` made before it. Scenes that fail the same way in both (a missing optional mesh) count
as equal.
"""
import argparse
import csv
import filecmp
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMING = ("time", "wall", "_s", "seconds", "rss", "memory")


def run_scene(simrun, scene, out, steps):
    cmd = [simrun, "run", scene, "-o", out, "--steps", str(steps), "--threads", "1", "-q",
           "--force"]
    os.makedirs(out, exist_ok=True)
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    with open(os.path.join(out, "exit.txt"), "w") as f:
        f.write(f"{proc.returncode}\n{proc.stderr.strip().splitlines()[-1:]}\n")
    return proc.returncode, proc.stderr


def is_timing(column):
    return any(t in column.lower() for t in TIMING)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def close(a, b, rtol):
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return abs(x - y) <= rtol * max(abs(x), abs(y), 1e-300) or abs(x - y) < 1e-300


def compare_csv(ref, new, rtol, skip_timing):
    a, b = read_csv(ref), read_csv(new)
    if not a or not b or a[0] != b[0] or len(a) != len(b):
        return "header or row count differs"
    keep = [i for i, c in enumerate(a[0]) if not (skip_timing and is_timing(c))]
    for r, (ra, rb) in enumerate(zip(a[1:], b[1:]), start=2):
        for i in keep:
            if i < len(ra) and i < len(rb) and not close(ra[i], rb[i], rtol):
                return f"row {r} column {a[0][i]}: {ra[i]} vs {rb[i]}"
    return None


def compare_dirs(ref, new, rtol):
    problems = []
    for base, _, files in os.walk(ref):
        for name in files:
            rel = os.path.relpath(os.path.join(base, name), ref)
            other = os.path.join(new, rel)
            if name in ("run.json", "simrun.log", "exit.txt", ".simrun.lock") or "checkpoint" in rel:
                continue
            if not os.path.exists(other):
                problems.append(f"{rel}: missing")
            elif name.endswith(".csv"):
                why = compare_csv(os.path.join(base, name), other, rtol, name == "stats.csv")
                if why:
                    problems.append(f"{rel}: {why}")
            elif not filecmp.cmp(os.path.join(base, name), other, shallow=False):
                problems.append(f"{rel}: bytes differ")
    return problems


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=["record", "compare"])
    p.add_argument("ref")
    p.add_argument("--simrun", default=os.path.join(ROOT, "build/apps/simrun/simrun"))
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--rtol", type=float, default=1e-12)
    p.add_argument("--only", default="", help="substring of the scene names to run")
    args = p.parse_args()
    scenes = sorted(s for s in os.listdir(os.path.join(ROOT, "scenes"))
                    if s.endswith(".json") and args.only in s)
    tmp = tempfile.mkdtemp(prefix="simrun-compare-")
    # A fresh cache folder, so the precomputations (meshes, coarsening, eigensolves, multilevel)
    # run instead of being read back.
    os.environ["SIMRUN_CACHE_DIR"] = os.path.join(tmp, "cache")
    failures = 0
    for s in scenes:
        name = s[:-5]
        target = os.path.join(args.ref if args.mode == "record" else tmp, name)
        code, err = run_scene(args.simrun, os.path.join("scenes", s), target, args.steps)
        if args.mode == "record":
            print(f"{name}: exit {code}")
            continue
        ref = os.path.join(args.ref, name)
        ref_code = open(os.path.join(ref, "exit.txt")).read().split("\n")[0] if os.path.exists(
            os.path.join(ref, "exit.txt")) else "absent"
        problems = [] if str(code) == ref_code else [f"exit {code}, reference {ref_code}"]
        if os.path.isdir(ref) and os.path.isdir(target):
            problems += compare_dirs(ref, target, args.rtol)
        failures += bool(problems)
        print(f"{name}: {'same' if not problems else 'DIFFERS'}")
        for line in problems[:5]:
            print(f"    {line}")
    if args.mode == "compare":
        print(f"{len(scenes) - failures} of {len(scenes)} scenes the same")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
