#!/usr/bin/env bash
# Newton iterations and wall time of scenes under the three Hessian projections
# (integrator.newton.projection = always | auto | never), the measurement behind the default.
#   benchmarks/newton_projection.sh [SIMRUN]     (default: build/apps/simrun/simrun)
# Prints one row per scene and projection: exit code, steps, total Newton iterations, projected
# iterations, line-search halvings, wall seconds and the final total energy.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/apps/simrun/simrun}
scenes=$root/scenes
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

row() {
  local name=$1
  shift
  for projection in always auto never; do
    local out=$work/$name/$projection
    local start end
    start=$(date +%s.%N)
    "$bin" run "$@" --set /integrator/newton/projection=$projection --set '/output/frames=[]' \
      -o "$out" --quiet >/dev/null 2>&1
    local rc=$?
    end=$(date +%s.%N)
    /usr/bin/python3 - "$out" "$name" "$projection" "$rc" "$start" "$end" <<'PY'
import csv, os, sys
out, name, projection, rc, start, end = sys.argv[1:]
rows = list(csv.DictReader(open(os.path.join(out, "stats.csv")))) if os.path.exists(
    os.path.join(out, "stats.csv")) else []
total = lambda key: sum(float(r[key]) for r in rows)
energy = list(csv.DictReader(open(os.path.join(out, "energy.csv"))))[-1]["total"] if rows else "-"
print(f"{name:24s} {projection:7s} {rc:>4s} {len(rows):6d} {total('newton_iters'):7.0f} "
      f"{total('projected_iters'):9.0f} {total('line_search_steps'):6.0f} "
      f"{float(end) - float(start):7.2f} {energy}")
PY
  done
}

printf '%-24s %-7s %4s %6s %7s %9s %6s %7s %s\n' scene project exit steps newton projected halved wall_s E_end
row shake_bar "$scenes/shake_bar.json"
row untwisting_cuboid "$scenes/chen_untwisting_cuboid.json"
row fig6_beam_be "$scenes/survey_fig6_beam.json" --set /integrator/type=be
row stiff_inclusion "$scenes/stiff_inclusion.json"
row cloth "$scenes/cloth.json"
row cantilever_neohookean "$scenes/cantilever_be.json" --set /objects/0/material/model=neohookean \
  --steps 200
row cantilever_corotated "$scenes/cantilever_be.json" --set /objects/0/material/model=corotated \
  --set /objects/0/material/E=1e5 --steps 200
# Large deformations where the true Hessian is indefinite: 30 % compression, 50 % stretch.
row compressed_neohookean "$scenes/cantilever_be.json" --set /objects/0/material/model=neohookean \
  --set '/objects/0/initial={"compress":{"axis":"x","amount":0.3}}' --set /time/dt=0.02 \
  --steps 40 --set /integrator/newton/max_iterations=100
row stretched_stvk "$scenes/cantilever_be.json" --set /objects/0/material/model=stvk \
  --set '/objects/0/initial={"stretch":{"axis":"x","amount":0.5}}' --set /time/dt=0.02 \
  --steps 40 --set /integrator/newton/max_iterations=100
