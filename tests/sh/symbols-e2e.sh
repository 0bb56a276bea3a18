#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# End to end: record a -g -O1 program with real perf (cpu-clock), then resolve
# every sample's ip with hitmap (tests/tools/hm-symres: reader + hm_maps +
# hm_symbols) and compare with perf script of every installed perf (6.1,
# 6.12, 7.3): symbol and dso of every sample, and basename:line of every
# sample in the program.  perf 7.3 runs in a Debian 13 chroot, whose
# /lib holds Debian 13's libc and ld.so: it cannot name the samples in the
# host's libraries, so it is held to the program's and the kernel's samples.
. tests/lib.sh
SYMRES=$PWD/$HITMAP_BUILD/tools/hm-symres
if [ ! -x "$SYMRES" ]; then skip "symbols e2e" "$SYMRES not built (make O=$HITMAP_BUILD tests)"; done_tests; fi
if ! command -v cc >/dev/null; then skip "symbols e2e" "no C compiler"; done_tests; fi
if ! can_record; then skip "symbols e2e" "perf cannot record cpu-clock here (perf missing or perf_event_paranoid)"; done_tests; fi

cat >"$TMP/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int counter = 5;
long table[64] = { 1, 2, 3 };
static inline __attribute__((always_inline)) int add_one(int x)
{
	counter += x;
	return counter * 3;
}
__attribute__((noinline)) int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += add_one(i) + (int)table[i & 63] + (int)labs(i & 7);
	return s;
}
int main(int argc, char **argv)
{
	long r = 0;
	for (int k = 0; k < (argc > 1 ? 8000 : 1); k++)
		r += work(10000) + add_one(k);
	printf("%ld\n", r);
	return 0;
}
C
# labs through the PLT (-fno-builtin-labs -fplt) in the hot loop: every run
# has samples in the program's .plt, where perf 6.1 synthesizes labs@plt but
# its rbtree lookup meets the zero-size _init, extended over .plt, first,
# and perf 6.12+ cut _init at .plt and say .plt (header) or labs@plt.
cc -g -O1 -fno-builtin-labs -fplt -o "$TMP/prog" "$TMP/prog.c" || { fail "symbols e2e compile" "cc -g -O1 failed"; done_tests; }
# -N: keep ~/.debug untouched; the binary is found by path and build-id.
# 20 kHz for ~1 s of work: some thousands of samples (a 100 kHz cpu-clock
# costs minutes of hrtimer overhead in a VM).  Where the timer lands is the
# machine's: on this VM labs's .plt entry, a few instructions of every
# loop, gets 0-3 samples of 6000 a run, so up to 8 recordings are made
# until one has a sample there (perf 6.1's script says "_init (prog)",
# newer ones ".plt" or "labs@plt (prog)"); if none has, the .plt checks
# below are skipped, saying so (tests/sh/symbols-plt.sh covers every byte).
plt_rec=0
for try in 1 2 3 4 5 6 7 8; do
	if ! perf record -N -q -e cpu-clock -c 50000 -o "$TMP/perf.data" -- "$TMP/prog" 1 >/dev/null 2>"$TMP/rec.err"; then
		skip "symbols e2e" "perf record failed: $(tail -n1 "$TMP/rec.err")"; done_tests
	fi
	if perf script -i "$TMP/perf.data" -F ip,sym,dso 2>/dev/null | grep -Eq " (_init|[^ ]*@plt|\.plt) \($TMP/prog\)"; then
		plt_rec=$try
		break
	fi
done
"$SYMRES" "$TMP/perf.data" --dso >"$TMP/hm.txt" 2>"$TMP/hm.err" || { fail "symbols e2e hm-symres" "$(tail -n1 "$TMP/hm.err")"; done_tests; }
# perf 6.12 and 7.3 name the PLT their way (src/symbols/plt.c): hm-symres as they do
"$SYMRES" "$TMP/perf.data" --dso --perf-compat 7.3 >"$TMP/hm-new.txt" 2>"$TMP/hm.err" || { fail "symbols e2e hm-symres --perf-compat 7.3" "$(tail -n1 "$TMP/hm.err")"; done_tests; }
"$SYMRES" "$TMP/perf.data" --lines | awk -v d="$TMP/prog" '$3 == d {n = split($4, p, "/"); print $1, (p[n] == "??:0" ? "" : p[n])}' |
	sed 's/ *$//' | sort >"$TMP/hm-src.txt"
check "symbols e2e: the program's work() is resolved" grep -q ' work (' "$TMP/hm.txt"
check "symbols e2e: kernel samples resolved" grep -q ' (\[kernel.kallsyms\])' "$TMP/hm.txt"

for v in $(oracle_perfs); do
P="perf $v"
O=$TMP/v$v
mkdir -p "$O"
perf_sh "$v" 'perf script -i "$1/perf.data" -F ip,sym,dso 2>/dev/null >"$2/ps.txt"
	perf script -i "$1/perf.data" -F ip,sym,dso,srcline 2>/dev/null >"$2/perf-srcline.txt"' "$TMP" "$O"
awk '{print $1, $2, $3}' "$O/ps.txt" >"$O/perf.txt"
n=$(wc -l <"$O/perf.txt")
if [ "$n" -lt 100 ]; then fail "symbols e2e: $P samples" "only $n samples from perf script"; continue; fi
hm=$TMP/hm.txt
[ "$v" != 6.1 ] && hm=$TMP/hm-new.txt
check "symbols e2e: $P: same number of samples ($n)" test "$n" -eq "$(wc -l <"$hm")"
what=all
[ "$v" = 7.3 ] && what="the program's and the kernel's"
paste -d'|' "$O/perf.txt" "$hm" >"$O/pairs"
# pairs compared: all, or (perf 7.3) the program's and the kernel's samples
awk -F'|' -v d="($TMP/prog)" -v v="$v" '{ n = split($1, a, " "); if (v != "7.3" || a[n] == d || a[n] == "([kernel.kallsyms])") print }' "$O/pairs" >"$O/cmp"
m=$(wc -l <"$O/cmp")
bad=$(awk -F'|' '$1 != $2' "$O/cmp")
if [ -z "$bad" ] && [ "$m" -gt 0 ]; then pass "symbols e2e: $P: ip, symbol and dso of $what $m samples = perf script"
else fail "symbols e2e: $P: symbol/dso" "$(grep -c . <<<"$bad") of $m differ, first: $(head -n1 <<<"$bad")"; fi
if [ "$plt_rec" = 0 ]; then
	skip "symbols e2e: $P: the program's .plt is sampled" "none of 8 recordings has a sample in the program's .plt (the timer's landing is the machine's)"
elif [ "$v" = 6.1 ]; then
	# among the pairs compared, not just in perf's output (the recording was picked by it)
	n61=$(awk -F'|' -v d="($TMP/prog)" '{ split($1, a, " "); split($2, b, " ") }
		a[2] == "_init" && a[3] == d && b[2] == "_init" && b[3] == d' "$O/cmp" | wc -l)
	check "symbols e2e: $P: the program's .plt is sampled and compared ($n61 samples, perf 6.1 and hitmap: _init)" test "$n61" -gt 0
else
	nplto=$(awk -F'|' -v d="($TMP/prog)" '{ split($1, a, " "); split($2, b, " ") }
		(a[2] ~ /@plt$/ || a[2] == ".plt") && a[3] == d && a[2] == b[2] && b[3] == d' "$O/cmp" | wc -l)
	check "symbols e2e: $P: the program's .plt is sampled and compared ($nplto samples, perf $v and hitmap: .plt or NAME@plt)" test "$nplto" -gt 0
fi

# source lines of the program's samples.  perf 6.1 (map__fprintf_srcline)
# prints "\n  SRCLINE" after the sample line, nothing at all when addr2line
# answers "??:0", and "prog[HEX]" (dso short name, objdump address) when it
# finds no line; hm-symres prints ??:0 for all of those.  Any line that is
# neither a sample line "IP SYM (DSO)" nor a one-word srcline is printed as
# BAD so that the comparison fails instead of silently pairing it.
# (Elsewhere perf 6.1 inherits binutils addr2line's answers; in ld.so's
# handle_amd it names dl-get-cpu-features.c:321 where libdw and
# llvm-addr2line say dl-cacheinfo.h:321, so only the test program is compared.)
awk -v d="($TMP/prog)" -v b="prog" '
	function out(src) {
		if (dso != d) return
		if (src == "??:0" || (substr(src, 1, length(b) + 1) == b "[" && substr(src, length(b) + 2) ~ /^[0-9a-f]+\]$/))
			src = ""
		print ip, src
	}
	/^ *[0-9a-f]+ .* \(.*\)$/ { if (have) out(""); ip = $1; dso = $NF; have = 1; next }
	NF == 1 && have { out($1); have = 0; next }
	{ print "BAD line " NR ": " $0; have = 0 }
	END { if (have) out("") }' "$O/perf-srcline.txt" | sed 's/ *$//' | sort >"$O/perf-src.txt"
u=$(wc -l <"$O/perf-src.txt")
bad=$(comm -3 "$O/perf-src.txt" "$TMP/hm-src.txt" | wc -l)
if [ "$u" -gt 100 ] && [ "$bad" -eq 0 ]; then pass "symbols e2e: $P: file:line of all $u samples in the program = perf script srcline"
else fail "symbols e2e: $P: srcline" "$bad lines differ of $u, first: $(comm -3 "$O/perf-src.txt" "$TMP/hm-src.txt" | head -n2 | tr '\n\t' '  ')"; fi
done

# cost per sample (cached) with source lines on
"$SYMRES" "$TMP/perf.data" --bench | sed 's/^/# hm-symres --bench: /'
done_tests
