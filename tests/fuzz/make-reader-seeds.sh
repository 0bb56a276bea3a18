#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Makes the reader fuzzer's seeds (tests/fuzz/seeds/reader-*): tiny real
# recordings (file, pipe, zstd, callchain, tracepoint, BPF programs) and a hitmap-written
# file, each cut to at most 48 KiB so the fuzzer mutates headers and records.
# Usage: tests/fuzz/make-reader-seeds.sh [BUILD_DIR]   (run from the repo root)
set -eu
B=${1:-build}
D=tests/fuzz/seeds
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$D"
cut() { head -c 49152 "$1" >"$D/$2"; }
rec() { local n=$1; shift; perf record -q "$@" -- sleep 0.05 >/dev/null 2>&1 || true; }
rec file -e cpu-clock -c 200000 --sample-cpu -d -o "$T/file.data" && cut "$T/file.data" reader-file
perf record -q -e cpu-clock -c 200000 --sample-cpu -o - -- sleep 0.05 2>/dev/null >"$T/pipe.data" || true
cut "$T/pipe.data" reader-pipe
rec z -z -e cpu-clock -c 200000 -o "$T/z.data" && cut "$T/z.data" reader-zstd
rec cg --call-graph fp -e cpu-clock -c 200000 -o "$T/cg.data" && cut "$T/cg.data" reader-callchain
rec tp -e syscalls:sys_enter_nanosleep -o "$T/tp.data" && cut "$T/tp.data" reader-tracepoint
# BPF_PROG_INFO and BPF_BTF with programs in them: ours loaded while perf
# records (root, clang and bpftool; the BPF file system takes no dot in a name)
if command -v clang >/dev/null && command -v bpftool >/dev/null &&
   clang -O2 -g -target bpf -I/usr/include/$(uname -m)-linux-gnu \
	-c tests/fixtures/bpf/header-progs.bpf.c -o "$T/progs.o" 2>/dev/null &&
   mkdir -p /sys/fs/bpf/hitmap_seed_$$ 2>/dev/null &&
   bpftool prog loadall "$T/progs.o" /sys/fs/bpf/hitmap_seed_$$ >/dev/null 2>&1; then
	perf record -q -e cpu-clock -c 200000 -o "$T/bpf.data" -- true >/dev/null 2>&1 &&
		cut "$T/bpf.data" reader-bpf
fi
rm -rf /sys/fs/bpf/hitmap_seed_$$ 2>/dev/null || true
if [ -x "$B/tools/hm-gen" ]; then
	"$B/tools/hm-gen" -o "$T/gen.data" -n 50 -l 10 >/dev/null 2>&1 && cut "$T/gen.data" reader-hmgen
fi
# drop empty ones (a recording that failed here)
find "$D" -name 'reader-*' -size 0 -delete
ls -la "$D"/reader-*
