/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_DSRC_CACHE_H
#define HITMAP_REPORT_DSRC_CACHE_H

/*
 * perf's counters and hitmap's class of one sample depend only on data_src,
 * whether there is a data address and whether it was mapped: each value
 * that recurs is decoded once (dsrc-cache.c).
 */
#include <hitmap/mem.h>

struct hm_par;

struct hm_dsrc_ent {
	u64			data_src;	/* masked (hm_dsrc_cache.mask) */
	u32			flags;		/* 1 valid, 2 daddr, 4 mapped */
	u8			cdiff;		/* enum hm_cdiff, 0xff: agree */
	int			one_idx;	/* hm_par__intern(one), -1: none */
	u32			nr;		/* samples of the pass not yet folded into the totals */
	struct hm_mem_class	cls;
	struct hm_c2c_stats	one;
};

/* What a value decodes to besides itself: fixed for a pass once its header is read. */
struct hm_dsrc_how {
	enum hm_vendor		vendor;
	enum hm_perf_compat	compat;
	struct hm_par		*par;		/* interns the counters; NULL: one_idx -1 */
};

struct hm_dsrc_cache {
	u64			mask;		/* the data_src bits the counters and the class read */
	struct hm_dsrc_ent	*last;		/* the previous sample's, in the table */
	/* the rest is dsrc-cache.c's */
	u64			*slot;		/* key | flags << 46 | entry index << 49; 0 empty */
	size_t			nr_slots;	/* power of two */
	struct hm_dsrc_ent	*e;		/* the table's entries, in insertion order */
	u32			nr, cap;
	u64			*seen;		/* values met once, by hash (not in the table) */
	struct hm_dsrc_ent	spare;		/* a value decoded for one sample */
};

struct hm_dsrc_cache *hm_dsrc_cache__new(void);
void hm_dsrc_cache__delete(struct hm_dsrc_cache *c);

const struct hm_dsrc_ent *hm_dsrc_cache__lookup(struct hm_dsrc_cache *c, const struct hm_dsrc_how *how,
						u64 data_src, u32 flags, struct hm_c2c_stats *tot);

/*
 * The entry of one sample's data_src (its counters, class, cdiff), valid
 * until the next call; NULL when out of memory.  With @tot, the sample is
 * counted: its counters reach *@tot through hm_dsrc_cache__fold (values in
 * the table count their samples) or at once (the others).
 */
static inline const struct hm_dsrc_ent *
hm_dsrc_cache__get(struct hm_dsrc_cache *c, const struct hm_dsrc_how *how, u64 data_src, u64 daddr,
		   bool mapped, struct hm_c2c_stats *tot)
{
	u32 flags = 1 | (daddr ? 2 : 0) | (mapped ? 4 : 0);
	struct hm_dsrc_ent *e = c->last;

	if (e && e->flags == flags && e->data_src == (data_src & c->mask)) {
		if (tot)
			e->nr++;
		return e;
	}
	return hm_dsrc_cache__lookup(c, how, data_src, flags, tot);
}

/* Add each table value's counters times its samples to *@tot. */
void hm_dsrc_cache__fold(struct hm_dsrc_cache *c, struct hm_c2c_stats *tot);

#endif
