/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_SIM_COHERENCE_H
#define HITMAP_SIM_COHERENCE_H

/*
 * The coherence model (coherence.c): the per-line directory, the cores'
 * private L1/L2 slots, and the inline fast path of an access (an L1 hit),
 * which the simulator's run loop calls for every access.
 */
#include "util/htab.h"
#include "sim/sim.h"
#include "util/prefetch.h"

enum hm_line_state { HM_LS_I, HM_LS_S, HM_LS_E, HM_LS_M, HM_LS_O, HM_LS_F };

/*
 * The bucket's queued spinlock (kernel/locking/qspinlock.c), per line: the
 * thread (+ 1) holding it, the one spinning with the pending bit, and the
 * MCS queue's tail; 0 none.
 */
struct hm_coh_qlock {
	u16	locked, pending, tail;
};

/*
 * 32 bytes, aligned: two per host cache line.  A bucket's line needs all of
 * it on every operation (state, transfer clock, lock), so it is one host
 * cache miss, not three.  The address (trace and samples only) is apart.
 */
struct hm_coh_line {
	u64	llc_mask;	/* LLC domains holding a copy */
	u32	epoch;		/* bumped by every ownership change: lazy invalidation */
	u16	owner;		/* core holding M/E/O/F, 0xffff none */
	u8	state;		/* enum hm_line_state of the owner's copy, S/I otherwise */
	u8	home;		/* NUMA node of the memory */
	u64	ready;		/* cycle when the last ownership transfer completes */
	struct hm_coh_qlock lock;	/* bucket spinlocks */
} __attribute__((aligned(32)));

/*
 * A core's private caches are one array of u32 slots (4 bytes, not 16 for
 * an L1 and an L2 slot of { line, epoch }): the 6 MB of L2 slots of the
 * 192-core preset were most of the host cache misses of a simulated access.
 *
 *   - The L2 slot of line @id holds (id >> 12) << 16 | epoch & EP_MASK: the
 *     set, (id * golden) & 4095, gives the low 12 bits of @id (the
 *     multiplier is odd), so the high bits name the line.  Tag 0xffff is no
 *     line (hm_coh__line refuses ids that would need it): 0xffffffff is free.
 *   - The epoch is kept mod 2^15; when a line's epoch crosses a multiple of
 *     2^15, its slot in every core is freed (hm_coh__epoch_wrap), so a match
 *     of the low bits is a match of the whole epoch.
 *   - L1 is inclusive in L2 (coherence.c core_holds): the L1 slot always
 *     equals the L2 slot of the line it holds.  So L1 is bit 15 (HM_COH_L1)
 *     of that L2 slot, at most one per L1 set.  The L2 slots of one L1 set,
 *     l2_lines / l1_lines of them, are placed side by side (32 bytes for
 *     512 / 4096): an access reads one host line for both levels.
 */
#define HM_COH_L1_BITS	9	/* 512 L1 lines (32 KiB): struct hm_machine's l1_lines */
#define HM_COH_L2_BITS	12	/* 4096 L2 lines: l2_lines (hm_coh__new checks) */
#define HM_COH_WAY_BITS	(HM_COH_L2_BITS - HM_COH_L1_BITS)
#define HM_COH_EP_BITS	15
#define HM_COH_EP_MASK	((1u << HM_COH_EP_BITS) - 1)
#define HM_COH_L1	(1u << HM_COH_EP_BITS)
#define HM_COH_FREE	0xffffffffu
typedef u32 hm_coh_slot;

struct hm_coh_result {
	u8	src;		/* enum hm_src of the data (loads, RMW) */
	bool	l1_hit;		/* stores: the line was owned in L1 */
	u32	weight;		/* load-to-use cycles of the load part */
	u32	cost;		/* cycles the access takes the core */
};

struct hm_coh {
	const struct hm_machine *m;
	struct hm_coh_line	*lines;
	u64			*addrs;		/* line address per id */
	u32			nr_lines, cap_lines;
	u32			max_lines;	/* ids below 0xffff << HM_COH_L2_BITS */
	struct hm_htab		index;		/* line address -> line id */
	hm_coh_slot		*slots;		/* nr_cores * l2_lines */
	u64			nr_accesses;
};

/* Private-cache set of line @id: ids are handed out in first-touch order, spread them. */
static inline u32 hm_coh__set(u32 id)
{
	return id * 0x9e3779b1u;
}

/* The slot of line @id in @core: its L1 set's block, then its way (the L2 set's high bits). */
static inline hm_coh_slot *hm_coh__slot(const struct hm_coh *c, u32 core, u32 id)
{
	u32 set = hm_coh__set(id);

	return &c->slots[((size_t)core << HM_COH_L2_BITS) +
			 ((set & ((1u << HM_COH_L1_BITS) - 1)) << HM_COH_WAY_BITS) +
			 ((set >> HM_COH_L1_BITS) & ((1u << HM_COH_WAY_BITS) - 1))];
}

/* What the slot of a valid copy of @id at @epoch holds (HM_COH_L1 aside). */
static inline u32 hm_coh__key(const struct hm_coh *c, u32 id, u32 epoch)
{
	(void)c;
	return (id >> HM_COH_L2_BITS) << 16 | (epoch & HM_COH_EP_MASK);
}

/* Bring what an access of @id by @cpu will read into the host's caches. */
static inline void hm_coh__prefetch(const struct hm_coh *c, u32 cpu, u32 id)
{
	hm_prefetch_w(&c->lines[id]);
	hm_prefetch_w(hm_coh__slot(c, c->m->cpu_core[cpu], id));
}

/*
 * A real load whose value is dropped.  On the host measured (a VM), prefetch
 * instructions issued a few hundred cycles ahead did not help, while loads
 * issued about as far ahead did: out of order, they overlap with the work
 * that follows.  Use it only where a miss costs no stall on the path.
 */
static inline void hm_coh__touch(const void *p)
{
	__asm__ volatile("" : : "r"(*(const volatile u32 *)p));
}

/* Load what an access of @id by @core will read (see hm_coh__touch). */
static inline void hm_coh__touch_line(const struct hm_coh *c, u32 core, u32 id)
{
	hm_coh__touch(&c->lines[id]);
	hm_coh__touch(hm_coh__slot(c, core, id));
}

/* Second stage: the owner's slot, which a miss on @id will look at (coherence.c core_holds). */
static inline void hm_coh__prefetch_owner(const struct hm_coh *c, u32 id)
{
	u32 o = c->lines[id].owner;

	if (o < c->m->nr_cores)
		hm_prefetch(hm_coh__slot(c, o, id));
}

struct hm_coh *hm_coh__new(const struct hm_machine *m, u32 expected_lines);
void hm_coh__delete(struct hm_coh *c);
/* Id of the line holding @addr (memory on node @home), creating it. -ENOMEM as UINT32_MAX. */
u32  hm_coh__line(struct hm_coh *c, u64 addr, u32 home);
/* Id of the line holding @addr, UINT32_MAX when unknown. */
u32  hm_coh__find(const struct hm_coh *c, u64 addr);
/*
 * One access by @cpu at cycle @now.  Cache-to-cache transfers and ownership
 * changes of a line are serialized: one waits for the previous to complete,
 * and r->cost (and, for loads, r->weight) includes that wait.
 */
void hm_coh__access_slow(struct hm_coh *c, u32 cpu, u32 line, enum hm_acc a, u64 now,
			 struct hm_coh_result *r);
/* hm_coh__access of @cpu, whose core (m->cpu_core[cpu]) the caller knows. */
static inline void hm_coh__access_core(struct hm_coh *c, u32 cpu, u32 core, u32 id, enum hm_acc a,
				       u64 now, struct hm_coh_result *r)
{
	/*
	 * Inline: an L1 hit, a load or a write of a line this core owns
	 * (most accesses), changes nothing but E -> M; the rest is out of line.
	 */
	const struct hm_machine *m = c->m;
	struct hm_coh_line *l = &c->lines[id];
	const hm_coh_slot *s1 = hm_coh__slot(c, core, id);

	if (*s1 == (hm_coh__key(c, id, l->epoch) | HM_COH_L1)) {
		if (a == HM_ACC_LOAD) {
			c->nr_accesses++;
			r->l1_hit = false;
			r->src = HM_SRC_L1;
			r->weight = r->cost = m->lat[HM_SRC_L1];
			return;
		}
		if (l->owner == core && (l->state == HM_LS_M || l->state == HM_LS_E)) {
			c->nr_accesses++;
			r->l1_hit = true;
			r->src = HM_SRC_L1;
			r->weight = m->lat[HM_SRC_L1];
			r->cost = a == HM_ACC_STORE ? m->lat[HM_LAT_STORE] : r->weight;
			l->state = HM_LS_M;
			return;
		}
	}
	hm_coh__access_slow(c, cpu, id, a, now, r);
}

static inline void hm_coh__access(struct hm_coh *c, u32 cpu, u32 id, enum hm_acc a, u64 now,
				  struct hm_coh_result *r)
{
	hm_coh__access_core(c, cpu, c->m->cpu_core[cpu], id, a, now, r);
}

#endif
