// SPDX-License-Identifier: GPL-2.0-only
/*
 * Coherence: one directory entry per cache line (found by open addressing on
 * the line address, then used by id), plus per-core private L1/L2 modelled as
 * direct-mapped caches, in one array of 4-byte slots (coherence.h, struct hm_coh).
 *
 * Invalidation is lazy: every ownership change bumps the line's epoch, and a
 * private slot is valid only while its epoch matches.  That keeps a write O(1)
 * however many cores share the line.  The LLC of each domain (socket, or CCX
 * on AMD) is assumed large enough for the workload (a bit per domain says
 * whether it holds the line); capacity misses come from the private caches.
 *
 * Protocols differ in what a read of a modified line leaves behind:
 *   MESIF (Intel): owner -> S, requester gets F (forwards later clean reads)
 *   MOESI (AMD):   owner -> O (keeps the dirty data and forwards it)
 *   MESI  (Arm):   owner writes back, both S
 * --read-migrates (a what-if for any of them): the reader takes the line
 * modified and the owner invalidates, so a load followed by a store or RMW
 * of the same line costs one transfer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <hitmap/log.h>
#include "sim/coherence.h"

#define NO_OWNER 0xffff

/*
 * The directory and the private-cache arrays are touched at random: back
 * them with huge pages where the kernel allows it (THP madvise), or every
 * simulated access costs host TLB misses.
 */
static void *big_alloc(size_t size)
{
	const size_t huge = 2u << 20;
	size_t n = (size + huge - 1) & ~(huge - 1);
	/* from 256 KiB on, a whole huge page beats 64+ TLB entries touched at random */
	bool big = size >= (256u << 10);
	void *p = aligned_alloc(big ? huge : 64, big ? n : (size + 63) & ~(size_t)63);

	if (p && big)
		madvise(p, n, MADV_HUGEPAGE);
	return p;
}

struct hm_coh *hm_coh__new(const struct hm_machine *m, u32 expected_lines)
{
	struct hm_coh *c;
	size_t nslots = (size_t)m->nr_cores * m->l2_lines;

	if (m->l1_lines != 1u << HM_COH_L1_BITS || m->l2_lines != 1u << HM_COH_L2_BITS) {
		/* the slot layout (coherence.h) is built for these sizes */
		hm_err("private caches of %u/%u lines: the model handles %u/%u", m->l1_lines, m->l2_lines,
		       1u << HM_COH_L1_BITS, 1u << HM_COH_L2_BITS);
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->m = m;
	c->max_lines = 0xffffu << HM_COH_L2_BITS;
	c->cap_lines = expected_lines > 64 ? expected_lines : 64;
	c->lines = big_alloc((size_t)c->cap_lines * sizeof(*c->lines));
	c->addrs = malloc((size_t)c->cap_lines * sizeof(u64));
	c->slots = big_alloc(nslots * sizeof(*c->slots));
	if (hm_htab__reserve(&c->index, expected_lines > 512 ? expected_lines : 512) || !c->lines || !c->addrs || !c->slots) {
		hm_coh__delete(c);
		errno = ENOMEM;
		return NULL;
	}
	/* tag 0xffff is no line: every slot starts free */
	memset(c->slots, 0xff, nslots * sizeof(*c->slots));
	return c;
}

void hm_coh__delete(struct hm_coh *c)
{
	if (!c)
		return;
	hm_htab__fini(&c->index);
	free(c->lines);
	free(c->addrs);
	free(c->slots);
	free(c);
}

u32 hm_coh__find(const struct hm_coh *c, u64 addr)
{
	const u64 *id = hm_htab__find(&c->index, addr & ~63ULL);

	return id ? (u32)*id : UINT32_MAX;
}

u32 hm_coh__line(struct hm_coh *c, u64 addr, u32 home)
{
	u64 la = addr & ~63ULL;
	bool added;
	u64 *slot = hm_htab__insert(&c->index, la, &added);
	u32 id;
	struct hm_coh_line *l;

	if (!slot)
		return UINT32_MAX;
	if (!added)
		return (u32)*slot;
	if (c->nr_lines >= c->max_lines) {
		hm_err("more than %u simulated cache lines: the private-cache slots' tags cannot name them; use fewer --futexes or threads",
		       c->max_lines);
		hm_htab__del(&c->index, la);
		return UINT32_MAX;
	}
	if (c->nr_lines == c->cap_lines) {
		u32 cap = c->cap_lines * 2;
		struct hm_coh_line *nl = big_alloc((size_t)cap * sizeof(*nl));
		u64 *na = realloc(c->addrs, (size_t)cap * sizeof(u64));

		if (na)
			c->addrs = na;
		if (!nl || !na) {
			free(nl);
			hm_htab__del(&c->index, la);
			return UINT32_MAX;
		}
		memcpy(nl, c->lines, (size_t)c->nr_lines * sizeof(*nl));
		free(c->lines);
		c->lines = nl;
		c->addrs = na;
		c->cap_lines = cap;
	}
	id = c->nr_lines++;
	l = &c->lines[id];
	memset(l, 0, sizeof(*l));
	c->addrs[id] = la;
	l->owner = NO_OWNER;
	l->state = HM_LS_I;
	l->home = (u8)home;
	*slot = id;
	return id;
}


/* @s (line @id's slot) holds @id at @epoch, in L2 (and maybe L1). */
static inline bool slot_valid(const struct hm_coh *c, const hm_coh_slot *s, u32 id, u32 epoch)
{
	return (*s & ~HM_COH_L1) == hm_coh__key(c, id, epoch);
}

/* ... and in L1. */
static inline bool slot_in_l1(const struct hm_coh *c, const hm_coh_slot *s, u32 id, u32 epoch)
{
	return *s == (hm_coh__key(c, id, epoch) | HM_COH_L1);
}

/* @s, a slot holding its line, becomes its L1 set's L1 copy (the set's others leave L1). */
static inline void slot_fill_l1(hm_coh_slot *s)
{
	/* the set's 8 slots: 32 bytes, 32-byte aligned (big_alloc) */
	typedef u64 __attribute__((may_alias)) u64_alias;
	u64_alias *b = (u64_alias *)((uintptr_t)s & ~(uintptr_t)31);
	const u64 l1 = (u64)HM_COH_L1 << 32 | HM_COH_L1;

	_Static_assert(HM_COH_WAY_BITS == 3, "8 slots of 4 bytes an L1 set");
	b[0] &= ~l1;
	b[1] &= ~l1;
	b[2] &= ~l1;
	b[3] &= ~l1;
	*s |= HM_COH_L1;
}

/* Fill line @id's slot @s, L1 and L2, at @epoch. */
static inline void slot_fill(const struct hm_coh *c, hm_coh_slot *s, u32 id, u32 epoch)
{
	*s = hm_coh__key(c, id, epoch);
	slot_fill_l1(s);
}

/*
 * Line @id's epoch was bumped: when its low HM_COH_EP_BITS wrapped to 0,
 * free its slot in every core, or a copy 2^15 ownership changes old would
 * match again (rare: once per 32768 changes of one line).
 */
static inline void epoch_bump(struct hm_coh *c, struct hm_coh_line *l, u32 id)
{
	u32 core, tag;

	if (++l->epoch & HM_COH_EP_MASK)
		return;
	tag = id >> HM_COH_L2_BITS;
	for (core = 0; core < c->m->nr_cores; core++) {
		hm_coh_slot *s = hm_coh__slot(c, core, id);

		if ((*s >> 16) == tag)
			*s = HM_COH_FREE;
	}
}

/*
 * Whether @core's private caches hold @id.  L1 is inclusive in L2: an L1
 * slot is filled only together with its L2 slot or from it, and with
 * l1_lines <= l2_lines a line that takes the L2 slot takes the L1 slot too.
 * So the L2 slot alone answers (one host cache miss, not two).
 */
static inline bool core_holds(const struct hm_coh *c, u32 core, const struct hm_coh_line *l, u32 id)
{
	return slot_valid(c, hm_coh__slot(c, core, id), id, l->epoch);
}

/* Where the data of a private-cache miss comes from; updates the line's state. */
/* Inlined into its two callers: the call's register saves cost as much as its work. */
static inline __attribute__((always_inline)) u8 miss_source(struct hm_coh *c, u32 core, u32 id,
							  struct hm_coh_line *l, bool for_write)
{
	const struct hm_machine *m = c->m;
	u32 my_llc = m->core_llc[core], my_sock = m->core_socket[core];
	u64 my_bit = 1ULL << my_llc;
	u8 src;

	if (l->owner != NO_OWNER && l->owner != core && (l->state == HM_LS_M)) {
		u32 o = l->owner;

		if (m->core_llc[o] == my_llc)
			src = core_holds(c, o, l, id) ? HM_SRC_HITM_LOCAL : HM_SRC_LLC;
		else if (m->core_socket[o] == my_sock)
			src = HM_SRC_HITM_XDIE;
		else
			src = HM_SRC_HITM_REMOTE;
		if (!for_write && m->read_migrates) {
			/* migratory: the owner forwards and invalidates, the reader holds it modified */
			l->state = HM_LS_M;
			l->owner = (u16)core;
			epoch_bump(c, l, id);
			l->llc_mask = 0;
		} else if (!for_write) {
			switch (m->proto) {
			case HM_PROTO_MESIF:
				l->state = HM_LS_F;
				l->owner = (u16)core;
				break;
			case HM_PROTO_MOESI:
				l->state = HM_LS_O;
				break;
			case HM_PROTO_MESI:
				l->state = HM_LS_S;
				l->owner = NO_OWNER;
				break;
			}
		}
		return src;
	}
	if (l->owner == core && l->state == HM_LS_M)
		return HM_SRC_LLC;	/* our own dirty line, evicted to our LLC */
	if (l->llc_mask & my_bit) {
		src = HM_SRC_LLC;
	} else if (l->owner != NO_OWNER && l->owner != core &&
		   (l->state == HM_LS_F || l->state == HM_LS_O || l->state == HM_LS_E)) {
		src = m->core_socket[l->owner] == my_sock ? HM_SRC_HIT_XDIE : HM_SRC_HIT_REMOTE;
	} else if (l->llc_mask && m->proto == HM_PROTO_MESI) {
		/* CHI forwards clean data from a peer (DCT): any holder will do */
		u64 same = l->llc_mask & (((1ULL << m->llcs) - 1) << (my_sock * m->llcs));

		src = same ? HM_SRC_HIT_XDIE : HM_SRC_HIT_REMOTE;
	} else {
		src = l->home == my_sock ? HM_SRC_DRAM_LOCAL : HM_SRC_DRAM_REMOTE;
	}
	if (!for_write) {
		if (l->state == HM_LS_I || (l->owner == NO_OWNER && !l->llc_mask)) {
			l->state = HM_LS_E;
			l->owner = (u16)core;
		} else if (m->proto == HM_PROTO_MESIF && l->state != HM_LS_O) {
			l->state = HM_LS_F;
			l->owner = (u16)core;
		} else if (l->state == HM_LS_E) {
			l->state = HM_LS_S;
			l->owner = NO_OWNER;
		}
	}
	return src;
}

/* Cycles an RFO waits for the other copies to be invalidated. */
static u32 rfo_cost(const struct hm_coh *c, const struct hm_coh_line *l, u32 core)
{
	const struct hm_machine *m = c->m;
	u64 others = l->llc_mask & ~(1ULL << m->core_llc[core]);
	u64 my_sock = (((1ULL << m->llcs) - 1) << (m->core_socket[core] * m->llcs));

	if (others & ~my_sock)
		return m->lat[HM_SRC_HIT_REMOTE];
	if (others)
		return m->lat[HM_SRC_HIT_XDIE];
	if (l->owner != NO_OWNER && l->owner != core)
		return m->lat[HM_SRC_HITM_LOCAL];
	return m->lat[HM_SRC_LLC];
}

static inline bool is_transfer(u8 src)
{
	return src >= HM_SRC_HITM_LOCAL && src <= HM_SRC_HIT_REMOTE;
}

/* Wait for the line, then take @lat cycles: returns the cycles from @now to done. */
/*
 * A transfer of line @id requested at @now: it starts when the line is free,
 * keeps the line busy for occupancy% of its latency (the directory pipelines
 * the rest), and completes @lat cycles after it starts.
 */
static inline u32 serialize(struct hm_coh *c, struct hm_coh_line *l, u64 now, u32 lat)
{
	u64 *ready = &l->ready;
	u64 start = *ready > now ? *ready : now;
	u32 busy = lat * c->m->lat[HM_LAT_OCCUPANCY] / 100;

	*ready = start + (busy ? busy : 1);
	return (u32)(start - now) + lat;
}

void hm_coh__access_slow(struct hm_coh *c, u32 cpu, u32 id, enum hm_acc a, u64 now,
			 struct hm_coh_result *r)
{
	const struct hm_machine *m = c->m;
	struct hm_coh_line *l = &c->lines[id];
	u32 core = m->cpu_core[cpu];
	hm_coh_slot *sl = hm_coh__slot(c, core, id);
	/*
	 * A line modified in another core is valid in no other private cache:
	 * every way to M bumps the epoch or upgrades the sole holder's E.  Its
	 * slots (the host's cache misses of a transfer) need not be read.
	 */
	bool other_m = l->state == HM_LS_M && l->owner != core;
	bool in1 = !other_m && slot_in_l1(c, sl, id, l->epoch);
	bool in2 = !other_m && !in1 && slot_valid(c, sl, id, l->epoch);
	u8 src;

	c->nr_accesses++;
	r->l1_hit = false;
	if (a == HM_ACC_LOAD) {
		/* hits write nothing: most accesses are L1 hits, keep them read-only */
		if (in1) {
			r->src = HM_SRC_L1;
			r->weight = r->cost = m->lat[HM_SRC_L1];
			return;
		}
		if (in2) {
			r->src = HM_SRC_L2;
			r->weight = r->cost = m->lat[HM_SRC_L2];
			slot_fill_l1(sl);
			return;
		}
		src = miss_source(c, core, id, l, false);
		r->src = src;
		r->weight = is_transfer(src) ? serialize(c, l, now, m->lat[src]) : m->lat[src];
		r->cost = r->weight;
		l->llc_mask |= 1ULL << m->core_llc[core];
		slot_fill(c, sl, id, l->epoch);
		return;
	}
	/* store or RMW: needs ownership */
	if ((in1 || in2) && l->owner == core && (l->state == HM_LS_M || l->state == HM_LS_E)) {
		src = in1 ? HM_SRC_L1 : HM_SRC_L2;
		r->l1_hit = in1;
		r->src = src;
		r->weight = m->lat[src];
		r->cost = a == HM_ACC_STORE ? m->lat[HM_LAT_STORE] : r->weight;
		if (l->state != HM_LS_M)
			l->state = HM_LS_M;
		if (in2)
			slot_fill_l1(sl);
		return;
	}
	if (in1 || in2) {
		/* upgrade: data present, others must be invalidated */
		u32 wait = serialize(c, l, now, rfo_cost(c, l, core));

		src = in1 ? HM_SRC_L1 : HM_SRC_L2;
		r->weight = m->lat[src];
		r->cost = a == HM_ACC_STORE ? m->lat[HM_LAT_STORE] : r->weight + wait;
	} else {
		src = miss_source(c, core, id, l, true);
		r->weight = is_transfer(src) || l->owner != NO_OWNER ? serialize(c, l, now, m->lat[src])
								      : m->lat[src];
		r->cost = a == HM_ACC_STORE ? m->lat[HM_LAT_STORE] : r->weight;
	}
	r->src = src;
	epoch_bump(c, l, id);
	l->owner = (u16)core;
	l->state = HM_LS_M;
	l->llc_mask = 1ULL << m->core_llc[core];
	slot_fill(c, sl, id, l->epoch);
}
