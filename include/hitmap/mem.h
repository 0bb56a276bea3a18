/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_MEM_H
#define HITMAP_MEM_H

/*
 * Memory-event classification: data_src decoding, perf c2c's exact counters
 * (quirks included) and hitmap's precise, vendor-aware categories.
 */
#include <hitmap/perf_data.h>

/* data_src fields (little-endian bit layout of union perf_mem_data_src). */
struct hm_data_src {
	u32 op, lvl, snoop, lock, dtlb, lvl_num, remote, snoopx, blk, hops, region;
};
void hm_data_src__decode(u64 v, struct hm_data_src *d);
u64  hm_data_src__encode(const struct hm_data_src *d);
/* perf 6.1 script's text: "|OP LOAD|LVL L3 or L3 hit|SNP HitM|TLB L1 hit|LCK N/A|BLK  N/A"; returns length. */
int  hm_data_src__scnprintf(u64 v, char *buf, size_t size);

/* perf's c2c_stats, counter for counter (util/mem-events.h), in this order. */
#define HM_C2C_COUNTERS(X) \
	X(nr_entries) X(locks) X(store) X(st_uncache) X(st_noadrs) X(st_l1hit) \
	X(st_l1miss) X(st_na) X(load) X(ld_excl) X(ld_shared) X(ld_uncache) \
	X(ld_io) X(ld_miss) X(ld_noadrs) X(ld_fbhit) X(ld_l1hit) X(ld_l2hit) \
	X(ld_llchit) X(lcl_hitm) X(rmt_hitm) X(tot_hitm) X(lcl_peer) X(rmt_peer) \
	X(tot_peer) X(rmt_hit) X(lcl_dram) X(rmt_dram) X(blk_data) X(blk_addr) \
	X(nomap) X(noparse)

struct hm_c2c_stats {
#define HM_C2C_FIELD(n) u32 n;
	HM_C2C_COUNTERS(HM_C2C_FIELD)
#undef HM_C2C_FIELD
};

/*
 * The perf version whose counters to reproduce (--perf-compat): major * 100
 * + minor; HM_PERF_NEWEST (0, the default) is the newest one hitmap knows.
 */
enum hm_perf_compat {
	HM_PERF_NEWEST	= 0,
	HM_PERF_6_1	= 601,
	HM_PERF_6_12	= 612,
	HM_PERF_7_3	= 703,
};
/* "6.1", "6.12", "7.3"; -EINVAL for anything else */
int  hm_perf_compat__parse(const char *s, enum hm_perf_compat *v);
const char *hm_perf_compat__name(enum hm_perf_compat v);
#define HM_PERF_COMPAT_LIST "6.1, 6.12, 7.3"
/* The same as perf @compat prints it (6.12 and 7.3: "|LVL L3 hit" from mem_lvl_num). */
int  hm_data_src__scnprintf_v(u64 v, enum hm_perf_compat compat, char *buf, size_t size);

/*
 * Exactly perf's c2c_decode_stats() of version @v: @daddr is sample->addr,
 * @mapped is whether both the data and the code address fell into a known
 * map.  Returns 0, or -1 where perf returns -1 (the sample is still counted).
 * hm_c2c_stats__add() is the newest version's.
 */
int  hm_c2c_stats__add_v(struct hm_c2c_stats *st, enum hm_perf_compat v,
			 u64 data_src, u64 daddr, bool mapped);
int  hm_c2c_stats__add(struct hm_c2c_stats *st, u64 data_src, u64 daddr, bool mapped);
void hm_c2c_stats__sum(struct hm_c2c_stats *dst, const struct hm_c2c_stats *src);

/* Vendor of the encoding, from the file's CPUID and ARCH features. */
enum hm_vendor {
	HM_VENDOR_UNKNOWN, HM_VENDOR_INTEL, HM_VENDOR_AMD, HM_VENDOR_ARM, HM_VENDOR_POWER,
};
enum hm_vendor hm_vendor__from_header(const struct hm_header *h);
const char *hm_vendor__name(enum hm_vendor v);

/* hitmap's precise categories: each sample lands in exactly one. */
#define HM_MEM_CATS(X) \
	X(NONE,        "none")        /* not a memory op we can parse */ \
	X(NOADDR,      "noaddr")      /* load/store without a data address */ \
	X(L1,          "l1")          \
	X(LFB,         "lfb")         \
	X(L2,          "l2")          \
	X(LLC,         "llc")         \
	X(HITM_LOCAL,  "hitm_local")  /* modified line in a core of the same LLC */ \
	X(HITM_XDIE,   "hitm_xdie")   /* same socket, other die/CCX */ \
	X(HITM_REMOTE, "hitm_remote") /* other socket */ \
	X(PEER_LOCAL,  "peer_local")  \
	X(PEER_REMOTE, "peer_remote") \
	X(HIT_REMOTE,  "hit_remote")  /* clean line from a remote cache */ \
	X(DRAM_LOCAL,  "dram_local")  \
	X(DRAM_REMOTE, "dram_remote") \
	X(CXL,         "cxl")         \
	X(PMEM,        "pmem")        \
	X(IO,          "io")          \
	X(UNCACHED,    "uncached")    \
	X(MISS_OTHER,  "miss_other")  /* a miss whose source the encoding does not say */ \
	X(STORE_L1HIT, "store_l1hit") \
	X(STORE_L1MISS,"store_l1miss")\
	X(STORE_OTHER, "store_other") \
	X(L4,          "l4")          /* L4 or memory-side cache, local (added) */

enum hm_mem_cat {
#define HM_MEM_CAT_ENUM(e, s) HM_CAT_##e,
	HM_MEM_CATS(HM_MEM_CAT_ENUM)
#undef HM_MEM_CAT_ENUM
	HM_CAT__MAX
};
const char *hm_mem_cat__name(enum hm_mem_cat c);

/* One sample, classified. */
struct hm_mem_class {
	enum hm_mem_cat	cat;
	bool		load, store, locked;
	bool		hitm;		/* cat is one of the HITM kinds */
	bool		remote;		/* data came from another socket */
};
void hm_mem__classify(enum hm_vendor v, u64 data_src, u64 daddr, struct hm_mem_class *c);

/* Per-category counts, the "hitmap" member of report --json. */
struct hm_mem_cats {
	u64 nr[HM_CAT__MAX];
};

#endif
