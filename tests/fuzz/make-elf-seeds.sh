#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Small ELF files of the PLT shapes cc and ld make here, for the elf fuzz
# target and hm-elf-mutate (tests/sh/symbols-elf-corrupt.sh): lazy .plt,
# -z now, -fno-plt, IBT .plt.sec, non-PIE, a library calling its own IFUNC
# through the PLT, a C++ program; each also stripped (no .symtab).  Each is
# at most 256 KiB (the fuzzer's inputs), and the same bytes from any folder
# (-ffile-prefix-map), so a seed's cases are the same every run.  Nothing
# without a C compiler.
# Usage: tests/fuzz/make-elf-seeds.sh WORKDIR OUTDIR
set -eu
W=$1 E=$2
mkdir -p "$W" "$E"
command -v cc >/dev/null || exit 0
cat >"$W/p.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int camlFoo__bar_12(int x) { return x + 1; }
int main(int argc, char **argv) { printf("%s %ld\n", argv[0], labs(argc - 3)); return camlFoo__bar_12((int)strlen(argv[0])) > 0 ? 0 : 1; }
C
cat >"$W/l.c" <<'C'
static int pick_a(void) { return 1; }
static int (*resolve_pick(void))(void) { return pick_a; }
int pick(void) __attribute__((ifunc("resolve_pick")));
extern int ext(int);
int use(int x) { return pick() + ext(x); }
C
cc -ffile-prefix-map="$W"=. -g -O1 -fplt -o "$E/lazy" "$W/p.c" 2>/dev/null || true
cc -ffile-prefix-map="$W"=. -g -O1 -fplt -Wl,-z,now -o "$E/now" "$W/p.c" 2>/dev/null || true
cc -ffile-prefix-map="$W"=. -g -O1 -fno-plt -o "$E/noplt" "$W/p.c" 2>/dev/null || true
cc -ffile-prefix-map="$W"=. -g -O1 -fplt -fcf-protection=full -Wl,-z,ibtplt -o "$E/ibt" "$W/p.c" 2>/dev/null ||
	cc -ffile-prefix-map="$W"=. -g -O1 -fplt -fcf-protection=full -o "$E/ibt" "$W/p.c" 2>/dev/null || true
cc -ffile-prefix-map="$W"=. -O1 -fplt -no-pie -o "$E/nopie" "$W/p.c" 2>/dev/null || true
cc -ffile-prefix-map="$W"=. -g -O1 -fPIC -fplt -shared -o "$E/lib.so" "$W/l.c" 2>/dev/null || true
if command -v c++ >/dev/null; then
	printf '%s\n' '#include <vector>' \
		'namespace ns { long sum(const std::vector<long> &v) { long s = 0; for (long x : v) s += x; return s; } }' \
		'int main(int c, char **) { std::vector<long> v(c, 2); return (int)ns::sum(v); }' >"$W/x.cc"
	c++ -ffile-prefix-map="$W"=. -O1 -fplt -o "$E/cxx" "$W/x.cc" 2>/dev/null || true
fi
for f in "$E"/*; do
	case $f in *.stripped) continue;; esac
	[ -f "$f" ] && { strip -o "$f.stripped" "$f" 2>/dev/null || true; }
done
for f in "$E"/*; do
	[ "$(stat -c %s "$f")" -le 262144 ] || rm -f "$f"
done
