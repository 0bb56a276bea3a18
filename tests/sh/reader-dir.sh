#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perf's directory format (perf record --threads: a folder with "data" and
# one data.N per recording thread), recorded here with the system perf,
# plain and zstd-compressed (-z), against every installed perf that reads
# it: the records in perf's order (perf script -F cpu,tid,time,period,
# byte for byte: perf reads the files by turns of 2 MiB into one queue
# with no size limit, and the folder holds no FINISHED_ROUND), the
# counts of perf report --stats, the "data" file alone (perf reads its
# data section only; hitmap says the rest is left out), the folder
# converted into one file (perf reads it in the same order), the report
# the same with 1 and 2 threads, the ordering queue far below the data,
# and one-line errors for a folder without "data" and a cut data.N.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip reader-dir "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
if ! can_record; then
	skip reader-dir "perf cannot record a cpu-clock event here (no perf, or perf_event_paranoid)"
	done_tests
fi
# two busy CPUs for 1.5 s, sampled every 10 us with call chains: some MiB a file
work='for i in 1 2; do (timeout 1.5 sh -c "while :; do :; done") & done; wait'
for z in plain zstd; do
	zo=; [ $z = zstd ] && zo=-z
	if ! perf record --threads $zo -e cpu-clock -c 10000 -g -a -o "$TMP/$z.data" -- sh -c "$work" \
		>"$TMP/rec-$z.out" 2>&1 || [ ! -f "$TMP/$z.data/data" ]; then
		skip "reader-dir $z" "perf record --threads $zo failed here: $(grep -v '^\[' "$TMP/rec-$z.out" | tail -n 1)"
		continue
	fi
	files=$(ls "$TMP/$z.data" | grep -c '^data\.')
	bytes=$(cat "$TMP/$z.data"/data* | wc -c)
	echo "# $z: $files data.N files, $bytes bytes"
	check "reader-dir $z: perf wrote a folder with data.N files" test "$files" -ge 1

	for v in $(oracle_perfs); do
		o=$TMP/$z-$v
		if ! perfv "$v" script -i "$TMP/$z.data" -F cpu,tid,time,period >"$o.perf" 2>"$o.perr"; then
			skip "reader-dir $z perf $v" "perf $v refuses the folder: $(head -n 1 "$o.perr")"
			continue
		fi
		"$HITMAP" script --perf-compat "$v" -i "$TMP/$z.data" -F cpu,tid,time,period >"$o.hm" 2>"$o.herr"
		if cmp -s "$o.perf" "$o.hm"; then
			pass "reader-dir $z: script as perf $v orders $(wc -l <"$o.perf") samples"
		else
			fail "reader-dir $z: script as perf $v" "first difference at line $(cmp "$o.perf" "$o.hm" 2>&1 | sed -n 's/.*line //p') of $(wc -l <"$o.perf") ($(head -n 1 "$o.herr"))"
		fi
		perfv "$v" report -i "$TMP/$z.data" --stats >"$o.stats" 2>/dev/null
		# hitmap's own block (LOST sums) aside, as in stat-perf.sh
		"$HITMAP" stat --perf-compat "$v" -i "$TMP/$z.data" 2>&1 | sed '/^hitmap:$/,$d' >"$o.hstats"
		if cmp -s "$o.stats" "$o.hstats"; then
			pass "reader-dir $z: stat as perf $v report --stats"
		else
			fail "reader-dir $z: stat as perf $v report --stats" "$(diff "$o.stats" "$o.hstats" | grep '^[<>]' | head -n 3 | tr '\n' ' ')"
		fi
	done

	# the "data" file alone: its own data section, and a warning
	"$HITMAP" script --perf-compat "$(sys_perf_compat)" -i "$TMP/$z.data/data" -F cpu,tid,time,period \
		>"$TMP/$z-main.hm" 2>"$TMP/$z-main.err"
	perf script -i "$TMP/$z.data/data" -F cpu,tid,time,period >"$TMP/$z-main.perf" 2>/dev/null
	check "reader-dir $z: the data file alone as perf reads it" cmp "$TMP/$z-main.perf" "$TMP/$z-main.hm"
	check "reader-dir $z: the data file alone: a warning names the folder format" \
		grep -q 'DIR_FORMAT.*pass the folder' "$TMP/$z-main.err"

	# into one file: perf reads it in the folder's order
	if "$HITMAP" convert -i "$TMP/$z.data" -o "$TMP/$z.one" >"$TMP/$z-conv.out" 2>&1; then
		perf script -i "$TMP/$z.one" -F cpu,tid,time,period >"$TMP/$z-one.perf" 2>"$TMP/$z-one.err"
		perf script -i "$TMP/$z.data" -F cpu,tid,time,period >"$TMP/$z-dir.perf" 2>/dev/null
		check "reader-dir $z: converted into one file, perf reads the same records in the same order" \
			cmp "$TMP/$z-dir.perf" "$TMP/$z-one.perf"
	else
		fail "reader-dir $z: convert" "$(tail -n 1 "$TMP/$z-conv.out")"
	fi

	# the report: the same for any number of threads (a folder is read as one stream)
	"$HITMAP" report -i "$TMP/$z.data" --threads 1 --json >"$TMP/$z-t1.json" 2>"$TMP/$z-t1.err"
	"$HITMAP" report -i "$TMP/$z.data" --threads 2 --json >"$TMP/$z-t2.json" 2>"$TMP/$z-t2.err"
	check "reader-dir $z: report --json the same with 1 and 2 threads" cmp "$TMP/$z-t1.json" "$TMP/$z-t2.json"

	# the queue: what perf would hand out in the same place goes early
	HITMAP_DEBUG=1 "$HITMAP" script -i "$TMP/$z.data" -F time >/dev/null 2>"$TMP/$z-dbg.err"
	peak=$(sed -n 's/.*ordering queue held \([0-9]*\) bytes at most.*/\1/p' "$TMP/$z-dbg.err" | head -n 1)
	if [ $z = plain ] && [ "$bytes" -gt $((12 << 20)) ]; then
		if [ -n "$peak" ] && [ "$peak" -lt $((bytes / 2)) ]; then
			pass "reader-dir $z: the ordering queue held at most ${peak} of ${bytes} bytes"
		else
			fail "reader-dir $z: the ordering queue stays far below the data" "peak ${peak:-unknown} of $bytes bytes"
		fi
	elif [ $z = plain ]; then
		skip "reader-dir $z: the ordering queue" "the recording holds only $bytes bytes (a slow machine): too few to test its bound"
	fi
done

# errors
if [ -d "$TMP/plain.data" ]; then
	mkdir -p "$TMP/nodata.data"
	"$HITMAP" stat -i "$TMP/nodata.data" >/dev/null 2>"$TMP/nodata.err"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l <"$TMP/nodata.err")" -eq 1 ] && grep -q 'without a "data" file' "$TMP/nodata.err"; then
		pass "reader-dir: a folder without data: one line, exit $rc"
	else
		fail "reader-dir: a folder without data" "exit $rc: $(head -n 2 "$TMP/nodata.err" | tr '\n' ' ')"
	fi
	cp -r "$TMP/plain.data" "$TMP/cut.data"
	f=$(ls "$TMP/cut.data"/data.* | head -n 1)
	truncate -s -5 "$f"
	"$HITMAP" stat -i "$TMP/cut.data" >/dev/null 2>"$TMP/cut.err"
	rc=$?
	if [ $rc -ne 0 ] && grep -q "^hitmap: $f: offset [0-9]*: .*truncated" "$TMP/cut.err"; then
		pass "reader-dir: a cut data.N is named with its offset, exit $rc"
	else
		fail "reader-dir: a cut data.N" "exit $rc: $(head -n 2 "$TMP/cut.err" | tr '\n' ' ')"
	fi
fi
done_tests
