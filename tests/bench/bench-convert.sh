#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap convert against perf inject on a 1M-sample file (hm-gen): the plain
# copy side by side (both read and rewrite a file-mode perf.data), then
# hitmap's other forms (pipe, -z, COMPRESSED2, swapped) for scale.  The
# file is hm-gen's default (hitmap metadata after the features, which perf
# inject drops).
set -u
B=$PWD/${HITMAP_BUILD:-build}
T=${BENCH_TMP:-/tmp}
HM=${HITMAP:-$B/hitmap}
if [ ! -x "$B/tools/hm-gen" ] || [ ! -x "$HM" ]; then
	echo "bench-convert: SKIP: no $B/tools/hm-gen or $HM (make tests first)"
	exit 0
fi

measure() {	# measure CMD...: prints "seconds maxrss_kb", the best of 3 runs (shared machine)
	local i best= rss=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %M' -o "$T/c.time" "$@" >/dev/null 2>&1 || echo "bench-convert: $* failed" >&2
		read -r s r <"$T/c.time"
		if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; rss=$r; fi
	done
	echo "$best $rss"
}

"$B/tools/hm-gen" -o "$T/c1m.data" -n 1000000 >/dev/null
size=$(stat -c %s "$T/c1m.data")
echo "input: 1M samples, $((size / 1000000)) MB"
read -r sh rh < <(measure "$HM" convert -i "$T/c1m.data" -o "$T/c1m.hm.data")
echo "hitmap convert -i F -o G (file -> file) 1M samples, best of 3: ${sh} s, peak RSS ${rh} kB"
for form in "--pipe" "-z" "-z --compressed2" "--swap"; do
	read -r s r < <(measure "$HM" convert -i "$T/c1m.data" -o "$T/c1m.f.data" $form)
	echo "hitmap convert $form: ${s} s, peak RSS ${r} kB, $(( $(stat -c %s "$T/c1m.f.data") / 1000000 )) MB"
done
if command -v perf >/dev/null 2>&1; then
	read -r sp rp < <(measure perf inject -i "$T/c1m.data" -o "$T/c1m.perf.data")
	echo "perf inject -i F -o G 1M samples, best of 3: ${sp} s, peak RSS ${rp} kB"
	awk -v a="$sh" -v b="$sp" 'BEGIN { if (a < 0.01) a = 0.01; printf "ratio convert: perf inject / hitmap convert = %.1fx faster\n", b / a }'
else
	echo "perf not installed: no side-by-side ratio"
fi
rm -f "$T"/c1m.data "$T"/c1m.hm.data "$T"/c1m.f.data "$T"/c1m.perf.data "$T"/c.time
