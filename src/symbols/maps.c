// SPDX-License-Identifier: GPL-2.0-only
/*
 * Processes, threads and maps, following perf 6.1's machine/thread code
 * (util/machine.c, thread.c, maps.c, event.c):
 *
 *  - threads by tid, each with its pid and comm; a thread uses the maps of
 *    its process (perf: thread__init_maps shares the leader's maps);
 *  - user MMAP/MMAP2 insert into the process's sorted maps, splitting what
 *    they overlap (maps__fixup_overlappings); MMAP without MMAP_DATA is
 *    PROT_EXEC;
 *  - MMAP with kernel cpumode: "[kernel.kallsyms..." sets the kernel map,
 *    '/' or '[' names a module map, the x86 entry trampoline an extra map
 *    (machine__process_kernel_mmap_event); kernel maps are not split;
 *  - FORK of a new process copies the parent's maps unless the record is a
 *    synthesized one (PERF_RECORD_MISC_FORK_EXEC); a new thread shares them;
 *  - EXIT marks the thread dead and keeps everything (thread__exited);
 *  - KSYMBOL register adds a kernel map where none is, unregister removes it.
 *
 * Memory grows with distinct threads and maps.  Map objects are never freed
 * before hm_maps__delete, so pointers handed out stay valid.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <hitmap/log.h>
#include "maps-int.h"

/* ---------------------------------------------------------- records */

struct rec_mmap {
	struct perf_event_header h;
	u32 pid, tid;
	u64 start, len, pgoff;
	char filename[];
};

struct rec_mmap2 {
	struct perf_event_header h;
	u32 pid, tid;
	u64 start, len, pgoff;
	union {
		struct {
			u32 maj, min;
			u64 ino, ino_generation;
		};
		struct {
			u8 build_id_size, r1;
			u16 r2;
			u8 build_id[20];
		};
	};
	u32 prot, flags;
	char filename[];
};

struct rec_comm {
	struct perf_event_header h;
	u32 pid, tid;
	char comm[];
};

struct rec_fork {
	struct perf_event_header h;
	u32 pid, ppid, tid, ptid;
	u64 time;
};

struct rec_ksymbol {
	struct perf_event_header h;
	u64 addr;
	u32 len;
	u16 ksym_type, flags;
	char name[];
};

/* A NUL-terminated copy of a string field that may run to the record's end. */
static const char *rec_str(struct hm_maps *m, const char *s, const void *rec, u32 size)
{
	const char *end = (const char *)rec + size;

	if (s >= end)
		return hm_strpool__intern(m->pool, "");
	return hm_strpool__intern_len(m->pool, s, strnlen(s, end - s));
}

static int do_mmap(struct hm_maps *m, const struct hm_event *ev, bool v2)
{
	const struct rec_mmap *r = ev->data;
	const struct rec_mmap2 *r2 = ev->data;
	u32 need = v2 ? sizeof(*r2) : sizeof(*r);
	u8 cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const char *name;
	const u8 *bid = NULL;
	u8 bid_size = 0;
	u32 prot, flags = 0;
	struct hm_map *map;
	struct hm_proc *p;
	int err;

	if (ev->size < need) {
		hm_warn("perf.data: offset %llu: %s record of %u bytes is too short; skipped",
			(unsigned long long)ev->file_offset, v2 ? "MMAP2" : "MMAP", ev->size);
		return -EINVAL;
	}
	name = rec_str(m, v2 ? r2->filename : r->filename, ev->data, ev->size);
	if (!name)
		return -ENOMEM;
	if (v2) {
		prot = r2->prot;
		flags = r2->flags;
		if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			bid = r2->build_id;
			bid_size = r2->build_id_size;
		}
	} else {
		prot = (ev->misc & PERF_RECORD_MISC_MMAP_DATA) ? 0 : PROT_EXEC;
	}
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return hm_maps__kernel_mmap(m, r->start, r->len, r->pgoff, name, bid, bid_size,
				   ev->misc, prot, flags);

	p = hm_maps__proc_of(m, (s32)r->pid, r->tid);
	if (!p)
		return -ENOMEM;
	map = hm_maps__map_new(m);
	if (!map)
		return -ENOMEM;
	map->start = r->start;
	map->end = r->start + r->len;
	if (map->end < map->start)
		map->end = ~0ULL;
	map->pgoff = r->pgoff;
	map->prot = prot;
	map->flags = flags;
	map->misc = ev->misc;
	map->filename = (char *)name;
	map->type = HM_MAP_USER;
	map->pid = r->pid;
	if (bid && bid_size) {
		map->build_id_size = bid_size > 20 ? 20 : bid_size;
		memcpy(map->build_id, bid, map->build_id_size);
	} else {
		hm_maps__apply_build_id(m, map);
	}
	if (map->end == map->start)
		return 0;	/* empty: nothing to find */
	err = hm_mapset__insert(m, &p->ms, map);
	return err;
}

static int do_comm(struct hm_maps *m, const struct hm_event *ev)
{
	const struct rec_comm *r = ev->data;
	struct hm_thread *t;
	const char *comm;

	if (ev->size < sizeof(*r))
		return -EINVAL;
	t = hm_maps__thread_findnew(m, (s32)r->pid, r->tid);
	if (!t)
		return -ENOMEM;
	comm = rec_str(m, r->comm, ev->data, ev->size);
	if (!comm)
		return -ENOMEM;
	t->comm = comm;
	return 0;
}

/* machine__process_fork_event() */
static int do_fork(struct hm_maps *m, const struct hm_event *ev)
{
	const struct rec_fork *r = ev->data;
	struct hm_thread *parent, *t;
	struct hm_proc *pp, *cp;

	if (ev->size < sizeof(*r))
		return -EINVAL;
	parent = hm_maps__thread_findnew(m, (s32)r->ppid, r->ptid);
	if (!parent)
		return -ENOMEM;
	if (parent->pid != (s32)r->ppid)	/* an erroneous parent: start it over */
		parent->pid = (s32)r->ppid;
	/* if a thread exists for the child tid it is replaced */
	t = hm_htab__find_ptr(&m->threads, r->tid);
	if (t) {
		t->pid = (s32)r->pid;
		t->dead = false;
		t->comm = NULL;
		t->own = NULL;
	} else {
		t = hm_maps__thread_findnew(m, (s32)r->pid, r->tid);
		if (!t)
			return -ENOMEM;
	}
	t->comm = parent->comm;
	pp = hm_maps__proc_findnew(m, r->ppid);
	if (!pp)
		return -ENOMEM;
	if (r->pid == r->ppid)
		return 0;	/* a new thread: shares its process's maps */
	cp = hm_maps__proc_findnew(m, r->pid);
	if (!cp)
		return -ENOMEM;
	if (r->pid == r->tid) {	/* a new leader starts with fresh maps */
		free(cp->ms.v);
		cp->ms.v = NULL;
		cp->ms.nr = cp->ms.alloc = 0;
	}
	if (ev->misc & PERF_RECORD_MISC_FORK_EXEC)
		return 0;	/* synthesized: the MMAPs follow */
	if (cp->ms.nr) {	/* maps__clone inserts into what is there */
		for (u32 i = 0; i < pp->ms.nr; i++) {
			struct hm_map *c = hm_maps__map_clone(m, pp->ms.v[i]);

			if (!c || hm_mapset__insert(m, &cp->ms, c) < 0)
				return -ENOMEM;
		}
		return 0;
	}
	return hm_mapset__clone(&cp->ms, &pp->ms);
}

/*
 * perf 6.12 and later (machine__remove_thread()): the thread goes; a later
 * record or sample of its tid makes a new one, whose maps are its
 * leader's, new and empty when the leader went.  Threads that stay keep
 * the maps they had (they hold them, as perf's threads hold theirs).
 */
static int exit_remove(struct hm_maps *m, struct hm_thread *t)
{
	u32 pid = t->pid == -1 ? t->tid : (u32)t->pid;
	struct hm_proc *p = pid == t->tid ? hm_htab__find_ptr(&m->procs, pid) : NULL;

	if (p) {
		u64 v;

		if (hm_maps__grow32((void **)&m->retired, &m->alloc_retired, m->nr_retired + 1,
				    sizeof(*m->retired)) < 0)
			return -ENOMEM;
		m->retired[m->nr_retired++] = p;
		for (u32 it = 0; hm_htab__next(&m->threads, &it, NULL, &v);) {
			struct hm_thread *o = (struct hm_thread *)(uintptr_t)v;

			if (o != t && !o->own && o->pid == (s32)pid)
				o->own = p;
		}
		hm_htab__del(&m->procs, pid);
	}
	hm_htab__del(&m->threads, t->tid);
	free(t);
	return 0;
}

static int do_exit(struct hm_maps *m, const struct hm_event *ev)
{
	const struct rec_fork *r = ev->data;
	struct hm_thread *t;

	if (ev->size < sizeof(*r))
		return -EINVAL;
	t = hm_htab__find_ptr(&m->threads, r->tid);
	if (t && m->exit_removes)
		return exit_remove(m, t);
	if (t)
		t->dead = true;
	return 0;
}

void hm_maps__set_exit_removes(struct hm_maps *m, bool on)
{
	if (m)
		m->exit_removes = on;
}

static int do_ksymbol(struct hm_maps *m, const struct hm_event *ev)
{
	const struct rec_ksymbol *r = ev->data;
	const struct hm_map *cur;
	struct hm_map *map;
	const char *name;

	if (ev->size < sizeof(*r))
		return -EINVAL;
	cur = hm_kmaps__find_any(m, r->addr);
	if (r->flags & KSYM_UNREGISTER) {
		if (cur && cur != m->vmlinux)
			hm_kmaps__remove(m, cur);
		return 0;
	}
	if (cur)
		return 0;	/* inside a known map: perf adds only a symbol */
	name = rec_str(m, r->name, ev->data, ev->size);
	if (!name)
		return -ENOMEM;
	map = hm_maps__map_new(m);
	if (!map)
		return -ENOMEM;
	map->start = r->addr;
	map->end = r->addr + r->len;
	map->filename = (char *)name;
	map->kernel = true;
	map->type = HM_MAP_KSYMBOL;
	map->misc = ev->misc;
	map->prot = PROT_EXEC;
	return hm_kmaps__add(m, map);
}

/* ---------------------------------------------------------------- API */

struct hm_maps *hm_maps__new(void)
{
	struct hm_maps *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->pool = hm_strpool__new();
	if (!m->pool) {
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	m->gen = 1;	/* new mapsets (hint_gen 0) start without hints */
	return m;
}

void hm_maps__delete(struct hm_maps *m)
{
	if (!m)
		return;
	hm_maps__table_free(&m->threads, free);
	hm_maps__table_free(&m->procs, hm_maps__proc_free);
	for (u32 i = 0; i < m->nr_retired; i++)
		hm_maps__proc_free(m->retired[i]);
	free(m->retired);
	for (u64 i = 0; i < m->nr_all; i++)
		free(m->all[i]);
	free(m->all);
	free(m->kmaps);
	free(m->kflat);
	free(m->bids);
	if (m->own_free)
		m->own_free(m->own_ctx);
	hm_strpool__delete(m->pool);
	free(m);
}

int hm_maps__process(struct hm_maps *m, const struct hm_event *ev)
{
	if (!m || !ev || !ev->data)
		return -EINVAL;
	m->gen++;	/* drops the lookup caches */
	/* the side-band records, counted for hm_maps__kernel_loaded */
	m->nr_side += ev->type == PERF_RECORD_MMAP || ev->type == PERF_RECORD_MMAP2 ||
		      ev->type == PERF_RECORD_COMM || ev->type == PERF_RECORD_FORK ||
		      ev->type == PERF_RECORD_EXIT || ev->type == PERF_RECORD_KSYMBOL;
	switch (ev->type) {
	case PERF_RECORD_MMAP:
		return do_mmap(m, ev, false);
	case PERF_RECORD_MMAP2:
		return do_mmap(m, ev, true);
	case PERF_RECORD_COMM:
		return do_comm(m, ev);
	case PERF_RECORD_FORK:
		return do_fork(m, ev);
	case PERF_RECORD_EXIT:
		return do_exit(m, ev);
	case PERF_RECORD_KSYMBOL:
		return do_ksymbol(m, ev);
	default:
		return 0;
	}
}

int hm_maps__set_build_ids(struct hm_maps *m, const struct hm_header *h)
{
	if (!m || !h)
		return -EINVAL;
	for (u32 i = 0; i < h->nr_build_ids; i++) {
		const struct hm_build_id *b = &h->build_ids[i];
		struct hm_build_id_ent *e;
		const char *fn;
		u32 k;

		if (!b->filename || !b->size)
			continue;
		fn = hm_strpool__intern(m->pool, b->filename);
		if (!fn)
			return -ENOMEM;
		for (k = 0; k < m->nr_bids && m->bids[k].filename != fn; k++)
			;
		if (k == m->nr_bids) {
			if (hm_maps__grow32((void **)&m->bids, &m->alloc_bids, m->nr_bids + 1, sizeof(*m->bids)) < 0)
				return -ENOMEM;
			m->nr_bids++;
		}
		e = &m->bids[k];
		e->filename = fn;
		e->size = b->size > 20 ? 20 : b->size;
		memcpy(e->id, b->id, e->size);
		for (u64 j = 0; j < m->nr_all; j++)
			hm_maps__apply_build_id(m, m->all[j]);
	}
	return 0;
}

void hm_maps__set_kernel_loader(struct hm_maps *m, hm_maps_ksyms_fn fn, void *ctx)
{
	m->ksyms_fn = fn;
	m->ksyms_ctx = ctx;
}

void hm_maps__own_kernel_loader(struct hm_maps *m, hm_maps_ksyms_fn fn, void *ctx,
				void (*free_ctx)(void *ctx))
{
	if (m->own_free)
		m->own_free(m->own_ctx);
	m->own_ctx = ctx;
	m->own_free = free_ctx;
	hm_maps__set_kernel_loader(m, fn, ctx);
}

const struct hm_map *hm_maps__kernel_map(const struct hm_maps *m)
{
	return m ? m->vmlinux : NULL;
}

/* The process whose maps thread (@pid, @tid) of a sample uses (perf: by tid, then the leader). */
static const struct hm_proc *sample_proc_slow(const struct hm_maps *m, u32 pid, u32 tid)
{
	const struct hm_thread *t = hm_htab__find_ptr(&m->threads, tid);
	u32 p = pid;

	if (t && t->own)
		return t->own;
	if (t && t->pid != -1)
		p = (u32)t->pid;
	if (p != tid) {	/* the leader: a known thread p may belong elsewhere */
		const struct hm_thread *l = hm_htab__find_ptr(&m->threads, p);

		if (l && l->pid != -1)
			p = (u32)l->pid;
	}
	return hm_htab__find_ptr(&m->procs, p);
}

/*
 * hm_mapset__find() through the last maps found: the maps of a set do not overlap,
 * so a remembered map of the same, unchanged set that holds @addr is the
 * answer.  Sets change only while records are processed, which drops them.
 */
static const struct hm_map *ms_find_cached(const struct hm_maps *m, const struct hm_mapset *cms, u64 addr)
{
	struct hm_mapset *ms = (struct hm_mapset *)cms;	/* the hints only */
	const struct hm_map *map;

	if (ms->hint_gen != m->gen) {
		ms->hint[0] = ms->hint[1] = NULL;
		ms->hint_gen = m->gen;
	}
	for (int i = 0; i < 2; i++)
		if (ms->hint[i] && ms->hint[i]->start <= addr && addr < ms->hint[i]->end)
			return ms->hint[i];
	/* past the last map (a kernel ip asked of the process first): none holds it */
	if (!ms->nr || addr >= ms->v[ms->nr - 1]->end)
		return NULL;
	map = hm_mapset__find(ms, addr);
	if (map) {
		ms->hint[ms->hint_next] = map;
		ms->hint_next ^= 1;
	}
	return map;
}

/*
 * Samples come in runs of a few threads and ask twice each (ip, data):
 * remember the answers by tid until the next record (256 slots: a
 * system-wide recording's threads, one per CPU, interleave).
 */
static const struct hm_proc *sample_proc(const struct hm_maps *m, u32 pid, u32 tid)
{
	struct hm_maps *mm = (struct hm_maps *)m;	/* the cache only */
	__typeof__(mm->last[0]) *c = &mm->last[(tid ^ tid >> 8) & 255];

	if (c->gen != m->gen + 1 || c->pid != pid || c->tid != tid) {
		c->p = sample_proc_slow(m, pid, tid);
		c->pid = pid;
		c->tid = tid;
		c->gen = m->gen + 1;
	}
	return c->p;
}

/*
 * hm_maps__kfind() through the flat segments found last (an ip and a data
 * address, or the gap between segments that holds none): valid while no
 * record was processed and the flat view is clean; the kernel map before
 * its kallsyms range is loaded is never remembered.
 */
static __attribute__((noinline)) const struct hm_map *kfind_slow(struct hm_maps *m, u64 addr)
{
	const struct hm_map *map;
	u32 lo;

	if (m->khint_gen != m->gen + 1 || m->kdirty) {
		memset(m->khint, 0, sizeof(m->khint));
		m->khint_gen = m->gen + 1;
	}
	map = hm_maps__kfind(m, addr);
	if (m->kdirty || (map && map == m->vmlinux && !m->vmlinux_loaded))
		return map;
	if (m->khint_gen != m->gen + 1) {	/* loading kallsyms moved the maps */
		memset(m->khint, 0, sizeof(m->khint));
		m->khint_gen = m->gen + 1;
	}
	/* the flat segment of @addr (hm_kmaps__find's search) */
	lo = hm_kflat__index(m->kflat, m->nr_kflat, addr);
	if (lo < m->nr_kflat && m->kflat[lo].start <= addr) {
		if (m->kflat[lo].map != map)
			return map;
		m->khint[m->khint_next] = m->kflat[lo];
	} else {
		if (map)
			return map;
		/* the gap holding @addr: no map there either */
		m->khint[m->khint_next] = (struct hm_kseg){ lo ? m->kflat[lo - 1].end : 0,
							   lo < m->nr_kflat ? m->kflat[lo].start : ~0ULL,
							   NULL };
	}
	m->khint_next ^= 1;
	return map;
}

/* (inlined in find: the hints answer most lookups) */
static inline const struct hm_map *kfind_cached(const struct hm_maps *cm, u64 addr)
{
	struct hm_maps *m = (struct hm_maps *)cm;	/* the cache only */

	if (m->khint_gen == m->gen + 1 && !m->kdirty)
		for (int i = 0; i < 2; i++)
			if (m->khint[i].start <= addr && addr < m->khint[i].end)
				return m->khint[i].map;
	return kfind_slow(m, addr);
}

/* (inlined: three calls a sample, mostly answered by the caches above) */
static inline __attribute__((always_inline)) const struct hm_map *
find(const struct hm_maps *m, u32 pid, u32 tid, u8 cpumode, u64 addr, bool load)
{
	const struct hm_proc *p;

	if (!m)
		return NULL;
	switch (cpumode & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		return load ? kfind_cached(m, addr) : hm_kmaps__find(m, addr);
	case PERF_RECORD_MISC_USER:
		/* a kernel ip is asked of the process first: no user map reaches it */
		if (addr >= m->user_end)
			return NULL;
		p = sample_proc(m, pid, tid);
		return p ? ms_find_cached(m, &p->ms, addr) : NULL;
	default:
		return NULL;	/* guest (perf_guest off), hypervisor, unknown */
	}
}

const struct hm_map *hm_maps__find_thread(const struct hm_maps *m, u32 pid, u32 tid, u8 cpumode, u64 addr)
{
	return find(m, pid, tid, cpumode, addr, true);
}

const struct hm_map *hm_maps__find(const struct hm_maps *m, u32 pid, u8 cpumode, u64 addr)
{
	return find(m, pid, pid, cpumode, addr, true);
}

const struct hm_map *hm_maps__peek(const struct hm_maps *m, u32 pid, u8 cpumode, u64 addr)
{
	return find(m, pid, pid, cpumode, addr, false);
}

const struct hm_map *hm_maps__find_ip_thread(const struct hm_maps *m, u32 pid, u32 tid, u64 ip)
{
	const struct hm_map *map = find(m, pid, tid, PERF_RECORD_MISC_USER, ip, true);

	return map ? map : find(m, pid, tid, PERF_RECORD_MISC_KERNEL, ip, true);
}

const struct hm_map *hm_maps__find_ip(const struct hm_maps *m, u32 pid, u64 ip)
{
	return hm_maps__find_ip_thread(m, pid, pid, ip);
}

bool hm_maps__mapped_thread(const struct hm_maps *m, u32 pid, u32 tid, u8 cpumode, u64 ip, u64 addr)
{
	bool ip_ok;

	/* perf's order: machine__resolve (ip, sample cpumode), then iaddr, then daddr */
	find(m, pid, tid, cpumode, ip, true);
	ip_ok = hm_maps__find_ip_thread(m, pid, tid, ip) != NULL;
	return find(m, pid, tid, cpumode, addr, true) && ip_ok;
}

bool hm_maps__mapped(const struct hm_maps *m, u32 pid, u8 cpumode, u64 ip, u64 addr)
{
	return hm_maps__mapped_thread(m, pid, pid, cpumode, ip, addr);
}

const char *hm_maps__comm(const struct hm_maps *m, u32 tid)
{
	const struct hm_thread *t = m ? hm_htab__find_ptr(&m->threads, tid) : NULL;

	return t ? t->comm : NULL;
}

u64 hm_maps__gen(const struct hm_maps *m)
{
	return m ? m->gen : 0;
}

int hm_maps__pid(const struct hm_maps *m, u32 tid)
{
	const struct hm_thread *t = m ? hm_htab__find_ptr(&m->threads, tid) : NULL;

	return t ? t->pid : -1;
}

void hm_maps__stats(const struct hm_maps *m, struct hm_maps_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!m)
		return;
	st->nr_threads = m->threads.nr;
	st->nr_procs = m->procs.nr;
	st->nr_maps = m->nr_all;
	st->nr_kmaps = m->nr_kmaps;
}

