#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap header: feature lines as perf report --header-only -I prints them,
# checked against the lines perf 6.1, 6.12 and 7.3 printed for the real
# fixtures (so that they hold where no perf is installed; header-perf.sh
# compares whole outputs with the installed perfs).  Each was once printed
# otherwise:
#  - GROUP_DESC: "# group: {anon_group} (leader 0, 2 members)", not the
#    members by name;
#  - MEM_TOPOLOGY: "#  node 0: 256 of 270 blocks", not perf's size and
#    block ranges;
#  - BRANCH_STACK, AUXTRACE: perf's "# contains ..." line missing;
#  - CLOCK_DATA: the "# clockid:" and "# reference time:" lines missing;
#  - CACHE: the level and type padded together ("L1 Data" to 15);
#  - HYBRID_TOPOLOGY: one line per PMU, not a "# hybrid cpu system:" line
#    and "# PMU cpu list : CPUS" lines;
#  - CPU_TOPOLOGY: per-CPU ids where perf has none ("not available");
#  - BPF_BTF, BPF_PROG_INFO: nothing printed;
#  - the "# missing features:" line missing; pipe mode without perf's
#    zero offsets and with the features after the closing banner;
#  - event lines: "type = 0" printed, precise_ip after the flags, config1
#    not as "{ bp_addr, config1 }"; no PERF_TYPE_*/PERF_COUNT_* names for
#    perf 6.12 and 7.3.
. tests/lib.sh

if [ ! -x "$HITMAP" ]; then
	skip header-lines "no $HITMAP; build with make O=$HITMAP_BUILD"
	done_tests
fi
need_fixtures header-lines
PD=$FIXTURES/perf_data_converter
L=$FIXTURES/linux-perf-data

# has NAME FILE COMPAT LINE...: hitmap header --perf-compat COMPAT -i FILE
# prints each LINE (a whole line, fixed string), in this order
has() {
	local n=$1 f=$2 v=$3 l prev=0 at; shift 3
	[ -f "$f" ] || { skip "header-lines.$n" "no $f"; return; }
	TZ=UTC "$HITMAP" header --perf-compat "$v" -i "$f" >"$TMP/h" 2>"$TMP/e"
	for l in "$@"; do
		at=$(tail -n +$((prev + 1)) "$TMP/h" | grep -nxF -m1 -- "$l" | cut -d: -f1)
		if [ -z "$at" ]; then
			fail "header-lines.$n (perf $v)" "no line '$(cut -c1-120 <<<"$l")' after line $prev"
			return
		fi
		prev=$((prev + at))
	done
	pass "header-lines.$n (perf $v)"
}
# matches NAME FILE COMPAT REGEX: a line matches REGEX
matches() {
	local n=$1 f=$2 v=$3
	[ -f "$f" ] || { skip "header-lines.$n" "no $f"; return; }
	if "$HITMAP" header --perf-compat "$v" -i "$f" 2>/dev/null | grep -qE -- "$4"; then
		pass "header-lines.$n (perf $v)"
	else fail "header-lines.$n (perf $v)" "no line matches '$4'"; fi
}
# lacks NAME FILE COMPAT REGEX: no line matches REGEX
lacks() {
	local n=$1 f=$2 v=$3
	[ -f "$f" ] || { skip "header-lines.$n" "no $f"; return; }
	if "$HITMAP" header --perf-compat "$v" -i "$f" 2>/dev/null | grep -qE -- "$4"; then
		fail "header-lines.$n (perf $v)" "a line matches '$4'"
	else pass "header-lines.$n (perf $v)"; fi
}

for v in 6.1 6.12 7.3; do
	has group_desc "$PD/perf.data.group_desc-4.14" $v '# group: {cache-references,branch-misses}'
	has group_desc.modifiers "$PD/perf.data.lost_samples-4.4" $v \
		'# group: {cycles:pp,instructions:pp,branch-instructions:pp}'
	has cache "$PD/perf.data.group_desc-4.14" $v '# CPU cache info:' \
		'#  L1 Data                 32K [0-1]' '#  L3 Unified            4096K [0-3]'
	has branch_stack "$PD/perf.data.branch-4.14" $v '# contains samples with branch stack'
	has auxtrace "$PD/perf.data.intel_pt-4.14" $v '# contains AUX area data (e.g. instruction trace)'
	has hybrid "$PD/perf.data.hybrid_topology" $v '# hybrid cpu system:' \
		'# cpu_core cpu list : 0-3' '# cpu_atom cpu list : 4-11'
	has cpu_ids_hidden "$PD/perf.data.weight_struct" $v \
		'# sibling threads : 55,111' '# Core ID and Socket ID information is not available'
	lacks cpu_ids_hidden.no_cpu_lines "$PD/perf.data.weight_struct" $v '^# CPU [0-9]+:'
	has cpu_ids_old "$PD/perf.data.busy.0-3.8" $v '# Core ID and Socket ID information is not available'
	has mem_topology "$L/fibo.compressed2.pipe.data" $v '# memory nodes (nr 1, block size 0x8000000):' \
		'#    0 [32G]: 0-17,32-269'
	has mem_topology.gap "$PD/perf.data.piped.header_features_aligned-6.12" $v '#    0 [64G]: 0,2-32'
	has clock_data "$L/sleep.data" $v '# clockid: monotonic (1)' \
		'# reference time: 2025-11-08 12:23:01.421437 = 1762604581.421437 (TOD) = 3696.140926905 (monotonic)'
	has btf "$PD/perf.data.branch_stack_spec" $v '# btf info of id 10' '# btf info of id 52'
	has pipe_banner "$PD/perf.data.piped.header_features-4.16" $v '# data offset    : 0' \
		'# feat offset    : 0' '# ========' '#' '# hostname : instance-1'
	lacks pipe_no_missing "$PD/perf.data.piped.header_features-4.16" $v '^# missing features'
	matches weight_event "$PD/perf.data.weight_struct" $v \
		'^# event : name = MEM_TRANS_RETIRED.*, disabled = 1, pinned = 1, precise_ip = 2, sample_id_all = 1, \{ bp_addr, config1 \} = 0x40$'
done
# the event attributes in perf's order, whatever the version
lacks weight_event.order "$PD/perf.data.weight_struct" 7.3 '^# event : name = MEM_TRANS.*sample_id_all = 1, precise_ip'

# perf 6.1: no zero type, no names; 6.12 and 7.3 name type and config
ev='# event : name = cache-references, , id = { 150, 151, 152, 153 }'
has event_6.1 "$PD/perf.data.group_desc-4.14" 6.1 \
	"$ev, size = 112, config = 0x2, { sample_period, sample_freq } = 4000, sample_type = IP|TID|TIME|ID|PERIOD, read_format = ID, disabled = 1, inherit = 1, mmap = 1, comm = 1, freq = 1, enable_on_exec = 1, task = 1, sample_id_all = 1, exclude_guest = 1, mmap2 = 1, comm_exec = 1"
for v in 6.12 7.3; do
	has event_named "$PD/perf.data.group_desc-4.14" $v \
		"$ev, type = 0 (PERF_TYPE_HARDWARE), size = 112, config = 0x2 (PERF_COUNT_HW_CACHE_REFERENCES), { sample_period, sample_freq } = 4000, sample_type = IP|TID|TIME|ID|PERIOD, read_format = ID, disabled = 1, inherit = 1, mmap = 1, comm = 1, freq = 1, enable_on_exec = 1, task = 1, sample_id_all = 1, exclude_guest = 1, mmap2 = 1, comm_exec = 1"
done
# the software type: 6.12 by its PMU, 7.3 by the ABI
"$HITMAP" header --perf-compat 7.3 -i "$PD/perf.data.hw_and_sw-3.4" 2>/dev/null |
	grep -q '^# event : name = cpu-clock, .* type = 1 (PERF_TYPE_SOFTWARE), size = 96, config = 0 (PERF_COUNT_SW_CPU_CLOCK),' &&
	pass "header-lines.event_software (perf 7.3)" ||
	fail "header-lines.event_software (perf 7.3)" "no 'type = 1 (PERF_TYPE_SOFTWARE)'"

# the features a file lacks, as each perf knows them
m='# missing features: TRACING_DATA NUMA_TOPOLOGY BRANCH_STACK AUXTRACE STAT SAMPLE_TIME MEM_TOPOLOGY CLOCKID DIR_FORMAT BPF_PROG_INFO BPF_BTF COMPRESSED CPU_PMU_CAPS CLOCK_DATA HYBRID_TOPOLOGY PMU_CAPS '
has missing "$PD/perf.data.group_desc-4.14" 6.1 "$m" '# ========'
has missing "$PD/perf.data.group_desc-4.14" 7.3 "${m}CPU_DOMAIN_INFO E_MACHINE CLN_SIZE " '# ========'
has missing.branch_stack "$PD/perf.data.branch-4.14" 6.12 \
	'# missing features: TRACING_DATA NUMA_TOPOLOGY GROUP_DESC AUXTRACE STAT SAMPLE_TIME MEM_TOPOLOGY CLOCKID DIR_FORMAT BPF_PROG_INFO BPF_BTF COMPRESSED CPU_PMU_CAPS CLOCK_DATA HYBRID_TOPOLOGY PMU_CAPS '
# perf 7.3 says an empty BPF section; 6.1 and 6.12 print nothing for it
has bpf_empty "$L/sleep.data" 7.3 '# clockid frequency: 1000 MHz' '# bpf_prog_info empty' '# btf info empty' \
	'# cpu pmu capabilities: branches=32, max_precise=3, pmu_name=skylake'
lacks bpf_empty.none "$L/sleep.data" 6.12 'empty$'

"$HITMAP" header --perf-compat 5.4 -i "$PD/perf.data.group_desc-4.14" >/dev/null 2>"$TMP/e"
rc=$?
[ $rc -eq 2 ] && grep -q 'perf-compat 5.4' "$TMP/e" && pass "header-lines.bad_compat: exit 2" ||
	fail header-lines.bad_compat "exit $rc: $(head -c 200 "$TMP/e")"
done_tests
