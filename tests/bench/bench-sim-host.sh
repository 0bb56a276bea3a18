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
K=${SIM_HOST_KERNEL:-6.18}
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
		"sim host \($n) thread(s), kernel model \($k): real \($r.avg_ops_per_sec) ops/s/thread wall, \($cpu|floor) per CPU-second; model \($s.ops_per_sec_thread|floor); ratio model/real \($ratio*100|floor/100) (\(if ($ratio > 0.8 and $ratio < 1.25) then "within 25%" else "OUTSIDE 25%" end))"'
done
