#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap report --by bucket against perf c2c report on the same file of futex
# bucket samples (tests/tools/hm-futex-gen): wall time and peak RSS, and ratios.
# Also times hitmap hash --verify (live, root only): observations per second.
set -u
HITMAP=${HITMAP:-$PWD/${HITMAP_BUILD:-build}/hitmap}
GEN=$(dirname "$HITMAP")/tools/hm-futex-gen
T=${BENCH_TMP:-$(mktemp -d /tmp/hitmap-bench.XXXXXX)}
N=${BENCH_FUTEX_SAMPLES:-500000}
command -v perf >/dev/null || { echo "bench-futex-buckets: SKIP: perf not installed"; exit 0; }
[ -x "$GEN" ] || { echo "bench-futex-buckets: SKIP: $GEN not built (make tests)"; exit 0; }
[ -x /usr/bin/time ] || { echo "bench-futex-buckets: SKIP: /usr/bin/time missing"; exit 0; }
f=$T/futex-buckets.data
"$GEN" -o "$f" -e "$T/futex-buckets.exp" -n "$N" >/dev/null || { echo "bench-futex-buckets: hm-futex-gen failed"; exit 1; }
echo "input: $(du -h "$f" | cut -f1) perf.data, $N samples on 12 futex buckets + noise (hm-futex-gen -n $N)"
measure() {
	local out=$T/time.$1; shift
	/usr/bin/time -f "%e %M" -o "$out" "$@" >/dev/null 2>"$T/err.txt" || { echo "FAILED: $* ($(tail -n 2 "$T/err.txt" | tr '\n' ' '))" >&2; echo "0 0"; return; }
	cat "$out"
}
cat "$f" >/dev/null
read -r pt pm < <(measure perf perf c2c report --stdio -i "$f")
read -r ht hm < <(measure hitmap "$HITMAP" report -i "$f" --by bucket)
printf '%-34s %8.2f s %10d KB\n' "perf c2c report --stdio" "$pt" "$pm"
printf '%-34s %8.2f s %10d KB\n' "hitmap report --by bucket" "$ht" "$hm"
awk -v pt="$pt" -v ht="$ht" -v pm="$pm" -v hm="$hm" 'BEGIN {
	if (ht <= 0) ht = 0.01; if (hm <= 0) hm = 1;
	printf "ratio: hitmap report --by bucket is %.1fx faster than perf c2c report\n", pt / ht;
	printf "ratio: hitmap report --by bucket peak RSS is 1/%.1f of perf c2c report\n", pm / hm;
}'
# many futex words (LKP's 192 threads x 1024 futexes are 196k): the other
# objects' table by hash, not a walk of the objects per sample
w=$T/futex-words.data
if "$HITMAP" simulate --sockets 2 --kernel 6.16 --period 1 --futexes 16384 --ops 600000 -o "$w" >/dev/null 2>&1; then
	cat "$w" >/dev/null
	read -r pt pm < <(measure perf perf c2c report --stdio -i "$w")
	read -r ht hm < <(measure hitmap "$HITMAP" report -i "$w" --by bucket)
	nobj=$("$HITMAP" report -i "$w" --by bucket --csv 2>/dev/null | grep -c '^object:')
	echo "input: $(du -h "$w" | cut -f1) perf.data, $nobj futex objects (hitmap simulate --futexes 16384 --ops 600000 --period 1)"
	printf '%-34s %8.2f s %10d KB\n' "perf c2c report --stdio" "$pt" "$pm"
	printf '%-34s %8.2f s %10d KB\n' "hitmap report --by bucket" "$ht" "$hm"
	awk -v pt="$pt" -v ht="$ht" 'BEGIN { if (ht <= 0) ht = 0.01
		printf "ratio: hitmap report --by bucket is %.1fx faster than perf c2c report (many futex words)\n", pt / ht }'
	rm -f "$w"
else
	echo "many futex words: hitmap simulate failed"
fi
bpf=$T/verify.bpf.o
if [ "$(id -u)" = 0 ] && command -v clang >/dev/null &&
   clang -O2 -g -target bpf -I/usr/include/$(uname -m)-linux-gnu -c src/futex/verify.bpf.c -o "$bpf" 2>/dev/null; then
	s=$(date +%s.%N)
	if "$HITMAP" hash --verify --count 1000 --bpf-obj "$bpf" >"$T/v.txt" 2>&1; then
		e=$(date +%s.%N)
		awk -v s="$s" -v e="$e" 'BEGIN { printf "hitmap hash --verify: 2000 live observations in %.2f s (%.0f/s)\n", e - s, 2000 / (e - s) }'
	else
		echo "hitmap hash --verify: not available here: $(head -1 "$T/v.txt")"
	fi
fi
[ -z "${BENCH_TMP:-}" ] && rm -rf "$T"
exit 0
