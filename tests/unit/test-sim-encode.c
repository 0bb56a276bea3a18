// SPDX-License-Identifier: GPL-2.0-only
/*
 * data_src as each vendor's kernel (or perf, for SPE) encodes it, checked
 * against values computed by hand from the kernel tables, and the simulator's
 * intended precise category checked against hitmap's decoder.
 */
#include <stdint.h>
#include "tap.h"
#include "sim/sim.h"

static const char *pmu_name[] = { "skl", "cmt", "zen4", "spe" };
static const enum hm_vendor pmu_vendor[] = { HM_VENDOR_INTEL, HM_VENDOR_INTEL, HM_VENDOR_AMD, HM_VENDOR_ARM };

int main(void)
{
	char name[128];
	int p, src, st;

	/* Intel SKL: 0x07 L3 HITM: OP_LH|LVL_L3|LVLNUM_L3|SNOOP_HITM, TLB hit L1 L2, locked, BLK_NA */
	CHECK_EQ("skl hitm_local locked",
		 hm_sim__data_src(HM_PMU_INTEL_SKL, HM_ACC_RMW, false, HM_SRC_HITM_LOCAL, false, true),
		 0x2 | (0x42ULL << 5) | (0x10ULL << 19) | (0x2ULL << 24) | (0x1aULL << 26) |
		 (0x3ULL << 33) | (0x1ULL << 40));
	/* SKL 0x0d: OP_LH|LVLNUM_ANY_CACHE|REMOTE|SNOOP_HITM (perf also counts it as remote DRAM) */
	CHECK_EQ("skl hitm_remote",
		 hm_sim__data_src(HM_PMU_INTEL_SKL, HM_ACC_LOAD, false, HM_SRC_HITM_REMOTE, false, false),
		 0x2 | (0x2ULL << 5) | (0x10ULL << 19) | (0x1aULL << 26) | (0xbULL << 33) |
		 (1ULL << 37) | (0x1ULL << 40));
	/* SKL store: precise_datala_hsw: PERF_MEM_NA with op STORE, lvl L1|HIT */
	CHECK_EQ("skl store l1 hit",
		 hm_sim__data_src(HM_PMU_INTEL_SKL, HM_ACC_STORE, true, HM_SRC_L1, true, false),
		 0x4 | (0xaULL << 5) | (0x1ULL << 19) | (0x1ULL << 24) | (0x1ULL << 26));
	/* CMT 0x08: L3 HITM */
	CHECK_EQ("cmt hitm_local",
		 hm_sim__data_src(HM_PMU_INTEL_CMT, HM_ACC_LOAD, false, HM_SRC_HITM_LOCAL, false, false),
		 0x2 | (0x42ULL << 5) | (0x10ULL << 19) | (0x1aULL << 26) | (0x3ULL << 33) | (0x1ULL << 40));
	/* Zen 4 far CCX HITM: L(REM_CCE2)|LN(ANY_CACHE)|REM|HOPS(1), snoop HITM, TLB L1 hit, LOCK_NA */
	CHECK_EQ("zen4 hitm_remote",
		 hm_sim__data_src(HM_PMU_AMD_ZEN4, HM_ACC_LOAD, false, HM_SRC_HITM_REMOTE, false, false),
		 0x2 | (0x802ULL << 5) | (0x10ULL << 19) | (0x1ULL << 24) | (0xaULL << 26) |
		 (0xbULL << 33) | (1ULL << 37) | (0x2ULL << 43));
	/* Zen 4 store that missed L1/L2: check_mab: LVL_NA, LVLNUM_NA */
	CHECK_EQ("zen4 store miss",
		 hm_sim__data_src(HM_PMU_AMD_ZEN4, HM_ACC_STORE, true, HM_SRC_HITM_REMOTE, false, false),
		 0x4 | (0x1ULL << 5) | (0x1ULL << 19) | (0x1ULL << 24) | (0xaULL << 26) | (0xfULL << 33));
	/* SPE REMOTE: LVL_NA, LVLNUM_NA, REMOTE, SNOOPX_PEER, TLB WK|HIT */
	CHECK_EQ("spe remote",
		 hm_sim__data_src(HM_PMU_ARM_SPE, HM_ACC_LOAD, false, HM_SRC_HITM_REMOTE, false, false),
		 0x2 | (0x1ULL << 5) | (0x22ULL << 26) | (0xfULL << 33) | (1ULL << 37) | (0x2ULL << 38));

	/* the category the simulator records equals what hitmap decodes from the encoding */
	for (p = 0; p < 4; p++) {
		for (src = 0; src < HM_SRC__MAX; src++) {
			for (st = 0; st < 2; st++) {
				u64 ds = hm_sim__data_src(p, st ? HM_ACC_STORE : HM_ACC_LOAD, st, src,
							  src == HM_SRC_L1, false);
				enum hm_mem_cat want = hm_sim__category(p, st, src, src == HM_SRC_L1);
				struct hm_mem_class cl;

				if (src == HM_SRC_LFB && !st)
					continue;	/* never produced by the in-order model */
				hm_mem__classify(pmu_vendor[p], ds, 0xffff888100000000ULL, &cl);
				snprintf(name, sizeof(name), "%s %s %s: decoder agrees (%s)", pmu_name[p],
					 st ? "store" : "load", hm_src__name(src), hm_mem_cat__name(want));
				if (cl.cat == want) {
					PASS(name);
				} else {
					FAILF(name, "data_src 0x%llx decodes as %s, the model says %s",
					      (unsigned long long)ds, hm_mem_cat__name(cl.cat),
					      hm_mem_cat__name(want));
				}
			}
		}
	}
	TAP_DONE();
}
