#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap report against perf c2c report on 1M samples over 100k cache lines:
# wall time and peak RSS side by side, and the two ratios.
# Target: hitmap >= 10x faster with <= 1/10 of perf's peak RSS.
set -u
HITMAP=${HITMAP:-$PWD/${HITMAP_BUILD:-build}/hitmap}
GEN=${HM_GEN:-$(dirname "$HITMAP")/tools/hm-gen}
T=${BENCH_TMP:-$(mktemp -d /tmp/hitmap-bench.XXXXXX)}
N=${BENCH_C2C_SAMPLES:-1000000}
L=${BENCH_C2C_LINES:-100000}
command -v perf >/dev/null || { echo "bench-c2c: SKIP: perf not installed"; exit 0; }
[ -x "$GEN" ] || { echo "bench-c2c: SKIP: $GEN not built (make tests)"; exit 0; }
[ -x /usr/bin/time ] || { echo "bench-c2c: SKIP: /usr/bin/time missing"; exit 0; }
f=$T/c2c-bench.data
"$GEN" -o "$f" -n "$N" -l "$L" --nodes 2 --cpus 16 --seed 7 --phys >/dev/null || { echo "bench-c2c: hm-gen failed"; exit 1; }
echo "input: $(du -h "$f" | cut -f1) perf.data, $N samples over $L lines (hm-gen -n $N -l $L --nodes 2 --cpus 16 --phys)"

# measure NAME CMD...: prints "wall_secs maxrss_kb cpu_secs"
measure() {
	local out=$T/time.$1; shift
	/usr/bin/time -f "%e %M %U %S" -o "$out" "$@" >/dev/null 2>"$T/err.txt" || { echo "FAILED: $* ($(tail -n 2 "$T/err.txt" | tr '\n' ' '))" >&2; echo "0 0 0"; return; }
	awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$out"
}
# warm the page cache
cat "$f" >/dev/null
# best of two runs each (the machine may be shared): the lower wall time, its CPU and RSS
best() {
	local a b
	a=$(measure "$@"); b=$(measure "$@")
	printf '%s\n%s\n' "$a" "$b" | sort -n -k1,1 | head -n 1
}
read -r pt pm pc < <(best perf perf c2c report --stdio -i "$f")
read -r ht hm hc < <(best hitmap "$HITMAP" report -i "$f")
printf '%-34s %8.2f s wall %8.2f s cpu %10d KB peak RSS\n' "perf c2c report --stdio" "$pt" "$pc" "$pm"
printf '%-34s %8.2f s wall %8.2f s cpu %10d KB peak RSS\n' "hitmap report" "$ht" "$hc" "$hm"
awk -v pt="$pt" -v ht="$ht" -v pc="$pc" -v hc="$hc" -v pm="$pm" -v hm="$hm" 'BEGIN {
	if (ht <= 0) ht = 0.01; if (hc <= 0) hc = 0.01; if (hm <= 0) hm = 1;
	printf "ratio: hitmap report is %.1fx faster than perf c2c report (wall; %.1fx in CPU time; target >= 10x)\n", pt / ht, pc / hc;
	printf "ratio: hitmap report peak RSS is 1/%.1f of perf c2c report (target <= 1/10)\n", pm / hm;
}'
[ -z "${BENCH_TMP:-}" ] && rm -rf "$T"
exit 0
