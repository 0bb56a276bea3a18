#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The profile of a profile-guided build (Makefile, PGO=1):
#   scripts/pgo-train.sh MAKE BUILD_DIR
# builds an instrumented hitmap in BUILD_DIR/pgo/gen (no LTO), runs it on
# the report's own work (simulated futex workloads of the kernel eras with
# global and private tables, reported as perf c2c, per bucket, with one and
# two threads, and `stat`), and puts each object's profile (.gcda) beside
# the object the real build makes in BUILD_DIR.  What the training prints is
# kept in BUILD_DIR/pgo/train.log.
#
# If the instrumented build or a training run fails, the binary is built
# without a profile (a warning says so): slower, never wrong.
set -u
MAKE_CMD=$1
B=$2
P=$B/pgo
GEN=$P/gen
T=$P/train
LOG=$P/train.log

mkdir -p "$P"
: > "$LOG"
# the real build's profiles (not the instrumented build's, under $P)
clear_profiles() {
	find "$B" -path "$P" -prune -o -name '*.gcda' -print0 | xargs -0 rm -f
}
no_profile() {
	echo "hitmap: warning: profile-guided build skipped ($1; see $LOG): the binary is built without a profile; PGO=0 builds that way without trying" >&2
	clear_profiles
	touch "$P/stamp"
	exit 0
}

$MAKE_CMD --no-print-directory O="$GEN" PGO=0 LTO=0 PGO_GEN=1 "$GEN/hitmap" >>"$LOG" 2>&1 ||
	no_profile "the instrumented build failed"
find "$GEN" -name '*.gcda' -delete
rm -rf "$T"
mkdir -p "$T"
H=$GEN/hitmap
run() {
	echo "+ $*" >>"$LOG"
	"$@" >/dev/null 2>>"$LOG" || no_profile "'$*' failed"
}
# the shapes of make bench's futex file, smaller: one global table a node
run "$H" simulate --sockets 2 --kernel 6.16 --period 10 --ops 300000 -o "$T/global.data"
# private tables (6.17's per-process hash), one socket's view
run "$H" simulate --sockets 2 --kernel 6.17 --period 10 --ops 100000 -o "$T/private.data"
for f in "$T/global.data" "$T/private.data"; do
	run "$H" report --stdio --threads 1 -i "$f"
	run "$H" report --stdio --threads 1 --by bucket -i "$f"
	run "$H" report --stdio --threads 2 -i "$f"
	run "$H" stat -i "$f"
done
run "$H" report --stdio --threads 1 --by socket -i "$T/global.data"
run "$H" report --threads 1 --json -i "$T/global.data"

# each profile beside the object the real build compiles from the same source
clear_profiles
n=0
while IFS= read -r -d '' g; do
	rel=${g#"$GEN"/}
	mkdir -p "$B/$(dirname "$rel")"
	cp "$g" "$B/$rel" || no_profile "cannot copy $g"
	n=$((n + 1))
done < <(find "$GEN" -name '*.gcda' -print0)
[ "$n" -gt 0 ] || no_profile "the training wrote no profile"
echo "$n profiles" >>"$LOG"
rm -rf "$T"
touch "$P/stamp"
