#!/usr/bin/env bash
# Configures and builds simrun (Release) into build/ (or $SIMRUN_BUILD_DIR). Extra arguments go to
# the CMake configure step, e.g. scripts/build.sh -DSIMRUN_SANITIZE=ON. SIMRUN_BUILD_TARGET builds
# that target only (scripts/run.sh: simrun), instead of everything with tests and benchmarks.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SIMRUN_BUILD_DIR:-$root/build}
jobs=${SIMRUN_JOBS:-$(nproc)}
"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=${SIMRUN_BUILD_TYPE:-Release} "$@" >/dev/null
cmake --build "$build" -j "$jobs" ${SIMRUN_BUILD_TARGET:+--target "$SIMRUN_BUILD_TARGET"}
