#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Futex table inference from the samples alone: simulated files of every preset x
# kernel era x 1 and 2 sockets x private/shared futexes, stripped of hitmap's
# metadata by perf inject, resolve >= 99% of the bucket samples to the truth's
# table, node, index and field, and none to a wrong one; at a tenth of the
# sampling rate the resolved share is printed and nothing may be wrong.  A file
# without futex samples gets the one-line reason.
. tests/lib.sh
[ -x "$HITMAP" ] || { skip futex-infer "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip futex-infer "jq is not installed"; done_tests; }
have_perf || { skip futex-infer "perf is not installed (perf inject strips the metadata)"; done_tests; }

# per (table:node:index, field): resolved = min(report, truth), wrong = report beyond truth
cmp='([$t[0].buckets[] | . as $b | (.fields | to_entries[] | {key: "\($b.table):\($b.node):\($b.index):\(.key)", value: .value.nr_entries})] | from_entries) as $T |
     ([$r[0].buckets[] | select(.table != "unknown") | . as $b | .fields[] | {key: "\($b.table):\($b.node):\($b.index):\(.field)", value: .counts.samples}] | from_entries) as $R |
     {truth: ([$T[]] | add // 0),
      resolved: ([$R | to_entries[] | [.value, ($T[.key] // 0)] | min] | add // 0),
      wrong: ([$R | to_entries[] | .value - ($T[.key] // 0) | select(. > 0)] | add // 0),
      geometry: $r[0].geometry}'

# Strip hitmap's metadata: perf inject at full rate (a real tool's round trip); at the tenth
# rate, cheaper, cut the file where the metadata begins (the trailer's offset), which is
# what perf inject leaves out too.
strip_meta() { cut_meta "$@"; }	# IN OUT (tests/lib.sh)

worst=1000 low_worst=1000 n=0
for p in srf skx zen4 altra; do
	for k in 6.12 6.16 6.18 7.3; do
		for s in 1 2; do
			for sh in "" --shared; do
				c=$p-$k-${s}s${sh:+-shared}
				for rate in full tenth; do
					per=25; [ $rate = tenth ] && per=250
					f=$TMP/$c-$rate
					"$HITMAP" simulate --preset $p --sockets $s --cores 4 --kernel $k $sh --futexes 64 \
						--ops 12000 --period $per -o $f.data --truth $f.json --kallsyms $f.ksyms \
						>$f.out 2>&1 || { fail futex-infer-$c-$rate "simulate: $(tail -n 1 $f.out)"; continue; }
					if [ $rate = full ]; then
						perf inject -i $f.data -o $f.strip.data >$f.out 2>&1
					else
						strip_meta $f.data $f.strip.data 2>$f.out
					fi || { fail futex-infer-$c-$rate "strip: $(tail -n 1 $f.out)"; continue; }
					"$HITMAP" report --by bucket --json -i $f.strip.data --kallsyms $f.ksyms >$f.r.json 2>$f.err ||
						{ fail futex-infer-$c-$rate "report: $(tail -n 1 $f.err)"; continue; }
					jq -n -c --slurpfile r $f.r.json --slurpfile t $f.json "$cmp" >$f.cmp
					read -r truth res wrong < <(jq -r '"\(.truth) \(.resolved) \(.wrong)"' $f.cmp)
					pct=$(( truth ? res * 1000 / truth : 1000 ))
					n=$((n + 1))
					if [ $rate = full ]; then
						[ $pct -lt $worst ] && worst=$pct
						if [ "$wrong" = 0 ] && [ $pct -ge 990 ] && [ "$truth" -gt 0 ]; then
							pass futex-infer-$c
						else
							fail futex-infer-$c "resolved $res of $truth bucket samples, $wrong wrong; $(jq -r .geometry $f.cmp)"
						fi
					else
						[ $pct -lt $low_worst ] && low_worst=$pct
						echo "# $c at 1/10 rate: $res of $truth bucket samples resolved ($((pct / 10)).$((pct % 10))%), $wrong wrong"
						[ "$wrong" = 0 ] && pass futex-infer-$c-tenth-rate-none-wrong ||
							fail futex-infer-$c-tenth-rate-none-wrong "$wrong wrong; $(jq -r .geometry $f.cmp)"
					fi
					rm -f $f.data $f.strip.data
				done
			done
		done
	done
done
echo "# $n files; lowest resolved share: $((worst / 10)).$((worst % 10))% (full rate), $((low_worst / 10)).$((low_worst % 10))% (1/10 rate)"

# shared futexes: struct page/folio lines (GUP-fast and folio_put on every operation) are named
# under "Other futex memory", with the simulator's truth for them, in the file and after stripping
f=$TMP/page
"$HITMAP" simulate --preset skx --sockets 2 --cores 4 --kernel 6.18 --shared --futexes 64 --ops 12000 --period 25 \
	-o $f.data --truth $f.json --kallsyms $f.ksyms >/dev/null 2>&1 && perf inject -i $f.data -o $f.strip.data 2>/dev/null
for v in data strip.data; do
	"$HITMAP" report --by bucket --json -i $f.$v --kallsyms $f.ksyms >$f.$v.json 2>/dev/null
	got=$(jq '[.objects[] | select(.object | startswith("page pfn ")) | .counts.samples] | add // 0' $f.$v.json)
	want=$(jq '[.objects[] | select(.object == "page" or .object == "folio") | .c2c.nr_entries] | add // 0' $f.json)
	[ "$got" -gt 0 ] && [ "$got" = "$want" ] && pass "futex-infer-page-lines-named-$v ($got samples)" ||
		fail "futex-infer-page-lines-named-$v" "report $got, truth $want"
done

# a file with memory samples but none in futex code: one line why, no empty table
fx=$FIXTURES/perf_data_converter/perf.data.weight_struct
if [ -r "$fx" ]; then
	"$HITMAP" report --by bucket -i "$fx" >$TMP/ws.out 2>&1
	w=$(grep -c '^tables: none: ' $TMP/ws.out)
	[ "$w" = 1 ] && grep -q 'futex' $TMP/ws.out && pass futex-infer-no-futex-samples-one-line-why ||
		fail futex-infer-no-futex-samples-one-line-why "$(head -n 4 $TMP/ws.out | tr '\n' ' ')"
else
	skip futex-infer-no-futex-samples-one-line-why "no fixture $fx"
fi
done_tests
