#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Ground truth for hitmap's own views: on simulated files (hitmap simulate
# --truth) of every preset (srf, skx, zen4, altra) x kernel era (6.12 one
# global table; 6.16 private hash compiled out; 6.17 and 7.0 per-CPU
# references, hb->priv read twice; 7.2 no hb->priv) x private/shared futexes,
# every precise number of --by bucket (per bucket; samples, loads, stores,
# locked per field of it), --by field, every other object of the futex path
# per field (private hash header, mm_struct, struct page/folio, page table,
# __futex_data, per-CPU counters, qspinlock nodes, futex words), --by socket
# the socket x node cells and the per-socket totals equal the simulator's
# truth; the text table shows the JSON's numbers; and where
# perf's counters count one sample twice (Sierra Forest / Skylake-SP encode
# a remote HITM as RAM|REM|HITM) hitmap's views do not, and say so.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip report-truth "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip report-truth "jq is not installed"; done_tests; }

# the truth's object.field for an object row of the report (names.h's vocabulary); struct
# page's +8 is the lru / compound_head union, which the futex path reads as compound_head
nz='def nz: with_entries(select(.value != 0));
    def okey: if startswith("fph.") then "fph.\(.[4:])" elif startswith("mm.") then "mm.\(.[3:])"
      elif startswith("page pfn ") or startswith("page (vmemmap).") then (split(".") | last) as $f |
        (if $f == "lru" or $f == "compound_head" then "page.compound_head" else "folio.\($f)" end)
      elif . == "pcpu futex_ref" then "pcpu.futex_ref" elif startswith("__futex_") then "global.\(.)"
      elif startswith("futex word ") then "uword.word" elif startswith("page table ") then "pt.\(.[11:])"
      elif . == "qspinlock qnode" then "qnode.qnode" else "unnamed \(.)" end;
    def add_maps: reduce .[] as $m ({}; . as $a | $m | to_entries | map({key, value: (.value + ($a[.key] // 0))}) | from_entries | . as $b | $a + $b);'
double_seen=0
for p in srf skx zen4 altra; do
for k in 6.12 6.16 6.17 7.0 7.2; do
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
	# one jq for all checks of this file: a line "ok NAME" or "bad NAME: WHY" per check
	jq -n -r --arg n "$n" --slurpfile b "$TMP/$n.bucket.json" --slurpfile fv "$TMP/$n.field.json" \
		--slurpfile s "$TMP/$n.socket.json" --slurpfile st "$TMP/$n.stats.json" --slurpfile t "$t" "$nz"'
	def diffs($T; $R): [($T + $R | keys[]) as $x | select($T[$x] != $R[$x]) | "\($x): truth \($T[$x]) report \($R[$x] // "absent")"] | .[:2];
	def line($name; $d): if $d == [] then "ok \($name)" else "bad \($name): \($d)" end;
	# per bucket: categories, samples/loads/stores/locked, and per field of the bucket
	line("--by bucket = truth (\($t[0].buckets | length) buckets)"; diffs(
		([$t[0].buckets[] | {key: "\(.table):\(.node):\(.index)", value: {hitmap: (.hitmap | nz),
		   counts: {samples: .c2c.nr_entries, loads: .c2c.load, stores: .c2c.store, locked: .c2c.locks},
		   fields: ([.fields | to_entries[] | select(.value.nr_entries > 0) | {key, value: {samples: .value.nr_entries, loads: .value.load, stores: .value.store, locked: .value.locks}}] | from_entries)}}]
		 | from_entries);
		([$b[0].buckets[] | select(.table != "unknown") | {key: "\(.table):\(.node):\(.index)", value: {hitmap: (.hitmap | nz),
		   counts: (.counts | {samples, loads, stores, locked}),
		   fields: ([.fields[] | {key: .field, value: (.counts | {samples, loads, stores, locked})}] | from_entries)}}] | from_entries))),
	# per field over all buckets
	line("--by field = truth"; diffs(
		([$t[0].fields | to_entries[] | select(.value.c2c.nr_entries > 0) | {key: .value.field, value: (.value.hitmap | nz)}] | from_entries);
		([$fv[0].fields[] | select(.table != "unknown")] | group_by(.field) |
		 map({key: .[0].field, value: (map(.hitmap) | add_maps | nz)}) | from_entries))),
	# futex memory that is not a bucket, object by object and field by field: the private
	# hash header, the mm_struct (its futex fields, mm->pgd, mm->futex.unique_id), struct
	# page/folio, the page-table entry, __futex_data, the per-CPU futex_ref counters, the
	# qspinlock nodes and the futex words, each named by the file (HM_META_FUTEX_OBJECTS)
	# or by the futex-path code on it; samples, loads, stores, locked and the categories
	# equal the truth, and no futex-code sample is left on a row of unknown index
	line("objects = truth (\([$t[0].objects[] | select(.object != "bucket")] | length) objects, \([$t[0].objects[] | select(.object != "bucket") | .fields | keys[]] | length) fields)"; diffs(
		([$t[0].objects[] | select(.object != "bucket") | .object as $o | .fields | to_entries[] |
		  {key: "\($o).\(.key)", value: {counts: {samples: .value.c2c.nr_entries, loads: .value.c2c.load,
		   stores: .value.c2c.store, locked: .value.c2c.locks}, hitmap: (.value.hitmap | nz)}}] | from_entries);
		([$b[0].objects[] | {key: (.object | okey), c: (.counts | {samples, loads, stores, locked}), h: .hitmap}] +
		 [$b[0].buckets[] | select(.table == "unknown") | {key: "unknown index \(.addr)", c: (.counts | {samples, loads, stores, locked}), h: .hitmap}] |
		 group_by(.key) | map({key: .[0].key, value: {counts: (map(.c) | add_maps), hitmap: (map(.h) | add_maps | nz)}}) | from_entries))),
	# socket x node: all bucket samples, and each socket = the socket columns of the bucket rows
	line("--by socket = truth";
		([$t[0].objects[] | select(.object == "bucket") | .hitmap | nz] | add // {}) as $T |
		([$s[0].xfer[].hitmap] | add_maps | nz) as $X |
		([$b[0].buckets[] | .hitmap] | add_maps | nz) as $A |
		([$b[0].buckets[] | select(.table != "unknown") | .hitmap] | add_maps | nz) as $B |
		([$s[0].xfer[] | {k: "\(.socket)", h: .hitmap}] | group_by(.k) | map({key: .[0].k, value: (map(.h) | add_maps | nz)}) | from_entries) as $S |
		([$b[0].buckets[].sockets[] | {k: "\(.socket)", h: .hitmap}] | group_by(.k) | map({key: .[0].k, value: (map(.h) | add_maps | nz)}) | from_entries | with_entries(select(.value != {}))) as $BS |
		(if $X != $A then ["socket x node total \($X) != bucket rows \($A)"] else [] end) +
		(if $B != $T then ["bucket rows \($B) != truth \($T)"] else [] end) +
		(if $S != $BS then ["per socket \($S) != bucket socket columns \($BS)"] else [] end)),
	# socket x node cell by cell: the truth counts bucket samples by requesting socket and
	# the home node of the line; the cells of the report also hold rows of unknown index (futex code
	# on lines of no known table), so there a cell may exceed the truth by exactly those rows
	line("socket x node cells = truth (\($t[0].xfer | length) cells)";
		([$t[0].xfer[] | {key: "\(.socket):\(.node)", value: (.hitmap | nz)}] | from_entries) as $TC |
		([$s[0].xfer[] | {key: "\(.socket):\(.node)", value: (.hitmap | nz)}] | from_entries) as $RC |
		([$b[0].buckets[] | select(.table == "unknown") | .hitmap] | add_maps | nz) as $U |
		if $U == {} then diffs($TC; $RC)
		else ([$RC | to_entries[] | .key as $c | .value | to_entries[] |
		       {key, value: (.value - ($TC[$c][.key] // 0))}] | group_by(.key) |
		      map({key: .[0].key, value: (map(.value) | add)}) | from_entries | nz) as $X |
		     ([$TC | to_entries[] | .key as $c | .value | to_entries[] |
		       select(.value > ($RC[$c][.key] // 0)) | "\($c) \(.key): truth \(.value) report \($RC[$c][.key] // 0)"]) +
		     (if $X != $U then ["cells above truth \($X) != unknown rows \($U)"] else [] end)
		end),
	# per-socket totals of the file
	line("per-socket totals = truth"; diffs(
		([$t[0].sockets[] | {key: "\(.socket)", value: (.hitmap | nz)}] | from_entries);
		([$st[0].sockets[] | {key: "\(.socket)", value: (.hitmap | nz)}] | from_entries))),
	# perf remote DRAM, hitmap remote DRAM and the truth, over the buckets (for the double-count check)
	"dram \([$b[0].buckets[].perf_c2c.rmt_dram] | add // 0) \([$b[0].buckets[].counts.dram_remote] | add // 0) \([$t[0].buckets[].hitmap.dram_remote // 0] | add // 0)",
	# the JSON rows, for the text check
	($b[0].buckets[] | .counts | "row \(.loads) \(.hitm_local) \(.hitm_xdie) \(.hitm_remote) \(.dram_local) \(.dram_remote) \(.stores)")
	' >"$TMP/$n.checks" 2>"$TMP/$n.jqerr" || fail "report-truth $n: jq" "$(head -c 200 "$TMP/$n.jqerr")"
	while read -r kind rest; do
		case $kind in
		ok) pass "report-truth $n: $rest" ;;
		bad) fail "report-truth $n: ${rest%%: *}" "${rest#*: }" ;;
		esac
	done <"$TMP/$n.checks"
	sed -n 's/^row //p' "$TMP/$n.checks" >"$TMP/$n.json.rows"
	# the text shows the JSON's numbers, row for row
	awk '/^TABLE /{on=1; next} on && NF == 0 {exit} on {print $4, $5, $6, $7, $8, $9, $10}' "$TMP/$n.bucket.txt" >"$TMP/$n.text.rows"
	if [ -s "$TMP/$n.json.rows" ] && cmp -s "$TMP/$n.text.rows" "$TMP/$n.json.rows"; then
		pass "report-truth $n: text rows = JSON rows ($(wc -l <"$TMP/$n.json.rows"))"
	else
		fail "report-truth $n: text rows = JSON rows" "$(diff "$TMP/$n.text.rows" "$TMP/$n.json.rows" | head -n 3 | tr '\n' ' ')"
	fi
	# perf's counters double count here: hitmap's views do not, and the view says why
	read -r prd hrd trd < <(sed -n 's/^dram //p' "$TMP/$n.checks")
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
