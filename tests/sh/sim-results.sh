#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap simulate reproduces the known futex-hash results (checked on the ground truth):
#  1. 6.16: the private hash's reference-count line (fph) carries the most remote HITM;
#     6.17's per-CPU references remove it.
#  2. 6.16-rc4, 6.17, 6.18: the bucket's priv field is the hottest HITM field; 7.2 (a734d9fca84e) has no priv.
#  3. 2 sockets show remote HITM and remote DRAM, 1 socket does not.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip sim-results "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip sim-results "jq is not installed"; done_tests; }
base="--preset srf --cores 16 --futexes 256 --ops 60000 --period 20 --seed 3"
for k in 6.16-rc4 6.17 6.18 7.2; do
	"$HITMAP" simulate $base --kernel $k -o "$TMP/$k.data" --truth "$TMP/$k.json" >"$TMP/$k.out" 2>&1 ||
		fail sim-results-run-$k "$(tail -n 2 "$TMP/$k.out")"
done

# 1. the reference-count line
top=$(jq -r '[.lines[]] | max_by(.c2c.rmt_hitm) | "\(.object) \(.addr) \(.c2c.rmt_hitm)"' "$TMP/6.16-rc4.json")
fph16=$(jq '[.lines[] | select(.object == "fph") | .c2c.rmt_hitm] | add // 0' "$TMP/6.16-rc4.json")
fph17=$(jq '[.lines[] | select(.object == "fph") | .c2c.rmt_hitm] | add // 0' "$TMP/6.17.json")
pop16=$(jq '.results.ops' "$TMP/6.16-rc4.json")
echo "# 6.16 line with the most remote HITM: $top; fph remote HITM samples 6.16=$fph16 6.17=$fph17"
[ "${top%% *}" = fph ] && pass sim-results-6.16-fph-line-most-remote-hitm ||
	fail sim-results-6.16-fph-line-most-remote-hitm "top line is $top"
[ "$fph16" -gt 50 ] && [ "$fph17" -eq 0 ] && pass sim-results-6.17-per-cpu-refs-remove-fph-hitm ||
	fail sim-results-6.17-per-cpu-refs-remove-fph-hitm "fph remote HITM 6.16=$fph16 6.17=$fph17"
# throughput on the full 192-CPU Sierra Forest model (no file: fast)
o12=$("$HITMAP" simulate --kernel 6.12 --ops 100000 --json | jq '.ops_per_sec_thread|floor')
o16=$("$HITMAP" simulate --kernel 6.16-rc4 --ops 100000 --json | jq '.ops_per_sec_thread|floor')
o17=$("$HITMAP" simulate --kernel 6.17 --ops 100000 --json | jq '.ops_per_sec_thread|floor')
echo "# srf 192 CPUs ops/s per thread: 6.12=$o12 6.16=$o16 6.17=$o17 (LKP lkp-srf-2sp2: 2,667,058 -> 144,593 with the 6.16 private hash)"
[ "$o16" -lt $((o12 / 5)) ] && [ "$o17" -gt $((o16 * 5)) ] && pass sim-results-6.16-collapse-6.17-recovers ||
	fail sim-results-6.16-collapse-6.17-recovers "6.12=$o12 6.16=$o16 6.17=$o17"

# 2. the priv field
for k in 6.16-rc4 6.17 6.18; do
	hot=$(jq -r '.hottest_hitm_field' "$TMP/$k.json")
	fl=$(jq -c '[.fields[] | {(.field): .c2c.tot_hitm}] | add' "$TMP/$k.json")
	echo "# $k HITM per field: $fl"
	[ "$hot" = priv ] && pass sim-results-$k-priv-hottest-hitm-field ||
		fail sim-results-$k-priv-hottest-hitm-field "hottest is $hot: $fl"
done
fl=$(jq -c '[.fields[] | {(.field): .c2c.tot_hitm}] | add' "$TMP/7.2.json")
echo "# 7.2 HITM per field: $fl"
[ "$(jq '[.fields[] | select(.field == "priv")] | length' "$TMP/7.2.json")" = 0 ] &&
	[ "$(jq -r '.hottest_hitm_field' "$TMP/7.2.json")" = waiters ] &&
	pass sim-results-7.2-no-priv-waiters-hottest ||
	fail sim-results-7.2-no-priv-waiters-hottest "$fl"

# 3. sockets
"$HITMAP" simulate $base --kernel 6.17 --sockets 1 --cores 32 -o "$TMP/1s.data" --truth "$TMP/1s.json" >/dev/null 2>&1
for f in 6.17 1s; do
	r=$(jq -c '.samples.hitmap | {hitm_remote, dram_remote, hitm_local, dram_local}' "$TMP/$f.json")
	p=$(jq -c '.population.loads_by_source | {hitm_remote, dram_remote}' "$TMP/$f.json")
	echo "# $f: samples $r; all loads $p"
done
two=$(jq '.samples.hitmap.hitm_remote > 0 and .samples.hitmap.dram_remote > 0 and .population.loads_by_source.hitm_remote > 0 and .population.loads_by_source.dram_remote > 0' "$TMP/6.17.json")
one=$(jq '.samples.hitmap.hitm_remote == 0 and .samples.hitmap.dram_remote == 0 and .population.loads_by_source.hitm_remote == 0 and .population.loads_by_source.dram_remote == 0' "$TMP/1s.json")
[ "$two" = true ] && pass sim-results-2-sockets-remote-hitm-and-dram ||
	fail sim-results-2-sockets-remote-hitm-and-dram "$(jq -c .samples.hitmap "$TMP/6.17.json")"
[ "$one" = true ] && pass sim-results-1-socket-no-remote ||
	fail sim-results-1-socket-no-remote "$(jq -c .samples.hitmap "$TMP/1s.json")"

# --compare explains it in words
"$HITMAP" simulate --preset srf --cores 16 --futexes 256 --ops 30000 --compare "--kernel 6.16-rc4" "--kernel 6.17" >"$TMP/cmp.txt" 2>&1
sed -n '/^why:/,$p' "$TMP/cmp.txt" | head -n 12 | sed 's/^/# /'
grep -q 'rcuref' "$TMP/cmp.txt" && grep -q 'per CPU' "$TMP/cmp.txt" && pass sim-results-compare-explains-6.17 ||
	fail sim-results-compare-explains-6.17 "$(head -c 300 "$TMP/cmp.txt")"
"$HITMAP" simulate --preset srf --cores 16 --futexes 256 --ops 30000 --kernel 6.17 --compare "--sockets 1 --cores 32" "--sockets 2" >"$TMP/cmp2.txt" 2>&1
grep -q 'remote HITM' "$TMP/cmp2.txt" && grep -q 'socket link' "$TMP/cmp2.txt" && pass sim-results-compare-explains-sockets ||
	fail sim-results-compare-explains-sockets "$(sed -n '/^why:/,$p' "$TMP/cmp2.txt" | head -c 300)"
"$HITMAP" simulate --preset srf --cores 16 --futexes 256 --ops 30000 --compare "--kernel 6.17" "--kernel 7.2" >"$TMP/cmp3.txt" 2>&1
grep -q 'priv field disappears' "$TMP/cmp3.txt" && grep -q 'a734d9fca84e' "$TMP/cmp3.txt" && pass sim-results-compare-explains-7.2 ||
	fail sim-results-compare-explains-7.2 "$(sed -n '/^why:/,$p' "$TMP/cmp3.txt" | head -c 300)"
done_tests
