#!/usr/bin/env bash
# ctest sweep_slurm: `simrun sweep --slurm` against a real single-node Slurm that this test starts
# (slurmci-up.sh) and always stops (slurmci-down.sh). Usage: sweep_slurm_test.sh SIMRUN
#   1. a 2x2 grid submitted as a job array (-j 2: two tasks at once) and waited for: exit 0,
#      summary.csv with 4 finished rows, the partition/time/memory options in slurm/array.sh;
#   2. the same command again: nothing to submit;
#   3. a zip sweep with a diverging point, submitted with --no-wait and collected after the job
#      has left the queue with --collect: exit 2, the failed task listed with its log.
# Exit 77 (ctest SKIP_RETURN_CODE) with the reason printed when Slurm cannot be installed or
# started here: not root, no apt-get, no network, or another Slurm already on the ports.
set -uo pipefail
SIMRUN=${1:?usage: sweep_slurm_test.sh SIMRUN}
HERE=$(cd "$(dirname "$0")" && pwd)
SECONDS=0
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; [ -n "${last_output:-}" ] && printf '%s\n' "--- output ---" "$last_output"; exit 1; }

[ "$(id -u)" = 0 ] || skip "starting Slurm's daemons needs root (uid $(id -u))"
# One Slurm test at a time on this machine (two build trees may run ctest at once).
exec 9>/tmp/slurmci.lock
flock -w 300 9 || fail "another sweep_slurm test held /tmp/slurmci.lock for 300 s"

WORK=$(mktemp -d /tmp/sweep_slurm_test.XXXXXX)
cleanup() { bash "$HERE/slurmci-down.sh"; rm -rf "$WORK"; }
trap cleanup EXIT
bash "$HERE/slurmci-down.sh"   # leftovers of a test that was killed (under the lock: ours)
rc=0
bash "$HERE/slurmci-up.sh" >"$WORK/up.log" 2>&1 || rc=$?
case $rc in
  0) ;;
  2) skip "Slurm could not be installed: $(tail -n 1 "$WORK/up.log")" ;;
  3) skip "$(tail -n 1 "$WORK/up.log")" ;;
  *) cat "$WORK/up.log"; fail "slurmci-up.sh exited $rc" ;;
esac
export SLURM_CONF=/tmp/slurmci/slurm.conf
echo "slurm up after ${SECONDS} s"

# Scenes: a clamped bar (24 tets) falling under gravity for 10 steps; runs take ~0.1 s.
cat >"$WORK/base.json" <<'JSON'
{ "name": "tiny", "time": { "dt": 0.01, "steps": 10 }, "gravity": [0, -9.81, 0],
  "objects": [ { "mesh": { "box": { "size": [1.0, 0.2, 0.2], "cells": [4, 1, 1] } },
                 "material": { "model": "linear", "E": 1e5, "nu": 0.3, "density": 1000 },
                 "dirichlet": [ { "select": { "side": "-x" } } ] } ],
  "integrator": { "type": "si" }, "output": { "every": 1 } }
JSON
cat >"$WORK/grid.json" <<'JSON'
{ "scene": "base.json", "mode": "grid",
  "parameters": { "/objects/0/material/E": [1e5, 1e6], "/time/dt": [0.01, 0.005] } }
JSON
# Forward Euler at dt = 0.008 diverges on this bar (tests/app/blowup_test.cpp); SI does not.
cat >"$WORK/diverge.json" <<'JSON'
{ "scene": "base.json", "mode": "zip",
  "parameters": { "/integrator/type": ["si", "fe"], "/time/dt": [0.008, 0.008],
                  "/time/steps": [60, 60] } }
JSON

# 1. Submit and wait.
OUT=$WORK/grid_out
last_output=$("$SIMRUN" sweep "$WORK/grid.json" -o "$OUT" --slurm --partition debug \
  --time 00:05:00 --mem 500M -j 2 2>&1); rc=$?
[ $rc = 0 ] || fail "sweep --slurm exited $rc"
grep -q "submitted Slurm job" <<<"$last_output" || fail "no submission message"
[ "$(grep -c ' finished ' <<<"$last_output")" -ge 4 ] || fail "expected a progress line per task"
rows=$(tail -n +2 "$OUT/summary.csv")
[ "$(wc -l <<<"$rows")" = 4 ] || fail "summary.csv has not 4 rows: $rows"
[ "$(cut -d, -f4 <<<"$rows" | sort -u)" = finished ] || fail "not all finished: $rows"
for opt in '--array=0-3%2' '--partition=debug' '--time=00:05:00' '--mem=500M' '--cpus-per-task=1'; do
  grep -qx -- "#SBATCH $opt" "$OUT/slurm/array.sh" || fail "array.sh lacks #SBATCH $opt"
done
for name in E=1e5_dt=0.01 E=1e5_dt=0.005 E=1e6_dt=0.01 E=1e6_dt=0.005; do
  grep -q '"status": "finished"' "$OUT/$name/run.json" || fail "$name/run.json not finished"
  grep -q "^$name,.*,finished,[0-9.e-]*,10," "$OUT/summary.csv" || fail "row of $name"
done
for i in 0 1 2 3; do [ -f "$OUT/slurm/task_$i.log" ] || fail "no slurm/task_$i.log"; done
job=$(sed -n 's/.*"job_id": "\([0-9]*\)".*/\1/p' "$OUT/slurm/job.json")
echo "1. grid: job $job, 4 tasks finished (${SECONDS} s)"

# 2. Again: every point finished, nothing is submitted.
last_output=$("$SIMRUN" sweep "$WORK/grid.json" -o "$OUT" --slurm 2>&1); rc=$?
[ $rc = 0 ] || fail "second sweep --slurm exited $rc"
grep -q "all 4 point(s) finished earlier" <<<"$last_output" || fail "resubmitted finished points"
grep -q "submitted" <<<"$last_output" && fail "a job was submitted again"
echo "2. resume: nothing submitted (${SECONDS} s)"

# 3. --no-wait, then --collect once the job has left the queue.
OUT=$WORK/diverge_out
last_output=$("$SIMRUN" sweep "$WORK/diverge.json" -o "$OUT" --slurm --no-wait 2>&1); rc=$?
[ $rc = 0 ] || fail "sweep --slurm --no-wait exited $rc"
job=$(sed -n 's/.*"job_id": "\([0-9]*\)".*/\1/p' "$OUT/slurm/job.json")
[ -n "$job" ] || fail "no job id in slurm/job.json"
for _ in $(seq 1 300); do [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break; sleep 0.2; done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "job $job still queued after 60 s"
last_output=$("$SIMRUN" sweep "$WORK/diverge.json" -o "$OUT" --collect 2>&1); rc=$?
[ $rc = 2 ] || fail "--collect exited $rc, expected 2 (a point diverged)"
grep -q "^type=fe_dt=0.008_steps=60,fe,.*,diverged," "$OUT/summary.csv" || fail "fe row not diverged"
grep -q "^type=si_dt=0.008_steps=60,si,.*,finished," "$OUT/summary.csv" || fail "si row not finished"
grep -q "type=fe_dt=0.008_steps=60: diverged .*log: $OUT/slurm/task_1.log" <<<"$last_output" ||
  fail "the diverged task is not listed with its log"
[ -s "$OUT/slurm/task_1.log" ] || fail "task_1.log is empty"
echo "3. --no-wait + --collect: exit 2, diverged task listed with slurm/task_1.log (${SECONDS} s)"
echo "PASS (${SECONDS} s)"
