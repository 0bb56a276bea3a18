# SPDX-License-Identifier: GPL-2.0-only
# hitmap record: options, --plan on fixture trees, and errors that name the fix.
. tests/lib.sh

check "--help exits 0" "$HITMAP" record --help
"$HITMAP" record --help | grep -q -- '--workload futex-hash' && pass "--help documents --workload" || fail "--help documents --workload" ""
for m in skylake-sp sapphire-rapids alderlake sierra-forest zen3 zen4 neoverse; do
	"$HITMAP" record --plan --sysfs-root tests/fixtures/sysfs/$m >"$TMP/plan" 2>&1 \
		&& grep -q '^mode: \(pebs\|ibs\|spe\)' "$TMP/plan" && pass "--plan $m" || fail "--plan $m" "$(head -n 2 "$TMP/plan")"
done
grep -q 'config 0x600000003' "$TMP/plan" && pass "--plan neoverse: SPE config" || fail "--plan neoverse: SPE config" "$(cat "$TMP/plan")"
"$HITMAP" record --plan --sysfs-root /nonexistent >"$TMP/plan" 2>&1 && grep -q 'mode: contention' "$TMP/plan" \
	&& pass "--plan without PMU: contention" || fail "--plan without PMU: contention" "$(cat "$TMP/plan")"

# bad input: one line, non-zero, names the fix
expect_err() { # NAME PATTERN ARGS...
	local n=$1 pat=$2; shift 2
	"$HITMAP" record "$@" >"$TMP/o" 2>"$TMP/e"; local rc=$?
	if [ $rc -ne 0 ] && grep -q "$pat" "$TMP/e" && [ "$(wc -l <"$TMP/e")" -le 2 ]; then pass "$n"; else fail "$n" "rc=$rc $(cat "$TMP/e")"; fi
}
expect_err "bad --mode" "fix: auto, pebs, ibs, spe or contention" --mode foo -- true
expect_err "-u with -k" "exclude each other" -u -k -- true
expect_err "-m not a power of two" "power of two" -m 3 -- true
expect_err "contention with -u: nothing to record" "drop -u" --mode contention -u -o "$TMP/x.data" -- true
expect_err "nothing to record" "fix: give a command" -o "$TMP/x.data"
expect_err "unknown workload" "fix: --workload futex-hash" --workload nope
expect_err "bad workload option" "placement" --workload futex-hash --placement diagonal
if [ ! -e /sys/bus/event_source/devices/cpu/events/mem-loads ]; then
	expect_err "--mode pebs without PEBS: names the remaining mode" "remaining mode here: contention" --mode pebs -o "$TMP/x.data" -- true
fi
if [ ! -d /sys/bus/event_source/devices/ibs_op ]; then
	expect_err "--mode ibs without IBS: names the remaining mode" "remaining mode here: contention" --mode ibs -o "$TMP/x.data" -- true
fi
# as an unprivileged user: the error says what permission is missing and the fix
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v su >/dev/null; then
	chmod 755 "$TMP"; cp "$HITMAP" "$TMP/hm"; chmod 755 "$TMP/hm"
	su nobody -s /bin/sh -c "cd $TMP && ./hm record -o $TMP/u.data --mode contention --workload futex-hash -r 1" >/dev/null 2>"$TMP/e"; rc=$?
	if [ $rc -ne 0 ] && grep -q 'fix:' "$TMP/e" && grep -qi 'permission\|paranoid\|root' "$TMP/e"; then pass "unprivileged: error names the permission and the fix"
	else fail "unprivileged: error names the permission and the fix" "rc=$rc $(cat "$TMP/e")"; fi
fi
# -C with a CPU that is not online: named, with the online list (the kernel's EINVAL said "try another --mode")
"$HITMAP" record -C 4095 -o "$TMP/x.data" -- true >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -ne 0 ] && grep -q "^hitmap: -C '4095': CPU 4095 is not online; fix: give CPUs of $(cat /sys/devices/system/cpu/online)\$" "$TMP/e" &&
	pass "-C offline CPU: named with the online list" || fail "-C offline CPU: named with the online list" "rc=$rc $(cat "$TMP/e")"
# -C's syntax is a usage error, said before anything is opened
rm -f "$TMP/x.data"
"$HITMAP" record -C 1-0 -o "$TMP/x.data" -- true >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$TMP/x.data" ] && grep -qx "hitmap: -C '1-0': not a CPU list; fix: e.g. -C 0-3 or -C 0,2" "$TMP/e" &&
	pass "-C not a CPU list: a usage error" || fail "-C not a CPU list: a usage error" "rc=$rc $(cat "$TMP/e")"
# a CPU named twice is recorded once (the events were opened twice and counted twice)
"$HITMAP" record -C 0,0-0 -o "$TMP/x.data" -- true >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 0 ] && grep -q ' samples on 1 CPU, ' "$TMP/e" &&
	pass "-C 0,0-0: one CPU" || fail "-C 0,0-0: one CPU" "rc=$rc $(cat "$TMP/e")"
rm -f "$TMP/x.data"
# a record option after --workload: the error points at record's help, where the order is
"$HITMAP" record --workload futex-hash -r 0 -o "$TMP/x.data" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 2 ] && grep -qx "hitmap: record --workload futex-hash: unknown option '-o'; see 'hitmap record --help'" "$TMP/e" &&
	pass "record option after --workload: names record's help" || fail "record option after --workload: names record's help" "rc=$rc $(cat "$TMP/e")"
"$HITMAP" record -o "$TMP/x.data" -- /nonexistent/cmd >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 127 ] && grep -q '^hitmap: /nonexistent/cmd: cannot run: No such file or directory; fix:' "$TMP/e" && [ "$(wc -l <"$TMP/e")" = 1 ] &&
	pass "missing command: 127 and one line, no summary of a recording of nothing" ||
	fail "missing command: 127 and one line, no summary of a recording of nothing" "rc=$rc $(cat "$TMP/e")"
"$HITMAP" record --json -o "$TMP/x.data" -- /nonexistent/cmd >"$TMP/o" 2>"$TMP/e"; rc=$?
[ $rc -eq 127 ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ] &&
	pass "missing command with --json: no JSON of a recording of nothing" ||
	fail "missing command with --json: no JSON of a recording of nothing" "rc=$rc $(head -c 200 "$TMP/o") $(cat "$TMP/e")"
printf 'not a program\n' >"$TMP/noexec"; chmod 644 "$TMP/noexec"
"$HITMAP" record -o "$TMP/x.data" -- "$TMP/noexec" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 126 ] && grep -q 'cannot run: Permission denied' "$TMP/e" && [ "$(wc -l <"$TMP/e")" = 1 ] &&
	pass "command not executable: 126 (as a shell) and one line" || fail "command not executable: 126 (as a shell) and one line" "rc=$rc $(cat "$TMP/e")"
"$HITMAP" record -o "$TMP/x.data" -- sh -c 'exit 3' >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 3 ] && grep -q 'hitmap record: wrote' "$TMP/e" && ! grep -q 'cannot run' "$TMP/e" &&
	pass "a command that runs and fails: its status, and the summary" || fail "a command that runs and fails: its status, and the summary" "rc=$rc $(cat "$TMP/e")"
done_tests
