#!/bin/bash
# Memory that runs out in the middle of a run (docs/hardening.md): an open
# loop that offers 2 million reads a second to a SATA drive that serves
# about 119,000 queues requests without bound, and under ulimit -v the
# request pool runs out within a couple of simulated seconds. The run must
# stop with exit status 1 and a message naming what ran out, and keep a
# result marked 'out of memory' that holds what ran; no temporary file may
# be left. Release build only: the sanitizers' shadow memory cannot run
# under ulimit -v.
# Usage: test_out_of_memory.sh SSDLAB SOURCE_DIR
set -u
ssdlab=$1
src=$2
py=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }

work=$(mktemp -d /tmp/ssdlab-oom-XXXXXX)
trap 'rm -rf "$work"' EXIT
sets=(--set drive.user_capacity=8GB --set workload.arrival=fixed --set workload.rate=2e6 --set workload.requests=0
      --set workload.duration=20s --set workload.precondition=none)
(ulimit -v 1000000; "$ssdlab" run -d "$src/models/drives/example-sata-480.yaml" "${sets[@]}" -o "$work/oom.h5") \
    > "$work/out.log" 2> "$work/err.log"
rc=$?
cat "$work/out.log" "$work/err.log"
[ "$rc" -eq 1 ] || fail "exit status $rc, expected 1"
grep -q "out of memory for requests: the run stopped there" "$work/err.log" || fail "no message naming what ran out"
[ -f "$work/oom.h5" ] || fail "no result kept"
left=$(ls "$work" | grep -v -x -e oom.h5 -e out.log -e err.log)
[ -z "$left" ] || fail "left behind: $left"
"$py" - "$work/oom.h5" << 'PY' || fail "the result does not hold what ran"
import sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    status = f["meta"].attrs["status"]
    status = status.decode() if isinstance(status, bytes) else status
    assert status == "out of memory", status
    rows = f["summary"][:]
    assert len(rows) == 1, len(rows)
    row = rows[0]
    # the drive served requests at its QD32 ceiling until the pool ran out,
    # well before the 20 s the phase asked for
    assert row["requests"] > 10000, row["requests"]
    assert 0 < row["sim_time_s"] < 20, row["sim_time_s"]
    print("result: status %s, %d requests in %.3f simulated s" % (status, row["requests"], row["sim_time_s"]))
PY
echo "PASS"
