#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap convert keeps Arm SPE AUX data: files with SPE AUX trace (the
# simulator's Arm preset; generated files with metadata v1 and v2, more than
# one AUX buffer per CPU, zstd, the other byte order, pipe mode) converted to
# every output form (file, pipe, zstd COMPRESSED and COMPRESSED2, swapped)
# decode to the same samples before and after: in hitmap (`script`,
# `report --stats`), and in real perf 7.3, the perf here with the SPE
# decoder (`perf script --itrace=M`; `perf c2c report --stats` on the
# file-mode outputs, since perf c2c reads no pipes).  A pipe output written
# back to a file carries the AUX data byte for byte (same counts and bytes).
. tests/lib.sh
GEN=${HITMAP_BUILD}/tools/hm-spe-gen
[ -x "$HITMAP" ] && [ -x "$GEN" ] || { skip spe-convert "no $HITMAP or $GEN; build with make tests"; done_tests; }
P73=
if need_perf 7.3 "spe-convert: perf 7.3 side"; then P73=1; fi

fields="pid,tid,cpu,time,addr,data_src,ip"
script_h() { "$HITMAP" script -F $fields -i "$1" 2>/dev/null | awk '{print $1,$2,$3,$4,$5,$NF}' | sort; }
stats_h() { "$HITMAP" report --stats --perf-compat 7.3 -i "$1" 2>/dev/null | sed -n '/Trace Event/,/Total Merged/p'; }
aux_of() { "$HITMAP" convert -i "$1" -o "$TMP/aux-count.data" --json 2>/dev/null | jq -r '"\(.aux_records) \(.aux_bytes)"'; }

# name:how the source is made
sources=(
	"sim-altra:sim"
	"gen-v2:--seed 1 --records 1500 --meta 2"
	"gen-v1-swapped-zstd:--seed 2 --records 1500 --meta 1 --swap --zstd"
	"gen-pipe:--seed 3 --records 1500 --meta 2 --pipe --buf-size 1000000"
)
forms=("file:" "pipe:--pipe" "zstd:-z" "swap:--swap" "zstd2:-z 3 --compressed2" "pipe-swap-zstd:--pipe --swap -z")

for s in "${sources[@]}"; do
	src=${s%%:*} how=${s#*:}
	d=$TMP/$src
	mkdir -p "$d"
	if [ "$how" = sim ]; then
		"$HITMAP" simulate --preset altra --sockets 2 --cores 8 --seed 7 --ops 200000 \
			-o "$d/in.data" >/dev/null 2>"$d/gen.err"
	else
		# shellcheck disable=SC2086
		"$GEN" $how -o "$d/in.data" 2>"$d/gen.err"
	fi || { fail "spe-convert $src: source" "$(head -c 200 "$d/gen.err")"; continue; }
	in_pipe=0
	case $how in *--pipe*) in_pipe=1;; esac
	script_h "$d/in.data" >"$d/in.hm"
	stats_h "$d/in.data" >"$d/in.hmstats"
	n=$(wc -l <"$d/in.hm")
	[ "$n" -gt 200 ] || { fail "spe-convert $src: source decodes" "only $n samples"; continue; }
	read -r aux_n aux_b <<<"$(aux_of "$d/in.data")"
	[ "${aux_n:-0}" -gt 0 ] || { fail "spe-convert $src: source has AUX data" "aux_records ${aux_n:-none}"; continue; }
	perf_list=
	[ $in_pipe = 1 ] || perf_list="in.data:c2c"
	perf_list="$perf_list in.data:script"
	for f in "${forms[@]}"; do
		form=${f%%:*} opts=${f#*:}
		out=$d/$form.data
		tag="spe-convert $src -> $form"
		# shellcheck disable=SC2086
		if ! "$HITMAP" convert -i "$d/in.data" -o "$out" $opts --json >"$d/$form.json" 2>"$d/$form.err"; then
			fail "$tag" "$(head -n 1 "$d/$form.err")"
			continue
		fi
		got=$(jq -r '"\(.aux_records) \(.aux_bytes)"' "$d/$form.json")
		if [ "$got" = "$aux_n $aux_b" ] && [ "$(aux_of "$out")" = "$aux_n $aux_b" ]; then
			pass "$tag: $aux_n AUX records, $aux_b bytes of AUX data kept"
		else
			fail "$tag: AUX data kept" "source $aux_n $aux_b, written $got, read back $(aux_of "$out")"
		fi
		if cmp -s "$d/in.hm" <(script_h "$out"); then pass "$tag: hitmap script same ($n samples)"
		else fail "$tag: hitmap script same" "$(diff "$d/in.hm" <(script_h "$out") | head -n 3 | tr '\n' ' ')"; fi
		if cmp -s "$d/in.hmstats" <(stats_h "$out"); then pass "$tag: hitmap report --stats same"
		else fail "$tag: hitmap report --stats same" "$(diff "$d/in.hmstats" <(stats_h "$out") | head -n 3 | tr '\n' ' ')"; fi
		perf_list="$perf_list $form.data:script"
		case $opts in *--pipe*) ;; *) perf_list="$perf_list $form.data:c2c";; esac
	done
	# pipe output back to a file: the AUX data made the round trip byte for byte
	if "$HITMAP" convert -i "$d/pipe.data" -o "$d/back.data" >/dev/null 2>&1 &&
		[ "$(aux_of "$d/back.data")" = "$aux_n $aux_b" ] && cmp -s "$d/in.hm" <(script_h "$d/back.data"); then
		pass "spe-convert $src: pipe output back to a file keeps every AUX byte and sample"
		perf_list="$perf_list back.data:c2c back.data:script"
	else
		fail "spe-convert $src: pipe output back to a file" "AUX records/bytes or samples differ"
	fi
	[ -n "$P73" ] || continue
	# one entry into perf 7.3 for all of this source's files
	perf_sh 7.3 'cd "$1"; shift; for j in "$@"; do f=${j%%:*}; k=${j#*:}
		if [ "$k" = c2c ]; then perf c2c report --stats -i "$f" >"$f.p-c2c" 2>/dev/null
		else perf script --itrace=M -F '"$fields"' -i "$f" >"$f.p-script" 2>/dev/null; fi; done' \
		"$d" $perf_list
	awk '{print $1,$2,$3,$4,$5,$NF}' "$d/in.data.p-script" | sort >"$d/ref.script"
	ps=$(wc -l <"$d/ref.script")
	if [ "$ps" -gt 200 ] && cmp -s "$d/ref.script" "$d/in.hm"; then
		pass "spe-convert $src: perf 7.3 script of the source = hitmap ($ps samples)"
	else
		fail "spe-convert $src: perf 7.3 script of the source = hitmap" "perf $ps, hitmap $n samples"
	fi
	# perf c2c's reference: the source, or (pipe source) the plain file output,
	# itself held to hitmap's stats of the source
	ref=in.data
	[ $in_pipe = 1 ] && ref=file.data
	sed -n '/Trace Event/,/Total Merged/p' "$d/$ref.p-c2c" >"$d/ref.c2c"
	if [ "$(wc -l <"$d/ref.c2c")" -gt 20 ] && cmp -s "$d/ref.c2c" "$d/in.hmstats"; then
		pass "spe-convert $src: perf 7.3 c2c --stats of $ref = hitmap's of the source"
	else
		fail "spe-convert $src: perf 7.3 c2c --stats of $ref = hitmap's of the source" \
			"$(diff "$d/ref.c2c" "$d/in.hmstats" | head -n 3 | tr '\n' ' ')"
	fi
	for j in $perf_list; do
		f=${j%%:*} k=${j#*:}
		[ "$f" = in.data ] && continue
		tag="spe-convert $src -> ${f%.data}: perf 7.3 $k"
		if [ "$k" = script ]; then
			if cmp -s "$d/ref.script" <(awk '{print $1,$2,$3,$4,$5,$NF}' "$d/$f.p-script" | sort); then
				pass "$tag same samples"
			else
				fail "$tag same samples" "$(diff "$d/ref.script" <(awk '{print $1,$2,$3,$4,$5,$NF}' "$d/$f.p-script" | sort) | head -n 3 | tr '\n' ' ')"
			fi
		else
			if cmp -s "$d/ref.c2c" <(sed -n '/Trace Event/,/Total Merged/p' "$d/$f.p-c2c"); then
				pass "$tag --stats same"
			else
				fail "$tag --stats same" "$(diff "$d/ref.c2c" <(sed -n '/Trace Event/,/Total Merged/p' "$d/$f.p-c2c") | head -n 3 | tr '\n' ' ')"
			fi
		fi
	done
done
done_tests
