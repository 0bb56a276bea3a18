/* SPDX-License-Identifier: GPL-2.0-only */
/* perf's level-1 cache-line entries of the report pass (perf-lines.c). */
#ifndef HM_REPORT_PERF_LINES_H
#define HM_REPORT_PERF_LINES_H

#include "report.h"

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

struct hm_perf_lines {
	struct perf_entry	*e;		/* dense */
	size_t			nr, alloc;
	u32			*slot;		/* index + 1; 0 empty */
	size_t			nr_slots;	/* power of two */
};

struct hm_perf_lines *hm_perf_lines__new(void);
/* Accepts NULL. */
void hm_perf_lines__delete(struct hm_perf_lines *p);
u64  hm_perf_key__hash(const struct perf_key *k);
/* Add one sample's counters @one to @k's entry (@kh: its hash); 0 or -ENOMEM. */
int  hm_perf_lines__add(struct hm_perf_lines *p, const struct perf_key *k, u64 kh,
			const struct hm_c2c_stats *one);
/* Sum the shared entries into @g; returns how many there are. */
u32  hm_perf_lines__shared(const struct hm_perf_lines *p, struct hm_perf_shared *g);
/*
 * Add @src's entries (samples after @dst's) to @dst, new ones after its
 * (an empty @dst takes them, @src is left empty); 0 or -ENOMEM.
 */
int  hm_perf_lines__merge_after(struct hm_perf_lines *dst, struct hm_perf_lines *src);

#endif
