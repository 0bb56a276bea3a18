#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The ELF symbol reader on corrupt files: ELF files of every PLT shape
# (tests/fuzz/make-elf-seeds.sh) and copies of this machine's libc and ld.so,
# mutated by tests/tools/hm-elf-mutate (cut short, bytes flipped, ELF,
# program and section header fields set to boundary values, biased towards
# the PLT, relocation and symbol sections).  Each case is opened with perf
# 6.1's and perf 6.3+'s PLT rules and looked up all over (the fuzz target
# tests/fuzz/fuzz-elf.c): no crash, no hang, and under SAN=1 no sanitizer
# report.  A share of the cases must still give symbols, so the walk ran.
# HARDEN_ELF_CASES sets the cases per seed (400).
. tests/lib.sh
MUT=$PWD/$HITMAP_BUILD/tools/hm-elf-mutate
[ -x "$MUT" ] || { skip "symbols elf corrupt" "hm-elf-mutate not built (make O=$HITMAP_BUILD tests)"; done_tests; }
command -v cc >/dev/null || { skip "symbols elf corrupt" "no C compiler to build the ELF files"; done_tests; }
N=${HARDEN_ELF_CASES:-400}

tests/fuzz/make-elf-seeds.sh "$TMP/src" "$TMP/elf"
elfs=("$TMP"/elf/*)
check "symbols elf corrupt: the ELF files are built (${#elfs[@]})" test "${#elfs[@]}" -ge 8
for f in /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2; do
	f=$(readlink -f "$f" 2>/dev/null) && [ -f "$f" ] && cp "$f" "$TMP/host-${f##*/}" && host+=("$TMP/host-${f##*/}")
done

one() {	# name, seed, files...
	local name=$1 seed=$2; shift 2
	local out o rc
	out=$("$MUT" -n "$N" -s "$seed" "$@" 2>"$TMP/mut.err"); rc=$?
	o=$(sed -n 's/.*opened \([0-9]*\),.*/\1/p' <<<"$out")
	if [ $rc -eq 0 ] && [ "${o:-0}" -ge $((N / 10)) ]; then pass "$name: $out"
	elif [ $rc -eq 0 ]; then fail "$name" "only ${o:-0} of $N cases gave symbols: the mutations broke every file ($out)"
	else fail "$name" "$out $(head -n 2 "$TMP/mut.err" | tr '\n' ' ')"; fi
}
one "symbols elf corrupt: the PLT shapes, seed 1" 1 "${elfs[@]}"
one "symbols elf corrupt: the PLT shapes, seed 2" 2 "${elfs[@]}"
if [ ${#host[@]} -gt 0 ]; then
	N=$((N / 4)) one "symbols elf corrupt: this machine's libc and ld.so" 3 "${host[@]}"
fi
done_tests
