#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# zstd records decompressed ahead: the report (unless --threads 1) has a
# thread of the reader's own decompress COMPRESSED/COMPRESSED2 payloads
# into a ring while the records already there are parsed, the next
# records' payloads fed before the reader reaches them
# (src/perfdata/compress.c).  The records handed out must be those of the
# lazy stream, in the same order: --threads 1 (lazy), the default and
# --threads 4 give the same stdout, stderr and exit on files of every
# compressed form (COMPRESSED and COMPRESSED2, file and pipe mode, the
# other byte order, a mapped file, perf's own -z recordings) and on the
# same files corrupted and cut short; the ring wraps many times on the
# larger file.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
[ -x "$GEN" ] || { skip reader-zstd-ahead "no $GEN (make tests)"; done_tests; }

# 300k samples: about 30 MB of records, the 4 MiB ring wraps 7 times
"$GEN" -o "$TMP/gen.data" -n 300000 -l 20000 --nodes 2 --cpus 16 --seed 11 --phys >/dev/null 2>&1 ||
	{ fail reader-zstd-ahead.gen "hm-gen failed"; done_tests; }
"$HITMAP" simulate --sockets 2 --kernel 6.16 --period 10 --ops 40000 -o "$TMP/sim.data" >/dev/null 2>&1 ||
	fail reader-zstd-ahead.gen "simulate failed"
files=()
conv() {	# NAME IN ARGS...
	local n=$1 in=$2; shift 2
	if [ "${*: -1}" = - ]; then
		"$HITMAP" convert -i "$in" "$@" >"$TMP/$n" 2>"$TMP/conv.err"
	else
		"$HITMAP" convert -i "$in" "$@" >/dev/null 2>"$TMP/conv.err"
	fi && files+=("$TMP/$n") || fail "reader-zstd-ahead: convert to $n" "$(tail -n 1 "$TMP/conv.err")"
}
conv z.data "$TMP/gen.data" -o "$TMP/z.data" -z
conv z9.data "$TMP/gen.data" -o "$TMP/z9.data" -z 9
conv z2.data "$TMP/gen.data" -o "$TMP/z2.data" -z --compressed2
conv zswap.data "$TMP/gen.data" -o "$TMP/zswap.data" -z --swap
conv zpipe.data "$TMP/gen.data" -z -o -
conv simz.data "$TMP/sim.data" -o "$TMP/simz.data" -z
conv simz2pipe.data "$TMP/sim.data" -z --compressed2 -o -
# perf's own: one stream over many COMPRESSED records, FINISHED_ROUND between them
if can_record; then
	for v in $(oracle_perfs); do
		p=$(perf_cmd "$v")
		if "$p" record -q -z -e cpu-clock -c 20000 -o "$TMP/perf-$v.data" -- \
			dd if=/dev/zero of=/dev/null bs=4k count=300000 >/dev/null 2>&1; then
			files+=("$TMP/perf-$v.data")
		else
			skip "reader-zstd-ahead: perf $v -z" "$p record -z failed here"
		fi
	done
else
	skip "reader-zstd-ahead: perf -z recordings" "perf cannot record here"
fi

# same3 NAME ARGS...: report --threads 1 (lazy), default and --threads 4 alike
same3() {
	local n=$1 ra rb rc; shift
	"$HITMAP" report --threads 1 "$@" >"$TMP/a.out" 2>"$TMP/a.err"; ra=$?
	"$HITMAP" report "$@" >"$TMP/b.out" 2>"$TMP/b.err"; rb=$?
	"$HITMAP" report --threads 4 "$@" >"$TMP/c.out" 2>"$TMP/c.err"; rc=$?
	if [ $ra = $rb ] && [ $ra = $rc ] && cmp -s "$TMP/a.out" "$TMP/b.out" && cmp -s "$TMP/a.out" "$TMP/c.out" &&
	   cmp -s "$TMP/a.err" "$TMP/b.err" && cmp -s "$TMP/a.err" "$TMP/c.err"; then
		pass "reader-zstd-ahead: $n (exit $ra)"
	else
		fail "reader-zstd-ahead: $n" "exit $ra/$rb/$rc; $(diff "$TMP/a.out" "$TMP/b.out" | head -n 3 | tr '\n' ' ')$(diff "$TMP/a.err" "$TMP/b.err" | head -n 2 | tr '\n' ' ')"
	fi
}

# the thread is there (and not with --threads 1), where the machine has two CPUs
f=$TMP/z.data
if [ "$(nproc)" -gt 1 ]; then
	HITMAP_DEBUG=1 "$HITMAP" report -i "$f" >/dev/null 2>"$TMP/d.err"
	check "reader-zstd-ahead: the default report decompresses ahead" grep -q 'zstd stream decompressed ahead' "$TMP/d.err"
	HITMAP_DEBUG=1 "$HITMAP" report --threads 1 -i "$f" >/dev/null 2>"$TMP/d.err"
	check "reader-zstd-ahead: --threads 1 does not" bash -c "! grep -q 'decompressed ahead' '$TMP/d.err'"
else
	skip "reader-zstd-ahead: the thread" "one CPU: the default report decompresses lazily"
fi

for f in "${files[@]}"; do
	b=${f##*/}
	if [ "$b" = zpipe.data ] || [ "$b" = simz2pipe.data ]; then
		same3 "$b from a pipe" -i - --stdio <"$f"
		continue
	fi
	same3 "$b" -i "$f" --stdio
	HITMAP_MMAP=1 same3 "$b mapped" -i "$f" --stdio
done
same3 "z.data --json" -i "$TMP/z.data" --json
same3 "simz.data --by bucket" -i "$TMP/simz.data" --by bucket

# corrupt: a stretch of the payloads overwritten (zstd's error, or records
# that make no sense), and the file cut short at several places
size=$(stat -c %s "$TMP/z.data")
for at in 3 5 7; do
	cp "$TMP/z.data" "$TMP/bad.data"
	head -c 3000 /dev/zero | tr '\0' '\377' |
		dd of="$TMP/bad.data" bs=1 seek=$((size * at / 10)) conv=notrunc status=none
	same3 "z.data overwritten at $at/10" -i "$TMP/bad.data" --stdio
	head -c $((size * at / 10 + 777)) "$TMP/z.data" >"$TMP/cut.data"
	same3 "z.data cut at $at/10" -i "$TMP/cut.data" --stdio
	head -c $((size * at / 10 + 777)) "$TMP/zpipe.data" >"$TMP/cut.data"
	same3 "zpipe.data cut at $at/10, from a pipe" -i - --stdio <"$TMP/cut.data"
done
done_tests
