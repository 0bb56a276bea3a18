# SPDX-License-Identifier: GPL-2.0-only
# hitmap bench futex-hash: perf bench futex hash's output, options and errors.
. tests/lib.sh

"$HITMAP" bench futex-hash -r 1 -t 2 -f 64 >"$TMP/o" 2>&1; rc=$?
[ $rc -eq 0 ] && pass "runs" || fail "runs" "rc=$rc"
sed -n 1p "$TMP/o" | grep -qx "# Running 'futex/hash' benchmark:" && pass "perf's first line" || fail "perf's first line" "$(sed -n 1p "$TMP/o")"
grep -q '^Run summary \[PID [0-9]*\]: 2 threads, each operating on 64 \[private\] futexes for 1 secs\.$' "$TMP/o" && pass "run summary line" || fail "run summary line" "$(sed -n 2p "$TMP/o")"
[ "$(grep -c '^\[thread  [01]\] futexes: 0x[0-9a-f]* \.\.\. 0x[0-9a-f]* \[ [0-9]* ops/sec \]$' "$TMP/o")" = 2 ] && pass "per-thread lines" || fail "per-thread lines" "$(grep thread "$TMP/o")"
grep -q '^Averaged [0-9]* operations/sec (+- [0-9]*\.[0-9][0-9]%), total secs = 1$' "$TMP/o" && pass "Averaged line as perf prints it" || fail "Averaged line as perf prints it" "$(grep Aver "$TMP/o")"
# the array of thread 0 spans 64 futexes: last - first = 63*4
first=$(sed -n 's/^\[thread  0\] futexes: \(0x[0-9a-f]*\) .*/\1/p' "$TMP/o"); last=$(sed -n 's/^\[thread  0\] futexes: 0x[0-9a-f]* \.\.\. \(0x[0-9a-f]*\) .*/\1/p' "$TMP/o")
[ $((last - first)) = 252 ] && pass "futex array layout (u32 x 64)" || fail "futex array layout (u32 x 64)" "$first $last"
# -r 0: no whole second, so perf's rate is 0 (hitmap printed the ops as a rate)
"$HITMAP" bench futex-hash -r 0 -t 2 -f 16 >"$TMP/o" 2>&1
[ "$(grep -c '\[ 0 ops/sec \]$' "$TMP/o")" = 2 ] && grep -qx 'Averaged 0 operations/sec (+- 0.00%), total secs = 0' "$TMP/o" &&
	pass "-r 0: a rate of 0, as perf" || fail "-r 0: a rate of 0, as perf" "$(grep 'ops\|Aver' "$TMP/o")"
"$HITMAP" bench futex-hash -r 1 -s -S -f 1 -t 1 >"$TMP/o" 2>&1
grep -q 'operating on 1 \[shared\] futexes' "$TMP/o" && ! grep -q '^\[thread' "$TMP/o" && grep -q '^Averaged' "$TMP/o" && pass "-s -S -f 1" || fail "-s -S -f 1" "$(cat "$TMP/o")"
if have_perf && perf bench futex hash -r 1 -s -t 1 -f 16 >"$TMP/p" 2>&1; then
	"$HITMAP" bench futex-hash -r 1 -s -t 1 -f 16 >"$TMP/h" 2>&1
	# perf 6.16+ prints the private hash's size ("Futex hashing: ..."), older perf does not
	fh='/^Futex hashing/d'
	grep -q '^Futex hashing' "$TMP/p" && fh='/^Futex hashing/b'
	diff <(sed -e 's/PID [0-9]*/PID N/' -e 's/Averaged [0-9]* .*secs/Averaged N secs/' "$TMP/p") \
	     <(sed -e 's/PID [0-9]*/PID N/' -e 's/Averaged [0-9]* .*secs/Averaged N secs/' -e "$fh" "$TMP/h") >"$TMP/d" \
		&& pass "same lines as perf bench futex hash -s" || fail "same lines as perf bench futex hash -s" "$(head -n 4 "$TMP/d" | tr '\n' ' ')"
else
	skip "same lines as perf bench futex hash -s" "perf bench not available"
fi
"$HITMAP" bench futex-hash -r 1 --json -t 2 >"$TMP/j" 2>&1
if command -v jq >/dev/null; then
	jq -e '.threads == 2 and .avg_ops_per_sec > 0 and (.threads_detail | length) == 2' "$TMP/j" >/dev/null && pass "--json" || fail "--json" "$(cat "$TMP/j")"
else
	grep -q '"avg_ops_per_sec"' "$TMP/j" && pass "--json" || fail "--json" "$(cat "$TMP/j")"
fi
"$HITMAP" bench futex-hash -r 1 -t 2 --cpus 0 --json >"$TMP/j" 2>&1
grep -q '"cpu":0,.*"cpu":0' "$TMP/j" && pass "--cpus pins every thread to the list" || fail "--cpus pins every thread to the list" "$(cat "$TMP/j")"
"$HITMAP" bench futex-hash -r 1 --placement compact -s >/dev/null 2>&1 && pass "--placement compact" || fail "--placement compact" ""
"$HITMAP" bench futex-hash -r 1 -b 0 -s >"$TMP/o" 2>&1
grep -q 'Futex hashing: global hash' "$TMP/o" && pass "-b 0: global hash" || skip "-b 0: global hash" "PR_FUTEX_HASH not available: $(tail -n 1 "$TMP/o")"
# perf's -b default is -1 and any negative count leaves the hash alone:
# "-b -1" and "-b -7" run as if -b were not given
for b in -1 -7; do
	"$HITMAP" bench futex-hash -r 1 -t 1 -s -b "$b" --json >"$TMP/o" 2>&1; rc=$?
	[ $rc = 0 ] && grep -q '"buckets":-1,' "$TMP/o" && pass "-b $b: perf's default, the hash left alone" ||
		fail "-b $b: perf's default, the hash left alone" "rc=$rc $(head -c 200 "$TMP/o")"
done
check "--help exits 0" "$HITMAP" bench futex-hash --help
"$HITMAP" bench futex-hash -t x >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -ne 0 ] && grep -q "^hitmap: -t 'x': expected an integer" "$TMP/e" && pass "bad -t: one-line error" || fail "bad -t: one-line error" "rc=$rc $(cat "$TMP/e")"
"$HITMAP" bench futex-hash --cpus 0-zz >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -ne 0 ] && grep -q 'fix' "$TMP/e" && pass "bad --cpus: error with the fix" || fail "bad --cpus: error with the fix" "rc=$rc $(cat "$TMP/e")"
# perf's worker finishes a pass over all its futexes before it looks at the
# stop flag: an absurd -f must be refused, not run for minutes past -r
"$HITMAP" bench futex-hash -r 1 -f 99999999999 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "^hitmap: -f '99999999999': expected an integer 1\.\.16777216; fix" "$TMP/e" &&
	pass "-f beyond 2^24: usage error with the range" || fail "-f beyond 2^24: usage error with the range" "rc=$rc $(cat "$TMP/e")"
"$HITMAP" bench futex-hash -r 1 -t 70000 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "expected an integer 0\.\.65536" "$TMP/e" && pass "-t beyond 65536: usage error" || fail "-t beyond 65536: usage error" "rc=$rc $(cat "$TMP/e")"
timeout 20 "$HITMAP" bench futex-hash -r 1 -t 65536 -f 16777216 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 1 ] && grep -q 'GiB, more than half of this machine.s memory; fix: fewer futexes' "$TMP/e" &&
	pass "futex arrays over half the memory: refused before any allocation" || fail "futex arrays over half the memory: refused before any allocation" "rc=$rc $(cat "$TMP/e")"
"$HITMAP" bench nope >/dev/null 2>"$TMP/e"; [ $? -ne 0 ] && pass "unknown benchmark fails" || fail "unknown benchmark fails" ""
done_tests
