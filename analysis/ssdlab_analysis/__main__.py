"""ssdlab-plot KIND RESULT.h5 [RESULT.h5 ...] -o OUT.png

Kinds:
  degradation  write speed against GiB written: a dot per interval and a
               moving average (--window, default 30 s)
  fill         linear fill: write speed against GiB written, with the SLC
               cache's size and the speed after it
  qd           IOPS against queue depth      } over the io phases of a set
  bs           MiB/s against block size      } of results (one line per
  mix          MiB/s against read share      } drive and workload shape)
  latency      latency CDFs and percentiles of reads and writes (--phase N:
               one phase, from 1; default: the whole run)
  trim         read throughput and latency over time, TRIM phases shaded
  pcmark       each replayed trace's bandwidth over busy time, a bar per result,
               with the overall bandwidth, access time and score

ssdlab-plot sweep SWEEP.h5 --x KEY --metric NAME [--lines KEY] [--phase NAME] -o OUT.png
  a metric of a sweep table ('ssdlab sweep collect') against a swept key,
  one line per value of another, repetitions averaged
"""
import argparse
import sys

from .plots import KINDS
from .results import load


# What a kind draws from: the synthetic generator's phases, or trace replays.
SYNTHETIC_ONLY = {"fill", "qd", "bs", "mix", "degradation"}
TRACE_KINDS = "latency, trim or pcmark"


def unfit(kind, results):
    """Why kind does not apply to one of the results, or None."""
    for r in results:
        traced = r.param_text("workload.source") in ("trace", "pcmark8")
        if traced and kind in SYNTHETIC_ONLY:
            return (f"{r.path} replays a trace, and {kind} draws synthetic phases; expected {TRACE_KINDS} "
                    "for a trace replay")
        if kind == "pcmark" and r.score is None:
            return f"{r.path} replays no trace, so it has no PCMark-style score; expected a trace replay's result"
    return None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "sweep":
        from .sweeps import main as sweep_main
        return sweep_main(argv[1:])
    parser = argparse.ArgumentParser(prog="ssdlab-plot", description=__doc__.split("\n")[0],
                                     epilog=__doc__.split("\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("results", nargs="+", metavar="RESULT.h5")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.png")
    parser.add_argument("--window", type=float, default=30.0, help="moving-average window in seconds (degradation)")
    parser.add_argument("--phase", type=int, help="latency: one phase, numbered from 1")
    parser.add_argument("--title", help="the figure's title")
    args = parser.parse_args(argv)
    try:
        results = load(args.results)
    except (OSError, ValueError, KeyError) as e:
        sys.stderr.write(f"ssdlab-plot: {e}\n")
        return 2
    refused = unfit(args.kind, results)
    if refused:
        sys.stderr.write(f"ssdlab-plot: plot {args.kind}: {refused}\n")
        return 2
    phase = None
    if args.phase is not None:
        if not all(1 <= args.phase <= len(r.summary) for r in results):
            sys.stderr.write(f"ssdlab-plot: --phase {args.phase}: expected a phase number from 1 to the results' phase count\n")
            return 2
        phase = args.phase - 1
    KINDS[args.kind](results, args.output + ".tmp.png", window_s=args.window, phase=phase, title=args.title)
    import os
    os.replace(args.output + ".tmp.png", args.output)  # nothing that looks complete until it is
    return 0


if __name__ == "__main__":
    sys.exit(main())
