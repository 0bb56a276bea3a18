#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap simulate: help, presets, one-line errors on bad input, JSON output.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip sim-cli "no $HITMAP; build first"; out=$("$HITMAP" simulate --preset skx --cores 2 --smt 1 --futexes 4 --ops 200 --trace 30 2>&1)
n=$(printf '%s\n' "$out" | grep -c ' cycles$')
printf '%s\n' "$out" | grep -m1 'hitm_' | sed 's/^/# /'
[ "$n" = 30 ] && printf '%s\n' "$out" | grep -q -- '-> M@core' && pass sim-cli-trace ||
	fail sim-cli-trace "$n trace lines: $(printf '%s' "$out" | head -c 200)"
done_tests; }
check sim-cli-help "$HITMAP" simulate --help
"$HITMAP" simulate --help | grep -q -- '--compare' && pass sim-cli-help-mentions-compare ||
	fail sim-cli-help-mentions-compare "no --compare in --help"
[ "$("$HITMAP" simulate --list-presets | wc -l)" -ge 4 ] && pass sim-cli-list-presets ||
	fail sim-cli-list-presets "$("$HITMAP" simulate --list-presets)"
bad() {
	local name=$1; shift
	if "$HITMAP" simulate "$@" >"$TMP/o" 2>"$TMP/e"; then
		fail sim-cli-$name "accepted: $*"
	elif [ "$(wc -l <"$TMP/e")" = 1 ] && grep -q '^hitmap: ' "$TMP/e"; then
		pass sim-cli-$name
		echo "#   $(cat "$TMP/e")"
	else
		fail sim-cli-$name "not one 'hitmap:' line: $(head -c 200 "$TMP/e")"
	fi
}
bad unknown-preset --preset pentium --ops 10
bad bad-kernel --kernel 5.x --ops 10
bad slots-not-pow2 --slots 3 --ops 10
bad slots-pre-6.16 --kernel 6.12 --slots 16 --ops 10
bad bad-latency --latency warp=9 --ops 10
bad bad-placement --placement random --ops 10
bad period-zero --period 0 --ops 10
bad unknown-option --frobnicate
bad compare-one-arg --compare "--kernel 6.16"
bad unwritable-output --ops 10 --cores 2 -o /nonexistent/dir/x.data
out=$("$HITMAP" simulate --preset skx --cores 2 --smt 1 --futexes 16 --ops 2000 --json 2>&1)
[ "$(printf '%s' "$out" | jq -r .era 2>/dev/null)" = 6.16 ] && pass sim-cli-json ||
	fail sim-cli-json "$(printf '%s' "$out" | head -c 200)"
out=$("$HITMAP" simulate --preset skx --cores 2 --smt 1 --futexes 4 --ops 200 --trace 30 2>&1)
n=$(printf '%s\n' "$out" | grep -c ' cycles$')
printf '%s\n' "$out" | grep -m1 'hitm_' | sed 's/^/# /'
[ "$n" = 30 ] && printf '%s\n' "$out" | grep -q -- '-> M@core' && pass sim-cli-trace ||
	fail sim-cli-trace "$n trace lines: $(printf '%s' "$out" | head -c 200)"
done_tests
