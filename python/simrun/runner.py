"""Running the simrun binary: find it, build `simrun run` command lines, run them.

    out = simrun.run("scenes/quickstart.json", "out/quick", sets={"/time/dt": 0.005}, steps=10)
    done = simrun.call(["modes", "scene.json", "-n", "4", "-o", "out/modes"], check=True)

run() is the strict form (an exception unless the run finished); call() runs any subcommand and
reports what happened (exit code, output, CPU time, timeout) for callers to whom a diverged or
capped run is a result.
"""
import json
import math
import os
import resource
import shutil
import signal
import subprocess
import time

from .errors import RunError, SceneError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_BINARY = os.path.join(ROOT, "build", "apps", "simrun", "simrun")
EXIT_BAD_INPUT = 1  # apps/simrun/exit_codes.hpp
EXIT_DIVERGED = 2
_TERMINATE_GRACE_S = 10  # after a timeout's SIGTERM, before SIGKILL


def find_binary(path=None):
    """The simrun executable: `path` when given, else $SIMRUN_BINARY, else the repository's
    build/apps/simrun/simrun, else `simrun` on PATH. Raises FileNotFoundError naming what was
    tried."""
    tried = []
    for candidate in (path, os.environ.get("SIMRUN_BINARY"), BUILD_BINARY, shutil.which("simrun")):
        if not candidate:
            continue
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
        tried.append(candidate)
        if candidate == path:  # an explicit path is not silently replaced by another binary
            break
    raise FileNotFoundError("no simrun executable (tried " + ", ".join(tried or ["nothing"]) +
                            "): build it with scripts/build.sh, or pass its path / set SIMRUN_BINARY")


def set_arguments(sets):
    """--set arguments for any subcommand (run, modes, coarsen, validate): ["--set",
    "POINTER=VALUE", ...] from {pointer: value} or (pointer, value) pairs, each value
    JSON-encoded (a str becomes a JSON string, None null, a dict an object; numpy scalars and
    arrays as numbers and lists)."""
    args = []
    for pointer, value in _pairs(sets):
        args += ["--set", f"{pointer}={json.dumps(value, default=_plain)}"]
    return args


def _plain(value):
    """numpy scalars and arrays as Python numbers and lists (json.dumps' default)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON: {value!r}")


def _pairs(sets):
    """(pointer, value) pairs of a {pointer: value} mapping or of a list of pairs (which keeps
    repeated pointers: a later one overrides an earlier one in simrun)."""
    return list(sets.items()) if hasattr(sets, "items") else list(sets or ())


def run_arguments(scene, out, sets=None, steps=None, threads=None, start_from=None,
                  time_limit=None, force=True, quiet=True, extra=()):
    """The arguments of `simrun run SCENE -o OUT ...` (without the binary).

    sets: {JSON pointer: value} (or a list of (pointer, value) pairs), each value JSON-encoded
    into a --set (numbers, strings, lists, dicts, booleans, None); steps: --steps; threads:
    --threads; start_from: --start-from (a checkpoint or a run folder); time_limit:
    --time-limit in seconds; force: --force (reuse an existing output folder); quiet: --quiet;
    extra: further arguments as they are."""
    args = ["run", os.fspath(scene), "-o", os.fspath(out)] + set_arguments(sets)
    if steps is not None:
        args += ["--steps", str(steps)]
    if threads is not None:
        args += ["--threads", str(threads)]
    if start_from is not None:
        args += ["--start-from", os.fspath(start_from)]
    if time_limit:
        args += ["--time-limit", f"{time_limit:g}"]
    if force:
        args.append("--force")
    if quiet:
        args.append("--quiet")
    return args + list(extra)


class Completed:
    """What one simrun process did (call()).

    command: the full argument list; returncode: the exit code (negative: killed by that
    signal; after a timeout, what the stopped process returned); output: stdout and stderr together ("" when not
    captured); timeout: the wall-time cap asked for (None: none); timed_out: whether it was
    stopped there; wall_seconds; cpu_seconds: user + system CPU time of the child processes that
    ended during the call (exact when the caller runs one child at a time)."""

    def __init__(self, command, returncode, output, timeout=None, timed_out=False,
                 wall_seconds=0.0, cpu_seconds=0.0):
        self.command = command
        self.returncode = returncode
        self.output = output
        self.timeout = timeout
        self.timed_out = timed_out
        self.wall_seconds = wall_seconds
        self.cpu_seconds = cpu_seconds

    @property
    def ok(self):
        """Whether the process exited 0 within its timeout."""
        return self.returncode == 0 and not self.timed_out

    def __repr__(self):
        return f"Completed(returncode={self.returncode!r}, timed_out={self.timed_out})"


def _cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cpu_limiter(seconds):
    """A preexec_fn that caps the child's CPU time (RLIMIT_CPU: the kernel stops it with
    SIGXCPU, so the cap does not depend on other jobs' load)."""
    limit = max(1, int(math.ceil(seconds)))

    def apply():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))
    return apply


def _wait(proc, timeout):
    """(output, timed_out): waits up to `timeout` s, then SIGTERM (simrun stops after its step
    and keeps its outputs), then SIGKILL."""
    try:
        return proc.communicate(timeout=timeout)[0], False
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            return proc.communicate(timeout=_TERMINATE_GRACE_S)[0], True
        except subprocess.TimeoutExpired:
            proc.kill()
            return proc.communicate()[0], True


def call(args, binary=None, timeout=None, env=None, cpu_limit=None, capture=True, check=False):
    """Runs `simrun ARGS...` and returns a Completed.

    binary: see find_binary; timeout: wall seconds before the process is stopped (SIGTERM, then
    SIGKILL); env: extra environment variables over os.environ (e.g. {"SIMRUN_CACHE_DIR": d});
    cpu_limit: a CPU-time cap in seconds (RLIMIT_CPU); capture: collect stdout and stderr
    (False: they go to this process's); check: raise (see raise_for_status) unless it exited 0."""
    command = [find_binary(binary)] + [os.fspath(a) for a in args]
    pipe = subprocess.PIPE if capture else None
    start, cpu_before = time.monotonic(), _cpu_seconds()
    proc = subprocess.Popen(command, stdout=pipe, stderr=subprocess.STDOUT if capture else None,
                            text=True, env=dict(os.environ, **env) if env else None,
                            preexec_fn=_cpu_limiter(cpu_limit) if cpu_limit else None)
    output, timed_out = _wait(proc, timeout)
    done = Completed(command, proc.returncode, output or "", timeout, timed_out,
                     time.monotonic() - start, _cpu_seconds() - cpu_before)
    if check:
        raise_for_status(done)
    return done


def raise_for_status(done, out=None):
    """Raises SceneError (exit 1: bad input) or RunError (any other failure, or a timeout) for
    a Completed that did not exit 0, with the command, the exit code and the output's tail."""
    if done.ok:
        return
    what = f"exit {done.returncode}"
    if done.returncode < 0:
        what = f"killed by {signal.Signals(-done.returncode).name}"
    if done.timed_out:
        what = f"stopped after its timeout of {done.timeout:g} s ({what})"
    tail = done.output.strip()[-2000:]
    message = f"{' '.join(done.command)}: {what}" + (f"\n{tail}" if tail else "")
    if done.returncode == EXIT_BAD_INPUT and not done.timed_out:
        raise SceneError(message, done.command, done.returncode, done.output)
    raise RunError(message, done.command, done.returncode, done.output, out)


def run(scene, out, sets=None, steps=None, threads=None, start_from=None, time_limit=None,
        force=True, quiet=True, extra=(), binary=None, timeout=None, env=None):
    """Runs `simrun run SCENE -o OUT` (arguments as run_arguments; binary, timeout, env as
    call) and returns OUT. Raises SceneError when simrun rejects the input (exit 1) and RunError
    when the run does not finish (diverged, failed, interrupted, killed, timed out); both carry
    the command, the exit code and the output."""
    done = call(run_arguments(scene, out, sets, steps, threads, start_from, time_limit, force,
                              quiet, extra),
                binary=binary, timeout=timeout, env=env)
    raise_for_status(done, out)
    return os.fspath(out)
