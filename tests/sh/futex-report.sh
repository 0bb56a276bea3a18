#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap report --by bucket/field/socket on a file written with hitmap's writer
# (tests/tools/hm-futex-gen.c): samples on known buckets and fields across 2
# sockets; exact counts, >= 99% resolved, and perf c2c's per-line totals.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-futex-gen
[ -x "$GEN" ] || { skip futex-report "no $GEN (make tests)"; done_tests; }
command -v jq >/dev/null || { skip futex-report "no jq"; done_tests; }

check "gen: write the file" "$GEN" -o "$TMP/f.data" -e "$TMP/exp.json" -n 6000
if ! "$HITMAP" report -i "$TMP/f.data" --by bucket --json >"$TMP/b.json" 2>"$TMP/b.err"; then
	if grep -q "without the futex bucket views\|not built" "$TMP/b.err"; then
		skip futex-report "hitmap report has no --by views in this build"; done_tests
	fi
	fail "report --by bucket" "$(head -3 "$TMP/b.err")"; done_tests
fi
pass "report --by bucket --json"

# every expected bucket: same counts, in total and per socket
cmp_buckets() { # REPORT.json
	jq -e --slurpfile exp "$TMP/exp.json" '
	  def pc: {samples: .counts.samples, loads: .counts.loads, lcl_hitm: .counts.hitm_local, rmt_hitm: .counts.hitm_remote, lcl_dram: .counts.dram_local, rmt_dram: .counts.dram_remote, stores: .counts.stores};
	  def key: [.table, (.node // -1), (.pid // -1), .index];
	  (.buckets | map({key: (key | tostring), value: .}) | from_entries) as $got
	  | [$exp[0].buckets[] | . as $e | $got[(key | tostring)] as $g
	     | $g != null and
	       ([ "samples","loads","lcl_hitm","rmt_hitm","lcl_dram","rmt_dram","stores" ]
	        | all(. as $s | ($g | pc)[$s] == $e[$s])) and
	       ([0,1] | all(. as $i | ([ "samples","loads","lcl_hitm","rmt_hitm","stores" ]
	        | all(. as $s | ($g.sockets[$i] | pc)[$s] == $e.sockets[$i][$s]))))]
	  | all and length == ($exp[0].buckets | length)' "$1" >/dev/null
}
check "by bucket: exact counts for 12 buckets (3 tables, 2 sockets)" cmp_buckets "$TMP/b.json"
check "by bucket: no other bucket rows" jq -e '.buckets | length == 12' "$TMP/b.json"
check "by bucket: >= 99% of futex-hash samples resolved to bucket+field" \
	jq -e --slurpfile exp "$TMP/exp.json" '.summary.resolved * 100 >= $exp[0].bucket_samples * 99' "$TMP/b.json"
check "by bucket: private hash header named (fph.*), not dropped" \
	jq -e --slurpfile exp "$TMP/exp.json" '[.objects[] | select(.object | startswith("fph.")) | .counts.samples] | add == $exp[0].fph.samples' "$TMP/b.json"
check "by bucket: tables from the file's metadata" jq -e '[.tables[].provenance] == ["hm-futex-gen","hm-futex-gen","hm-futex-gen"]' "$TMP/b.json"

# --by field: sum over access x function per (table, field)
"$HITMAP" report -i "$TMP/f.data" --by field --json >"$TMP/f.json" 2>"$TMP/f.err" || fail "report --by field" "$(head -3 "$TMP/f.err")"
check "by field: exact counts per table x field" jq -e --slurpfile exp "$TMP/exp.json" '
  def pc: {samples: .counts.samples, loads: .counts.loads, lcl_hitm: .counts.hitm_local, rmt_hitm: .counts.hitm_remote, lcl_dram: .counts.dram_local, rmt_dram: .counts.dram_remote, stores: .counts.stores};
  (.fields | group_by([.table, .field]) | map({key: "\(.[0].table)/\(.[0].field)",
      value: {samples: (map(pc.samples) | add), loads: (map(pc.loads) | add),
              lcl_hitm: (map(pc.lcl_hitm) | add), rmt_hitm: (map(pc.rmt_hitm) | add),
              lcl_dram: (map(pc.lcl_dram) | add), rmt_dram: (map(pc.rmt_dram) | add),
              stores: (map(pc.stores) | add)}}) | from_entries) as $got
  | [$exp[0].fields[] | . as $e | "\(.table)/\(.field)" as $k
     | if $e.samples == 0 then $got[$k] == null
       else ($got[$k] != null and ([ "samples","loads","lcl_hitm","rmt_hitm","lcl_dram","rmt_dram","stores" ]
            | all(. as $s | $got[$k][$s] == $e[$s]))) end] | all' "$TMP/f.json"
check "by field: access kinds" jq -e '[.fields[].access] | unique == ["load","store"]' "$TMP/f.json"

# --by socket: requesting socket x home node; HITM matrix
"$HITMAP" report -i "$TMP/f.data" --by socket --json >"$TMP/s.json" 2>"$TMP/s.err" || fail "report --by socket" "$(head -3 "$TMP/s.err")"
check "by socket: cells add up to the bucket samples" \
	jq -e --slurpfile exp "$TMP/exp.json" '[.xfer[].counts.samples] | add == $exp[0].bucket_samples' "$TMP/s.json"
check "by socket: home node from the tables/physical addresses" \
	jq -e --slurpfile exp "$TMP/exp.json" '([.xfer[] | select(.node == 0) | .counts.samples] | add) ==
	  ([$exp[0].buckets[] | select(.table == "global" and .node == 0) | .samples] | add)' "$TMP/s.json"
check "by socket: 2x2 HITM matrix holds every HITM" \
	jq -e --slurpfile exp "$TMP/exp.json" '(.hitm_matrix | flatten | add) == ([$exp[0].buckets[] | .lcl_hitm + .rmt_hitm] | add)' "$TMP/s.json"

# text and CSV render
check "by bucket: text" bash -c "'$HITMAP' report -i '$TMP/f.data' --by bucket | grep -q '^global .* 42 '"
check "by bucket: csv rows" bash -c "[ \$('$HITMAP' report -i '$TMP/f.data' --by bucket --csv | grep -c '^global\|^private') = 12 ]"
check "by socket: text matrix" bash -c "'$HITMAP' report -i '$TMP/f.data' --by socket | grep -q 'HITM: socket holding'"

# every futex view says how the tables were found ("tables:" / .geometry)
for view in bucket field socket; do
	"$HITMAP" report -i "$TMP/f.data" --by $view >"$TMP/v.txt" 2>&1
	check "by $view: text says how the tables were found" grep -q '^tables: metadata, 3 tables' "$TMP/v.txt"
	"$HITMAP" report -i "$TMP/f.data" --by $view --json >"$TMP/v.json" 2>&1
	check "by $view: JSON says how the tables were found" jq -e '.geometry | startswith("metadata, 3 tables")' "$TMP/v.json"
done
# names through src/report/names.c: a bucket row has the line name the line
# table, the HTML page and the diff give it; so do the fph header's line
check "by bucket: JSON names each bucket line as the line table does" jq -e '
  [.buckets[] | select(.index != null) | .name == (if .table == "global" then "futex.global.node\(.node).bucket.\(.index)" else "futex.private.bucket.\(.index)" end)] | all and length == 12' "$TMP/b.json"
check "by bucket: JSON names the private hash header's line futex.private.fph" jq -e \
  '[.objects[] | select(.object | startswith("fph.")) | .name] | unique == ["futex.private.fph"]' "$TMP/b.json"
check "by bucket: CSV has the line name last" bash -c "'$HITMAP' report -i '$TMP/f.data' --by bucket --csv | awk -F, 'NR == 1 { ok = \$NF == \"name\" } NR > 1 && /^global/ && \$NF !~ /^futex\\.global\\.node[01]\\.bucket\\.[0-9]+\$/ { ok = 0 } END { exit !ok }'"
"$HITMAP" report -i "$TMP/f.data" --json >"$TMP/t.json" 2>/dev/null
check "line table (JSON) and --by bucket give each bucket line the same name" jq -e --slurpfile b "$TMP/b.json" '
  (.lines | map({key: .address, value: .data}) | from_entries) as $l
  | [$b[0].buckets[] | select($l[.addr] != null) | $l[.addr] == .name] | all and length > 0' "$TMP/t.json"
# shared futexes (simulated): the struct page lines GUP-fast and get_futex_key
# touch are futex.page.0xPFN in the line table and in --by bucket, their
# fields (_refcount, ...) in the line details
if "$HITMAP" simulate --preset skx --cores 4 --futexes 64 --ops 20000 --shared -o "$TMP/sh.data" >/dev/null 2>&1; then
	"$HITMAP" report -i "$TMP/sh.data" --json >"$TMP/sh.json" 2>/dev/null
	"$HITMAP" report -i "$TMP/sh.data" --by bucket --json >"$TMP/shb.json" 2>/dev/null
	check "shared: page lines named futex.page.0xPFN in the line table" jq -e '[.lines[] | select(.data | startswith("futex.page.0x"))] | length > 0' "$TMP/sh.json"
	check "shared: the same names in --by bucket's objects" jq -e --slurpfile t "$TMP/sh.json" '
	  ([$t[0].lines[] | select(.data | startswith("futex.page.")) | .data] | unique) as $l
	  | [.objects[] | select(.object | startswith("page ")) | .name] | unique | length > 0 and all(. as $n | $l | index($n) != null)' "$TMP/shb.json"
	check "shared: line details name the page field _refcount" bash -c "'$HITMAP' report -i '$TMP/sh.data' 2>/dev/null | grep -q '^ *0x34 _refcount '"
else
	fail "shared: simulate" "hitmap simulate --shared failed"
fi

# tables given on the command line instead of the file's metadata
check "gen: file without metadata" "$GEN" -o "$TMP/n.data" -e "$TMP/exp2.json" -n 6000 --no-meta
if "$HITMAP" report -i "$TMP/n.data" --by bucket --json --kernel 6.18 \
	--futex-table global:0:ffff888100998000:512 --futex-table global:1:ffff888200998000:512 \
	--futex-table private:4242:ffff88815ece9040:16 >"$TMP/nb.json" 2>"$TMP/nb.err"; then
	check "--futex-table: same counts" cmp_buckets "$TMP/nb.json"
else
	fail "--futex-table: same counts" "$(head -3 "$TMP/nb.err")"
fi

# no tables at all: inferred from the samples (4 CPUs, 2 nodes: 512 slots per node), or left
# unknown by address; an index is never guessed
"$HITMAP" report -i "$TMP/n.data" --by bucket --json >"$TMP/u.json" 2>"$TMP/u.err" || fail "no tables: report" "$(head -2 "$TMP/u.err")"
check "no tables: global tables inferred from the samples" jq -e \
  '[.tables[] | select(.kind == "global") | "\(.node):\(.base):\(.slots)"] | sort == ["0:0xffff888100998000:512", "1:0xffff888200998000:512"]' "$TMP/u.json"
check "no tables: says how the tables were found" jq -e '.geometry | startswith("inferred from ")' "$TMP/u.json"
check "no tables: every resolved bucket is the generator's, same counts" jq -e --slurpfile exp "$TMP/exp2.json" '
  ($exp[0].buckets | map({key: "\(.table):\(.node):\(.index)", value: .samples}) | from_entries) as $e
  | [.buckets[] | select(.index != null) | $e["\(.table):\(.node):\(.index)"] == .counts.samples] | all and length > 0' "$TMP/u.json"
check "no tables: the private hash (4 lines, too few to place) stays unknown, by address" jq -e --slurpfile exp "$TMP/exp2.json" '
  (.buckets | map({key: .addr, value: .}) | from_entries) as $got
  | [$exp[0].buckets[] | select(.table == "private") | . as $e | $got[$e.line] as $g
     | $g != null and $g.table == "unknown" and $g.index == null and $g.counts.samples == $e.samples] | all' "$TMP/u.json"
check "functions named (kallsyms in the file)" jq -e '[.buckets[].fields[].functions[].name] | unique | (index("futex_q_lock") != null)' "$TMP/b.json"

# perf c2c on the same file: per-line totals of every bucket line
if have_perf && perf c2c report --stdio --show-all -i "$TMP/f.data" >"$TMP/c2c.txt" 2>"$TMP/c2c.err"; then
	# row: Index Address Node PAcnt Hitm% TotHitm LclHitm RmtHitm Records Loads Stores ... DramLcl DramRmt
	awk '$2 ~ /^0x/ {print $2, $9, $10, $11, $7, $8, $(NF-1), $NF}' "$TMP/c2c.txt" >"$TMP/c2c.rows"
	jq -r '.buckets[] | "\(.line) \(.samples) \(.loads) \(.stores) \(.lcl_hitm) \(.rmt_hitm) \(.lcl_dram) \(.rmt_dram)"' \
		"$TMP/exp.json" | sort >"$TMP/exp.rows"
	grep -F -f <(cut -d' ' -f1 "$TMP/exp.rows") "$TMP/c2c.rows" | sort >"$TMP/c2c.sel"
	if diff "$TMP/exp.rows" "$TMP/c2c.sel" >"$TMP/c2c.diff"; then
		pass "perf c2c: same per-line totals for the 12 bucket lines"
	else
		fail "perf c2c: same per-line totals for the 12 bucket lines" "$(head -5 "$TMP/c2c.diff" | tr '\n' ' ')"
	fi
else
	skip "perf c2c: same per-line totals" "perf c2c report cannot read the file here: $(head -1 "$TMP/c2c.err" 2>/dev/null)"
fi

# a real recording on this machine (contention mode): contended bucket locks per
# bucket of the workload's private hash, counted again from perf script's lock_addr
if [ "$(id -u)" = 0 ] && have_tracefs && [ -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	if timeout 120 "$HITMAP" record -o "$TMP/rec.data" --workload futex-hash -t 2 -r 2 >"$TMP/rec.out" 2>&1 &&
	   read -r rpid rbase rslots < <(grep -o "pid [0-9]*, base 0x[0-9a-f]*, [0-9]* slots" "$TMP/rec.out" |
		sed 's/pid \([0-9]*\), base \(0x[0-9a-f]*\), \([0-9]*\) slots/\1 \2 \3/'); then
		"$HITMAP" report -i "$TMP/rec.data" --by bucket --json --futex-table "private:$rpid:$rbase:$rslots" >"$TMP/r.json" 2>"$TMP/r.err" ||
			fail "recorded: report" "$(head -2 "$TMP/r.err")"
		check "recorded: contended buckets of the private hash" jq -e --argjson n "$rslots" \
			'.summary.contentions_on_buckets > 0 and ([.buckets[].contended] | add) == .summary.contentions_on_buckets
			 and ([.buckets[] | select(.table != "private" or .index >= $n)] | length == 0)' "$TMP/r.json"
		if have_perf && perf script -i "$TMP/rec.data" -F event,trace >"$TMP/rec.txt" 2>/dev/null; then
			# 64-bit addresses: bash arithmetic, not awk's doubles
			: >"$TMP/perf.idx"
			while read -r ev la _; do
				[ "$ev" = "lock:contention_begin:" ] || continue
				off=$(( la - rbase - 4 ))
				(( off >= 0 && off % 64 == 0 && off / 64 < rslots )) && echo $(( off / 64 )) >>"$TMP/perf.idx"
			done <"$TMP/rec.txt"
			sort -n "$TMP/perf.idx" | uniq -c | awk '{print $2, $1}' >"$TMP/perf.cnt"
			jq -r '.buckets[] | "\(.index) \(.contended)"' "$TMP/r.json" | sort -n >"$TMP/hm.cnt"
			if [ -s "$TMP/perf.cnt" ] && diff "$TMP/perf.cnt" "$TMP/hm.cnt" >"$TMP/cnt.diff"; then
				pass "recorded: per-bucket contentions equal perf script's lock_addr counts"
			else
				fail "recorded: per-bucket contentions equal perf script's lock_addr counts" "$(head -4 "$TMP/cnt.diff" | tr '\n' ' ')"
			fi
		else
			skip "recorded: perf script cross-check" "perf script cannot read the recording"
		fi
	else
		skip "recorded: contention mode" "hitmap record found no private table: $(tail -1 "$TMP/rec.out")"
	fi
else
	skip "recorded: contention mode" "needs root and lock:contention_begin"
fi

# user memory on the futex path (a futex word) is listed with the process
# that owns it: the samples' pid, not -1 (kernel objects keep -1)
if "$HITMAP" simulate --sockets 2 --kernel 6.16 --ops 20000 -o "$TMP/w.data" >/dev/null 2>&1 &&
	"$HITMAP" report -i "$TMP/w.data" --by bucket --json >"$TMP/w.json" 2>/dev/null; then
	pids=$("$HITMAP" script -F pid -i "$TMP/w.data" 2>/dev/null | awk '{ print $1 }' | sort -u | tr '\n' ' ')
	wp=$(jq -r '[.objects[] | select(.name == "futex.word") | .pid] | unique | map(tostring) | join(" ")' "$TMP/w.json")
	if [ -n "$wp" ] && [ "$wp " = "$pids" ]; then
		pass "futex words: the objects' pid is the samples' ($wp)"
	else
		fail "futex words: the objects' pid is the samples'" "objects: '$wp', samples: '$pids'"
	fi
else
	skip "futex words: pid" "hitmap simulate or report failed"
fi

# the other futex objects, by (object, pid, line), on a file with thousands
# of them (every futex word sampled): one row each, and the simulator's
# ground truth for their samples (truth objects: uword, the futex words;
# global, __futex_data)
if "$HITMAP" simulate --sockets 2 --kernel 6.16 --period 1 --futexes 512 --ops 40000 -o "$TMP/o.data" \
	--truth "$TMP/o.truth" >/dev/null 2>&1 &&
	"$HITMAP" report -i "$TMP/o.data" --by bucket --json >"$TMP/o.json" 2>/dev/null; then
	check "objects: over 1000 rows, one per (object, pid, line)" jq -e \
		'(.objects | length) > 1000 and ([.objects[] | [.object, .pid, .line]] | unique | length) == (.objects | length)' "$TMP/o.json"
	check "objects: futex words' and __futex_data's samples, the ground truth's" jq -e --slurpfile t "$TMP/o.truth" '
	  def got(n): [.objects[] | select(.name == n) | .counts.samples] | add;
	  def want(o): [$t[0].objects[] | select(.object == o) | .c2c.nr_entries] | add;
	  got("futex.word") == want("uword") and got("futex.__futex_data") == want("global") and want("uword") > 1000' "$TMP/o.json"
else
	skip "objects: futex words" "hitmap simulate or report failed"
fi

# bad input
if "$HITMAP" report -i "$TMP/f.data" --by bucket --futex-table global:0:xyz:512 >"$TMP/e.out" 2>&1; then
	fail "bad --futex-table" "exit 0"
else
	check "bad --futex-table: one line" bash -c "[ \$(wc -l <'$TMP/e.out') -le 1 ] && grep -q 'futex-table' '$TMP/e.out'"
fi
done_tests
