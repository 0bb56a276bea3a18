#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap script vs perf script on a 1M-sample memory-sample file (~90 MB)
# written by hm-gen, side by side; plus hitmap's peak RSS at 100k and 1M
# samples (it must not grow with the number of samples).
# Env (from tests/bench/run.sh): HITMAP, HITMAP_BUILD, BENCH_TMP.
set -u
B=${HITMAP_BUILD:-build}
HITMAP=${HITMAP:-$PWD/$B/hitmap}
T=${BENCH_TMP:-$(mktemp -d)}
GEN=$B/tools/hm-gen
RUNS=${BENCH_RUNS:-3}

if [ ! -x "$GEN" ]; then
	echo "bench-script: SKIP: $GEN not built (make O=$B tests)"
	exit 0
fi
command -v perf >/dev/null || { echo "bench-script: SKIP: no perf"; exit 0; }
TIME=/usr/bin/time
[ -x $TIME ] || { echo "bench-script: SKIP: no /usr/bin/time (apt-get install time)"; exit 0; }

"$GEN" -o "$T/m1m.data" -n 1000000 -l 100000 >/dev/null || { echo "bench-script: hm-gen failed"; exit 1; }
"$GEN" -o "$T/m100k.data" -n 100000 -l 100000 >/dev/null || { echo "bench-script: hm-gen failed"; exit 1; }
if ! perf report --stats -i "$T/m1m.data" >/dev/null 2>"$T/perf.err"; then
	echo "bench-script: FAIL: perf cannot read hm-gen's file: $(head -c 200 "$T/perf.err")"
	exit 1
fi
if ! "$HITMAP" stat -i "$T/m1m.data" >/dev/null 2>"$T/hm.err"; then
	echo "bench-script: FAIL: hitmap cannot read hm-gen's file: $(head -c 200 "$T/hm.err")"
	exit 1
fi

# best-of-N wall time, its CPU time (user+sys) and peak RSS: "wall cpu rss_kb"
measure() {
	local best= line w u s m
	for ((i = 0; i < RUNS; i++)); do
		$TIME -f '%e %U %S %M' -o "$T/time.out" "$@" >/dev/null 2>"$T/err.out"
		read -r w u s m < <(tail -n 1 "$T/time.out")
		line="$w $(echo "$u + $s" | bc) $m"
		if [ -z "$best" ] || [ "$(echo "$w < ${best%% *}" | bc)" = 1 ]; then best=$line; fi
	done
	echo "$best"
}

read -r hw hc hm <<<"$(measure "$HITMAP" script -i "$T/m1m.data")"
read -r pw pc pm <<<"$(measure perf script -i "$T/m1m.data")"
read -r h1w h1c h1m <<<"$(measure "$HITMAP" script -i "$T/m100k.data")"
n=$("$HITMAP" script -i "$T/m1m.data" | wc -l)
size=$(stat -c %s "$T/m1m.data")
echo "script 1M samples ($n lines, $((size / 1000000)) MB file, best of $RUNS):"
printf '  hitmap script: %6.2f s wall  %6.2f s cpu  %7d KB peak RSS\n' "$hw" "$hc" "$hm"
printf '  perf script:   %6.2f s wall  %6.2f s cpu  %7d KB peak RSS\n' "$pw" "$pc" "$pm"
wr=$(echo "scale=1; $pw / ($hw + 0.001)" | bc)
cr=$(echo "scale=1; $pc / ($hc + 0.001)" | bc)
echo "ratio script: perf/hitmap wall ${wr}x, cpu ${cr}x (target >= 5x)"
printf 'rss script: hitmap peak RSS %d KB at 100k samples, %d KB at 1M samples (%+d KB)\n' \
	"$h1m" "$hm" "$((hm - h1m))"
