#!/usr/bin/python3
"""The lifetime experiment (experiments/lifetime) end to end, on the example
drive shrunk to 10 GB and rated for 400 GB written, so that its whole life
takes seconds. What must hold:
- each wear phase ends exactly where its share of the rating is: the host
  bytes written since new (the fill's 2,441,406 units of 4 KiB, then every
  phase's) reach floor(share x 400 GB / 4 KiB) units, to the byte;
- eleven points of life, 0 to 100 %, each with its read and write probe;
- blocks wear as the drive is written: the mean erase count rises at every
  step, and each wear phase writes at least what the host asked (WAF >= 1);
- analysis/lifetime.py reads it back and draws the plot.

  test_lifetime.py SSDLAB SOURCE_DIR"""
import pathlib
import subprocess
import sys
import tempfile

import h5py

ssdlab, source = sys.argv[1], pathlib.Path(sys.argv[2])
sys.path.insert(0, str(source / "analysis"))
sys.path.insert(0, str(source / "tests/results"))
from checks import Checks  # noqa: E402
import lifetime  # noqa: E402

UNIT, RATED, FILL_UNITS = 4096, 400 * 10**9, 10 * 10**9 // 4096

check = Checks()


with tempfile.TemporaryDirectory() as out:
    drive = ["models/drives/example-sata-480.yaml", "--set", "drive.user_capacity=10GB", "--set", "nand.blocks_per_plane=40",
             "--set", f"drive.rated_tbw={RATED}B"]
    run = subprocess.run([str(source / "experiments/lifetime/run"), out] + drive, env={"SSDLAB": ssdlab, "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, cwd=source)
    print(run.stdout + run.stderr)
    check(run.returncode == 0, "experiments/lifetime/run exits 0")
    check((pathlib.Path(out) / "lifetime.png").stat().st_size > 10000, "the plot is written")
    result = pathlib.Path(out) / "lifetime.h5"
    with h5py.File(result, "r") as f:
        rows = f["summary"][:]
    written = FILL_UNITS * UNIT
    for r in rows:
        written += int(r["bytes_written"])
        name = r["phase"].decode()
        if name.startswith("wear to "):
            share = int(name[len("wear to "):-1])
            want = share * RATED // 100 // UNIT * UNIT
            check(written == want, f"{name}: {written} bytes written since new, {want} wanted")
    pts = lifetime.points(result)
    check([p["life"] for p in pts] == [10.0 * k for k in range(11)], "points at 0, 10, ..., 100 %")
    check(all("read_iops" in p and "write_iops" in p for p in pts), "each point has both probes")
    rising = all(b["mean_erases"] > a["mean_erases"] for a, b in zip(pts, pts[1:]))
    check(rising, "the mean erase count rises at every step: " + ", ".join(f"{p['mean_erases']:.1f}" for p in pts))
    check(all(p["wear_waf"] >= 1 for p in pts[1:]), "every wear phase's WAF >= 1")
sys.exit(check.status())
