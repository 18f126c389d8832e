#!/usr/bin/env bash
# scripts/sanitize.sh [ctest options...]
# The whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer: the `asan` CMake
# preset (RelWithDebInfo, -fsanitize=address,undefined) built in build-asan/, then ctest there.
# Any sanitizer report fails its test: UBSan halts on the first finding instead of printing and
# going on. About 1.5 h on 2 cores (the build is most of it); not part of CI (README, "Sanitizers").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1}
# abort_on_error: a finding ends the process by SIGABRT, never by exit 1, which a bad-input test
# expects from simrun and would take for a pass (UBSan's own exit code is 1).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
cd "$root/build-asan"
# Sanitized code runs several times slower: the per-test timeout scales with it.
ctest --output-on-failure -j "$(nproc)" --timeout 3000 "$@"
