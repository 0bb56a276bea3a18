#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap script's inlined frames against every installed perf script, byte
# for byte, on a program built here (cc -O2 -g, frame pointers) whose hot
# loop runs two functions inlined one in the other, recorded here.
#
# perf 7.3 adds inlined frames to call chains by default (--no-inline
# drops them): each frame's address in the functions DWARF nests there,
# innermost first, "sym+0xoff (inlined)" (the offset in the frame's
# symbol), the function holding the address last, as a frame of its own
# when DWARF names it as the symbol table does; with srcline, the
# innermost at the address's line and each other at its call site.  A
# sample without a call chain gets none.  perf 6.1 and 6.12 add none to
# the chains the kernel records, --inline or not (6.12 only to chains it
# unwinds from DWARF); hitmap does the same for them.
#
# perf 7.3 asks binutils' addr2line for the frames: without one in its
# root it adds none, and the 7.3 cases skip.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip script-inline "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
PERFS=$(oracle_perfs)
if [ -z "$PERFS" ]; then
	skip script-inline "no perf installed (perf-6.1, perf-6.12 or perf-7.3 on PATH)"
	done_tests
fi
if ! can_record; then
	skip script-inline "perf cannot record here (perf record -e cpu-clock failed: perf_event_paranoid or no perf_event_open)"
	done_tests
fi
CC=${CC:-cc}
if ! command -v "$CC" >/dev/null 2>&1; then
	skip script-inline "no C compiler ($CC) to build the program"
	done_tests
fi
cat >"$TMP/inl.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
static volatile unsigned long sink;
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 7);
}
static inline __attribute__((always_inline)) unsigned long step(unsigned long x, int n)
{
	for (int i = 0; i < n; i++)
		x = mix(x + i);
	return x;
}
__attribute__((noinline)) unsigned long work(unsigned long seed)
{
	unsigned long acc = 0;

	for (int k = 0; k < 2000; k++)
		acc += step(seed + k, 100);
	return acc;
}
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 300;

	for (unsigned long i = 0; i < n; i++)
		sink += work(i);
	printf("%lu\n", sink);
	return 0;
}
C
if ! "$CC" -O2 -g -fno-omit-frame-pointer -o "$TMP/inl" "$TMP/inl.c" 2>"$TMP/cc.err"; then
	skip script-inline "$CC -O2 -g failed: $(head -n 1 "$TMP/cc.err")"
	done_tests
fi
perf record -q -g -e cpu-clock -c 100000 -o "$TMP/inl.data" -- "$TMP/inl" 400 >/dev/null 2>&1
perf record -q -e cpu-clock -c 100000 -o "$TMP/inl-ip.data" -- "$TMP/inl" 200 >/dev/null 2>&1
if [ ! -s "$TMP/inl.data" ] || [ ! -s "$TMP/inl-ip.data" ]; then
	skip script-inline "perf record -g of the program wrote nothing"
	done_tests
fi
# hitmap finds the program's inlined functions at all
"$HITMAP" script --perf-compat 7.3 -i "$TMP/inl.data" >"$TMP/h.out" 2>&1
if grep -q ' mix+0x[0-9a-f]* (inlined)$' "$TMP/h.out" && grep -q ' step+0x[0-9a-f]* (inlined)$' "$TMP/h.out"; then
	pass "script-inline: mix and step inlined in work ($(grep -c '(inlined)$' "$TMP/h.out") frames)"
else
	fail "script-inline" "no 'mix+0x.. (inlined)' and 'step+0x.. (inlined)' frames in hitmap script's output"
fi
"$HITMAP" script --perf-compat 7.3 --no-inline -i "$TMP/inl.data" >"$TMP/hn.out" 2>&1
if grep -q '(inlined)' "$TMP/hn.out"; then
	fail "script-inline --no-inline" "inlined frames printed"
else
	pass "script-inline --no-inline: no inlined frames"
fi

# NAME|FILE|ARGS: the cases, perf V script ARGS -i FILE against hitmap
# script --perf-compat V ARGS -i FILE
cases73="def|inl.data|
srcline|inl.data|-F ip,sym,srcline
symoff|inl.data|-F comm,tid,ip,sym,symoff,dso
iponly|inl.data|-F tid,ip
noinline|inl.data|--no-inline
hide|inl.data|-G
nochain|inl-ip.data|
nochain-src|inl-ip.data|-F ip,sym,srcline"
cases6="def|inl.data|
inline|inl.data|--inline
symoff|inl.data|--inline -F comm,tid,ip,sym,symoff,dso
nochain|inl-ip.data|--inline"
for v in $PERFS; do
	if [ "$v" = 7.3 ]; then cases=$cases73; else cases=$cases6; fi
	: >"$TMP/jobs.$v"
	while IFS='|' read -r n f a; do
		echo "$n - script $a -i $TMP/$f" >>"$TMP/jobs.$v"
	done <<<"$cases"
	O=$TMP/o$v
	perf_batch "$v" "$O" "$TMP/jobs.$v"
	if [ "$v" = 7.3 ] && perf_ran "$v" "$O" def && ! grep -q '(inlined)$' "$O/def.out"; then
		skip "script-inline (perf 7.3)" "perf 7.3 printed no inlined frame: it finds them with binutils' addr2line, which its root may lack"
		continue
	fi
	while IFS='|' read -r n f a; do
		perf_ran "$v" "$O" "$n" || continue
		# shellcheck disable=SC2086  # the options split on purpose
		"$HITMAP" script --perf-compat "$v" $a -i "$TMP/$f" >"$TMP/$n.$v.hm" 2>"$TMP/$n.$v.herr"
		if cmp -s "$O/$n.out" "$TMP/$n.$v.hm"; then
			pass "script-inline.$n = perf $v script $a ($(wc -l <"$TMP/$n.$v.hm") lines, $(grep -c '(inlined)' "$TMP/$n.$v.hm") inlined)"
		else
			fail "script-inline.$n (perf $v)" "differs from perf $v script $a: $(diff "$O/$n.out" "$TMP/$n.$v.hm" 2>&1 | head -5 | tr '\n' ' ' | cut -c1-400)"
		fi
	done <<<"$cases"
done
done_tests
