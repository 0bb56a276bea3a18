#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every option of 'perf c2c report' (in each installed perf: 6.1, 6.12, 7.3)
# is taken by 'hitmap report' under the same name, short and long, with a
# value where perf wants one, except the two that hitmap-report(1) names as
# left out (perf's annotate view). perf's own -h is the list: an option a new
# perf adds shows up here as a failure.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
[ -x "$HITMAP" ] || { skip cli-perf-options "no $HITMAP; build first (make tests)"; done_tests; }
F=$TMP/s.data
"$HITMAP" simulate --sockets 2 --ops 2000 --period 50 -o "$F" >/dev/null 2>&1 ||
	{ fail cli-perf-options "simulate failed"; done_tests; }

# left out, with the reason in the man page
LEFT_OUT="disassembler-style objdump"

# a value perf would take, per option that wants one
value() {
	case $1 in
	coalesce) echo iaddr ;; display) echo tot ;; call-graph) echo none ;;
	input) echo "$F" ;; vmlinux) echo "$TMP/no-vmlinux" ;; *) echo x ;;
	esac
}

# perf's "-X, --name <arg>" / "    --name" lines as "X name arg|-"
perf_opts() {
	"$1" c2c report -h 2>&1 | sed -n 's/^ *\(-\([A-Za-z]\), \)\{0,1\}--\([a-z0-9-]*\)\( <[^>]*>\)\{0,1\}.*/\2 \3 \4/p' |
		while read -r a b c; do
			if [ -z "$b" ] || [ "${b#<}" != "$b" ]; then echo "- $a ${b:+arg}"; else echo "$a $b ${c:+arg}"; fi
		done | awk '{ print $1, $2, ($3 == "" ? "-" : $3) }'
}

# accepted: none of bad_option's messages for this option
accepted() {
	"$HITMAP" report -i "$F" "$@" >/dev/null 2>"$TMP/e" </dev/null
	! grep -q "unknown option\|needs a value\|takes no value\|is ambiguous\|unexpected argument" "$TMP/e"
}

# check PERF: each option of its c2c report accepted, long and short
check_perf() {
	local p=$1 n=0 bad="" s l a v
	perf_opts "$p" >"$TMP/opts"
	while read -r s l a; do
		n=$((n + 1))
		case " $LEFT_OUT " in *" $l "*) continue ;; esac
		v=(); [ "$a" = arg ] && v=("$(value "$l")")
		accepted "--$l" "${v[@]}" || bad="$bad --$l($(head -c 120 "$TMP/e"))"
		if [ "$s" != - ]; then
			accepted "-$s" "${v[@]}" || bad="$bad -$s($(head -c 120 "$TMP/e"))"
		fi
	done <"$TMP/opts"
	if [ "$n" -lt 10 ]; then
		fail "cli-perf-options.$p" "read only $n options from '$p c2c report -h'"
	elif [ -z "$bad" ]; then
		pass "cli-perf-options.$p: all $n options of perf c2c report taken (but the annotate view's)"
	else
		fail "cli-perf-options.$p" "not taken:$bad"
	fi
}

seen=0
for p in perf perf-6.12 perf-7.3; do
	command -v "$p" >/dev/null || { skip "cli-perf-options.$p" "$p not installed (scripts/setup-oracles.sh installs it)"; continue; }
	"$p" c2c report -h >/dev/null 2>&1; [ $? -le 129 ] || { skip "cli-perf-options.$p" "$p c2c report -h failed"; continue; }
	check_perf "$p"
	seen=1
done

# what they do: -f and --stitch-lbr change nothing; -v adds the debug lines
"$HITMAP" report -i "$F" --threads 2 >"$TMP/plain" 2>"$TMP/plain.e"
"$HITMAP" report -i "$F" --threads 2 -f --stitch-lbr >"$TMP/forced" 2>"$TMP/forced.e"
check "-f --stitch-lbr: the same report" cmp -s "$TMP/plain" "$TMP/forced"
"$HITMAP" report -i "$F" --threads 2 -v >"$TMP/verbose" 2>"$TMP/verbose.e"
check "-v: the same report on stdout" cmp -s "$TMP/plain" "$TMP/verbose"
check "-v: the pass's debug lines on stderr, none without it" \
	sh -c "grep -q '^hitmap: debug: report: ' '$TMP/verbose.e' && ! grep -q 'debug' '$TMP/plain.e'"

# the left-out options are named in the man page
sed 's/\\//g' man/hitmap-report.1 >"$TMP/man.txt"
for l in $LEFT_OUT; do
	check "left-out --$l named in hitmap-report(1)" grep -q -- "--$l" "$TMP/man.txt"
done

# planted: a perf option hitmap lacks is seen
if [ $seen = 1 ]; then
	printf '#!/bin/sh\necho "    -Z, --planted-zzz <n>   planted"\nfor i in 1 2 3 4 5 6 7 8 9 10; do echo "        --stdio     x"; done\n' >"$TMP/fakeperf"
	chmod +x "$TMP/fakeperf"
	perf_opts "$TMP/fakeperf" >"$TMP/opts"
	check "planted: parsed as a short option with a value" grep -qx 'Z planted-zzz arg' "$TMP/opts"
	! accepted --planted-zzz 1 && ! accepted -Z 1
	check "planted: not taken, so it would fail" [ $? -eq 0 ]
fi
done_tests
