#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap diff --html where a side has no futex tables (a run without
# hitmap's metadata, as a plain perf record file; tests/sh/diff-sides.sh
# checks the rows).  The page's data says per side whether futex tables were
# found (futexTables, futexRuns, futexWhy: the report's reason), and a side
# without them has no bucket or field value (null, not 0); a side of several
# runs, some without tables, has the mean over the runs with tables, as
# diff --json's futex rows.  In headless Chromium
# (tests/html/check-diff-sides.js) every heat-map view that needs such a
# side (base, new, %change) says "no futex hash tables in LABEL: not
# compared" and draws no cell, the others draw; a page whose data lacks the
# flag is caught.  report --html pages carry no flag (unchanged).
# Screenshots stay in $HITMAP_BUILD/test-html/.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip diff-html-sides "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip diff-html-sides "jq is not installed"; done_tests; }
SRC=$PWD
SHOTS=$PWD/$HITMAP_BUILD/test-html
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
mkdir -p "$SHOTS"

sim() { # SEED OUT [ARGS]
	local seed=$1 out=$2; shift 2
	"$HITMAP" simulate --preset skx --kernel 6.17 --ops 100000 --period 100 --seed "$seed" \
		-o "$out" "$@" >/dev/null 2>"$TMP/sim.err" ||
		{ fail simulate "seed $seed: $(head -c 200 "$TMP/sim.err")"; done_tests; }
}
# Drop hitmap's metadata as diff-sides.sh does: perf inject where perf is
# installed, else cut the file where the metadata begins.
strip_meta() { # IN OUT
	if have_perf && perf inject -i "$1" -o "$2" >/dev/null 2>&1 && [ -s "$2" ]; then
		return 0
	fi
	cut_meta "$1" "$2"
}
# the page's data: the JSON of <script id="hm-data"> ("<\/" is a JSON escape)
page_data() { # PAGE.html OUT.json
	sed -n 's|.*<script type="application/json" id="hm-data">\(.*\)</script>.*|\1|p' "$1" >"$2"
	json_valid "$2"
}
# html NAME FILES...: diff --html NAME.html FILES, its data in NAME.json
html() {
	local n=$1; shift
	"$HITMAP" diff --html "$n.html" "$@" >/dev/null 2>"$n.err" && page_data "$n.html" "$n.json" ||
		{ fail "$n-page" "$(head -c 300 "$n.err")"; return 1; }
}
# the bucket values of SIDE (0 base, 1 new): [bucket][side][socket][stat]
side_cells() { # SIDE
	echo ".buckets.v as \$v | (.sockets * (.bstats | length)) as \$w |
		[range(0; \$v | length) | select((. / \$w | floor) % 2 == $1) | \$v[.]]"
}
cd "$TMP" || exit 1
sim 1 a1.data
sim 2 a2.data
sim 3 a3.data
sim 4 b.data --kallsyms ks
strip_meta b.data bare.data || { fail strip "could not drop the metadata of b.data"; done_tests; }
H=$HITMAP

# ---- the new side has no futex tables
flag_new='.futexTables == [true, false] and .futexRuns == [1, 0] and .futexWhy[0] == null and
	(.futexWhy[1] | type == "string" and length > 0)'
cells_new="($(side_cells 1)) as \$n | ($(side_cells 0)) as \$b |
	(\$n | length > 100 and all(. == null)) and (\$b | all(type == \"number\") and any(. > 0))"
fields_new='[.fields[][][]] | length > 10 and all(.[1] == null) and any(.[0] > 0)'
if html page a1.data bare.data; then
	jq -e "$flag_new" page.json >/dev/null &&
		pass html-sides-flag-new || fail html-sides-flag-new "$(jq -c '[.futexTables, .futexRuns, .futexWhy]' page.json)"
	jq -e "$cells_new" page.json >/dev/null &&
		pass html-sides-no-bucket-values-new ||
		fail html-sides-no-bucket-values-new "$(jq -c "($(side_cells 1)) | map(select(. != null)) | .[:5]" page.json) of the new side not null"
	jq -e "$fields_new" page.json >/dev/null &&
		pass html-sides-no-field-values-new || fail html-sides-no-field-values-new "$(jq -c '.fields' page.json | head -c 300)"
	# the page as it was before the flag: no flag, the new side's buckets and fields 0
	jq -c 'del(.futexTables, .futexRuns, .futexWhy) | .buckets.v |= map(. // 0) |
		.fields |= map_values(map_values(map_values(map(. // 0))))' page.json | sed 's|</|<\\/|g' >zeros.json
	awk 'NR == FNR { d = $0; next }
	     { i = index($0, "id=\"hm-data\">"); if (i) { print substr($0, 1, i + 12) d "</script>"; next } print }' \
		zeros.json page.html >zeros.html
	bad=""
	for x in flag_new cells_new fields_new; do
		jq -e "${!x}" zeros.json >/dev/null 2>&1 && bad="$bad $x"
	done
	json_valid zeros.json && page_data zeros.html z.json && cmp -s <(jq -S . zeros.json) <(jq -S . z.json) && [ -z "$bad" ] &&
		pass html-sides-json-checks-catch-zeros || fail html-sides-json-checks-catch-zeros "passed on the page that draws zeros:${bad:- (or no such page)}"
	# the message names the reason the report gave (diff's warning says it too)
	why=$(jq -r '.futexWhy[1]' page.json)
	grep -qF "bare.data has no futex tables ($why)" page.err &&
		pass html-sides-why-is-reports || fail html-sides-why-is-reports "page: '$why'; warning: $(head -c 300 page.err)"
fi

# ---- the base side has none
if html rev bare.data a1.data; then
	jq -e ".futexTables == [false, true] and .futexRuns == [0, 1] and .futexWhy[1] == null and
		(($(side_cells 0)) | length > 100 and all(. == null)) and
		(($(side_cells 1)) | all(type == \"number\") and any(. > 0))" rev.json >/dev/null &&
		pass html-sides-flag-base || fail html-sides-flag-base "$(jq -c '[.futexTables, .futexRuns]' rev.json)"
fi

# ---- both sides have tables: flag true, every cell a number
if html both a1.data a2.data; then
	jq -e ".futexTables == [true, true] and .futexRuns == [1, 1] and .futexWhy == [null, null] and
		(.buckets.v | length > 100 and all(type == \"number\"))" both.json >/dev/null &&
		pass html-sides-flag-both || fail html-sides-flag-both "$(jq -c '[.futexTables, .futexRuns]' both.json)"
fi
# ---- neither side has tables
if html none bare.data bare.data; then
	jq -e '.futexTables == [false, false] and .futexRuns == [0, 0] and (.buckets.v | all(. == null))' none.json >/dev/null &&
		pass html-sides-flag-neither || fail html-sides-flag-neither "$(jq -c '[.futexTables, .futexRuns]' none.json)"
fi
# ---- the fix diff's warning names (the recorded kernel's kallsyms): tables on both sides
if html fix --kallsyms ks a1.data bare.data; then
	jq -e ".futexTables == [true, true] and (($(side_cells 1)) | all(type == \"number\") and any(. > 0))" fix.json >/dev/null &&
		pass html-sides-flag-kallsyms-fix || fail html-sides-flag-kallsyms-fix "$(jq -c '.futexTables' fix.json)"
fi

# ---- several runs a side, one without tables: the mean over the runs with tables, as diff --json
if html multi a1.data a2.data -- a3.data bare.data; then
	"$H" diff --all --json a1.data a2.data -- a3.data bare.data >multi-all.json 2>/dev/null
	jq -e '.futexTables == [true, true] and .futexRuns == [2, 1]' multi.json >/dev/null &&
		pass html-sides-flag-multi || fail html-sides-flag-multi "$(jq -c '[.futexTables, .futexRuns]' multi.json)"
	for side in 0 1; do
		n=$(jq -rn --slurpfile p multi.json --slurpfile d multi-all.json --argjson side $side '
			($d[0].rows | map({key: .metric, value: (if $side == 1 then .new.mean else .base.mean end)}) | from_entries) as $m |
			$p[0] as $P | $P.sockets as $S | ($P.bstats | length) as $K |
			[range(0; $P.buckets.index | length) as $b | range(0; $S) as $s | range(0; $K) as $k |
			 ($P.buckets.tables[$P.buckets.t[$b]] + ".bucket." + ($P.buckets.index[$b] | tostring)) as $id |
			 { id: ($id + "/" + ($s | tostring) + "/" + $P.bstats[$k]),
			   got: $P.buckets.v[(($b * 2 + $side) * $S + $s) * $K + $k],
			   want: ($m["futex." + $id + ".socket." + ($s | tostring) + "." + $P.bstats[$k]] // 0) }] |
			"\(length) \([.[] | select(.want > 0)] | length) \([.[] | select(.got == null or ((.got - .want) | fabs) > 1e-6 * ([1, (.want | fabs)] | max))] | length) \([.[] | select(.got != .want)][0] // "")"')
		set -- $n
		[ "${1:-0}" -gt 100 ] && [ "${2:-0}" -gt 10 ] && [ "$3" = 0 ] &&
			pass html-sides-multi-mean-$side || fail html-sides-multi-mean-$side "$n (cells, nonzero in diff --json, differing, first)"
	done
fi

# ---- a report page is as it was: no flag
"$H" report -i a1.data --html rep.html >/dev/null 2>&1 && page_data rep.html rep.json &&
	jq -e 'has("futexTables") or has("futexRuns") or has("futexWhy") | not' rep.json >/dev/null &&
	pass html-sides-report-unchanged || fail html-sides-report-unchanged "report page data: $(jq -c 'keys' rep.json 2>&1 | head -c 300)"

# ---- in the browser: every heat-map view
if [ ! -x "$CHROMIUM" ]; then
	skip html-sides-chromium "no $CHROMIUM (Debian package chromium)"
	done_tests
fi
if ! command -v node >/dev/null; then
	skip html-sides-chromium "no node to drive Chromium's DevTools protocol"
	done_tests
fi
# sides NAME TABLES: check-diff-sides.js's PASS/FAIL lines; a FAIL of its own
# when it exits non-zero without one (a crash, a syntax error)
sides() {
	local n=$1 rc
	[ -s "$n.html" ] || { fail "html-sides-$n-browser" "no $n.html"; return; }
	node "$SRC/tests/html/check-diff-sides.js" --name "html-sides-$n" --html "$n.html" --tables "$2" \
		--shot "$SHOTS/diff-sides-$n.png" --chromium "$CHROMIUM" >"$n.out" 2>&1
	rc=$?
	cat "$n.out"
	[ $rc = 0 ] || grep -q '^FAIL ' "$n.out" ||
		fail "html-sides-$n-check" "exited with status $rc: $(grep -m1 Error "$n.out" || tail -n 1 "$n.out")"
}
sides page true,false
sides rev false,true
sides both true,true
sides multi true,true
# the check itself: the page as it was before the flag (the new side's
# buckets drawn as zeros) fails where it must
if [ -s zeros.html ]; then
	node "$SRC/tests/html/check-diff-sides.js" --name zeros --html zeros.html --tables true,false \
		--shot zeros.png --chromium "$CHROMIUM" >zeros.out 2>&1; rc=$?
	missing=""
	for c in loads data-says-tables new-says-no-tables new-draws-no-zeros change-says-no-tables \
		 change-draws-no-zeros hover-other-side-dash fields-new-dash; do
		want=FAIL
		[ $c = loads ] && want=PASS
		grep -q "^$want zeros-$c\b" zeros.out || missing="$missing $want:$c"
	done
	[ -z "$missing" ] && [ $rc != 0 ] && pass html-sides-check-catches-zeros ||
		fail html-sides-check-catches-zeros "not as wanted:$missing (rc $rc); $(grep -c '^PASS' zeros.out) PASS lines"
else
	fail html-sides-check-catches-zeros "no zeros.html"
fi
# the page of runs with and without tables against diff --json, cell by cell, in the browser
if [ -s multi.html ]; then
	node "$SRC/tests/html/check-page.js" --name html-sides-multi-page --html multi.html --expect-diff multi-all.json \
		--shot "$SHOTS/diff-sides-multi-page.png" --chromium "$CHROMIUM" --max-load-cpu-ms 5000 >mp.out 2>&1; rc=$?
	cat mp.out
	[ $rc = 0 ] || grep -q '^FAIL ' mp.out || fail html-sides-multi-page "exited with status $rc: $(tail -n 1 mp.out)"
	grep -q '^PASS html-sides-multi-page-heat-new-equal-json$' mp.out ||
		fail html-sides-multi-page-new "no PASS of heat-new-equal-json: $(grep -m1 'heat-new' mp.out)"
fi
done_tests
