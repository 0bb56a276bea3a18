#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Each fuzz target's own seed folder, made at fuzz time from the recordings
# the tests make (the simulator in every form, the test generators); nothing
# is copied from outside the project:
#   OUT/reader   whole perf.data files (simulated, hm-spe-gen, hm-futex-gen,
#                hm-cont-gen, hm-symmaps-gen, hm-kern-gen, hm-gen), each under
#                256 KiB, plus the committed tests/fuzz/seeds/reader-*
#   OUT/spe      SPE packets (AUX data) and AUXTRACE_INFO records, v1 and v2
#   OUT/symbols  map/thread records and samples in fuzz-symbols.c's framing,
#                and kallsyms text
#   OUT/meta     hitmap's metadata sections
#   OUT/elf      small ELF files of the PLT shapes cc and ld make here (lazy,
#                -z now, -fno-plt, IBT .plt.sec, non-PIE, a library with an
#                IFUNC, C++ names), with and without .symtab; none without cc
# Usage: tests/fuzz/make-seeds.sh BUILD_DIR OUT   (run from the repo root)
set -eu
B=$1 D=$2
H=$B/hitmap T=$B/tools
[ -s "$D/.done" ] && exit 0
rm -rf "$D"
mkdir -p "$D/reader" "$D/spe" "$D/symbols" "$D/meta" "$D/elf"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
R=$D/reader
tests/fuzz/make-sim-seeds.sh "$H" "$W/sim"
cp "$W"/sim/*.data "$R/"
"$H" simulate --ops 600 --seed 7 --sockets 2 -o "$R/sim-2s.data" >/dev/null 2>&1 || true
"$T/hm-spe-gen" --seed 1 --records 200 --meta 1 -o "$R/spe-v1.data"
"$T/hm-spe-gen" --seed 2 --records 200 --meta 2 --hitm --sockets 2 -o "$R/spe-v2.data"
"$T/hm-spe-gen" --seed 3 --records 200 --pipe --zstd -o "$R/spe-pipe-zstd.data"
"$T/hm-spe-gen" --seed 4 --records 200 --swap --buf-size 2048 -o "$R/spe-swap.data"
"$T/hm-spe-gen" --seed 5 --records 200 --midr 0x480fd060 --no-context -o "$R/spe-midr.data"
"$T/hm-futex-gen" -o "$R/futex.data" -e "$W/f.exp" -n 400
"$T/hm-cont-gen" -o "$R/cont.data" -e "$W/c.exp" -n 400 --seed 2
"$T/hm-cont-gen" -o "$R/cont-norounds.data" -e "$W/c2.exp" -n 300 --no-rounds
"$T/hm-symmaps-gen" -o "$R/symmaps.data" -n 100
"$T/hm-kern-gen" -o "$R/kern.data" --text 0xffffffff81000000 --ip 0xffffffff81000010,0xffffffff81000050 \
	--data 0xffffffff81001000 --build-id 0123456789abcdef0123456789abcdef01234567 -n 50 >/dev/null
"$T/hm-gen" -o "$R/gen.data" -n 200 -l 10 >/dev/null
"$H" convert -i "$R/futex.data" -o "$R/futex-swap.data" --swap >/dev/null
for f in "$R"/*.data; do
	n=$(basename "$f" .data)
	"$T/hm-fuzz-seeds" "$f" "$D" "$n"
	# the reader target mutates headers and records: keep files small
	[ "$(stat -c %s "$f")" -le 262144 ] || truncate -s 262144 "$f"
done
cp tests/fuzz/seeds/reader-* "$R/" 2>/dev/null || true
# kallsyms text as the symbols target parses it
{
	echo "ffffffff81000000 T _text"
	echo "ffffffff81000100 T do_futex"
	echo "ffffffff81000200 t futex_wait	[futex]"
	echo "ffffffffc0000000 t mod_fn	[mod]"
	echo "ffffffff82000000 D jiffies"
} >"$D/symbols/kallsyms-small"
head -n 400 /proc/kallsyms >"$D/symbols/kallsyms-host" 2>/dev/null || true
tests/fuzz/make-elf-seeds.sh "$W/elfsrc" "$D/elf"
find "$D" -type f -size 0 -delete
echo done >"$D/.done"
for t in reader spe symbols meta elf; do echo "fuzz seeds: $t $(ls "$D/$t" | wc -l) files"; done
