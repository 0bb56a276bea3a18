#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap convert keeps the header: for every real fixture and every
# installed perf (6.1, 6.12, 7.3), perf report --header-only -I prints the
# same lines for the converted file as for the original, line by line:
#  - a file-mode input converted to file mode, with --swap (the other byte
#    order), and that swapped file converted back to this machine's order
#    (every section swapped by its layout and back, BPF program info too);
#  - a pipe-mode input converted with --pipe and --pipe --swap, and to file
#    mode (the same lines but for the banners and perf's "missing features"
#    line, which only file mode has).
# These differ by design, and are left out or made equal on both sides
# before the comparison, each for its reason:
#  - the file's own layout: "# captured on" (the file's time), "# data
#    offset", "# data size", "# feat offset";
#  - "size = N" of the event lines: convert writes 128-byte attrs, the size
#    perf 6.1 reads;
#  - "# compressed :" and COMPRESSED among the missing features: convert
#    compresses only with -z, and then at its own level and ratio;
#  - "id = { N }" of the event lines where the original's events have no
#    ids: the writer gives every event one (perf names events from
#    EVENT_DESC by id);
#  - --swap: "clockid = N" of the event lines: perf does not swap
#    attr.clockid (perf_event__attr_swap leaves it out) and prints the
#    swapped number;
#  - --swap: the "# bpf_prog_info" and "# btf info" lines (and their
#    sub_prog lines): perf reads neither section from a file of the other
#    byte order (the file swapped back prints them all again);
#  - a folder (perf record --threads) converted to one file: its "#
#    directory data version" line, and DIR_FORMAT among the missing
#    features of the file (a file that says DIR_FORMAT is refused);
#  - a pipe-mode input written in file mode: an empty "# hostname :" where
#    the input has no features (a file without any reads as an unfinished
#    recording), "# contains AUX area data" (the index of the AUX data a
#    file has and a pipe has not).
# Skipped, with the reason: a file perf V refuses (attr size 136 and
# COMPRESSED2 by perf 6.1, the perf 3.14 file by 7.3); the corrupt fixture
# (convert refuses it); perf.data.armv7.perf_3.14-3.8 for perf 6.1 and
# 6.12, whose perf 3.14 writer left CPUDESC empty: perf stops reading the
# header there and prints placeholders for the sections after it, where
# convert leaves the empty section out so that perf reads them (and perf
# 7.3 the file); --pipe --swap for perf 6.1 and 6.12, which do not swap the
# feature id of a HEADER_FEATURE record of the other byte order.
# Every convert also keeps every record: --json says none was dropped
# (EVENT_UPDATE and CPU_MAP records of the other byte order among them).
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip convert-header "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
need_fixtures convert-header

D=$TMP/cv
mkdir -p "$D"
inputs=("$FIXTURES"/*/*)
# a file of the newest perf, with its newest features (E_MACHINE, CLN_SIZE)
if perf_cmd 7.3 >/dev/null && perf_sh 7.3 'perf record -q -e cpu-clock -o "$1" -- sleep 0.05' "$D/perf-7.3-record.data" >/dev/null 2>&1 &&
   [ -s "$D/perf-7.3-record.data" ]; then
	inputs+=("$D/perf-7.3-record.data")
else
	skip "convert-header perf-7.3-record.data" "perf 7.3 cannot record cpu-clock here (not installed, or no permission)"
fi
# CPU_DOMAIN_INFO (perf sched stats record, which needs /proc/schedstat)
GEN=$PWD/$HITMAP_BUILD/tools/hm-feat-gen
if [ -x "$GEN" ] && "$GEN" -o "$D/feat-gen.data"; then
	inputs+=("$D/feat-gen.data")
else
	skip "convert-header feat-gen.data" "no $GEN; build with make O=$HITMAP_BUILD tests"
fi
# a folder (perf record --threads), converted to one file
if can_record && perf record -q --threads -e cpu-clock -a -o "$D/threads.data" -- sleep 0.1 >/dev/null 2>&1 &&
   [ -d "$D/threads.data" ]; then
	inputs+=("$D/threads.data")
else
	skip "convert-header threads.data" "perf cannot record --threads -a here (permissions, or no perf)"
fi
files=()
for f in "${inputs[@]}"; do
	case $f in *.md|*.txt|*.gz) continue ;; esac
	[ -e "$f" ] || continue
	b=${f##*/}
	if ! "$HITMAP" header -i "$f" >"$D/$b.hdr" 2>/dev/null; then
		skip "convert-header $b" "hitmap refuses the file (a corrupt fixture: reader tests)"
		continue
	fi
	files+=("$f")
	if grep -q '^# mode           : pipe' "$D/$b.hdr"; then
		forms="pipe pipeswap file"
	else
		forms="plain swap swap2"
	fi
	for form in $forms; do
		in=$f
		case $form in
		plain|file) args= ;;
		swap) args=--swap ;;
		swap2) args=; in=$D/$b.swap ;;	# the swapped file back in this order
		pipe) args=--pipe ;;
		pipeswap) args="--pipe --swap" ;;
		esac
		if ! "$HITMAP" convert -i "$in" -o "$D/$b.$form" $args --json >"$D/c.json" 2>"$D/c.err"; then
			fail "convert-header $b: convert $form" "$(head -n 1 "$D/c.err")"
			continue
		fi
		if command -v jq >/dev/null 2>&1; then
			n=$(jq -r .dropped "$D/c.json")
			[ "$n" = 0 ] || fail "convert-header $b: convert $form keeps every record" "$n dropped"
		fi
		files+=("$D/$b.$form")
	done
	# swapped and back: every feature section byte for byte as before
	if [ -s "$D/$b.swap2" ] && [ -s "$D/$b.plain" ]; then
		o1=$("$HITMAP" header -i "$D/$b.plain" 2>/dev/null | sed -n 's/^# feat offset *: //p')
		o2=$("$HITMAP" header -i "$D/$b.swap2" 2>/dev/null | sed -n 's/^# feat offset *: //p')
		if [ -n "$o1" ] && [ "$o1" = "$o2" ] && cmp -s <(tail -c +$((o1 + 1)) "$D/$b.plain") <(tail -c +$((o2 + 1)) "$D/$b.swap2"); then
			pass "convert-header $b: swapped and back, the feature sections are the plain convert's byte for byte"
		else
			fail "convert-header $b: swapped and back, the feature sections are the plain convert's byte for byte" "feat offset $o1 / $o2: $(cmp <(tail -c +$((o1 + 1)) "$D/$b.plain") <(tail -c +$((o2 + 1)) "$D/$b.swap2") 2>&1 | head -n 1)"
		fi
	fi
done
command -v jq >/dev/null 2>&1 && pass "convert-header: every convert of every fixture keeps every record (--json: 0 dropped)"

vers=$(oracle_perfs)
if [ -z "$vers" ]; then
	skip convert-header "no perf installed (perf 6.1, perf-6.12, perf-7.3: scripts/setup-oracles.sh)"
	done_tests
fi

# norm FILE SWAPPED NOBANNER NOIDS DIR: perf's lines without what differs by design
norm() {
	local sw=$2 nb=$3 noids=$4 dir=$5
	grep -vE '^# (captured on|data offset|data size|feat offset|compressed|directory data version) ' "$1" |
	sed -E 's/^(# event : .*), size = [0-9]+,/\1, size = N,/; s/^(# missing features: .*)COMPRESSED /\1/' |
	if [ "$dir" = 1 ]; then sed -E 's/^(# missing features: .*)DIR_FORMAT /\1/'; else cat; fi |
	if [ "$noids" = 1 ]; then sed -E 's/^(# event : name = [^,]*, ), id = \{[^}]*\}/\1/'; else cat; fi |
	if [ "$sw" = 1 ]; then
		sed -E 's/^(# event : .*), clockid = [0-9]+/\1, clockid = N/' |
		grep -vE '^# (bpf_prog_info |btf info |	sub_prog )'
	else cat; fi |
	if [ "$nb" = 1 ]; then
		grep -vE '^#( ========| missing features: .*| hostname : | contains AUX area data \(e\.g\. instruction trace\))?$'
	else cat; fi
}

KS=$(perf_ksyms)
for v in $vers; do
	o=$TMP/p$v
	perf_each "$v" "$o" "report $KS --header-only -I" "${files[@]}"
	same=0 skipped=0
	for f in "${files[@]}"; do
		case ${f##*/} in *.plain|*.swap|*.swap2|*.pipe|*.pipeswap|*.file) ;; *) continue ;; esac
		b=${f##*/}
		orig=${b%.*}
		form=${b##*.}
		tag="convert-header perf $v $orig: ${form}"
		rc=$(cat "$o/$orig.rc" 2>/dev/null || echo missing)
		if [ "$rc" != 0 ]; then
			skipped=$((skipped + 1))
			skip "$tag" "perf $v refuses the original: $(perf_crash_why "$o/$orig.err" "$rc")"
			continue
		fi
		if [ "$orig" = perf.data.armv7.perf_3.14-3.8 ]; then
			skipped=$((skipped + 1))
			skip "$tag" "the perf 3.14 writer left CPUDESC empty: perf $v stops reading the original's header there and prints placeholders for the sections after it; convert leaves the empty section out and perf reads them"
			continue
		fi
		if [ $form = pipeswap ] && { [ $v = 6.1 ] || [ $v = 6.12 ]; }; then
			skipped=$((skipped + 1))
			skip "$tag" "perf $v does not swap the feature id of a HEADER_FEATURE record of the other byte order (\"wrong feature ID\") and stops at the first; perf 7.3 reads them"
			continue
		fi
		perf_ran "$v" "$o" "$b" || continue
		sw=0 nb=0 noids=0
		case $form in swap|pipeswap) sw=1 ;; file) nb=1 ;; esac
		grep -q '^# event : name = [^,]*, , id = {' "$o/$orig.out" || noids=1
		isdir=0
		[ -d "$D/$orig" ] && isdir=1
		norm "$o/$orig.out" $sw $nb $noids $isdir >"$TMP/a"
		norm "$o/$b.out" $sw $nb $noids $isdir >"$TMP/b"
		if [ -s "$TMP/a" ] && cmp -s "$TMP/a" "$TMP/b"; then
			same=$((same + 1))
			pass "$tag: $(wc -l <"$TMP/a") lines as the original's"
		else
			fail "$tag" "$(diff "$TMP/a" "$TMP/b" | grep '^[<>]' | head -n 4 | cut -c1-160 | tr '\n' ' ')"
		fi
	done
	echo "# perf $v: $same converted files print the original's header, $skipped skipped"
	[ "$same" -gt 0 ] || fail "convert-header perf $v" "no converted file compared equal"
done
done_tests
