#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap stat --perf-compat V prints what perf V report --stats prints, byte
# for byte (its own "hitmap:" block aside), for every installed perf (6.1,
# 6.12, 7.3) on every fixture that perf reads, on a simulated file, and on a
# pipe file of records cut short.  Found where they once differed:
#  - the leading blank line, and the name column (16 in 6.1, 20 from 6.12);
#  - perf 7.3 skips, uncounted, a record shorter than its type's minimum
#    (perf 3.x's 24-byte EVENT_TYPE: TOTAL 3015 where 6.12 counts 3016);
#  - the :H of a name made from the attr (perf 3.x-4.14 pipe files: "cycles"
#    in 6.12, "cycles:H" in 7.3), a pipe EVENT_DESC sent before its event
#    (7.3 does not name the event by it), and 6.1's --stats, which names a
#    pipe file's events by their attrs alone ("cycles:uH", not "cycles:u");
#  - "(excludes AUX area ...)" on files with AUX trace, and TOTAL left out
#    when nothing is counted.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
[ -x "$HITMAP" ] || { skip stat-perf "no $HITMAP; build first (make tests)"; done_tests; }
PERFS=$(oracle_perfs)
[ -n "$PERFS" ] || { skip stat-perf "no perf installed (scripts/setup-oracles.sh)"; done_tests; }

files=()
if [ -d "$FIXTURES" ]; then
	for f in "$FIXTURES"/*/*; do
		case $f in *.txt|*.md|*.gz|*.json|*.yaml) continue;; esac
		[ -f "$f" ] && files+=("$f")
	done
else
	echo "# no fixtures at $FIXTURES (set HITMAP_FIXTURES): the made files only"
fi
"$HITMAP" simulate --sockets 2 --ops 3000 --period 40 -o "$TMP/sim.data" >/dev/null 2>&1 && files+=("$TMP/sim.data")
# a pipe file with, for each record type perf 7.3 has a minimum for, one
# record 8 bytes short of it (perf 7.3 skips it) and one long enough; types
# hitmap refuses to read short (an ATTR without its attr, an AUXTRACE
# without its size, ...) only long enough.  $1: the types.
short_file() {
	python3 - "$@" <<'EOF'
import struct, sys
mins = {1: 41, 2: 24, 3: 17, 4: 32, 5: 32, 6: 32, 7: 32, 8: 24, 10: 73, 11: 32, 12: 16,
        13: 16, 15: 16, 16: 24, 17: 25, 18: 24, 19: 17, 20: 24, 21: 16, 22: 16, 65: 80,
        66: 12, 67: 36, 69: 16, 70: 16, 71: 48, 72: 49, 73: 16, 74: 16, 75: 16, 76: 48,
        77: 24, 78: 24, 79: 32, 80: 16, 84: 528, 85: 24, 86: 24}
out = open(sys.argv[1], 'wb')
out.write(b'PERFILE2' + struct.pack('<Q', 16))
def rec(t, size):
    out.write(struct.pack('<IHH', t, 0, size) + bytes(size - 8))
for t in map(int, sys.argv[2].split(',')):
    m = mins[t]
    lo = (m - 1) // 8 * 8
    if lo >= 16 or (lo == 8 and t not in (66, 69, 71, 80)):
        rec(t, lo)
    rec(t, (m + 7) // 8 * 8)
EOF
}
if command -v python3 >/dev/null; then
	# 6.1 and 6.12 know types up to 20 and 64..80; 7.3 all of them
	short_file "$TMP/short-old.data" 1,2,3,4,5,6,7,8,10,11,12,13,15,16,17,18,19,20,65,66,67,69,70,71,72,73,74,75,76,77,78,79,80 &&
		short_file "$TMP/short-new.data" 1,2,3,4,5,6,7,8,10,11,12,13,15,16,17,18,19,20,21,22,65,66,67,69,70,71,72,73,74,75,76,77,78,79,80,84,85,86 ||
		fail stat-perf.short_files "python3 could not write them"
else
	skip stat-perf.short "python3 is not installed"
fi

perf_part() { sed '/^hitmap:$/,$d' "$1"; }
for v in $PERFS; do
	set -- "${files[@]}"
	[ -f "$TMP/short-old.data" ] && set -- "$@" "$TMP/short-old.data"
	[ "$v" = 7.3 ] && [ -f "$TMP/short-new.data" ] && set -- "$@" "$TMP/short-new.data"
	o=$TMP/out-$v
	perf_each "$v" "$o" 'report --stats' "$@"
	neq=0 nread=0 bad=
	for f in "$@"; do
		b=${f##*/}
		[ "$(cat "$o/$b.rc" 2>/dev/null)" = 0 ] && grep -q 'Aggregated stats' "$o/$b.out" || continue
		nread=$((nread + 1))
		"$HITMAP" stat --perf-compat "$v" -i "$f" >"$TMP/h.out" 2>/dev/null
		if cmp -s "$o/$b.out" <(perf_part "$TMP/h.out"); then
			neq=$((neq + 1))
		else
			bad="$bad $b: $(diff "$o/$b.out" <(perf_part "$TMP/h.out") | grep '^[<>]' | head -2 | tr '\n' '|')"
			echo "# perf $v, $b:"; diff "$o/$b.out" <(perf_part "$TMP/h.out") | head -6 | sed 's/^/#   /'
		fi
	done
	if [ $nread -eq 0 ]; then
		skip "stat-perf: perf $v" "perf $v read none of the $# files"
	elif [ $neq -eq $nread ]; then
		pass "stat-perf: perf $v: $neq/$nread files print the same"
	else
		fail "stat-perf: perf $v: $neq/$nread files print the same" "${bad:0:400}"
	fi
	# the short records: skipped by 7.3, counted by 6.12 (6.1 stops at one)
	f=$TMP/short-old.data
	if [ -f "$f" ] && [ "$(cat "$o/short-old.data.rc" 2>/dev/null)" = 0 ] && grep -q "Aggregated stats" "$o/short-old.data.out"; then
		t=$(sed -n 's/^ *TOTAL events: *\([0-9]*\)$/\1/p' "$o/short-old.data.out")
		want=63
		[ "$v" = 7.3 ] && want=33
		[ "$t" = "$want" ] && pass "stat-perf: perf $v counts $want of the 63 records in the short-record file" ||
			fail "stat-perf: perf $v counts $want of the 63 short and whole records" "perf counts ${t:-none}: the file is not what this test expects"
	fi
done
# --json: every record read, whatever the version
f=$TMP/short-old.data
if [ -f "$f" ]; then
	"$HITMAP" stat --json -i "$f" >"$TMP/j" 2>/dev/null
	grep -q '"total": 63,' "$TMP/j" && pass "stat-perf: --json counts every record (63)" ||
		fail "stat-perf: --json counts every record (63)" "$(head -c 200 "$TMP/j")"
fi
"$HITMAP" stat --perf-compat 5.0 -i "$TMP/sim.data" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q -- '--perf-compat 5.0: unknown perf version; use one of 6.1, 6.12, 7.3' "$TMP/e" &&
	pass "stat-perf: an unknown --perf-compat is a usage error" ||
	fail "stat-perf: an unknown --perf-compat is a usage error" "rc $rc: $(cat "$TMP/e")"
done_tests
