#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Futex workload parity and recording cost, side by side with perf:
#  1. perf bench futex hash vs hitmap bench futex-hash, same options, rounds
#     interleaved; ops/s per thread (perf's Averaged line) and the ratio.
#  2. hitmap record (contention mode, default settings) vs the unrecorded run.
#  3. --futex-syscalls vs perf record -e syscalls:sys_enter_futex, same workload.
set -u
HITMAP=${HITMAP:-$PWD/build/hitmap}
T=${BENCH_TMP:-$(mktemp -d)}
R=${BENCH_RUNTIME:-2}
N=${BENCH_ROUNDS:-3}
avg() { sed -n 's/^Averaged \([0-9]*\) operations.*/\1/p' "$1" | tail -n 1; }
best() { sort -n | tail -n 1; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print 0; else if (NR % 2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.1f%%", 100 * (a - b) / b; else print "n/a" }'; }

have_perf=0
perf bench futex hash -r 1 -s -t 1 -f 16 >/dev/null 2>&1 && have_perf=1
echo "machine: $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); runtime ${R}s, $N rounds"

# 1. parity (also per CPU second of the process, which other load disturbs less)
: >"$T/p.ops"; : >"$T/h.ops"; : >"$T/p.eff"; : >"$T/h.eff"
nt=$(nproc)
TIMEFORMAT='%U %S'
eff() { # OUT TIMES -> ops per CPU second
	awk -v a="$(avg "$1")" -v n="$nt" -v r="$R" '{ c = $1 + $2; if (c > 0) printf "%d\n", a * n * r / c; else print 0 }' "$2"
}
for i in $(seq "$N"); do
	if [ $have_perf = 1 ]; then
		{ time perf bench futex hash -r "$R" -s >"$T/p.out" 2>&1; } 2>"$T/p.t"; avg "$T/p.out" >>"$T/p.ops"; eff "$T/p.out" "$T/p.t" >>"$T/p.eff"
	fi
	{ time "$HITMAP" bench futex-hash -r "$R" -s >"$T/h.out" 2>&1; } 2>"$T/h.t"; avg "$T/h.out" >>"$T/h.ops"; eff "$T/h.out" "$T/h.t" >>"$T/h.eff"
	printf 'round %d: perf %s  hitmap %s ops/s; per CPU second %s vs %s\n' "$i" "$(tail -n 1 "$T/p.ops" 2>/dev/null)" "$(tail -n 1 "$T/h.ops")" \
		"$(tail -n 1 "$T/p.eff" 2>/dev/null)" "$(tail -n 1 "$T/h.eff")"
done
p=$(median <"$T/p.ops"); h=$(median <"$T/h.ops")
if [ $have_perf = 1 ]; then
	echo "parity: perf bench futex hash $p ops/s, hitmap bench futex-hash $h ops/s (medians); ratio hitmap/perf $(ratio "$h" "$p") (target 0.97-1.03)"
	pb=$(best <"$T/p.ops"); hb=$(best <"$T/h.ops")
	echo "parity, best of $N (least disturbed): perf $pb, hitmap $hb ops/s; ratio $(ratio "$hb" "$pb")"
	pe=$(median <"$T/p.eff"); he=$(median <"$T/h.eff")
	echo "parity, load-independent: ops per CPU second perf $pe, hitmap $he; ratio $(ratio "$he" "$pe")"
else
	echo "parity: perf bench not available; hitmap bench futex-hash $h ops/s"
fi

# 2. contention recording cost
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing/events/lock/contention_begin ]; then
	: >"$T/u.ops"; : >"$T/r.ops"; : >"$T/u.eff"; : >"$T/r.eff"; lost=0
	for i in $(seq "$N"); do
		"$HITMAP" bench futex-hash -r "$R" --json >"$T/u.json" 2>&1
		sed -n 's/.*"avg_ops_per_sec":\([0-9]*\).*/\1/p' "$T/u.json" >>"$T/u.ops"
		sed -n 's/.*"total_ops":\([0-9]*\),"cpu_secs":\([0-9.]*\).*/\1 \2/p' "$T/u.json" | awk '{ if ($2 > 0) printf "%d\n", $1 / $2; else print 0 }' >>"$T/u.eff"
		"$HITMAP" record -o "$T/c.data" --workload futex-hash -r "$R" -s >"$T/r.out" 2>"$T/r.err"; avg "$T/r.out" >>"$T/r.ops"
		sed -n 's/.*: \([0-9]*\) ops per CPU second.*/\1/p' "$T/r.err" >>"$T/r.eff"
		l=$(sed -n 's/.*samples on [0-9]* CPUs, \([0-9]*\) lost events.*/\1/p' "$T/r.err"); lost=$((lost + ${l:-0}))
		printf 'round %d: unrecorded %s  recorded %s ops/s; per CPU second %s vs %s  (%s)\n' "$i" "$(tail -n 1 "$T/u.ops")" "$(tail -n 1 "$T/r.ops")" \
			"$(tail -n 1 "$T/u.eff")" "$(tail -n 1 "$T/r.eff")" "$(sed -n 's/.*wrote [^:]*: \(.*\) ]/\1/p' "$T/r.err")"
	done
	u=$(median <"$T/u.ops"); r=$(median <"$T/r.ops"); ue=$(median <"$T/u.eff"); re=$(median <"$T/r.eff")
	echo "contention mode: unrecorded $u ops/s, hitmap record $r ops/s; change $(pct "$r" "$u") (target >= -5%), lost events $lost"
	echo "contention mode, best of $N (least disturbed): unrecorded $(best <"$T/u.ops"), recorded $(best <"$T/r.ops") ops/s; change $(pct "$(best <"$T/r.ops")" "$(best <"$T/u.ops")")"
	echo "contention mode, load-independent: ops per CPU second (workload + recorder) unrecorded $ue, recorded $re; change $(pct "$re" "$ue")"
	grep 'attributed' "$T/r.err" | sed 's/^/  /'

	# 3. --futex-syscalls against perf record on the same workload (1 s: perf writes ~150 MB/s)
	cps() { sed -n 's/.*: \([0-9]*\) ops per CPU second.*/\1/p' "$1"; }
	jcps() { sed -n 's/.*"total_ops":\([0-9]*\),"cpu_secs":\([0-9.]*\).*/\1 \2/p' "$1" | awk '{ if ($2 > 0) printf "%d", $1 / $2; else print 0 }'; }
	"$HITMAP" bench futex-hash -r 1 --json >"$T/u1.json" 2>&1
	u1=$(sed -n 's/.*"avg_ops_per_sec":\([0-9]*\).*/\1/p' "$T/u1.json"); u1e=$(jcps "$T/u1.json")
	"$HITMAP" record -o "$T/f.data" --futex-syscalls --workload futex-hash -r 1 -s >"$T/f.out" 2>"$T/f.err"; f1=$(avg "$T/f.out")
	fl=$(sed -n 's/.*samples on [0-9]* CPUs, \([0-9]*\) lost events.*/\1/p' "$T/f.err")
	if [ $have_perf = 1 ]; then
		perf record -q -e syscalls:sys_enter_futex -o "$T/p.data" -- "$HITMAP" bench futex-hash -r 1 -s >"$T/pr.out" 2>&1; pr=$(avg "$T/pr.out")
		perf record -q -e lock:contention_begin,lock:contention_end -a -o "$T/pl.data" -- "$HITMAP" bench futex-hash -r 1 -s >"$T/pl.out" 2>&1; pl=$(avg "$T/pl.out")
	else
		pr=0; pl=0
	fi
	echo "futex syscalls: unrecorded $u1 ops/s; hitmap record --futex-syscalls $f1 ($(pct "$f1" "$u1"), lost $fl); perf record -e syscalls:sys_enter_futex $pr ($(pct "$pr" "$u1"))"
	echo "futex syscalls, load-independent: ops per CPU second unrecorded $u1e, hitmap record --futex-syscalls $(cps "$T/f.err") ($(pct "$(cps "$T/f.err")" "$u1e"))"
	echo "perf record -e lock:contention_begin,lock:contention_end -a: $pl ops/s ($(pct "$pl" "$u1")) vs unrecorded"
	# 4. the BPF pairing (--futex-bpf): same pairs, no syscall tracepoint
	if command -v clang >/dev/null && clang -O2 -g -target bpf -I/usr/include/$(uname -m)-linux-gnu \
		-c src/record/pair.bpf.c -o "$T/pair.bpf.o" 2>/dev/null; then
		"$HITMAP" bench futex-hash -r 1 --json >"$T/u2.json" 2>&1
		u2=$(sed -n 's/.*"avg_ops_per_sec":\([0-9]*\).*/\1/p' "$T/u2.json"); u2e=$(jcps "$T/u2.json")
		"$HITMAP" record -o "$T/b.data" --futex-bpf --bpf-obj "$T/pair.bpf.o" --workload futex-hash -r 1 -s >"$T/b.out" 2>"$T/b.err"
		b1=$(avg "$T/b.out")
		echo "futex pairing in BPF: unrecorded $u2 ops/s; hitmap record --futex-bpf $b1 ($(pct "$b1" "$u2")); per CPU second $u2e vs $(cps "$T/b.err") ($(pct "$(cps "$T/b.err")" "$u2e"))"
		grep 'BPF pair' "$T/b.err" | sed 's/^/  /'
		rm -f "$T/b.data"
	fi
	rm -f "$T/p.data" "$T/pl.data" "$T/f.data" "$T/c.data"
else
	echo "contention mode: skipped (needs root and lock:contention_begin)"
fi
