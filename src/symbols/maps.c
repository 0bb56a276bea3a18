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
#include "symbols-priv.h"

#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#endif
#ifndef PERF_RECORD_MISC_FORK_EXEC
#define PERF_RECORD_MISC_FORK_EXEC (1 << 13)
#endif
#define KSYM_UNREGISTER 1

#define KERNEL_MMAP_NAME "[kernel.kallsyms]"
#define ENTRY_TRAMPOLINE_NAME "__entry_SYSCALL_64_trampoline"

/* Sorted, non-overlapping maps of one process. */
struct mapset {
	struct hm_map **v;
	u32 nr, alloc;
	/* maps found last (a sample asks for its code's and its data's), valid while hint_gen is hm_maps' gen */
	u64 hint_gen;
	const struct hm_map *hint[2];
	u32 hint_next;
};

struct thread {
	u32 tid;
	s32 pid;
	bool dead;
	const char *comm;	/* pooled */
};

struct proc {
	u32 pid;
	struct mapset ms;
};

/* A u32-keyed open-addressing table of pointers (keys stored in the objects). */
struct table {
	void **slot;
	u32 nr, cap;
};

struct kseg {
	u64 start, end;
	const struct hm_map *map;
};

struct build_id_ent {
	const char *filename;	/* pooled */
	u8 id[20];
	u8 size;
};

struct hm_maps {
	struct table threads;	/* struct thread, key tid */
	struct table procs;	/* struct proc, key pid */
	/* kernel maps in insertion order; flat view built on demand */
	struct hm_map **kmaps;
	u32 nr_kmaps, alloc_kmaps;
	struct kseg *kflat;
	u32 nr_kflat, alloc_kflat;
	bool kdirty;
	struct hm_map *vmlinux;
	char ref_name[64];	/* ref_reloc_sym of the kernel MMAP ("_text") */
	hm_maps_ksyms_fn ksyms_fn;
	void *ksyms_ctx;
	struct hm_symbols *own_syms;	/* hm_maps__set_kallsyms */
	bool vmlinux_loaded;
	/* every map object, for freeing */
	struct hm_map **all;
	u64 nr_all, alloc_all;
	struct build_id_ent *bids;
	u32 nr_bids, alloc_bids;
	struct hm_strpool *pool;
	/* sample_proc()'s last answer; any record processed drops it */
	struct { u32 pid, tid; bool valid; const struct proc *p; } last;
	u64 gen;	/* bumped by every record processed: drops the mapsets' hints */
};

/* ------------------------------------------------------------- helpers */

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

static int grow32(void **v, u32 *alloc, u32 need, size_t elem)
{
	u64 a = *alloc;
	int err = grow_array(v, &a, need, elem);

	*alloc = (u32)a;
	return err;
}

static u32 hash32(u32 k)
{
	k ^= k >> 16;
	k *= 0x7feb352d;
	k ^= k >> 15;
	k *= 0x846ca68b;
	k ^= k >> 16;
	return k;
}

/* Objects start with their u32 key. */
static void *table_get(const struct table *t, u32 key)
{
	if (!t->cap)
		return NULL;
	for (u32 j = hash32(key) & (t->cap - 1);; j = (j + 1) & (t->cap - 1)) {
		void *o = t->slot[j];

		if (!o)
			return NULL;
		if (*(u32 *)o == key)
			return o;
	}
}

static int table_put(struct table *t, void *obj)
{
	u32 key = *(u32 *)obj;

	if ((t->nr + 1) * 2 > t->cap) {
		u32 ncap = t->cap ? t->cap * 2 : 64;
		void **ns = calloc(ncap, sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		for (u32 i = 0; i < t->cap; i++) {
			void *o = t->slot[i];
			u32 j;

			if (!o)
				continue;
			for (j = hash32(*(u32 *)o) & (ncap - 1); ns[j]; j = (j + 1) & (ncap - 1))
				;
			ns[j] = o;
		}
		free(t->slot);
		t->slot = ns;
		t->cap = ncap;
	}
	for (u32 j = hash32(key) & (t->cap - 1);; j = (j + 1) & (t->cap - 1)) {
		if (!t->slot[j]) {
			t->slot[j] = obj;
			t->nr++;
			return 0;
		}
		if (*(u32 *)t->slot[j] == key) {	/* replace: caller freed the old one */
			t->slot[j] = obj;
			return 0;
		}
	}
}

static void table_free(struct table *t, void (*fn)(void *))
{
	for (u32 i = 0; i < t->cap; i++)
		if (t->slot[i])
			fn(t->slot[i]);
	free(t->slot);
	t->slot = NULL;
	t->nr = t->cap = 0;
}

static void proc_free(void *o)
{
	struct proc *p = o;

	free(p->ms.v);
	free(p);
}

/* --------------------------------------------------------------- maps */

static struct hm_map *map_new(struct hm_maps *m)
{
	struct hm_map *map;

	if (grow_array((void **)&m->all, &m->alloc_all, m->nr_all + 1, sizeof(*m->all)) < 0)
		return NULL;
	map = calloc(1, sizeof(*map));
	if (map)
		m->all[m->nr_all++] = map;
	return map;
}

static struct hm_map *map_clone(struct hm_maps *m, const struct hm_map *src)
{
	struct hm_map *map = map_new(m);

	if (map)
		*map = *src;	/* filename is pooled: shared */
	return map;
}

static void map_apply_build_id(struct hm_maps *m, struct hm_map *map)
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
static u32 ms_lower(const struct mapset *ms, u64 addr)
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

static const struct hm_map *ms_find(const struct mapset *ms, u64 addr)
{
	u32 i = ms_lower(ms, addr);

	if (i < ms->nr && ms->v[i]->start <= addr)
		return ms->v[i];
	return NULL;
}

/* Insert @map, splitting or dropping what it overlaps (maps__fixup_overlappings). */
static int ms_insert(struct hm_maps *m, struct mapset *ms, struct hm_map *map)
{
	u32 i = ms_lower(ms, map->start), j = i;
	struct hm_map *before = NULL, *after = NULL, *ins[3];
	u32 n = 0;

	while (j < ms->nr && ms->v[j]->start < map->end)
		j++;
	if (j > i) {
		const struct hm_map *first = ms->v[i], *last = ms->v[j - 1];

		if (map->start > first->start) {
			before = map_clone(m, first);
			if (!before)
				return -ENOMEM;
			before->end = map->start;
		}
		if (map->end < last->end) {
			after = map_clone(m, last);
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
	if (grow32((void **)&ms->v, &ms->alloc, ms->nr - (j - i) + n, sizeof(*ms->v)) < 0)
		return -ENOMEM;
	memmove(ms->v + i + n, ms->v + j, (ms->nr - j) * sizeof(*ms->v));
	memcpy(ms->v + i, ins, n * sizeof(*ins));
	ms->nr = ms->nr - (j - i) + n;
	return 0;
}

static int ms_clone(struct mapset *dst, const struct mapset *src)
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

static struct proc *proc_findnew(struct hm_maps *m, u32 pid)
{
	struct proc *p = table_get(&m->procs, pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (table_put(&m->procs, p) < 0) {
		free(p);
		return NULL;
	}
	return p;
}

static struct thread *thread_findnew(struct hm_maps *m, s32 pid, u32 tid)
{
	struct thread *t = table_get(&m->threads, tid);

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
	if (table_put(&m->threads, t) < 0) {
		free(t);
		return NULL;
	}
	return t;
}

/* The process whose maps thread (pid, tid) uses. */
static struct proc *proc_of(struct hm_maps *m, s32 pid, u32 tid)
{
	struct thread *t = thread_findnew(m, pid, tid);

	if (!t)
		return NULL;
	return proc_findnew(m, t->pid == -1 ? tid : (u32)t->pid);
}

/* ------------------------------------------------------- kernel maps */

static int kmaps_add(struct hm_maps *m, struct hm_map *map)
{
	if (grow32((void **)&m->kmaps, &m->alloc_kmaps, m->nr_kmaps + 1, sizeof(*m->kmaps)) < 0)
		return -ENOMEM;
	m->kmaps[m->nr_kmaps++] = map;
	m->kdirty = true;
	return 0;
}

static void kmaps_remove(struct hm_maps *m, const struct hm_map *map)
{
	for (u32 i = 0; i < m->nr_kmaps; i++) {
		if (m->kmaps[i] == map) {
			memmove(m->kmaps + i, m->kmaps + i + 1, (m->nr_kmaps - i - 1) * sizeof(*m->kmaps));
			m->nr_kmaps--;
			m->kdirty = true;
			return;
		}
	}
}

static int cmp_size_desc(const void *a, const void *b)
{
	const struct hm_map *x = *(struct hm_map *const *)a, *y = *(struct hm_map *const *)b;
	u64 sx = x->end - x->start, sy = y->end - y->start;

	return sx < sy ? 1 : sx > sy ? -1 : 0;
}

/* Paint @seg over the flat view: later (smaller) maps win where they overlap. */
static int kflat_paint(struct hm_maps *m, struct kseg seg)
{
	u32 lo = 0, hi = m->nr_kflat, i, j, n = 0;
	struct kseg ins[3];

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (m->kflat[mid].end > seg.start)
			hi = mid;
		else
			lo = mid + 1;
	}
	i = j = lo;
	while (j < m->nr_kflat && m->kflat[j].start < seg.end)
		j++;
	if (j > i && m->kflat[i].start < seg.start) {
		ins[n] = m->kflat[i];
		ins[n++].end = seg.start;
	}
	ins[n++] = seg;
	if (j > i && m->kflat[j - 1].end > seg.end) {
		ins[n] = m->kflat[j - 1];
		ins[n++].start = seg.end;
	}
	if (grow32((void **)&m->kflat, &m->alloc_kflat, m->nr_kflat - (j - i) + n, sizeof(*m->kflat)) < 0)
		return -ENOMEM;
	memmove(m->kflat + i + n, m->kflat + j, (m->nr_kflat - j) * sizeof(*m->kflat));
	memcpy(m->kflat + i, ins, n * sizeof(*ins));
	m->nr_kflat = m->nr_kflat - (j - i) + n;
	return 0;
}

/* Rebuild the flat view: each address maps to the smallest kernel map holding it. */
static int kflat_build(struct hm_maps *m)
{
	struct hm_map **order;
	int err = 0;

	m->nr_kflat = 0;
	if (!m->nr_kmaps) {
		m->kdirty = false;
		return 0;
	}
	order = malloc(m->nr_kmaps * sizeof(*order));
	if (!order)
		return -ENOMEM;
	memcpy(order, m->kmaps, m->nr_kmaps * sizeof(*order));
	/* stable enough: equal sizes keep the later insertion on top */
	qsort(order, m->nr_kmaps, sizeof(*order), cmp_size_desc);
	for (u32 i = 0; i < m->nr_kmaps && !err; i++) {
		if (order[i]->end <= order[i]->start)
			continue;
		err = kflat_paint(m, (struct kseg){ order[i]->start, order[i]->end, order[i] });
	}
	free(order);
	if (!err)
		m->kdirty = false;
	return err;
}

static const struct hm_map *kmaps_find(const struct hm_maps *cm, u64 addr)
{
	struct hm_maps *m = (struct hm_maps *)cm;	/* the flat view is a cache */
	u32 lo = 0, hi;

	if (m->kdirty && kflat_build(m) < 0) {
		/* out of memory: fall back to a scan */
		const struct hm_map *best = NULL;

		for (u32 i = 0; i < m->nr_kmaps; i++) {
			const struct hm_map *k = m->kmaps[i];

			if (k->start <= addr && addr < k->end &&
			    (!best || k->end - k->start <= best->end - best->start))
				best = k;
		}
		return best;
	}
	hi = m->nr_kflat;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (m->kflat[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < m->nr_kflat && m->kflat[lo].start <= addr)
		return m->kflat[lo].map;
	return NULL;
}

static const struct hm_map *kmaps_find_any(const struct hm_maps *m, u64 addr)
{
	return kmaps_find(m, addr);
}

/* machine__process_kernel_mmap_event() */
static int kernel_mmap(struct hm_maps *m, u64 start, u64 len, u64 pgoff, const char *name,
		       const u8 *bid, u8 bid_size, u16 misc, u32 prot, u32 flags)
{
	bool is_kernel = !strncmp(name, KERNEL_MMAP_NAME, strlen(KERNEL_MMAP_NAME) - 1);
	struct hm_map *map;
	u8 type;

	if (name[0] == '/' || (!is_kernel && name[0] == '['))
		type = HM_MAP_MODULE;
	else if (is_kernel)
		type = HM_MAP_VMLINUX;
	else if (!strcmp(name, ENTRY_TRAMPOLINE_NAME))
		type = HM_MAP_KEXTRA;
	else
		return 0;	/* perf ignores it */

	if (type == HM_MAP_VMLINUX)
		snprintf(m->ref_name, sizeof(m->ref_name), "%s", name + strlen(KERNEL_MMAP_NAME));
	if (type == HM_MAP_VMLINUX && m->vmlinux) {
		map = m->vmlinux;	/* machine__update_kernel_mmap: same map, new range */
	} else {
		map = map_new(m);
		if (!map)
			return -ENOMEM;
		map->filename = (char *)hm_strpool__intern(m->pool,
				type == HM_MAP_VMLINUX ? KERNEL_MMAP_NAME : name);
		if (!map->filename)
			return -ENOMEM;
		map->kernel = true;
		map->type = type;
		if (kmaps_add(m, map) < 0)
			return -ENOMEM;
		if (type == HM_MAP_VMLINUX)
			m->vmlinux = map;
	}
	map->start = start;
	map->end = start + len;
	if (type == HM_MAP_VMLINUX && start == 0 && map->end == 0)
		map->end = ~0ULL;	/* zero-sized synthesized kernel MMAP */
	if (map->end < map->start)
		map->end = ~0ULL;
	map->pgoff = pgoff;
	map->misc = misc;
	map->prot = prot;
	map->flags = flags;
	if (bid && bid_size) {
		memcpy(map->build_id, bid, bid_size > 20 ? 20 : bid_size);
		map->build_id_size = bid_size > 20 ? 20 : bid_size;
	} else {
		map_apply_build_id(m, map);
	}
	m->kdirty = true;
	return 0;
}

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
	struct proc *p;
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
		return kernel_mmap(m, r->start, r->len, r->pgoff, name, bid, bid_size,
				   ev->misc, prot, flags);

	p = proc_of(m, (s32)r->pid, r->tid);
	if (!p)
		return -ENOMEM;
	map = map_new(m);
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
	if (bid && bid_size) {
		map->build_id_size = bid_size > 20 ? 20 : bid_size;
		memcpy(map->build_id, bid, map->build_id_size);
	} else {
		map_apply_build_id(m, map);
	}
	if (map->end == map->start)
		return 0;	/* empty: nothing to find */
	err = ms_insert(m, &p->ms, map);
	return err;
}

static int do_comm(struct hm_maps *m, const struct hm_event *ev)
{
	const struct rec_comm *r = ev->data;
	struct thread *t;
	const char *comm;

	if (ev->size < sizeof(*r))
		return -EINVAL;
	t = thread_findnew(m, (s32)r->pid, r->tid);
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
	struct thread *parent, *t;
	struct proc *pp, *cp;

	if (ev->size < sizeof(*r))
		return -EINVAL;
	parent = thread_findnew(m, (s32)r->ppid, r->ptid);
	if (!parent)
		return -ENOMEM;
	if (parent->pid != (s32)r->ppid)	/* an erroneous parent: start it over */
		parent->pid = (s32)r->ppid;
	/* if a thread exists for the child tid it is replaced */
	t = table_get(&m->threads, r->tid);
	if (t) {
		t->pid = (s32)r->pid;
		t->dead = false;
		t->comm = NULL;
	} else {
		t = thread_findnew(m, (s32)r->pid, r->tid);
		if (!t)
			return -ENOMEM;
	}
	t->comm = parent->comm;
	pp = proc_findnew(m, r->ppid);
	if (!pp)
		return -ENOMEM;
	if (r->pid == r->ppid)
		return 0;	/* a new thread: shares its process's maps */
	cp = proc_findnew(m, r->pid);
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
			struct hm_map *c = map_clone(m, pp->ms.v[i]);

			if (!c || ms_insert(m, &cp->ms, c) < 0)
				return -ENOMEM;
		}
		return 0;
	}
	return ms_clone(&cp->ms, &pp->ms);
}

static int do_exit(struct hm_maps *m, const struct hm_event *ev)
{
	const struct rec_fork *r = ev->data;
	struct thread *t;

	if (ev->size < sizeof(*r))
		return -EINVAL;
	t = table_get(&m->threads, r->tid);
	if (t)
		t->dead = true;
	return 0;
}

static int do_ksymbol(struct hm_maps *m, const struct hm_event *ev)
{
	const struct rec_ksymbol *r = ev->data;
	const struct hm_map *cur;
	struct hm_map *map;
	const char *name;

	if (ev->size < sizeof(*r))
		return -EINVAL;
	cur = kmaps_find_any(m, r->addr);
	if (r->flags & KSYM_UNREGISTER) {
		if (cur && cur != m->vmlinux)
			kmaps_remove(m, cur);
		return 0;
	}
	if (cur)
		return 0;	/* inside a known map: perf adds only a symbol */
	name = rec_str(m, r->name, ev->data, ev->size);
	if (!name)
		return -ENOMEM;
	map = map_new(m);
	if (!map)
		return -ENOMEM;
	map->start = r->addr;
	map->end = r->addr + r->len;
	map->filename = (char *)name;
	map->kernel = true;
	map->type = HM_MAP_KSYMBOL;
	map->misc = ev->misc;
	map->prot = PROT_EXEC;
	return kmaps_add(m, map);
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
	table_free(&m->threads, free);
	table_free(&m->procs, proc_free);
	for (u64 i = 0; i < m->nr_all; i++)
		free(m->all[i]);
	free(m->all);
	free(m->kmaps);
	free(m->kflat);
	free(m->bids);
	hm_symbols__delete(m->own_syms);
	hm_strpool__delete(m->pool);
	free(m);
}

int hm_maps__process(struct hm_maps *m, const struct hm_event *ev)
{
	if (!m || !ev || !ev->data)
		return -EINVAL;
	m->last.valid = false;
	m->gen++;
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
		struct build_id_ent *e;
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
			if (grow32((void **)&m->bids, &m->alloc_bids, m->nr_bids + 1, sizeof(*m->bids)) < 0)
				return -ENOMEM;
			m->nr_bids++;
		}
		e = &m->bids[k];
		e->filename = fn;
		e->size = b->size > 20 ? 20 : b->size;
		memcpy(e->id, b->id, e->size);
		for (u64 j = 0; j < m->nr_all; j++)
			map_apply_build_id(m, m->all[j]);
	}
	return 0;
}

/*
 * perf's map__load() of the kernel map at its first hit: kallsyms loaded,
 * symbols moved by the relocation delta (kallsyms__delta), the map set to
 * their range (map__fixup_start/end).
 */
static void vmlinux_load(struct hm_maps *m)
{
	const struct hm_ksyms *k;
	u64 start, end, delta = 0;

	m->vmlinux_loaded = true;
	if (!m->ksyms_fn)
		return;
	k = m->ksyms_fn(m->ksyms_ctx);
	if (!k || hm_ksyms__kernel_range(k, &start, &end) < 0)
		return;
	if (m->vmlinux->pgoff && m->ref_name[0]) {
		const struct hm_ksym *ref = hm_ksyms__by_name(k, m->ref_name);

		if (!ref)
			return;	/* perf: kallsyms__delta fails, nothing loaded */
		delta = ref->start - m->vmlinux->pgoff;
	}
	m->vmlinux->start = start - delta;
	m->vmlinux->end = end - delta;
	m->kdirty = true;
}

static const struct hm_map *kfind(const struct hm_maps *cm, u64 addr)
{
	struct hm_maps *m = (struct hm_maps *)cm;	/* loading is a cache fill */
	const struct hm_map *map = kmaps_find(m, addr);

	if (map && map == m->vmlinux && !m->vmlinux_loaded) {
		vmlinux_load(m);
		map = kmaps_find(m, addr);
	}
	return map;
}

void hm_maps__set_kernel_loader(struct hm_maps *m, hm_maps_ksyms_fn fn, void *ctx)
{
	m->ksyms_fn = fn;
	m->ksyms_ctx = ctx;
}

int hm_maps__set_kallsyms(struct hm_maps *m, const struct hm_symbols_opts *opts)
{
	struct hm_symbols *s = hm_symbols__new(opts);

	if (!s)
		return -ENOMEM;
	hm_symbols__delete(m->own_syms);
	m->own_syms = s;
	hm_symbols__attach_maps(s, m);
	return 0;
}

const struct hm_map *hm_maps__kernel_map(const struct hm_maps *m)
{
	return m ? m->vmlinux : NULL;
}

/* The process whose maps thread (@pid, @tid) of a sample uses (perf: by tid, then the leader). */
static const struct proc *sample_proc_slow(const struct hm_maps *m, u32 pid, u32 tid)
{
	const struct thread *t = table_get(&m->threads, tid);
	u32 p = pid;

	if (t && t->pid != -1)
		p = (u32)t->pid;
	if (p != tid) {	/* the leader: a known thread p may belong elsewhere */
		const struct thread *l = table_get(&m->threads, p);

		if (l && l->pid != -1)
			p = (u32)l->pid;
	}
	return table_get(&m->procs, p);
}

/*
 * ms_find() through the last maps found: the maps of a set do not overlap,
 * so a remembered map of the same, unchanged set that holds @addr is the
 * answer.  Sets change only while records are processed, which drops them.
 */
static const struct hm_map *ms_find_cached(const struct hm_maps *m, const struct mapset *cms, u64 addr)
{
	struct mapset *ms = (struct mapset *)cms;	/* the hints only */
	const struct hm_map *map;

	if (ms->hint_gen != m->gen) {
		ms->hint[0] = ms->hint[1] = NULL;
		ms->hint_gen = m->gen;
	}
	for (int i = 0; i < 2; i++)
		if (ms->hint[i] && ms->hint[i]->start <= addr && addr < ms->hint[i]->end)
			return ms->hint[i];
	map = ms_find(ms, addr);
	if (map) {
		ms->hint[ms->hint_next] = map;
		ms->hint_next ^= 1;
	}
	return map;
}

/* Samples come in runs of one thread and ask twice each (ip, data): remember the last. */
static const struct proc *sample_proc(const struct hm_maps *m, u32 pid, u32 tid)
{
	struct hm_maps *mm = (struct hm_maps *)m;	/* the cache only */

	if (!mm->last.valid || mm->last.pid != pid || mm->last.tid != tid) {
		mm->last.p = sample_proc_slow(m, pid, tid);
		mm->last.pid = pid;
		mm->last.tid = tid;
		mm->last.valid = true;
	}
	return mm->last.p;
}

static const struct hm_map *find(const struct hm_maps *m, u32 pid, u32 tid, u8 cpumode, u64 addr, bool load)
{
	const struct proc *p;

	if (!m)
		return NULL;
	switch (cpumode & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		return load ? kfind(m, addr) : kmaps_find(m, addr);
	case PERF_RECORD_MISC_USER:
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
	const struct thread *t = m ? table_get(&m->threads, tid) : NULL;

	return t ? t->comm : NULL;
}

int hm_maps__pid(const struct hm_maps *m, u32 tid)
{
	const struct thread *t = m ? table_get(&m->threads, tid) : NULL;

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
