#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every long option a command accepts (its getopt_long table in
# src/cli/cmd-NAME.c) is in 'hitmap NAME --help' and in man/hitmap-NAME.1,
# and the rule sees a planted option that is in neither.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
[ -x "$HITMAP" ] || { skip cli-options "no $HITMAP; build first (make tests)"; done_tests; }

# long options of a command's source, one a line ("help" left out: every command has it)
long_opts() {
	grep -o '{ *"[a-z0-9-]*", *\(no\|required\|optional\)_argument' "$1" |
		sed 's/{ *"\([^"]*\)".*/\1/' | grep -vx help | sort -u
}

# missing SRC HELP MAN: "--opt not in help|man" for each option left out
missing() {
	local o
	sed 's/\\//g' "$3" >"$TMP/man.txt"
	for o in $(long_opts "$1"); do
		grep -Eq -- "--$o([^a-z0-9-]|\$)" "$2" || echo "--$o not in --help"
		grep -Eq -- "--$o([^a-z0-9-]|\$)" "$TMP/man.txt" || echo "--$o not in the man page"
	done
}

n=0
for src in src/cli/cmd-*.c; do
	cmd=$(basename "$src" .c)
	cmd=${cmd#cmd-}
	if [ ! -f "man/hitmap-$cmd.1" ]; then
		fail "cli-options.$cmd" "no man/hitmap-$cmd.1"
		continue
	fi
	"$HITMAP" "$cmd" --help >"$TMP/help.txt" 2>&1
	out=$(missing "$src" "$TMP/help.txt" "man/hitmap-$cmd.1")
	if [ -z "$out" ]; then pass "cli-options.$cmd"
	else fail "cli-options.$cmd" "$(echo $out)"; fi
	n=$((n + $(long_opts "$src" | wc -l)))
done
check "cli-options: the tables were read ($n options)" [ "$n" -gt 50 ]

# planted: an option in the source that neither text has
printf 'static const struct option o[] = {\n\t{ "planted-option", no_argument, NULL, 1 },\n' >"$TMP/cmd-x.c"
printf '  --other   something\n' >"$TMP/help.txt"
printf '.B \\-\\-other\n' >"$TMP/x.1"
check "planted: both omissions seen" [ "$(missing "$TMP/cmd-x.c" "$TMP/help.txt" "$TMP/x.1" | wc -l)" -eq 2 ]
done_tests
