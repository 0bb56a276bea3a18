// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where the workload's objects live: physical memory per node, the global
 * tables (vmalloc'ed and spread before 6.16, one per node after), the
 * private hash, the mm, per-CPU units, the user heap of futex words (4 KiB
 * pages or a THP), its page tables and struct pages; then every futex's
 * key, bucket and cache lines.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "sim/coherence.h"

#define KTEXT_BASE	HM_SIM_KTEXT
#define KDATA_FUTEX	HM_SIM_KDATA_FUTEX

/* ------------------------------------------------------------- layout */

const char *hm_obj__name(enum hm_obj o)
{
	static const char *const n[HM_OBJ__MAX] = {
		"bucket", "fph", "mm", "pcpu", "uword", "page", "global", "folio", "pt", "qnode",
	};
	return (unsigned)o < HM_OBJ__MAX ? n[o] : "?";
}

u64 hm_sim__phys(const struct hm_sim *s, u32 node, u64 off)
{
	return (u64)node * s->m.node_mem + off;
}

u32 hm_sim__node_of(const struct hm_sim *s, u64 phys)
{
	u32 n = (u32)(phys / s->m.node_mem);

	return n < s->m.sockets ? n : 0;
}

/* Node-local bump allocator for physical memory, naturally aligned. */
struct palloc {
	u64 next[16];
};

static u64 palloc(struct hm_sim *s, struct palloc *p, u32 node, u64 size, u64 align)
{
	u64 a;

	if (!p->next[node])
		p->next[node] = hm_sim__phys(s, node, 0x40000000ULL);	/* 1 GiB into the node */
	a = (p->next[node] + align - 1) & ~(align - 1);
	p->next[node] = a + size;
	return a;
}

#define HUGE (2ULL << 20)

static u64 pow2_at_least(u64 v)
{
	u64 r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

static u64 virt_to_phys_dm(u64 va)
{
	return va - HM_SIM_PAGE_OFFSET;
}

/* Physical address of @va, for PERF_SAMPLE_PHYS_ADDR. */
u64 hm_sim__paddr(const struct hm_sim *s, u64 va)
{
	const struct hm_sim_layout *L = &s->lay;

	if (va >= L->heap && va < L->heap + L->heap_len)
		return L->heap_phys + (va - L->heap);
	if (va >= KTEXT_BASE)
		return va - 0xffffffff80000000ULL;
	if (L->table_vmalloc && va >= L->table_base[0] && va < L->table_base[0] + L->table_slots * 64) {
		u64 off = va - L->table_base[0], page = off >> 12;
		u32 node = (u32)(page % s->m.sockets);

		return L->table_phys[node] + ((page / s->m.sockets) << 12) + (off & 4095);
	}
	if (va >= HM_SIM_VMEMMAP)
		return 0x7f000000ULL + (va - HM_SIM_VMEMMAP);	/* vmemmap backing, node 0 */
	if (va >= HM_SIM_PAGE_OFFSET && va < HM_SIM_VMALLOC)
		return virt_to_phys_dm(va);
	return 0;
}

int hm_sim__make_layout(struct hm_sim *s)
{
	struct hm_sim_layout *L = &s->lay;
	struct palloc pa;
	u32 n, i;
	u64 arr_stride = (u64)s->o.futexes * 4 + 16;
	u64 slots = 0, bs = s->fm.layout.bucket_size;

	memset(&pa, 0, sizeof(pa));
	memset(L, 0, sizeof(*L));
	/* mm_struct from its kmem_cache on node 0 (the main thread runs there) */
	L->mm_phys = palloc(s, &pa, 0, 2048, 2048);
	L->mm = HM_SIM_PAGE_OFFSET + L->mm_phys;
	L->futex_data = KDATA_FUTEX;
	/* global tables */
	L->table_slots = s->fm.global_slots;
	if (s->era == HM_FUTEX_ERA_PRE_6_16) {
		L->nr_tables = 1;
		if (s->m.sockets > 1) {
			/* alloc_large_system_hash with hashdist: vmalloc, pages spread over nodes */
			L->table_vmalloc = true;
			L->table_base[0] = HM_SIM_VMALLOC + 0x1c000000ULL;
			for (n = 0; n < s->m.sockets; n++)
				L->table_phys[n] = palloc(s, &pa, n, L->table_slots * bs / s->m.sockets + 4096, 4096);
		} else {
			L->table_phys[0] = palloc(s, &pa, 0, L->table_slots * bs, pow2_at_least(L->table_slots * bs));
			L->table_base[0] = HM_SIM_PAGE_OFFSET + L->table_phys[0];
		}
	} else {
		L->nr_tables = s->m.sockets;
		for (n = 0; n < s->m.sockets; n++) {
			/* alloc_pages_exact_nid: linear, on node n */
			L->table_phys[n] = palloc(s, &pa, n, L->table_slots * bs, pow2_at_least(L->table_slots * bs));
			L->table_base[n] = HM_SIM_PAGE_OFFSET + L->table_phys[n];
		}
	}
	if (s->kmod->runtime_const) {
		/* __futex_queues: kzalloc(nr_node_ids pointers) on the boot CPU's node */
		u64 ph = palloc(s, &pa, 0, 64, 64);

		L->futex_data = HM_SIM_PAGE_OFFSET + ph;
	}
	/*
	 * Private hash (perf bench -b N: prctl SET_SLOTS N; -b 0: the global
	 * hash).  perf bench's main thread creates the workers, so the process
	 * is multi-threaded even with one worker: the last creation sees the
	 * main thread plus the other workers (at least 2 threads: 16 slots).
	 */
	if (!s->o.shared && s->kmod->private_hash && !(s->o.slots_set && !s->o.slots)) {
		slots = s->o.slots ? s->o.slots
				   : hm_futex__private_slots(s->era, s->nr_threads < 2 ? 2 : s->nr_threads, s->m.nr_cpus,
							     s->fm.global_slots);
	}
	if (slots) {
		u64 size = s->fm.fph.queues + bs * slots;
		/* kvzalloc: kmalloc size classes up to 8 KiB, pages (naturally aligned) above */
		u64 al = size <= 8192 ? pow2_at_least(size) : pow2_at_least((size + 4095) & ~4095ULL);

		L->fph_slots = slots;
		L->fph_phys = palloc(s, &pa, 0, size, al);
		L->fph = HM_SIM_PAGE_OFFSET + L->fph_phys;
	}
	/* per-CPU units, on each CPU's node */
	L->pcpu_stride = 0x10000;	/* per-CPU units at 256 MiB into the node, below the bump area */
	L->pcpu_off = 0x2b3e0;
	/*
	 * User heap: calloc'ed arrays of futexes, 16-byte chunk headers, node 0
	 * pages (the main thread allocates and first touches them).  With --thp
	 * the arena is backed by 2 MiB folios (THP "always"), 2 MiB aligned.
	 */
	L->heap = s->o.thp ? 0x55d4c8c00000ULL : 0x55d4c8a1b000ULL;
	L->heap_len = 0x2a0 + arr_stride * s->nr_threads + 4096;
	L->heap_phys = s->o.thp ? palloc(s, &pa, 0, (L->heap_len + HUGE - 1) & ~(HUGE - 1), HUGE)
				: palloc(s, &pa, 0, (L->heap_len + 4095) & ~4095ULL, 4096);
	for (i = 0; i < s->nr_threads; i++)
		s->th[i].arr = L->heap + 0x2a0 + 0x10 + i * arr_stride;
	L->vmemmap = HM_SIM_VMEMMAP;
	/* the process's page tables: PTE pages (4 KiB) or the PMD page (THP) */
	L->pt_phys = palloc(s, &pa, 0, ((L->heap_len >> 21) + 2) * 4096, 4096);
	return 0;
}

/* Address of the page-table entry GUP-fast reads for user address @va. */
u64 hm_sim__pt_addr(const struct hm_sim *s, u64 va)
{
	const struct hm_sim_layout *L = &s->lay;
	u64 base = HM_SIM_PAGE_OFFSET + L->pt_phys;

	if (s->o.thp)
		return base + ((va >> 21) & 511) * 8;
	return base + ((va - (L->heap & ~(HUGE - 1))) >> 12) * 8;
}

/* struct page of @va's page; with @head, of its folio's head page. */
u64 hm_sim__page_addr(const struct hm_sim *s, u64 pa, bool head)
{
	u64 pfn = pa >> 12;

	if (head && s->o.thp)
		pfn &= ~511ULL;
	return s->lay.vmemmap + pfn * 64;
}

u64 hm_sim__pcpu_addr(const struct hm_sim *s, u32 cpu)
{
	/* unit of @cpu inside its node's first chunk */
	u32 node = s->m.cpu_socket[cpu];
	u64 base = hm_sim__phys(s, node, 0x10000000ULL) + (u64)cpu * s->lay.pcpu_stride;

	return HM_SIM_PAGE_OFFSET + base + s->lay.pcpu_off;
}

/*
 * qnodes[0] of @cpu: DEFINE_PER_CPU_ALIGNED(struct qnode, qnodes[4]), the MCS
 * nodes of kernel/locking/qspinlock.c, on its own line of the CPU's unit.
 */
u64 hm_sim__qnode_addr(const struct hm_sim *s, u32 cpu)
{
	return hm_sim__pcpu_addr(s, cpu) - s->lay.pcpu_off + HM_SIM_QNODES_OFF;
}

/* ------------------------------------------------------------- futexes */

/*
 * Bucket @index of table @table: the global tables are 0..nr_tables-1 (one
 * per node from 6.16, one spread table before), the private hash comes
 * after them, its bucket 0 at offsetof(struct futex_private_hash, queues).
 */
u64 hm_sim__bucket_addr(const struct hm_sim *s, s32 table, u64 index)
{
	const struct hm_sim_layout *L = &s->lay;
	u64 bs = s->fm.layout.bucket_size;

	if (table >= 0 && (u32)table < L->nr_tables)
		return L->table_base[table] + bs * index;
	if (table >= 0 && (u32)table == L->nr_tables && L->fph)
		return L->fph + s->fm.fph.queues + bs * index;
	return 0;
}

int hm_sim__hash_futexes(struct hm_sim *s)
{
	const struct hm_sim_layout *L = &s->lay;
	u64 nf = (u64)s->nr_threads * s->o.futexes, k, bs = s->fm.layout.bucket_size;
	u32 i, j;

	s->bucket = calloc(nf, sizeof(u64));
	s->fut = calloc(nf, sizeof(*s->fut));
	s->bucket_table = calloc(nf, sizeof(int16_t));
	s->bucket_index = calloc(nf, sizeof(u64));
	s->page_line = calloc(nf, sizeof(u32));
	s->folio_line = calloc(nf, sizeof(u32));
	s->pt_line = calloc(nf, sizeof(u32));
	s->pcpu_line = calloc(s->m.nr_cpus, sizeof(u32));
	s->qnode_line = calloc(s->m.nr_cpus, sizeof(u32));
	if (bs > 64)
		s->bucket_line2 = calloc(nf, sizeof(u32));
	if (!s->bucket || !s->fut || !s->bucket_table || !s->bucket_index ||
	    !s->page_line || !s->folio_line || !s->pt_line || !s->pcpu_line || !s->qnode_line || (bs > 64 && !s->bucket_line2))
		return -ENOMEM;
	for (i = 0; i < s->nr_threads; i++) {
		for (j = 0; j < s->o.futexes; j++) {
			u64 ua = s->th[i].arr + 4ULL * j, idx, b;
			struct hm_futex_key key;
			u32 node = 0;
			int16_t table;

			k = (u64)i * s->o.futexes + j;
			if (s->o.shared)
				hm_futex_key__shared_anon(&key, s->fm.mm_seq ? 0x4d2ULL : L->mm, ua);
			else
				hm_futex_key__private(&key, L->mm, ua);
			if (L->fph) {
				idx = hm_futex__hash_private(&key, L->fph_slots);
				table = (int16_t)L->nr_tables;	/* the private table comes after the global ones */
			} else {
				hm_futex__hash_global(&s->fm, &key, &node, &idx);
				if (node >= L->nr_tables)
					node = 0;
				table = (int16_t)node;
			}
			b = hm_sim__bucket_addr(s, table, idx);
			s->bucket[k] = b;
			s->bucket_table[k] = table;
			s->bucket_index[k] = idx;
			s->fut[k].bucket_line = hm_coh__line(s->coh, b, hm_sim__node_of(s, hm_sim__paddr(s, b)));
			s->fut[k].uword_line = hm_coh__line(s->coh, ua, hm_sim__node_of(s, hm_sim__paddr(s, ua)));
			if (bs > 64) {
				s->bucket_line2[k] = hm_coh__line(s->coh, b + 64, hm_sim__node_of(s, hm_sim__paddr(s, b + 64)));
				if (s->bucket_line2[k] == UINT32_MAX)
					return -ENOMEM;
			}
			if (s->o.shared) {
				u64 pa = hm_sim__paddr(s, ua);

				/* vmemmap and page tables: node 0 (the main thread faulted the heap in) */
				s->page_line[k] = hm_coh__line(s->coh, hm_sim__page_addr(s, pa, false), 0);
				s->folio_line[k] = hm_coh__line(s->coh, hm_sim__page_addr(s, pa, true), 0);
				s->pt_line[k] = hm_coh__line(s->coh, hm_sim__pt_addr(s, ua), 0);
				if (s->page_line[k] == UINT32_MAX || s->folio_line[k] == UINT32_MAX ||
				    s->pt_line[k] == UINT32_MAX)
					return -ENOMEM;
			}
			if (s->fut[k].bucket_line == UINT32_MAX || s->fut[k].uword_line == UINT32_MAX)
				return -ENOMEM;
		}
	}
	for (i = 0; i < s->m.nr_cpus; i++) {
		u64 a = hm_sim__pcpu_addr(s, i);

		s->pcpu_line[i] = hm_coh__line(s->coh, a, s->m.cpu_socket[i]);
		if (s->pcpu_line[i] == UINT32_MAX)
			return -ENOMEM;
	}
	/* after every other line: their ids (and private-cache sets) stay as they were */
	for (i = 0; i < s->m.nr_cpus; i++) {
		s->qnode_line[i] = hm_coh__line(s->coh, hm_sim__qnode_addr(s, i), s->m.cpu_socket[i]);
		if (s->qnode_line[i] == UINT32_MAX)
			return -ENOMEM;
	}
	return 0;
}

static int add_region(struct hm_sim *s, u32 kind, s32 pid, u64 base, u64 size, const char *name)
{
	struct hm_futex_region r;

	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.pid = pid;
	r.base = base;
	r.size = size;
	snprintf(r.name, sizeof(r.name), "%s", name);
	return hm_futex_model__add_region(&s->fm, &r);
}

/*
 * Every other object the futex path touches, with its address, for the
 * file's metadata (HM_META_FUTEX_OBJECTS): the report then names each line
 * the truth counts (truth.c's objects) exactly.  The mm_struct with all its
 * fields as this kernel lays them out (mmlines.c), the heap of futex words,
 * the page-table page(s) GUP-fast reads, the global hash's data, and per
 * CPU the futex reference counter (6.17+) and the qspinlock MCS nodes.
 */
static int register_objects(struct hm_sim *s)
{
	const struct hm_sim_layout *L = &s->lay;
	struct hm_sim_mmfield f[HM_SIM_MM_FIELDS_MAX];
	u32 n = hm_sim__mm_fields(s->kmod, f, HM_SIM_MM_FIELDS_MAX), i;
	u64 end = 64;
	int err = 0;

	for (i = 0; i < n && i < HM_SIM_MM_FIELDS_MAX && !err; i++) {
		err = hm_futex_model__add_mm_name(&s->fm, f[i].name, f[i].off, f[i].size);
		if (f[i].off + f[i].size > end)
			end = f[i].off + f[i].size;
	}
	if (!err)
		err = add_region(s, HM_FUTEX_REGION_MM, (s32)s->pid, L->mm, (end + 63) & ~63ULL, "mm_struct");
	if (!err)
		err = add_region(s, HM_FUTEX_REGION_WORDS, (s32)s->pid, L->heap, L->heap_len, "heap");
	if (!err)
		err = add_region(s, HM_FUTEX_REGION_PT, -1, HM_SIM_PAGE_OFFSET + L->pt_phys,
				 ((L->heap_len >> 21) + 2) * 4096, s->o.thp ? "pmd" : "pte");
	/* __futex_data {hashmask, hashshift, queues[nodes]} (6.12: {queues, hashsize}); 7.3: __futex_queues[] */
	if (!err)
		err = add_region(s, HM_FUTEX_REGION_GLOBAL, -1, L->futex_data,
				 s->kmod->runtime_const ? 8ULL * s->m.sockets : 16 + 8ULL * s->m.sockets,
				 s->kmod->runtime_const ? "__futex_queues" : "__futex_data");
	for (i = 0; i < s->m.nr_cpus && !err; i++) {
		if (s->kmod->ref == HM_SIM_REF_PERCPU)
			err = add_region(s, HM_FUTEX_REGION_PCPU, -1, hm_sim__pcpu_addr(s, i), 4, "futex_ref");
		if (!err)
			err = add_region(s, HM_FUTEX_REGION_QNODE, -1, hm_sim__qnode_addr(s, i), 64, "qnodes");
	}
	return err;
}

int hm_sim__register_tables(struct hm_sim *s)
{
	const struct hm_sim_layout *L = &s->lay;
	struct hm_futex_table t;
	u32 n;
	int err;

	for (n = 0; n < L->nr_tables; n++) {
		memset(&t, 0, sizeof(t));
		t.kind = 0;
		t.node = (s32)n;
		t.pid = -1;
		t.base = L->table_base[n];
		t.slots = L->table_slots;
		snprintf(t.provenance, sizeof(t.provenance), "simulate");
		err = hm_futex_model__add_table(&s->fm, &t);
		if (err)
			return err;
	}
	if (L->fph) {
		memset(&t, 0, sizeof(t));
		t.kind = 1;
		t.node = -1;
		t.pid = (s32)s->pid;
		t.base = L->fph + s->fm.fph.queues;
		t.slots = L->fph_slots;
		snprintf(t.provenance, sizeof(t.provenance), "simulate");
		err = hm_futex_model__add_table(&s->fm, &t);
		if (err)
			return err;
	}
	if (s->era != HM_FUTEX_ERA_PRE_6_16) {
		err = hm_futex_model__add_mm(&s->fm, (s32)s->pid, L->mm);
		if (err)
			return err;
	}
	return register_objects(s);
}

