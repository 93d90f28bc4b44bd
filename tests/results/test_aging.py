#!/usr/bin/python3
"""The aging experiment (experiments/lifetime/aging) end to end, on the
TR200 240 GB shrunk to 4 GB on two dies with 2 s probes, so that its ten
points take seconds. What must hold (docs/reliability.md):
- ten points: 0, 25, 50, 75, 100 % of the rated P/E cycles, with fresh
  data and after a year at 30 C;
- fresh data decodes at once at every wear: the BiCS3 part's RBER at its
  rated 3,000 cycles is 1.5e-3 (x 1.3 on centre pages), 36 errors a
  codeword against the Phison S11's hard limit of 80;
- after a year, ladder steps per read rise with wear from 50 % on, the
  read p99 does not fall, and the worn drive reads at under half the new
  drive's IOPS;
- analysis/aging.py reads it back and draws the plot.

  test_aging.py SSDLAB SOURCE_DIR"""
import pathlib
import sys
import tempfile

ssdlab, source = sys.argv[1], pathlib.Path(sys.argv[2])
sys.path.insert(0, str(source / "analysis"))
sys.path.insert(0, str(source / "tests/results"))
import aging  # noqa: E402
from checks import Checks, run_script  # noqa: E402

check = Checks()

with tempfile.TemporaryDirectory() as out:
    shrink = ["--set", "drive.dies_from=controller", "--set", "controller.dies_per_channel=1", "--set",
              "nand.blocks_per_plane=120", "--set", "drive.user_capacity=4GB", "--set", "workload.duration=2s"]
    run = run_script("experiments/lifetime/aging", [out, "toshiba-tr200-240"] + shrink, ssdlab, source)
    check(run.returncode == 0, "experiments/lifetime/aging exits 0")
    check((pathlib.Path(out) / "aging.png").stat().st_size > 10000, "the plot is written")
    pts = aging.points([pathlib.Path(out) / "toshiba-tr200-240"])
    fresh = [p for p in pts if p["retention_h"] == 0]
    kept = [p for p in pts if p["retention_h"] == 8760]
    check([p["life"] for p in fresh] == [0, 25, 50, 75, 100] and [p["life"] for p in kept] == [0, 25, 50, 75, 100],
          "points at 0, 25, 50, 75, 100 % of life, fresh and after a year")
    check(all(p["at_once"] > 0.9999 and p["steps_per_read"] < 1e-4 for p in fresh),
          "fresh data decodes at once: " + ", ".join(f"{100 * p['at_once']:.3f} %" for p in fresh))
    steps = [p["steps_per_read"] for p in kept]
    check(all(b > a for a, b in zip(steps[2:], steps[3:])) and steps[2] > steps[1],
          "after a year, ladder steps per read rise with wear: " + ", ".join(f"{s:.3f}" for s in steps))
    p99 = [p["read_p99_us"] for p in kept]
    check(all(b >= a for a, b in zip(p99, p99[1:])), "read p99 does not fall: " + ", ".join(f"{v:.0f}" for v in p99))
    check(kept[-1]["read_iops"] < 0.5 * fresh[0]["read_iops"],
          f"the worn, old drive reads {kept[-1]['read_iops']:.0f} IOPS against {fresh[0]['read_iops']:.0f} new")
    check(all(p["uncorrectable"] == 0 for p in pts), "no uncorrectable read at the rated life")
sys.exit(check.status())
