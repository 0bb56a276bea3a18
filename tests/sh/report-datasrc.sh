#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# data_src text (hm_data_src__scnprintf_v, printed by hitmap script -F
# data_src --perf-compat V) equals perf V script's for every vendor mix and
# for random bit patterns, for every installed perf (6.12 and 7.3 name the
# level from mem_lvl_num, 6.1 from the legacy mem_lvl bits first).
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
PERFS=$(oracle_perfs)
if [ -z "$PERFS" ]; then skip "data_src text" "no perf installed (scripts/setup-oracles.sh)"; done_tests; fi
if [ ! -x "$GEN" ]; then skip "data_src text" "$GEN not built"; done_tests; fi
if ! "$HITMAP" script --help >/dev/null 2>&1; then skip "data_src text" "hitmap script is not built"; done_tests; fi
seed=21
files=()
for mix in intel-snb intel-skl amd-zen2 amd-zen4 arm random; do
	f=$TMP/$mix.data
	"$GEN" -o "$f" -n 3000 -l 50 --seed $seed --mix $mix >/dev/null 2>&1 || { fail "data_src $mix hm-gen" "failed"; continue; }
	seed=$((seed + 1))
	files+=("$f")
done
for v in $PERFS; do
	perf_each "$v" "$TMP/p-$v" 'script -F data_src' "${files[@]}"
	for f in "${files[@]}"; do
		b=${f##*/}; mix=${b%.data}
		"$HITMAP" script -F data_src --perf-compat "$v" -i "$f" >"$TMP/h.txt" 2>"$TMP/h.err"
		n=$(wc -l <"$TMP/p-$v/$b.out")
		if [ "$(cat "$TMP/p-$v/$b.rc")" != 0 ]; then
			echo "# perf $v script refuses $b ($(perf_crash_why "$TMP/p-$v/$b.err" "$(cat "$TMP/p-$v/$b.rc")"))"
		elif [ "$n" -eq 3000 ] && cmp -s "$TMP/p-$v/$b.out" "$TMP/h.txt"; then
			pass "data_src text $mix, perf $v: $n samples as perf $v script prints them"
		else
			fail "data_src text $mix, perf $v" "$(diff "$TMP/p-$v/$b.out" "$TMP/h.txt" | head -3 | tr '\n' ' ')"
		fi
	done
done
# the versions differ where expected (guards a --perf-compat that does nothing)
a=$("$HITMAP" script -F data_src --perf-compat 6.1 -i "$TMP/intel-snb.data" | head -1)
b=$("$HITMAP" script -F data_src --perf-compat 7.3 -i "$TMP/intel-snb.data" | head -1)
check "--perf-compat 6.1 and 7.3 print the level differently ('${a##*|LVL }' / '${b##*|LVL }')" test "$a" != "$b"
done_tests
