// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arm SPE packets -> records -> data_src.
 *
 * The packet format is the Arm ARM's; how packets form a record (a record
 * ends at its TIMESTAMP or END packet), how addresses are widened and how
 * perf 7.3 turns a record into a data_src (MIDR-chosen data source tables,
 * then memory levels from the events for loads and stores separately, HITM
 * from the SNOOPED and HITM events, remote from REMOTE_ACCESS) follow
 * tools/perf/util/arm-spe*.c of Linux 7.3 so that hitmap and perf agree.
 */
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

#include "perfdata/spe-decode.h"

static const char *const pkt_names[] = {
	[HM_SPE_PKT_BAD] = "BAD", [HM_SPE_PKT_PAD] = "PAD", [HM_SPE_PKT_END] = "END",
	[HM_SPE_PKT_TIMESTAMP] = "TS", [HM_SPE_PKT_ADDRESS] = "ADDR",
	[HM_SPE_PKT_COUNTER] = "LAT", [HM_SPE_PKT_CONTEXT] = "CONTEXT",
	[HM_SPE_PKT_OP_TYPE] = "OP-TYPE", [HM_SPE_PKT_EVENTS] = "EVENTS",
	[HM_SPE_PKT_DATA_SOURCE] = "DATA-SOURCE",
};

const char *hm_spe_pkt__name(enum hm_spe_pkt_type t)
{
	return (unsigned)t < sizeof(pkt_names) / sizeof(pkt_names[0]) ? pkt_names[t] : "?";
}

/* The payload size field (bits 5:4) in bytes */
static unsigned payload_len(u8 hdr)
{
	return 1u << ((hdr >> 4) & 3);
}

static int get_payload(const u8 *buf, size_t len, unsigned ext, struct hm_spe_pkt *pkt)
{
	unsigned n = payload_len(buf[ext]);
	u64 v = 0;

	if (len < 1 + ext + n)
		return HM_SPE_NEED_MORE;
	/* little-endian whatever the host */
	for (unsigned i = 0; i < n; i++)
		v |= (u64)buf[1 + ext + i] << (8 * i);
	pkt->payload = v;
	return (int)(1 + ext + n);
}

int hm_spe_pkt__get(const u8 *buf, size_t len, struct hm_spe_pkt *pkt)
{
	unsigned hdr, ext = 0;

	memset(pkt, 0, sizeof(*pkt));
	if (!len)
		return HM_SPE_NEED_MORE;
	hdr = buf[0];
	if (hdr == HM_SPE_HDR_PAD) {
		pkt->type = HM_SPE_PKT_PAD;
		return 1;
	}
	if (hdr == HM_SPE_HDR_END) {
		pkt->type = HM_SPE_PKT_END;
		return 1;
	}
	if (hdr == HM_SPE_HDR_TIMESTAMP) {
		pkt->type = HM_SPE_PKT_TIMESTAMP;
		return get_payload(buf, len, 0, pkt);
	}
	if ((hdr & 0xcf) == HM_SPE_HDR_EVENTS) {
		pkt->type = HM_SPE_PKT_EVENTS;
		pkt->index = payload_len(hdr);
		return get_payload(buf, len, 0, pkt);
	}
	if ((hdr & 0xcf) == HM_SPE_HDR_SOURCE) {
		pkt->type = HM_SPE_PKT_DATA_SOURCE;
		return get_payload(buf, len, 0, pkt);
	}
	if ((hdr & 0xfc) == HM_SPE_HDR_CONTEXT) {
		pkt->type = HM_SPE_PKT_CONTEXT;
		pkt->index = hdr & 3;
		return get_payload(buf, len, 0, pkt);
	}
	if ((hdr & 0xfc) == HM_SPE_HDR_OP_TYPE) {
		pkt->type = HM_SPE_PKT_OP_TYPE;
		pkt->index = hdr & 3;
		return get_payload(buf, len, 0, pkt);
	}
	if ((hdr & 0xfc) == HM_SPE_HDR_EXTENDED) {
		if (len == 1)
			return HM_SPE_BAD_PACKET;
		ext = 1;
		hdr = buf[1];
		if (hdr == 0) {
			/* alignment: pad up to a 2^(n+1) boundary */
			unsigned align = 1u << ((buf[0] & 0xf) + 1);

			if (len < align)
				return HM_SPE_NEED_MORE;
			pkt->type = HM_SPE_PKT_PAD;
			return (int)(align - ((uintptr_t)buf & (align - 1)));
		}
	}
	if ((hdr & 0xf8) == HM_SPE_HDR_ADDRESS || (hdr & 0xf8) == HM_SPE_HDR_COUNTER) {
		pkt->type = (hdr & 0xf8) == HM_SPE_HDR_ADDRESS ? HM_SPE_PKT_ADDRESS
							       : HM_SPE_PKT_COUNTER;
		pkt->index = ext ? ((buf[0] & 3u) << 3) | (buf[1] & 7u) : (buf[0] & 7u);
		return get_payload(buf, len, ext, pkt);
	}
	return HM_SPE_BAD_PACKET;
}

u64 hm_spe__calc_addr(unsigned index, u64 payload)
{
	const u64 low56 = (1ULL << 56) - 1;

	if (index == HM_SPE_ADDR_INS || index == HM_SPE_ADDR_BRANCH ||
	    index == HM_SPE_ADDR_PREV_BRANCH) {
		unsigned ns = (unsigned)(payload >> 63) & 1, el = (unsigned)(payload >> 61) & 3;

		payload &= low56;
		/* EL1 or EL2 (VHE) in non-secure state: a kernel address */
		if (ns && (el == 1 || el == 2))
			payload |= 0xffULL << 56;
	} else if (index == HM_SPE_ADDR_DATA_VIRT) {
		payload &= low56;	/* the top byte is a tag */
		if (((payload >> 48) & 0xf0) == 0xf0)
			payload |= 0xffULL << 56;
	} else if (index == HM_SPE_ADDR_DATA_PHYS) {
		payload &= low56;
	}
	return payload;
}

void hm_spe_rdec__reset(struct hm_spe_rdec *d)
{
	memset(&d->rec, 0, sizeof(d->rec));
	d->rec.context_id = (u64)-1;
	d->started = false;
}

static void op_type(struct hm_spe_record *r, unsigned cls, u64 v)
{
	switch (cls) {
	case HM_SPE_OP_CLASS_LDST:
		r->op |= HM_SPE_OP_LDST;
		r->op |= (v & 1) ? HM_SPE_OP_ST : HM_SPE_OP_LD;
		if ((v & 0xfe) == 0x4 || (v & 0x0a) == 0x08)	/* SIMD&FP, SVE/SME */
			r->op |= HM_SPE_OP_SIMD;
		else if ((v & 0xe2) == 0x2) {			/* extended */
			if (v & 0x10)
				r->op |= HM_SPE_OP_AR;
			if (v & 0x08)
				r->op |= HM_SPE_OP_EXCL;
			if (v & 0x04)
				r->op |= HM_SPE_OP_ATOMIC;
		}
		break;
	case HM_SPE_OP_CLASS_OTHER:
		r->op |= HM_SPE_OP_OTHER;
		/* SVE or SME data processing; or other with the ASE flag */
		if ((v & 0x89) == 0x08 || (v & 0x89) == 0x88 ||
		    ((v & 0xf8) == 0 && (v & 0x4)))
			r->op |= HM_SPE_OP_SIMD;
		break;
	case HM_SPE_OP_CLASS_BRANCH:
		r->op |= HM_SPE_OP_BRANCH;
		break;
	default:
		break;
	}
}

int hm_spe_rdec__feed(struct hm_spe_rdec *d, const u8 *buf, size_t len, size_t *used)
{
	size_t pos = 0;

	while (pos < len) {
		struct hm_spe_pkt pkt;
		int n = hm_spe_pkt__get(buf + pos, len - pos, &pkt);

		if (n <= 0) {
			*used = pos;
			return HM_SPE_BAD_PACKET;
		}
		pos += (size_t)n;
		if (pkt.type == HM_SPE_PKT_PAD)
			continue;
		d->started = true;
		switch (pkt.type) {
		case HM_SPE_PKT_TIMESTAMP:
			d->rec.timestamp = pkt.payload;
			*used = pos;
			return 1;
		case HM_SPE_PKT_END:
			*used = pos;
			return 1;
		case HM_SPE_PKT_ADDRESS: {
			u64 a = hm_spe__calc_addr(pkt.index, pkt.payload);

			if (pkt.index == HM_SPE_ADDR_INS)
				d->rec.from_ip = a;
			else if (pkt.index == HM_SPE_ADDR_BRANCH)
				d->rec.to_ip = a;
			else if (pkt.index == HM_SPE_ADDR_DATA_VIRT)
				d->rec.virt_addr = a;
			else if (pkt.index == HM_SPE_ADDR_DATA_PHYS)
				d->rec.phys_addr = a;
			break;
		}
		case HM_SPE_PKT_COUNTER:
			if (pkt.index == HM_SPE_CNT_TOTAL_LAT)
				d->rec.latency = (u32)pkt.payload;
			else if (pkt.index == HM_SPE_CNT_ISSUE_LAT)
				d->rec.issue_lat = (u32)pkt.payload;
			else if (pkt.index == HM_SPE_CNT_TRANS_LAT)
				d->rec.trans_lat = (u32)pkt.payload;
			break;
		case HM_SPE_PKT_CONTEXT:
			d->rec.context_id = pkt.payload;
			break;
		case HM_SPE_PKT_OP_TYPE:
			op_type(&d->rec, pkt.index, pkt.payload);
			break;
		case HM_SPE_PKT_EVENTS:
			d->rec.events = pkt.payload;
			break;
		case HM_SPE_PKT_DATA_SOURCE:
			d->rec.source = (u16)pkt.payload;
			break;
		default:
			break;
		}
	}
	*used = pos;
	return 0;
}

/* ------------------------------------------------------------- data_src */

/* union perf_mem_data_src, field by field */
struct ds {
	u64 op, lvl, snoop, dtlb, lvl_num, remote, snoopx;
};

static u64 ds_pack(const struct ds *d)
{
	return d->op << PERF_MEM_OP_SHIFT | d->lvl << PERF_MEM_LVL_SHIFT |
	       d->snoop << PERF_MEM_SNOOP_SHIFT | d->dtlb << PERF_MEM_TLB_SHIFT |
	       d->lvl_num << PERF_MEM_LVLNUM_SHIFT | d->remote << PERF_MEM_REMOTE_SHIFT |
	       d->snoopx << PERF_MEM_SNOOPX_SHIFT;
}

#define MIDR_MODEL(m)	((m) & 0xff0ffff0ULL)

static const u64 common_ds_cpus[] = {
	0x410fd4d0, 0x410fd810, 0x410fd890, 0x410fd870, 0x410fd4b0,	/* A715 A720 A720AE A725 A78C */
	0x410fd440, 0x410fd4c0, 0x410fd4e0, 0x410fd820, 0x410fd850,	/* X1 X1C X3 X4 X925 */
	HM_MIDR_NEOVERSE_N1, HM_MIDR_NEOVERSE_N2, HM_MIDR_NEOVERSE_V1, HM_MIDR_NEOVERSE_V2,
	0x410fd840,							/* Neoverse V3 */
	0x4e0f0100,							/* NVIDIA Olympus */
};
#define MIDR_HISI_HIP12		0x480fd060ULL

static bool midr_in(u64 midr, const u64 *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (MIDR_MODEL(midr) == MIDR_MODEL(list[i]))
			return true;
	return false;
}

static void ds_common(u16 source, u32 op, struct ds *d)
{
	/* Neoverse records carry no level for stores */
	if (op & HM_SPE_OP_ST) {
		d->lvl = PERF_MEM_LVL_NA;
		d->lvl_num = PERF_MEM_LVLNUM_NA;
		d->snoop = PERF_MEM_SNOOP_NA;
		return;
	}
	switch (source) {
	case HM_SPE_DS_L1D:
		d->lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L1;
		d->snoop = PERF_MEM_SNOOP_NONE;
		break;
	case HM_SPE_DS_L2:
		d->lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L2;
		d->snoop = PERF_MEM_SNOOP_NONE;
		break;
	case HM_SPE_DS_PEER_CORE:
		d->lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L2;
		d->snoopx = PERF_MEM_SNOOPX_PEER;
		break;
	case HM_SPE_DS_LOCAL_CLUSTER:
	case HM_SPE_DS_PEER_CLUSTER:
		d->lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L3;
		d->snoopx = PERF_MEM_SNOOPX_PEER;
		break;
	case HM_SPE_DS_SYS_CACHE:
		d->lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L3;
		d->snoop = PERF_MEM_SNOOP_HIT;
		break;
	case HM_SPE_DS_REMOTE:
		d->lvl = PERF_MEM_LVL_NA;
		d->lvl_num = PERF_MEM_LVLNUM_NA;
		d->remote = PERF_MEM_REMOTE_REMOTE;
		d->snoopx = PERF_MEM_SNOOPX_PEER;
		break;
	case HM_SPE_DS_DRAM:
		d->lvl = PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_RAM;
		d->snoop = PERF_MEM_SNOOP_NONE;
		break;
	default:
		break;
	}
}

static void ds_ampereone(u16 source, u32 op, struct ds *d)
{
	static const signed char map[16] = {
		[0] = HM_SPE_DS_PEER_CORE, [1] = -1, [2] = -1, [3] = HM_SPE_DS_SYS_CACHE,
		[4] = -1, [5] = HM_SPE_DS_REMOTE, [6] = -1, [7] = HM_SPE_DS_DRAM,
		[8] = HM_SPE_DS_L1D, [9] = HM_SPE_DS_L2,
		[10] = -1, [11] = -1, [12] = -1, [13] = -1, [14] = -1, [15] = -1,
	};

	if (source >= 16 || map[source] < 0)
		return;
	ds_common((u16)map[source], op, d);
}

static void ds_hisi_hip(u16 source, u32 op, struct ds *d)
{
	if (op & HM_SPE_OP_ST) {
		ds_common(source, op, d);
		return;
	}
	switch (source) {
	case 0: case 1:		/* peer CPU (HITM) */
		d->lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L2;
		d->snoopx = PERF_MEM_SNOOPX_PEER;
		if (source == 1)
			d->snoop = PERF_MEM_SNOOP_HITM;
		break;
	case 2: case 3:		/* L3 (HITM) */
		d->lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L3;
		d->snoop = source == 3 ? PERF_MEM_SNOOP_HITM : PERF_MEM_SNOOP_HIT;
		break;
	case 4: case 5:		/* peer cluster (HITM) */
		d->lvl = PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L3;
		d->snoopx = PERF_MEM_SNOOPX_PEER;
		if (source == 5)
			d->snoop = PERF_MEM_SNOOP_HITM;
		break;
	case 6: case 7:		/* remote socket (HITM) */
		d->lvl = PERF_MEM_LVL_REM_CCE2;
		d->lvl_num = PERF_MEM_LVLNUM_ANY_CACHE;
		d->remote = PERF_MEM_REMOTE_REMOTE;
		d->snoopx = PERF_MEM_SNOOPX_PEER;
		if (source == 7)
			d->snoop = PERF_MEM_SNOOP_HITM;
		break;
	case 8:			/* local memory */
		d->lvl = PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_RAM;
		d->snoop = PERF_MEM_SNOOP_NONE;
		break;
	case 9:			/* remote memory */
		d->lvl = PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_RAM;
		d->remote = PERF_MEM_REMOTE_REMOTE;
		break;
	case 13:		/* non-cacheable device */
		d->lvl = PERF_MEM_LVL_IO | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_IO;
		d->snoop = PERF_MEM_SNOOP_NONE;
		break;
	case 16: case 17:	/* L2 (HITM) */
		d->lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L2;
		d->snoop = source == 17 ? PERF_MEM_SNOOP_HITM : PERF_MEM_SNOOP_NONE;
		break;
	case 18:
		d->lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L1;
		d->snoop = PERF_MEM_SNOOP_NONE;
		break;
	default:
		break;
	}
}

/* access without miss: a hit at that level */
static bool lvl_hit(u64 ev, u64 acc, u64 miss)
{
	return (ev & (acc | miss)) == acc;
}

static void ld_levels(u64 ev, struct ds *d)
{
	const u64 l1a = HM_SPE_EV(L1D_ACCESS), l1m = HM_SPE_EV(L1D_REFILL);
	const u64 l2a = HM_SPE_EV(L2D_ACCESS), l2m = HM_SPE_EV(L2D_MISS);
	const u64 lla = HM_SPE_EV(LLC_ACCESS), llm = HM_SPE_EV(LLC_MISS);

	/* hits from the nearest level out, misses from the farthest in */
	if (lvl_hit(ev, l1a, l1m)) {
		d->lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L1;
	} else if (ev & HM_SPE_EV(RECENTLY_FETCHED)) {
		d->lvl = PERF_MEM_LVL_LFB | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_LFB;
	} else if (lvl_hit(ev, l2a, l2m)) {
		d->lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L2;
	} else if (lvl_hit(ev, lla, llm)) {
		d->lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT;
		d->lvl_num = PERF_MEM_LVLNUM_L3;
	} else if (ev & llm) {
		d->lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_MISS;
		d->lvl_num = PERF_MEM_LVLNUM_L3;
	} else if (ev & l2m) {
		d->lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_MISS;
		d->lvl_num = PERF_MEM_LVLNUM_L2;
	} else if (ev & l1m) {
		d->lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_MISS;
		d->lvl_num = PERF_MEM_LVLNUM_L1;
	}
}

static void st_levels(u64 ev, struct ds *d)
{
	static const struct { u64 acc, miss, lvl, num; } lv[] = {
		{ HM_SPE_EV(LLC_ACCESS), HM_SPE_EV(LLC_MISS), PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3 },
		{ HM_SPE_EV(L2D_ACCESS), HM_SPE_EV(L2D_MISS), PERF_MEM_LVL_L2, PERF_MEM_LVLNUM_L2 },
		{ HM_SPE_EV(L1D_ACCESS), HM_SPE_EV(L1D_REFILL), PERF_MEM_LVL_L1, PERF_MEM_LVLNUM_L1 },
	};

	/* the farthest level the store reached */
	for (size_t i = 0; i < 3; i++) {
		if (ev & (lv[i].acc | lv[i].miss)) {
			d->lvl = lv[i].lvl | ((ev & lv[i].miss) ? PERF_MEM_LVL_MISS : PERF_MEM_LVL_HIT);
			d->lvl_num = lv[i].num;
			return;
		}
	}
}

bool hm_spe__is_mem_op(u32 op)
{
	return (op & (HM_SPE_OP_LDST | HM_SPE_OP_SIMD)) != 0;
}

u64 hm_spe__data_src(const struct hm_spe_record *rec, const struct hm_spe_cpu_meta *m)
{
	struct ds d = { 0 };
	u64 ev = rec->events;

	if (!hm_spe__is_mem_op(rec->op))
		return 0;
	if (rec->op & HM_SPE_OP_LD)
		d.op = PERF_MEM_OP_LOAD;
	else if (rec->op & HM_SPE_OP_ST)
		d.op = PERF_MEM_OP_STORE;
	else
		d.op = PERF_MEM_OP_NA;

	if (m && m->have_midr) {
		if (midr_in(m->midr, common_ds_cpus, sizeof(common_ds_cpus) / sizeof(u64)))
			ds_common(rec->source, rec->op, &d);
		else if (MIDR_MODEL(m->midr) == MIDR_MODEL(HM_MIDR_AMPERE1A))
			ds_ampereone(rec->source, rec->op, &d);
		else if (MIDR_MODEL(m->midr) == MIDR_MODEL(MIDR_HISI_HIP12))
			ds_hisi_hip(rec->source, rec->op, &d);
	}

	/* the data source wins; else levels from the events */
	if (!d.lvl) {
		if (d.op == PERF_MEM_OP_LOAD)
			ld_levels(ev, &d);
		if (d.op == PERF_MEM_OP_STORE)
			st_levels(ev, &d);
	}
	if (!d.lvl) {
		d.lvl = PERF_MEM_LVL_NA;
		d.lvl_num = PERF_MEM_LVLNUM_NA;
	}
	if (!d.snoop) {
		if (ev & HM_SPE_EV(DATA_SNOOPED))
			d.snoop = (ev & HM_SPE_EV(HITM)) ? PERF_MEM_SNOOP_HITM : PERF_MEM_SNOOP_HIT;
		else if (!m || !m->have_filter || !(m->ev_filter & HM_SPE_EV(DATA_SNOOPED)))
			d.snoop = PERF_MEM_SNOOP_NA;
		else
			d.snoop = PERF_MEM_SNOOP_NONE;
	}
	if (!d.remote && (ev & HM_SPE_EV(REMOTE_ACCESS)))
		d.remote = PERF_MEM_REMOTE_REMOTE;
	if (ev & (HM_SPE_EV(TLB_ACCESS) | HM_SPE_EV(TLB_WALK)))
		d.dtlb = PERF_MEM_TLB_WK |
			 ((ev & HM_SPE_EV(TLB_WALK)) ? PERF_MEM_TLB_MISS : PERF_MEM_TLB_HIT);
	return ds_pack(&d);
}
