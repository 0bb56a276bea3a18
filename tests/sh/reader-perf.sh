#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Record real files with real perf, then check that hitmap script prints the
# same fields as perf script (byte for byte, same field list) and that hitmap
# stat counts what perf report --stats counts.
. tests/lib.sh

if ! can_record; then
	skip reader-perf "perf cannot record a software event on this machine"
	done_tests
fi
W="perf bench futex hash -r 1 -t 2"
PERFS=$(oracle_perfs)
[ -n "$PERFS" ] || PERFS=6.1

# same_script NAME FILE FIELDS [perf options]: hitmap and every installed perf
# print the same bytes (hitmap script --perf-compat V against perf V script)
same_script() {
	local n=$1 f=$2 fl=$3 v rc; shift 3
	for v in $PERFS; do
		perfv "$v" script -i "$f" -F "$fl" --ns "$@" >"$TMP/$n.perf" 2>"$TMP/$n.perf.err"
		rc=$?
		"$HITMAP" script -i "$f" -F "$fl" --ns --perf-compat "$v" >"$TMP/$n.hm" 2>"$TMP/$n.hm.err"
		local hrc=$?
		if [ $hrc -ne 0 ]; then
			fail "reader-perf.$n.script (perf $v)" "hitmap script exited $hrc: $(head -c 300 "$TMP/$n.hm.err")"
		elif [ ! -s "$TMP/$n.perf" ]; then
			fail "reader-perf.$n.script (perf $v)" "perf $v script printed nothing ($(perf_crash_why "$TMP/$n.perf.err" $rc))"
		elif cmp -s "$TMP/$n.perf" "$TMP/$n.hm"; then
			pass "reader-perf.$n.script = perf $v script ($(wc -l <"$TMP/$n.hm") samples, fields $fl)"
		else
			fail "reader-perf.$n.script (perf $v)" "differs from perf $v script: $(diff "$TMP/$n.perf" "$TMP/$n.hm" | head -4 | tr '\n' ' ')"
		fi
	done
	# the 6.1 output stays in $TMP/$n.perf for the checks below
	perfv "${PERFS%% *}" script -i "$f" -F "$fl" --ns "$@" >"$TMP/$n.perf" 2>/dev/null
}

# same_stats NAME FILE: the 'events:' lines agree with perf 6.1 report --stats
# (newer perf lists more record types there; hitmap stat prints 6.1's list;
# perf 6.12+ right-aligns the names at 20 columns, 6.1 and hitmap at 16:
# blanks are squeezed)
same_stats() {
	local n=$1 f=$2
	perf report --stats -i "$f" 2>/dev/null | grep 'events:' | tr -s ' ' >"$TMP/$n.pstat"
	"$HITMAP" stat -i "$f" 2>&1 | grep 'events:' | tr -s ' ' >"$TMP/$n.hstat"
	if [ -s "$TMP/$n.pstat" ] && cmp -s "$TMP/$n.pstat" "$TMP/$n.hstat"; then
		pass "reader-perf.$n.stats ($(grep -m1 TOTAL "$TMP/$n.hstat" | tr -s ' '))"
	else
		fail "reader-perf.$n.stats" "$(diff "$TMP/$n.pstat" "$TMP/$n.hstat" | head -4 | tr '\n' ' ')"
	fi
}

# 1. memory-ish sample fields: addr, data_src, phys_addr, data page size
if perf record -q --sample-cpu -e cpu-clock -d --phys-data --data-page-size -o "$TMP/clk.data" -- $W >/dev/null 2>&1; then
	same_script clk "$TMP/clk.data" comm,pid,tid,cpu,time,event,ip,addr,period,data_src,phys_addr,data_page_size
	same_stats clk "$TMP/clk.data"
	# --json carries the same samples
	n=$("$HITMAP" script -i "$TMP/clk.data" --json | jq length 2>/dev/null)
	if [ "$n" = "$(wc -l <"$TMP/clk.perf")" ]; then pass "reader-perf.clk.json ($n objects)"
	else fail "reader-perf.clk.json" "jq counted '$n', perf script $(wc -l <"$TMP/clk.perf")"; fi
	# unordered output has the same samples
	"$HITMAP" script --perf-compat "${PERFS%% *}" --no-ordered -i "$TMP/clk.data" -F tid,time,ip --ns | sort >"$TMP/uo.hm"
	perfv "${PERFS%% *}" script -i "$TMP/clk.data" -F tid,time,ip --ns 2>/dev/null | sort >"$TMP/uo.perf"
	check reader-perf.clk.unordered cmp -s "$TMP/uo.hm" "$TMP/uo.perf"
else
	skip reader-perf.clk "perf record -d --phys-data --data-page-size failed here"
fi

# 2. tracepoint: RAW decoded with the file's TRACING_DATA
# (--max-size keeps the file small: perf stops the workload at 8 MB, exit 143)
if have_tracefs && { perf record -q -e syscalls:sys_enter_futex --max-size=8M -o "$TMP/tp.data" -- $W >/dev/null 2>&1; [ -s "$TMP/tp.data" ]; }; then
	same_script tp "$TMP/tp.data" comm,pid,tid,cpu,time,event,trace
	same_stats tp "$TMP/tp.data"
	if "$HITMAP" script -i "$TMP/tp.data" | head -1 | grep -q 'uaddr: 0x'; then
		pass "reader-perf.tp.fields_named"
	else
		fail "reader-perf.tp.fields_named" "no 'uaddr:' in $("$HITMAP" script -i "$TMP/tp.data" 2>&1 | head -1)"
	fi
	# --json: named numeric fields (hm_sample__tp_field) match the printed text
	"$HITMAP" script -i "$TMP/tp.data" --json | jq -r '.[0:50][] | [.trace, .fields.uaddr, .fields.op] | @tsv' >"$TMP/tpf.txt"
	ok=1
	while IFS=$'\t' read -r tr u o; do
		[[ $tr =~ uaddr:\ (0x[0-9a-f]+),\ op:\ (0x[0-9a-f]+) ]] || { ok=0; break; }
		[ $((BASH_REMATCH[1])) = "$u" ] && [ $((BASH_REMATCH[2])) = "$o" ] || { ok=0; break; }
	done <"$TMP/tpf.txt"
	[ -s "$TMP/tpf.txt" ] || ok=0
	if [ "$ok" = 1 ]; then pass "reader-perf.tp.json_fields"
	else fail "reader-perf.tp.json_fields" "$(head -2 "$TMP/tpf.txt" | tr '\n' ' ')"; fi
else
	skip reader-perf.tp "no tracefs or syscalls:sys_enter_futex here"
fi

# 3. pipe mode, read from a pipe (-i -) and from stdin redirected from the file
if perf record -q -o - --sample-cpu -e cpu-clock -- $W 2>/dev/null >"$TMP/pipe.data" && [ -s "$TMP/pipe.data" ]; then
	same_script pipe "$TMP/pipe.data" comm,pid,tid,cpu,time,event,ip,period
	same_stats pipe "$TMP/pipe.data"
	cat "$TMP/pipe.data" | "$HITMAP" script --perf-compat "${PERFS%% *}" -i - -F comm,pid,tid,cpu,time,event,ip,period --ns >"$TMP/pipe.stdin"
	check reader-perf.pipe.from_pipe cmp -s "$TMP/pipe.stdin" "$TMP/pipe.perf"
	"$HITMAP" script --perf-compat "${PERFS%% *}" -i - -F comm,pid,tid,cpu,time,event,ip,period --ns <"$TMP/pipe.data" >"$TMP/pipe.redir"
	check reader-perf.pipe.from_stdin_file cmp -s "$TMP/pipe.redir" "$TMP/pipe.perf"
	check reader-perf.pipe.header bash -c "'$HITMAP' header -i '$TMP/pipe.data' | grep -q 'mode           : pipe'"
else
	skip reader-perf.pipe "perf record -o - failed here"
fi

# 4. zstd (-z): COMPRESSED records
if perf record -q -z --sample-cpu -e cpu-clock -o "$TMP/z.data" -- $W >/dev/null 2>&1; then
	same_script z "$TMP/z.data" comm,pid,tid,cpu,time,event,ip,period
	same_stats z "$TMP/z.data"
	if grep -q COMPRESSED "$TMP/z.hstat"; then pass "reader-perf.z.has_compressed"
	else fail "reader-perf.z.has_compressed" "no COMPRESSED records in $TMP/z.data"; fi
else
	skip reader-perf.z "perf record -z failed (perf without zstd?)"
fi

# 5. --call-graph dwarf: CALLCHAIN, REGS_USER, STACK_USER skipped correctly
if perf record -q --call-graph dwarf -F 200 --sample-cpu -e cpu-clock -o "$TMP/dw.data" -- $W >/dev/null 2>&1; then
	same_script dwarf "$TMP/dw.data" pid,tid,cpu,time,ip,period -G
	same_stats dwarf "$TMP/dw.data"
else
	skip reader-perf.dwarf "perf record --call-graph dwarf failed here"
fi

# 6. header: the features perf shows are there
if [ -f "$TMP/clk.data" ]; then
	"$HITMAP" header -i "$TMP/clk.data" >"$TMP/hdr.txt" 2>&1
	ok=1
	for k in "hostname : $(perf report --header-only -i "$TMP/clk.data" 2>/dev/null | sed -n 's/^# hostname : //p')" \
		 "nrcpus avail : $(nproc --all)" "event : name = cpu-clock" "node0 cpu list"; do
		grep -qF "$k" "$TMP/hdr.txt" || { ok=0; fail reader-perf.header "missing '$k'"; }
	done
	[ $ok = 1 ] && pass reader-perf.header
	"$HITMAP" header -i "$TMP/clk.data" --json | jq -e '.events[0].name == "cpu-clock" and .nr_cpus_avail > 0' >/dev/null
	check reader-perf.header.json test $? -eq 0
fi
done_tests
