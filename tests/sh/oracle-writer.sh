#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Files hitmap writes are accepted by every installed perf (6.1, 6.12, 7.3):
# perf script and perf report -D see every sample, perf c2c report --stats
# counts every record, perf inject rewrites the file and keeps every sample.
# The files: hm-gen (every encoding mix, big-endian), hitmap convert (-z,
# pipe, swapped, COMPRESSED2) and hitmap simulate.  A version that refuses a
# form it cannot know (COMPRESSED2 is perf 6.16+) or crashes on a file is
# named with the reason (SKIP), and the file is held against the others.
. tests/lib.sh
GEN=$PWD/$HITMAP_BUILD/tools/hm-gen
PERFS=$(oracle_perfs)
[ -n "$PERFS" ] || { skip oracle-writer "no perf installed (scripts/setup-oracles.sh)"; done_tests; }
[ -x "$GEN" ] && [ -x "$HITMAP" ] || { skip oracle-writer "no $GEN or $HITMAP (make tests)"; done_tests; }
command -v jq >/dev/null || { skip oracle-writer "jq is not installed"; done_tests; }

N=2000
mkdir -p "$TMP/f"
files=()
for mix in intel-snb intel-skl amd-zen2 amd-zen4 arm random all; do
	"$GEN" -o "$TMP/f/gen-$mix.data" -n $N --mix $mix --seed 7 >/dev/null 2>&1 && files+=("$TMP/f/gen-$mix.data")
done
"$GEN" -o "$TMP/f/gen-swap.data" -n $N --mix all --seed 8 --swap >/dev/null 2>&1 && files+=("$TMP/f/gen-swap.data")
for form in "-z" "--pipe" "--swap" "-z --compressed2"; do
	n=conv$(echo "$form" | tr -d ' -')
	"$HITMAP" convert -i "$TMP/f/gen-all.data" -o "$TMP/f/$n.data" $form >/dev/null 2>&1 && files+=("$TMP/f/$n.data")
done
if "$HITMAP" simulate --preset skx --cores 8 --futexes 64 --ops 4000 --period 25 \
	-o "$TMP/f/sim-skx.data" --truth "$TMP/sim.json" >/dev/null 2>&1; then
	files+=("$TMP/f/sim-skx.data")
fi
# what each file holds, by hitmap's reading
for f in "${files[@]}"; do
	"$HITMAP" script -i "$f" -F tid,time,ip 2>/dev/null | wc -l >"$f.n"
done

# one batch per version: script, report -D, c2c report --stats, inject
for v in $PERFS; do
	o=$TMP/out-$v
	mkdir -p "$o"
	perf_sh "$v" 'o=$1; shift
	for f in "$@"; do
		b=${f##*/}
		timeout 120 perf script -i "$f" >"$o/$b.script" 2>"$o/$b.script.err" </dev/null; echo $? >"$o/$b.script.rc"
		timeout 120 perf report -D -i "$f" 2>"$o/$b.D.err" </dev/null | grep -c "PERF_RECORD_SAMPLE(" >"$o/$b.D"
		case $b in convpipe*) ;; *)
			timeout 120 perf c2c report --stats --stdio --no-source -i "$f" >"$o/$b.c2c" 2>"$o/$b.c2c.err" </dev/null
			echo $? >"$o/$b.c2c.rc";;
		esac
		timeout 120 perf inject -i "$f" -o "$o/$b.inj" >"$o/$b.inj.err" 2>&1 </dev/null; echo $? >"$o/$b.inj.rc"
		timeout 120 perf script -i "$o/$b.inj" 2>/dev/null </dev/null | wc -l >"$o/$b.inj.n"
	done' "$o" "${files[@]}"
	nok=0 nfiles=0
	for f in "${files[@]}"; do
		b=${f##*/}; n=$(cat "$f.n")
		nfiles=$((nfiles + 1))
		rc=$(cat "$o/$b.script.rc")
		if [ "$rc" != 0 ] || [ ! -s "$o/$b.script" ]; then
			why=$(perf_crash_why "$o/$b.script.err" "$rc")
			case "$v:$b" in
			6.1:convzcompressed2*|6.12:convzcompressed2*)
				skip "perf $v reads $b" "COMPRESSED2 (type 83) is perf 6.16+, perf $v refuses it ($why); read by the newer versions";;
			6.12:*)
				if grep -q 'corrupted size vs. prev_size' "$o/$b.script.err"; then
					skip "perf $v reads $b" "perf 6.12 aborts in its own heap (corrupted size vs. prev_size); compared against the others"
				else fail "perf $v script $b" "$why"; fi;;
			*) fail "perf $v script $b" "$why";;
			esac
			continue
		fi
		bad=
		[ "$(wc -l <"$o/$b.script")" = "$n" ] || bad="$bad script $(wc -l <"$o/$b.script")/$n samples;"
		[ "$(cat "$o/$b.D")" = "$n" ] || bad="$bad report -D $(cat "$o/$b.D")/$n samples;"
		if [ -f "$o/$b.c2c.rc" ]; then
			tr=$(awk -F: '/Total records/ { gsub(/ /, "", $2); print $2; exit }' "$o/$b.c2c")
			[ "$(cat "$o/$b.c2c.rc")" = 0 ] && [ "$tr" = "$n" ] ||
				bad="$bad c2c report rc $(cat "$o/$b.c2c.rc") records ${tr:-none}/$n ($(perf_crash_why "$o/$b.c2c.err" "$(cat "$o/$b.c2c.rc")"));"
		fi
		if [ "$(cat "$o/$b.inj.rc")" != 0 ] || [ "$(cat "$o/$b.inj.n")" != "$n" ]; then
			pipe=0
			[ "$(head -c 8 "$f")" = PERFILE2 ] && [ "$(od -An -tu8 -j8 -N8 "$f" | tr -d ' ')" = 16 ] && pipe=1
			if [ "$v" = 6.1 ] && [ $pipe = 1 ]; then
				skip "perf $v inject $b" "perf 6.1 inject of a pipe-mode input writes a file it cannot read back (its own pipe recordings too); script, report -D and perf 6.12's inject read it"
			elif [ "$v" = 7.3 ] && [ $pipe = 1 ] && grep -q 'HEADER_CPU_DOMAIN_INFO' <(perf_sh 7.3 'perf script -i "$1" 2>&1 | head -n 3' "$o/$b.inj" 2>&1); then
				skip "perf $v inject $b" "perf 7.3 inject of a pipe-mode input writes no HEADER_NRCPUS and an empty CPU_DOMAIN_INFO that its own script then refuses (its own pipe recordings too); script, report -D and perf 6.12's inject read it"
			elif [ "$v" = 7.3 ] && [ "$(head -c 8 "$f")" = 2ELIFREP ]; then
				skip "perf $v inject $b" "perf 7.3 inject copies a big-endian input's feature sections unswapped (do_read_string: invalid length), so it cannot read its own output; perf 7.3 script, report -D and c2c read the file, 6.1 and 6.12 inject it"
			else
				bad="$bad inject rc $(cat "$o/$b.inj.rc"), $(cat "$o/$b.inj.n")/$n samples after ($(grep -m1 -i -E 'error|fail|abort|corrupt' "$o/$b.inj.err" | cut -c1-80));"
			fi
		fi
		if [ -z "$bad" ]; then nok=$((nok + 1)); else fail "perf $v accepts $b" "$bad"; fi
	done
	echo "# perf $v: $nok/$nfiles files hitmap wrote read whole (script, report -D, c2c report, inject)"
	check "perf $v: files hitmap wrote are read whole ($nok of $nfiles; the others named above)" test "$nok" -gt 0
done
done_tests
