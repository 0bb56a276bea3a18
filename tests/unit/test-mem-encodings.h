/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_TEST_MEM_ENCODINGS_H
#define HITMAP_TEST_MEM_ENCODINGS_H
/*
 * Every vendor encoding the kernel (arch/x86/events/intel/ds.c,
 * arch/x86/events/amd/ibs.c) and perf (util/arm-spe.c) write, with the
 * category hitmap gives it and what perf 6.1's c2c_decode_stats() counts.
 */
#include <hitmap/mem.h>
#include "mem/data_src.h"

/* expected perf counts default to 0 */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define E_L(x)		HM_DS(LVL, HM_LVL_##x)
#define E_LH		(HM_DS(OP, HM_OP_LOAD) | E_L(HIT))
#define E_LN(x)		HM_DS(LVLNUM, HM_LVLNUM_##x)
#define E_SNP(x)	HM_DS(SNOOP, HM_SNOOP_##x)
#define E_SNPX(x)	HM_DS(SNOOPX, HM_SNOOPX_##x)
#define E_REM		HM_DS(REMOTE, 1)
#define E_HOPS(n)	HM_DS(HOPS, HM_HOPS_##n)
#define E_TLB		HM_DS(TLB, HM_TLB_L1 | HM_TLB_HIT)
#define E_LCKNA		HM_DS(LOCK, HM_LOCK_NA)
/* AMD IBS: L(x) = LVL x | HIT */
#define E_AL(x)		(E_L(x) | E_L(HIT))
#define E_ALOAD		HM_DS(OP, HM_OP_LOAD)

struct enc {
	const char	*name;
	enum hm_vendor	vendor;
	u64		ds;
	enum hm_mem_cat	cat;
	/* perf 6.1: lcl_hitm, rmt_hitm, rmt_dram, lcl_dram, rmt_hit, lcl_peer, rmt_peer */
	int		lh, rh, rd, ld, rhit, lp, rp;
};

static const struct enc encodings[] = {
	/* Intel PEBS load latency, SNB+ table */
	{ "intel 0x00 unknown L3 miss", HM_VENDOR_INTEL, HM_DS(OP, HM_OP_LOAD) | E_L(MISS) | E_L(L3) | E_LN(L3) | E_SNP(NA), HM_CAT_MISS_OTHER },
	{ "intel 0x01 L1", HM_VENDOR_INTEL, E_LH | E_L(L1) | E_LN(L1) | E_SNP(NONE), HM_CAT_L1 },
	{ "intel 0x02 LFB", HM_VENDOR_INTEL, E_LH | E_L(LFB) | E_LN(LFB) | E_SNP(NONE), HM_CAT_LFB },
	{ "intel 0x03 L2", HM_VENDOR_INTEL, E_LH | E_L(L2) | E_LN(L2) | E_SNP(NONE), HM_CAT_L2 },
	{ "intel 0x04 L3 snoop none", HM_VENDOR_INTEL, E_LH | E_L(L3) | E_LN(L3) | E_SNP(NONE), HM_CAT_LLC },
	{ "intel 0x05 L3 snoop miss", HM_VENDOR_INTEL, E_LH | E_L(L3) | E_LN(L3) | E_SNP(MISS), HM_CAT_LLC },
	{ "intel 0x06 L3 snoop hit", HM_VENDOR_INTEL, E_LH | E_L(L3) | E_LN(L3) | E_SNP(HIT), HM_CAT_LLC },
	{ "intel 0x07 L3 HITM", HM_VENDOR_INTEL, E_LH | E_L(L3) | E_LN(L3) | E_SNP(HITM), HM_CAT_HITM_LOCAL, 1 },
	{ "intel snb 0x08 remote cache hit", HM_VENDOR_INTEL, E_LH | E_L(REM_CCE1) | E_REM | E_LN(L3) | E_SNP(HIT), HM_CAT_HIT_REMOTE, 0, 0, 1, 0, 1 },
	{ "intel snb 0x09 remote HITM", HM_VENDOR_INTEL, E_LH | E_L(REM_CCE1) | E_REM | E_LN(L3) | E_SNP(HITM), HM_CAT_HITM_REMOTE, 0, 1, 1 },
	{ "intel 0x0a local DRAM shared", HM_VENDOR_INTEL, E_LH | E_L(LOC_RAM) | E_LN(RAM) | E_SNP(HIT), HM_CAT_DRAM_LOCAL, 0, 0, 0, 1 },
	{ "intel snb 0x0b remote DRAM shared", HM_VENDOR_INTEL, E_LH | E_L(REM_RAM1) | E_REM | E_LN(L3) | E_SNP(HIT), HM_CAT_DRAM_REMOTE, 0, 0, 1, 0, 1 },
	{ "intel 0x0c local DRAM excl", HM_VENDOR_INTEL, E_LH | E_L(LOC_RAM) | E_LN(RAM) | E_SNP(NONE) | E_SNP(MISS), HM_CAT_DRAM_LOCAL, 0, 0, 0, 1 },
	{ "intel snb 0x0d remote DRAM excl", HM_VENDOR_INTEL, E_LH | E_L(REM_RAM1) | E_LN(RAM) | E_REM | E_SNP(NONE) | E_SNP(MISS), HM_CAT_DRAM_REMOTE, 0, 0, 1 },
	{ "intel 0x0e IO", HM_VENDOR_INTEL, E_LH | E_L(IO) | E_LN(NA) | E_SNP(NONE), HM_CAT_IO },
	{ "intel 0x0f uncached", HM_VENDOR_INTEL, E_LH | E_L(UNC) | E_LN(NA) | E_SNP(NONE), HM_CAT_UNCACHED },
	/* Skylake+ overrides */
	{ "intel skl 0x08 L4 hit", HM_VENDOR_INTEL, E_LH | E_LN(L4) | E_SNP(HIT), HM_CAT_L4 },
	{ "intel skl 0x08 PMEM", HM_VENDOR_INTEL, E_LH | E_LN(PMEM) | E_SNP(HIT), HM_CAT_PMEM },
	{ "intel skl 0x09 remote PMEM", HM_VENDOR_INTEL, E_LH | E_LN(PMEM) | E_REM | E_SNP(HIT), HM_CAT_PMEM, 0, 0, 1, 0, 1 },
	{ "intel skl 0x0b remote DRAM", HM_VENDOR_INTEL, E_LH | E_LN(RAM) | E_REM | E_SNP(NONE), HM_CAT_DRAM_REMOTE, 0, 0, 1 },
	{ "intel skl 0x0c remote forward", HM_VENDOR_INTEL, E_LH | E_LN(ANY_CACHE) | E_REM | E_SNPX(FWD), HM_CAT_HIT_REMOTE, 0, 0, 1 },
	{ "intel skl 0x0d remote HITM", HM_VENDOR_INTEL, E_LH | E_LN(ANY_CACHE) | E_REM | E_SNP(HITM), HM_CAT_HITM_REMOTE, 0, 1, 1 },
	/* Crestmont (Sierra Forest, intel_pmu_pebs_data_source_cmt): RAM level with the snoop result */
	{ "intel cmt 0x07 L3 forward", HM_VENDOR_INTEL, E_LH | E_L(L3) | E_LN(L3) | E_SNPX(FWD), HM_CAT_LLC },
	{ "intel cmt 0x0b remote DRAM", HM_VENDOR_INTEL, E_LH | E_LN(RAM) | E_REM | E_SNP(NONE), HM_CAT_DRAM_REMOTE, 0, 0, 1 },
	{ "intel cmt 0x0c remote forward", HM_VENDOR_INTEL, E_LH | E_LN(RAM) | E_REM | E_SNPX(FWD), HM_CAT_HIT_REMOTE, 0, 0, 1 },
	{ "intel cmt 0x0d remote HITM", HM_VENDOR_INTEL, E_LH | E_LN(RAM) | E_REM | E_SNP(HITM), HM_CAT_HITM_REMOTE, 0, 1, 1 },
	/* AMD IBS, Zen2/Zen3 (g_data_src) */
	{ "amd zen2 L1", HM_VENDOR_AMD, E_ALOAD | E_AL(L1) | E_LN(L1), HM_CAT_L1 },
	{ "amd zen2 L2", HM_VENDOR_AMD, E_ALOAD | E_AL(L2) | E_LN(L2), HM_CAT_L2 },
	{ "amd zen2 MAB", HM_VENDOR_AMD, E_ALOAD | E_AL(LFB) | E_LN(LFB), HM_CAT_LFB },
	{ "amd zen2 local cache", HM_VENDOR_AMD, E_ALOAD | E_AL(L3) | E_AL(REM_CCE1) | E_LN(ANY_CACHE) | E_HOPS(0) | E_SNP(NA), HM_CAT_LLC },
	{ "amd zen2 local cache HITM", HM_VENDOR_AMD, E_ALOAD | E_AL(L3) | E_AL(REM_CCE1) | E_LN(ANY_CACHE) | E_HOPS(0) | E_SNP(HITM), HM_CAT_HITM_LOCAL, 1, 1 },
	{ "amd zen2 remote cache", HM_VENDOR_AMD, E_ALOAD | E_AL(REM_CCE2) | E_LN(ANY_CACHE) | E_REM | E_HOPS(1) | E_SNP(NA), HM_CAT_HIT_REMOTE },
	{ "amd zen2 DRAM", HM_VENDOR_AMD, E_ALOAD | E_AL(LOC_RAM) | E_LN(RAM) | E_SNP(NA), HM_CAT_DRAM_LOCAL, 0, 0, 0, 1 },
	{ "amd zen2 remote DRAM", HM_VENDOR_AMD, E_ALOAD | E_AL(REM_RAM1) | E_LN(RAM) | E_REM | E_HOPS(1) | E_SNP(NA), HM_CAT_DRAM_REMOTE, 0, 0, 1 },
	{ "amd zen2 IO", HM_VENDOR_AMD, E_ALOAD | E_AL(IO) | E_LN(IO), HM_CAT_IO },
	{ "amd uncached", HM_VENDOR_AMD, E_ALOAD | E_AL(UNC) | E_LN(UNC), HM_CAT_UNCACHED },
	{ "amd no data source", HM_VENDOR_AMD, E_ALOAD | E_L(NA) | E_LN(NA), HM_CAT_MISS_OTHER },
	/* AMD IBS, Zen4 (g_zen4_data_src) */
	{ "amd zen4 local cache", HM_VENDOR_AMD, E_ALOAD | E_AL(L3) | E_LN(L3) | E_SNP(NA), HM_CAT_LLC },
	{ "amd zen4 local cache HITM", HM_VENDOR_AMD, E_ALOAD | E_AL(L3) | E_LN(L3) | E_SNP(HITM), HM_CAT_HITM_LOCAL, 1 },
	{ "amd zen4 near CCX", HM_VENDOR_AMD, E_ALOAD | E_AL(REM_CCE1) | E_LN(ANY_CACHE) | E_REM | E_HOPS(0) | E_SNP(NA), HM_CAT_PEER_LOCAL },
	{ "amd zen4 near CCX HITM", HM_VENDOR_AMD, E_ALOAD | E_AL(REM_CCE1) | E_LN(ANY_CACHE) | E_REM | E_HOPS(0) | E_SNP(HITM), HM_CAT_HITM_XDIE, 0, 1 },
	{ "amd zen4 far CCX HITM", HM_VENDOR_AMD, E_ALOAD | E_AL(REM_CCE2) | E_LN(ANY_CACHE) | E_REM | E_HOPS(1) | E_SNP(HITM), HM_CAT_HITM_REMOTE, 0, 1 },
	{ "amd zen4 far CCX", HM_VENDOR_AMD, E_ALOAD | E_AL(REM_CCE2) | E_LN(ANY_CACHE) | E_REM | E_HOPS(1) | E_SNP(NA), HM_CAT_HIT_REMOTE },
	{ "amd zen4 PMEM", HM_VENDOR_AMD, E_ALOAD | E_LN(PMEM), HM_CAT_PMEM },
	{ "amd zen4 remote CXL", HM_VENDOR_AMD, E_ALOAD | E_LN(CXL) | E_REM | E_HOPS(1), HM_CAT_CXL },
	/* Arm SPE, Neoverse common data source */
	{ "arm L1D", HM_VENDOR_ARM, E_LH | E_L(L1) | E_LN(L1) | E_SNP(NONE), HM_CAT_L1 },
	{ "arm L2", HM_VENDOR_ARM, E_LH | E_L(L2) | E_LN(L2) | E_SNP(NONE), HM_CAT_L2 },
	{ "arm peer core", HM_VENDOR_ARM, E_LH | E_L(L2) | E_LN(L2) | E_SNPX(PEER), HM_CAT_PEER_LOCAL, 0, 0, 0, 0, 0, 1 },
	{ "arm peer cluster", HM_VENDOR_ARM, E_LH | E_L(L3) | E_LN(L3) | E_SNPX(PEER), HM_CAT_PEER_LOCAL, 0, 0, 0, 0, 0, 1 },
	{ "arm system cache", HM_VENDOR_ARM, E_LH | E_L(L3) | E_LN(L3) | E_SNP(HIT), HM_CAT_LLC },
	{ "arm remote", HM_VENDOR_ARM, HM_DS(OP, HM_OP_LOAD) | E_L(NA) | E_LN(NA) | E_REM | E_SNPX(PEER), HM_CAT_PEER_REMOTE, 0, 0, 0, 0, 1, 0, 1 },
	{ "arm DRAM", HM_VENDOR_ARM, E_LH | E_L(LOC_RAM) | E_LN(RAM) | E_SNP(NONE), HM_CAT_DRAM_LOCAL, 0, 0, 0, 1 },
	/* Power: remote core of the same chip, remote socket memory */
	{ "power other core L3", HM_VENDOR_POWER, E_LH | E_LN(L3) | E_REM | E_HOPS(0), HM_CAT_PEER_LOCAL },
	{ "power remote socket DRAM", HM_VENDOR_POWER, E_LH | E_LN(RAM) | E_REM | E_HOPS(2), HM_CAT_DRAM_REMOTE },
};
#define NR_ENCODINGS (sizeof(encodings) / sizeof(encodings[0]))

#endif
