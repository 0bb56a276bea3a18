#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# PLT symbol names, every byte: build programs and a library with every PLT
# shape gcc and ld make here (lazy .plt with .plt.got, IBT .plt.sec, -z now,
# -fno-plt, non-PIE, static with IRELATIVE entries, a library calling its
# own IFUNC through the PLT), write a perf.data with a sample on every byte
# from .init to past the last PLT section of each (tests/tools/hm-pltgen),
# and compare hm-symres --perf-compat V with perf script of every installed
# perf V.  perf 6.3+ (6.12, 7.3) synthesizes .plt, .plt.got and .plt.sec
# symbols its own way (src/symbols/plt.c).  A C++ program's names are
# demangled as each perf does (src/symbols/demangle.c).  perf 6.1 leaves a zero-size
# symbol before .plt (_init) reaching over it, and whether a lookup there
# meets it, an entry inside it, or neither (the walk passes an entry's end
# first: [unknown]) is the shape of perf's red-black tree, which hitmap
# replays (src/symbols/symtree.c).  Every sample is compared exactly.
# Copies of this machine's libc (IRELATIVE entries named after their
# resolvers from its debug file, when installed), libm, libz, ld.so, bash
# and ls are compared with every perf too.  perf 7.3 runs in a Debian 13
# chroot, whose /usr/lib/debug holds Debian 13's debug files: the debug
# files of these copies are handed to it, and to hm-symres for 7.3, in a
# build-id cache (HOME=$TMP/home: ~/.debug/.build-id/xx/yyy/debug), where
# perf and hitmap both look first.
. tests/lib.sh
SYMRES=$PWD/$HITMAP_BUILD/tools/hm-symres
GEN=$PWD/$HITMAP_BUILD/tools/hm-pltgen
if [ ! -x "$SYMRES" ] || [ ! -x "$GEN" ]; then skip "symbols plt" "hm-symres or hm-pltgen not built (make O=$HITMAP_BUILD tests)"; done_tests; fi
if ! command -v cc >/dev/null; then skip "symbols plt" "no C compiler"; done_tests; fi
[ -n "$(oracle_perfs)" ] || { skip "symbols plt" "no perf installed (scripts/setup-oracles.sh)"; done_tests; }

cat >"$TMP/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
/* OCaml's mangling, which perf demangles: Foo.bar, Foo.bar_baz, A.b (a "." as $2e) */
__attribute__((noinline)) long camlFoo__bar_123(long x) { return x * 3; }
__attribute__((noinline)) long camlFoo__bar_baz_7(long x) { return x + 3; }
__attribute__((noinline)) long camlA$2eb(long x) { return x - 3; }
/* Java's (perf's Java demangler), and Go's, which it leaves */
long jv1(long) __asm__("\"Ljava/lang/String;equals(Ljava/lang/Object;)Z\"");
__attribute__((noinline)) long jv1(long x) { return x ^ 3; }
long jv2(long) __asm__("\"Lcom/a/B$C;m([[I[Ljava/lang/String;JZ)V\"");
__attribute__((noinline)) long jv2(long x) { return x | 3; }
long go1(long) __asm__("\"main.(*T).Method\"");
__attribute__((noinline)) long go1(long x) { return x & 3; }
/* Rust's: legacy with escapes and a hash of few digits, v0, an LLVM suffix */
long rs1(long) __asm__("_ZN71_$LT$Test$u20$$u2b$$u20$$u27$static$u20$as$u20$foo..Bar$LT$Test$GT$$GT$3bar17h930b740aa94f1d3aE");
__attribute__((noinline)) long rs1(long x) { return x + 5; }
long rs2(long) __asm__("_ZN4core3fmt5write17h0000000000000000E");
__attribute__((noinline)) long rs2(long x) { return x + 7; }
long rs3(long) __asm__("_RNvCs1234_7mycrate3foo");
__attribute__((noinline)) long rs3(long x) { return x + 9; }
long rs4(long) __asm__("_ZN3foo3bar17habcdefabcdef0123E.llvm.123");
__attribute__((noinline)) long rs4(long x) { return x + 11; }
int main(int argc, char **argv)
{
	long s = 0;
	for (int i = 0; i < argc * 1000; i++)
		s += labs(i - 500) + camlFoo__bar_123(i) + camlFoo__bar_baz_7(i) + camlA$2eb(i) + jv1(i) + jv2(i) + go1(i) +
		     rs1(i) + rs2(i) + rs3(i) + rs4(i);
	printf("%ld\n", s);
	return 0;
}
C
cat >"$TMP/cxxsrc.cc" <<'C'
#include <map>
#include <string>
#include <vector>
namespace ns {
template <typename T> struct box { T v; T get() const { return v; } };
__attribute__((noinline)) long sum(const std::vector<long> &v, const std::string &s)
{
	long r = (long)s.size();
	for (long x : v)
		r += [x](long k) { return x * k; }(2);
	return r;
}
}
int main(int argc, char **argv)
{
	std::map<std::string, long> m;
	std::vector<long> v(argc, 3);
	ns::box<int> b{argc};
	m[argv[0]] = ns::sum(v, std::string(argv[0])) + b.get();
	return (int)m.size() - 1;
}
C
cat >"$TMP/lib.c" <<'C'
static long add_a(long x) { return x + 1; }
static long (*pick(void))(long) { return add_a; }
static long add(long x) __attribute__((ifunc("pick")));
long twice(long x) { return add(x) + add(x + 1); }
extern long ext(long);
long (*addr_of_ext)(long) = ext;
long call_ext(long x) { return ext(x) + 1; }
C
B="cc -g -O1 -fno-builtin-labs"
elfs=
build() { # NAME CC-ARGS...: one test ELF, skipped with a note when this toolchain cannot make it
	local n=$1; shift
	if "$@" -o "$TMP/$n" >"$TMP/$n.cc" 2>&1; then elfs="$elfs $TMP/$n"; else echo "# $n not built: $(tail -n1 "$TMP/$n.cc")"; fi
}
build prog $B -fplt "$TMP/prog.c"
build prog-ibt $B -fplt -fcf-protection=full -Wl,-z,ibtplt "$TMP/prog.c"
build prog-now $B -fplt -Wl,-z,now "$TMP/prog.c"
build prog-noplt $B -fno-plt "$TMP/prog.c"
build prog-nopie $B -fplt -no-pie "$TMP/prog.c"
build prog-static $B -static "$TMP/prog.c"
build libplt.so cc -g -O1 -fPIC -fplt -shared "$TMP/lib.c"
command -v c++ >/dev/null && build cxx c++ -g -O1 -fplt "$TMP/cxxsrc.cc"	# C++ names, demangled as each perf does
mkdir -p "$TMP/host"
for f in $(ldd "$TMP/prog" 2>/dev/null | awk '$1 ~ /^libc\.so/ { print $3 }') /lib64/ld-linux-x86-64.so.2 \
	 /usr/lib/x86_64-linux-gnu/libm.so.6 /usr/lib/x86_64-linux-gnu/libz.so.1 /usr/bin/bash /usr/bin/ls; do
	f=$(readlink -f "$f" 2>/dev/null) && [ -f "$f" ] && cp "$f" "$TMP/host/" && elfs="$elfs $TMP/host/${f##*/}"
done
check "symbols plt: the test ELFs are built (prog, libplt.so)" test -x "$TMP/prog" -a -f "$TMP/libplt.so"
# the host copies' debug files, in a build-id cache for perf 7.3's chroot (above)
ndbg=0
for f in $TMP/host/*; do
	id=$(readelf -n "$f" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
	d=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	[ -n "$id" ] && [ -f "$d" ] || continue
	mkdir -p "$TMP/home/.debug/.build-id/${id:0:2}/${id:2}" &&
		cp "$d" "$TMP/home/.debug/.build-id/${id:0:2}/${id:2}/debug" && ndbg=$((ndbg + 1))
done
echo "# $ndbg of the host copies have a debug file here"
# shellcheck disable=SC2086
"$GEN" -o "$TMP/plt.data" $elfs 2>"$TMP/gen.err" || { fail "symbols plt: hm-pltgen" "$(head -n1 "$TMP/gen.err")"; done_tests; }
sed 's/^/# /' "$TMP/gen.err"	# ELF files without a PLT (Debian 13's ld.so), skipped
# the PLT shapes the ELFs hold, so a missing one is seen
for s in .plt.got .plt.sec; do
	# shellcheck disable=SC2086
	n=$(for f in $elfs; do readelf -SW "$f" 2>/dev/null | grep -c " $s "; done | awk '{ n += $1 } END { print n + 0 }')
	echo "# $n of the test ELFs have $s"
done

for v in $(oracle_perfs); do
	P="perf $v"
	O=$TMP/v$v
	mkdir -p "$O"
	home=$HOME
	[ "$v" = 7.3 ] && home=$TMP/home	# the debug files of the host copies (above)
	HOME=$home perf_sh "$v" 'perf script -i "$1/plt.data" -F ip,sym,dso 2>"$2/ps.err" >"$2/ps.txt"' "$TMP" "$O"
	sed -E 's/^ +//' "$O/ps.txt" >"$O/perf.txt"	# whole lines: C++ names hold spaces
	HOME=$home "$SYMRES" "$TMP/plt.data" --perf-compat "$v" --dso >"$O/hm.txt" 2>"$O/hm.err" || { fail "symbols plt: $P: hm-symres" "$(tail -n1 "$O/hm.err")"; continue; }
	n=$(wc -l <"$O/perf.txt")
	if ! check "symbols plt: $P: same number of samples ($n)" test "$n" -eq "$(wc -l <"$O/hm.txt")" -a "$n" -gt 100; then continue; fi
	paste -d'|' "$O/perf.txt" "$O/hm.txt" >"$O/pairs"
	what="all $n samples"
	bad=$(awk -F'|' '$1 != $2' "$O/pairs")
	if [ -z "$bad" ]; then pass "symbols plt: $P: symbol and dso of $what = perf script"
	else fail "symbols plt: $P: symbol/dso" "$(grep -c . <<<"$bad") of $(wc -l <"$O/pairs") differ, first: $(head -n1 <<<"$bad")"; fi
	check "symbols plt: $P demangles OCaml's camlA\$2eb as A.b, as perf does" grep -q ' A\.b (' "$O/hm.txt"
	check "symbols plt: $P demangles a Java method, as perf does" grep -qF ' java.lang.String.equals(java.lang.Object) (' "$O/hm.txt"
	w=' mycrate::foo ('	# Rust's v0: libiberty (6.1) and 7.3 read it, 6.12 does not
	[ "$v" = 6.12 ] && w=' _RNvCs1234_7mycrate3foo ('
	check "symbols plt: $P shows Rust's v0 name as${w% (}, as perf does" grep -qF "$w" "$O/hm.txt"
	if [ -x "$TMP/cxx" ]; then	# C++: perf 6.1 names a function, 6.12 and 7.3 add its parameters
		w='ns::sum ('
		[ "$v" != 6.1 ] && w='ns::sum(std::vector<long'
		check "symbols plt: $P demangles ${w% (} as perf does" grep -qF "$w" "$O/hm.txt"
	fi
	if [ "$v" != 6.1 ]; then	# the names only perf 6.3+ gives: seen, so the comparison covered them
		for want in '^\.plt$' '^offset_0x[0-9a-f]+@plt$|^pick@plt$' '^__cxa_finalize@plt$'; do
			check "symbols plt: $P names ${want//\\/} somewhere" awk -F'|' -v w="$want" '{ split($2, b, " "); if (b[2] ~ w) f = 1 } END { exit !f }' "$O/pairs"
		done
	else	# perf 6.1's tree meets an entry in libplt.so's .plt, _init in the programs': both were compared
		check "symbols plt: $P names ext@plt (libplt.so) but no labs@plt (the programs: _init)" awk -F'|' '{ split($2, b, " ") } b[2] == "ext@plt" { e = 1 } b[2] == "labs@plt" { l = 1 } END { exit !(e && !l) }' "$O/pairs"
	fi
done
done_tests
