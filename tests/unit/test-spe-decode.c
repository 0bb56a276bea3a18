// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arm SPE packets and records: every packet type in short and extended
 * headers, address widening (kernel PC, tagged and kernel data addresses),
 * alignment padding, records split across buffers, bad headers; and the
 * data_src perf 7.3 synthesises for the common, AmpereOne and HIP12 tables,
 * event-derived levels for loads and stores, snoop and remote rules.
 */
#include <string.h>
#include <linux/perf_event.h>
#include "perfdata/spe-decode.h"
#include "perfdata/spe-write.h"
#include "tap.h"

#define P(a, b) PERF_MEM_S(a, b)

static int pkt(const u8 *b, size_t n, struct hm_spe_pkt *p)
{
	return hm_spe_pkt__get(b, n, p);
}

int main(void)
{
	struct hm_spe_pkt p;

	{
		static const u8 ts[] = { 0x71, 1, 2, 3, 4, 5, 6, 7, 8 };

		CHECK("timestamp: 9 bytes, LE payload",
		      pkt(ts, sizeof(ts), &p) == 9 && p.type == HM_SPE_PKT_TIMESTAMP &&
		      p.payload == 0x0807060504030201ULL);
		CHECK("timestamp cut off: need more", pkt(ts, 5, &p) == HM_SPE_NEED_MORE);
	}
	{
		static const u8 ev2[] = { 0x52, 0x06, 0x01 }, ev4[] = { 0x62, 1, 0, 0x80, 0 };
		static const u8 src[] = { 0x53, 0x09, 0x00 }, ctx[] = { 0x65, 0x2a, 0, 0, 0 };
		static const u8 op[] = { 0x49, 0x01 }, lat[] = { 0x98, 0x10, 0x01 };

		CHECK("events 2 bytes", pkt(ev2, 3, &p) == 3 && p.type == HM_SPE_PKT_EVENTS &&
		      p.payload == 0x106 && p.index == 2);
		CHECK("events 4 bytes", pkt(ev4, 5, &p) == 5 && p.payload == 0x800001);
		CHECK("data source", pkt(src, 3, &p) == 3 && p.type == HM_SPE_PKT_DATA_SOURCE &&
		      p.payload == 9);
		CHECK("context EL2", pkt(ctx, 5, &p) == 5 && p.type == HM_SPE_PKT_CONTEXT &&
		      p.index == 1 && p.payload == 42);
		CHECK("op type ld/st store", pkt(op, 2, &p) == 2 && p.type == HM_SPE_PKT_OP_TYPE &&
		      p.index == HM_SPE_OP_CLASS_LDST && p.payload == 1);
		CHECK("total latency", pkt(lat, 3, &p) == 3 && p.type == HM_SPE_PKT_COUNTER &&
		      p.index == 0 && p.payload == 0x110);
	}
	{
		/* extended header: index bits 4:3 in byte 0 */
		static const u8 ext[] = { 0x21, 0xb2, 1, 2, 3, 4, 5, 6, 7, 8 };
		static const u8 extbad[] = { 0x20 }, bad[] = { 0x05 };

		CHECK("extended address: index 10", pkt(ext, sizeof(ext), &p) == 10 &&
		      p.type == HM_SPE_PKT_ADDRESS && p.index == 10);
		CHECK("extended header cut after byte 0: bad", pkt(extbad, 1, &p) == HM_SPE_BAD_PACKET);
		CHECK("unknown header: bad", pkt(bad, 1, &p) == HM_SPE_BAD_PACKET);
	}
	CHECK("kernel PC: top byte filled",
	      hm_spe__calc_addr(HM_SPE_ADDR_INS, 1ULL << 63 | 1ULL << 61 | 0x800008010000ULL) ==
	      0xff00800008010000ULL);
	CHECK("user PC: top byte clear",
	      hm_spe__calc_addr(HM_SPE_ADDR_INS, 1ULL << 63 | 0x400000) == 0x400000);
	CHECK("tagged VA: tag dropped",
	      hm_spe__calc_addr(HM_SPE_ADDR_DATA_VIRT, 0x5a00007f00001000ULL) == 0x7f00001000ULL);
	CHECK("kernel VA: top byte filled",
	      hm_spe__calc_addr(HM_SPE_ADDR_DATA_VIRT, 0x00ff800000001000ULL) == 0xffff800000001000ULL);
	CHECK("PA: NS bit dropped",
	      hm_spe__calc_addr(HM_SPE_ADDR_DATA_PHYS, 1ULL << 63 | 0x80001000) == 0x80001000);

	/* a record through the encoder, split over two buffers, with padding */
	{
		struct hm_spe_record r = { 0 };
		struct hm_spe_rdec d;
		u8 buf[160];
		size_t n, used = 0, used2 = 0;

		r.op = HM_SPE_OP_LDST | HM_SPE_OP_LD;
		r.from_ip = 0x401234;
		r.virt_addr = 0x7f0000001000ULL;
		r.phys_addr = 0x80001000;
		r.latency = 321;
		r.events = HM_SPE_EV(L1D_ACCESS) | HM_SPE_EV(L1D_REFILL);
		r.source = HM_SPE_DS_PEER_CORE;
		r.context_id = 77;
		r.timestamp = 123456789;
		memset(buf, 0, 8);			/* PAD packets first */
		n = 8 + hm_spe__encode(&r, true, buf + 8);
		hm_spe_rdec__reset(&d);
		CHECK("split record: first part waits for more", hm_spe_rdec__feed(&d, buf, 30, &used) == 0 &&
		      used == 30);
		CHECK("split record: completes in the next buffer",
		      hm_spe_rdec__feed(&d, buf + 30, n - 30, &used2) == 1 && used2 == n - 30);
		CHECK("record fields", d.rec.from_ip == r.from_ip && d.rec.virt_addr == r.virt_addr &&
		      d.rec.phys_addr == r.phys_addr && d.rec.latency == 321 && d.rec.context_id == 77 &&
		      d.rec.timestamp == r.timestamp && d.rec.source == 9 &&
		      (d.rec.op & HM_SPE_OP_LD) && d.rec.events == r.events);
		buf[8] = 0x05;
		hm_spe_rdec__reset(&d);
		CHECK("bad header: offset of the bad byte",
		      hm_spe_rdec__feed(&d, buf, n, &used) == HM_SPE_BAD_PACKET && used == 8);
	}

	/* data_src */
	{
		struct hm_spe_cpu_meta n1 = { .have_midr = true, .midr = 0x413fd0c1 };
		struct hm_spe_cpu_meta n1snp = { .have_midr = true, .midr = 0x413fd0c1,
						 .have_filter = true, .ev_filter = HM_SPE_EV(DATA_SNOOPED) };
		struct hm_spe_cpu_meta a1a = { .have_midr = true, .midr = 0xc00fac41 };
		struct hm_spe_cpu_meta hip = { .have_midr = true, .midr = 0x480fd060 };
		struct hm_spe_cpu_meta none = { .have_midr = true, .midr = 0x410fd0b0 };
		struct hm_spe_record r = { 0 };

		r.op = HM_SPE_OP_LDST | HM_SPE_OP_LD;
		r.source = HM_SPE_DS_PEER_CORE;
		CHECK("N1 peer core", hm_spe__data_src(&r, &n1) ==
		      (P(OP, LOAD) | P(LVL, L2) | P(LVL, HIT) | P(LVLNUM, L2) | P(SNOOPX, PEER) | P(SNOOP, NA)));
		CHECK("N1 peer core, filter has SNOOPED: snoop none", hm_spe__data_src(&r, &n1snp) ==
		      (P(OP, LOAD) | P(LVL, L2) | P(LVL, HIT) | P(LVLNUM, L2) | P(SNOOPX, PEER) | P(SNOOP, NONE)));
		r.events = HM_SPE_EV(DATA_SNOOPED) | HM_SPE_EV(HITM);
		CHECK("N1 peer core + SNOOPED|HITM: HITM", (hm_spe__data_src(&r, &n1) >> PERF_MEM_SNOOP_SHIFT & 0x1f) ==
		      PERF_MEM_SNOOP_HITM);
		r.events = HM_SPE_EV(REMOTE_ACCESS);
		r.source = HM_SPE_DS_REMOTE;
		CHECK("N1 remote", hm_spe__data_src(&r, &n1) ==
		      (P(OP, LOAD) | P(LVL, NA) | P(LVLNUM, NA) | P(REMOTE, REMOTE) | P(SNOOPX, PEER) | P(SNOOP, NA)));
		r.source = 5;		/* AmpereOne remote chip cache */
		CHECK("AmpereOne 5 = common remote", hm_spe__data_src(&r, &a1a) ==
		      (P(OP, LOAD) | P(LVL, NA) | P(LVLNUM, NA) | P(REMOTE, REMOTE) | P(SNOOPX, PEER) | P(SNOOP, NA)));
		r.source = 7;		/* HIP12 remote socket HITM */
		r.events = 0;
		CHECK("HIP12 remote socket HITM", hm_spe__data_src(&r, &hip) ==
		      (P(OP, LOAD) | P(LVL, REM_CCE2) | P(LVLNUM, ANY_CACHE) | P(SNOOP, HITM) |
		       P(REMOTE, REMOTE) | P(SNOOPX, PEER)));
		r.source = 0;
		r.events = HM_SPE_EV(L1D_ACCESS) | HM_SPE_EV(L1D_REFILL) | HM_SPE_EV(RECENTLY_FETCHED);
		CHECK("no table: LFB from RECENTLY_FETCHED", hm_spe__data_src(&r, &none) ==
		      (P(OP, LOAD) | P(LVL, LFB) | P(LVL, HIT) | P(LVLNUM, LFB) | P(SNOOP, NA)));
		r.events = HM_SPE_EV(L2D_MISS) | HM_SPE_EV(LLC_MISS) | HM_SPE_EV(TLB_WALK);
		CHECK("no table: load misses at the farthest level, TLB walk", hm_spe__data_src(&r, &none) ==
		      (P(OP, LOAD) | P(LVL, L3) | P(LVL, MISS) | P(LVLNUM, L3) | P(SNOOP, NA) |
		       P(TLB, WK) | P(TLB, MISS)));
		r.op = HM_SPE_OP_LDST | HM_SPE_OP_ST;
		r.events = HM_SPE_EV(L1D_ACCESS) | HM_SPE_EV(L2D_ACCESS) | HM_SPE_EV(L2D_MISS);
		CHECK("no table: store at the farthest level reached", hm_spe__data_src(&r, &none) ==
		      (P(OP, STORE) | P(LVL, L2) | P(LVL, MISS) | P(LVLNUM, L2) | P(SNOOP, NA)));
		CHECK("N1 store: level N/A", hm_spe__data_src(&r, &n1) ==
		      (P(OP, STORE) | P(LVL, NA) | P(LVLNUM, NA) | P(SNOOP, NA)));
		r.op = HM_SPE_OP_BRANCH;
		CHECK("branch: no memory sample", hm_spe__data_src(&r, &n1) == 0);
		r.op = HM_SPE_OP_LDST | HM_SPE_OP_LD;
		r.events = 0;
		r.source = HM_SPE_DS_DRAM;
		CHECK("v1 without CPUID: no table, level N/A", hm_spe__data_src(&r, NULL) ==
		      (P(OP, LOAD) | P(LVL, NA) | P(LVLNUM, NA) | P(SNOOP, NA)));
	}
	TAP_DONE();
}
