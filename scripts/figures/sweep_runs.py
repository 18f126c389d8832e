r"""A figure script's parameter loop run as `simrun sweep` (docs/sweeps.md).

    runs = run_sweep(simrun, scene, points, work, "fig35", fixed={"/output/frames": []})
    energy = read_rows(os.path.join(runs["h/2"]["dir"], "energy.csv"))

- scene: the base scene file. points: a list of (label, {pointer: value}); values are Python
  objects written as JSON (numbers, strings, lists, dicts). fixed: {pointer: value} for every
  point (the sweep file's "set").
- Points with the same pointers form one zipped sweep, WORK/NAME (WORK/NAME_2, ... for further
  groups of pointers), so the runs can be repeated from the shell: the sweep files are
  WORK/NAME.sweep.json and each folder has sweep.json, commands.txt and summary.csv.
- Returns {label: {"dir", "status", "message", "wall_s", "steps", "log"}} from summary.csv, with
  run.json's message when there is one.
  A point whose status is not in `accept` (default: finished) stops the script with its message
  and log; pass accept=("finished", "diverged") where divergence is a result.
- jobs: `simrun sweep -j` (runs at once); threads: each run's --threads (1: the figure tests run
  in parallel under ctest, and oversubscribed OpenMP solves spin).
- time_limit: each run's wall-time cap in seconds (`--time-limit`); a capped run ends
  "interrupted" with a message "stopped by the time limit ..." (capped(record) says so).
"""
import csv
import json
import os
import subprocess
import sys


def _groups(points):
    """Points grouped by their pointers (in first-seen order), keeping the points' order."""
    groups = {}
    for label, values in points:
        groups.setdefault(tuple(values), []).append((label, values))
    return list(groups.values())


def _read_summary(out):
    with open(os.path.join(out, "summary.csv"), newline="") as f:
        return list(csv.DictReader(f))


def run_sweep(simrun, scene, points, work, name, fixed=None, jobs=1, threads=1,
              accept=("finished",), time_limit=None, quiet=True):
    labels = [label for label, _ in points]
    if len(set(labels)) != len(labels):
        raise ValueError(f"run_sweep {name}: repeated labels in {labels}")
    runs = {}
    for g, group in enumerate(_groups(points)):
        stem = name if g == 0 else f"{name}_{g + 1}"
        pointers = list(group[0][1])
        sweep = {"scene": os.path.abspath(scene), "mode": "zip", "set": fixed or {},
                 "parameters": {p: [values[p] for _, values in group] for p in pointers}}
        sweep_file = os.path.join(work, f"{stem}.sweep.json")
        with open(sweep_file, "w") as f:
            json.dump(sweep, f, indent=1)
        out = os.path.join(work, stem)
        cmd = [simrun, "sweep", sweep_file, "-o", out, "-j", str(jobs), "--threads", str(threads)]
        if time_limit:
            cmd += ["--time-limit", f"{time_limit:g}"]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE if quiet else None,
                              stderr=subprocess.STDOUT if quiet else None, text=True)
        if proc.returncode not in (0, 2):  # 2: some point did not finish (checked below)
            sys.exit(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stdout or ''}")
        with open(os.path.join(out, "sweep.json")) as f:
            names = [p["name"] for p in json.load(f)["points"]]
        for (label, _), folder, row in zip(group, names, _read_summary(out)):
            record = {"dir": os.path.join(out, folder), "status": row["status"],
                      "message": row["message"], "log": os.path.join(out, "logs", f"{folder}.log"),
                      "wall_s": float(row["wall_s"]) if row["wall_s"] else None,
                      "steps": int(row["steps"]) if row["steps"] else None}
            run_json = os.path.join(record["dir"], "run.json")
            if os.path.exists(run_json):  # the message of finished runs too ("40 steps to ...")
                with open(run_json) as f:
                    record["message"] = json.load(f).get("message") or record["message"]
            if record["status"] not in accept:
                sys.exit(f"{label} ({record['dir']}): {record['status']}: {record['message']}\n"
                         f"log: {record['log']}")
            runs[label] = record
    return runs


def capped(record):
    """Whether a run stopped at its time limit."""
    return record["status"] == "interrupted" and "time limit" in (record["message"] or "")


def read_rows(path):
    """A CSV file as dicts of floats (energy.csv, stats.csv)."""
    with open(path, newline="") as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
