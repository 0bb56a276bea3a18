#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Option combinations of `hitmap hash` and `hitmap simulate` that cannot go
# together are usage errors (exit 2, one line naming both options), not a
# silent choice: hash --private with --shared or --inode-seq; simulate --ops
# with --seconds, --thp without --shared, --runs without --compare or inside
# its option strings.  An option string of --compare may still override the
# command line (--ops there, --seconds in a side; --shared in the side that
# takes --thp).
. tests/lib.sh
[ -x "$HITMAP" ] || { skip cli-conflicts-hash-sim "no $HITMAP; build first"; done_tests; }

# refused NAME PATTERN ARGS...: exit 2, exactly one line on stderr matching PATTERN, nothing on stdout
refused() {
	local name=$1 pat=$2; shift 2
	"$HITMAP" "$@" >"$TMP/o" 2>"$TMP/e" </dev/null; local rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -Eq -- "$pat" "$TMP/e" && [ ! -s "$TMP/o" ]; then
		pass "$name"
	else
		fail "$name" "rc=$rc for '$*': $(head -c 300 "$TMP/e" | tr '\n' ' ')"
	fi
}
together='^hitmap: (--[a-z-]+) and (--[a-z-]+) cannot be used together; choose one$'

refused hash-private-shared "$together" hash --private --shared 0x7f0000001000
refused hash-shared-private "^hitmap: --shared and --private cannot be used together" hash --shared --private 0x7f0000001000
refused hash-private-shared-verify "^hitmap: --private and --shared cannot be used together" hash --verify --private --shared
refused hash-private-inode-seq "^hitmap: --private and --inode-seq cannot be used together" \
	hash --private --inode-seq 7 --pgoff 0 0x7f0000001000
refused hash-inode-seq-private "^hitmap: --inode-seq and --private cannot be used together" \
	hash --inode-seq 7 --pgoff 0 --private 0x7f0000001000

refused sim-ops-seconds "^hitmap: --ops and --seconds cannot be used together; choose one$" \
	simulate --preset skx --ops 1000 --seconds 0.001 -o "$TMP/s.data"
refused sim-seconds-ops "^hitmap: --seconds and --ops cannot be used together|^hitmap: --ops and --seconds cannot be used together" \
	simulate --preset skx --seconds 0.001 --ops 1000 -o "$TMP/s.data"
[ ! -e "$TMP/s.data" ] && pass sim-ops-seconds-nothing-written || fail sim-ops-seconds-nothing-written "$TMP/s.data written"
refused sim-ops-seconds-in-compare "^hitmap: --ops and --seconds cannot be used together" \
	simulate --preset skx --compare "--ops 1000 --seconds 0.001" ""
refused sim-thp-no-shared "^hitmap: --thp without --shared: .*add --shared$" \
	simulate --preset skx --ops 1000 --thp -o "$TMP/t.data"
refused sim-thp-no-shared-accesses "^hitmap: --thp without --shared" simulate --kernel 6.18 --thp --accesses
refused sim-thp-compare-side-no-shared "^hitmap: --thp without --shared" \
	simulate --preset skx --ops 1000 --thp --compare "--shared" ""
refused sim-runs-no-compare "^hitmap: --runs .*--compare" simulate --preset skx --ops 1000 --runs 3 -o "$TMP/r.data"
refused sim-runs-in-compare-string "^hitmap: --runs goes before --compare" \
	simulate --preset skx --ops 1000 --compare "--runs 2" ""

# still accepted: a side overrides the command line; --thp with --shared from the command line
if "$HITMAP" simulate --preset skx --ops 2000 --compare "--seconds 0.0001" "" >"$TMP/ov.txt" 2>"$TMP/ov.err" &&
   "$HITMAP" simulate --preset skx --shared --ops 2000 --compare "" "--thp" >"$TMP/thp.txt" 2>"$TMP/thp.err" &&
   ! "$HITMAP" simulate --preset skx --ops 2000 --thp --compare "--shared" "" >/dev/null 2>&1; then
	pass sim-compare-side-overrides-only-where-meaningful
else
	fail sim-compare-side-overrides-only-where-meaningful "$(head -c 300 "$TMP/ov.err" "$TMP/thp.err" | tr '\n' ' ')"
fi
grep -A12 '^\.SH EXIT STATUS' man/hitmap-hash.1 | grep -q 'go together' &&
	grep -A14 '^\.SH EXIT STATUS' man/hitmap-simulate.1 | grep -q 'thp' &&
	pass man-lists-refused-combinations || fail man-lists-refused-combinations "hitmap-hash.1 / hitmap-simulate.1 EXIT STATUS"
done_tests
