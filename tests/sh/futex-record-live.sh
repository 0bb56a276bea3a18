#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap record -- CMD finds the futex tables of the command's process live (BPF
# at its futex calls): perf bench futex hash's private hash, with the slot count
# the benchmark itself reads back (prctl GET_SLOTS, "Futex hashing: ... N
# buckets"); with contention, >= 99% of the contended locks resolve to buckets,
# private and -S shared, and hitmap hash --verify's contention channel agrees for
# both kinds (private: the private hash; shared: the global table).
. tests/lib.sh
[ -x "$HITMAP" ] || { skip futex-record-live "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip futex-record-live "jq is not installed"; done_tests; }
if [ "$(id -u)" != 0 ] || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	skip futex-record-live "needs root and the lock tracepoints"; done_tests
fi
[ -r "$(dirname "$HITMAP")/verify.bpf.o" ] || { skip futex-record-live "no verify.bpf.o beside hitmap (clang at build time)"; done_tests; }
[ -r /sys/kernel/btf/vmlinux ] || { skip futex-record-live "no /sys/kernel/btf/vmlinux"; done_tests; }
# a perf whose bench prints the private hash size (perf >= 6.16): perf-7.3, else perf
bench=perf
for p in perf-7.3 perf; do
	command -v $p >/dev/null && $p bench futex hash -t 2 -r 1 -s 2>/dev/null | grep -q 'Futex hashing' && { bench=$p; break; }
done
have_perf || command -v $bench >/dev/null || { skip futex-record-live "perf is not installed"; done_tests; }
awk '$3 == "futex_private_hash" || $3 == "futex_ref_get" || $3 == "futex_private_hash_get" {f=1} END {exit !f}' /proc/kallsyms ||
	{ skip futex-record-live "kernel before 6.16: no private futex hash to find"; done_tests; }

for mode in private shared; do
	S=; [ $mode = shared ] && S=-S
	"$HITMAP" record --mode contention -o $TMP/$mode.data -- $bench bench futex hash -t 2 -r 3 $S \
		>$TMP/$mode.out 2>$TMP/$mode.err; rc=$?
	[ $rc = 0 ] && pass "record $mode: exit 0" || { fail "record $mode: exit 0" "rc=$rc $(tail -n 2 $TMP/$mode.err)"; continue; }
	grep -q 'futex tables seen live: 1 private' $TMP/$mode.err && pass "record $mode: the command's private hash seen live" ||
		fail "record $mode: the command's private hash seen live" "$(grep 'futex tables' $TMP/$mode.err)"
	pid=$(sed -n 's/.*Run summary \[PID \([0-9]*\)\].*/\1/p' $TMP/$mode.out)
	"$HITMAP" report --by bucket --json -i $TMP/$mode.data >$TMP/$mode.json 2>$TMP/$mode.rerr ||
		{ fail "report $mode" "$(head -n 2 $TMP/$mode.rerr)"; continue; }
	if [ $mode = private ]; then
		slots=$(sed -n 's/.*Futex hashing: .* \([0-9][0-9]*\) \(hash \)\{0,1\}buckets.*/\1/p' $TMP/$mode.out)
		[ -n "$slots" ] || slots=16	# perf before 6.16 does not print it: the kernel's default for 2 CPUs
		jq -e --argjson pid "${pid:-0}" --argjson s "$slots" \
			'[.tables[] | select(.kind == "private" and .pid == $pid and .slots == $s and (.provenance | startswith("bpf:")))] | length == 1' \
			$TMP/$mode.json >/dev/null && pass "report $mode: the private table of pid $pid, $slots slots as the benchmark reads back" ||
			fail "report $mode: the private table of the benchmark" "pid $pid slots $slots; $(jq -c .tables $TMP/$mode.json)"
	fi
	# the denominator: contentions taken at futex bucket-lock call sites (from the
	# kernel call chain); the command's other locks (a wrapper's mount, an rwsem)
	# are not bucket contentions and cannot resolve to a bucket
	read -r nc ns nr < <(jq -r '"\(.summary.contentions) \(.summary.contentions_at_bucket_sites) \(.summary.contentions_at_bucket_sites_on_buckets)"' $TMP/$mode.json)
	echo "# $mode: $nc lock contentions during the benchmark, $ns at futex bucket-lock sites, $nr of those on bucket locks of the tables found"
	if [ "${ns:-0}" = 0 ]; then
		skip "record $mode: >= 99% of bucket contentions resolved" "no contention at a futex bucket-lock site on this machine during the run ($nc on other locks; busy or too few CPUs)"
	else
		[ $((nr * 100)) -ge $((ns * 99)) ] && pass "record $mode: >= 99% of bucket-lock contentions on buckets of the tables found ($nr/$ns)" ||
			fail "record $mode: >= 99% of bucket-lock contentions on buckets of the tables found" "$nr of $ns; $(jq -r .geometry $TMP/$mode.json)"
	fi
done

# hash --verify's contention channel on this kernel, for both kinds the
# records above resolved: the model behind the tables agrees
for kind in private shared; do
	if timeout 30 "$HITMAP" hash --verify --by-contention --count 50 --$kind --json >$TMP/v.json 2>$TMP/v.err; then
		read -r ag ob < <(jq -r --arg k $kind '"\(.[$k].agreed // 0) \(.[$k].observed // 0)"' $TMP/v.json)
		[ "${ob:-0}" -gt 0 ] && [ "$ag" = "$ob" ] && pass "hash --verify $kind by contention: $ag of $ob observed buckets agree" ||
			fail "hash --verify $kind by contention agrees" "$(head -c 300 $TMP/v.json)"
	else
		v_err=$(head -n 1 $TMP/v.err)
		skip "hash --verify $kind by contention" "no contention within 30 s${v_err:+: $v_err}"
	fi
done
done_tests
