#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One aggregation: the hottest cache line shows the same Tot Hitm, LclHitm,
# RmtHitm, Loads and Stores, and the same name of its data, in the text
# table, its details, --json, --csv and the HTML page, on a file where perf's counters count remote HITMs
# again as remote DRAM (Sierra Forest), so that perf's Total Loads and the
# number of load samples differ and a mix-up shows.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip report-lines "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip report-lines "jq is not installed"; done_tests; }
f=$TMP/srf.data
"$HITMAP" simulate --preset srf --cores 8 --kernel 6.16 --futexes 64 --ops 6000 --period 20 -o "$f" \
	>"$TMP/sim.out" 2>&1 || { fail report-lines-simulate "$(tail -n 1 "$TMP/sim.out")"; done_tests; }
"$HITMAP" report -i "$f" >"$TMP/r.txt" 2>/dev/null || { fail report-lines-text "report failed"; done_tests; }
"$HITMAP" report -i "$f" --json >"$TMP/r.json" 2>/dev/null || { fail report-lines-json "report --json failed"; done_tests; }
"$HITMAP" report -i "$f" --csv >"$TMP/r.csv" 2>/dev/null || { fail report-lines-csv "report --csv failed"; done_tests; }
"$HITMAP" report -i "$f" --html "$TMP/r.html" >/dev/null 2>&1 || { fail report-lines-html "report --html failed"; done_tests; }

# "addr tothitm lclhitm rmthitm loads stores" from each output
awk '/^# Index /{on=1; next} on && $1 == "0" {print $2, $6, $7, $8, $11, $12; exit}' "$TMP/r.txt" >"$TMP/table"
sed -n 's/^  0  \(0x[0-9a-f]*\)  [^ ]*  Tot Hitm \([0-9]*\) (LclHitm \([0-9]*\), RmtHitm \([0-9]*\))  Loads \([0-9]*\)  Stores \([0-9]*\)$/\1 \2 \3 \4 \5 \6/p' \
	"$TMP/r.txt" | head -n 1 >"$TMP/details"
jq -r '.lines[0] | "\(.address) \(.hitm) \(.lcl_hitm) \(.rmt_hitm) \(.total_loads) \(.stores)"' "$TMP/r.json" >"$TMP/json"
awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
	NR == 2 {print $c["address"], $c["hitm"], $c["lcl_hitm"], $c["rmt_hitm"], $c["total_loads"], $c["stores"]; exit}' \
	"$TMP/r.csv" >"$TMP/csv"
read -r addr rest <"$TMP/table"
check "report-lines: the table has a hottest line" test -n "$addr"
for v in details json csv; do
	if cmp -s "$TMP/table" "$TMP/$v"; then
		pass "report-lines: $v = table ($(cat "$TMP/table"))"
	else
		fail "report-lines: $v = table" "table '$(cat "$TMP/table")' $v '$(cat "$TMP/$v")'"
	fi
done
# the HTML page's data: the hottest line's tot_hitm, lcl_hitm, rmt_hitm, total_loads, store (perf's)
if command -v python3 >/dev/null; then
	python3 - "$TMP/r.html" >"$TMP/html" <<'PY'
import json, re, sys
s = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script type="application/json" id="hm-data">(.*?)</script>', s, re.S).group(1))
ls, v, n = d['lstats'], d['lines']['v'], len(d['lstats'])
row = dict(zip(ls, v[:n]))
print(int(row['tot_hitm']), int(row['lcl_hitm']), int(row['rmt_hitm']), int(row['total_loads']), int(row['store']))
PY
	if [ "$(cat "$TMP/html")" = "$rest" ]; then
		pass "report-lines: HTML = table ($rest)"
	else
		fail "report-lines: HTML = table" "table '$rest' html '$(cat "$TMP/html")'"
	fi
else
	skip "report-lines: HTML" "no python3 to read the page's data"
fi
# the line's name (what the data is) is the same in the table, details, JSON, CSV and HTML
tn=$(awk '/^# Index /{on=1; next} on && $1 == "0" {print $NF; exit}' "$TMP/r.txt")
dn=$(sed -n 's/^  0  0x[0-9a-f]*  \([^ ]*\)  Tot Hitm.*/\1/p' "$TMP/r.txt" | head -n 1)
jn=$(jq -r '.lines[0].data' "$TMP/r.json")
cn=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} NR == 2 {gsub(/"/, "", $c["data"]); print $c["data"]; exit}' "$TMP/r.csv")
if command -v python3 >/dev/null; then
	hn=$(python3 -c 'import json, re, sys; s = open(sys.argv[1]).read(); d = json.loads(re.search(r"<script type=\"application/json\" id=\"hm-data\">(.*?)</script>", s, re.S).group(1)); L = d["lines"]; print(L["pre"][L["p"][0]] + L["s"][0])' "$TMP/r.html")
else
	hn=$tn
fi
if [ -n "$tn" ] && [ "$tn" = "$dn" ] && [ "$tn" = "$jn" ] && [ "$tn" = "$cn" ] && [ "$tn" = "$hn" ]; then
	pass "report-lines: the line is named $tn in table, details, JSON, CSV and HTML"
else
	fail "report-lines: line name" "table '$tn' details '$dn' json '$jn' csv '$cn' html '$hn'"
fi
check "report-lines: offsets of a futex line are named by field" jq -e '[.lines[0].offsets[].data] | all(. != "-" and . != null)' "$TMP/r.json"
# and the file is one where the two countings differ: loads are not Total Loads
l=$(jq '.lines[0].loads' "$TMP/r.json"); tl=$(jq '.lines[0].total_loads' "$TMP/r.json")
check "report-lines: perf's Total Loads ($tl) differ from the load samples ($l) on this file" test "$tl" != "$l"
done_tests
