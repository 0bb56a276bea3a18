#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The shared cache-line table agrees with perf c2c's on files where each line
# has one mapping (hm-gen --no-mmap: no maps, user mode only): the same lines,
# with the same node, PA cnt, HITM, record, load and store counts, for -d tot,
# rmt and lcl, against every installed perf (hitmap --perf-compat V; -d tot
# only for the versions after the first, to keep the time down); with
# --double-cl against the perf versions that have it (6.3+).  Also: --csv,
# --json lines and -N run and agree with each other.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen

PERFS=$(oracle_perfs)
if [ -z "$PERFS" ]; then skip "report table" "no perf installed (scripts/setup-oracles.sh)"; done_tests; fi
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
	first=${PERFS%% *}
	for v in $PERFS; do
		ds="tot rmt lcl"
		[ "$v" = "$first" ] || ds=tot
		for d in $ds; do
			perfv "$v" c2c report --stdio --no-source -d $d -i "$f" >"$TMP/perf.txt" 2>"$TMP/perf.err"
			"$HITMAP" report -i "$f" --csv -d $d --perf-compat "$v" >"$TMP/hm.csv" 2>"$TMP/hm.err"
			perf_rows "$TMP/perf.txt" >"$TMP/p.rows"
			hm_rows "$TMP/hm.csv" >"$TMP/h.rows"
			np=$(wc -l <"$TMP/p.rows")
			if [ "$np" -lt 10 ]; then
				fail "table $mix -d $d, perf $v" "perf printed only $np rows: $(perf_crash_why "$TMP/perf.err" 1)"
			elif diff "$TMP/p.rows" "$TMP/h.rows" >"$TMP/diff"; then
				pass "table $mix -d $d: $np lines, same counts as perf $v"
			else
				fail "table $mix -d $d, perf $v" "$(head -4 "$TMP/diff" | tr '\n' ' ')"
			fi
			if [ "$d" = tot ]; then
				# order of -d tot: perf's first line is hitmap's first line
				awk '$1 == "0" && $2 ~ /^0x/ { print $2; exit }' "$TMP/perf.txt" >"$TMP/p.first"
				awk -F, 'NR == 2 { print $2 }' "$TMP/hm.csv" >"$TMP/h.first"
				check "table $mix first line matches perf $v's" cmp "$TMP/p.first" "$TMP/h.first"
			fi
		done
		# --double-cl: 128-byte lines (perf 6.3+)
		if [ "$mix" = all ] && [ "$v" != 6.1 ]; then
			perfv "$v" c2c report --stdio --no-source --double-cl -i "$f" >"$TMP/perf.txt" 2>"$TMP/perf.err"
			"$HITMAP" report -i "$f" --csv --double-cl --perf-compat "$v" >"$TMP/hm.csv" 2>"$TMP/hm.err"
			perf_rows "$TMP/perf.txt" >"$TMP/p.rows"
			hm_rows "$TMP/hm.csv" >"$TMP/h.rows"
			np=$(wc -l <"$TMP/p.rows")
			if [ "$np" -ge 5 ] && ! grep -q -v ' 0x[0-9a-f]*[08]0 ' <(sed 's/^/ /' "$TMP/p.rows" | cut -d' ' -f1-3) && diff "$TMP/p.rows" "$TMP/h.rows" >"$TMP/diff"; then
				pass "table $mix --double-cl: $np 128-byte lines, same counts as perf $v"
			else
				fail "table $mix --double-cl, perf $v" "$np rows; $(head -4 "$TMP/diff" 2>/dev/null | tr '\n' ' ')"
			fi
			perfv "$v" c2c report --stats --double-cl -i "$f" 2>/dev/null | sed -n '/Trace Event/,/Total Merged/p' >"$TMP/p.st"
			"$HITMAP" report -i "$f" --stats --double-cl --perf-compat "$v" 2>/dev/null | sed -n '/Trace Event/,/Total Merged/p' >"$TMP/h.st"
			check "table $mix --double-cl --stats blocks = perf $v's ($(grep 'Total Shared' "$TMP/h.st" | tr -s ' '))" cmp "$TMP/p.st" "$TMP/h.st"
		fi
	done
	# JSON and CSV carry the same lines; text and -N run
	n_csv=$(($("$HITMAP" report -i "$f" --csv -d lcl | wc -l) - 1))
	n_json=$("$HITMAP" report -i "$f" --json -d lcl | jq '.lines | length')
	check "table $mix json lines = csv lines" test "$n_csv" = "$n_json"
	"$HITMAP" report -i "$f" -N --max-lines 3 >"$TMP/hm.txt" 2>&1
	check "table $mix text with -N" grep -q 'Node{cpus %hitms %stores}' "$TMP/hm.txt"
	"$HITMAP" report -i "$f" -NN --max-lines 1 >"$TMP/hm.txt" 2>&1
	check "table $mix text with -NN" grep -q 'Node{cpu list}:  0{' "$TMP/hm.txt"
	rm -f "$f"
done
done_tests
