#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs every unit test binary and shell test, counts PASS/FAIL/SKIP lines and
# ends with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
B=${HITMAP_BUILD:-build}
export HITMAP_BUILD=$B
LOG=${HITMAP_TEST_LOG:-$B/test.log}
: >"$LOG"
pass=0 fail=0 skip=0
# every FAIL line again just before the totals, so that a log's tail names them
failed_lines=""
# Sanitizer reports (a SAN=1 build) go to files, so that one from a command
# whose stderr the test does not read still fails the test; they are kept in
# $B/san-reports/.  Other builds ignore these variables.
SANLOG=$(mktemp -d /tmp/hitmap-san.XXXXXX)
# Per-test limit: 900 s; a SAN=1 build's (ASan+UBSan make hitmap 2-4x
# slower) is 3x that, so the slowest tests (report-oracle, futex-infer) end
# under it with their full checks.  HITMAP_TEST_TIMEOUT overrides both.
LIMIT=900
grep -q __asan_init "$B/hitmap" 2>/dev/null && LIMIT=2700
LIMIT=${HITMAP_TEST_TIMEOUT:-$LIMIT}
trap 'rm -rf "$SANLOG"' EXIT
export ASAN_OPTIONS="log_path=$SANLOG/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="log_path=$SANLOG/ubsan:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
run_one() {
	local name=$1; shift
	local out rc t0=$SECONDS
	out=$(timeout "$LIMIT" "$@" 2>&1); rc=$?
	printf '%s\n' "$out" >>"$LOG"
	local p f s
	p=$(grep -c '^PASS ' <<<"$out"); f=$(grep -c '^FAIL ' <<<"$out"); s=$(grep -c '^SKIP ' <<<"$out")
	# bash's own errors in a test script (a helper it never defined, a
	# syntax error): the checks after them may never have run
	local e
	e=$(grep -m1 -E '^[^ ]+\.sh: line [0-9]+: .*(command not found|syntax error)' <<<"$out")
	if [ -n "$e" ]; then
		f=$((f+1)); out="$out
FAIL $name: the script has an error: $e"
	fi
	local r=("$SANLOG"/*)
	if [ -f "${r[0]}" ]; then
		rm -rf "$B/san-reports/$name"; mkdir -p "$B/san-reports/$name"
		f=$((f+1)); out="$out
FAIL $name: ${#r[@]} sanitizer reports, the first: $(grep -h -m1 -E 'ERROR|runtime error' "${r[0]}" | cut -c1-160) (in $B/san-reports/$name/)"
		mv "${r[@]}" "$B/san-reports/$name/"
	fi
	if [ "$rc" -eq 124 ]; then
		# cut by the limit: say so, even after FAIL lines of its own
		f=$((f+1)); out="$out
FAIL $name: cut at the per-test limit of $LIMIT s (HITMAP_TEST_TIMEOUT=SECONDS sets it)"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		# a crash or a non-zero exit without a FAIL line still fails
		f=1; out="$out
FAIL $name: exited with status $rc"
	fi
	grep -E '^(FAIL|SKIP) ' <<<"$out" | sed "s|^|  [$name] |"
	if [ "$f" -gt 0 ]; then
		failed_lines="$failed_lines$(grep -E '^FAIL ' <<<"$out" | cut -c1-400 | sed "s|^|  [$name] |")
"
	fi
	printf '%-40s %3d passed %3d failed %3d skipped %5d s\n' "$name" "$p" "$f" "$s" $((SECONDS - t0))
	pass=$((pass+p)); fail=$((fail+f)); skip=$((skip+s))
}
# FILTER...: only the tests whose name has one of these substrings
filters=("$@")
wanted() {
	local f
	[ ${#filters[@]} -eq 0 ] && return 0
	for f in "${filters[@]}"; do [[ "$1" == *"$f"* ]] && return 0; done
	return 1
}
for t in "$B"/tests/test-*; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	wanted "$n" || continue
	run_one "$n" "$t"
done
for t in tests/sh/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	wanted "$n" || continue
	run_one "$n" bash "$t"
done
echo
if [ "$fail" -gt 0 ]; then
	echo "the failures again:"
	printf '%s' "$failed_lines"
	echo
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
