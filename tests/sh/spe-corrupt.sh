#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Arm SPE AUX data that is truncated or corrupt: hitmap never crashes; a
# truncated AUXTRACE payload or malformed metadata is a one-line error with
# the offset (exit 1), in convert too (no output left behind); bad packets
# inside an AUX buffer are skipped as perf does, with a warning naming the
# offset, and convert copies them as they are.  Run it under 'make SAN=1 check'
# to have ASan/UBSan watch the decoder.
. tests/lib.sh
GEN=${HITMAP_BUILD}/tools/hm-spe-gen
[ -x "$HITMAP" ] && [ -x "$GEN" ] || { skip spe-corrupt "no $HITMAP or $GEN; build with make tests"; done_tests; }
command -v python3 >/dev/null || { skip spe-corrupt "no python3"; done_tests; }
f=$TMP/c.data
"$GEN" --seed 4 --records 600 --buf-size 2048 -o "$f" || { fail spe-corrupt-gen "hm-spe-gen failed"; done_tests; }
# the AUXTRACE records: "offset size" per line
python3 - "$f" >"$TMP/aux" 2>/dev/null <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', b, 40)
p = off
while p < off + size:
    t, m, s = struct.unpack_from('<IHH', b, p)
    n = struct.unpack_from('<Q', b, p + 8)[0] if t == 71 else 0
    if t == 71:
        print(p, n)
    elif t == 70:
        print('info', p, s, file=sys.stderr)
    p += s + n
PY
[ "$(wc -l <"$TMP/aux")" -ge 4 ] || { fail spe-corrupt-layout "$(wc -l <"$TMP/aux") AUXTRACE records"; done_tests; }

# truncated inside AUXTRACE records and payloads
bad=0; n=0
while read -r off len; do
	for cut in $((off + 20)) $((off + 48 + len / 2)) $((off + 48 + len - 1)); do
		head -c "$cut" "$f" >"$TMP/t.data"
		"$HITMAP" report --stats -i "$TMP/t.data" >/dev/null 2>"$TMP/e"; rc=$?
		n=$((n + 1))
		if [ $rc -ne 1 ] || ! grep -q 'offset [0-9]*:.*truncated' "$TMP/e" ||
		   grep -q -e AddressSanitizer -e 'runtime error' "$TMP/e"; then
			bad=$((bad + 1)); echo "# cut $cut: rc $rc: $(tail -n1 "$TMP/e")"
		fi
		rm -f "$TMP/conv.data"
		"$HITMAP" convert -i "$TMP/t.data" -o "$TMP/conv.data" >/dev/null 2>"$TMP/e"; rc=$?
		n=$((n + 1))
		if [ $rc -ne 1 ] || ! grep -q 'offset [0-9]*:.*truncated' "$TMP/e" || [ -e "$TMP/conv.data" ] ||
		   grep -q -e AddressSanitizer -e 'runtime error' "$TMP/e"; then
			bad=$((bad + 1)); echo "# convert, cut $cut: rc $rc: $(tail -n1 "$TMP/e")"
		fi
	done
done < <(head -n 6 "$TMP/aux")
[ $bad = 0 ] && pass spe-corrupt-truncated-$n || fail spe-corrupt-truncated "$bad of $n cuts"

# random bytes inside the AUX payloads: decoded around, warned with an offset
crash=0; warned=0
for seed in 1 2 3 4; do
	python3 - "$f" "$TMP/aux" "$TMP/x.data" $seed <<'PY'
import random, sys
b = bytearray(open(sys.argv[1], 'rb').read())
aux = [tuple(map(int, l.split())) for l in open(sys.argv[2])]
random.seed(int(sys.argv[4]))
for _ in range(30):
    off, n = random.choice(aux)
    b[off + 48 + random.randrange(n)] = random.randrange(256)
open(sys.argv[3], 'wb').write(b)
PY
	for cmd in "report --stats" "script -F ip,addr,data_src"; do
		# shellcheck disable=SC2086
		"$HITMAP" $cmd -i "$TMP/x.data" >/dev/null 2>"$TMP/e"; rc=$?
		if [ $rc -ge 128 ] || grep -q -e AddressSanitizer -e 'runtime error' "$TMP/e"; then
			crash=$((crash + 1)); echo "# seed $seed $cmd: rc $rc: $(grep -m1 -e Sanitizer -e 'runtime error' "$TMP/e")"
		fi
		grep -q 'offset [0-9]*: bad Arm SPE packet' "$TMP/e" && warned=$((warned + 1))
	done
	# convert copies the bad packets as they are: the copy decodes alike
	if "$HITMAP" convert -i "$TMP/x.data" -o "$TMP/xc.data" -z >/dev/null 2>"$TMP/e" &&
	   cmp -s <("$HITMAP" script -F ip,addr,data_src -i "$TMP/x.data" 2>/dev/null) \
		  <("$HITMAP" script -F ip,addr,data_src -i "$TMP/xc.data" 2>/dev/null); then
		:
	else
		crash=$((crash + 1)); echo "# seed $seed convert: $(head -n1 "$TMP/e")"
	fi
done
[ $crash = 0 ] && pass spe-corrupt-flips-no-crash || fail spe-corrupt-flips-no-crash "$crash crashes"
[ $warned -gt 0 ] && pass spe-corrupt-flips-warn-offset || fail spe-corrupt-flips-warn-offset "no warning with an offset"

# malformed metadata: v2 header claiming 2^40 CPUs
info=$(python3 - "$f" 2>&1 >/dev/null <<'PY' | awk '/^info/ {print $2}'
import struct, sys
b = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', b, 40)
p = off
while p < off + size:
    t, m, s = struct.unpack_from('<IHH', b, p)
    if t == 70:
        print('info', p, file=sys.stderr)
    p += s + (struct.unpack_from('<Q', b, p + 8)[0] if t == 71 else 0)
PY
)
python3 -c "
import struct,sys
b=bytearray(open('$f','rb').read()); struct.pack_into('<Q', b, $info + 16 + 24, 1 << 40)
open('$TMP/m.data','wb').write(b)"
"$HITMAP" report --stats -i "$TMP/m.data" >/dev/null 2>"$TMP/e"; rc=$?
if [ $rc = 1 ] && [ "$(wc -l <"$TMP/e")" = 1 ] && grep -q "offset $info: Arm SPE metadata" "$TMP/e"; then
	pass spe-corrupt-metadata
else
	fail spe-corrupt-metadata "rc $rc: $(head -c 300 "$TMP/e")"
fi
# ... and claiming as many CPUs as there are words after the header: one
# word a CPU, where its number is the second (found by the reader's fuzz
# target: the CPU lookup read past the metadata)
python3 -c "
import struct,sys
b=bytearray(open('$f','rb').read())
size = struct.unpack_from('<H', b, $info + 6)[0]
hdr = struct.unpack_from('<Q', b, $info + 16 + 8)[0]
struct.pack_into('<Q', b, $info + 16 + 24, (size - 16) // 8 - hdr)
open('$TMP/m1.data','wb').write(b)"
"$HITMAP" report --stats -i "$TMP/m1.data" >/dev/null 2>"$TMP/e"; rc=$?
if [ $rc = 1 ] && [ "$(wc -l <"$TMP/e")" = 1 ] && grep -q "offset $info: Arm SPE metadata" "$TMP/e" &&
   ! grep -q -e AddressSanitizer -e 'runtime error' "$TMP/e"; then
	pass spe-corrupt-metadata-word-a-cpu
else
	fail spe-corrupt-metadata-word-a-cpu "rc $rc: $(head -c 300 "$TMP/e")"
fi
done_tests
