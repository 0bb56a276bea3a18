#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# simulate --compare on the LKP report's configuration (v6.16-rc4 against the
# final 6.16 with the private hash compiled out, perf bench futex hash -S,
# 192 threads, 2-socket Sierra Forest): LKP's comparison layout with the
# perf-c2c.* metrics and the precise ones beside, a non-zero difference, no
# HITM on hb->priv on the patched side, the accesses that carry the change,
# a verdict; and each side's own thread count in the descriptions.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip sim-compare "no $HITMAP; build first"; done_tests; }
"$HITMAP" simulate --shared --compare "--kernel 6.16-rc4" "--kernel 6.16" >"$TMP/seed.txt" 2>"$TMP/seed.err" ||
	fail sim-compare-seed-runs "$(head -c 300 "$TMP/seed.err")"
sed -n '/^---------------- /,/perf-c2c.HITM.total/p' "$TMP/seed.txt" | sed 's/^/# /'
check sim-compare-lkp-header grep -q '^---------------- --------------------------- $' "$TMP/seed.txt"
check sim-compare-lkp-stddev-line grep -q '^ *%stddev  *%change  *%stddev$' "$TMP/seed.txt"
num='[0-9]+(\.[0-9]+)?'
for m in perf-bench-futex.ops/s perf-c2c.DRAM.local perf-c2c.DRAM.remote perf-c2c.HITM.local \
	 perf-c2c.HITM.remote perf-c2c.HITM.total; do
	check sim-compare-lkp-row-$m grep -Eq "^ +$num +([+-]$num%|new) +$num +$m( |\$)" "$TMP/seed.txt"
done
check sim-compare-precise-beside grep -Eq 'perf-c2c\.HITM\.remote +\| precise hitm_remote +[0-9]' "$TMP/seed.txt"
tot=$(grep -E '^ +[0-9].* perf-c2c\.HITM\.total' "$TMP/seed.txt" | awk '{ print $2 }')
echo "# HITM.total change: $tot"
case "$tot" in
+0.0%|-0.0%|"") fail sim-compare-seed-nonzero "HITM.total change '$tot'" ;;
*) pass sim-compare-seed-nonzero ;;
esac
ops=$(grep -E '^ +[0-9].* perf-bench-futex\.ops/s' "$TMP/seed.txt" | awk '{ print $2 }')
case "$ops" in +0.0%|-0.0%|"") fail sim-compare-seed-ops-change "ops/s change '$ops'" ;; *) pass sim-compare-seed-ops-change ;; esac
priv=$(grep -E '^  HITM on bucket\.priv ' "$TMP/seed.txt")
echo "# $priv"
b=$(printf '%s\n' "$priv" | awk '{ print $5 }')
[ -n "$priv" ] && [ "$b" = 0.0 ] && pass sim-compare-patched-no-priv-hitm ||
	fail sim-compare-patched-no-priv-hitm "row: '$priv'"
a=$(printf '%s\n' "$priv" | awk '{ print $4 }')
awk -v a="$a" 'BEGIN { exit !(a > 100) }' && pass sim-compare-base-priv-hitm ||
	fail sim-compare-base-priv-hitm "6.16-rc4 priv HITM per 1000 ops '$a'"
# the patched side's priv HITM is 0 in the samples too (its own truth file)
"$HITMAP" simulate --shared --kernel 6.16 -o "$TMP/b.data" --truth "$TMP/b.json" >/dev/null 2>&1
if command -v jq >/dev/null; then
	n=$(jq '[.fields[]? | select(.field == "priv") | .c2c.tot_hitm] | add // 0' "$TMP/b.json")
	[ "$n" = 0 ] && pass sim-compare-patched-no-priv-hitm-samples ||
		fail sim-compare-patched-no-priv-hitm-samples "priv HITM samples $n"
else
	skip sim-compare-patched-no-priv-hitm-samples "jq is not installed"
fi
check sim-compare-accesses-table grep -Eq '^  futex_hash +hb->priv +load ' "$TMP/seed.txt"
check sim-compare-verdict grep -q '^verdict against LKP 202507160223' "$TMP/seed.txt"
grep -E '^- The model (reproduces|does NOT)' "$TMP/seed.txt" | sed 's/^/# /'
check sim-compare-verdict-says grep -Eq '^- The model (reproduces|does NOT reproduce)' "$TMP/seed.txt"
# --runs: LKP's mean +- %stddev over seeds
"$HITMAP" simulate --preset srf --cores 8 --futexes 64 --ops 20000 --runs 3 \
	--compare "--kernel 6.17" "--kernel 7.2" >"$TMP/r.txt" 2>&1
grep -E 'perf-c2c\.HITM\.total' "$TMP/r.txt" | head -1 | sed 's/^/# /'
pm=$'\xc2\xb1'
check sim-compare-runs-stddev grep -Eq "^ +[0-9.]+ $pm *[0-9]+% .*perf-c2c\\." "$TMP/r.txt"
# each side's thread count
"$HITMAP" simulate --preset srf --cores 8 --futexes 64 --ops 4000 --kernel 6.17 \
	--compare "--sockets 1" "--sockets 2" >"$TMP/s.txt" 2>&1
grep -E '^   srf' "$TMP/s.txt" | sed 's/^/# /'
grep -q '^   srf, .* 8 threads x 64 private futexes' "$TMP/s.txt" &&
	grep -q '^   srf, .* 16 threads x 64 private futexes' "$TMP/s.txt" &&
	pass sim-compare-threads-per-side || fail sim-compare-threads-per-side "$(grep -E '^   srf' "$TMP/s.txt")"
done_tests
