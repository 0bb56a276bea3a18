// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sampling model and the perf.data it produces.
 *
 * Intel: two PEBS events like perf c2c record: mem-loads with ldlat (only
 * loads whose latency exceeds ldlat are counted) and mem-stores, each sampled
 * every --period events per CPU.  AMD: one IBS op event over every memory op
 * (Zen 4 has no ldlat filter in these kernels).  Arm: SPE samples every
 * --period-th memory op and drops loads under min_latency.
 *
 * data_src is what the kernel (Intel, AMD) or perf's SPE decoder (Arm)
 * writes for that source, from these tables:
 *   Intel SKL  arch/x86/events/intel/ds.c pebs_data_source[] with the
 *              __intel_pmu_pebs_data_source_skl overrides, load_latency_data()
 *              (TLB and lock bits, BLK_NA), stores precise_datala_hsw()
 *   Intel CMT  __intel_pmu_pebs_data_source_cmt + __grt_latency_data()
 *   AMD Zen 4  arch/x86/events/amd/ibs.c g_zen4_data_src, perf_ibs_get_mem_snoop,
 *              _tlb_lvl, _mem_lock; data_src starts as PERF_MEM_NA
 *   Arm SPE    tools/perf/util/arm-spe.c arm_spe__synth_data_source_common
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "sim/coherence.h"
#include "sim/spe-out.h"

#define P(a, b)		PERF_MEM_S(a, b)
#define OP_LH		(P(OP, LOAD) | P(LVL, HIT))
#define LEVEL(x)	P(LVLNUM, x)
#define REM		P(REMOTE, REMOTE)
#define SNOOP_NONE_MISS	(P(SNOOP, NONE) | P(SNOOP, MISS))
#define HOPS0		P(HOPS, 0)
#define HOPS1		P(HOPS, 1)
#define MEM_NA		(P(OP, NA) | P(LVL, NA) | P(SNOOP, NA) | P(LOCK, NA) | P(TLB, NA))

/* Sandy Bridge+ base table (pebs_data_source[]). */
static const u64 pebs_base[16] = {
	P(OP, LOAD) | P(LVL, MISS) | LEVEL(L3) | P(SNOOP, NA),
	OP_LH | P(LVL, L1)  | LEVEL(L1) | P(SNOOP, NONE),
	OP_LH | P(LVL, LFB) | LEVEL(LFB) | P(SNOOP, NONE),
	OP_LH | P(LVL, L2)  | LEVEL(L2) | P(SNOOP, NONE),
	OP_LH | P(LVL, L3)  | LEVEL(L3) | P(SNOOP, NONE),
	OP_LH | P(LVL, L3)  | LEVEL(L3) | P(SNOOP, MISS),
	OP_LH | P(LVL, L3)  | LEVEL(L3) | P(SNOOP, HIT),
	OP_LH | P(LVL, L3)  | LEVEL(L3) | P(SNOOP, HITM),
	OP_LH | P(LVL, REM_CCE1) | REM | LEVEL(L3) | P(SNOOP, HIT),
	OP_LH | P(LVL, REM_CCE1) | REM | LEVEL(L3) | P(SNOOP, HITM),
	OP_LH | P(LVL, LOC_RAM)  | LEVEL(RAM) | P(SNOOP, HIT),
	OP_LH | P(LVL, REM_RAM1) | REM | LEVEL(L3) | P(SNOOP, HIT),
	OP_LH | P(LVL, LOC_RAM)  | LEVEL(RAM) | SNOOP_NONE_MISS,
	OP_LH | P(LVL, REM_RAM1) | LEVEL(RAM) | REM | SNOOP_NONE_MISS,
	OP_LH | P(LVL, IO)  | LEVEL(NA) | P(SNOOP, NONE),
	OP_LH | P(LVL, UNC) | LEVEL(NA) | P(SNOOP, NONE),
};

static u64 intel_table(enum hm_sim_pmu pmu, u32 dse)
{
	if (pmu == HM_PMU_INTEL_SKL) {
		switch (dse) {
		case 0x08: return OP_LH | LEVEL(L4) | P(SNOOP, HIT);
		case 0x09: return OP_LH | LEVEL(L4) | REM | P(SNOOP, HIT);
		case 0x0b: return OP_LH | LEVEL(RAM) | REM | P(SNOOP, NONE);
		case 0x0c: return OP_LH | LEVEL(ANY_CACHE) | REM | P(SNOOPX, FWD);
		case 0x0d: return OP_LH | LEVEL(ANY_CACHE) | REM | P(SNOOP, HITM);
		}
	} else {
		switch (dse) {
		case 0x07: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOPX, FWD);
		case 0x08: return OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM);
		case 0x0a: return OP_LH | P(LVL, LOC_RAM) | LEVEL(RAM) | P(SNOOP, NONE);
		case 0x0b: return OP_LH | LEVEL(RAM) | REM | P(SNOOP, NONE);
		case 0x0c: return OP_LH | LEVEL(RAM) | REM | P(SNOOPX, FWD);
		case 0x0d: return OP_LH | LEVEL(RAM) | REM | P(SNOOP, HITM);
		}
	}
	return pebs_base[dse & 15];
}

/* The PEBS data source code the hardware reports for a source. */
static u32 intel_dse(enum hm_sim_pmu pmu, u8 src)
{
	bool skl = pmu == HM_PMU_INTEL_SKL;

	switch (src) {
	case HM_SRC_L1:		return 0x01;
	case HM_SRC_LFB:	return 0x02;
	case HM_SRC_L2:		return 0x03;
	case HM_SRC_LLC:	return 0x04;
	case HM_SRC_HITM_LOCAL:
	case HM_SRC_HITM_XDIE:	return skl ? 0x07 : 0x08;
	case HM_SRC_HIT_XDIE:	return skl ? 0x06 : 0x07;
	case HM_SRC_HITM_REMOTE: return 0x0d;
	case HM_SRC_HIT_REMOTE:	return 0x0c;
	case HM_SRC_DRAM_LOCAL:	return 0x0a;
	case HM_SRC_DRAM_REMOTE: return 0x0b;
	}
	return 0;
}

static void tlb_lock(u64 *v, bool locked)
{
	*v |= P(TLB, HIT) | P(TLB, L1) | P(TLB, L2);	/* pebs_set_tlb_lock, no STLB miss */
	if (locked)
		*v |= P(LOCK, LOCKED);
}

/* IBS DataSrc for a source (Zen 4 extended codes). */
enum { IBS_LOC_CACHE = 1, IBS_NEAR_CCX = 2, IBS_DRAM = 3, IBS_FAR_CCX = 5 };

u64 hm_sim__data_src(enum hm_sim_pmu pmu, enum hm_acc a, bool store_part, u8 src,
		     bool l1_hit, bool locked)
{
	bool store = store_part || a == HM_ACC_STORE;
	u64 v;

	switch (pmu) {
	case HM_PMU_INTEL_SKL:
	case HM_PMU_INTEL_CMT:
		if (store && pmu == HM_PMU_INTEL_SKL) {
			/* precise_datala_hsw(): PERF_MEM_NA, op STORE, L1 hit or miss */
			v = MEM_NA & ~(P(OP, NA) | P(LVL, NA));
			v |= P(OP, STORE) | P(LVL, L1) | (l1_hit ? P(LVL, HIT) : P(LVL, MISS));
			return v;
		}
		if (!store)
			v = intel_table(pmu, intel_dse(pmu, src));
		else if (l1_hit)
			v = intel_table(pmu, 0x01);
		else
			v = intel_table(pmu, src == HM_SRC_L1 ? 0x04 : intel_dse(pmu, src));
		tlb_lock(&v, locked);
		/* CMT: __grt_latency_data without a forward block; SKL: no pebs_block */
		v |= P(BLK, NA);
		if (store) {
			/* the table is for loads: op becomes STORE (store_latency_data) */
			v &= ~(0x1fULL << PERF_MEM_OP_SHIFT);
			v |= P(OP, STORE);
		}
		return v;
	case HM_PMU_AMD_ZEN4: {
		u64 lvl = 0, snoop = PERF_MEM_SNOOP_NA;
		int ds = 0;
		bool m_state = src == HM_SRC_HITM_LOCAL || src == HM_SRC_HITM_XDIE ||
			       src == HM_SRC_HITM_REMOTE;

		v = MEM_NA;
		v &= ~((0x1fULL << PERF_MEM_OP_SHIFT) | (0x3fffULL << PERF_MEM_LVL_SHIFT) |
		       (0xfULL << PERF_MEM_LVLNUM_SHIFT) | (0x1fULL << PERF_MEM_SNOOP_SHIFT) |
		       (0x7fULL << PERF_MEM_TLB_SHIFT) | (0x3ULL << PERF_MEM_LOCK_SHIFT));
		/* a locked RMW is an ld_op: LOAD */
		v |= store && a == HM_ACC_STORE ? P(OP, STORE) : P(OP, LOAD);
		if (store && a == HM_ACC_STORE) {
			if (l1_hit)
				lvl = P(LVL, L1) | P(LVL, HIT) | LEVEL(L1);
			else if (src == HM_SRC_L2)
				lvl = P(LVL, L2) | P(LVL, HIT) | LEVEL(L2);
			else
				lvl = P(LVL, NA) | LEVEL(NA);	/* check_mab: no MAB hit */
		} else {
			switch (src) {
			case HM_SRC_L1:		lvl = P(LVL, L1) | P(LVL, HIT) | LEVEL(L1); break;
			case HM_SRC_L2:		lvl = P(LVL, L2) | P(LVL, HIT) | LEVEL(L2); break;
			case HM_SRC_LFB:	lvl = P(LVL, LFB) | P(LVL, HIT) | LEVEL(LFB); break;
			case HM_SRC_LLC:
			case HM_SRC_HITM_LOCAL:	ds = IBS_LOC_CACHE;
						lvl = P(LVL, L3) | P(LVL, HIT) | LEVEL(L3); break;
			case HM_SRC_HITM_XDIE:
			case HM_SRC_HIT_XDIE:	ds = IBS_NEAR_CCX;
						lvl = P(LVL, REM_CCE1) | P(LVL, HIT) | LEVEL(ANY_CACHE) | REM | HOPS0; break;
			case HM_SRC_HITM_REMOTE:
			case HM_SRC_HIT_REMOTE:	ds = IBS_FAR_CCX;
						lvl = P(LVL, REM_CCE2) | P(LVL, HIT) | LEVEL(ANY_CACHE) | REM | HOPS1; break;
			case HM_SRC_DRAM_LOCAL:	ds = IBS_DRAM;
						lvl = P(LVL, LOC_RAM) | P(LVL, HIT) | LEVEL(RAM); break;
			case HM_SRC_DRAM_REMOTE: ds = IBS_DRAM;
						lvl = P(LVL, REM_RAM1) | P(LVL, HIT) | LEVEL(RAM) | REM | HOPS1; break;
			}
			/* cache_hit_st == 0 (M state) from a cache: HITM (perf_ibs_get_mem_snoop) */
			if (m_state && (ds == IBS_LOC_CACHE || ds == IBS_NEAR_CCX || ds == IBS_FAR_CCX))
				snoop = PERF_MEM_SNOOP_HITM;
		}
		v |= lvl;
		v |= (u64)snoop << PERF_MEM_SNOOP_SHIFT;
		v |= P(TLB, L1) | P(TLB, HIT);
		v |= locked ? P(LOCK, LOCKED) : P(LOCK, NA);
		return v;
	}
	case HM_PMU_ARM_SPE:
		v = 0;
		if (store && a == HM_ACC_STORE) {
			v = P(OP, STORE) | P(LVL, NA) | LEVEL(NA) | P(SNOOP, NA);
		} else {
			v = P(OP, LOAD);
			switch (src) {
			case HM_SRC_L1:
			case HM_SRC_LFB:
				v |= P(LVL, L1) | P(LVL, HIT) | LEVEL(L1) | P(SNOOP, NONE); break;
			case HM_SRC_L2:
				v |= P(LVL, L2) | P(LVL, HIT) | LEVEL(L2) | P(SNOOP, NONE); break;
			case HM_SRC_HITM_LOCAL:		/* ARM_SPE_COMMON_DS_PEER_CORE */
				v |= P(LVL, L2) | P(LVL, HIT) | LEVEL(L2) | P(SNOOPX, PEER); break;
			case HM_SRC_HITM_XDIE:
			case HM_SRC_HIT_XDIE:		/* PEER_CLUSTER */
				v |= P(LVL, L3) | P(LVL, HIT) | LEVEL(L3) | P(SNOOPX, PEER); break;
			case HM_SRC_LLC:		/* SYS_CACHE */
				v |= P(LVL, L3) | P(LVL, HIT) | LEVEL(L3) | P(SNOOP, HIT); break;
			case HM_SRC_HITM_REMOTE:
			case HM_SRC_HIT_REMOTE:
			case HM_SRC_DRAM_REMOTE:	/* REMOTE: other socket, level unknown */
				v |= P(LVL, NA) | LEVEL(NA) | REM | P(SNOOPX, PEER); break;
			case HM_SRC_DRAM_LOCAL:		/* DRAM */
				v |= P(LVL, LOC_RAM) | P(LVL, HIT) | LEVEL(RAM) | P(SNOOP, NONE); break;
			}
		}
		v |= P(TLB, WK) | P(TLB, HIT);
		return v;
	}
	return MEM_NA;
}

enum hm_mem_cat hm_sim__category(enum hm_sim_pmu pmu, bool store_part, u8 src, bool l1_hit)
{
	if (store_part) {
		switch (pmu) {
		case HM_PMU_INTEL_SKL:
			return l1_hit ? HM_CAT_STORE_L1HIT : HM_CAT_STORE_L1MISS;
		case HM_PMU_INTEL_CMT:
			return l1_hit ? HM_CAT_STORE_L1HIT : HM_CAT_STORE_OTHER;
		case HM_PMU_AMD_ZEN4:
			return l1_hit ? HM_CAT_STORE_L1HIT : HM_CAT_STORE_OTHER;
		case HM_PMU_ARM_SPE:
			return HM_CAT_STORE_OTHER;
		}
	}
	switch (src) {
	case HM_SRC_L1:		return HM_CAT_L1;
	case HM_SRC_LFB:	return pmu == HM_PMU_ARM_SPE ? HM_CAT_L1 : HM_CAT_LFB;
	case HM_SRC_L2:		return HM_CAT_L2;
	case HM_SRC_LLC:	return HM_CAT_LLC;
	case HM_SRC_HITM_LOCAL:
		return pmu == HM_PMU_ARM_SPE ? HM_CAT_PEER_LOCAL : HM_CAT_HITM_LOCAL;
	case HM_SRC_HITM_XDIE:
		if (pmu == HM_PMU_ARM_SPE)
			return HM_CAT_PEER_LOCAL;
		return pmu == HM_PMU_AMD_ZEN4 ? HM_CAT_HITM_XDIE : HM_CAT_HITM_LOCAL;
	case HM_SRC_HIT_XDIE:
		return pmu == HM_PMU_INTEL_SKL || pmu == HM_PMU_INTEL_CMT ? HM_CAT_LLC : HM_CAT_PEER_LOCAL;
	case HM_SRC_HITM_REMOTE:
		return pmu == HM_PMU_ARM_SPE ? HM_CAT_PEER_REMOTE : HM_CAT_HITM_REMOTE;
	case HM_SRC_HIT_REMOTE:
		return pmu == HM_PMU_ARM_SPE ? HM_CAT_PEER_REMOTE : HM_CAT_HIT_REMOTE;
	case HM_SRC_DRAM_LOCAL:	return HM_CAT_DRAM_LOCAL;
	case HM_SRC_DRAM_REMOTE:
		return pmu == HM_PMU_ARM_SPE ? HM_CAT_PEER_REMOTE : HM_CAT_DRAM_REMOTE;
	}
	return HM_CAT_MISS_OTHER;
}

/* ------------------------------------------------------------ the file */

struct hm_sampler {
	struct hm_sim		*s;
	struct hm_writer	*w;
	int			ev_load, ev_store;	/* evsel index; AMD/Arm: both the same */
	u64			nr_samples;
	u64			since_round;
	struct hm_header	h;
	struct hm_meta		*meta;
	struct hm_sim_spe	*spe;		/* Arm: samples as SPE AUX data */
};

static int add_events(struct hm_sampler *sp)
{
	const struct hm_sim *s = sp->s;
	const struct hm_machine *m = &s->m;
	struct perf_event_attr a;
	char name[160];
	u64 st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		 PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
		 PERF_SAMPLE_PHYS_ADDR;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sample_period = s->o.period;
	a.sample_type = st | (m->vendor == HM_VENDOR_ARM ? PERF_SAMPLE_WEIGHT : PERF_SAMPLE_WEIGHT_STRUCT);
	a.read_format = PERF_FORMAT_ID;
	a.disabled = 1;
	a.inherit = 1;
	a.mmap = 1;
	a.comm = 1;
	a.task = 1;
	a.sample_id_all = 1;
	a.mmap2 = 1;
	a.mmap_data = 1;
	a.exclude_guest = 1;
	a.comm_exec = 1;
	switch (m->pmu) {
	case HM_PMU_INTEL_SKL:
	case HM_PMU_INTEL_CMT:
		a.type = PERF_TYPE_RAW;
		a.precise_ip = 3;
		a.config = m->pmu == HM_PMU_INTEL_SKL ? 0x1cd : 0x5d0;	/* mem-loads */
		a.config1 = s->o.ldlat;
		snprintf(name, sizeof(name), "cpu/mem-loads,ldlat=%u/P", s->o.ldlat);
		sp->ev_load = hm_writer__add_evsel(sp->w, &a, name, NULL, 0);
		if (sp->ev_load < 0)
			return sp->ev_load;
		a.mmap = a.comm = a.task = a.mmap2 = a.comm_exec = 0;
		a.config = m->pmu == HM_PMU_INTEL_SKL ? 0x82d0 : 0x6d0;	/* mem-stores */
		a.config1 = 0;
		sp->ev_store = hm_writer__add_evsel(sp->w, &a, "cpu/mem-stores/P", NULL, 0);
		return sp->ev_store < 0 ? sp->ev_store : 0;
	case HM_PMU_AMD_ZEN4:
		a.type = m->pmu_type;
		a.config = 0;
		sp->ev_load = sp->ev_store = hm_writer__add_evsel(sp->w, &a, "ibs_op//", NULL, 0);
		return sp->ev_load < 0 ? sp->ev_load : 0;
	case HM_PMU_ARM_SPE:
		a.type = m->pmu_type;
		a.config = (1ULL << 0) | (1ULL << 1) | (1ULL << 33) | (1ULL << 34);
		a.config2 = s->o.ldlat;
		snprintf(name, sizeof(name),
			 "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=%u/",
			 s->o.ldlat);
		sp->ev_load = sp->ev_store = hm_writer__add_evsel(sp->w, &a, name, NULL, 0);
		return sp->ev_load < 0 ? sp->ev_load : 0;
	}
	return -EINVAL;
}

static int side_records(struct hm_sampler *sp)
{
	const struct hm_sim *s = sp->s;
	u32 i;
	int err;

	/* the kernel map, as perf record synthesizes it */
	err = hm_writer__write_mmap2(sp->w, (u32)-1, 0, 0xffffffff81000000ULL, 0x7e000000ULL,
				     0xffffffff81000000ULL, 5, 0, "[kernel.kallsyms]_text",
				     PERF_RECORD_MISC_KERNEL);
	if (err)
		return err;
	err = hm_writer__write_comm(sp->w, s->pid, s->pid, "perf");
	if (err)
		return err;
	err = hm_writer__write_mmap2(sp->w, s->pid, s->pid, s->lay.heap,
				     (s->lay.heap_len + 4095) & ~4095ULL, 0, 3, 2, "[heap]",
				     PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	if (err)
		return err;
	for (i = 0; i < s->nr_threads; i++) {
		err = hm_writer__write_comm(sp->w, s->pid, s->th[i].tid, "perf");
		if (err)
			return err;
	}
	return 0;
}

struct hm_sampler *hm_sampler__new(struct hm_sim *s, const char *path)
{
	struct hm_sampler *sp = calloc(1, sizeof(*sp));
	int err = -ENOMEM;

	if (!sp)
		goto fail;
	sp->s = s;
	sp->w = hm_writer__new(path);
	if (!sp->w) {
		err = -errno;
		goto fail;
	}
	err = add_events(sp);
	if (err)
		goto fail;
	if (s->m.pmu == HM_PMU_ARM_SPE && !s->o.spe_samples) {
		sp->spe = hm_sim_spe__new(sp->w, &s->m, 1, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					  PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
					  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
					  PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR |
					  PERF_SAMPLE_WEIGHT);
		if (!sp->spe) {
			err = -errno;
			goto fail;
		}
	}
	err = side_records(sp);
	if (err)
		goto fail;
	return sp;
fail:
	hm_sampler__delete(sp);
	errno = err < 0 ? -err : ENOMEM;
	return NULL;
}

void hm_sampler__delete(struct hm_sampler *sp)
{
	if (!sp)
		return;
	hm_writer__delete(sp->w);
	hm_sim_spe__delete(sp->spe);
	hm_meta__delete(sp->meta);
	hm_header__release(&sp->h);
	free(sp);
}

static int write_one(struct hm_sampler *sp, int ev, const struct hm_sample_in *in, u64 ds)
{
	const struct hm_sim *s = sp->s;
	struct hm_sample smp;
	bool load = !in->store_part && in->acc != HM_ACC_STORE;
	int err;

	memset(&smp, 0, sizeof(smp));
	smp.misc = in->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	smp.ip = in->ip;
	smp.pid = s->pid;
	smp.tid = in->tid;
	smp.time = 1000000000000ULL + in->time;
	smp.addr = in->addr;
	smp.cpu = in->cpu;
	smp.period = s->o.period;
	smp.data_src = ds;
	smp.phys_addr = hm_sim__paddr(s, in->addr);
	switch (s->m.pmu) {
	case HM_PMU_INTEL_SKL:
	case HM_PMU_INTEL_CMT:
		smp.weight = load ? in->r->weight : 0;
		break;
	case HM_PMU_AMD_ZEN4:
		/* dc_miss_lat and tag_to_ret only for loads that missed the DC */
		if (load && in->r->src != HM_SRC_L1) {
			smp.weight = in->r->weight;
			smp.ins_lat = (u16)(in->r->weight + 8);
		}
		break;
	case HM_PMU_ARM_SPE:
		smp.weight = load ? in->r->weight : s->m.lat[HM_LAT_STORE];
		break;
	}
	err = hm_writer__write_sample(sp->w, ev, &smp);
	if (err)
		return err;
	sp->nr_samples++;
	if (++sp->since_round == 1024) {
		sp->since_round = 0;
		err = hm_writer__write_finished_round(sp->w);
	}
	return err;
}

int hm_sampler__write(struct hm_sampler *sp, const struct hm_sample_in *in,
		      u64 *data_src, enum hm_mem_cat *cat)
{
	const struct hm_sim *s = sp->s;
	enum hm_sim_pmu pmu = s->m.pmu;
	bool load = !in->store_part && in->acc != HM_ACC_STORE;
	int ev, err;

	if (pmu == HM_PMU_ARM_SPE && load && in->r->weight < s->o.ldlat)
		return 0;	/* SPE min_latency filter drops the sampled op */
	ev = load ? sp->ev_load : sp->ev_store;
	*data_src = hm_sim__data_src(pmu, in->acc, in->store_part, in->r->src, in->r->l1_hit,
				     in->locked);
	*cat = hm_sim__category(pmu, !load, in->r->src, in->r->l1_hit);
	if (sp->spe) {
		err = hm_sim_spe__write(sp->spe, in, s->pid, 1000000000000ULL + in->time,
					hm_sim__paddr(s, in->addr),
					load ? in->r->weight : s->m.lat[HM_LAT_STORE], data_src);
		if (!err)
			sp->nr_samples++;
		return err ? err : 1;
	}
	err = write_one(sp, ev, in, *data_src);
	return err ? err : 1;
}

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

/* "0-3,8-11" for the CPUs of @sock (and, with @core >= 0, of that core only). */
static char *cpulist(const struct hm_machine *m, int sock, int core)
{
	size_t cap = 64, len = 0;
	char *b = malloc(cap);
	u32 t;

	if (!b)
		return NULL;
	b[0] = 0;
	for (t = 0; t < m->smt; t++) {
		u32 first, last;
		char tmp[32];
		int n;

		if (core >= 0) {
			first = last = hm_machine__cpu(m, (u32)core, t);
		} else {
			first = hm_machine__cpu(m, (u32)sock * m->cores, t);
			last = first + m->cores - 1;
		}
		if (first == last)
			n = snprintf(tmp, sizeof(tmp), "%s%u", len ? "," : "", first);
		else
			n = snprintf(tmp, sizeof(tmp), "%s%u-%u", len ? "," : "", first, last);
		if (len + n + 1 > cap) {
			char *nb;

			cap = (len + n + 1) * 2;
			nb = realloc(b, cap);
			if (!nb) {
				free(b);
				return NULL;
			}
			b = nb;
		}
		memcpy(b + len, tmp, n + 1);
		len += n;
	}
	return b;
}

static int fill_header(struct hm_sampler *sp)
{
	const struct hm_sim *s = sp->s;
	const struct hm_machine *m = &s->m;
	struct hm_header *h = &sp->h;
	char buf[256];
	u32 i, n;
	u64 blocks_per_node = m->node_mem / HM_SIM_MEM_BLOCK;
	int err;
	void *mb;
	u64 msize;

	snprintf(buf, sizeof(buf), "sim-%s", m->name);
	h->hostname = xstrdup(buf);
	h->osrelease = xstrdup(s->release);
	h->version = xstrdup("6.1.0 (hitmap simulate)");
	h->arch = xstrdup(m->arch);
	h->cpudesc = xstrdup(m->cpudesc);
	h->cpuid = xstrdup(m->cpuid);
	h->nr_cpus_avail = h->nr_cpus_online = m->nr_cpus;
	h->total_mem_kb = m->node_mem * m->sockets / 1024;
	h->cmdline_argc = 1;
	h->cmdline_argv = calloc(1, sizeof(char *));
	if (!h->cmdline_argv)
		return -ENOMEM;
	h->cmdline_argv[0] = xstrdup(s->o.cmdline ? s->o.cmdline : "hitmap simulate");
	/* CPU_TOPOLOGY */
	h->nr_package_cpus = h->nr_die_cpus = m->sockets;
	h->nr_core_cpus = m->nr_cores;
	h->package_cpus = calloc(m->sockets, sizeof(char *));
	h->die_cpus = calloc(m->sockets, sizeof(char *));
	h->core_cpus = calloc(m->nr_cores, sizeof(char *));
	h->cpu = calloc(m->nr_cpus, sizeof(*h->cpu));
	h->numa = calloc(m->sockets, sizeof(*h->numa));
	h->mem = calloc(m->sockets, sizeof(*h->mem));
	if (!h->package_cpus || !h->die_cpus || !h->core_cpus || !h->cpu || !h->numa || !h->mem)
		return -ENOMEM;
	for (i = 0; i < m->sockets; i++) {
		h->package_cpus[i] = cpulist(m, (int)i, -1);
		h->die_cpus[i] = cpulist(m, (int)i, -1);
	}
	for (i = 0; i < m->nr_cores; i++)
		h->core_cpus[i] = cpulist(m, 0, (int)i);
	for (i = 0; i < m->nr_cpus; i++) {
		h->cpu[i].core_id = (int)(m->cpu_core[i] % m->cores);
		h->cpu[i].socket_id = (int)m->cpu_socket[i];
		h->cpu[i].die_id = (int)m->cpu_socket[i];
	}
	/* NUMA_TOPOLOGY and MEM_TOPOLOGY: one node per socket */
	h->nr_numa_nodes = m->sockets;
	h->mem_block_size = HM_SIM_MEM_BLOCK;
	h->nr_mem_nodes = m->sockets;
	for (i = 0; i < m->sockets; i++) {
		struct hm_mem_node *mn = &h->mem[i];
		u64 b;

		h->numa[i].node = i;
		h->numa[i].mem_total_kb = m->node_mem / 1024;
		h->numa[i].mem_free_kb = m->node_mem / 2048;
		h->numa[i].cpus = cpulist(m, (int)i, -1);
		mn->node = i;
		mn->nbits = blocks_per_node * (i + 1);
		mn->bitmap = calloc((mn->nbits + 63) / 64, sizeof(u64));
		if (!mn->bitmap || !h->numa[i].cpus)
			return -ENOMEM;
		for (b = blocks_per_node * i; b < mn->nbits; b++)
			mn->bitmap[b / 64] |= 1ULL << (b % 64);
	}
	for (i = 0; i < m->sockets; i++)
		if (!h->package_cpus[i] || !h->die_cpus[i])
			return -ENOMEM;
	for (i = 0; i < m->nr_cores; i++)
		if (!h->core_cpus[i])
			return -ENOMEM;
	/* hitmap's metadata: tables, layout, symbols, mode, kernel, workload */
	sp->meta = hm_meta__new();
	if (!sp->meta)
		return -ENOMEM;
	err = hm_futex_model__to_meta(&s->fm, sp->meta);
	if (err)
		return err;
	err = hm_meta__add(sp->meta, HM_META_KSYMS, s->ksyms, (u32)s->ksyms_len);
	if (!err)
		err = hm_meta__add(sp->meta, HM_META_RECORD_MODE, "simulate", 8);
	if (!err)
		err = hm_meta__add(sp->meta, HM_META_KERNEL, s->release, (u32)strlen(s->release));
	if (!err) {
		n = (u32)snprintf(buf, sizeof(buf),
				  "{\"ops\":%llu,\"threads\":%u,\"futexes\":%u,\"ops_per_sec_thread\":%.0f,\"samples\":%llu}",
				  (unsigned long long)s->res.ops, s->nr_threads, s->o.futexes,
				  s->res.ops_per_sec_thread, (unsigned long long)sp->nr_samples);
		err = hm_meta__add(sp->meta, HM_META_WORKLOAD, buf, n);
	}
	if (err)
		return err;
	err = hm_meta__serialize(sp->meta, &mb, &msize);
	if (err)
		return err;
	h->hitmap_meta = mb;
	h->hitmap_meta_size = msize;
	return 0;
}

int hm_sampler__close(struct hm_sampler *sp)
{
	int err;

	sp->s->res.samples = sp->nr_samples;
	err = hm_sim_spe__flush(sp->spe);
	if (!err)
		err = hm_writer__write_finished_round(sp->w);
	if (!err)
		err = fill_header(sp);
	if (!err)
		err = hm_writer__set_header(sp->w, &sp->h);
	if (!err)
		err = hm_writer__close(sp->w);
	return err;
}
