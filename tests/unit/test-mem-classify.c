// SPDX-License-Identifier: GPL-2.0-only
/* hitmap's precise categories: one test per vendor encoding. */
#include "tap.h"
#include "test-mem-encodings.h"

int main(void)
{
	struct hm_mem_class c;
	struct hm_header h;
	char name[160];
	unsigned i;

	for (i = 0; i < NR_ENCODINGS; i++) {
		const struct enc *e = &encodings[i];

		hm_mem__classify(e->vendor, e->ds, 0x1000, &c);
		snprintf(name, sizeof(name), "category %s", e->name);
		if (c.cat == e->cat && c.load && !c.store)
			PASS(name);
		else
			FAILF(name, "%s, expected %s", hm_mem_cat__name(c.cat), hm_mem_cat__name(e->cat));
	}

	/* An Intel remote HITM lands in one category, and it is remote */
	hm_mem__classify(HM_VENDOR_INTEL, E_LH | E_LN(ANY_CACHE) | E_REM | E_SNP(HITM), 0x1000, &c);
	CHECK("intel skl remote hitm counted once", c.cat == HM_CAT_HITM_REMOTE && c.hitm && c.remote);
	hm_mem__classify(HM_VENDOR_AMD, E_ALOAD | E_AL(L3) | E_AL(REM_CCE1) | E_LN(ANY_CACHE) | E_HOPS(0) |
			 E_SNP(HITM), 0x1000, &c);
	CHECK("amd zen2 local hitm counted once", c.cat == HM_CAT_HITM_LOCAL && c.hitm && !c.remote);
	/* AMD hops 1 is another node; elsewhere it is the same socket */
	hm_mem__classify(HM_VENDOR_POWER, E_LH | E_LN(ANY_CACHE) | E_REM | E_HOPS(1) | E_SNP(HITM), 1, &c);
	CHECK("hops 1 non-AMD is cross-die", c.cat == HM_CAT_HITM_XDIE && !c.remote);

	hm_mem__classify(HM_VENDOR_INTEL, 0x1e05080021ULL, 0x1000, &c);
	CHECK("no data source: none", c.cat == HM_CAT_NONE && !c.load && !c.store);
	hm_mem__classify(HM_VENDOR_INTEL, E_LH | E_L(L1), 0, &c);
	CHECK("load without address", c.cat == HM_CAT_NOADDR && c.load);
	hm_mem__classify(HM_VENDOR_INTEL, HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(HIT) | HM_DS(LOCK, HM_LOCK_LOCKED), 8, &c);
	CHECK("store l1 hit locked", c.cat == HM_CAT_STORE_L1HIT && c.store && c.locked);
	hm_mem__classify(HM_VENDOR_INTEL, HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(MISS), 8, &c);
	CHECK("store l1 miss", c.cat == HM_CAT_STORE_L1MISS);
	hm_mem__classify(HM_VENDOR_ARM, HM_DS(OP, HM_OP_STORE) | E_L(NA), 8, &c);
	CHECK("arm store n/a", c.cat == HM_CAT_STORE_OTHER);

	/* every category has a distinct name */
	for (i = 0; i < HM_CAT__MAX; i++) {
		unsigned j;
		for (j = i + 1; j < HM_CAT__MAX; j++)
			if (!strcmp(hm_mem_cat__name(i), hm_mem_cat__name(j)))
				break;
		if (j != HM_CAT__MAX)
			break;
	}
	CHECK_EQ("category names distinct", i, HM_CAT__MAX);

	/* random bit patterns: always exactly one category in range */
	for (i = 0; i < 100000; i++) {
		u64 v = ((u64)rand() << 31 ^ (u64)rand()) & ((1ULL << 51) - 1);
		hm_mem__classify(i & 1 ? HM_VENDOR_AMD : HM_VENDOR_INTEL, v, i & 7, &c);
		if ((unsigned)c.cat >= HM_CAT__MAX)
			break;
	}
	CHECK_EQ("random patterns classified", i, 100000);

	memset(&h, 0, sizeof(h));
	h.cpuid = "GenuineIntel,6,85,4";
	CHECK_EQ("vendor intel", hm_vendor__from_header(&h), HM_VENDOR_INTEL);
	h.cpuid = "AuthenticAMD,25,17,1";
	CHECK_EQ("vendor amd", hm_vendor__from_header(&h), HM_VENDOR_AMD);
	h.cpuid = "0x00000000410fd0c0";
	h.arch = "aarch64";
	CHECK_EQ("vendor arm", hm_vendor__from_header(&h), HM_VENDOR_ARM);
	h.cpuid = NULL;
	h.arch = "ppc64le";
	CHECK_EQ("vendor power", hm_vendor__from_header(&h), HM_VENDOR_POWER);
	h.arch = NULL;
	CHECK_EQ("vendor unknown", hm_vendor__from_header(&h), HM_VENDOR_UNKNOWN);
	CHECK_STR("vendor name", hm_vendor__name(HM_VENDOR_AMD), "amd");
	TAP_DONE();
}
