#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Symbol resolution speed: record a -g -O1 program with perf (cpu-clock,
# ~100k samples), then time `perf script -F ip,sym,dso` against hitmap's
# reader + hm_maps + hm_symbols (tests/tools/hm-symres --dso), and the same
# with source lines (perf script -F ip,sym,srcline vs hm-symres --lines).
set -u
B=${HITMAP_BUILD:-build}
SYMRES=$PWD/$B/tools/hm-symres
T=${BENCH_TMP:-/tmp}/symbols
mkdir -p "$T"
if [ ! -x "$SYMRES" ] || ! command -v perf >/dev/null || ! command -v cc >/dev/null; then
	echo "SKIP bench-symbols: needs $SYMRES, perf and cc"; exit 0
fi
cat >"$T/prog.c" <<'C'
#include <stdio.h>
int counter = 5;
static inline __attribute__((always_inline)) int add_one(int x) { counter += x; return counter * 3; }
__attribute__((noinline)) int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += add_one(i); return s; }
int main(int argc, char **argv) { long r = 0; for (int k = 0; k < 6000 * argc; k++) r += work(10000); printf("%ld\n", r); return 0; }
C
cc -g -O1 -o "$T/prog" "$T/prog.c" || exit 1
if ! perf record -N -q -e cpu-clock -c 10000 -o "$T/perf.data" -- "$T/prog" 1 >/dev/null 2>&1; then
	echo "SKIP bench-symbols: perf record failed"; exit 0
fi
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
n=$("$SYMRES" "$T/perf.data" | wc -l)
p1=$(secs perf script -i "$T/perf.data" -F ip,sym,dso)
h1=$(secs "$SYMRES" "$T/perf.data" --dso)
p2=$(secs perf script -i "$T/perf.data" -F ip,sym,srcline)
h2=$(secs "$SYMRES" "$T/perf.data" --lines)
printf 'symbols: %d samples; ip,sym,dso: perf script %.3f s, hitmap %.3f s, ratio %.1fx\n' "$n" "$p1" "$h1" "$(echo "$p1 / $h1" | bc -l)"
printf 'symbols: %d samples; ip,sym,srcline: perf script %.3f s, hitmap %.3f s, ratio %.1fx\n' "$n" "$p2" "$h2" "$(echo "$p2 / $h2" | bc -l)"
"$SYMRES" "$T/perf.data" --bench | sed 's/^/symbols: resolve /'
rm -rf "$T"
