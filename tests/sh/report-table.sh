#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The shared cache-line table agrees with perf c2c's on files where each line
# has one mapping (hm-gen --no-mmap: no maps, user mode only): the same lines,
# with the same node, PA cnt, HITM, record, load and store counts, for -d tot,
# rmt and lcl.  Also: --csv, --json lines and -N run and agree with each other.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen

if ! have_perf; then skip "report table" "perf is not installed"; done_tests; fi
if [ ! -x "$GEN" ]; then skip "report table" "$GEN not built (make tests)"; done_tests; fi

# perf's table rows -> "addr node pacnt total lcl rmt records loads stores l1hit l1miss na fb l1 l2 lclhit lclhitm rmthit rmthitm dlcl drmt"
perf_rows() {
	sed -n '/Shared Data Cache Line Table/,/Shared Cache Line Distribution Pareto/p' "$1" |
	awk '$1 ~ /^[0-9]+$/ && $2 ~ /^0x/ { $1 = ""; $5 = ""; print }' | awk '{$1=$1; print}' | sort
}
# hitmap's CSV -> the same columns
hm_rows() {
	awk -F, 'NR > 1 {
		gsub(/"/, "", $3)
		print $2, $3, $4, $5, $6, $7, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $6, $19, $7, $20, $21
	}' "$1" | sort
}

seed=11
for mix in intel-skl amd-zen2 all; do
	f=$TMP/$mix.data
	if ! "$GEN" -o "$f" -n 20000 -l 400 --nodes 2 --cpus 8 --seed $seed --mix $mix --no-mmap >"$TMP/gen.out" 2>&1; then
		fail "table $mix hm-gen" "$(tail -n 2 "$TMP/gen.out" | tr '\n' ' ')"
		continue
	fi
	seed=$((seed + 1))
	for d in tot rmt lcl; do
		perf c2c report --stdio --no-source -d $d -i "$f" >"$TMP/perf.txt" 2>"$TMP/perf.err"
		"$HITMAP" report -i "$f" --csv -d $d >"$TMP/hm.csv" 2>"$TMP/hm.err"
		perf_rows "$TMP/perf.txt" >"$TMP/p.rows"
		hm_rows "$TMP/hm.csv" >"$TMP/h.rows"
		np=$(wc -l <"$TMP/p.rows")
		if [ "$np" -lt 10 ]; then
			fail "table $mix -d $d" "perf printed only $np rows"
		elif diff "$TMP/p.rows" "$TMP/h.rows" >"$TMP/diff"; then
			pass "table $mix -d $d: $np lines, same counts as perf"
		else
			fail "table $mix -d $d" "$(head -4 "$TMP/diff" | tr '\n' ' ')"
		fi
	done
	# order of -d tot: perf's first line is hitmap's first line
	perf c2c report --stdio --no-source -i "$f" 2>/dev/null |
		awk '$1 == "0" && $2 ~ /^0x/ { print $2; exit }' >"$TMP/p.first"
	"$HITMAP" report -i "$f" --csv | awk -F, 'NR == 2 { print $2 }' >"$TMP/h.first"
	check "table $mix first line matches perf's" cmp "$TMP/p.first" "$TMP/h.first"
	# JSON and CSV carry the same lines; text and -N run
	n_csv=$(($(wc -l <"$TMP/hm.csv") - 1))
	n_json=$("$HITMAP" report -i "$f" --json -d lcl | jq '.lines | length')
	check "table $mix json lines = csv lines" test "$n_csv" = "$n_json"
	"$HITMAP" report -i "$f" -N --max-lines 3 >"$TMP/hm.txt" 2>&1
	check "table $mix text with -N" grep -q 'Node{cpus %hitms %stores}' "$TMP/hm.txt"
	"$HITMAP" report -i "$f" -NN --max-lines 1 >"$TMP/hm.txt" 2>&1
	check "table $mix text with -NN" grep -q 'Node{cpu list}:  0{' "$TMP/hm.txt"
	rm -f "$f"
done
done_tests
