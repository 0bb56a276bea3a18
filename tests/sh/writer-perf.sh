#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Files hitmap's writer makes (through hm-gen) open in real perf 6.1 without
# errors: perf script, perf report -D, perf c2c report --stdio and
# perf report --header-only, with the sample counts that were written; the
# hitmap metadata (after the feature sections, found by its trailer) is
# ignored harmlessly.
. tests/lib.sh

GEN=$PWD/$HITMAP_BUILD/tools/hm-gen
N=3000

if [ ! -x "$GEN" ]; then
	skip writer-perf "no $GEN; build with make O=$HITMAP_BUILD tests"
	done_tests
fi
if ! have_perf; then
	skip writer-perf "perf not installed (apt-get install linux-perf)"
	done_tests
fi

# Error lines on stderr, minus perf's notes about this host's kallsyms.
errors() {
	grep -v -E 'kptr_restrict|Kernel address maps|^Warning:$|kallsyms nor vmlinux|^can.t be resolved|Samples in kernel modules|^$' "$1" |
		grep -i -E 'error|fail|invalid|unsupported|bug|unknown|can.t|cannot|corrupt|mismatch|incompatible|not set|skipping' | head -n 3
}

# no_errors NAME FILE: PASS when FILE has no error line
no_errors() {
	local e
	e=$(errors "$2")
	if [ -z "$e" ]; then pass "$1"; else fail "$1" "$e"; fi
}

eq() {	# eq NAME GOT WANT
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi
}

for mix in intel-snb intel-skl amd-zen2 amd-zen4 arm random all; do
	f=$TMP/$mix.data
	check "hm-gen $mix" "$GEN" -o "$f" -n $N --mix $mix --seed 3
	[ -s "$f" ] || continue

	perf script -i "$f" >"$TMP/s.out" 2>"$TMP/s.err"
	eq "perf script $mix rc" $? 0
	eq "perf script $mix sample count" "$(wc -l <"$TMP/s.out")" $N
	no_errors "perf script $mix stderr clean" "$TMP/s.err"

	perf report -D -i "$f" >"$TMP/d.out" 2>"$TMP/d.err"
	eq "perf report -D $mix rc" $? 0
	eq "perf report -D $mix samples" "$(grep -c 'PERF_RECORD_SAMPLE(' "$TMP/d.out")" $N
	eq "perf report -D $mix records" "$(awk '/TOTAL events:/ { print $3; exit }' "$TMP/d.out")" $((N + 8 + 4 + (N / 4096) + 1))
	no_errors "perf report -D $mix stderr clean" "$TMP/d.err"

	perf c2c report --stdio -i "$f" >"$TMP/c.out" 2>"$TMP/c.err"
	eq "perf c2c report $mix rc" $? 0
	eq "perf c2c report $mix total records" "$(awk -F: '/Total records/ { gsub(/ /, "", $2); print $2; exit }' "$TMP/c.out")" $N
	eq "perf c2c report $mix all mapped" "$(awk -F: '/No Page Map Rejects/ { gsub(/ /, "", $2); print $2; exit }' "$TMP/c.out")" 0
	no_errors "perf c2c report $mix stderr clean" "$TMP/c.err"

	# perf mem report too, for the vendor encodings (perf 6.1's mem-level
	# formatter overflows its stack on random data_src bit patterns).
	case $mix in random|all) ;; *)
		perf mem report --stdio -i "$f" >"$TMP/m.out" 2>"$TMP/m.err"
		eq "perf mem report $mix rc" $? 0
		no_errors "perf mem report $mix stderr clean" "$TMP/m.err"
	esac

	perf report --header-only -I -i "$f" >"$TMP/h.out" 2>"$TMP/h.err"
	eq "perf report --header-only $mix rc" $? 0
	check "header-only $mix hostname" grep -q '^# hostname : hm-gen' "$TMP/h.out"
	check "header-only $mix event names" grep -q 'name = cpu/mem-stores/P' "$TMP/h.out"
	check "header-only $mix memory nodes" grep -q 'memory nodes (nr 2' "$TMP/h.out"
	no_errors "perf report --header-only $mix stderr clean" "$TMP/h.err"
done

# The hitmap metadata is really there: outside the feature index (no bit
# above 34 set), located by the "HMMTAT01" trailer that ends the file.
f=$TMP/all.data
if [ -s "$f" ]; then
	b=$(od -An -tx8 -j 96 -N8 "$f" | tr -d ' ')
	eq "feature bits 192-255 clear" "$b" 0000000000000000
	eq "file ends with the hitmap metadata trailer" "$(tail -c 24 "$f" | head -c 8)" HMMTAT01
fi

# Determinism: the same seed gives the same bytes; another seed does not.
# (The output path is part of CMDLINE, so write the same path each time.)
"$GEN" -o "$TMP/a.data" -n 2000 --seed 9 && cp "$TMP/a.data" "$TMP/a1.data" &&
	"$GEN" -o "$TMP/a.data" -n 2000 --seed 9 && cp "$TMP/a.data" "$TMP/a2.data" &&
	"$GEN" -o "$TMP/a.data" -n 2000 --seed 10
check "hm-gen deterministic for a seed" cmp -s "$TMP/a1.data" "$TMP/a2.data"
if cmp -s "$TMP/a1.data" "$TMP/a.data"; then fail "hm-gen seed changes output" "identical"; else pass "hm-gen seed changes output"; fi

# Without MMAP2 records every sample is a "No Page Map Reject" (intel-snb
# with --noaddr 0: every sample parses and has an address, so none stops
# before c2c's map check).
"$GEN" -o "$TMP/nm.data" -n 1000 --no-mmap --mix intel-snb --noaddr 0
perf c2c report --stdio -i "$TMP/nm.data" >"$TMP/nm.out" 2>"$TMP/nm.err"
eq "c2c --no-mmap rc" $? 0
eq "c2c --no-mmap: all samples unmapped" "$(awk -F: '/No Page Map Rejects/ { gsub(/ /, "", $2); print $2; exit }' "$TMP/nm.out")" 1000

# Bigger topology: 4 nodes, 16 CPUs; c2c -N shows data nodes from PHYS_ADDR.
"$GEN" -o "$TMP/n4.data" -n 2000 --nodes 4 --cpus 16 --mix intel-skl
perf c2c report --stdio -N -i "$TMP/n4.data" >"$TMP/n4.out" 2>"$TMP/n4.err"
eq "c2c 4 nodes rc" $? 0
no_errors "c2c 4 nodes stderr clean" "$TMP/n4.err"
perf report --header-only -I -i "$TMP/n4.data" >"$TMP/n4h.out" 2>&1
check "header-only 4 nodes: node3 cpu list 12-15" grep -q '^# node3 cpu list : 12-15' "$TMP/n4h.out"
nodes=$(awk '/Shared Data Cache Line Table/ { t = 1 } t && $1 ~ /^[0-9]+$/ && $2 ~ /^0x/ { print $3 }' "$TMP/n4.out" | sort -u | tr '\n' ' ')
eq "c2c data nodes from PHYS_ADDR + MEM_TOPOLOGY" "$nodes" "0 1 2 3 "

# perf inject reads and rewrites a writer file, metadata and all (perf 6.1
# inject indexes feat_ops[] with every set feature bit and crashes on bits it
# does not know: that is why the metadata is not a feature section).
"$GEN" -o "$TMP/meta.data" -n 1000
perf inject -i "$TMP/meta.data" -o "$TMP/inj.data" >"$TMP/inj.out" 2>&1
eq "perf inject rc (file with hitmap metadata)" $? 0
eq "perf inject output keeps every sample" "$(perf script -i "$TMP/inj.data" 2>/dev/null | wc -l)" 1000
"$GEN" -o "$TMP/nometa.data" -n 1000 --no-meta
if [ "$(tail -c 24 "$TMP/nometa.data" | head -c 8)" = HMMTAT01 ]; then
	fail "--no-meta: no metadata trailer" "trailer present"
else
	pass "--no-meta: no metadata trailer"
fi

# The other byte order (--swap, big-endian): perf reads it exactly as the
# native file of the same seed.
"$GEN" -o "$TMP/le.data" -n 3000 --seed 5 && "$GEN" -o "$TMP/be.data" -n 3000 --seed 5 --swap
check "--swap magic 2ELIFREP" test "$(head -c 8 "$TMP/be.data")" = 2ELIFREP
perf script -i "$TMP/le.data" >"$TMP/le.s" 2>/dev/null
perf script -i "$TMP/be.data" >"$TMP/be.s" 2>"$TMP/be.err"
eq "perf script big-endian rc" $? 0
check "perf script big-endian = native" cmp "$TMP/le.s" "$TMP/be.s"
no_errors "perf script big-endian stderr clean" "$TMP/be.err"
perf c2c report --stdio -N -i "$TMP/le.data" >"$TMP/le.c" 2>&1
perf c2c report --stdio -N -i "$TMP/be.data" >"$TMP/be.c" 2>&1
check "perf c2c report big-endian = native" cmp "$TMP/le.c" "$TMP/be.c"
hdr() { perf report --header-only -I -i "$1" 2>&1 | grep -v -E 'captured on|cmdline|data offset|data size|feat offset'; }
hdr "$TMP/le.data" >"$TMP/le.h"; hdr "$TMP/be.data" >"$TMP/be.h"
check "perf report --header-only big-endian = native" cmp "$TMP/le.h" "$TMP/be.h"

# Bad options give a one-line error and a non-zero exit.
if "$GEN" -o "$TMP/x.data" --mix nosuch 2>"$TMP/bad.err"; then fail "hm-gen bad --mix" "exit 0"; else
	check "hm-gen bad --mix message" grep -q "unknown 'nosuch'" "$TMP/bad.err"; fi
if "$GEN" 2>"$TMP/bad.err"; then fail "hm-gen without -o" "exit 0"; else pass "hm-gen without -o"; fi

done_tests
