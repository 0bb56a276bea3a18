#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The HTML report and the HTML diff in headless Chromium (tests/html/check-page.js
# over the DevTools pipe): loads with no console errors and no network
# requests, one heat-map cell per bucket x socket with the values of
# `hitmap diff --metrics` (the metric JSON), a paged table that sorts, a
# screenshot; and a 1M-sample report with 100k lines and 32k buckets loads
# in under 2 s of its renderer's CPU time (CPU, not wall time: a busy machine
# does not fail it, a slower page does).  Screenshots stay in
# $HITMAP_BUILD/test-html/.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-diff-gen
SHOTS=$HITMAP_BUILD/test-html
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$GEN" ] || [ ! -x "$HITMAP" ]; then
	skip html "build $GEN and $HITMAP first (make tests)"
	done_tests
fi
mkdir -p "$SHOTS"
"$GEN" -o "$TMP/g1.data" --seed 1 -n 30000 --ops 100000
"$GEN" -o "$TMP/g2.data" --seed 2 -n 30000 --ops 100000
"$GEN" -o "$TMP/p1.data" --mode private --seed 11 -n 30000 --ops 140000
"$GEN" -o "$TMP/p2.data" --mode private --seed 12 -n 30000 --ops 140000

# the pages themselves, whether or not a browser is here
"$HITMAP" diff --metrics "$TMP/g1.data" >"$TMP/g1.json"
if "$HITMAP" report -i "$TMP/g1.data" --html "$TMP/report.html" >/dev/null 2>"$TMP/report.err"; then
	pass html-report-written
else
	fail html-report-written "$(head -c 300 "$TMP/report.err")"
fi
check html-diff-written "$HITMAP" diff --html "$TMP/diff.html" "$TMP/g1.data" "$TMP/g2.data" -- "$TMP/p1.data" "$TMP/p2.data"
for p in report diff; do
	f=$TMP/$p.html
	# one file: nothing to fetch (no src=, href=, url(), @import, fetch, XHR), a CSP that forbids it
	if grep -Eq 'src=|href=|url\(|@import|fetch\(|XMLHttpRequest|<link' "$f"; then
		fail html-$p-self-contained "$(grep -Eo '.{20}(src=|href=|url\(|@import|fetch\(|XMLHttpRequest|<link).{20}' "$f" | head -1)"
	else
		pass html-$p-self-contained
	fi
	check html-$p-csp grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$f"
done

if [ ! -x "$CHROMIUM" ]; then
	skip html-chromium "no $CHROMIUM (Debian package chromium)"
	done_tests
fi
if ! command -v node >/dev/null; then
	skip html-chromium "no node to drive Chromium's DevTools protocol"
	done_tests
fi
# check_page NAME ARGS...: check-page.js's PASS/FAIL lines; a FAIL of its own
# when it exits non-zero without one (a crash, a syntax error)
check_page() {
	local n=$1 rc
	shift
	node tests/html/check-page.js --name "$n" "$@" --chromium "$CHROMIUM" >"$TMP/page.out" 2>&1
	rc=$?
	cat "$TMP/page.out"
	[ $rc = 0 ] || grep -q '^FAIL ' "$TMP/page.out" ||
		fail "$n-check-page" "exited with status $rc: $(grep -m1 Error "$TMP/page.out" || tail -n 1 "$TMP/page.out")"
}
check_page report --html "$TMP/report.html" --expect "$TMP/g1.json" --shot "$SHOTS/report.png"
"$HITMAP" diff --all --json "$TMP/g1.data" "$TMP/g2.data" -- "$TMP/p1.data" "$TMP/p2.data" >"$TMP/diff-all.json"
check_page diff --html "$TMP/diff.html" --expect-diff "$TMP/diff-all.json" --shot "$SHOTS/diff.png"

# a simulated 6.16 run: the private hash header line beside the buckets
"$HITMAP" simulate --preset skx --cores 2 --smt 1 --futexes 16 --ops 20000 --kernel 6.16 -o "$TMP/sim.data" >/dev/null 2>&1
"$HITMAP" report -i "$TMP/sim.data" --html "$TMP/sim.html" >/dev/null 2>&1
"$HITMAP" diff --metrics "$TMP/sim.data" >"$TMP/sim.json" 2>/dev/null
check_page sim --html "$TMP/sim.html" --expect "$TMP/sim.json" --shot "$SHOTS/sim.png" \
	--max-load-cpu-ms 5000

# size: 1M samples, 100k shared lines, 32k buckets
"$GEN" -o "$TMP/big.data" --seed 7 -n 1000000 --lines 100000 --buckets 32768
t0=$(date +%s.%N)
"$HITMAP" report -i "$TMP/big.data" --html - >"$TMP/big.html"
t1=$(date +%s.%N)
"$HITMAP" diff --metrics "$TMP/big.data" >"$TMP/big.json"
echo "# big: report --html of 1M samples in $(echo "$t1 - $t0" | bc) s, page $(stat -c %s "$TMP/big.html") bytes"
# (grep, not jq: the JSON has a key per line and jq takes long on 500k keys)
check big-has-100k-lines [ "$(grep -c '^ *"line\..*\.samples":' "$TMP/big.json")" -ge 100000 ]
check big-has-32k-buckets [ "$(grep -o '^ *"futex\.global\.node0\.bucket\.[0-9]*\.' "$TMP/big.json" | sort -u | wc -l)" -ge 32768 ]
# (its checks take ~15 s of CPU: 90 s of watchdog is too little on a busy machine)
check_page big --html "$TMP/big.html" --expect "$TMP/big.json" --shot "$SHOTS/big.png" \
	--max-load-cpu-ms 2000 --watchdog-s 400
done_tests
