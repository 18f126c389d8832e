#!/usr/bin/env bash
# scripts/test.sh [ctest options...]
# Installs what is missing, builds, and runs the whole test suite with ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SIMRUN_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
# Small test problems: one assembly thread avoids OpenMP spin-waits fighting the parallel tests.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
cd "$build"
ctest --output-on-failure -j "$(nproc)" "$@"
# The input readers' libFuzzer targets, briefly: the seeds and regression inputs replayed, then
# 5 s of fuzzing each (docs/fuzzing.md has the long runs). SIMRUN_SKIP_FUZZ=1 skips it.
if [ "${SIMRUN_SKIP_FUZZ:-0}" != 1 ] && [ $# -eq 0 ]; then
  "$root/scripts/fuzz.sh" all 5
fi
# The unit tests of the readers' modules under ASan and UBSan, in the fuzz tree (a few minutes;
# scripts/sanitize.sh without --quick runs the whole suite sanitized, over an hour on 2 cores).
# SIMRUN_SKIP_SANITIZE=1 skips it.
if [ "${SIMRUN_SKIP_SANITIZE:-0}" != 1 ] && [ $# -eq 0 ]; then
  "$root/scripts/sanitize.sh" --quick
fi
