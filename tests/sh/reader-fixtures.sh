#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every real perf.data under the fixtures folder is read to its end (or
# refused with a stated reason); where the perf on PATH (6.1 on Debian 12,
# 7.3 in the Debian 13 chroot) reads the file, hitmap script prints the same
# pid/tid/time/ip as perf script and hitmap stat --perf-compat V prints
# what perf V report --stats prints, byte for byte (tests/sh/stat-perf.sh
# holds it to every installed perf).
. tests/lib.sh

need_fixtures reader-fixtures

# files hitmap refuses, with the reason and what the message must say
declare -A refuse=(
	[perf.data.piped.corrupted.zero_size_sample-3.2]="offset 49104: record size 0"
)
PV=$(perf_version)
# a short kernel symbol table (tests/lib.sh): what perf prints here holds no
# kernel symbol, and it loads in a third of the time
KS=$(perf_ksyms)

# hitmap stat: perf's lines, without the "hitmap:" block that follows them
perf_part() { sed '/^hitmap:$/,$d' "$1"; }
PC=$(sys_perf_compat)
n=0
for f in "$FIXTURES"/*/*; do
	case $f in *.md|*.txt|*.gz) continue ;; esac
	b=$(basename "$f")
	n=$((n + 1))
	"$HITMAP" stat --perf-compat "$PC" -i "$f" >"$TMP/h.stat" 2>"$TMP/h.err"
	rc=$?
	if [ -n "${refuse[$b]:-}" ]; then
		if [ $rc -ne 0 ] && grep -q "^hitmap: .*${refuse[$b]}" "$TMP/h.err"; then
			pass "reader-fixtures.$b.refused ($(head -c 160 "$TMP/h.err"))"
		else
			fail "reader-fixtures.$b.refused" "rc $rc, message '$(head -c 200 "$TMP/h.err")'"
		fi
		continue
	fi
	if [ $rc -ne 0 ]; then
		fail "reader-fixtures.$b.read" "rc $rc: $(head -c 300 "$TMP/h.err")"
		continue
	fi
	pass "reader-fixtures.$b.read"
	# perf 6.1 as the oracle, where it can read the file
	if ! perf report $KS --stats -i "$f" >"$TMP/p.stat" 2>/dev/null || ! grep -q 'TOTAL events' "$TMP/p.stat"; then
		# perf refuses (attr size 136, COMPRESSED2, ...): hitmap must still see samples
		ns=$(sed -n 's/^ *SAMPLE events: *\([0-9]*\).*/\1/p' "$TMP/h.stat" | head -1)
		if [ "${ns:-0}" -gt 0 ]; then
			pass "reader-fixtures.$b.perf_refuses_hitmap_reads ($ns samples)"
		else
			fail "reader-fixtures.$b.perf_refuses_hitmap_reads" "no samples read"
		fi
		continue
	fi
	if cmp -s "$TMP/p.stat" <(perf_part "$TMP/h.stat"); then
		pass "reader-fixtures.$b.stats (= perf $PV)"
	else
		fail "reader-fixtures.$b.stats (= perf $PV)" "$(diff "$TMP/p.stat" <(perf_part "$TMP/h.stat") | grep '^[<>]' | head -3 | tr '\n' ' ')"
	fi
	# AUX trace (Intel PT): the recorded samples, not the ones perf decodes
	# from the trace (hitmap does not decode AUX payloads)
	itr=
	case $b in *intel_pt*) itr=--no-itrace ;; esac
	fl=
	for try in pid,tid,time,ip tid,time,ip tid,ip; do
		if perf script $KS $itr -i "$f" -F $try --ns -G >"$TMP/p.txt" 2>"$TMP/p.err" && [ -s "$TMP/p.txt" ]; then
			fl=$try
			break
		fi
	done
	if [ -z "$fl" ]; then
		[ -n "$itr" ] && skip "reader-fixtures.$b.script" "perf $PV prints no recorded samples of this pipe-mode AUX trace file with --no-itrace ($(grep -v '^ \|^$\|WARNING' "$TMP/p.err" | head -n 1 | cut -c1-80)): no recorded samples to hold hitmap's to"
		continue
	fi
	"$HITMAP" script --perf-compat "$(sys_perf_compat)" -G -i "$f" -F $fl --ns >"$TMP/h.txt" 2>"$TMP/h.err"
	if cmp -s "$TMP/p.txt" "$TMP/h.txt"; then
		pass "reader-fixtures.$b.script ($(wc -l <"$TMP/h.txt") samples, $fl${itr:+, $itr})"
	else
		fail "reader-fixtures.$b.script" "$(diff "$TMP/p.txt" "$TMP/h.txt" | head -3 | tr '\n' ' ')"
	fi
done
[ $n -gt 0 ] || fail reader-fixtures.found "no files in $FIXTURES"

# attr size 136 (perf >= 6.3) and COMPRESSED2 (perf 6.16): perf 6.1 refuses them
L=$FIXTURES/linux-perf-data
if [ -f "$L/sleep.compressed2.data" ]; then
	"$HITMAP" header -i "$L/sleep.compressed2.data" --json >"$TMP/c2.json" 2>&1
	check reader-fixtures.attr136 jq -e '.events[0].attr_size == 136' "$TMP/c2.json"
	"$HITMAP" stat -i "$L/sleep.compressed2.data" >"$TMP/c2.stat" 2>&1
	check reader-fixtures.compressed2.file grep -q 'COMPRESSED2 events' "$TMP/c2.stat"
	"$HITMAP" stat -i "$L/fibo.compressed2.pipe.data" >"$TMP/f2.stat" 2>&1
	check reader-fixtures.compressed2.straddling grep -q 'SAMPLE events:        547' "$TMP/f2.stat"
	# two runs of 'perf record -z ... sleep 1', file and pipe mode: 8 samples each
	a=$("$HITMAP" script -i "$L/sleep.compressed.data" -F tid,time,ip --ns | wc -l)
	c=$("$HITMAP" script -i "$L/sleep.compressed.pipe.data" -F tid,time,ip --ns | wc -l)
	check reader-fixtures.compressed.file_and_pipe test "$a" = 8 -a "$c" = 8
	# text appended to a pipe stream (perf's stderr) is reported, not fatal
	"$HITMAP" stat -i "$L/sleep.compressed2.pipe.data" >/dev/null 2>"$TMP/t.err"
	check reader-fixtures.trailing_text grep -q 'offset 31808: the stream ends with .* bytes of text' "$TMP/t.err"
	# said once by the views that read the file twice (futex-table inference first, details after)
	for v in "--by bucket" "--html $TMP/t.html" "--stdio"; do
		# shellcheck disable=SC2086
		"$HITMAP" report -i "$L/sleep.compressed2.pipe.data" $v >/dev/null 2>"$TMP/t.err"
		check "reader-fixtures.trailing_text once: report ${v%% *}" test "$(grep -c 'the stream ends with' "$TMP/t.err")" = 1
	done
fi
# header lines hitmap prints in perf's words agree with perf report --header-only -I
declare -A hdr_differ=(
	[perf.data.armv7.perf_3.14-3.8]="perf prints placeholders ('(null)', '0 kB') for features the file lacks; hitmap omits them"
	[perf.data.weight_struct]="perf 6.1 prints no per-CPU core/socket lines for this file; hitmap prints the ids the section holds"
)
pat='^# (hostname|os release|perf version|arch|nrcpus online|nrcpus avail|cpudesc|cpuid|total memory|cmdline|sibling sockets|sibling dies|sibling threads|CPU [0-9]+:|node[0-9]+ meminfo|node[0-9]+ cpu list|pmu mappings)'
same=0 differ_ok=0 bad=0
for f in "$FIXTURES"/*/*; do
	case $f in *.md|*.txt|*.gz) continue ;; esac
	b=$(basename "$f")
	perf report $KS --header-only -I -i "$f" 2>/dev/null | grep -E "$pat" >"$TMP/ph.txt"
	[ -s "$TMP/ph.txt" ] || continue
	"$HITMAP" header -i "$f" 2>/dev/null | grep -E "$pat" >"$TMP/hh.txt"
	if cmp -s "$TMP/ph.txt" "$TMP/hh.txt"; then same=$((same + 1))
	elif [ -n "${hdr_differ[$b]:-}" ]; then differ_ok=$((differ_ok + 1))
	else
		bad=$((bad + 1))
		echo "# header differs for $b: $(diff "$TMP/ph.txt" "$TMP/hh.txt" | head -3 | tr '\n' ' ')"
	fi
done
if [ $bad -eq 0 ] && [ $same -gt 0 ]; then
	pass "reader-fixtures.header_lines ($same files identical, $differ_ok with stated differences)"
else
	fail reader-fixtures.header_lines "$bad files differ from perf report --header-only"
fi

# --json of all three commands parses, on every file; on the refused one a
# command prints JSON or nothing, and exits 1 with the error
bad=0 nref=0
for f in "$FIXTURES"/*/*; do
	case $f in *.md|*.txt|*.gz) continue ;; esac
	for c in script stat header; do
		"$HITMAP" $c --json -i "$f" >"$TMP/j.json" 2>"$TMP/j.err"
		rc=$?
		if [ $rc -eq 0 ] && json_valid "$TMP/j.json"; then continue; fi
		if [ $rc -eq 1 ] && grep -q '^hitmap: .*offset' "$TMP/j.err" &&
		   { [ ! -s "$TMP/j.json" ] || json_valid "$TMP/j.json"; }; then
			nref=$((nref + 1))
			continue
		fi
		bad=$((bad + 1))
		why="$c $(basename "$f") (exit $rc, $(wc -c <"$TMP/j.json") bytes: $(head -n 1 "$TMP/j.err" | cut -c1-80))"
		echo "# bad JSON: $why"
		[ $bad -eq 1 ] && first=$why
	done
done
if [ $bad -eq 0 ]; then pass "reader-fixtures.json_valid ($nref refusals with an error and no broken JSON)"
else fail reader-fixtures.json_valid "$bad outputs, the first: $first"; fi

# WEIGHT_STRUCT memory samples: perf mem report says 14 samples, total weight 1725
W=$FIXTURES/perf_data_converter/perf.data.weight_struct
if [ -f "$W" ]; then
	got=$("$HITMAP" script -i "$W" --json | jq '[.[] | select(.data_src != null)] | "\(length) \(map(.weight) | add)"' -r)
	check reader-fixtures.weight_struct.total_weight test "$got" = "14 1725"
	# addr, data_src (hex and decoded), weight: the same bytes as perf script
	FL=tid,cpu,time,addr,data_src,weight,ip
	perf script $KS -i "$W" -F $FL --ns >"$TMP/w.perf" 2>/dev/null
	"$HITMAP" script --perf-compat "$(sys_perf_compat)" -i "$W" -F $FL --ns >"$TMP/w.hm" 2>&1
	check reader-fixtures.weight_struct.mem_fields cmp "$TMP/w.perf" "$TMP/w.hm"
fi
# PERFFILE v1 (perf < 3.x) is refused clearly; make one from a real header
if [ -f "$FIXTURES/perf_data_converter/perf.data.singleprocess-3.4" ]; then
	{ printf 'PERFFILE'; tail -c +9 "$FIXTURES/perf_data_converter/perf.data.singleprocess-3.4"; } >"$TMP/v1.data"
	"$HITMAP" stat -i "$TMP/v1.data" >/dev/null 2>"$TMP/v1.err"
	rc=$?
	if [ $rc -ne 0 ] && grep -q 'unsupported' "$TMP/v1.err"; then pass reader-fixtures.v1_refused
	else fail reader-fixtures.v1_refused "rc $rc: $(cat "$TMP/v1.err")"; fi
fi
done_tests
