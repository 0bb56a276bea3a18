# SPDX-License-Identifier: GPL-2.0-only
# hitmap record in contention mode on the built-in futex workload, default
# settings: no lost events, every contended bucket attributed to its table and
# index, and perf script and hitmap read the file to the end.
. tests/lib.sh

if [ "$(id -u)" != 0 ]; then skip record-contention "needs root for the lock tracepoints"; if command -v jq >/dev/null; then
	"$HITMAP" record -o "$TMP/j.data" --json --workload futex-hash -r 1 -t 2 >"$TMP/j.out" 2>"$TMP/j.err"
	jq -e '.mode == "contention" and .lost == 0 and .table.buckets > 0 and .table.buckets == .table.attributed
	       and (.buckets | length) == .table.buckets and .workload.threads == 2 and .workload.avg_ops_per_sec > 0' "$TMP/j.out" >/dev/null \
		&& pass "--json: mode, no loss, buckets attributed, workload results" || fail_nc "--json: mode, no loss, buckets attributed, workload results" "$(head -c 300 "$TMP/j.out") $(head -n 1 "$TMP/j.err")"
fi
done_tests; fi
if ! have_tracefs || [ ! -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	skip record-contention "no tracefs or no lock:contention_begin tracepoint"; if command -v jq >/dev/null; then
	"$HITMAP" record -o "$TMP/j.data" --json --workload futex-hash -r 1 -t 2 >"$TMP/j.out" 2>"$TMP/j.err"
	jq -e '.mode == "contention" and .lost == 0 and .table.buckets > 0 and .table.buckets == .table.attributed
	       and (.buckets | length) == .table.buckets and .workload.threads == 2 and .workload.avg_ops_per_sec > 0' "$TMP/j.out" >/dev/null \
		&& pass "--json: mode, no loss, buckets attributed, workload results" || fail_nc "--json: mode, no loss, buckets attributed, workload results" "$(head -c 300 "$TMP/j.out") $(head -n 1 "$TMP/j.err")"
fi
done_tests
fi

out=$TMP/c.data
"$HITMAP" record -o "$out" --workload futex-hash -r 1 >"$TMP/wl.out" 2>"$TMP/rec.err"
rc=$?
if [ $rc -eq 0 ]; then pass "record: exit 0"; else fail "record: exit 0" "rc=$rc $(tail -n 2 "$TMP/rec.err")"; fi
grep -q 'mode contention' "$TMP/rec.err" && pass "record: says which mode ran" || fail "record: says which mode ran" "$(head -n 1 "$TMP/rec.err")"
grep -q 'falling back to contention mode' "$TMP/rec.err" || grep -q 'PEBS\|IBS' "$TMP/rec.err" && pass "record: auto explains its choice" || fail "record: auto explains its choice" "$(head -n 1 "$TMP/rec.err")"
grep -q '^Averaged [0-9]* operations/sec (+- [0-9.]*%), total secs = 1$' "$TMP/wl.out" && pass "workload: perf's Averaged line" || fail "workload: perf's Averaged line" "$(cat "$TMP/wl.out")"
grep -q ' 0 lost events, 0 lost samples' "$TMP/rec.err" && pass "record: no lost events" || fail "record: no lost events" "$(grep wrote "$TMP/rec.err")"

line=$(grep 'are buckets of the' "$TMP/rec.err")
nb=$(sed -n 's/.*; \([0-9]*\) are buckets of the.*/\1/p' <<<"$line")
na=$(sed -n 's/.*), \([0-9]*\) attributed to table and index.*/\1/p' <<<"$line")
if [ -n "$nb" ] && [ "$nb" -gt 0 ] && [ "$nb" = "$na" ]; then
	pass "every contended bucket attributed to its table and index ($na)"
else
	fail_nc "every contended bucket attributed to its table and index" "${line:-no attribution line}"
fi

samples=$(sed -n 's/.*MB, \([0-9]*\) samples.*/\1/p' "$TMP/rec.err")
if have_perf; then
	# -G: one line a sample (else perf adds contention_begin's kernel call chain)
	n=$(perf script -G -i "$out" 2>"$TMP/perf.err" | wc -l); prc=${PIPESTATUS[0]}
	if [ "$prc" = 0 ] && [ "$n" = "$samples" ] && [ "$n" -gt 0 ]; then pass "perf script reads every sample ($n)"
	elif [ "${samples:-0}" = 0 ]; then fail_nc "perf script reads every sample" "the recording holds no sample"
	else fail "perf script reads every sample" "rc=$prc lines=$n samples=$samples $(head -n 2 "$TMP/perf.err")"; fi
	perf script -i "$out" 2>/dev/null | head -n 50 | grep -q 'lock:contention_begin: 0x[0-9a-f]* (flags=' \
		&& pass "perf script decodes the tracepoint fields" || fail_nc "perf script decodes the tracepoint fields" "$(perf script -i "$out" 2>&1 | head -n 1)"
	perf report -i "$out" --header-only 2>/dev/null | grep -q 'nrcpus avail' && pass "perf reads the header features" || fail "perf reads the header features" "no nrcpus line"
else
	skip "perf script reads every sample" "no perf"
fi
# -G as for perf: one line a sample, not its call chain's frames
n=$("$HITMAP" script -G -i "$out" 2>"$TMP/hs.err" | wc -l)
if [ "$n" = "$samples" ]; then pass "hitmap script reads every sample ($n)"; else fail "hitmap script reads every sample" "lines=$n samples=$samples $(head -n 2 "$TMP/hs.err")"; fi
"$HITMAP" header -i "$out" >"$TMP/hdr" 2>&1
grep -q 'hitmap metadata' "$TMP/hdr" && grep -q 'TRACING_DATA' "$TMP/hdr" && pass "hitmap header: TRACING_DATA and hitmap metadata present" \
	|| fail "hitmap header: TRACING_DATA and hitmap metadata present" "$(grep features "$TMP/hdr")"
if command -v jq >/dev/null; then
	"$HITMAP" record -o "$TMP/j.data" --json --workload futex-hash -r 1 -t 2 >"$TMP/j.out" 2>"$TMP/j.err"
	jq -e '.mode == "contention" and .lost == 0 and .table.buckets > 0 and .table.buckets == .table.attributed
	       and (.buckets | length) == .table.buckets and .workload.threads == 2 and .workload.avg_ops_per_sec > 0' "$TMP/j.out" >/dev/null \
		&& pass "--json: mode, no loss, buckets attributed, workload results" || fail_nc "--json: mode, no loss, buckets attributed, workload results" "$(head -c 300 "$TMP/j.out") $(head -n 1 "$TMP/j.err")"
fi
done_tests
