#!/usr/bin/python3
"""An HDF5 result read back with h5py: the layout, and values that must
agree with the run (Debian's h5py; run by ctest).

Usage: test_results.py SSDLAB_BIN SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np


def main(ssdlab, source):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.h5")
        subprocess.run([ssdlab, "run", "-d", os.path.join(source, "models/drives/example-sata-480.yaml"),
                        "-w", os.path.join(source, "experiments/workloads/trim-then-read.yaml"),
                        "--set", "drive.user_capacity=10GB", "--set", "nand.blocks_per_plane=40",
                        "--set", "metrics.interval=100ms", "-o", out],
                       check=True, stdout=subprocess.DEVNULL)
        assert sorted(os.listdir(tmp)) == ["run.h5"], os.listdir(tmp)  # no temporary left behind
        with h5py.File(out, "r") as f:
            assert set(f.keys()) == {"meta", "summary", "timeseries", "nand", "histograms"}, list(f.keys())
            meta = f["meta"].attrs
            assert meta["status"] == "complete"
            assert meta["format_version"] == 1
            assert meta["seed"] == 1
            assert "drive:" in meta["configuration"] and "user_capacity: 10GB" in meta["configuration"]
            s = f["summary"][:]
            assert len(s) == 6, len(s)
            assert [p.decode() for p in s["phase"]][0] == "fill"
            assert [k.decode() for k in s["kind"]] == ["fill", "idle", "trim", "idle", "io", "io"]
            assert s["writes"][0] == 2048 and s["bytes_written"][0] == 256 << 20, s[0]
            assert s["trims"][2] == 1
            assert s["reads"][4] >= 5000 and np.isfinite(s["read_lat_us"][4][0])
            ts = f["timeseries"][:]
            assert len(ts) > 10 and np.all(np.diff(ts["end_s"]) > 0)
            assert abs(ts["host_gib_written"][-1] * 1024 - 256) < 1e-6, ts["host_gib_written"][-1]
            dies = f["nand/dies"][:]
            assert len(dies) == 16 and dies["programs"].sum() > 0
            assert f["nand/erase_count_histogram"][:].sum() == 16 * 40
            h = f["histograms/read_latency"]
            assert len(h["bin_edges_ns"]) == len(h["counts"]) + 1
            assert h["counts"][:].sum() == s["reads"][5]  # the histograms hold the last phase
    print("results: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
