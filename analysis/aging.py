#!/usr/bin/python3
"""The aging experiment (experiments/lifetime/aging): each drive's probes
against the share of its rated P/E cycles used, with its data fresh and
after a year of retention, from the sweeps' result files.

  /usr/bin/python3 analysis/aging.py SWEEP_DIR... [-o PLOT.png]

Each SWEEP_DIR holds one drive's points (pNNNN-HASH.h5, from 'ssdlab sweep
run'): a write probe, then a read probe (experiments/lifetime/aging.yaml),
after workload.precondition=age. For each point: read IOPS and latency
percentiles, the share of flash reads decoded at once, the read-retry
ladder steps per read, soft and uncorrectable reads (/nand/ecc_outcomes:
the read probe's, the last phase's), write IOPS and p99. Printed as a
table; plotted with -o. Read with h5py from the result format
(docs/results-format.md, docs/reliability.md)."""
import argparse
import pathlib
import sys

import h5py
import numpy as np

P50, P99, P999 = 1, 3, 4  # latency fields: mean, p50, p90, p99, p99.9, p99.99, max
HOURS_PER_NS = 1 / 3.6e12


def _param(f, key):
    for r in f["meta/parameters"][:]:
        if r["key"].decode() == key:
            return float(r["number"]), r["value"].decode()
    raise KeyError(key)


def point(path):
    """One aged drive's figures, or None for a file that is not a probe."""
    with h5py.File(path, "r") as f:
        if "summary" not in f or "nand/ecc_outcomes" not in f:
            return None
        rows = {r["phase"].decode(): r for r in f["summary"][:]}
        if "read probe" not in rows or "write probe" not in rows:
            return None
        steps = int(_param(f, "controller.read_retry_steps")[0])
        out = f["nand/ecc_outcomes"][:].astype(float)
        drive = _param(f, "drive.name")[1].strip('"')
        wear = _param(f, "workload.age_wear")[0]
        retention_h = _param(f, "workload.age_retention")[0] * HOURS_PER_NS
    reads = out.sum()
    read, write = rows["read probe"], rows["write probe"]
    return {
        "drive": drive, "life": 100 * wear, "retention_h": retention_h,
        "read_iops": float(read["iops"]), "read_p50_us": float(read["read_lat_us"][P50]),
        "read_p99_us": float(read["read_lat_us"][P99]), "read_p999_us": float(read["read_lat_us"][P999]),
        "at_once": out[0] / reads if reads else np.nan,
        "steps_per_read": float(np.dot(np.arange(steps + 1), out[:steps + 1]) + steps * out[steps + 1:].sum()) / reads
        if reads else np.nan,
        "soft_share": out[steps + 1:].sum() / reads if reads else np.nan,
        "uncorrectable": int(out[steps + 2]),
        "write_iops": float(write["iops"]), "write_p99_us": float(write["write_lat_us"][P99]),
    }


def points(dirs):
    pts = []
    for d in dirs:
        for path in sorted(pathlib.Path(d).glob("p*.h5")):
            p = point(path)
            if p:
                pts.append(p)
    return sorted(pts, key=lambda p: (p["drive"], p["retention_h"], p["life"]))


def retention_label(hours):
    return "fresh data" if hours == 0 else f"data kept {hours / 8760:g} y" if hours >= 8760 else f"data kept {hours:g} h"


def table(pts):
    head = ["drive", "retention", "life used", "read IOPS", "read p50, us", "read p99, us", "read p99.9, us",
            "decoded at once", "ladder steps per read", "soft reads", "uncorrectable", "write IOPS", "write p99, us"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] * 2 + ["---:"] * (len(head) - 2)) + " |"]
    for p in pts:
        cells = [p["drive"], retention_label(p["retention_h"]), f"{p['life']:.0f} %", f"{p['read_iops']:.0f}",
                 f"{p['read_p50_us']:.0f}", f"{p['read_p99_us']:.0f}", f"{p['read_p999_us']:.0f}",
                 f"{100 * p['at_once']:.1f} %", f"{p['steps_per_read']:.3f}", f"{100 * p['soft_share']:.2f} %",
                 f"{p['uncorrectable']}", f"{p['write_iops']:.0f}", f"{p['write_p99_us']:.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(pts, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    panels = [("steps_per_read", "read-retry ladder steps per read", False), ("read_p99_us", "read p99 latency, us", True),
              ("read_iops", "4 KiB random read IOPS, QD 32", False), ("write_iops", "4 KiB random write IOPS, QD 32", False)]
    keys = sorted({(p["drive"], p["retention_h"]) for p in pts})
    for ax, (key, label, log) in zip(axes.flat, panels):
        for drive, hours in keys:
            line = [p for p in pts if p["drive"] == drive and p["retention_h"] == hours]
            ax.plot([p["life"] for p in line], [p[key] for p in line], marker="o",
                    linestyle="-" if hours == 0 else "--", label=f"{drive}, {retention_label(hours)}")
        ax.set_xlabel("rated P/E cycles used, %")
        ax.set_ylabel(label)
        if log:
            ax.set_yscale("log")
        ax.grid(alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    fig.suptitle("Aged drives (controller.ecc_model=rber): bit errors from wear and retention, and what they cost")
    fig.tight_layout()
    tmp = pathlib.Path(str(out) + ".tmp.png")
    fig.savefig(tmp, dpi=110)
    tmp.rename(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", help="a sweep's output folder per drive")
    ap.add_argument("-o", "--output", help="the plot (PNG)")
    a = ap.parse_args(argv)
    pts = points(a.dirs)
    if not pts:
        print(f"aging: no probe results in {', '.join(a.dirs)}; expected the points of experiments/lifetime/aging",
              file=sys.stderr)
        return 2
    print(table(pts))
    if a.output:
        plot(pts, a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
