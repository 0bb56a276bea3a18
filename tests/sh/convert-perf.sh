#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap convert against every installed perf (6.1, 6.12, 7.3): every output
# form of a file made by hm-gen prints the same in `perf script` as the
# original (file, -z, swapped, pipe read from a file and from a pipe, -o -
# into `perf script -i -`), perf report -D sees every sample of a -z file and
# perf's header shows the COMPRESSED feature; hitmap reads back every form
# (COMPRESSED2 too, which perf before 6.16 refuses) the same as the original.
# Tracepoint recordings keep their TRACING_DATA.  The fixtures perf 6.1
# refuses (attr size 136, COMPRESSED2) become readable, printing what hitmap
# script --perf-compat V prints of the original.  Each version runs its
# commands in one batch (perf_batch).
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

PERFS=$(oracle_perfs)
if [ -z "$PERFS" ]; then
	skip convert-perf "no perf installed (apt-get install linux-perf; scripts/setup-oracles.sh for 6.12 and 7.3)"
	done_tests
fi

# ---- the files, once (converted by hitmap on this side)
D=$TMP/cv
mkdir -p "$D"
FORMS="plain z z19 swap zswap pipe pipez"
formargs() { case $1 in plain) ;; z) echo -z;; z19) echo -z 19;; swap) echo --swap;; zswap) echo -z --swap;; pipe) echo --pipe;; pipez) echo --pipe -z;; esac; }
for form in $FORMS; do
	"$HITMAP" convert -i "$TMP/in.data" -o "$D/$form.data" $(formargs $form) >/dev/null 2>&1
done
"$HITMAP" convert -i "$TMP/in.data" -o - 2>/dev/null >"$D/stdout.data"
"$HITMAP" convert -i "$TMP/in.data" -o "$D/ps.data" --pipe --swap >/dev/null 2>&1
"$HITMAP" convert -i "$TMP/in.data" -o "$D/c2.data" -z --compressed2 >/dev/null 2>&1
F=time,event,ip,addr,period,data_src,weight,phys_addr
{
	echo "in - script -i $TMP/in.data"
	for form in $FORMS; do echo "f.$form - script -i $D/$form.data"; done
	echo "stdin $D/pipe.data script -i -"
	echo "catpipe |$D/pipe.data script -i -"
	echo "stdout |$D/stdout.data script -i -"
	echo "zD - report -D -i $D/z.data"
	echo "zstats - report --stats -i $D/z.data"
	echo "zh - report --header-only -i $D/z.data"
	echo "inF - script -i $TMP/in.data -F $F"
	echo "psF - script -i $D/ps.data -F $F"
	echo "ps - script -i $D/ps.data"
	echo "c2 - script -i $D/c2.data"
} >"$D/jobs"

# tracepoints: TRACING_DATA passes through (recorded once by the system's perf)
TP=0
if have_perf && have_tracefs && perf record -q -o "$D/tp.data" -e sched:sched_process_exec -e sched:sched_process_exit -- sh -c 'ls >/dev/null' >/dev/null 2>&1 &&
   perf record -q -o - -e sched:sched_process_exec -- sh -c 'ls >/dev/null' 2>/dev/null >"$D/tpp.data"; then
	TP=1
	for form in plain pipe z swap; do
		"$HITMAP" convert -i "$D/tp.data" -o "$D/tp-$form.data" $(formargs $form) --json >"$D/tp-$form.json" 2>&1
		echo "tp.$form - script -i $D/tp-$form.data" >>"$D/jobs"
	done
	"$HITMAP" convert -i - -o "$D/tpp-conv.data" <"$D/tpp.data" >/dev/null 2>&1
	echo "tp.in - script -i $D/tp.data" >>"$D/jobs"
	echo "tpp.in - script -i $D/tpp.data" >>"$D/jobs"
	echo "tpp.conv - script -i $D/tpp-conv.data" >>"$D/jobs"
	check "tracepoints: --json says tracing_data" grep -q '"tracing_data": true' "$D/tp-plain.json"
else
	skip "tracepoints" "cannot record sched tracepoints here (perf, tracefs or permissions)"
fi

# fixtures: the original and the converted file
FX=$FIXTURES/linux-perf-data
FL=comm,tid,time,period,event,ip
fxs=()
if [ -d "$FX" ]; then
	for f in "$FX"/*.data; do
		[ -f "$f" ] || continue
		name=$(basename "$f")
		if ! "$HITMAP" convert -i "$f" -o "$D/fx-$name" >"$D/fx.out" 2>&1; then
			fail "fixture $name: convert" "$(head -n 1 "$D/fx.out")"
			continue
		fi
		fxs+=("$name")
		echo "fxo.$name - script -i $f" >>"$D/jobs"
		echo "fxc.$name - script -i $D/fx-$name -F $FL --ns -G" >>"$D/jobs"
	done
else
	skip "fixtures" "no $FX (set HITMAP_FIXTURES)"
fi

# same NAME A B: perf script printed the same for runs A and B (A non-empty)
same() {
	if [ -s "$O/$2.out" ] && cmp -s "$O/$2.out" "$O/$3.out"; then pass "$1"
	else fail "$1" "$(head -n 1 "$O/$3.err") $(diff "$O/$2.out" "$O/$3.out" | head -n 2 | tr '\n' ' ')"; fi
}
for v in $PERFS; do
	P="perf $v"
	O=$TMP/v$v
	perf_batch "$v" "$O" "$D/jobs"
	perf_ran "$v" "$O" in || continue
	for form in $FORMS; do
		perf_ran "$v" "$O" "f.$form" && same "$P script: convert $(formargs $form | sed 's/^$/(plain)/')" in "f.$form"
	done
	perf_ran "$v" "$O" stdin && same "$P script -i - < pipe-mode file" in stdin
	perf_ran "$v" "$O" catpipe && same "$P: cat pipe-mode file | perf script -i -" in catpipe
	perf_ran "$v" "$O" stdout && same "$P: hitmap convert -o - | perf script -i -" in stdout
	# -z: perf report -D sees every sample inside COMPRESSED records
	if perf_ran "$v" "$O" zD; then
		n=$(grep -c 'PERF_RECORD_SAMPLE(' "$O/zD.out")
		check "$P report -D: 20000 samples in the -z file (got $n)" [ "$n" -eq 20000 ]
	fi
	if perf_ran "$v" "$O" zstats; then
		nc=$(awk '/COMPRESSED events/ { print $3 }' "$O/zstats.out")
		check "$P report --stats: COMPRESSED records (${nc:-none})" [ "${nc:-0}" -gt 0 ]
	fi
	perf_ran "$v" "$O" zh && check "$P header: compressed : Zstd, level = 1" grep -q "compressed : Zstd, level = 1" "$O/zh.out"
	# swapped pipe: perf 6.1 and 6.12 set evsel->needs_swap only in file mode,
	# so they mis-read the u32 pairs (pid/tid, cpu) of swapped pipe samples;
	# the fields they swap right agree
	if perf_ran "$v" "$O" inF && perf_ran "$v" "$O" psF && perf_ran "$v" "$O" ps; then
		check "$P script: pipe --swap (fields perf swaps right in pipe mode)" cmp "$O/inF.out" "$O/psF.out"
		if cmp -s "$O/in.out" "$O/ps.out"; then
			echo "# $P script: a swapped pipe-mode file prints whole as the original"
		else
			echo "# $P script: a swapped pipe-mode file differs from the original in the u32 pairs (pid/tid, cpu): $(diff "$O/in.out" "$O/ps.out" | sed -n 2p | cut -c1-60)"
		fi
	fi
	# COMPRESSED2 (PERF_RECORD_COMPRESSED2, type 83) is perf >= 6.16
	case $v in
	6.1|6.12) check "$P refuses COMPRESSED2 (type 83), as expected for perf before 6.16" grep -q "type: 83" "$O/c2.err";;
	*) perf_ran "$v" "$O" c2 && same "$P script: convert -z --compressed2" in c2;;
	esac
	if [ $TP = 1 ]; then
		for form in plain pipe z swap; do
			perf_ran "$v" "$O" tp.in && perf_ran "$v" "$O" "tp.$form" &&
				same "tracepoints: $P script: convert $(formargs $form | sed 's/^$/(plain)/')" tp.in "tp.$form"
		done
		perf_ran "$v" "$O" tpp.in && perf_ran "$v" "$O" tpp.conv &&
			same "tracepoints: $P: perf record -o - | convert -i - (HEADER_TRACING_DATA kept)" tpp.in tpp.conv
	fi
	for name in "${fxs[@]}"; do
		if [ "$(cat "$O/fxo.$name.rc")" = 0 ]; then orig="perf $v reads it too"; else orig="perf $v refuses the original: $(perf_crash_why "$O/fxo.$name.err" "$(cat "$O/fxo.$name.rc")")"; fi
		perf_ran "$v" "$O" "fxc.$name" || continue
		"$HITMAP" script --perf-compat "$v" -i "$FX/$name" -F $FL --ns >"$O/fx.hm" 2>/dev/null
		if [ -s "$O/fxc.$name.out" ] && cmp -s "$O/fx.hm" "$O/fxc.$name.out"; then
			pass "fixture $name ($orig): $P script of the converted file = hitmap script of the original"
		else
			fail "fixture $name: $P script = hitmap script" "$(head -n 1 "$O/fxc.$name.err") $(diff "$O/fx.hm" "$O/fxc.$name.out" | head -n 2 | tr '\n' ' ')"
		fi
	done
done
done_tests
