#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap convert over every real fixture (perf 3.2 .. 6.16, file and pipe
# mode, both byte orders, compressed): each output form reads back in
# hitmap with the same samples as the original, and where the perf on PATH
# (6.1 on Debian 12, 7.3 in the Debian 13 chroot) reads the original, `perf
# script` prints the same of the converted file (pipe, -z, swapped; the
# plain form: writer-rewrite).
# AUX trace recordings (Intel PT) keep their AUX data: perf decodes the same
# trace from every file-mode output.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip convert-fixtures "no $HITMAP; build with make O=$HITMAP_BUILD tests"
	done_tests
fi
need_fixtures convert-fixtures
perf_ok=0
have_perf && perf_ok=1
[ $perf_ok = 1 ] || skip "convert-fixtures: perf side" "perf not installed (apt-get install linux-perf)"
# the perf on PATH: 6.1 on Debian 12, 7.3 in the Debian 13 chroot
PV=$(perf_version)
SPC=$(sys_perf_compat)
# a short kernel symbol table: both sides of each comparison print through
# it (tests/lib.sh), at a third of the cost per perf run
KS=$(perf_ksyms)
# evname_noted: once a file, a SKIP line saying which modifiers of the
# event's name were not compared (no_evname) and why
evname_noted() {
	[ "$name_noted" = 1 ] && return
	skip "$name: convert, the event name's modifiers as perf $SPC prints them" \
		"$(evname_why "$SPC" "$TMP/in.hm" "$TMP/o.hm")"
	name_noted=1
}

for f in "$FIXTURES"/*/*; do
	[ -f "$f" ] || continue
	case $f in *.md|*.txt) continue ;; esac
	name=$(basename "$f")
	aux=0
	case $name in *intel_pt*) aux=1 ;; esac
	# names as the perf on PATH gives them: a pipe EVENT_DESC sent before its
	# event's attr (perf 4.14) names the event in the converted file, where
	# perf 6.12 and 7.3 made a name from the attr of the original ("cycles:H"
	# in 7.3); 6.1 names both by the EVENT_DESC
	"$HITMAP" script --perf-compat "$SPC" -i "$f" --ns >"$TMP/in.hm" 2>/dev/null || continue	# corrupt ones: reader tests
	cpu_noted=0
	name_noted=0
	p=0
	[ $perf_ok = 1 ] && perf script $KS -i "$f" >"$TMP/in.perf" 2>/dev/null && p=1
	for form in "" "--pipe" "-z" "--swap" "--pipe --swap -z --compressed2"; do
		tag="$name: convert ${form:-(plain)}"
		rm -f "$TMP/o.data"
		if ! "$HITMAP" convert -i "$f" -o "$TMP/o.data" $form >"$TMP/c" 2>&1; then
			fail "$tag" "$(head -n 1 "$TMP/c")"
			continue
		fi
		"$HITMAP" script --perf-compat "$SPC" -i "$TMP/o.data" --ns >"$TMP/o.hm" 2>/dev/null
		if cmp -s "$TMP/in.hm" "$TMP/o.hm"; then pass "$tag: hitmap reads the same samples"
		elif same_but_evname "$SPC" "$f" "$TMP/in.hm" "$TMP/o.hm"; then
			pass "$tag: hitmap reads the same samples but the event name's modifiers"
			evname_noted
		else fail "$tag: hitmap reads the same samples" "$(diff "$TMP/in.hm" "$TMP/o.hm" | head -n 2 | tr '\n' ' ')"; fi
		# perf 6.1 mis-reads swapped pipe mode (needs_swap only set in file mode)
		# and knows no COMPRESSED2
		case $form in *--compressed2*) continue ;; esac
		# the plain form is what writer-rewrite converts and holds to the
		# same perf script of the original: not a second time here
		[ -n "$form" ] || continue
		# perf refuses Intel PT in pipe mode ("Intel PT with pipe mode is not recommended")
		case $aux$form in 1*--pipe*) continue ;; esac
		[ $p = 1 ] || continue
		perf script $KS -i "$TMP/o.data" >"$TMP/o.perf" 2>"$TMP/o.err"
		if cmp -s "$TMP/in.perf" "$TMP/o.perf"; then pass "$tag: perf $PV script prints the same"
		elif [ "$PV" != 6.1 ] && ! has_nrcpus "$f" && cmp -s <(no_cpu "$TMP/in.perf") <(no_cpu "$TMP/o.perf"); then
			# perf 7.3 bounds a sample's CPU by HEADER_NRCPUS, and by
			# this machine's CPU count where the file has none: it prints
			# CPUs past that as 000 in the original (perf 6.1 and 6.12
			# print them as recorded; on Debian 12 the test holds the
			# outputs to perf 6.1 whole)
			pass "$tag: perf $PV script prints the same but the CPU column"
			[ $cpu_noted = 1 ] || skip "$name: convert, perf $PV script's CPU column" \
				"perf $PV prints the original's CPUs >= $(nproc) as [000] (a pipe file of perf 3.x without HEADER_NRCPUS: it takes this machine's CPU count); perf 6.1 and 6.12 print them as recorded"
			cpu_noted=1
		elif same_but_evname "$PV" "$f" "$TMP/in.perf" "$TMP/o.perf" cpu; then
			pass "$tag: perf $PV script prints the same but the event name's modifiers"
			evname_noted
		else fail "$tag: perf $PV script prints the same" "$(grep -v -i 'unwind\|kallsyms\|^$' "$TMP/o.err" | head -n 1) $(diff "$TMP/in.perf" "$TMP/o.perf" | head -n 2 | tr '\n' ' ')"; fi
	done
done
done_tests
