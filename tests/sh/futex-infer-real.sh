#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Futex tables of this machine, from a plain perf file (no hitmap metadata).
# 1. A real recording: perf 6.1 (the oldest installed) record -e syscalls:sys_enter_futex while
#    hitmap's built-in futex workload (hitmap bench futex-hash) runs.  The
#    tracepoint carries the futex word's user address (uaddr), not a kernel
#    data address: the bucket views take memory samples only (a bucket is the
#    hash of a kernel key, mm pointer or inode and page, that the tracepoint
#    does not carry), so hitmap report --by bucket must say so in one line
#    ("tables: none: ...") instead of printing an empty table; the uaddrs are
#    the workload's futex arrays, and hitmap reads every sample perf reads.
# 2. What can be held to the truth: perf c2c record-shaped files that
#    hitmap's writer makes for this machine (hitmap simulate --preset host:
#    its topology from sysfs, its kernel's era), stripped of the metadata by
#    a real perf inject, private and shared futexes: >= 99% of the bucket
#    samples resolve to the simulator's table, node, index and field, none
#    to a wrong one.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip futex-infer-real "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip futex-infer-real "jq is not installed"; done_tests; }
# the oldest installed perf (6.1 on Debian 12, 7.3 in the Debian 13 chroot)
PV=$(oracle_perfs | awk '{ print $1 }')
P61=$(perf_cmd "${PV:-6.1}") || { skip futex-infer-real "no perf installed (perf-6.1, -6.12 or -7.3)"; done_tests; }

# ---- 1. real perf record of the futex syscalls
if ! have_tracefs || [ ! -d /sys/kernel/tracing/events/syscalls/sys_enter_futex ]; then
	skip "real: sys_enter_futex" "no syscalls:sys_enter_futex tracepoint here (tracefs, CONFIG_FTRACE_SYSCALLS)"
elif ! "$P61" record -q -o "$TMP/sys.data" -e syscalls:sys_enter_futex -- \
	"$HITMAP" bench futex-hash -r 1 -t 2 -f 16 >"$TMP/bench.out" 2>"$TMP/rec.err"; then
	skip "real: sys_enter_futex" "perf $PV record failed: $(tail -n 1 "$TMP/rec.err")"
else
	# the default fields (perf 7.3 prints nothing for -F tid,trace)
	"$P61" script -i "$TMP/sys.data" 2>/dev/null >"$TMP/sys.txt"
	n=$(wc -l <"$TMP/sys.txt")
	# the workload's futex arrays: "[thread  0] futexes: 0xA ... 0xB"
	sed -n 's/^\[thread *[0-9]*\] futexes: \(0x[0-9a-f]*\) \.\.\. \(0x[0-9a-f]*\) .*/\1 \2/p' "$TMP/bench.out" >"$TMP/ranges"
	inarr=$(awk 'function hex(s,   i, v) { s = tolower(substr(s, 3)); v = 0
			for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v }
		NR == FNR { lo[NR] = hex($1); hi[NR] = hex($2); nr = NR; next }
		match($0, /uaddr: 0x[0-9a-f]+/) { a = hex(substr($0, RSTART + 7, RLENGTH - 7))
			for (i = 1; i <= nr; i++) if (a >= lo[i] && a <= hi[i]) { c++; break } }
		END { print c + 0 }' "$TMP/ranges" "$TMP/sys.txt")
	if [ "$(wc -l <"$TMP/ranges")" -eq 2 ] && [ "${inarr:-0}" -gt $((n / 2)) ]; then
		pass "real: perf $PV sys_enter_futex: $inarr of $n uaddrs are the workload's futex arrays"
	else
		fail "real: sys_enter_futex uaddrs" "$inarr of $n in the arrays ($(tr '\n' ' ' <"$TMP/ranges"))"
	fi
	hn=$("$HITMAP" script -i "$TMP/sys.data" 2>/dev/null | wc -l)
	check "real: hitmap reads every sample perf $PV reads ($hn of $n)" test "$n" -gt 0 -a "$hn" -eq "$n"
	"$HITMAP" report --by bucket -i "$TMP/sys.data" >"$TMP/sys.rep" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c '^tables: none: no sample has a data address' "$TMP/sys.rep")" = 1 ] &&
	   ! grep -q '^TABLE ' "$TMP/sys.rep"; then
		pass "real: --by bucket on a tracepoint file: one line why (no data address), no empty table"
	else
		fail "real: --by bucket on a tracepoint file" "rc $rc: $(head -n 4 "$TMP/sys.rep" | tr '\n' ' ')"
	fi
fi

# ---- 2. this machine's geometry, simulated, stripped, inferred
# the kernel era of this machine for the simulator (its --kernel values)
rel=$(uname -r)
case $rel in
6.12*|6.13*|6.14*|6.15*) k=6.12;; 6.16*) k=6.16;; 6.17*) k=6.17;; 6.18*|6.19*|7.0*|7.1*) k=6.18;;
7.2*) k=7.2;; 7.*) k=7.3;; *) k=6.12;;
esac
cmp='([$t[0].buckets[] | . as $b | (.fields | to_entries[] | {key: "\($b.table):\($b.node):\($b.index):\(.key)", value: .value.nr_entries})] | from_entries) as $T |
     ([$r[0].buckets[] | select(.table != "unknown") | . as $b | .fields[] | {key: "\($b.table):\($b.node):\($b.index):\(.field)", value: .counts.samples}] | from_entries) as $R |
     {truth: ([$T[]] | add // 0),
      resolved: ([$R | to_entries[] | [.value, ($T[.key] // 0)] | min] | add // 0),
      wrong: ([$R | to_entries[] | .value - ($T[.key] // 0) | select(. > 0)] | add // 0)}'
for sh in "" --shared; do
	c=host-$k${sh:+-shared}
	f=$TMP/$c
	if ! "$HITMAP" simulate --preset host --kernel $k $sh --futexes 64 --ops 12000 --period 25 \
		-o $f.data --truth $f.json --kallsyms $f.ksyms >$f.out 2>&1; then
		fail "inferred: $c: simulate" "$(tail -n 1 $f.out)"; continue
	fi
	"$P61" inject -i $f.data -o $f.strip.data >$f.out 2>&1 || { fail "inferred: $c: perf $PV inject" "$(tail -n 1 $f.out)"; continue; }
	if [ "$(tail -c 24 $f.strip.data | head -c 8)" = HMMTAT01 ]; then
		fail "inferred: $c: stripped" "perf inject kept the hitmap metadata"; continue
	fi
	"$HITMAP" report --by bucket --json -i $f.strip.data --kallsyms $f.ksyms >$f.r.json 2>$f.err ||
		{ fail "inferred: $c: report" "$(tail -n 1 $f.err)"; continue; }
	geo=$(jq -r .geometry $f.r.json)
	read -r truth res wrong < <(jq -n -r --slurpfile r $f.r.json --slurpfile t $f.json "$cmp | \"\(.truth) \(.resolved) \(.wrong)\"")
	echo "# $c: $res of $truth bucket samples resolved, $wrong wrong; tables: $geo"
	case $geo in inferred*) pass "inferred: $c: tables: inferred from the samples";; *) fail "inferred: $c: tables" "$geo";; esac
	if [ "${truth:-0}" -gt 0 ] && [ "$wrong" = 0 ] && [ $((res * 100)) -ge $((truth * 99)) ]; then
		pass "inferred: $c: >= 99% of $truth bucket samples at the truth's table, node, index and field, none wrong"
	else
		fail "inferred: $c" "resolved $res of $truth, $wrong wrong; $geo"
	fi
done
done_tests
