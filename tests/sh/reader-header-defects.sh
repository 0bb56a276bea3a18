#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Reader and header defects, each once seen:
#  - stat of a file cut inside its last feature section printed nothing and
#    exited 1 though every record was read, with a second, wrong warning of
#    bytes after the last feature section: the counts, exit 3, one warning;
#  - header printed the clockid frequency 1000x too low and no "clockid = N"
#    in the event line (perf: resolution in ns x 1000 "MHz", clockid after
#    the attr's stack size);
#  - header named a pipe-mode event "unknown 6:0x300e601" where its
#    EVENT_DESC, sent before HEADER_ATTR (perf 4.14), names it intel_pt//.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip reader-header-defects "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
need_fixtures reader-header-defects
S=$FIXTURES/linux-perf-data/sleep.data
PD=$FIXTURES/perf_data_converter

if [ -f "$S" ]; then
	# cut inside the last feature section (PMU_CAPS at 12868, 2252 bytes)
	head -c 15119 "$S" >"$TMP/t1.data"
	"$HITMAP" stat -i "$TMP/t1.data" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	"$HITMAP" stat -i "$S" >"$TMP/full" 2>/dev/null
	if [ $rc -eq 3 ] && [ -s "$TMP/out" ] && cmp -s "$TMP/out" "$TMP/full"; then
		pass "reader-header-defects.stat_cut_feature: the counts, exit 3"
	else fail reader-header-defects.stat_cut_feature "rc $rc, $(wc -l <"$TMP/out") lines: $(head -c 200 "$TMP/err")"; fi
	if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q 'offset 12868: feature PMU_CAPS' "$TMP/err"; then
		pass "reader-header-defects.stat_cut_feature: one warning, naming the section"
	else fail "reader-header-defects.stat_cut_feature: one warning" "$(tr '\n' ' ' <"$TMP/err" | head -c 300)"; fi
	# and at every cut inside the feature sections: the counts, exit 3, no
	# warning of bytes after the sections
	size=$(stat -c %s "$S")
	bad=0 tried=0
	for ((cut = 11700; cut < size; cut += 397)); do
		head -c $cut "$S" >"$TMP/c.data"
		"$HITMAP" stat -i "$TMP/c.data" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		tried=$((tried + 1))
		if [ $rc -ne 3 ] || ! cmp -s "$TMP/out" "$TMP/full" || grep -q 'after the last feature' "$TMP/err"; then
			bad=$((bad + 1))
			[ $bad -le 3 ] && echo "# cut at $cut: rc $rc: $(head -c 200 "$TMP/err")"
		fi
	done
	[ $bad -eq 0 ] && pass "reader-header-defects.stat_feature_cuts ($tried cuts)" ||
		fail reader-header-defects.stat_feature_cuts "$bad of $tried cuts"
	"$HITMAP" header -i "$TMP/t1.data" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 3 ] && pass "reader-header-defects.header_cut_feature" ||
		fail reader-header-defects.header_cut_feature "rc $rc, expected 3"

	# clockid, as perf prints it
	"$HITMAP" header -i "$S" >"$TMP/h" 2>/dev/null
	grep -q '^# clockid frequency: 1000 MHz$' "$TMP/h" && pass "reader-header-defects.clockid_frequency" ||
		fail reader-header-defects.clockid_frequency "$(grep clockid "$TMP/h" | tail -n 1)"
	grep -q '^# event : .*, use_clockid = 1, .*, clockid = 1' "$TMP/h" && pass "reader-header-defects.event_clockid" ||
		fail reader-header-defects.event_clockid "no 'clockid = 1' in the event line"
	for v in 6.12 7.3; do
		pc=$(perf_cmd $v) || continue
		$pc report --header-only -i "$S" >"$TMP/ph" 2>"$TMP/pe"
		want=$(grep '^# clockid frequency' "$TMP/ph")
		[ -n "$want" ] && [ "$want" = "$(grep '^# clockid frequency' "$TMP/h")" ] &&
			pass "reader-header-defects.clockid_frequency as perf $v" ||
			fail "reader-header-defects.clockid_frequency as perf $v" "perf: '$want' ($S: $(head -n 1 "$TMP/pe"))"
	done
fi

# pipe-mode EVENT_DESC before HEADER_ATTR
f=$PD/perf.data.piped.intel_pt-4.14
if [ -f "$f" ]; then
	"$HITMAP" header -i "$f" 2>/dev/null | grep -m1 '^# event' >"$TMP/ev"
	grep -q '^# event : name = intel_pt//, ' "$TMP/ev" && pass "reader-header-defects.pipe_event_desc" ||
		fail reader-header-defects.pipe_event_desc "$(cut -c1-80 "$TMP/ev")"
	"$HITMAP" header --json -i "$f" 2>/dev/null | jq -r '.events[0].name' 2>/dev/null | grep -qx 'intel_pt//' &&
		pass "reader-header-defects.pipe_event_desc --json" ||
		fail "reader-header-defects.pipe_event_desc --json" "events[0].name is not intel_pt//"
fi
done_tests
