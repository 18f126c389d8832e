"""Names of simrun's in-process Python API, which the compiled module `_simrun` (pybind11 over
lib/, built into this package) provides. Until it is built they raise NotImplementedError, so
that `import simrun` works and the names are not taken by anything else."""

_MISSING = ("needs simrun's compiled module simrun._simrun, which is not built yet; "
            "run scenes with simrun.run() and read them with simrun.read_run() meanwhile")


def load_scene(path, sets=None):
    """A scene file (with extends and --set pointers applied) as a validated scene; raises
    SceneError on bad input. Provided by the compiled module."""
    raise NotImplementedError("simrun.load_scene " + _MISSING)


def modes(scene, count):
    """The rest-state eigenmodes K u = lambda M u of a scene. Provided by the compiled module."""
    raise NotImplementedError("simrun.modes " + _MISSING)


class Simulation:
    """A scene stepped in process (state, energies, frames). Provided by the compiled module."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("simrun.Simulation " + _MISSING)
