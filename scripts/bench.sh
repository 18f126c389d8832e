#!/usr/bin/env bash
# Builds simrun (Release) and runs the Google Benchmark kernels in benchmarks/, then prints the
# medians and the ratios the project tracks with PASS/MISS per target. Always exits 0 once the
# benchmarks ran: benchmarks inform, they do not gate CI.
#   SIMRUN_BUILD_DIR   build directory (default: build)
#   SIMRUN_BENCH_REPS  repetitions per benchmark (default: 5)
#   SIMRUN_BENCH_FILTER regex of the benchmarks to run (default: all)
#   SIMRUN_BENCH_BUILD  0 skips the build (the tree in SIMRUN_BUILD_DIR is used as it is)
#   SIMRUN_BENCH_SCENES 0 skips every scene timing below (the Google Benchmark kernels only)
#   SIMRUN_BENCH_PEER   0 skips the FEniCSx comparison (benchmarks/peer_fenicsx.py)
#   SIMRUN_BENCH_EXP    0 skips the exponential integrators' scenes (benchmarks/exponential_scenes.py)
#   SIMRUN_BENCH_EIGENFIT 0 skips EigenFit's cost (benchmarks/eigenfit_scenes.py)
#   SIMRUN_BENCH_CONTACT 0 skips IPC contact's cost (benchmarks/contact_scenes.py)
#   SIMRUN_BENCH_COARSEN 0 skips the coarsening precomputation (benchmarks/coarsening_precompute.py)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SIMRUN_BUILD_DIR:-build}
[[ "$build" = /* ]] || build="$root/$build"
reps=${SIMRUN_BENCH_REPS:-5}
filter=${SIMRUN_BENCH_FILTER:-.}

if [ "${SIMRUN_BENCH_BUILD:-1}" = 0 ]; then
  :  # the caller built the tree (the ctest smoke test runs inside a build)
elif [ -x "$root/scripts/build.sh" ]; then
  SIMRUN_BUILD_DIR="$build" SIMRUN_BUILD_TYPE=Release "$root/scripts/build.sh" -DSIMRUN_BUILD_BENCHMARKS=ON >&2
else
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSIMRUN_BUILD_BENCHMARKS=ON >/dev/null
  cmake --build "$build" -j "$(nproc)" >&2
fi

# Every benchmark runs with the thread environment `simrun --threads N` gives a run: all pools
# at N (a single-threaded OpenBLAS under a CHOLMOD allowed two OpenMP threads factorizes twice
# as slowly). Benchmarks named threads:2 run in a second pass with N = 2, the rest with N = 1.
# Each pass runs the benchmarks it selects by name (SIMRUN_BENCH_FILTER and the pass's thread
# count); a pass that selects none is skipped, and a benchmark executable that fails is reported
# at the end while the others' results are still printed.
export OMP_WAIT_POLICY=PASSIVE
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failures=()
for exe in "$build"/benchmarks/*_bench; do
  [ -x "$exe" ] || continue
  name=$(basename "$exe")
  if ! "$exe" --benchmark_list_tests >"$out/$name.list" 2>"$out/$name.err"; then
    failures+=("$name: --benchmark_list_tests failed: $(tail -n 1 "$out/$name.err")")
    continue
  fi
  for threads in 1 2; do
    # The names this pass runs, as one anchored alternation (benchmark names have no regex
    # characters but '.', escaped here).
    selected=$(/usr/bin/python3 - "$out/$name.list" "$filter" "$threads" <<'PY'
import re, sys
names = [n.strip() for n in open(sys.argv[1]) if n.strip()]
pattern, threads = re.compile(sys.argv[2]), sys.argv[3]
keep = [n for n in names if pattern.search(n) and (("threads:2" in n) == (threads == "2"))]
print("^(" + "|".join(n.replace(".", "\\.") for n in keep) + ")$" if keep else "")
PY
    )
    [ -n "$selected" ] || continue
    echo "bench: running $name ($threads thread(s))" >&2
    status=0
    OMP_NUM_THREADS=$threads OMP_THREAD_LIMIT=$threads OPENBLAS_NUM_THREADS=$threads \
      "$exe" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
      --benchmark_format=json --benchmark_filter="$selected" >"$out/$name.$threads.json" \
      2>"$out/$name.$threads.err" || status=$?
    if [ "$status" != 0 ]; then
      failures+=("$name ($threads thread(s)): exit $status: $(tail -n 1 "$out/$name.$threads.err")")
    fi
  done
done

/usr/bin/python3 - "$out" <<'PY'
import glob, json, os, sys

med = {}  # run_name -> median real time [ms], items/s
counters = {}  # run_name -> user counters of the median
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    try:
        with open(path) as f:
            data = json.load(f)
    except ValueError as error:  # a benchmark that died mid-output
        print(f"bench: {os.path.basename(path)} unreadable ({error}); its results are left out")
        continue
    for b in data.get("benchmarks", []):
        if b.get("aggregate_name", "median") != "median" or b.get("error_occurred"):
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
        med[b["run_name"]] = (b["real_time"] * scale, b.get("items_per_second"))
        counters[b["run_name"]] = {k: v for k, v in b.items() if isinstance(v, (int, float))}

print(f"{'benchmark (median of runs, wall time)':48s} {'ms':>10s} {'items/s':>12s}")
for name, (ms, ips) in med.items():
    print(f"{name:48s} {ms:10.3f} {'' if ips is None else format(ips, '.4g'):>12s}")

def get(prefix):
    for name, v in med.items():
        if name == prefix or name.startswith(prefix + "/"):
            return v
    return None


def counters_of(prefix):
    for name, v in counters.items():
        if name == prefix or name.startswith(prefix + "/"):
            return v
    return {}

def t(prefix):
    v = get(prefix)
    return None if v is None else v[0]

rows = []  # (label, value, target text, passed or None)
h1 = get("BM_ElasticHessian/threads:1")
rate = h1[1] if h1 else None
rows.append(("Hessian assembly, linear, 1 thread [tets/s]", rate, ">= 1e6",
             None if rate is None else rate >= 1e6))
si, solve = t("BM_SiStep"), t("BM_CholmodSolve")
# Timed interleaved inside BM_SiStep (a step, then a bare back-solve, per iteration).
r = counters_of("BM_SiStep").get("step_per_solve")
rows.append(("SI step / one back-solve", r, "<= 1.15", None if r is None else r <= 1.15))
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
exact, reuse = get("BM_BeStepNeoHookean/reuse:0"), get("BM_BeStepNeoHookean/reuse:1")
fa = t("BM_CholmodFactorize")
if exact and reuse and fa and solve:
    iters = counters_of("BM_BeStepNeoHookean/reuse:0").get("newton_iters")
    floor = iters * (fa + solve) if iters else None
    r = reuse[0] / floor if floor else None
    rows.append(("BE step, neo-Hookean / (exact Newton iterations x (factorization + solve))",
                 r, "<= 1.15", None if r is None else r <= 1.15))
    r = exact[0] / floor if floor else None
    rows.append(("  the same with exact Newton", r, "(info)", None))
# Issue 8 (benchmarks/variational_bench.cpp), each timed interleaved with its reference.
r = counters_of("BM_VariationalMidpointLinearStep").get("step_per_solve")
rows.append(("variational midpoint step, linear / one back-solve", r, "<= 2",
             None if r is None else r <= 2))
r = counters_of("BM_VerletStepRod160").get("step_per_gradient")
rows.append(("Verlet step, 160-tet rod / one gradient", r, "<= 2", None if r is None else r <= 2))
# Issue 9 (benchmarks/overlap_bench.cpp): exact tet-tet overlap volumes for coarsening.
ov = get("BM_TetIntersectionVolume")
rate = ov[1] if ov else None
rows.append(("tet-tet overlap volume, 1 thread [pairs/s]", rate, ">= 1e6",
             None if rate is None else rate >= 1e6))
rows.append(("  whole tet_overlaps(), 197k x 640 tets [ms]", t("BM_TetOverlaps/threads:1"),
             "(info)", None))
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
if [ ${#failures[@]} -gt 0 ]; then
  echo
  echo "bench: ${#failures[@]} benchmark run(s) failed (their results above are partial or missing):"
  printf '  %s\n' "${failures[@]}"
fi
# SIMRUN_BENCH_SCENES=0 skips every scene timing below (the kernels only).
if [ "${SIMRUN_BENCH_SCENES:-1}" = 0 ]; then
  exit 0
fi
# The FEniCSx comparison (skipped, with a message, without python3-dolfinx; SIMRUN_BENCH_PEER=0
# skips it too).
if [ "${SIMRUN_BENCH_PEER:-1}" != 0 ]; then
  echo
  echo "against FEniCSx (benchmarks/peer_fenicsx.py; ratio = FEniCSx time / simrun time)"
  /usr/bin/python3 "$root/benchmarks/peer_fenicsx.py" --simrun "$build/apps/simrun/simrun" || true
fi
# The exponential integrators' scene targets (issue 13; SIMRUN_BENCH_EXP=0 skips them).
if [ "${SIMRUN_BENCH_EXP:-1}" != 0 ]; then
  echo
  /usr/bin/python3 "$root/benchmarks/exponential_scenes.py" --simrun "$build/apps/simrun/simrun" || true
fi

# EigenFit's cost against plain coarse and fine runs (issue 7; SIMRUN_BENCH_EIGENFIT=0 skips it).
if [ "${SIMRUN_BENCH_EIGENFIT:-1}" != 0 ]; then
  echo
  /usr/bin/python3 "$root/benchmarks/eigenfit_scenes.py" --simrun "$build/apps/simrun/simrun" || true
fi

# Numerical coarsening's precomputation on a ~188k-tet organ stand-in against fine steps (issue 9;
# SIMRUN_BENCH_COARSEN=0 skips it).
if [ "${SIMRUN_BENCH_COARSEN:-1}" != 0 ]; then
  echo
  /usr/bin/python3 "$root/benchmarks/coarsening_precompute.py" --simrun "$build/apps/simrun/simrun" || true
fi

# IPC contact's share of a step on a ~50k-tet ball (issue 14; SIMRUN_BENCH_CONTACT=0 skips it).
if [ "${SIMRUN_BENCH_CONTACT:-1}" != 0 ]; then
  echo
  /usr/bin/python3 "$root/benchmarks/contact_scenes.py" --simrun "$build/apps/simrun/simrun" || true
fi
# The multilevel solver against CHOLMOD on a contact window (issue 10; SIMRUN_BENCH_MULTILEVEL=0
# skips it).
if [ "${SIMRUN_BENCH_MULTILEVEL:-1}" != 0 ]; then
  echo
  /usr/bin/python3 "$root/benchmarks/multilevel_scenes.py" --simrun "$build/apps/simrun/simrun" || true
fi
exit 0
