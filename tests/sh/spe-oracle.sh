#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Arm SPE AUX data: files hitmap writes (random records of every data source
# table, loads, stores and other ops; metadata v1 and v2; 1 and 2 sockets;
# file, zstd and pipe mode, either byte order; with and without CONTEXT
# packets; FEAT_SPEv1p4
# SNOOPED/HITM events) read by real perf 7.3: `perf c2c report --stats`
# equals `hitmap report --stats` counter for counter, and `perf script
# --itrace=M` lists the same samples (pid/tid, cpu, time, addr, data_src, ip)
# as `hitmap script`.  Also `hitmap simulate --preset altra`: perf 7.3 reads
# its SPE AUX data as hitmap does, and the ground truth is the same as with
# --spe-samples.
. tests/lib.sh
GEN=${HITMAP_BUILD}/tools/hm-spe-gen
[ -x "$HITMAP" ] && [ -x "$GEN" ] || { skip spe-oracle "no $HITMAP or $GEN; build with make tests"; done_tests; }
P73=$(command -v perf-7.3)
[ -n "$P73" ] && "$P73" version >/dev/null 2>&1 || P73=

# perf 7.3's c2c_decode_stats counts an L2 hit with SNOOP_HITM (what 6.18+
# synthesises from SNOOPED|HITM events) as Local HITM where 6.1 counts an L2D
# hit; with --perf-compat 7.3 hitmap follows 7.3, without it those counters
# (and the shared-line counters that follow from them) are left out.
COMPAT=
"$HITMAP" report --help 2>&1 | grep -q -- '--perf-compat' && COMPAT="--perf-compat 7.3"
stats_h() { "$HITMAP" report --stats $COMPAT -i "$1" 2>/dev/null | sed -n '/Trace Event/,/Total Merged/p'; }
stats_p() { "$P73" c2c report --stats -i "$1" 2>/dev/null | sed -n '/Trace Event/,/Total Merged/p'; }
hitm_filter() {
	if [ -n "$COMPAT" ] || [ "$1" != hitm ]; then cat; else
		sed '/Global Shared/,$d' | grep -v -e 'Load L2D hit' -e 'Load LLC hit' -e 'Load Local HITM'
	fi
}
fields="pid,tid,cpu,time,addr,data_src,ip"
script_h() { "$HITMAP" script -F $fields -i "$1" 2>/dev/null | awk '{print $1,$2,$3,$4,$5,$NF}' | sort; }
script_p() { "$P73" script --itrace=M -F $fields -i "$1" 2>/dev/null | awk '{print $1,$2,$3,$4,$5,$NF}' | sort; }

variants=(
	"v2:--meta 2"
	"v1:--meta 1"
	"one-socket:--meta 2 --sockets 1 --cpus 4"
	"zstd:--meta 2 --zstd"
	"other-byte-order:--meta 2 --swap"
	"no-context:--meta 2 --no-context"
	"ampereone-v1:--meta 1 --midr 0xc00fac41"
	"generic-midr:--meta 2 --midr 0x410fd0b0"
	"hitm:--meta 2 --hitm"
	"hisi-hitm:--meta 2 --midr 0x480fd060 --hitm"
)
for seed in 1 2; do
	for v in "${variants[@]}"; do
		name=${v%%:*}
		opts=${v#*:}
		f=$TMP/s$seed-$name.data
		# shellcheck disable=SC2086
		if ! "$GEN" --seed $seed --records 1500 $opts -o "$f" 2>"$TMP/gen.err"; then
			fail spe-gen-$name-$seed "$(head -c 200 "$TMP/gen.err")"
			continue
		fi
		n=$(script_h "$f" | wc -l)
		[ "$n" -gt 1000 ] || { fail spe-decode-$name-$seed "only $n samples decoded"; continue; }
		[ -n "$P73" ] || continue
		tag=; case $name in *hitm*) tag=hitm;; esac
		if diff <(stats_p "$f" | hitm_filter $tag) <(stats_h "$f" | hitm_filter $tag) >"$TMP/d"; then
			pass spe-oracle-stats-$name-$seed
		else
			fail spe-oracle-stats-$name-$seed "perf 7.3 (<) vs hitmap (>): $(head -6 "$TMP/d" | tr '\n' ' ')"
		fi
		if diff <(script_p "$f") <(script_h "$f") >"$TMP/d"; then
			pass spe-oracle-script-$name-$seed
		else
			fail spe-oracle-script-$name-$seed "$(head -4 "$TMP/d" | tr '\n' ' ')"
		fi
	done
	# pipe mode (perf c2c reads no pipes: the same records in file mode give
	# the same report; perf script reads the pipe).  One AUX buffer per CPU:
	# with no AUXTRACE index perf 7.3 queues buffers as they come and drops
	# the ones that arrive after it drained that CPU's queue.
	"$GEN" --seed $seed --records 1500 --pipe --buf-size 1000000 -o "$TMP/p.data" &&
		"$GEN" --seed $seed --records 1500 -o "$TMP/f.data" || { fail spe-gen-pipe-$seed "hm-spe-gen failed"; continue; }
	if diff <(stats_h "$TMP/p.data") <(stats_h "$TMP/f.data") >"$TMP/d" && [ "$(stats_h "$TMP/p.data" | wc -l)" -gt 40 ]; then
		pass spe-pipe-equals-file-$seed
	else
		fail spe-pipe-equals-file-$seed "$(head -4 "$TMP/d" | tr '\n' ' ')"
	fi
	if [ -n "$P73" ]; then
		if diff <(script_p "$TMP/p.data") <(script_h "$TMP/p.data") >"$TMP/d"; then
			pass spe-oracle-script-pipe-$seed
		else
			fail spe-oracle-script-pipe-$seed "$(head -4 "$TMP/d" | tr '\n' ' ')"
		fi
	fi
done
[ -n "$P73" ] || skip spe-oracle "perf-7.3 not installed (scripts/setup-oracles.sh); decoded without the oracle"

# the simulator's Arm preset: SPE AUX data by default, same ground truth as
# plain samples, read alike by perf 7.3 and hitmap
for sockets in 1 2; do
	a=$TMP/altra$sockets
	"$HITMAP" simulate --preset altra --sockets $sockets --cores 8 --seed 7 --ops 40000 \
		-o "$a.aux.data" --truth "$a.aux.json" >/dev/null 2>&1 &&
	"$HITMAP" simulate --preset altra --sockets $sockets --cores 8 --seed 7 --ops 40000 \
		--spe-samples -o "$a.smp.data" --truth "$a.smp.json" >/dev/null 2>&1 ||
		{ fail spe-sim-$sockets "simulate failed"; continue; }
	if cmp -s "$a.aux.json" "$a.smp.json"; then
		pass spe-sim-truth-equal-$sockets
	else
		fail spe-sim-truth-equal-$sockets "ground truth differs between SPE AUX and plain samples"
	fi
	"$HITMAP" header -i "$a.aux.data" 2>/dev/null | grep -q AUXTRACE &&
		pass spe-sim-writes-aux-$sockets || fail spe-sim-writes-aux-$sockets "no AUXTRACE in the header"
	if diff <(stats_h "$a.aux.data") <(stats_h "$a.smp.data") >"$TMP/d"; then
		pass spe-sim-report-equal-$sockets
	else
		fail spe-sim-report-equal-$sockets "$(head -4 "$TMP/d" | tr '\n' ' ')"
	fi
	if [ -n "$P73" ]; then
		if diff <(stats_p "$a.aux.data") <(stats_h "$a.aux.data") >"$TMP/d"; then
			pass spe-sim-oracle-stats-$sockets
		else
			fail spe-sim-oracle-stats-$sockets "$(head -4 "$TMP/d" | tr '\n' ' ')"
		fi
	fi
done
done_tests
