"""Sweep tables ('ssdlab sweep collect'): one row per point and phase, a
column per swept key and per metric (docs/sweeps.md), and the plot of a
metric against a swept key, one line per value of a second key, with the
repetitions averaged (the bars span their lowest to highest value)."""
import os

import h5py
import numpy as np

from .plots import _figure, _finish, _save


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


class SweepTable:
    def __init__(self, path):
        with h5py.File(path, "r") as f:
            if "table" not in f or "points" not in f:
                raise ValueError(f"{path}: not a sweep table (no /table and /points); expected 'ssdlab sweep collect' output")
            self.rows = f["table"][:]
            self.points = f["points"][:]
            self.sweep_yaml = _text(f.attrs.get("sweep_yaml", b""))
        self.path = path
        names = self.rows.dtype.names
        self.keys = [n for n in names[3:names.index("phase")]]  # the swept keys sit between seed and phase
        self.metrics = [n for n in names[names.index("phase") + 2:]]

    def column(self, name):
        if name not in self.rows.dtype.names:
            raise KeyError(f"{self.path}: no column '{name}'; swept keys: {', '.join(self.keys)}; metrics: {', '.join(self.metrics)}")
        values = self.rows[name]
        return np.array([_text(v) for v in values]) if values.dtype.kind == "S" else values

    def metric(self, name):
        """A metric column; latency arrays give their mean (index 0)."""
        values = self.column(name)
        return values[:, 0] if values.ndim == 2 else values

    def phases(self):
        return list(dict.fromkeys(_text(p) for p in self.rows["phase"]))


def plot_metric(table, out, metric, x, lines=None, phase=None, title=None):
    rows = np.ones(len(table.rows), bool)
    phases = table.phases()
    phase = phase if phase is not None else phases[-1]
    if phase not in phases:
        raise KeyError(f"{table.path}: no phase '{phase}'; phases: {', '.join(phases)}")
    rows &= np.array([_text(p) == phase for p in table.rows["phase"]])
    xs, ys = table.column(x)[rows], table.metric(metric)[rows]
    groups = table.column(lines)[rows] if lines else np.array(["all"] * int(rows.sum()))
    fig, ax = _figure()
    numeric = xs.dtype.kind == "f"
    order = sorted(set(xs.tolist()), key=lambda v: v if numeric else str(v))
    for g in dict.fromkeys(groups.tolist()):
        pick = groups == g
        mean, low, high, at = [], [], [], []
        for i, v in enumerate(order):
            vals = ys[pick & (xs == v)]
            if len(vals):
                at.append(v if numeric else i)
                mean.append(vals.mean())
                low.append(vals.mean() - vals.min())
                high.append(vals.max() - vals.mean())
        ax.errorbar(at, mean, yerr=[low, high], marker="o", capsize=3, label=f"{lines} = {g}" if lines else "mean of the repetitions")
    if not numeric:
        ax.set_xticks(range(len(order)))
        ax.set_xticklabels(order)
    unit = " (μs)" if metric.endswith("_us") else (" (MiB/s)" if metric == "mib_per_s" else "")
    _finish(ax, x, f"{metric}{unit}, phase '{phase}'")
    tmp = out + ".tmp.png"
    _save(fig, tmp, title or os.path.basename(table.path))
    os.replace(tmp, out)


def main(argv):
    """ssdlab-plot sweep SWEEP.h5 --x KEY --metric NAME [--lines KEY] [--phase NAME] -o OUT.png"""
    import argparse
    import sys
    parser = argparse.ArgumentParser(prog="ssdlab-plot sweep", description="a metric of a sweep table against a swept key")
    parser.add_argument("table", metavar="SWEEP.h5")
    parser.add_argument("--x", required=True, metavar="KEY", help="the swept key on the x axis")
    parser.add_argument("--metric", required=True, help="a metric column, e.g. write_amplification, iops, write_lat_us (mean)")
    parser.add_argument("--lines", metavar="KEY", help="one line per value of this swept key")
    parser.add_argument("--phase", help="the phase to plot (default: the last)")
    parser.add_argument("--title")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.png")
    args = parser.parse_args(argv)
    try:
        table = SweepTable(args.table)
        plot_metric(table, args.output, args.metric, args.x, lines=args.lines, phase=args.phase, title=args.title)
    except (OSError, ValueError, KeyError) as e:
        sys.stderr.write(f"ssdlab-plot sweep: {e.args[0] if e.args else e}\n")
        return 2
    return 0
