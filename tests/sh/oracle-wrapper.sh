#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perf-7.3 (scripts/setup-oracles.sh) runs perf in a Debian 13 chroot where
# only some host folders are mounted.  It once missed a file named through
# ".." out of the current folder ("$PWD/../shared/..."), as the tests name
# the fixtures, and every perf 7.3 check on a fixture read nothing where
# the clone did not sit under /work or /tmp.  Here: files named through
# "..", through a link, and as --opt=PATH, in a folder outside every
# folder the wrapper mounts by default, all open in perf 7.3.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
need_perf 7.3 oracle-wrapper || done_tests
D=/var/lib/hitmap-wrapper.$$.$RANDOM
mkdir -m 700 "$D" 2>/dev/null ||
	{ skip oracle-wrapper "cannot make a folder under /var/lib (not root?)"; done_tests; }
trap 'rm -rf "$TMP" "$D"' EXIT
mkdir -p "$D/clone" "$D/shared"
if ! perf-7.3 record -q -o "$D/shared/r.data" -e cpu-clock -- true >/dev/null 2>&1; then
	skip oracle-wrapper "perf 7.3 cannot record a software event here"
	done_tests
fi
ln -s "$D/shared" "$TMP/link"
reads() { grep -q '^# event : name = cpu-clock' "$1"; }

(cd "$D/clone" && perf-7.3 report --header-only -i "$D/clone/../shared/r.data") >"$TMP/a" 2>&1
reads "$TMP/a" && pass "oracle-wrapper: a file named through .. out of the current folder" ||
	fail "oracle-wrapper: a file named through .." "$(head -n 2 "$TMP/a" | tr '\n' ' ')"
(cd "$D/clone" && perf-7.3 report --header-only -i "$TMP/link/r.data") >"$TMP/b" 2>&1
reads "$TMP/b" && pass "oracle-wrapper: a file named through a link" ||
	fail "oracle-wrapper: a file named through a link" "$(head -n 2 "$TMP/b" | tr '\n' ' ')"
(cd "$D/clone" && perf-7.3 report --header-only --input="$D/clone/../shared/r.data") >"$TMP/c" 2>&1
reads "$TMP/c" && pass "oracle-wrapper: --input=PATH through .." ||
	fail "oracle-wrapper: --input=PATH through .." "$(head -n 2 "$TMP/c" | tr '\n' ' ')"
# a file perf writes lands where it was named
(cd "$D/clone" && perf-7.3 record -q -o "$D/clone/../shared/w.data" -e cpu-clock -- true) >/dev/null 2>&1
[ -s "$D/shared/w.data" ] && pass "oracle-wrapper: perf 7.3 writes through .." ||
	fail "oracle-wrapper: perf 7.3 writes through .." "no $D/shared/w.data"
done_tests
