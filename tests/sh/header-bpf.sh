#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# BPF programs in the header (BPF_PROG_INFO, BPF_BTF): hitmap header
# --perf-compat V prints the "# bpf_prog_info" lines (and their "sub_prog"
# lines) and the "# btf info" lines as perf V report --header-only -I
# prints them, on files each installed perf records here while programs
# of ours are loaded (tests/fixtures/bpf/header-progs.bpf.c): one with a
# BPF-to-BPF call (two jited functions, named from the BTF clang wrote)
# and one of one function.  perf saves
# every program loaded on the machine, so the others are compared too.
# Every perf reads the files of the same or an older perf; a file perf V
# refuses is said so.  The fixtures perf.data.branch_stack_spec and
# sleep.compressed.data (35 and 14 programs from other machines) are
# compared in tests/sh/header-perf.sh.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip header-bpf "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
vers=$(oracle_perfs)
if [ -z "$vers" ]; then
	skip header-bpf "no perf installed (perf 6.1, perf-6.12, perf-7.3: scripts/setup-oracles.sh)"
	done_tests
fi
for t in clang bpftool; do
	if ! command -v $t >/dev/null; then
		skip header-bpf "no $t (scripts/setup.sh installs it): no BPF program of ours to load"
		done_tests
	fi
done
if [ "$(id -u)" != 0 ]; then
	skip header-bpf "loading a BPF program needs root"
	done_tests
fi
[ -d /sys/fs/bpf ] && { mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf 2>/dev/null; }
if ! mountpoint -q /sys/fs/bpf; then
	skip header-bpf "no BPF file system at /sys/fs/bpf to pin the programs in"
	done_tests
fi

if ! clang -O2 -g -target bpf -I/usr/include/$(uname -m)-linux-gnu -c tests/fixtures/bpf/header-progs.bpf.c \
		-o "$TMP/progs.bpf.o" 2>"$TMP/clang.err"; then
	fail header-bpf.build "clang could not build the programs: $(head -n 2 "$TMP/clang.err" | tr '\n' ' ')"
	done_tests
fi
PIN=/sys/fs/bpf/hitmap_header_bpf_$$	# no dot: the BPF file system refuses one
trap 'rm -rf "$PIN" 2>/dev/null; rm -rf "$TMP"' EXIT
mkdir -p "$PIN" 2>/dev/null
if ! bpftool prog loadall "$TMP/progs.bpf.o" "$PIN" >"$TMP/load.err" 2>&1; then
	skip header-bpf "bpftool could not load the programs: $(grep -m1 -iE 'error|fail|denied' "$TMP/load.err" | cut -c1-120)"
	done_tests
fi

files=()
for v in $vers; do
	f=$TMP/bpf-$v.data
	if perf_sh "$v" 'perf record -q -a -e cpu-clock -o "$1" -- sleep 0.05' "$f" >"$TMP/rec.err" 2>&1 && [ -s "$f" ]; then
		files+=("$f")
	else
		skip "header-bpf record $v" "perf $v could not record -a here: $(head -n 1 "$TMP/rec.err" | cut -c1-100)"
	fi
done
rm -rf "$PIN" 2>/dev/null
# the same in pipe mode (hitmap convert --pipe): perf prints the programs
# when their record comes, before BPF_BTF's, so it names them without BTF
# (perf's own pipe recordings save no program in BPF_PROG_INFO)
for f in "${files[@]}"; do
	"$HITMAP" convert --pipe -i "$f" -o "${f%.data}.pipe.data" >/dev/null 2>&1 &&
		files+=("${f%.data}.pipe.data")
done

lines='^# (bpf_prog_info|	sub_prog|btf info)'
for f in "${files[@]}"; do
	b=${f##*/}
	case $b in *.pipe.data) continue;; esac
	"$HITMAP" header -i "$f" >"$TMP/h.txt" 2>&1
	# ours are there, named from their BTF, the call's target as a sub_prog
	check "header-bpf $b: our program of two functions, named from its BTF" \
		grep -qP '^# \tsub_prog 1: bpf_prog_[0-9a-f]{16}_hm_hdr_sub addr 0x[0-9a-f]+ size [1-9]' "$TMP/h.txt"
	check "header-bpf $b: our program of one function on one line" \
		grep -qP '^# bpf_prog_info [0-9]+: bpf_prog_[0-9a-f]{16}_hm_hdr_one addr 0x[0-9a-f]+ size [1-9]' "$TMP/h.txt"
	# --json: the same programs, names, addresses and sizes as the text
	"$HITMAP" header --json -i "$f" 2>/dev/null | jq -r '.bpf_progs[] | select(.printed) |
		if (.functions | length) == 1 then "\(.id) \(.functions[0].name) \(.functions[0].addr) \(.functions[0].size)"
		else (.functions[] | "\(.name) \(.addr) \(.size)") end' >"$TMP/j.txt"
	sed -nE 's/^# bpf_prog_info ([0-9]+): (.*) addr (0x[0-9a-f]+) size ([0-9]+)$/\1 \2 \3 \4/p;
		s/^# \tsub_prog [0-9]+: (.*) addr (0x[0-9a-f]+) size ([0-9]+)$/\1 \2 \3/p' "$TMP/h.txt" >"$TMP/t.txt"
	check "header-bpf $b: --json holds the programs the text prints ($(wc -l <"$TMP/t.txt") lines)" \
		cmp "$TMP/t.txt" "$TMP/j.txt"
done
for v in $vers; do
	for f in "${files[@]}"; do
		b=${f##*/}
		fv=${b#bpf-}; fv=${fv%.data}; fv=${fv%.pipe}
		# an older perf refuses a newer perf's attrs (6.1: size 136)
		[ "$(printf '%s\n%s\n' "$fv" "$v" | sort -V | tail -n 1)" = "$v" ] || continue
		perf_sh "$v" 'perf report --header-only -I -i "$1"' "$f" >"$TMP/p.out" 2>"$TMP/p.err"
		rc=$?
		if [ "$rc" != 0 ]; then
			skip "header-bpf perf $v $b" "perf $v refuses the file: $(perf_crash_why "$TMP/p.err" "$rc")"
			continue
		fi
		grep -P "$lines" "$TMP/p.out" >"$TMP/p.txt"
		"$HITMAP" header --perf-compat "$v" -i "$f" 2>/dev/null | grep -P "$lines" >"$TMP/h.txt"
		n=$(grep -c bpf_prog_info "$TMP/p.txt")
		if [ "$n" -lt 2 ]; then
			fail "header-bpf perf $v $b" "perf $v prints $n programs: ours were not recorded"
		elif cmp -s "$TMP/p.txt" "$TMP/h.txt"; then
			pass "header-bpf perf $v $b: $(wc -l <"$TMP/p.txt") lines of $n programs and their BTF as perf $v prints them"
		else
			fail "header-bpf perf $v $b" "$(diff "$TMP/p.txt" "$TMP/h.txt" | grep '^[<>]' | head -n 4 | cut -c1-160 | tr '\n' ' ')"
		fi
	done
done
done_tests
