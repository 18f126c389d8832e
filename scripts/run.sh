#!/usr/bin/env bash
# scripts/run.sh [SCENE] [simrun run options...]
# Installs what is missing, builds, and runs SCENE (default scenes/quickstart.json) into
# out/<scene name>/ unless -o is given. Open out/<name>/frames.pvd in ParaView.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Only the simrun executable: the tests and benchmarks are scripts/test.sh's (a first result in
# minutes on a fresh machine).
SIMRUN_BUILD_TARGET=${SIMRUN_BUILD_TARGET:-simrun} "$root/scripts/build.sh"
scene=${1:-$root/scenes/quickstart.json}
[ $# -gt 0 ] && shift
args=("$@")
if [[ ! " ${args[*]-} " =~ \ (-o|--output)(=|\ ) ]]; then
  name=$(basename "$scene" .json)
  args+=(-o "$root/out/$name")
fi
exec "${SIMRUN_BUILD_DIR:-$root/build}/apps/simrun/simrun" run "$scene" "${args[@]}"
