#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The cache-line table's per-offset rows of a file are built after the pass,
# by a second read, for the lines a view shows; from a pipe, which cannot be
# read twice, during the pass.  Both must print the same: text (default,
# --show-all, -d cost/lcl), JSON and CSV, on a generated file whose lines
# are shown (300 lines: each about 0.3% of the HITMs) and on a simulated
# futex file.  (JSON names its input: that line is left out.)
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
files=()
if [ -x "$GEN" ] && "$GEN" -o "$TMP/gen.data" -n 30000 -l 300 --nodes 2 --cpus 16 --seed 11 \
	--phys --mix all >/dev/null 2>&1; then
	files+=("$TMP/gen.data")
else
	skip "report-details: generated file" "no $GEN or it failed (make tests)"
fi
if "$HITMAP" simulate --ops 20000 --seed 4 --sockets 2 --kernel 6.16 -o "$TMP/sim.data" >/dev/null 2>&1; then
	files+=("$TMP/sim.data")
else
	skip "report-details: simulated file" "hitmap simulate failed"
fi
for f in "${files[@]}"; do
	b=${f##*/}
	"$HITMAP" report --threads 1 --show-all -i "$f" >"$TMP/all.txt" 2>/dev/null
	if ! grep -q '^  *0x[0-9a-f]* ' "$TMP/all.txt"; then
		fail "report-details $b" "--show-all printed no offset rows: nothing to compare"
		continue
	fi
	for opts in "" "--show-all" "-d cost" "-d lcl" "--json" "--json --show-all" "--csv"; do
		"$HITMAP" report --threads 1 $opts -i "$f" >"$TMP/file.out" 2>"$TMP/file.err"
		rf=$?
		"$HITMAP" report --threads 1 $opts -i - <"$f" >"$TMP/pipe.out" 2>"$TMP/pipe.err"
		rp=$?
		if [ $rf != 0 ] || [ $rp != 0 ]; then
			fail "report-details $b '$opts'" "exit $rf (file) / $rp (pipe): $(tail -n 1 "$TMP/file.err")"
		elif ! cmp -s <(grep -v '^  "input": ' "$TMP/file.out") <(grep -v '^  "input": ' "$TMP/pipe.out"); then
			fail "report-details $b '$opts'" "file and pipe differ: $(diff "$TMP/file.out" "$TMP/pipe.out" | head -n 3 | tr '\n' ' ')"
		else
			pass "report-details $b '$opts'"
		fi
	done
done
done_tests
