#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The perf.data writer.  hm-gen writes 100k and 1M memory samples (peak RSS
# must not grow with samples); then the same 1M-sample file is read and
# written again side by side: hitmap's reader + writer (hitmap convert) against
# perf's (perf inject).
set -u
B=$PWD/${HITMAP_BUILD:-build}/tools
HITMAP=${HITMAP:-$PWD/${HITMAP_BUILD:-build}/hitmap}
T=${BENCH_TMP:-/tmp}
if [ ! -x "$B/hm-gen" ] || [ ! -x "$HITMAP" ]; then
	echo "bench-writer: SKIP: no $B/hm-gen or $HITMAP (make tests first)"
	exit 0
fi

measure() {	# measure CMD...: prints "seconds maxrss_kb"
	/usr/bin/time -f '%e %M' -o "$T/w.time" "$@" >/dev/null 2>&1 || echo "bench-writer: $1 failed" >&2
	cat "$T/w.time"
}

read -r s100k r100k < <(measure "$B/hm-gen" -o "$T/w100k.data" -n 100000)
read -r s1m r1m < <(measure "$B/hm-gen" -o "$T/w1m.data" -n 1000000)
size=$(stat -c %s "$T/w1m.data")
echo "hm-gen write 100k samples: ${s100k} s, peak RSS ${r100k} kB"
echo "hm-gen write 1M samples:   ${s1m} s, peak RSS ${r1m} kB, $((size / 1000000)) MB"
awk -v a="$r100k" -v b="$r1m" 'BEGIN { printf "ratio writer RSS 1M/100k = %.2f (flat is 1.00)\n", b / a }'

# perf 6.1 inject indexes its feat_ops[] with every set feature bit and
# crashes on bits >= 32, so both sides copy the file without HM_FEAT_HITMAP.
"$B/hm-gen" -o "$T/w1m.data" -n 1000000 --no-meta >/dev/null
read -r sh rh < <(measure "$HITMAP" convert -i "$T/w1m.data" -o "$T/w1m.hm.data")
echo "hitmap convert (read+write) 1M samples: ${sh} s, peak RSS ${rh} kB"
if command -v perf >/dev/null 2>&1; then
	read -r sp rp < <(measure perf inject -i "$T/w1m.data" -o "$T/w1m.perf.data")
	echo "perf inject (read+write) 1M samples: ${sp} s, peak RSS ${rp} kB"
	awk -v a="$sh" -v b="$sp" 'BEGIN { if (a < 0.01) a = 0.01; printf "ratio writer copy: perf inject / hitmap convert = %.1fx faster\n", b / a }'
else
	echo "perf not installed: no side-by-side ratio"
fi
rm -f "$T"/w100k.data "$T"/w1m.data "$T"/w1m.hm.data "$T"/w1m.perf.data "$T"/w.time
