#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Progress (src/util/progress.c): on stderr when it is a terminal, nothing
# when it is not; HITMAP_PROGRESS=0 silences it.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-diff-gen
if [ ! -x "$GEN" ] || [ ! -x "$HITMAP" ]; then
	skip progress "build $GEN and $HITMAP first (make tests)"
	done_tests
fi
"$GEN" -o "$TMP/a.data" --seed 1 -n 20000
"$GEN" -o "$TMP/b.data" --seed 2 -n 20000
"$HITMAP" diff "$TMP/a.data" "$TMP/b.data" >"$TMP/out" 2>"$TMP/err"
check progress-not-on-a-file [ ! -s "$TMP/err" ]
check progress-not-in-stdout bash -c "! grep -q \$'\\r' '$TMP/out'"
if ! command -v script >/dev/null; then
	skip progress-terminal "no script(1) to give hitmap a terminal"
	done_tests
fi
# script(1) runs hitmap on a pseudo-terminal and copies what it shows
TERM=dumb script -qec "$HITMAP diff $TMP/a.data $TMP/b.data >/dev/null" /dev/null >"$TMP/tty" 2>&1
check progress-on-a-terminal grep -aq "hitmap: reading $TMP/a.data: 100%" "$TMP/tty"
check progress-line-erased grep -aq $'\r\033\\[K' "$TMP/tty"
HITMAP_PROGRESS=0 TERM=dumb script -qec "$HITMAP diff $TMP/a.data $TMP/b.data >/dev/null" /dev/null >"$TMP/tty0" 2>&1
check progress-off bash -c "! grep -aq reading '$TMP/tty0'"
done_tests
