#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Contention mode (no PMU): hitmap record --workload futex-hash writes
# lock:contention_begin/end; report --by bucket gives per-bucket contention
# counts and wait times, --by socket the same per requesting socket.  Both are
# checked against perf script's own reading of the same file (begin -> end
# per thread, on the lock of each bucket).
. tests/lib.sh
if [ "$(id -u)" -ne 0 ] || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	skip report-contention "needs root and the lock:contention_begin tracepoint (tracefs)"
	done_tests
fi
have_perf || { skip report-contention "no perf (Debian package linux-perf)"; done_tests; }
f=$TMP/c.data
if ! "$HITMAP" record --mode contention -o "$f" --workload futex-hash -r 1 >"$TMP/rec.out" 2>&1; then
	fail report-contention-record "$(tail -n 2 "$TMP/rec.out")"
	done_tests
fi
"$HITMAP" report -i "$f" --by bucket --json >"$TMP/b.json" 2>"$TMP/b.err" ||
	{ fail report-contention-by-bucket "$(tail -n 1 "$TMP/b.err")"; done_tests; }
"$HITMAP" report -i "$f" --by socket --json >"$TMP/s.json" 2>"$TMP/s.err" ||
	{ fail report-contention-by-socket "$(tail -n 1 "$TMP/s.err")"; done_tests; }
base=$(jq -r '.tables[0].base' "$TMP/b.json")
slots=$(jq -r '.tables[0].slots' "$TMP/b.json")
if [ "$base" = null ] || [ "$slots" = null ]; then
	fail report-contention-table "no futex table in the file's metadata"
	done_tests
fi
# perf's view: bucket index of each begin (lock = bucket + 4), wait until the
# same thread's end of that lock (an interrupt's contention on another lock,
# begun and ended inside the wait, is not its end).  Output: "index
# contended wait_ns", sorted.
# (mawk has no 64-bit integers: addresses are split into high and low
# 32 bits; a table lies in one 4 GiB range.)
perf script -i "$f" --ns -F tid,time,event,trace 2>/dev/null |
	awk -v base="$base" -v slots="$slots" '
	function hex(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	function lo(a) { sub(/^0x/, "", a); return hex(substr(a, length(a) - 7)) }
	function hi(a) { sub(/^0x/, "", a); return substr(a, 1, length(a) - 8) }
	function ns(t,   p) { sub(/:$/, "", t); split(t, p, "."); return p[1] * 1000000000 + substr(p[2] "000000000", 1, 9) }
	BEGIN { bh = hi(base); bl = lo(base) }
	$3 == "lock:contention_begin:" {
		a = lo($4) - 4 - bl
		if (hi($4) == bh && a >= 0 && a % 64 == 0 && a / 64 < slots) { idx = a / 64; n[idx]++; open[$1] = idx; lk[$1] = $4; t0[$1] = ns($2) }
		next }
	$3 == "lock:contention_end:" && ($1 in open) && $4 == lk[$1] { w[open[$1]] += ns($2) - t0[$1]; delete open[$1] }
	END { for (i in n) printf "%d %d %.0f\n", i, n[i], w[i] }' | sort -n >"$TMP/perf.txt"
jq -r '.buckets[] | select(.contended > 0) | "\(.index) \(.contended) \(.wait_ns)"' "$TMP/b.json" | sort -n >"$TMP/hm.txt"
if [ -s "$TMP/perf.txt" ]; then
	pass "report-contention: buckets were contended"
else
	# nothing to compare: the per-bucket and per-socket checks below need contentions
	fail_nc "report-contention: buckets were contended" "perf script finds no contention_begin on a bucket lock"
	done_tests
fi
if cmp -s "$TMP/perf.txt" "$TMP/hm.txt"; then
	pass "report-contention: per-bucket contentions and wait times = perf script ($(wc -l <"$TMP/hm.txt") buckets)"
else
	fail "report-contention: per-bucket contentions and wait times" "$(diff "$TMP/perf.txt" "$TMP/hm.txt" | head -n 3 | tr '\n' ' ')"
fi
tb=$(jq '[.buckets[].contended] | add' "$TMP/b.json"); ts=$(jq '[.contention[].contended] | add' "$TMP/s.json")
check "report-contention: --by socket contentions add up to --by bucket ($tb)" test "$tb" = "$ts"
wb=$(jq '[.buckets[].wait_ns] | add' "$TMP/b.json"); ws=$(jq '[.contention[].wait_ns] | add' "$TMP/s.json")
check "report-contention: --by socket wait times add up to --by bucket" test "$wb" = "$ws"
done_tests
