// SPDX-License-Identifier: GPL-2.0-only
/*
 * The futex views of a range's part into those of the parts before it
 * (report --threads over byte ranges, report-chunks.c): what one pass over
 * both ranges builds, the later part's samples after the earlier's.
 *
 *   order     buckets, objects and field rows stay in the order of their
 *             first sample: the source's new ones follow the destination's,
 *             in the source's order;
 *   ids       names and classifications are interned per part: the
 *             source's are looked up (made) in the destination by content
 *             and its entries' keys rewritten;
 *   functions a field names its first MAX_FUNCS functions of the whole
 *             file, which a part cannot know: parts name every function
 *             (max_funcs unbounded) and the merge into the report's own
 *             views, the last one, names the first MAX_FUNCS of them in
 *             order and counts the rest together, as one pass does;
 *   sums      counts, costs, the socket cells and the HITM matrix.
 *
 * Contention mode is not merged (-EOPNOTSUPP): a wait begun in one range
 * may end in the next.  report-range.c does not cut such files.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "buckets-int.h"
#include "util/prefetch.h"

struct bk_maps {
	u32	*cls;		/* the source's class -> the destination's */
	u32	*name;		/* the source's name -> the destination's */
	u32	*frow;		/* the source's field row -> the destination's */
};

static void maps_free(struct bk_maps *m)
{
	free(m->cls);
	free(m->name);
	free(m->frow);
}

static int maps_make(struct hm_buckets *dst, const struct hm_buckets *src, struct bk_maps *m)
{
	u32 i;

	m->cls = malloc((src->nr_cls + 1) * sizeof(*m->cls));
	m->name = malloc((src->nr_names + 1) * sizeof(*m->name));
	m->frow = malloc((src->nr_frows + 1) * sizeof(*m->frow));
	if (!m->cls || !m->name || !m->frow)
		return -ENOMEM;
	for (i = 0; i < src->nr_cls; i++) {
		int id = hm_buckets__class(dst, &src->cls[i].one, src->cls[i].cat);

		if (id < 0)
			return id;
		m->cls[i] = (u32)id;
	}
	for (i = 0; i < src->nr_names; i++) {
		s32 id = hm_buckets__name(dst, src->names[i]);

		if (id < 0)
			return id;
		m->name[i] = (u32)id;
	}
	return 0;
}

/* A class's counts (struct bk_hist, classes past BK_HIST_MAX in rc) into the destination's row. */
static int hist_merge(struct hm_buckets *dst, struct bk_hist *d, u32 row, const struct bk_hist *s,
		      const u32 *cls)
{
	for (u32 k = 0; k < s->cap; k++) {
		int err;

		if (s->n[k] && (err = hm_buckets__hist_add(dst, d, row, cls[k], s->n[k])) < 0)
			return err;
	}
	return 0;
}

static int frows_merge(struct hm_buckets *dst, const struct hm_buckets *src, struct bk_maps *m)
{
	for (u32 i = 0; i < src->nr_frows; i++) {
		const struct frow *s = &src->frows[i];
		s32 id = hm_buckets__name(dst, s->func);
		struct frow *d;
		int err;

		if (id < 0)
			return id;
		d = hm_buckets__frow(dst, s->kind, s->field, s->acc, dst->names[id]);
		if (!d)
			return -ENOMEM;
		m->frow[i] = (u32)(d - dst->frows);
		d->cost += s->cost;
		err = hist_merge(dst, &d->h, m->frow[i] + 1, &s->h, m->cls);
		if (err < 0)
			return err;
	}
	return 0;
}

/* The socket x node cells, the HITM matrix, the counters. */
static int cells_merge(struct hm_buckets *dst, const struct hm_buckets *src, const struct bk_maps *m)
{
	u32 nx = dst->nr_sockets * (dst->nr_nodes + 1);

	for (u32 c = 0; c < nx; c++) {
		int err = hist_merge(dst, &dst->xh[c], BK_RC_XFER | c, &src->xh[c], m->cls);

		if (err < 0)
			return err;
		dst->cont[c] += src->cont[c];
		dst->cont_wait[c] += src->cont_wait[c];
	}
	for (u32 c = 0; c < dst->nr_sockets * dst->nr_sockets; c++)
		dst->hitm[c] += src->hitm[c];
	dst->hitm_unknown += src->hitm_unknown;
	dst->futex_samples += src->futex_samples;
	dst->resolved += src->resolved;
	dst->unknown_index += src->unknown_index;
	dst->objects += src->objects;
	return 0;
}

/* The source's classes past BK_HIST_MAX (rc), in the destination's rows. */
static int rc_merge(struct hm_buckets *dst, const struct hm_buckets *src, const struct bk_maps *m)
{
	for (u32 i = 0; i < src->nr_rc_slots; i++) {
		const struct bk_rc *x = &src->rc[i];
		u32 row;
		int err;

		if (!x->row)
			continue;
		row = x->row & BK_RC_XFER ? x->row : m->frow[x->row - 1] + 1;
		err = hm_buckets__hist_add(dst, row & BK_RC_XFER ? &dst->xh[row & ~BK_RC_XFER] :
					   &dst->frows[row - 1].h, row, m->cls[x->cls], x->n);
		if (err < 0)
			return err;
	}
	return 0;
}

/* Bucket @s's entries into @d: counts by their rewritten key, functions by name. */
static int entries_merge(struct hm_buckets *dst, struct bk *d, const struct bk *s, const struct bk_maps *m)
{
	for (u32 i = 0; i < s->nr; i++) {
		u32 key = s->ent[i].key, n = s->ent[i].n;
		int err;

		if (key & BK_FUNC) {
			u32 id = key & BK_FUNC_OTHER;

			err = hm_buckets__func_n(dst, d, (int)bk_key__field(key),
						 id == BK_FUNC_OTHER ? BK_FUNC_OTHER : m->name[id], n);
		} else {
			err = hm_buckets__count_n(dst, d, bk_key__with_class(key, m->cls[bk_key__class(key)]), n);
		}
		if (err < 0)
			return err;
	}
	return 0;
}

static int buckets_merge(struct hm_buckets *dst, const struct hm_buckets *src, const struct bk_maps *m,
			 const struct hm_futex_model *model)
{
	/* the destination's buckets come in another order: looked up a few ahead, in stages */
	enum { D = 4 };

	for (u32 i = 0; i < src->nr; i++) {
		const struct bk *s = &src->b[i];
		u64 slots = s->table >= 0 && (u32)s->table < model->nr_tables ? model->tables[s->table].slots : 0;
		struct bk *d = hm_buckets__get(dst, s->table, s->index, slots);
		int err;

		if (i + 3 * D < src->nr)
			hm_buckets__prefetch(dst, src->b[i + 3 * D].table, src->b[i + 3 * D].index, 0);
		if (i + 2 * D < src->nr)
			hm_buckets__prefetch(dst, src->b[i + 2 * D].table, src->b[i + 2 * D].index, 1);
		if (i + D < src->nr) {
			hm_buckets__prefetch(dst, src->b[i + D].table, src->b[i + D].index, 2);
			hm_prefetch(src->b[i + D].ent);
		}
		if (!d)
			return -ENOMEM;
		d->cost += s->cost;
		d->contended += s->contended;
		d->wait_ns += s->wait_ns;
		d->waits += s->waits;
		if (s->wait_max_ns > d->wait_max_ns)
			d->wait_max_ns = s->wait_max_ns;
		err = entries_merge(dst, d, s, m);
		if (err < 0)
			return err;
	}
	return 0;
}

static int objs_merge(struct hm_buckets *dst, const struct hm_buckets *src)
{
	for (u32 i = 0; i < src->nr_objs; i++) {
		const struct obj *s = &src->objs[i];
		struct obj *d = hm_buckets__obj(dst, s->name, s->pid, s->addr);

		if (!d)
			return -ENOMEM;
		hm_counts__sum(&d->st, &s->st);
		d->cost += s->cost;
	}
	return 0;
}

/* Nothing added yet: the report's own views, before the parts' merge. */
static bool empty(const struct hm_buckets *b)
{
	return !b->nr && !b->nr_objs && !b->nr_frows && !b->nr_cls && !b->nr_names && !b->futex_samples &&
	       !b->q_n && !b->nr_rc;
}

/*
 * The parts' merged views into the report's empty ones: taken over whole,
 * the fields' functions past the report's cap counted together; the
 * caches, which point into the part's symbols and events, emptied.
 */
static int take_over(struct hm_buckets *dst, struct hm_buckets *src)
{
	struct hm_buckets t = *dst;
	u32 max = dst->max_funcs;

	*dst = *src;
	*src = t;
	memset(dst->fn_cache, 0, sizeof(dst->fn_cache));
	memset(dst->name_cache, 0, sizeof(dst->name_cache));
	memset(dst->ev_seen, 0, sizeof(dst->ev_seen));
	return max < dst->max_funcs ? hm_buckets__cap_funcs(dst, max) : 0;
}

int hm_buckets__merge(struct hm_buckets *dst, struct hm_buckets *src, const struct hm_futex_model *model)
{
	struct bk_maps m = { 0 };
	int err;

	if (!dst || !src)
		return 0;
	if (src->contentions || src->nr_waits || dst->contentions || dst->nr_waits)
		return -EOPNOTSUPP;
	if (src->nr_sockets != dst->nr_sockets || src->nr_nodes != dst->nr_nodes)
		return -EINVAL;
	err = hm_buckets__drain(src);
	if (!err && empty(dst))
		return take_over(dst, src);
	if (!err)
		err = hm_buckets__drain(dst);
	if (!err)
		err = maps_make(dst, src, &m);
	if (!err)
		err = frows_merge(dst, src, &m);
	if (!err)
		err = cells_merge(dst, src, &m);
	if (!err)
		err = rc_merge(dst, src, &m);
	if (!err)
		err = buckets_merge(dst, src, &m, model);
	if (!err)
		err = objs_merge(dst, src);
	maps_free(&m);
	return err;
}

void hm_buckets__name_all_funcs(struct hm_buckets *b)
{
	if (b)
		b->max_funcs = UINT32_MAX;
}

size_t hm_buckets__count(const struct hm_buckets *b)
{
	return b ? (size_t)b->nr + b->nr_objs : 0;
}
