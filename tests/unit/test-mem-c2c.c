// SPDX-License-Identifier: GPL-2.0-only
/* perf's c2c_decode_stats() of 6.1, 6.12 and 7.3, counter for counter, quirks included. */
#include <errno.h>
#include "tap.h"
#include "test-mem-encodings.h"

int main(void)
{
	struct hm_c2c_stats st, sum = { 0 };
	char name[160];
	unsigned i;

	for (i = 0; i < NR_ENCODINGS; i++) {
		const struct enc *e = &encodings[i];

		memset(&st, 0, sizeof(st));
		hm_c2c_stats__add(&st, e->ds, 0x1000, true);
		snprintf(name, sizeof(name), "perf counts %s", e->name);
		if (st.lcl_hitm == (u32)e->lh && st.rmt_hitm == (u32)e->rh && st.rmt_dram == (u32)e->rd &&
		    st.lcl_dram == (u32)e->ld && st.rmt_hit == (u32)e->rhit && st.lcl_peer == (u32)e->lp &&
		    st.rmt_peer == (u32)e->rp && st.tot_hitm == st.lcl_hitm + st.rmt_hitm &&
		    st.tot_peer == st.lcl_peer + st.rmt_peer && st.nr_entries == 1 && st.load == 1)
			PASS(name);
		else
			FAILF(name, "lcl_hitm %u rmt_hitm %u rmt_dram %u lcl_dram %u rmt_hit %u lcl_peer %u rmt_peer %u",
			      st.lcl_hitm, st.rmt_hitm, st.rmt_dram, st.lcl_dram, st.rmt_hit, st.lcl_peer, st.rmt_peer);
		hm_c2c_stats__sum(&sum, &st);
	}
	CHECK_EQ("sum nr_entries", sum.nr_entries, NR_ENCODINGS);

	/* Intel SKL remote HITM: also remote DRAM and exclusive (the quirk) */
	memset(&st, 0, sizeof(st));
	hm_c2c_stats__add(&st, E_LH | E_LN(ANY_CACHE) | E_REM | E_SNP(HITM), 0x1000, true);
	CHECK("skl remote hitm double count", st.rmt_hitm == 1 && st.rmt_dram == 1 && st.ld_excl == 1 &&
	      st.tot_hitm == 1);

	/* no address */
	memset(&st, 0, sizeof(st));
	CHECK_EQ("load noadrs returns -1", hm_c2c_stats__add(&st, E_LH | E_L(L1), 0, true), -1);
	CHECK("load noadrs", st.load == 1 && st.ld_noadrs == 1 && st.ld_l1hit == 0 && st.nomap == 0);
	hm_c2c_stats__add(&st, HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(HIT), 0, false);
	CHECK("store noadrs", st.store == 1 && st.st_noadrs == 1 && st.st_l1hit == 0 && st.nomap == 0);
	/* stores */
	memset(&st, 0, sizeof(st));
	hm_c2c_stats__add(&st, HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(HIT) | HM_DS(LOCK, HM_LOCK_LOCKED), 8, true);
	hm_c2c_stats__add(&st, HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(MISS), 8, true);
	hm_c2c_stats__add(&st, HM_DS(OP, HM_OP_STORE) | E_L(NA), 8, true);
	hm_c2c_stats__add(&st, HM_DS(OP, HM_OP_STORE) | E_L(UNC) | E_L(HIT), 8, false);
	CHECK("stores", st.store == 4 && st.st_l1hit == 1 && st.st_l1miss == 1 && st.st_na == 1 &&
	      st.st_uncache == 1 && st.locks == 1 && st.nomap == 1);
	/* LOAD wins over STORE; blocked counts for any op; noparse */
	memset(&st, 0, sizeof(st));
	hm_c2c_stats__add(&st, HM_DS(OP, HM_OP_LOAD | HM_OP_STORE) | E_L(L1) | E_L(HIT), 8, true);
	hm_c2c_stats__add(&st, HM_DS(OP, HM_OP_PFETCH) | HM_DS(BLK, HM_BLK_DATA | HM_BLK_ADDR), 8, true);
	CHECK_EQ("noparse returns -1", hm_c2c_stats__add(&st, 0x1e05080021ULL, 8, true), -1);
	CHECK("load wins, blk any op, noparse", st.load == 1 && st.store == 0 && st.ld_l1hit == 1 &&
	      st.blk_data == 1 && st.blk_addr == 1 && st.noparse == 2 && st.nr_entries == 3);
	/* 6.1: an L2 hit with HITM is an L2 hit, not a local HITM; remote needs no HIT */
	memset(&st, 0, sizeof(st));
	hm_c2c_stats__add_v(&st, HM_PERF_6_1, E_LH | E_L(L2) | E_SNP(HITM), 8, true);
	hm_c2c_stats__add(&st, HM_DS(OP, HM_OP_LOAD) | E_L(L3) | E_SNP(HITM), 8, true);
	hm_c2c_stats__add(&st, HM_DS(OP, HM_OP_LOAD) | E_L(REM_CCE2) | E_L(MISS) | E_SNP(HITM), 8, true);
	CHECK("L2 hitm, no-HIT L3 hitm, no-HIT remote", st.ld_l2hit == 1 && st.lcl_hitm == 0 &&
	      st.ld_llchit == 0 && st.rmt_hitm == 1 && st.ld_miss == 1 && st.tot_hitm == 1);
	/* 6.12 counts as 6.1; 7.3 (and the default) count L2 + HITM as a local HITM */
	for (int v = 0; v < 3; v++) {
		static const enum hm_perf_compat vs[] = { HM_PERF_6_12, HM_PERF_7_3, HM_PERF_NEWEST };
		bool hitm = vs[v] != HM_PERF_6_12;

		memset(&st, 0, sizeof(st));
		if (vs[v] == HM_PERF_NEWEST)
			hm_c2c_stats__add(&st, E_LH | E_L(L2) | E_SNP(HITM) | HM_DS(SNOOPX, HM_SNOOPX_PEER), 8, true);
		else
			hm_c2c_stats__add_v(&st, vs[v], E_LH | E_L(L2) | E_SNP(HITM) | HM_DS(SNOOPX, HM_SNOOPX_PEER), 8, true);
		CHECK(hitm ? "7.3: L2 hitm is a local HITM" : "6.12: L2 hitm is an L2 hit",
		      st.ld_l2hit == !hitm && st.lcl_hitm == hitm && st.tot_hitm == hitm &&
		      st.lcl_peer == 1 && st.ld_llchit == 0);
	}
	{
		enum hm_perf_compat v;

		CHECK("--perf-compat names", !hm_perf_compat__parse("6.12", &v) && v == HM_PERF_6_12 &&
		      hm_perf_compat__parse("6.2", &v) == -EINVAL &&
		      !strcmp(hm_perf_compat__name(HM_PERF_NEWEST), "7.3") &&
		      !strcmp(hm_perf_compat__name(HM_PERF_6_1), "6.1"));
	}
	/* mapped */
	memset(&st, 0, sizeof(st));
	CHECK_EQ("unmapped returns -1", hm_c2c_stats__add(&st, E_LH | E_L(L1), 8, false), -1);
	CHECK_EQ("unmapped counted", st.nomap, 1);
	TAP_DONE();
}
