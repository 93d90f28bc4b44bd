"""The plots, each a function (results, out_path, **options) that writes a
PNG 800 pixels wide. Labels carry units; legends name drive and workload."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

WIDTH_IN, HEIGHT_IN, DPI = 8.0, 4.5, 100  # 800 x 450 pixels


def _figure(rows=1, cols=1, **kw):
    fig, axes = plt.subplots(rows, cols, figsize=(WIDTH_IN, HEIGHT_IN * (1 if rows == 1 else 1.4)), dpi=DPI, **kw)
    return fig, axes


def _save(fig, out, title):
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def _finish(ax, xlabel, ylabel, legend_size=8):
    """Labels with units, a y axis from 0, the legend and a light grid."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=legend_size)
    ax.grid(alpha=0.3)


def moving_average(values, n):
    """Trailing moving average over n samples (fewer at the start)."""
    values = np.asarray(values, dtype=float)
    if n <= 1 or len(values) == 0:
        return values
    sums = np.cumsum(np.insert(values, 0, 0.0))
    idx = np.arange(1, len(values) + 1)
    lo = np.maximum(idx - n, 0)
    return (sums[idx] - sums[lo]) / (idx - lo)


def degradation(results, out, window_s=30.0, title=None, **_):
    """Write speed against GiB written: a dot per interval and a moving
    average over window_s seconds (the reviewers' P7 chart)."""
    fig, ax = _figure()
    for i, r in enumerate(results):
        ts = r.timeseries
        color = f"C{i}"
        ax.plot(ts["host_gib_written"], ts["write_mib_per_s"], ".", ms=2, color=color, alpha=0.35)
        n = max(1, int(round(window_s / r.interval_s)))
        ax.plot(ts["host_gib_written"], moving_average(ts["write_mib_per_s"], n), "-", color=color, lw=1.6,
                label=f"{r.label} ({window_s:g} s average)")
    _finish(ax, "host data written (GiB)", "write speed (MiB/s)")
    _save(fig, out, title or "Write speed against data written")


def cache_cliff(result, drop=0.6):
    """(GiB written at full speed, speed before, speed after) of a linear
    fill, or None without a cliff. The cliff is the first interval from
    which the speed over the next 5 seconds averages below drop times the
    speed of the start. Folding makes the speed after a cache come in
    bursts, so the average counts the pauses too."""
    ts = result.timeseries
    busy = np.nonzero(ts["write_mib_per_s"] > 0)[0]
    if len(busy) == 0:
        return None
    # from the first write on (a used-state run idles first), counting GiB from there
    before = ts["host_gib_written"][busy[0] - 1] if busy[0] > 0 else 0.0
    ts = ts[busy[0]:]
    speed, written = ts["write_mib_per_s"], ts["host_gib_written"] - before
    n = 5 * max(1, int(round(1.0 / result.interval_s)))
    if len(speed) < n + max(3, n // 5) + 1:
        return None
    # the first interval is usually partial: the start speed is the median of the next ones
    start = np.median(speed[1:1 + max(3, n // 5)])
    # the fill ends with its last write: an idle phase after it (a used-state
    # test idles to watch the cache empty) is not speed after the cache
    last = int(np.nonzero(speed > 0)[0][-1])
    for k in range(1, len(speed) - n):
        if speed[k] < drop * start and np.mean(speed[k:k + n]) < drop * start:
            return float(written[k - 1]), float(start), float(np.mean(speed[k:last + 1]))
    return None


def fill(results, out, title=None, **_):
    """Linear fill: write speed against GiB written, with the SLC cache's
    size and the speed after it marked."""
    fig, ax = _figure()
    for i, r in enumerate(results):
        ts = r.timeseries
        label = r.label
        cliff = cache_cliff(r)
        if cliff:
            gib, before, after = cliff
            label += f": {before:.0f} MiB/s for {gib:.1f} GiB, then {after:.0f} MiB/s"
            ax.axvline(gib, color=f"C{i}", ls=":", lw=1)
        ax.plot(ts["host_gib_written"], ts["write_mib_per_s"], "-", color=f"C{i}", lw=1.2, label=label)
    _finish(ax, "host data written (GiB)", "write speed (MiB/s)")
    _save(fig, out, title or "Linear fill")


SWEEPS = {
    # kind: (configuration key, axis label, scale of the key's number, log2 x axis, y field, y label)
    "qd": ("workload.queue_depth", "queue depth", 1.0, True, "iops", "IOPS"),
    "bs": ("workload.block_size", "block size (KiB)", 1 / 1024, True, "mib_per_s", "MiB/s"),
    "mix": ("workload.read_share", "read share (%)", 100.0, False, "mib_per_s", "MiB/s"),
}


def sweep_points(results, kind):
    """{series label: [(x, y), ...]} over every io phase of every result;
    a series is one drive with one workload shape."""
    key, _, scale, _, field, _ = SWEEPS[kind]
    series = {}
    for r in results:
        for p, row in enumerate(r.summary):
            if row["kind"].decode() != "io" or row["requests"] == 0:
                continue
            x = r.param(key, p) * scale
            if kind == "qd":
                shape = "{:.0f}% reads, {}".format(100 * r.param("workload.read_share", p), r.param_text("workload.pattern", p))
            elif kind == "bs":
                shape = "{:.0f}% reads, QD {:.0f}".format(100 * r.param("workload.read_share", p), r.param("workload.queue_depth", p))
            else:
                shape = "{}, {} B, QD {:.0f}".format(r.param_text("workload.pattern", p), r.param_text("workload.block_size", p),
                                                   r.param("workload.queue_depth", p))
            series.setdefault(f"{r.drive} — {shape}", []).append((x, float(row[field])))
    return {k: sorted(v) for k, v in series.items()}


def sweep(results, out, kind, title=None, **_):
    _, xlabel, _, log2, _, ylabel = SWEEPS[kind]
    fig, ax = _figure()
    for label, pts in sweep_points(results, kind).items():
        xs, ys = zip(*pts)
        ax.plot(xs, ys, "o-", label=label)
    if log2:
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    _finish(ax, xlabel, ylabel)
    default = {"qd": "IOPS against queue depth", "bs": "Throughput against block size",
               "mix": "Throughput against read share"}[kind]
    _save(fig, out, title or default)


PERCENTILES = [50, 90, 99, 99.9, 99.99]


def latency(results, out, phase=None, title=None, **_):
    """Left: latency CDFs of reads and writes; right: their percentiles."""
    fig, (left, right) = _figure(1, 2)
    for i, r in enumerate(results):
        for op, style in (("read", "-"), ("write", "--")):
            lat, cdf = r.latency_cdf(op, phase)
            if len(lat) == 0:
                continue
            label = f"{r.label}, {op}s"
            left.plot(lat, cdf, style, color=f"C{i}", label=label)
            values = [lat[np.searchsorted(cdf, q / 100.0)] if q / 100.0 <= cdf[-1] else lat[-1] for q in PERCENTILES]
            right.plot(range(len(PERCENTILES)), values, style + "o", color=f"C{i}", label=label)
    left.set_xscale("log")
    left.set_xlabel("latency (µs)")
    left.set_ylabel("share of requests")
    left.grid(alpha=0.3)
    right.set_xticks(range(len(PERCENTILES)))
    right.set_xticklabels([f"p{q:g}" for q in PERCENTILES])
    right.set_yscale("log")
    right.set_ylabel("latency (µs)")
    right.set_xlabel("percentile")
    right.grid(alpha=0.3)
    left.legend(fontsize=7)
    _save(fig, out, title or ("Latency" + (f", phase {phase + 1}" if phase is not None else "")))


def trim(results, out, title=None, **_):
    """Read throughput (top) and read latency (bottom) over the time reads
    ran, with TRIM phases shaded: the TRIM-stall chart (P10)."""
    fig, (top, bottom) = _figure(2, 1, sharex=True)
    for i, r in enumerate(results):
        ts = r.timeseries
        t = ts["end_s"]
        top.plot(t, ts["read_mib_per_s"], "-", color=f"C{i}", label=r.label)
        # intervals without reads have no read latency: leave gaps
        lat_ms = np.where(ts["read_mib_per_s"] > 0, ts["read_mean_latency_us"] / 1000.0, np.nan)
        bottom.plot(t, lat_ms, ".-", color=f"C{i}", label=f"{r.label}, mean read latency")
        for row in r.summary:
            if row["kind"].decode() == "trim":
                for ax in (top, bottom):
                    ax.axvspan(row["start_s"], row["start_s"] + max(row["sim_time_s"], r.interval_s), color=f"C{i}",
                               alpha=0.15, label="TRIM" if ax is top else None)
    # the reads are what the chart is about: show their stretch of time
    spans = [(r.timeseries["end_s"][r.timeseries["read_mib_per_s"] > 0]) for r in results]
    spans = [t for t in spans if len(t)]
    if spans:
        lo, hi = min(t[0] for t in spans), max(t[-1] for t in spans)
        margin = 0.05 * (hi - lo) + 1
        top.set_xlim(lo - margin, hi + margin)
    top.set_ylabel("read throughput (MiB/s)")
    top.set_ylim(bottom=0)
    bottom.set_ylabel("read latency (ms)")
    bottom.set_xlabel("simulated time (s)")
    bottom.set_yscale("log")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    _save(fig, out, title or "Reads around a TRIM")


def pcmark(results, out, title=None, **_):
    """PCMark-style bars: each replayed trace's bandwidth over busy time
    (mean of its passes), one bar per drive, and the overall figures in
    the legend."""
    fig, ax = _figure()
    apps = []
    for r in results:
        for row in r.summary:
            name = row["phase"].decode().rsplit(" ", 1)[0]
            if row["kind"].decode() == "io" and row["busy_s"] > 0 and name not in apps:
                apps.append(name)
    width = 0.8 / max(len(results), 1)
    for k, r in enumerate(results):
        means = []
        for app in apps:
            vals = [row["busy_mib_s"] for row in r.summary
                    if row["kind"].decode() == "io" and row["busy_s"] > 0 and row["phase"].decode().rsplit(" ", 1)[0] == app]
            means.append(np.mean(vals) if vals else 0.0)
        label = r.drive
        if r.score is not None:
            label += f": {r.score['bandwidth_mib_s']:.0f} MiB/s, {r.score['access_time_us']:.0f} µs, score {r.score['score']:.0f}"
        ax.bar(np.arange(len(apps)) + (k - (len(results) - 1) / 2) * width, means, width, label=label)
    ax.set_xticks(range(len(apps)))
    ax.set_xticklabels(apps, rotation=30, ha="right", fontsize=8)
    _finish(ax, "trace", "bandwidth over busy time (MiB/s)")
    _save(fig, out, title or "PCMark-like traces: bandwidth over busy time")


KINDS = {
    "pcmark": pcmark,
    "degradation": degradation,
    "fill": fill,
    "qd": lambda results, out, **kw: sweep(results, out, "qd", **kw),
    "bs": lambda results, out, **kw: sweep(results, out, "bs", **kw),
    "mix": lambda results, out, **kw: sweep(results, out, "mix", **kw),
    "latency": latency,
    "trim": trim,
}
