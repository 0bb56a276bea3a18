#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# SIGINT or SIGTERM while record is still setting up (tracefs, BTF, BPF,
# opening the events) ends the run within a few seconds, as one during
# recording does: exit 0, the workload gone, and either no file (the message
# says "not written") or a complete one that hitmap and perf 6.1 read.
#   - at 0, 5, 20, 100 and 300 ms after the launch, at the machine's own pace;
#   - with each set-up step made 500 ms longer (a busy machine, where set-up
#     took seconds and the stop waited for all of it: 15-40 s).
. tests/lib.sh

if [ "$(id -u)" != 0 ] || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	skip record-signal-setup "needs root and the lock tracepoints"; done_tests
fi
LIMIT_MS=3000
files=()
# job control: without it a background command starts with SIGINT ignored
# until it sets its own handler, and a SIGINT at 0 ms would be lost to the shell
set -m

# one SIG MS SLOW: record, signal MS ms after the launch (MS=file: as soon as the
# file is started), check; the file to read goes to files
one() {
	local sig=$1 ms=$2 slow=$3 f=$TMP/s-$1-$2-${3:-0}.data
	local name="SIG$1 at $2 ms${3:+ (slow set-up)}" pid t0 t1 rc dt left w
	[ "$ms" = file ] && name="SIG$1 as the file starts"
	rm -f "$f"
	HITMAP_RECORD_TEST_SLOW_SETUP=$slow "$HITMAP" record --mode contention -o "$f" \
		--workload futex-hash -r 20 -s >/dev/null 2>"$TMP/rec.err" &
	pid=$!
	if [ "$ms" = file ]; then
		for ((w = 0; w < 2000; w++)); do [ -s "$f" ] || ! kill -0 $pid 2>/dev/null && break; sleep 0.005; done
	elif [ "$ms" -gt 0 ]; then
		sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
	fi
	# hitmap's handler for SIG set yet?  Not under a slow start (ASan's set-up
	# in a SAN=1 build, a busy machine): then the default action is right
	local cgt caught=1
	cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
	[ -n "$cgt" ] && (((0x$cgt >> ($(kill -l "$sig") - 1) & 1) == 0)) && caught=0
	t0=$(date +%s%N)
	kill -"$sig" $pid
	{ wait $pid; rc=$?; } 2>/dev/null
	t1=$(date +%s%N)
	dt=$(((t1 - t0) / 1000000))
	sleep 0.1
	left=$(pgrep -f -- "$f")
	[ -n "$left" ] && kill -KILL $left 2>/dev/null
	if [ $dt -gt $LIMIT_MS ]; then
		fail "$name: stops within $LIMIT_MS ms" "took $dt ms"; return
	fi
	if [ -n "$left" ]; then
		fail "$name: no process left" "pids $left"; return
	fi
	if [ $rc -ne 0 ]; then
		# only a kill before hitmap ran (its handlers not yet set): the default action, nothing written
		if { [ "$ms" = 0 ] || [ $caught = 0 ]; } && [ $rc -eq $((128 + $(kill -l "$sig"))) ] && [ ! -e "$f" ] && [ ! -s "$TMP/rec.err" ]; then
			pass "$name: killed before hitmap started ($dt ms)"; return
		fi
		fail "$name: exits 0" "rc $rc: $(tail -n 1 "$TMP/rec.err")"; return
	fi
	if grep -q 'not written' "$TMP/rec.err"; then
		[ ! -e "$f" ] && pass "$name: $dt ms, exit 0, nothing written" ||
			fail "$name: no file when it says 'not written'" "$(ls -l "$f")"
		return
	fi
	if ! grep -q 'interrupted, the file is complete' "$TMP/rec.err"; then
		fail "$name: says what it left" "$(tail -n 2 "$TMP/rec.err" | tr '\n' ' ')"; return
	fi
	if ! "$HITMAP" stat -i "$f" >/dev/null 2>"$TMP/stat.err"; then
		fail "$name: hitmap reads the file" "$(head -n 1 "$TMP/stat.err")"; return
	fi
	files+=("$f")
	pass "$name: $dt ms, exit 0, a complete file"
}

for sig in INT TERM; do
	for ms in 0 5 20 100 300; do
		one $sig $ms ""
	done
	one $sig file ""

	# set-up takes 5 s or more here: every signal lands in it
	for ms in 100 1500; do
		one $sig $ms 500
	done
done

# the oldest installed perf: 6.1 on Debian 12, 7.3 in the Debian 13 chroot
PRV=$(oracle_perfs | awk '{ print $1 }')
if [ ${#files[@]} -gt 0 ] && need_perf "${PRV:-6.1}" record-signal-setup.perf-reads; then
	bad=0
	perf_each "$PRV" "$TMP/perf" script "${files[@]}"
	for f in "${files[@]}"; do
		b=${f##*/}
		rc=$(cat "$TMP/perf/$b.rc" 2>/dev/null || echo 1)
		[ "$rc" = 0 ] || { bad=$((bad + 1)); echo "# perf $PRV script $b: $(perf_crash_why "$TMP/perf/$b.err" "$rc")"; }
	done
	[ $bad -eq 0 ] && pass "record-signal-setup.perf-reads (${#files[@]} files: perf $PRV script exits 0)" ||
		fail record-signal-setup.perf-reads "$bad of ${#files[@]} files"
fi
done_tests
