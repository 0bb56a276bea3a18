#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --pad-field on the private hash: the bucket grows to 128 bytes, but
# struct futex_private_hash's queues[] keeps the bucket's alignment
# (____cacheline_aligned_in_smp, 64), so bucket 0 stays at fph+64 and the
# header is one line.  The file's metadata says where the header is
# (HM_META_FUTEX_OBJECTS "fph PID FPH QUEUES"), and hitmap report --by bucket
# must equal the truth for every pad field, kernel and hash: the same
# buckets (no row of unknown index), per bucket the categories, counts and
# fields, the same bucket addresses (the bucket's start, not its first
# sampled line), and the header's samples under object fph field by field
# (6.16-rc4: fph.users, the rcuref; never a per-CPU futex_ref, which 6.16
# does not have).
. tests/lib.sh
[ -x "$HITMAP" ] || { skip sim-pad-truth "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip sim-pad-truth "jq is not installed"; done_tests; }

nz='def nz: with_entries(select(.value != 0));
    def okey: if startswith("fph.") then "fph.\(.[4:])" elif startswith("mm.") then "mm.\(.[3:])"
      elif . == "pcpu futex_ref" then "pcpu.futex_ref" elif startswith("__futex_") then "global.\(.)"
      elif startswith("futex word ") then "uword.word" elif startswith("page table ") then "pt.\(.[11:])"
      elif . == "qspinlock qnode" then "qnode.qnode" else "unnamed \(.)" end;
    def add_maps: reduce .[] as $m ({}; . as $a | $m | to_entries | map({key, value: (.value + ($a[.key] // 0))}) | from_entries | . as $b | $a + $b);'

# KERNEL HASH PAD: the cases (priv exists in the bucket from 6.16 to 6.18 only)
cases=()
for pad in waiters lock chain priv; do
	cases+=("6.16-rc4 private $pad" "6.18 private $pad" "6.18 global $pad")
done
cases+=("6.17 private lock" "7.3 private waiters" "7.3 private chain" "6.16-rc4 private none" "6.18 private none")
for c in "${cases[@]}"; do
	read -r k h pad <<<"$c"
	n=$k-$h-$pad
	f=$TMP/$n.data; t=$TMP/$n.truth.json
	args=(--sockets 2 --cores 4 --futexes 64 --seed 3 --period 10 --kernel "$k" -o "$f" --truth "$t")
	[ "$pad" != none ] && args+=(--pad-field "$pad")
	[ "$h" = global ] && args+=(-b 0)
	"$HITMAP" simulate "${args[@]}" >"$TMP/$n.out" 2>&1 ||
		{ fail "sim-pad-truth $n: simulate" "$(tail -n 1 "$TMP/$n.out")"; continue; }
	"$HITMAP" report -i "$f" --by bucket --json >"$TMP/$n.bucket.json" 2>"$TMP/$n.err" ||
		{ fail "sim-pad-truth $n: report --by bucket" "$(tail -n 1 "$TMP/$n.err")"; continue; }
	"$HITMAP" report -i "$f" --by field --json >"$TMP/$n.field.json" 2>"$TMP/$n.err" ||
		{ fail "sim-pad-truth $n: report --by field" "$(tail -n 1 "$TMP/$n.err")"; continue; }
	jq -n -r --arg h "$h" --slurpfile b "$TMP/$n.bucket.json" --slurpfile fv "$TMP/$n.field.json" \
		--slurpfile t "$t" "$nz"'
	def diffs($T; $R): [($T + $R | keys[]) as $x | select($T[$x] != $R[$x]) | "\($x): truth \($T[$x]) report \($R[$x] // "absent")"] | .[:2];
	def line($name; $d): if $d == [] then "ok \($name)" else "bad \($name): \($d)" end;
	# the truth has the hash the case asks for
	line("truth hash \($h)"; if $t[0].config.hash == $h then [] else ["truth says \($t[0].config.hash)"] end),
	# the same buckets, none of unknown index
	line("bucket count = truth (\($t[0].buckets | length))";
		([$b[0].buckets[] | select(.table == "unknown") | "unknown row at \(.addr): \(.counts.samples) samples"]) +
		(if ($b[0].buckets | length) != ($t[0].buckets | length) then
			["report \($b[0].buckets | length) buckets, truth \($t[0].buckets | length)"] else [] end)),
	# per bucket: categories, samples/loads/stores/locked, per field
	line("--by bucket = truth"; diffs(
		([$t[0].buckets[] | {key: "\(.table):\(.node):\(.index)", value: {hitmap: (.hitmap | nz),
		   counts: {samples: .c2c.nr_entries, loads: .c2c.load, stores: .c2c.store, locked: .c2c.locks},
		   fields: ([.fields | to_entries[] | select(.value.nr_entries > 0) | {key, value: {samples: .value.nr_entries, loads: .value.load, stores: .value.store, locked: .value.locks}}] | from_entries)}}]
		 | from_entries);
		([$b[0].buckets[] | {key: "\(.table):\(.node):\(.index)", value: {hitmap: (.hitmap | nz),
		   counts: (.counts | {samples, loads, stores, locked}),
		   fields: ([.fields[] | {key: .field, value: (.counts | {samples, loads, stores, locked})}] | from_entries)}}] | from_entries))),
	# total bucket HITM
	line("bucket HITM = truth"; diffs(
		{hitm: ([$t[0].buckets[].c2c.tot_hitm] | add // 0)};
		{hitm: ([$b[0].buckets[] | .counts | .hitm_local + .hitm_xdie + .hitm_remote] | add // 0)})),
	# each bucket starts where the table says: base + index x bucket size
	line("bucket addresses = truth"; diffs(
		([$t[0].buckets[] | {key: "\(.table):\(.node):\(.index)", value: .addr}] | from_entries);
		([$b[0].buckets[] | {key: "\(.table):\(.node):\(.index)", value: .addr}] | from_entries))),
	# --by field over the buckets
	line("--by field = truth"; diffs(
		([$t[0].fields | to_entries[] | select(.value.c2c.nr_entries > 0) | {key: .value.field, value: (.value.hitmap | nz)}] | from_entries);
		([$fv[0].fields[] | select(.table != "unknown")] | group_by(.field) |
		 map({key: .[0].field, value: (map(.hitmap) | add_maps | nz)}) | from_entries))),
	# the private hash header and every other object, field by field
	line("objects = truth"; diffs(
		([$t[0].objects[] | select(.object != "bucket") | .object as $o | .fields | to_entries[] |
		  {key: "\($o).\(.key)", value: {counts: {samples: .value.c2c.nr_entries, loads: .value.c2c.load,
		   stores: .value.c2c.store, locked: .value.c2c.locks}, hitmap: (.value.hitmap | nz)}}] | from_entries);
		([$b[0].objects[] | {key: (.object | okey), c: (.counts | {samples, loads, stores, locked}), h: .hitmap}] |
		 group_by(.key) | map({key: .[0].key, value: {counts: (map(.c) | add_maps), hitmap: (map(.h) | add_maps | nz)}}) | from_entries)))
	' >"$TMP/$n.checks" 2>"$TMP/$n.jqerr" || { fail "sim-pad-truth $n: jq" "$(head -c 200 "$TMP/$n.jqerr")"; continue; }
	while read -r kind rest; do
		case $kind in
		ok) pass "sim-pad-truth $n: $rest" ;;
		bad) fail "sim-pad-truth $n: ${rest%%: *}" "${rest#*: }" ;;
		esac
	done <"$TMP/$n.checks"
done
# the header is one line before bucket 0 whatever the bucket's size: in a
# padded run every private bucket of the truth is at fph + 64 + index x 128,
# fph being the line the report names the header's fields on
n=6.16-rc4-private-lock
if [ -s "$TMP/$n.bucket.json" ]; then
	# (the low 32 bits of each address: jq counts in doubles; the same 4 GiB region)
	r=$(jq -n -r --slurpfile b "$TMP/$n.bucket.json" --slurpfile t "$TMP/$n.truth.json" '
		def lo32: .[-8:] | explode | map(if . >= 97 then . - 87 else . - 48 end) | reduce .[] as $d (0; . * 16 + $d);
		([$b[0].objects[] | select(.object | startswith("fph.")) | .line] | unique) as $fph |
		if ($fph | length) != 1 then "bad header lines \($fph)" else
		($fph[0] | lo32) as $base |
		[$t[0].buckets[] | select(.table == "private") |
		 select((.addr | lo32) != $base + 64 + .index * 128) | "\(.index) at \(.addr)"] as $bad |
		if $bad == [] then "ok fph \($fph[0]), bucket i at fph+64+128i" else "bad \($bad[:3])" end end' 2>&1)
	case $r in
	ok*) pass "sim-pad-truth $n: ${r#ok }" ;;
	*) fail "sim-pad-truth $n: padded private buckets at fph+64+128i" "$r" ;;
	esac
fi
done_tests
