#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap report --tui in tmux: send-keys drive it (open a line, its source,
# sort, search, the futex views, help, back, quit) and capture-pane is checked
# against the numbers of --stdio for the same file; without a terminal
# --tui prints exactly the text report; a 2M-sample report is ready in under
# a second after the pass.
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
	T new-session -d -s tui -x 230 -y 50 \
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

# futex views: a simulated run; b and s show what --by bucket / --by socket print
"$HITMAP" simulate --preset skx --cores 2 --smt 1 --futexes 16 --ops 20000 -o "$TMP/s.data" >/dev/null 2>&1
"$HITMAP" report --by bucket -i "$TMP/s.data" >"$TMP/bucket" 2>/dev/null
"$HITMAP" report --by socket -i "$TMP/s.data" >"$TMP/socket" 2>/dev/null
rm -f "$TMP/exit"
start "$TMP/s.data"
if wait_for '^Shared cache lines of|^Futex buckets' 10; then
	keys b
	line=$(grep -m1 -E '^(private|global)' "$TMP/bucket" | sed 's/ *$//')
	wait_for '^Futex buckets' 3
	if [ -n "$line" ] && grep -qF -- "$line" "$TMP/screen"; then
		pass tui-bucket-view
	else
		fail tui-bucket-view "no '$line' on screen: $(head -3 "$TMP/screen" | tr '\n' '|')"
	fi
	# Enter on a bucket row: that bucket's line in the table
	idx=$(printf '%s\n' "$line" | awk '{ print $3 }')
	pid=$(printf '%s\n' "$line" | awk '{ sub(/^private:/, "", $1); print $1 }')
	keys /
	keys -l "${line:0:28}"	# TABLE NODE INDEX: the row itself, not the "tables:" line
	keys Enter
	keys Enter
	if wait_for "/private\\($pid\\)\\.bucket\\.$idx\\.: row" 3; then
		pass tui-bucket-enter-opens-line
	elif grep -q 'not among the shared lines' "$TMP/screen"; then
		skip tui-bucket-enter-opens-line "the hottest bucket has no shared line here"
	else
		fail tui-bucket-enter-opens-line "$(head -1 "$TMP/screen") | $(tail -1 "$TMP/screen")"
	fi
	keys s
	wait_for '^Sockets' 3
	line=$(grep -m1 -E '^ *[0-9]+ +[0-9]' "$TMP/socket" | sed 's/ *$//')
	if [ -n "$line" ] && grep -qF -- "$line" "$TMP/screen"; then
		pass tui-socket-view
	else
		fail tui-socket-view "no '$line' on screen: $(head -3 "$TMP/screen" | tr '\n' '|')"
	fi
	keys q
	keys q
else
	fail tui-bucket-view "did not open: $(head -c 300 "$TMP/screen")"
fi

# 2M samples: ready in under a second after the pass
"$GEN" -o "$TMP/big.data" -n 2000000 -l 100000 --seed 5 >/dev/null 2>&1
start "$TMP/big.data"
if wait_for 'ready [0-9]+ ms after the pass' 60; then
	ms=$(grep -Eo 'ready [0-9]+ ms' "$TMP/screen" | grep -Eo '[0-9]+')
	echo "# 2M samples, $(grep -Eo '[0-9]+ lines, [0-9]+ samples' "$TMP/screen"): ready $ms ms after the pass"
	[ "$ms" -lt 1000 ] && pass tui-2m-ready-under-1s || fail tui-2m-ready-under-1s "$ms ms"
else
	fail tui-2m-ready-under-1s "no 'ready' status: $(tail -1 "$TMP/screen")"
fi
keys q
done_tests
