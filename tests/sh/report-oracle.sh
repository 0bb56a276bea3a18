#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Oracle, against every installed perf (6.1, 6.12, 7.3): hitmap report
# --stats --perf-compat V prints the Trace Event and Global Shared Cache Line
# blocks byte for byte as perf V's c2c report --stats, and its --json
# "perf_c2c" holds the same 32 counters, on hm-gen files (6 encoding mixes x 5
# seeds, CPUs over 2 and 4 nodes, some without MMAP records) and on every real
# fixture that perf version reads.  A file a perf version refuses or crashes
# on is named with the reason and compared against the others.  One line per
# version sums it up ("perf 7.3: 41/41 files equal (30/30 generated, 11/11
# fixtures ...)").  First, without perf: --json's numbers are the CSV's
# (round-trip doubles, integers as integers) and its strings valid UTF-8.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen

# perf's --stats text -> "name value" lines for the 32 counters of c2c_stats
perf_counters() {
	awk -F: '
	function v(s) { gsub(/[ %]/, "", s); return s + 0 }
	/^===/ { blk++ }
	blk > 2 { exit }
	{ l = $1; sub(/^ +/, "", l); sub(/ +$/, "", l); x = v($2) }
	l == "Total records" { c["nr_entries"] = x }
	l == "Locked Load/Store Operations" { c["locks"] = x }
	l == "Load Operations" { c["load"] = x }
	l == "Loads - uncacheable" { c["ld_uncache"] = x }
	l == "Loads - IO" { c["ld_io"] = x }
	l == "Loads - Miss" { c["ld_miss"] = x }
	l == "Loads - no mapping" { c["ld_noadrs"] = x }
	l == "Load Fill Buffer Hit" { c["ld_fbhit"] = x }
	l == "Load L1D hit" { c["ld_l1hit"] = x }
	l == "Load L2D hit" { c["ld_l2hit"] = x }
	l == "Load LLC hit" { llc = x }
	l == "Load Local HITM" { c["lcl_hitm"] = x }
	l == "Load Remote HITM" { c["rmt_hitm"] = x }
	l == "Load Remote HIT" { c["rmt_hit"] = x }
	l == "Load Local DRAM" { c["lcl_dram"] = x }
	l == "Load Remote DRAM" { c["rmt_dram"] = x }
	l == "Load MESI State Exclusive" { c["ld_excl"] = x }
	l == "Load MESI State Shared" { c["ld_shared"] = x }
	l == "Load access blocked by data" { c["blk_data"] = x }
	l == "Load access blocked by address" { c["blk_addr"] = x }
	l == "Load HIT Local Peer" { c["lcl_peer"] = x }
	l == "Load HIT Remote Peer" { c["rmt_peer"] = x }
	l == "Store Operations" { c["store"] = x }
	l == "Store - uncacheable" { c["st_uncache"] = x }
	l == "Store - no mapping" { c["st_noadrs"] = x }
	l == "Store L1D Hit" { c["st_l1hit"] = x }
	l == "Store L1D Miss" { c["st_l1miss"] = x }
	l == "Store No available memory level" && blk == 2 { c["st_na"] = x }
	l == "No Page Map Rejects" { c["nomap"] = x }
	l == "Unable to parse data source" { c["noparse"] = x }
	END {
		c["ld_llchit"] = llc - c["lcl_hitm"]
		c["tot_hitm"] = c["lcl_hitm"] + c["rmt_hitm"]
		c["tot_peer"] = c["lcl_peer"] + c["rmt_peer"]
		for (k in c) print k, c[k]
	}' "$1" | sort
}
hitmap_counters() {
	jq -r '.perf_c2c | to_entries[] | "\(.key) \(.value)"' "$1" | sort
}
blocks() { sed -n '/Trace Event/,/Total Merged/p' "$1"; }

# ---- --json itself (no perf needed): the numbers the text and CSV print,
# not 6-digit %g ("cost": 1.09264e+06 for 1092641), and valid UTF-8 whatever
# bytes a string holds (a file name with byte 0xff: U+FFFD)
json_checks() {
	local f=$TMP/json.data bad fx
	if ! command -v jq >/dev/null; then
		skip "--json numbers" "jq is not installed"
		return
	fi
	if ! "$HITMAP" simulate --sockets 2 --ops 3000 --period 50 -o "$f" >/dev/null 2>"$TMP/sim.err"; then
		fail "--json: simulate" "$(tail -n 1 "$TMP/sim.err")"
		return
	fi
	"$HITMAP" report -i "$f" --json >"$TMP/j.json" 2>/dev/null
	"$HITMAP" report -i "$f" --csv >"$TMP/j.csv" 2>/dev/null
	# cost: CSV %.0f, JSON the exact value; mean_load_cycles: CSV %.1f
	jq -r '.lines[] | "\(.cost) \(.mean_load_cycles)"' "$TMP/j.json" |
		awk '{ printf "%.0f,%.1f\n", $1, $2 }' >"$TMP/j.num"
	awk -F, 'NR > 1 { print $22 "," $23 }' "$TMP/j.csv" >"$TMP/c.num"
	bad=$(grep -oE '[0-9]e\+[0-9]+' "$TMP/j.json" | wc -l)
	if [ -s "$TMP/j.num" ] && cmp -s "$TMP/j.num" "$TMP/c.num" && [ "$bad" = 0 ]; then
		pass "--json: $(wc -l <"$TMP/j.num") lines' cost and mean_load_cycles as the CSV's, no exponents"
	else
		fail "--json numbers" "$bad numbers with an exponent; first JSON/CSV difference: $(diff "$TMP/j.num" "$TMP/c.num" | grep -m2 '^[<>]' | tr '\n' ' ')"
	fi
	if ! command -v python3 >/dev/null; then
		skip "--json UTF-8" "python3 is not installed"
		return
	fi
	fx=$TMP/x$(printf '\377').data
	cp "$f" "$fx"
	"$HITMAP" report -i "$fx" --json >"$TMP/x.json" 2>/dev/null
	if python3 -c 'import json, sys
d = json.loads(open(sys.argv[1], "rb").read())	# bytes: strict UTF-8
sys.exit(0 if d["input"].endswith("/x\ufffd.data") else 1)' "$TMP/x.json" 2>"$TMP/py.err"; then
		pass "--json: a file name with byte 0xff is valid UTF-8 JSON (U+FFFD)"
	else
		fail "--json UTF-8" "$(tail -n 1 "$TMP/py.err")"
	fi
}
json_checks

PERFS=$(oracle_perfs)
if [ -z "$PERFS" ]; then
	skip "report oracle" "no perf installed (perf-6.1, perf-6.12, perf-7.3: scripts/setup-oracles.sh)"
	done_tests
fi
for v in $PERF_VERSIONS; do need_perf "$v" "report oracle, perf $v" >/dev/null || echo "# perf $v: not installed, not compared"; done
if ! command -v jq >/dev/null; then
	skip "report oracle" "jq is not installed"
	done_tests
fi

# ---- generated files: 6 mixes x 5 seeds
files=()
if [ ! -x "$GEN" ]; then
	skip "report oracle on hm-gen files" "$GEN not built (make tests)"
else
	seed=1
	for mix in intel-snb intel-skl amd-zen2 amd-zen4 arm random; do
		for k in 1 2 3 4 5; do
			nodes=$((2 + 2 * (k % 2)))
			f=$TMP/gen/$mix-$k.data
			mkdir -p "$TMP/gen"
			extra=
			[ $((seed % 3)) -eq 0 ] && extra=--no-mmap
			if "$GEN" -o "$f" -n 2000 -l 200 --nodes $nodes --cpus 8 --seed $seed --mix $mix \
				--phys $extra --stores 25 --noaddr 2 --locked 5 --blocked 5 >"$TMP/gen.out" 2>&1; then
				files+=("$f")
			else
				fail "$mix-$k hm-gen" "$(tail -n 2 "$TMP/gen.out" | tr '\n' ' ')"
			fi
			seed=$((seed + 1))
		done
	done
fi

# compare_files LABEL V FILE...: perf V (one batch) against hitmap --perf-compat V
compare_files() {
	local label=$1 v=$2; shift 2
	local o=$TMP/out-$label-$v f b rc neq=0 nread=0 nref=0 why
	perf_each "$v" "$o" 'c2c report --stats --stdio --no-source' "$@"
	for f in "$@"; do
		b=${f##*/}
		rc=$(cat "$o/$b.rc" 2>/dev/null || echo 127)
		if [ "$rc" != 0 ]; then
			nref=$((nref + 1))
			why=$(perf_crash_why "$o/$b.err" "$rc")
			echo "# perf $v refuses or crashes on $b ($why): compared against the other versions"
			continue
		fi
		nread=$((nread + 1))
		timeout 120 "$HITMAP" report -i "$f" --stats --perf-compat "$v" >"$TMP/hm.txt" 2>/dev/null
		if ! cmp -s <(blocks "$o/$b.out") <(blocks "$TMP/hm.txt"); then
			fail "$label $b: --stats blocks = perf $v" "$(diff <(blocks "$o/$b.out") <(blocks "$TMP/hm.txt") | grep '^[<>]' | head -4 | tr -s ' ' | tr '\n' ';')"
			continue
		fi
		if [ "$label" = gen ]; then
			# every counter, through --json
			"$HITMAP" report -i "$f" --stats --json --perf-compat "$v" >"$TMP/hm.json" 2>/dev/null
			perf_counters "$o/$b.out" >"$TMP/perf.cnt"
			hitmap_counters "$TMP/hm.json" >"$TMP/hm.cnt"
			if [ "$(wc -l <"$TMP/hm.cnt")" -ne 32 ] || ! cmp -s "$TMP/perf.cnt" "$TMP/hm.cnt"; then
				fail "$label $b: perf_c2c counters = perf $v" "$(diff "$TMP/perf.cnt" "$TMP/hm.cnt" | grep '^[<>]' | head -4 | tr '\n' ' ')"
				continue
			fi
		fi
		neq=$((neq + 1))
	done
	echo "$v $label $neq $nread $nref" >>"$TMP/summary"
	[ "$nread" -gt 0 ] || skip "perf $v: $label files" "perf $v read none of the $# files"
}

fixtures=()
for fx in "$FIXTURES"/*/*; do
	case $fx in *.txt|*.gz|*.md|*.json|*.yaml) continue;; esac
	[ -f "$fx" ] && fixtures+=("$fx")
done
[ ${#fixtures[@]} -eq 0 ] && skip "fixtures" "no fixtures under $FIXTURES (set HITMAP_FIXTURES)"

for v in $PERFS; do
	[ ${#files[@]} -gt 0 ] && compare_files gen "$v" "${files[@]}"
	[ ${#fixtures[@]} -gt 0 ] && compare_files fixture "$v" "${fixtures[@]}"
done
# weight_struct (real Skylake-SP PEBS) must be read by some perf and equal
if [ ${#fixtures[@]} -gt 0 ]; then
	n=0
	for v in $PERFS; do [ "$(cat "$TMP/out-fixture-$v/perf.data.weight_struct.rc" 2>/dev/null)" = 0 ] && n=$((n + 1)); done
	check "fixture weight_struct: read and compared by $n perf versions" test "$n" -gt 0
fi
# hitmap never crashes on a fixture
ncrash=0
for fx in "${fixtures[@]}"; do
	timeout 120 "$HITMAP" report -i "$fx" --stats >/dev/null 2>&1; rc=$?
	[ $rc -gt 1 ] && { ncrash=$((ncrash + 1)); echo "# $(basename "$fx"): hitmap exit $rc"; }
done
[ ${#fixtures[@]} -gt 0 ] && check "fixture sweep: hitmap exits 0 or 1 on all ${#fixtures[@]} files" test $ncrash -eq 0
# the versions really differ where the notes say (L2 HITM): guard against
# a --perf-compat that changes nothing
if [ ${#files[@]} -gt 0 ]; then
	f=$TMP/gen/random-1.data
	a=$("$HITMAP" report -i "$f" --stats --perf-compat 6.1 2>/dev/null | grep 'Load Local HITM')
	b=$("$HITMAP" report -i "$f" --stats --perf-compat 7.3 2>/dev/null | grep 'Load Local HITM')
	check "--perf-compat 6.1 and 7.3 differ on random data_src (L2 HITM): ${a##* } vs ${b##* }" test "$a" != "$b"
fi
# one line per version: every file it reads, generated and fixtures
for v in $PERFS; do
	awk -v v="$v" '$1 == v { eq += $3; rd += $4; rf += $5; d = d sprintf("%s%d/%d %s", d == "" ? "" : ", ", $3, $4, $2 == "gen" ? "generated (--stats blocks and 32 counters)" : "fixtures") }
		END { printf "%d %d %d %s\n", eq, rd, rf, d }' "$TMP/summary" 2>/dev/null >"$TMP/sum.$v"
	read -r neq nread nref detail <"$TMP/sum.$v"
	what="report --stats --perf-compat $v = perf $v c2c report --stats: $detail; $nref more that perf $v c2c report refuses or crashes on, named above: most fixtures hold no memory samples"
	if [ "${nread:-0}" -eq 0 ]; then
		skip "perf $v: files equal" "perf $v read none of the files"
	elif [ "$neq" -eq "$nread" ]; then
		pass "perf $v: $neq/$nread files equal ($what)"
	else
		fail "perf $v: $neq/$nread files equal" "$what"
	fi
done
done_tests
