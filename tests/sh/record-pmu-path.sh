# SPDX-License-Identifier: GPL-2.0-only
# The PMU recording path (PEBS/IBS: planned events, ids, enable_on_exec,
# synthesis, build-ids, header) exercised with software clocks standing in
# for mem-loads/mem-stores (HITMAP_RECORD_TEST_SWEVENT), since this machine
# has no PMU.  The PEBS/IBS attrs themselves are checked in test-record-pmu.
. tests/lib.sh

if ! can_record; then skip record-pmu-path "perf_event_open refused here"; done_tests; fi
export HITMAP_RECORD_TEST_SWEVENT=1
"$HITMAP" record -o "$TMP/s.data" -c 20000 -- "$HITMAP" bench futex-hash -r 1 -s -t 1 >"$TMP/o" 2>"$TMP/e"; rc=$?
[ $rc -eq 0 ] && pass "record a command: exit 0" || fail "record a command: exit 0" "rc=$rc $(tail -n 1 "$TMP/e")"
grep -q 'mode pebs' "$TMP/e" && pass "runs the PMU path" || fail "runs the PMU path" "$(head -n 1 "$TMP/e")"
samples=$(sed -n 's/.*MB, \([0-9]*\) samples.*/\1/p' "$TMP/e")
[ -n "$samples" ] && [ "$samples" -gt 10 ] && pass "samples recorded ($samples)" || fail "samples recorded" "$(grep wrote "$TMP/e")"
if have_perf; then
	perf report -i "$TMP/s.data" --stats >"$TMP/st" 2>&1
	[ "$(grep -c 'SAMPLE events' "$TMP/st")" -ge 3 ] && pass "perf sees both events (ids)" || fail "perf sees both events (ids)" "$(cat "$TMP/st" | tr '\n' ' ')"
	n=$(perf script -i "$TMP/s.data" 2>/dev/null | wc -l)
	[ "$n" = "$samples" ] && pass "perf script reads every sample" || fail "perf script reads every sample" "$n vs $samples"
	perf report -i "$TMP/s.data" --stdio 2>/dev/null | grep -q '\[kernel.kallsyms\]' && pass "kernel samples resolve ([kernel.kallsyms] map)" || fail "kernel samples resolve" "no [kernel.kallsyms]"
	perf report -i "$TMP/s.data" --stdio 2>/dev/null | grep -q 'libc.so.6\|hitmap ' && pass "user samples resolve (exec MMAP2)" || fail "user samples resolve" ""
	perf buildid-list -i "$TMP/s.data" 2>/dev/null | grep -q 'kernel.kallsyms' && pass "BUILD_ID: kernel" || fail "BUILD_ID: kernel" "$(perf buildid-list -i "$TMP/s.data" 2>&1 | head -n 2)"
	perf buildid-list -i "$TMP/s.data" 2>/dev/null | grep -q "/hitmap$" && pass "BUILD_ID: the command's binary" || fail "BUILD_ID: the command's binary" ""
fi
"$HITMAP" record -q -a -o "$TMP/a.data" -c 100000 -- sleep 0.3 2>"$TMP/e"; rc=$?
[ $rc -eq 0 ] && "$HITMAP" script -i "$TMP/a.data" >/dev/null 2>&1 && pass "-a: valid file" || fail "-a: valid file" "rc=$rc $(cat "$TMP/e")"
# a running process's maps, read from /proc/PID/maps, carry the file's
# device and inode as perf writes them (perf's DSOs and perf c2c's data map
# keys compare them with the kernel's MMAP2 of the same file): this shell's
# executable map, as /proc lists it for this shell's pid (stat may differ
# from /proc on overlayfs; the record copies /proc)
if [ $rc -eq 0 ] && have_perf; then
	want=$(awk '$2 ~ /x/ && $6 ~ /^\// { print $4, $5, $6; exit }' /proc/$$/maps)
	got=$(perf script --show-mmap-events -i "$TMP/a.data" 2>/dev/null | awk -v me=" $$/$$: [" -v p="${want##* }" '
		/PERF_RECORD_MMAP2/ && $NF == p && index($0, me) { i = index($0, "]: "); n = split(substr($0, 1, i), w, " ")
			print w[n - 2], w[n - 1], p; exit }')
	[ -n "$want" ] && [ "$got" = "$want" ] && pass "-a: synthesized MMAP2 carries the file's device and inode ($got)" ||
		fail "-a: synthesized MMAP2 carries the file's device and inode" "perf script shows '$got' for pid $$, /proc/$$/maps '$want'"
fi
"$HITMAP" record -q -o "$TMP/w.data" -c 20000 --workload futex-hash -r 1 -s -t 1 >/dev/null 2>"$TMP/e"; rc=$?
if [ $rc -eq 0 ] && have_perf; then
	perf report -i "$TMP/w.data" --stdio 2>/dev/null | grep -q 'futex' && pass "--workload: synthesized maps, kernel futex symbols" || fail "--workload: synthesized maps, kernel futex symbols" ""
else
	[ $rc -eq 0 ] && pass "--workload: recorded" || fail "--workload: recorded" "rc=$rc $(cat "$TMP/e")"
fi
done_tests
