#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Files hitmap's writer makes (through hm-gen) open in every installed perf
# (6.1, 6.12, 7.3) without errors: perf script, perf report -D, perf c2c
# report --stdio, perf mem report and perf report --header-only, with the
# sample counts that were written; the hitmap metadata (after the feature
# sections, found by its trailer) is ignored harmlessly.  Each version runs
# its commands in one batch; a version that crashes on a file is named with
# the reason (perf_crash_why) and the file is held against the others.
. tests/lib.sh

GEN=$PWD/$HITMAP_BUILD/tools/hm-gen
N=3000
MIXES="intel-snb intel-skl amd-zen2 amd-zen4 arm random all"

if [ ! -x "$GEN" ]; then
	skip writer-perf "no $GEN; build with make O=$HITMAP_BUILD tests"
	done_tests
fi
PERFS=$(oracle_perfs)
if [ -z "$PERFS" ]; then
	skip writer-perf "no perf installed (apt-get install linux-perf; scripts/setup-oracles.sh for 6.12 and 7.3)"
	done_tests
fi

# Error lines on stderr, minus perf's notes about this host's kallsyms.
errors() {
	grep -v -E 'kptr_restrict|Kernel address maps|^Warning:$|kallsyms nor vmlinux|^can.t be resolved|Samples in kernel modules|^$' "$1" |
		grep -i -E 'error|fail|invalid|unsupported|bug|unknown|can.t|cannot|corrupt|mismatch|incompatible|not set|skipping' | head -n 3
}

# no_errors NAME FILE: PASS when FILE has no error line
no_errors() {
	local e
	e=$(errors "$2")
	if [ -z "$e" ]; then pass "$1"; else fail "$1" "$e"; fi
}

eq() {	# eq NAME GOT WANT
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi
}

# ---- the files, once
for mix in $MIXES; do
	check "hm-gen $mix" "$GEN" -o "$TMP/$mix.data" -n $N --mix $mix --seed 3
done
# Without MMAP2 records every sample is a "No Page Map Reject" (intel-snb
# with --noaddr 0: every sample parses and has an address, so none stops
# before c2c's map check).
"$GEN" -o "$TMP/nm.data" -n 1000 --no-mmap --mix intel-snb --noaddr 0
# Bigger topology: 4 nodes, 16 CPUs; c2c -N shows data nodes from PHYS_ADDR.
"$GEN" -o "$TMP/n4.data" -n 2000 --nodes 4 --cpus 16 --mix intel-skl
"$GEN" -o "$TMP/meta.data" -n 1000
# The other byte order (--swap, big-endian) and the native file of the same seed
"$GEN" -o "$TMP/le.data" -n 3000 --seed 5 && "$GEN" -o "$TMP/be.data" -n 3000 --seed 5 --swap

# ---- one batch of perf commands per version; NAME.out/.err/.rc in $TMP/vV
cat >"$TMP/batch.sh" <<'SH'
# $1: the files' folder, $2: the output folder, $3: the mixes
d=$1 o=$2 mixes=$3
mkdir -p "$o"
run() {	# run NAME CMD...: stdout NAME.out, stderr NAME.err, status NAME.rc
	n=$1; shift
	timeout 120 "$@" >"$o/$n.out" 2>"$o/$n.err" </dev/null
	echo $? >"$o/$n.rc"
}
for mix in $mixes; do
	f=$d/$mix.data
	[ -s "$f" ] || continue
	run "s.$mix" perf script -i "$f"
	run "d.$mix" perf report -D -i "$f"
	run "c.$mix" perf c2c report --stdio -i "$f"
	case $mix in random|all) ;; *) run "m.$mix" perf mem report --stdio -i "$f";; esac
	run "h.$mix" perf report --header-only -I -i "$f"
done
run nm perf c2c report --stdio -i "$d/nm.data"
run n4 perf c2c report --stdio -N -i "$d/n4.data"
run n4h perf report --header-only -I -i "$d/n4.data"
run inj perf inject -i "$d/meta.data" -o "$o/inj.data"
run injs perf script -i "$o/inj.data"
for e in le be; do
	run "$e.s" perf script -i "$d/$e.data"
	run "$e.c" perf c2c report --stdio -N -i "$d/$e.data"
	run "$e.h" perf report --header-only -I -i "$d/$e.data"
done
SH

ok() { perf_ran "$1" "$TMP/v$1" "$2"; }

for v in $PERFS; do
	P="perf $v"
	O=$TMP/v$v
	perf_sh "$v" 's=$1; shift; . "$s"' "$TMP/batch.sh" "$TMP" "$O" "$MIXES"
	for mix in $MIXES; do
		[ -s "$TMP/$mix.data" ] || continue
		if ok "$v" "s.$mix"; then
			eq "$P script $mix sample count" "$(wc -l <"$O/s.$mix.out")" $N
			no_errors "$P script $mix stderr clean" "$O/s.$mix.err"
		fi
		if ok "$v" "d.$mix"; then
			eq "$P report -D $mix samples" "$(grep -c 'PERF_RECORD_SAMPLE(' "$O/d.$mix.out")" $N
			eq "$P report -D $mix records" "$(awk '/TOTAL events:/ { print $3; exit }' "$O/d.$mix.out")" $((N + 8 + 4 + (N / 4096) + 1))
			no_errors "$P report -D $mix stderr clean" "$O/d.$mix.err"
		fi
		if ok "$v" "c.$mix"; then
			eq "$P c2c report $mix total records" "$(awk -F: '/Total records/ { gsub(/ /, "", $2); print $2; exit }' "$O/c.$mix.out")" $N
			eq "$P c2c report $mix all mapped" "$(awk -F: '/No Page Map Rejects/ { gsub(/ /, "", $2); print $2; exit }' "$O/c.$mix.out")" 0
			no_errors "$P c2c report $mix stderr clean" "$O/c.$mix.err"
		fi
		# perf mem report for the vendor encodings (perf 6.1's mem-level
		# formatter overflows its stack on random data_src bit patterns).
		if [ -f "$O/m.$mix.rc" ] && ok "$v" "m.$mix"; then
			no_errors "$P mem report $mix stderr clean" "$O/m.$mix.err"
		fi
		if ok "$v" "h.$mix"; then
			check "$P header-only $mix hostname" grep -q '^# hostname : hm-gen' "$O/h.$mix.out"
			check "$P header-only $mix event names" grep -q 'name = cpu/mem-stores/P' "$O/h.$mix.out"
			check "$P header-only $mix memory nodes" grep -q 'memory nodes (nr 2' "$O/h.$mix.out"
			no_errors "$P report --header-only $mix stderr clean" "$O/h.$mix.err"
		fi
	done
	if ok "$v" nm; then
		eq "$P c2c --no-mmap: all samples unmapped" "$(awk -F: '/No Page Map Rejects/ { gsub(/ /, "", $2); print $2; exit }' "$O/nm.out")" 1000
	fi
	if ok "$v" n4; then
		no_errors "$P c2c 4 nodes stderr clean" "$O/n4.err"
		nodes=$(awk '/Shared Data Cache Line Table/ { t = 1 } t && $1 ~ /^[0-9]+$/ && $2 ~ /^0x/ { print $3 }' "$O/n4.out" | sort -u | tr '\n' ' ')
		eq "$P c2c data nodes from PHYS_ADDR + MEM_TOPOLOGY" "$nodes" "0 1 2 3 "
	fi
	ok "$v" n4h && check "$P header-only 4 nodes: node3 cpu list 12-15" grep -q '^# node3 cpu list : 12-15' "$O/n4h.out"
	# perf inject reads and rewrites a writer file, metadata and all (perf 6.1
	# inject indexes feat_ops[] with every set feature bit and crashes on bits
	# it does not know: that is why the metadata is not a feature section).
	ok "$v" inj && ok "$v" injs && eq "$P inject output keeps every sample (file with hitmap metadata)" "$(wc -l <"$O/injs.out")" 1000
	# big-endian: perf reads it exactly as the native file of the same seed
	if ok "$v" le.s && ok "$v" be.s; then
		check "$P script big-endian = native" cmp "$O/le.s.out" "$O/be.s.out"
		no_errors "$P script big-endian stderr clean" "$O/be.s.err"
	fi
	ok "$v" le.c && ok "$v" be.c && check "$P c2c report big-endian = native" cmp "$O/le.c.out" "$O/be.c.out"
	if ok "$v" le.h && ok "$v" be.h; then
		grep -v -E 'captured on|cmdline|data offset|data size|feat offset' "$O/le.h.out" >"$O/le.hh"
		grep -v -E 'captured on|cmdline|data offset|data size|feat offset' "$O/be.h.out" >"$O/be.hh"
		check "$P report --header-only big-endian = native" cmp "$O/le.hh" "$O/be.hh"
	fi
done

# The hitmap metadata is really there: outside the feature index (no bit
# above 34 set), located by the "HMMTAT01" trailer that ends the file.
f=$TMP/all.data
if [ -s "$f" ]; then
	b=$(od -An -tx8 -j 96 -N8 "$f" | tr -d ' ')
	eq "feature bits 192-255 clear" "$b" 0000000000000000
	eq "file ends with the hitmap metadata trailer" "$(tail -c 24 "$f" | head -c 8)" HMMTAT01
fi
"$GEN" -o "$TMP/nometa.data" -n 1000 --no-meta
if [ "$(tail -c 24 "$TMP/nometa.data" | head -c 8)" = HMMTAT01 ]; then
	fail "--no-meta: no metadata trailer" "trailer present"
else
	pass "--no-meta: no metadata trailer"
fi
check "--swap magic 2ELIFREP" test "$(head -c 8 "$TMP/be.data")" = 2ELIFREP

# Determinism: the same seed gives the same bytes; another seed does not.
# (The output path is part of CMDLINE, so write the same path each time.)
"$GEN" -o "$TMP/a.data" -n 2000 --seed 9 && cp "$TMP/a.data" "$TMP/a1.data" &&
	"$GEN" -o "$TMP/a.data" -n 2000 --seed 9 && cp "$TMP/a.data" "$TMP/a2.data" &&
	"$GEN" -o "$TMP/a.data" -n 2000 --seed 10
check "hm-gen deterministic for a seed" cmp -s "$TMP/a1.data" "$TMP/a2.data"
if cmp -s "$TMP/a1.data" "$TMP/a.data"; then fail "hm-gen seed changes output" "identical"; else pass "hm-gen seed changes output"; fi

# Bad options give a one-line error and a non-zero exit.
if "$GEN" -o "$TMP/x.data" --mix nosuch 2>"$TMP/bad.err"; then fail "hm-gen bad --mix" "exit 0"; else
	check "hm-gen bad --mix message" grep -q "unknown 'nosuch'" "$TMP/bad.err"; fi
if "$GEN" 2>"$TMP/bad.err"; then fail "hm-gen without -o" "exit 0"; else pass "hm-gen without -o"; fi

done_tests
