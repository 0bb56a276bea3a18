#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap script against every installed perf script, byte for byte, on what
# perf prints by default and hitmap did not: the period of fixed-period
# events, call chains (one frame a line under the sample, comm unpadded;
# perf 6.1's file-relative user frames), ":TID" for a thread's samples after
# its EXIT (perf 6.12 and later), -G, ins_lat and retire_lat (6.12 and
# later) of raw PMU events with WEIGHT_STRUCT.  Both print perf's default
# fields less the symbol ones (-F -sym,-dso,-symoff; script-sym.sh compares
# the symbols); --no-inline keeps both from adding inlined frames from
# installed debug info (tests/sh/script-inline.sh compares those).
. tests/lib.sh

PERFS=$(oracle_perfs)
if [ -z "$PERFS" ]; then
	skip script-parity "no perf installed (perf-6.1, perf-6.12 or perf-7.3 on PATH)"
	done_tests
fi
KS=$(perf_ksyms)

# same NAME FILE 'PERF ARGS' 'HITMAP ARGS': hitmap script --perf-compat V
# against perf V script for every installed V
same() {
	local n=$1 f=$2 pa=$3 ha=$4 v rc
	for v in $PERFS; do
		# shellcheck disable=SC2086  # the argument lists split on purpose
		perfv "$v" script --no-inline $KS -i "$f" $pa >"$TMP/$n.$v.perf" 2>"$TMP/$n.$v.perr"
		rc=$?
		# shellcheck disable=SC2086
		"$HITMAP" script --no-inline --perf-compat "$v" -i "$f" $ha >"$TMP/$n.$v.hm" 2>"$TMP/$n.$v.herr"
		if [ $rc -ne 0 ] || [ ! -s "$TMP/$n.$v.perf" ]; then
			skip "script-parity.$n (perf $v)" "perf $v script failed: $(perf_crash_why "$TMP/$n.$v.perr" $rc)"
		elif cmp -s "$TMP/$n.$v.perf" "$TMP/$n.$v.hm"; then
			pass "script-parity.$n = perf $v script ($(wc -l <"$TMP/$n.$v.hm") lines)"
		else
			fail "script-parity.$n (perf $v)" "differs from perf $v script $pa: $(diff "$TMP/$n.$v.perf" "$TMP/$n.$v.hm" 2>&1 | head -5 | tr '\n' ' ' | cut -c1-400)"
		fi
	done
}
DEF="-F -sym,-dso,-symoff"

# fixtures: a fixed-period file (period from attr.sample_period), call chains
if [ -d "$FIXTURES" ]; then
	P=$FIXTURES/perf_data_converter
	same fx-period "$P/perf.data.busy.0-3.8" "$DEF" "$DEF"
	same fx-callgraph "$P/perf.data.callgraph-3.8" "$DEF" "$DEF"
	same fx-weight-struct "$P/perf.data.weight_struct" "$DEF" "$DEF"
	same fx-callgraph-ip "$P/perf.data.callgraph_and_branch-3.4" "-F tid,time,ip" "-F tid,time,ip"
else
	skip script-parity.fixtures "no fixtures at $FIXTURES (set HITMAP_FIXTURES)"
fi

if ! can_record; then
	skip script-parity.record "perf cannot record here (perf record -e cpu-clock failed: perf_event_paranoid or no perf_event_open)"
	done_tests
fi

# fixed period with call chains: kernel and user frames
perf record -q -o "$TMP/cc.data" -e cpu-clock -c 100000 -g -- ls -lR /usr/share/doc/bash >/dev/null 2>&1
same cc "$TMP/cc.data" "$DEF" "$DEF"
same cc-ip "$TMP/cc.data" "-F comm,tid,ip" "-F comm,tid,ip"
same cc-period "$TMP/cc.data" "-F tid,time,period,ip" "-F tid,time,period,ip"
same cc-hide "$TMP/cc.data" "$DEF -G" "$DEF -G"

# pipe mode with call chains
perf record -q -o - -e cpu-clock -c 100000 -g -- ls -lR /usr/share/doc/bash 2>/dev/null >"$TMP/pipe.data"
same pipe "$TMP/pipe.data" "$DEF" "$DEF"

# short-lived processes, system-wide: the CPU event keeps sampling a task
# after its EXIT record, and perf 6.12 and later show those samples as
# ":TID" (the thread is gone), perf 6.1 with the old comm
perf record -q -a -o "$TMP/exit.data" -e cpu-clock -c 20000 -- \
	sh -c 'for i in 1 2 3; do (sleep 0.01; ls >/dev/null) & done; wait' >/dev/null 2>&1
if [ ! -s "$TMP/exit.data" ]; then
	skip script-parity.exit "perf record -a failed here (system-wide sampling refused)"
else
	same exit "$TMP/exit.data" "$DEF" "$DEF"
	# the newest perf's count of ":TID" samples against hitmap's
	v=${PERFS##* }
	n=$(awk '$1 == ":" $2' "$TMP/exit.$v.perf" | wc -l)
	h=$(awk '$1 == ":" $2' "$TMP/exit.$v.hm" | wc -l)
	if [ "$v" = 6.1 ]; then
		skip script-parity.exit_tid "perf 6.1 keeps the comm of an exited thread; perf 6.12 or 7.3 tells ':TID'"
	elif [ "$n" -eq 0 ]; then
		skip script-parity.exit_tid "no sample came after its thread's EXIT in this recording (perf $v printed no ':TID' line)"
	elif [ "$h" -eq "$n" ]; then
		pass "script-parity.exit_tid: $n samples after their thread's EXIT print ':TID', as in perf $v"
	else
		fail script-parity.exit_tid "perf $v printed $n ':TID' samples after EXIT, hitmap $h"
	fi
fi
# a sample with pid and tid -1 (system-wide, no task: seen in a CI run of
# the EXIT recording above): perf names it ":-1", once ":4294967295" here
if command -v python3 >/dev/null; then
	python3 - "$TMP/tidm1.data" <<'EOF2'
import struct, sys
out = open(sys.argv[1], 'wb')
out.write(b'PERFILE2' + struct.pack('<Q', 16))
attr = struct.pack('<IIQQQQQIIQ', 1, 64, 0, 10000, 0x107, 0, 0, 0, 0, 0)  # cpu-clock, IP|TID|TIME|PERIOD
out.write(struct.pack('<IHH', 64, 0, 8 + len(attr)) + attr)
for pid, tid, t in ((-1, -1, 1000000000), (42, 42, 1000001000)):
    body = struct.pack('<QiiQQ', 0xffffffff81000000, pid, tid, t, 10000)
    out.write(struct.pack('<IHH', 9, 1, 8 + len(body)) + body)
EOF2
	same tid-minus-1 "$TMP/tidm1.data" "-F comm,tid,time,ip" "-F comm,tid,time,ip"
else
	skip script-parity.tid-minus-1 "python3 is not installed"
fi
done_tests
