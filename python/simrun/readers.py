"""Reading simrun's outputs: CSV tables, frames.pvd and whole output folders.

    run = simrun.read_run("out/quick")
    run.status, run.counts["tets"]          # run.json
    run.energy["t"], run.energy["total"]    # energy.csv columns as numpy arrays
    run.stats.rows()[-1]["newton_iters"]    # stats.csv rows as dicts
    run.frame(-1).points                    # the last VTU frame (read_vtu)
"""
import csv
import functools
import json
import math
import os
from collections import namedtuple
import xml.etree.ElementTree as ElementTree

import numpy as np

from .vtu import read_vtu


def _number(text):
    """float(text), NaN for an empty cell; None when the text is not a number."""
    if text == "":
        return math.nan
    try:
        return float(text)
    except ValueError:
        return None


class Table(dict):
    """A CSV file as {column name: numpy array}, columns in the file's order. A column whose
    cells are all numbers (or empty: NaN) is float64; any other column is an array of str.

    rows() gives the same data row by row; num_rows the row count; to_pandas() a DataFrame."""

    def __init__(self, columns, path=None):
        super().__init__(columns)
        self.path = path

    @property
    def columns(self):
        """The column names, in the file's order."""
        return list(self)

    @property
    def num_rows(self):
        """The number of data rows."""
        return len(next(iter(self.values()))) if self else 0

    def rows(self):
        """One dict per row, {column: value}: Python floats for numeric columns, str otherwise."""
        names = self.columns
        return [dict(zip(names, values)) for values in zip(*(self[n].tolist() for n in names))]

    def to_pandas(self):
        """The table as a pandas DataFrame (pandas is optional: ImportError without it)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("Table.to_pandas needs pandas (apt-get install python3-pandas); "
                              "the Table itself is a dict of numpy arrays") from e
        return pandas.DataFrame(dict(self))


def _column(cells, as_text):
    if as_text:
        return np.array(cells, dtype=str)
    numbers = [_number(c) for c in cells]
    if all(n is not None for n in numbers):
        return np.array(numbers, dtype=np.float64)
    return np.array(cells, dtype=str)


def read_csv(path, as_text=False):
    """A CSV file with a header row (energy.csv, stats.csv, error.csv, modes.csv, a sweep's
    summary.csv, ...) as a Table: {column: numpy array}. as_text: every column as str, the
    cells as written (to pass them on unchanged). Raises FileNotFoundError when missing and
    ValueError when a row has more cells than the header."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        cells = [[] for _ in header]
        for line, row in enumerate(reader, start=2):
            if not row:
                continue
            if len(row) > len(header):
                raise ValueError(f"{path}:{line}: {len(row)} cells, the header has {len(header)}")
            for column, text in zip(cells, row + [""] * (len(header) - len(row))):
                column.append(text)
    return Table({name: _column(column, as_text) for name, column in zip(header, cells)}, path)


def iter_csv(path, columns=None):
    """Streams a CSV file with a header row: yields one dict per row, {column: value} with
    numbers as float (empty cells NaN) and any other cell as str. columns: only these (faster
    on large files such as a long run's energy.csv). KeyError names a column the file lacks."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        names = list(columns) if columns is not None else header
        missing = [n for n in names if n not in header]
        if missing:
            raise KeyError(f"{path}: no column {', '.join(missing)} (it has {', '.join(header)})")
        index = [header.index(n) for n in names]
        for row in reader:
            if row:
                cells = [row[i] if i < len(row) else "" for i in index]
                yield {n: _value(c) for n, c in zip(names, cells)}


def _value(text):
    number = _number(text)
    return text if number is None else number


Frame = namedtuple("Frame", "time path part")
Frame.__doc__ = """One entry of frames.pvd: time [s], the VTU file's path (absolute) and part."""


def read_pvd(path):
    """The frames of a ParaView collection (frames.pvd) as a list of Frame(time, path, part),
    in the file's order, each path made absolute from the collection's folder."""
    folder = os.path.dirname(os.path.abspath(path))
    frames = []
    for entry in ElementTree.parse(path).getroot().iter("DataSet"):
        frames.append(Frame(float(entry.get("timestep", "nan")),
                            os.path.join(folder, entry.get("file")), int(entry.get("part", "0"))))
    return frames


class Run:
    """A simrun output folder (see read_run). Files are read when first used, then kept.

    dir: the folder. record: run.json as a dict; status, message, counts, wall_seconds and
    scene: its entries. energy, stats: energy.csv and stats.csv as Tables; table(name): any
    other NAME.csv (error.csv, ratios.csv, modes.csv). frames: frames.pvd's Frames ([] without
    one); frame(i): frame i read with read_vtu. path(name): a file's path; log: simrun.log's."""

    def __init__(self, folder):
        if not os.path.isdir(folder):
            raise FileNotFoundError(f"{folder}: no such output folder")
        self.dir = os.fspath(folder)

    def path(self, *names):
        """The path of a file in the folder, e.g. run.path("frames", "000000.vtu")."""
        return os.path.join(self.dir, *names)

    @property
    def log(self):
        """The path of simrun.log."""
        return self.path("simrun.log")

    @functools.cached_property
    def record(self):
        """run.json as a dict (FileNotFoundError without one: the run never started)."""
        with open(self.path("run.json")) as f:
            return json.load(f)

    @property
    def status(self):
        """run.json's status: finished, diverged, failed, interrupted (running while it runs)."""
        return self.record.get("status")

    @property
    def message(self):
        """run.json's message: how the run ended ("" or None when there is none)."""
        return self.record.get("message")

    @property
    def counts(self):
        """run.json's counts: steps, frames, vertices, tets, free DOFs, per object, multilevel."""
        return self.record.get("counts", {})

    @property
    def wall_seconds(self):
        """run.json's wall_seconds: total, setup, stepping, output (and precomputation parts)."""
        return self.record.get("wall_seconds", {})

    @property
    def scene(self):
        """The normalized scene the run used (run.json's scene)."""
        return self.record.get("scene", {})

    def table(self, name):
        """OUT/NAME.csv (name with or without .csv) as a Table."""
        return read_csv(self.path(name if name.endswith(".csv") else name + ".csv"))

    @functools.cached_property
    def energy(self):
        """energy.csv as a Table: t, step, one column per energy term, kinetic, total, ..."""
        return self.table("energy")

    @functools.cached_property
    def stats(self):
        """stats.csv as a Table: per step solver counters and times."""
        return self.table("stats")

    @functools.cached_property
    def frames(self):
        """The frames listed in frames.pvd, [] when the run wrote none."""
        pvd = self.path("frames.pvd")
        return read_pvd(pvd) if os.path.exists(pvd) else []

    def frame(self, index=-1):
        """Frame `index` of frames (default the last) read with read_vtu."""
        return read_vtu(self.frames[index].path)

    def __repr__(self):
        return f"Run({self.dir!r})"


def read_run(outdir):
    """A simrun output folder as a Run (run.json, energy.csv, stats.csv, frames.pvd and the
    frames, read when first used). Raises FileNotFoundError when the folder does not exist."""
    return Run(outdir)
