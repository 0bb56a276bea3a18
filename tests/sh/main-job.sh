#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What `make run` prints (scripts/main-job.sh, 1 s of the workload): the
# bucket table has no column that is zero in every row, the contention-mode
# file does not claim "0 samples in futex memory", and the output ends with
# a "Next:" block naming commands to run.  `report` prints its own "next:"
# hints on a terminal (HITMAP_HINTS=1 here), never into a pipe.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip main-job "no $HITMAP; build first"; done_tests; }
if [ "$(id -u)" -ne 0 ] || ! have_tracefs; then
	skip main-job "needs root and tracefs to record (contention mode fallback)"
else
	HITMAP_RUNTIME=1 HITMAP_OUT=$TMP/run.data timeout 120 scripts/main-job.sh >"$TMP/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && pass main-job-runs || fail main-job-runs "rc=$rc $(tail -3 "$TMP/out")"
	sed 's/^/# /' "$TMP/out" | tail -12
	awk '/^Next:$/ { n = 1; next } n && /hitmap (report|record|simulate|diff)/ { ok = 1 } END { exit !ok }' "$TMP/out" &&
		pass main-job-names-next-step || fail main-job-names-next-step "no 'Next:' block with a command"
	# every column of the bucket table holds a non-zero value somewhere (when it has rows)
	bad=$(awk '/^TABLE / { hdr = $0; n = split($0, h, / +/); inrow = 1; next }
		inrow && /^$/ { inrow = 0 }
		inrow && /^(private|global|unknown)/ {
			rows++; m = split($0, v, / +/)
			for (i = 1; i <= m; i++) if (v[i] != "0" && v[i] != "0.0" && v[i] != "0.00") nz[i] = 1
			cols = m
		}
		END { if (rows) for (i = 4; i <= cols; i++) if (!nz[i] && h[i] != "|") printf "%s ", h[i] }' "$TMP/out")
	[ -z "$bad" ] && pass main-job-no-all-zero-column || fail main-job-no-all-zero-column "all zero: $bad"
	if grep -q 'contention mode' "$TMP/out"; then
		"$HITMAP" report -i "$TMP/run.data" --html "$TMP/run.html" >/dev/null 2>&1
		grep -q '0 futex buckets touched' "$TMP/run.html" &&
			fail main-job-html-contention-subtitle "$(grep -o '<header>.\{0,200\}' "$TMP/run.html")" ||
			pass main-job-html-contention-subtitle
		grep -q ' 0 samples in futex memory' "$TMP/out" && fail main-job-contention-no-memory-claims "$(grep -m1 'samples in futex memory' "$TMP/out")" ||
			pass main-job-contention-no-memory-claims
	fi
fi
# report's own hints: on request (a terminal), never in a pipe by default
GEN=$HITMAP_BUILD/tools/hm-gen
if [ -x "$GEN" ]; then
	"$GEN" -o "$TMP/g.data" -n 20000 -l 20 >/dev/null 2>&1
	HITMAP_HINTS=1 "$HITMAP" report -i "$TMP/g.data" >/dev/null 2>"$TMP/h"
	grep -q -- "--tui" "$TMP/h" && grep -q '^next:' "$TMP/h" && pass report-hints || fail report-hints "$(head -c 200 "$TMP/h")"
	"$HITMAP" report -i "$TMP/g.data" >"$TMP/o1" 2>"$TMP/h2"
	[ ! -s "$TMP/h2" ] && pass report-no-hints-off-terminal || fail report-no-hints-off-terminal "$(head -c 200 "$TMP/h2")"
fi
# a contention-mode file's hints are contention mode's (its tracepoint
# samples are records, not memory samples): no heat map of fields offered
CGEN=$HITMAP_BUILD/tools/hm-cont-gen
if [ -x "$CGEN" ] && "$CGEN" -o "$TMP/c.data" -e "$TMP/c.json" -n 500 --seed 3 >/dev/null 2>&1; then
	HITMAP_HINTS=1 "$HITMAP" report -i "$TMP/c.data" >/dev/null 2>"$TMP/h3"
	grep -q -- '--by bucket .*(contention mode)' "$TMP/h3" && ! grep -q -- '--html' "$TMP/h3" &&
		pass report-hints-contention || fail report-hints-contention "$(head -c 400 "$TMP/h3")"
else
	fail report-hints-contention "cannot make a contention file with $CGEN"
fi
done_tests
