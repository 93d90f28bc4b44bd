#!/bin/bash
# A sweep through a real Slurm: installs slurm-wlm and munge from Debian if
# they are missing, starts munged (unless one answers), slurmctld and slurmd
# for one node on this machine with a private configuration and ports, runs
# the 24-point sweep of tests/data/sweep-24.yaml (the one
# test_sweep_resume.sh kills and resumes) with 'ssdlab sweep slurm --submit', waits, collects and
# checks the table; then removes two results and resubmits, which must run
# an array of just those two. Cleans up the daemons it started.
# Exits 77 (ctest: skipped) with the reason when Slurm cannot be started.
# Usage: test_sweep_slurm.sh SSDLAB SOURCE_DIR
set -u
ssdlab=$1
src=$2
py=/usr/bin/python3
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; [ -n "${work:-}" ] && tail -n 20 "$work"/*.log >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || skip "not root: cannot install Slurm or start its daemons"
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    command -v apt-get > /dev/null || skip "slurm-wlm is not installed and there is no apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge > /tmp/ssdlab-slurm-apt.log 2>&1 ||
        skip "apt-get install slurm-wlm munge failed (see /tmp/ssdlab-slurm-apt.log)"
fi

work=$(mktemp -d /tmp/ssdlab-slurm-XXXXXX)
chmod 755 "$work"
started_munged=""
cleanup() {
    for d in slurmd slurmctld; do
        [ -f "$work/$d.pid" ] && kill "$(cat "$work/$d.pid")" 2> /dev/null
    done
    [ -n "$started_munged" ] && [ -f /run/munge/munged.pid ] && kill "$(cat /run/munge/munged.pid)" 2> /dev/null
    sleep 1
    rm -rf "$work"
}
trap cleanup EXIT

if ! munge -n 2> /dev/null | unmunge > /dev/null 2>&1; then
    mkdir -p /run/munge && chown munge:munge /run/munge
    [ -f /etc/munge/munge.key ] || skip "no /etc/munge/munge.key"
    runuser -u munge -- /usr/sbin/munged > "$work/munged.log" 2>&1 || skip "munged would not start: $(cat "$work/munged.log")"
    started_munged=1
    sleep 0.5
fi

host=$(hostname -s)
mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" <<EOF
ClusterName=ssdlabtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$host CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
mkdir -p "$work/state" "$work/spool"
slurmctld -f "$SLURM_CONF" || skip "slurmctld would not start: $(tail -n 5 "$work/slurmctld.log")"
slurmd -f "$SLURM_CONF" || skip "slurmd would not start: $(tail -n 5 "$work/slurmd.log")"
for _ in $(seq 1 60); do
    sinfo -h -o %T 2> /dev/null | grep -q idle && break
    sleep 0.5
done
sinfo -h -o %T | grep -q idle || skip "the Slurm node did not come up: $(tail -n 5 "$work/slurmd.log")"

cd "$work"
cp "$src/tests/data/sweep-24.yaml" s.yaml

wait_for_queue() {
    for _ in $(seq 1 600); do
        [ -z "$(squeue -h 2> /dev/null)" ] && return 0
        sleep 0.5
    done
    fail "the job array did not finish in 300 s: $(squeue)"
}

"$ssdlab" sweep slurm s.yaml --submit --time 10 --mem 400M > submit.log 2>&1 || fail "submit: $(cat submit.log)"
grep -q "^submitted job [0-9]*$" submit.log || fail "no job id: $(cat submit.log)"
grep -q "^#SBATCH --array=0-23$" out/slurm/sweep24.sbatch || fail "array: $(grep array out/slurm/sweep24.sbatch)"
wait_for_queue
"$ssdlab" sweep collect s.yaml > collect.log 2>&1 || fail "collect: $(cat collect.log)"
grep -q "24 rows from 24 complete points of 24" collect.log || fail "$(cat collect.log) $(cat out/slurm/*.out)"

# resubmitting runs only what is missing
rm out/p0002-*.h5 out/p0005-*.h5
"$ssdlab" sweep slurm s.yaml --submit > resubmit.log 2>&1 || fail "resubmit: $(cat resubmit.log)"
grep -q "^#SBATCH --array=2,5$" out/slurm/sweep24.sbatch || fail "resubmitted array: $(grep array out/slurm/sweep24.sbatch)"
wait_for_queue
"$ssdlab" sweep collect s.yaml -o again.h5 > collect2.log 2>&1 || fail "collect: $(cat collect2.log)"
$py - <<'EOF' || fail "the collected table"
import h5py
t = h5py.File("out/sweep.h5", "r")["table"][:]
u = h5py.File("again.h5", "r")["table"][:]
assert sorted(t["point"].tolist()) == list(range(24)), t["point"]
for name in t.dtype.names:
    if name != "wall_time_s":
        assert (t[name] == u[name]).all() if t[name].dtype.kind != "f" else ((t[name] == u[name]) | (t[name] != t[name])).all(), name
print("24 points through Slurm; the resubmitted two equal the first run")
EOF
"$ssdlab" sweep slurm s.yaml --submit | grep -q "all 24 points are complete; nothing to submit" || fail "a complete sweep was resubmitted"
echo "sweep through Slurm: 24 points, resubmission of 2"
