#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap report --tui in tmux: send-keys drive it (open a line, its source,
# sort, search, the futex views, help, back, quit) and capture-pane is checked
# against the numbers of --stdio for the same file; the bucket, field and
# socket tables (sort, reverse, Enter on a bucket to its lines and offsets,
# back) against --stdio --by; contention mode; without a terminal --tui
# prints exactly the text report; a 2M-sample report is ready in under a
# second after the pass.
. tests/lib.sh
GEN=$HITMAP_BUILD/tools/hm-gen
[ -x "$HITMAP" ] && [ -x "$GEN" ] || { skip report-tui "build $HITMAP and $GEN first (make tests)"; done_tests; }
command -v tmux >/dev/null || { skip report-tui "no tmux (Debian package tmux)"; done_tests; }
SOCK=$TMP/tmux.sock
T() { tmux -S "$SOCK" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
screen() { T capture-pane -p -t tui; }
# wait until the screen shows $1 (a grep -E pattern), up to ${2:-10} s
wait_for() {
	local i
	for i in $(seq 1 $((${2:-10} * 10))); do
		screen >"$TMP/screen" 2>/dev/null && grep -Eq -- "$1" "$TMP/screen" && return 0
		sleep 0.1
	done
	return 1
}
keys() { T send-keys -t tui "$@"; sleep 0.3; }
start() { # FILE [options]
	T kill-session -t tui 2>/dev/null
	T new-session -d -s tui -x 320 -y 50 \
		"TERM=xterm-256color $HITMAP report --tui -i $*; echo \$? >$TMP/exit; sleep 60"
}

"$GEN" -o "$TMP/f.data" -n 100000 -l 40 --seed 3 >/dev/null 2>&1
"$HITMAP" report --stdio -i "$TMP/f.data" >"$TMP/stdio" 2>/dev/null
"$HITMAP" report --stdio -d rmt -i "$TMP/f.data" >"$TMP/stdio-rmt" 2>/dev/null
# first table row of --stdio: address, Hitm, LclHitm, RmtHitm
row0() { awk '/^# *Index/ { t = 1; next } t && /^ +0 +0x/ { print $2, $6, $7, $8; exit }' "$1"; }
want=$(row0 "$TMP/stdio")
want_rmt=$(row0 "$TMP/stdio-rmt")

# no terminal: --tui is the text report, unchanged
"$HITMAP" report --tui -i "$TMP/f.data" 2>/dev/null | cmp -s - "$TMP/stdio" && pass tui-not-a-tty-is-text ||
	fail tui-not-a-tty-is-text "report --tui | cat differs from --stdio"

start "$TMP/f.data"
if ! wait_for '^Shared cache lines of'; then
	fail tui-opens "no table on the screen: $(head -c 300 "$TMP/screen")"
	done_tests
fi
pass tui-opens
got=$(awk '/^ +0 +0x/ { print $2, $4, $5, $6; exit }' "$TMP/screen")
[ -n "$want" ] && [ "$got" = "$want" ] && pass tui-table-equals-stdio ||
	fail tui-table-equals-stdio "tui '$got', --stdio '$want'"

# Enter: the line's offsets; the first offset's HITM equal --stdio's details
keys Enter
if wait_for '^Line 0x' 5; then
	addr=${want%% *}
	grep -q "^Line $addr:" "$TMP/screen" && pass tui-enter-opens-line ||
		fail tui-enter-opens-line "$(head -1 "$TMP/screen")"
	got=$(awk '/^ *0x[0-9a-f]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ / { print $1, $2, $3; exit }' "$TMP/screen")
	# --stdio offset rows: Offset, Data (what the byte is), LclHitm, RmtHitm, ...
	want_off=$(awk '/Shared Cache Line Details/ { d = 1 } d && /^ +0x[0-9a-f]+ +[^ ]+ +[0-9]+ +[0-9]+ +[0-9]+ / { print $1, $3, $4; exit }' "$TMP/stdio")
	[ -n "$got" ] && [ "$got" = "$want_off" ] && pass tui-offsets-equal-stdio ||
		fail tui-offsets-equal-stdio "tui '$got', --stdio '$want_off'"
	grep -Eq '0x[0-9a-f]+ +[0-9]+  [a-z_]+\+0x' "$TMP/screen" && pass tui-code-symbols ||
		fail tui-code-symbols "no symbol+offset on the line screen"
	# Enter on a code address: its source (hm-gen's DWARF names tests/tools/hm-gen.c)
	keys Enter
	if wait_for 'hm-gen\.c:[0-9]+$' 3 && grep -Eq '^> *[0-9]+  ' "$TMP/screen"; then
		pass tui-source-jump
	else
		fail tui-source-jump "$(head -2 "$TMP/screen" | tr '\n' ' ')$(tail -1 "$TMP/screen")"
	fi
	keys Escape
	wait_for '^Line 0x' 3
	keys Escape
else
	fail tui-enter-opens-line "$(head -3 "$TMP/screen")"
fi
wait_for '^Shared cache lines of' 3 && pass tui-back || fail tui-back "$(head -1 "$TMP/screen")"

# d: next sort key (rmt), the same first row as --stdio -d rmt
keys d
if wait_for '\(-d rmt\)' 3; then
	got=$(awk '/^ +0 +0x/ { print $2, $4, $5, $6; exit }' "$TMP/screen")
	[ "$got" = "$want_rmt" ] && pass tui-sort-rmt-equals-stdio ||
		fail tui-sort-rmt-equals-stdio "tui '$got', --stdio -d rmt '$want_rmt'"
else
	fail tui-sort-rmt-equals-stdio "title: $(head -1 "$TMP/screen")"
fi

# /: search the table for the 6th row's address; the cursor lands on row 6
target=$(awk '/^ +5 +0x/ { print $2; exit }' "$TMP/screen")
keys /
keys -l "$target"	# literal: tmux reads 0x... as a key code
keys Enter
if wait_for "^6/[0-9]+ +/$target: row 6" 3; then
	pass tui-search
else
	fail tui-search "status: $(tail -1 "$TMP/screen")"
fi

# ?: help, then back
keys '?'
wait_for 'hitmap report --tui keys' 3 && pass tui-help || fail tui-help "$(head -3 "$TMP/screen")"
keys q
wait_for '^Shared cache lines of' 3 || fail tui-help-back "$(head -1 "$TMP/screen")"

# q on the table quits with status 0
keys q
for i in $(seq 1 30); do [ -s "$TMP/exit" ] && break; sleep 0.1; done
[ "$(cat "$TMP/exit" 2>/dev/null)" = 0 ] && pass tui-quit || fail tui-quit "exit '$(cat "$TMP/exit" 2>/dev/null)'"

# futex views: tables the user moves through and sorts, with --stdio --by's numbers
"$HITMAP" simulate --preset skx --cores 2 --smt 1 --futexes 16 --ops 20000 -o "$TMP/s.data" >/dev/null 2>&1
for v in bucket field socket; do
	"$HITMAP" report --stdio --by $v -i "$TMP/s.data" >"$TMP/$v" 2>/dev/null
done
"$HITMAP" report --stdio --show-all -i "$TMP/s.data" >"$TMP/s-lines" 2>/dev/null
# the data rows of a --stdio view, fields joined by one blank, "|" dropped
stdio_rows() { # FILE FIRST-FIELD-PATTERN
	awk -v p="$2" '$1 ~ p && NF > 3 { gsub(/\|/, ""); $1 = $1; print }' "$1"
}
# the table rows on the screen, less the TUI's extra HITM column (field $1)
tui_rows() { # PATTERN HITM-FIELD
	awk -v p="$1" -v h="$2" '$1 ~ p && NF > 3 { if (h) $h = ""; $1 = $1; gsub(/  +/, " "); print }' "$TMP/screen"
}
rm -f "$TMP/exit"
start "$TMP/s.data"
if wait_for '^Shared cache lines of|^Futex buckets' 10; then
	keys b
	wait_for '^Futex buckets .*sorted on --stdio order' 3
	stdio_rows "$TMP/bucket" '^(private|global|unknown)' >"$TMP/want"
	tui_rows '^(private|global|unknown)' 4 >"$TMP/got"
	n=$(wc -l <"$TMP/want")
	# the TUI cuts its last column (the functions) at its width: a cut row must be a prefix of --stdio's
	if [ "$n" -gt 0 ] && [ "$(wc -l <"$TMP/got")" -ge "$n" ] &&
	   paste -d '\n' "$TMP/want" <(head -n "$n" "$TMP/got") | awk '
		NR % 2 { w = $0; nf = NF; split($0, wf); next }
		{ if ($0 == w) next
		  if (NF != nf || index(wf[nf], $NF) != 1) exit 1
		  for (i = 1; i < NF; i++) if ($i != wf[i]) exit 1 }'; then
		pass tui-bucket-table-equals-stdio
	else
		fail tui-bucket-table-equals-stdio "$(diff "$TMP/want" "$TMP/got" | head -4 | tr '\n' '|')"
	fi
	# the futex objects beside the buckets (fph header, mm fields)
	obj=$(awk '/^Other futex memory/ { o = 1; next } o && $2 ~ /^-?[0-9]+$/ { print $1; exit }' "$TMP/bucket")
	[ -z "$obj" ] || grep -q "^$obj " "$TMP/screen" && pass tui-bucket-table-objects ||
		fail tui-bucket-table-objects "no '$obj' row"
	# d: sort on HITM (descending), r: ascending; every on-screen row in order
	keys d
	if wait_for 'sorted on HITM \(descending\)' 3 && grep -q 'HITMv' "$TMP/screen"; then
		max=$(awk '/^(private|global|unknown) / { h = $5 + $6 + $7; if (h > m) m = h } END { print m + 0 }' "$TMP/bucket")
		got=$(awk '$1 ~ /^(private|global|unknown|fph|mm)/ && $4 ~ /^[0-9]+$/ { print $4 }' "$TMP/screen")
		if [ "$(printf '%s\n' "$got" | head -1)" -ge "$max" ] && printf '%s\n' "$got" | sort -rnc; then
			pass tui-bucket-sort-hitm
		else
			fail tui-bucket-sort-hitm "first $(printf '%s\n' "$got" | head -1), max bucket HITM $max, or not descending"
		fi
	else
		fail tui-bucket-sort-hitm "title: $(head -1 "$TMP/screen")"
	fi
	keys r
	if wait_for 'sorted on HITM \(ascending\)' 3 && grep -q 'HITM\^' "$TMP/screen" &&
	   awk '$1 ~ /^(private|global|unknown|fph|mm)/ && $4 ~ /^[0-9]+$/ { print $4 }' "$TMP/screen" | sort -nc; then
		pass tui-bucket-sort-reverse
	else
		fail tui-bucket-sort-reverse "$(head -2 "$TMP/screen" | tr '\n' '|')"
	fi
	keys r
	wait_for 'sorted on HITM \(descending\)' 3
	# Enter on the hottest bucket: its cache lines, with --stdio's numbers for the line
	row=$(awk '$1 ~ /^(private|global)/ { print; exit }' "$TMP/screen")
	idx=$(printf '%s\n' "$row" | awk '{ print $3 }')
	down=$(awk 'NR > 2 && $1 ~ /^(private|global)/ { print NR - 3; exit }' "$TMP/screen")
	for i in $(seq 1 "$down"); do keys Down; done	# past the futex objects (fph, mm) above it
	keys Enter
	if wait_for '^Cache lines of [a-z]+(:[0-9]+)?(\.node[0-9]+)?\.bucket\.[0-9]+ ' 3 &&
	   grep -Eq "^Cache lines of [^ ]*\.bucket\.$idx 0x" "$TMP/screen"; then
		addr=$(awk '/^ +0 +0x/ { print $2; exit }' "$TMP/screen")
		got=$(awk '/^ +0 +0x/ { print $2, $4, $5, $6; exit }' "$TMP/screen")
		want=$(awk -v a="$addr" '/^# *Index/ { t = 1; next } t && $2 "" == a "" { print $2, $6, $7, $8; exit }' "$TMP/s-lines")
		[ -n "$want" ] && [ "$got" = "$want" ] && pass tui-bucket-enter-opens-lines ||
			fail tui-bucket-enter-opens-lines "tui '$got', --stdio '$want'"
		# and on, to the line's offsets
		keys Enter
		wait_for "^Line $addr:" 3 && pass tui-bucket-line-offsets ||
			fail tui-bucket-line-offsets "$(head -1 "$TMP/screen")"
		keys Escape
		wait_for '^Cache lines of' 3
	else
		fail tui-bucket-enter-opens-lines "bucket $idx: $(head -1 "$TMP/screen") | $(tail -1 "$TMP/screen")"
	fi
	# back: the bucket table, still sorted on HITM
	keys Escape
	wait_for '^Futex buckets .*sorted on HITM \(descending\)' 3 && pass tui-bucket-back ||
		fail tui-bucket-back "$(head -1 "$TMP/screen")"
	keys q
	wait_for '^Shared cache lines of' 3
	# f: the field table
	keys f
	wait_for '^Bucket fields' 3
	stdio_rows "$TMP/field" '^(private|global|unknown)$' >"$TMP/want"
	tui_rows '^(private|global|unknown)$' 4 >"$TMP/got"
	n=$(wc -l <"$TMP/want")
	[ "$n" -gt 0 ] && cmp -s "$TMP/want" <(head -n "$n" "$TMP/got") && pass tui-field-table-equals-stdio ||
		fail tui-field-table-equals-stdio "$(diff "$TMP/want" "$TMP/got" | head -4 | tr '\n' '|')"
	keys q
	wait_for '^Shared cache lines of' 3
	# s: the socket table and the HITM matrix under it
	keys s
	wait_for '^Sockets' 3
	stdio_rows "$TMP/socket" '^[0-9]+$' >"$TMP/want"
	tui_rows '^[0-9]+$' 0 >"$TMP/got"
	m=$(awk '/^S[0-9]+ / { $1 = $1; print }' "$TMP/socket")
	if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got" && [ -n "$m" ] &&
	   [ "$(awk '/^S[0-9]+ / { $1 = $1; print }' "$TMP/screen")" = "$m" ]; then
		pass tui-socket-table-equals-stdio
	else
		fail tui-socket-table-equals-stdio "$(diff "$TMP/want" "$TMP/got" | head -4 | tr '\n' '|')"
	fi
	keys q
	keys q
else
	fail tui-bucket-table-equals-stdio "did not open: $(head -c 300 "$TMP/screen")"
fi

# contention mode (lock tracepoints only): opens on the buckets, no memory columns
CGEN=$HITMAP_BUILD/tools/hm-cont-gen
if [ -x "$CGEN" ]; then
	"$CGEN" -o "$TMP/c.data" -e "$TMP/c.json" -n 3000 --seed 2 >/dev/null 2>&1
	"$HITMAP" report --stdio --by bucket -i "$TMP/c.data" >"$TMP/cbucket" 2>/dev/null
	start "$TMP/c.data"
	if wait_for '^Futex buckets .*contention mode' 10; then
		stdio_rows "$TMP/cbucket" '^(private|global|unknown)$' | head -20 >"$TMP/want"
		tui_rows '^(private|global|unknown)$' 0 | head -20 >"$TMP/got"
		if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got" && ! grep -q 'LOADS' "$TMP/screen"; then
			pass tui-contention-buckets
		else
			fail tui-contention-buckets "$(diff "$TMP/want" "$TMP/got" | head -4 | tr '\n' '|')"
		fi
		keys Enter
		wait_for 'contention mode records lock events only' 3 && pass tui-contention-enter-says-why ||
			fail tui-contention-enter-says-why "$(tail -1 "$TMP/screen")"
	else
		fail tui-contention-buckets "$(head -c 300 "$TMP/screen")"
	fi
	keys q
	keys q
else
	skip tui-contention-buckets "build $CGEN first (make tests)"
fi

# ~2M samples (hitmap simulate, 2 sockets, 6.16): the first screen, then the
# 60000-bucket table.  Measured by the browser itself: from the end of the
# pass (a CLOCK_MONOTONIC stamp the CLI takes when hm_report__run returns)
# to the first screen handed to the terminal (after refresh()), wall and CPU
# time of the UI thread; the status line shows both.  Wall time is asserted
# when the machine is not overloaded (load average < CPUs), CPU time always.
[ -n "$TUI_SKIP_BIG" ] && { skip tui-2m-ready-under-1s "TUI_SKIP_BIG is set"; done_tests; }
"$HITMAP" simulate --sockets 2 --kernel 6.16 --period 10 --ops 2000000 -o "$TMP/big.data" >/dev/null 2>&1
start "$TMP/big.data"
load() { awk -v n="$(nproc)" '{ print ($1 < n) ? "quiet" : "busy" }' /proc/loadavg; }
if wait_for 'ready [0-9]+ ms after the pass \(cpu [0-9]+ ms\)' 120; then
	ms=$(grep -Eo 'ready [0-9]+ ms' "$TMP/screen" | grep -Eo '[0-9]+')
	cpu=$(grep -Eo '\(cpu [0-9]+ ms\)' "$TMP/screen" | grep -Eo '[0-9]+')
	echo "# 2M-sample simulate, $(grep -Eo '[0-9]+ lines, [0-9]+ samples' "$TMP/screen"): first screen $ms ms after the pass (cpu $cpu ms), machine $(load)"
	if [ "$cpu" -lt 1000 ] && { [ "$ms" -lt 1000 ] || [ "$(load)" = busy ]; }; then
		pass tui-2m-ready-under-1s
	else
		fail tui-2m-ready-under-1s "$ms ms (cpu $cpu ms)"
	fi
	keys b
	if wait_for '[0-9]+ rows in [0-9]+ ms \(cpu [0-9]+ ms\)' 20; then
		ms=$(grep -Eo 'rows in [0-9]+ ms' "$TMP/screen" | grep -Eo '[0-9]+')
		cpu=$(grep -Eo '\(cpu [0-9]+ ms\)' "$TMP/screen" | grep -Eo '[0-9]+')
		echo "# bucket table: $(grep -Eo '[0-9]+ rows' "$TMP/screen") in $ms ms (cpu $cpu ms)"
		if [ "$cpu" -lt 1000 ] && { [ "$ms" -lt 1000 ] || [ "$(load)" = busy ]; }; then
			pass tui-2m-bucket-table-under-1s
		else
			fail tui-2m-bucket-table-under-1s "$ms ms (cpu $cpu ms)"
		fi
	else
		fail tui-2m-bucket-table-under-1s "$(tail -1 "$TMP/screen")"
	fi
	keys q
else
	fail tui-2m-ready-under-1s "no 'ready' status: $(tail -1 "$TMP/screen")"
fi
keys q
done_tests
