#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Deterministic mutation test: a few thousand cut, flipped and field-mutated
# copies of one simulated recording in file mode, pipe mode, COMPRESSED,
# COMPRESSED2 and the other byte order (plus a perf-recorded fixture when
# there), read through the library, and every 25th through a hitmap command
# (report, diff, script, stat, header, convert, report --html).  Counts
# printed; crashes, hangs over 20 s, runs over 500 MB RSS and successful runs
# that handed out fewer records without a data-lost warning must all be 0.
# HARDEN_CASES / HARDEN_SEED change the campaign.
. tests/lib.sh

TOOL=$PWD/$HITMAP_BUILD/tools/hm-mutate
[ -x "$TOOL" ] || { skip harden-mutate "no $TOOL (make tests)"; done_tests; }
D=$TMP/in
mkdir -p "$D"
if ! "$HITMAP" simulate --ops 4000 --seed 7 -o "$D/file.data" >/dev/null 2>"$TMP/err" ||
   ! "$HITMAP" convert -i "$D/file.data" -o - >"$D/pipe.data" 2>>"$TMP/err" ||
   ! "$HITMAP" convert -i "$D/file.data" -o "$D/zstd.data" -z >/dev/null 2>>"$TMP/err" ||
   ! "$HITMAP" convert -i "$D/file.data" -o "$D/zstd2-swap.data" -z --compressed2 --swap \
	>/dev/null 2>>"$TMP/err" ||
   ! "$HITMAP" convert -i "$D/file.data" -o "$D/swap.data" --swap >/dev/null 2>>"$TMP/err"; then
	fail harden-mutate.inputs "$(head -c 300 "$TMP/err")"
	done_tests
fi
inputs=("$D"/*.data)
W=$FIXTURES/perf_data_converter/perf.data.weight_struct
[ -f "$W" ] && inputs+=("$W")

# a SAN=1 build cannot run under the tool's RLIMIT_AS: ASan's allocator is bounded instead
san_build && export ASAN_OPTIONS=$(asan_mem_limit 1000)
TMPDIR=$TMP "$TOOL" -n "${HARDEN_CASES:-2500}" -s "${HARDEN_SEED:-1}" -x "$HITMAP" -e 25 \
	"${inputs[@]}" >"$TMP/out" 2>&1
rc=$?
grep -v '^#' "$TMP/out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then
	pass "harden-mutate (${#inputs[@]} inputs: $(tail -n 1 "$TMP/out"))"
else
	grep '^#' "$TMP/out" | head -n 10
	fail harden-mutate "$(tail -n 1 "$TMP/out")"
fi
done_tests
