#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Rounds past the ordering queue's 4 MiB, written as perf record writes a
# busy machine's rounds (hm-gen --drain: each round CPU by CPU, each CPU's
# records in time order, CPUs drained late holding records older than the
# round before's last): the file is cut in ranges (report-chunks.c) like
# any other, and every thread count gives the bytes of one thread.  The
# order the ranges rebuild is perf's: hitmap script orders the file as
# each installed perf's perf script does, and the file is out of order
# (its unordered reading differs), so a broken order would show; and
# perf c2c report --stdio of each installed perf equals hitmap report
# --pareto --perf-compat V byte for byte, read in one range and in two
# (the Pareto view's PA cnt, pids and code addresses follow the order).
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
[ -x "$GEN" ] || { skip report-rounds "no $GEN (make tests)"; done_tests; }

# 300k samples, 60k a round: five rounds of about 5.3 MB
"$GEN" -o "$TMP/r.data" -n 300000 -l 2000 --round 60000 --drain --seed 7 >/dev/null 2>"$TMP/gen.err" ||
	{ fail "report-rounds: hm-gen --drain" "$(tail -n 1 "$TMP/gen.err")"; done_tests; }

HITMAP_DEBUG=1 "$HITMAP" report --threads 1 -i "$TMP/r.data" >"$TMP/one.out" 2>"$TMP/one.err"
peak=$(sed -n 's/.*ordering queue held \([0-9]*\) bytes at most.*/\1/p' "$TMP/one.err" | head -n 1)
if [ "${peak:-0}" -gt $((4 << 20)) ]; then
	pass "report-rounds: one thread's queue held $peak bytes (rounds past 4 MiB)"
else
	fail "report-rounds: the file's rounds pass the queue's 4 MiB" "queue peak '${peak:-none}'"
fi

"$HITMAP" script -F cpu,time -i "$TMP/r.data" >"$TMP/ord.txt" 2>&1
"$HITMAP" script --no-ordered -F cpu,time -i "$TMP/r.data" >"$TMP/raw.txt" 2>&1
if [ -s "$TMP/ord.txt" ] && ! cmp -s "$TMP/ord.txt" "$TMP/raw.txt"; then
	pass "report-rounds: the file is out of time order (ordered reading differs from unordered)"
else
	fail "report-rounds: the file is out of time order" "ordered and unordered script output are the same"
fi
back=$(awk '{ t = $2 + 0 } NR > 1 && t < last { n++ } { last = t } END { print n + 0 }' "$TMP/ord.txt")
if [ "$back" = 0 ]; then
	pass "report-rounds: hitmap script gives the samples in time order"
else
	fail "report-rounds: hitmap script gives the samples in time order" "$back times backwards"
fi

n=0
for v in $(oracle_perfs); do
	perf_each "$v" "$TMP/p$v" "script -F cpu,time" "$TMP/r.data"
	if [ "$(cat "$TMP/p$v/r.data.rc")" != 0 ]; then
		fail "report-rounds: perf $v script reads the file" "$(tail -n 1 "$TMP/p$v/r.data.err")"
		continue
	fi
	n=$((n + 1))
	if cmp -s "$TMP/ord.txt" "$TMP/p$v/r.data.out"; then
		pass "report-rounds: hitmap script's order = perf $v script's"
	else
		fail "report-rounds: hitmap script's order = perf $v script's" \
			"$(diff "$TMP/ord.txt" "$TMP/p$v/r.data.out" | head -n 3 | tr '\n' ' ')"
	fi
	perf_each "$v" "$TMP/c$v" "c2c report --stdio" "$TMP/r.data"
	if [ "$(cat "$TMP/c$v/r.data.rc")" != 0 ]; then
		fail "report-rounds: perf $v c2c report reads the file" "$(tail -n 1 "$TMP/c$v/r.data.err")"
		continue
	fi
	cp "$TMP/c$v/r.data.out" "$TMP/a.out"
	"$HITMAP" report --threads 1 --pareto --perf-compat "$v" -i "$TMP/r.data" >"$TMP/b.out" 2>&1
	same_out "report-rounds: report --pareto --perf-compat $v = perf $v c2c report --stdio ($(wc -l <"$TMP/a.out") lines)"
	HITMAP_RANGE_BYTES=1 "$HITMAP" report --threads 2 --pareto --perf-compat "$v" -i "$TMP/r.data" >"$TMP/b.out" 2>&1
	same_out "report-rounds: report --pareto --perf-compat $v in 2 ranges = perf $v c2c report --stdio"
done
[ "$n" -gt 0 ] || skip "report-rounds: order against perf script" "no perf installed (scripts/setup-oracles.sh)"

for t in 2 3 4; do
	HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report --threads $t -i "$TMP/r.data" >"$TMP/b.out" 2>"$TMP/d.err"
	nr=$(sed -n 's/.*report: \([0-9]*\) ranges.*/\1/p' "$TMP/d.err")
	if [ "${nr:-0}" -ge 2 ] && [ "${nr:-0}" -le $t ]; then
		pass "report-rounds: --threads $t reads $nr ranges"
	else
		fail "report-rounds: --threads $t cuts the file in ranges" "got '${nr:-none}' ranges"
	fi
done
for v in "" "--json" "--csv" "--stdio" "--by bucket" "--lkp" "-N --show-all"; do
	# shellcheck disable=SC2086
	"$HITMAP" report --threads 1 -i "$TMP/r.data" $v >"$TMP/a.out" 2>&1
	for t in 2 4; do
		# shellcheck disable=SC2086
		HITMAP_RANGE_BYTES=1 "$HITMAP" report --threads $t -i "$TMP/r.data" $v >"$TMP/b.out" 2>&1
		same_out "report-rounds: ${v:-text} in $t ranges = --threads 1"
	done
done

# A mapped file (HITMAP_MMAP) drops its pages behind the reader; the walk
# that finds what the queue still needs once took a whole queue's scan per
# record while an early record of a big round held the drop back: 21 s on
# this file (quadratic in the round's records).  Bounded here at 20 s.
"$HITMAP" report --threads 1 -i "$TMP/r.data" >"$TMP/a.out" 2>&1
for t in 1 2; do
	HITMAP_MMAP=1 HITMAP_RANGE_BYTES=1 timeout 20 "$HITMAP" report --threads $t -i "$TMP/r.data" >"$TMP/b.out" 2>&1
	rc=$?
	if [ $rc = 124 ]; then
		fail "report-rounds: mapped file, --threads $t, within 20 s" "timed out"
	else
		same_out "report-rounds: mapped file (HITMAP_MMAP), --threads $t = read"
	fi
done
done_tests
