#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Arm SPE recording.  Everywhere: the AUX ring consumer's output (the unit
# test's recording through a 4 KiB AUX area that wraps many times, with
# padding, written as perf record writes it: TIME_CONV, AUXTRACE_INFO v2,
# AUXTRACE records) is read by real perf 7.3's SPE decoder as the same
# samples as by hitmap.  On an Arm machine with SPE: `hitmap record --mode
# spe` maps the AUX areas and writes a file whose SPE samples perf 7.3 and
# hitmap read alike; elsewhere that part SKIPs.
. tests/lib.sh
UNIT=${HITMAP_BUILD}/tests/test-aux-ring
[ -x "$HITMAP" ] && [ -x "$UNIT" ] || { skip spe-record-live "no $HITMAP or $UNIT; build with make tests"; done_tests; }
P73=
need_perf 7.3 "spe-record: perf 7.3 side" && P73=1

fields="pid,tid,cpu,time,addr,data_src,ip"
script_h() { "$HITMAP" script -F $fields -i "$1" 2>/dev/null | awk '{print $1,$2,$3,$4,$5,$NF}' | sort; }
script_p() { perfv 7.3 script --itrace=M -F $fields -i "$1" 2>/dev/null | awk '{print $1,$2,$3,$4,$5,$NF}' | sort; }

# the consumer's file (the unit test keeps it with HM_AUX_RING_KEEP)
f=$(HM_AUX_RING_KEEP=1 "$UNIT" | sed -n 's/^# file kept: //p')
if [ -z "$f" ] || [ ! -f "$f" ]; then
	fail "spe-record: AUX ring file" "the unit test kept no file"
else
	mv "$f" "$TMP/ring.data"
	n=$(script_h "$TMP/ring.data" | wc -l)
	[ "$n" -eq 2400 ] && pass "spe-record: AUX ring file: hitmap reads all 2400 SPE records" ||
		fail "spe-record: AUX ring file: hitmap reads all 2400 SPE records" "$n"
	if [ -n "$P73" ]; then
		if diff <(script_p "$TMP/ring.data") <(script_h "$TMP/ring.data") >"$TMP/d"; then
			pass "spe-record: AUX ring file: perf 7.3 decodes the same $n samples"
		else
			fail "spe-record: AUX ring file: perf 7.3 decodes the same samples" "$(head -4 "$TMP/d" | tr '\n' ' ')"
		fi
	fi
fi

# live
if ! ls /sys/bus/event_source/devices 2>/dev/null | grep -q '^arm_spe'; then
	skip "spe-record: live recording" "no arm_spe PMU in /sys/bus/event_source/devices"
	done_tests
fi
"$HITMAP" record --mode spe -o "$TMP/live.data" --json -- \
	sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' >"$TMP/live.json" 2>"$TMP/live.err"
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
	fail "spe-record: live: hitmap record --mode spe" "rc $rc: $(head -n 2 "$TMP/live.err" | tr '\n' ' ')"
	done_tests
fi
[ $rc -eq 3 ] && ! grep -q 'AUX data lost\|AUX data had gaps\|overwritten' "$TMP/live.err" &&
	fail "spe-record: live: exit 3 says what was lost" "$(head -n 2 "$TMP/live.err")"
aux=$(jq -r '.aux_records // 0' "$TMP/live.json")
[ "$aux" -gt 0 ] && pass "spe-record: live: $aux AUXTRACE records written" ||
	fail "spe-record: live: AUXTRACE records written" "aux_records $aux"
n=$(script_h "$TMP/live.data" | wc -l)
[ "$n" -gt 0 ] && pass "spe-record: live: hitmap decodes $n SPE samples" ||
	fail "spe-record: live: hitmap decodes SPE samples" "none"
if [ -n "$P73" ]; then
	if diff <(script_p "$TMP/live.data") <(script_h "$TMP/live.data") >"$TMP/d"; then
		pass "spe-record: live: perf 7.3 decodes the same samples"
	else
		fail "spe-record: live: perf 7.3 decodes the same samples" "$(head -4 "$TMP/d" | tr '\n' ' ')"
	fi
fi
done_tests
