#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# report -k/--vmlinux: a small ELF linked at the kernel's text address (built
# here with gcc) and a perf.data of kernel-mode HITM samples at its functions
# (tests/tools/hm-kern-gen): the cache-line details and perf's Pareto name the
# ELF's functions and data object; a KASLR slide (kernel MMAP elsewhere) is
# undone through _text; a build-id that is not the recorded kernel's warns;
# a missing or non-ELF file is an error or a warning.  perf 6.1 c2c report -k
# is the oracle for the Pareto's Symbol column.
. tests/lib.sh
B=$PWD/$HITMAP_BUILD
GEN=$B/tools/hm-kern-gen
HM=$B/hitmap
[ -x "$GEN" ] || { skip "symbols vmlinux" "hm-kern-gen not built (make O=$HITMAP_BUILD tests)"; done_tests; }
command -v gcc >/dev/null || { skip "symbols vmlinux" "no gcc to link the test ELF"; done_tests; }
cat >"$TMP/k.S" <<'ASM'
	.text
	.globl _text
_text:
	.globl hm_kfunc_alpha
	.type hm_kfunc_alpha, @function
hm_kfunc_alpha:
	.fill 64, 1, 0x90
	ret
	.size hm_kfunc_alpha, .-hm_kfunc_alpha
	.globl hm_kfunc_beta
	.type hm_kfunc_beta, @function
hm_kfunc_beta:
	.fill 128, 1, 0x90
	ret
	.size hm_kfunc_beta, .-hm_kfunc_beta
	.data
	.balign 64
	.globl hm_kdata_obj
	.type hm_kdata_obj, @object
hm_kdata_obj:
	.fill 64, 1, 0
	.size hm_kdata_obj, 64
ASM
V=$TMP/vmlinux
if ! gcc -nostdlib -static -Wl,--build-id=sha1 -Wl,-Ttext=0xffffffff81000000 -Wl,-e,_text \
	-o "$V" "$TMP/k.S" 2>"$TMP/gcc.err"; then
	skip "symbols vmlinux" "gcc cannot link the test ELF: $(tail -n1 "$TMP/gcc.err")"; done_tests
fi
BID=$(readelf -n "$V" 2>/dev/null | awk '/Build ID/ {print $3}')
[ -n "$BID" ] || { skip "symbols vmlinux" "readelf shows no build-id in the test ELF"; done_tests; }
IPS=0xffffffff81000010,0xffffffff81000050
"$GEN" -o "$TMP/k.data" --text 0xffffffff81000000 --ip $IPS --data 0xffffffff81001000 --build-id "$BID" -n 20 ||
	{ fail "symbols vmlinux: generate" "hm-kern-gen failed"; done_tests; }

# without -k: no kernel symbols here (the build-id is no running kernel's)
"$HM" report -i "$TMP/k.data" --stdio >"$TMP/none.txt" 2>/dev/null
check "symbols vmlinux: without -k the kernel code is [unknown]" grep -q '\[unknown\] \[kernel.kallsyms\]' "$TMP/none.txt"
# the futex views' pre-scan picks the same (no) kernel symbols: --html's table is the same
"$HM" report -i "$TMP/k.data" --stdio --html "$TMP/none.html" >"$TMP/none-h.txt" 2>/dev/null
check "symbols vmlinux: without -k, report --html names the kernel code as report does" \
	cmp "$TMP/none.txt" "$TMP/none-h.txt"

"$HM" report -i "$TMP/k.data" -k "$V" --stdio >"$TMP/k.txt" 2>"$TMP/k.err"
check "symbols vmlinux: details name the functions" \
	grep -q '0x0 hm_kdata_obj+0x0 .* hm_kfunc_alpha+0x10 \[kernel.kallsyms\]' "$TMP/k.txt"
check "symbols vmlinux: second function" grep -q 'hm_kfunc_beta+0xf \[kernel.kallsyms\]' "$TMP/k.txt"
check "symbols vmlinux: the table names the data object" grep -q 'data:hm_kdata_obj+0x0$' "$TMP/k.txt"
check "symbols vmlinux: matching build-id: no warning" test ! -s "$TMP/k.err"

"$HM" report -i "$TMP/k.data" --vmlinux "$V" --pareto >"$TMP/p.txt" 2>/dev/null
awk '$9 ~ /^0xffffffff8100/ {print $9, $15, $16, $17}' "$TMP/p.txt" >"$TMP/p.rows"
check "symbols vmlinux: Pareto rows name the functions" \
	diff <(printf '%s\n' "0xffffffff81000010 [k] hm_kfunc_alpha [kernel.kallsyms]" \
		"0xffffffff81000050 [k] hm_kfunc_beta [kernel.kallsyms]") "$TMP/p.rows"
if P61=$(perf_cmd 6.1); then
	"$P61" c2c report -i "$TMP/k.data" -k "$V" --stdio 2>/dev/null |
		awk '$9 ~ /^0xffffffff8100/ {print $9, $15, $16, $17}' >"$TMP/perf.rows"
	check "symbols vmlinux: Pareto code, symbol, object = perf 6.1 c2c report -k" \
		eval "[ -s '$TMP/perf.rows' ] && diff '$TMP/perf.rows' '$TMP/p.rows'"
else
	skip "symbols vmlinux: perf oracle" "perf 6.1 is not installed"
fi

# KASLR: the same code ran 0x9000000 higher; a build-id that is not the ELF's
"$GEN" -o "$TMP/s.data" --text 0xffffffff8a000000 --ip 0xffffffff8a000010,0xffffffff8a000050 \
	--data 0xffffffff8a001000 --build-id 00112233445566778899aabbccddeeff00112233 -n 5
"$HM" report -i "$TMP/s.data" -k "$V" --stdio >"$TMP/s.txt" 2>"$TMP/s.err"
check "symbols vmlinux: KASLR slide from the kernel MMAP and _text" \
	grep -q 'hm_kfunc_beta+0xf \[kernel.kallsyms\]' "$TMP/s.txt"
check "symbols vmlinux: build-id mismatch warns, naming both" \
	grep -q "build-id $BID is not the recorded kernel's (00112233445566778899aabbccddeeff00112233)" "$TMP/s.err"

# with DWARF (gcc -g on the assembly): source lines too
if gcc -g -nostdlib -static -Wl,--build-id=sha1 -Wl,-Ttext=0xffffffff81000000 -Wl,-e,_text \
	-o "$TMP/vmlinux-g" "$TMP/k.S" 2>/dev/null; then
	BIDG=$(readelf -n "$TMP/vmlinux-g" 2>/dev/null | awk '/Build ID/ {print $3}')
	"$GEN" -o "$TMP/g.data" --text 0xffffffff81000000 --ip 0xffffffff81000050 --data 0xffffffff81001000 \
		--build-id "$BIDG" -n 5
	"$HM" report -i "$TMP/g.data" -k "$TMP/vmlinux-g" --pareto >"$TMP/g.txt" 2>"$TMP/g.err"
	check "symbols vmlinux: DWARF source line in the Pareto" \
		grep -q 'hm_kfunc_beta  *\[kernel.kallsyms\]  *k\.S:[0-9]' "$TMP/g.txt"
else
	skip "symbols vmlinux: DWARF" "gcc -g cannot link the test ELF"
fi

"$HM" report -i "$TMP/k.data" -k "$TMP/missing" >/dev/null 2>"$TMP/m.err"; rc=$?
check "symbols vmlinux: missing file exits 1 naming the option" \
	eval "[ $rc = 1 ] && grep -q -- '--vmlinux $TMP/missing: cannot open' '$TMP/m.err'"
"$HM" report -i "$TMP/k.data" -k "$TMP/k.S" --stdio >/dev/null 2>"$TMP/n.err"; rc=$?
check "symbols vmlinux: not an ELF: a warning, the report still runs" \
	eval "[ $rc = 0 ] && grep -q 'k.S: not an ELF file (no ELF magic); kernel symbols come from kallsyms' '$TMP/n.err'"
# diff -k: both sides' lines named (and matched) by the ELF's data symbol
"$HM" diff --metrics "$TMP/k.data" >"$TMP/dm0.json" 2>/dev/null
check "symbols vmlinux: diff without -k: no ELF data symbol" eval "! grep -q hm_kdata_obj '$TMP/dm0.json'"
"$HM" diff --all --json -k "$V" "$TMP/k.data" -- "$TMP/k.data" >"$TMP/d.json" 2>"$TMP/d.err"
check "symbols vmlinux: diff -k names the line on both sides" python3 -c '
import json, sys
r = {x["metric"]: x for x in json.load(open(sys.argv[1]))["rows"]}
k = "line.data:hm_kdata_obj+0x0.samples"
assert k in r, sorted(r)[:8]
assert r[k]["base"]["mean"] == r[k]["new"]["mean"] > 0, r[k]' "$TMP/d.json"
"$HM" diff --metrics --vmlinux "$V" "$TMP/k.data" >"$TMP/dm.json" 2>/dev/null
check "symbols vmlinux: diff --metrics --vmlinux" grep -q '"line.data:hm_kdata_obj+0x0.tot_hitm"' "$TMP/dm.json"
"$HM" diff -k "$TMP/missing" "$TMP/k.data" "$TMP/k.data" >/dev/null 2>"$TMP/dmiss.err"; rc=$?
check "symbols vmlinux: diff -k missing file exits 1 naming the option" \
	eval "[ $rc = 1 ] && grep -q -- '--vmlinux $TMP/missing: cannot open' '$TMP/dmiss.err'"
done_tests
