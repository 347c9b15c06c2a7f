#!/usr/bin/env bash
# A real-cluster test of deploy/slurm/run-array.sbatch: installs Debian's
# slurm-wlm and munge, starts a single-node cluster on this machine (munged,
# slurmctld, slurmd; no cgroups, no systemd), submits the sbatch file as a
# 4-task array on the default scenario, waits for the array and its merge
# job, checks the merged players.parquet equals a local unsharded run of the
# same campaigns, checks every job log landed outside the project (the
# merge's beside the shards), and stops the daemons it started, by PID.
#
# Needs root (for the packages and the daemons). Run from the project:
#   CARGO_TARGET_DIR=... bash tests/slurm/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
target="${CARGO_TARGET_DIR:-target}"
bin="$(cd "$target/release" && pwd)/empires"
test -x "$bin" || cargo build --release --locked

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    echo "installing Debian's slurm-wlm and munge"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1
fi

work="$(mktemp -d /tmp/empires-slurm.XXXXXX)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    sleep 1
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

# munge: a key of our own, a socket in our work directory.
mkdir -p "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/seed"
sleep 1
pids+=("$(cat "$work/munge/munged.pid")")

cpus="$(nproc)"
mem="$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))"
host="$(hostname -s)"
mkdir -p "$work/state" "$work/spool" "$work/log"
cat > "$work/slurm.conf" <<CONF
ClusterName=empires-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF" -i
slurmd -f "$SLURM_CONF"
sleep 3
pids+=("$(cat "$work/slurmctld.pid")" "$(cat "$work/slurmd.pid")")
sinfo

# The array: 4 tasks of 1 CPU each, 8,000 campaigns, into $work/out.
out="$work/out"
job=$(sbatch --parsable --chdir="$root" --cpus-per-task=1 --mem=200M --output="$work/log/task-%a.out" \
    --export=ALL,EMPIRES="$bin",CAMPAIGNS=8000,SEED=3,OUT="$out",EXTRA_ARGS=--csv deploy/slurm/run-array.sbatch)
echo "submitted array $job"
for _ in $(seq 1 300); do
    if [ -f "$out/merged/manifest.json" ] && [ -z "$(squeue -h)" ]; then break; fi
    sleep 1
done
squeue || true
test -f "$out/merged/manifest.json" || { echo "FAIL: no merged output"; tail -n 20 "$work"/log/*; exit 1; }

# The same campaigns, unsharded, on this machine; the CSV copies compare
# the rows byte for byte.
"$bin" run --campaigns 8000 --seed 3 --csv --quiet --out "$work/local" >/dev/null
if ! cmp "$out/merged/players.csv" "$work/local/players.csv"; then
    echo "FAIL: the merged rows differ from the unsharded run"; exit 1
fi
# Every log the jobs wrote is under $work: nothing lands in the project.
litter=$(find "$root" -maxdepth 1 -name 'empires-*.out')
if [ -n "$litter" ]; then
    echo "FAIL: the jobs left logs in the project directory: $litter"; exit 1
fi
test -n "$(find "$out" -maxdepth 1 -name 'empires-merge-*.out')" || { echo "FAIL: no merge log beside the shards"; exit 1; }
echo "ok: a 4-task Slurm array, merged, equals the unsharded run ($(wc -l < "$work/local/players.csv") CSV lines)"
