#!/usr/bin/python3
"""The placement comparison (experiments/placement) end to end: its four
runs, read back by analysis/placement.py, show what the mechanisms must
give on this workload (docs/placement.md):
- a drive with zones does no GC: its write amplification is exactly 1, and
  the host's reclaim copies are its write amplification instead (above 1:
  its hot writers overwrite objects at random);
- FDP, a handle per worker, keeps each worker's objects in reclaim units of
  their own, so the cold logs' stale units are erased together: the drive
  writes at least 5 % less than conventional, and its worst p99 write
  latency is below conventional's;
- every mode writes at least what the host asked (WAF >= 1).

  test_placement.py SSDLAB SOURCE_DIR"""
import pathlib
import subprocess
import sys
import tempfile

ssdlab, source = sys.argv[1], pathlib.Path(sys.argv[2])
sys.path.insert(0, str(source / "analysis"))
sys.path.insert(0, str(source / "tests/results"))
from checks import Checks  # noqa: E402
import placement  # noqa: E402

check = Checks()


with tempfile.TemporaryDirectory() as out:
    run = subprocess.run([str(source / "experiments/placement/run"), out], env={"SSDLAB": ssdlab, "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True)
    print(run.stdout + run.stderr)
    check(run.returncode == 0, "experiments/placement/run exits 0")
    check((pathlib.Path(out) / "placement.png").stat().st_size > 10000, "the plot is written")
    m = {name: placement.mode_figures(pathlib.Path(out) / f"{name}.h5") for name, _ in placement.MODES}
    worst = {name: max(w["p99_ms"] for w in f["workers"]) for name, f in m.items()}
    check(abs(m["zns"]["device_waf"] - 1.0) < 1e-12, f"zns: the drive's WAF is 1 ({m['zns']['device_waf']:.6f})")
    check(m["zns"]["host_waf"] > 1.0, f"zns: the host's reclaim copies ({m['zns']['host_waf']:.3f})")
    check(m["fdp"]["device_waf"] < 0.95 * m["conventional"]["device_waf"],
          f"fdp's WAF {m['fdp']['device_waf']:.3f} is 5 % below conventional's {m['conventional']['device_waf']:.3f}")
    check(worst["fdp"] < worst["conventional"], f"fdp's worst p99 write {worst['fdp']:.2f} ms < conventional's {worst['conventional']:.2f} ms")
    for name, f in m.items():
        check(f["waf"] >= 1.0 and len(f["workers"]) == 4, f"{name}: total WAF {f['waf']:.3f} >= 1, four workers")
sys.exit(check.status())
