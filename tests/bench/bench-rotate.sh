#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# report --threads N, a range a CPU, with the ranges' threads turned round
# the CPUs (the default) and not (HITMAP_ROTATE_MS=0), in turn, each round
# in the other order; each round first times a spin loop pinned to each CPU
# (the CPUs' speeds then: a VM's vCPUs run up to 2.8x apart for minutes,
# which the guest cannot see) and one thread, unpinned.  Prints each round
# (the pass's wall time and the gap between the ranges' ends, HITMAP_DEBUG)
# and the means over the rounds whose CPUs ran alike and unlike (the spin
# loops 1.3x or more apart).
#
# BENCH_RUNS rounds (default 6); BENCH_ROT_SAMPLES samples over 200k lines
# (default 20M, 1.7 GB, made here and deleted after: a pass of 2.5-4 s on
# two CPUs, some 50 turns).
set -u
HITMAP=${HITMAP:-$PWD/${HITMAP_BUILD:-build}/hitmap}
TOOLS=$(dirname "$HITMAP")/tools
# make bench's folder, or one of its own, removed at the end
T=${BENCH_TMP:-}
OWN_T=
[ -n "$T" ] || { T=$(mktemp -d) && OWN_T=$T; }
trap '[ -z "$OWN_T" ] || rm -rf "$OWN_T"' EXIT
RUNS=${BENCH_RUNS:-6}
N=${BENCH_ROT_SAMPLES:-20000000}
. "$(dirname "${BASH_SOURCE[0]}")/cpus.sh"	# CPUS, FIRST
read -r -a CPU <<<"$CPUS"
NC=${#CPU[@]}

[ -x "$TOOLS/hm-gen" ] || { echo "bench-rotate: SKIP: $TOOLS/hm-gen not built (make tests)"; exit 0; }
if [ "$NC" -lt 2 ] || [ "$NC" -gt 64 ]; then
	echo "bench-rotate: SKIP: $NC CPUs allowed (the threads turn round 2 to 64)"
	exit 0
fi
mkdir -p "$T"
F=$T/rotate.data
"$TOOLS/hm-gen" -o "$F" -n "$N" -l 200000 --nodes 2 --cpus 16 --seed 7 --phys >/dev/null 2>"$T/rot.err" ||
	{ echo "bench-rotate: SKIP: hm-gen failed: $(tail -n 1 "$T/rot.err")"; rm -f "$F"; exit 0; }

# spin CPU: seconds of a fixed loop pinned to CPU
spin() {
	local TIMEFORMAT=%R
	{ time taskset -c "$1" awk 'BEGIN { for (i = 0; i < 4000000; i++) s += i }'; } 2>&1
}
# run ENV...: the pass's wall time and the gap between the ranges' ends
run() {
	env "$@" HITMAP_DEBUG=1 /usr/bin/time -f "wall %e" "$HITMAP" report --threads "$NC" -i "$F" --stdio \
		2>&1 >/dev/null |
	awk '/report: range [0-9]+: .* s CPU/ { split($(NF - 1), a, "-"); e[n++] = a[2] }
	     /turned round/ { turned = 1 }
	     /^wall/ { w = $2 }
	     END { lo = hi = e[0]; for (i = 1; i < n; i++) { if (e[i] < lo) lo = e[i]; if (e[i] > hi) hi = e[i] }
		   printf "%s %.3f %d %d", w, hi - lo, n, turned }'
}

echo "bench-rotate: $N samples over 200k lines ($(du -m "$F" | cut -f1) MB), --threads $NC on CPUs $CPUS, $RUNS rounds"
cat "$F" >/dev/null
for i in $(seq "$RUNS"); do
	lo=; hi=
	for c in "${CPU[@]}"; do
		s=$(spin "$c")
		[ -z "$lo" ] || awk -v a="$s" -v b="$lo" 'BEGIN { exit !(a < b) }' && lo=$s
		[ -z "$hi" ] || awk -v a="$s" -v b="$hi" 'BEGIN { exit !(a > b) }' && hi=$s
	done
	one=$( { /usr/bin/time -f "%e" "$HITMAP" report --threads 1 -i "$F" --stdio >/dev/null; } 2>&1 | tail -n 1)
	if [ $((i % 2)) = 1 ]; then
		read -r woff goff noff toff < <(run HITMAP_ROTATE_MS=0)
		read -r won gon non ton < <(run)
	else
		read -r won gon non ton < <(run)
		read -r woff goff noff toff < <(run HITMAP_ROTATE_MS=0)
	fi
	if [ "$noff" != "$NC" ] || [ "$non" != "$NC" ] || [ "$toff" != 0 ] || [ "$ton" != 1 ]; then
		echo "  round $i: not $NC ranges, or not turned as asked (off: $noff ranges, turned $toff; on: $non, $ton)"
		continue
	fi
	echo "  round $i: spin loop ${lo}-${hi} s; one thread $one s; kept $woff s (ends $goff s apart), turned $won s (ends $gon s apart)" |
		tee -a "$T/rot.rounds"
done
rm -f "$F"
[ -f "$T/rot.rounds" ] || { echo "bench-rotate: no round ran"; exit 0; }
sed 's/.*loop \([0-9.]*\)-\([0-9.]*\) s; one thread \([0-9.]*\) s; kept \([0-9.]*\) s (ends \([0-9.]*\) s apart), turned \([0-9.]*\) s (ends \([0-9.]*\) s apart)/\1 \2 \3 \4 \5 \6 \7/' \
	"$T/rot.rounds" |
awk '{ k = ($2 >= 1.3 * $1) ? "unlike" : "alike"; n[k]++; one[k] += $3; off[k] += $4; goff[k] += $5; on[k] += $6; gon[k] += $7
       if ($6 < $4) w[k]++ }
     END { for (k in n)
		printf "  CPUs %s, %d round(s): turned %.2f s against kept %.2f s (%.2fx), faster in %d; the ranges end %.3f s apart against %.3f s; one thread %.2f s (%.2fx turned, %.2fx kept)\n",
		       k, n[k], on[k] / n[k], off[k] / n[k], off[k] / on[k], w[k], gon[k] / n[k], goff[k] / n[k],
		       one[k] / n[k], one[k] / on[k], one[k] / off[k] }'
rm -f "$T/rot.rounds"
