#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench's timer and its c2c script: hm-time writes the wall time, peak
# RSS and CPU time of a command to the microsecond and exits as the command
# did; bench-c2c.sh, on one small shape with hitmap only, prints every row
# and ratio line it promises (the per-CPU rows and the bound they give
# among them) with times in milliseconds.
. tests/lib.sh
HT=$HITMAP_BUILD/tools/hm-time
[ -x "$HT" ] || { skip bench-tools "no $HT (make tests)"; done_tests; }

# the line: four numbers, wall and CPU with six decimals
line_ok() { grep -Eq '^[0-9]+\.[0-9]{6} [0-9]+ [0-9]+\.[0-9]{6} [0-9]+\.[0-9]{6}$' "$1"; }
"$HT" -o "$TMP/t" sleep 0.2; rc=$?
read -r w m u s <"$TMP/t"
if [ $rc = 0 ] && line_ok "$TMP/t" && awk -v w="$w" -v m="$m" 'BEGIN { exit !(w >= 0.2 && w < 5 && m > 0) }'; then
	pass "bench-tools: hm-time sleep 0.2: wall $w s, RSS $m KB"
else
	fail "bench-tools: hm-time sleep 0.2" "exit $rc, line '$(cat "$TMP/t")'"
fi
# CPU time: a busy child's user time is most of its wall time
"$HT" -o "$TMP/t" awk 'BEGIN { for (i = 0; i < 3e7; i++) x += i }'; rc=$?
read -r w m u s <"$TMP/t"
if [ $rc = 0 ] && awk -v w="$w" -v u="$u" -v s="$s" 'BEGIN { exit !(u + s > 0 && u + s <= w + 0.01) }'; then
	pass "bench-tools: hm-time CPU time ($u s user of $w s)"
else
	fail "bench-tools: hm-time CPU time" "exit $rc, line '$(cat "$TMP/t")'"
fi
"$HT" -o "$TMP/t" sh -c 'exit 3'; rc=$?
[ $rc = 3 ] && line_ok "$TMP/t" && pass "bench-tools: hm-time passes exit 3" ||
	fail "bench-tools: hm-time exit 3" "exit $rc"
"$HT" -o "$TMP/t" sh -c 'kill -9 $$'; rc=$?
[ $rc = 137 ] && line_ok "$TMP/t" && pass "bench-tools: hm-time says SIGKILL as 137" ||
	fail "bench-tools: hm-time SIGKILL" "exit $rc"
"$HT" -o "$TMP/t" "$TMP/no-such-command" 2>"$TMP/e"; rc=$?
[ $rc = 127 ] && grep -q 'no-such-command' "$TMP/e" && pass "bench-tools: hm-time names a command it cannot run (127)" ||
	fail "bench-tools: hm-time missing command" "exit $rc, '$(cat "$TMP/e")'"
"$HT" -o /nonexistent-dir/t true 2>"$TMP/e"; rc=$?
[ $rc = 127 ] && grep -q '/nonexistent-dir/t' "$TMP/e" && pass "bench-tools: hm-time names an output it cannot write" ||
	fail "bench-tools: hm-time unwritable output" "exit $rc, '$(cat "$TMP/e")'"

# hm-floor: the ordered read and the line updates of a file, over exactly
# the lines the report's table has and every sample stat counts
HF=$HITMAP_BUILD/tools/hm-floor
if [ -x "$HF" ] && [ -x "$HITMAP_BUILD/tools/hm-gen" ] &&
   "$HITMAP_BUILD/tools/hm-gen" -o "$TMP/f.data" -n 20000 -l 700 --seed 4 >/dev/null 2>&1; then
	"$HF" -i "$TMP/f.data" --runs 1 >"$TMP/f.out" 2>&1; rc=$?
	read -r _ fr _ fl _ fn _ fs <"$TMP/f.out"
	ns=$("$HITMAP" stat -i "$TMP/f.data" | awk '/SAMPLE events/ { print $3; exit }')
	nl=$("$HITMAP" report --threads 1 --json -i "$TMP/f.data" | jq '.nr_lines' 2>/dev/null)
	if [ $rc = 0 ] && [ "$fs" = "$ns" ] && [ -n "$nl" ] && [ "$fn" = "$nl" ] &&
	   awk -v r="$fr" -v l="$fl" 'BEGIN { exit !(r > 0 && l > 0) }'; then
		pass "bench-tools: hm-floor: $fs samples (stat: $ns) over $fn lines (the report's table: $nl), read $fr s, updates $fl s"
	else
		fail "bench-tools: hm-floor" "exit $rc, '$(cat "$TMP/f.out")', stat $ns samples, report $nl lines"
	fi
	"$HF" -i "$TMP/no-such.data" >/dev/null 2>"$TMP/e"; rc=$?
	[ $rc = 1 ] && grep -q 'no-such.data' "$TMP/e" && pass "bench-tools: hm-floor names a file it cannot read" ||
		fail "bench-tools: hm-floor missing file" "exit $rc, '$(cat "$TMP/e")'"
else
	skip bench-tools.floor "no $HF or hm-gen (make tests)"
fi

# bench-c2c.sh on the 50k-line shape, hitmap only, one run each
if [ ! -x "$HITMAP_BUILD/tools/hm-gen" ]; then
	skip bench-tools.c2c "no $HITMAP_BUILD/tools/hm-gen (make tests)"
	done_tests
fi
HITMAP_BUILD=$HITMAP_BUILD BENCH_TMP=$TMP/b BENCH_SHAPES=l50k BENCH_QUICK=1 BENCH_PERFS=none \
	bash tests/bench/bench-c2c.sh >"$TMP/bench.out" 2>&1; rc=$?
ncpu=$(awk '/^Cpus_allowed_list/ { n = split($2, r, ","); c = 0; for (i = 1; i <= n; i++)
	c += split(r[i], ab, "-") == 2 ? ab[2] - ab[1] + 1 : 1; print c }' /proc/self/status)
missing=
for want in 'hitmap stat ' 'hitmap report --threads 1 ' 'hitmap report (default' \
	'hitmap report --threads 1 --by bucket' 'ratio: hitmap (1 thread) / hitmap stat, time' \
	'ratio: hitmap 1 thread / default'; do
	grep -qF -- "$want" "$TMP/bench.out" || missing="$missing '$want'"
done
if [ "$ncpu" -le 8 ] && command -v taskset >/dev/null 2>&1; then
	n=$(grep -c 'hitmap report --threads 1 on CPU ' "$TMP/bench.out")
	[ "$n" = "$ncpu" ] || missing="$missing '$ncpu per-CPU rows (got $n)'"
	grep -q 'ratio: speed-up the CPUs allow' "$TMP/bench.out" || missing="$missing 'the CPUs bound'"
	grep -Eq '^  hitmap --threads 1 on each CPU at once +[0-9]+\.[0-9]{3} s wall' "$TMP/bench.out" &&
		grep -q 'ratio: speed-up the CPUs allow running together' "$TMP/bench.out" ||
		missing="$missing 'the CPUs at once'"
fi
# times in milliseconds: "0.123 s wall"
grep -Eq '^  hitmap stat +[0-9]+\.[0-9]{3} s wall' "$TMP/bench.out" || missing="$missing 'ms times'"
if [ $rc = 0 ] && [ -z "$missing" ] && ! grep -q FAILED "$TMP/bench.out"; then
	pass "bench-tools: bench-c2c.sh prints its rows and ratios (l50k, $ncpu CPUs)"
else
	fail "bench-tools: bench-c2c.sh" "exit $rc, missing:$missing; $(grep -m2 -E 'FAILED|SKIP' "$TMP/bench.out" | tr '\n' ' ')"
fi
# the futex file as perf writes it needs a perf (perf inject): without one, the shape says so
HITMAP_BUILD=$HITMAP_BUILD BENCH_TMP=$TMP/p BENCH_SHAPES=futexp BENCH_QUICK=1 BENCH_PERFS=none \
	bash tests/bench/bench-c2c.sh >"$TMP/benchp.out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q 'SKIP: no perf to write it (perf inject)' "$TMP/benchp.out" &&
   ! grep -q 'hitmap stat ' "$TMP/benchp.out"; then
	pass "bench-tools: bench-c2c.sh futexp without a perf skips the shape, saying why"
else
	fail "bench-tools: bench-c2c.sh futexp without a perf" "exit $rc: $(tr '\n' ' ' < "$TMP/benchp.out")"
fi
done_tests
