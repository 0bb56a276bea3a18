#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The report's sample batch must own what it defers: a contention recording
# (lock:contention_begin/end, lock_addr in the RAW payload) written without
# FINISHED_ROUND records makes the ordered reader hold megabytes and hand
# them out early, part of its queue at a time (reader-ahead.c), reusing the
# buffers the previous samples' payloads lay in.  --by bucket --json must be the same with and without
# rounds, and both must equal the generator's per-bucket counts and waits.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-cont-gen
[ -x "$GEN" ] || { skip report-queue "no $GEN (make tests)"; done_tests; }
command -v jq >/dev/null || { skip report-queue "no jq"; done_tests; }
"$GEN" -n 60000 -o "$TMP/r.data" -e "$TMP/r.exp" || { fail report-queue-gen "hm-cont-gen failed"; done_tests; }
"$GEN" -n 60000 -o "$TMP/nr.data" -e "$TMP/nr.exp" --no-rounds ||
	{ fail report-queue-gen "hm-cont-gen --no-rounds failed"; done_tests; }
check "report-queue: both files hold the same contentions" cmp "$TMP/r.exp" "$TMP/nr.exp"
for v in r nr; do
	"$HITMAP" report -i "$TMP/$v.data" --by bucket --json >"$TMP/$v.json" 2>"$TMP/$v.err" ||
		{ fail "report-queue: report $v" "$(tail -n 1 "$TMP/$v.err")"; done_tests; }
	jq -r '.buckets[] | "\(.index) \(.contended) \(.wait_ns)"' "$TMP/$v.json" | sort -n >"$TMP/$v.txt"
done
jq -r '.buckets[] | "\(.index) \(.contended) \(.wait_ns)"' "$TMP/r.exp" | sort -n >"$TMP/exp.txt"
if cmp -s "$TMP/r.json" "$TMP/nr.json"; then
	pass "report-queue: --by bucket --json equal with and without FINISHED_ROUND"
else
	fail "report-queue: --by bucket --json equal with and without FINISHED_ROUND" \
		"$(diff "$TMP/r.txt" "$TMP/nr.txt" | head -n 4 | tr '\n' ' ')"
fi
for v in r nr; do
	if cmp -s "$TMP/exp.txt" "$TMP/$v.txt"; then
		pass "report-queue: per-bucket contentions and waits = generator ($v, $(wc -l <"$TMP/exp.txt") buckets)"
	else
		fail "report-queue: per-bucket contentions and waits = generator ($v)" \
			"$(diff "$TMP/exp.txt" "$TMP/$v.txt" | head -n 4 | tr '\n' ' ')"
	fi
done
done_tests
