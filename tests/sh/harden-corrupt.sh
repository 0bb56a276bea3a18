#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The corrupt files that once crashed hitmap, exhausted its memory or lost
# data silently (../shared/fixtures/corrupt, see its README), through every
# reading command.  Each run must end in bounded time and memory, without a
# crash, with the stated outcome:
#   err   exit 1 and one line "hitmap: FILE: offset N: ..." naming the cause
#   lost  exit 3 (data lost) with a warning naming the file and the offset,
#         and a full result (stdout not empty)
#   ok    exit 0 (the damage is in records this command does not read)
. tests/lib.sh

C=${HITMAP_CORRUPT:-$PWD/../shared/fixtures/corrupt}
if [ ! -d "$C" ]; then
	skip harden-corrupt "no corrupt fixtures at $C"
	done_tests
fi

# expected outcome per file: report diff header script stat convert html
declare -A want=(
	[sample-cpu-0x80000000]="lost lost ok lost lost lost lost"
	[memtopo-nbits-max]="lost lost lost lost lost lost lost"
	[memtopo-nbits-2p40]="lost lost lost lost lost lost lost"
	[no-cpu-topology]="ok ok ok ok ok ok ok"
	[nrcpus-512M]="lost lost lost lost lost lost lost"
	[sim-meta-trailer-cut-24B]="lost lost lost lost lost lost lost"
	[silent-attrs-size-0]="err err err err err err err"
	[silent-record-type0]="lost lost ok lost lost lost lost"
	[ztrunc-frame]="err err ok err err err err"
)
# what the one-line message must say
declare -A says=(
	[sample-cpu-0x80000000]="cpu 2147483648"
	[memtopo-nbits-max]="MEM_TOPOLOGY is corrupt"
	[memtopo-nbits-2p40]="MEM_TOPOLOGY is corrupt"
	[nrcpus-512M]="NRCPUS is corrupt"
	[sim-meta-trailer-cut-24B]="hitmap metadata"
	[silent-attrs-size-0]="attrs section is empty"
	[silent-record-type0]="failed to process type: 0"
	[ztrunc-frame]="Couldn't decompress data"
)
# and report --stdio (perf's layout: the Pareto rows), expected as report
cmds=(report diff header script stat convert html stdio)

run() {	# run CMD FILE: sets rc, $TMP/out, $TMP/err; 20 s and 1 GB at most
	local cmd=$1 f=$2 args
	case $cmd in
	diff)    args=(diff "$f" "$f") ;;
	html)    args=(report -i "$f" --html "$TMP/page.html") ;;
	stdio)   args=(report --stdio -i "$f") ;;
	convert) args=(convert -i "$f" -o "$TMP/conv.data") ;;
	*)       args=("$cmd" -i "$f") ;;
	esac
	if san_build; then	# ASan cannot start under ulimit -v
		ASAN_OPTIONS=$(asan_mem_limit 1000) timeout 20 "$HITMAP" "${args[@]}"
	else
		( ulimit -v 1000000; exec timeout 20 "$HITMAP" "${args[@]}" )
	fi >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

for f in "$C"/*.data; do
	n=$(basename "$f" .data)
	[ -n "${want[$n]:-}" ] || { skip "harden-corrupt.$n" "no expectation for this file"; continue; }
	read -r -a exp <<<"${want[$n]}"
	for i in "${!cmds[@]}"; do
		cmd=${cmds[$i]} e=${exp[$i]:-${exp[0]}} t="harden-corrupt.$n.${cmds[$i]}"
		run "$cmd" "$f"
		why=""
		if [ $rc -ge 124 ]; then
			why="crashed, hung or ran out of memory (rc $rc): $(head -c 200 "$TMP/err")"
		elif grep -qE 'Sanitizer|runtime error' "$TMP/err"; then
			why="sanitizer: $(grep -m1 -E 'Sanitizer|runtime error' "$TMP/err")"
		else
			case $e in
			err)
				[ $rc -eq 1 ] || why="rc $rc, expected 1"
				[ -z "$why" ] && [ "$(wc -l <"$TMP/err")" -ne 1 ] &&
					why="$(wc -l <"$TMP/err") lines on stderr, expected one"
				[ -z "$why" ] && ! grep -q "$f: offset [0-9]*:" "$TMP/err" &&
					why="the error names no file and offset: $(head -c 200 "$TMP/err")" ;;
			lost)
				[ $rc -eq 3 ] || why="rc $rc, expected 3 (data lost): $(head -c 200 "$TMP/err")"
				[ -z "$why" ] && ! grep -q "warning: $f: offset [0-9]*:" "$TMP/err" &&
					why="no warning with the file and offset: $(head -c 200 "$TMP/err")"
				[ -z "$why" ] && [ "$cmd" != convert ] && [ ! -s "$TMP/out" ] &&
					why="no output" ;;
			ok)
				[ $rc -eq 0 ] || why="rc $rc, expected 0: $(head -c 200 "$TMP/err")" ;;
			esac
			if [ -z "$why" ] && [ "$e" != ok ] && [ -n "${says[$n]:-}" ] &&
			   ! grep -qF "${says[$n]}" "$TMP/err"; then
				why="the message does not say '${says[$n]}': $(head -c 200 "$TMP/err")"
			fi
		fi
		# what convert wrote must itself read cleanly
		if [ -z "$why" ] && [ "$cmd" = convert ] && [ "$e" != err ]; then
			if san_build; then
				ASAN_OPTIONS=$(asan_mem_limit 1000) timeout 20 "$HITMAP" header -i "$TMP/conv.data"
			else
				( ulimit -v 1000000; exec timeout 20 "$HITMAP" header -i "$TMP/conv.data" )
			fi >/dev/null 2>"$TMP/err2"
			r2=$?
			[ $r2 -eq 0 ] || why="its output does not read back (header rc $r2): $(head -c 200 "$TMP/err2")"
		fi
		if [ -z "$why" ]; then pass "$t"; else fail "$t" "$why"; fi
	done
done
# a pipe EVENT_DESC whose count of entries is absurd (found by fuzz-reader):
# refused as corrupt, not a calloc of 43 GB ("out of memory")
f=tests/fuzz/seeds/reader-event-desc-nr
if san_build; then
	ASAN_OPTIONS=$(asan_mem_limit 1000) timeout 20 "$HITMAP" stat -i "$f"
else
	( ulimit -v 1000000; exec timeout 20 "$HITMAP" stat -i "$f" )
fi >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'feature EVENT_DESC is corrupt; ignored' "$TMP/err" && ! grep -q 'out of memory' "$TMP/err" &&
	pass "event-desc-absurd-count" || fail "event-desc-absurd-count" "rc $rc: $(head -c 300 "$TMP/err")"
done_tests
