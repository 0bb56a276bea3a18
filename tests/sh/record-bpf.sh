# SPDX-License-Identifier: GPL-2.0-only
# hitmap record --futex-bpf: futex address -> bucket pairs from BPF on
# lock:contention_begin, checked against the kernel's hash of the workload's
# futexes; the perf samples of the tracepoint still arrive.
. tests/lib.sh

if [ "$(id -u)" != 0 ] || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	skip record-bpf "needs root and the lock tracepoints"; done_tests
fi
if [ "$(uname -m)" != x86_64 ] || ! command -v clang >/dev/null; then skip record-bpf "needs clang and x86_64"; done_tests; fi
obj=$TMP/record-pair.bpf.o
if ! clang -O2 -g -target bpf -I/usr/include/$(uname -m)-linux-gnu -c src/record/pair.bpf.c -o "$obj" 2>"$TMP/cc.err"; then
	skip record-bpf "clang cannot build BPF here: $(head -n 1 "$TMP/cc.err")"; done_tests
fi
"$HITMAP" record -o "$TMP/b.data" --futex-bpf --bpf-obj "$obj" --workload futex-hash -r 1 -s >"$TMP/wl.out" 2>"$TMP/rec.err"; rc=$?
if [ $rc -ne 0 ] && grep -q 'refused the BPF program\|attaching BPF' "$TMP/rec.err"; then
	skip record-bpf "the kernel refuses the program: $(head -n 1 "$TMP/rec.err")"; done_tests
fi
[ $rc -eq 0 ] && pass "record --futex-bpf: exit 0" || fail "record --futex-bpf: exit 0" "rc=$rc $(tail -n 1 "$TMP/rec.err")"
line=$(grep 'BPF pairs of the workload' "$TMP/rec.err")
nc=$(sed -n 's/.*workload: \([0-9]*\) on buckets.*/\1/p' <<<"$line"); na=$(sed -n 's/.*hash: \([0-9]*\) agree.*/\1/p' <<<"$line")
[ -n "$nc" ] && [ "$nc" -gt 0 ] && [ "$nc" = "$na" ] && pass "every BPF pair on a bucket agrees with the kernel's hash ($na)" || fail_nc "every BPF pair on a bucket agrees with the kernel's hash" "${line:-no line} $(grep BPF "$TMP/rec.err")"
nb=$(sed -n 's/.*contention_begin \([0-9]*\), contention_end.*/\1/p' "$TMP/rec.err")
[ -n "$nb" ] && [ "$nb" -gt 0 ] && pass "the tracepoint's perf samples still arrive ($nb)" || fail_nc "the tracepoint's perf samples still arrive" "$(grep contention_begin "$TMP/rec.err")"
if have_perf; then
	perf script -i "$TMP/b.data" >/dev/null 2>"$TMP/p.err" && pass "perf script reads the file" || fail "perf script reads the file" "$(head -n 1 "$TMP/p.err")"
fi
"$HITMAP" record -o "$TMP/x.data" --futex-bpf --bpf-obj /nonexistent.o --workload futex-hash -r 1 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -ne 0 ] && grep -q 'fix: clang' "$TMP/e" && pass "missing BPF object: error with the build command" || fail "missing BPF object: error with the build command" "rc=$rc $(cat "$TMP/e")"
done_tests
