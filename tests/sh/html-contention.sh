#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The HTML report of a contention-mode file (lock:contention_begin/end
# tracepoints, tests/tools/hm-cont-gen): its contention view, waits per
# bucket, per socket and per caller with average and maximum wait, holds
# the numbers of 'hitmap report --stdio --by bucket' and '--by socket', in
# headless Chromium (tests/html/check-contention.js): no console errors, no
# network requests, a screenshot in $HITMAP_BUILD/test-html/.  A memory-mode
# page has no contention view.  The file's contention_begin events carry
# kernel call chains: the callers are the waiting code with the generator's
# counts and waits (the report keeps each queued sample's call chain).
. tests/lib.sh
CGEN=$HITMAP_BUILD/tools/hm-cont-gen
SHOTS=$HITMAP_BUILD/test-html
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CGEN" ] || [ ! -x "$HITMAP" ]; then
	skip html-contention "build $CGEN and $HITMAP first (make tests)"
	done_tests
fi
mkdir -p "$SHOTS"
# contention_begin with kernel call chains into the generator's own kernel symbols
"$CGEN" -o "$TMP/c.data" -e "$TMP/c.json" -n 4000 --seed 7 --callchain "$TMP/k.syms" >/dev/null 2>&1
K="--kallsyms $TMP/k.syms"
if "$HITMAP" report -i "$TMP/c.data" $K --html "$TMP/c.html" >/dev/null 2>"$TMP/err"; then
	pass html-contention-written
else
	fail html-contention-written "$(head -c 300 "$TMP/err")"
	done_tests
fi
"$HITMAP" report --stdio --by bucket -i "$TMP/c.data" $K >"$TMP/bucket" 2>/dev/null
"$HITMAP" report --stdio --by socket -i "$TMP/c.data" $K >"$TMP/socket" 2>/dev/null
# the callers are the call chains' (not the spin-lock slow path), with the generator's counts and waits
if command -v jq >/dev/null; then
	# CONTENDED CALLER WAIT_US (the wait to 0.1 us: --stdio rounds it)
	jq -r '.callers[] | "\(.contended)|\(.caller)|\(.wait_ns / 1000)"' "$TMP/c.json" | sort >"$TMP/cw"
	awk '/^ *CONTENDED +TOTAL_WAIT_US/ { t = 1; next } t && NF >= 5 { c = $5; for (i = 6; i <= NF; i++) c = c " " $i
		print $1 "|" c "|" $2 }' "$TMP/bucket" | sort >"$TMP/cg"
	if [ -s "$TMP/cw" ] && awk -F'|' 'NR == FNR { w[$1 "|" $2] = $3; n++; next }
		{ k = $1 "|" $2; if (!(k in w) || $3 - w[k] > 0.051 || w[k] - $3 > 0.051) bad = 1; m++ }
		END { exit bad || m != n }' "$TMP/cw" "$TMP/cg"; then
		pass contention-callers-from-call-chains
	else
		fail contention-callers-from-call-chains "--stdio '$(tr '\n' ' ' <"$TMP/cg")', generated '$(tr '\n' ' ' <"$TMP/cw")'"
	fi
else
	skip contention-callers-from-call-chains "no jq (Debian package jq)"
fi
# what --stdio prints, as TSV rows: bucket TABLE NODE INDEX CONTENDED WAIT_US AVG_US MAX_US FIELD CALLERS,
# socket SOCKET NODE CONTENDED WAIT_US AVG_US, caller CONTENDED TOTAL_WAIT_US AVG_US MAX_US CALLER
{
	awk '/^TABLE / { t = 1; next } t && /^(global|private:[0-9]+|unknown) / {
		sub(/ *\| */, " "); n = split($0, f, / +/); c = f[9]; for (i = 10; i <= n; i++) c = c " " f[i]
		print "bucket\t" f[1] "\t" f[2] "\t" f[3] "\t" f[4] "\t" f[5] "\t" f[6] "\t" f[7] "\t" f[8] "\t" c }
		/^$/ { t = 0 }' "$TMP/bucket"
	awk '/^SOCKET +NODE +CONTENDED/ { t = 1; next } t && NF == 5 { print "socket\t" $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 }' "$TMP/socket"
	awk '/^ *CONTENDED +TOTAL_WAIT_US/ { t = 1; next } t && NF >= 5 { c = $5; for (i = 6; i <= NF; i++) c = c " " $i
		print "caller\t" $1 "\t" $2 "\t" $3 "\t" $4 "\t" c }' "$TMP/bucket"
} >"$TMP/want.tsv"
nb=$(grep -c '^bucket' "$TMP/want.tsv"); ns=$(grep -c '^socket' "$TMP/want.tsv"); nc=$(grep -c '^caller' "$TMP/want.tsv")
echo "# --stdio: $nb contended buckets, $ns socket rows, $nc callers"
# the page holds the section whether or not a browser is here
grep -q 'id="contention-buckets"' "$TMP/c.html" && grep -q 'id="contention-callers"' "$TMP/c.html" &&
	pass html-contention-section || fail html-contention-section "no contention tables in the page"
# a memory-mode page has none
"$HITMAP" simulate --preset skx --cores 2 --smt 1 --futexes 16 --ops 5000 -o "$TMP/m.data" >/dev/null 2>&1
"$HITMAP" report -i "$TMP/m.data" --html "$TMP/m.html" >/dev/null 2>&1
[ -s "$TMP/m.html" ] && ! grep -q 'contention-section' "$TMP/m.html" && pass html-memory-mode-no-contention ||
	fail html-memory-mode-no-contention "a contention section on a memory-mode page (or no page)"

if [ ! -x "$CHROMIUM" ]; then
	skip html-contention-chromium "no $CHROMIUM (Debian package chromium)"
	done_tests
fi
if ! command -v node >/dev/null; then
	skip html-contention-chromium "no node to drive Chromium's DevTools protocol"
	done_tests
fi
node tests/html/check-contention.js --name html-contention --html "$TMP/c.html" --expect "$TMP/want.tsv" \
	--shot "$SHOTS/contention.png" --chromium "$CHROMIUM" || _failed=$((_failed + 1))
done_tests
