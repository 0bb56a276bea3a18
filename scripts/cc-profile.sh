#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs a compile that reads a profile (Makefile, PGO=1) and prints what it
# says except gcc's "Missing counts for called function" notes and their
# source lines: gcc prints one for each call from a function the training
# never ran into one it did (the profile is partial by design), and no -W
# option turns them off.  Every other diagnostic is printed; the exit status
# is the compiler's.
err=$(mktemp) || exit 1
"$@" 2>"$err"
rc=$?
awk '/: warning: Missing counts for called function / { skip = 1; next }
     skip && /^ *[0-9]* *\| / { next }
     { skip = 0; print }' "$err" >&2
rm -f "$err"
exit $rc
