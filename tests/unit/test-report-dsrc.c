// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report's data_src cache (src/report/dsrc-cache.c): what it answers
 * is what decoding each sample answers, its totals are the per-sample
 * sums, a value enters the table the second time it is met, and values
 * met once (random data_src) leave the table as it was.
 */
#include "tap.h"
#include "report/dsrc-cache.h"

static u64 rnd_state = 0x243f6a8885a308d3ULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* A few recurring values (loads, a store, TLB bits that do not count) and random ones. */
static u64 value(u64 i)
{
	static const u64 common[] = {
		0x68100142ULL,			/* load L1 hit */
		0x1a100242ULL,			/* load LFB */
		0x6a100842ULL | (1ULL << 37),	/* load remote, hops 0 */
		0x29041ULL << 0,		/* store */
		0x68100142ULL | (0x3ULL << 26),	/* the first with other TLB bits */
	};

	if (i % 6 == 5)
		return rnd() & ((1ULL << 46) - 1);
	return common[i % (sizeof(common) / sizeof(common[0]))];
}

int main(void)
{
	const struct hm_dsrc_how how = { HM_VENDOR_INTEL, HM_PERF_NEWEST, NULL };
	struct hm_dsrc_cache *c = hm_dsrc_cache__new();
	struct hm_c2c_stats tot = { 0 }, want = { 0 };
	bool same = true;
	u32 nr_before;
	u64 i;

	if (!c) {
		FAILF("new", "out of memory");
		TAP_DONE();
	}
	/* met once: decoded, not kept */
	hm_dsrc_cache__get(c, &how, 0x68100142ULL, 0x1000, true, NULL);
	CHECK_EQ("a value met once is not in the table", c->nr, 0);
	hm_dsrc_cache__get(c, &how, 0x68100142ULL, 0x1000, true, NULL);
	CHECK_EQ("met twice, it is", c->nr, 1);
	hm_dsrc_cache__get(c, &how, 0x68100142ULL, 0, true, NULL);
	hm_dsrc_cache__get(c, &how, 0x68100142ULL, 0, true, NULL);
	CHECK_EQ("no data address: another entry", c->nr, 2);

	for (i = 0; i < 200000; i++) {
		u64 ds = value(i), daddr = i % 97 ? 0x1000 + i : 0;
		bool mapped = i % 13;
		const struct hm_dsrc_ent *e = hm_dsrc_cache__get(c, &how, ds, daddr, mapped, &tot);
		struct hm_c2c_stats one = { 0 };
		struct hm_mem_class cls;

		hm_c2c_stats__add_v(&one, HM_PERF_NEWEST, ds, daddr, mapped);
		hm_mem__classify(HM_VENDOR_INTEL, ds, daddr, &cls);
		hm_c2c_stats__sum(&want, &one);
		if (!e || memcmp(&e->one, &one, sizeof(one)) || e->cls.cat != cls.cat ||
		    e->cls.hitm != cls.hitm || e->cls.remote != cls.remote ||
		    e->cls.load != cls.load || e->cls.store != cls.store || e->cls.locked != cls.locked)
			same = false;
	}
	CHECK("each answer is the sample's own decode", same);
	CHECK("random values stay out of the table", c->nr < 64);
	nr_before = c->nr;
	hm_dsrc_cache__fold(c, &tot);
	CHECK("folded totals are the per-sample sums", !memcmp(&tot, &want, sizeof(tot)));
	hm_dsrc_cache__fold(c, &tot);
	CHECK("a second fold adds nothing", !memcmp(&tot, &want, sizeof(tot)));
	CHECK_EQ("folding keeps the table", c->nr, nr_before);
	hm_dsrc_cache__delete(c);
	hm_dsrc_cache__delete(NULL);
	TAP_DONE();
}
