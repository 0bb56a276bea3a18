#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A failed write never destroys the previous output file.  For every command
# that writes a file (record -o, simulate -o/--truth/--kallsyms, convert -o,
# report --html, diff --html):
#   - on a full disk (a 64 KiB tmpfs, filled up) it exits 1 with one line
#     that names the file and ENOSPC, the old file is byte for byte as it
#     was, and no temporary file is left in the folder;
#   - a successful write replaces the file whole: its mode is kept, and a
#     reader that had the old file open still reads the old bytes;
#   - /dev/null and '-' (standard output) are still written directly;
#   - simulate stopped by SIGINT leaves the old file and no temporary file;
#   - record stopped by SIGINT (its normal end) puts the new file in place,
#     and while it records, the old file is still whole.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip output-keep "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
IN=$TMP/in.data
if ! "$HITMAP" simulate --ops 20000 -o "$IN" >/dev/null 2>"$TMP/sim.err"; then
	fail output-keep.input "cannot make an input: $(head -c 200 "$TMP/sim.err")"
	done_tests
fi
M=$TMP/full
mkdir -p "$M" "$TMP/d"
trap 'umount "$M" 2>/dev/null; rm -rf "$TMP"' EXIT
# the old file: 2000 random bytes, kept aside to compare with
head -c 2000 /dev/urandom >"$TMP/old.ref"

can_rec=0
if [ "$(id -u)" = 0 ] && have_tracefs && [ -d /sys/kernel/tracing/events/lock/contention_begin ] &&
   "$HITMAP" record -q -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
	can_rec=1
fi
REC_WHY="needs root and the lock tracepoints to record"

# others NAME: the files in folder $1 other than the old file and the filler
others() { ls -A "$1" | grep -v -x -e out.data -e filler | tr '\n' ' '; }

# ---- a full disk: the old file stays
if ! mount -t tmpfs -o size=64k tmpfs "$M" 2>"$TMP/mount.err"; then
	skip output-keep.full "cannot mount a 64k tmpfs (needs root): $(head -c 100 "$TMP/mount.err")"
	M=
fi
# full NAME CMD... (the command writes $M/out.data)
full() {
	local n=$1; shift
	if [ -z "$M" ]; then return; fi
	rm -f "$M"/* "$M"/.[!.]* 2>/dev/null
	cp "$TMP/old.ref" "$M/out.data"
	cat /dev/zero >"$M/filler" 2>/dev/null
	"$@" >/dev/null 2>"$TMP/err"
	local rc=$? left why=""
	left=$(others "$M")
	[ $rc -eq 1 ] || why="rc $rc;"
	# one error line (convert --pipe warns first that pipe mode has no metadata)
	grep -v '^hitmap: warning: ' "$TMP/err" >"$TMP/err1"
	[ "$(wc -l <"$TMP/err1")" -eq 1 ] && grep -qF "$M/out.data: " "$TMP/err1" &&
		grep -q 'No space left on device' "$TMP/err1" && ! grep -q "\.hitmap-[0-9]" "$TMP/err" ||
		why="$why message: $(head -c 300 "$TMP/err");"
	cmp -s "$TMP/old.ref" "$M/out.data" || why="$why the old file changed;"
	[ -z "$left" ] || why="$why left behind: $left"
	[ -z "$why" ] && pass "output-keep.full.$n" || fail "output-keep.full.$n" "$why"
}
full report-html   "$HITMAP" report -i "$IN" --html "$M/out.data"
full diff-html     "$HITMAP" diff --html "$M/out.data" "$IN" "$IN"
full convert       "$HITMAP" convert -i "$IN" -o "$M/out.data"
full convert-pipe  "$HITMAP" convert -i "$IN" -o "$M/out.data" --pipe
full simulate      "$HITMAP" simulate --ops 2000 -o "$M/out.data"
full sim-truth     "$HITMAP" simulate --ops 2000 -o "$TMP/s1.data" --truth "$M/out.data"
full sim-kallsyms  "$HITMAP" simulate --ops 2000 -o "$TMP/s2.data" --kallsyms "$M/out.data"
if [ $can_rec = 1 ]; then
	full record "$HITMAP" record -q -o "$M/out.data" -- true
else
	skip output-keep.full.record "$REC_WHY"
fi
[ -n "$M" ] && umount "$M"

# ---- a successful write replaces the file whole
# replace NAME CHECK CMD... (the command writes $TMP/d/out.data; CHECK FILE
# says the new file is right)
replace() {
	local n=$1 check=$2; shift 2
	local f=$TMP/d/out.data why="" left
	rm -rf "$TMP/d"; mkdir "$TMP/d"
	cp "$TMP/old.ref" "$f"
	chmod 600 "$f"
	exec 3<"$f"
	"$@" >/dev/null 2>"$TMP/err"
	local rc=$?
	[ $rc -eq 0 ] || why="rc $rc: $(head -c 200 "$TMP/err");"
	$check "$f" || why="$why the new file is not right;"
	[ "$(stat -c %a "$f")" = 600 ] || why="$why mode $(stat -c %a "$f"), not 600;"
	cmp -s - "$TMP/old.ref" <&3 || why="$why the old file was rewritten in place;"
	exec 3<&-
	left=$(others "$TMP/d")
	[ -z "$left" ] || why="$why left behind: $left"
	[ -z "$why" ] && pass "output-keep.replace.$n" || fail "output-keep.replace.$n" "$why"
}
is_data() { "$HITMAP" stat -i "$1" >/dev/null 2>&1; }
is_html() { grep -q '<html' "$1"; }
is_json() { json_valid "$1"; }
is_syms() { grep -q ' T ' "$1"; }
replace report-html  is_html "$HITMAP" report -i "$IN" --html "$TMP/d/out.data"
replace diff-html    is_html "$HITMAP" diff --html "$TMP/d/out.data" "$IN" "$IN"
replace convert      is_data "$HITMAP" convert -i "$IN" -o "$TMP/d/out.data"
replace simulate     is_data "$HITMAP" simulate --ops 2000 -o "$TMP/d/out.data"
replace sim-truth    is_json "$HITMAP" simulate --ops 2000 -o "$TMP/s3.data" --truth "$TMP/d/out.data"
replace sim-kallsyms is_syms "$HITMAP" simulate --ops 2000 -o "$TMP/s4.data" --kallsyms "$TMP/d/out.data"
if [ $can_rec = 1 ]; then
	replace record is_data "$HITMAP" record -q -o "$TMP/d/out.data" -- true
else
	skip output-keep.replace.record "$REC_WHY"
fi

# ---- /dev/null and standard output are written directly
direct() {
	local n=$1; shift
	"$@" >"$TMP/o" 2>"$TMP/err"
	local rc=$?
	if [ $rc -eq 0 ] && [ -c /dev/null ] && ! grep -q "\.hitmap-[0-9]" "$TMP/err"; then pass "output-keep.direct.$n"
	else fail "output-keep.direct.$n" "rc $rc, /dev/null $(stat -c %F /dev/null): $(head -c 200 "$TMP/err")"; fi
}
direct report-html-null "$HITMAP" report -i "$IN" --html /dev/null
direct diff-html-null   "$HITMAP" diff --html /dev/null "$IN" "$IN"
direct convert-null     "$HITMAP" convert -i "$IN" -o /dev/null
direct simulate-null    "$HITMAP" simulate --ops 2000 -o /dev/null
direct sim-truth-null   "$HITMAP" simulate --ops 2000 --truth /dev/null
direct sim-ksyms-null   "$HITMAP" simulate --ops 2000 -o "$TMP/s5.data" --kallsyms /dev/null
if [ $can_rec = 1 ]; then
	direct record-null "$HITMAP" record -q -o /dev/null -- true
else
	skip output-keep.direct.record-null "$REC_WHY"
fi
direct report-html-dash "$HITMAP" report -i "$IN" --html -
is_html "$TMP/o" && pass output-keep.direct.report-html-dash-page ||
	fail output-keep.direct.report-html-dash-page "no page on standard output"
direct convert-dash "$HITMAP" convert -i "$IN" -o -
"$HITMAP" stat -i - <"$TMP/o" >/dev/null 2>&1 && pass output-keep.direct.convert-dash-reads ||
	fail output-keep.direct.convert-dash-reads "the stream on standard output does not read"
[ -z "$(ls -A /dev | grep hitmap-)" ] && pass output-keep.direct.nothing-in-dev ||
	fail output-keep.direct.nothing-in-dev "$(ls -A /dev | grep hitmap-)"

# ---- SIGINT: simulate leaves the old file and no temporary file
rm -rf "$TMP/d"; mkdir "$TMP/d"
cp "$TMP/old.ref" "$TMP/d/out.data"
"$HITMAP" simulate --ops 50000000 -o "$TMP/d/out.data" >/dev/null 2>&1 &
pid=$!
had=0
for ((w = 0; w < 100; w++)); do
	ls -A "$TMP/d" | grep -q hitmap- && { had=1; break; }
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
sleep 0.3
whole=no; cmp -s "$TMP/old.ref" "$TMP/d/out.data" && whole=yes
kill -INT $pid 2>/dev/null
wait $pid; rc=$?
left=$(others "$TMP/d")
if [ $had = 1 ] && [ $whole = yes ] && [ $rc -eq 130 ] && [ -z "$left" ] &&
   cmp -s "$TMP/old.ref" "$TMP/d/out.data"; then
	pass output-keep.sigint.simulate
else
	fail output-keep.sigint.simulate "temporary seen $had, old file whole while running: $whole, rc $rc, left: $left"
fi

# ---- SIGINT ends a recording: its file replaces the old one
if [ $can_rec = 1 ]; then
	rm -rf "$TMP/d"; mkdir "$TMP/d"
	f=$TMP/d/out.data
	cp "$TMP/old.ref" "$f"
	"$HITMAP" record -o "$f" -- sleep 20 >/dev/null 2>"$TMP/rec.err" &
	pid=$!
	# from the moment record catches SIGINT and its file is started
	had=0
	for ((w = 0; w < 600; w++)); do
		cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
		[ -n "$cgt" ] && (((0x$cgt & 2) != 0)) && [ -n "$(ls -A "$TMP/d" | grep hitmap-)" ] && { had=1; break; }
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	sleep 0.5
	whole=no; cmp -s "$TMP/old.ref" "$f" && whole=yes
	# a second recorder on the same file is refused meanwhile
	"$HITMAP" record -q -o "$f" -- true >/dev/null 2>"$TMP/rec2.err"; rc2=$?
	kill -INT $pid 2>/dev/null
	wait $pid; rc=$?
	left=$(others "$TMP/d")
	if [ $had = 1 ] && [ $whole = yes ] && [ $rc -eq 0 ] && [ -z "$left" ] &&
	   ! cmp -s "$TMP/old.ref" "$f" && "$HITMAP" stat -i "$f" >/dev/null 2>&1 &&
	   grep -q 'interrupted, the file is complete' "$TMP/rec.err"; then
		pass output-keep.sigint.record
	else
		fail output-keep.sigint.record "temporary seen $had, old file whole while recording: $whole, rc $rc, left: $left: $(tail -n 1 "$TMP/rec.err")"
	fi
	[ $rc2 -eq 1 ] && grep -q 'another recording' "$TMP/rec2.err" && pass output-keep.record-second-refused ||
		fail output-keep.record-second-refused "rc $rc2: $(head -c 200 "$TMP/rec2.err")"
	# a command that cannot run records nothing: the old file stays
	cp "$TMP/old.ref" "$f"
	"$HITMAP" record -q -o "$f" -- /nonexistent/cmd >/dev/null 2>"$TMP/rec3.err"; rc=$?
	left=$(others "$TMP/d")
	[ $rc -eq 127 ] && cmp -s "$TMP/old.ref" "$f" && [ -z "$left" ] && pass output-keep.record-no-command ||
		fail output-keep.record-no-command "rc $rc, left: $left, $(head -c 200 "$TMP/rec3.err")"
else
	skip output-keep.sigint.record "$REC_WHY"
fi
done_tests
