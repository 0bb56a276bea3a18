// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_futex_model__index: with the index, hm_futex_model__locate answers as
 * the walk of the tables and mms does, address by address, on models of
 * thousands of tables (a private hash per process), with tables or mms
 * close enough to overlap (where the index must leave it to the walk),
 * and after the model changed (a stale index must not answer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/futex.h>
#include "futex/model-index.h"
#include "tap.h"

static u64 rng = 0x9e3779b97f4a7c15ull;

static u64 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static bool same_site(const struct hm_futex_site *a, const struct hm_futex_site *b)
{
	return a->where == b->where && a->loc.table == b->loc.table && a->loc.index == b->loc.index &&
	       a->loc.field == b->loc.field && a->loc.offset == b->loc.offset && a->offset == b->offset &&
	       a->pid == b->pid && a->name == b->name;
}

/*
 * @n private tables from @base, @gap bytes between one's end and the next
 * base (negative: overlapping), and @nmm mms @mgap apart; two global tables
 * below them all.
 */
static void build(struct hm_futex_model *m, u32 n, s64 gap, u32 nmm, u64 mgap)
{
	u64 at = 0xffff888200000000ull;
	struct hm_futex_table t;

	hm_futex_model__init(m, HM_FUTEX_ERA_6_17);
	for (int g = 0; g < 2; g++) {
		t = (struct hm_futex_table){ .kind = 0, .node = g, .base = 0xffff888100000000ull + g * 0x4000000ull,
					     .slots = 32768 };
		hm_futex_model__add_table(m, &t);
	}
	for (u32 i = 0; i < n; i++) {
		u64 slots = 16ull << (rnd() % 7);

		t = (struct hm_futex_table){ .kind = 1, .node = -1, .pid = (s32)(1000 + i), .base = at, .slots = slots };
		hm_futex_model__add_table(m, &t);
		at += slots * 64 + gap;
	}
	/* one table of unknown base: never a match */
	t = (struct hm_futex_table){ .kind = 1, .pid = 99, .base = 0, .slots = 16 };
	hm_futex_model__add_table(m, &t);
	for (u32 i = 0; i < nmm; i++)
		hm_futex_model__add_mm(m, (s32)(5000 + i), 0xffff888400000000ull + i * mgap);
}

/* Addresses near every base, header and mm, and anywhere: mismatches of the index against the walk. */
static u32 compare(struct hm_futex_model *m, u32 nr, u32 *indexed)
{
	struct hm_futex_model walk = *m;
	struct hm_futex_site a, b;
	u32 bad = 0;

	walk.index = NULL;
	*indexed = 0;
	for (u32 k = 0; k < nr; k++) {
		u64 addr;

		switch (k % 4) {
		case 0:
			addr = m->tables[rnd() % m->nr_tables].base + (rnd() % 4096) - 2048;
			break;
		case 1:
			addr = m->nr_mms ? m->mms[rnd() % m->nr_mms].addr + (rnd() % 2048) - 512 : rnd();
			break;
		case 2:
			addr = 0xffff888000000000ull + (rnd() % 0x800000000ull);
			break;
		default:
			addr = rnd();
			break;
		}
		if (hm_futex_index__table(m, addr, 64) != HM_FX_WALK)
			(*indexed)++;
		hm_futex_model__locate(m, addr, &a);
		hm_futex_model__locate(&walk, addr, &b);
		if (!same_site(&a, &b))
			bad++;
	}
	return bad;
}

int main(void)
{
	struct hm_futex_model m;
	struct hm_futex_site s;
	u32 indexed;

	/* apart: the index answers every lookup */
	build(&m, 3000, 128, 500, 4096);
	CHECK_EQ("index built", hm_futex_model__index(&m), 0);
	CHECK_EQ("3000 tables apart: the index answers as the walk, 400k addresses", compare(&m, 400000, &indexed), 0);
	CHECK_EQ("3000 tables apart: every lookup by the index", indexed, 400000);
	CHECK("a bucket found", hm_futex_model__locate(&m, m.tables[700].base + 64 * 3 + 8, &s) == 1 &&
	      s.where == HM_FUTEX_WHERE_BUCKET && s.loc.table == &m.tables[700] && s.loc.index == 3);
	CHECK("a private header found", hm_futex_model__locate(&m, m.tables[700].base - 60, &s) == 1 &&
	      s.where == HM_FUTEX_WHERE_FPH_HEADER && s.pid == m.tables[700].pid);
	CHECK("an mm field found", hm_futex_model__locate(&m, m.mms[123].addr + (u64)m.mm.offset[HM_FUTEX_MM_futex_phash],
							  &s) == 1 && s.where == HM_FUTEX_WHERE_MM && s.pid == 5123);

	/* stale: a table added after the index, then another bucket size */
	{
		struct hm_futex_table t = { .kind = 1, .pid = 7777, .base = 0xffff888900000000ull, .slots = 64 };

		hm_futex_model__add_table(&m, &t);
		CHECK("a table added after the index is found", hm_futex_model__locate(&m, t.base + 64, &s) == 1 &&
		      s.where == HM_FUTEX_WHERE_BUCKET && s.pid == 7777);
		CHECK_EQ("a stale index leaves it to the walk", hm_futex_index__table(&m, t.base, 64), HM_FX_WALK);
		CHECK_EQ("stale: the same answers as the walk", compare(&m, 20000, &indexed), 0);
		CHECK_EQ("index again", hm_futex_model__index(&m), 0);
		m.layout.bucket_size = 128;
		CHECK_EQ("another bucket size: the walk", hm_futex_index__table(&m, t.base, 128), HM_FX_WALK);
		CHECK_EQ("another bucket size: the same answers", compare(&m, 20000, &indexed), 0);
	}
	hm_futex_model__release(&m);

	/* overlapping tables: the walk's order decides, the index stands aside */
	build(&m, 500, -256, 100, 4096);
	CHECK_EQ("index built (overlapping)", hm_futex_model__index(&m), 0);
	CHECK_EQ("overlapping tables: the same answers as the walk", compare(&m, 100000, &indexed), 0);
	CHECK_EQ("overlapping tables: the index stands aside", indexed, 0);
	hm_futex_model__release(&m);

	/* headers that reach into the table below, mms closer than their fields */
	build(&m, 500, 16, 100, 64);
	CHECK_EQ("index built (close)", hm_futex_model__index(&m), 0);
	CHECK_EQ("close headers and mms: the same answers as the walk", compare(&m, 100000, &indexed), 0);
	/* a header reaching into the buckets below is no overlap: the buckets are looked up first */
	CHECK("close headers: the header lookup still answers", hm_futex_index__fph(&m, m.tables[10].base - 8) >= 0);
	CHECK_EQ("close mms: the mm lookup stands aside", hm_futex_index__mm(&m, m.mms[10].addr), HM_FX_WALK);
	hm_futex_model__release(&m);

	/* no tables, no mms */
	hm_futex_model__init(&m, HM_FUTEX_ERA_6_16);
	CHECK_EQ("empty model indexed", hm_futex_model__index(&m), 0);
	CHECK("empty model: nothing found", hm_futex_model__locate(&m, 0xffff888100000000ull, &s) == 0);
	hm_futex_model__release(&m);
	hm_futex_model__release(&m);
	TAP_DONE();
}
