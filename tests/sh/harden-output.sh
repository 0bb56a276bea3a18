#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Output errors are errors: every command writing to a full disk (/dev/full)
# fails naming the file and ENOSPC; an output that is an input is refused
# before anything is written; '-' is standard output or refused; options
# that conflict are refused.
. tests/lib.sh

if [ ! -w /dev/full ]; then
	skip harden-output "/dev/full is not there"
	done_tests
fi
F=$TMP/in.data
if ! "$HITMAP" simulate --ops 20000 -o "$F" --truth "$TMP/truth.json" >/dev/null 2>"$TMP/sim.err"; then
	fail harden-output.simulate "cannot make an input: $(head -c 200 "$TMP/sim.err")"
	done_tests
fi

# full NAME CMD...: stdout on /dev/full -> rc 1 and one line
# "hitmap: <stdout>: cannot write: No space left on device"
full() {
	local n=$1; shift
	"$@" >/dev/full 2>"$TMP/err"
	local rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	   grep -qx 'hitmap: <stdout>: cannot write: No space left on device' "$TMP/err"; then
		pass "harden-output.full.$n"
	else fail "harden-output.full.$n" "rc $rc: $(head -c 200 "$TMP/err")"; fi
}
full report        "$HITMAP" report -i "$F"
full report-json   "$HITMAP" report -i "$F" --json
full report-csv    "$HITMAP" report -i "$F" --csv
full report-lkp    "$HITMAP" report -i "$F" --lkp
full report-bucket "$HITMAP" report -i "$F" --by bucket
full script        "$HITMAP" script -i "$F"
full script-json   "$HITMAP" script -i "$F" --json
full stat          "$HITMAP" stat -i "$F"
full header        "$HITMAP" header -i "$F"
full diff          "$HITMAP" diff "$F" "$F"
full simulate-json "$HITMAP" simulate --ops 2000 --json
full hash          "$HITMAP" hash --help
full bench         "$HITMAP" bench --help
full record-plan   "$HITMAP" record --plan --help
full help          "$HITMAP" --help

# fileout NAME FILE-OPTION CMD...: a named output on /dev/full
fileout() {
	local n=$1; shift
	"$@" >/dev/null 2>"$TMP/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -q '/dev/full.*No space left on device' "$TMP/err"; then
		pass "harden-output.file.$n"
	else fail "harden-output.file.$n" "rc $rc: $(head -c 200 "$TMP/err")"; fi
}
fileout report-html "$HITMAP" report -i "$F" --html /dev/full
fileout diff-html   "$HITMAP" diff --html /dev/full "$F" "$F"
fileout sim-truth   "$HITMAP" simulate --ops 2000 -o "$TMP/s.data" --truth /dev/full
fileout sim-ksyms   "$HITMAP" simulate --ops 2000 -o "$TMP/s2.data" --kallsyms /dev/full

# refused NAME WANT-RC CMD...: refused with a message, the input intact
refused() {
	local n=$1 want=$2; shift 2
	local sum
	sum=$(md5sum <"$F")
	"$@" >/dev/null 2>"$TMP/err" <"$F"
	local rc=$?
	if [ $rc -ne "$want" ] || [ ! -s "$TMP/err" ]; then
		fail "harden-output.refuse.$n" "rc $rc (expected $want): $(head -c 200 "$TMP/err")"
	elif [ "$(md5sum <"$F")" != "$sum" ]; then
		fail "harden-output.refuse.$n" "the input was changed"
	else pass "harden-output.refuse.$n"; fi
}
refused report-html-input 1 "$HITMAP" report -i "$F" --html "$F"
refused diff-html-input   1 "$HITMAP" diff --html "$F" "$F" "$F"
refused convert-stdin     1 "$HITMAP" convert -i - -o "$F"
refused convert-same      1 "$HITMAP" convert -i "$F" -o "$F"
refused sim-truth-is-o    1 "$HITMAP" simulate --ops 2000 -o "$TMP/x.data" --truth "$TMP/x.data"
refused sim-o-dash        1 "$HITMAP" simulate --ops 2000 -o -
refused record-o-dash     1 "$HITMAP" record -o - -- true
refused json-csv          2 "$HITMAP" report -i "$F" --json --csv
refused diff-json-csv     2 "$HITMAP" diff --json --csv "$F" "$F"
refused alpha-nan         2 "$HITMAP" diff --alpha nan "$F" "$F"
refused kallsyms-missing  1 "$HITMAP" report -i "$F" --kallsyms "$TMP/nonexistent"
# a symbol file named by an option is an input too: --html may not overwrite it
kept() {
	local n=$1 file=$2; shift 2
	local sum; sum=$(md5sum <"$file")
	"$@" >/dev/null 2>"$TMP/err"; local rc=$?
	if [ $rc -eq 1 ] && grep -q 'the same file as the input' "$TMP/err" && [ "$(md5sum <"$file")" = "$sum" ]; then
		pass "harden-output.refuse.$n"
	else fail "harden-output.refuse.$n" "rc $rc, $(head -c 200 "$TMP/err"); kept: $([ "$(md5sum <"$file")" = "$sum" ] && echo yes || echo no)"; fi
}
printf 'ffffffff81000000 T _text\n' >"$TMP/k.syms"
cp "$F" "$TMP/vm"
kept report-html-kallsyms "$TMP/k.syms" "$HITMAP" report -i "$F" --kallsyms "$TMP/k.syms" --html "$TMP/k.syms"
kept report-html-vmlinux  "$TMP/vm"     "$HITMAP" report -i "$F" -k "$TMP/vm" --html "$TMP/vm"
kept diff-html-kallsyms   "$TMP/k.syms" "$HITMAP" diff --kallsyms "$TMP/k.syms" --html "$TMP/k.syms" "$F" "$F"
# --html /dev/stdout is standard output: with --json, the two cannot share it
"$HITMAP" report -i "$F" --json --html /dev/stdout >"$TMP/o" 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'cannot be used together' "$TMP/err" && ! grep -q '<html' "$TMP/o" &&
	pass harden-output.html-stdout-alias || fail harden-output.html-stdout-alias "rc $rc: $(head -c 200 "$TMP/err")"
[ -e "$TMP/x.data" ] && fail harden-output.refuse.sim-nothing-written "simulate wrote $TMP/x.data" ||
	pass harden-output.refuse.sim-nothing-written
[ -e ./- ] && fail harden-output.no-dash-file "a file named '-' was created" ||
	pass harden-output.no-dash-file

# fix NAME WANT CMD...: a file that cannot be opened or created: exit 1 and
# one line that names the file and the fix
fix() {
	local n=$1 want=$2; shift 2
	"$@" >/dev/null 2>"$TMP/err" </dev/null
	local rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qF -- "$want" "$TMP/err"; then
		pass "harden-output.fix.$n"
	else fail "harden-output.fix.$n" "rc $rc (want 1 and '$want'): $(head -c 300 "$TMP/err")"; fi
}
fix input-missing   "$TMP/none.data: cannot open: No such file or directory; check the path" \
	"$HITMAP" report -i "$TMP/none.data"
fix kallsyms-path   "--kallsyms $TMP/none: cannot open: No such file or directory; check the path" \
	"$HITMAP" report -i "$F" --kallsyms "$TMP/none"
fix out-no-folder   "$TMP/no/x.data: cannot create: No such file or directory; check the folder exists" \
	"$HITMAP" convert -i "$F" -o "$TMP/no/x.data"
fix out-folder      "$TMP: cannot create: Is a directory; give a file name, not a folder" \
	"$HITMAP" convert -i "$F" -o "$TMP"
fix html-no-folder  "--html $TMP/no/x.html: cannot create: No such file or directory; check the folder exists" \
	"$HITMAP" report -i "$F" --html "$TMP/no/x.html"
fix record-no-folder "$TMP/no/r.data: cannot create: No such file or directory; check the folder exists" \
	"$HITMAP" record -o "$TMP/no/r.data" -- true
# permissions: another user (root reads everything)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	mkdir -p "$TMP/priv" && chmod 755 "$TMP" "$TMP/priv" && cp "$F" "$TMP/priv/p.data" && chmod 600 "$TMP/priv/p.data" &&
		cp "$F" "$TMP/priv/r.data" && chmod 644 "$TMP/priv/r.data"
	cp "$HITMAP" "$TMP/priv/hitmap" && chmod 755 "$TMP/priv/hitmap"
	NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	getent group nogroup >/dev/null || NOBODY="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
	fix input-perm  "$TMP/priv/p.data: cannot open: Permission denied; check its permissions" \
		$NOBODY "$TMP/priv/hitmap" report -i "$TMP/priv/p.data"
	fix out-perm    "$TMP/priv/o.data: cannot create: Permission denied; check the folder is writable" \
		$NOBODY "$TMP/priv/hitmap" convert -i "$TMP/priv/r.data" -o "$TMP/priv/o.data"
else
	skip harden-output.fix.perm "needs root, setpriv and a user 'nobody' to see a permission error"
fi

# a file name that is not UTF-8 (byte 0xff): the page, which says UTF-8, stays UTF-8 (U+FFFD)
bad="$TMP/x$(printf '\377').data"
cp "$F" "$bad"
"$HITMAP" report -i "$bad" --html "$TMP/u.html" >/dev/null 2>&1
python3 -c 'import sys; t = open(sys.argv[1], "rb").read().decode("utf-8"); assert "x&#xfffd;.data" in t' "$TMP/u.html" 2>/dev/null &&
	pass harden-output.html-utf8 || fail harden-output.html-utf8 "the page is not UTF-8, or the name is not x&#xfffd;.data"
rm -f "$bad"
# '-' is standard output where it is one
"$HITMAP" report -i "$F" --html - >"$TMP/page.html" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '<html' "$TMP/page.html"; then pass harden-output.html-dash
else fail harden-output.html-dash "rc $rc: $(head -c 200 "$TMP/err")"; fi
done_tests
