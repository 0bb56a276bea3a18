// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex hash model against worked examples per era.  Expected values were
 * computed independently: with a separate Python implementation of lookup3's
 * hashword() (the kernel's jhash2), and, for 6.18, observed on the running
 * 6.18.44 kernel by `hitmap hash --verify` (bucket whose waiters count rose).
 */
#include <errno.h>
#include <hitmap/futex.h>
#include "tap.h"

int main(void)
{
	struct hm_futex_model m;
	struct hm_futex_kernel k;
	struct hm_futex_key key;
	u32 w[7] = { 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef };
	u32 one[4] = { 1, 2, 3, 4 };
	u64 idx;
	u32 node;

	/* jhash2: lookup3 reference (hashword of nothing = 0xdeadbeef + initval) and Python vectors */
	CHECK_EQ("jhash2 empty", hm_jhash2(NULL, 0, 0), 0xdeadbeef);
	CHECK_EQ("jhash2 empty initval", hm_jhash2(NULL, 0, 0xdeadbeef), 0xbd5b7dde);
	CHECK_EQ("jhash2 1 word", hm_jhash2(one, 1, 0), 0x72a82a9b);
	CHECK_EQ("jhash2 2 words", hm_jhash2(one, 2, 3), 0x252781b5);
	CHECK_EQ("jhash2 3 words", hm_jhash2(one, 3, 0), 0xa46158f5);
	CHECK_EQ("jhash2 4 words (mix+final)", hm_jhash2(one, 4, 0), 0x66491246);
	CHECK_EQ("jhash2 7 words (2 mixes)", hm_jhash2(w, 7, 0x12345678), 0x3b4695c1);

	/* eras */
	CHECK_EQ("era 5.15", hm_futex_era__from_release("5.15.0-91-generic"), HM_FUTEX_ERA_PRE_6_16);
	CHECK_EQ("era 6.12.117", hm_futex_era__from_release("6.12.117+deb12-amd64"), HM_FUTEX_ERA_PRE_6_16);
	CHECK_EQ("era 6.16", hm_futex_era__from_release("6.16.0"), HM_FUTEX_ERA_6_16);
	CHECK_EQ("era 6.18.44", hm_futex_era__from_release("6.18.44-fc-v595"), HM_FUTEX_ERA_6_17);
	CHECK_EQ("era 7.3", hm_futex_era__from_release("7.3.4-1"), HM_FUTEX_ERA_7);
	CHECK_EQ("era junk", hm_futex_era__from_release("linux"), HM_FUTEX_ERA__MAX);
	CHECK("6.12.115 mm seq", !hm_futex_kernel__parse("6.12.115", &k) && k.mm_seq);
	CHECK("6.12.114 mm pointer", !hm_futex_kernel__parse("6.12.114", &k) && !k.mm_seq);
	CHECK("6.18 mm pointer", !hm_futex_kernel__parse("6.18.44", &k) && !k.mm_seq && k.private_hash);
	CHECK("6.16 final: no private hash", !hm_futex_kernel__parse("6.16.3", &k) && !k.private_hash);
	CHECK("6.16-rc2: private hash", !hm_futex_kernel__parse("6.16.0-rc2", &k) && k.private_hash);
	CHECK("7.3 mm seq", !hm_futex_kernel__parse("7.3", &k) && k.mm_seq);

	/* global sizes: notes 1.1, 2.1 */
	CHECK_EQ("pre-6.16 slots 192 cpus", hm_futex__global_slots(HM_FUTEX_ERA_PRE_6_16, 192, 2), 65536);
	CHECK_EQ("6.16 slots 192 cpus 2 nodes", hm_futex__global_slots(HM_FUTEX_ERA_6_16, 192, 2), 32768);
	CHECK_EQ("6.18 slots 2 cpus 1 node (this VM's boot line)", hm_futex__global_slots(HM_FUTEX_ERA_6_17, 2, 1), 512);
	CHECK_EQ("6.17 slots min 4", hm_futex__global_slots(HM_FUTEX_ERA_6_17, 1, 256), 4);
	/* private default: notes 2.6 and 2.9 live table */
	CHECK_EQ("private single-threaded", hm_futex__private_slots(HM_FUTEX_ERA_6_17, 1, 2, 512), 0);
	CHECK_EQ("private 2 threads 2 cpus", hm_futex__private_slots(HM_FUTEX_ERA_6_17, 2, 2, 512), 16);
	CHECK_EQ("private 64 threads 2 cpus", hm_futex__private_slots(HM_FUTEX_ERA_6_17, 64, 2, 512), 16);
	CHECK_EQ("private 192 threads 192 cpus", hm_futex__private_slots(HM_FUTEX_ERA_6_17, 192, 192, 32768), 1024);
	CHECK_EQ("private clamped to global", hm_futex__private_slots(HM_FUTEX_ERA_6_17, 64, 64, 128), 128);
	CHECK_EQ("private pre-6.16", hm_futex__private_slots(HM_FUTEX_ERA_PRE_6_16, 64, 64, 8192), 0);

	/* pre-6.16, 32 CPUs: one table of 8192 */
	hm_futex_model__init(&m, HM_FUTEX_ERA_PRE_6_16);
	hm_futex_model__set_machine(&m, 32, 2);
	CHECK_EQ("pre-6.16 model slots", m.global_slots, 8192);
	hm_futex_key__shared_anon(&key, 0xffff888104e2c000ull, 0x7f1234567000ull);
	CHECK_EQ("shared-anon key offset|MMSHARED", key.offset, 2);
	CHECK_EQ("pre-6.16 anon hash", hm_futex_key__hash(&key), 0xa024f3dc);
	hm_futex__hash_global(&m, &key, &node, &idx);
	CHECK("pre-6.16 anon bucket 5084 node 0", idx == 5084 && node == 0);
	CHECK_EQ("pre-6.16 no priv field", m.layout.offset[HM_FUTEX_FIELD_PRIV], -1);
	/* 5.4.27: the pre-2020 key order {address, mm} (Python: 0x8fb1ba1d) */
	CHECK("5.4.27 word first", !hm_futex_kernel__parse("5.4.27", &k) && k.word_first);
	CHECK("5.4.28 ptr first", !hm_futex_kernel__parse("5.4.28", &k) && !k.word_first);
	CHECK("5.10 ptr first", !hm_futex_kernel__parse("5.10.0-30-amd64", &k) && !k.word_first);
	CHECK("5.3 word first", !hm_futex_kernel__parse("5.3.18", &k) && k.word_first);
	CHECK_EQ("word-first hash", hm_futex_key__hash_word_first(&key), 0x8fb1ba1d);
	m.word_first = true;
	hm_futex__hash_global(&m, &key, &node, &idx);
	CHECK_EQ("word-first bucket (8192)", idx, 6685);
	m.word_first = false;
	hm_futex_model__release(&m);

	/* 6.16, 192 CPUs, 2 nodes: 32768 per node, node = bit 15 */
	hm_futex_model__init(&m, HM_FUTEX_ERA_6_16);
	hm_futex_model__set_machine(&m, 192, 2);
	CHECK_EQ("6.16 hashshift", hm_futex_model__hashshift(&m), 15);
	hm_futex__hash_global(&m, &key, &node, &idx);
	CHECK("6.16 anon node 1 bucket 29660", idx == 29660 && node == 1);
	hm_futex_key__shared_anon(&key, 0xffff888104e2c000ull, 0x7f0000004010ull);
	hm_futex__hash_global(&m, &key, &node, &idx);
	CHECK("6.16 anon node 0 bucket 14766", idx == 14766 && node == 0);
	CHECK_EQ("6.16 priv at +24", m.layout.offset[HM_FUTEX_FIELD_PRIV], 24);
	CHECK_EQ("6.16 fph immutable +33", m.fph.immutable, 33);
	hm_futex_model__release(&m);
	/* 4 nodes x 16384: node = (h >> 14) % 4 */
	hm_futex_model__init(&m, HM_FUTEX_ERA_6_17);
	hm_futex_model__set_machine(&m, 192, 4);
	hm_futex_key__shared_anon(&key, 0xffff888104e2c000ull, 0x7f0000001004ull);
	hm_futex__hash_global(&m, &key, &node, &idx);
	CHECK("6.17 4 nodes: node 3 bucket 12110", idx == 12110 && node == 3);
	hm_futex_model__release(&m);

	/* sparse possible nodes {0, 2}: nr_node_ids 3, node 1 moves to 2 (find_next_bit_wrap) */
	hm_futex_model__init(&m, HM_FUTEX_ERA_6_17);
	CHECK_EQ("sparse nodes set", hm_futex_model__set_machine_nodes(&m, 192, 0x5), 0);
	CHECK("sparse: slots by 2 possible nodes, modulus 3", m.global_slots == 32768 && m.nr_nodes == 3);
	{
		int i, moved = 0, bad = 0;

		for (i = 0; i < 64; i++) {
			u32 h;

			hm_futex_key__shared_anon(&key, 0xffff888104e2c000ull, 0x7f0000000000ull + 0x1004ull * i);
			h = hm_futex_key__hash(&key);
			hm_futex__hash_global(&m, &key, &node, &idx);
			if ((h >> 15) % 3 == 1)
				moved += node == 2;
			else
				bad += node != (h >> 15) % 3;
			bad += node == 1;
		}
		CHECK("sparse: node 1 never used, others kept", moved > 0 && bad == 0);
	}
	hm_futex_model__release(&m);

	/* 6.18 (6.17 era), 2 CPUs 1 node: private and global, observed on 6.18.44 */
	hm_futex_model__init(&m, HM_FUTEX_ERA_6_17);
	hm_futex_model__set_machine(&m, 2, 1);
	hm_futex_key__private(&key, 0, 0x7f1234567000ull);
	CHECK_EQ("private hash words", hm_futex_key__hash_private(&key), 0xb0ece397);
	CHECK_EQ("private 16 slots", hm_futex__hash_private(&key, 16), 7);
	CHECK_EQ("private 1024 slots", hm_futex__hash_private(&key, 1024), 919);
	hm_futex_key__private(&key, 0, 0x7f1234567abcull);
	CHECK_EQ("private offset 0xabc, 16 slots", hm_futex__hash_private(&key, 16), 0);
	{
		static const struct { u64 ua; u64 bucket; } obs[] = {
			{ 0x7fe77d8d36b4ull, 539 }, { 0x7fe77db981d8ull, 713 },
			{ 0x7fe77d8184d8ull, 573 }, { 0x7fe77db731d0ull, 475 },
		};
		static const struct { u64 ua; u64 bucket; } gobs[] = {
			{ 0x7fe77cd981d8ull, 169 }, { 0x7fe77ca184d8ull, 42 },
			{ 0x7fe77cd731d0ull, 230 }, { 0x7fe77cb52bb0ull, 1 },
		};
		int i, ok = 0, gok = 0;

		for (i = 0; i < 4; i++) {
			hm_futex_key__private(&key, 0xffff88810bd33840ull, obs[i].ua);
			ok += hm_futex__hash_private(&key, 1024) == obs[i].bucket;
			hm_futex_key__shared_anon(&key, 0xffff88810bd33840ull, gobs[i].ua);
			hm_futex__hash_global(&m, &key, &node, &idx);
			gok += idx == gobs[i].bucket && node == 0;
		}
		CHECK_EQ("6.18.44 observed private buckets (1024 slots)", ok, 4);
		CHECK_EQ("6.18.44 observed shared-anon buckets (512, mm pointer)", gok, 4);
	}
	/* private futex after SET_SLOTS 0: global table, initval = offset without flags */
	hm_futex_key__private(&key, 0xffff888104e2c000ull, 0x7f1234567000ull);
	CHECK_EQ("private key in global hash", hm_futex_key__hash(&key), 0x2250421a);
	hm_futex__hash_global(&m, &key, &node, &idx);
	CHECK_EQ("private key global bucket", idx, 26);
	/* shared file key: inode seq, pgoff, offset|INODE */
	hm_futex_key__shared_file(&key, 0x1234, 7, 0x7f0000000010ull);
	CHECK("file key flags", key.offset == (0x10 | 1) && !key.private_key);
	CHECK_EQ("file key hash", hm_futex_key__hash(&key), 0xe6631099);
	hm_futex_model__release(&m);

	/* 7.x: mm sequence number instead of the pointer, bucket without priv */
	hm_futex_model__init(&m, HM_FUTEX_ERA_7);
	hm_futex_model__set_machine(&m, 2, 1);
	CHECK("7.x mm seq", m.mm_seq);
	CHECK_EQ("7.x no priv field", m.layout.offset[HM_FUTEX_FIELD_PRIV], -1);
	hm_futex_key__shared_anon(&key, 0x2a, 0x7f1234567abcull);
	CHECK_EQ("7.x anon hash of seq 42", hm_futex_key__hash(&key), 0x97b1ea6c);
	hm_futex__hash_global(&m, &key, &node, &idx);
	CHECK_EQ("7.x anon bucket", idx, 108);
	hm_futex_model__release(&m);
	/* private hash life, against the live 6.18.44 table of notes 2.9 (2 online CPUs) */
	{
		struct hm_futex_phash_state st = { 0 };
		enum hm_futex_era e = HM_FUTEX_ERA_6_17;

		CHECK_EQ("phash: single-threaded GET_SLOTS 0", hm_futex_phash__get_slots(&st), 0);
		hm_futex_phash__on_thread(e, true, &st, 2, 2, 512);
		CHECK_EQ("phash: first pthread_create -> 16", hm_futex_phash__get_slots(&st), 16);
		hm_futex_phash__on_thread(e, true, &st, 64, 2, 512);
		CHECK_EQ("phash: 64 threads on 2 CPUs stays 16", hm_futex_phash__get_slots(&st), 16);
		hm_futex_phash__on_thread(e, true, &st, 64, 64, 512);
		CHECK_EQ("phash: grows with online CPUs (256)", hm_futex_phash__get_slots(&st), 256);
		hm_futex_phash__on_thread(e, true, &st, 3, 2, 512);
		CHECK_EQ("phash: never shrinks", hm_futex_phash__get_slots(&st), 256);
		CHECK_EQ("phash: SET_SLOTS 3 EINVAL", hm_futex_phash__set_slots(e, true, &st, 3, 0), -EINVAL);
		CHECK_EQ("phash: SET_SLOTS 1 EINVAL", hm_futex_phash__set_slots(e, true, &st, 1, 0), -EINVAL);
		CHECK_EQ("phash: SET_SLOTS 16 arg4 1 EINVAL (no IMMUTABLE)", hm_futex_phash__set_slots(e, true, &st, 16, 1), -EINVAL);
		CHECK_EQ("phash: SET_SLOTS 8 (shrink custom)", hm_futex_phash__set_slots(e, true, &st, 8, 0), 0);
		CHECK_EQ("phash: GET_SLOTS 8", hm_futex_phash__get_slots(&st), 8);
		hm_futex_phash__on_thread(e, true, &st, 64, 64, 512);
		CHECK_EQ("phash: custom not auto-resized", hm_futex_phash__get_slots(&st), 8);
		CHECK_EQ("phash: SET_SLOTS 4194304", hm_futex_phash__set_slots(e, true, &st, 4194304, 0), 0);
		CHECK_EQ("phash: SET_SLOTS 1<<31 ENOMEM", hm_futex_phash__set_slots(e, true, &st, 1ull << 31, 0), -ENOMEM);
		CHECK_EQ("phash: SET_SLOTS 1<<32 truncates to 0", hm_futex_phash__set_slots(e, true, &st, 1ull << 32, 0), 0);
		CHECK_EQ("phash: ... global hash", hm_futex_phash__get_slots(&st), 0);
		CHECK_EQ("phash: later SET_SLOTS EBUSY", hm_futex_phash__set_slots(e, true, &st, 16, 0), -EBUSY);
		CHECK_EQ("phash: SET_SLOTS 0 again EBUSY", hm_futex_phash__set_slots(e, true, &st, 0, 0), -EBUSY);
		st = (struct hm_futex_phash_state){ 0 };
		CHECK_EQ("phash: 6.16 final has no private hash", hm_futex_phash__set_slots(HM_FUTEX_ERA_6_16, false, &st, 16, 0), -EINVAL);
		CHECK_EQ("phash: 6.16-rc IMMUTABLE accepted", hm_futex_phash__set_slots(HM_FUTEX_ERA_6_16, true, &st, 16, 1), 0);
		st = (struct hm_futex_phash_state){ 0 };
		CHECK_EQ("phash: custom 32 single-threaded", hm_futex_phash__set_slots(e, true, &st, 32, 0), 0);
		hm_futex_phash__on_thread(e, true, &st, 8, 2, 512);
		CHECK_EQ("phash: ... then 8 threads stays 32", hm_futex_phash__get_slots(&st), 32);
	}
	CHECK("init rejects bad era", hm_futex_model__init(&m, HM_FUTEX_ERA__MAX) < 0);
	TAP_DONE();
}
