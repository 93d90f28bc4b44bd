#!/bin/bash
# The PCMark-like secondary-storage experiment ranks the presets as the
# reviewers did (reviews of 2016-2017 with PCMark 8's storage test): the Samsung 850
# EVO's bandwidth about 1.5 x the Toshiba TR200's, within +-25 %.
# Usage: test_pcmark8_ranking.sh SSDLAB SOURCE_DIR
set -eu
ssdlab=$1
src=$2
work=$(mktemp -d /tmp/ssdlab-pcmark8-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$src"
"$ssdlab" experiment pcmark8 -d samsung-850-evo-500 -o "$work/evo" --no-plots -j 1 > /dev/null
"$ssdlab" experiment pcmark8 -d toshiba-tr200-480 -o "$work/tr200" --no-plots -j 1 > /dev/null
/usr/bin/python3 - "$work" <<'PYEOF'
import sys, h5py
work = sys.argv[1]
evo = h5py.File(f"{work}/evo/secondary-storage.h5", "r")["score"][0]
tr = h5py.File(f"{work}/tr200/secondary-storage.h5", "r")["score"][0]
assert evo["phases"] == tr["phases"] == 30, (evo["phases"], tr["phases"])
ratio = evo["bandwidth_mib_s"] / tr["bandwidth_mib_s"]
print(f"850 EVO 500 GB {evo['bandwidth_mib_s']:.1f} MiB/s, TR200 480 GB {tr['bandwidth_mib_s']:.1f} MiB/s: {ratio:.3f} x (reviewers: 1.5 x +-25 %)")
assert 1.5 * 0.75 <= ratio <= 1.5 * 1.25, ratio
assert evo["score"] > tr["score"], (evo["score"], tr["score"])
PYEOF
