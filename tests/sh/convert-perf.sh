#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap convert against real perf 6.1: every output form of a file made by
# hm-gen prints the same in `perf script` as the original (file, -z, swapped,
# pipe read from a file and from a pipe, -o - into `perf script -i -`),
# perf report -D sees every sample of a -z file and perf's header shows the
# COMPRESSED feature; hitmap reads back every form (COMPRESSED2 too, which
# perf 6.1 refuses) the same as the original.  Tracepoint recordings keep
# their TRACING_DATA.  The fixtures perf 6.1 refuses (attr size 136,
# COMPRESSED2) become readable, printing what hitmap script prints of the
# original.
. tests/lib.sh

GEN=$PWD/$HITMAP_BUILD/tools/hm-gen
if [ ! -x "$HITMAP" ] || [ ! -x "$GEN" ]; then
	skip convert-perf "no $HITMAP or $GEN; build with make O=$HITMAP_BUILD tests"
	done_tests
fi

# hitmap's own reading of every form: the same samples as the original
"$GEN" -o "$TMP/in.data" -n 20000 >/dev/null
"$HITMAP" script -i "$TMP/in.data" --ns >"$TMP/in.hm" 2>/dev/null
for form in "" "--pipe" "-z" "-z 9" "-z --compressed2" "--swap" "--pipe --swap" "--pipe -z" "-z --swap --compressed2"; do
	name="hitmap reads back: convert ${form:-(plain)}"
	rm -f "$TMP/o.data"
	if ! "$HITMAP" convert -i "$TMP/in.data" -o "$TMP/o.data" $form >"$TMP/c.out" 2>&1; then
		fail "$name" "$(head -n 1 "$TMP/c.out")"
		continue
	fi
	"$HITMAP" script -i "$TMP/o.data" --ns >"$TMP/o.hm" 2>/dev/null
	if cmp -s "$TMP/in.hm" "$TMP/o.hm" && [ -s "$TMP/o.hm" ]; then pass "$name"
	else fail "$name" "$(diff "$TMP/in.hm" "$TMP/o.hm" | head -n 2 | tr '\n' ' ')"; fi
done
# -o - is pipe mode on stdout; -i - reads a pipe
"$HITMAP" convert -i "$TMP/in.data" -o - 2>/dev/null | "$HITMAP" convert -i - -o "$TMP/back.data" >/dev/null 2>&1
"$HITMAP" script -i "$TMP/back.data" --ns >"$TMP/back.hm" 2>/dev/null
check "hitmap: -o - | convert -i - round trip" cmp "$TMP/in.hm" "$TMP/back.hm"
"$HITMAP" convert -i "$TMP/in.data" -o - 2>/dev/null | head -c 8 >"$TMP/magic"
check "-o - writes the pipe header" grep -q PERFILE2 "$TMP/magic"
"$HITMAP" convert -i "$TMP/in.data" -o "$TMP/j.data" -z 3 --json >"$TMP/j.json" 2>&1
if command -v jq >/dev/null 2>&1; then
	check "--json: records, samples, compression" jq -e '.samples == 20000 and .output_form.compression == "COMPRESSED" and .output_form.level == 3 and .compressed_bytes < .raw_bytes' "$TMP/j.json"
fi
# errors: one line, non-zero, nothing left behind
"$HITMAP" convert -i "$TMP/in.data" -o "$TMP/bad.data" -z 40 >/dev/null 2>"$TMP/e1"
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <"$TMP/e1")" -eq 1 ] && [ ! -e "$TMP/bad.data" ] && pass "bad -z level refused" || fail "bad -z level refused" "rc $rc $(head -n 1 "$TMP/e1")"
head -c 3000 "$TMP/in.data" >"$TMP/trunc.data"
"$HITMAP" convert -i "$TMP/trunc.data" -o "$TMP/bad.data" >/dev/null 2>"$TMP/e2"
rc=$?
[ $rc -ne 0 ] && grep -q "^hitmap: " "$TMP/e2" && [ ! -e "$TMP/bad.data" ] && pass "truncated input refused" || fail "truncated input refused" "rc $rc $(head -n 1 "$TMP/e2")"
check "--help" "$HITMAP" convert --help
cp "$TMP/in.data" "$TMP/same.data"
"$HITMAP" convert -i "$TMP/same.data" -o "$TMP/same.data" >/dev/null 2>"$TMP/e3"
rc=$?
[ $rc -ne 0 ] && grep -q "same file" "$TMP/e3" && cmp -s "$TMP/in.data" "$TMP/same.data" && pass "same input and output refused, input intact" || fail "same input and output refused" "rc $rc $(head -n 1 "$TMP/e3")"
"$HITMAP" convert -i "$TMP/in.data" -o "$TMP/bad.data" --compressed2 >/dev/null 2>"$TMP/e4"
rc=$?
[ $rc -ne 0 ] && grep -q "needs -z" "$TMP/e4" && [ ! -e "$TMP/bad.data" ] && pass "--compressed2 without -z refused" || fail "--compressed2 without -z refused" "rc $rc $(head -n 1 "$TMP/e4")"

if ! have_perf; then
	skip convert-perf "perf not installed (apt-get install linux-perf)"
	done_tests
fi

perf script -i "$TMP/in.data" >"$TMP/in.perf" 2>/dev/null
perfcmp() {	# perfcmp NAME FILE-or-"-" [stdin]: perf script prints what it printed of the original
	local name=$1 f=$2
	if [ "$f" = - ]; then perf script -i - >"$TMP/o.perf" 2>"$TMP/o.err"
	else perf script -i "$f" >"$TMP/o.perf" 2>"$TMP/o.err"; fi
	if [ -s "$TMP/o.perf" ] && cmp -s "$TMP/in.perf" "$TMP/o.perf"; then pass "$name"
	else fail "$name" "$(head -n 1 "$TMP/o.err") $(diff "$TMP/in.perf" "$TMP/o.perf" | head -n 2 | tr '\n' ' ')"; fi
}
for form in "" "-z" "-z 19" "--swap" "-z --swap" "--pipe" "--pipe -z"; do
	"$HITMAP" convert -i "$TMP/in.data" -o "$TMP/o.data" $form >/dev/null 2>&1
	perfcmp "perf 6.1 script: convert ${form:-(plain)}" "$TMP/o.data"
done
"$HITMAP" convert -i "$TMP/in.data" -o "$TMP/p.data" --pipe >/dev/null 2>&1
perfcmp "perf 6.1 script -i - < pipe-mode file" - <"$TMP/p.data"
"$HITMAP" convert -i "$TMP/in.data" -o - 2>/dev/null | perfcmp "perf 6.1: hitmap convert -o - | perf script -i -" -
cat "$TMP/p.data" | perfcmp "perf 6.1: cat pipe-mode file | perf script -i -" -

# -z: perf report -D sees every sample inside COMPRESSED records
"$HITMAP" convert -i "$TMP/in.data" -o "$TMP/z.data" -z >/dev/null 2>&1
n=$(perf report -D -i "$TMP/z.data" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(')
check "perf 6.1 report -D: 20000 samples in the -z file (got $n)" [ "$n" -eq 20000 ]
nc=$(perf report --stats -i "$TMP/z.data" 2>/dev/null | awk '/COMPRESSED events/ { print $3 }')
check "perf 6.1 report --stats: COMPRESSED records (${nc:-none})" [ "${nc:-0}" -gt 0 ]
perf report --header-only -i "$TMP/z.data" 2>/dev/null >"$TMP/zh"
check "perf 6.1 header: compressed : Zstd, level = 1" grep -q "compressed : Zstd, level = 1" "$TMP/zh"
# swapped pipe: perf 6.1 sets evsel->needs_swap only in file mode, so it
# mis-reads the u32 pairs (pid/tid, cpu) of swapped pipe samples; the rest agrees
"$HITMAP" convert -i "$TMP/in.data" -o "$TMP/ps.data" --pipe --swap >/dev/null 2>&1
F=time,event,ip,addr,period,data_src,weight,phys_addr
perf script -i "$TMP/in.data" -F $F >"$TMP/a.perf" 2>/dev/null
perf script -i "$TMP/ps.data" -F $F >"$TMP/b.perf" 2>/dev/null
check "perf 6.1 script: pipe --swap (fields perf swaps right in pipe mode)" cmp "$TMP/a.perf" "$TMP/b.perf"
# COMPRESSED2 is perf >= 6.16: perf 6.1 refuses it, as it does perf's own
"$HITMAP" convert -i "$TMP/in.data" -o "$TMP/c2.data" -z --compressed2 >/dev/null 2>&1
perf script -i "$TMP/c2.data" >/dev/null 2>"$TMP/c2.err"
check "perf 6.1 refuses COMPRESSED2 (type 83), as expected" grep -q "type: 83" "$TMP/c2.err"

# tracepoints: TRACING_DATA passes through
if have_tracefs && perf record -q -o "$TMP/tp.data" -e sched:sched_process_exec -e sched:sched_process_exit -- sh -c 'ls >/dev/null' >/dev/null 2>&1; then
	perf script -i "$TMP/tp.data" >"$TMP/in.perf" 2>/dev/null
	for form in "" "--pipe" "-z" "--swap"; do
		"$HITMAP" convert -i "$TMP/tp.data" -o "$TMP/o.data" $form --json >"$TMP/tp.json" 2>&1
		perfcmp "tracepoints: perf 6.1 script: convert ${form:-(plain)}" "$TMP/o.data"
	done
	check "tracepoints: --json says tracing_data" grep -q '"tracing_data": true' "$TMP/tp.json"
	perf record -q -o - -e sched:sched_process_exec -- sh -c 'ls >/dev/null' 2>/dev/null >"$TMP/tpp.data"
	perf script -i "$TMP/tpp.data" >"$TMP/in.perf" 2>/dev/null
	"$HITMAP" convert -i - -o "$TMP/o.data" <"$TMP/tpp.data" >/dev/null 2>&1
	perfcmp "tracepoints: perf record -o - | convert -i - (HEADER_TRACING_DATA kept)" "$TMP/o.data"
else
	skip "tracepoints" "cannot record sched tracepoints here (tracefs or permissions)"
fi

# fixtures perf 6.1 refuses become readable
FX=$FIXTURES/linux-perf-data
if [ -d "$FX" ]; then
	FL=comm,tid,time,period,event,ip
	for f in "$FX"/*.data; do
		[ -f "$f" ] || continue
		name=$(basename "$f")
		if perf script -i "$f" >/dev/null 2>&1; then orig="perf 6.1 reads it too"; else orig="perf 6.1 refuses the original"; fi
		if ! "$HITMAP" convert -i "$f" -o "$TMP/fx.data" >"$TMP/fx.out" 2>&1; then
			fail "fixture $name: convert" "$(head -n 1 "$TMP/fx.out")"
			continue
		fi
		"$HITMAP" script --perf-compat "$(sys_perf_compat)" -i "$f" -F $FL --ns >"$TMP/fx.hm" 2>/dev/null
		perf script -i "$TMP/fx.data" -F $FL --ns -G >"$TMP/fx.perf" 2>"$TMP/fx.err"
		if [ -s "$TMP/fx.perf" ] && cmp -s "$TMP/fx.hm" "$TMP/fx.perf"; then
			pass "fixture $name ($orig): perf 6.1 script of the converted file = hitmap script of the original"
		else
			fail "fixture $name: perf 6.1 script = hitmap script" "$(head -n 1 "$TMP/fx.err") $(diff "$TMP/fx.hm" "$TMP/fx.perf" | head -n 2 | tr '\n' ' ')"
		fi
	done
else
	skip "fixtures" "no $FX (set HITMAP_FIXTURES)"
fi
done_tests
