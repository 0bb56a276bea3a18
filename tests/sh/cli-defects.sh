#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Small CLI defects, one test each: help text, final newlines, exit 2 for
# usage errors in every command, hash --this-machine alone, record --plan in
# contention mode, the PA column on big files, man pages from the build tree,
# the one-run diff's order and verdicts, the HTML p-value, --placement.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
[ -x "$HITMAP" ] || { skip cli-defects "no $HITMAP; build first (make tests)"; done_tests; }

# diff --help: a literal text, no printf escapes
if "$HITMAP" diff --help | grep -q '%%'; then
	fail diff-help-percent "$("$HITMAP" diff --help | grep '%%')"
else
	pass diff-help-percent
fi

# simulate --list-presets ends with a newline
last=$("$HITMAP" simulate --list-presets | tail -c 1 | od -An -c | tr -d ' ')
[ "$last" = '\n' ] && pass list-presets-newline || fail list-presets-newline "last byte '$last'"

# usage errors exit 2, with one "hitmap: " line
usage2() {
	local name=$1; shift
	"$HITMAP" "$@" >"$TMP/o" 2>"$TMP/e" </dev/null; local rc=$?
	if [ $rc -eq 2 ] && grep -q '^hitmap: \|^usage:' "$TMP/e"; then
		pass "exit2-$name"
	else
		fail "exit2-$name" "rc=$rc for '$*': $(head -c 200 "$TMP/e")"
	fi
}
usage2 report-display report -d foo
usage2 report-max-lines report --max-lines x
usage2 report-cacheline report --cacheline 96
usage2 report-by report --by nothing
usage2 report-futex-table report --futex-table bogus
# a view and a format that do not go together: named (it was "report: Invalid argument", 1)
usage2 report-by-lkp report --lkp --by bucket
usage2 report-by-html report --by field --html -
usage2 report-by-stats report --stats --by socket
usage2 report-stats-csv report --stats --csv
usage2 report-perf-counters report --perf-counters
"$HITMAP" report --lkp --by bucket -i /dev/null 2>"$TMP/e" >/dev/null
grep -qx 'hitmap: --by bucket and --lkp cannot be used together; choose one' "$TMP/e" &&
	pass report-by-lkp-named || fail report-by-lkp-named "$(cat "$TMP/e")"
usage2 report-futex-slots report --futex-table global:0:0x1000:3
usage2 diff-futex-table diff --futex-table private:1:0x1001:64 a.data b.data
usage2 diff-alpha diff --alpha x a.data b.data
usage2 diff-files diff a.data
usage2 bench-threads bench futex-hash -t x
usage2 bench-placement bench futex-hash --placement diagonal
usage2 bench-name bench nosuch
usage2 bench-cpus-list bench futex-hash -r 1 --cpus 1-0
# a CPU that is not online: named (pthread_create's EINVAL said "fewer threads")
usage2 bench-cpus-offline bench futex-hash -r 1 --cpus 1000
grep -q "^hitmap: --cpus '1000': CPU 1000 is not online; fix: give CPUs of $(cat /sys/devices/system/cpu/online)\$" "$TMP/e" &&
	pass bench-cpus-offline-named || fail bench-cpus-offline-named "$(cat "$TMP/e")"
usage2 record-mode record --mode warp --plan
usage2 record-mmap record -m 3 --plan
usage2 record-period record -c x --plan
usage2 record-workload record --workload nosuch
usage2 record-nothing record -o "$TMP/r.data"
usage2 record-cpu-list record -C 1-0 -o "$TMP/r.data" -- true
usage2 record-workload-opt record --workload futex-hash -t x
usage2 simulate-threads simulate --threads x
usage2 simulate-placement simulate --placement diagonal
usage2 simulate-compare simulate --compare "--kernel 6.16"
# values the model refuses (hm_sim__new's EINVAL) are usage errors too
usage2 simulate-slots simulate --slots 3 -o "$TMP/s.data"
usage2 simulate-futexes simulate --futexes 0 -o "$TMP/s.data"
# one range in both messages (0 said "must be 1..", too many "0..")
"$HITMAP" simulate --futexes 0 -o "$TMP/s.data" 2>&1 | grep -qx 'hitmap: --futexes 0: expected an integer 1..1048576' &&
"$HITMAP" simulate --futexes 99999999 -o "$TMP/s.data" 2>&1 | grep -qx 'hitmap: --futexes 99999999: expected an integer 1..1048576' &&
	pass simulate-futexes-one-range || fail simulate-futexes-one-range "$("$HITMAP" simulate --futexes 0 2>&1)"
usage2 simulate-preset simulate --preset nope -o "$TMP/s.data"
usage2 simulate-latency simulate --latency foo=3 -o "$TMP/s.data"
usage2 simulate-global-slots simulate --global-slots 3 -o "$TMP/s.data"
usage2 simulate-compare-slots simulate --compare "--slots 3" ""
usage2 bench-futexes-range bench futex-hash -f 99999999999
# one line for one mistake: --runs out of range said only that
"$HITMAP" simulate --runs 100000 --compare "" "" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -q -- '--runs 100000: expected an integer' "$TMP/e" &&
	pass simulate-runs-one-line || fail simulate-runs-one-line "rc=$rc $(cat "$TMP/e")"
usage2 hash-cpus hash --cpus x 0x1000
usage2 hash-misaligned hash 0x1001
usage2 hash-kernel hash --kernel x.y 0x1000
usage2 convert-level convert -i a -o b -z 99
usage2 convert-missing convert -i a
usage2 script-field script -F bogus
# -F with no field at all: perf refuses it; hitmap printed the defaults
usage2 script-no-field script -F ''
usage2 script-no-field-commas script -F ,,
usage2 script-field-mix script -F time,+cpu
usage2 header-extra header extra
usage2 stat-extra stat extra
usage2 unknown-command nosuchcommand
usage2 help-unknown help nosuchcommand

# a bad option: exit 2 and one line that names the command, the option and
# what is wrong with it (getopt's own message and the usage text are off)
badopt() {
	local name=$1 want=$2; shift 2
	"$HITMAP" "$@" >"$TMP/o" 2>"$TMP/e" </dev/null; local rc=$?
	local n; n=$(wc -l <"$TMP/e")
	if [ $rc -eq 2 ] && [ "$n" -eq 1 ] && grep -qF -- "$want" "$TMP/e"; then
		pass "badopt-$name"
	else
		fail "badopt-$name" "rc=$rc, $n lines for '$*' (want one with '$want'): $(head -c 300 "$TMP/e")"
	fi
}
for cmd in report stat header script convert hash diff record simulate; do
	badopt "$cmd-long" "hitmap: $cmd: unknown option '--no-such-option'; see 'hitmap $cmd --help'" \
		"$cmd" --no-such-option
done
badopt bench-long "hitmap: bench futex-hash: unknown option '--no-such-option'" bench futex-hash --no-such-option
badopt report-short "report: unknown option '-Q'" report -Q
badopt report-short-run "report: unknown option '-q'" report --stats -qz
badopt stat-value "stat: option '-i' needs a value" stat -i
badopt report-value "report: option '--threads' needs a value" report --threads
badopt record-value "record: option '-o' needs a value" record -o
badopt bench-value "bench futex-hash: option '-t' needs a value" bench futex-hash -t
badopt simulate-value "simulate: option '--sockets' needs a value" simulate --sockets
badopt report-novalue "report: option '--stats' takes no value" report --stats=1
badopt report-ambiguous "report: option '--st' is ambiguous" report --st
badopt record-workload "record --workload futex-hash: unknown option '-Z'; see 'hitmap record --help'" record --workload futex-hash -Z

# hash --this-machine alone: the machine's geometry, no address needed
if "$HITMAP" hash --this-machine >"$TMP/o" 2>"$TMP/e"; then
	grep -q '^# era ' "$TMP/o" && pass hash-this-machine-alone ||
		fail hash-this-machine-alone "$(head -c 200 "$TMP/o")"
elif grep -q 'no futex address' "$TMP/e"; then
	fail hash-this-machine-alone "still demands an address"
else
	skip hash-this-machine-alone "this machine's geometry unreadable: $(head -c 150 "$TMP/e")"
fi

# record --plan --mode contention lists the events it opens
"$HITMAP" record --plan --mode contention >"$TMP/o" 2>&1
grep -q '^lock:contention_begin ' "$TMP/o" && grep -q '^lock:contention_end ' "$TMP/o" &&
	! grep -q '^no memory-sampling PMU: $' "$TMP/o" && pass plan-contention-events ||
	fail plan-contention-events "$(head -c 200 "$TMP/o")"
"$HITMAP" record --plan --mode contention --futex-syscalls >"$TMP/o" 2>&1
grep -q '^syscalls:sys_enter_futex ' "$TMP/o" && pass plan-contention-futex-syscalls ||
	fail plan-contention-futex-syscalls "$(head -c 200 "$TMP/o")"

# the PA column keeps the table aligned when a line has >= 10000 samples
if [ -x "$GEN" ]; then
	"$GEN" -o "$TMP/big.data" -n 200000 -l 10 >/dev/null 2>&1
	"$HITMAP" report -i "$TMP/big.data" 2>/dev/null |
		sed -n '/Shared Data Cache Line Table/,/Shared Cache Line Details/p' >"$TMP/t"
	hdr=$(grep '^# *Index' "$TMP/t" | awk '{ print index($0, "Tot Hitm") + 7 }')
	maxpa=$(awk '/^ +[0-9]+ +0x/ { if ($4 > m) m = $4 } END { print m + 0 }' "$TMP/t")
	bad=$(awk -v h="$hdr" '/^ +[0-9]+ +0x/ && index($0, "%") != h' "$TMP/t" | head -1)
	if [ "$maxpa" -lt 10000 ]; then
		fail pa-column-aligned "the generated file has no line with >= 10000 PA samples ($maxpa)"
	elif [ -n "$bad" ]; then
		fail pa-column-aligned "row out of line with the header: $bad"
	else
		pass pa-column-aligned
	fi
else
	skip pa-column-aligned "no $GEN"
fi

# man pages from the build tree: hitmap help CMD, hitmap CMD --man
if command -v man >/dev/null; then
	MANPAGER=cat MANWIDTH=80 "$HITMAP" help report >"$TMP/o" 2>"$TMP/e"
	grep -q 'hitmap-report' "$TMP/o" && grep -q 'EXIT STATUS' "$TMP/o" && pass help-command-man ||
		fail help-command-man "$(head -c 200 "$TMP/e")"
	MANPAGER=cat MANWIDTH=80 "$HITMAP" diff --man >"$TMP/o" 2>"$TMP/e"
	grep -q 'hitmap-diff' "$TMP/o" && pass command-dash-man || fail command-dash-man "$(head -c 200 "$TMP/e")"
	"$HITMAP" --help | grep -q "hitmap help" && pass help-mentions-help-command ||
		fail help-mentions-help-command "'hitmap --help' does not say 'hitmap help COMMAND'"
else
	skip help-command-man "no man(1) (Debian package man-db)"
fi

# one run each: the workload's headline result is not buried and not called
# "not significant"; equal counts get equal verdicts
"$HITMAP" simulate --preset skx --cores 2 --smt 1 --futexes 16 --ops 20000 --kernel 6.16 -o "$TMP/a.data" >/dev/null 2>&1
"$HITMAP" simulate --preset skx --cores 2 --smt 1 --futexes 16 --ops 20000 --kernel 6.12 -o "$TMP/b.data" >/dev/null 2>&1
"$HITMAP" diff "$TMP/a.data" "$TMP/b.data" >"$TMP/d" 2>"$TMP/e"
ops=$(grep -n 'workload.ops_per_sec_thread' "$TMP/d" | cut -d: -f1)
firstns=$(grep -n '(n.s.)' "$TMP/d" | head -1 | cut -d: -f1)
if [ -z "$ops" ]; then
	fail diff-one-run-ops "no workload.ops_per_sec_thread row: $(head -c 200 "$TMP/e")"
elif grep 'workload.ops_per_sec_thread' "$TMP/d" | grep -q '(n.s.)'; then
	fail diff-one-run-ops "an untestable change is called not significant: $(grep ops_per_sec_thread "$TMP/d")"
elif [ -n "$firstns" ] && [ "$ops" -gt "$firstns" ]; then
	fail diff-one-run-ops "ops/s row $ops comes after the first (n.s.) row $firstns"
else
	pass diff-one-run-ops
fi
"$HITMAP" diff --all --json "$TMP/a.data" "$TMP/b.data" >"$TMP/d.json" 2>/dev/null
v=$(jq -r '[.rows[] | select(.metric == "hitmap.samples" or .metric == "workload.samples") | .significant] | unique | length' "$TMP/d.json" 2>/dev/null)
n=$(jq -r '[.rows[] | select(.metric == "hitmap.samples" or .metric == "workload.samples")] | length' "$TMP/d.json" 2>/dev/null)
if [ "$n" != 2 ]; then
	skip diff-equal-counts-equal-verdict "rows hitmap.samples/workload.samples not both in the JSON ($n)"
else
	[ "$v" = 1 ] && pass diff-equal-counts-equal-verdict ||
		fail diff-equal-counts-equal-verdict "$(jq -c '.rows[] | select(.metric == "hitmap.samples" or .metric == "workload.samples") | [.metric, .significant, .test]' "$TMP/d.json")"
fi

# the HTML page never prints p as "0"
if command -v node >/dev/null && "$HITMAP" diff --html "$TMP/d.html" "$TMP/a.data" "$TMP/b.data" >/dev/null 2>&1; then
	fn=$(grep -o 'function fmtP(p) {.*}$' "$TMP/d.html" | head -1)
	out=$(node -e "$fn; console.log([0, 1e-320, 3e-7, 0.04].map(fmtP).join(' '))" 2>&1)
	case " $out " in
	*" 0 "*|"  ") fail html-p-not-zero "fmtP gives: $out" ;;
	*) pass html-p-not-zero; echo "#   fmtP: $out" ;;
	esac
else
	skip html-p-not-zero "no node or no diff page"
fi

# --placement: one meaning in simulate and bench; compact fills a socket first
sim_sock1() {
	"$HITMAP" simulate --preset skx --sockets 2 --cores 2 --smt 2 --threads 4 --futexes 8 --ops 2000 \
		--placement "$1" -o "$TMP/p.data" --truth "$TMP/p.json" >/dev/null 2>&1 &&
		jq -r '.sockets[1].c2c.nr_entries' "$TMP/p.json"
}
c=$(sim_sock1 compact) s=$(sim_sock1 spread) p=$(sim_sock1 perf)
[ "$c" = 0 ] && [ "${s:-0}" -gt 0 ] && [ "${p:-0}" -gt 0 ] && pass placement-compact-fills-socket ||
	fail placement-compact-fills-socket "socket 1 samples: compact '$c', spread '$s', perf '$p'"
"$HITMAP" simulate --help | grep -q 'compact: fill' && "$HITMAP" bench --help | grep -q 'compact (fill a socket' &&
	pass placement-same-words || fail placement-same-words "simulate and bench --help describe compact differently"
# a contention-mode file: the memory views say on stderr that they are empty
# and which view is not (also with --html, whose page has that view beside
# them); the futex views and a memory file say nothing
CGEN=$HITMAP_BUILD/tools/hm-cont-gen
if [ -x "$CGEN" ] && [ -x "$GEN" ] &&
   "$CGEN" -o "$TMP/cont.data" -e "$TMP/cont.json" -n 500 --seed 3 >/dev/null 2>&1 &&
   "$GEN" -o "$TMP/mem.data" -n 2000 -l 50 >/dev/null 2>&1; then
	for v in "" --json --csv --stats --lkp "--html $TMP/c.html"; do
		"$HITMAP" report -i "$TMP/cont.data" $v >/dev/null 2>"$TMP/e"
		[ "$(grep -c "warning: .*contention-mode recording.*--by bucket'" "$TMP/e")" = 1 ] &&
			pass "contention-file-says${v%% *}" ||
			fail "contention-file-says${v%% *}" "$(head -c 300 "$TMP/e")"
	done
	for a in "$TMP/cont.data --by bucket" "$TMP/cont.data --by socket" "$TMP/mem.data"; do
		"$HITMAP" report -i $a >/dev/null 2>"$TMP/e"
		grep -q 'contention-mode recording' "$TMP/e" && fail "contention-quiet:${a##*/}" "$(head -c 300 "$TMP/e")" ||
			pass "contention-quiet:${a##*/}"
	done
	# read from a pipe: the input is "<stdin>" in messages, as the reader's errors say; the
	# suggested command line keeps "-"
	"$HITMAP" convert -i "$TMP/cont.data" -o - --pipe 2>/dev/null | "$HITMAP" report -i - >/dev/null 2>"$TMP/e"
	grep -q "^hitmap: warning: <stdin>: a contention-mode recording.*'hitmap report -i - --by bucket'" "$TMP/e" &&
		! grep -q 'warning: -:' "$TMP/e" && pass stdin-named-in-warnings || fail stdin-named-in-warnings "$(head -c 300 "$TMP/e")"
else
	fail contention-file-says "cannot make the files ($CGEN, $GEN)"
fi
# a file of other samples (perf record's default event): the memory views say there are none
if can_record && perf record -q -e cpu-clock -o "$TMP/clock.data" -- sleep 0.05 >/dev/null 2>&1; then
	for v in "" --json --stats "--html $TMP/clock.html"; do
		"$HITMAP" report -i "$TMP/clock.data" $v >/dev/null 2>"$TMP/e"
		[ "$(grep -c "warning: .*no memory samples.*'perf c2c record'" "$TMP/e")" = 1 ] &&
			pass "no-memory-file-says${v%% *}" || fail "no-memory-file-says${v%% *}" "$(head -c 300 "$TMP/e")"
	done
else
	skip no-memory-file-says "perf cannot record a software event here"
fi
# the same lock tracepoints recorded by perf itself (no hitmap metadata)
if can_record && perf record -q -e lock:contention_begin -e lock:contention_end -a -o "$TMP/plock.data" \
	-- sleep 0.05 >/dev/null 2>&1; then
	"$HITMAP" report -i "$TMP/plock.data" --stats >/dev/null 2>"$TMP/e"
	[ "$(grep -c "warning: .*contention-mode recording.*--by bucket'" "$TMP/e")" = 1 ] &&
		pass contention-perf-file-says || fail contention-perf-file-says "$(head -c 300 "$TMP/e")"
else
	skip contention-perf-file-says "perf cannot record the lock tracepoints here (not root, or no lock:contention_begin)"
fi
done_tests
