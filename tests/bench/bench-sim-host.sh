#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap simulate --preset host (this machine's sysfs topology, the vendor's
# published latencies, the syscall cost measured) beside a real
# `hitmap bench futex-hash -t N` on this machine: ops/s per thread of both and
# their ratio, for 1 and 2 threads (goal: within 25%).  The real run's rate is
# also given per CPU-second of its threads (total ops / CPU seconds), which is
# what the model computes: on a shared box the threads do not get a whole CPU.
set -u
HITMAP=${HITMAP:-$PWD/build/hitmap}
command -v jq >/dev/null || { echo "bench-sim-host: jq is not installed"; exit 0; }
# the kernel model nearest the running kernel; a 6.17/6.18 stable kernel whose
# BTF has no hb->priv carries a734d9fca84e: its private path is 7.2's
host_kernel() {
	local r mm priv
	r=$(uname -r); mm=${r%%-*}; mm=$(echo "$mm" | cut -d. -f1,2)
	priv=$("$HITMAP" hash --this-machine --json 0x7f0000001000 2>/dev/null | jq -r '.layout.priv // "absent"')
	case "$mm" in
	6.12|6.16|6.17|6.18|7.2|7.3) ;;
	6.1[3-5]|6.[0-9]|5.*) mm=6.12 ;;
	6.19|7.0|7.1) mm=6.18 ;;
	*) mm=7.3 ;;
	esac
	case "$mm" in 6.17|6.18) [ "$priv" = absent ] && mm=7.2 ;; esac
	echo "$mm"
}
K=${SIM_HOST_KERNEL:-$(host_kernel)}
for n in 1 2; do
	[ "$n" -le "$(nproc)" ] || continue
	real=$("$HITMAP" bench futex-hash -t "$n" -r "${SIM_HOST_RUNTIME:-3}" -s --json) || {
		echo "bench-sim-host: bench futex-hash -t $n failed"; exit 1; }
	sim=$("$HITMAP" simulate --preset host --kernel "$K" --threads "$n" --json) || {
		echo "bench-sim-host: simulate --preset host failed"; exit 1; }
	printf '%s\n%s\n' "$real" "$sim" | jq -rs --arg n "$n" --arg k "$K" '
		.[0] as $r | .[1] as $s |
		($r.total_ops / $r.cpu_secs) as $cpu |
		($s.ops_per_sec_thread / $cpu) as $ratio |
		"sim host \($n) thread(s), kernel model \($k) for '"$(uname -r)"': real \($r.avg_ops_per_sec) ops/s/thread wall, \($cpu|floor) per CPU-second; model \($s.ops_per_sec_thread|floor); ratio model/real \($ratio*100|floor/100) (\(if ($ratio > 0.8 and $ratio < 1.25) then "within 25%" else "OUTSIDE 25%" end))"'
done
