#!/usr/bin/env bash
# benchmarks/memory_estimate.sh [SIMRUN]
# Peak resident memory of one backward-Euler step of the quickstart bar at three sizes, next to
# the estimate simrun refuses scenes by (lib/scene/memory_estimate.hpp: 30 MB + 2 kB per vertex
# + 9.6 bytes x 15 n^(4/3) for the Cholesky factor, n = 3 x vertices). The model's constants were
# fitted to these runs; rerun after changing the assembly or the solver.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
simrun=${1:-$root/build/apps/simrun/simrun}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-12s %9s %12s %12s\n' cells vertices measured_MB estimate_MB
for cells in 40,8,8 80,16,16 120,24,24; do
  IFS=, read -r nx ny nz <<< "$cells"
  rss_kb=$( { /usr/bin/time -f %M "$simrun" run "$root/scenes/quickstart.json" -o "$out/$nx" \
    --quiet --steps 1 --threads 1 --set "/objects/0/mesh/box/cells=[$cells]" \
    --set '/output/frames=[]' --set /integrator/type=be; } 2>&1 | tail -1)
  vertices=$(( (nx + 1) * (ny + 1) * (nz + 1) ))
  estimate=$(awk -v v="$vertices" 'BEGIN { printf "%.0f", (30e6 + 2e3 * v + 9.6 * 15 * (3 * v) ^ (4 / 3)) / 1e6 }')
  printf '%-12s %9d %12.0f %12s\n' "[$cells]" "$vertices" "$(echo "$rss_kb / 1024" | bc -l)" "$estimate"
done
