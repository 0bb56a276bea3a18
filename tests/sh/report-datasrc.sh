#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# data_src text (hm_data_src__scnprintf, printed by hitmap script -F data_src)
# equals perf 6.1 script's for every vendor mix and for random bit patterns.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
if ! have_perf; then skip "data_src text" "perf is not installed"; done_tests; fi
if [ ! -x "$GEN" ]; then skip "data_src text" "$GEN not built"; done_tests; fi
if ! "$HITMAP" script --help >/dev/null 2>&1; then skip "data_src text" "hitmap script is not built"; done_tests; fi
seed=21
for mix in intel-snb intel-skl amd-zen2 amd-zen4 arm random; do
	f=$TMP/$mix.data
	"$GEN" -o "$f" -n 3000 -l 50 --seed $seed --mix $mix >/dev/null 2>&1 || { fail "data_src $mix hm-gen" "failed"; continue; }
	seed=$((seed + 1))
	perf script -F data_src -i "$f" >"$TMP/p.txt" 2>/dev/null
	"$HITMAP" script -F data_src -i "$f" >"$TMP/h.txt" 2>"$TMP/h.err"
	n=$(wc -l <"$TMP/p.txt")
	if [ "$n" -eq 3000 ] && cmp -s "$TMP/p.txt" "$TMP/h.txt"; then
		pass "data_src text $mix: $n samples as perf script prints them"
	else
		fail "data_src text $mix" "$(diff "$TMP/p.txt" "$TMP/h.txt" | head -3 | tr '\n' ' ')"
	fi
	rm -f "$f"
done
done_tests
