#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap diff where one side lacks what the other has.  A run without futex
# tables (hitmap's metadata dropped by perf inject, as for a plain perf
# record file) beside runs with them: one warning line names the file and the
# fix, its bucket/field/rank rows are "-" (not compared, never significant),
# while perf-c2c.*, sockets and lines both sides name alike are compared; the
# fix it names (--kallsyms of the recorded kernel) gives the tables back.
# Workload numbers absent on a side are "-" in text, null in JSON, empty in
# CSV, not a drop to 0.  A --vmlinux or --kallsyms file that gives no symbols
# is one warning naming the file and the real reason, exit 0 as in report.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip diff-sides "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip diff-sides "jq is not installed"; done_tests; }

sim() { # SEED OUT [ARGS]
	local seed=$1 out=$2; shift 2
	"$HITMAP" simulate --preset skx --kernel 6.17 --ops 100000 --period 100 --seed "$seed" \
		-o "$out" "$@" >/dev/null 2>"$TMP/sim.err" ||
		{ fail simulate "seed $seed: $(head -c 200 "$TMP/sim.err")"; done_tests; }
}
# Drop hitmap's metadata: perf inject where perf is installed (a real tool's
# round trip), else cut the file where the metadata begins (the trailer's
# offset), which is what perf inject leaves out too.
strip_meta() { # IN OUT
	if have_perf && perf inject -i "$1" -o "$2" >/dev/null 2>&1 && [ -s "$2" ]; then
		return 0
	fi
	cut_meta "$1" "$2"
}
cd "$TMP" || exit 1
sim 1 a1.data
sim 2 a2.data
sim 3 a3.data
sim 4 b.data --kallsyms ks
strip_meta b.data bare.data || { fail strip "could not drop the metadata of b.data"; done_tests; }
H=$HITMAP

# ---- futex tables on one side only
"$H" diff a1.data bare.data >t.txt 2>t.err; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c 'no futex tables' t.err)" -eq 1 ] && grep -q '^hitmap: warning: bare.data has no futex tables' t.err &&
	pass bare-warning-names-file || fail bare-warning-names-file "rc=$rc $(head -c 300 t.err)"
grep 'no futex tables' t.err | grep -q -- '--futex-table' && grep 'no futex tables' t.err | grep -q -- '--kallsyms' &&
	grep 'no futex tables' t.err | grep -q 'hitmap record' &&
	pass bare-warning-says-fix || fail bare-warning-says-fix "$(head -c 300 t.err)"
grep -q 'runs have no futex tables' t.txt && pass bare-note-under-table || fail bare-note-under-table "$(tail -n 3 t.txt)"

"$H" diff --all --json a1.data bare.data >all.json 2>/dev/null
futex='select(.group == "bucket" or .group == "bucket-socket" or .group == "bucket-field" or .group == "field" or .group == "rank")'
n=$(jq "[.rows[] | $futex] | length" all.json)
bad=$(jq "[.rows[] | $futex | select(.significant or .compared != false or .new.mean != null or .change_pct != null)] | length" all.json)
[ "${n:-0}" -gt 100 ] && [ "$bad" = 0 ] && pass bare-futex-rows-not-compared ||
	fail bare-futex-rows-not-compared "$n futex rows, $bad compared or significant"
jq -e '[.rows[] | select(.group == "line" and (.match == "futex object" or .match == "futex table kind+node+bucket index")) | select(.significant or .compared)] | length == 0' all.json >/dev/null &&
	jq -e '[.rows[] | select(.group == "line" and .significant)] | length == 0' all.json >/dev/null &&
	pass bare-futex-lines-not-claimed || fail bare-futex-lines-not-claimed "$(jq -c '[.rows[] | select(.group == "line" and .significant) | .metric] | .[:5]' all.json)"
jq -e '.rows[] | select(.metric == "perf-c2c.HITM.total") | .compared and .test == "poisson" and (.change_pct | type) == "number"' all.json >/dev/null &&
	jq -e '.rows[] | select(.metric == "socket.0.samples") | .compared and .new.mean > 0' all.json >/dev/null &&
	jq -e '.test.runs_without_futex_tables == 1' all.json >/dev/null &&
	pass bare-c2c-and-sockets-compared || fail bare-c2c-and-sockets-compared "$(jq -c '.rows[] | select(.metric == "perf-c2c.HITM.total")' all.json)"
"$H" diff --all a1.data bare.data >all.txt 2>/dev/null
grep -Eq '^ +[0-9.]+ +- +- +futex\.private\.bucket\.[0-9]+\.stores  \(not compared\)$' all.txt &&
	! grep -E 'futex\.' all.txt | grep -vq '(not compared)$' &&
	pass bare-text-dash || fail bare-text-dash "$(grep -m3 'futex\.' all.txt)"
# the page: a futex total without the new side's value is null ("-"), not 0 (-100%)
"$H" diff --html page.html a1.data bare.data >/dev/null 2>&1
grep -Eq '"k":"futex\.[^"]*","v":\[[0-9.e+-]+,null\]' page.html &&
	! grep -Eq '"k":"futex\.[^"]*","v":\[[0-9.e+-]+,0\]' page.html &&
	pass bare-html-null || fail bare-html-null "$(grep -Eo '"k":"futex\.[^"]*","v":\[[^]]*\]' page.html | head -n 2 | tr '\n' ' ')"
# the other way round: the base has none
"$H" diff --json --all bare.data a1.data >rev.json 2>rev.err
grep -q '^hitmap: warning: bare.data has no futex tables' rev.err &&
	jq -e '[.rows[] | select(.group == "bucket") | select(.compared or .base.mean != null or .significant)] | length == 0' rev.json >/dev/null &&
	pass bare-base-side || fail bare-base-side "$(head -c 200 rev.err)"
# several runs: the futex rows compare the runs that have tables
"$H" diff --json --all a1.data a2.data -- a3.data bare.data >multi.json 2>/dev/null
jq -e '[.rows[] | select(.group == "bucket" and .base.runs == 2)] | length > 100' multi.json >/dev/null &&
	jq -e '[.rows[] | select(.group == "bucket") | select(.new.runs != 1)] | length == 0' multi.json >/dev/null &&
	jq -e '.rows[] | select(.metric == "perf-c2c.HITM.total") | .new.runs == 2' multi.json >/dev/null &&
	pass bare-multi-runs-compare-runs-with-tables || fail bare-multi-runs-compare-runs-with-tables \
		"$(jq -c '[.rows[] | select(.group == "bucket")][0]' multi.json)"
# the fix the warning names: the recorded kernel's kallsyms, tables inferred
"$H" diff --json --all --kallsyms ks a1.data bare.data >fix.json 2>fix.err
! grep -q 'no futex tables' fix.err &&
	jq -e '[.rows[] | select(.group == "bucket" and .compared)] | length > 100' fix.json >/dev/null &&
	pass bare-fix-kallsyms-infers || fail bare-fix-kallsyms-infers "$(head -c 200 fix.err)"

# ---- workload numbers on one side only
w=workload.ops_per_sec_thread
grep -Eq "^ +[0-9]+ +- +- +$w  \(not compared\)$" t.txt &&
	pass workload-absent-text || fail workload-absent-text "$(grep "$w" t.txt)"
"$H" diff --json a1.data bare.data 2>/dev/null | jq -e --arg w $w '.rows[] | select(.metric == $w) |
	.new.mean == null and .change_pct == null and .compared == false and .significant == false and .base.mean > 0' >/dev/null &&
	pass workload-absent-json-null || fail workload-absent-json-null "$("$H" diff --json a1.data bare.data 2>/dev/null | jq -c --arg w $w '.rows[] | select(.metric == $w)')"
"$H" diff --csv a1.data bare.data 2>/dev/null >t.csv
awk -F, -v w=$w '$1 == w { ok = ($8 == "" && $9 == "" && $10 == "" && $5 > 0 && $13 == "no") } END { exit !ok }' t.csv &&
	pass workload-absent-csv-empty || fail workload-absent-csv-empty "$(grep "^$w," t.csv)"
"$H" diff --json bare.data a1.data 2>/dev/null | jq -e '.rows[] | select(.metric == "workload.samples") |
	.base.mean == null and .significant == false and .test == "none"' >/dev/null &&
	pass workload-absent-count-not-tested || fail workload-absent-count-not-tested "workload.samples tested against a side without it"

# ---- symbol files that give no symbols: one warning, the real reason, exit 0 (as report)
echo hello >notelf
: >empty
mkdir -p adir
symwarn() { # NAME OPT FILE REASON
	"$H" diff "$2" "$3" a1.data a2.data >/dev/null 2>sym.err; local rc=$?
	"$H" report -i a1.data "$2" "$3" >/dev/null 2>/dev/null; local rrc=$?
	if [ $rc -eq 0 ] && [ $rrc -eq 0 ] && [ "$(wc -l <sym.err)" -eq 1 ] &&
	   grep -q -- "^hitmap: warning: $2 $3: .*$4" sym.err; then
		pass "$1"
	else
		fail "$1" "rc=$rc report rc=$rrc: $(head -c 300 sym.err | tr '\n' ' ')"
	fi
}
symwarn vmlinux-not-elf --vmlinux notelf 'not an ELF file'
symwarn vmlinux-empty --vmlinux empty 'empty file'
symwarn vmlinux-directory --vmlinux adir 'a directory'
symwarn kallsyms-not-kallsyms --kallsyms notelf 'line 1: expected'
symwarn kallsyms-empty --kallsyms empty 'no symbols'
if command -v objcopy >/dev/null && objcopy -R .symtab -R .dynsym -R .gnu.hash -R .gnu.version /bin/true nosyms 2>/dev/null; then
	symwarn vmlinux-no-symbols --vmlinux nosyms 'no symbol table'
else
	skip vmlinux-no-symbols "objcopy cannot make an ELF file without symbols here"
fi
done_tests
