#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Ground truth for hitmap's own views: on simulated files (hitmap simulate
# --truth) of every preset x kernel era x private/shared futexes, every
# precise number of --by bucket (per bucket; samples, loads, stores, locked
# per field of it), --by field,
# the futex objects, --by socket and the per-socket totals equals the
# simulator's truth; the text table shows the JSON's numbers; and where
# perf's counters count one sample twice (Sierra Forest / Skylake-SP encode
# a remote HITM as RAM|REM|HITM) hitmap's views do not, and say so.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip report-truth "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip report-truth "jq is not installed"; done_tests; }

nz='def nz: with_entries(select(.value != 0));
    def add_maps: reduce .[] as $m ({}; . as $a | $m | to_entries | map({key, value: (.value + ($a[.key] // 0))}) | from_entries | . as $b | $a + $b);'
double_seen=0
for p in srf skx zen4 altra; do
for k in 6.12 6.16 6.17 7.0; do
for sh in private shared; do
	n=$p-$k-$sh
	f=$TMP/$n.data; t=$TMP/$n.truth.json
	args=(--preset "$p" --cores 8 --kernel "$k" --futexes 64 --ops 6000 --period 20 -o "$f" --truth "$t")
	[ $sh = shared ] && args+=(--shared)
	"$HITMAP" simulate "${args[@]}" >"$TMP/$n.out" 2>&1 || { fail "report-truth $n: simulate" "$(tail -n 1 "$TMP/$n.out")"; continue; }
	for v in bucket field socket; do
		"$HITMAP" report -i "$f" --by $v --json --perf-counters >"$TMP/$n.$v.json" 2>"$TMP/$n.err" ||
			{ fail "report-truth $n: --by $v" "$(tail -n 1 "$TMP/$n.err")"; continue 2; }
	done
	"$HITMAP" report -i "$f" --stats --json >"$TMP/$n.stats.json" 2>/dev/null
	"$HITMAP" report -i "$f" --by bucket >"$TMP/$n.bucket.txt" 2>/dev/null
	# per bucket: categories, samples/loads/stores/locked, and per field of the bucket
	d=$(jq -n -c --slurpfile r "$TMP/$n.bucket.json" --slurpfile t "$t" "$nz"'
		([$t[0].buckets[] | {key: "\(.table):\(.node):\(.index)", value: {hitmap: (.hitmap | nz),
		   counts: {samples: .c2c.nr_entries, loads: .c2c.load, stores: .c2c.store, locked: .c2c.locks},
		   fields: ([.fields | to_entries[] | select(.value.nr_entries > 0) | {key, value: {samples: .value.nr_entries, loads: .value.load, stores: .value.store, locked: .value.locks}}] | from_entries)}}]
		 | from_entries) as $T |
		([$r[0].buckets[] | select(.table != "unknown") | {key: "\(.table):\(.node):\(.index)", value: {hitmap: (.hitmap | nz),
		   counts: (.counts | {samples, loads, stores, locked}),
		   fields: ([.fields[] | {key: .field, value: (.counts | {samples, loads, stores, locked})}] | from_entries)}}] | from_entries) as $R |
		[($T + $R | keys[]) as $x | select($T[$x] != $R[$x]) | "\($x): truth \($T[$x]) report \($R[$x] // "absent")"] | .[:2]')
	[ "$d" = "[]" ] && pass "report-truth $n: --by bucket = truth ($(jq '.buckets | length' "$t") buckets)" ||
		fail "report-truth $n: --by bucket = truth" "$d"
	# per field over all buckets
	d=$(jq -n -c --slurpfile r "$TMP/$n.field.json" --slurpfile t "$t" "$nz"'
		([$t[0].fields | to_entries[] | select(.value.c2c.nr_entries > 0) | {key: .value.field, value: (.value.hitmap | nz)}] | from_entries) as $T |
		([$r[0].fields[] | select(.table != "unknown")] | group_by(.field) |
		 map({key: .[0].field, value: (map(.hitmap) | add_maps | nz)}) | from_entries) as $R |
		[($T + $R | keys[]) as $x | select($T[$x] != $R[$x]) | "\($x): truth \($T[$x]) report \($R[$x])"]')
	[ "$d" = "[]" ] && pass "report-truth $n: --by field = truth" || fail "report-truth $n: --by field = truth" "$d"
	# futex objects that are not buckets: the private hash header and the mm fields
	d=$(jq -n -c --slurpfile r "$TMP/$n.bucket.json" --slurpfile t "$t" "$nz"'
		([$t[0].objects[] | select(.object == "fph" or .object == "mm") | {key: .object, value: (.hitmap | nz)}]
		 | map(select(.value != {})) | from_entries) as $T |
		([$r[0].objects[] | {o: (.object | split(".")[0]), h: .hitmap}] | group_by(.o) |
		 map({key: .[0].o, value: (map(.h) | add_maps | nz)}) | from_entries) as $R |
		[($T + $R | keys[]) as $x | select($T[$x] != $R[$x]) | "\($x): truth \($T[$x]) report \($R[$x])"]')
	[ "$d" = "[]" ] && pass "report-truth $n: objects (fph, mm) = truth" || fail "report-truth $n: objects = truth" "$d"
	# socket x node: all bucket samples, and each socket = the bucket rows' socket columns
	d=$(jq -n -c --slurpfile s "$TMP/$n.socket.json" --slurpfile b "$TMP/$n.bucket.json" --slurpfile t "$t" "$nz"'
		([$t[0].objects[] | select(.object == "bucket") | .hitmap | nz] | add // {}) as $T |
		([$s[0].xfer[].hitmap] | add_maps | nz) as $X |
		([$b[0].buckets[] | .hitmap] | add_maps | nz) as $A |
		([$b[0].buckets[] | select(.table != "unknown") | .hitmap] | add_maps | nz) as $B |
		([$s[0].xfer[] | {k: "\(.socket)", h: .hitmap}] | group_by(.k) | map({key: .[0].k, value: (map(.h) | add_maps | nz)}) | from_entries) as $S |
		([$b[0].buckets[].sockets[] | {k: "\(.socket)", h: .hitmap}] | group_by(.k) | map({key: .[0].k, value: (map(.h) | add_maps | nz)}) | from_entries | with_entries(select(.value != {}))) as $BS |
		(if $X != $A then ["socket x node total \($X) != bucket rows \($A)"] else [] end) +
		(if $B != $T then ["bucket rows \($B) != truth \($T)"] else [] end) +
		(if $S != $BS then ["per socket \($S) != bucket socket columns \($BS)"] else [] end)')
	[ "$d" = "[]" ] && pass "report-truth $n: --by socket = truth" || fail "report-truth $n: --by socket = truth" "$d"
	# per-socket totals of the file
	d=$(jq -n -c --slurpfile r "$TMP/$n.stats.json" --slurpfile t "$t" "$nz"'
		([$t[0].sockets[] | {key: "\(.socket)", value: (.hitmap | nz)}] | from_entries) as $T |
		([$r[0].sockets[] | {key: "\(.socket)", value: (.hitmap | nz)}] | from_entries) as $R |
		[($T + $R | keys[]) as $x | select($T[$x] != $R[$x]) | "socket \($x): truth \($T[$x]) report \($R[$x])"]')
	[ "$d" = "[]" ] && pass "report-truth $n: per-socket totals = truth" || fail "report-truth $n: per-socket totals = truth" "$d"
	# the text shows the JSON's numbers, row for row
	awk '/^TABLE /{on=1; next} on && NF == 0 {exit} on {print $4, $5, $6, $7, $8, $9, $10}' "$TMP/$n.bucket.txt" >"$TMP/$n.text.rows"
	jq -r '.buckets[] | .counts | "\(.loads) \(.hitm_local) \(.hitm_xdie) \(.hitm_remote) \(.dram_local) \(.dram_remote) \(.stores)"' \
		"$TMP/$n.bucket.json" >"$TMP/$n.json.rows"
	if [ -s "$TMP/$n.json.rows" ] && cmp -s "$TMP/$n.text.rows" "$TMP/$n.json.rows"; then
		pass "report-truth $n: text rows = JSON rows ($(wc -l <"$TMP/$n.json.rows"))"
	else
		fail "report-truth $n: text rows = JSON rows" "$(diff "$TMP/$n.text.rows" "$TMP/$n.json.rows" | head -n 3 | tr '\n' ' ')"
	fi
	# perf's counters double count here: hitmap's views do not, and the view says why
	read -r prd hrd < <(jq -r '"\([.buckets[].perf_c2c.rmt_dram] | add // 0) \([.buckets[].counts.dram_remote] | add // 0)"' "$TMP/$n.bucket.json")
	trd=$(jq '[.buckets[].hitmap.dram_remote // 0] | add // 0' "$t")
	if [ "$prd" -gt "$trd" ]; then
		double_seen=$((double_seen + 1))
		if [ "$hrd" = "$trd" ] && grep -q '^note: perf counts .* again as remote DRAM' "$TMP/$n.bucket.txt"; then
			pass "report-truth $n: perf counts $prd remote DRAM in buckets, hitmap $hrd = truth, and the note says why"
		else
			fail "report-truth $n: double counting" "perf $prd hitmap $hrd truth $trd; note: $(grep '^note:' "$TMP/$n.bucket.txt")"
		fi
	fi
done
done
done
# the encodings that double count must be among the presets
[ "$double_seen" -gt 0 ] && pass "report-truth: $double_seen files where perf's counters double count" ||
	fail "report-truth: double counting" "no preset made perf count a sample twice"
done_tests
