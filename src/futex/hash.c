// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex keys and the hash of every era (notes 1.3-1.5, 2.1, 2.4, 2.6):
 *   global: h = jhash2({lo ptr, hi ptr, lo word, hi word}, 4, offset|flags),
 *           index = h & (slots-1); from 6.16 node = (h >> shift) % nodes.
 *   private (6.16+): h = jhash2({lo addr, hi addr}, 2, offset), index = h & (slots-1).
 * 64-bit kernels only (on 32-bit the key is 3 words).
 */
#include <errno.h>
#include <hitmap/futex.h>

static void key_words(const struct hm_futex_key *k, u32 w[4])
{
	w[0] = (u32)k->ptr;
	w[1] = (u32)(k->ptr >> 32);
	w[2] = (u32)k->word;
	w[3] = (u32)(k->word >> 32);
}

void hm_futex_key__private(struct hm_futex_key *k, u64 mm, u64 uaddr)
{
	k->ptr = mm;
	k->word = uaddr & ~(u64)(HM_FUTEX_PAGE_SIZE - 1);
	k->offset = uaddr & (HM_FUTEX_PAGE_SIZE - 1);
	k->private_key = true;
}

void hm_futex_key__shared_anon(struct hm_futex_key *k, u64 mm_or_seq, u64 uaddr)
{
	k->ptr = mm_or_seq;
	k->word = uaddr & ~(u64)(HM_FUTEX_PAGE_SIZE - 1);
	k->offset = (uaddr & (HM_FUTEX_PAGE_SIZE - 1)) | HM_FUT_OFF_MMSHARED;
	k->private_key = false;
}

void hm_futex_key__shared_file(struct hm_futex_key *k, u64 i_seq, u64 pgoff, u64 uaddr)
{
	k->ptr = i_seq;
	k->word = pgoff;
	k->offset = (uaddr & (HM_FUTEX_PAGE_SIZE - 1)) | HM_FUT_OFF_INODE;
	k->private_key = false;
}

u32 hm_futex_key__hash(const struct hm_futex_key *k)
{
	u32 w[4];

	key_words(k, w);
	return hm_jhash2(w, 4, k->offset);
}

u32 hm_futex_key__hash_word_first(const struct hm_futex_key *k)
{
	u32 w[4] = { (u32)k->word, (u32)(k->word >> 32), (u32)k->ptr, (u32)(k->ptr >> 32) };

	return hm_jhash2(w, 4, k->offset);
}

u32 hm_futex_key__hash_private(const struct hm_futex_key *k)
{
	u32 w[2] = { (u32)k->word, (u32)(k->word >> 32) };

	return hm_jhash2(w, 2, k->offset);
}

static u64 roundup_pow2(u64 v)
{
	u64 r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

u64 hm_futex__global_slots(enum hm_futex_era e, u32 nr_cpus, u32 nr_nodes)
{
	u64 n;

	if (!nr_cpus)
		nr_cpus = 1;
	if (!nr_nodes)
		nr_nodes = 1;
	if (e == HM_FUTEX_ERA_PRE_6_16)
		return roundup_pow2(256ull * nr_cpus);
	n = 256ull * nr_cpus / nr_nodes;
	if (n < 4)
		n = 4;
	return roundup_pow2(n);
}

u64 hm_futex__private_slots(enum hm_futex_era e, u32 threads, u32 online, u64 global_slots)
{
	u64 n;

	if (e == HM_FUTEX_ERA_PRE_6_16 || threads < 2)
		return 0;
	if (!online)
		online = 1;
	n = roundup_pow2(4ull * (threads < online ? threads : online));
	if (n < 16)
		n = 16;
	if (global_slots && n > global_slots)
		n = global_slots;
	return n;
}

static u32 ilog2_u64(u64 v)
{
	u32 r = 0;

	while (v > 1) {
		v >>= 1;
		r++;
	}
	return r;
}

u32 hm_futex_model__hashshift(const struct hm_futex_model *m)
{
	return ilog2_u64(m->global_slots ? m->global_slots : 1);
}

void hm_futex__hash_global(const struct hm_futex_model *m, const struct hm_futex_key *k,
			   u32 *node, u64 *index)
{
	u32 h = m->word_first ? hm_futex_key__hash_word_first(k) : hm_futex_key__hash(k);
	u64 slots = m->global_slots ? m->global_slots : 1;

	if (index)
		*index = h & (slots - 1);
	if (node) {
		/* nodes 0..nr_nodes-1 are all possible, so no wrap to the next one */
		if (m->era == HM_FUTEX_ERA_PRE_6_16 || m->nr_nodes <= 1)
			*node = 0;
		else
			*node = (u32)(((u64)h >> hm_futex_model__hashshift(m)) % m->nr_nodes);
		/* not possible: find_next_bit_wrap(node_possible_map, nr_node_ids, node) */
		if (m->possible_nodes && *node < 64 && !((m->possible_nodes >> *node) & 1)) {
			u32 n = *node;

			do
				n = (n + 1) % (m->nr_nodes < 64 ? m->nr_nodes : 64);
			while (!((m->possible_nodes >> n) & 1));
			*node = n;
		}
	}
}

u64 hm_futex__hash_private(const struct hm_futex_key *k, u64 slots)
{
	if (!slots)
		return 0;
	return hm_futex_key__hash_private(k) & (slots - 1);
}

void hm_futex_phash__on_thread(enum hm_futex_era e, bool private_hash, struct hm_futex_phash_state *st,
			       u32 threads, u32 online, u64 global_slots)
{
	u64 n;

	if (!private_hash || e == HM_FUTEX_ERA_PRE_6_16 || st->custom || st->global)
		return;
	/* futex_hash_allocate_default(): only grows */
	n = hm_futex__private_slots(e, threads, online, global_slots);
	if (n > st->slots)
		st->slots = n;
}

int hm_futex_phash__set_slots(enum hm_futex_era e, bool private_hash, struct hm_futex_phash_state *st,
			      u64 arg3, u64 arg4)
{
	u32 slots = (u32)arg3;		/* futex_hash_allocate(unsigned int) */

	if (!private_hash || e == HM_FUTEX_ERA_PRE_6_16)
		return -EINVAL;		/* the #else stubs (6.16 final) and older: no PR_FUTEX_HASH */
	/* 6.16 also takes FH_FLAG_IMMUTABLE in arg4; 6.17+ wants 0 */
	if (arg4 && !(e == HM_FUTEX_ERA_6_16 && arg4 == 1))
		return -EINVAL;
	if (st->global)
		return -EBUSY;
	if (slots && (slots == 1 || (slots & (slots - 1))))
		return -EINVAL;
	if (slots >= (1u << 31))
		return -ENOMEM;
	st->slots = slots;
	st->custom = true;
	if (!slots)
		st->global = true;
	return 0;
}

u64 hm_futex_phash__get_slots(const struct hm_futex_phash_state *st)
{
	return st->global ? 0 : st->slots;
}
