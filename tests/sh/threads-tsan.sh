#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The race detector on every command that runs threads, with the
# ThreadSanitizer build that `make check` makes ($O-tsan; alone: make
# tsan): the unit tests that start threads, report --threads on each of
# its paths (the file in ranges and their merge levels, also a file perf
# inject rewrote; the first range's verdict with the idle thread faulting
# the lines in ahead; the sharded table behind one reader for a pipe; zstd
# decompressed ahead; the futex views' merge), bench futex-hash's workers,
# simulate --preset host's timing threads and hash --verify's hammering
# threads.  A run passes when it ends without a ThreadSanitizer report; a
# report must also print the plain build's --threads 1 bytes, and
# HITMAP_DEBUG must show that the path it is named for ran.  Two CPUs need
# not make a race happen for it to be seen: the detector reports two
# accesses that no lock, atomic, thread start or join orders, in whatever
# order they came.
. tests/lib.sh
TSAN_HITMAP=${HITMAP_TSAN:-$PWD/${HITMAP_BUILD%-san}-tsan/hitmap}
GEN=$HITMAP_BUILD/tools/hm-gen
if [ ! -x "$TSAN_HITMAP" ]; then
	skip "threads-tsan" "no ThreadSanitizer build at $TSAN_HITMAP (make tsan; make check builds it)"
	exit 0
fi
if ! "$TSAN_HITMAP" --help >/dev/null 2>"$TMP/probe.err"; then
	skip "threads-tsan" "the ThreadSanitizer build does not start here: $(head -n 1 "$TMP/probe.err")"
	exit 0
fi
# exitcode 66: a run with a report says so even where the command succeeded
export TSAN_OPTIONS="exitcode=66 halt_on_error=0${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

# first_report FILE: the first ThreadSanitizer report in FILE, on one line
first_report() {
	grep -m1 -A4 -E 'WARNING: ThreadSanitizer|^FAIL' "$1" | tr '\n' ' ' | tr -s ' \t' ' ' | cut -c1-360
}

# under NAME ENV -- ARGS...: the TSan hitmap with ARGS and ENV (stdout in
# $TMP/t.out, stderr in $TMP/t.err, its exit in U_RC), on the CPUs of
# U_PIN where set (a taskset command); false, having failed NAME, on a report
U_PIN=
under() {
	local n=$1 env=$2 rc w
	shift 3
	# shellcheck disable=SC2086
	env $env $U_PIN timeout 600 "$TSAN_HITMAP" "$@" >"$TMP/t.out" 2>"$TMP/t.err" </dev/null
	rc=$?
	U_RC=$rc
	w=$(grep -c 'WARNING: ThreadSanitizer' "$TMP/t.err")
	if [ "$w" != 0 ] || [ $rc = 66 ]; then
		fail "$n" "$w ThreadSanitizer report(s), exit $rc: $(first_report "$TMP/t.err")"
		return 1
	fi
	if [ $rc = 124 ]; then
		fail "$n" "timed out after 600 s"
		return 1
	fi
	return 0
}

# path NAME WANT FILE ENV -- ARGS...: report -i FILE ARGS under TSan with
# ENV and HITMAP_DEBUG: race-free, a debug line matching WANT, and the
# plain build's --threads 1 output
path() {
	local n="threads-tsan: $1" want=$2 f=$3 env=$4
	shift 5
	"$HITMAP" report --threads 1 -i "$f" "$@" >"$TMP/one.out" 2>/dev/null
	under "$n" "$env HITMAP_DEBUG=1" -- report -i "$f" "$@" || return
	if ! grep -q -- "$want" "$TMP/t.err"; then
		fail "$n" "HITMAP_DEBUG has no line matching '$want': the path did not run ($(grep -m2 'debug: ' "$TMP/t.err" | tr '\n' ' ' | cut -c1-200))"
	elif ! cmp -s "$TMP/one.out" "$TMP/t.out"; then
		fail "$n" "output differs from --threads 1: $(diff "$TMP/one.out" "$TMP/t.out" | head -n 3 | tr '\n' ' ')"
	else
		pass "$n: no race, the bytes of --threads 1"
	fi
}

if [ ! -x "$GEN" ] ||
   ! "$GEN" -o "$TMP/gen.data" -n 60000 -l 3000 --nodes 2 --cpus 16 --seed 5 --phys --mix all >/dev/null ||
   ! "$GEN" -o "$TMP/uniq.data" -n 100000 -l 100000 --nodes 2 --cpus 16 --seed 5 --phys >/dev/null ||
   ! "$HITMAP" simulate --sockets 2 --kernel 6.16 --period 10 --ops 50000 --seed 4 -o "$TMP/ksim.data" \
	--kallsyms "$TMP/ksim.kallsyms" >/dev/null 2>&1 ||
   ! "$HITMAP" convert -i "$TMP/gen.data" -o - >"$TMP/gen.pipe.data" 2>/dev/null ||
   ! "$HITMAP" convert -i "$TMP/gen.data" -o "$TMP/gen.zst.data" -z >/dev/null 2>&1; then
	fail "threads-tsan: test files" "$GEN, hitmap simulate or hitmap convert failed (make tests)"
	done_tests
fi

# HITMAP_RANGE_BYTES=1: ranges of any size (a range needs 32 MB by default)
path "2 ranges" "report: 2 ranges" "$TMP/gen.data" HITMAP_RANGE_BYTES=1 -- --threads 2
path "4 ranges, two merge levels" "report: 4 ranges" "$TMP/gen.data" HITMAP_RANGE_BYTES=1 -- --threads 4
path "4 ranges, JSON" "report: 4 ranges" "$TMP/gen.data" HITMAP_RANGE_BYTES=1 -- --threads 4 --json
path "3 ranges of a futex simulation, the futex views" "report: 3 ranges" "$TMP/ksim.data" HITMAP_RANGE_BYTES=1 -- \
	--threads 3 --by bucket
# a file real perf wrote: the simulation rewritten by perf's inject, which
# drops hitmap's metadata, so the futex views' tables are inferred from the
# samples (the kernel's symbols given) before the ranges run
P=$(perf_cmd "$(oracle_perfs | cut -d' ' -f1)" 2>/dev/null)
if [ -z "$P" ]; then
	skip "threads-tsan: perf inject's file in ranges" "no perf installed (scripts/setup-oracles.sh)"
elif ! "$P" inject -i "$TMP/ksim.data" -o "$TMP/inj.data" >"$TMP/inj.err" 2>&1; then
	fail "threads-tsan: $P inject" "$(tail -n 1 "$TMP/inj.err")"
else
	path "3 ranges of $P inject's file, the futex views from inferred tables" "report: 3 ranges" "$TMP/inj.data" \
		HITMAP_RANGE_BYTES=1 -- --threads 3 --by bucket --kallsyms "$TMP/ksim.kallsyms"
fi
# the default (no --threads: the CPUs available, and the first range says
# whether cutting pays); a line a sample: not cut, the other thread faults
# the first range's lines in ahead of it
if [ "$(nproc)" -ge 2 ]; then
	path "the default on a futex simulation" "report: 2 ranges" "$TMP/ksim.data" HITMAP_RANGE_BYTES=1 --
	path "the first range's verdict, lines faulted in ahead" "faulted in" "$TMP/uniq.data" HITMAP_RANGE_BYTES=1 --
else
	skip "threads-tsan: the default's ranges" "one CPU available: the default runs one thread"
fi
# a range a CPU: their threads turn round the CPUs (every ms here, so that
# they do), on the first two CPUs this process may run on, whatever the
# machine has (taskset)
U_PIN=$(pin_two)
if [ -n "$U_PIN" ]; then
	path "2 ranges turned round 2 CPUs" "turned round 2 CPUs every 1 ms: [1-9]" "$TMP/gen.data" \
		"HITMAP_RANGE_BYTES=1 HITMAP_ROTATE_MS=1" -- --threads 2
	U_PIN=
else
	skip "threads-tsan: ranges turned round the CPUs" "one CPU allowed: the case needs two"
fi
path "one reader, sharded table (pipe)" "line table in [0-9]* shards" "$TMP/gen.pipe.data" "" -- --threads 4
path "one reader, sharded table (file, no ranges)" "line table in [0-9]* shards" "$TMP/gen.data" HITMAP_NO_RANGES=1 -- \
	--threads 3 --csv
path "zstd decompressed ahead" "decompressed ahead" "$TMP/gen.zst.data" "" -- --threads 2

# the unit tests that start threads: the prefault server's interleavings,
# the threads turned round the CPUs, the reader's zstd stream decompressed
# ahead, the futex workload
for u in test-util-prefault test-util-rotate test-reader-synth test-futex-hash; do
	ub=${TSAN_HITMAP%/hitmap}/tests/$u
	if [ ! -x "$ub" ]; then
		fail "threads-tsan: $u" "no $ub (make tsan builds it)"
		continue
	fi
	timeout 600 "$ub" >"$TMP/u.out" 2>&1
	rc=$?
	w=$(grep -c 'WARNING: ThreadSanitizer' "$TMP/u.out")
	if [ "$w" != 0 ] || [ $rc != 0 ]; then
		fail "threads-tsan: $u" "exit $rc, $w ThreadSanitizer report(s): $(first_report "$TMP/u.out")"
	else
		pass "threads-tsan: $u ($(grep -c '^PASS' "$TMP/u.out") checks): no race"
	fi
done

# the other commands that run threads
if under "threads-tsan: bench futex-hash" "" -- bench futex-hash -t 4 -r 1 -s; then
	if grep -q '^Averaged [0-9]* operations/sec' "$TMP/t.out"; then
		pass "threads-tsan: bench futex-hash, 4 workers: no race"
	else
		fail "threads-tsan: bench futex-hash" "no 'Averaged N operations/sec' line: $(tail -n 1 "$TMP/t.err")"
	fi
fi
if under "threads-tsan: simulate --preset host" "" -- simulate --preset host --ops 2000 -o "$TMP/host.data"; then
	if [ "$U_RC" = 0 ] && [ -s "$TMP/host.data" ]; then
		pass "threads-tsan: simulate --preset host (the host's timing threads): no race"
	else
		skip "threads-tsan: simulate --preset host" "it did not run here (exit $U_RC): $(tail -n 1 "$TMP/t.err")"
	fi
fi
# hash --verify: its hammering threads and the prctl sequence's sleepers.
# Its verdicts are not this test's (under TSan its prctl check agreed in
# 16 of 17 steps here, 17 in the plain build: the runtime may add a thread
# of its own to the count the private hash is sized by; and the shared
# table may go unfound in its 3 s); that it ran (its "private" line) and
# raced nowhere are.
BPF_OBJ=$HITMAP_BUILD/verify.bpf.o
if [ "$(id -u)" != 0 ]; then
	skip "threads-tsan: hash --verify" "needs root (BPF)"
elif [ ! -f "$BPF_OBJ" ]; then
	skip "threads-tsan: hash --verify" "no $BPF_OBJ (clang builds it in make tests)"
else
	for a in "--count 100" "--count 30 --by-contention" "--count 50 --private"; do
		# shellcheck disable=SC2086
		under "threads-tsan: hash --verify $a" "" -- hash --verify $a --bpf-obj "$BPF_OBJ" || continue
		if grep -q '^private ' "$TMP/t.out"; then
			pass "threads-tsan: hash --verify $a: no race"
		else
			skip "threads-tsan: hash --verify $a" "the check did not run here: $(tail -n 1 "$TMP/t.err")"
		fi
	done
fi
done_tests
