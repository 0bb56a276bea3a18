#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Contention mode worth reading: lock:contention_begin carries the kernel call
# chain (and contention_end does not), so the bucket view names the waiting
# caller (futex_q_lock <- futex_wait_setup ...), not the spin-lock slow path;
# average and maximum wait per bucket and per caller; no memory columns the
# mode cannot fill.  Needs root, tracefs and contention on this machine: the
# workload runs 16 threads on 2 private hash buckets.
. tests/lib.sh
if [ "$(id -u)" -ne 0 ] || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	skip contention-callers "needs root and the lock:contention_begin tracepoint (tracefs)"
	done_tests
fi
"$HITMAP" record --plan --mode contention | grep -q '^lock:contention_begin .*CALLCHAIN' &&
	pass contention-plan-callchain || fail contention-plan-callchain "$("$HITMAP" record --plan --mode contention | head -3)"
f=$TMP/c.data
if ! timeout 120 "$HITMAP" record --mode contention -o "$f" --workload futex-hash -t 16 -b 2 -f 4 -r 2 >"$TMP/rec.out" 2>&1; then
	fail contention-callers-record "$(tail -n 2 "$TMP/rec.out")"
	done_tests
fi
if have_perf; then
	perf evlist -v -i "$f" 2>/dev/null >"$TMP/evlist"
	grep '^lock:contention_begin:' "$TMP/evlist" | grep -q 'CALLCHAIN' &&
		! grep '^lock:contention_end:' "$TMP/evlist" | grep -q 'CALLCHAIN' &&
		pass contention-begin-has-callchain || fail contention-begin-has-callchain "$(head -2 "$TMP/evlist")"
	perf script -i "$f" >/dev/null 2>"$TMP/perf.err" && pass contention-file-perf-reads ||
		fail contention-file-perf-reads "$(head -2 "$TMP/perf.err")"
fi
"$HITMAP" script -i "$f" >/dev/null 2>"$TMP/s.err" && pass contention-file-hitmap-reads ||
	fail contention-file-hitmap-reads "$(head -2 "$TMP/s.err")"
"$HITMAP" report -i "$f" --by bucket >"$TMP/b.txt" 2>&1
"$HITMAP" report -i "$f" --by bucket --json >"$TMP/b.json" 2>&1
"$HITMAP" report -i "$f" --by socket >"$TMP/s.txt" 2>&1
n=$(jq -r '.summary.contentions_on_buckets' "$TMP/b.json" 2>/dev/null)
if [ -z "$n" ] || [ "$n" = null ] || [ "$n" -eq 0 ]; then
	skip contention-callers "no bucket lock contended in this recording ($(grep -o 'contention_begin [0-9]*' "$TMP/rec.out")): a busy or small machine"
	done_tests
fi
echo "# $n contentions on bucket locks"
head -4 "$TMP/b.txt" | sed 's/^/# /'
# columns: contention ones, none of the memory ones
hdr=$(grep -m1 '^TABLE ' "$TMP/b.txt")
case "$hdr" in
*LOADS*|*LCL_HITM*|*COST*) fail contention-no-memory-columns "$hdr" ;;
*AVG_US*MAX_US*) pass contention-no-memory-columns ;;
*) fail contention-no-memory-columns "no AVG_US/MAX_US: $hdr" ;;
esac
grep -q 'samples in futex memory' "$TMP/b.txt" && fail contention-no-zero-memory-line "$(head -1 "$TMP/b.txt")" ||
	pass contention-no-zero-memory-line
grep -q 'HITM: socket holding' "$TMP/s.txt" && fail contention-socket-no-hitm-matrix "1x1 HITM matrix printed" ||
	pass contention-socket-no-hitm-matrix
# callers: from the call chain, not the spin-lock slow path; waits consistent
jq -e '.callers | length > 0' "$TMP/b.json" >/dev/null &&
	! jq -r '.callers[].caller' "$TMP/b.json" | grep -Eq '^(__pv_|native_|queued_)?_?_?(raw_)?spin_lock' &&
	pass contention-callers-named || fail contention-callers-named "$(jq -c '.callers[:3]' "$TMP/b.json")"
jq -r '.callers[].caller' "$TMP/b.json" | head -3 | sed 's/^/#   caller: /'
jq -e --argjson n "$n" '([.callers[].contended] | add) == $n' "$TMP/b.json" >/dev/null &&
	pass contention-callers-sum || fail contention-callers-sum "$(jq -c '[.callers[].contended] | add' "$TMP/b.json") != $n"
jq -e '[.buckets[] | select(.contended > 0) | select(.max_wait_ns < .avg_wait_ns or .avg_wait_ns > .wait_ns)] | length == 0' \
	"$TMP/b.json" >/dev/null && pass contention-avg-max-wait || fail contention-avg-max-wait "$(jq -c '.buckets[:2]' "$TMP/b.json")"
# every contention on a bucket lock was taken at a futex bucket-lock call site
# (the denominator of the live >= 99% check in futex-record-live.sh)
jq -e '.summary.contentions_at_bucket_sites_on_buckets == .summary.contentions_on_buckets' "$TMP/b.json" >/dev/null &&
	pass contention-bucket-sites || fail contention-bucket-sites "$(jq -c .summary "$TMP/b.json"); callers $(jq -c '[.callers[].caller]' "$TMP/b.json")"
grep -q 'Contention on bucket locks by caller' "$TMP/b.txt" && pass contention-callers-text ||
	fail contention-callers-text "no caller section"
done_tests
