#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap convert --dir: perf's directory format (perf record --threads,
# perf >= 5.17) written.  "data" holds the header, the events, DIR_FORMAT
# and perf's own and synthesized records, data.N the samples and kernel
# records of CPU c in data.(c % N), with no FINISHED_ROUND (perf writes
# none in a folder).  Checked: the layout against a folder perf records
# here; hitmap reads every folder back with the same script and report
# output as the original (a simulated c2c file, an hm-gen file of every
# vendor's encodings, the weight_struct fixture, a -z file, a recording of
# this machine), folder -> folder and folder -> file -> folder; every
# installed perf (6.1, 6.12, 7.3) prints the same perf script of a folder
# as of its original, reads its header without a complaint, and perf c2c
# report --stdio of the simulated folder equals that of the file; errors
# (options, a folder that is not empty, a file in the way, a path that
# cannot be made, a full disk) are one line, and leave nothing behind.
. tests/lib.sh

GEN=$PWD/$HITMAP_BUILD/tools/hm-gen
if [ ! -x "$HITMAP" ] || [ ! -x "$GEN" ]; then
	skip convert-dir "no $HITMAP or $GEN; build with make O=$HITMAP_BUILD tests"
	done_tests
fi

# the files of a folder and the record types of each (python3: a few lines)
layout() {
	python3 - "$1" <<'EOF'
import os, struct, sys
d = sys.argv[1]
def types(path, start, end):
    f = open(path, 'rb').read()
    off, seen = start, set()
    while off + 8 <= end:
        t, m, s = struct.unpack_from('<IHH', f, off)
        if s < 8:
            break
        seen.add(t)
        off += s
    return seen
f = open(d + '/data', 'rb').read()
do, ds = struct.unpack_from('<QQ', f, 40)
main = types(d + '/data', do, do + ds)
sub = set()
for n in os.listdir(d):
    if n.startswith('data.'):
        sub |= types(d + '/' + n, 0, os.path.getsize(d + '/' + n))
print('data.N-files', len([n for n in os.listdir(d) if n.startswith('data.')]))
print('sample-in-data', 9 in main)
print('sample-in-data.N', 9 in sub)
print('round-anywhere', 68 in main or 68 in sub)
print('user-in-data.N', any(t >= 64 and t not in (81, 83) for t in sub))
EOF
}

sc() { "$HITMAP" script -i "$1" --ns 2>/dev/null; }
# order A B: "same" when the files are equal; "ties" when they hold the same
# lines with the same sequence of times, records of one time (on two CPUs,
# so in two files of the folder) in another order: perf reads a folder's
# files in readdir's order, one queue, and keeps records of one time in the
# order it read them, so those of one CPU keep their order and those of two
# may not, in a folder perf records itself too; else "differ"
order() {
	if cmp -s "$1" "$2"; then echo same; return; fi
	if cmp -s <(sort "$1") <(sort "$2") &&
	   cmp -s <(grep -oE ' [0-9]+\.[0-9]{6,9}:' "$1") <(grep -oE ' [0-9]+\.[0-9]{6,9}:' "$2"); then
		echo ties; return
	fi
	echo differ
}
# ties A: the times that more than one line of A has
ties() { grep -oE ' [0-9]+\.[0-9]{6,9}:' "$1" | sort | uniq -d | wc -l; }

F=$TMP/f
mkdir -p "$F"
ins=()
if "$HITMAP" simulate --preset skx --cores 8 --futexes 64 --ops 4000 --period 25 \
	-o "$F/sim.data" >"$TMP/sim.out" 2>&1; then
	ins+=("$F/sim.data")
else
	fail "convert-dir: simulate" "$(tail -n 1 "$TMP/sim.out")"
fi
"$GEN" -o "$F/gen.data" -n 20000 --mix all --seed 7 >/dev/null 2>&1 && ins+=("$F/gen.data")
if [ -f "$F/sim.data" ] && "$HITMAP" convert -i "$F/sim.data" -o "$F/simz.data" -z >/dev/null 2>&1; then
	ins+=("$F/simz.data")
fi
if [ -f "$FIXTURES/perf_data_converter/perf.data.weight_struct" ]; then
	cp "$FIXTURES/perf_data_converter/perf.data.weight_struct" "$F/weight.data"
	ins+=("$F/weight.data")
else
	skip "convert-dir: the weight_struct fixture" "no fixtures at $FIXTURES (set HITMAP_FIXTURES)"
fi
# a pipe-mode zstd input (perf record -z -o -)
if [ -f "$FIXTURES/linux-perf-data/sleep.compressed.pipe.data" ]; then
	cp "$FIXTURES/linux-perf-data/sleep.compressed.pipe.data" "$F/zpipe.data"
	ins+=("$F/zpipe.data")
fi
if can_record && perf record -q -e cpu-clock -a -o "$F/rec.data" -- sleep 0.3 >/dev/null 2>&1; then
	ins+=("$F/rec.data")
	# and a folder perf writes itself: its layout to compare with, and an input
	perf record -q --threads -e cpu-clock -a -o "$F/perf-threads.data" -- sleep 0.3 >/dev/null 2>&1 &&
		[ -f "$F/perf-threads.data/data" ] && ins+=("$F/perf-threads.data")
else
	skip "convert-dir: a recording of this machine" "perf cannot record a cpu-clock event here"
fi

# hitmap: convert to a folder, read it back
for f in "${ins[@]}"; do
	b=${f##*/}; b=${b%.data}
	zo=; [ "$b" = simz ] && zo=-z
	if ! "$HITMAP" convert -i "$f" -o "$F/$b.dir" --dir $zo >"$TMP/$b.conv" 2>&1; then
		fail "convert-dir $b: convert --dir" "$(head -n 1 "$TMP/$b.conv")"
		continue
	fi
	layout "$F/$b.dir" >"$TMP/$b.layout"
	n=$(sed -n 's/^data.N-files //p' "$TMP/$b.layout")
	if grep -qx 'sample-in-data False' "$TMP/$b.layout" && grep -qx 'round-anywhere False' "$TMP/$b.layout" &&
	   grep -qx 'user-in-data.N False' "$TMP/$b.layout" && [ "${n:-0}" -ge 1 ]; then
		pass "convert-dir $b: $n data.N files, no SAMPLE in data, no FINISHED_ROUND, perf's records in data"
	else
		fail "convert-dir $b: layout" "$(tr '\n' ' ' <"$TMP/$b.layout")"
	fi
	check "convert-dir $b: the folder's header has DIR_FORMAT version 1" \
		grep -q '^# directory data version : 1' <("$HITMAP" header -i "$F/$b.dir" 2>/dev/null)
	sc "$f" >"$TMP/$b.a"
	sc "$F/$b.dir" >"$TMP/$b.b"
	case $([ -s "$TMP/$b.a" ] && order "$TMP/$b.a" "$TMP/$b.b") in
	same) pass "convert-dir $b: hitmap script reads the folder as the file ($(wc -l <"$TMP/$b.a") samples, same order)";;
	ties) pass "convert-dir $b: hitmap script reads the folder as the file ($(wc -l <"$TMP/$b.a") samples, same order but for $(ties "$TMP/$b.a") times two CPUs share)";;
	*) fail "convert-dir $b: hitmap script" "$(diff "$TMP/$b.a" "$TMP/$b.b" | head -n 3 | tr '\n' ' ')";;
	esac
	"$HITMAP" report -i "$f" --stdio >"$TMP/$b.ra" 2>/dev/null
	"$HITMAP" report -i "$F/$b.dir" --stdio >"$TMP/$b.rb" 2>/dev/null
	# the header names the input
	if [ -s "$TMP/$b.ra" ] && cmp -s <(grep -v -F -e "$f" "$TMP/$b.ra") <(grep -v -F -e "$F/$b.dir" "$TMP/$b.rb"); then
		pass "convert-dir $b: hitmap report --stdio the same"
	else
		fail "convert-dir $b: hitmap report --stdio" "$(diff "$TMP/$b.ra" "$TMP/$b.rb" | head -n 3 | tr '\n' ' ')"
	fi
done

# a pipe on standard input: the folder is made when its NRCPUS record has come
if [ -f "$F/zpipe.data" ]; then
	if cat "$F/zpipe.data" | "$HITMAP" convert -i - -o "$F/stdin.dir" --dir >"$TMP/stdin.conv" 2>&1; then
		sc "$F/stdin.dir" >"$TMP/stdin.b"
		check "convert-dir: -i - (a pipe) into a folder reads back as the file" cmp "$TMP/zpipe.a" "$TMP/stdin.b"
	else
		fail "convert-dir: -i - into a folder" "$(head -n 1 "$TMP/stdin.conv")"
	fi
fi

# the layout of a folder perf writes: the same rules
if [ -d "$F/perf-threads.data" ]; then
	layout "$F/perf-threads.data" >"$TMP/perf.layout"
	layout "$F/rec.dir" >"$TMP/rec.layout" 2>/dev/null
	if cmp -s <(sed 1d "$TMP/perf.layout") <(sed 1d "$TMP/rec.layout") &&
	   [ "$(head -n 1 "$TMP/perf.layout")" = "$(head -n 1 "$TMP/rec.layout")" ]; then
		pass "convert-dir: a recording's folder is laid out as perf --threads lays out its own ($(head -n 1 "$TMP/perf.layout"))"
	else
		fail "convert-dir: layout as perf's" "perf: $(tr '\n' ' ' <"$TMP/perf.layout") hitmap: $(tr '\n' ' ' <"$TMP/rec.layout")"
	fi
fi

# more forms: N files, swapped, COMPRESSED2; folder -> folder, folder -> file -> folder
if [ -d "$F/sim.dir" ]; then
	sc "$F/sim.data" >"$TMP/sim.a"
	for form in "--dir=3" "--dir 1" "--dir --swap" "--dir=2 -z 3 --compressed2"; do
		n=$(echo "$form" | tr -d ' =-')
		if "$HITMAP" convert -i "$F/sim.data" -o "$F/$n.dir" $form >"$TMP/$n.conv" 2>&1; then
			sc "$F/$n.dir" >"$TMP/$n.b"
			r=$(order "$TMP/sim.a" "$TMP/$n.b")
			[ "$r" != differ ] && pass "convert-dir: convert $form reads back the same ($r)" ||
				fail "convert-dir: convert $form reads back the same" "$(diff "$TMP/sim.a" "$TMP/$n.b" | head -n 3 | tr '\n' ' ')"
		else
			fail "convert-dir: convert $form" "$(head -n 1 "$TMP/$n.conv")"
		fi
	done
	nf=$(ls "$F/dir3.dir" | grep -c '^data\.')
	check "convert-dir: --dir=3 writes data.0 .. data.2" test "$nf" = 3
	"$HITMAP" convert -i "$F/sim.dir" -o "$F/sim2.dir" --dir=5 >/dev/null 2>&1 &&
	"$HITMAP" convert -i "$F/sim2.dir" -o "$F/sim.one" >/dev/null 2>&1 &&
	"$HITMAP" convert -i "$F/sim.one" -o "$F/sim3.dir" --dir -z >/dev/null 2>&1
	for o in sim2.dir sim.one sim3.dir; do
		sc "$F/$o" >"$TMP/$o.b"
		r=$(order "$TMP/sim.a" "$TMP/$o.b")
		[ "$r" != differ ] && pass "convert-dir: folder -> folder -> file -> folder: $o the same ($r)" ||
			fail "convert-dir: folder -> folder -> file -> folder: $o the same" "$(diff "$TMP/sim.a" "$TMP/$o.b" | head -n 3 | tr '\n' ' ')"
	done
	"$HITMAP" convert -i "$F/sim.dir" -o "$F/simj.dir" --dir --json >"$TMP/j.json" 2>&1
	if command -v jq >/dev/null 2>&1; then
		check "convert-dir: --json says folder and its files" \
			jq -e '.output_form.mode == "folder" and .output_form.data_files >= 1' "$TMP/j.json"
	fi
fi

# every installed perf: the folder prints as the file
PERFS=$(oracle_perfs)
[ -n "$PERFS" ] || skip "convert-dir: perf" "no perf installed"
for v in $PERFS; do
	o=$TMP/perf-$v
	: >"$TMP/jobs-$v"
	for f in "${ins[@]}"; do
		b=${f##*/}; b=${b%.data}
		[ -d "$F/$b.dir" ] || continue
		echo "$b.file - script -i $f" >>"$TMP/jobs-$v"
		echo "$b.dir - script -i $F/$b.dir" >>"$TMP/jobs-$v"
		echo "$b.hdr - report --header-only -i $F/$b.dir" >>"$TMP/jobs-$v"
	done
	for b in sim simz; do
		[ -d "$F/$b.dir" ] || continue
		echo "$b.c2cfile - c2c report --stdio --no-source -i $F/$b.data" >>"$TMP/jobs-$v"
		echo "$b.c2cdir - c2c report --stdio --no-source -i $F/$b.dir" >>"$TMP/jobs-$v"
	done
	# the other byte order, and COMPRESSED2 (perf >= 6.16: 7.3 here)
	[ -d "$F/dirswap.dir" ] && echo "swap.dir - script -i $F/dirswap.dir" >>"$TMP/jobs-$v"
	[ -d "$F/dir2z3compressed2.dir" ] && [ "$v" = 7.3 ] &&
		echo "c2.dir - script -i $F/dir2z3compressed2.dir" >>"$TMP/jobs-$v"
	perf_batch "$v" "$o" "$TMP/jobs-$v"
	for d in swap c2; do
		[ -f "$o/$d.dir.rc" ] && [ -f "$o/sim.file.out" ] || continue
		perf_ran "$v" "$o" "$d.dir" || continue
		r=$(order "$o/sim.file.out" "$o/$d.dir.out")
		form=--swap; [ $d = c2 ] && form="-z 3 --compressed2"
		[ "$r" != differ ] && pass "convert-dir: perf $v script of the sim folder written with $form: the file's lines ($r)" ||
			fail "convert-dir: perf $v script of the sim folder written with $form" "$(diff "$o/sim.file.out" "$o/$d.dir.out" | head -n 3 | tr '\n' ' ')"
	done
	for f in "${ins[@]}"; do
		b=${f##*/}; b=${b%.data}
		[ -d "$F/$b.dir" ] || continue
		if ! perf_ran "$v" "$o" "$b.file"; then
			continue
		fi
		if ! perf_ran "$v" "$o" "$b.dir"; then
			continue
		fi
		case $([ -s "$o/$b.file.out" ] && order "$o/$b.file.out" "$o/$b.dir.out") in
		same) pass "convert-dir $b: perf $v script of the folder equals that of the file ($(wc -l <"$o/$b.file.out") lines)";;
		ties) pass "convert-dir $b: perf $v script of the folder: the file's $(wc -l <"$o/$b.file.out") lines, in its order but for $(ties "$o/$b.file.out") times two CPUs share";;
		*) fail "convert-dir $b: perf $v script" "$(diff "$o/$b.file.out" "$o/$b.dir.out" | head -n 3 | tr '\n' ' ')";;
		esac
		# and hitmap orders the folder exactly as perf does
		"$HITMAP" script --perf-compat "$v" -i "$F/$b.dir" >"$o/$b.hm" 2>/dev/null
		if cmp -s "$o/$b.dir.out" "$o/$b.hm"; then
			pass "convert-dir $b: hitmap script --perf-compat $v prints the folder as perf $v"
		else
			# where hitmap and perf differ on the original file already, the folder is not the cause
			"$HITMAP" script --perf-compat "$v" -i "$f" >"$o/$b.hmf" 2>/dev/null
			if cmp -s <(diff "$o/$b.file.out" "$o/$b.hmf") <(diff "$o/$b.dir.out" "$o/$b.hm"); then
				skip "convert-dir $b: hitmap script --perf-compat $v prints the folder as perf $v" \
					"hitmap and perf $v print the original file differently too ($(diff "$o/$b.file.out" "$o/$b.hmf" | grep -c '^<') lines; script-parity.sh's concern), and the folder the same way"
			else
				fail "convert-dir $b: hitmap script --perf-compat $v prints the folder as perf $v" \
					"$(diff "$o/$b.dir.out" "$o/$b.hm" | head -n 3 | tr '\n' ' ')"
			fi
		fi
		if [ "$(cat "$o/$b.hdr.rc")" = 0 ] && grep -q '^# directory data version : 1' "$o/$b.hdr.out" &&
		   ! grep -qiE 'error|warning|invalid|failed' "$o/$b.hdr.err" "$o/$b.hdr.out"; then
			pass "convert-dir $b: perf $v report --header-only reads the folder's header"
		else
			fail "convert-dir $b: perf $v report --header-only" "rc $(cat "$o/$b.hdr.rc"): $(grep -iE 'error|warning|invalid|failed' "$o/$b.hdr.err" "$o/$b.hdr.out" | head -n 2 | tr '\n' ' ')"
		fi
	done
	for b in sim simz; do
		[ -d "$F/$b.dir" ] || continue
		perf_ran "$v" "$o" "$b.c2cfile" || continue
		perf_ran "$v" "$o" "$b.c2cdir" || continue
		# the input's name aside
		if grep -q 'Shared Data Cache Line Table' "$o/$b.c2cfile.out" &&
		   cmp -s <(grep -v -e "$b.data" "$o/$b.c2cfile.out") <(grep -v -e "$b.dir" "$o/$b.c2cdir.out"); then
			pass "convert-dir $b: perf $v c2c report --stdio of the folder equals that of the file"
		else
			fail "convert-dir $b: perf $v c2c report --stdio" "$(diff "$o/$b.c2cfile.out" "$o/$b.c2cdir.out" | head -n 3 | tr '\n' ' ')"
		fi
	done
done

# errors: one line naming the path, exit non-zero, nothing left behind
err1() { # NAME WANT PATH-TO-BE-ABSENT CMD...
	local n=$1 want=$2 gone=$3 rc; shift 3
	"$@" >/dev/null 2>"$TMP/e"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -q -e "$want" "$TMP/e" &&
	   { [ -z "$gone" ] || [ ! -e "$gone" ]; }; then
		pass "convert-dir: $n: one line, exit $rc"
	else
		fail "convert-dir: $n" "exit $rc: $(head -n 2 "$TMP/e" | tr '\n' ' ')"
	fi
}
S=${ins[0]:-$F/none.data}
err1 "--dir with --pipe" "--dir and --pipe" "$TMP/e1.dir" "$HITMAP" convert -i "$S" -o "$TMP/e1.dir" --dir --pipe
err1 "--dir with -o -" "--dir with -o -" "" "$HITMAP" convert -i "$S" -o - --dir
err1 "--dir=0" "--dir=0" "$TMP/e2.dir" "$HITMAP" convert -i "$S" -o "$TMP/e2.dir" --dir=0
err1 "--dir=x" "--dir=x" "$TMP/e2.dir" "$HITMAP" convert -i "$S" -o "$TMP/e2.dir" --dir=x
mkdir -p "$TMP/full.dir" && echo keep >"$TMP/full.dir/other"
err1 "a folder that is not empty" "$TMP/full.dir: the output folder is not empty" "" \
	"$HITMAP" convert -i "$S" -o "$TMP/full.dir" --dir
check "convert-dir: the folder that is not empty is left as it was" test "$(ls "$TMP/full.dir")" = other
echo x >"$TMP/afile"
err1 "a file in the way" "$TMP/afile: exists and is not a folder" "" "$HITMAP" convert -i "$S" -o "$TMP/afile" --dir
err1 "a folder that cannot be made" "$TMP/no/such/x.dir: cannot create" "$TMP/no" \
	"$HITMAP" convert -i "$S" -o "$TMP/no/such/x.dir" --dir
mkdir -p "$TMP/empty.dir"
if "$HITMAP" convert -i "$S" -o "$TMP/empty.dir" --dir=2 >/dev/null 2>&1 && [ -f "$TMP/empty.dir/data.1" ]; then
	pass "convert-dir: an empty folder is taken"
else
	fail "convert-dir: an empty folder is taken" "no $TMP/empty.dir/data.1"
fi
err1 "a bad input" "" "$TMP/bad.dir" "$HITMAP" convert -i "$TMP/afile" -o "$TMP/bad.dir" --dir
# a full disk: a 64 KiB tmpfs where one can be mounted, else a file size limit
mkdir -p "$TMP/m"
if [ -f "$F/gen.data" ] && unshare -m sh -c "mount -t tmpfs -o size=64k none '$TMP/m'" 2>/dev/null; then
	unshare -m sh -c "mount -t tmpfs -o size=64k none '$TMP/m' && '$HITMAP' convert -i '$F/gen.data' -o '$TMP/m/out.dir' --dir=2; echo rc=\$?; ls -A '$TMP/m'" \
		>"$TMP/enospc.out" 2>"$TMP/enospc"
	if grep -qx 'rc=1' "$TMP/enospc.out" && [ "$(wc -l <"$TMP/enospc.out")" -eq 1 ] &&
	   [ "$(wc -l <"$TMP/enospc")" -eq 1 ] && grep -q "$TMP/m/out.dir/data.*No space left" "$TMP/enospc"; then
		pass "convert-dir: a full disk (64 KiB tmpfs): one line naming the file, the folder removed"
	else
		fail "convert-dir: a full disk" "$(cat "$TMP/enospc.out" "$TMP/enospc" | tr '\n' ' ' | cut -c1-300)"
	fi
elif [ -f "$F/gen.data" ]; then
	(trap '' XFSZ; ulimit -f 64; "$HITMAP" convert -i "$F/gen.data" -o "$TMP/fsz.dir" --dir=2) >/dev/null 2>"$TMP/efsz"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l <"$TMP/efsz")" -eq 1 ] && grep -q "$TMP/fsz.dir/data" "$TMP/efsz" && [ ! -e "$TMP/fsz.dir" ]; then
		pass "convert-dir: a write that fails (file size limit): one line naming the file, the folder removed"
	else
		fail "convert-dir: a write that fails" "exit $rc: $(head -n 2 "$TMP/efsz" | tr '\n' ' ')"
	fi
fi
done_tests
