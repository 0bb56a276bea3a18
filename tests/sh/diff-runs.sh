#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap diff on generated recordings (tests/tools/hm-diff-gen): the same
# configuration diffs to no significant change; global hash -> private hash
# moves the expected metrics, matched by bucket, field and data symbol
# although every run has other table bases and another KASLR offset; the
# text lines up column for column with LKP's comparison rows.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-diff-gen
if [ ! -x "$GEN" ] || [ ! -x "$HITMAP" ]; then
	skip diff-runs "build $GEN and $HITMAP first (make tests)"
	done_tests
fi
if ! command -v jq >/dev/null; then
	skip diff-runs "jq is not installed"
	done_tests
fi
for s in 1 2 3 4 5 6; do
	"$GEN" -o "$TMP/g$s.data" --mode global --seed $s -n 30000 --ops 100000 || fail gen "global seed $s"
done
for s in 1 2 3; do
	"$GEN" -o "$TMP/p$s.data" --mode private --seed $((s + 10)) -n 30000 --ops 140000 || fail gen "private seed $s"
done

# --- same configuration, 3 runs against 3 runs
"$HITMAP" diff --json "$TMP"/g1.data "$TMP"/g2.data "$TMP"/g3.data -- "$TMP"/g4.data "$TMP"/g5.data "$TMP"/g6.data \
	>"$TMP/same.json" 2>"$TMP/same.err"
check same-config-runs [ "$(jq '.base.runs | length' "$TMP/same.json")" = 3 ]
check same-config-no-significant-change [ "$(jq '.test.significant' "$TMP/same.json")" = 0 ]
check same-config-tested-many [ "$(jq '.test.tested' "$TMP/same.json")" -gt 50 ]
check same-config-welch jq -e '.test.method | test("Welch")' "$TMP/same.json"
check same-config-quiet [ ! -s "$TMP/same.err" ]
# one run against one run: the Poisson test, still nothing
"$HITMAP" diff --json "$TMP/g1.data" "$TMP/g2.data" >"$TMP/same1.json"
check same-config-single-runs [ "$(jq '.test.significant' "$TMP/same1.json")" = 0 ]
check same-config-single-poisson jq -e '.test.method | test("Poisson")' "$TMP/same1.json"
# the bucket and the data symbol were matched across runs despite other addresses
"$HITMAP" diff --all --json "$TMP"/g1.data "$TMP"/g2.data -- "$TMP"/g4.data "$TMP"/g5.data >"$TMP/same-all.json"
check same-config-bucket-matched jq -e '.rows[] | select(.metric == "futex.global.node0.bucket.37.hitm")
	| select(.base.mean > 100 and .new.mean > 100 and .match == "futex table kind+node+bucket index")' "$TMP/same-all.json"
check same-config-symbol-matched jq -e '.rows[] | select(.metric == "line.data:hm_counter+0x40.tot_hitm")
	| select(.base.mean > 100 and .new.mean > 100 and .match == "data symbol+offset")' "$TMP/same-all.json"
check same-config-field-matched jq -e '.rows[] | select(.metric == "futex.global.field.lock.hitm")
	| select(.base.mean > 100 and .new.mean > 100 and .match == "bucket field")' "$TMP/same-all.json"

# --- global hash -> private hash
"$HITMAP" diff --all --json "$TMP"/g1.data "$TMP"/g2.data "$TMP"/g3.data -- "$TMP"/p1.data "$TMP"/p2.data "$TMP"/p3.data \
	>"$TMP/gp.json"
row() { jq -e --arg m "$1" ".rows[] | select(.metric == \$m) | select($2)" "$TMP/gp.json" >/dev/null; }
check gp-hitm-remote-down row perf-c2c.HITM.remote '.significant and .change_pct < -40'
check gp-hitm-local-up row perf-c2c.HITM.local '.significant and .change_pct > 0'
check gp-global-bucket-gone row futex.global.node0.bucket.37.hitm '.significant and .new.mean == 0 and .base.mean > 0'
check gp-global-bucket-socket row futex.global.node0.bucket.37.socket.1.hitm_remote '.significant and .new.mean == 0'
check gp-private-bucket-appears row futex.private.bucket.3.hitm '.significant and .base.mean == 0 and .new.mean > 0'
check gp-field-lock row futex.global.field.lock.hitm '.significant and .match == "bucket field"'
check gp-private-field row futex.private.field.lock.hitm '.significant and .change_pct > 0'
check gp-counter-unchanged row line.data:hm_counter+0x40.tot_hitm '(.significant | not) and .match == "data symbol+offset"'
check gp-ops-up row workload.ops_per_sec '.significant and .change_pct > 30'
check gp-sorted jq -e '[.rows[].significant] | . == (sort | reverse)' "$TMP/gp.json"

# --- the text: LKP's columns, byte for byte around each field
"$HITMAP" diff "$TMP"/g1.data "$TMP"/g2.data "$TMP"/g3.data -- "$TMP"/p1.data "$TMP"/p2.data "$TMP"/p3.data >"$TMP/gp.txt"
"$HITMAP" diff "$TMP/g1.data" "$TMP/p1.data" >"$TMP/gp1.txt"
cat >"$TMP/cols.py" <<'PY'
import re, sys
# LKP (lib/compare.rb): "%10s" + (" ±%3d%%" | 6 blanks) + "%+10.1f%% " + "%10s" + (" ±%3d%%" | 6) + "  name"
row = re.compile(r'^([ 0-9.e+-]{10})( ±[ 0-9]{3}%|      )([ +\-0-9.e]{10})% ([ 0-9.e+-]{10})( ±[ 0-9]{3}%|      )  (\S.*)$')
lines = open(sys.argv[1], encoding='utf-8').read().split('\n')
hdr = lines.index('         %stddev     %change         %stddev')
assert lines[hdr + 1] == '             \\          |                \\  ', 'second header line'
assert re.match(r'^-{16} -{27} $', lines[hdr - 1]), 'dashes'
n = pm = 0
for l in lines[hdr + 2:]:
    if not l:
        break
    m = row.match(l)
    assert m, 'not an LKP row: %r' % l
    assert l.index(m.group(6)) == 46, 'name column'
    n += 1
    pm += '±' in l
want_pm = sys.argv[2] == 'pm'
assert n > 5, 'rows'
assert (pm > 0) == want_pm, '± seen %d times' % pm
print(n)
PY
check text-lkp-columns python3 "$TMP/cols.py" "$TMP/gp.txt" pm
check text-lkp-columns-single-run python3 "$TMP/cols.py" "$TMP/gp1.txt" nopm
check text-footer grep -q 'changed significantly (Welch' "$TMP/gp.txt"
check text-matched grep -q 'rows matched by .*futex table kind+node+bucket index' "$TMP/gp.txt"
check text-ns-marked grep -Eq '  perf-c2c\.HIT\.remote  \(n\.s\.\)$' "$TMP/gp.txt"

# --- CSV
"$HITMAP" diff --csv "$TMP/g1.data" "$TMP/p1.data" >"$TMP/gp.csv"
check csv-header grep -qx 'metric,group,match,base_runs,base_mean,base_stddev_pct,new_runs,new_mean,new_stddev_pct,change_pct,test,p,significant' "$TMP/gp.csv"
check csv-row grep -q '^perf-c2c.HITM.remote,c2c,name,1,' "$TMP/gp.csv"

# --- --metrics, errors, help
"$HITMAP" diff --metrics "$TMP/g1.data" >"$TMP/m.json"
check metrics-json jq -e '.metrics["perf-c2c.HITM.total"] > 0 and .sockets == 2 and .nodes == 2' "$TMP/m.json"
check help "$HITMAP" diff --help
# several files: one JSON document (an array), as a JSON parser reads it (it was objects back to back)
"$HITMAP" diff --metrics "$TMP/g1.data" "$TMP/g1.data" >"$TMP/m2.json" 2>/dev/null
check metrics-json-several python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert isinstance(d, list) and len(d) == 2 and d[0] == d[1]' "$TMP/m2.json"
# standard input twice: refused (the second read found the pipe empty and said "no change")
"$HITMAP" diff - - <"$TMP/g1.data" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 2 ] && grep -q "given 2 times; it can be read once" "$TMP/e" && pass stdin-twice-refused ||
	fail stdin-twice-refused "rc=$rc $(cat "$TMP/e")"
# every installed perf is an oracle for LKP's set: its -NN --stats lines,
# parsed as LKP's parser does, equal diff --metrics --perf-compat V
for v in $(oracle_perfs); do
	if ! perfv "$v" c2c report -NN -i "$TMP/g1.data" --stats >"$TMP/perf.txt" 2>/dev/null; then
		skip "perf-oracle $v" "perf $v c2c report cannot read $TMP/g1.data here"
		continue
	fi
	"$HITMAP" diff --metrics --perf-compat "$v" "$TMP/g1.data" >"$TMP/mv.json"
	lkp() { awk -v re="$1" '$0 ~ re { v = $NF } END { print v + 0 }' "$TMP/perf.txt"; }
	hm() { jq ".metrics[\"perf-c2c.$1\"] // 0" "$TMP/mv.json"; }
	bad=
	for k in "HITM.local: Load Local HITM" "HITM.remote: Load Remote HITM" "DRAM.local: Load Local DRAM" \
		 "DRAM.remote: Load Remote DRAM"; do
		[ "$(hm "${k%%:*}")" = "$(lkp " ${k#*: }")" ] || bad="$bad ${k%%:*}"
	done
	[ "$(hm HIT.remote)" = "$(awk '/ Load Remote HITM/ { next } / Load Remote HIT/ { v = $NF } END { print v + 0 }' "$TMP/perf.txt")" ] || bad="$bad HIT.remote"
	[ "$(hm HITM.total)" = "$(( $(lkp ' Load Local HITM') + $(lkp ' Load Remote HITM') ))" ] || bad="$bad HITM.total"
	if [ -z "$bad" ]; then pass "perf-oracle $v: the six perf-c2c.* metrics (--perf-compat $v)"
	else fail "perf-oracle $v" "differ:$bad"; fi
done
[ -n "$(oracle_perfs)" ] || skip perf-oracle "no perf installed"
if "$HITMAP" diff "$TMP/g1.data" >"$TMP/e1" 2>&1; then fail usage-one-file "exit 0"; else
	check usage-one-file grep -q 'BASE.data... -- NEW.data' "$TMP/e1"; fi
if "$HITMAP" diff "$TMP/g1.data" -- "$TMP/nonexistent.data" >"$TMP/e2" 2>&1; then fail missing-file "exit 0"; else
	check missing-file [ "$(wc -l <"$TMP/e2")" = 1 ]; fi
head -c 3000 "$TMP/g1.data" >"$TMP/trunc.data"
if "$HITMAP" diff "$TMP/g1.data" "$TMP/trunc.data" >"$TMP/e3" 2>&1; then fail truncated-file "exit 0"; else
	check truncated-file grep -q 'trunc.data' "$TMP/e3"; fi
if "$HITMAP" diff --alpha 7 "$TMP/g1.data" "$TMP/g2.data" >"$TMP/e4" 2>&1; then fail bad-alpha "exit 0"; else
	check bad-alpha grep -q -- '--alpha' "$TMP/e4"; fi
# real perf files (fixtures, read in place): file and pipe mode, and standard input
F=$FIXTURES/linux-perf-data
if [ -f "$F/sleep.compressed.data" ] && [ -f "$F/sleep.compressed.pipe.data" ]; then
	check fixture-file-vs-pipe "$HITMAP" diff --json "$F/sleep.compressed.data" "$F/sleep.compressed.pipe.data"
	"$HITMAP" diff --metrics - <"$F/fibo.compressed2.pipe.data" >"$TMP/stdin.json" 2>/dev/null
	check fixture-stdin-pipe jq -e '.samples == 547 and .label == "-"' "$TMP/stdin.json"
else
	skip fixture-diff "no perf fixtures under $F"
fi
done_tests
