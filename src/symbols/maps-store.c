// SPDX-License-Identifier: GPL-2.0-only
/*
 * The maps' storage: u32-keyed tables, map objects, the sorted mapsets of
 * processes (inserting splits what a map overlaps), threads and processes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <hitmap/log.h>
#include "maps-int.h"

static int grow_array(void **v, u64 *alloc, u64 need, size_t elem)
{
	u64 n = *alloc ? *alloc : 8;
	void *nv;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	nv = realloc(*v, n * elem);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*alloc = n;
	return 0;
}

int hm_maps__grow32(void **v, u32 *alloc, u32 need, size_t elem)
{
	u64 a = *alloc;
	int err = grow_array(v, &a, need, elem);

	*alloc = (u32)a;
	return err;
}

void hm_maps__table_free(struct hm_htab *t, void (*fn)(void *))
{
	u64 v;

	for (u32 it = 0; hm_htab__next(t, &it, NULL, &v);)
		fn((void *)(uintptr_t)v);
	hm_htab__fini(t);
}

void hm_maps__proc_free(void *o)
{
	struct hm_proc *p = o;

	free(p->ms.v);
	free(p);
}

/* --------------------------------------------------------------- maps */

struct hm_map *hm_maps__map_new(struct hm_maps *m)
{
	struct hm_map *map;

	if (grow_array((void **)&m->all, &m->alloc_all, m->nr_all + 1, sizeof(*m->all)) < 0)
		return NULL;
	map = calloc(1, sizeof(*map));
	if (map)
		m->all[m->nr_all++] = map;
	return map;
}

struct hm_map *hm_maps__map_clone(struct hm_maps *m, const struct hm_map *src)
{
	struct hm_map *map = hm_maps__map_new(m);

	if (map)
		*map = *src;	/* filename is pooled: shared */
	return map;
}

void hm_maps__apply_build_id(struct hm_maps *m, struct hm_map *map)
{
	if (map->build_id_size)
		return;
	for (u32 i = 0; i < m->nr_bids; i++) {
		if (m->bids[i].filename == map->filename) {
			memcpy(map->build_id, m->bids[i].id, sizeof(map->build_id));
			map->build_id_size = m->bids[i].size;
			return;
		}
	}
}

/* Index of the first map whose end > @addr. */
static u32 ms_lower(const struct hm_mapset *ms, u64 addr)
{
	u32 lo = 0, hi = ms->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (ms->v[mid]->end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

const struct hm_map *hm_mapset__find(const struct hm_mapset *ms, u64 addr)
{
	u32 i = ms_lower(ms, addr);

	if (i < ms->nr && ms->v[i]->start <= addr)
		return ms->v[i];
	return NULL;
}

/* Insert @map, splitting or dropping what it overlaps (maps__fixup_overlappings). */
int hm_mapset__insert(struct hm_maps *m, struct hm_mapset *ms, struct hm_map *map)
{
	u32 i = ms_lower(ms, map->start), j = i;
	struct hm_map *before = NULL, *after = NULL, *ins[3];
	u32 n = 0;

	while (j < ms->nr && ms->v[j]->start < map->end)
		j++;
	if (j > i) {
		const struct hm_map *first = ms->v[i], *last = ms->v[j - 1];

		if (map->start > first->start) {
			before = hm_maps__map_clone(m, first);
			if (!before)
				return -ENOMEM;
			before->end = map->start;
		}
		if (map->end < last->end) {
			after = hm_maps__map_clone(m, last);
			if (!after)
				return -ENOMEM;
			after->start = map->end;
			after->pgoff += map->end - last->start;
		}
	}
	if (before)
		ins[n++] = before;
	ins[n++] = map;
	if (after)
		ins[n++] = after;
	if (hm_maps__grow32((void **)&ms->v, &ms->alloc, ms->nr - (j - i) + n, sizeof(*ms->v)) < 0)
		return -ENOMEM;
	memmove(ms->v + i + n, ms->v + j, (ms->nr - j) * sizeof(*ms->v));
	memcpy(ms->v + i, ins, n * sizeof(*ins));
	ms->nr = ms->nr - (j - i) + n;
	if (map->end > m->user_end)
		m->user_end = map->end;
	return 0;
}

int hm_mapset__clone(struct hm_mapset *dst, const struct hm_mapset *src)
{
	free(dst->v);
	dst->v = NULL;
	dst->nr = dst->alloc = 0;
	if (!src->nr)
		return 0;
	dst->v = malloc(src->nr * sizeof(*dst->v));
	if (!dst->v)
		return -ENOMEM;
	memcpy(dst->v, src->v, src->nr * sizeof(*dst->v));
	dst->nr = dst->alloc = src->nr;
	return 0;
}

/* ----------------------------------------------------- threads, procs */

struct hm_proc *hm_maps__proc_findnew(struct hm_maps *m, u32 pid)
{
	struct hm_proc *p = hm_htab__find_ptr(&m->procs, pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (hm_htab__put_ptr(&m->procs, pid, p) < 0) {
		free(p);
		return NULL;
	}
	return p;
}

struct hm_thread *hm_maps__thread_findnew(struct hm_maps *m, s32 pid, u32 tid)
{
	struct hm_thread *t = hm_htab__find_ptr(&m->threads, tid);

	if (t) {
		if (t->pid == -1 && pid != -1)	/* machine__update_thread_pid */
			t->pid = pid;
		return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->pid = pid;
	if (hm_htab__put_ptr(&m->threads, tid, t) < 0) {
		free(t);
		return NULL;
	}
	return t;
}

/* The process whose maps thread (pid, tid) uses. */
struct hm_proc *hm_maps__proc_of(struct hm_maps *m, s32 pid, u32 tid)
{
	struct hm_thread *t = hm_maps__thread_findnew(m, pid, tid);

	if (!t)
		return NULL;
	if (t->own)
		return t->own;
	return hm_maps__proc_findnew(m, t->pid == -1 ? tid : (u32)t->pid);
}

