# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for shell tests: source it.  Same protocol as tests/unit/tap.h.
HITMAP_BUILD=${HITMAP_BUILD:-build}
HITMAP=${HITMAP:-$PWD/$HITMAP_BUILD/hitmap}
FIXTURES=${HITMAP_FIXTURES:-$PWD/../shared/fixtures/perf-data}
TMP=$(mktemp -d /tmp/hitmap-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
_failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; _failed=$((_failed+1)); }
skip() { echo "SKIP $1: $2"; }
# check NAME CMD...: PASS when CMD succeeds
check() { local n=$1; shift; if "$@" >"$TMP/check.out" 2>&1; then pass "$n"; else fail "$n" "$(tail -n 3 "$TMP/check.out" | tr '\n' ' ')"; fi; }
have_perf() { command -v perf >/dev/null 2>&1; }
# can_record: perf can open a software event here
can_record() { have_perf && perf record -q -o "$TMP/.probe.data" -e cpu-clock -- true >/dev/null 2>&1; }
have_tracefs() { [ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; [ -d /sys/kernel/tracing/events ]; }
done_tests() { exit $(( _failed > 0 )); }
