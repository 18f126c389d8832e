"""The exceptions of the simrun package."""


class SimrunError(Exception):
    """Base of the errors raised for a simrun process that did not do its job."""


class SceneError(SimrunError, ValueError):
    """simrun rejected its input before simulating anything: the scene, a mesh, a --set value
    or a command-line option (exit code 1). The message says what and where (file, JSON
    pointer, element). The compiled module's load_scene raises it too."""

    def __init__(self, message, command=None, returncode=None, output=""):
        super().__init__(message)
        self.command = command
        self.returncode = returncode
        self.output = output


class RunError(SimrunError, RuntimeError):
    """A simrun process failed: it diverged or a solver failed (exit code 2, outputs kept up to
    the last good step), hit an internal error (3), was killed, or ran past its timeout.

    Attributes: command (the argument list), returncode (None after a timeout), output (what
    the process printed, stdout and stderr together) and out (the output folder, if any)."""

    def __init__(self, message, command=None, returncode=None, output="", out=None):
        super().__init__(message)
        self.command = command
        self.returncode = returncode
        self.output = output
        self.out = out
