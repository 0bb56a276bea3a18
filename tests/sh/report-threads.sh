#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# report --threads N: the output must not depend on N.  --threads 1 and
# --threads 4 byte-identical on simulated files (several presets and
# kernels), generated files (every vendor encoding, contention mode), the
# same files as pipes and zstd-compressed, and the real fixtures read in
# place; for the text report, the futex views, JSON, CSV, HTML and
# perf's Pareto layout; --lkp, which builds the counts alone, against
# the full pass's counts; and 2, 3 and 16 threads on two generated files;
# the file cut in ranges (one a thread) on a generated file and a futex
# simulation, the futex views too (fields naming their first functions of
# the whole file), also on files perf's inject rewrote.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
CGEN=$HITMAP_BUILD/tools/hm-cont-gen
files=()

# simulated futex workloads: presets (Intel, AMD, Arm with SPE samples) and kernels
sim() {	# NAME ARGS...
	local n=$1; shift
	if "$HITMAP" simulate --ops 10000 --seed 3 -o "$TMP/$n.data" "$@" >/dev/null 2>"$TMP/$n.err"; then
		files+=("$TMP/$n.data")
	else
		skip "report-threads: $n" "hitmap simulate $* failed: $(tail -n 1 "$TMP/$n.err")"
	fi
}
sim srf-6.16 --sockets 2 --kernel 6.16
sim skx-6.12 --preset skx --kernel 6.12
sim zen4-7.3 --preset zen4 --kernel 7.3
sim altra-6.17 --preset altra --kernel 6.17 --spe-samples
if [ -x "$GEN" ]; then
	"$GEN" -o "$TMP/gen.data" -n 60000 -l 3000 --nodes 2 --cpus 16 --seed 5 --phys --mix all >/dev/null &&
		files+=("$TMP/gen.data")
	"$GEN" -o "$TMP/gen-swap.data" -n 20000 -l 500 --seed 6 --mix arm --swap >/dev/null &&
		files+=("$TMP/gen-swap.data")
	# no samples at all, also as a pipe (set up at its end, the line table's workers too)
	"$GEN" -o "$TMP/empty.data" -n 0 --seed 7 >/dev/null && files+=("$TMP/empty.data") &&
		"$HITMAP" convert -i "$TMP/empty.data" -o - >"$TMP/empty.pipe.data" 2>/dev/null &&
		files+=("$TMP/empty.pipe.data")
else
	skip "report-threads: generated files" "no $GEN (make tests)"
fi
if [ -x "$CGEN" ]; then
	"$CGEN" -o "$TMP/cont.data" -e "$TMP/cont.exp" -n 20000 >/dev/null && files+=("$TMP/cont.data")
	"$CGEN" -o "$TMP/cont-nr.data" -e "$TMP/cont-nr.exp" -n 20000 --no-rounds >/dev/null &&
		files+=("$TMP/cont-nr.data")
fi
# pipe and compressed forms of two of them
for b in srf-6.16 gen; do
	[ -f "$TMP/$b.data" ] || continue
	"$HITMAP" convert -i "$TMP/$b.data" -o - >"$TMP/$b.pipe.data" 2>/dev/null && files+=("$TMP/$b.pipe.data")
	"$HITMAP" convert -i "$TMP/$b.data" -o "$TMP/$b.zst.data" -z >/dev/null 2>&1 && files+=("$TMP/$b.zst.data")
	"$HITMAP" convert -i "$TMP/$b.data" -o - -z --compressed2 >"$TMP/$b.zst2.pipe.data" 2>/dev/null &&
		files+=("$TMP/$b.zst2.pipe.data")
done
# the real fixtures, in place
if [ -d "$FIXTURES" ]; then
	for f in "$FIXTURES"/linux-perf-data/*.data "$FIXTURES"/perf_data_converter/perf.data.numatopology-3.2 \
		 "$FIXTURES"/perf_data_converter/multi-event-single-process.perf.data; do
		[ -f "$f" ] && files+=("$f")
	done
else
	skip "report-threads: fixtures" "no $FIXTURES (set HITMAP_FIXTURES)"
fi

# same_unless NAME WHY: failed NAME for WHY, or same NAME where WHY is empty
same_unless() {
	if [ -n "$2" ]; then fail "$1" "$2"; else same_out "$1"; fi
}

# differs NAME RA RB: whether the runs in $TMP/a.* and $TMP/b.* (exit RA and
# RB) differ in exit, stdout or stderr; if so, NAME fails with the difference
differs() {
	if [ "$2" != "$3" ] || ! cmp -s "$TMP/a.out" "$TMP/b.out" || ! cmp -s "$TMP/a.err" "$TMP/b.err"; then
		fail "$1" "exit $2/$3; $(diff "$TMP/a.out" "$TMP/b.out" | head -n 3 | tr '\n' ' ')$(diff "$TMP/a.err" "$TMP/b.err" | head -n 2 | tr '\n' ' ')"
		return 0
	fi
	return 1
}

# tally NAME TEXT: after a loop that counted $n outputs and $bad failures
# (each failed on its own), pass TEXT when all agreed; none read fails NAME
tally() {
	if [ $n -gt 0 ] && [ $bad = 0 ]; then
		pass "$2"
	elif [ $n = 0 ]; then
		fail "$1" "no file could be reported"
	fi
}

# views: text, futex views, JSON, CSV, HTML, Pareto
views=("" "--by bucket" "--by field" "--by socket" "--json" "--csv" "--html -" "--pareto" "-N --show-all")
short=("" "--json" "--by bucket")
n=0 bad=0 skipped=0
for f in "${files[@]}"; do
	# every view on one file of each kind, the main ones on the others
	case ${f##*/} in
	srf-6.16.data|zen4-7.3.data|altra-6.17.data|gen.data|cont.data|gen.zst2.pipe.data|empty.pipe.data)
		vs=("${views[@]}");;
	*) vs=("${short[@]}");;
	esac
	for v in "${vs[@]}"; do
		# shellcheck disable=SC2086
		"$HITMAP" report --threads 1 -i "$f" $v >"$TMP/a.out" 2>"$TMP/a.err"; ra=$?
		# shellcheck disable=SC2086
		"$HITMAP" report --threads 4 -i "$f" $v >"$TMP/b.out" 2>"$TMP/b.err"; rb=$?
		if [ $ra != 0 ] && [ $ra = $rb ] && cmp -s "$TMP/a.err" "$TMP/b.err"; then
			skipped=$((skipped + 1))	# the same error both ways (a view the file has no data for)
			continue
		fi
		n=$((n + 1))
		differs "report-threads: ${f##*/} ${v:-text}" $ra $rb && bad=$((bad + 1))
	done
done
tally "report-threads" \
	"report-threads: --threads 1 = --threads 4, byte for byte ($n outputs of ${#files[@]} files; $skipped failed the same way both times)"

# --lkp alone builds only the counts (counts_only): its lines must be the
# full pass's, which --lkp --html FILE runs (the page reads every view), with
# one thread and with four (the file in ranges where it is large enough)
n=0 bad=0
for f in "${files[@]}"; do
	"$HITMAP" report --threads 1 -i "$f" --lkp --html "$TMP/full.html" >"$TMP/a.out" 2>"$TMP/a.err"; ra=$?
	for t in 1 4; do
		HITMAP_RANGE_BYTES=1 "$HITMAP" report --threads $t -i "$f" --lkp >"$TMP/b.out" 2>"$TMP/b.err"; rb=$?
		n=$((n + 1))
		# exit, output and warnings: the full pass's futex-table inference
		# reads the file once more first, saying nothing (its reader is quiet)
		differs "report-threads: ${f##*/} --lkp --threads $t = the full pass's counts and warnings" $ra $rb &&
			bad=$((bad + 1))
	done
done
tally "report-threads: --lkp" \
	"report-threads: --lkp (the counts alone) = the full pass's --lkp, 1 and 4 threads ($n outputs of ${#files[@]} files)"

# other thread counts (shards = 4 per thread; the reading thread takes shards
# when the workers fall behind, most likely on the larger file's many lines)
if [ -x "$GEN" ] && "$GEN" -o "$TMP/many.data" -n 300000 -l 30000 --nodes 2 --cpus 16 --seed 8 --phys >/dev/null; then
	for f in "$TMP/gen.data" "$TMP/many.data"; do
		[ -f "$f" ] || continue
		for v in "" "--json"; do
			# shellcheck disable=SC2086
			"$HITMAP" report --threads 1 -i "$f" $v >"$TMP/a.out" 2>&1
			for t in 2 3 16; do
				# shellcheck disable=SC2086
				"$HITMAP" report --threads $t -i "$f" $v >"$TMP/b.out" 2>&1
				same_out "report-threads: ${f##*/} ${v:-text} --threads $t = --threads 1"
			done
		done
	done
fi

# the file in ranges, one a thread (report-chunks.c): a generated file and a
# futex simulation (kernel samples) are cut (HITMAP_DEBUG says how), and
# every thread count gives the bytes of one thread, for the
# text, JSON and CSV views and the futex views (which read it in one pass).
# HITMAP_RANGE_BYTES=1: ranges of any size (by default a range needs 32 MB).
if "$HITMAP" simulate --sockets 2 --kernel 6.16 --period 10 --ops 100000 --seed 4 \
	-o "$TMP/ksim.data" --kallsyms "$TMP/ksim.kallsyms" >/dev/null 2>&1; then
	for f in "$TMP/gen.data" "$TMP/many.data" "$TMP/ksim.data"; do
		[ -f "$f" ] || continue
		for t in 2 3 4 16; do
			HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report --threads $t -i "$f" >/dev/null 2>"$TMP/d.err"
			nr=$(sed -n 's/.*report: \([0-9]*\) ranges.*/\1/p' "$TMP/d.err")
			ok=$([ "${nr:-0}" -ge 2 ] && [ "${nr:-0}" -le $t ] && echo 1)
			if [ -n "$ok" ]; then
				pass "report-threads: ${f##*/} --threads $t reads $nr range(s)"
			else
				fail "report-threads: ${f##*/} --threads $t reads ranges" "got '${nr:-none}'"
			fi
		done
		for v in "" "--json" "--csv" "--by bucket" "-N --show-all"; do
			# shellcheck disable=SC2086
			"$HITMAP" report --threads 1 -i "$f" $v >"$TMP/a.out" 2>&1
			for t in 2 3 4 16; do
				# shellcheck disable=SC2086
				HITMAP_RANGE_BYTES=1 "$HITMAP" report --threads $t -i "$f" $v >"$TMP/b.out" 2>&1
				same_out "report-threads: ${f##*/} ${v:-text} in $t ranges = --threads 1"
			done
		done
	done
else
	skip "report-threads: ranges of a futex simulation" "hitmap simulate failed"
fi

# the futex views in ranges (buckets-merge.c): the simulation, and a file
# whose bucket fields see their code move through 8 functions as it goes on
# (hm-futex-gen --drift), so that a field's first 4 functions of the whole
# file are not those of each part: the parts name them all, the merge
# names the first 4 and counts the others together, as one pass does
FGEN=$HITMAP_BUILD/tools/hm-futex-gen
fvfiles=()
[ -f "$TMP/ksim.data" ] && fvfiles+=("$TMP/ksim.data")
if [ -x "$FGEN" ] && "$FGEN" -o "$TMP/drift.data" -e "$TMP/drift.exp" -n 60000 --seed 3 --drift >/dev/null; then
	fvfiles+=("$TMP/drift.data")
	o=$("$HITMAP" report --threads 1 --json --by bucket -i "$TMP/drift.data" |
	    jq '[.buckets[].fields[] | select((.functions | length) == 4 and .other_function_samples > 0)] | length')
	if [ "${o:-0}" -gt 0 ]; then
		pass "report-threads: the drifting file's fields name 4 functions and count others ($o fields)"
	else
		fail "report-threads: the drifting file's fields name 4 functions and count others" "got '${o:-}'"
	fi
else
	skip "report-threads: futex views of a drifting file" "no $FGEN (make tests)"
fi
for f in "${fvfiles[@]}"; do
	for v in "--by bucket" "--by field" "--by socket" "--json --by bucket" "--csv --by field" \
		 "--by bucket --perf-counters"; do
		# shellcheck disable=SC2086
		"$HITMAP" report --threads 1 -i "$f" $v >"$TMP/a.out" 2>"$TMP/a.err"
		for t in 2 3 4; do
			# shellcheck disable=SC2086
			HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report --threads $t -i "$f" $v \
				>"$TMP/b.out" 2>"$TMP/d.err"
			nr=$(sed -n 's/.*report: \([0-9]*\) ranges.*/\1/p' "$TMP/d.err")
			if [ "${nr:-0}" -ge 2 ]; then
				same_out "report-threads: ${f##*/} $v in $nr ranges = --threads 1"
			else
				fail "report-threads: ${f##*/} $v in ranges" "got '${nr:-none}' ranges"
			fi
		done
	done
done
# contention mode is read in one pass: a wait may begin in one range and end in the next
if [ -f "$TMP/cont.data" ]; then
	"$HITMAP" report --threads 1 -i "$TMP/cont.data" --by bucket >"$TMP/a.out" 2>"$TMP/a.err"
	HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report --threads 4 -i "$TMP/cont.data" --by bucket \
		>"$TMP/b.out" 2>"$TMP/d.err"
	if grep -q 'report: [0-9]* ranges' "$TMP/d.err"; then
		fail "report-threads: contention mode's futex views in one pass" "$(grep 'ranges' "$TMP/d.err" | head -n 1)"
	else
		same_out "report-threads: contention mode's futex views in one pass = --threads 1"
	fi
fi

# the same in ranges on files real perf wrote: the futex simulation
# rewritten by each installed perf's inject (which drops hitmap's metadata
# and writes its own rounds), cut and merged like any other file
if [ -f "$TMP/ksim.data" ]; then
	pvs=$(oracle_perfs)
	[ -n "$pvs" ] || skip "report-threads: ranges of perf inject's files" "no perf installed (scripts/setup-oracles.sh)"
	for pv in $pvs; do
		P=$(perf_cmd "$pv")
		if ! "$P" inject -i "$TMP/ksim.data" -o "$TMP/inj.data" >"$TMP/inj.err" 2>&1; then
			fail "report-threads: perf $pv inject" "$(tail -n 1 "$TMP/inj.err")"
			continue
		fi
		# the futex views' tables inferred (inject drops the metadata), the kernel's symbols given
		for v in "" "--json" "--by bucket --kallsyms $TMP/ksim.kallsyms"; do
			# shellcheck disable=SC2086
			"$HITMAP" report --threads 1 -i "$TMP/inj.data" $v >"$TMP/a.out" 2>"$TMP/a.err"
			for t in 2 4; do
				# shellcheck disable=SC2086
				HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report --threads $t -i "$TMP/inj.data" $v \
					>"$TMP/b.out" 2>"$TMP/d.err"
				nr=$(sed -n 's/.*report: \([0-9]*\) ranges.*/\1/p' "$TMP/d.err")
				if [ "${nr:-0}" -ge 2 ]; then
					vn=${v%% --kallsyms*}
					same_out "report-threads: perf $pv inject's file ${vn:-text} in $nr ranges = --threads 1"
				else
					fail "report-threads: perf $pv inject's file in ranges" "got '${nr:-none}' ranges"
				fi
			done
			# the futex views compared have the buckets of the inferred tables: not vacuous
			case $v in --by*)
				nb=$(sed -n '1s/^Futex hash buckets: \([0-9]*\) buckets.*/\1/p' "$TMP/a.out")
				if [ "${nb:-0}" -ge 1000 ]; then
					pass "report-threads: perf $pv inject's file has futex buckets ($nb)"
				else
					fail "report-threads: perf $pv inject's file has futex buckets" "$(head -n 3 "$TMP/a.out" | tr '\n' ' ')"
				fi;;
			esac
		done
	done
fi

# a view that shows the lines must have them: the comparison is not vacuous
if [ -f "$TMP/gen.data" ] && command -v jq >/dev/null; then
	l=$("$HITMAP" report --threads 4 -i "$TMP/gen.data" --json | jq -r '.lines | length' 2>/dev/null)
	if [ "${l:-0}" -gt 10 ]; then
		pass "report-threads: the compared table has lines ($l)"
	else
		fail "report-threads: the compared table has lines" "got '${l:-}'"
	fi
fi
# kernel samples in ranges: the kernel's symbols load once for all the
# parts, and each part starts with the kernel map as the parts before left
# it (perf widens it to kallsyms' range at the first lookup in it, after
# which kernel code and data past the recorded map are found).  A futex
# simulation (all kernel samples), a real file with kernel samples, and
# generated ones (tests/tools/hm-kern-gen --far) whose samples at FAR are
# found only in the widened map: "late" has them in the first ranges, the
# first lookup in the kernel map in a middle one (the parts after the first
# guess "widened" wrongly and run again), "early" widens in the first range
# and has them in every later one; a part that starts from the wrong state
# counts them the other way.  --threads 1 to 4, stdout and stderr.
KGEN=$HITMAP_BUILD/tools/hm-kern-gen
kfiles=() kopts=()
[ -f "$TMP/ksim.data" ] && kfiles+=("$TMP/ksim.data") && kopts+=("")
if [ -f "$FIXTURES/perf_data_converter/perf.data.lost_samples-4.4" ]; then
	kfiles+=("$FIXTURES/perf_data_converter/perf.data.lost_samples-4.4") && kopts+=("")
fi
if [ -x "$KGEN" ]; then
	printf '%s\n' "ffffffff81000000 T _text" "ffffffff81000100 T kfn_a" "ffffffff81000200 T kfn_b" \
		"ffffffff83000000 T far_fn" "ffffffff83100000 T _etext" >"$TMP/far.kallsyms"
	k="--text 0xffffffff81000000 --ip 0xffffffff81000110,0xffffffff81000210 --data 0xffffffff82000040"
	k="$k --far 0xffffffff83000100 --round 10"
	# shellcheck disable=SC2086
	"$KGEN" -o "$TMP/klate.data" $k --pre 400 -n 200 --post 400 >/dev/null &&
		kfiles+=("$TMP/klate.data") && kopts+=("--kallsyms $TMP/far.kallsyms")
	# shellcheck disable=SC2086
	"$KGEN" -o "$TMP/kearly.data" $k --pre 0 -n 10 --post 990 >/dev/null &&
		kfiles+=("$TMP/kearly.data") && kopts+=("--kallsyms $TMP/far.kallsyms")
else
	skip "report-threads: kernel map in ranges, generated" "no $KGEN (make tests)"
fi
for i in "${!kfiles[@]}"; do
	f=${kfiles[$i]} o=${kopts[$i]} cut=0 again=0 n=0 bad=0
	for t in 2 3 4; do
		# shellcheck disable=SC2086
		HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report --threads $t -i "$f" $o >/dev/null 2>"$TMP/d.err"
		nr=$(sed -n 's/.*report: \([0-9]*\) ranges.*/\1/p' "$TMP/d.err")
		[ "${nr:-0}" -ge 2 ] && cut=$((cut + 1))
		grep -q "report: range [0-9]* again" "$TMP/d.err" && again=$((again + 1))
	done
	if [ $cut = 3 ]; then
		pass "report-threads: ${f##*/} (kernel samples) is cut with --threads 2, 3, 4"
	else
		fail "report-threads: ${f##*/} (kernel samples) is cut with --threads 2, 3, 4" "cut $cut times of 3"
	fi
	if [ "${f##*/}" = klate.data ]; then
		if [ $again -gt 0 ]; then
			pass "report-threads: klate.data: a part that guessed the kernel map's state wrongly runs again"
		else
			fail "report-threads: klate.data: a part that guessed the kernel map's state wrongly runs again" \
				"no 'range N again' in HITMAP_DEBUG's lines"
		fi
	fi
	for v in "" "--json" "--csv" "--by bucket" "--pareto" "--html -"; do
		# shellcheck disable=SC2086
		"$HITMAP" report --threads 1 -i "$f" $o $v >"$TMP/a.out" 2>"$TMP/a.err"; ra=$?
		for t in 2 3 4; do
			# shellcheck disable=SC2086
			HITMAP_RANGE_BYTES=1 "$HITMAP" report --threads $t -i "$f" $o $v >"$TMP/b.out" 2>"$TMP/b.err"; rb=$?
			n=$((n + 1))
			differs "report-threads: ${f##*/} ${v:-text} in $t ranges = --threads 1" $ra $rb &&
				bad=$((bad + 1))
		done
	done
	[ $bad = 0 ] && pass "report-threads: ${f##*/} (kernel samples) in 2, 3, 4 ranges = --threads 1 ($n outputs, 6 views)"
done
# the generated files test the kernel map's state: their samples at FAR are
# unmapped before the first kernel lookup and mapped after
for f in klate kearly; do
	[ -f "$TMP/$f.data" ] || continue
	r=$("$HITMAP" report --threads 1 -i "$TMP/$f.data" --kallsyms "$TMP/far.kallsyms" |
		sed -n 's/.*No Page Map Rejects *: *\([0-9]*\).*/\1/p')
	want=$([ $f = klate ] && echo 800 || echo 0)
	if [ "${r:-x}" = "$want" ]; then
		pass "report-threads: $f.data: $want samples unmapped before the kernel map widens, the others mapped"
	else
		fail "report-threads: $f.data: $want samples unmapped before the kernel map widens" "got '${r:-}'"
	fi
done
# The first range runs while the cuts are found (report-chunks.c).  A scan
# refused after it started (here a sample on a CPU the file does not have,
# at 60% of the data, past the first of four ranges: the reader warns once
# for the file) stops it, drops what its thread said and
# reads the file in one pass: HITMAP_DEBUG shows the range started and one
# range read, and stdout and stderr are those of one thread.
if [ -x "$GEN" ] && echo | grep -qP '' 2>/dev/null; then
	"$GEN" -o "$TMP/late-k.data" -n 200000 -l 3000 --nodes 2 --cpus 16 --seed 5 --phys >/dev/null
	# FINISHED_ROUND (type 68, size 8) then a SAMPLE (type 9): that sample's CPU
	# (IP|TID|TIME|ADDR|ID before it: 8 + 40 bytes into the record) to 255
	offs=$(LC_ALL=C grep -obUaP '\x44\x00\x00\x00\x00\x00\x08\x00\x09\x00\x00\x00' "$TMP/late-k.data" | cut -d: -f1)
	n=$(echo "$offs" | wc -l)
	off=$(echo "$offs" | sed -n "$((n * 6 / 10))p")
	if [ "$n" -ge 10 ] && [ -n "$off" ]; then
		printf '\377' | dd of="$TMP/late-k.data" bs=1 seek=$((off + 8 + 48)) conv=notrunc 2>/dev/null
		HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report --threads 4 -i "$TMP/late-k.data" \
			>/dev/null 2>"$TMP/d.err"
		if grep -q 'report: 1 ranges' "$TMP/d.err" && grep -q 'report: range 0:' "$TMP/d.err"; then
			pass "report-threads: a scan refused after the first range started gives up the ranges"
		else
			fail "report-threads: a scan refused after the first range started gives up the ranges" \
				"$(grep 'report:' "$TMP/d.err" | head -n 3 | tr '\n' ' ')"
		fi
		for v in "" "--json"; do
			# shellcheck disable=SC2086
			"$HITMAP" report --threads 1 -i "$TMP/late-k.data" $v >"$TMP/a.out" 2>&1
			# shellcheck disable=SC2086
			HITMAP_RANGE_BYTES=1 "$HITMAP" report --threads 4 -i "$TMP/late-k.data" $v >"$TMP/b.out" 2>&1
			same_out "report-threads: ranges given up: ${v:-text} = --threads 1"
		done
	else
		skip "report-threads: ranges given up" "no FINISHED_ROUND in the generated file"
	fi
else
	skip "report-threads: ranges given up" "no $GEN or no grep -P"
fi

# the default (no --threads): the CPUs available, and the first range says
# whether cutting pays from the lines it sees a sample (report-range.c): a
# file with about as many lines as samples is read whole by it, one with few
# lines is cut; either way the bytes of one thread.  Needs 2 CPUs.  The
# other ranges start when their cuts are found, before the verdict, and are
# dropped when it is not to cut (HITMAP_DEBUG says the one or the other).
WHOLE='report: 1 range, .*reads the whole file\|report: the first range read the whole file'
if [ -x "$GEN" ] && [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
	"$GEN" -o "$TMP/flat.data" -n 200000 -l 1000000 --nodes 2 --cpus 16 --seed 9 --phys >/dev/null
	"$GEN" -o "$TMP/few.data" -n 200000 -l 500 --nodes 2 --cpus 16 --seed 9 --phys >/dev/null
	for f in "$TMP/flat.data" "$TMP/few.data"; do
		[ -f "$f" ] || continue
		case ${f##*/} in
		flat.data) want=$WHOLE;;
		*) want='report: [2-9] ranges';;
		esac
		HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report -i "$f" >/dev/null 2>"$TMP/d.err"
		if grep -q "$want" "$TMP/d.err" && grep -q 'lines a sample in a part' "$TMP/d.err"; then
			if grep -q 'the first range read the whole file' "$TMP/d.err"; then
				pass "report-threads: default on ${f##*/}: 1 range (the other ranges, started before the verdict, dropped)"
				# the report's thread, idle then, faulted in the first range's lines ahead of it
				mb=$(sed -n 's/.*this thread faulted in \([0-9.]*\) MB of the first range.*/\1/p' "$TMP/d.err")
				# when it started serving, and when the first range ended
				from=$(sed -n 's/.*this thread faulted in .* s CPU, \([0-9.]*\)-[0-9.]* s$/\1/p' "$TMP/d.err")
				end0=$(sed -n 's/.*report: range 0: .*, [0-9.]*-\([0-9.]*\) s$/\1/p' "$TMP/d.err")
				if [ -z "$mb" ] || [ -z "$from" ] || [ -z "$end0" ]; then
					fail "report-threads: default on ${f##*/}: the idle thread faults in the first range's lines" "no such line: $(grep 'report:' "$TMP/d.err" | tail -n 3 | tr '\n' ' ')"
				elif [ "$mb" = 0.0 ] && awk -v a="$from" -v b="$end0" 'BEGIN { exit !(a >= b) }'; then
					skip "report-threads: default on ${f##*/}: the idle thread faults in the first range's lines" "it began at $from s, after the first range ended at $end0 s"
				elif [ "$mb" = 0.0 ]; then
					fail "report-threads: default on ${f##*/}: the idle thread faults in the first range's lines" "0 MB, though it served from $from s and the first range ran to $end0 s"
				else
					pass "report-threads: default on ${f##*/}: the idle thread faulted in $mb MB of the first range's lines"
				fi
			else
				pass "report-threads: default on ${f##*/}: $(sed -n 's/.*report: \([0-9]* ranges*\).*/\1/p' "$TMP/d.err")"
			fi
		else
			fail "report-threads: default on ${f##*/}: '$want'" \
				"$(grep 'report:' "$TMP/d.err" | head -n 3 | tr '\n' ' ')"
		fi
		for v in "" "--json" "--csv"; do
			# shellcheck disable=SC2086
			"$HITMAP" report --threads 1 -i "$f" $v >"$TMP/a.out" 2>&1
			# shellcheck disable=SC2086
			HITMAP_RANGE_BYTES=1 "$HITMAP" report -i "$f" $v >"$TMP/b.out" 2>&1
			same_out "report-threads: default on ${f##*/} ${v:-text} = --threads 1"
		done
	done
	# a range started before the verdict and dropped says nothing: a record
	# no perf defines at 56% of the flat file (past the second range's cut,
	# within what it reads before the verdict) is warned about once, by the
	# first range, as with one thread
	if [ -f "$TMP/flat.data" ] && echo | grep -qP '' 2>/dev/null; then
		cp "$TMP/flat.data" "$TMP/flatw.data"
		offs=$(LC_ALL=C grep -obUaP '\x44\x00\x00\x00\x00\x00\x08\x00\x09\x00\x00\x00' "$TMP/flatw.data" | cut -d: -f1)
		n=$(echo "$offs" | wc -l)
		off=$(echo "$offs" | sed -n "$((n * 56 / 100))p")
		if [ "$n" -ge 10 ] && [ -n "$off" ]; then
			# the SAMPLE after that FINISHED_ROUND becomes type 200
			printf '\310' | dd of="$TMP/flatw.data" bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null
			"$HITMAP" report --threads 1 -i "$TMP/flatw.data" >"$TMP/a.out" 2>"$TMP/a.err"; ra=$?
			HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report -i "$TMP/flatw.data" >"$TMP/b.out" 2>"$TMP/d.err"; rb=$?
			grep -v 'debug:' "$TMP/d.err" >"$TMP/b.err"
			name="report-threads: a dropped range's warning is not said (flat file, a bad record at 56%)"
			# the dropped range must have read past the bad record, else nothing is checked
			at=$(sed -n 's/.*report: range [1-9][0-9]*: dropped at byte \([0-9]*\),.*/\1/p' "$TMP/d.err" | head -n 1)
			if ! grep -q "$WHOLE" "$TMP/d.err"; then
				fail "$name" "not read whole: $(grep 'report:' "$TMP/d.err" | head -n 3 | tr '\n' ' ')"
			elif [ -z "$at" ] || [ "$at" -le $((off + 8)) ]; then
				skip "$name" "no range read past the bad record before the verdict (dropped at byte ${at:-none}, the record at $((off + 8))): nothing to check"
			elif [ "$(grep -c 'type 200' "$TMP/a.err")" != 1 ] || ! cmp -s "$TMP/a.err" "$TMP/b.err" || [ $ra != $rb ] ||
				! cmp -s "$TMP/a.out" "$TMP/b.out"; then
				fail "$name" "one thread: exit $ra, $(grep -c warning "$TMP/a.err") warnings, the default: exit $rb, $(grep -c warning "$TMP/b.err"); stdout $(cmp -s "$TMP/a.out" "$TMP/b.out" && echo same || echo differs)"
			else
				pass "$name"
			fi
		else
			skip "report-threads: a dropped range's warning" "no FINISHED_ROUND in the flat file"
		fi
	fi
	# a file whose samples keep finding new lines has its verdict at the
	# second check (16384 sample records apart), not at a quarter of the
	# first range's share (50k samples here): the uniform-draws estimate
	# ends the wait (report-range.c, NOT_CUT_MODEL); its output is one thread's
	if "$GEN" -o "$TMP/flat4.data" -n 400000 -l 4000000 --nodes 2 --cpus 16 --seed 11 --phys >/dev/null; then
		HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report -i "$TMP/flat4.data" >"$TMP/b.out" 2>"$TMP/d.err"
		at=$(sed -n 's/.*report: the first range, \([0-9]*\) samples in: .*not cut.*/\1/p' "$TMP/d.err")
		if [ -n "$at" ] && [ "$at" -le 32768 ] && grep -q "$WHOLE" "$TMP/d.err"; then
			pass "report-threads: many lines: not cut at the second check ($at samples in)"
		else
			fail "report-threads: many lines: not cut at the second check" \
				"$(grep 'report:' "$TMP/d.err" | head -n 3 | tr '\n' ' ')"
		fi
		"$HITMAP" report --threads 1 -i "$TMP/flat4.data" >"$TMP/a.out" 2>&1
		same_out "report-threads: many lines: the default = --threads 1"
		rm -f "$TMP/flat4.data"
	fi
	# every file of the ranges above read whole by the first range
	# (HITMAP_CUT_LINES=0: never cut where there are lines), kernel samples too
	for f in "$TMP/gen.data" "$TMP/many.data" "$TMP/ksim.data"; do
		[ -f "$f" ] || continue
		HITMAP_CUT_LINES=0 HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report -i "$f" >/dev/null 2>"$TMP/d.err"
		if grep -q "$WHOLE" "$TMP/d.err"; then
			pass "report-threads: ${f##*/} read whole by the first range"
		else
			fail "report-threads: ${f##*/} read whole by the first range" \
				"$(grep 'report:' "$TMP/d.err" | head -n 3 | tr '\n' ' ')"
		fi
		for v in "" "--json" "--csv" "-N --show-all"; do
			# shellcheck disable=SC2086
			"$HITMAP" report --threads 1 -i "$f" $v >"$TMP/a.out" 2>&1
			# shellcheck disable=SC2086
			HITMAP_CUT_LINES=0 HITMAP_RANGE_BYTES=1 "$HITMAP" report -i "$f" $v >"$TMP/b.out" 2>&1
			same_out "report-threads: ${f##*/} ${v:-text} read whole = --threads 1"
		done
	done
	# a HITMAP_CUT_LINES that is not a number in [0, 1] is ignored with one
	# warning: the default's verdict (gen.data: cut; a strtod of "0x", "abc"
	# or "" would be 0, not cut) and its report
	f=$TMP/gen.data
	if [ -f "$f" ]; then
		verdict() { sed -n 's/.*lines a sample in a part: //p' "$1"; }
		HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report -i "$f" >"$TMP/a.out" 2>"$TMP/a.err"
		for bad in 0x abc "" -1 1.5 nan; do
			HITMAP_CUT_LINES=$bad HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 "$HITMAP" report -i "$f" \
				>"$TMP/b.out" 2>"$TMP/b.err"
			n=$(grep -c "warning: HITMAP_CUT_LINES='$bad': not a number in \[0, 1\]; ignored" "$TMP/b.err")
			w=$(grep -c 'warning:' "$TMP/b.err")
			name="report-threads: HITMAP_CUT_LINES='$bad' ignored with one warning"
			if [ "$n" != 1 ] || [ "$w" != 1 ]; then
				fail "$name" "$w warnings, $n of them the value's: $(grep 'warning:' "$TMP/b.err" | head -n 2 | tr '\n' ' ')"
			elif [ -z "$(verdict "$TMP/a.err")" ] || [ "$(verdict "$TMP/a.err")" != "$(verdict "$TMP/b.err")" ]; then
				fail "$name" "verdict '$(verdict "$TMP/b.err")', the default's '$(verdict "$TMP/a.err")'"
			else
				same_out "$name"
			fi
		done
	fi
else
	skip "report-threads: the default's verdict" "no $GEN or fewer than 2 CPUs"
fi

# a range a CPU: the ranges' threads turn round the CPUs (HITMAP_DEBUG says
# so and counts the moves; every ms here, so that they move on a small file)
# and the bytes are one thread's; not with a range more than the CPUs, nor
# with HITMAP_ROTATE_MS=0; a bad period is the default's.  On the first two
# CPUs this process may run on (taskset), whatever the machine has.
NC=2
PIN=$(pin_two)
f=$TMP/gen.data
if [ -f "$f" ] && [ -n "$PIN" ]; then
	TURNED="turned round $NC CPUs every"
	"$HITMAP" report --threads 1 -i "$f" >"$TMP/a.out" 2>&1
	HITMAP_ROTATE_MS=1 HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 $PIN "$HITMAP" report --threads "$NC" -i "$f" \
		>"$TMP/b.out" 2>"$TMP/d.err"
	moves=$(sed -n "s/.*$TURNED 1 ms: \([0-9]*\) moves/\1/p" "$TMP/d.err")
	if [ -n "$moves" ] && [ "$moves" -gt 0 ]; then
		same_out "report-threads: $NC ranges turned round $NC CPUs ($moves moves) = --threads 1"
	else
		fail "report-threads: $NC ranges turned round $NC CPUs" \
			"no moves in HITMAP_DEBUG: $(grep 'report:' "$TMP/d.err" | head -n 3 | tr '\n' ' ')"
	fi
	for c in "HITMAP_ROTATE_MS=0 --threads $NC" "HITMAP_ROTATE_MS=1 --threads $((NC + 1))"; do
		# shellcheck disable=SC2086
		env ${c%% *} HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 $PIN "$HITMAP" report ${c#* } -i "$f" >"$TMP/b.out" \
			2>"$TMP/d.err"
		why=$(grep 'turned round' "$TMP/d.err")
		grep -q "report: [0-9]* ranges" "$TMP/d.err" ||
			why="not cut: $(grep 'report:' "$TMP/d.err" | head -n 2 | tr '\n' ' ')"
		same_unless "report-threads: $c: cut, not turned round the CPUs, = --threads 1" "$why"
	done
	HITMAP_ROTATE_MS=abc HITMAP_RANGE_BYTES=1 HITMAP_DEBUG=1 $PIN "$HITMAP" report --threads "$NC" -i "$f" \
		>"$TMP/b.out" 2>"$TMP/d.err"
	why=
	grep -q "$TURNED 50 ms" "$TMP/d.err" || why="not the default period: $(grep 'turned round' "$TMP/d.err")"
	if [ "$(grep -c "warning: HITMAP_ROTATE_MS='abc': not a number of ms" "$TMP/d.err")" != 1 ] ||
	   [ "$(grep -c 'warning:' "$TMP/d.err")" != 1 ]; then
		why="not one warning: $(grep 'warning:' "$TMP/d.err" | head -n 2 | tr '\n' ' ')"
	fi
	same_unless "report-threads: HITMAP_ROTATE_MS=abc ignored with one warning: the default period (50 ms)" "$why"
else
	skip "report-threads: ranges turned round the CPUs" "one CPU allowed (the case needs two) or no $GEN"
fi

# usage
"$HITMAP" report --threads 0 -i /dev/null >/dev/null 2>&1; rc=$?
if [ $rc = 2 ]; then pass "report-threads: --threads 0 is a usage error (2)"
else fail "report-threads: --threads 0 is a usage error (2)" "exit $rc"; fi
done_tests
