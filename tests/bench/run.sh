#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench: runs every tests/bench/bench-*.sh; each measures hitmap against
# the real tool side by side and prints its ratio lines.
set -u
cd "$(dirname "$0")/../.."
export HITMAP_BUILD=${HITMAP_BUILD:-build}
export HITMAP=$PWD/$HITMAP_BUILD/hitmap
export BENCH_TMP=${BENCH_TMP:-$(mktemp -d /tmp/hitmap-bench.XXXXXX)}
rc=0
for b in tests/bench/bench-*.sh; do
	[ -f "$b" ] || continue
	[ -n "${1:-}" ] && [[ "$b" != *"$1"* ]] && continue
	echo "== $(basename "$b" .sh)"
	bash "$b" || rc=1
done
rm -rf "$BENCH_TMP"
exit $rc
