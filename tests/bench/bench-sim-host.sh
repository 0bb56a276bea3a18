#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap simulate --preset host (this machine's sysfs topology, the vendor's
# published latencies, the non-memory work of one futex operation measured)
# beside a real `hitmap bench futex-hash -t N` on this machine: ops/s per
# thread of both and their ratio, for 1 and 2 threads (goal: within 25%).
# One thread is the calibration: the host preset times the benchmark's own
# operation on one thread (src/sim/host.c), as the named presets take theirs
# from LKP's one-thread-per-CPU 6.12 rate, so its line checks that the
# calibration holds, not a prediction.  Two threads (a 16-slot private hash
# both threads hash into, each with its own 1024 futexes) and shared futexes
# (get_futex_key's GUP-fast path, which the calibration
# never ran) are predictions.  The real rate is taken
# per CPU-second of the benchmark's threads (total ops / CPU seconds), the rate
# the model computes: on a shared box the threads do not get a whole CPU each,
# and wall-clock rates swing with the load; the wall-clock rate is printed
# beside.  tests/sh/sim-host.sh runs this script and checks its lines.
#
# Environment: SIM_HOST_RUNTIME seconds per real run (3), SIM_HOST_RUNS real
# runs per thread count, each between two model runs of its own, the run
# with the median ratio is used (1), SIM_HOST_KERNEL the kernel
# model (default: the one nearest the running kernel), SIM_HOST_CONTROL=1 adds
# a control line for 1 thread: the model with its syscall cost tripled;
# SIM_HOST_SHARED=0 leaves out the line for 1 thread on shared futexes (-S, --shared).
# Per thread count it prints one line:
#   sim host N thread(s), kernel model K for RELEASE: real W ops/s/thread wall,
#   C per CPU-second; model M; ratio model/real R (within 25%|OUTSIDE 25%)
# or "sim host N thread(s): skipped: REASON"; the shared line starts
# "sim host shared 1 thread(s)".
set -u
HITMAP=${HITMAP:-$PWD/build/hitmap}
command -v jq >/dev/null || { echo "bench-sim-host: jq is not installed"; exit 0; }
T=$(mktemp -d /tmp/bench-sim-host.XXXXXX)
trap 'rm -rf "$T"' EXIT
# the kernel model nearest the running kernel; a 6.17/6.18 stable kernel whose
# BTF has no hb->priv carries a734d9fca84e: its private path is 7.2's
host_kernel() {
	local r mm priv
	r=$(uname -r); mm=${r%%-*}; mm=$(echo "$mm" | cut -d. -f1,2)
	priv=$("$HITMAP" hash --this-machine --json 0x7f0000001000 2>/dev/null | jq -r '.layout.priv // "absent"')
	case "$mm" in
	6.12|6.16|6.17|6.18|7.2|7.3) ;;
	6.1[3-5]|6.[0-9]|5.*) mm=6.12 ;;
	6.19|7.0|7.1) mm=6.18 ;;
	*) mm=7.3 ;;
	esac
	case "$mm" in 6.17|6.18) [ "$priv" = absent ] && mm=7.2 ;; esac
	echo "$mm"
}
K=${SIM_HOST_KERNEL:-$(host_kernel)}
RUNS=${SIM_HOST_RUNS:-1}
model() { "$HITMAP" simulate --preset host --kernel "$K" --threads "$@" --json | jq -r '.ops_per_sec_thread'; }
# real and model N [BENCH OPTIONS] (MARGS: the model's options):
# "wall per-CPU-second model", the run with the median
# model/real ratio.  Each real run has its own model runs, one just before
# and one just after it, their mean taken:
# the host preset measures this machine's figures when it runs, and a VM's
# speed drifts by 20% within seconds (its host moves the vCPUs), so a model
# and a real run are compared only when they ran side by side.
real() {
	local n=$1 i w c m m2
	shift
	for ((i = 0; i < RUNS; i++)); do
		m=$(model "$n" ${MARGS:-}) && [ -n "$m" ] || { : >"$T/model-failed"; return 1; }
		read -r c w < <("$HITMAP" bench futex-hash -t "$n" "$@" -r "${SIM_HOST_RUNTIME:-3}" -s --json 2>/dev/null |
			jq -r 'select(.cpu_secs > 0) | "\(.total_ops / .cpu_secs) \(.avg_ops_per_sec)"') || return 1
		[ -n "$c" ] || return 1
		m2=$(model "$n" ${MARGS:-}) && [ -n "$m2" ] || { : >"$T/model-failed"; return 1; }
		awk -v m="$m" -v m2="$m2" -v c="$c" -v w="$w" \
			'BEGIN { m = (m + m2) / 2; printf "%.6f %s %s %s\n", m / c, w, c, m }'
	done | sort -g | sed -n "$(( (RUNS + 1) / 2 ))p" | cut -d' ' -f2-
}
# a model run that failed ends the script (the test fails); a benchmark that did not run skips
model_ok() { [ ! -e "$T/model-failed" ] || { echo "bench-sim-host: simulate --preset host $1 failed"; exit 1; }; }
verdict() { awk -v m="$1" -v r="$2" 'BEGIN { x = m / r; printf "%.3f (%s)", x, (x > 0.8 && x < 1.25) ? "within 25%" : "OUTSIDE 25%" }'; }
echo "# kernel $(uname -r): modelled as $K"
for n in 1 2; do
	if [ "$n" -gt "$(nproc)" ]; then
		echo "sim host $n thread(s): skipped: this machine has $(nproc) CPU(s)"
		continue
	fi
	r=$(real "$n")
	model_ok "--threads $n"
	if [ -z "$r" ]; then
		echo "sim host $n thread(s): skipped: hitmap bench futex-hash -t $n did not run here"
		continue
	fi
	read -r wall cpu m <<<"$r"
	printf 'sim host %s thread(s), kernel model %s for %s: real %.0f ops/s/thread wall, %.0f per CPU-second; model %.0f; ratio model/real %s\n' \
		"$n" "$K" "$(uname -r)" "$wall" "$cpu" "$m" "$(verdict "$m" "$cpu")"
	if [ "$n" = 1 ] && [ "${SIM_HOST_CONTROL:-0}" = 1 ]; then
		sc=$("$HITMAP" simulate --preset host --kernel "$K" --threads 1 --ops 100 --truth "$T/t.json" >/dev/null &&
			jq -r '.latency.syscall // empty' "$T/t.json")
		[ -n "$sc" ] || { echo "sim host control: skipped: the truth JSON has no latency.syscall"; continue; }
		c=$(model 1 --latency "syscall=$((sc * 3))")
		echo "sim host control, syscall $sc -> $((sc * 3)) cycles: model $(printf '%.0f' "$c"); ratio model/real $(verdict "$c" "$cpu")"
	fi
done
if [ "${SIM_HOST_SHARED:-1}" = 1 ]; then
	r=$(MARGS=--shared real 1 -S)
	model_ok "--shared"
	if [ -z "$r" ]; then
		echo "sim host shared 1 thread(s): skipped: hitmap bench futex-hash -t 1 -S did not run here"
	else
		read -r wall cpu m <<<"$r"
		printf 'sim host shared 1 thread(s), kernel model %s for %s: real %.0f ops/s/thread wall, %.0f per CPU-second; model %.0f; ratio model/real %s\n' \
			"$K" "$(uname -r)" "$wall" "$cpu" "$m" "$(verdict "$m" "$cpu")"
	fi
fi
