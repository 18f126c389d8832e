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
