#!/usr/bin/python3
"""Plot the M/M/1 demo's waiting-time distribution against its closed form.

Usage: /usr/bin/python3 analysis/plot_mm1.py WAIT.csv OUT.png

WAIT.csv is written by `ssdlab demo --histogram WAIT.csv`: one row per bin
with the simulated and the closed-form probability of the bin.
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    data = np.genfromtxt(argv[1], delimiter=",", names=True)
    centres_us = (data["wait_lo_s"] + data["wait_hi_s"]) / 2 * 1e6
    width_us = (data["wait_hi_s"] - data["wait_lo_s"]) * 1e6
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.bar(centres_us, data["p_simulated"], width=width_us, alpha=0.6, label="ssdlab (simulated)")
    ax.plot(centres_us, data["p_theory"], "k.-", label="closed form")
    ax.set_yscale("log")
    ax.set_xlabel("waiting time in queue (µs)")
    ax.set_ylabel("probability of the bin")
    ax.set_title("M/M/1 demo: waiting-time distribution")
    ax.legend()
    fig.tight_layout()
    fig.savefig(argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
