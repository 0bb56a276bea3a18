#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap diff against what LKP runs to get the same numbers: perf c2c report
# --stats on each run (then its parser).  Two 1M-sample recordings.
# Then: diff and report --html on 2.5e5 and 1e6 distinct shared lines that
# all share one code address each of 256 (no data symbol: the lines are
# named by their code), time and RSS printed; 4x the lines must cost at most
# 5x the time (CPU time: the machine may be shared; wall time printed too).
set -u
B=${HITMAP_BUILD:-build}
GEN=$B/tools/hm-diff-gen
HITMAP=${HITMAP:-$B/hitmap}
T=${BENCH_TMP:-$(mktemp -d)}/diff
mkdir -p "$T"
if [ ! -x "$GEN" ]; then
	echo "bench-diff: skipped (needs $GEN)"
	exit 0
fi
rc=0
now() { date +%s.%N; }
if [ "${BENCH_DIFF_PERF:-1}" = 0 ] || ! command -v perf >/dev/null; then
	echo "bench-diff: perf comparison skipped (needs perf; BENCH_DIFF_PERF=0)"
else
	N=${BENCH_DIFF_SAMPLES:-1000000}
	"$GEN" -o "$T/a.data" --seed 1 -n "$N" --lines 20000 --buckets 4096
	"$GEN" -o "$T/b.data" --mode private --seed 2 -n "$N" --lines 20000 --buckets 4096
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
	rm -f "$T/a.data" "$T/b.data" "$T/diff.html"
fi

# ---- linear in the lines: 2.5e5 and 1e6 distinct lines, one sample each
if [ ! -x /usr/bin/time ]; then
	echo "bench-diff: line scaling skipped (needs /usr/bin/time)"
	exit $rc
fi
SMALL=${BENCH_DIFF_LINES_SMALL:-250000}
BIG=${BENCH_DIFF_LINES:-1000000}
# Each size's runs on the first CPU allowed, the fastest of RUNS (BENCH_RUNS,
# default 2): a VM's two vCPUs ran one thread up to 1.5x apart, and single
# unpinned runs put the 4x ratio anywhere from 2.7x to 5.4x.
RUNS=${BENCH_RUNS:-2}
PIN=()
. "$(dirname "${BASH_SOURCE[0]}")/cpus.sh"	# CPUS, FIRST
if command -v taskset >/dev/null 2>&1 && [ -n "$FIRST" ]; then
	PIN=(taskset -c "$FIRST")
	echo "bench-diff: line scaling pinned to CPU $FIRST, the fastest of $RUNS runs a size"
fi
# measure NAME CMD...: "wall cpu rss_kb" of the run with the least CPU time into $T/m.NAME
measure() {
	local name=$1 r; shift
	: >"$T/runs.$name"
	for ((r = 0; r < RUNS; r++)); do
		if ! /usr/bin/time -f "%e %U %S %M" -o "$T/time.$name" "${PIN[@]}" "$@" >/dev/null 2>"$T/err.$name"; then
			echo "FAILED: $* ($(tail -n 2 "$T/err.$name" | tr '\n' ' '))"
			rc=1
			echo "0 0 0" >"$T/m.$name"
			return
		fi
		awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$T/time.$name" >>"$T/runs.$name"
	done
	sort -n -k2 "$T/runs.$name" | head -n 1 >"$T/m.$name"
}
for n in "$SMALL" "$BIG"; do
	"$GEN" -o "$T/la$n.data" --seed 1 -n "$n" --lines "$n" --line-share 100 || rc=1
	"$GEN" -o "$T/lb$n.data" --mode private --seed 2 -n "$n" --lines "$n" --line-share 100 || rc=1
	measure "diff$n" "$HITMAP" diff "$T/la$n.data" "$T/lb$n.data"
	measure "dhtml$n" "$HITMAP" diff --html "$T/d$n.html" "$T/la$n.data" "$T/lb$n.data"
	measure "html$n" "$HITMAP" report -i "$T/la$n.data" --html "$T/r$n.html"
	rm -f "$T/la$n.data" "$T/lb$n.data" "$T/d$n.html" "$T/r$n.html"
done
for what in diff dhtml html; do
	case $what in
	diff) label="hitmap diff";; dhtml) label="hitmap diff --html";; html) label="hitmap report --html";;
	esac
	read -r w1 c1 r1 <"$T/m.$what$SMALL"
	read -r w2 c2 r2 <"$T/m.$what$BIG"
	awk -v l="$label" -v n1="$SMALL" -v n2="$BIG" -v w1="$w1" -v c1="$c1" -v r1="$r1" \
	    -v w2="$w2" -v c2="$c2" -v r2="$r2" 'BEGIN {
		lines = n2 / n1; ct = 0; wt = 0; rt = 0
		if (c1 > 0) ct = c2 / c1
		if (w1 > 0) wt = w2 / w1
		if (r1 > 0) rt = r2 / r1
		printf "bench-diff: %s: %d lines %.2f s CPU (%.2f s wall) %.0f MB RSS; %d lines %.2f s CPU (%.2f s wall) %.0f MB RSS\n", l, n1, c1, w1, r1 / 1024, n2, c2, w2, r2 / 1024
		printf "ratio %s %.1fx lines: %.2fx CPU time (%.2fx wall), %.2fx RSS (target <= %.2fx time)\n", l, lines, ct, wt, rt, lines * 1.25
		if (ct > 0 && ct <= lines * 1.25) exit 0
		exit 1 }' || { echo "bench-diff: $what is not linear in the lines"; rc=1; }
done
exit $rc
