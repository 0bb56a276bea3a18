#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The main job: record the built-in futex hash workload with the best mode
# this machine offers (PEBS/IBS/SPE, else lock-contention tracepoints), then
# print the per-bucket and per-socket reports.
set -eu
cd "$(dirname "$0")/.."
B=${HITMAP_BUILD:-build}
HM=$B/hitmap
OUT=${HITMAP_OUT:-hitmap.data}
RUNTIME=${HITMAP_RUNTIME:-5}
"$HM" record --mode auto -o "$OUT" --workload futex-hash -r "$RUNTIME"
echo
"$HM" report -i "$OUT" --by bucket
echo
"$HM" report -i "$OUT" --by socket
