// SPDX-License-Identifier: GPL-2.0-only
/*
 * The futex model's lookups by binary search (model-index.h).  Where no two
 * tables overlap, at most one holds an address, so the search finds what the
 * walk in the tables' order finds; likewise a private table's header (the
 * fph.queues bytes below its base) when no header reaches down to the base
 * below it, and an mm's fields when no two mms lie closer than the fields'
 * extent.  Anything else is left to the walk.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model-index.h"

/* An element's address and its index in the model's array. */
struct kv {
	u64	key;
	u32	idx;
};

struct hm_futex_index {
	u32			gen, bs, queues;	/* what it was built for */
	struct hm_futex_mm_layout mm_layout;
	bool			tabs_ok, fph_ok, mms_ok;
	u32			nr_tabs, nr_mms;
	struct kv		*tabs;		/* the tables with a base, by base */
	struct kv		*mms;		/* the mms, by address */
};

static int kv_cmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The number of @kv[0..n) (sorted) whose key is at or below @addr. */
static u32 at_or_below(const struct kv *kv, u32 n, u64 addr)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (kv[mid].key <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How far past an mm's address its futex fields reach (0: none). */
static u64 mm_extent(const struct hm_futex_model *m)
{
	u64 e = 0;

	for (u32 j = 0; j < m->nr_mm_names; j++)
		if ((u64)m->mm_names[j].off + m->mm_names[j].size > e)
			e = (u64)m->mm_names[j].off + m->mm_names[j].size;
	if (m->nr_mm_names)
		return e;
	for (int f = 0; f < HM_FUTEX_MM__MAX; f++) {
		s32 o = m->mm.offset[f];

		if (o >= 0 && (u64)o + hm_futex_mm__field_size(&m->mm, f) > e)
			e = (u64)o + hm_futex_mm__field_size(&m->mm, f);
	}
	return e;
}

static void index_tables(const struct hm_futex_model *m, struct hm_futex_index *x)
{
	struct kv *kv = x->tabs;
	u32 n = 0;

	for (u32 i = 0; i < m->nr_tables; i++)
		if (m->tables[i].base)
			kv[n++] = (struct kv){ m->tables[i].base, i };
	qsort(kv, n, sizeof(*kv), kv_cmp);
	x->tabs_ok = x->fph_ok = true;
	for (u32 i = 0; i < n; i++) {
		const struct hm_futex_table *t = &m->tables[kv[i].idx];
		u64 len = t->slots * x->bs, end = t->base + len;

		if (len / x->bs != t->slots || end < t->base || (i + 1 < n && end > kv[i + 1].key))
			x->tabs_ok = false;	/* overflows, or overlaps the next */
		if (i && kv[i].key == kv[i - 1].key)
			x->fph_ok = false;
		/* a header that reaches the base below it */
		if (i && t->kind == 1 && t->base >= x->queues && t->base - x->queues < kv[i - 1].key)
			x->fph_ok = false;
	}
	x->nr_tabs = n;
}

static void index_mms(const struct hm_futex_model *m, struct hm_futex_index *x)
{
	struct kv *kv = x->mms;
	u64 e = mm_extent(m);

	for (u32 i = 0; i < m->nr_mms; i++)
		kv[i] = (struct kv){ m->mms[i].addr, i };
	qsort(kv, m->nr_mms, sizeof(*kv), kv_cmp);
	x->mms_ok = true;
	for (u32 i = 0; i < m->nr_mms; i++) {
		/* (add_mm keeps one entry an address: no two are equal) */
		if (kv[i].key > UINT64_MAX - e || (i + 1 < m->nr_mms && kv[i + 1].key - kv[i].key < e))
			x->mms_ok = false;
	}
	x->nr_mms = m->nr_mms;
}

int hm_futex_model__index(struct hm_futex_model *m)
{
	struct hm_futex_index *x;

	hm_futex_index__delete(m->index);
	m->index = NULL;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->gen = m->gen;
	x->bs = m->layout.bucket_size ? m->layout.bucket_size : 64;
	x->queues = m->fph.queues;
	x->mm_layout = m->mm;
	x->tabs = malloc((m->nr_tables + 1) * sizeof(*x->tabs));
	x->mms = malloc((m->nr_mms + 1) * sizeof(*x->mms));
	if (!x->tabs || !x->mms) {
		hm_futex_index__delete(x);
		return -ENOMEM;
	}
	index_tables(m, x);
	index_mms(m, x);
	m->index = x;
	return 0;
}

void hm_futex_index__delete(struct hm_futex_index *x)
{
	if (!x)
		return;
	free(x->tabs);
	free(x->mms);
	free(x);
}

int hm_futex_index__table(const struct hm_futex_model *m, u64 addr, u32 bs)
{
	const struct hm_futex_index *x = m->index;
	u32 p;

	if (!x || x->gen != m->gen || x->bs != bs || !x->tabs_ok)
		return HM_FX_WALK;
	p = at_or_below(x->tabs, x->nr_tabs, addr);
	return p ? (int)x->tabs[p - 1].idx : HM_FX_NONE;
}

int hm_futex_index__fph(const struct hm_futex_model *m, u64 addr)
{
	const struct hm_futex_index *x = m->index;
	u32 p;

	if (!x || x->gen != m->gen || x->queues != m->fph.queues || !x->fph_ok)
		return HM_FX_WALK;
	/* the lowest base above @addr: no header above it reaches down this far */
	p = at_or_below(x->tabs, x->nr_tabs, addr);
	return p < x->nr_tabs ? (int)x->tabs[p].idx : HM_FX_NONE;
}

int hm_futex_index__mm(const struct hm_futex_model *m, u64 addr)
{
	const struct hm_futex_index *x = m->index;
	u32 p;

	if (!x || x->gen != m->gen || !x->mms_ok || memcmp(&x->mm_layout, &m->mm, sizeof(m->mm)))
		return HM_FX_WALK;
	p = at_or_below(x->mms, x->nr_mms, addr);
	return p ? (int)x->mms[p - 1].idx : HM_FX_NONE;
}
