#!/usr/bin/python3
"""The placement comparison (experiments/placement): one table and one plot
from the four modes' results.

  /usr/bin/python3 analysis/placement.py RESULTS_DIR [-o PLOT.png]

RESULTS_DIR holds conventional.h5, ftl-split.h5, fdp.h5 and zns.h5
(experiments/placement/run writes them). For each mode: the drive's write
amplification (flash bytes over the bytes the host wrote), the host's (a
zoned writer's reclaim copies: bytes written over the objects' own bytes),
their product, the objects' write throughput and each worker's p99 write
latency. Read with h5py from the result format (docs/results-format.md)."""
import argparse
import pathlib
import sys

import h5py
import numpy as np

MODES = [("conventional", "conventional"), ("ftl-split", "conventional,\nFTL hot/cold split"),
         ("fdp", "FDP, a handle\nper worker"), ("zns", "ZNS, host\nreclaimer")]
P99 = 3  # index of p99 in the latency fields (mean, p50, p90, p99, p99.9, p99.99, max)


def mode_figures(path):
    with h5py.File(path, "r") as f:
        summary = f["summary"][0]
        tenants = f["tenants"][:]
    device_waf = float(summary["write_amplification"])
    workers = []
    written = user = 0.0
    for t in tenants:
        writes, copies = int(t["writes"]), int(t["host_copies"])
        obj = t["bytes_written"] / writes if writes else 0.0
        user_bytes = (writes - copies) * obj
        written += t["bytes_written"]
        user += user_bytes
        workers.append({"name": t["tenant"].decode(), "user_mib_s": user_bytes / t["seconds"] / 2**20,
                        "p99_ms": float(t["write_lat_us"][P99]) / 1000.0,
                        "host_waf": writes / (writes - copies) if writes > copies else float("nan")})
    host_waf = written / user if user else float("nan")
    seconds = max(float(t["seconds"]) for t in tenants)
    return {"device_waf": device_waf, "host_waf": host_waf, "waf": device_waf * host_waf,
            "user_mib_s": sum(w["user_mib_s"] for w in workers), "workers": workers, "seconds": seconds}


def table(figures):
    lines = ["| mode | drive WAF | host WAF | total WAF | objects written, MiB/s | "
             + " | ".join(f"{w['name']} p99 write, ms" for w in figures[0][1]["workers"]) + " |",
             "| --- | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in figures[0][1]["workers"]) + " |"]
    for label, m in figures:
        cells = [label.replace("\n", " "), f"{m['device_waf']:.3f}", f"{m['host_waf']:.3f}", f"{m['waf']:.3f}",
                 f"{m['user_mib_s']:.0f}"] + [f"{w['p99_ms']:.2f}" for w in m["workers"]]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(figures, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(12, 4), dpi=100)
    labels = [label for label, _ in figures]
    x = np.arange(len(figures))
    dev = [m["device_waf"] for _, m in figures]
    tot = [m["waf"] for _, m in figures]
    ax1.bar(x, dev, label="drive (GC)")
    ax1.bar(x, np.array(tot) - np.array(dev), bottom=dev, label="host (zoned writer's reclaim)")
    ax1.set_xticks(x, labels, fontsize=7)
    ax1.set_ylabel("write amplification (flash bytes / object bytes)")
    ax1.set_ylim(0.9, max(tot) * 1.08)
    ax1.legend(fontsize=7)
    ax2.bar(x, [m["user_mib_s"] for _, m in figures], color="tab:green")
    ax2.set_xticks(x, labels, fontsize=7)
    ax2.set_ylabel("objects written (MiB/s)")
    names = [w["name"] for w in figures[0][1]["workers"]]
    width = 0.8 / len(names)
    for k, name in enumerate(names):
        ax3.bar(x + (k - (len(names) - 1) / 2) * width, [m["workers"][k]["p99_ms"] for _, m in figures], width, label=name)
    ax3.set_xticks(x, labels, fontsize=7)
    ax3.set_ylabel("p99 write latency (ms)")
    ax3.legend(fontsize=7)
    fig.suptitle("Two key-value tenants, hot 4 KiB objects and cold 128 KiB ones, on one drive "
                 "(experiments/placement)", fontsize=9)
    fig.tight_layout()
    fig.savefig(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", type=pathlib.Path)
    ap.add_argument("-o", "--output", type=pathlib.Path, help="the plot (PNG)")
    a = ap.parse_args(argv)
    figures = []
    for name, label in MODES:
        path = a.results / f"{name}.h5"
        if not path.exists():
            sys.exit(f"placement.py: {path}: no such result; expected the four modes of experiments/placement/run")
        figures.append((label, mode_figures(path)))
    print(table(figures))
    if a.output:
        plot(figures, a.output)
        print(f"plot: {a.output}")


if __name__ == "__main__":
    main(sys.argv[1:])
