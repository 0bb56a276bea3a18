// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's level-1 cache-line entries (sort__dcacheline_cmp: cpumode, data
 * map, pid for private anonymous user memory, map-relative line address),
 * so that the Global Shared Cache Line block has perf's numbers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "perf-lines.h"
#include "bigalloc.h"

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
	p->slot = hm_big__alloc(p->nr_slots * sizeof(u32));
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
	hm_big__free(p->slot, p->nr_slots * sizeof(u32));
	free(p);
}

static int perf_lines__grow(struct hm_perf_lines *p)
{
	size_t ns = p->nr_slots * 2, mask = ns - 1;
	u32 *s = hm_big__alloc(ns * sizeof(u32));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr; i++) {
		size_t h = hash_of(p->e[i].line, p->e[i].who, p->e[i].dso_id) & mask;

		while (s[h])
			h = (h + 1) & mask;
		s[h] = (u32)i + 1;
	}
	hm_big__free(p->slot, p->nr_slots * sizeof(u32));
	p->slot = s;
	p->nr_slots = ns;
	return 0;
}

int hm_perf_lines__add(struct hm_perf_lines *p, const struct perf_key *k, u64 kh,
		       const struct hm_c2c_stats *one)
{
	size_t mask = p->nr_slots - 1, h = kh & mask;
	u32 who = who_of(k->pid, k->cpumode, k->mapped);
	struct perf_entry *e = NULL;

	while (p->slot[h]) {
		e = &p->e[p->slot[h] - 1];
		if (e->line == k->line && e->who == who && e->dso_id == k->dso_id)
			break;
		e = NULL;
		h = (h + 1) & mask;
	}
	if (!e) {
		if (p->nr == p->alloc) {
			size_t na = p->alloc ? p->alloc * 2 : 1024;
			struct perf_entry *ne = hm_big__realloc(p->e, p->alloc * sizeof(*ne), na * sizeof(*ne));

			if (!ne)
				return -ENOMEM;
			p->e = ne;
			p->alloc = na;
		}
		e = &p->e[p->nr];
		memset(e, 0, sizeof(*e));
		e->line = k->line;
		e->who = who;
		e->dso_id = k->dso_id;
		p->slot[h] = (u32)++p->nr;
		if (p->nr * 2 > p->nr_slots && perf_lines__grow(p) < 0)
			return -ENOMEM;
	}
	e->load += one->load;
	e->fbhit += one->ld_fbhit;
	e->l1hit += one->ld_l1hit;
	e->l2hit += one->ld_l2hit;
	e->llc += one->ld_llchit + one->lcl_hitm;
	e->hitm += one->lcl_hitm + one->rmt_hitm;
	e->peer += one->lcl_peer + one->rmt_peer;
	e->locks += one->locks;
	e->blk += one->blk_data + one->blk_addr;
	e->store += one->store;
	e->st_l1hit += one->st_l1hit;
	e->st_na += one->st_na;
	return 0;
}

/* perf's Global Shared Cache Line block: the entries with a HITM or peer load. */
u32 hm_perf_lines__shared(const struct hm_perf_lines *p, struct hm_perf_shared *g)
{
	u32 nr = 0;

	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < p->nr; i++) {
		const struct perf_entry *e = &p->e[i];

		if (!e->hitm && !e->peer)
			continue;
		nr++;
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
	return nr;
}

int hm_perf_lines__merge_after(struct hm_perf_lines *dst, struct hm_perf_lines *src)
{
	if (!dst->nr) {
		struct hm_perf_lines t = *dst;

		*dst = *src;
		*src = t;
		return 0;
	}
	for (size_t i = 0; i < src->nr; i++) {
		const struct perf_entry *b = &src->e[i];
		size_t mask = dst->nr_slots - 1, h = hash_of(b->line, b->who, b->dso_id) & mask;
		struct perf_entry *e = NULL;

		while (dst->slot[h]) {
			e = &dst->e[dst->slot[h] - 1];
			if (e->line == b->line && e->who == b->who && e->dso_id == b->dso_id)
				break;
			e = NULL;
			h = (h + 1) & mask;
		}
		if (!e) {
			if (dst->nr == dst->alloc) {
				size_t na = dst->alloc ? dst->alloc * 2 : 1024;
				struct perf_entry *ne = hm_big__realloc(dst->e, dst->alloc * sizeof(*ne),
									na * sizeof(*ne));

				if (!ne)
					return -ENOMEM;
				dst->e = ne;
				dst->alloc = na;
			}
			dst->e[dst->nr] = *b;
			dst->slot[h] = (u32)++dst->nr;
			if (dst->nr * 2 > dst->nr_slots && perf_lines__grow(dst) < 0)
				return -ENOMEM;
			continue;
		}
		e->load += b->load;
		e->fbhit += b->fbhit;
		e->l1hit += b->l1hit;
		e->l2hit += b->l2hit;
		e->llc += b->llc;
		e->hitm += b->hitm;
		e->peer += b->peer;
		e->locks += b->locks;
		e->blk += b->blk;
		e->store += b->store;
		e->st_l1hit += b->st_l1hit;
		e->st_na += b->st_na;
	}
	return 0;
}
