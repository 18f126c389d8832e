#!/usr/bin/env bash
# scripts/check_naming.sh [--all]
# Checks the identifier naming rules of .clang-tidy (readability-identifier-naming) and fails
# (exit 1) on any violation, listing them.
# Default (ctest naming_check, so CI): every header of lib/ and apps/, parsed once through one
# generated source that includes them all: the interfaces (types, functions, members, constants)
# in about half a minute. --all: every .cpp of lib/ and apps/ as well (their local names), about
# 4 s of CPU per file, from the build tree's compile_commands.json (scripts/build.sh first).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SIMRUN_BUILD_DIR:-$root/build}
cd "$root"
tidy=$(command -v clang-tidy || command -v clang-tidy-14 || true)
if [ -z "$tidy" ]; then
  echo "check_naming: clang-tidy not found (scripts/setup.sh installs it)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++20 -fopenmp -DTETLIBRARY -I"$root/lib" -I"$root/apps/simrun"
  -isystem /usr/include/eigen3 -isystem /usr/include/suitesparse)
{
  git ls-files 'lib/*.hpp' 'apps/*.hpp' 2>/dev/null || find lib apps -name '*.hpp'
} | sed "s|.*|#include \"$root/&\"|" >"$work/all_headers.cpp"
status=0
"$tidy" --quiet --config-file="$root/.clang-tidy" "$work/all_headers.cpp" -- "${flags[@]}" >"$work/out.txt" 2>&1 || status=$?
if [ "${1:-}" = --all ]; then
  mapfile -t sources < <(git ls-files 'lib/*.cpp' 'apps/*.cpp')
  printf '%s\n' "${sources[@]}" | xargs -P "$(nproc)" -n 8 "$tidy" --quiet -p "$build" \
    >>"$work/out.txt" 2>&1 || status=1
fi
violations=$(grep -E 'readability-identifier-naming' "$work/out.txt" | sort -u || true)
if [ "$status" != 0 ] || [ -n "$violations" ]; then
  if [ -n "$violations" ]; then
    echo "check_naming: $(echo "$violations" | wc -l) name(s) break .clang-tidy's rules:" >&2
    echo "$violations" | sed "s|$root/||" >&2
  else
    echo "check_naming: clang-tidy failed:" >&2
    tail -n 20 "$work/out.txt" >&2
  fi
  exit 1
fi
echo "check_naming: names follow .clang-tidy"
