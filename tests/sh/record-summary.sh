#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Record writes, report analyses: the contended-bucket summary hitmap record
# prints at its end is read back from the file it wrote by the report's own
# pairing of contention_begin/end, so its numbers are those of
# 'hitmap report --by bucket' (and --by socket) on the same file.  On a
# generated contention recording (tests/tools/hm-cont-gen) through the
# summary's own code (tests/tools/hm-rec-summary), then live when this
# machine has the lock tracepoints and something contends.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-cont-gen
SUM=$HITMAP_BUILD/tools/hm-rec-summary
[ -x "$HITMAP" ] && [ -x "$GEN" ] && [ -x "$SUM" ] || { skip record-summary "build $HITMAP, $GEN and $SUM first (make tests)"; done_tests; }
command -v jq >/dev/null || { skip record-summary "jq is not installed"; done_tests; }

f=$TMP/c.data
"$GEN" -o "$f" -e "$TMP/c.exp.json" -n 4000 --seed 5 >/dev/null 2>&1 || { fail record-summary-gen "hm-cont-gen failed"; done_tests; }
"$SUM" "$f" >"$TMP/sum" 2>"$TMP/sum.err" || { fail record-summary "hm-rec-summary: $(head -n 1 "$TMP/sum.err")"; done_tests; }
"$HITMAP" report -i "$f" --by bucket --json >"$TMP/b.json" 2>/dev/null || { fail record-summary "report --by bucket failed"; done_tests; }
"$HITMAP" report -i "$f" --by socket --json >"$TMP/s.json" 2>/dev/null || { fail record-summary "report --by socket failed"; done_tests; }

# index events wait_ns of every contended bucket, sorted
grep -v '^#' "$TMP/sum" | awk '{print $1, $2, $3}' | sort -n >"$TMP/sum.rows"
jq -r '.buckets[] | select(.contended > 0) | "\(.index) \(.contended) \(.wait_ns)"' "$TMP/b.json" | sort -n >"$TMP/b.rows"
n=$(wc -l <"$TMP/b.rows")
if [ "$n" -gt 0 ] && cmp -s "$TMP/sum.rows" "$TMP/b.rows"; then
	pass "summary = report --by bucket: contentions and wait of each of $n buckets"
else
	fail "summary = report --by bucket" "$(diff "$TMP/sum.rows" "$TMP/b.rows" | head -n 4 | tr '\n' ' ')"
fi
tot=$(sed -n 's/^# \([0-9]*\) contention events$/\1/p' "$TMP/sum")
want=$(jq .summary.contentions_on_buckets "$TMP/b.json")
check "summary total = report's contentions on buckets ($want)" [ "$tot" = "$want" ]
# the summary's socket columns, summed over buckets = --by socket's contention per requesting socket
got=$(grep -v '^#' "$TMP/sum" | awk '{for (i = 4; i <= NF; i++) s[i - 4] += $i} END {for (i = 0; i < 2; i++) printf "%d ", s[i]}')
want=$(jq -r '[range(0; 2) as $s | [.contention[] | select(.socket == $s) | .contended] | add // 0] | map(tostring) | join(" ")' "$TMP/s.json")
check "summary per socket = report --by socket ($want)" [ "$got" = "$want " ]

# live: hitmap record's own summary against report --by bucket on the file it wrote
if [ "$(id -u)" != 0 ] || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	skip "record-summary live" "needs root and the lock:contention_begin tracepoint"
	done_tests
fi
# the summary's counts of each event = the samples of that event in the file
# (end and sys_enter_futex were decoded with begin's layout, its call chain: 0)
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_futex ]; then
	"$HITMAP" record -o "$TMP/f.data" --json --futex-syscalls --workload futex-hash -r 1 -t 2 >"$TMP/f.json" 2>/dev/null
	"$HITMAP" script -i "$TMP/f.data" -F event 2>/dev/null | sort | uniq -c >"$TMP/f.ev"
	for ev in begin:lock:contention_begin end:lock:contention_end sys_enter_futex:syscalls:sys_enter_futex; do
		k=${ev%%:*}; name=${ev#*:}
		got=$(jq ".contention.$k" "$TMP/f.json" 2>/dev/null)
		want=$(awk -v e="$name:" '$2 == e {print $1}' "$TMP/f.ev"); want=${want:-0}
		check "live: record's count of $name = its samples in the file ($want)" [ "$got" = "$want" ]
	done
	[ "$(jq .contention.sys_enter_futex "$TMP/f.json")" -gt 0 ] 2>/dev/null &&
		pass "live: the futex workload's sys_enter_futex counted" || fail "live: the futex workload's sys_enter_futex counted" "$(head -c 300 "$TMP/f.json")"
else
	skip "record-summary sys_enter_futex" "no syscalls:sys_enter_futex tracepoint here"
fi
"$HITMAP" record -o "$TMP/r.data" --json --workload futex-hash -r 1 -t 4 >"$TMP/r.json" 2>"$TMP/r.err"
if [ "$(jq '.buckets | length' "$TMP/r.json" 2>/dev/null)" = 0 ] || ! [ -s "$TMP/r.json" ]; then
	skip "record-summary live" "nothing contended while recording (a busy or small machine): contention_begin $(jq .contention.begin "$TMP/r.json" 2>/dev/null)"
	done_tests
fi
jq -r '.buckets[] | "\(.index) \(.events) \(.wait_ns)"' "$TMP/r.json" | sort -n >"$TMP/r.rows"
"$HITMAP" report -i "$TMP/r.data" --by bucket --json 2>/dev/null |
	jq -r '.buckets[] | select(.contended > 0) | "\(.index) \(.contended) \(.wait_ns)"' | sort -n >"$TMP/rb.rows"
if cmp -s "$TMP/r.rows" "$TMP/rb.rows"; then
	pass "live: record's summary = report --by bucket on its file ($(wc -l <"$TMP/r.rows") buckets)"
else
	fail "live: record's summary = report --by bucket on its file" "$(diff "$TMP/r.rows" "$TMP/rb.rows" | head -n 4 | tr '\n' ' ')"
fi
done_tests
