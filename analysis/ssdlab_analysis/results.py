"""One result file, read whole (docs/results-format.md)."""
import os

import h5py
import numpy as np


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def _uniform(ts, interval_s):
    """The time series with one row per interval: a row that merges idle
    intervals (start_s to end_s, several intervals long) is repeated, one
    row per interval it covers, as plots and figures count intervals."""
    if interval_s <= 0 or "start_s" not in (ts.dtype.names or ()):
        return ts
    length = ts["end_s"] - ts["start_s"]
    pieces = np.maximum(1, np.ceil(length / interval_s - 1e-6).astype(np.int64))
    if (pieces == 1).all():
        return ts
    out = np.repeat(ts, pieces)
    first = np.repeat(np.cumsum(pieces) - pieces, pieces)
    j = np.arange(len(out)) - first
    merged = np.repeat(pieces > 1, pieces)
    start = out["start_s"] + j * interval_s
    out["start_s"] = np.where(merged, start, out["start_s"])
    out["end_s"] = np.where(merged, np.minimum(start + interval_s, out["end_s"]), out["end_s"])
    return out


class Result:
    """A result file's meta data, configuration, summary, time series and
    histograms. Configuration values are looked up with param(key, phase)."""

    def __init__(self, path):
        self.path = path
        with h5py.File(path, "r") as f:
            for group in ("meta", "summary", "timeseries", "histograms"):
                if group not in f:
                    raise ValueError(f"{path}: not an ssdlab result (no /{group}); expected a file from 'ssdlab run -o'")
            self.meta = {k: (_text(v) if isinstance(v, (bytes, str)) else v) for k, v in f["meta"].attrs.items()}
            self.format_version = int(self.meta.get("format_version", 0))
            if self.format_version < 2:
                raise ValueError(f"{path}: result format {self.format_version}; this analysis reads format 2")
            self.params = {_text(r["key"]): (_text(r["value"]), float(r["number"])) for r in f["meta/parameters"][:]}
            self.phase_params = {}
            for r in f["meta/phase_parameters"][:]:
                self.phase_params.setdefault(int(r["phase"]), {})[_text(r["key"])] = (_text(r["value"]), float(r["number"]))
            self.summary = f["summary"][:]
            self.timeseries_stored = f["timeseries"][:]
            self.timeseries = _uniform(self.timeseries_stored, self.params.get("metrics.interval", ("", 0))[1] * 1e-9)
            self.bin_edges_ns = f["histograms/bin_edges_ns"][:]
            self.read_counts = f["histograms/read_counts"][:]
            self.write_counts = f["histograms/write_counts"][:]
            self.score = f["score"][0] if "score" in f else None  # PCMark-style, over the trace replays

    # --- configuration -----------------------------------------------------
    def param(self, key, phase=None):
        """A key's value as a number (bytes, ns, 1/s, fraction), in a phase
        when given; NaN for text."""
        if phase is not None and key in self.phase_params.get(phase, {}):
            return self.phase_params[phase][key][1]
        return self.params[key][1]

    def param_text(self, key, phase=None):
        if phase is not None and key in self.phase_params.get(phase, {}):
            return self.phase_params[phase][key][0]
        return self.params[key][0]

    @property
    def drive(self):
        return self.param_text("drive.name").strip('"') or "drive"

    @property
    def workload(self):
        """The workload file's name, else the workload's own name, else a
        description of the synthetic workload."""
        words = self.meta.get("command_line", "").split()
        for flag in ("-w", "--workload"):
            if flag in words and words.index(flag) + 1 < len(words):
                return os.path.splitext(os.path.basename(words[words.index(flag) + 1]))[0]
        name = self.param_text("workload.name").strip('"')
        if name:
            return name
        source = self.param_text("workload.source")
        if source in ("trace", "pcmark8"):
            what = (os.path.basename(self.param_text("workload.trace").strip('"')) if source == "trace"
                    else "PCMark-like " + self.param_text("workload.pcmark8_app"))
            if self.param_text("workload.replay") == "timed":
                return f"{what}, timed replay (x {self.param('workload.time_scale'):g})"
            return f"{what}, replay as fast as possible at QD {self.param('workload.queue_depth'):.0f}"
        return "{} {:.0f}% reads, {} B, QD {:.0f}".format(self.param_text("workload.pattern"),
                                                       100 * self.param("workload.read_share"),
                                                       self.param_text("workload.block_size"),
                                                       self.param("workload.queue_depth"))

    @property
    def label(self):
        return f"{self.drive} — {self.workload}"

    @property
    def phases(self):
        return [_text(p) for p in self.summary["phase"]]

    @property
    def interval_s(self):
        return self.param("metrics.interval") * 1e-9

    # --- latency distributions ----------------------------------------------
    def latency_cdf(self, op, phase=None):
        """(latency in us at bin upper edges, cumulative share) of reads
        (op 'read') or writes, in one phase or the whole run."""
        counts = self.read_counts if op == "read" else self.write_counts
        c = counts[phase] if phase is not None else counts.sum(axis=0)
        total = c.sum()
        if total == 0:
            return np.array([]), np.array([])
        keep = c > 0
        cdf = np.cumsum(c) / total
        return self.bin_edges_ns[1:][keep] / 1000.0, cdf[keep]


def load(paths):
    return [Result(p) for p in paths]
