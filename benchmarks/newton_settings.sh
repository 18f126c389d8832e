#!/usr/bin/env bash
# Newton iterations, factorizations and wall time of a set of scenes under the values of one
# Newton setting, the measurements behind its default:
#   benchmarks/newton_settings.sh projection always auto never
#   benchmarks/newton_settings.sh reuse_factorization never within_step across_steps
# (SIMRUN=path selects the binary; default build/apps/simrun/simrun). One row per scene and
# value: exit code, steps, Newton iterations, factorizations, projected and reused iterations,
# line-search halvings, wall seconds and the final total energy.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${SIMRUN:-$root/build/apps/simrun/simrun}
key=${1:?usage: newton_settings.sh KEY VALUE...}
shift
values=("$@")
scenes=$root/scenes
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

row() {
  local name=$1
  shift
  for value in "${values[@]}"; do
    local out=$work/$name/$value
    local start end
    start=$(date +%s.%N)
    "$bin" run "$@" --set "/integrator/newton/$key=$value" --set '/output/frames=[]' \
      -o "$out" --quiet >/dev/null 2>&1
    local rc=$?
    end=$(date +%s.%N)
    /usr/bin/python3 - "$out" "$name" "$value" "$rc" "$start" "$end" <<'PY'
import csv, os, sys
out, name, value, rc, start, end = sys.argv[1:]
rows = list(csv.DictReader(open(os.path.join(out, "stats.csv")))) if os.path.exists(
    os.path.join(out, "stats.csv")) else []
total = lambda key: sum(float(r[key]) for r in rows)
energy = list(csv.DictReader(open(os.path.join(out, "energy.csv"))))[-1]["total"] if rows else "-"
print(f"{name:24s} {value:12s} {rc:>4s} {len(rows):6d} {total('newton_iters'):7.0f} "
      f"{total('factorizations'):7.0f} {total('projected_iters'):9.0f} "
      f"{total('reused_iters'):6.0f} {total('line_search_steps'):6.0f} "
      f"{float(end) - float(start):7.2f} {energy}")
PY
  done
}

printf '%-24s %-12s %4s %6s %7s %7s %9s %6s %6s %7s %s\n' scene "$key" exit steps newton factor projected reused halved wall_s E_end
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
