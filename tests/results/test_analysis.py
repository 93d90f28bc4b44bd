#!/usr/bin/python3
"""The demo's histogram output and its plot, checked from Python (h5py-free).

Usage: test_analysis.py SSDLAB_BIN SOURCE_DIR
Runs the demo with --histogram, checks the distribution against the closed
form, renders the plot, and checks the PNG.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np


def main(ssdlab, source):
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "wait.csv")
        png = os.path.join(tmp, "wait.png")
        subprocess.run([ssdlab, "demo", "-c", os.path.join(source, "experiments/demo/mm1.yaml"),
                        "--set", "mm1.customers=500000", "--histogram", csv],
                       check=True, stdout=subprocess.DEVNULL)
        d = np.genfromtxt(csv, delimiter=",", names=True)
        assert len(d) == 60, len(d)
        # Closed form over 12 mean waits: all but rho*exp(-12 rho) of the mass.
        assert abs(d["p_theory"].sum() - (1 - 0.7 * np.exp(-12 * 0.7))) < 1e-6, d["p_theory"].sum()
        # The atom at zero wait: P(Wq = 0) = 1 - rho = 0.3 sits in the first bin.
        assert d["p_theory"][0] > 0.3
        worst = np.abs(d["p_simulated"] - d["p_theory"]).max()
        assert worst < 0.005, f"largest bin difference {worst}"
        subprocess.run(["/usr/bin/python3", os.path.join(source, "analysis/plot_mm1.py"), csv, png], check=True)
        with open(png, "rb") as f:
            head = f.read(8)
        assert head == b"\x89PNG\r\n\x1a\n", head
        assert os.path.getsize(png) > 10000, os.path.getsize(png)
    print("analysis: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
