"""simrun's Python package: run the simrun binary and read what it writes (python/README.md).

    import simrun
    out = simrun.run("scenes/quickstart.json", "out/quickstart", steps=20, threads=1)
    run = simrun.read_run(out)
    print(run.status, run.counts["tets"], run.energy["total"][-1])
    frame = simrun.read_vtu(run.frames[-1].path)   # or run.frame(-1)

Running: find_binary, run, run_arguments, set_arguments, call (any subcommand; a Completed),
raise_for_status, run_sweep and capped (parameter loops as `simrun sweep`). Reading: read_run
(a Run: run.json, energy.csv, stats.csv, frames), read_csv (a Table: {column: numpy array}),
iter_csv (a large CSV row by row), read_pvd (Frames), read_vtu (a VtuData: points, cells,
point/cell data). Errors: SceneError (bad input), RunError (a run that did not finish), both
SimrunError. Figures: simrun.plotting.

load_scene, Simulation and modes are the in-process API of the compiled module `_simrun`
(pybind11, built into this package); they raise NotImplementedError until it is built.
"""
from . import plotting
from ._reserved import Simulation, load_scene, modes
from .errors import RunError, SceneError, SimrunError
from .readers import Frame, Run, Table, iter_csv, read_csv, read_pvd, read_run
from .runner import Completed, call, find_binary, raise_for_status, run, run_arguments, set_arguments
from .sweep import capped, run_sweep
from .vtu import VtuData, read_vtu

__all__ = [
    "Completed", "Frame", "Run", "RunError", "SceneError", "Simulation", "SimrunError", "Table",
    "VtuData", "call", "capped", "find_binary", "iter_csv", "load_scene", "modes", "plotting",
    "raise_for_status", "read_csv", "read_pvd", "read_run", "read_vtu", "run", "run_arguments",
    "run_sweep", "set_arguments",
]
