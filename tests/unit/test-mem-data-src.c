// SPDX-License-Identifier: GPL-2.0-only
/* data_src decode/encode and perf 6.1, 6.12 and 7.3 script text. */
#include "tap.h"
#include "test-mem-encodings.h"

static void text(const char *name, u64 v, const char *want)
{
	char buf[256];
	int n = hm_data_src__scnprintf(v, buf, sizeof(buf));

	if (!strcmp(buf, want) && n == (int)strlen(want))
		PASS(name);
	else
		FAILF(name, "0x%llx: \"%s\" (%d), expected \"%s\"", (unsigned long long)v, buf, n, want);
}

static void text_v(const char *name, enum hm_perf_compat v, u64 ds, const char *want)
{
	char buf[256];
	int n = hm_data_src__scnprintf_v(ds, v, buf, sizeof(buf));

	if (!strcmp(buf, want) && n == (int)strlen(want))
		PASS(name);
	else
		FAILF(name, "0x%llx: \"%s\" (%d), expected \"%s\"", (unsigned long long)ds, buf, n, want);
}

int main(void)
{
	struct hm_data_src d;
	char small[12];
	unsigned i;
	int bad = 0;

	hm_data_src__decode(0x1e05080021ULL, &d);
	CHECK("decode NONE op", d.op == HM_OP_NA && d.lvl == HM_LVL_NA && d.snoop == HM_SNOOP_NA &&
	      d.lock == HM_LOCK_NA && d.dtlb == HM_TLB_NA && d.lvl_num == HM_LVLNUM_NA);
	hm_data_src__decode(0x103629808042ULL, &d);
	CHECK("decode remote hitm", d.op == HM_OP_LOAD && d.lvl == (HM_LVL_HIT | HM_LVL_REM_CCE1) &&
	      d.snoop == HM_SNOOP_HITM && d.lvl_num == HM_LVLNUM_ANY_CACHE && d.remote == 1 &&
	      d.hops == HM_HOPS_1 && d.snoopx == 0 && d.blk == 0);
	hm_data_src__decode(~0ULL, &d);
	CHECK("decode all ones", d.op == 0x1f && d.lvl == 0x3fff && d.snoop == 0x1f && d.lock == 3 &&
	      d.dtlb == 0x7f && d.lvl_num == 0xf && d.remote == 1 && d.snoopx == 3 && d.blk == 7 &&
	      d.hops == 7 && d.region == 0x1f);
	CHECK("encode all ones", hm_data_src__encode(&d) == ((1ULL << 51) - 1));
	for (i = 0; i < 10000; i++) {
		u64 v = ((u64)rand() << 31 ^ (u64)rand() << 7 ^ (u64)rand() >> 3) & ((1ULL << 51) - 1);

		hm_data_src__decode(v, &d);
		if (hm_data_src__encode(&d) != v)
			bad++;
	}
	CHECK_EQ("encode(decode(v)) == v, 10000 values", bad, 0);

	/* What perf 6.1 script prints (notes/oracle.md §2, perf-c2c.md §1.4) */
	text("text NONE", 0x1e05080021ULL, "|OP N/A|LVL N/A or N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A");
	text("text local hitm", 0x629800842ULL, "|OP LOAD|LVL L3 or L3 hit|SNP HitM|TLB L1 hit|LCK N/A|BLK  N/A");
	text("text remote hitm", 0x103629808042ULL,
	     "|OP LOAD|LVL Remote node, same socket Any cache hit|SNP HitM|TLB L1 hit|LCK N/A|BLK  N/A");
	text("text L1 hit", 0x229100142ULL, "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A");
	text("text store", 0x229080144ULL, "|OP STORE|LVL L1 or L1 hit|SNP N/A|TLB L1 hit|LCK N/A|BLK  N/A");
	text("text lock blk peer", HM_DS(OP, HM_OP_LOAD) | HM_DS(LVL, HM_LVL_L2 | HM_LVL_HIT) |
	     HM_DS(SNOOPX, HM_SNOOPX_PEER) | HM_DS(LOCK, HM_LOCK_LOCKED) | HM_DS(BLK, HM_BLK_DATA | HM_BLK_ADDR) |
	     HM_DS(TLB, HM_TLB_L2 | HM_TLB_WK | HM_TLB_MISS),
	     "|OP LOAD|LVL L2 hit|SNP Peer|TLB L2 or Walker miss|LCK Yes|BLK  Data Addr");
	text("text unnamed lvlnum", HM_DS(OP, HM_OP_LOAD) | HM_DS(LVLNUM, 4) | HM_DS(LVL, HM_LVL_MISS),
	     "|OP LOAD|LVL L4 miss|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	text("text op none", 0, "|OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	CHECK_EQ("text truncates", hm_data_src__scnprintf(0x629800842ULL, small, sizeof(small)), 11);
	CHECK_STR("text truncated", small, "|OP LOAD|LV");
	/* perf 6.12 and 7.3: the level from mem_lvl_num (perf script of hm-gen files) */
	text_v("6.1 L1 hit", HM_PERF_6_1, 0x229100142ULL,
	       "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A");
	text_v("7.3 L1 hit", HM_PERF_7_3, 0x229100142ULL,
	       "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A");
	text_v("6.12 L3 hit", HM_PERF_6_12, 0x629200842ULL,
	       "|OP LOAD|LVL L3 hit|SNP Hit|TLB L1 hit|LCK N/A|BLK  N/A");
	/* remote, hops, no hit/miss: a trailing blank after the level, as perf */
	text_v("7.3 remote board RAM", HM_PERF_7_3,
	       HM_DS(OP, HM_OP_LOAD) | HM_DS(LVLNUM, 0xd) | HM_DS(REMOTE, 1) | HM_DS(HOPS, 4),
	       "|OP LOAD|LVL Remote board RAM |SNP N/A|TLB N/A|LCK No|BLK  N/A");
	text_v("7.3 L0 has no name", HM_PERF_7_3, HM_DS(OP, HM_OP_LOAD) | HM_DS(LVLNUM, 0x7) | HM_DS(LVL, HM_LVL_MISS),
	       "|OP LOAD|LVL Unknown level 7 miss|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	TAP_DONE();
}
