#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap simulate against published results.  The model's costs come from
# published hardware figures and are set once for every experiment (see
# hitmap-simulate(1)); nothing here is tuned to these numbers.
#  - a734d9fca84e "futex: Optimize futex hash bucket access patterns" (Peter
#    Zijlstra, June 2026, v7.2): 2-socket Skylake, 112 threads, perf bench
#    futex hash: autosize (512 buckets) 646,390 -> 903,371 ops/s (+39.7%),
#    -b 512 715,687 -> 995,943 (+39.2%), -b 256 464,395 -> 587,014 (+26.4%),
#    shared (-S, global hash) 1,571,857 -> 1,641,435 (+4.4%).  Base: 6.18's code path
#    (hb->priv read in futex_hash and futex_hash_put; 6.19..7.1 carry it
#    unchanged as far as the notes go), patched: 7.2.
#  - LKP 202507160223.2a483e8b-lkp@intel.com: v6.16-rc4 -> private hash
#    compiled out (6.16 final), -S, 192 threads, lkp-srf-2sp2: ops/s +1.9%.
set -u
HITMAP=${HITMAP:-$PWD/build/hitmap}
command -v jq >/dev/null || { echo "bench-sim-published: jq is not installed"; exit 0; }
ops() { "$HITMAP" simulate "$@" --json | jq '.ops_per_sec_thread'; }
line() {
	local what=$1 pub=$2 base=$3 new=$4; shift 4
	local a b
	a=$(ops "$@" --kernel "$base") && b=$(ops "$@" --kernel "$new") || {
		echo "bench-sim-published: simulate $* failed"; exit 1; }
	awk -v w="$what" -v a="$a" -v b="$b" -v p="$pub" -v k="$base -> $new" 'BEGIN {
		m = 100 * (b - a) / a; d = m - p; if (d < 0) d = -d
		printf "sim %-34s %-16s %9.0f -> %9.0f ops/s/thread: model %+6.1f%%, published %+6.1f%% (%4.1f pp %s)\n",
			w, k, a, b, m, p, d, d <= 10 ? "within 10" : "OUTSIDE 10"
	}'
}
for x in "" --read-migrates; do
	[ -n "$x" ] && echo "with $x (a load of a line modified elsewhere takes it: load then RMW is one transfer):"
	line "a734d9fca84e skx 112t autosize" 39.7 6.18 7.2 --preset skx $x
	line "a734d9fca84e skx 112t -b 512" 39.2 6.18 7.2 --preset skx -b 512 $x
	line "a734d9fca84e skx 112t -b 256" 26.4 6.18 7.2 --preset skx -b 256 $x
	line "a734d9fca84e skx 112t shared" 4.4 6.18 7.2 --preset skx --shared $x
	line "LKP 2a483e8b srf 192t -S" 1.9 6.16-rc4 6.16 --preset srf --shared $x
done
# the bucket-count sensitivity behind the private-hash gaps: 7.2, -b 256 -> -b 512
a=$(ops --preset skx --kernel 7.2 -b 256) && b=$(ops --preset skx --kernel 7.2 -b 512) &&
	awk -v a="$a" -v b="$b" 'BEGIN { printf "sim 7.2 skx 112t -b 256 -> -b 512: model %+.1f%%, published %+.1f%% (587,014 -> 995,943)\n", 100 * (b - a) / a, 69.7 }'
# the bucket lock's contention behind it (queued spinlock: pending bit, MCS queue, hand-off)
for b in 256 512; do
	"$HITMAP" simulate --preset skx --kernel 7.2 -b "$b" --json | jq -r --arg b "$b" \
		'"sim 7.2 skx 112t -b \($b): \(.lock_contended * 1000 / .ops | floor / 10)% of bucket lock acquisitions contended, \(if .lock_contended > 0 then (.lock_wait_cycles / .lock_contended | floor) else 0 end) cycles waited each"'
done
