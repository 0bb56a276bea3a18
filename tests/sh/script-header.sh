#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap script --header, --header-only and -I against perf V script, byte
# for byte, on every real fixture and on files recorded here (file and pipe
# mode), for every installed perf (6.1, 6.12, 7.3).  perf script --header
# prints what perf report --header-only prints (hitmap header), without -I
# unless given: the features perf prints only in full (CPU_TOPOLOGY,
# NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY, HYBRID_TOPOLOGY, 7.3's
# CPU_DOMAIN_INFO) say "# X info available, use -I to display"; hitmap
# header's own lines ("# mode", "# features:" ...) are not printed.  In pipe
# mode the features come as records: perf prints each as it comes (with
# --header or -I), --header-only stops after the opening lines.
#
# The difference excused, with its reason:
#  - perf.data.piped.corrupted.zero_size_sample-3.2: perf prints the banner
#    and stops at the corrupt record; hitmap refuses the file.
# The BPF programs ("# bpf_prog_info ID: NAME ..." and its "sub_prog"
# lines) are compared too (as hitmap header; tests/sh/header-bpf.sh).
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip script-header "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
vers=$(oracle_perfs)
if [ -z "$vers" ]; then
	skip script-header "no perf installed (perf 6.1, perf-6.12, perf-7.3: scripts/setup-oracles.sh)"
	done_tests
fi
declare -A whole_file=(
	[perf.data.piped.corrupted.zero_size_sample-3.2]="perf prints the banner and stops at the corrupt record; hitmap refuses the file"
)

files=()
if [ -d "$FIXTURES" ]; then
	for f in "$FIXTURES"/*/*; do
		case $f in *.md|*.txt|*.gz) continue ;; esac
		[ -f "$f" ] && files+=("$f")
	done
else
	skip script-header.fixtures "no fixtures at $FIXTURES (set HITMAP_FIXTURES)"
fi
# recorded here: a file and the same run in pipe mode (perf record -o -)
rec=()
if can_record; then
	perf record -q -e cpu-clock -o "$TMP/rec.data" -- ls -lR /usr/share/doc/bash >/dev/null 2>&1 &&
		rec+=("$TMP/rec.data")
	perf record -q -e cpu-clock -o - -- ls -lR /usr/share/doc/bash 2>/dev/null >"$TMP/rec.pipe.data" &&
		rec+=("$TMP/rec.pipe.data")
else
	skip script-header.record "perf cannot record here (perf record -e cpu-clock failed: perf_event_paranoid or no perf_event_open)"
fi
files+=("${rec[@]}")
if [ ${#files[@]} -eq 0 ]; then
	skip script-header "no fixtures and nothing recorded: no file to compare"
	done_tests
fi

# cmp_one V NAME OUT PERFOUT HITMAP-ARGS...: hitmap's output against perf's
cmp_one() {
	local v=$1 n=$2 po=$3 b; shift 3
	b=${n%% *}
	"$HITMAP" script --perf-compat "$v" "$@" >"$TMP/h.txt" 2>"$TMP/h.err"
	cp "$po" "$TMP/p.txt"
	if cmp -s "$TMP/p.txt" "$TMP/h.txt"; then
		pass "script-header $v $n: $(wc -l <"$TMP/p.txt") lines as perf $v prints them"
		return 0
	elif [ -n "${whole_file[$b]:-}" ]; then
		skip "script-header $v $n" "${whole_file[$b]}"
	else
		fail "script-header $v $n" "$(diff "$TMP/p.txt" "$TMP/h.txt" | grep '^[<>]' | head -n 4 | cut -c1-160 | tr '\n' ' ')"
	fi
	return 1
}

for v in $vers; do
	for mode in "--header-only" "--header-only -I"; do
		o=$TMP/p$v${mode// /}
		perf_each "$v" "$o" "script $mode" "${files[@]}"
		same=0
		for f in "${files[@]}"; do
			b=${f##*/}
			rc=$(cat "$o/$b.rc" 2>/dev/null || echo missing)
			if [ "$rc" != 0 ] && [ -z "${whole_file[$b]:-}" ]; then
				skip "script-header $v $b $mode" "perf $v refuses the file: $(perf_crash_why "$o/$b.err" "$rc")"
				continue
			fi
			# shellcheck disable=SC2086  # the options split on purpose
			cmp_one "$v" "$b $mode" "$o/$b.out" $mode -i "$f" && same=$((same + 1))
		done
		echo "# perf $v script $mode: $same files byte for byte"
		[ "$same" -gt 0 ] || fail "script-header $v $mode" "no file compared equal"
	done
	# the header before the samples; -I in pipe mode prints the features
	# without --header too.  Fields without symbols: perf 7.3 reads its
	# own root's libraries, not this machine's, for a pipe without build-ids
	for f in "${rec[@]}"; do
		b=${f##*/}
		for a in "--header" "--header -I" "-I"; do
			o=$TMP/q$v${a// /}
			perf_each "$v" "$o" "script $a -F comm,tid,time,event" "$f"
			if [ "$(cat "$o/$b.rc")" != 0 ]; then
				fail "script-header $v $b $a" "perf $v script failed: $(perf_crash_why "$o/$b.err" "$(cat "$o/$b.rc")")"
				continue
			fi
			# shellcheck disable=SC2086
			cmp_one "$v" "$b $a -F comm,tid,time,event" "$o/$b.out" $a -F comm,tid,time,event -i "$f"
		done
		# the stream on stdin: "captured on" is stdin's time
		[ "$b" = rec.pipe.data ] || continue
		perf_sh "$v" 'perf script --header -F comm,tid,time,event -i - <"$1"' "$f" >"$TMP/stdin.out" 2>/dev/null
		"$HITMAP" script --perf-compat "$v" --header -F comm,tid,time,event -i - <"$f" >"$TMP/h.txt" 2>&1
		if cmp -s "$TMP/stdin.out" "$TMP/h.txt"; then
			pass "script-header $v $b --header -i - <FILE: as perf $v prints it"
		else
			fail "script-header $v $b --header -i - <FILE" "$(diff "$TMP/stdin.out" "$TMP/h.txt" | grep '^[<>]' | head -n 4 | cut -c1-160 | tr '\n' ' ')"
		fi
	done
done
# hitmap header still prints the -I form and its own lines
if [ ${#rec[@]} -gt 0 ]; then
	"$HITMAP" header -i "${rec[0]}" >"$TMP/hh.txt" 2>&1
	if grep -q '^# features:' "$TMP/hh.txt" && ! grep -q 'use -I to display' "$TMP/hh.txt"; then
		pass "script-header: hitmap header keeps perf report --header-only -I's lines and its own"
	else
		fail "script-header: hitmap header" "$(head -n 3 "$TMP/hh.txt" | tr '\n' ' ')"
	fi
fi
done_tests
