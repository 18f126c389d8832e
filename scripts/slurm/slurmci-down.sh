#!/usr/bin/env bash
# Stop what slurmci-up.sh started, by the PIDs in its pid files, and remove /tmp/slurmci and
# /run/munge. Does nothing harmful when nothing is running. The packages stay installed (to
# remove them: apt-get purge slurmctld slurmd slurm-client munge, by name, never --autoremove).
D=/tmp/slurmci
export SLURM_CONF=$D/slurm.conf
# 1. Cancel jobs and let them drain while slurmd and slurmctld are still up, so that each
#    slurmstepd reports back and exits (killing slurmd first leaves an orphan slurmstepd that
#    blocks SIGTERM).
if [ -S /run/munge/munge.socket.2 ] && [ -s "$D/slurmctld.pid" ]; then
  jobs=$(squeue -h -o %A 2>/dev/null | sort -u)
  if [ -n "$jobs" ]; then
    # shellcheck disable=SC2086
    scancel $jobs
    for _ in $(seq 1 100); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  fi
fi
# 2. Stop the three daemons by the PIDs in their pid files, each only if that PID still is the
#    daemon named (a stale pid file must not kill whatever process reuses the number).
pids=""
for pair in "$D/slurmd.pid:slurmd" "$D/slurmctld.pid:slurmctld" "/run/munge/munged.pid:munged"; do
  f=${pair%%:*} name=${pair##*:}
  [ -s "$f" ] || continue
  p=$(cat "$f")
  [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$name" ] && pids="$pids $p"
done
if [ -n "$pids" ]; then
  # shellcheck disable=SC2086
  kill $pids 2>/dev/null
  alive=0
  for _ in $(seq 1 50); do          # up to 5 s; a zombie (state Z) counts as gone
    alive=0
    for p in $pids; do
      [ -r "/proc/$p/stat" ] && [ "$(awk '{print $3}' "/proc/$p/stat")" != Z ] && alive=1
    done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  # shellcheck disable=SC2086
  [ $alive = 0 ] || kill -9 $pids 2>/dev/null
fi
rm -rf "$D" /run/munge
exit 0
