// SPDX-License-Identifier: GPL-2.0-only
/*
 * The data_src values of a pass, each decoded into perf's counters and
 * hitmap's class once.
 *
 * Real files hold a few dozen distinct values; generated and fuzzed ones
 * also hold values drawn at random, each of which appears once (hm-gen
 * draws one sample in six so: 3 million distinct values in 20 million
 * samples).  A table of every distinct value would grow with those
 * samples, and probing it for each new one missed the caches (a full
 * table of 16384 entries of 176 bytes: 10% of the CPU time on 50k lines).
 * So a value enters the table the second time it is met, as long as a
 * direct-mapped filter of values met once still holds it; the others are
 * decoded for their sample.  The table's probe array holds one u64 per
 * slot (key, flags and entry index), the entries sit apart in insertion
 * order: a probe reads one cache line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dsrc-cache.h"
#include "parallel.h"

/* At most this many values in the table (memory stays bounded on any file). */
#define DSRC_MAX	16384
/* Values met once, remembered to enter the table when met again. */
#define SEEN_SLOTS	4096

#define KEY_BITS	46			/* masked data_src: bits 0-45 */
#define IDX_SHIFT	(KEY_BITS + 3)		/* after the 3 flag bits */
#define KF_MASK		((1ULL << IDX_SHIFT) - 1)

_Static_assert(DSRC_MAX <= 1u << (64 - IDX_SHIFT), "entry index fits in a slot");

static u64 kf_hash(u64 kf)
{
	u64 x = kf * 0x9e3779b97f4a7c15ULL;

	return x ^ (x >> 29);
}

struct hm_dsrc_cache *hm_dsrc_cache__new(void)
{
	struct hm_dsrc_cache *c = calloc(1, sizeof(*c));
	struct hm_data_src d;

	if (!c)
		return NULL;
	/* all decoded fields but the TLB and the region, which neither reads */
	hm_data_src__decode(~0ULL, &d);
	d.dtlb = 0;
	d.region = 0;
	c->mask = hm_data_src__encode(&d);
	c->nr_slots = 64;
	c->slot = calloc(c->nr_slots, sizeof(*c->slot));
	c->seen = calloc(SEEN_SLOTS, sizeof(*c->seen));
	if (!c->slot || !c->seen || (c->mask >> KEY_BITS)) {
		hm_dsrc_cache__delete(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

void hm_dsrc_cache__delete(struct hm_dsrc_cache *c)
{
	if (!c)
		return;
	free(c->slot);
	free(c->e);
	free(c->seen);
	free(c);
}

static bool cat_dram(enum hm_mem_cat c)
{
	return c == HM_CAT_DRAM_LOCAL || c == HM_CAT_DRAM_REMOTE;
}

static u8 cdiff_of(const struct hm_c2c_stats *one, const struct hm_mem_class *cls)
{
	bool pdram = one->lcl_dram || one->rmt_dram;

	if (pdram && !cat_dram(cls->cat))
		return one->tot_hitm ? HM_CDIFF_ALSO_DRAM : HM_CDIFF_AS_DRAM;
	if (one->tot_hitm && !cls->hitm)
		return HM_CDIFF_AS_HITM;
	if (!one->tot_hitm && cls->hitm)
		return HM_CDIFF_NO_HITM;
	return 0xff;
}

static void decode(struct hm_dsrc_ent *e, const struct hm_dsrc_how *how, u64 data_src, u64 key,
		   u32 flags)
{
	bool daddr = flags & 2;

	memset(&e->one, 0, sizeof(e->one));
	hm_c2c_stats__add_v(&e->one, how->compat, data_src, daddr, flags & 4);
	hm_mem__classify(how->vendor, data_src, daddr, &e->cls);
	e->cdiff = cdiff_of(&e->one, &e->cls);
	e->one_idx = how->par ? hm_par__intern(how->par, &e->one) : -1;
	e->data_src = key;
	e->flags = flags;
	e->nr = 0;
}

/* Double the probe array (the entries stay where they are). */
static int slots_grow(struct hm_dsrc_cache *c)
{
	size_t ns = c->nr_slots * 2;
	u64 *n = calloc(ns, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < c->nr_slots; i++) {
		size_t h;

		if (!c->slot[i])
			continue;
		h = kf_hash(c->slot[i] & KF_MASK) & (ns - 1);
		while (n[h])
			h = (h + 1) & (ns - 1);
		n[h] = c->slot[i];
	}
	free(c->slot);
	c->slot = n;
	c->nr_slots = ns;
	return 0;
}

/* Add the value of slot @h (empty) to the table; its entry, or NULL. */
static struct hm_dsrc_ent *insert(struct hm_dsrc_cache *c, size_t h, u64 kf)
{
	if (c->nr == c->cap) {
		u32 cap = c->cap ? c->cap * 2 : 64;
		struct hm_dsrc_ent *e = realloc(c->e, cap * sizeof(*e));

		if (!e)
			return NULL;
		c->e = e;
		c->cap = cap;
		c->last = NULL;	/* the entries moved */
	}
	c->slot[h] = kf | (u64)c->nr << IDX_SHIFT;
	if (++c->nr * 2 > c->nr_slots && slots_grow(c) < 0) {
		c->nr--;
		c->slot[h] = 0;
		return NULL;
	}
	return &c->e[c->nr - 1];
}

/* Whether @kf was met once before (and, if not, remember it). */
static bool seen_before(struct hm_dsrc_cache *c, u64 kf, u64 hash)
{
	u64 *s = &c->seen[(hash >> 40) & (SEEN_SLOTS - 1)];

	if (*s == kf)
		return true;
	*s = kf;
	return false;
}

/* hm_dsrc_cache__get past the previous sample's value. */
const struct hm_dsrc_ent *hm_dsrc_cache__lookup(struct hm_dsrc_cache *c, const struct hm_dsrc_how *how,
						u64 data_src, u32 flags, struct hm_c2c_stats *tot)
{
	u64 key = data_src & c->mask, kf = key | (u64)flags << KEY_BITS, hash = kf_hash(kf), w;
	size_t h = hash & (c->nr_slots - 1);
	struct hm_dsrc_ent *e;

	while ((w = c->slot[h])) {
		if ((w & KF_MASK) == kf) {
			e = c->last = &c->e[w >> IDX_SHIFT];
			if (tot)
				e->nr++;
			return e;
		}
		h = (h + 1) & (c->nr_slots - 1);
	}
	if (c->nr < DSRC_MAX && seen_before(c, kf, hash)) {
		e = insert(c, h, kf);
		if (!e)
			return NULL;
		decode(e, how, data_src, key, flags);
		c->last = e;
		if (tot)
			e->nr++;
		return e;
	}
	e = &c->spare;
	decode(e, how, data_src, key, flags);
	if (tot)
		hm_c2c_stats__sum(tot, &e->one);
	return e;
}

void hm_dsrc_cache__fold(struct hm_dsrc_cache *c, struct hm_c2c_stats *tot)
{
	u32 *dst = (u32 *)tot;

	_Static_assert(sizeof(*tot) % sizeof(u32) == 0, "hm_c2c_stats is u32 counters");
	for (u32 i = 0; c && i < c->nr; i++) {
		struct hm_dsrc_ent *e = &c->e[i];
		const u32 *src = (const u32 *)&e->one;

		if (!e->nr)
			continue;
		/* u32 sums wrap as the per-sample sums did */
		for (size_t k = 0; k < sizeof(*tot) / sizeof(u32); k++)
			dst[k] += src[k] * e->nr;
		e->nr = 0;
	}
}
