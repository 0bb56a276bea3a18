#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The main job: record the built-in futex hash workload with the best mode
# this machine offers (PEBS/IBS/SPE, else lock-contention tracepoints), then
# print the per-bucket and per-socket reports, and the next commands worth
# running for what was found.
set -eu
cd "$(dirname "$0")/.."
B=${HITMAP_BUILD:-build}
HM=$B/hitmap
OUT=${HITMAP_OUT:-hitmap.data}
RUNTIME=${HITMAP_RUNTIME:-5}
# the reports' own "next:" hints are replaced by the summary below
export HITMAP_HINTS=0
"$HM" record --mode auto -o "$OUT" --workload futex-hash -r "$RUNTIME"
echo
"$HM" report -i "$OUT" --by bucket
echo
"$HM" report -i "$OUT" --by socket

# what to run next, from what this file holds
json=$("$HM" report -i "$OUT" --by bucket --json 2>/dev/null || true)
q() { printf '%s' "$json" | jq -r "$1" 2>/dev/null || true; }
if [ -z "$json" ] || ! command -v jq >/dev/null; then
	exit 0
fi
samples=$(q '.summary.futex_samples')
cont=$(q '.summary.contentions_on_buckets')
echo
echo "Next:"
if [ "${samples:-0}" -gt 0 ]; then
	hot=$(q '.buckets[0] | "\(.table)\(if .pid then "(\(.pid))" else ".node\(.node)" end).bucket.\(.index) (\(.hottest_field), \(.stats.tot_hitm) HITM)"')
	echo "  hottest bucket: $hot"
	echo "  $HM report -i $OUT --tui            # browse the lines; / bucket.$(q '.buckets[0].index') finds it"
	echo "  $HM report -i $OUT --by field       # which field of the bucket, from which function"
	echo "  $HM report -i $OUT --html $OUT.html # heat map of buckets x sockets, fields to scale"
elif [ "${cont:-0}" -gt 0 ]; then
	hot=$(q '.buckets[0] | "\(.table)\(if .pid then "(\(.pid))" else ".node\(.node)" end).bucket.\(.index): \(.contended) contentions, max wait \(.max_wait_ns / 1000 | floor) us"')
	caller=$(q '.callers[0] | "\(.caller) (\(.contended) contentions, avg \(.avg_wait_ns / 1000 | floor) us)"')
	echo "  hottest bucket lock: $hot"
	[ -n "$caller" ] && [ "$caller" != null ] && echo "  top waiting caller: $caller"
	echo "  $HM report -i $OUT --by bucket --json | jq '.callers'   # every caller, average and max wait"
	echo "  contention mode (no PEBS/IBS/SPE here) sees who waits on which bucket lock;"
	echo "  on a machine with a memory sampler, 'make run' shows fields, HITM and sockets."
else
	echo "  nothing contended in ${RUNTIME}s on this machine: HITMAP_RUNTIME=20 make run,"
	echo "  or more threads on fewer buckets: $HM record --workload futex-hash -t 16 -b 2"
fi
echo "  $HM simulate --kernel 6.16 --compare \"--placement compact\" \"--placement spread\"   # what two sockets change"
echo "  $HM diff $OUT OTHER.data            # compare with another run"
