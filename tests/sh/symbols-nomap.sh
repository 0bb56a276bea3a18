#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perf c2c's "No Page Map Rejects" is hitmap's hm_maps__mapped() false: files
# from tests/tools/hm-symmaps-gen (kernel/module/KSYMBOL maps, MMAP and MMAP2,
# overlaps, threads, FORK, synthesized FORK, EXIT; loads from every pid and
# cpumode at map edges) counted by hm-symres --nomap and by real perf c2c.
. tests/lib.sh
GEN=$PWD/$HITMAP_BUILD/tools/hm-symmaps-gen
SYMRES=$PWD/$HITMAP_BUILD/tools/hm-symres
if [ ! -x "$GEN" ] || [ ! -x "$SYMRES" ]; then skip "symbols nomap" "tools not built (make O=$HITMAP_BUILD tests)"; done_tests; fi
# hm-symres --nomap follows perf 6.1's map lookup: perf 6.1 is the oracle.
# (perf 7.3's c2c report segfaults on the generated edge-case files and counts
# one reject fewer on weight_struct; perf 6.12 agrees with 6.1 on both.)
P61=$(perf_cmd 6.1) || { skip "symbols nomap" "perf 6.1 is not installed (perf-6.1, or Debian 12's perf): no oracle for perf 6.1's map lookup"; done_tests; }
perf() { "$P61" "$@"; }
one() {	# name, generator args...
	local name=$1; shift
	if ! "$GEN" -o "$TMP/f.data" "$@" 2>"$TMP/gen.err"; then fail "$name" "hm-symmaps-gen: $(tail -n1 "$TMP/gen.err")"; return; fi
	local hm perf
	hm=$("$SYMRES" "$TMP/f.data" --nomap 2>"$TMP/hm.err") || { fail "$name" "hm-symres: $(tail -n1 "$TMP/hm.err")"; return; }
	perf=$(perf c2c report --stats -i "$TMP/f.data" 2>&1 | awk '/No Page Map Rejects/ {print $NF}')
	if [ -z "$perf" ]; then fail "$name" "perf c2c report --stats printed no 'No Page Map Rejects'"; return; fi
	if [ "$hm" = "$perf" ] && [ "$hm" -gt 0 ]; then pass "$name: $hm = perf c2c"
	else fail "$name" "hitmap $hm, perf c2c $perf"; fi
}
one "symbols nomap: fixed edge cases" -n 0
for seed in 1 2 3; do one "symbols nomap: random seed $seed" -n 3000 --seed $seed; done
one "symbols nomap: kernel data after perf loads kallsyms" -n 0 --only 0 0 --probe-kernel-data
# a real file: perf 5.17 on Skylake-SP, 2955 FORK and 6930 MMAP2 records
f=$FIXTURES/perf_data_converter/perf.data.weight_struct
if [ -f "$f" ]; then
	hm=$("$SYMRES" "$f" --nomap) perf=$(perf c2c report --stats -i "$f" 2>&1 | awk '/No Page Map Rejects/ {print $NF}')
	check "symbols nomap: fixture weight_struct ($hm = perf c2c $perf)" test "$hm" = "$perf"
	perf script -i "$f" -F ip,sym,dso 2>/dev/null | awk '{print $1, $2, $3}' >"$TMP/p.txt"
	"$SYMRES" "$f" --dso >"$TMP/h.txt"
	check "symbols fixture weight_struct: ip, symbol, dso = perf script" cmp -s "$TMP/p.txt" "$TMP/h.txt"
else
	skip "symbols nomap: fixture" "$f not found (set HITMAP_FIXTURES)"
fi
done_tests
