#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The bucket lock as a queued spinlock (kernel/locking/qspinlock.c): on a
# 2-bucket private hash every lock is contended, and the --trace of the run
# must show
#  - mutual exclusion: no CPU takes a bucket lock another CPU holds, and only
#    the holder releases it;
#  - the slowpath's three ways in: the pending bit (taken at +0x7a), the MCS
#    queue's head (+0x1a4) and the MCS hand-off (a store to the successor's
#    qnode, +0x1c6);
# and the contention must follow the bucket count (7.2 on skx: 256 slots more
# than 512, the 16k-bucket global hash of --shared almost none).
. tests/lib.sh
[ -x "$HITMAP" ] || { skip sim-qspin "no $HITMAP; build first"; done_tests; }
command -v jq >/dev/null || { skip sim-qspin "jq is not installed"; done_tests; }

"$HITMAP" simulate --preset skx --kernel 7.2 -b 2 --threads 8 --futexes 8 --ops 2000 --trace 1000000 \
	>"$TMP/trace.txt" 2>"$TMP/trace.err" || { fail sim-qspin-run "$(head -c 300 "$TMP/trace.err")"; done_tests; }
# fields: ... cpu N (socket S, core C)  FN+OFF ACC WHAT line ADDR ...
awk '
	$3 == "cpu" {
		cpu = $4; fn = $9; acc = $10; what = $11; line = $13
		if (what !~ /\.lock$/ && what != "qnode") next
		if ((fn ~ /^_raw_spin_lock\+/ && acc == "rmw") || fn ~ /slowpath\+0x(7a|1a4)$/) {
			acq++
			if (fn ~ /\+0x7a$/) pend++
			if (fn ~ /\+0x1a4$/) head++
			if (held[line] != "") { bad++; if (!why) why = sprintf("cpu %s took %s held by cpu %s", cpu, line, held[line]) }
			held[line] = cpu
		} else if (fn ~ /^futex_q_unlock\+/ && acc == "store") {
			rel++
			if (held[line] != cpu) { bad++; if (!why) why = sprintf("cpu %s released %s held by cpu %s", cpu, line, held[line]) }
			held[line] = ""
		} else if (fn ~ /slowpath\+0x1c6$/ && acc == "store") {
			handoff++
		}
	}
	END { printf "%d %d %d %d %d %d %s\n", acq, rel, pend, head, handoff, bad, why }
' "$TMP/trace.txt" >"$TMP/counts"
read -r acq rel pend head handoff bad why <"$TMP/counts"
echo "# -b 2, 8 threads: $acq acquisitions, $rel releases, pending $pend, queue head $head, MCS hand-offs $handoff"
[ "${acq:-0}" -ge 1500 ] && [ "$bad" = 0 ] && pass sim-qspin-mutual-exclusion ||
	fail sim-qspin-mutual-exclusion "$acq acquisitions, $bad violations: $why"
[ "${pend:-0}" -gt 0 ] && [ "${head:-0}" -gt 0 ] && [ "${handoff:-0}" -gt 0 ] && pass sim-qspin-slowpath ||
	fail sim-qspin-slowpath "pending $pend, queue head $head, hand-offs $handoff"

c() { "$HITMAP" simulate --preset skx --kernel 7.2 "$@" --ops 50000 --json | jq '.lock_contended'; }
c256=$(c -b 256) c512=$(c -b 512) cs=$(c --shared)
echo "# contended acquisitions of 50000: -b 256 $c256, -b 512 $c512, --shared $cs"
[ -n "$c256" ] && [ "$c256" -gt "$c512" ] && [ "$c512" -gt "$cs" ] && pass sim-qspin-follows-buckets ||
	fail sim-qspin-follows-buckets "-b 256 $c256, -b 512 $c512, --shared $cs"
done_tests
