#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Oracle: hitmap report --pareto prints perf c2c report --stdio's "Shared Data
# Cache Line Table" and "Shared Cache Line Distribution Pareto" line for line
# (rows per code address, cpu cnt, PA cnt, Node column with -N and -NN, the
# cycles split, symbol/object/source columns and their widths, sorting and
# filters) for -d tot/rmt/lcl/peer, -c iaddr, pid,iaddr, tid,pid,iaddr,dso and
# others, --show-all and --full-symbols; on hm-gen files (Intel, AMD, Arm
# peer encodings, 2 and 4 nodes, with and without maps and PHYS_ADDR) and on
# the real Skylake-SP PEBS fixture.  Against perf 6.1 always, 6.12 and 7.3
# where installed: rows cut where each version's row buffer ends (-NN cpu
# lists on 512 CPUs), --double-cl's Double-Cacheline title.
#
# Also on hitmap simulate files (kernel-mode samples of the futex code on
# Intel, AMD and Arm presets; Arm: SPE data, perf's default display is peer).
#
# Normalised: nothing inside the compared sections.  Only the two sections
# are compared (from the "Shared Data Cache Line Table" title to the end of
# the output); the stat blocks above them have their own oracle
# (report-oracle.sh).  perf's stderr is ignored.  On simulated files hitmap
# is given the running kernel's symbols (--kallsyms /proc/kallsyms): perf 6.1
# c2c has no --kallsyms and resolves the simulated kernel addresses with them,
# while hitmap would use the model's symbols the file carries.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
HM_EXTRA=

perf_for() {	# perf_for VERSION: the binary, or nothing
	if command -v "perf-$1" >/dev/null 2>&1; then
		echo "perf-$1"
	elif command -v perf >/dev/null 2>&1 && perf --version 2>/dev/null | grep -q "version $1\."; then
		echo perf
	fi
}
P61=$(perf_for 6.1)
if [ -z "$P61" ]; then skip "report pareto" "perf 6.1 is not installed (scripts/setup-oracles.sh)"; done_tests; fi
if [ ! -x "$GEN" ]; then skip "report pareto" "$GEN not built (make tests)"; done_tests; fi

sections() { sed -n '/^           Shared Data Cache Line Table/,$p' "$1"; }

# same PERF NAME FILE OPTS...: the sections of perf's and hitmap's output are identical
same() {
	local perf=$1 n=$2 f=$3
	shift 3
	if ! timeout 120 "$perf" c2c report --stdio -i "$f" "$@" >"$TMP/p.txt" 2>"$TMP/p.err"; then
		fail "$n: $perf c2c report $*" "exit $?: $(tail -n 1 "$TMP/p.err")"
		return 1
	fi
	# hitmap counts as the perf it is compared with (--perf-compat)
	local compat=6.1
	case $perf in perf-*) compat=${perf#perf-};; esac
	if ! "$HITMAP" report --pareto --perf-compat "$compat" $HM_EXTRA -i "$f" "$@" >"$TMP/h.txt" 2>"$TMP/h.err"; then
		fail "$n: hitmap report --pareto $*" "$(tail -n 1 "$TMP/h.err")"
		return 1
	fi
	sections "$TMP/p.txt" >"$TMP/p.sec"
	sections "$TMP/h.txt" >"$TMP/h.sec"
	local rows
	rows=$(grep -c '^  [ 0-9.]*%' "$TMP/p.sec")
	if [ ! -s "$TMP/p.sec" ]; then
		fail "$n: $perf $*" "perf printed no table"
	elif diff "$TMP/p.sec" "$TMP/h.sec" >"$TMP/diff"; then
		pass "$n: $perf $* ($(wc -l <"$TMP/p.sec") lines, $rows Pareto rows) identical"
		return 0
	else
		fail "$n: $perf $*" "$(grep -c '^[<>]' "$TMP/diff") lines differ, first: $(grep -m1 '^[<>]' "$TMP/diff" | cut -c1-160)"
	fi
	return 1
}

gen() {	# gen NAME OPTS...
	local n=$1
	shift
	if ! "$GEN" -o "$TMP/$n.data" "$@" >"$TMP/gen.out" 2>&1; then
		fail "hm-gen $n" "$(tail -n 1 "$TMP/gen.out")"
		return 1
	fi
}

gen skl -n 4000 -l 120 --nodes 2 --cpus 8 --seed 3 --mix intel-skl --stores 25
gen all4 -n 6000 -l 200 --nodes 4 --cpus 16 --seed 5 --mix all --stores 25 --noaddr 2
gen zen2 -n 3000 -l 100 --nodes 2 --cpus 8 --seed 7 --mix amd-zen2 --no-mmap
gen arm -n 3000 -l 100 --nodes 2 --cpus 8 --seed 9 --mix arm --no-phys --stores 30

same "$P61" skl "$TMP/skl.data"
same "$P61" skl "$TMP/skl.data" -NN
same "$P61" skl "$TMP/skl.data" -N -c tid,pid,iaddr,dso
same "$P61" skl "$TMP/skl.data" -d lcl --full-symbols
same "$P61" skl "$TMP/skl.data" --show-all -c tid
same "$P61" all4 "$TMP/all4.data" -NN
same "$P61" all4 "$TMP/all4.data" -NN -c tid,pid,iaddr,dso
same "$P61" all4 "$TMP/all4.data" -d lcl -c dso
same "$P61" zen2 "$TMP/zen2.data" -N -c pid,iaddr
same "$P61" zen2 "$TMP/zen2.data" -c tid,pid,iaddr,dso --no-source
same "$P61" arm "$TMP/arm.data" -d peer -NN -c tid,pid,iaddr,dso

for v in 6.12 7.3; do
	pv=$(perf_for $v)
	if [ -z "$pv" ]; then
		skip "perf $v oracle" "perf-$v is not installed"
		continue
	fi
	# perf 7.3 decodes some data_src values of --mix all differently
	# (local HITM vs L2/LLC hits: counts, not layout), so the vendor mixes
	# that every version counts alike are used for all versions
	same "$pv" skl "$TMP/skl.data" -NN -c pid,iaddr
	same "$pv" zen2 "$TMP/zen2.data" -N -c tid,pid,iaddr,dso
	same "$pv" arm "$TMP/arm.data" -d peer -N
done

# simulated futex hash runs: kernel code and data, 2 sockets
if ! awk 'NR == 1 { exit !($1 ~ /[1-9a-f]/) }' /proc/kallsyms 2>/dev/null; then
	skip "simulated files" "/proc/kallsyms is unreadable or hides addresses (kptr_restrict)"
else
	sim() {	# sim NAME OPTS...
		local n=$1
		shift
		if ! "$HITMAP" simulate "$@" --ops 100000 --period 50 -o "$TMP/$n.data" >/dev/null 2>"$TMP/sim.err"; then
			fail "simulate $n" "$(tail -n 1 "$TMP/sim.err")"
			return 1
		fi
	}
	sim skx --preset skx --sockets 2 --cores 4 --kernel 6.16 --threads 8 --futexes 256
	sim zen4 --preset zen4 --kernel 6.12 --shared --threads 16 --futexes 128
	sim altra --preset altra --kernel 6.17 --threads 16 --futexes 128
	HM_EXTRA="--kallsyms /proc/kallsyms"
	same "$P61" sim-skx "$TMP/skx.data" -NN -c pid,iaddr
	same "$P61" sim-skx "$TMP/skx.data" -N -c tid,pid,iaddr,dso
	same "$P61" sim-skx "$TMP/skx.data" -d rmt --show-all --full-symbols
	same "$P61" sim-zen4 "$TMP/zen4.data" -d lcl -N -c tid --call-graph none
	for v in 6.12 7.3; do
		pv=$(perf_for $v)
		[ -n "$pv" ] || continue
		same "$pv" sim-skx "$TMP/skx.data" -N -c tid,pid,iaddr,dso
	done
	# -NN on 512 CPUs: the cpu lists run past every perf's row buffer, whose
	# colour room grew with PERF_HPP__MAX_INDEX (8, 11, 18 fields: 6.1,
	# 6.12, 7.3), so rows end at 466, 550 and 746 characters here
	"$HITMAP" simulate --sockets 2 --cores 256 --ops 10240 --period 50 -o "$TMP/wide.data" \
		>/dev/null 2>"$TMP/sim.err" || fail "simulate wide" "$(tail -n 1 "$TMP/sim.err")"
	for v in $PERF_VERSIONS; do
		pv=$(perf_for $v)
		if [ -z "$pv" ]; then
			skip "sim-wide -NN perf $v" "perf-$v is not installed"
			continue
		fi
		if same "$pv" sim-wide "$TMP/wide.data" -NN; then
			# the file must reach the cut: rows whose cpu list perf left open
			cut=$(awk '/ 0\{/ && !/}$/ { n++; if (length($0) > m) m = length($0) } END { print n + 0, m + 0 }' "$TMP/p.sec")
			[ "${cut% *}" -gt 0 ] && pass "sim-wide -NN perf $v: ${cut% *} rows cut at ${cut#* } characters, as perf's" ||
				fail "sim-wide -NN perf $v" "no row reaches perf $v's row buffer: the file tests nothing"
		fi
	done
	# the Arm preset writes Arm SPE AUX data: of these perfs only 7.3 (built
	# with OpenCSD) decodes it on x86; 6.1 and 6.12 see no samples
	p73=$(perf_for 7.3)
	if [ -n "$p73" ]; then
		same "$p73" sim-altra "$TMP/altra.data" -NN
		same "$p73" sim-altra "$TMP/altra.data" -N -c tid,pid,iaddr,dso
	else
		skip "sim-altra" "perf-7.3 (the perf here that decodes Arm SPE) is not installed"
	fi
	HM_EXTRA=
fi

# --double-cl (perf 6.3+): the line address column's title is Double-Cacheline
for v in 6.12 7.3; do
	pv=$(perf_for $v)
	[ -n "$pv" ] || continue
	same "$pv" skl "$TMP/skl.data" --double-cl
	same "$pv" zen2 "$TMP/zen2.data" -NN --double-cl -c tid,pid,iaddr
done
# perf 6.1 has no --double-cl; hitmap keeps it, titled as every perf that has it
h0=$("$HITMAP" report --pareto --perf-compat 6.1 --double-cl -i "$TMP/skl.data" 2>/dev/null |
	sed -n '/Shared Data Cache Line Table/,/Pareto/p' | grep -m1 '^#  ')
case $h0 in
*"------- Double-Cacheline -------"*) pass "--perf-compat 6.1 --double-cl: Double-Cacheline header";;
*) fail "--perf-compat 6.1 --double-cl" "header '$h0'";;
esac
h0=$("$HITMAP" report --pareto --perf-compat 6.1 -i "$TMP/skl.data" 2>/dev/null |
	sed -n '/Shared Data Cache Line Table/,/Pareto/p' | grep -m1 '^#  ')
case $h0 in
*"----------- Cacheline ----------"*) pass "--perf-compat 6.1: Cacheline header";;
*) fail "--perf-compat 6.1 Cacheline" "header '$h0'";;
esac

# hitmap's own -d cost: every line with load cost, lines without HITMs included
out=$("$HITMAP" report --pareto -i "$TMP/zen2.data" -d cost 2>/dev/null)
hdr=$(printf '%s\n' "$out" | sed -n '/Shared Data Cache Line Table/,/Pareto/p' | grep -m1 '^# Index')
nl=$(printf '%s\n' "$out" | sed -n '/Shared Data Cache Line Table/,/Pareto/p' | grep -c '^ *[0-9][0-9]*  *0x')
nz=$(printf '%s\n' "$out" | sed -n '/Shared Data Cache Line Table/,/Pareto/p' |
	awk '$1 ~ /^[0-9]+$/ && $2 ~ /^0x/ && $6 == 0' | wc -l)
nh=$("$P61" c2c report --stdio -i "$TMP/zen2.data" 2>/dev/null |
	sed -n '/Shared Data Cache Line Table/,/Pareto/p' | grep -c '^ *[0-9][0-9]*  *0x')
if printf '%s\n' "$hdr" | grep -q ' Cost ' && [ "$nz" -gt 0 ] && [ "$nl" -gt "$nh" ]; then
	pass "-d cost: column labelled Cost, $nl lines ($nz without HITMs; perf's HITM view has $nh)"
else
	fail "-d cost" "header '$hdr', $nl lines, $nz without HITMs, perf's HITM view $nh"
fi

# a bad -c token is a usage error naming the token
"$HITMAP" report --pareto -i "$TMP/skl.data" -c pid,foo >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "foo" "$TMP/err"; then
	pass "-c pid,foo: exit 2 naming the token"
else
	fail "-c pid,foo" "exit $rc: $(head -n 1 "$TMP/err")"
fi

# the real PEBS fixture: no HITMs, so --show-all (and -d cost) show its lines
fx=$FIXTURES/perf_data_converter/perf.data.weight_struct
if [ ! -f "$fx" ]; then
	skip "fixture weight_struct" "$fx not found (set HITMAP_FIXTURES)"
else
	# perf 6.1 dies of SIGPIPE when addr2line cannot open the fixture's
	# binaries (absent here), so its source column is left out for 6.1
	same "$P61" fixture "$fx" --show-all --no-source -NN -c pid,iaddr
	same "$P61" fixture "$fx" --show-all --no-source -N -c tid,pid,iaddr,dso
	# (perf 7.3 is not compared here: it maps one more kernel sample of this
	# file, No Page Map Rejects 8 instead of 6.1's 9, which moves that line
	# first and with it the header's column widths; the layout is 6.1's)
	p612=$(perf_for 6.12)
	if [ -n "$p612" ]; then
		same "$p612" fixture "$fx" --show-all -NN -c tid,pid,iaddr,dso
	else
		skip "fixture perf 6.12" "perf-6.12 is not installed"
	fi
	nr=$("$HITMAP" report --pareto -i "$fx" -d cost 2>/dev/null | sed -n '/Distribution Pareto/,$p' |
		grep -c '^  *0\.00%')
	[ "$nr" -eq 14 ] && pass "fixture -d cost: 14 Pareto rows of loads without HITMs" ||
		fail "fixture -d cost" "$nr Pareto rows, expected 14"
fi
done_tests
