#!/usr/bin/python3
"""HDF5 results read back with h5py (Debian's; run by ctest): the
documented layout, values that must agree with the run, byte-identical
datasets for the same seed, and every plot kind of the analysis package
rendered from small real runs.

Usage: test_results.py SSDLAB_BIN SOURCE_DIR
"""
import os
import struct
import subprocess
import sys
import tempfile

import h5py
import numpy as np

SMALL = ["--set", "drive.user_capacity=10GB", "--set", "nand.blocks_per_plane=40"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(ssdlab, source, out, workload=None, extra=()):
    cmd = [ssdlab, "run", "-d", os.path.join(source, "models/drives/example-sata-480.yaml")]
    if workload:
        cmd += ["-w", os.path.join(source, "experiments/workloads", workload)]
    subprocess.run(cmd + SMALL + list(extra) + ["-o", out], check=True, stdout=subprocess.DEVNULL)


def layout(ssdlab, source, tmp):
    out, csv = os.path.join(tmp, "run.h5"), os.path.join(tmp, "run.csv")
    run(ssdlab, source, out, "trim-then-read.yaml", ["--set", "metrics.interval=100ms", "--requests", "--timeseries", csv])
    check(sorted(os.listdir(tmp)) == ["run.csv", "run.h5"], f"no temporary left behind: {os.listdir(tmp)}")
    with h5py.File(out, "r") as f:
        check(set(f.keys()) == {"meta", "summary", "timeseries", "requests", "nand", "histograms"}, list(f.keys()))
        meta = f["meta"].attrs
        check(meta["status"] == "complete", "status")
        check(meta["format_version"] == 7, "format version")
        check(meta["seed"] == 1, "seed")
        for a in ("ssdlab_version", "git_hash", "command_line", "host", "start_wall_time", "end_wall_time", "configuration"):
            check(a in meta, f"/meta attribute {a}")
        check("user_capacity: 10GB" in meta["configuration"], "configuration as YAML")
        params = {r["key"].decode(): r for r in f["meta/parameters"][:]}
        check(params["drive.user_capacity"]["number"] == 10e9, "parameters: user capacity in bytes")
        check(params["slc.cache"]["value"] == b"dynamic" and np.isnan(params["slc.cache"]["number"]), "parameters: text")
        pp = f["meta/phase_parameters"][:]
        trims = [r for r in pp if r["key"] == b"workload.phase" and r["value"] == b"trim"]
        check(len(trims) == 1 and trims[0]["phase"] == 2, "phase parameters name the trim phase")
        s = f["summary"][:]
        check(len(s) == 6, f"{len(s)} summary rows")
        check([k.decode() for k in s["kind"]] == ["fill", "idle", "trim", "idle", "io", "io"], "phase kinds")
        check(s["writes"][0] == 2048 and s["bytes_written"][0] == 256 << 20, "fill phase wrote 256 MiB")
        check(s["trims"][2] == 1, "one TRIM")
        check(np.allclose(np.diff(s["start_s"]), s["sim_time_s"][:-1], rtol=0, atol=1e-6), "phases follow each other")
        check(s["slc_bytes_written"][0] > 0, "the fill went through the SLC cache")
        check(s["slc_bytes_read"][4] == 0 and s["bytes_read"][4] == 5000 * 4096,
              "trimmed data is read without the flash, so without SLC hits")
        ts = f["timeseries"][:]
        check(len(ts) > 10 and np.all(np.diff(ts["end_s"]) > 0), "time series rows in time order")
        check(abs(ts["host_gib_written"][-1] * 1024 - 256) < 1e-6, "host GiB written at the end")
        # an idle phase has no completions, yet its intervals are recorded (what idle time does shows)
        idle = s[1]
        inside = ts[(ts["end_s"] > idle["start_s"] + 1e-9) & (ts["end_s"] <= idle["start_s"] + idle["sim_time_s"] + 1e-9)]
        check(len(inside) >= 9 and np.all(inside["iops"][1:] == 0), f"{len(inside)} time-series rows in the 1 s idle phase")
        check(np.all(ts["read_mib_per_s"] + ts["write_mib_per_s"] <= ts["mib_per_s"] + 1e-9), "read + write = total")
        table = np.genfromtxt(csv, delimiter=",", names=True)
        check(table.dtype.names == ts.dtype.names, f"CSV columns {table.dtype.names}")
        check(len(table) == len(ts) and all(np.allclose(table[n], ts[n], rtol=1e-5) for n in ts.dtype.names),
              "the CSV time series holds the HDF5 one")
        rq = f["requests"][:]
        check(len(rq) == s["requests"].sum(), f"{len(rq)} request records, {s['requests'].sum()} requests")
        check(np.all(rq["latency_ns"] == rq["finish_ns"] - rq["arrival_ns"]), "latency = finish - arrival")
        check(np.all(rq["start_ns"] >= rq["arrival_ns"]) and np.all(rq["finish_ns"] >= rq["start_ns"]), "time order")
        check(sorted(rq["id"]) == list(range(len(rq))), "ids are 0..n-1")
        check(f["requests"].compression == "gzip" and f["requests"].chunks is not None, "requests chunked and compressed")
        dies = f["nand/dies"][:]
        check(len(dies) == 16 and dies["programs"].sum() > 0, "per-die rows")
        check(f["nand/erase_count_histogram"][:].sum() == 16 * 40, "every block in the erase histogram")
        h = f["histograms"]
        check(h["read_counts"].shape == (6, len(h["bin_edges_ns"]) - 1), "a histogram row per phase")
        check(np.array_equal(h["read_counts"][:].sum(axis=1), s["reads"]), "histogram rows hold each phase's reads")
        check(np.array_equal(h["write_counts"][:].sum(axis=1), s["writes"]), "and writes")


def datasets(path):
    """Every dataset's bytes and every attribute, less what the wall clock
    and the output name change."""
    items = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                data = obj[:]
                if name == "summary":
                    data = data.copy()
                    data["wall_time_s"] = 0
                items[name] = data.tobytes()
            for k, v in obj.attrs.items():
                if k not in ("start_wall_time", "end_wall_time", "command_line", "host"):
                    items[f"{name}@{k}"] = str(v)
        f.visititems(visit)
        visit("/", f)
    return items


def determinism(ssdlab, source, tmp):
    outs = [os.path.join(tmp, n) for n in ("a.h5", "b.h5", "c.h5")]
    extra = ["--set", "workload.read_share=70%", "--set", "workload.requests=20000", "--set", "workload.precondition=steady",
             "--set", "workload.steady_overwrites=0.5", "--requests"]
    run(ssdlab, source, outs[0], extra=extra)
    run(ssdlab, source, outs[1], extra=extra)
    run(ssdlab, source, outs[2], extra=extra + ["--seed", "2"])
    a, b, c = (datasets(o) for o in outs)
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    check(not differ, f"same seed: identical datasets; these differ: {differ}")
    check(a["requests"] != c["requests"] and a["summary"] != c["summary"], "another seed: other results")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is a PNG")
    return struct.unpack(">II", head[16:24])


def plots(ssdlab, source, tmp):
    sys.path.insert(0, os.path.join(source, "analysis"))
    from ssdlab_analysis import load
    from ssdlab_analysis.plots import cache_cliff, sweep_points

    fill = os.path.join(tmp, "fill.h5")
    run(ssdlab, source, fill, "linear-fill.yaml", ["--set", "drive.user_capacity=40GB", "--set", "nand.blocks_per_plane=120", "--set", "metrics.interval=100ms"])
    result = load([fill])[0]
    cliff = cache_cliff(result)
    # 1.5 % of 40 GB, rounded up to whole SLC blocks on each die
    slc_gib = result.timeseries["slc_gib"].max()
    check(abs(slc_gib - 0.015 * 40e9 / 2**30) < 0.1, f"SLC cache of {slc_gib} GiB")
    check(cliff is not None and abs(cliff[0] - slc_gib) < 0.05 * slc_gib,
          f"the fill's cliff after the SLC cache's {slc_gib:.2f} GiB: {cliff}")
    check(cliff is not None and cliff[2] < 0.6 * cliff[1], f"speed falls at the cliff: {cliff}")
    # made up: 10 s at 1000 MiB/s, 20 s at 200 with a pause, then 30 s of idle
    # after the fill: the speed after the cache is the fill's, 4000/21 =
    # 190.5 MiB/s, not diluted by the idle to 4000/51 = 78.4
    class Made:
        interval_s = 1.0
    speeds = np.array([1000.0] * 10 + [200.0] * 19 + [0.0, 200.0] + [0.0] * 30)
    Made.timeseries = np.zeros(len(speeds), dtype=[("write_mib_per_s", "f8"), ("host_gib_written", "f8")])
    Made.timeseries["write_mib_per_s"] = speeds
    Made.timeseries["host_gib_written"] = np.cumsum(speeds) / 1024
    made = cache_cliff(Made)
    check(made is not None and abs(made[0] - 10000 / 1024) < 1e-9 and abs(made[2] - 4000 / 21) < 1e-9,
          f"made-up fill: {made}")
    degr = os.path.join(tmp, "degr.h5")
    run(ssdlab, source, degr, extra=["--set", "workload.read_share=0%", "--set", "workload.requests=0",
                                     "--set", "workload.duration=6s", "--set", "metrics.interval=100ms",
                                     "--set", "workload.precondition=steady", "--set", "workload.steady_overwrites=0.3"])
    trim = os.path.join(tmp, "trim.h5")
    run(ssdlab, source, trim, "trim-then-read.yaml", ["--set", "metrics.interval=50ms"])
    sweeps = {}
    for kind, wl in (("qd", "qd-sweep-4k.yaml"), ("bs", "bs-sweep-qd4.yaml"), ("mix", "mix-sweep-4k.yaml")):
        sweeps[kind] = os.path.join(tmp, kind + ".h5")
        run(ssdlab, source, sweeps[kind], wl, ["--set", "workload.requests=3000"])
    pts = sweep_points(load([sweeps["qd"]]), "qd")
    check(sorted(len(v) for v in pts.values()) == [6, 6], f"qd: two series of six depths: {pts}")
    reads = [v for k, v in pts.items() if "100% reads" in k][0]
    check([x for x, _ in reads] == [1, 2, 4, 8, 16, 32] and reads[-1][1] > 3 * reads[0][1], f"read IOPS rise with depth: {reads}")
    bs = list(sweep_points(load([sweeps["bs"]]), "bs").values())[0]
    check([x for x, _ in bs] == [0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256], f"bs: sizes in KiB: {bs}")
    mix = list(sweep_points(load([sweeps["mix"]]), "mix").values())[0]
    check([x for x, _ in mix] == [0, 20, 40, 60, 80, 100], f"mix: read shares: {mix}")
    pcm = os.path.join(tmp, "pcm.h5")
    run(ssdlab, source, pcm, extra=["--set", "workload.source=pcmark8", "--set", "workload.pcmark8_app=excel",
                                    "--set", "workload.lba_map=scale"])
    label = load([pcm])[0].label
    check(label.endswith("PCMark-like excel, timed replay (x 1)"), f"a trace run's legend names its trace and mode: {label}")
    score = load([pcm])[0].score
    check(score is not None and score["phases"] == 1 and score["requests"] == 3426, f"/score of the Excel replay: {score}")
    jobs = [("fill", [fill]), ("degradation", [degr]), ("trim", [trim]), ("latency", [trim, degr]),
            ("qd", [sweeps["qd"]]), ("bs", [sweeps["bs"]]), ("mix", [sweeps["mix"]]), ("pcmark", [pcm, pcm])]
    for kind, files in jobs:
        png = os.path.join(tmp, kind + ".png")
        r = subprocess.run([ssdlab, "plot", kind] + files + ["-o", png], capture_output=True, text=True)
        check(r.returncode == 0, f"plot {kind}: {r.stderr}")
        if r.returncode == 0:
            w, h = png_size(png)
            check(w == 800 and h >= 450, f"plot {kind}: {w} x {h} pixels")
            check(os.path.getsize(png) > 15000, f"plot {kind}: {os.path.getsize(png)} bytes")
    r = subprocess.run([ssdlab, "plot", "fill", pcm, "-o", os.path.join(tmp, "x.png")], capture_output=True, text=True)
    check(r.returncode == 2 and "replays a trace, and fill draws synthetic phases; expected latency, trim or pcmark" in r.stderr
          and not os.path.exists(os.path.join(tmp, "x.png")), f"a kind that does not apply is refused: {r.returncode} {r.stderr}")
    r = subprocess.run([ssdlab, "plot", "pcmark", fill, "-o", os.path.join(tmp, "x.png")], capture_output=True, text=True)
    check(r.returncode == 2 and "replays no trace" in r.stderr, f"pcmark of a synthetic run is refused: {r.stderr}")
    r = subprocess.run([ssdlab, "plot", "fill", os.path.join(tmp, "missing.h5"), "-o", os.path.join(tmp, "x.png")],
                       capture_output=True, text=True)
    check(r.returncode == 2 and "missing.h5" in r.stderr and not os.path.exists(os.path.join(tmp, "x.png")),
          f"a missing result is bad input: {r.returncode} {r.stderr}")
    r = subprocess.run([ssdlab, "plot", "latency", trim, "--phase", "9", "-o", os.path.join(tmp, "x.png")],
                       capture_output=True, text=True)
    check(r.returncode == 2 and "--phase 9" in r.stderr, f"a phase out of range is bad input: {r.stderr}")


def scoring(ssdlab, source, tmp):
    """PCMark-style scoring on a hand-made trace: busy time is the union of
    the requests' [arrival, finish] intervals (checked against /requests,
    computed here independently), bandwidth = bytes / busy time, access time
    = mean latency of reads and writes (the TRIM left out), and /score over
    the replay; then the closed form of non-overlapping requests."""
    trace = os.path.join(tmp, "t.csv")
    tick = 128166372000000000
    rows = [(0, "Read", 0, 4096), (0, "Read", 1 << 20, 65536), (20, "Write", 8 << 20, 131072),  # a burst
            (10000, "Write", 16 << 20, 4096),                                                     # 1 ms later, alone
            (20000, "Read", 0, 4096), (20001, "Write", 0, 4096), (20002, "Read", 8 << 20, 131072)]
    with open(trace, "w") as f:
        for t, op, off, size in rows:
            f.write(f"{tick + t},h,0,{op},{off},{size},0\n")
        f.write(f"{tick + 900000},h,0,Write,{32 << 20},4096,0\n")  # 90 ms later, alone
    out = os.path.join(tmp, "s.h5")
    run(ssdlab, source, out, extra=["--set", "workload.source=trace", "--set", f"workload.trace={trace}",
                                    "--set", "workload.precondition=fill", "--requests"])
    with h5py.File(out, "r") as f:
        s, req, score = f["summary"][0], f["requests"][:], f["score"][0]
    spans = sorted((int(r["arrival_ns"]), int(r["finish_ns"])) for r in req if r["op"] != 2)
    union, end = 0, -1
    for a, b in spans:
        if a >= end:
            union += b - a
            end = b
        elif b > end:
            union += b - end
            end = b
    check(len(spans) == 8, f"8 reads and writes recorded: {len(spans)}")
    check(abs(s["busy_s"] - union * 1e-9) < 1e-12, f"busy {s['busy_s']} s against the union {union * 1e-9} s")
    check(s["busy_s"] < sum(b - a for a, b in spans) * 1e-9, "the burst's requests overlap: busy < sum of latencies")
    nbytes = sum(r[3] for r in rows) + 4096
    check(abs(s["busy_mib_s"] - nbytes / s["busy_s"] / 2**20) < 1e-9 * s["busy_mib_s"], f"bandwidth {s['busy_mib_s']}")
    mean_lat = sum(int(r["latency_ns"]) for r in req) / len(req) / 1000
    check(abs(s["access_time_us"] - mean_lat) < 1e-9 * mean_lat, f"access time {s['access_time_us']} against {mean_lat}")
    check(score["phases"] == 1 and score["requests"] == 8 and score["bytes"] == nbytes, f"score row {score}")
    check(abs(score["score"] - (score["bandwidth_mib_s"] * 1e6 / score["access_time_us"]) ** 0.5) < 1e-9 * score["score"],
          "score = geometric mean of bandwidth and 1 / access time")
    # requests far apart: busy time is exactly the sum of their latencies
    with open(trace, "w") as f:
        for k in range(5):
            f.write(f"{tick + k * 1000000},h,0,Read,{k << 20},4096,0\n")
    run(ssdlab, source, out, extra=["--set", "workload.source=trace", "--set", f"workload.trace={trace}",
                                    "--set", "workload.precondition=fill", "--requests"])
    with h5py.File(out, "r") as f:
        s, req = f["summary"][0], f["requests"][:]
    total = sum(int(r["latency_ns"]) for r in req) * 1e-9
    check(abs(s["busy_s"] - total) < 1e-12 and s["busy_s"] > 0, f"isolated reads: busy {s['busy_s']} s, latencies {total} s")


def tenants(ssdlab, source, tmp):
    """Two workers on queues of their own: /tenants holds one row each,
    in the group's /summary row, whose requests and bytes they share."""
    wl, out = os.path.join(tmp, "w.yaml"), os.path.join(tmp, "t.h5")
    with open(wl, "w") as f:
        f.write("phases:\n  - {name: reader, read_share: 1, requests: 3000, queue: 0}\n"
                "  - {name: writer, read_share: 0, requests: 1000, queue: 1, with_previous: true}\n")
    cmd = [ssdlab, "run", "-d", os.path.join(source, "models/drives/example-sata-480.yaml"), "-w", wl, "-o", out,
           "--set", "host.interface=nvme", "--set", "host.queues=2"] + SMALL
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with h5py.File(out, "r") as f:
        t, s = f["tenants"][:], f["summary"][:]
        rh, wh = f["tenant_histograms/read_counts"][:], f["tenant_histograms/write_counts"][:]
        bins = len(f["histograms/bin_edges_ns"]) - 1
    check(rh.shape == (2, bins) and wh.shape == (2, bins), f"one histogram row per tenant: {rh.shape}")
    check(list(rh.sum(axis=1)) == [3000, 0] and list(wh.sum(axis=1)) == [0, 1000], "each tenant's histogram counts its requests")
    check([x.decode() for x in t["tenant"]] == ["reader", "writer"], f"tenant names {t['tenant']}")
    check(list(t["summary_row"]) == [0, 0] and list(t["queue"]) == [0, 1], "their group and queues")
    check(list(t["reads"]) == [3000, 0] and list(t["writes"]) == [0, 1000], f"requests {t['reads']} {t['writes']}")
    check(t["bytes_read"].sum() == s["bytes_read"][0] and t["bytes_written"].sum() == s["bytes_written"][0],
          "the tenants' bytes add up to the group's")
    check(np.all(t["read_lat_us"][0][1:] >= t["read_lat_us"][0][1]) and t["read_lat_us"][0][0] > 0, "reader's latencies")


def tenant_streams(ssdlab, source, tmp):
    """Each worker after a group's first draws from a random stream of its
    own: the writer's addresses, in its submission order, are the same
    whether the reader beside it makes 3,000 random reads or 500 Zipf ones
    (on one shared stream, as before, each reader's draws moved them). And
    a reader changed in that way reads other addresses."""
    drive = os.path.join(source, "models/drives/example-sata-480.yaml")
    addresses = []
    for reader in ("{name: reader, read_share: 1, requests: 3000}", "{name: reader, read_share: 1, requests: 500, pattern: zipf}"):
        wl, out = os.path.join(tmp, "s.yaml"), os.path.join(tmp, "s.h5")
        with open(wl, "w") as f:
            f.write(f"phases:\n  - {reader}\n  - {{name: writer, read_share: 0, requests: 1000, with_previous: true}}\n")
        subprocess.run([ssdlab, "run", "-d", drive, "-w", wl, "-o", out, "--requests"] + SMALL, check=True, stdout=subprocess.DEVNULL)
        with h5py.File(out, "r") as f:
            rq = np.sort(f["requests"][:], order="id")
        addresses.append((rq["lba"][rq["op"] == 1], rq["lba"][rq["op"] == 0]))
    (writes_a, reads_a), (writes_b, reads_b) = addresses
    check(len(writes_a) == 1000 and np.array_equal(writes_a, writes_b), "the writer's addresses do not depend on the reader beside it")
    check(len(set(writes_a)) > 900, f"the writer's addresses are random: {len(set(writes_a))} distinct of 1,000")
    check(len(reads_b) == 500 and not np.array_equal(reads_a[:500], reads_b), "the readers read other addresses")


def placement(ssdlab, source, tmp):
    """/fdp and /zns, /zones: a drive with two placement handles and 8 zones;
    1,000 writes of 4 KiB on handle 1 after the fill (handle 0), a zone
    reset of an empty zone and a write off its pointer (refused)."""
    out, wl = os.path.join(tmp, "p.h5"), os.path.join(tmp, "p.yaml")
    with open(wl, "w") as f:
        f.write("phases:\n  - {name: h1, read_share: 0, requests: 1000, placement: 1, queue_depth: 1}\n")
    cmd = [ssdlab, "run", "-d", os.path.join(source, "models/drives/example-sata-480.yaml"), "-w", wl, "-o", out,
           "--set", "host.interface=nvme", "--set", "slc.cache=none", "--set", "fdp.handles=2", "--set", "zns.zones=8"] + SMALL
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with h5py.File(out, "r") as f:
        fdp, zns, zones = f["fdp"][0], f["zns"][0], f["zones"][:]
    check(fdp["handle_host_bytes"][1] == 1000 * 4096, f"handle 1 wrote 1,000 x 4 KiB: {fdp['handle_host_bytes'][1]}")
    check(fdp["host_bytes"] == fdp["handle_host_bytes"].sum(), "host bytes are the handles' together")
    check(fdp["media_bytes"] >= fdp["host_bytes"], "media bytes at least the host's")
    check(len(zones) == 8 and all(z["state"] == 0 and z["write_pointer_units"] == 0 for z in zones), "8 empty zones")
    check(zns["resets"] == 0 and zns["refused"].sum() == 0, "nothing reset or refused")


def main(ssdlab, source):
    for part in (layout, determinism, plots, scoring, tenants, tenant_streams, placement):
        with tempfile.TemporaryDirectory() as tmp:
            part(ssdlab, source, tmp)
    print(f"results: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
