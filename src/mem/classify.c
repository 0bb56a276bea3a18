// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap's precise classification: every sample lands in exactly one
 * category.  Unlike perf's c2c_decode_stats() it reads mem_lvl_num, remote,
 * hops and snoopx as well as the legacy mem_lvl bits, and it knows what each
 * vendor means by them:
 *
 *   distance  LOCAL  same core group (LLC/CCX)
 *             XDIE   same socket, another die/CCX/node (hops 0 with remote,
 *                    hops 1 except on AMD)
 *             REMOTE another socket (remote without hops, hops 2/3, legacy
 *                    REM_* bits; AMD hops 1: IBS cannot tell the socket of a
 *                    remote node, it is another node)
 *
 * Order of tests (first match wins): uncached, I/O, CXL, PMEM, L4/MSC, HITM,
 * remote forward, DRAM, peer, another cache, plain miss, LLC, L2, LFB, L1.
 * The man page (hitmap-report(1)) has the table per vendor encoding.
 */
#include <hitmap/mem.h>
#include "data_src.h"

static const char *const cat_names[] = {
#define HM_MEM_CAT_NAME(e, s) s,
	HM_MEM_CATS(HM_MEM_CAT_NAME)
#undef HM_MEM_CAT_NAME
};

const char *hm_mem_cat__name(enum hm_mem_cat c)
{
	if ((unsigned)c >= HM_CAT__MAX)
		return "?";
	return cat_names[c];
}

enum dist { D_LOCAL, D_XDIE, D_REMOTE };

static enum dist distance(enum hm_vendor v, const struct hm_data_src *d)
{
	switch (d->hops) {
	case 0:
		break;
	case HM_HOPS_0:
		return d->remote ? D_XDIE : D_LOCAL;
	case HM_HOPS_1:
		return v == HM_VENDOR_AMD ? D_REMOTE : D_XDIE;
	default:
		return D_REMOTE;
	}
	if (d->remote)
		return D_REMOTE;
	if (d->lvl & (HM_LVL_REM_CCE1 | HM_LVL_REM_CCE2 | HM_LVL_REM_RAM1 | HM_LVL_REM_RAM2))
		return D_REMOTE;
	return D_LOCAL;
}

static enum hm_mem_cat classify_load(enum hm_vendor v, const struct hm_data_src *d)
{
	u32 lvl = d->lvl, ln = d->lvl_num;
	enum dist dist = distance(v, d);
	bool other_cache;

	if (ln == HM_LVLNUM_NA)
		ln = 0;
	if ((lvl & HM_LVL_UNC) || ln == HM_LVLNUM_UNC)
		return HM_CAT_UNCACHED;
	if ((lvl & HM_LVL_IO) || ln == HM_LVLNUM_IO)
		return HM_CAT_IO;
	if (ln == HM_LVLNUM_CXL)
		return HM_CAT_CXL;
	if (ln == HM_LVLNUM_PMEM)
		return HM_CAT_PMEM;
	if (ln == HM_LVLNUM_L4 || ln == HM_LVLNUM_MSC)
		return dist == D_REMOTE ? HM_CAT_HIT_REMOTE : HM_CAT_L4;
	/*
	 * A snoop that found the line modified wins over the level: Intel
	 * Crestmont (Sierra Forest) encodes a remote HITM as RAM|REM|HITM
	 * (0x0d) and a remote forward as RAM|REM|SNOOPX_FWD (0x0c); the data
	 * came from the other socket's cache, not from its memory.
	 */
	if (d->snoop & HM_SNOOP_HITM)
		return dist == D_LOCAL ? HM_CAT_HITM_LOCAL :
		       dist == D_XDIE ? HM_CAT_HITM_XDIE : HM_CAT_HITM_REMOTE;
	if ((d->snoopx & HM_SNOOPX_FWD) && dist == D_REMOTE)
		return HM_CAT_HIT_REMOTE;
	if ((lvl & (HM_LVL_LOC_RAM | HM_LVL_REM_RAM1 | HM_LVL_REM_RAM2)) || ln == HM_LVLNUM_RAM)
		return dist == D_LOCAL ? HM_CAT_DRAM_LOCAL : HM_CAT_DRAM_REMOTE;
	if (d->snoopx & HM_SNOOPX_PEER)
		return dist == D_REMOTE ? HM_CAT_PEER_REMOTE : HM_CAT_PEER_LOCAL;
	other_cache = (lvl & (HM_LVL_REM_CCE1 | HM_LVL_REM_CCE2)) || ln == HM_LVLNUM_ANY_CACHE ||
		      dist != D_LOCAL;
	if (other_cache) {
		if (dist == D_REMOTE)
			return HM_CAT_HIT_REMOTE;
		if (dist == D_XDIE)
			return HM_CAT_PEER_LOCAL;
		/* AMD pre-Zen4 "local cache": L3 or a core of the same node */
		if (lvl & HM_LVL_HIT)
			return HM_CAT_LLC;
		return HM_CAT_MISS_OTHER;
	}
	if ((lvl & HM_LVL_MISS) && !(lvl & HM_LVL_HIT))
		return HM_CAT_MISS_OTHER;
	if ((lvl & HM_LVL_L3) || ln == HM_LVLNUM_L3)
		return HM_CAT_LLC;
	if ((lvl & HM_LVL_L2) || ln == HM_LVLNUM_L2 || ln == HM_LVLNUM_L2_MHB)
		return HM_CAT_L2;
	if ((lvl & HM_LVL_LFB) || ln == HM_LVLNUM_LFB)
		return HM_CAT_LFB;
	if ((lvl & HM_LVL_L1) || ln == HM_LVLNUM_L1 || ln == HM_LVLNUM_L0)
		return HM_CAT_L1;
	return HM_CAT_MISS_OTHER;
}

void hm_mem__classify(enum hm_vendor v, u64 data_src, u64 daddr, struct hm_mem_class *c)
{
	struct hm_data_src d;

	hm_data_src__decode(data_src, &d);
	c->load = d.op & HM_OP_LOAD;
	c->store = !c->load && (d.op & HM_OP_STORE);
	c->locked = d.lock & HM_LOCK_LOCKED;
	c->hitm = false;
	c->remote = false;

	if (!c->load && !c->store) {
		c->cat = HM_CAT_NONE;
		return;
	}
	if (!daddr) {
		c->cat = HM_CAT_NOADDR;
		return;
	}
	if (c->store) {
		bool l1 = (d.lvl & HM_LVL_L1) || d.lvl_num == HM_LVLNUM_L1;

		if (l1 && (d.lvl & HM_LVL_HIT))
			c->cat = HM_CAT_STORE_L1HIT;
		else if (l1 && (d.lvl & HM_LVL_MISS))
			c->cat = HM_CAT_STORE_L1MISS;
		else
			c->cat = HM_CAT_STORE_OTHER;
		return;
	}
	c->cat = classify_load(v, &d);
	c->hitm = c->cat == HM_CAT_HITM_LOCAL || c->cat == HM_CAT_HITM_XDIE ||
		  c->cat == HM_CAT_HITM_REMOTE;
	c->remote = c->cat == HM_CAT_HITM_REMOTE || c->cat == HM_CAT_PEER_REMOTE ||
		    c->cat == HM_CAT_HIT_REMOTE || c->cat == HM_CAT_DRAM_REMOTE ||
		    ((c->cat == HM_CAT_PMEM || c->cat == HM_CAT_CXL || c->cat == HM_CAT_IO) &&
		     distance(v, &d) == D_REMOTE);
}
