#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap report: options, errors, --lkp against perf's text the way LKP
# parses it, and the precise categories (each sample in exactly one; an
# Intel remote HITM counted once where perf counts it twice).
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen

check "report --help" "$HITMAP" report --help
"$HITMAP" report --help | grep -q -- '--futex-table' && pass "help lists --futex-table" || fail "help lists --futex-table" "missing"
if "$HITMAP" report -i "$TMP/none.data" >"$TMP/o" 2>"$TMP/e"; then
	fail "missing file fails" "exit 0"
else
	[ "$(wc -l <"$TMP/e")" -ge 1 ] && grep -q "none.data" "$TMP/e" && pass "missing file: one-line error naming the file" ||
		fail "missing file: one-line error naming the file" "$(cat "$TMP/e")"
fi
"$HITMAP" report -d bogus -i x >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -ne 0 ] && grep -q "unknown display" "$TMP/e" && pass "bad -d rejected" || fail "bad -d rejected" "rc=$rc $(cat "$TMP/e")"
"$HITMAP" report --futex-table nonsense -i x >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -ne 0 ] && pass "bad --futex-table rejected" || fail "bad --futex-table rejected" "rc=$rc"

if [ ! -x "$GEN" ]; then skip "report on hm-gen files" "$GEN not built"; done_tests; fi
f=$TMP/a.data
"$GEN" -o "$f" -n 5000 -l 200 --nodes 2 --cpus 8 --seed 5 --mix all >/dev/null 2>&1 || fail "hm-gen" "failed"

# truncated and corrupt input: an error, no crash
head -c 3000 "$f" >"$TMP/trunc.data"
"$HITMAP" report -i "$TMP/trunc.data" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/e")" -le 3 ] && pass "truncated file: exit 1 with a short error" ||
	fail "truncated file: exit 1 with a short error" "rc=$rc $(head -c 300 "$TMP/e")"
head -c 100000 "$f" >"$TMP/cut.data"
"$HITMAP" report -i "$TMP/cut.data" --stats >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -le 1 ] && pass "file cut mid-data: no crash (rc=$rc)" || fail "file cut mid-data: no crash" "rc=$rc"

# every sample in exactly one hitmap category
"$HITMAP" report -i "$f" --stats --json >"$TMP/j" 2>/dev/null
check "json parses" jq -e .perf_c2c "$TMP/j"
sum=$(jq '[.hitmap[]] | add' "$TMP/j"); tot=$(jq .perf_c2c.nr_entries "$TMP/j")
[ "$sum" = "$tot" ] && [ "$tot" -eq 5000 ] && pass "hitmap categories sum to every sample ($tot)" ||
	fail "hitmap categories sum to every sample" "sum=$sum total=$tot"

# Intel Skylake: perf counts remote HITM as remote DRAM too; hitmap counts it once
fs=$TMP/skl.data
"$GEN" -o "$fs" -n 5000 -l 200 --nodes 2 --cpus 8 --seed 6 --mix intel-skl --stores 0 --noaddr 0 >/dev/null 2>&1
"$HITMAP" report -i "$fs" --stats --json >"$TMP/s" 2>/dev/null
rh=$(jq .perf_c2c.rmt_hitm "$TMP/s"); hr=$(jq .hitmap.hitm_remote "$TMP/s")
rd=$(jq .perf_c2c.rmt_dram "$TMP/s"); dr=$(jq .hitmap.dram_remote "$TMP/s"); hit=$(jq .hitmap.hit_remote "$TMP/s")
[ "$rh" -gt 0 ] && [ "$rh" = "$hr" ] && pass "skl remote HITM: hitmap $hr = perf $rh" || fail "skl remote HITM" "perf $rh hitmap $hr"
# perf's rmt_dram holds remote DRAM + remote HITM + remote forwards/L4; hitmap's dram_remote only the DRAM
[ "$rd" -gt "$dr" ] && [ "$rd" -eq $((dr + hr + hit)) ] && pass "skl: perf rmt_dram $rd = hitmap dram_remote $dr + hitm_remote $hr + hit_remote $hit" ||
	fail "skl remote DRAM double count" "perf $rd hitmap dram $dr hitm $hr hit $hit"

# AMD Zen2: perf counts a local-cache HITM as local AND remote
fz=$TMP/zen2.data
"$GEN" -o "$fz" -n 5000 -l 200 --nodes 2 --cpus 8 --seed 7 --mix amd-zen2 >/dev/null 2>&1
"$HITMAP" report -i "$fz" --stats --json >"$TMP/z" 2>/dev/null
th=$(jq .perf_c2c.tot_hitm "$TMP/z"); hh=$(jq '.hitmap.hitm_local + .hitmap.hitm_xdie + .hitmap.hitm_remote' "$TMP/z")
lh=$(jq .perf_c2c.lcl_hitm "$TMP/z")
[ "$lh" -gt 0 ] && [ "$th" -eq $((hh + lh)) ] && pass "zen2: perf tot_hitm $th = hitmap HITM $hh + double-counted $lh" ||
	fail "zen2 HITM double count" "perf tot $th lcl $lh hitmap $hh"

# --lkp --perf-compat V equals what LKP's parser (lkp-tests stats/perf-c2c)
# takes from perf V's `c2c report -NN --stats`, for every installed perf
lkp_parse() {
	awk '
		/ Load Local HITM/ { print "perf-c2c.HITM.local: " $NF; l = $NF; next }
		/ Load Remote HITM/ { print "perf-c2c.HITM.remote: " $NF; r = $NF; next }
		/ Load Remote HIT/ { print "perf-c2c.HIT.remote: " $NF; next }
		/ Load Local DRAM/ { print "perf-c2c.DRAM.local: " $NF; next }
		/ Load Remote DRAM/ { print "perf-c2c.DRAM.remote: " $NF; next }
		END { print "perf-c2c.HITM.total: " l + r }' "$1"
}
# also a.data as perf writes it (the first installed perf's inject: perf's
# bytes, none of hitmap's metadata), so --lkp's counts-only pass is checked on
# a file hitmap did not write
lkp_files=("$f" "$TMP/lkp-random.data")
for v in $(oracle_perfs); do
	perfv "$v" inject -i "$f" -o "$TMP/lkp-inject.data" >/dev/null 2>&1 && lkp_files+=("$TMP/lkp-inject.data") ||
		fail "perf $v inject of a.data" "for --lkp on a file perf wrote"
	break
done
for lf in "${lkp_files[@]}"; do
	case $lf in
	*/lkp-random.data) "$HITMAP_BUILD/tools/hm-gen" -o "$lf" -n 3000 --mix random --seed 4 >/dev/null 2>&1 || continue;;
	esac
	for v in $(oracle_perfs); do
		perfv "$v" c2c report -NN --stats -i "$lf" >"$TMP/lkp.txt" 2>/dev/null
		lkp_parse "$TMP/lkp.txt" >"$TMP/lkp.perf"
		"$HITMAP" report -i "$lf" --lkp --perf-compat "$v" >"$TMP/lkp.hm" 2>/dev/null
		if [ -s "$TMP/lkp.txt" ] && cmp -s "$TMP/lkp.perf" "$TMP/lkp.hm"; then
			pass "--lkp --perf-compat $v = LKP's parse of perf $v c2c report -NN --stats (${lf##*/}: $(tr '\n' ' ' <"$TMP/lkp.hm" | cut -c1-60))"
		else
			fail "--lkp --perf-compat $v on ${lf##*/}" "$(diff "$TMP/lkp.perf" "$TMP/lkp.hm" | grep '^[<>]' | tr '\n' ' ')"
		fi
	done
done
[ -n "$(oracle_perfs)" ] || skip "--lkp equals LKP's parse of perf" "no perf installed"
"$HITMAP" report -i "$f" --lkp --perf-compat 5.4 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 2 ] && grep -q "6.1, 6.12, 7.3" "$TMP/e" && pass "--perf-compat 5.4 refused (exit 2, lists the versions)" ||
	fail "--perf-compat 5.4 refused" "rc $rc: $(head -1 "$TMP/e")"

# the other views run and carry data
"$HITMAP" report -i "$f" -d cost --max-lines 5 >"$TMP/t" 2>&1
check "-d cost text" grep -q "Load cost" "$TMP/t"
"$HITMAP" report -i "$f" --csv -d peer >"$TMP/c" 2>&1
check "--csv header" grep -q '^index,address,data_nodes' "$TMP/c"
"$HITMAP" report -i "$f" --json --max-lines 2 >"$TMP/jl" 2>&1
check "--json lines with offsets and code" jq -e '.lines[0].offsets[0].code[0].ip' "$TMP/jl"
check "--json data node from PHYS_ADDR" jq -e '.lines[0].data_nodes != "N/A"' "$TMP/jl"
done_tests
