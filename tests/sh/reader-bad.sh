#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad input: a real file truncated at every 4 KiB boundary, random byte
# flips, zero and oversized record sizes.  Each run must end with a clean
# error (or a clean read), never a crash or a sanitizer report.  Run it on a
# SAN=1 build (HITMAP_BUILD=build-san) to check memory safety too.
. tests/lib.sh

F=$TMP/real.data
if can_record && perf record -q --sample-cpu -e cpu-clock -d -c 100000 -o "$F" -- perf bench futex hash -r 1 -t 2 >/dev/null 2>&1; then
	src="recorded"
elif [ -f "$FIXTURES/perf_data_converter/perf.data.weight_struct" ]; then
	cp "$FIXTURES/perf_data_converter/perf.data.weight_struct" "$F"
	src="fixture weight_struct"
else
	skip reader-bad "cannot record and no fixture to damage"
	done_tests
fi
size=$(stat -c %s "$F")

# clean NAME CMD...: exit status below 128 and no sanitizer report
san_bad() { grep -qE 'Sanitizer|runtime error|AddressSanitizer|LeakSanitizer' "$1"; }

# 1. truncation at every 4 KiB boundary: an error naming the offset
bad=0 tried=0
for ((cut = 4096; cut < size; cut += 4096)); do
	head -c $cut "$F" >"$TMP/cut.data"
	"$HITMAP" stat -i "$TMP/cut.data" >/dev/null 2>"$TMP/cut.err"
	rc=$?
	tried=$((tried + 1))
	if [ $rc -eq 0 ] || [ $rc -ge 128 ] || san_bad "$TMP/cut.err" || ! grep -q 'offset [0-9]*:' "$TMP/cut.err"; then
		bad=$((bad + 1))
		[ $bad -le 3 ] && echo "# cut at $cut: rc $rc: $(head -c 300 "$TMP/cut.err")"
	fi
done
if [ $bad -eq 0 ]; then pass "reader-bad.truncate_4k ($tried cuts of a $size-byte $src file)"
else fail reader-bad.truncate_4k "$bad of $tried cuts did not give a clean error"; fi

# the same through a pipe-mode stream cut short (stdin)
perf record -q -o - --sample-cpu -e cpu-clock -c 100000 -- perf bench futex hash -r 1 -t 2 2>/dev/null >"$TMP/pipe.data"
psize=$(stat -c %s "$TMP/pipe.data")
bad=0 tried=0
for ((cut = 4096; cut < psize; cut += 4096)); do
	head -c $cut "$TMP/pipe.data" | "$HITMAP" script -i - >/dev/null 2>"$TMP/cut.err"
	rc=$?
	tried=$((tried + 1))
	# a cut at a record boundary is a clean end in pipe mode; anything else an error
	if [ $rc -ge 128 ] || san_bad "$TMP/cut.err" || { [ $rc -ne 0 ] && ! grep -q 'offset [0-9]*:' "$TMP/cut.err"; }; then
		bad=$((bad + 1))
		[ $bad -le 3 ] && echo "# pipe cut at $cut: rc $rc: $(head -c 300 "$TMP/cut.err")"
	fi
done
if [ $tried -eq 0 ]; then skip reader-bad.truncate_pipe "pipe recording too small"
elif [ $bad -eq 0 ]; then pass "reader-bad.truncate_pipe ($tried cuts)"
else fail reader-bad.truncate_pipe "$bad of $tried cuts misbehaved"; fi

# 2. random byte flips (fixed seed): clean error or clean read, never a crash
RANDOM=4242
bad=0
for i in $(seq 1 120); do
	cp "$F" "$TMP/flip.data"
	for k in 1 2 3 4; do
		off=$(( (RANDOM * 32768 + RANDOM) % size ))
		printf "\\x$(printf %02x $((RANDOM % 256)))" | dd of="$TMP/flip.data" bs=1 seek=$off conv=notrunc 2>/dev/null
	done
	for c in stat script header; do
		"$HITMAP" $c -i "$TMP/flip.data" >/dev/null 2>"$TMP/flip.err"
		rc=$?
		if [ $rc -ge 128 ] || san_bad "$TMP/flip.err" || { [ $rc -ne 0 ] && ! grep -q '^hitmap: ' "$TMP/flip.err"; }; then
			bad=$((bad + 1))
			cp "$TMP/flip.data" "$TMP/flip.bad.$bad"
			[ $bad -le 3 ] && echo "# flip run $i ($c): rc $rc: $(head -c 400 "$TMP/flip.err")"
		fi
	done
done
if [ $bad -eq 0 ]; then pass "reader-bad.byte_flips (120 files x 3 commands)"
else fail reader-bad.byte_flips "$bad runs crashed or gave no message"; fi

# 3. the first record's size set to 0 and to 0xffff; header sizes set huge
data_off=$(od -An -t u8 -j 40 -N 8 "$F" | tr -d ' ')
for v in '\x00\x00' '\xff\xff' '\x09\x00'; do
	cp "$F" "$TMP/size.data"
	printf "$v" | dd of="$TMP/size.data" bs=1 seek=$((data_off + 6)) conv=notrunc 2>/dev/null
	"$HITMAP" script -i "$TMP/size.data" >/dev/null 2>"$TMP/size.err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] && ! san_bad "$TMP/size.err" && grep -q "offset" "$TMP/size.err"; then
		pass "reader-bad.record_size.$v ($(head -c 120 "$TMP/size.err"))"
	else
		fail "reader-bad.record_size.$v" "rc $rc: $(head -c 300 "$TMP/size.err")"
	fi
done
for field in 16 32 48 104; do	# attr_size, attrs.size, data.size, first id/attr word
	cp "$F" "$TMP/hdr.data"
	printf '\xff\xff\xff\xff\xff\xff\xff\x7f' | dd of="$TMP/hdr.data" bs=1 seek=$field conv=notrunc 2>/dev/null
	"$HITMAP" stat -i "$TMP/hdr.data" >/dev/null 2>"$TMP/hdr.err"
	rc=$?
	if [ $rc -lt 128 ] && ! san_bad "$TMP/hdr.err" && { [ $rc -eq 0 ] || grep -q '^hitmap: ' "$TMP/hdr.err"; }; then
		pass "reader-bad.header_word_$field (rc $rc)"
	else
		fail "reader-bad.header_word_$field" "rc $rc: $(head -c 300 "$TMP/hdr.err")"
	fi
done
# not a perf.data at all, and empty
head -c 5000 /dev/urandom >"$TMP/junk.data"
"$HITMAP" stat -i "$TMP/junk.data" >/dev/null 2>"$TMP/junk.err"
check reader-bad.junk grep -q 'not a perf.data' "$TMP/junk.err"
: >"$TMP/empty.data"
"$HITMAP" stat -i "$TMP/empty.data" >/dev/null 2>"$TMP/empty.err"
check reader-bad.empty grep -q 'offset 0: too short' "$TMP/empty.err"
"$HITMAP" stat -i "$TMP/does-not-exist" >/dev/null 2>"$TMP/ne.err"
check reader-bad.missing grep -q 'cannot open' "$TMP/ne.err"
done_tests
