#!/bin/bash
# A 24-point sweep run with -j 2 and killed (SIGKILL, the whole process
# group) in the middle, then resumed: the rerun skips what was complete,
# no point is lost or duplicated, no temporary file is left, and each
# collected row equals a single 'ssdlab run' of the same point. Results
# are byte-identical (every dataset and attribute but the wall clock's)
# between -j 2 and points run one after another, and between a point and
# its single run. Also: a
# point that fails keeps its log, does not stop the others, and the exit
# status says how many failed.
# Usage: test_sweep_resume.sh SSDLAB SOURCE_DIR
set -eu
ssdlab=$1
src=$2
py=/usr/bin/python3
work=$(mktemp -d /tmp/ssdlab-sweep-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

cp "$src/tests/data/sweep-24.yaml" s.yaml

# --- killed in the middle, resumed ---------------------------------------
setsid "$ssdlab" sweep run s.yaml -j 2 > run1.out 2>&1 &
pid=$!
for _ in $(seq 1 24000); do # up to 1200 s: a sanitizer or valgrind build on a busy machine is slow
    [ "$(ls out/*.h5 2>/dev/null | wc -l)" -ge 4 ] && break
    sleep 0.05
done
kill -KILL -- "-$pid"
wait "$pid" 2>/dev/null || true
done_before=$(ls out/*.h5 | wc -l)
[ "$done_before" -ge 4 ] && [ "$done_before" -lt 24 ] || fail "killed after $done_before of 24 points; expected in the middle"
"$ssdlab" sweep run s.yaml -j 2 > run2.out 2>&1 || fail "resumed run: $(cat run2.out)"
grep -q "24/24 done ($done_before were complete), 0 failed" run2.out || fail "resumed run did not skip the $done_before complete points: $(cat run2.out)"
[ -z "$(ls out | grep tmp || true)" ] || fail "temporary files left: $(ls out | grep tmp)"
"$ssdlab" sweep collect s.yaml -o sweep.h5 > collect.out || fail "collect: $(cat collect.out)"
grep -q "24 rows from 24 complete points of 24" collect.out || fail "$(cat collect.out)"

# --- every row equals a single run of its point ---------------------------
"$ssdlab" sweep plan s.yaml > plan.out
for i in 0 13 23; do
    line=$(grep -E "^ +$i  " plan.out)
    seed=$(echo "$line" | awk '{print $5}')
    sets=$(echo "$line" | awk '{for (k = 6; k <= NF; k++) printf " --set %s", $k}')
    # shellcheck disable=SC2086
    "$ssdlab" run -d example-sata-480 --set nand.blocks_per_plane=40 \
        --set workload.precondition=steady --set workload.steady_overwrites=1 --set ftl.gc.background_threshold=0 \
        --set workload.read_share=0 \
        --set workload.requests=100000 $sets --seed "$seed" -o "single$i.h5" > /dev/null
done
# the first six points again, one after another (as -j 1 would), elsewhere
sed 's/^  output: out$/  output: out1/' s.yaml > s1.yaml
"$ssdlab" sweep run-point s1.yaml --index 0-5 > /dev/null 2>&1 || fail "run-point 0-5"
SRC="$src" $py - <<'EOF' || fail "results not byte-identical"
import glob, os, sys
sys.path.insert(0, os.path.join(os.environ["SRC"], "tests", "results"))
from test_results import datasets  # every dataset's bytes and attribute, less the wall clock's
for one in sorted(glob.glob("out1/p*.h5")):
    a, b = datasets(one), datasets(one.replace("out1/", "out/"))
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    assert not differ, (one, "-j 2 (killed and resumed) against one after another", differ)
for i in (0, 13, 23):
    point = glob.glob(f"out/p{i:04d}-*.h5")[0]
    a, b = datasets(point), datasets(f"single{i}.h5")
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    assert not differ, (point, "against the single run", differ)
print("byte-identical: 6 points across -j settings, 3 points against single runs")
EOF
$py - <<'EOF' || fail "collected table"
import h5py, numpy as np
t = h5py.File("sweep.h5", "r")["table"][:]
points = sorted(t["point"].tolist())
assert points == list(range(24)), points
assert sorted(set(t["seed"].tolist())) == [5, 6], set(t["seed"].tolist())
caps = sorted(set(t["drive.user_capacity"].tolist()))
assert caps == [8e9, 9e9, 10e9], caps
for i in (0, 13, 23):
    single = h5py.File(f"single{i}.h5", "r")["summary"][:]
    row = t[t["point"] == i]
    assert len(single) == len(row) == 1
    for name in single.dtype.names:
        if name == "wall_time_s":
            continue
        a, b = single[name][0], row[name][0]
        same = np.array_equal(a, b, equal_nan=True) if np.asarray(a).dtype.kind == "f" else np.array_equal(a, b)
        assert same, (i, name, a, b)
print("rows match single runs")
EOF

# --- the analysis package reads the table and plots it ----------------------
"$ssdlab" plot sweep sweep.h5 --x drive.user_capacity --lines ftl.gc.policy --metric write_amplification -o wa.png ||
    fail "plot sweep"
PYTHONPATH="$src/analysis" $py - <<'EOF' || fail "the analysis package on the table"
import struct
from ssdlab_analysis.sweeps import SweepTable
t = SweepTable("sweep.h5")
assert t.keys == ["drive.user_capacity", "ftl.gc.policy"], t.keys
assert "write_amplification" in t.metrics and "iops" in t.metrics, t.metrics
cap, pol, wa = t.column("drive.user_capacity"), t.column("ftl.gc.policy"), t.metric("write_amplification")
greedy = {c: wa[(cap == c) & (pol == "greedy")].mean() for c in (8e9, 10e9)}
assert 1 < greedy[8e9] < greedy[10e9], greedy  # less spare area, more GC copies
assert wa[pol == "random"].mean() > wa[pol == "greedy"].mean()
with open("wa.png", "rb") as f:
    head = f.read(24)
assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (800, 450), head
print("table read and plotted")
EOF

# --- a failing point ----------------------------------------------------------
printf '1,h,0,Write,0,4096,1\n2,h,0,Write,4096,4096,1\n' > good.csv
printf '1,h,0,Write,0,4096,1\n2,h,0,Write,4096,-5,1\n' > bad.csv
cat > f.yaml <<EOF
sweep:
  drive: $src/models/drives/example-sata-480.yaml
  output: fout
  set: [nand.blocks_per_plane=40, drive.user_capacity=8GB, workload.source=trace, workload.replay=afap,
        workload.precondition=none]
grid:
  workload.trace: [$work/good.csv, $work/bad.csv, $work/good.csv]
EOF
status=0
"$ssdlab" sweep run f.yaml -j 2 > f.out 2>&1 || status=$?
[ "$status" -eq 11 ] || fail "one failed point: exit status $status, expected 11: $(cat f.out)"
[ "$(ls fout/*.h5 | wc -l)" -eq 2 ] || fail "the good points did not both complete: $(ls fout)"
bad_log=$(ls fout/p0001-*.log)
grep -q "bad.csv:2" "$bad_log" || fail "the failed point's log does not say why: $(cat "$bad_log")"
"$ssdlab" sweep plan f.yaml | grep -q "p0001-[0-9a-f]* failed" || fail "plan does not show the failed point"
echo "sweep resume: killed after $done_before of 24 points; resumed, collected 24 rows; failures counted"
