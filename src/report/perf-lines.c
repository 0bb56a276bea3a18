// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's level-1 cache-line entries (sort__dcacheline_cmp: cpumode, data
 * map, pid for private anonymous user memory, map-relative line address),
 * so that the Global Shared Cache Line block has perf's numbers.
 */
#include <errno.h>
#include <hitmap/log.h>
#include <stdlib.h>
#include <string.h>
#include "perf-lines.h"
#include "util/bigalloc.h"
#include "util/prefetch.h"

static inline u32 who_of(u32 pid, u8 cpumode, u8 mapped)
{
	return (pid & 0xffffff) | (u32)cpumode << 24 | (u32)mapped << 27;
}

static u64 hash_of(u64 line, u32 who, u32 dso_id)
{
	u64 x = line * 0x9e3779b97f4a7c15ULL;

	x ^= ((u64)who | (u64)dso_id << 32) * 0xc2b2ae3d27d4eb4fULL;
	x ^= x >> 31;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

u64 hm_perf_key__hash(const struct perf_key *k)
{
	return hash_of(k->line, who_of(k->pid, k->cpumode, k->mapped), k->dso_id);
}

struct hm_perf_lines *hm_perf_lines__new(void)
{
	struct hm_perf_lines *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->nr_slots = 1024;
	p->slot = hm_big__alloc(p->nr_slots * sizeof(*p->slot));
	if (!p->slot) {
		free(p);
		return NULL;
	}
	return p;
}

void hm_perf_lines__delete(struct hm_perf_lines *p)
{
	if (!p)
		return;
	hm_big__free(p->e, p->alloc * sizeof(*p->e));
	hm_big__free(p->slot, p->nr_slots * sizeof(*p->slot));
	hm_perf_lines__delete(p->other);
	free(p->kid);
	free(p->kid_slot);
	free(p);
}

static int perf_lines__grow(struct hm_perf_lines *p)
{
	size_t ns = p->nr_slots * 2, mask = ns - 1;
	struct perf_slot *s = hm_big__alloc_now(ns * sizeof(*s));	/* half of it is written at random below */

	if (!s)
		return -ENOMEM;
	/* the old slots in order: each placed by its hash's bits, no entry read */
	for (size_t j = 0; j < p->nr_slots; j++) {
		size_t h;

		if (!p->slot[j].idx)
			continue;
		for (h = p->slot[j].hash & mask; s[h].idx; h = (h + 1) & mask)
			;
		s[h] = p->slot[j];
	}
	hm_big__free(p->slot, p->nr_slots * sizeof(*p->slot));
	p->slot = s;
	p->nr_slots = ns;
	return 0;
}

/* The slot of (@line, @who, @dso_id) (@kh: its hash): its entry's, or the empty one it would take. */
static size_t entry_slot(const struct hm_perf_lines *p, u64 line, u32 who, u32 dso_id, u64 kh)
{
	size_t mask = p->nr_slots - 1, h = (u32)kh & mask;

	for (; p->slot[h].idx; h = (h + 1) & mask) {
		const struct perf_entry *e;

		if (p->slot[h].hash != (u32)kh)
			continue;
		e = &p->e[p->slot[h].idx - 1];
		if (e->line == line && e->who == who && e->dso_id == dso_id)
			break;
	}
	return h;
}

/* The entry of (@line, @who, @dso_id) (@kh: its hash), NULL when absent. */
static struct perf_entry *entry_find(const struct hm_perf_lines *p, u64 line, u32 who, u32 dso_id,
				     u64 kh)
{
	u32 i = p->slot[entry_slot(p, line, who, dso_id, kh)].idx;

	return i ? &p->e[i - 1] : NULL;
}

/* The entry of (@line, @who, @dso_id), added when absent (@kh: its hash); NULL: ENOMEM. */
static struct perf_entry *entry_get(struct hm_perf_lines *p, u64 line, u32 who, u32 dso_id, u64 kh)
{
	size_t h = entry_slot(p, line, who, dso_id, kh);
	struct perf_entry *e;

	if (p->slot[h].idx)
		return &p->e[p->slot[h].idx - 1];
	if (p->nr == p->alloc) {
		size_t na = p->alloc ? p->alloc * 2 : 1024;
		struct perf_entry *ne = hm_big__realloc(p->e, p->alloc * sizeof(*ne), na * sizeof(*ne));

		if (!ne)
			return NULL;
		p->e = ne;
		p->alloc = na;
	}
	e = &p->e[p->nr];
	memset(e, 0, sizeof(*e));
	e->line = line;
	e->who = who;
	e->dso_id = dso_id;
	p->slot[h] = (struct perf_slot){ (u32)kh, (u32)++p->nr };
	if (p->nr * 2 > p->nr_slots && perf_lines__grow(p) < 0)
		return NULL;
	return e;
}

/* An entry's counters of the sums @st (one sample's or a line's). */
static void counts_of(struct perf_entry *c, const struct hm_c2c_stats *one)
{
	c->load = one->load;
	c->fbhit = one->ld_fbhit;
	c->l1hit = one->ld_l1hit;
	c->l2hit = one->ld_l2hit;
	c->llc = one->ld_llchit + one->lcl_hitm;
	c->hitm = one->lcl_hitm + one->rmt_hitm;
	c->peer = one->lcl_peer + one->rmt_peer;
	c->locks = one->locks;
	c->blk = one->blk_data + one->blk_addr;
	c->store = one->store;
	c->st_l1hit = one->st_l1hit;
	c->st_na = one->st_na;
}

/* @e's counters plus @sign (1 or -1, u32 arithmetic as the sums) times @c's. */
static void counts_add(struct perf_entry *e, const struct perf_entry *c, u32 sign)
{
	e->load += sign * c->load;
	e->fbhit += sign * c->fbhit;
	e->l1hit += sign * c->l1hit;
	e->l2hit += sign * c->l2hit;
	e->llc += sign * c->llc;
	e->hitm += sign * c->hitm;
	e->peer += sign * c->peer;
	e->locks += sign * c->locks;
	e->blk += sign * c->blk;
	e->store += sign * c->store;
	e->st_l1hit += sign * c->st_l1hit;
	e->st_na += sign * c->st_na;
}

int hm_perf_lines__add(struct hm_perf_lines *p, const struct perf_key *k, u64 kh,
		       const struct hm_c2c_stats *one)
{
	struct perf_entry *e = entry_get(p, k->line, who_of(k->pid, k->cpumode, k->mapped), k->dso_id, kh);
	struct perf_entry c;

	if (!e)
		return -ENOMEM;
	counts_of(&c, one);
	counts_add(e, &c, 1);
	return 0;
}

static int kid_grow(struct hm_perf_lines *p)
{
	u32 ns = p->nr_kid_slots ? p->nr_kid_slots * 2 : 64, mask = ns - 1;
	u32 *s = calloc(ns, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (u32 i = 0; i < p->nr_kid; i++) {
		const struct perf_kid *c = &p->kid[i];
		u32 h = (u32)hash_of(c->delta, c->who, c->dso_id) & mask;

		while (s[h])
			h = (h + 1) & mask;
		s[h] = i + 1;
	}
	free(p->kid_slot);
	p->kid_slot = s;
	p->nr_kid_slots = ns;
	return 0;
}

/* The id of the key (@d, @who, @dso_id), added when new; 0: ENOMEM (errno set). */
static u32 kid_intern(struct hm_perf_lines *p, u64 d, u32 who, u32 dso_id)
{
	const struct perf_kid *c;
	u32 mask, h, id;

	if ((p->nr_kid + 1) * 2 > p->nr_kid_slots && kid_grow(p) < 0)
		goto nomem;
	mask = p->nr_kid_slots - 1;
	for (h = (u32)hash_of(d, who, dso_id) & mask; p->kid_slot[h]; h = (h + 1) & mask) {
		c = &p->kid[p->kid_slot[h] - 1];
		if (c->delta == d && c->who == who && c->dso_id == dso_id)
			return p->kid_slot[h];
	}
	if (p->nr_kid == p->alloc_kid) {
		u32 na = p->alloc_kid ? p->alloc_kid * 2 : 16;
		struct perf_kid *nk = na < HM_LINE_PKEY_OTHER ? realloc(p->kid, na * sizeof(*nk)) : NULL;

		if (!nk)
			goto nomem;
		p->kid = nk;
		p->alloc_kid = na;
	}
	p->kid[p->nr_kid] = (struct perf_kid){ .delta = d, .who = who, .dso_id = dso_id };
	id = ++p->nr_kid;
	p->kid_slot[h] = id;
	return id;
nomem:
	errno = ENOMEM;
	return 0;
}

u32 hm_perf_lines__key_id(struct hm_perf_lines *p, const struct perf_key *k, u64 vline)
{
	u32 who = who_of(k->pid, k->cpumode, k->mapped);
	u64 d = k->line - vline;
	/* a few keys take turns (processes on the same lines): a small cache before the table */
	u32 *cached = &p->kid_cache[(who ^ (who >> 8) ^ k->dso_id ^ (u32)(d >> 12)) & 15];
	const struct perf_kid *c;

	if (*cached) {
		c = &p->kid[*cached - 1];
		if (c->delta == d && c->who == who && c->dso_id == k->dso_id)
			return *cached;
	}
	return *cached = kid_intern(p, d, who, k->dso_id);
}

u64 hm_perf_lines__other_hash(u64 vline, u32 id)
{
	return hash_of(vline, id, 0);
}

int hm_perf_lines__add_other(struct hm_perf_lines *p, u64 vline, u32 id,
			     const struct hm_c2c_stats *one)
{
	struct perf_entry *e, c;

	if (!p->other && !(p->other = hm_perf_lines__new()))
		return -ENOMEM;
	/* keyed by the virtual line and the id (in who) */
	e = entry_get(p->other, vline, id, 0, hash_of(vline, id, 0));
	if (!e)
		return -ENOMEM;
	counts_of(&c, one);
	counts_add(e, &c, 1);
	return 0;
}

/* perf's Global Shared Cache Line block: the entries with a HITM or peer load. */
static void shared_add(struct hm_perf_shared *g, u32 *nr, const struct perf_entry *e)
{
	if (!e->hitm && !e->peer)
		return;
	++*nr;
	g->load += e->load;
	g->fbhit += e->fbhit;
	g->l1hit += e->l1hit;
	g->l2hit += e->l2hit;
	g->llc += e->llc;
	g->peer += e->peer;
	g->locks += e->locks;
	g->blk += e->blk;
	g->store += e->store;
	g->st_l1hit += e->st_l1hit;
	g->st_na += e->st_na;
	g->merged += e->hitm + e->store;
}

u32 hm_perf_lines__shared(const struct hm_perf_lines *p, struct hm_perf_shared *g)
{
	u32 nr = 0;

	if (p->done) {
		*g = p->shared;
		return p->nr_shared;
	}
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < p->nr; i++)
		shared_add(g, &nr, &p->e[i]);
	return nr;
}

static int kid_cmp(const void *a, const void *b)
{
	const struct perf_kid *x = a, *y = b;

	if (x->who != y->who)
		return x->who < y->who ? -1 : 1;
	if (x->dso_id != y->dso_id)
		return x->dso_id < y->dso_id ? -1 : 1;
	return x->delta < y->delta ? -1 : x->delta > y->delta;
}

/*
 * Whether two ids can make the same key: the same who and dso_id with
 * another delta (the same map at two places, say).  Otherwise each
 * (virtual line, id) is a key of its own.  1, 0 or -ENOMEM.
 */
static int kids_collide(const struct hm_perf_lines *p)
{
	struct perf_kid *v = malloc(p->nr_kid * sizeof(*v));
	int ret = 0;

	if (!v)
		return -ENOMEM;
	memcpy(v, p->kid, p->nr_kid * sizeof(*v));
	qsort(v, p->nr_kid, sizeof(*v), kid_cmp);
	for (u32 i = 1; i < p->nr_kid && !ret; i++)
		ret = v[i].who == v[i - 1].who && v[i].dso_id == v[i - 1].dso_id;
	free(v);
	return ret;
}

/* The line of an other key's (virtual line, id) and the id of its first key. */
static const struct perf_kid *first_kid(const struct hm_perf_lines *p, struct hm_lines *l, u64 vline)
{
	const struct hm_line *ln = hm_lines__at(l, hm_lines__lookup(l, vline));
	u32 id = ln ? ln->pkey & ~HM_LINE_PKEY_OTHER : 0;

	return id && id <= p->nr_kid ? &p->kid[id - 1] : NULL;
}

/* The entries: each line's first key with the line's counters, less its other keys'. */
static int build(struct hm_perf_lines *p, struct hm_lines *l)
{
	struct hm_perf_lines *o = p->other;
	size_t n = hm_lines__count(l);
	struct perf_entry c, *e;

	for (size_t i = 0; i < n; i++) {
		const struct hm_line *ln = hm_lines__get(l, i);
		const struct perf_kid *k;
		u64 line;

		if (!(ln->pkey & ~HM_LINE_PKEY_OTHER))
			continue;
		k = &p->kid[(ln->pkey & ~HM_LINE_PKEY_OTHER) - 1];
		line = ln->addr + k->delta;
		e = entry_get(p, line, k->who, k->dso_id, hash_of(line, k->who, k->dso_id));
		if (!e)
			return -ENOMEM;
		counts_of(&c, &ln->st);
		counts_add(e, &c, 1);
	}
	for (size_t i = 0; o && i < o->nr; i++) {
		const struct perf_entry *x = &o->e[i];
		const struct perf_kid *k = &p->kid[x->who - 1], *f = first_kid(p, l, x->line);
		u64 line = x->line + k->delta;

		if (!f)
			return -EINVAL;
		e = entry_get(p, line, k->who, k->dso_id, hash_of(line, k->who, k->dso_id));
		if (!e)
			return -ENOMEM;
		counts_add(e, x, 1);
		line = x->line + f->delta;
		e = entry_get(p, line, f->who, f->dso_id, hash_of(line, f->who, f->dso_id));
		if (!e)
			return -ENOMEM;
		counts_add(e, x, (u32)-1);
	}
	return 0;
}

/*
 * Whether an entry counted directly (a sample without a data address) has
 * the key of a line's (line, id): then they are one entry.
 */
static bool entries_meet(const struct hm_perf_lines *p, struct hm_lines *l)
{
	for (size_t i = 0; i < p->nr; i++) {
		const struct perf_entry *e = &p->e[i];

		for (u32 id = 1; id <= p->nr_kid; id++) {
			const struct perf_kid *k = &p->kid[id - 1];
			u64 vline = e->line - k->delta;
			const struct hm_line *ln;

			if (k->who != e->who || k->dso_id != e->dso_id)
				continue;
			ln = hm_lines__at(l, hm_lines__lookup(l, vline));
			if (!ln)
				continue;
			if ((ln->pkey & ~HM_LINE_PKEY_OTHER) == id ||
			    (p->other && entry_find(p->other, vline, id, 0, hash_of(vline, id, 0))))
				return true;
		}
	}
	return false;
}

/* Lookups ahead of their use in the merges: a hash slot 2 * MERGE_D ahead, its line MERGE_D. */
#define MERGE_D	4

static void prefetch_line(struct hm_lines *l, u64 line, int stage)
{
	struct hm_line *ln;

	if (stage == 2) {
		hm_lines__prefetch_slot(l, line);
		return;
	}
	ln = hm_lines__at(l, hm_lines__hint(l, line));
	if (ln) {
		hm_prefetch(ln);		/* the address the lookup compares */
		hm_prefetch_w(&ln->pkey);	/* the key the merge reads and sets */
	}
}

/*
 * @o's entries put in groups by their line's index in @sl, in place, each
 * group in the entries' order (what a stable sort by line gives); on
 * success *@start has n + 2 offsets: the group of index + 1 h is
 * o->e[start[h], start[h + 1]) (h 0: lines @sl lacks).  0 or -ENOMEM.
 */
static int group_by_line(struct hm_perf_lines *o, struct hm_lines *sl, size_t n, u32 **start)
{
	size_t no = o->nr;
	u32 *st = calloc(n + 2, sizeof(*st)), *to = malloc((no ? no : 1) * sizeof(*to));

	if (!st || !to) {
		free(st);
		free(to);
		return -ENOMEM;
	}
	for (size_t j = 0; j < no; j++) {
		if (j + 2 * MERGE_D < no)
			prefetch_line(sl, o->e[j + 2 * MERGE_D].line, 2);
		if (j + MERGE_D < no)
			prefetch_line(sl, o->e[j + MERGE_D].line, 1);
		to[j] = hm_lines__lookup(sl, o->e[j].line);
		st[to[j] + 1]++;
	}
	for (size_t h = 1; h < n + 2; h++)
		st[h] += st[h - 1];
	/* each entry's place; the starts move on to the next group's */
	for (size_t j = 0; j < no; j++)
		to[j] = st[to[j]]++;
	memmove(st + 1, st, (n + 1) * sizeof(*st));
	st[0] = 0;
	/* the permutation's cycles, followed */
	for (size_t j = 0; j < no; j++) {
		while (to[j] != j) {
			u32 k = to[j];
			struct perf_entry t = o->e[k];

			o->e[k] = o->e[j];
			o->e[j] = t;
			to[j] = to[k];
			to[k] = k;
		}
	}
	free(to);
	*start = st;
	return 0;
}

/*
 * The shared block without building the entries: each (line, id) is one,
 * and so is each entry counted directly.
 */
static int sum_direct(struct hm_perf_lines *p, struct hm_lines *l)
{
	struct hm_perf_lines *o = p->other;
	struct hm_perf_shared g = { 0 };
	size_t n = hm_lines__count(l), no = o ? o->nr : 0;
	struct perf_entry c;
	u32 nr = 0, *start = NULL;

	for (size_t i = 0; i < p->nr; i++)
		shared_add(&g, &nr, &p->e[i]);
	for (size_t i = 0; i < n; i++) {
		const struct hm_line *ln = hm_lines__get(l, i);

		if (!ln->pkey || (ln->pkey & HM_LINE_PKEY_OTHER))
			continue;
		counts_of(&c, &ln->st);
		shared_add(&g, &nr, &c);
	}
	/* lines with other keys: grouped by line (the other table's slots are dropped) */
	if (no) {
		int err = group_by_line(o, l, n, &start);

		if (err < 0)
			return err;
		if (start[1]) {
			free(start);
			return -EINVAL;	/* a key of a line the table lacks */
		}
	}
	for (size_t i = 0; i < n && start; i++) {
		const struct hm_line *ln;

		if (start[i + 1] == start[i + 2])
			continue;
		ln = hm_lines__get(l, i);
		counts_of(&c, &ln->st);
		for (size_t j = start[i + 1]; j < start[i + 2]; j++) {
			counts_add(&c, &o->e[j], (u32)-1);
			shared_add(&g, &nr, &o->e[j]);
		}
		shared_add(&g, &nr, &c);
	}
	free(start);
	p->shared = g;
	p->nr_shared = nr;
	p->done = true;
	return 0;
}

int hm_perf_lines__finish(struct hm_perf_lines *p, struct hm_lines *l)
{
	int err;

	if (!p->nr_kid || p->finished)
		return 0;	/* every sample went to the entries, or done already */
	if (!l)
		return -EINVAL;
	/* few direct entries (samples without an address): more, and they are built with the rest */
	err = p->nr > 4096 ? 1 : kids_collide(p);
	if (!err)
		err = entries_meet(p, l);
	if (err >= 0) {
		hm_debug("report: perf's entries: %zu lines, %zu other (line, key), %u key ids, %s",
			 hm_lines__count(l), p->other ? p->other->nr : 0, p->nr_kid,
			 err ? "built" : "summed");
		err = err ? build(p, l) : sum_direct(p, l);
	}
	hm_perf_lines__delete(p->other);
	p->other = NULL;
	p->finished = true;
	return err;
}

/* Add (@vline, @id)'s counters @c to @p's other keys' table; 0 or -ENOMEM. */
static int other_add(struct hm_perf_lines *p, u64 vline, u32 id, const struct perf_entry *c)
{
	struct perf_entry *e;

	if (!p->other && !(p->other = hm_perf_lines__new()))
		return -ENOMEM;
	e = entry_get(p->other, vline, id, 0, hash_of(vline, id, 0));
	if (!e)
		return -ENOMEM;
	counts_add(e, c, 1);
	return 0;
}

/* @src's entries counted directly added to @dst's, new ones after its; 0 or -ENOMEM. */
static int entries_merge(struct hm_perf_lines *dst, const struct hm_perf_lines *src)
{
	for (size_t i = 0; i < src->nr; i++) {
		const struct perf_entry *b = &src->e[i];
		struct perf_entry *e = entry_get(dst, b->line, b->who, b->dso_id,
						 hash_of(b->line, b->who, b->dso_id));

		if (!e)
			return -ENOMEM;
		counts_add(e, b, 1);
	}
	return 0;
}

/*
 * @src's other keys of line @ls (its @n entries @x, grouped by line), to
 * @dst, whose line @ld (NULL: none yet) has the line's first key; @map:
 * @src's key ids to @dst's.  Where both have the line under different
 * first keys, @src's first key's samples (the line's counters less its
 * other keys') become an other key of @dst's line, and @src's samples of
 * @dst's first key are the line's own.  0 or -ENOMEM.
 */
static int line_merge(struct hm_perf_lines *dst, struct hm_line *ld, const struct hm_line *ls,
		      const u32 *map, const struct perf_entry *x, size_t n)
{
	u32 ks = map[(ls->pkey & ~HM_LINE_PKEY_OTHER) - 1];
	u32 kd = ld ? ld->pkey & ~HM_LINE_PKEY_OTHER : ks;
	struct perf_entry c;
	int err;

	if (ld && !kd)
		return -EINVAL;	/* a line without a key: not a part's table */
	if (kd != ks) {
		counts_of(&c, &ls->st);
		for (size_t j = 0; j < n; j++)
			counts_add(&c, &x[j], (u32)-1);
		err = other_add(dst, ls->addr, ks, &c);
		if (err < 0)
			return err;
	}
	for (size_t j = 0; j < n; j++) {
		if (map[x[j].who - 1] == kd)
			continue;
		err = other_add(dst, ls->addr, map[x[j].who - 1], &x[j]);
		if (err < 0)
			return err;
	}
	if (ld && (kd != ks || n))
		ld->pkey |= HM_LINE_PKEY_OTHER;
	return 0;
}

/*
 * The other keys' entries of @dst that line @ls's group @x (@n entries)
 * and its first key may add to: @stage 2 their slots, 1 the entries those
 * slots hold.
 */
static void prefetch_others(const struct hm_perf_lines *dst, const struct hm_line *ls,
			    const u32 *map, const struct perf_entry *x, size_t n, int stage)
{
	const struct hm_perf_lines *d = dst->other;
	u32 first = ls->pkey & ~HM_LINE_PKEY_OTHER;

	/* j == n: the line's first key in @src, an other key where @dst's line has another */
	for (size_t j = 0; d && first && j <= n; j++)
		hm_perf_lines__prefetch(d, hash_of(ls->addr, map[(j < n ? x[j].who : first) - 1], 0), stage);
}

int hm_perf_lines__merge_after(struct hm_perf_lines *dst, struct hm_lines *dl,
			       struct hm_perf_lines *src, struct hm_lines *sl)
{
	struct hm_perf_lines *o = src->other;
	size_t n = sl ? hm_lines__count(sl) : 0, no = o ? o->nr : 0;
	struct perf_entry *x = NULL;
	u32 *map = NULL, *start = NULL;
	int err = 0;

	if (dst->finished || src->finished || (src->nr_kid && (!dl || !sl)))
		return -EINVAL;	/* a part's entries and keys, before hm_perf_lines__finish */
	if (!dst->nr && !dst->nr_kid) {
		struct hm_perf_lines t = *dst;

		*dst = *src;
		*src = t;
		return 0;
	}
	err = entries_merge(dst, src);
	if (err < 0 || !src->nr_kid)
		return err;
	map = malloc(src->nr_kid * sizeof(*map));
	if (!map)
		return -ENOMEM;
	for (u32 i = 0; i < src->nr_kid; i++) {
		const struct perf_kid *k = &src->kid[i];

		map[i] = kid_intern(dst, k->delta, k->who, k->dso_id);
		if (!map[i]) {
			err = -ENOMEM;
			goto out;
		}
	}
	/* the other keys grouped by line (@src's table is consumed) */
	if (no && (err = group_by_line(o, sl, n, &start)) < 0)
		goto out;
	x = no ? o->e : NULL;
	for (size_t i = 0; i < n && err >= 0; i++) {
		struct hm_line *ls = hm_lines__get(sl, i);
		struct hm_line *ld;
		size_t k = 0;

		if (i + 4 * MERGE_D < n) {
			/* @src's line read ahead: its address, then its key */
			const struct hm_line *la = hm_lines__get(sl, i + 4 * MERGE_D);

			hm_prefetch(la);
			hm_prefetch(&la->pkey);
		}
		for (int stage = 2; stage >= 1; stage--) {
			size_t a = i + stage * MERGE_D;
			const struct hm_line *la;

			if (a >= n)
				continue;
			la = hm_lines__get(sl, a);
			prefetch_line(dl, la->addr, stage);
			if (start)
				prefetch_others(dst, la, map, x + start[a + 1], start[a + 2] - start[a + 1],
						stage);
		}
		if (!(ls->pkey & ~HM_LINE_PKEY_OTHER))
			continue;
		ld = hm_lines__at(dl, hm_lines__lookup(dl, ls->addr));
		/* the group of line i (index + 1) */
		if ((ls->pkey & HM_LINE_PKEY_OTHER) && start)
			k = start[i + 2] - start[i + 1];
		err = line_merge(dst, ld, ls, map, k ? x + start[i + 1] : NULL, k);
		/* a line new to @dst keeps its keys: hm_lines__merge_after copies it */
		if (!ld)
			ls->pkey = map[(ls->pkey & ~HM_LINE_PKEY_OTHER) - 1] |
				   (ls->pkey & HM_LINE_PKEY_OTHER);
	}
out:
	free(start);
	free(map);
	hm_perf_lines__delete(src->other);
	src->other = NULL;
	return err;
}
