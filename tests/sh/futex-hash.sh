#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap hash: table, node and bucket index of futex addresses, per kernel era.
# Expected values come from an independent Python jhash2 (see test-futex-hash.c).
. tests/lib.sh

check "hash --help" "$HITMAP" hash --help
"$HITMAP" hash --help | grep -q -- "--verify" && pass "hash --help mentions --verify" || fail "hash --help mentions --verify" "no --verify"

# private futexes on 6.18, 16 and 1024 slots (index depends on the address only)
out=$("$HITMAP" hash --kernel 6.18.44 --slots 16 0x7f1234567000 0x7f1234567abc 2>&1)
grep -q "^0x7f1234567000 *private .* 7 *0xb0ece397" <<<"$out" && pass "private 16 slots" || fail "private 16 slots" "$out"
grep -q "^0x7f1234567abc *private .* 0 " <<<"$out" && pass "private offset in page" || fail "private offset in page" "$out"
out=$("$HITMAP" hash --kernel 6.18 --slots 1024 --json 0x7fe77d8d36b4 0x7fe77db981d8)
check "private 1024 slots (observed on 6.18.44)" jq -e '.futexes[0].index == 539 and .futexes[1].index == 713 and .futexes[0].table == "private"' <<<"$out"

# shared anonymous: needs the mm; without it the index is unknown, never a guess
out=$("$HITMAP" hash --kernel 6.18 --cpus 2 --shared --json 0x7fe77cd981d8)
check "shared without --mm: index unknown" jq -e '.futexes[0].index == null and (.futexes[0].note | test("mm pointer"))' <<<"$out"
out=$("$HITMAP" hash --kernel 6.18 --cpus 2 --shared --mm ffff88810bd33840 --json 0x7fe77cd981d8 0x7fe77cb52bb0)
check "shared with --mm (observed on 6.18.44)" jq -e '.futexes[0].index == 169 and .futexes[1].index == 1 and .futexes[0].node == 0 and .global_slots == 512' <<<"$out"
# 6.16, 192 CPUs, 2 nodes: 32768 per node, node from hash bit 15
out=$("$HITMAP" hash --kernel 6.16 --cpus 192 --nodes 2 --shared --mm ffff888104e2c000 --json 0x7f1234567000 0x7f0000004010)
check "6.16 per-node tables" jq -e '.futexes[0].node == 1 and .futexes[0].index == 29660 and .futexes[1].node == 0 and .futexes[1].index == 14766' <<<"$out"
# pre-6.16: one table, 32 CPUs -> 8192; private futexes go to the global table
out=$("$HITMAP" hash --kernel 6.12.100 --cpus 32 --shared --mm ffff888104e2c000 --json 0x7f1234567000)
check "pre-6.16 global table" jq -e '.futexes[0].index == 5084 and .global_slots == 8192 and .era == "pre-6.16"' <<<"$out"
out=$("$HITMAP" hash --kernel 5.4.27 --cpus 32 --shared --mm ffff888104e2c000 --json 0x7f1234567000)
check "5.4.27: pre-2020 key order" jq -e '.futexes[0].index == 6685 and .futexes[0].hash == "0x8fb1ba1d"' <<<"$out"
out=$("$HITMAP" hash --kernel 6.12.117 --cpus 32 --shared --mm ffff888104e2c000 --json 0x7f1234567000)
check "6.12.117 (CVE backport) hashes the mm seq" jq -e '.futexes[0].index == null and (.futexes[0].note | test("mm-seq"))' <<<"$out"
out=$("$HITMAP" hash --kernel 6.12 --json 0x7f1234567000)
check "pre-6.16 private futex: global table, index unknown" jq -e '.futexes[0].table == "global" and .futexes[0].index == null' <<<"$out"
# 6.16 final shipped with the private hash compiled out; 6.16-rc had it
out=$("$HITMAP" hash --kernel 6.16.2 --json 0x7f1234567000)
check "6.16 final: private futex in the global table" jq -e '.futexes[0].table == "global"' <<<"$out"
out=$("$HITMAP" hash --kernel 6.16.0-rc3 --json 0x7f1234567000)
check "6.16-rc3: private hash" jq -e '.futexes[0].table == "private" and .futexes[0].index == 7' <<<"$out"
# 7.x: mm sequence number
out=$("$HITMAP" hash --kernel 7.3 --cpus 2 --shared --json 0x7f1234567abc)
check "7.x shared asks for --mm-seq" jq -e '.futexes[0].index == null and (.futexes[0].note | test("mm-seq"))' <<<"$out"
out=$("$HITMAP" hash --kernel 7.3 --cpus 2 --shared --mm-seq 42 --json 0x7f1234567abc)
check "7.x shared with seq" jq -e '.futexes[0].index == 108' <<<"$out"
# shared file futex
out=$("$HITMAP" hash --kernel 6.18 --cpus 2 --inode-seq 0x1234 --pgoff 7 --json 0x7f0000000010)
check "file futex" jq -e '.futexes[0].hash == "0xe6631099" and .futexes[0].index == (3861975193 % 512)' <<<"$out"
# this machine
if out=$("$HITMAP" hash --this-machine --json 0x7f1234567000 2>&1); then
	check "this machine" jq -e '.global_slots >= 4 and .nodes >= 1' <<<"$out"
	if [ -r /sys/kernel/btf/vmlinux ]; then
		check "this machine: layout from BTF" jq -e '.layout.source == "btf" and .layout.lock >= 4' <<<"$out"
	else
		skip "this machine: layout from BTF" "no /sys/kernel/btf/vmlinux"
	fi
else
	fail "this machine" "$out"
fi

# bad input: one line, non-zero, no crash
for args in "--kernel 6.18" "--kernel linux 0x1000" "0x1001" "zzz" "--slots 3 0x1000" "--slots 1 0x1000" \
	    "--inode-seq 1 0x1000" "--kernel 6.16 --slots 16 0x1000" "--kernel 6.18 --this-machine 0x1000" "--verify 0x1000" "--count 0 --verify"; do
	if "$HITMAP" hash $args >"$TMP/e.out" 2>&1; then
		fail "rejects '$args'" "exit 0"
	elif [ "$(wc -l <"$TMP/e.out")" -le 1 ] && grep -q "^hitmap: " "$TMP/e.out"; then
		pass "rejects '$args'"
	else
		fail "rejects '$args'" "$(head -3 "$TMP/e.out")"
	fi
done
done_tests
