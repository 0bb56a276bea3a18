#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds hitmap warning-free (WERROR=1, and its ThreadSanitizer build for
# tests/sh/threads-tsan.sh) with Debian 13's gcc 14, libbpf 1.5
# and libtraceevent 1.8 inside the Debian 13 chroot that setup-oracles.sh
# makes (its perf, 7.3, is the oracle there), into build-debian13/, and
# runs the tests there; the last line is "N passed, N failed, N skipped"
# (a failed setup or build counts as one failure).  A test file may take
# up to HITMAP_TEST_TIMEOUT seconds (1800 here).
#   scripts/check-debian13.sh [FILTER...]   FILTER: a test-name substring, as
#   tests/run.sh (make check-debian13 FILTER="reader-fixtures writer-rewrite")
set -u
cd "$(dirname "$0")/.."
D=${HITMAP_ORACLES:-/var/cache/hitmap-oracles}
scripts/setup-oracles.sh --debian13 | grep -v '^setup-oracles: perf'
if [ ! -f "$D/trixie/.hitmap-dev-ok" ] || [ ! -x "$D/bin/perf-7.3" ]; then
	echo "check-debian13: no Debian 13 chroot with build tools (run scripts/setup-oracles.sh --debian13 as root; see $D/debian13-dev.log)" >&2
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
# One run at a time in this tree: a second one would rebuild build-debian13
# under the first one's tests (a binary relinked mid-test fails them).  The
# lock is held until the run ends (fd 9 goes along into the chroot).
mkdir -p build-debian13
exec 9>build-debian13/.check.lock
if ! flock -n 9; then
	echo "check-debian13: another check-debian13 is running in this tree (build-debian13/); waiting for it to end" >&2
	if ! flock -w 7200 9; then
		echo "check-debian13: build-debian13/ stayed locked for 2 hours (build-debian13/.check.lock); is a run still going?" >&2
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
fi
# a test file's time limit (tests/run.sh; 900 s by default): this run is
# made beside other work, on a machine that may be loaded; the limit is
# there to stop a hang
export HITMAP_TEST_TIMEOUT=${HITMAP_TEST_TIMEOUT:-1800}
exec "$D/bin/perf-7.3" --sh '
cd "$1" || exit 1
echo "check-debian13: $(. /etc/os-release; echo "$PRETTY_NAME"); $(gcc --version | head -n 1); libbpf $(pkg-config --modversion libbpf); libtraceevent $(pkg-config --modversion libtraceevent); $(perf version)"
make --no-print-directory -j"$(nproc)" O="$2" WERROR=1 tests || { echo "check-debian13: the WERROR=1 build failed" >&2; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
make --no-print-directory -j"$(nproc)" O="$2" WERROR=1 tsan || { echo "check-debian13: the WERROR=1 ThreadSanitizer build failed" >&2; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
b=$2; shift 2
HITMAP_BUILD="$b" HITMAP_TEST_LOG="$b/test.log" tests/run.sh "$@"
' "$PWD" build-debian13 "$@"
