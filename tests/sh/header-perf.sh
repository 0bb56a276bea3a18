#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap header --perf-compat V against perf V report --header-only -I, line
# by line, on every real fixture and every installed perf (6.1, 6.12, 7.3).
#
# hitmap's own lines are left out of the comparison (they say what perf's
# lines do not): "# mode", "# build ids", "# tracing data", "# hitmap
# metadata" and "# features:".  Every other difference fails, except this
# one, named with its reason:
#  - perf.data.piped.corrupted.zero_size_sample-3.2: perf prints the banner
#    and stops at the corrupt record; hitmap refuses the file (exit 1).
# The BPF programs ("# bpf_prog_info ID: NAME addr ADDR size N" and its
# "sub_prog" lines, named from the BTF saved with them) are compared too:
# perf.data.branch_stack_spec holds 35 of them, sleep.compressed.data 14
# (which perf 6.1 refuses); tests/sh/header-bpf.sh records more here.
# Lines perf computes from the running machine (the PMU a type names, "cpu"
# on a VM without a core PMU in sysfs) hitmap computes the same way, and
# the placeholders perf prints for the sections it did not read ('(null)',
# '0 kB', 'not available': it stops at the empty CPUDESC of the perf 3.14
# file perf.data.armv7.perf_3.14-3.8) too.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip header-perf "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
need_fixtures header-perf
vers=$(oracle_perfs)
if [ -z "$vers" ]; then
	skip header-perf "no perf installed (perf 6.1, perf-6.12, perf-7.3: scripts/setup-oracles.sh)"
	done_tests
fi

declare -A whole_file=(
	[perf.data.piped.corrupted.zero_size_sample-3.2]="perf prints the banner and stops at the corrupt record; hitmap refuses the file"
)
own='^# (mode           :|build ids :|tracing data :|hitmap metadata :|features:)'

files=()
for f in "$FIXTURES"/*/*; do
	case $f in *.md|*.txt|*.gz) continue ;; esac
	[ -f "$f" ] && files+=("$f")
done
# Beside the fixtures: perf 7.3's newest features, CPU_DOMAIN_INFO (perf
# sched stats record, which needs /proc/schedstat) made by hm-feat-gen,
# E_MACHINE and CLN_SIZE in a file perf 7.3 records here (and that file
# converted to 128-byte attrs, which perf 6.1 and 6.12 read)
GEN=$PWD/$HITMAP_BUILD/tools/hm-feat-gen
if [ -x "$GEN" ]; then
	for o in "" --v16 --swap; do
		"$GEN" $o -o "$TMP/feat-gen${o}.data" && files+=("$TMP/feat-gen${o}.data")
	done
else
	skip "header-perf feat-gen" "no $GEN; build with make O=$HITMAP_BUILD tests"
fi
if perf_cmd 7.3 >/dev/null && perf_sh 7.3 'perf record -q -e cpu-clock -o "$1" -- sleep 0.05' "$TMP/perf-7.3-record.data" >/dev/null 2>&1 &&
   "$HITMAP" convert -i "$TMP/perf-7.3-record.data" -o "$TMP/perf-7.3-record.conv.data" >/dev/null 2>&1; then
	files+=("$TMP/perf-7.3-record.data" "$TMP/perf-7.3-record.conv.data")
else
	skip "header-perf perf-7.3-record.data" "perf 7.3 cannot record cpu-clock here (not installed, or no permission)"
fi
# a folder of perf record --threads: DIR_FORMAT
if can_record && perf record -q --threads -e cpu-clock -a -o "$TMP/threads.data" -- sleep 0.1 >/dev/null 2>&1 &&
   [ -d "$TMP/threads.data" ]; then
	files+=("$TMP/threads.data")
else
	skip "header-perf threads.data" "perf cannot record --threads -a here (permissions, or no perf)"
fi
KS=$(perf_ksyms)
for v in $vers; do
	o=$TMP/p$v
	perf_each "$v" "$o" "report $KS --header-only -I" "${files[@]}"
	same=0 excused=0 refused=0
	for f in "${files[@]}"; do
		b=${f##*/}
		rc=$(cat "$o/$b.rc" 2>/dev/null || echo missing)
		if [ "$rc" != 0 ] && [ -z "${whole_file[$b]:-}" ]; then
			# perf 6.1 refuses attr size 136 (perf >= 6.3), 7.3 the armv7 3.14 file
			refused=$((refused + 1))
			skip "header-perf $v $b" "perf $v refuses the file: $(perf_crash_why "$o/$b.err" "$rc")"
			continue
		fi
		"$HITMAP" header --perf-compat "$v" -i "$f" 2>"$TMP/h.err" | grep -vE "$own" >"$TMP/h.txt"
		cp "$o/$b.out" "$TMP/p.txt"
		if cmp -s "$TMP/p.txt" "$TMP/h.txt"; then
			same=$((same + 1))
			pass "header-perf $v $b: $(wc -l <"$TMP/p.txt") lines as perf $v prints them"
		elif [ -n "${whole_file[$b]:-}" ]; then
			excused=$((excused + 1))
			skip "header-perf $v $b" "${whole_file[$b]}"
		else
			fail "header-perf $v $b" "$(diff "$TMP/p.txt" "$TMP/h.txt" | grep '^[<>]' | head -n 4 | cut -c1-160 | tr '\n' ' ')"
		fi
	done
	echo "# perf $v: $same files line for line, $excused with stated differences, $refused refused by perf"
	[ "$same" -gt 0 ] || fail "header-perf $v" "no file compared equal"
done
done_tests
