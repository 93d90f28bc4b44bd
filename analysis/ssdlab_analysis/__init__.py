"""Reading ssdlab result files (HDF5) and drawing the plots storage
reviewers and researchers draw: degradation, linear fill, queue-depth,
block-size and read-share sweeps, latency CDFs and percentiles, and the
TRIM stall. Needs Debian's python3-h5py, python3-numpy and
python3-matplotlib: run with /usr/bin/python3."""

from .results import Result, load  # noqa: F401
