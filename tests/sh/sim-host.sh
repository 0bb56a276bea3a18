#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# simulate --preset host against this machine: the model's ops/s per thread
# (sysfs topology, the vendor's published latencies, the syscall cost measured
# here) within 25% of a real `hitmap bench futex-hash -t N` for 1 and 2
# threads.  The real rate is taken per CPU-second of the benchmark's threads
# (total ops / CPU seconds), the rate the model computes: on a shared box the
# threads do not get a whole CPU each, and wall-clock rates swing with the load.
# The median of three short runs is used.  A control run with the syscall cost
# tripled must fall outside the band, so the band is narrower than the model's
# own sensitivity to its one measured cost.  tests/bench/bench-sim-host.sh
# prints the same ratio with longer runs.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip sim-host "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip sim-host "jq is not installed"; done_tests; }
[ -r /sys/devices/system/cpu/online ] || { skip sim-host "no sysfs CPU topology here"; done_tests; }

# The kernel model nearest the running kernel.  A 6.17/6.18 stable kernel
# whose BTF has no hb->priv carries a734d9fca84e: its private path is 7.2's.
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
K=$(host_kernel)
echo "# kernel $(uname -r): modelled as $K"

# real N: median over 3 runs of ops per CPU-second
real() {
	local n=$1 i
	for i in 1 2 3; do
		"$HITMAP" bench futex-hash -t "$n" -r 1 -s --json 2>/dev/null |
			jq -r 'select(.cpu_secs > 0) | .total_ops / .cpu_secs' || return 1
	done | sort -g | sed -n 2p
}
model() { "$HITMAP" simulate --preset host --kernel "$K" --threads "$@" --json | jq -r '.ops_per_sec_thread'; }
inband() { awk -v r="$1" 'BEGIN { exit !(r > 0.8 && r < 1.25) }'; }

for n in 1 2; do
	if [ "$n" -gt "$(nproc)" ]; then
		skip sim-host-$n "this machine has $(nproc) CPU(s)"
		continue
	fi
	r=$(real "$n")
	if [ -z "$r" ]; then
		skip sim-host-$n "hitmap bench futex-hash -t $n did not run here"
		continue
	fi
	m=$(model "$n") || { fail sim-host-$n "simulate --preset host --threads $n failed"; continue; }
	ratio=$(awk -v m="$m" -v r="$r" 'BEGIN { printf "%.3f", m / r }')
	echo "# $n thread(s): real $(printf '%.0f' "$r") ops per CPU-second, model $(printf '%.0f' "$m"): ratio $ratio"
	inband "$ratio" && pass sim-host-$n-within-25pct ||
		fail sim-host-$n-within-25pct "model/real $ratio (model $m, real $r ops per CPU-second)"
	if [ "$n" = 1 ]; then
		# the control: the measured syscall cost tripled must leave the band
		sc=$("$HITMAP" simulate --preset host --kernel "$K" --threads 1 --ops 100 --truth "$TMP/t.json" >/dev/null &&
			jq -r '.latency.syscall // empty' "$TMP/t.json")
		if [ -n "$sc" ]; then
			c=$(model 1 --latency "syscall=$((sc * 3))")
			cr=$(awk -v m="$c" -v r="$r" 'BEGIN { printf "%.3f", m / r }')
			echo "# control, syscall $sc -> $((sc * 3)) cycles: ratio $cr"
			inband "$cr" && fail sim-host-control "a tripled syscall cost still gives $cr: the band decides nothing" ||
				pass sim-host-control
		else
			fail sim-host-control "the truth JSON has no latency.syscall"
		fi
	fi
done
done_tests
