#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Seeds for the fuzz targets from the simulator: one small recording in file
# mode, pipe mode, COMPRESSED, COMPRESSED2 and the other byte order (with
# hitmap's metadata trailer), so the fuzzer starts from every reader path.
# Usage: tests/fuzz/make-sim-seeds.sh HITMAP OUTDIR
set -eu
H=$1 D=$2
mkdir -p "$D"
[ -s "$D/sim-file.data" ] && exit 0
"$H" simulate --ops 1500 --seed 3 -o "$D/sim-file.data" >/dev/null
"$H" convert -i "$D/sim-file.data" -o - >"$D/sim-pipe.data" 2>/dev/null
"$H" convert -i "$D/sim-file.data" -o "$D/sim-zstd.data" -z >/dev/null
"$H" convert -i "$D/sim-file.data" -o "$D/sim-zstd2.data" -z --compressed2 >/dev/null
"$H" convert -i "$D/sim-file.data" -o "$D/sim-swap.data" --swap >/dev/null
"$H" convert -i "$D/sim-file.data" -o - -z --swap >"$D/sim-pipe-zstd-swap.data" 2>/dev/null
