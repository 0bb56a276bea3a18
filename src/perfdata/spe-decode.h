/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_SPE_DECODE_H
#define HITMAP_PERFDATA_SPE_DECODE_H

/*
 * Arm Statistical Profiling Extension (SPE) decoding (spe-decode.c): the
 * packet format (Arm ARM, "Statistical Profiling Extension" chapter), the
 * records a packet stream forms, and the data_src perf 7.3 synthesises
 * from a record.  Private to src/perfdata and src/sim.
 */
#include <stdbool.h>
#include <stddef.h>
#include <hitmap/perf_data.h>

/* ---- packet headers (short header byte 0; extended header byte 1) */
#define HM_SPE_HDR_PAD		0x00
#define HM_SPE_HDR_END		0x01
#define HM_SPE_HDR_TIMESTAMP	0x71	/* 8-byte payload */
#define HM_SPE_HDR_EVENTS	0x42	/* | sz << 4 */
#define HM_SPE_HDR_SOURCE	0x43	/* | sz << 4 */
#define HM_SPE_HDR_CONTEXT	0x64	/* | index (0: EL1, 1: EL2), 4-byte payload */
#define HM_SPE_HDR_OP_TYPE	0x48	/* | class, 1-byte payload */
#define HM_SPE_HDR_EXTENDED	0x20	/* | index bits 4:3, then a second byte */
#define HM_SPE_HDR_ADDRESS	0xb0	/* | index bits 2:0, 8-byte payload */
#define HM_SPE_HDR_COUNTER	0x98	/* | index bits 2:0, 2-byte payload */

enum hm_spe_addr_index {
	HM_SPE_ADDR_INS = 0, HM_SPE_ADDR_BRANCH = 1, HM_SPE_ADDR_DATA_VIRT = 2,
	HM_SPE_ADDR_DATA_PHYS = 3, HM_SPE_ADDR_PREV_BRANCH = 4,
};
enum hm_spe_counter_index {
	HM_SPE_CNT_TOTAL_LAT = 0, HM_SPE_CNT_ISSUE_LAT = 1, HM_SPE_CNT_TRANS_LAT = 2,
};
enum hm_spe_op_class {
	HM_SPE_OP_CLASS_OTHER = 0, HM_SPE_OP_CLASS_LDST = 1, HM_SPE_OP_CLASS_BRANCH = 2,
};

/* Events packet bits */
enum hm_spe_event_bit {
	HM_SPE_EV_EXCEPTION_GEN = 0, HM_SPE_EV_RETIRED = 1, HM_SPE_EV_L1D_ACCESS = 2,
	HM_SPE_EV_L1D_REFILL = 3, HM_SPE_EV_TLB_ACCESS = 4, HM_SPE_EV_TLB_WALK = 5,
	HM_SPE_EV_NOT_TAKEN = 6, HM_SPE_EV_MISPRED = 7, HM_SPE_EV_LLC_ACCESS = 8,
	HM_SPE_EV_LLC_MISS = 9, HM_SPE_EV_REMOTE_ACCESS = 10, HM_SPE_EV_ALIGNMENT = 11,
	HM_SPE_EV_TRANSACTIONAL = 16, HM_SPE_EV_PARTIAL_PRED = 17, HM_SPE_EV_EMPTY_PRED = 18,
	HM_SPE_EV_L2D_ACCESS = 19, HM_SPE_EV_L2D_MISS = 20, HM_SPE_EV_HITM = 21,
	HM_SPE_EV_RECENTLY_FETCHED = 22, HM_SPE_EV_DATA_SNOOPED = 23,
};
#define HM_SPE_EV(b)	(1ULL << HM_SPE_EV_##b)

/* Neoverse/Cortex common data source encoding */
enum hm_spe_common_ds {
	HM_SPE_DS_L1D = 0x0, HM_SPE_DS_L2 = 0x8, HM_SPE_DS_PEER_CORE = 0x9,
	HM_SPE_DS_LOCAL_CLUSTER = 0xa, HM_SPE_DS_SYS_CACHE = 0xb,
	HM_SPE_DS_PEER_CLUSTER = 0xc, HM_SPE_DS_REMOTE = 0xd, HM_SPE_DS_DRAM = 0xe,
};

/* Decoded operation (record.op), as perf's arm_spe_op_type */
#define HM_SPE_OP_OTHER		(1u << 0)
#define HM_SPE_OP_LDST		(1u << 1)
#define HM_SPE_OP_BRANCH	(1u << 2)
#define HM_SPE_OP_SIMD		(1u << 8)	/* SIMD&FP, SVE, SME or ASE */
#define HM_SPE_OP_LD		(1u << 20)
#define HM_SPE_OP_ST		(1u << 21)
#define HM_SPE_OP_ATOMIC	(1u << 22)
#define HM_SPE_OP_EXCL		(1u << 23)
#define HM_SPE_OP_AR		(1u << 24)

/* ---- one packet */
enum hm_spe_pkt_type {
	HM_SPE_PKT_BAD, HM_SPE_PKT_PAD, HM_SPE_PKT_END, HM_SPE_PKT_TIMESTAMP,
	HM_SPE_PKT_ADDRESS, HM_SPE_PKT_COUNTER, HM_SPE_PKT_CONTEXT, HM_SPE_PKT_OP_TYPE,
	HM_SPE_PKT_EVENTS, HM_SPE_PKT_DATA_SOURCE,
};

struct hm_spe_pkt {
	enum hm_spe_pkt_type	type;
	unsigned		index;
	u64			payload;
};

#define HM_SPE_NEED_MORE	(-1)
#define HM_SPE_BAD_PACKET	(-2)

/*
 * Decode the packet at @buf (@len bytes left).  Returns its length, or
 * HM_SPE_NEED_MORE (cut off) / HM_SPE_BAD_PACKET (unknown header).
 */
int hm_spe_pkt__get(const u8 *buf, size_t len, struct hm_spe_pkt *pkt);
/* "ADDR", "LAT", ... */
const char *hm_spe_pkt__name(enum hm_spe_pkt_type t);

/* ---- records: the packets up to a TIMESTAMP or END */
struct hm_spe_record {
	u64	events;		/* events packet payload */
	u32	op;		/* HM_SPE_OP_* */
	u32	latency;	/* total latency counter */
	u32	issue_lat, trans_lat;
	u64	from_ip, to_ip;
	u64	timestamp;
	u64	virt_addr, phys_addr;
	u64	context_id;	/* (u64)-1: no CONTEXT packet */
	u16	source;
};

/* Address packet payload -> address, as perf's arm_spe_calc_ip */
u64 hm_spe__calc_addr(unsigned index, u64 payload);

/*
 * A record under construction; it carries over between AUX buffers of one
 * queue as in perf.
 */
struct hm_spe_rdec {
	struct hm_spe_record	rec;
	bool			started;
};
void hm_spe_rdec__reset(struct hm_spe_rdec *d);

/*
 * Feed packets from @buf until one record completes.  Returns 1 (record
 * complete in d->rec; *@used bytes consumed), 0 (buffer ran out: the record
 * continues with the next buffer), or HM_SPE_BAD_PACKET with *@used the
 * offset of the bad byte (perf skips one byte and goes on).
 */
int hm_spe_rdec__feed(struct hm_spe_rdec *d, const u8 *buf, size_t len, size_t *used);

/* ---- data_src (perf 7.3 arm_spe__synth_data_source) */
struct hm_spe_cpu_meta {
	bool	have_midr;	/* else no data source table applies */
	u64	midr;
	u64	ev_filter;
	bool	have_filter;	/* metadata v2: the event filter is known */
};
/* 0 when the record is no memory operation (perf makes no memory sample) */
u64 hm_spe__data_src(const struct hm_spe_record *rec, const struct hm_spe_cpu_meta *m);
bool hm_spe__is_mem_op(u32 op);

/* MIDRs of CPUs whose SPE data source perf decodes */
#define HM_MIDR_NEOVERSE_N1	0x410fd0c0ULL
#define HM_MIDR_NEOVERSE_V1	0x410fd400ULL
#define HM_MIDR_NEOVERSE_N2	0x410fd490ULL
#define HM_MIDR_NEOVERSE_V2	0x410fd4f0ULL
#define HM_MIDR_AMPERE1A	0xc00fac40ULL

#endif
