#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Oracle: hitmap report --stats --json "perf_c2c" equals what real
# perf c2c report --stats --stdio prints, every counter, on hm-gen files with
# every data_src mix and CPUs over 2 and 4 nodes, and on the real
# perf.data.weight_struct fixture; the --stats text blocks are identical.
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

# oracle NAME FILE: compare counters and the stat text blocks
oracle() {
	local n=$1 f=$2
	if ! perf c2c report --stats --stdio --no-source -i "$f" >"$TMP/perf.txt" 2>"$TMP/perf.err"; then
		fail "$n perf c2c report" "$(tail -n 2 "$TMP/perf.err" | tr '\n' ' ')"
		return
	fi
	if ! "$HITMAP" report -i "$f" --stats --json >"$TMP/hm.json" 2>"$TMP/hm.err"; then
		fail "$n hitmap report --stats --json" "$(tail -n 2 "$TMP/hm.err" | tr '\n' ' ')"
		return
	fi
	perf_counters "$TMP/perf.txt" >"$TMP/perf.cnt"
	hitmap_counters "$TMP/hm.json" >"$TMP/hm.cnt"
	if [ "$(wc -l <"$TMP/hm.cnt")" -ne 32 ]; then
		fail "$n perf_c2c has 32 counters" "$(wc -l <"$TMP/hm.cnt") counters"
	elif diff -u "$TMP/perf.cnt" "$TMP/hm.cnt" >"$TMP/diff" 2>&1; then
		pass "$n perf_c2c equals perf (32 counters, $(awk '$1=="nr_entries"{print $2}' "$TMP/hm.cnt") records)"
	else
		fail "$n perf_c2c equals perf" "$(grep '^[-+][a-z]' "$TMP/diff" | head -6 | tr '\n' ' ')"
	fi
	"$HITMAP" report -i "$f" --stats >"$TMP/hm.txt" 2>/dev/null
	if diff <(sed -n '1,/c2c details/p' "$TMP/perf.txt") <(sed -n '1,/c2c details/p' "$TMP/hm.txt") >"$TMP/tdiff"; then
		pass "$n --stats text blocks identical to perf's"
	else
		fail "$n --stats text blocks identical to perf's" "$(grep '^[<>]' "$TMP/tdiff" | head -4 | tr '\n' ' ')"
	fi
}

if ! have_perf; then
	skip "report oracle" "perf is not installed"
	done_tests
fi
if ! command -v jq >/dev/null; then
	skip "report oracle" "jq is not installed"
	done_tests
fi
if [ ! -x "$GEN" ]; then
	skip "report oracle on hm-gen files" "$GEN not built (make tests)"
else
	seed=1
	for mix in intel-snb intel-skl amd-zen2 amd-zen4 arm random all; do
		for nodes in 2 4; do
			f=$TMP/$mix-$nodes.data
			extra=
			[ $((seed % 3)) -eq 0 ] && extra=--no-mmap
			if "$GEN" -o "$f" -n 6000 -l 300 --nodes $nodes --cpus 8 --seed $seed --mix $mix \
				--phys $extra --stores 25 --noaddr 2 --locked 5 --blocked 5 >"$TMP/gen.out" 2>&1; then
				oracle "$mix/${nodes}n" "$f"
			else
				fail "$mix/${nodes}n hm-gen" "$(tail -n 2 "$TMP/gen.out" | tr '\n' ' ')"
			fi
			rm -f "$f"
			seed=$((seed + 1))
		done
	done
fi

fx=$FIXTURES/perf_data_converter/perf.data.weight_struct
if [ -f "$fx" ]; then
	oracle "fixture weight_struct" "$fx"
else
	skip "fixture weight_struct" "$fx not found (set HITMAP_FIXTURES)"
fi
# every real fixture: hitmap never crashes; where perf c2c reads the file,
# the stat blocks are identical
nsame=0 ndiff=0 ncrash=0 nfx=0
for fx in "$FIXTURES"/*/*; do
	case $fx in *.txt|*.gz|*.md|*.json|*.yaml) continue;; esac
	[ -f "$fx" ] || continue
	nfx=$((nfx + 1))
	timeout 120 "$HITMAP" report -i "$fx" --stats >"$TMP/hm.txt" 2>/dev/null; rc=$?
	if [ $rc -gt 1 ]; then
		ncrash=$((ncrash + 1))
		echo "# $(basename "$fx"): hitmap exit $rc"
		continue
	fi
	timeout 120 perf c2c report --stats --stdio --no-source -i "$fx" >"$TMP/perf.txt" 2>/dev/null || continue
	if diff <(sed -n '/Trace Event/,/Total Merged/p' "$TMP/perf.txt") \
		<(sed -n '/Trace Event/,/Total Merged/p' "$TMP/hm.txt") >/dev/null; then
		nsame=$((nsame + 1))
	else
		ndiff=$((ndiff + 1))
		echo "# $(basename "$fx"): stat blocks differ from perf's"
	fi
done
if [ $nfx -eq 0 ]; then
	skip "fixture sweep" "no fixtures under $FIXTURES"
else
	[ $ncrash -eq 0 ] && pass "fixture sweep: hitmap exits 0 or 1 on all $nfx files" ||
		fail "fixture sweep: no crash" "$ncrash of $nfx files"
	[ $ndiff -eq 0 ] && [ $nsame -gt 0 ] && pass "fixture sweep: stat blocks equal perf's on all $nsame files perf reads" ||
		fail "fixture sweep: stat blocks equal perf's" "$ndiff differ, $nsame equal"
fi
done_tests
