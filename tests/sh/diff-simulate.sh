#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap diff on `hitmap simulate` recordings (perf bench futex hash on a
# modelled 2-socket Skylake): repeats of one configuration diff to no
# significant change; 6.16 (private hash, rcuref users) against 6.17
# (per-CPU references) moves what it should: the private hash header line
# (fph.users) stops bouncing, the bucket lock becomes the hot field, HITM
# totals drop, ops/s rise; rows matched by futex object, field and bucket.
. tests/lib.sh
if ! "$HITMAP" simulate --help >/dev/null 2>&1; then
	skip diff-simulate "this hitmap has no simulate command"
	done_tests
fi
if ! command -v jq >/dev/null; then
	skip diff-simulate "jq is not installed"
	done_tests
fi
sim() {
	local out=${*: -1}
	if ! "$HITMAP" simulate --preset skx --ops 200000 --period 100 "$@" >/dev/null 2>"$TMP/sim.err"; then
		fail simulate "hitmap simulate $* failed: $(head -c 200 "$TMP/sim.err" | tr '\n' ' ')"
	elif [ ! -s "$out" ]; then
		fail simulate "no $out: $(head -c 200 "$TMP/sim.err")"
	fi
}
for s in 1 2 3; do
	sim --kernel 6.16-rc4 --seed $s -o "$TMP/k616-$s.data"
	sim --kernel 6.17 --seed $((s + 10)) -o "$TMP/k617-$s.data"
	sim --kernel 6.17 --seed $((s + 20)) -o "$TMP/k617b-$s.data"
done
"$HITMAP" diff --json "$TMP"/k617-{1,2,3}.data -- "$TMP"/k617b-{1,2,3}.data >"$TMP/same.json"
check sim-same-config-no-significant-change [ "$(jq '.test.significant' "$TMP/same.json")" = 0 ]
check sim-same-config-tested [ "$(jq '.test.tested' "$TMP/same.json")" -gt 1000 ]
"$HITMAP" diff --all --json "$TMP"/k617-{1,2,3}.data -- "$TMP"/k617b-{1,2,3}.data >"$TMP/same-all.json"
check sim-same-config-buckets-matched [ "$(jq '[.rows[] | select(.group == "bucket" and .base.mean > 0 and .new.mean > 0)] | length' "$TMP/same-all.json")" -gt 100 ]

"$HITMAP" diff --all --json "$TMP"/k616-{1,2,3}.data -- "$TMP"/k617-{1,2,3}.data >"$TMP/k.json"
row() { jq -e --arg m "$1" ".rows[] | select(.metric == \$m) | select($2)" "$TMP/k.json" >/dev/null; }
check sim-616-617-hitm-down row perf-c2c.HITM.total '.significant and .change_pct < -30'
check sim-616-617-fph-gone row line.futex.private.fph.tot_hitm '.significant and .new.mean == 0 and .base.mean > 100 and .match == "futex object"'
check sim-616-617-lock-hot row futex.private.field.lock.hitm '.significant and .new.mean > 100 and .match == "bucket field"'
check sim-616-617-ops-up row workload.ops_per_sec_thread '.significant and .change_pct > 100'
check sim-616-617-welch jq -e '.test.method | test("Welch")' "$TMP/k.json"
"$HITMAP" diff "$TMP"/k616-{1,2,3}.data -- "$TMP"/k617-{1,2,3}.data >"$TMP/k.txt"
check sim-616-617-text grep -Eq '^ +[0-9]+ +-[0-9.]+% +[0-9.]+ +perf-c2c\.HITM\.total$' "$TMP/k.txt"
done_tests
