#!/usr/bin/python3
"""Scene goldens: runs the scenes listed in tests/golden/goldens.json and compares each run's
energy.csv with the stored tests/golden/<name>.energy.csv.

A value passes when |new - golden| <= tolerance * scale, scale being the largest |value| of the
run's energy columns (so round-off in a column near zero is judged against the run's energies).
Exit 0 when every run matches, 1 otherwise (listing the worst differences).

    scripts/check_goldens.py [--simrun build/apps/simrun/simrun] [--bless] [NAME...]

--bless rewrites the stored goldens from the new runs: do it only after an intended change, and
review `git diff tests/golden/` before committing.
"""
import argparse
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden")
sys.path.insert(0, os.path.join(ROOT, "python"))
import simrun  # noqa: E402


def read_rows(path):
    """The rows of a CSV file, cells as written (the messages quote them)."""
    return simrun.read_csv(path, as_text=True).rows()


def compare(new_rows, old_rows, tolerance):
    """Returns (ok, message)."""
    if not old_rows:
        return False, "golden is empty"
    new_cols, old_cols = list(new_rows[0]) if new_rows else [], list(old_rows[0])
    if new_cols != old_cols:
        return False, f"columns differ: {new_cols} vs golden {old_cols}"
    if len(new_rows) != len(old_rows):
        return False, f"{len(new_rows)} rows vs golden {len(old_rows)}"
    energy_cols = [c for c in old_cols if c not in ("step", "t")]
    scale = max(abs(float(r[c])) for r in old_rows for c in energy_cols) or 1.0
    worst, where = 0.0, ""
    for i, (a, b) in enumerate(zip(new_rows, old_rows)):
        for c in old_cols:
            d = abs(float(a[c]) - float(b[c])) / (scale if c in energy_cols else 1.0)
            if d > worst:
                worst, where = d, f"row {i} column {c}: {a[c]} vs golden {b[c]}"
    if worst > tolerance:
        return False, f"relative difference {worst:.3g} > {tolerance:g} at {where}"
    return True, f"max relative difference {worst:.3g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--bless", action="store_true", help="rewrite the stored goldens")
    parser.add_argument("names", nargs="*", help="only these runs")
    args = parser.parse_args()
    with open(os.path.join(GOLDEN, "goldens.json")) as f:
        spec = json.load(f)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for run in spec["runs"]:
            if args.names and run["name"] not in args.names:
                continue
            out = os.path.join(tmp, run["name"])
            command = simrun.run_arguments(os.path.join(ROOT, run["scene"]), out, {"/output/frames": []},
                                           force=False, extra=run["args"])
            result = simrun.call(command, binary=args.simrun)
            if result.returncode != 0:
                print(f"FAIL {run['name']}: exit {result.returncode}: {result.output.strip()}")
                failures += 1
                continue
            golden = os.path.join(GOLDEN, run["name"] + ".energy.csv")
            new_text = open(os.path.join(out, "energy.csv")).read()
            if args.bless:
                with open(golden, "w") as f:
                    f.write(new_text)
                print(f"blessed {run['name']} ({new_text.count(chr(10)) - 1} rows)")
                continue
            if not os.path.exists(golden):
                print(f"FAIL {run['name']}: no golden {golden} (run with --bless)")
                failures += 1
                continue
            ok, message = compare(read_rows(os.path.join(out, "energy.csv")), read_rows(golden),
                                  spec["tolerance"])
            print(f"{'ok  ' if ok else 'FAIL'} {run['name']}: {message}")
            failures += 0 if ok else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
