#!/usr/bin/env bash
# Start a throwaway single-node Slurm cluster on a Debian 12 machine without systemd, as root:
# munged, slurmctld and slurmd with their config, state and logs under /tmp/slurmci (nothing is
# written to /etc/slurm). Installs slurmctld, slurmd, slurm-client and munge (without
# recommends) when they are missing. Clients then need: export SLURM_CONF=/tmp/slurmci/slurm.conf
# Stop everything with slurmci-down.sh (safe to run when nothing is running).
#
# Exit codes: 0 the node is idle and takes jobs; 1 a daemon did not come up (logs in
# /tmp/slurmci/log); 2 the packages could not be installed (not root, no apt, no network);
# 3 something already listens on Slurm's ports (another cluster: this script leaves it alone).
# Facts behind each step (no systemd, /run/munge, munged as the munge user, batch_sched_delay):
# the project's shared notes on single-node Slurm.
set -euo pipefail
D=/tmp/slurmci
HOST=$(hostname -s)
export SLURM_CONF=$D/slurm.conf

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
   ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "slurmci-up: Slurm is not installed, and installing it needs root and apt-get" >&2
    exit 2
  fi
  if ! { apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
           slurmctld slurmd slurm-client munge >/dev/null; }; then
    echo "slurmci-up: apt-get could not install slurmctld slurmd slurm-client munge" >&2
    exit 2
  fi
fi

if ss -ltn 2>/dev/null | grep -qE ':(6817|6818)\b'; then
  echo "slurmci-up: ports 6817/6818 are in use (a Slurm cluster is already running here)" >&2
  exit 3
fi

mkdir -p "$D/state" "$D/spool" "$D/log"

# munge: the package's postinst makes /etc/munge/munge.key; make one if not.
[ -s /etc/munge/munge.key ] || runuser -u munge -- mungekey --create
install -d -o munge -g munge -m 0755 /run/munge   # systemd would create it (RuntimeDirectory)
runuser -u munge -- /usr/sbin/munged                # forks; pid in /run/munge/munged.pid
munge -n | unmunge >/dev/null                       # fails fast if munge is broken

CPUS=$(nproc)
MEM=$(( $(awk '/^MemTotal:/{print $2}' /proc/meminfo) / 1024 - 1024 ))  # MiB, 1 GiB kept back
cat > "$SLURM_CONF" <<CONF
ClusterName=ci
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
# The default batch_sched_delay=3 starts array tasks 3 s apart per wave.
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -c     # -c: cold start, ignore saved state; forks into the background
slurmd           # forks into the background

for _ in $(seq 1 100); do
  [ "$(sinfo -h -n "$HOST" -o %T 2>/dev/null)" = idle ] && break
  sleep 0.3
done
if [ "$(sinfo -h -n "$HOST" -o %T 2>/dev/null)" != idle ]; then
  echo "slurmci-up: node $HOST is not idle after 30 s; see $D/log/" >&2
  sinfo >&2 || true
  exit 1
fi
sinfo
