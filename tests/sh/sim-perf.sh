#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Simulated files open in real perf (perf script, perf c2c report --stdio), and
# every installed perf's c2c report --stats prints exactly the perf-compatible
# counters of the truth (the simulated encodings have no L2 HITM, the one
# data_src whose counting differs between perf 6.1/6.12 and 7.3).
. tests/lib.sh
[ -x "$HITMAP" ] || { skip sim-perf "no $HITMAP; build first"; done_tests; }
PERFS=$(oracle_perfs)
[ -n "$PERFS" ] || { skip sim-perf "no perf installed (scripts/setup-oracles.sh)"; done_tests; }
command -v jq >/dev/null || { skip sim-perf "jq is not installed"; done_tests; }

# label in perf c2c --stats  ->  jq expression over .samples.c2c
map='Total records|nr_entries
Locked Load/Store Operations|locks
Load Operations|load
Loads - uncacheable|ld_uncache
Loads - IO|ld_io
Loads - Miss|ld_miss
Loads - no mapping|ld_noadrs
Load Fill Buffer Hit|ld_fbhit
Load L1D hit|ld_l1hit
Load L2D hit|ld_l2hit
Load LLC hit|ld_llchit + .lcl_hitm
Load Local HITM|lcl_hitm
Load Remote HITM|rmt_hitm
Load Remote HIT|rmt_hit
Load Local DRAM|lcl_dram
Load Remote DRAM|rmt_dram
Load MESI State Exclusive|ld_excl
Load MESI State Shared|ld_shared
Load LLC Misses|lcl_dram + .rmt_dram + .rmt_hitm + .rmt_hit
Load HIT Local Peer|lcl_peer
Load HIT Remote Peer|rmt_peer
Store Operations|store
Store L1D Hit|st_l1hit
Store L1D Miss|st_l1miss
Store No available memory level|st_na
No Page Map Rejects|nomap
Unable to parse data source|noparse'

for cfg in "skx 6.16-rc4" "srf 6.16-rc4" "zen4 6.16-rc4" "altra 6.16-rc4" "skx 6.12 --shared"; do
	set -- $cfg; pr=$1; k=$2; shift 2
	p=$pr-$k${1:+-shared}
	f=$TMP/$p.data; t=$TMP/$p.json
	# perf 6.1 reads no SPE metadata v2: Arm as plain samples here (spe-oracle.sh: SPE AUX, perf 7.3)
	[ $pr = altra ] && set -- "$@" --spe-samples
	"$HITMAP" simulate --preset $pr --cores 8 --kernel $k "$@" --futexes 128 --ops 20000 --period 25 \
		-o "$f" --truth "$t" --kallsyms "$TMP/$p.ksyms" >"$TMP/$p.out" 2>&1 ||
		{ fail sim-perf-$p-simulate "$(tail -n 2 "$TMP/$p.out")"; continue; }
	n=$(jq .samples.total "$t")
	got=$(perf script -i "$f" --kallsyms "$TMP/$p.ksyms" -F tid,ip,sym,addr 2>"$TMP/$p.script.err" | tee "$TMP/$p.script" | wc -l)
	echo "# $p: $n samples; perf script: $(head -n 1 "$TMP/$p.script" | tr -s ' ')"
	[ "$got" = "$n" ] && pass sim-perf-$p-script-reads-every-sample ||
		fail sim-perf-$p-script-reads-every-sample "perf script printed $got lines for $n samples: $(tail -n 1 "$TMP/$p.script.err")"
	grep -q 'futex_' "$TMP/$p.script" && pass sim-perf-$p-script-kernel-symbols ||
		fail sim-perf-$p-script-kernel-symbols "no futex_* symbol in perf script with --kallsyms"
	for v in $PERFS; do
		if ! perfv "$v" c2c report -i "$f" --stats --stdio --no-source >"$TMP/$p.stats" 2>"$TMP/$p.stats.err"; then
			fail sim-perf-$p-c2c-stats-perf-$v "perf $v c2c report --stats failed: $(perf_crash_why "$TMP/$p.stats.err" 1)"
			continue
		fi
		bad=
		while IFS='|' read -r label expr; do
			want=$(jq ".samples.c2c | .$expr" "$t")
			have=$(grep -F "  $label " "$TMP/$p.stats" | head -n 1 | sed 's/.*: *//')
			[ "$have" = "$want" ] || bad="$bad [$label: perf $v $have, truth $want]"
		done <<<"$map"
		[ "$v" = "${PERFS%% *}" ] && echo "# $p perf c2c: $(grep -E 'Load Local HITM|Load Remote HITM|Load Remote DRAM|Load HIT Remote Peer' "$TMP/$p.stats" | tr -s ' ' | tr '\n' ';')"
		[ -z "$bad" ] && pass sim-perf-$p-c2c-stats-equal-truth-perf-$v || fail sim-perf-$p-c2c-stats-equal-truth-perf-$v "$bad"
	done
	if perf c2c report -i "$f" --stdio --no-source >"$TMP/$p.c2c" 2>"$TMP/$p.c2c.err" &&
	   grep -q 'Shared Data Cache Line Table' "$TMP/$p.c2c"; then
		pass sim-perf-$p-c2c-report-stdio
	else
		fail sim-perf-$p-c2c-report-stdio "$(tail -n 2 "$TMP/$p.c2c.err")"
	fi
done
done_tests
