#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap diff against what LKP runs to get the same numbers: perf c2c report
# --stats on each run (then its parser).  Two 1M-sample recordings.
set -u
B=${HITMAP_BUILD:-build}
GEN=$B/tools/hm-diff-gen
HITMAP=${HITMAP:-$B/hitmap}
T=${BENCH_TMP:-$(mktemp -d)}/diff
mkdir -p "$T"
if [ ! -x "$GEN" ] || ! command -v perf >/dev/null; then
	echo "bench-diff: skipped (needs $GEN and perf)"
	exit 0
fi
N=${BENCH_DIFF_SAMPLES:-1000000}
"$GEN" -o "$T/a.data" --seed 1 -n "$N" --lines 20000 --buckets 4096
"$GEN" -o "$T/b.data" --mode private --seed 2 -n "$N" --lines 20000 --buckets 4096
now() { date +%s.%N; }
t0=$(now)
for f in a b; do perf c2c report -NN -i "$T/$f.data" --stats 2>/dev/null | grep -E ' Load (Local|Remote) (HITM|HIT|DRAM)' >"$T/perf-$f.txt"; done
t1=$(now)
"$HITMAP" diff "$T/a.data" "$T/b.data" >"$T/diff.txt"
t2=$(now)
"$HITMAP" diff --html "$T/diff.html" "$T/a.data" "$T/b.data" >/dev/null
t3=$(now)
perf_s=$(echo "$t1 - $t0" | bc)
hm_s=$(echo "$t2 - $t1" | bc)
html_s=$(echo "$t3 - $t2" | bc)
printf 'bench-diff: 2 x %s samples: perf c2c report --stats x2 %.2f s, hitmap diff %.2f s (+ --html %.2f s)\n' \
	"$N" "$perf_s" "$hm_s" "$html_s"
printf 'ratio diff/perf-c2c-stats: %.2f\n' "$(echo "$hm_s / $perf_s" | bc -l)"
