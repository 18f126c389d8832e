#!/usr/bin/env bash
# Builds simrun (Release) and runs the Google Benchmark kernels in benchmarks/, then prints the
# medians and the ratios the project tracks with PASS/MISS per target. Always exits 0 once the
# benchmarks ran: benchmarks inform, they do not gate CI.
#   SIMRUN_BUILD_DIR   build directory (default: build)
#   SIMRUN_BENCH_REPS  repetitions per benchmark (default: 5)
#   SIMRUN_BENCH_FILTER --benchmark_filter regex (default: all)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SIMRUN_BUILD_DIR:-build}
[[ "$build" = /* ]] || build="$root/$build"
reps=${SIMRUN_BENCH_REPS:-5}
filter=${SIMRUN_BENCH_FILTER:-.}

if [ -x "$root/scripts/build.sh" ]; then
  SIMRUN_BUILD_DIR="$build" SIMRUN_BUILD_TYPE=Release "$root/scripts/build.sh" -DSIMRUN_BUILD_BENCHMARKS=ON >&2
else
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSIMRUN_BUILD_BENCHMARKS=ON >/dev/null
  cmake --build "$build" -j "$(nproc)" >&2
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for exe in "$build"/benchmarks/*_bench; do
  [ -x "$exe" ] || continue
  name=$(basename "$exe")
  echo "bench: running $name" >&2
  "$exe" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_format=json --benchmark_filter="$filter" >"$out/$name.json"
done

python3 - "$out" <<'PY'
import glob, json, os, sys

med = {}  # run_name -> median real time [ms], items/s
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    with open(path) as f:
        data = json.load(f)
    for b in data.get("benchmarks", []):
        if b.get("aggregate_name", "median") != "median" or b.get("error_occurred"):
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
        med[b["run_name"]] = (b["real_time"] * scale, b.get("items_per_second"))

print(f"{'benchmark (median of runs, wall time)':48s} {'ms':>10s} {'items/s':>12s}")
for name, (ms, ips) in med.items():
    print(f"{name:48s} {ms:10.3f} {'' if ips is None else format(ips, '.4g'):>12s}")

def get(prefix):
    for name, v in med.items():
        if name == prefix or name.startswith(prefix + "/"):
            return v
    return None

def t(prefix):
    v = get(prefix)
    return None if v is None else v[0]

rows = []  # (label, value, target text, passed or None)
h1 = get("BM_ElasticHessian/threads:1")
rate = h1[1] if h1 else None
rows.append(("Hessian assembly, linear, 1 thread [tets/s]", rate, ">= 1e6",
             None if rate is None else rate >= 1e6))
si, solve = t("BM_SiStep"), t("BM_CholmodSolve")
r = si / solve if si and solve else None
rows.append(("SI step / one back-solve", r, "<= 2", None if r is None else r <= 2))
modes, fk = t("BM_Modes10"), t("BM_CholmodFactorizeK")
r = modes / fk if modes and fk else None
rows.append(("modes(10) / one factorization of K (analysis reused)", r, "<= 3", None if r is None else r <= 3))
mc = t("BM_Modes10Cold")
r = mc / fk if mc and fk else None
rows.append(("  the same with its symbolic analysis", r, "(info)", None))
nh, fa = t("BM_SiStepNeoHookean/threads:1"), t("BM_CholmodFactorize")
r = nh / (fa + solve) if nh and fa and solve else None
rows.append(("SI step, neo-Hookean / (factorization + solve)", r, "<= 1.3", None if r is None else r <= 1.3))
nh2 = t("BM_SiStepNeoHookean/threads:2")
r = nh2 / (fa + solve) if nh2 and fa and solve else None
rows.append(("  the same with 2 threads", r, "(info)", None))
h2 = t("BM_ElasticHessian/threads:2")
r = h1[0] / h2 if h1 and h2 else None
rows.append(("Hessian speedup, 2 threads / 1 thread", r, "(info)", None))

print()
print(f"{'tracked ratio':48s} {'value':>10s} {'target':>8s}  result")
for label, value, target, ok in rows:
    v = "n/a" if value is None else format(value, ".4g")
    res = "" if ok is None and value is not None else ("n/a" if ok is None else ("PASS" if ok else "MISS"))
    print(f"{label:48s} {v:>10s} {target:>8s}  {res}")
PY
exit 0
