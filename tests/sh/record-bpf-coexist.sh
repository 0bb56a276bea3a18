# SPDX-License-Identifier: GPL-2.0-only
# hitmap record's BPF programs (the live futex-table discovery, verify.bpf.c on
# sys_enter_futex, sys_exit_futex and lock:contention_begin) must not hide those
# tracepoints from other perf listeners: a tracepoint program that returns 0
# drops the event for every perf event on it.  A real perf recording of
# syscalls:sys_enter_futex made while hitmap record runs gets its samples.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip record-bpf-coexist "no $HITMAP; build first"; done_tests; }
P=$(perf_cmd "$(oracle_perfs | awk '{ print $1 }')") || { skip record-bpf-coexist "no perf installed (perf-6.1, -6.12 or -7.3)"; done_tests; }
if [ "$(id -u)" != 0 ] || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/syscalls/sys_enter_futex ]; then
	skip record-bpf-coexist "needs root and the syscalls:sys_enter_futex tracepoint"; done_tests
fi
"$HITMAP" record --mode auto -o "$TMP/h.data" --workload futex-hash -r 4 >/dev/null 2>"$TMP/h.err" &
hpid=$!
# wait until the recorder's BPF programs are attached (the file exists once set up)
for _ in $(seq 1 100); do [ -s "$TMP/h.data" ] && break; sleep 0.1; done
sleep 0.3
"$P" record -q -o "$TMP/p.data" -e syscalls:sys_enter_futex -- \
	"$HITMAP" bench futex-hash -r 1 -t 2 -f 16 >/dev/null 2>"$TMP/p.err"
wait $hpid
if ! grep -q 'futex tables seen live' "$TMP/h.err"; then
	skip record-bpf-coexist "hitmap record attached no BPF program here: $(grep -i 'futex table\|BPF' "$TMP/h.err" | head -n 1)"
	done_tests
fi
n=$("$P" script -i "$TMP/p.data" 2>/dev/null | wc -l)
# the workload makes about 10^5 futex calls a second
check "perf records sys_enter_futex while hitmap record runs ($n samples)" test "$n" -gt 1000
done_tests
