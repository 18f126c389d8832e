#!/usr/bin/env bash
# Fails (exit 1) when pyflakes (Debian's pyflakes3) reports anything in a tracked Python file of
# scripts/, benchmarks/, python/ or tests/: unused imports and variables, undefined names,
# f-strings without placeholders, redefinitions. Prints the reports and their count.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
linter=$(command -v pyflakes3 || command -v pyflakes || true)
if [ -z "$linter" ]; then
  echo "check_python: pyflakes3 not found (scripts/setup.sh installs it)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files 'scripts/*.py' 'benchmarks/*.py' 'python/*.py' 'tests/*.py' 2>/dev/null ||
                     find scripts benchmarks python tests -name '*.py')
if [ ${#files[@]} -eq 0 ]; then
  echo "check_python: no Python files found" >&2
  exit 1
fi
if ! report=$("$linter" "${files[@]}" 2>&1); then
  printf '%s\n' "$report" >&2
  echo "check_python: $(printf '%s\n' "$report" | grep -c .) report(s) in ${#files[@]} files" >&2
  exit 1
fi
echo "check_python: ${#files[@]} files clean"
