# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for shell tests: source it.  Same protocol as tests/unit/tap.h.
HITMAP_BUILD=${HITMAP_BUILD:-build}
HITMAP=${HITMAP:-$PWD/$HITMAP_BUILD/hitmap}
FIXTURES=${HITMAP_FIXTURES:-$PWD/../shared/fixtures/perf-data}
TMP=$(mktemp -d /tmp/hitmap-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
_failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; _failed=$((_failed+1)); }
skip() { echo "SKIP $1: $2"; }
# same_out NAME: NAME passes where $TMP/a.out and $TMP/b.out are equal, else fails with their first differences
same_out() {
	if cmp -s "$TMP/a.out" "$TMP/b.out"; then
		pass "$1"
	else
		fail "$1" "$(diff "$TMP/a.out" "$TMP/b.out" | head -n 3 | tr '\n' ' ')"
	fi
}
# check NAME CMD...: PASS when CMD succeeds
check() { local n=$1; shift; if "$@" >"$TMP/check.out" 2>&1; then pass "$n"; else fail "$n" "$(tail -n 3 "$TMP/check.out" | tr '\n' ' ')"; fi; }
have_perf() { command -v perf >/dev/null 2>&1; }
# can_record: perf can open a software event here
can_record() { have_perf && perf record -q -o "$TMP/.probe.data" -e cpu-clock -- true >/dev/null 2>&1; }
have_tracefs() { [ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; [ -d /sys/kernel/tracing/events ]; }
# san_build: $HITMAP is a SAN=1 build (ASan+UBSan).  Only for what cannot
# hold under ASan: `ulimit -v` (its shadow memory needs terabytes of address
# space; asan_mem_limit bounds the allocator instead).
san_build() { grep -q __asan_init "$HITMAP" 2>/dev/null; }
# asan_mem_limit MB: ASAN_OPTIONS that make a larger malloc fail (as `ulimit
# -v MB` does) and abort past 3x MB resident
asan_mem_limit() { echo "${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=$1:allocator_may_return_null=1:hard_rss_limit_mb=$(($1 * 3))"; }
done_tests() { exit $(( _failed > 0 )); }
# need_fixtures NAME: the real perf.data fixtures, else skip test NAME and stop
need_fixtures() {
	[ -d "$FIXTURES" ] && return 0
	skip "$1" "no fixtures at $FIXTURES (set HITMAP_FIXTURES)"
	done_tests
}
# pin_two: "taskset -c A,B" for the first two CPUs this process may run on
# (tests/bench/cpus.sh), so that a case needs exactly two whatever the
# machine has; nothing where only one is allowed
pin_two() {
	# shellcheck disable=SC2034  # FIRST: cpus.sh sets it; kept local here
	local CPUS FIRST a b
	. tests/bench/cpus.sh
	read -r a b _ <<<"$CPUS"
	if [ -n "$b" ]; then echo "taskset -c $a,$b"; fi
}
# json_valid FILE: FILE holds JSON and nothing else, and is not empty (jq
# 1.6's `jq -e .` passed an empty input, jq 1.7's fails it: neither decides)
json_valid() { [ -s "$1" ] && jq empty "$1" >/dev/null 2>&1; }
# perf_version: the version of the `perf` on PATH as MAJOR.MINOR (6.1 on
# Debian 12, 7.3 in the Debian 13 chroot)
perf_version() { perf version 2>/dev/null | awk '{ split($3, a, "."); print a[1] "." a[2] }'; }
# no_cpu FILE: perf script's text with the CPU column ("[002]") as [cpu].
# perf 7.3 prints the CPUs of a pipe file without HEADER_NRCPUS (perf 3.x)
# past this machine's CPU count as [000]; 6.1 and 6.12 print them as recorded.
no_cpu() { sed -E 's/ \[[0-9]+\] / [cpu] /' "$1"; }
# no_evname FILE: perf script's text with each sample's event name without
# its modifiers ("cycles:H" as "cycles") and without the padding before it
# (to the longest name).  A pipe file of perf 4.x sends its EVENT_DESC
# record before its event's attr: perf 6.12 and 7.3 (and hitmap as them)
# name the event from the attr ("cycles:H"), and a file converted from it
# by its EVENT_DESC ("cycles"), as perf 6.1 names both; no file-mode output
# can hold both names.
no_evname() { sed -E 's/([0-9]+\.[0-9]+:( +[0-9]+)?) +([^ :]+)(:[a-zA-Z]+)?: /\1 \3: /' "$1"; }
# evname FILE: the event name of FILE's first sample line (perf script's text)
evname() { sed -nE 's/.*[0-9]+\.[0-9]+: +[0-9]+ +([^ ]+): .*/\1/p' "$1" | head -n 1; }
# same_but_evname V ORIG A B [cpu]: script texts A and B (as perf V prints
# them), of ORIG and of a file converted from it, differ only as no_evname
# allows (and, with "cpu" and where ORIG has no HEADER_NRCPUS, in the CPU
# column, as perf itself prints it): only under perf 6.12 or 7.3, and only
# for a pipe-mode ORIG (the order of records that no_evname describes)
same_but_evname() {
	[ "$1" != 6.1 ] && [ "$(od -An -t u8 -j 8 -N 8 "$2" | tr -d ' ')" = 16 ] || return 1
	if [ "${5:-}" != cpu ] || has_nrcpus "$2"; then cmp -s <(no_evname "$3") <(no_evname "$4")
	else cmp -s <(no_cpu "$3" | no_evname /dev/stdin) <(no_cpu "$4" | no_evname /dev/stdin); fi
}
# evname_why V A B: the SKIP reason for a same_but_evname pass
evname_why() {
	echo "the original's samples name \"$(evname "$2")\", the converted file's \"$(evname "$3")\": perf $1 names a perf 4.x pipe file's event from its attr when the EVENT_DESC came first, and a converted file's by the EVENT_DESC, as perf 6.1 names both"
}
# has_nrcpus FILE: hitmap finds HEADER_NRCPUS in FILE
has_nrcpus() { "$HITMAP" header -i "$1" 2>/dev/null | grep -q '^# nrcpus avail'; }

# cut_meta IN OUT: IN without hitmap's metadata, cut where the trailer
# (its magic 24 bytes from the end, then the offset) says it begins;
# what perf inject leaves out too.  False when IN has no trailer.
cut_meta() {
	local sz magic off
	sz=$(stat -c %s "$1")
	magic=$(od -An -t x8 -j $((sz - 24)) -N 8 "$1" | tr -d ' ')
	[ "$magic" = 31305441544d4d48 ] || return 1
	off=$(od -An -t u8 -j $((sz - 16)) -N 8 "$1" | tr -d ' ')
	head -c "$off" "$1" >"$2"
}
# perf_ksyms: a --kallsyms= option for perf runs whose outputs are compared
# with each other or print no kernel symbol: loading this machine's
# /proc/kallsyms (120k symbols) takes perf ~1.7 s of a 2.5 s `perf script`
# of a small file here, even with -F tid,time or report --header-only.  The
# table it names holds every 32nd symbol and the ones perf relocates the
# kernel map by (_text, _stext, ...), made once per test; perf still prints
# a kernel address as SYMBOL+OFFSET from the file's kernel map and that
# table, so two files whose maps or addresses differ still print
# differently.  Empty when /proc/kallsyms is not readable.
perf_ksyms() {
	local k=$TMP/.kallsyms
	if [ ! -s "$k" ]; then
		awk 'NR % 32 == 0 || $3 ~ /^(_text|_stext|_etext|_end|_sinittext|_einittext|startup_64)$/' \
			/proc/kallsyms >"$k" 2>/dev/null
		[ -s "$k" ] || return 0
	fi
	echo "--kallsyms=$k"
}
# ---- perf oracles: perf-6.1, perf-6.12, perf-7.3 (scripts/setup-oracles.sh)
# HITMAP_PERFS="6.1 7.3" limits the versions a test run compares against.
PERF_VERSIONS="6.1 6.12 7.3"
# perf_cmd V: the command that runs perf V (perf-V, or the system's perf for 6.1)
perf_cmd() {
	if command -v "perf-$1" >/dev/null 2>&1; then echo "perf-$1"
	elif [ "$1" = 6.1 ] && perf version 2>/dev/null | grep -q '^perf version 6\.1\.'; then echo perf
	else return 1; fi
}
# oracle_perfs: the installed versions, oldest first ("6.1 6.12 7.3")
oracle_perfs() {
	local v out=
	for v in ${HITMAP_PERFS:-$PERF_VERSIONS}; do perf_cmd "$v" >/dev/null && out="$out $v"; done
	echo ${out# }
}
# need_perf V [NAME]: true when perf V is installed, else a SKIP line saying why
need_perf() {
	perf_cmd "$1" >/dev/null && return 0
	skip "${2:-perf $1}" "perf $1 is not installed (perf-$1 on PATH; scripts/setup-oracles.sh installs it as root)"
	return 1
}
# sys_perf_compat: the --perf-compat value for the `perf` on PATH (6.1 on
# Debian 12, 7.3 in the Debian 13 chroot; 7.3 for a version hitmap does not know)
sys_perf_compat() {
	local v
	v=$(perf_version)
	case $v in 6.1|6.12|7.3) echo "$v";; *) echo 7.3;; esac
}
# perfv V ARGS...: run perf V
perfv() { local c; c=$(perf_cmd "$1") || return 127; shift; "$c" "$@"; }
# perf_sh V SCRIPT ARGS...: sh -c SCRIPT with `perf` meaning perf V, in one
# process (perf 7.3 runs in a chroot: one entry for a batch of commands)
perf_sh() {
	local v=$1 c; shift
	c=$(perf_cmd "$v") || return 127
	if [ "$c" = perf-7.3 ]; then perf-7.3 --sh "$@"; return; fi
	mkdir -p "$TMP/.perf-$v"
	ln -sf "$(command -v "$c")" "$TMP/.perf-$v/perf"
	local script=$1; shift
	PATH=$TMP/.perf-$v:$PATH sh -c "$script" perf-sh "$@"
}
# perf_each V OUTDIR 'PERF ARGS' FILE...: `perf ARGS -i FILE` for every FILE
# (one batch), stdout in OUTDIR/NAME.out, stderr NAME.err, exit status NAME.rc
# (NAME: the file's basename); each run is cut at 120 s.
perf_each() {
	local v=$1 o=$2 a=$3; shift 3
	mkdir -p "$o"
	perf_sh "$v" 'o=$1; a=$2; shift 2
	for f in "$@"; do
		b=${f##*/}
		timeout 120 perf $a -i "$f" >"$o/$b.out" 2>"$o/$b.err" </dev/null
		echo $? >"$o/$b.rc"
	done' "$o" "$a" "$@"
}
# perf_crash_why FILE.err RC: why perf failed, in a few words
perf_crash_why() {
	local w
	w=$(grep -m1 -o -E 'corrupted size vs. prev_size|incompatible file format|unknown record type|type: 83|double free|Segmentation fault|Aborted' "$1" 2>/dev/null)
	case $2 in 134) w="aborted${w:+: $w}";; 139) w="segfault${w:+: $w}";; 124) w="timed out";; esac
	echo "${w:-exit $2: $(head -n 1 "$1" | cut -c1-80)}"
}
# contention_here: perf itself sees bucket-lock contention here.  Prints the
# number of lock:contention_begin events that 2 threads of perf bench futex
# hash caused in 1 s (measured once per test run, cached); a busy or
# overcommitted 2-vCPU VM may run the two threads by turns and see none, and
# then a test that needs contention skips with that count as its reason.
contention_count() { # [fresh]: measure now, not a count up to 10 minutes old
	local c=${HITMAP_BUILD:-build}/.contention-count
	if [ -n "${1:-}" ] || [ ! -s "$c" ] || [ $(( $(date +%s) - $(stat -c %Y "$c") )) -gt 600 ]; then
		perf stat -x, -e lock:contention_begin -- perf bench futex hash -t 2 -r 1 2>&1 >/dev/null |
			awk -F, '/contention_begin/ {print $1+0}' >"$c" 2>/dev/null
	fi
	cat "$c" 2>/dev/null || echo 0
}
contention_here() { have_perf && [ "$(contention_count)" -ge "${HITMAP_MIN_CONTENTION:-20}" ]; }
no_contention_why() { echo "perf stat counted $(contention_count) lock:contention_begin events for 2 threads of perf bench futex hash in 1 s here (fewer than ${HITMAP_MIN_CONTENTION:-20}): the CPUs ran the threads by turns, nothing contends"; }
# peak_rss_kb CMD...: the command's peak resident set in KB (/usr/bin/time),
# its output dropped; empty when time(1) is missing or failed
peak_rss_kb() { /usr/bin/time -f '%M' -o "$TMP/peak-rss" "$@" >/dev/null 2>&1; tail -n 1 "$TMP/peak-rss" 2>/dev/null; }
# fail_nc NAME WHY: a check that needs lock contention failed; it fails when
# perf sees contention here now, and is skipped with perf's count otherwise.
# The count is the benchmark's own (not -a: other jobs' lock contention,
# say another test run's, says nothing about the futex buckets), measured
# again at the failure.
fail_nc() { contention_count fresh >/dev/null; if contention_here; then fail "$1" "$2"; else skip "$1" "$(no_contention_why)"; fi; }
# perf_batch V OUTDIR JOBS: one batch of perf V commands; each line of the
# file JOBS is "NAME STDIN ARGS...": `perf ARGS` with stdout OUTDIR/NAME.out,
# stderr NAME.err, exit status NAME.rc; STDIN is - (none), a file read as
# stdin, or |FILE (FILE through cat, a pipe).  ARGS are split at blanks.
# The fixtures' folder goes to the wrapper as an argument too: perf 7.3's
# chroot mounts the folders of its arguments, not of paths in JOBS.
perf_batch() {
	local v=$1 o=$2 jobs=$3
	mkdir -p "$o"
	perf_sh "$v" 'o=$1
	while read -r n in args; do
		[ -n "$n" ] || continue
		case $in in
		-) timeout 120 perf $args >"$o/$n.out" 2>"$o/$n.err" </dev/null;;
		"|"*) cat "${in#|}" | timeout 120 perf $args >"$o/$n.out" 2>"$o/$n.err";;
		*) timeout 120 perf $args <"$in" >"$o/$n.out" 2>"$o/$n.err";;
		esac
		echo $? >"$o/$n.rc"
	done <"$2"' "$o" "$jobs" ${FIXTURES:+"$(readlink -f "$FIXTURES" 2>/dev/null || echo "$FIXTURES")"}
}
# perf_ran V OUTDIR NAME: true when the run NAME (perf_each, perf_batch) of
# perf V exited 0; else a FAIL line with perf_crash_why's reason (a SKIP for
# perf 6.12's known heap abort on some files) and false
perf_ran() {
	local v=$1 o=$2 n=$3 rc why
	rc=$(cat "$o/$n.rc" 2>/dev/null || echo missing)
	[ "$rc" = 0 ] && return 0
	why=$(perf_crash_why "$o/$n.err" "$rc")
	if [ "$v" = 6.12 ] && grep -q 'corrupted size vs. prev_size' "$o/$n.err" 2>/dev/null; then
		skip "perf $v $n" "perf 6.12 aborts in its own heap ($why); the other versions read the file"
	else
		fail "perf $v $n" "$why"
	fi
	return 1
}
