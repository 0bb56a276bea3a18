#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap simulate speed: simulated memory accesses per second of CPU time on one
# core (target >= 20 M/s), for the 192-CPU Sierra Forest preset and each era,
# with the perf.data written.  There is no real tool that simulates this; the
# ratio line compares against the 20 M/s target.
#
# What limits it: the run loop's own work (about 250 host instructions per
# access on 6.12: the calendar queue that picks the thread with the earliest
# clock, the coherence model, the sampling counters) and the host cache
# misses of the accesses that leave the simulated L1: the line's 32-byte
# directory entry (state, transfer clock, lock), the
# core's slot (its L1 and L2 copies share one 4-byte slot, in one host line)
# and, for a transfer within a socket, the owner's slot, from a working set
# of about 6 MB on this preset (192 cores x 4096 slots x 4 bytes = 3 MB, plus
# 32 bytes per simulated line).
# A calendar of op starts prefetches them; the rate still follows how much of
# that stays in the host's last-level cache.  Eras with fewer accesses per
# futex operation (6.12: 6, 6.16-rc4: 13, 6.17: 17) spread the misses of the
# bucket line over fewer accesses and run fewer accesses per second.  The
# last line runs the same kernel on 16 CPUs (256 KB of slots) to show it:
# when the two rates differ a lot, the host's cache, not the model's work,
# sets the pace.  The load average is printed because on a shared box other
# processes take that cache.
set -u
HITMAP=${HITMAP:-$PWD/build/hitmap}
command -v jq >/dev/null || { echo "bench-sim: jq is not installed"; exit 0; }
T=${BENCH_TMP:-/tmp}/bench-sim.$$
mkdir -p "$T"
OPS=${SIM_BENCH_OPS:-2000000}
min=
rate() {	# ARGS...: prints "accesses cpu_s M/s"
	local out
	out=$("$HITMAP" simulate "$@" --ops "$OPS" -o "$T/sim.data" --json 2>&1) || {
		echo "bench-sim: simulate $* failed: $out" >&2; return 1; }
	printf '%s\n' "$out" | jq -r '"\(.accesses) \(.cpu_s) \(.accesses_per_sec / 1e6 * 10 | floor / 10)"'
}
echo "host: $(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for k in 6.12 6.16-rc4 6.17 7.3; do
	set -- $(rate --preset srf --kernel $k) || { rm -rf "$T"; exit 1; }
	printf 'sim %-8s srf 192 CPUs: %s accesses in %s s CPU: %s M accesses/s\n' "$k" "$1" "$2" "$3"
	awk -v k="$k" -v r="$3" 'BEGIN { printf "target %-8s >= 20 M accesses/s: %s (%.2f of it)\n", k, ((r + 0 >= 20) ? "met" : "NOT met"), r / 20 }'
	if [ -z "$min" ] || awk -v a="$3" -v b="$min" 'BEGIN { exit !(a < b) }'; then min=$3; fi
done
awk -v m="$min" 'BEGIN { printf "ratio simulate/target: %.2f (slowest era %.1f M accesses/s vs 20 M/s)\n", m / 20, m }'
set -- $(rate --preset srf --cores 8 --kernel 6.12) &&
	printf 'sim 6.12     srf 16 CPUs (small working set): %s M accesses/s\n' "$3"
rm -rf "$T"
