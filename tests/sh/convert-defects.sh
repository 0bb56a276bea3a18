#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap convert defects, each once seen:
#  - convert -z output read back by hitmap stat warned of bytes after the
#    last feature section (exit 3): every fixture's -z output reads with
#    exit 0 and no warning, and perf reads it;
#  - a failed convert deleted the existing output file; an interrupted one
#    left a temporary file;
#  - pipe-mode EVENT_DESC sent before HEADER_ATTR (perf 4.14..4.16) was
#    dropped: the output has the event names, as perf reads them;
#  - a HOSTNAME of this machine was added to an input that had none;
#  - -o FIFO in file mode wrote everything and then failed to seek;
#  - -o '' and -z 5x were not named as usage errors.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip convert-defects "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
need_fixtures convert-defects
P=
have_perf && P=perf
S=$FIXTURES/linux-perf-data/sleep.data
PD=$FIXTURES/perf_data_converter

# 1. -z output of every fixture: stat exit 0, nothing on stderr; perf reads it
n=0 bad=0 pbad=0
for f in "$FIXTURES"/*/*; do
	[ -f "$f" ] || continue
	case $f in *.md|*.txt) continue ;; esac
	"$HITMAP" convert -i "$f" -o "$TMP/z.data" -z >/dev/null 2>&1 || continue	# corrupt ones
	n=$((n + 1))
	"$HITMAP" stat -i "$TMP/z.data" >/dev/null 2>"$TMP/z.err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$TMP/z.err" ]; then
		bad=$((bad + 1))
		[ $bad -le 3 ] && echo "# $(basename "$f"): convert -z, stat: rc $rc: $(head -c 200 "$TMP/z.err")"
	fi
	if [ -n "$P" ] && ! $P report --stats -i "$TMP/z.data" >/dev/null 2>&1; then
		pbad=$((pbad + 1))
		[ $pbad -le 3 ] && echo "# $(basename "$f"): perf report --stats fails on the -z output"
	fi
done
if [ $n -eq 0 ]; then fail convert-defects.z_clean "no fixture converted"
elif [ $bad -eq 0 ]; then pass "convert-defects.z_clean ($n fixtures: convert -z, stat exits 0 without a warning)"
else fail convert-defects.z_clean "$bad of $n -z outputs read with a warning or non-zero exit"; fi
if [ -n "$P" ]; then
	[ $pbad -eq 0 ] && pass "convert-defects.z_perf ($n -z outputs read by perf)" ||
		fail convert-defects.z_perf "perf refused $pbad of $n -z outputs"
fi
# perf's own -z files read clean too
for f in "$FIXTURES"/linux-perf-data/sleep.compressed.data "$FIXTURES"/linux-perf-data/sleep.compressed2.data; do
	[ -f "$f" ] || continue
	"$HITMAP" stat -i "$f" >/dev/null 2>"$TMP/p.err"
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$TMP/p.err" ] && pass "convert-defects.perf_z_clean $(basename "$f")" ||
		fail "convert-defects.perf_z_clean $(basename "$f")" "rc $rc $(head -c 200 "$TMP/p.err")"
done

# 2. a failed convert keeps the existing output, leaves no temporary file
big=$PD/perf.data.systemwide.5-3.8
if [ -f "$big" ]; then
	mkdir -p "$TMP/o"
	head -c 20000 "$big" >"$TMP/cut.data"
	echo keep >"$TMP/o/exist.data"
	"$HITMAP" convert -i "$TMP/cut.data" -o "$TMP/o/exist.data" >/dev/null 2>"$TMP/c.err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(cat "$TMP/o/exist.data" 2>/dev/null)" = keep ]; then
		pass "convert-defects.keep_on_failure"
	else fail convert-defects.keep_on_failure "rc $rc, exist.data: $(head -c 20 "$TMP/o/exist.data" 2>&1 | tr -c '[:print:]' .)"; fi
	"$HITMAP" convert -i "$TMP/cut.data" -o "$TMP/o/new.data" >/dev/null 2>&1
	left=$(ls -A "$TMP/o" | grep -v '^exist.data$' | tr '\n' ' ')
	[ -z "$left" ] && pass "convert-defects.no_file_left_on_failure" ||
		fail convert-defects.no_file_left_on_failure "left: $left"
	# a successful one replaces it, keeping its mode, through a symlink too
	chmod 600 "$TMP/o/exist.data"
	ln -s exist.data "$TMP/o/link.data"
	if "$HITMAP" convert -i "$S" -o "$TMP/o/link.data" >/dev/null 2>&1 && [ -L "$TMP/o/link.data" ] &&
	   "$HITMAP" stat -i "$TMP/o/exist.data" >/dev/null 2>&1 &&
	   [ "$(stat -c %a "$TMP/o/exist.data")" = 600 ]; then
		pass "convert-defects.replace_through_symlink"
	else fail convert-defects.replace_through_symlink "$(ls -l "$TMP/o" | tr '\n' ' ')"; fi
fi
# SIGINT while the input stream is still open: the old file stays, no temporary
if [ -f "$FIXTURES/linux-perf-data/sleep.compressed.pipe.data" ]; then
	mkdir -p "$TMP/s"
	echo keep >"$TMP/s/exist.data"
	mkfifo "$TMP/in.fifo"
	( cat "$FIXTURES/linux-perf-data/sleep.compressed.pipe.data"; sleep 4 ) >"$TMP/in.fifo" &
	feeder=$!
	"$HITMAP" convert -i "$TMP/in.fifo" -o "$TMP/s/exist.data" >/dev/null 2>&1 &
	pid=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(ls -A "$TMP/s" | wc -l)" -gt 1 ] && break
		sleep 0.2
	done
	had=$(ls -A "$TMP/s" | grep -c hitmap-)
	kill -INT $pid 2>/dev/null
	wait $pid
	rc=$?
	kill $feeder 2>/dev/null
	wait $feeder 2>/dev/null
	left=$(ls -A "$TMP/s" | grep -v '^exist.data$' | tr '\n' ' ')
	if [ "$had" = 1 ] && [ $rc -eq 130 ] && [ -z "$left" ] && [ "$(cat "$TMP/s/exist.data")" = keep ]; then
		pass "convert-defects.sigint_cleans_up"
	else fail convert-defects.sigint_cleans_up "temporary seen $had, rc $rc, left: $left"; fi
fi

# 3. pipe-mode EVENT_DESC ahead of HEADER_ATTR: the names are kept
for t in "piped.intel_pt-4.14 intel_pt//" "piped.no_attr_ids-4.14 cycles" "piped.header_features-4.16 cpu-clock"; do
	read -r name ev <<<"$t"
	f=$PD/perf.data.$name
	[ -f "$f" ] || continue
	if ! "$HITMAP" convert -i "$f" -o "$TMP/e.data" >/dev/null 2>"$TMP/e.err"; then
		fail "convert-defects.event_desc $name" "$(head -n 1 "$TMP/e.err")"
		continue
	fi
	"$HITMAP" header -i "$TMP/e.data" >"$TMP/e.hdr" 2>/dev/null
	if grep -q "^# event : name = $ev, " "$TMP/e.hdr" && grep -q '^# features:.* EVENT_DESC' "$TMP/e.hdr"; then
		pass "convert-defects.event_desc $name: EVENT_DESC names $ev"
	else fail "convert-defects.event_desc $name" "$(grep -E '^# (event|features)' "$TMP/e.hdr" | head -n 2 | cut -c1-120 | tr '\n' ' ')"; fi
	if [ -n "$P" ]; then
		$P report --header-only -i "$TMP/e.data" 2>/dev/null | grep -q "^# event : name = $ev, " &&
			pass "convert-defects.event_desc $name: perf lists $ev" ||
			fail "convert-defects.event_desc $name: perf lists $ev" "not in perf report --header-only"
	fi
done

# 4. no HOSTNAME made up for an input without one
f=$PD/perf.data.piped.hw_and_sw-3.4
if [ -f "$f" ]; then
	"$HITMAP" convert -i "$f" -o "$TMP/h.data" >/dev/null 2>&1
	host=$("$HITMAP" header -i "$TMP/h.data" 2>/dev/null | sed -n 's/^# hostname : //p')
	"$HITMAP" stat -i "$TMP/h.data" >/dev/null 2>"$TMP/h.err"
	rc=$?
	if [ -z "$host" ] && [ $rc -eq 0 ] && [ ! -s "$TMP/h.err" ]; then
		pass "convert-defects.no_hostname_made_up"
	else fail convert-defects.no_hostname_made_up "hostname '$host', stat rc $rc $(head -c 200 "$TMP/h.err")"; fi
	"$HITMAP" convert -i "$f" -o "$TMP/h.data" --pipe >/dev/null 2>&1
	host=$("$HITMAP" header -i "$TMP/h.data" 2>/dev/null | sed -n 's/^# hostname : //p')
	[ -z "$host" ] && pass "convert-defects.no_hostname_made_up --pipe" ||
		fail "convert-defects.no_hostname_made_up --pipe" "hostname '$host'"
fi
# an input's own hostname stays
"$HITMAP" convert -i "$S" -o "$TMP/h2.data" >/dev/null 2>&1
[ "$("$HITMAP" header -i "$TMP/h2.data" 2>/dev/null | sed -n 's/^# hostname : //p')" = arthur-des ] &&
	pass "convert-defects.hostname_kept" ||
	fail convert-defects.hostname_kept "$("$HITMAP" header -i "$TMP/h2.data" 2>&1 | grep -m1 host)"

# 7. file mode into a FIFO: refused up front, one line, exit 2
mkfifo "$TMP/out.fifo"
timeout 10 "$HITMAP" convert -i "$S" -o "$TMP/out.fifo" >/dev/null 2>"$TMP/f.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/f.err")" -eq 1 ] && grep -q "^hitmap: .*out.fifo.*--pipe" "$TMP/f.err"; then
	pass "convert-defects.fifo_refused"
else fail convert-defects.fifo_refused "rc $rc: $(head -c 200 "$TMP/f.err")"; fi
# --pipe into it works
( timeout 10 cat "$TMP/out.fifo" >"$TMP/fifo.copy" ) &
reader=$!
timeout 10 "$HITMAP" convert -i "$S" -o "$TMP/out.fifo" --pipe >/dev/null 2>"$TMP/f.err"
rc=$?
wait $reader
[ $rc -eq 0 ] && "$HITMAP" stat -i "$TMP/fifo.copy" >/dev/null 2>&1 && pass "convert-defects.fifo_pipe_mode" ||
	fail convert-defects.fifo_pipe_mode "rc $rc $(head -c 200 "$TMP/f.err")"
# /dev/null stays a valid file-mode output
timeout 10 "$HITMAP" convert -i "$S" -o /dev/null >/dev/null 2>"$TMP/f.err" &&
	pass "convert-defects.dev_null" || fail convert-defects.dev_null "$(head -c 200 "$TMP/f.err")"

# 8. usage errors
"$HITMAP" convert -i "$S" -o '' >/dev/null 2>"$TMP/u.err"
rc=$?
[ $rc -eq 2 ] && grep -q "^hitmap: convert: -o '': " "$TMP/u.err" && pass "convert-defects.empty_output" ||
	fail convert-defects.empty_output "rc $rc: $(head -c 200 "$TMP/u.err")"
"$HITMAP" convert -i "$S" -o "$TMP/x.data" -z 5x >/dev/null 2>"$TMP/u.err"
rc=$?
[ $rc -eq 2 ] && grep -q "^hitmap: convert: -z 5x: " "$TMP/u.err" && [ ! -e "$TMP/x.data" ] &&
	pass "convert-defects.z_bad_level" || fail convert-defects.z_bad_level "rc $rc: $(head -c 200 "$TMP/u.err")"
for z in "-z 5" "-z5" "--compress=5"; do
	# shellcheck disable=SC2086  # the option and its level: two words or one
	"$HITMAP" convert -i "$S" -o "$TMP/x.data" $z >/dev/null 2>"$TMP/u.err" &&
		"$HITMAP" header -i "$TMP/x.data" 2>/dev/null | grep -q 'compressed : Zstd, level = 5' &&
		pass "convert-defects.z_level '$z'" || fail "convert-defects.z_level '$z'" "$(head -c 200 "$TMP/u.err")"
done
done_tests
