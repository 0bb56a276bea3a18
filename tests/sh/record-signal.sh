# SPDX-License-Identifier: GPL-2.0-only
# SIGINT or SIGTERM in the middle of recording leaves a complete, valid file
# that perf and hitmap read to the end.
. tests/lib.sh

if [ "$(id -u)" != 0 ] || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	skip record-signal "needs root and the lock tracepoints"; done_tests
fi

for sig in INT TERM; do
	out=$TMP/sig-$sig.data
	"$HITMAP" record -o "$out" --workload futex-hash -r 30 -s >"$TMP/wl.out" 2>"$TMP/rec.err" &
	pid=$!
	# in the middle of recording: from the file's start (setting up takes seconds on a busy machine)
	for ((w = 0; w < 600; w++)); do [ -s "$out" ] || ! kill -0 $pid 2>/dev/null && break; sleep 0.05; done
	sleep 1.5
	kill -$sig $pid
	t0=$(date +%s)
	wait $pid; rc=$?
	t1=$(date +%s)
	[ $rc -eq 0 ] && pass "SIG$sig: record exits 0" || fail "SIG$sig: record exits 0" "rc=$rc $(tail -n 1 "$TMP/rec.err")"
	[ $((t1 - t0)) -lt 10 ] && pass "SIG$sig: stops promptly" || fail "SIG$sig: stops promptly" "$((t1 - t0)) s"
	grep -q 'interrupted, the file is complete' "$TMP/rec.err" && pass "SIG$sig: says the file is complete" || fail "SIG$sig: says the file is complete" "$(grep wrote "$TMP/rec.err")"
	grep -q '^Averaged' "$TMP/wl.out" && pass "SIG$sig: the workload still reports" || fail "SIG$sig: the workload still reports" "$(cat "$TMP/wl.out")"
	samples=$(sed -n 's/.*MB, \([0-9]*\) samples.*/\1/p' "$TMP/rec.err")
	if have_perf; then
		# -G: one line a sample (else perf adds contention_begin's kernel call chain)
		n=$(perf script -G -i "$out" 2>"$TMP/perf.err" | wc -l)
		[ "$n" = "$samples" ] && [ "$n" -gt 0 ] && pass "SIG$sig: perf script reads to the end ($n)" \
			|| { [ "${samples:-0}" = 0 ] && fail_nc "SIG$sig: perf script reads to the end" "no sample recorded"; } \
			|| fail "SIG$sig: perf script reads to the end" "lines=$n samples=$samples $(head -n 1 "$TMP/perf.err")"
	fi
	n=$("$HITMAP" script -i "$out" 2>"$TMP/hs.err" | wc -l)
	[ "$n" = "$samples" ] && pass "SIG$sig: hitmap reads to the end ($n)" || fail "SIG$sig: hitmap reads to the end" "lines=$n samples=$samples $(head -n 1 "$TMP/hs.err")"
done
# a plain command, stopped the same way
"$HITMAP" record -q -o "$TMP/cmd.data" -- sleep 20 2>"$TMP/rec.err" &
pid=$!
# once recording (a SIGINT while setting up leaves no file: record-signal-setup;
# setting up takes seconds on a busy machine or under ASan)
for ((w = 0; w < 600; w++)); do [ -s "$TMP/cmd.data" ] || ! kill -0 $pid 2>/dev/null && break; sleep 0.05; done
sleep 1; kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 0 ] && "$HITMAP" stat -i "$TMP/cmd.data" >/dev/null 2>"$TMP/st.err" && pass "SIGINT with a command: valid file" ||
	fail "SIGINT with a command: valid file" "rc=$rc $(tail -n 1 "$TMP/rec.err") $(head -n 1 "$TMP/st.err" 2>/dev/null)"
done_tests
