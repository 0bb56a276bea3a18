// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf c2c's counters, exactly as perf's c2c_decode_stats() computes them
 * (util/mem-events.c) in the version asked for (--perf-compat), quirks
 * included:
 *  - only the legacy mem_lvl bits count; mem_lvl_num is ignored;
 *  - "mrem" = remote && !hops: Intel Skylake+ remote HITM (LVL_HIT + remote)
 *    is counted as remote DRAM too, and Intel SNB remote cache hits as well;
 *  - AMD pre-Zen4 IBS local-cache HITM (L3|REM_CCE1) is a local AND a remote HITM;
 *  - local HITM, L2/LLC hits and local peers need LVL_HIT, remote ones do not;
 *  - an L2 hit with HITM: perf 6.1 and 6.12 count an L2 hit (they look at
 *    HITM only for L3); perf 7.3 counts a local HITM (and no L2 hit), so
 *    "Load L2D hit", "Load LLC hit" (= llchit + local HITM), "Load Local
 *    HITM" and which lines are shared move between the versions.
 * That is the only difference in the decoding between 6.1, 6.12 and 7.3.
 * See shared/docs/notes/perf-c2c.md §1.5.
 */
#include <errno.h>
#include <string.h>
#include <hitmap/mem.h>
#include "data_src.h"

static const struct {
	const char		*name;
	enum hm_perf_compat	v;
} versions[] = {
	{ "6.1", HM_PERF_6_1 }, { "6.12", HM_PERF_6_12 }, { "7.3", HM_PERF_7_3 },
};

int hm_perf_compat__parse(const char *s, enum hm_perf_compat *v)
{
	for (size_t i = 0; s && i < sizeof(versions) / sizeof(versions[0]); i++) {
		if (!strcmp(s, versions[i].name)) {
			*v = versions[i].v;
			return 0;
		}
	}
	return -EINVAL;
}

const char *hm_perf_compat__name(enum hm_perf_compat v)
{
	if (v == HM_PERF_NEWEST)
		v = HM_PERF_7_3;
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++)
		if (versions[i].v == v)
			return versions[i].name;
	return "?";
}

int hm_c2c_stats__add(struct hm_c2c_stats *st, u64 data_src, u64 daddr, bool mapped)
{
	return hm_c2c_stats__add_v(st, HM_PERF_NEWEST, data_src, daddr, mapped);
}

int hm_c2c_stats__add_v(struct hm_c2c_stats *st, enum hm_perf_compat v,
			u64 data_src, u64 daddr, bool mapped)
{
	struct hm_data_src d;
	bool mrem;
	/* perf after 6.12: L2 + HITM is a local HITM */
	bool l2_hitm = v == HM_PERF_NEWEST || v > HM_PERF_6_12;

	hm_data_src__decode(data_src, &d);
	mrem = d.remote && !d.hops;

	st->nr_entries++;
	if (d.lock & HM_LOCK_LOCKED)
		st->locks++;
	if (d.blk & HM_BLK_DATA)
		st->blk_data++;
	if (d.blk & HM_BLK_ADDR)
		st->blk_addr++;

	if (d.op & HM_OP_LOAD) {
		st->load++;
		if (!daddr) {
			st->ld_noadrs++;
			return -1;
		}
		if (d.lvl & HM_LVL_HIT) {
			if (d.lvl & HM_LVL_UNC)
				st->ld_uncache++;
			if (d.lvl & HM_LVL_IO)
				st->ld_io++;
			if (d.lvl & HM_LVL_LFB)
				st->ld_fbhit++;
			if (d.lvl & HM_LVL_L1)
				st->ld_l1hit++;
			if (d.lvl & HM_LVL_L2) {
				if (l2_hitm && (d.snoop & HM_SNOOP_HITM)) {
					st->lcl_hitm++;
					st->tot_hitm++;
				} else {
					st->ld_l2hit++;
				}
				if (d.snoopx & HM_SNOOPX_PEER) {
					st->lcl_peer++;
					st->tot_peer++;
				}
			}
			if (d.lvl & HM_LVL_L3) {
				if (d.snoop & HM_SNOOP_HITM) {
					st->lcl_hitm++;
					st->tot_hitm++;
				} else {
					st->ld_llchit++;
				}
				if (d.snoopx & HM_SNOOPX_PEER) {
					st->lcl_peer++;
					st->tot_peer++;
				}
			}
			if (d.lvl & HM_LVL_LOC_RAM) {
				st->lcl_dram++;
				if (d.snoop & HM_SNOOP_HIT)
					st->ld_shared++;
				else
					st->ld_excl++;
			}
			if ((d.lvl & (HM_LVL_REM_RAM1 | HM_LVL_REM_RAM2)) || mrem) {
				st->rmt_dram++;
				if (d.snoop & HM_SNOOP_HIT)
					st->ld_shared++;
				else
					st->ld_excl++;
			}
		}
		if ((d.lvl & (HM_LVL_REM_CCE1 | HM_LVL_REM_CCE2)) || mrem) {
			if (d.snoop & HM_SNOOP_HIT) {
				st->rmt_hit++;
			} else if (d.snoop & HM_SNOOP_HITM) {
				st->rmt_hitm++;
				st->tot_hitm++;
			} else if (d.snoopx & HM_SNOOPX_PEER) {
				st->rmt_hit++;
				st->rmt_peer++;
				st->tot_peer++;
			}
		}
		if (d.lvl & HM_LVL_MISS)
			st->ld_miss++;
	} else if (d.op & HM_OP_STORE) {
		st->store++;
		if (!daddr) {
			st->st_noadrs++;
			return -1;
		}
		if (d.lvl & HM_LVL_HIT) {
			if (d.lvl & HM_LVL_UNC)
				st->st_uncache++;
			if (d.lvl & HM_LVL_L1)
				st->st_l1hit++;
		}
		if ((d.lvl & HM_LVL_MISS) && (d.lvl & HM_LVL_L1))
			st->st_l1miss++;
		if (d.lvl & HM_LVL_NA)
			st->st_na++;
	} else {
		st->noparse++;
		return -1;
	}

	if (!mapped) {
		st->nomap++;
		return -1;
	}
	return 0;
}

/* Every counter is a u32: add them as one array (the compiler vectorizes it). */
_Static_assert(sizeof(struct hm_c2c_stats) == 32 * sizeof(u32), "c2c_stats: 32 u32 counters");

void hm_c2c_stats__sum(struct hm_c2c_stats *dst, const struct hm_c2c_stats *src)
{
	typedef u32 v4 __attribute__((vector_size(16)));
	char *d = (char *)dst;
	const char *s = (const char *)src;

	_Static_assert(sizeof(*dst) == 32 * sizeof(u32), "hm_c2c_stats is 32 counters");
	/* four counters at a time (SSE2 on x86-64); memcpy keeps it alignment-free */
	for (int i = 0; i < 32 * 4; i += 16) {
		v4 a, b;

		memcpy(&a, d + i, 16);
		memcpy(&b, s + i, 16);
		a += b;
		memcpy(d + i, &a, 16);
	}
}
