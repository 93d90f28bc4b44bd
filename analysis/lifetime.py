#!/usr/bin/python3
"""The lifetime experiment (experiments/lifetime): the drive's probes
against the share of its rated endurance used, from one result file.

  /usr/bin/python3 analysis/lifetime.py RESULT.h5 [-o PLOT.png] [--title TEXT]

The result's phases are named by life used ("read 30%", "write 30%",
"wear to 30%": experiments/lifetime/lifetime.yaml). For each point of life:
4 KiB random read and write IOPS at QD 32 and their p99 latency (the
probes), the write amplification of the wear phase that led there, and the
blocks' mean erase count (every erase so far over the blocks). Printed as
a table; plotted with -o. Read with h5py from the result format
(docs/results-format.md)."""
import argparse
import re
import sys

import h5py
import numpy as np

P99 = 3  # index of p99 in the latency fields (mean, p50, p90, p99, p99.9, p99.99, max)
NAME = re.compile(r"^(read|write|wear to) (\d+(?:\.\d+)?)%$")


def points(path):
    """One dict per share of life with a probe: its figures."""
    with h5py.File(path, "r") as f:
        rows = f["summary"][:]
        blocks = int(f["nand/erase_count_histogram"][:].sum())
    by_life, erases = {}, 0
    for r in rows:
        erases += int(r["erases"])
        m = NAME.match(r["phase"].decode())
        if not m:
            continue
        what, life = m.group(1), float(m.group(2))
        p = by_life.setdefault(life, {"life": life})
        p["mean_erases"] = erases / blocks
        if what == "read":
            p["read_iops"], p["read_p99_us"] = float(r["iops"]), float(r["read_lat_us"][P99])
        elif what == "write":
            p["write_iops"], p["write_p99_us"] = float(r["iops"]), float(r["write_lat_us"][P99])
        else:
            p["wear_waf"] = float(r["write_amplification"])
    return [by_life[k] for k in sorted(by_life)]


def table(pts):
    head = ["life used", "read IOPS", "read p99, us", "write IOPS", "write p99, us", "WAF of the wear to it", "mean erases"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---:"] * len(head)) + " |"]
    for p in pts:
        cells = [f"{p['life']:.0f} %", f"{p.get('read_iops', np.nan):.0f}", f"{p.get('read_p99_us', np.nan):.0f}",
                 f"{p.get('write_iops', np.nan):.0f}", f"{p.get('write_p99_us', np.nan):.0f}",
                 f"{p.get('wear_waf', np.nan):.2f}", f"{p['mean_erases']:.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(pts, title, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    life = [p["life"] for p in pts]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))

    def probes(ax, read, write, scale, ylabel, labels):
        ax.plot(life, [p.get(read, np.nan) / scale for p in pts], "o-", label=labels[0])
        ax.plot(life, [p.get(write, np.nan) / scale for p in pts], "s-", label=labels[1])
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)

    probes(axes[0], "read_iops", "write_iops", 1e3, "thousand IOPS",
           ("4 KiB random read, QD 32", "4 KiB random write, QD 32"))
    probes(axes[1], "read_p99_us", "write_p99_us", 1e3, "ms", ("read p99", "write p99"))
    ax = axes[2]
    ax.plot(life, [p["mean_erases"] for p in pts], "o-", color="C2", label="mean erase count")
    ax.set_ylabel("erases per block")
    twin = ax.twinx()
    twin.plot(life, [p.get("wear_waf", np.nan) for p in pts], "^--", color="C3", label="WAF of the wear to it")
    twin.set_ylabel("write amplification")
    twin.set_ylim(bottom=0)
    ax.legend(loc="upper left", fontsize=8)
    twin.legend(loc="lower right", fontsize=8)
    for ax in axes:
        ax.set_xlabel("rated endurance used, %")
        ax.grid(alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("result")
    ap.add_argument("-o", "--output", help="PNG to write")
    ap.add_argument("--title", default="", help="the plot's title: the drive, the workload")
    a = ap.parse_args()
    try:
        pts = points(a.result)
    except (OSError, KeyError) as e:
        print(f"lifetime: {a.result}: not a lifetime result ({e})", file=sys.stderr)
        return 2
    if not pts:
        print(f"lifetime: {a.result}: no phase named as experiments/lifetime/lifetime.yaml names them", file=sys.stderr)
        return 2
    print(table(pts))
    if a.output:
        plot(pts, a.title or "Probes against rated endurance used", a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
