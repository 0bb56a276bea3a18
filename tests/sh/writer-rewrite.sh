#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Interop with real files: every fixture (perf 3.2 .. 6.16, file and pipe
# mode) read by hitmap's reader and written again as a file-mode perf.data
# by hitmap's writer (hitmap convert) prints exactly the same in `perf
# script` as the original (the perf on PATH: 6.1 on Debian 12, 7.3 in the
# Debian 13 chroot).  Files perf refuses become readable: for 6.1 (attr size
# 136, COMPRESSED2) attrs are written with size 128 and records
# decompressed, for 7.3 (a record size that is not a multiple of 8) such
# records are padded.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip writer-rewrite "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
if ! have_perf; then
	skip writer-rewrite "perf not installed (apt-get install linux-perf)"
	done_tests
fi
need_fixtures writer-rewrite

# the perf on PATH: 6.1 on Debian 12, 7.3 in the Debian 13 chroot
PV=$(perf_version)
# a short kernel symbol table for both sides of each comparison (tests/lib.sh)
KS=$(perf_ksyms)
n=0
for f in "$FIXTURES"/*/*; do
	[ -f "$f" ] || continue
	case $f in *.md|*.txt) continue ;; esac
	name=$(basename "$f")
	out=$TMP/rw.data
	rm -f "$out"
	"$HITMAP" convert -i "$f" -o "$out" --json >"$TMP/rw.out" 2>"$TMP/rw.err"
	rc=$?
	case $name in *corrupted*)
		# deliberately broken input: refused with its offset, nothing left behind
		if [ $rc -eq 1 ] && grep -q 'offset [0-9]' "$TMP/rw.err" && [ ! -e "$out" ]; then
			pass "rewrite $name: refused with the offset"
		else
			fail "rewrite $name: refused with the offset" "rc $rc: $(head -n 1 "$TMP/rw.err")"
		fi
		rm -f "$out"
		continue
	esac
	if [ $rc -ne 0 ]; then
		fail "rewrite $name" "$(head -n 1 "$TMP/rw.err")"
		continue
	fi
	n=$((n + 1))
	perf script $KS -i "$f" >"$TMP/o.s" 2>/dev/null
	orc=$?
	perf script $KS -i "$out" >"$TMP/r.s" 2>"$TMP/r.err"
	rrc=$?
	if [ $rrc -ne 0 ]; then
		fail "rewrite $name: perf script" "rc $rrc: $(grep -v -i 'unwind\|^$' "$TMP/r.err" | head -n 1)"
	elif [ $orc -eq 0 ]; then
		if cmp -s "$TMP/o.s" "$TMP/r.s"; then
			pass "rewrite $name: perf script identical ($(wc -l <"$TMP/o.s") lines)"
		elif [ "$PV" != 6.1 ] && ! has_nrcpus "$f" && cmp -s <(no_cpu "$TMP/o.s") <(no_cpu "$TMP/r.s"); then
			# (on Debian 12 the test holds the whole text to perf 6.1)
			pass "rewrite $name: perf $PV script identical but the CPU column ($(wc -l <"$TMP/o.s") lines)"
			skip "rewrite $name: perf $PV script's CPU column" "perf $PV prints the original's CPUs >= $(nproc) as [000] (a perf 3.x pipe file without HEADER_NRCPUS: it takes this machine's CPU count); perf 6.1 and 6.12 print them as recorded"
		elif same_but_evname "$PV" "$f" "$TMP/o.s" "$TMP/r.s" cpu; then
			# (tests/lib.sh's no_evname says why; on Debian 12 the test holds the whole text to perf 6.1)
			pass "rewrite $name: perf $PV script identical but the event name's modifiers ($(wc -l <"$TMP/o.s") lines)"
			skip "rewrite $name: perf $PV script's event modifiers" "$(evname_why "$PV" "$TMP/o.s" "$TMP/r.s")"
		else
			fail "rewrite $name: perf script identical" "$(diff "$TMP/o.s" "$TMP/r.s" | head -n 2 | tr '\n' ' ')"
		fi
	else
		# perf refuses the original (6.1: attr 136, COMPRESSED2; 7.3:
		# perf 4.16's 20-byte pipe CPU_MAP record): the rewritten file
		# opens and holds every sample the reader saw.
		want=$(jq .samples "$TMP/rw.out")
		# (AUX trace: the recorded samples, not the ones perf decodes from the trace)
		got=$(perf script $KS --no-itrace -F tid,time -i "$out" 2>/dev/null | wc -l)
		if [ "$got" = "$want" ]; then
			pass "rewrite $name: perf $PV now reads it ($got samples)"
		else
			fail "rewrite $name: perf $PV now reads it" "$got samples printed, $want read"
		fi
	fi
done
if [ $n -gt 0 ]; then pass "rewrote $n real files"; else fail "rewrote real files" "none rewritten"; fi

# Real Skylake PEBS samples (WEIGHT_STRUCT, DATA_SRC) written big-endian:
# perf decodes every sample field the same.
f=$FIXTURES/perf_data_converter/perf.data.weight_struct
if [ -f "$f" ]; then
	fields=ip,tid,time,addr,cpu,period,data_src,weight
	"$HITMAP" convert --swap -i "$f" -o "$TMP/be.data" >/dev/null 2>"$TMP/be.err"
	check "rewrite --swap weight_struct: 2ELIFREP" test "$(head -c 8 "$TMP/be.data")" = 2ELIFREP
	perf script $KS -F $fields -i "$f" >"$TMP/o.s" 2>/dev/null
	perf script $KS -F $fields -i "$TMP/be.data" >"$TMP/b.s" 2>/dev/null
	if [ -s "$TMP/o.s" ] && cmp -s "$TMP/o.s" "$TMP/b.s"; then
		pass "rewrite --swap weight_struct: perf script fields identical ($(wc -l <"$TMP/o.s") samples)"
	else
		fail "rewrite --swap weight_struct: perf script fields identical" "$(diff "$TMP/o.s" "$TMP/b.s" | head -n 2 | tr '\n' ' ')"
	fi
fi
done_tests
