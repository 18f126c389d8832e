#!/usr/bin/env bash
# scripts/sanitize.sh [--quick] [ctest options...]
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer. Any sanitizer report fails
# its test: UBSan halts on the first finding instead of printing and going on.
#
# Default: the whole suite. The `asan` CMake preset (GCC, RelWithDebInfo, -fsanitize=address,
# undefined) built in build-asan/, then ctest there. About 1.5 h on 2 cores (the build is most of
# it), so CI does not run it (README, "Development").
#
# --quick: what CI runs (scripts/test.sh). The unit tests of the modules the input readers live
# in (core, io, mesh, material, fem: readers, writers, caches, materials' derivatives) and of the
# scene parser (parsing, extends, --set, the schema validator) built with clang in the fuzz
# targets' tree, build-fuzz/ (ASan + UBSan + coverage, the libraries already
# compiled by scripts/fuzz.sh), and run there. A few minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
quick=0
if [ "${1:-}" = --quick ]; then
  quick=1
  shift
fi
"$root/scripts/setup.sh"
cd "$root"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1}
# abort_on_error: a finding ends the process by SIGABRT, never by exit 1, which a bad-input test
# expects from simrun and would take for a pass (UBSan's own exit code is 1).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}

if [ "$quick" = 1 ]; then
  build=${SIMRUN_FUZZ_BUILD_DIR:-$root/build-fuzz}
  modules=(core io mesh material fem)
  cxx=$(command -v clang++ || command -v clang++-14 || true)
  if [ -z "$cxx" ]; then
    echo "sanitize.sh --quick: needs clang++ (scripts/setup.sh installs it)" >&2
    exit 2
  fi
  # The same configuration as scripts/fuzz.sh, with the tests defined (only these are built:
  # Debian's clang 14 cannot compile all of lib/, docs/fuzzing.md).
  cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Fuzz \
    -DCMAKE_CXX_FLAGS_FUZZ="-O2 -g" -DSIMRUN_FUZZ=ON -DSIMRUN_BUILD_TESTS=ON \
    -DSIMRUN_BUILD_BENCHMARKS=OFF >/dev/null
  # And the scene parser's tests against the fuzz targets' parser library (fuzz/CMakeLists.txt).
  modules+=(scene_parser)
  nice -n 10 cmake --build "$build" -j "$(nproc)" --target "${modules[@]/#/test_}"
  cd "$build"
  labels=$(
    IFS='|'
    echo "${modules[*]}"
  )
  ctest --output-on-failure -j "$(nproc)" --timeout 600 -L "^($labels)\$" "$@"
  exit
fi

cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)"
cd "$root/build-asan"
# Sanitized code runs several times slower: the per-test timeout scales with it.
ctest --output-on-failure -j "$(nproc)" --timeout 3000 "$@"
