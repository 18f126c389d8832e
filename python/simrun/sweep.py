r"""A parameter loop run as `simrun sweep` (docs/sweeps.md).

    runs = simrun.run_sweep(scene, points, work, "fig35", fixed={"/output/frames": []})
    energy = simrun.read_run(runs["h/2"]["dir"]).energy
"""
import json
import os

from .errors import RunError
from .readers import read_csv
from .runner import EXIT_DIVERGED, call


def _groups(points):
    """Points grouped by their pointers (in first-seen order), keeping the points' order."""
    groups = {}
    for label, values in points:
        groups.setdefault(tuple(values), []).append((label, values))
    return list(groups.values())


def _sweep_file(scene, group, fixed, path):
    """Writes the zipped sweep file of one group of points."""
    pointers = list(group[0][1])
    sweep = {"scene": os.path.abspath(scene), "mode": "zip", "set": fixed or {},
             "parameters": {p: [values[p] for _, values in group] for p in pointers}}
    with open(path, "w") as f:
        json.dump(sweep, f, indent=1)


def _is_empty(value):
    """An empty summary.csv cell (read_csv makes it NaN in a numeric column)."""
    return value == "" or (isinstance(value, float) and value != value)


def _point_record(out, folder, row):
    """One point's {"dir", "status", "message", "log", "wall_s", "steps"} from its summary.csv
    row, with run.json's message when there is one (finished runs say "40 steps to ...")."""
    record = {"dir": os.path.join(out, folder), "status": str(row["status"]),
              "message": "" if _is_empty(row["message"]) else str(row["message"]),
              "log": os.path.join(out, "logs", f"{folder}.log"),
              "wall_s": None if _is_empty(row["wall_s"]) else float(row["wall_s"]),
              "steps": None if _is_empty(row["steps"]) else int(row["steps"])}
    run_json = os.path.join(record["dir"], "run.json")
    if os.path.exists(run_json):
        with open(run_json) as f:
            record["message"] = json.load(f).get("message") or record["message"]
    return record


def run_sweep(scene, points, work, name, fixed=None, jobs=1, threads=1, accept=("finished",),
              time_limit=None, quiet=True, binary=None):
    """Runs a parameter loop as zipped `simrun sweep`s and returns {label: point record}.

    scene: the base scene file. points: a list of (label, {pointer: value}); values are Python
    objects written as JSON. fixed: {pointer: value} for every point (the sweep file's "set").
    Points with the same pointers form one sweep, WORK/NAME (WORK/NAME_2, ... for further groups
    of pointers), repeatable from the shell: WORK/NAME.sweep.json, and in each folder sweep.json,
    commands.txt and summary.csv.

    A point record is {"dir", "status", "message", "log", "wall_s", "steps"} from summary.csv,
    with run.json's message when there is one. A point whose status is not in `accept` raises
    RunError with its message and log; pass accept=("finished", "diverged") where divergence is
    a result. jobs: `simrun sweep -j`; threads: each run's --threads (1: figure tests run in
    parallel under ctest, and oversubscribed OpenMP solves spin); time_limit: each run's wall
    cap in seconds (a capped run ends "interrupted", see capped()); quiet: capture simrun's
    output (False: it goes to the terminal); binary: see find_binary."""
    labels = [label for label, _ in points]
    if len(set(labels)) != len(labels):
        raise ValueError(f"run_sweep {name}: repeated labels in {labels}")
    runs = {}
    for g, group in enumerate(_groups(points)):
        stem = name if g == 0 else f"{name}_{g + 1}"
        sweep_file = os.path.join(work, f"{stem}.sweep.json")
        _sweep_file(scene, group, fixed, sweep_file)
        out = os.path.join(work, stem)
        args = ["sweep", sweep_file, "-o", out, "-j", str(jobs), "--threads", str(threads)]
        if time_limit:
            args += ["--time-limit", f"{time_limit:g}"]
        done = call(args, binary=binary, capture=quiet)
        if done.returncode not in (0, EXIT_DIVERGED):  # 2: some point did not finish (below)
            raise RunError(f"{' '.join(done.command)}: exit {done.returncode}\n{done.output}",
                           done.command, done.returncode, done.output, out)
        with open(os.path.join(out, "sweep.json")) as f:
            folders = [p["name"] for p in json.load(f)["points"]]
        for (label, _), folder, row in zip(group, folders, read_csv(os.path.join(out, "summary.csv")).rows()):
            record = _point_record(out, folder, row)
            if record["status"] not in accept:
                raise RunError(f"{label} ({record['dir']}): {record['status']}: {record['message']}\n"
                               f"log: {record['log']}", out=record["dir"])
            runs[label] = record
    return runs


def capped(record):
    """Whether a sweep point (a run_sweep record) stopped at its time limit."""
    return record["status"] == "interrupted" and "time limit" in (record["message"] or "")
