#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap simulate speed: simulated memory accesses per second of CPU time on one
# core (target >= 20 M/s), for the 192-CPU Sierra Forest preset and each era,
# with the perf.data written.  There is no real tool that simulates this; the
# ratio line compares against the 20 M/s target.
set -u
HITMAP=${HITMAP:-$PWD/build/hitmap}
T=${BENCH_TMP:-/tmp}/bench-sim.$$
mkdir -p "$T"
OPS=${SIM_BENCH_OPS:-2000000}
min=
for k in 6.12 6.16-rc4 6.17 7.3; do
	out=$("$HITMAP" simulate --preset srf --kernel $k --ops "$OPS" -o "$T/sim.data" --json 2>&1) || {
		echo "bench-sim: simulate --kernel $k failed: $out"; rm -rf "$T"; exit 1; }
	rate=$(printf '%s\n' "$out" | sed -n 's/.*"accesses_per_sec": *\([0-9.e+]*\).*/\1/p')
	acc=$(printf '%s\n' "$out" | sed -n 's/.*"accesses": *\([0-9]*\).*/\1/p')
	cpu=$(printf '%s\n' "$out" | sed -n 's/.*"cpu_s": *\([0-9.e+-]*\).*/\1/p')
	m=$(awk -v r="$rate" 'BEGIN { printf "%.1f", r / 1e6 }')
	printf 'sim %-5s srf 192 CPUs: %s accesses in %s s CPU: %s M accesses/s\n' "$k" "$acc" "$cpu" "$m"
	if [ -z "$min" ] || awk -v a="$m" -v b="$min" 'BEGIN { exit !(a < b) }'; then min=$m; fi
done
awk -v m="$min" 'BEGIN { printf "ratio simulate/target: %.2f (slowest era %.1f M accesses/s vs 20 M/s)\n", m / 20, m }'
rm -rf "$T"
