// SPDX-License-Identifier: GPL-2.0-only
/*
 * The futex views' buckets (buckets-int.h: struct bk): found by table and
 * index, their compact entries, and the queue that applies a sample's
 * update a few samples late so that its cache misses overlap other work.
 * buckets.c decides what a sample adds; this file only stores it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "buckets-int.h"
#include "util/prefetch.h"

/* blocks of 4 << k entries, k <= ENT_CHUNK_K from the arena, larger ones malloc'ed */
#define ENT_CHUNK_K	10

/* k of the block holding @nr entries (nr > 0) */
static u32 ent_k(u32 nr)
{
	u32 k = 0;

	while ((4u << k) < nr)
		k++;
	return k;
}

static u32 bslot_hash(s32 table, u64 index)
{
	u64 v = ((u64)(table + 1) << 48) ^ index;

	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return (u32)v;
}

/* A bucket found by the hash: of no known table, or of a table over BK_DENSE_MAX slots. */
static bool bk_hashed(const struct hm_buckets *b, s32 table)
{
	return table < 0 || (u32)table >= b->nr_tabs || b->tabs[table].hashed;
}

static int bslots_grow(struct hm_buckets *b)
{
	u32 n = b->nr_bslots ? 2 * b->nr_bslots : 1024;
	struct bk_slot *ns = calloc(n, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (u32 i = 0; i < b->nr; i++) {
		u32 h = bslot_hash(b->b[i].table, b->b[i].index) & (n - 1);

		if (!bk_hashed(b, b->b[i].table))
			continue;
		while (ns[h].idx)
			h = (h + 1) & (n - 1);
		ns[h] = (struct bk_slot){ .index = b->b[i].index, .table = b->b[i].table, .idx = i + 1 };
	}
	free(b->bslot);
	b->bslot = ns;
	b->nr_bslots = n;
	return 0;
}

/* A new bucket (@table, @index) at the end of b->b (buckets stay in the order of their first sample). */
static struct bk *bk_new(struct hm_buckets *b, s32 table, u64 index)
{
	struct bk *e;

	if (b->nr == b->alloc) {
		u32 n = b->alloc ? 2 * b->alloc : 256;
		struct bk *p = hm_big__realloc(b->b, b->alloc * sizeof(*p), n * sizeof(*p));

		if (!p)
			return NULL;
		b->b = p;
		b->alloc = n;
	}
	e = &b->b[b->nr++];
	memset(e, 0, sizeof(*e));
	e->table = table;
	e->index = index;
	return e;
}

/* The bucket (@table, @index) of hash @h in bslot, made on its first sample. */
static struct bk *bucket_hashed(struct hm_buckets *b, s32 table, u64 index, u32 h)
{
	struct bk_slot *sl;
	struct bk *e;

	if (2 * (b->nr_hashed + 1) > b->nr_bslots && bslots_grow(b) < 0)
		return NULL;
	h &= b->nr_bslots - 1;
	for (sl = &b->bslot[h]; sl->idx; sl = &b->bslot[h]) {
		if (sl->table == table && sl->index == index)
			return &b->b[sl->idx - 1];
		h = (h + 1) & (b->nr_bslots - 1);
	}
	e = bk_new(b, table, index);
	if (!e)
		return NULL;
	*sl = (struct bk_slot){ .index = index, .table = table, .idx = b->nr };
	b->nr_hashed++;
	return e;
}

/*
 * Where bucket @index of table @table (of @slots slots; -1: no known table)
 * is numbered: *ds its slot in the table's array, or NULL for the hash
 * (-ENOMEM).  Whether a table has an array depends on its size alone, so a
 * bucket is always found where it was made.
 */
int hm_buckets__dense_slot(struct hm_buckets *b, s32 table, u64 index, u64 slots, u32 **ds)
{
	struct bk_tab *t;

	*ds = NULL;
	if (table < 0 || index >= slots)
		return 0;
	if ((u32)table >= b->nr_tabs) {
		u32 n = b->nr_tabs ? b->nr_tabs : 4;
		struct bk_tab *p;

		while (n <= (u32)table)
			n *= 2;
		p = realloc(b->tabs, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + b->nr_tabs, 0, (n - b->nr_tabs) * sizeof(*p));
		b->tabs = p;
		b->nr_tabs = n;
	}
	t = &b->tabs[table];
	if (!t->idx && !t->hashed) {
		if (slots > BK_DENSE_MAX) {
			t->hashed = true;
		} else {
			/* calloc: only the pages of touched slots take memory */
			t->idx = calloc(slots, sizeof(*t->idx));
			if (!t->idx)
				return -ENOMEM;
		}
	}
	if (t->idx)
		*ds = &t->idx[index];
	return 0;
}

/* The bucket (@table, @index) numbered at @ds (NULL: by hash @h), made on its first sample. */
static struct bk *bucket_at(struct hm_buckets *b, s32 table, u64 index, u32 *ds, u32 h)
{
	struct bk *e;

	if (!ds)
		return bucket_hashed(b, table, index, h);
	if (*ds)
		return &b->b[*ds - 1];
	e = bk_new(b, table, index);
	if (e)
		*ds = b->nr;
	return e;
}

/* The bucket (@table, @index) of a table of @slots slots (-1: none), made on its first sample. */
struct bk *hm_buckets__get(struct hm_buckets *b, s32 table, u64 index, u64 slots)
{
	u32 *ds;

	if (hm_buckets__dense_slot(b, table, index, slots, &ds) < 0)
		return NULL;
	return bucket_at(b, table, index, ds, ds ? 0 : bslot_hash(table, index));
}

/*
 * A lookup ahead of hm_buckets__get (the merge's, whose buckets come in
 * another part's order): stage 0 the bucket's number (its table's array
 * or its hash slot), 1 the bucket, 2 its entries.  Reads only what an
 * earlier stage fetched.
 */
void hm_buckets__prefetch(const struct hm_buckets *b, s32 table, u64 index, int stage)
{
	const struct bk_tab *t = table >= 0 && (u32)table < b->nr_tabs ? &b->tabs[table] : NULL;
	u32 idx = 0;

	if (t && t->idx) {
		if (stage == 0) {
			hm_prefetch(&t->idx[index]);
			return;
		}
		idx = t->idx[index];
	} else if (b->nr_bslots) {
		u32 h = bslot_hash(table, index) & (b->nr_bslots - 1);

		if (stage == 0) {
			hm_prefetch(&b->bslot[h]);
			return;
		}
		if (b->bslot[h].table == table && b->bslot[h].index == index)
			idx = b->bslot[h].idx;
	}
	if (!idx)
		return;
	if (stage == 1)
		hm_prefetch(&b->b[idx - 1]);
	else
		hm_prefetch(b->b[idx - 1].ent);
}

/* The idx of bucket (@table, @index) of hash @h in bslot, 0: none yet. */
static u32 bucket_find(const struct hm_buckets *b, s32 table, u64 index, u32 h)
{
	u32 mask = b->nr_bslots - 1;

	if (!b->nr_bslots)
		return 0;
	for (h &= mask; b->bslot[h].idx; h = (h + 1) & mask)
		if (b->bslot[h].table == table && b->bslot[h].index == index)
			return b->bslot[h].idx;
	return 0;
}

/* ------------------------------------------------------------ entries */

static struct bk_ent *ent_alloc(struct hm_buckets *b, u32 k)
{
	size_t size = (size_t)sizeof(struct bk_ent) << (k + 2);
	struct bk_ent *e;

	if (k > ENT_CHUNK_K)
		return malloc(size);
	if (b->ent_free[k]) {	/* an outgrown block: its first bytes link the next */
		e = b->ent_free[k];
		memcpy(&b->ent_free[k], e, sizeof(e));
		return e;
	}
	return hm_arena__alloc(&b->ent_arena, size);
}

static void ent_release(struct hm_buckets *b, struct bk_ent *e, u32 k)
{
	if (k > ENT_CHUNK_K) {
		free(e);
		return;
	}
	memcpy(e, &b->ent_free[k], sizeof(e));
	b->ent_free[k] = e;
}

/* A new entry @key with @n samples at the end of @e's (-ENOMEM). */
static int ent_append(struct hm_buckets *b, struct bk *e, u32 key, u32 n)
{
	if (!e->nr || (e->nr >= 4 && !(e->nr & (e->nr - 1)))) {	/* none yet, or full */
		u32 k = e->nr ? ent_k(e->nr) + 1 : 0;
		struct bk_ent *ne = ent_alloc(b, k);

		if (!ne)
			return -ENOMEM;
		if (e->nr) {
			memcpy(ne, e->ent, e->nr * sizeof(*ne));
			ent_release(b, e->ent, k - 1);
		}
		e->ent = ne;
	}
	e->ent[e->nr++] = (struct bk_ent){ .key = key, .n = n };
	return 0;
}

/* A memory sample: one more in count entry @dkey and, as ent_func, for function @fid of @field; one pass. */
static int ent_sample(struct hm_buckets *b, struct bk *e, u32 dkey, int field, u32 fid)
{
	u32 fk = bk_key__func((u32)field, 0), fkey = fk | fid, nf = 0;
	struct bk_ent *d = NULL, *fn = NULL, *other = NULL;
	int err = 0;

	for (u32 i = 0; i < e->nr; i++) {
		struct bk_ent *x = &e->ent[i];

		if (x->key == dkey) {
			d = x;
			if (fn)
				break;
		} else if (x->key == fkey) {
			fn = x;
			if (d)
				break;
		} else if ((x->key & ~BK_FUNC_OTHER) == fk) {
			if ((x->key & BK_FUNC_OTHER) == BK_FUNC_OTHER)
				other = x;
			else
				nf++;
		}
	}
	/* counts first: appending may move the entries */
	if (d)
		d->n++;
	if (!fn && nf >= b->max_funcs && other)
		fn = other;
	if (fn)
		fn->n++;
	if (!d)
		err = ent_append(b, e, dkey, 1);
	if (!fn && !err) {
		err = ent_append(b, e, nf < b->max_funcs ? fkey : fk | BK_FUNC_OTHER, 1);
		if (nf >= MAX_FUNCS && nf < b->max_funcs)
			b->funcs_over = true;
	}
	return err;
}

/*
 * @n more samples of function @fid on field @field of @e: a field names
 * its first b->max_funcs functions and counts the others together
 * (@fid BK_FUNC_OTHER: samples of those others).
 */
int hm_buckets__func_n(struct hm_buckets *b, struct bk *e, int field, u32 fid, u32 n)
{
	u32 fk = bk_key__func((u32)field, 0), key = fk | fid, nf = 0;
	struct bk_ent *other = NULL;

	for (u32 i = 0; i < e->nr; i++) {
		struct bk_ent *x = &e->ent[i];

		if (x->key == key) {
			x->n += n;
			return 0;
		}
		if ((x->key & ~BK_FUNC_OTHER) == fk) {
			if ((x->key & BK_FUNC_OTHER) == BK_FUNC_OTHER)
				other = x;
			else
				nf++;
		}
	}
	if (fid != BK_FUNC_OTHER && nf < b->max_funcs) {
		if (nf >= MAX_FUNCS)
			b->funcs_over = true;
		return ent_append(b, e, key, n);
	}
	if (other) {
		other->n += n;
		return 0;
	}
	return ent_append(b, e, fk | BK_FUNC_OTHER, n);
}

int hm_buckets__func(struct hm_buckets *b, struct bk *e, int field, u32 fid)
{
	return hm_buckets__func_n(b, e, field, fid, 1);
}

int hm_buckets__count_n(struct hm_buckets *b, struct bk *e, u32 key, u32 n)
{
	for (u32 i = 0; i < e->nr; i++)
		if (e->ent[i].key == key) {
			e->ent[i].n += n;
			return 0;
		}
	return ent_append(b, e, key, n);
}

/*
 * A field names its first @max functions: each bucket where a field names
 * more (a part's store, which names them all: buckets-merge.c) has its
 * entries made again in their order, the functions past the first @max
 * counted together, as if @max had held from the start.
 */
int hm_buckets__cap_funcs(struct hm_buckets *b, u32 max)
{
	b->max_funcs = max;
	if (!b->funcs_over && max >= MAX_FUNCS)
		return 0;	/* no field names more than MAX_FUNCS, so none more than @max */
	for (u32 i = 0; i < b->nr; i++) {
		struct bk *e = &b->b[i];
		struct bk_ent *old = e->ent;
		u32 named[8] = { 0 }, nr = e->nr;
		bool over = false;
		int err = 0;

		for (u32 x = 0; x < nr; x++)
			if ((old[x].key & BK_FUNC) && (old[x].key & BK_FUNC_OTHER) != BK_FUNC_OTHER &&
			    ++named[bk_key__field(old[x].key)] > max)
				over = true;
		if (!over)
			continue;
		e->ent = NULL;
		e->nr = 0;
		for (u32 x = 0; x < nr && !err; x++) {
			u32 key = old[x].key;

			if (key & BK_FUNC)
				err = hm_buckets__func_n(b, e, (int)bk_key__field(key), key & BK_FUNC_OTHER, old[x].n);
			else
				err = ent_append(b, e, key, old[x].n);
		}
		ent_release(b, old, ent_k(nr));
		if (err)
			return err;
	}
	b->funcs_over = max > MAX_FUNCS && b->funcs_over;
	return 0;
}

/* ------------------------------------------------------------ queued bucket updates */

/*
 * Buckets are far more than the caches hold and a sample's bucket costs
 * three dependent misses (slot, bucket, entries).  A sample's update waits
 * BK_Q_APPLY samples: when queued its slot is prefetched, BK_Q_D samples
 * later the slot is read and the bucket prefetched, BK_Q_D later the
 * bucket's entries; then it is applied.  Updates apply in sample order, so
 * buckets, entries and counts are what applying each at once would make.
 */
#define BK_Q_D		2
#define BK_Q_APPLY	(3 * BK_Q_D)
_Static_assert(BK_Q > BK_Q_APPLY && !(BK_Q & (BK_Q - 1)), "BK_Q: a power of two over BK_Q_APPLY");

static int bk_apply(struct hm_buckets *b, const struct bk_op *op)
{
	struct bk *e = bucket_at(b, op->table, op->index, op->ds, op->h);

	if (!e)
		return -ENOMEM;
	e->cost += op->w;
	return ent_sample(b, e, op->dkey, op->field, op->fid);
}

/* Apply every queued update (-ENOMEM: the first failure; the others are applied). */
int hm_buckets__drain(struct hm_buckets *b)
{
	int err = 0;

	for (; b->q_n; b->q_n--, b->q_head = (b->q_head + 1) & (BK_Q - 1)) {
		int e = bk_apply(b, &b->q[b->q_head]);

		if (e < 0 && !err)
			err = e;
	}
	return err;
}

static struct bk_op *q_at(struct hm_buckets *b, u32 back)
{
	return &b->q[(b->q_head + b->q_n - 1 - back) & (BK_Q - 1)];
}

int hm_buckets__queue(struct hm_buckets *b, const struct bk_op *op)
{
	struct bk_op *x;
	int err = 0;

	if (b->q_n == BK_Q_APPLY) {
		err = bk_apply(b, &b->q[b->q_head]);
		b->q_head = (b->q_head + 1) & (BK_Q - 1);
		b->q_n--;
	}
	x = &b->q[(b->q_head + b->q_n++) & (BK_Q - 1)];
	*x = *op;
	x->idx = 0;
	x->h = 0;
	if (x->ds) {
		hm_prefetch(x->ds);
	} else {
		x->h = bslot_hash(op->table, op->index);
		if (b->nr_bslots)
			hm_prefetch(&b->bslot[x->h & (b->nr_bslots - 1)]);
	}
	if (b->q_n > BK_Q_D) {
		x = q_at(b, BK_Q_D);
		x->idx = x->ds ? *x->ds : bucket_find(b, x->table, x->index, x->h);
		if (x->idx)
			hm_prefetch(&b->b[x->idx - 1]);
	}
	if (b->q_n > 2 * BK_Q_D) {
		x = q_at(b, 2 * BK_Q_D);
		if (x->idx) {
			const struct bk *e = &b->b[x->idx - 1];

			hm_prefetch(e->ent);
			if (e->nr > 8)
				hm_prefetch(e->ent + 8);
		}
	}
	return err;
}

void hm_buckets__release_store(struct hm_buckets *b)
{
	for (u32 i = 0; i < b->nr; i++)
		if (b->b[i].nr && ent_k(b->b[i].nr) > ENT_CHUNK_K)
			free(b->b[i].ent);
	hm_arena__release(&b->ent_arena);
	hm_big__free(b->b, b->alloc * sizeof(*b->b));
	for (u32 i = 0; i < b->nr_tabs; i++)
		free(b->tabs[i].idx);
	free(b->tabs);
	free(b->bslot);
}
