/* SPDX-License-Identifier: GPL-2.0-only */
/* perf's level-1 cache-line entries of the report pass (perf-lines.c). */
#ifndef HM_REPORT_PERF_LINES_H
#define HM_REPORT_PERF_LINES_H

#include "report.h"
#include "lines.h"
#include "util/prefetch.h"

struct perf_key {
	u64	line;		/* cl_address(al_addr) */
	u32	pid;		/* private anonymous user memory only */
	u32	dso_id;		/* hash of the map's dev/inode (MMAP2), 0 when none */
	u8	cpumode;
	u8	mapped;		/* data map found */
};

/*
 * The counters perf's global block prints, per entry, in one cache line:
 * the key packed (cpumode and map flag above the pid), then the sums the
 * block shows (LLC = ld_llchit + lcl_hitm, HITM = lcl + rmt, peer, blocked).
 */
struct perf_entry {
	u64	line;
	u32	who;		/* pid | cpumode << 24 | mapped << 27 */
	u32	dso_id;
	u32	load, fbhit, l1hit, l2hit, llc, hitm, peer, locks, blk, store, st_l1hit, st_na;
};

/*
 * 8 bytes: the low 32 bits of the entry's hash (they alone place it, so the
 * table grows without reading the entries, and a lookup reads only the
 * entries whose bits match) and its index + 1 (0 empty).
 */
struct perf_slot {
	u32	hash;
	u32	idx;
};

/* A perf key less its line: the key of (virtual line, id) is line + delta, who, dso_id. */
struct perf_kid {
	u64	delta;		/* perf's line - the virtual line */
	u32	who, dso_id;
};

struct hm_perf_lines {
	struct perf_entry	*e;		/* dense */
	size_t			nr, alloc;
	struct perf_slot	*slot;		/* open addressing */
	size_t			nr_slots;	/* power of two */
	/* samples counted through hitmap's line table (hm_perf_lines__key_id) */
	struct perf_kid		*kid;
	u32			nr_kid, alloc_kid;
	u32			kid_cache[16];	/* recent ids, direct-mapped on the key */
	u32			*kid_slot;	/* id; 0 empty */
	u32			nr_kid_slots;	/* power of two */
	struct hm_perf_lines	*other;		/* (virtual line, id) of other keys than the line's first */
	bool			done;		/* hm_perf_lines__finish summed the shared entries */
	bool			finished;	/* hm_perf_lines__finish ran */
	u32			nr_shared;
	struct hm_perf_shared	shared;
};

struct hm_perf_lines *hm_perf_lines__new(void);
/* Accepts NULL. */
void hm_perf_lines__delete(struct hm_perf_lines *p);
u64  hm_perf_key__hash(const struct perf_key *k);
/*
 * Lookups ahead of a key's use (@kh: its hash): @stage 2 its slot, 1 the
 * entry its first slot holds (the slot read, so prefetched before), if
 * any.  @p may be NULL.
 */
static inline void hm_perf_lines__prefetch(const struct hm_perf_lines *p, u64 kh, int stage)
{
	size_t mask, h;

	if (!p)
		return;
	mask = p->nr_slots - 1;
	h = (u32)kh & mask;
	if (stage == 2) {
		hm_prefetch(&p->slot[h]);
		return;
	}
	/* the entry whose hash matches, among the first slots of its run */
	for (int n = 0; n < 4 && p->slot[h].idx; n++, h = (h + 1) & mask) {
		if (p->slot[h].hash == (u32)kh) {
			hm_prefetch(&p->e[p->slot[h].idx - 1]);
			return;
		}
	}
}
/* Add one sample's counters @one to @k's entry (@kh: its hash); 0 or -ENOMEM. */
int  hm_perf_lines__add(struct hm_perf_lines *p, const struct perf_key *k, u64 kh,
			const struct hm_c2c_stats *one);
/*
 * Samples with a data address that go to hitmap's line table (lines.h,
 * which keys on the virtual line only): most lines have one perf key, and
 * the line's own counters then are that entry's.  Such a sample's key
 * (@k, its line @vline) gets an id (>= 1; 0: ENOMEM, errno set) for
 * hm_lines__add_key(); where that says the key is not the line's first,
 * hm_perf_lines__add_other() counts the sample under (@vline, id).
 * hm_perf_lines__finish() then makes the entries: each line's first key
 * has the line's counters less its other keys'.  Key ids are small
 * (distinct maps x pids x cpumodes), never per sample.
 */
u32  hm_perf_lines__key_id(struct hm_perf_lines *p, const struct perf_key *k, u64 vline);
/* The hash of (@vline, @id) in the other keys' table (a batch prefetches its slot: p->other). */
u64  hm_perf_lines__other_hash(u64 vline, u32 id);
int  hm_perf_lines__add_other(struct hm_perf_lines *p, u64 vline, u32 id,
			      const struct hm_c2c_stats *one);
/*
 * After the pass over @l (the line table the ids went to; a report cut in
 * ranges: after the parts' merge), once (again: a no-op): where two ids
 * could make the same key, the entries are built; else only the shared
 * block is summed (each (line, id) is an entry of its own).  0 or -ENOMEM.
 */
int  hm_perf_lines__finish(struct hm_perf_lines *p, struct hm_lines *l);
/* Sum the shared entries into @g; returns how many there are. */
u32  hm_perf_lines__shared(const struct hm_perf_lines *p, struct hm_perf_shared *g);
/*
 * Add @src's entries and keys (samples after @dst's, neither finished),
 * whose lines are @sl's, to @dst's, whose lines are @dl's, as one pass
 * would have counted them; before hm_lines__merge_after(@dl, @sl), which
 * copies the key ids this sets in @sl's lines new to @dl.  An empty @dst
 * takes @src's (@src is left empty).  @src's other keys are freed.  0,
 * -ENOMEM or -EINVAL.
 */
int  hm_perf_lines__merge_after(struct hm_perf_lines *dst, struct hm_lines *dl,
				struct hm_perf_lines *src, struct hm_lines *sl);

#endif
