#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap simulate: the same seed gives the same perf.data and truth, byte for byte.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip sim-determinism "no $HITMAP; build first"; done_tests; }
args="--preset skx --cores 6 --smt 2 --kernel 6.16-rc4 --futexes 64 --ops 20000 --period 20"
mkdir -p "$TMP/a" "$TMP/b" "$TMP/c"
( cd "$TMP/a" && "$HITMAP" simulate $args --seed 7 -o sim.data --truth sim.json >out 2>&1 ) &&
( cd "$TMP/b" && "$HITMAP" simulate $args --seed 7 -o sim.data --truth sim.json >out 2>&1 ) &&
( cd "$TMP/c" && "$HITMAP" simulate $args --seed 8 -o sim.data --truth sim.json >out 2>&1 ) ||
	{ fail sim-determinism-run "$(cat "$TMP"/*/out | tail -n 3)"; done_tests; }
echo "# $(sha256sum "$TMP/a/sim.data" | cut -c1-16) $(stat -c %s "$TMP/a/sim.data") bytes, $(jq .samples.total "$TMP/a/sim.json") samples"
check sim-determinism-same-seed-same-perf-data cmp "$TMP/a/sim.data" "$TMP/b/sim.data"
check sim-determinism-same-seed-same-truth cmp "$TMP/a/sim.json" "$TMP/b/sim.json"
if cmp -s "$TMP/a/sim.data" "$TMP/c/sim.data"; then
	fail sim-determinism-other-seed-differs "seeds 7 and 8 gave the same file"
else
	pass sim-determinism-other-seed-differs
fi
# the output file names do not leak into the file (the header's cmdline leaves them out)
( cd "$TMP/b" && "$HITMAP" simulate $args --seed 7 -o other-name.data >/dev/null 2>&1 )
check sim-determinism-name-independent cmp "$TMP/a/sim.data" "$TMP/b/other-name.data"
# every preset is deterministic, AMD and Arm too
for p in zen4 altra srf; do
	"$HITMAP" simulate --preset $p --cores 8 --futexes 32 --ops 5000 --period 10 -o "$TMP/$p.1" >/dev/null 2>&1
	"$HITMAP" simulate --preset $p --cores 8 --futexes 32 --ops 5000 --period 10 -o "$TMP/$p.2" >/dev/null 2>&1
	check sim-determinism-$p cmp "$TMP/$p.1" "$TMP/$p.2"
done
# shared futexes in a THP, a what-if layout, the 7.3 path
w="--preset srf --cores 8 --futexes 32 --ops 5000 --period 10 --kernel 7.3 --shared --thp --pad-field waiters"
"$HITMAP" simulate $w -o "$TMP/w.1" >/dev/null 2>&1
"$HITMAP" simulate $w -o "$TMP/w.2" >/dev/null 2>&1
check sim-determinism-shared-thp-whatif cmp "$TMP/w.1" "$TMP/w.2"
# the bucket lock's slowpath (pending bit, MCS queue, hand-offs) on every operation: 2 slots
q="--preset skx --cores 4 --smt 2 --kernel 7.2 -b 2 --futexes 16 --ops 4000 --period 10"
"$HITMAP" simulate $q -o "$TMP/q.1" --truth "$TMP/q.1.json" >/dev/null 2>&1
"$HITMAP" simulate $q -o "$TMP/q.2" --truth "$TMP/q.2.json" >/dev/null 2>&1
c=$("$HITMAP" simulate $q --json 2>/dev/null | jq '.lock_contended')
echo "# -b 2: $c of 4000 acquisitions contended"
[ "${c:-0}" -gt 1000 ] && cmp -s "$TMP/q.1" "$TMP/q.2" && cmp -s "$TMP/q.1.json" "$TMP/q.2.json" &&
	pass sim-determinism-contended-lock ||
	fail sim-determinism-contended-lock "$c contended; the files $(cmp "$TMP/q.1" "$TMP/q.2" 2>&1 | head -c 120)"
done_tests
