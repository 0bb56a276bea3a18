#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What-if layouts and table sizes: --pad-field puts a bucket field on its own
# line (bucket 128 bytes, the field's HITM moves), --drop-field removes a field
# and its accesses, -b/--slots sizes the private hash like perf bench -b (0: the
# global hash), --global-slots the global table, --thp puts every thread's
# futex words in one folio; --compare shows each effect.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip sim-whatif "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip sim-whatif "jq is not installed"; done_tests; }
base="--preset srf --cores 16 --futexes 256 --ops 40000"
j() { "$HITMAP" simulate $base "$@" --json; }
"$HITMAP" simulate $base --kernel 6.18 --compare "" "--pad-field priv" >"$TMP/pad.txt" 2>&1
row=$(grep -E '^  HITM on bucket\.priv ' "$TMP/pad.txt")
echo "# pad priv: $row"
grep -q 'bucket 128 bytes, own line for priv' "$TMP/pad.txt" &&
	[ "$(printf '%s' "$row" | awk '{ print $5 }')" = 0.0 ] && pass sim-whatif-pad-priv ||
	fail sim-whatif-pad-priv "$(head -c 300 "$TMP/pad.txt")"
"$HITMAP" simulate $base --kernel 6.18 --drop-field priv --accesses >"$TMP/drop.txt"
grep -qE '^ +[0-9]+ .*hb->priv' "$TMP/drop.txt" && fail sim-whatif-drop-priv "priv still accessed" ||
	pass sim-whatif-drop-priv
"$HITMAP" simulate $base --kernel 7.2 --drop-field priv --ops 10 >/dev/null 2>"$TMP/e" &&
	fail sim-whatif-drop-absent "accepted dropping priv on 7.2" ||
	{ grep -q 'no such field' "$TMP/e" && pass sim-whatif-drop-absent || fail sim-whatif-drop-absent "$(cat "$TMP/e")"; }
"$HITMAP" simulate $base --kernel 6.18 --drop-field lock --ops 10 >/dev/null 2>&1 &&
	fail sim-whatif-drop-lock-refused "accepted" || pass sim-whatif-drop-lock-refused
# -b like perf bench: private hash size; 0 = global; a kernel without the private hash refuses
[ "$(j --kernel 6.18 -b 256 | jq -r '.hash')" = private ] && pass sim-whatif-b-private || fail sim-whatif-b-private "-b 256"
[ "$(j --kernel 6.18 -b 0 | jq -r '.hash')" = global ] && pass sim-whatif-b-0-global || fail sim-whatif-b-0-global "-b 0"
"$HITMAP" simulate $base --kernel 6.16 -b 16 --ops 10 >/dev/null 2>"$TMP/e" &&
	fail sim-whatif-b-on-6.16-final "accepted" ||
	{ grep -q 'no private hash' "$TMP/e" && pass sim-whatif-b-on-6.16-final || fail sim-whatif-b-on-6.16-final "$(cat "$TMP/e")"; }
"$HITMAP" simulate $base --kernel 6.18 --compare "-b 16" "-b 1024" >"$TMP/b.txt" 2>&1
grep -q 'private hash (16 slots)' "$TMP/b.txt" && grep -q 'private hash (1024 slots)' "$TMP/b.txt" &&
	pass sim-whatif-compare-slots || fail sim-whatif-compare-slots "$(sed -n '/^why/,$p' "$TMP/b.txt" | head -c 300)"
"$HITMAP" simulate $base --kernel 6.16 --compare "--global-slots 16" "" >"$TMP/g.txt" 2>&1
grep -Eq '^   srf, kernel 6.16 .*global hash, 32 slots' "$TMP/g.txt" && pass sim-whatif-global-slots ||
	fail sim-whatif-global-slots "$(head -4 "$TMP/g.txt")"
# THP: one folio for every thread's words, so its refcount line bounces
"$HITMAP" simulate $base --kernel 6.16 --shared --compare "" "--thp" >"$TMP/thp.txt" 2>&1
row=$(grep -E '^  HITM on folio ' "$TMP/thp.txt")
echo "# THP: $row"
printf '%s' "$row" | awk '{ exit !($5 > 1.5 * $4 && $5 > 1000) }' && pass sim-whatif-thp-folio-bounces ||
	fail sim-whatif-thp-folio-bounces "row '$row'"
done_tests
