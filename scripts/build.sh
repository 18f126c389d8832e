#!/usr/bin/env bash
# Configures and builds simrun (Release) into build/ (or $SIMRUN_BUILD_DIR). Extra arguments go to
# the CMake configure step, e.g. scripts/build.sh -DSIMRUN_SANITIZE=ON. SIMRUN_BUILD_TARGET builds
# that target only (scripts/run.sh: simrun), instead of everything with tests and benchmarks;
# then only the packages that target needs are installed and the tests and benchmarks are not
# configured (they need GoogleTest and Google Benchmark).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SIMRUN_BUILD_DIR:-$root/build}
jobs=${SIMRUN_JOBS:-$(nproc)}
if [ "${SIMRUN_BUILD_TARGET:-}" = simrun ]; then
  "$root/scripts/setup.sh" build
  with_tests=OFF
else
  "$root/scripts/setup.sh" all
  with_tests=ON
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=${SIMRUN_BUILD_TYPE:-Release} \
  -DSIMRUN_BUILD_TESTS=$with_tests -DSIMRUN_BUILD_BENCHMARKS=$with_tests "$@" >/dev/null
cmake --build "$build" -j "$jobs" ${SIMRUN_BUILD_TARGET:+--target "$SIMRUN_BUILD_TARGET"}
