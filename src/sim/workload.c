// SPDX-License-Identifier: GPL-2.0-only
/*
 * The futex hash workload (perf bench futex hash: every thread FUTEX_WAITs on
 * each of its futexes with a value that does not match, so each operation
 * takes and drops the bucket lock and returns EAGAIN), run through the
 * kernel's memory accesses per operation for each kernel era
 * (shared/docs/notes/futex.md section 4 and 4.1):
 *
 *   pre-6.16  one global table; waiters inc, lock, user word, unlock, waiters dec
 *   6.16      private hash: mm->futex_phash, fph->hash_mask, hb->priv, rcuref_get
 *             (atomic RMW of fph->users on every op) ... hb->priv, rcuref_put
 *   6.17/6.18 per-CPU references: fph->state, fph->mm, mm->futex_ref read,
 *             this_cpu_inc/dec; hb->priv still read twice
 *   7.x       no priv in the bucket
 *
 * Threads are scheduled by simulated time, one memory access at a time, so
 * accesses of different CPUs interleave the way their latencies allow.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hitmap/log.h>
#include "sim/sim.h"

/* ---------------------------------------------------------------- ksyms */

enum ksym_id {
	K_DO_FUTEX, K_FUTEX_WAIT, K___FUTEX_WAIT, K_FUTEX_WAIT_SETUP, K_GET_FUTEX_KEY,
	K_FUTEX_HASH, K___FUTEX_HASH, K_FUTEX_PRIVATE_HASH_GET, K_FUTEX_PRIVATE_HASH_PUT,
	K_FUTEX_REF_GET, K_FUTEX_REF_PUT, K_FUTEX_HASH_PUT, K_FUTEX_Q_LOCK, K_FUTEX_Q_UNLOCK,
	K_RAW_SPIN_LOCK, K_QSPIN_SLOWPATH, K_TRY_GRAB_FOLIO_FAST, K__MAX
};

static const struct { const char *name; u32 size; } ksyms[K__MAX] = {
	[K_DO_FUTEX]		   = { "do_futex", 0x1a0 },
	[K_FUTEX_WAIT]		   = { "futex_wait", 0x120 },
	[K___FUTEX_WAIT]	   = { "__futex_wait", 0x150 },
	[K_FUTEX_WAIT_SETUP]	   = { "futex_wait_setup", 0x1e0 },
	[K_GET_FUTEX_KEY]	   = { "get_futex_key", 0x3c0 },
	[K_FUTEX_HASH]		   = { "futex_hash", 0xd0 },
	[K___FUTEX_HASH]	   = { "__futex_hash", 0x130 },
	[K_FUTEX_PRIVATE_HASH_GET] = { "futex_private_hash_get", 0x60 },
	[K_FUTEX_PRIVATE_HASH_PUT] = { "futex_private_hash_put", 0x70 },
	[K_FUTEX_REF_GET]	   = { "futex_ref_get", 0x60 },
	[K_FUTEX_REF_PUT]	   = { "futex_ref_put", 0x70 },
	[K_FUTEX_HASH_PUT]	   = { "futex_hash_put", 0x40 },
	[K_FUTEX_Q_LOCK]	   = { "futex_q_lock", 0x70 },
	[K_FUTEX_Q_UNLOCK]	   = { "futex_q_unlock", 0x40 },
	[K_RAW_SPIN_LOCK]	   = { "_raw_spin_lock", 0x30 },
	[K_QSPIN_SLOWPATH]	   = { "native_queued_spin_lock_slowpath", 0x2c0 },
	[K_TRY_GRAB_FOLIO_FAST]	   = { "try_grab_folio_fast", 0x180 },
};

#define KTEXT_BASE	0xffffffff81000000ULL
#define KMAP_LEN	0x7e000000ULL		/* length of the kernel MMAP2 (sample.c) */
#define KTEXT_FUTEX	0xffffffff811c4000ULL	/* kernel/futex/ lives about here */
#define KDATA_FUTEX	0xffffffff83260900ULL	/* __futex_data, as on the 6.18 build (futex.md 2.10) */

static u64 ksym_addr[K__MAX];

static void ksyms_layout(void)
{
	u64 a = KTEXT_FUTEX;
	int i;

	if (ksym_addr[0])
		return;
	for (i = 0; i < K__MAX; i++) {
		ksym_addr[i] = a;
		a += (ksyms[i].size + 0x3f) & ~0x3fULL;
	}
}

u64 hm_sim__ksym(const char *name)
{
	int i;

	ksyms_layout();
	for (i = 0; i < K__MAX; i++)
		if (!strcmp(ksyms[i].name, name))
			return ksym_addr[i];
	if (!strcmp(name, "__futex_data"))
		return KDATA_FUTEX;
	if (!strcmp(name, "_text"))
		return KTEXT_BASE;
	return 0;
}

static int build_ksyms(struct hm_sim *s)
{
	size_t cap = 4096, len = 0;
	char *t = malloc(cap);
	int i;

	if (!t)
		return -ENOMEM;
	ksyms_layout();
	len += snprintf(t + len, cap - len, "%016llx T _text\n", (unsigned long long)KTEXT_BASE);
	for (i = 0; i < K__MAX; i++)
		len += snprintf(t + len, cap - len, "%016llx %c %s\n",
				(unsigned long long)ksym_addr[i],
				i == K___FUTEX_HASH || i == K_FUTEX_REF_GET || i == K_FUTEX_REF_PUT ? 't' : 'T',
				ksyms[i].name);
	len += snprintf(t + len, cap - len, "%016llx d __futex_data\n",
			(unsigned long long)KDATA_FUTEX);
	s->ksyms = t;
	s->ksyms_len = len;
	return 0;
}

/* ------------------------------------------------------------ templates */

enum step_kind { ST_PLAIN, ST_LOCK, ST_UNLOCK };

struct step {
	u8	obj;		/* enum hm_obj */
	u8	acc;		/* enum hm_acc */
	u8	kind;
	u8	locked;
	u16	off;
	u8	ksym;
	u16	ipoff;
	u8	field;		/* bucket field, HM_FUTEX_FIELD__MAX otherwise */
	u32	line;		/* singleton objects */
};

#define MAX_STEPS 32

struct tmpl {
	struct step	st[MAX_STEPS];
	u32		n;
};

static void add(struct tmpl *t, enum hm_obj obj, enum hm_acc acc, u32 off, enum ksym_id k,
		u32 ipoff, bool locked, enum step_kind kind)
{
	struct step *s = &t->st[t->n++];

	s->obj = obj;
	s->acc = acc;
	s->off = (u16)off;
	s->ksym = (u8)k;
	s->ipoff = (u16)ipoff;
	s->locked = locked;
	s->kind = kind;
	s->line = UINT32_MAX;
}

static bool use_private_hash(const struct hm_sim *s)
{
	return s->lay.fph != 0;
}

static void build_template(const struct hm_sim *s, struct tmpl *t)
{
	const struct hm_futex_layout *bl = &s->fm.layout;
	const struct hm_futex_mm_layout *ml = &s->fm.mm;
	const struct hm_futex_fph_layout *fl = &s->fm.fph;
	u32 w = bl->offset[HM_FUTEX_FIELD_WAITERS], lk = bl->offset[HM_FUTEX_FIELD_LOCK];
	bool priv = bl->offset[HM_FUTEX_FIELD_PRIV] >= 0;
	u32 pv = priv ? (u32)bl->offset[HM_FUTEX_FIELD_PRIV] : 0;
	enum hm_futex_era e = s->era;

	t->n = 0;
	if (s->o.shared) {
		/* get_futex_key: GUP-fast takes a folio reference, folio_put drops it */
		add(t, HM_OBJ_PAGE, HM_ACC_LOAD, 0, K_TRY_GRAB_FOLIO_FAST, 0x1c, false, ST_PLAIN);
		add(t, HM_OBJ_PAGE, HM_ACC_RMW, 52, K_TRY_GRAB_FOLIO_FAST, 0x48, true, ST_PLAIN);
		add(t, HM_OBJ_PAGE, HM_ACC_LOAD, 24, K_GET_FUTEX_KEY, 0x10a, false, ST_PLAIN);
		add(t, HM_OBJ_PAGE, HM_ACC_RMW, 52, K_GET_FUTEX_KEY, 0x16e, true, ST_PLAIN);
	}
	if (use_private_hash(s)) {
		add(t, HM_OBJ_MM, HM_ACC_LOAD, ml->offset[HM_FUTEX_MM_futex_phash], K___FUTEX_HASH, 0x19, false, ST_PLAIN);
		add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->hash_mask, K___FUTEX_HASH, 0x22, false, ST_PLAIN);
	} else if (e != HM_FUTEX_ERA_7) {
		add(t, HM_OBJ_GLOBAL, HM_ACC_LOAD, e == HM_FUTEX_ERA_PRE_6_16 ? 0 : 16,
		    e == HM_FUTEX_ERA_PRE_6_16 ? K_FUTEX_HASH : K___FUTEX_HASH, 0x3a, false, ST_PLAIN);
	}
	if (priv)
		add(t, HM_OBJ_BUCKET, HM_ACC_LOAD, pv, K_FUTEX_HASH, 0x32, false, ST_PLAIN);
	if (use_private_hash(s)) {
		if (e == HM_FUTEX_ERA_6_16) {
			add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->immutable, K_FUTEX_PRIVATE_HASH_GET, 0x9, false, ST_PLAIN);
			add(t, HM_OBJ_FPH, HM_ACC_RMW, fl->users, K_FUTEX_PRIVATE_HASH_GET, 0x14, true, ST_PLAIN);
		} else {
			add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->users, K_FUTEX_REF_GET, 0xb, false, ST_PLAIN);
			add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->mm, K_FUTEX_REF_GET, 0x12, false, ST_PLAIN);
			add(t, HM_OBJ_MM, HM_ACC_LOAD, ml->offset[HM_FUTEX_MM_futex_ref], K_FUTEX_REF_GET, 0x16, false, ST_PLAIN);
			add(t, HM_OBJ_PCPU, HM_ACC_RMW, 0, K_FUTEX_REF_GET, 0x1d, false, ST_PLAIN);
		}
	}
	/* futex_q_lock: waiters inc (+ smp_mb), then the bucket lock */
	add(t, HM_OBJ_BUCKET, HM_ACC_RMW, w, K_FUTEX_Q_LOCK, 0x1d, true, ST_PLAIN);
	add(t, HM_OBJ_BUCKET, HM_ACC_RMW, lk, K_RAW_SPIN_LOCK, 0x9, true, ST_LOCK);
	/* futex_get_value_locked: the user word, from kernel code */
	add(t, HM_OBJ_UWORD, HM_ACC_LOAD, 0, K_FUTEX_WAIT_SETUP, 0x8a, false, ST_PLAIN);
	if (e == HM_FUTEX_ERA_PRE_6_16) {
		/* 6.12: spin_unlock, then waiters dec */
		add(t, HM_OBJ_BUCKET, HM_ACC_STORE, lk, K_FUTEX_Q_UNLOCK, 0x8, false, ST_UNLOCK);
		add(t, HM_OBJ_BUCKET, HM_ACC_RMW, w, K_FUTEX_Q_UNLOCK, 0xd, true, ST_PLAIN);
	} else {
		/* 6.16+: "Decrease the waiter count before the unlock operation" */
		add(t, HM_OBJ_BUCKET, HM_ACC_RMW, w, K_FUTEX_Q_UNLOCK, 0x9, true, ST_PLAIN);
		add(t, HM_OBJ_BUCKET, HM_ACC_STORE, lk, K_FUTEX_Q_UNLOCK, 0x12, false, ST_UNLOCK);
	}
	if (priv)
		add(t, HM_OBJ_BUCKET, HM_ACC_LOAD, pv, K_FUTEX_HASH_PUT, 0x8, false, ST_PLAIN);
	if (use_private_hash(s)) {
		if (e == HM_FUTEX_ERA_6_16) {
			add(t, HM_OBJ_FPH, HM_ACC_RMW, fl->users, K_FUTEX_PRIVATE_HASH_PUT, 0x11, true, ST_PLAIN);
		} else {
			add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->users, K_FUTEX_REF_PUT, 0xb, false, ST_PLAIN);
			add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->mm, K_FUTEX_REF_PUT, 0x12, false, ST_PLAIN);
			add(t, HM_OBJ_MM, HM_ACC_LOAD, ml->offset[HM_FUTEX_MM_futex_ref], K_FUTEX_REF_PUT, 0x16, false, ST_PLAIN);
			add(t, HM_OBJ_PCPU, HM_ACC_RMW, 0, K_FUTEX_REF_PUT, 0x1d, false, ST_PLAIN);
		}
	}
}

/* ------------------------------------------------------------- layout */

const char *hm_obj__name(enum hm_obj o)
{
	static const char *const n[HM_OBJ__MAX] = {
		"bucket", "fph", "mm", "pcpu", "uword", "page", "global",
	};
	return (unsigned)o < HM_OBJ__MAX ? n[o] : "?";
}

u64 hm_sim__phys(const struct hm_sim *s, u32 node, u64 off)
{
	return (u64)node * s->m.node_mem + off;
}

static u32 phys_node(const struct hm_sim *s, u64 phys)
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
static u64 sim_phys(const struct hm_sim *s, u64 va)
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

static int make_layout(struct hm_sim *s)
{
	struct hm_sim_layout *L = &s->lay;
	struct palloc pa;
	u32 n, i;
	u64 arr_stride = (u64)s->o.futexes * 4 + 16;
	u64 slots = 0;

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
				L->table_phys[n] = palloc(s, &pa, n, L->table_slots * 64 / s->m.sockets + 4096, 4096);
		} else {
			L->table_phys[0] = palloc(s, &pa, 0, L->table_slots * 64, pow2_at_least(L->table_slots * 64));
			L->table_base[0] = HM_SIM_PAGE_OFFSET + L->table_phys[0];
		}
	} else {
		L->nr_tables = s->m.sockets;
		for (n = 0; n < s->m.sockets; n++) {
			/* alloc_pages_exact_nid: linear, on node n */
			L->table_phys[n] = palloc(s, &pa, n, L->table_slots * 64, pow2_at_least(L->table_slots * 64));
			L->table_base[n] = HM_SIM_PAGE_OFFSET + L->table_phys[n];
		}
	}
	/* private hash */
	if (s->era != HM_FUTEX_ERA_PRE_6_16 && !s->o.shared && s->kern.private_hash) {
		slots = s->o.slots ? s->o.slots
				   : hm_futex__private_slots(s->era, s->nr_threads, s->m.nr_cpus,
							     s->fm.global_slots);
	}
	if (slots) {
		u64 size = 64 + 64 * slots;
		/* kvzalloc: kmalloc size classes up to 8 KiB, pages (naturally aligned) above */
		u64 al = size <= 8192 ? pow2_at_least(size) : pow2_at_least((size + 4095) & ~4095ULL);

		L->fph_slots = slots;
		L->fph_phys = palloc(s, &pa, 0, size, al);
		L->fph = HM_SIM_PAGE_OFFSET + L->fph_phys;
	}
	/* per-CPU units, on each CPU's node */
	L->pcpu_stride = 0x10000;	/* per-CPU units at 256 MiB into the node, below the bump area */
	L->pcpu_off = 0x2b3e0;
	/* user heap: calloc'ed arrays of futexes, 16-byte chunk headers, node 0 pages */
	L->heap = 0x55d4c8a1b000ULL;
	L->heap_len = 0x2a0 + arr_stride * s->nr_threads + 4096;
	L->heap_phys = palloc(s, &pa, 0, (L->heap_len + 4095) & ~4095ULL, 4096);
	for (i = 0; i < s->nr_threads; i++)
		s->th[i].arr = L->heap + 0x2a0 + 0x10 + i * arr_stride;
	L->vmemmap = HM_SIM_VMEMMAP;
	return 0;
}

static u64 pcpu_addr(const struct hm_sim *s, u32 cpu)
{
	/* unit of @cpu inside its node's first chunk */
	u32 node = s->m.cpu_socket[cpu];
	u64 base = hm_sim__phys(s, node, 0x10000000ULL) + (u64)cpu * s->lay.pcpu_stride;

	return HM_SIM_PAGE_OFFSET + base + s->lay.pcpu_off;
}

/* ------------------------------------------------------------- setup */

void hm_sim_opts__init(struct hm_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->preset = "srf";
	o->kernel = "6.16";
	o->futexes = 1024;
	o->seed = 1;
	o->ldlat = 30;
	o->period = 1000;
	o->placement = HM_PLACE_COMPACT;
}

static const char *release_for(const char *k)
{
	if (!strcmp(k, "6.12"))
		return "6.12.40";
	if (!strcmp(k, "6.16"))
		return "6.16.0-rc4";	/* the private hash with rcuref (disabled again in rc5) */
	if (!strcmp(k, "6.17"))
		return "6.17.0";
	if (!strcmp(k, "6.18"))
		return "6.18.0";
	if (!strcmp(k, "7.0") || !strcmp(k, "7"))
		return "7.0.0";
	return k;
}

static u64 splitmix(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int place_threads(struct hm_sim *s)
{
	const struct hm_machine *m = &s->m;
	u32 i;

	for (i = 0; i < s->nr_threads; i++) {
		struct hm_sim_thread *t = &s->th[i];
		u32 cpu;

		if (s->o.placement == HM_PLACE_COMPACT) {
			/* perf bench: thread i on the i-th online CPU */
			cpu = i % m->nr_cpus;
		} else {
			/* alternate sockets, then cores, then SMT siblings */
			u32 k = i % m->nr_cpus;
			u32 sock = k % m->sockets, rest = k / m->sockets;
			u32 core = sock * m->cores + rest % m->cores, th = rest / m->cores;

			cpu = hm_machine__cpu(m, core, th);
		}
		t->cpu = cpu;
		t->core = m->cpu_core[cpu];
		t->socket = m->cpu_socket[cpu];
		t->tid = s->pid + 1 + i;
	}
	return 0;
}

static int hash_futexes(struct hm_sim *s)
{
	const struct hm_sim_layout *L = &s->lay;
	u64 nf = (u64)s->nr_threads * s->o.futexes, k;
	u32 i, j;

	s->bucket = calloc(nf, sizeof(u64));
	s->fut = calloc(nf, sizeof(*s->fut));
	s->bucket_table = calloc(nf, sizeof(int16_t));
	s->bucket_index = calloc(nf, sizeof(u64));
	s->page_line = calloc(nf, sizeof(u32));
	s->pcpu_line = calloc(s->m.nr_cpus, sizeof(u32));
	if (!s->bucket || !s->fut || !s->bucket_table || !s->bucket_index ||
	    !s->page_line || !s->pcpu_line)
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
				b = L->fph + s->fm.fph.queues + 64 * idx;
				table = (int16_t)L->nr_tables;	/* the private table comes after the global ones */
			} else {
				hm_futex__hash_global(&s->fm, &key, &node, &idx);
				if (node >= L->nr_tables)
					node = 0;
				b = L->table_base[node] + 64 * idx;
				table = (int16_t)node;
			}
			s->bucket[k] = b;
			s->bucket_table[k] = table;
			s->bucket_index[k] = idx;
			s->fut[k].bucket_line = hm_coh__line(s->coh, b, phys_node(s, sim_phys(s, b)));
			s->fut[k].uword_line = hm_coh__line(s->coh, ua, phys_node(s, sim_phys(s, ua)));
			if (s->o.shared) {
				u64 pfn = sim_phys(s, ua) >> 12;

				s->page_line[k] = hm_coh__line(s->coh, L->vmemmap + pfn * 64, 0);
			}
			if (s->fut[k].bucket_line == UINT32_MAX || s->fut[k].uword_line == UINT32_MAX ||
			    (s->o.shared && s->page_line[k] == UINT32_MAX))
				return -ENOMEM;
		}
	}
	for (i = 0; i < s->m.nr_cpus; i++) {
		u64 a = pcpu_addr(s, i);

		s->pcpu_line[i] = hm_coh__line(s->coh, a, s->m.cpu_socket[i]);
		if (s->pcpu_line[i] == UINT32_MAX)
			return -ENOMEM;
	}
	return 0;
}

static int register_tables(struct hm_sim *s)
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
	if (s->era != HM_FUTEX_ERA_PRE_6_16)
		return hm_futex_model__add_mm(&s->fm, (s32)s->pid, L->mm);
	return 0;
}

struct hm_sim *hm_sim__new(const struct hm_sim_opts *o)
{
	struct hm_sim *s = calloc(1, sizeof(*s));
	int err = -ENOMEM, i;

	if (!s)
		goto fail_errno;
	s->o = *o;
	s->release = release_for(o->kernel);
	if (hm_futex_kernel__parse(s->release, &s->kern)) {
		hm_err("--kernel %s: not a kernel release; use 6.12, 6.16, 6.17, 6.18 or 7.0", o->kernel);
		err = -EINVAL;
		goto fail;
	}
	s->era = s->kern.era;
	err = hm_machine__preset(&s->m, o->preset ? o->preset : "srf");
	if (err)
		goto fail;
	err = hm_machine__finish(&s->m, o->sockets, o->cores, o->smt);
	if (err)
		goto fail;
	for (i = 0; i < o->nr_latency; i++) {
		err = hm_machine__set_latency(&s->m, o->latency[i]);
		if (err)
			goto fail;
	}
	if (!o->futexes || o->futexes > 1u << 20) {
		hm_err("--futexes %u: must be 1..1048576 per thread", o->futexes);
		err = -EINVAL;
		goto fail;
	}
	if (o->slots && (o->slots < 2 || (o->slots & (o->slots - 1)))) {
		hm_err("--slots %llu: the kernel takes a power of two other than 1 (futex.md 2.9)",
		       (unsigned long long)o->slots);
		err = -EINVAL;
		goto fail;
	}
	if (o->slots && (s->era == HM_FUTEX_ERA_PRE_6_16 || o->shared || !s->kern.private_hash)) {
		hm_err("--slots: kernel %s has no private hash for these futexes; use --kernel 6.16 or later without --shared",
		       o->kernel);
		err = -EINVAL;
		goto fail;
	}
	if (!o->period) {
		hm_err("--period 0: the sampling period must be at least 1");
		err = -EINVAL;
		goto fail;
	}
	s->pid = 4242;
	s->nr_threads = o->threads ? o->threads : s->m.nr_cpus;
	if (s->nr_threads > 4096) {
		hm_err("--threads %u: at most 4096", s->nr_threads);
		err = -EINVAL;
		goto fail;
	}
	s->th = calloc(s->nr_threads, sizeof(*s->th));
	if (!s->th)
		goto fail;
	err = hm_futex_model__init(&s->fm, s->era);
	if (err)
		goto fail;
	s->fm_init = true;
	err = hm_futex_model__set_machine(&s->fm, s->m.nr_cpus, s->m.sockets);
	if (err)
		goto fail;
	place_threads(s);
	err = make_layout(s);
	if (err)
		goto fail;
	err = register_tables(s);
	if (err)
		goto fail;
	s->coh = hm_coh__new(&s->m, s->nr_threads * (o->futexes / 8 + 8) + 1024);
	if (!s->coh) {
		err = -ENOMEM;
		goto fail;
	}
	err = hash_futexes(s);
	if (err)
		goto fail;
	err = build_ksyms(s);
	if (err)
		goto fail;
	return s;
fail:
	errno = -err;
fail_errno:
	hm_sim__delete(s);
	if (!errno)
		errno = ENOMEM;
	return NULL;
}

void hm_sim__delete(struct hm_sim *s)
{
	if (!s)
		return;
	hm_sampler__delete(s->sp);
	hm_truth__delete(s->truth);
	hm_coh__delete(s->coh);
	if (s->fm_init)
		hm_futex_model__release(&s->fm);
	hm_machine__release(&s->m);
	free(s->th);
	free(s->bucket);
	free(s->fut);
	free(s->ld_left);
	free(s->st_left);
	free(s->bucket_table);
	free(s->bucket_index);
	free(s->page_line);
	free(s->pcpu_line);
	free(s->ksyms);
	free(s);
}

/* ------------------------------------------------------------- run */

/*
 * Tournament (winner) tree over the threads' keys (time << 12 | thread): leaf
 * i holds thread i's key, every inner node the smaller of its two children,
 * so the root is the thread with the earliest clock, which runs next.  Keys
 * are unique, so the order is the same as with any exact priority queue; an
 * update replays one leaf-to-root path with branch-free minimums (a heap's
 * sift-down mispredicts at every level).  A finished thread's key becomes
 * UINT64_MAX.
 */
struct tour {
	u64	*k;		/* [1] root, [p + i] leaf of thread i */
	u32	p;		/* leaves, a power of two */
};

static inline void tour_set(struct tour *t, u32 i, u64 v)
{
	u64 *k = t->k;
	u32 j = t->p + i;

	/* carry the path's minimum in a register: only the siblings are loaded */
	k[j] = v;
	for (; j > 1; j >>= 1) {
		u64 sib = k[j ^ 1];

		v = v < sib ? v : sib;
		k[j >> 1] = v;
	}
}

#define TID_BITS 12

static inline u64 obj_addr(const struct hm_sim *s, const struct hm_sim_thread *t, u64 k,
			   const struct step *st)
{
	switch (st->obj) {
	case HM_OBJ_BUCKET:	return s->bucket[k] + st->off;
	case HM_OBJ_FPH:	return s->lay.fph + st->off;
	case HM_OBJ_MM:		return s->lay.mm + st->off;
	case HM_OBJ_PCPU:	return pcpu_addr(s, t->cpu);
	case HM_OBJ_UWORD:	return t->arr + 4ULL * t->j;
	case HM_OBJ_PAGE:	return s->lay.vmemmap + (sim_phys(s, t->arr + 4ULL * t->j) >> 12) * 64 + st->off;
	case HM_OBJ_GLOBAL:	return s->lay.futex_data + st->off;
	}
	return 0;
}

static inline u32 obj_line(const struct hm_sim *s, const struct hm_sim_thread *t, u64 k,
			   const struct step *st)
{
	switch (st->obj) {
	case HM_OBJ_BUCKET:	return s->fut[k].bucket_line;
	case HM_OBJ_UWORD:	return s->fut[k].uword_line;
	case HM_OBJ_PAGE:	return s->page_line[k];
	case HM_OBJ_PCPU:	return s->pcpu_line[t->cpu];
	default:		return st->line;
	}
}

static __attribute__((noinline)) int emit(struct hm_sim *s, const struct hm_sim_thread *t, u64 k,
					   const struct step *st, u64 ip,
					   const struct hm_coh_result *r, bool store_part, u32 line)
{
	struct hm_sample_in in;
	u64 ds;
	enum hm_mem_cat cat;
	int ret;

	memset(&in, 0, sizeof(in));
	in.cpu = t->cpu;
	in.tid = t->tid;
	in.time = (u64)((double)t->time / s->m.ghz);
	in.ip = ip;
	in.addr = obj_addr(s, t, k, st);
	in.acc = st->acc;
	in.store_part = store_part;
	in.r = r;
	in.locked = st->locked;
	in.kernel = true;
	ret = hm_sampler__write(s->sp, &in, &ds, &cat);
	if (ret == 1 && s->truth) {
		struct hm_sample smp;
		/*
		 * Every sample is kernel-mode: perf looks the data address up in the
		 * kernel maps only.  The kernel map (the MMAP2 of [kernel.kallsyms]_text
		 * sample.c writes) covers the image, so __futex_data has a map; the
		 * direct map and user addresses have none.
		 */
		bool mapped = in.addr >= KTEXT_BASE && in.addr < KTEXT_BASE + KMAP_LEN;
		enum hm_futex_field f = HM_FUTEX_FIELD__MAX;

		if (st->obj == HM_OBJ_BUCKET)
			f = (enum hm_futex_field)st->field;
		memset(&smp, 0, sizeof(smp));
		smp.addr = in.addr;
		smp.cpu = in.cpu;
		smp.tid = in.tid;
		smp.ip = ip;
		smp.weight = r->weight;
		hm_truth__sample(s->truth, &smp, cat, ds, mapped, (int)t->socket, line,
				 (enum hm_obj)st->obj,
				 st->obj == HM_OBJ_BUCKET ? s->bucket_table[k] : -1,
				 st->obj == HM_OBJ_BUCKET ? s->bucket_index[k] : 0, f);
	}
	return ret < 0 ? ret : 0;
}

/* "M@12" (state and owner core) or "S" for a line. */
static void line_state(const struct hm_coh *c, u32 id, char *b, size_t n)
{
	const struct hm_coh_line *l = &c->lines[id];
	static const char st[] = "ISEMOF";

	if (l->owner != 0xffff)
		snprintf(b, n, "%c@core%u", l->state < 6 ? st[l->state] : '?', l->owner);
	else
		snprintf(b, n, "%c", l->state < 6 ? st[l->state] : '?');
}

static const char *const acc_names[] = { "load", "store", "rmw" };

static void trace_one(struct hm_sim *s, const struct hm_sim_thread *t, u64 k, const struct step *st,
		      u64 ip, u32 line, const char *before, const struct hm_coh_result *r)
{
	char after[32], what[48], buf[320];
	const char *fn = "?";
	int i;

	for (i = 0; i < K__MAX; i++)
		if (ip >= ksym_addr[i] && ip < ksym_addr[i] + ksyms[i].size)
			fn = ksyms[i].name;
	line_state(s->coh, line, after, sizeof(after));
	if (st->obj == HM_OBJ_BUCKET)
		snprintf(what, sizeof(what), "bucket[%llu].%s", (unsigned long long)s->bucket_index[k],
			 hm_futex_field__name(st->field));
	else if (st->obj == HM_OBJ_FPH)
		snprintf(what, sizeof(what), "fph+%u", st->off);
	else if (st->obj == HM_OBJ_MM)
		snprintf(what, sizeof(what), "mm+%u", st->off);
	else
		snprintf(what, sizeof(what), "%s", hm_obj__name(st->obj));
	snprintf(buf, sizeof(buf),
		 "%10.1f ns  cpu %3u (socket %u, core %3u)  %-24s %-5s %-18s line 0x%llx %-9s -> %-9s %-11s %5u cycles",
		 (double)t->time / s->m.ghz, t->cpu, t->socket, t->core, fn, acc_names[st->acc], what,
		 (unsigned long long)s->coh->addrs[line], before, after,
		 st->acc == HM_ACC_STORE ? (r->l1_hit ? "l1 (owned)" : "rfo") : hm_src__name(r->src),
		 st->acc == HM_ACC_LOAD ? r->weight : r->cost);
	s->o.trace_fn(s->o.trace_ctx, buf);
}

/*
 * Count the access on its CPU's counter; true when the counter overflows.
 * Intel: mem-loads counts loads above ldlat, mem-stores every store (the
 * store half of an RMW too).  AMD IBS and Arm SPE: one counter over ops (an
 * RMW is one op, sampled as a load).
 */
static inline bool sample_due(struct hm_sim *s, u32 cpu, enum hm_acc a, bool store_part, u32 weight)
{
	u32 *left;

	if (s->m.vendor == HM_VENDOR_INTEL) {
		if (!store_part) {
			if (weight <= s->o.ldlat)
				return false;
			left = &s->ld_left[cpu];
		} else {
			left = &s->st_left[cpu];
		}
	} else {
		if (store_part && a == HM_ACC_RMW)
			return false;
		left = &s->ld_left[cpu];
	}
	if (--*left)
		return false;
	*left = s->o.period;
	return true;
}

static inline int account(struct hm_sim *s, const struct hm_sim_thread *t, u64 k,
			  const struct step *st, u64 ip, const struct hm_coh_result *r, u32 line)
{
	int err = 0;

	if (st->acc != HM_ACC_STORE && sample_due(s, t->cpu, st->acc, false, r->weight))
		err = emit(s, t, k, st, ip, r, false, line);
	if (!err && st->acc != HM_ACC_LOAD && sample_due(s, t->cpu, st->acc, true, r->weight))
		err = emit(s, t, k, st, ip, r, true, line);
	return err;
}

#define CAL_SHIFT	5	/* 32 cycles a bucket */
#define CAL_N		128	/* buckets: 4096 cycles ahead */
#define CAL_CAP		16	/* op starts a bucket; more are not prefetched */
#define CAL_LEAD	256	/* cycles */

struct cal {
	u16	n[CAL_N];
	u16	tid[CAL_N][CAL_CAP];
};

/* Thread @ti starts an op at cycle @start: prefetch its lines CAL_LEAD cycles before. */
static inline void cal_add(struct cal *c, u64 next, u64 start, u32 ti)
{
	u64 b = (start > CAL_LEAD ? start - CAL_LEAD : 0) >> CAL_SHIFT;
	u32 i;

	if (b < next)
		b = next;
	if (b >= next + CAL_N)
		return;
	i = (u32)(b % CAL_N);
	if (c->n[i] < CAL_CAP)
		c->tid[i][c->n[i]++] = (u16)ti;
}

/* Run the buckets from @next through @now; returns the next bucket to run. */
static __attribute__((noinline)) u64 cal_run(struct hm_sim *s, struct cal *c, u64 next, u64 now)
{
	if (now - next >= CAL_N)
		next = now - (CAL_N - 1);
	for (; next <= now; next++) {
		u32 i = (u32)(next % CAL_N), j;

		for (j = 0; j < c->n[i]; j++) {
			const struct hm_sim_thread *tu = &s->th[c->tid[i][j]];
			const struct hm_sim_fut *uf = &s->fut[(u64)c->tid[i][j] * s->o.futexes + tu->j];

			hm_coh__touch_line(s->coh, tu->core, uf->bucket_line);
			__builtin_prefetch(&s->coh->lines[uf->uword_line], 0);
		}
		c->n[i] = 0;
	}
	return next;
}

u64 hm_sim__paddr(const struct hm_sim *s, u64 va)
{
	return sim_phys(s, va);
}

int hm_sim__run(struct hm_sim *s)
{
	struct tmpl tp;
	struct tour h = { 0 };
	u64 end_cycles = UINT64_MAX, target_ops = s->o.ops, total_ops = 0, rng = s->o.seed;
	u64 traced = 0;
	/*
	 * With many threads, an op's lines are evicted from the host's caches by
	 * the other threads' ops before it starts.  A calendar of op starts (by
	 * simulated time, CAL_SHIFT cycles a bucket) prefetches each thread's
	 * next futex's lines CAL_LEAD cycles before that op starts.  It only
	 * touches the host's caches: the simulation is the same without it.
	 */
	struct cal *cal = NULL;
	u64 cal_next = 0;
	char before[32];
	u32 i, n;
	int err = 0;
	struct timespec t0, t1;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	build_template(s, &tp);
	for (n = 0; n < tp.n; n++) {
		struct step *st = &tp.st[n];
		u64 a = 0;

		st->field = st->obj == HM_OBJ_BUCKET ? hm_futex_layout__field(&s->fm.layout, st->off)
						     : HM_FUTEX_FIELD__MAX;
		if (st->obj == HM_OBJ_FPH)
			a = s->lay.fph + st->off;
		else if (st->obj == HM_OBJ_MM)
			a = s->lay.mm + st->off;
		else if (st->obj == HM_OBJ_GLOBAL)
			a = s->lay.futex_data + st->off;
		if (a) {
			st->line = hm_coh__line(s->coh, a, phys_node(s, sim_phys(s, a)));
			if (st->line == UINT32_MAX)
				return -ENOMEM;
		}
	}
	if (s->o.output) {
		u64 srng = s->o.seed ^ 0x5eed5eed5eedULL;

		s->ld_left = calloc(s->m.nr_cpus, sizeof(u32));
		s->st_left = calloc(s->m.nr_cpus, sizeof(u32));
		if (!s->ld_left || !s->st_left)
			return -ENOMEM;
		for (i = 0; i < s->m.nr_cpus; i++) {
			/* counters start at a seeded point of their period */
			s->ld_left[i] = 1 + (u32)(splitmix(&srng) % s->o.period);
			s->st_left[i] = 1 + (u32)(splitmix(&srng) % s->o.period);
		}
		s->sp = hm_sampler__new(s, s->o.output);
		if (!s->sp)
			return -errno;
	}
	if (s->o.truth || s->o.output || s->o.want_truth) {
		s->truth = hm_truth__new(s);
		if (!s->truth)
			return -ENOMEM;
	}
	if (!target_ops && s->o.seconds <= 0)
		target_ops = 2ULL * s->nr_threads * s->o.futexes;
	if (s->o.seconds > 0)
		end_cycles = (u64)(s->o.seconds * s->m.ghz * 1e9);
	for (h.p = 1; h.p < s->nr_threads; h.p <<= 1)
		;
	if (s->nr_threads > 64) {
		cal = calloc(1, sizeof(*cal));
		if (!cal)
			return -ENOMEM;
	}
	h.k = malloc(2 * (size_t)h.p * sizeof(u64));
	if (!h.k) {
		free(cal);
		return -ENOMEM;
	}
	memset(h.k, 0xff, 2 * (size_t)h.p * sizeof(u64));
	/* start skew: threads are released by a condition variable broadcast */
	for (i = 0; i < s->nr_threads; i++) {
		s->th[i].time = splitmix(&rng) % 2000;
		s->th[i].j = 0;
		h.k[h.p + i] = (s->th[i].time << TID_BITS) | i;
	}
	for (i = h.p; i-- > 1;)
		h.k[i] = h.k[2 * i] < h.k[2 * i + 1] ? h.k[2 * i] : h.k[2 * i + 1];

	while (h.k[1] != UINT64_MAX) {
		u32 ti = (u32)(h.k[1] & ((1u << TID_BITS) - 1));
		struct hm_sim_thread *t = &s->th[ti];
		u64 k = (u64)ti * s->o.futexes + t->j;
		const struct step *st = &tp.st[t->step];
		struct hm_coh_result r;
		u32 line = obj_line(s, t, k, st);
		u64 ip = ksym_addr[st->ksym] + st->ipoff;
		u64 cost;

		if (cal && (t->time >> CAL_SHIFT) >= cal_next)
			cal_next = cal_run(s, cal, cal_next, t->time >> CAL_SHIFT);
		if (t->time >= end_cycles || (target_ops && total_ops >= target_ops)) {
			/* this thread is done: drop it */
			tour_set(&h, ti, UINT64_MAX);
			continue;
		}
		if (st->kind == ST_LOCK) {
			u16 *lk = &s->coh->lock[line];

			if (*lk && *lk != ti + 1) {
				/* contended: queued_spin_lock_slowpath spins reading the lock word */
				enum hm_acc a = t->spins ? HM_ACC_LOAD : HM_ACC_RMW;
				struct step sp = *st;

				if (t->spins) {
					sp.ksym = K_QSPIN_SLOWPATH;
					sp.ipoff = 0x6c;
					sp.locked = false;
				}
				sp.acc = a;
				if (traced < s->o.trace)
					line_state(s->coh, line, before, sizeof(before));
				hm_coh__access(s->coh, t->cpu, line, a, t->time, &r);
				if (traced < s->o.trace && s->o.trace_fn) {
					traced++;
					trace_one(s, t, k, &sp, ksym_addr[sp.ksym] + sp.ipoff, line, before, &r);
				}
				if (s->sp) {
					err = account(s, t, k, &sp, ksym_addr[sp.ksym] + sp.ipoff, &r, line);
					if (err)
						break;
				}
				hm_pop__count(&s->pop, r.src, a, HM_OBJ_BUCKET, HM_FUTEX_FIELD_LOCK);
				s->res.src[r.src]++;
				s->res.spins++;
				t->spins++;
				t->time += r.cost + s->m.lat[HM_LAT_SPIN];
				tour_set(&h, ti, (t->time << TID_BITS) | ti);
				continue;
			}
			*lk = (u16)(ti + 1);
			if (t->spins) {
				ip = ksym_addr[K_QSPIN_SLOWPATH] + 0x1a4;
				t->spins = 0;
			}
		}
		if (traced < s->o.trace)
			line_state(s->coh, line, before, sizeof(before));
		hm_coh__access(s->coh, t->cpu, line, (enum hm_acc)st->acc, t->time, &r);
		if (traced < s->o.trace && s->o.trace_fn) {
			traced++;
			trace_one(s, t, k, st, ip, line, before, &r);
		}
		if (st->kind == ST_UNLOCK)
			s->coh->lock[line] = 0;
		if (s->sp) {
			err = account(s, t, k, st, ip, &r, line);
			if (err)
				break;
		}
		hm_pop__count(&s->pop, r.src, st->acc, st->obj, st->field);
		if (st->acc == HM_ACC_LOAD)
			s->res.src[r.src]++;
		else if (st->acc == HM_ACC_RMW) {
			s->res.src[r.src]++;
			s->res.rmws++;
		} else
			s->res.stores++;
		cost = r.cost;
		if (++t->step == tp.n) {
			t->step = 0;
			t->ops++;
			total_ops++;
			if (++t->j == s->o.futexes)
				t->j = 0;
			cost += s->m.lat[HM_LAT_SYSCALL];
			{
				const struct hm_sim_fut *nf = &s->fut[(u64)ti * s->o.futexes + t->j];
				u32 ahead = t->j + 8 < s->o.futexes ? t->j + 8 : 0;

				hm_coh__prefetch(s->coh, t->cpu, nf->bucket_line);
				hm_coh__prefetch(s->coh, t->cpu, nf->uword_line);
				/* the bucket's lock and transfer clock; the futexes of later ops */
				__builtin_prefetch(&s->coh->lock[nf->bucket_line], 1);
				__builtin_prefetch(&s->coh->ready[nf->bucket_line], 1);
				__builtin_prefetch(&s->fut[(u64)ti * s->o.futexes + ahead], 0);
				if (s->o.shared)
					__builtin_prefetch(&s->page_line[(u64)ti * s->o.futexes + ahead], 0);
			}
		}
		t->time += cost;
		{
			/* warm the host caches for this thread's next access */
			const struct step *nx = &tp.st[t->step];
			u32 nl = obj_line(s, t, (u64)ti * s->o.futexes + t->j, nx);

			hm_coh__prefetch(s->coh, t->cpu, nl);
			if (t->step == 0 && tp.n > 1 && !cal) {
				/* the op's bucket line was fetched at the end of the last op */
				nl = obj_line(s, t, (u64)ti * s->o.futexes + t->j, &tp.st[1]);
				hm_coh__prefetch_owner(s->coh, nl);
			}
		}
		if (cal && t->step == 0)
			cal_add(cal, cal_next, t->time, ti);
		tour_set(&h, ti, (t->time << TID_BITS) | ti);
	}
	free(h.k);
	free(cal);
	if (err)
		return err;
	s->res.ops = total_ops;
	s->res.accesses = s->coh->nr_accesses;
	{
		double sum = 0;

		for (i = 0; i < s->nr_threads; i++) {
			double sec = (double)s->th[i].time / (s->m.ghz * 1e9);

			if (s->th[i].time > s->res.cycles_max)
				s->res.cycles_max = s->th[i].time;
			if (sec > 0)
				sum += (double)s->th[i].ops / sec;
		}
		s->res.ops_per_sec_thread = s->nr_threads ? sum / s->nr_threads : 0;
	}
	if (s->sp) {
		s->res.samples = 0;
		err = hm_sampler__close(s->sp);
		if (err)
			return err;
	}
	if (s->truth && s->o.truth) {
		FILE *f = fopen(s->o.truth, "w");

		if (!f) {
			err = -errno;
			hm_err("%s: cannot create the truth file: %s", s->o.truth, strerror(errno));
			return err;
		}
		err = hm_truth__write_json(s->truth, f);
		if (fflush(f))
			err = -(errno ? errno : EIO);	/* the real cause, not write_json's EIO */
		else if (ferror(f) && !err)
			err = -EIO;
		if (fclose(f) && !err)
			err = -(errno ? errno : EIO);
		if (err) {
			hm_err("%s: cannot write the truth file: %s", s->o.truth, strerror(-err));
			return err;
		}
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	s->res.wall_s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
}
