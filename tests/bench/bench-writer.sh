#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The perf.data writer: hm-gen writes 100k and 1M memory samples (peak RSS
# must not grow with samples), timed side by side with perf inject copying
# the same 1M-sample file (perf's own reader + writer).
set -u
GEN=$PWD/${HITMAP_BUILD:-build}/tools/hm-gen
T=${BENCH_TMP:-/tmp}
if [ ! -x "$GEN" ]; then
	echo "bench-writer: SKIP: no $GEN (make tests first)"
	exit 0
fi

measure() {	# measure OUTFILE CMD...: prints "seconds maxrss_kb"
	local out=$1; shift
	/usr/bin/time -f '%e %M' -o "$out" "$@" >/dev/null 2>&1
	cat "$out"
}

read -r s100k r100k < <(measure "$T/w.time" "$GEN" -o "$T/w100k.data" -n 100000)
read -r s1m r1m < <(measure "$T/w.time" "$GEN" -o "$T/w1m.data" -n 1000000)
size=$(stat -c %s "$T/w1m.data")
echo "hm-gen 100k samples: ${s100k} s, peak RSS ${r100k} kB"
echo "hm-gen 1M samples:   ${s1m} s, peak RSS ${r1m} kB, $((size / 1000000)) MB"
if command -v perf >/dev/null 2>&1; then
	# perf 6.1 inject indexes its feat_ops[] with every set feature bit and
	# crashes on bits >= 32 such as HM_FEAT_HITMAP (200): clear that bit
	# (byte 72 + 200/8, bit 0) in the copy perf inject reads.
	printf '\000' | dd of="$T/w1m.data" bs=1 seek=97 conv=notrunc 2>/dev/null
	read -r sp rp < <(measure "$T/w.time" perf inject -i "$T/w1m.data" -o "$T/w1m.inject.data")
	echo "perf inject (read+write) 1M samples: ${sp} s, peak RSS ${rp} kB"
	awk -v a="$s1m" -v b="$sp" 'BEGIN { if (a < 0.01) a = 0.01; printf "ratio writer: perf inject / hm-gen = %.1fx\n", b / a }'
else
	echo "perf not installed: no side-by-side ratio"
fi
awk -v a="$r100k" -v b="$r1m" 'BEGIN { printf "ratio writer RSS 1M/100k = %.2f (flat is 1.00)\n", b / a }'
rm -f "$T"/w100k.data "$T"/w1m.data "$T"/w1m.inject.data "$T"/w.time
