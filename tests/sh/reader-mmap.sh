#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A file is read through the read window; with HITMAP_MMAP=1 a regular file
# is read through a read-only mapping (records decoded and queued where they
# lie, pages dropped behind the reader).  Both must hand out the same records:
# stat, script and the report (one thread, and two: the file in ranges,
# each range's reader placed in the mapping) equal on generated files of
# every form the reader takes in place or copies (ordered rounds, no rounds
# with the queue's early hand-outs past 4 MiB, the other byte order, zstd) and on the
# real fixtures; and the mapping's resident pages must not grow with the
# file.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
CGEN=$HITMAP_BUILD/tools/hm-cont-gen
[ -x "$GEN" ] && [ -x "$CGEN" ] || { skip reader-mmap "no $GEN or $CGEN (make tests)"; done_tests; }
[ -x /usr/bin/time ] || { skip reader-mmap "no /usr/bin/time (apt-get install time)"; done_tests; }

files=()
"$HITMAP" simulate --sockets 2 --kernel 6.16 --period 10 --ops 60000 -o "$TMP/sim.data" >/dev/null 2>&1 &&
	files+=("$TMP/sim.data") || fail reader-mmap.gen "simulate failed"
"$GEN" -o "$TMP/gen.data" -n 200000 -l 20000 --nodes 2 --cpus 16 --seed 3 --phys >/dev/null 2>&1 &&
	files+=("$TMP/gen.data") || fail reader-mmap.gen "hm-gen failed"
"$CGEN" -n 40000 -o "$TMP/nr.data" -e "$TMP/nr.exp" --no-rounds >/dev/null 2>&1 &&
	files+=("$TMP/nr.data") || fail reader-mmap.gen "hm-cont-gen --no-rounds failed"
if [ -f "$TMP/sim.data" ]; then
	"$HITMAP" convert -i "$TMP/sim.data" -o "$TMP/swap.data" --swap >/dev/null 2>&1 &&
		files+=("$TMP/swap.data") || fail reader-mmap.gen "convert --swap failed"
	"$HITMAP" convert -i "$TMP/sim.data" -o "$TMP/z.data" -z >/dev/null 2>&1 &&
		files+=("$TMP/z.data") || fail reader-mmap.gen "convert -z failed"
fi

# mapped vs window: same output and exit status
same() {	# NAME ARGS...
	local n=$1 a b; shift
	HITMAP_MMAP=1 "$HITMAP" "$@" >"$TMP/m.out" 2>"$TMP/m.err"; a=$?
	"$HITMAP" "$@" >"$TMP/w.out" 2>"$TMP/w.err"; b=$?
	if [ $a = $b ] && cmp -s "$TMP/m.out" "$TMP/w.out" && cmp -s "$TMP/m.err" "$TMP/w.err"; then
		pass "reader-mmap: $n (exit $a)"
	else
		fail "reader-mmap: $n" "mapped exit $a, window exit $b; $(diff "$TMP/m.out" "$TMP/w.out" | head -n 3 | tr '\n' ' ')$(diff "$TMP/m.err" "$TMP/w.err" | head -n 2 | tr '\n' ' ')"
	fi
}
for f in "${files[@]}"; do
	b=$(basename "$f")
	same "$b stat" stat -i "$f"
	same "$b script" script -i "$f"
	same "$b report --threads 1" report --stdio --threads 1 -i "$f"
	same "$b report --threads 2" report --stdio --threads 2 -i "$f"
done
same "gen.data report --by bucket --json" report --by bucket --json --threads 1 -i "$TMP/gen.data"

# the real files (perf 3.x to 6.x; file and pipe mode; corrupt ones too)
n=0
if [ -d "$FIXTURES" ]; then
	while IFS= read -r f; do
		same "fixture ${f#"$FIXTURES"/} stat" stat -i "$f"
		same "fixture ${f#"$FIXTURES"/} script" script -i "$f"
		n=$((n + 1))
	done < <(find "$FIXTURES" -type f ! -name 'README*' ! -name '*.md' | sort)
fi
[ "$n" -gt 0 ] || skip reader-mmap.fixtures "no fixtures in $FIXTURES"

# the mapping is used with HITMAP_MMAP (debug line), and not without it
if [ -f "$TMP/gen.data" ]; then
	HITMAP_MMAP=1 HITMAP_DEBUG=1 "$HITMAP" stat -i "$TMP/gen.data" 2>"$TMP/d.err" >/dev/null
	check "reader-mmap: with HITMAP_MMAP a regular file is read mapped" grep -q "reader: .*gen.data: mapped" "$TMP/d.err"
	HITMAP_DEBUG=1 "$HITMAP" stat -i "$TMP/gen.data" 2>"$TMP/d.err" >/dev/null
	check "reader-mmap: by default a file is read through the window" bash -c '! grep mapped "$1"' _ "$TMP/d.err"
	"$HITMAP" convert -i "$TMP/gen.data" -o "$TMP/gen.pipe" --pipe >/dev/null 2>&1
	cat "$TMP/gen.pipe" | HITMAP_MMAP=1 HITMAP_DEBUG=1 "$HITMAP" stat -i - 2>"$TMP/d.err" >/dev/null
	check "reader-mmap: a pipe is not mapped" bash -c '! grep mapped "$1"' _ "$TMP/d.err"
	same "gen.pipe (pipe mode in a regular file) stat" stat -i "$TMP/gen.pipe"
fi

# resident pages, read or mapped: a file 8x as large costs no more than the
# read-behind step more (under ASan, mapped, also the shadow its mmap
# interceptor writes for each mapping: 1/8 of the file; the report maps the
# file twice, the second read for the details)
"$GEN" -o "$TMP/s.data" -n 50000 -l 5000 >/dev/null 2>&1 &&
"$GEN" -o "$TMP/l.data" -n 400000 -l 5000 >/dev/null 2>&1 || { fail reader-mmap.rss-gen "hm-gen failed"; done_tests; }
for c in "stat" "report --stdio --threads 1"; do
	for m in "" HITMAP_MMAP=1; do
		a=$(peak_rss_kb env ${m:+"$m"} "$HITMAP" $c -i "$TMP/s.data")
		b=$(peak_rss_kb env ${m:+"$m"} "$HITMAP" $c -i "$TMP/l.data")
		sz=$(( $(stat -c %s "$TMP/l.data") / 1024 ))
		lim=4096 why=
		if [ -n "$m" ] && san_build; then lim=$((4096 + sz / 4)); why=", ASan's shadow of two mappings allowed"; fi
		if [ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -lt $lim ]; then
			pass "reader-mmap: $c (${m:-window}) peak RSS ($((sz / 1024)) MB file: $b KB; 1/8 of it: $a KB$why)"
		else
			fail "reader-mmap: $c (${m:-window}) peak RSS" "$sz KB file: $b KB, 1/8 of it: $a KB (grew by 4 MB or more: pages not dropped behind?)"
		fi
	done
done
done_tests
