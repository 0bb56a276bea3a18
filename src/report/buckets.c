// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex views of hitmap report: --by bucket, --by field, --by socket.
 *
 * Counting is perf c2c's (hm_c2c_stats__add) so that one bucket's totals
 * equal perf c2c's totals of that cache line.  Memory grows with distinct
 * buckets, fields x functions and futex objects, never with samples.
 *
 *  bucket rows  one per (table, index): loads, local/remote HITM and DRAM,
 *               stores, cost (sum of load weights, i.e. latency cycles), a
 *               column group per CPU socket, the hottest field and the
 *               functions touching it.
 *  other rows   futex memory that is not a bucket (private hash header,
 *               mm futex fields), by name; and bucket lines seen from futex
 *               code whose table is unknown: by address, index "unknown".
 *  field rows   table kind x field x access (load/store/atomic) x function.
 *  socket view  requesting socket x data home node, and the socket-to-socket
 *               HITM matrix when there are at most 2 sockets (a remote HITM
 *               then came from the other one).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/futex_names.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include "report.h"
#include "report/waits.h"

#define MAX_SOCKETS	64
#define MAX_FUNCS	4
#define HASH_BITS	16

struct bk_func { const char *name; u64 n; };

struct bk_field {
	struct hm_c2c_stats st;
	struct bk_func	func[MAX_FUNCS];
	u64		other_funcs;
};

struct wait {			/* open addressing by tid; tid 0 is free */
	u32		tid;
	u32		bucket;		/* index in b->b */
	s32		cell;		/* index in b->cont */
	u64		time;
	const char	*caller;	/* interned in b->callers, or NULL */
};

struct bk {
	u32		next;		/* hash chain, index + 1 */
	s32		table;		/* index in the model, -1: index unknown */
	u64		index;		/* bucket index, or line address when table -1 */
	struct hm_c2c_stats st;
	u64		cost;
	u64		contended;	/* lock:contention_begin on this bucket's lock */
	u64		wait_ns;	/* contention_begin -> contention_end, summed */
	u64		wait_max_ns, waits;	/* the longest, and ended waits */
	struct bk_field	field[HM_FUTEX_FIELD__MAX];
	struct hm_c2c_stats *sock;	/* nr_sockets */
};

struct obj {			/* fph header / mm fields */
	char		name[32];
	s32		pid;
	u64		addr;		/* the object's line */
	struct hm_c2c_stats st;
	u64		cost;
};

enum { ACC_LOAD, ACC_STORE, ACC_ATOMIC, ACC__MAX };
static const char *const acc_names[ACC__MAX] = { "load", "store", "atomic" };

struct frow {
	u32		next;
	u8		kind;		/* table kind: 0 global, 1 private, 2 unknown */
	u8		field;
	u8		acc;
	const char	*func;
	struct hm_c2c_stats st;
	u64		cost;
};

struct hm_buckets {
	u32		nr_sockets, nr_nodes;
	u32		nr, alloc;
	struct bk	*b;
	u32		head[1u << HASH_BITS];
	u32		nr_objs, alloc_objs;
	struct obj	*objs;
	u32		nr_frows, alloc_frows;
	struct frow	*frows;
	u32		fhead[1u << HASH_BITS];
	/* strings, with a cache keyed by the resolver's (stable) pointers */
	struct { const char *key, *name; } name_cache[256];
	char		**names;
	u32		nr_names, alloc_names;
	/* socket x node, and holder socket x requesting socket HITM */
	struct hm_c2c_stats *xfer;	/* [socket * (nodes+1) + node+1]; node -1 at 0 */
	u64		*hitm;		/* [holder * nr_sockets + requester] */
	u64		hitm_unknown;	/* remote HITM with > 2 sockets */
	u64		futex_samples, resolved, unknown_index, objects;
	u64		contentions, contentions_resolved;	/* contention mode */
	/* contention mode: requesting socket x table node ([s * (nodes+1) + node+1]) */
	u64		*cont, *cont_wait;
	/* contention_begin on a bucket, per thread, until its contention_end */
	u32		nr_waits, alloc_waits;
	struct wait	*waits;
	struct hm_waits	*callers;	/* contention mode: waits per caller (waits.c) */
};

static u32 hash64(u64 v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return (u32)v & ((1u << HASH_BITS) - 1);
}

static const char *intern(struct hm_buckets *b, const char *s)
{
	u32 i, slot;

	if (!s)
		s = "[unknown]";
	slot = hash64((u64)(uintptr_t)s) & 255;
	if (b->name_cache[slot].key == s)
		return b->name_cache[slot].name;
	for (i = 0; i < b->nr_names; i++)
		if (!strcmp(b->names[i], s)) {
			b->name_cache[slot].key = s;
			b->name_cache[slot].name = b->names[i];
			return b->names[i];
		}
	if (b->nr_names == b->alloc_names) {
		u32 n = b->alloc_names ? 2 * b->alloc_names : 64;
		char **p = realloc(b->names, n * sizeof(*p));

		if (!p)
			return "[unknown]";
		b->names = p;
		b->alloc_names = n;
	}
	b->names[b->nr_names] = strdup(s);
	if (!b->names[b->nr_names])
		return "[unknown]";
	b->name_cache[slot].key = s;
	b->name_cache[slot].name = b->names[b->nr_names];
	return b->names[b->nr_names++];
}

struct hm_buckets *hm_buckets__new(const struct hm_report *r)
{
	struct hm_buckets *b = calloc(1, sizeof(*b));
	int ns = r && r->topo ? hm_topo__nr_sockets(r->topo) : 0;
	int nn = r && r->topo ? hm_topo__nr_nodes(r->topo) : 0;
	u32 i;

	if (!b)
		return NULL;
	b->nr_sockets = ns > 0 ? (ns > MAX_SOCKETS ? MAX_SOCKETS : ns) : 1;
	b->nr_nodes = nn > 0 ? (nn > MAX_SOCKETS ? MAX_SOCKETS : nn) : 1;
	if (r)
		for (i = 0; i < r->futex.nr_tables; i++)
			if (!r->futex.tables[i].kind && r->futex.tables[i].node >= 0 &&
			    (u32)r->futex.tables[i].node + 1 > b->nr_nodes && r->futex.tables[i].node < MAX_SOCKETS)
				b->nr_nodes = r->futex.tables[i].node + 1;
	b->xfer = calloc((size_t)b->nr_sockets * (b->nr_nodes + 1), sizeof(*b->xfer));
	b->hitm = calloc((size_t)b->nr_sockets * b->nr_sockets, sizeof(*b->hitm));
	b->cont = calloc((size_t)b->nr_sockets * (b->nr_nodes + 1), sizeof(*b->cont));
	b->cont_wait = calloc((size_t)b->nr_sockets * (b->nr_nodes + 1), sizeof(*b->cont_wait));
	b->callers = hm_waits__new();
	if (!b->xfer || !b->hitm || !b->cont || !b->cont_wait || !b->callers) {
		hm_buckets__delete(b);
		errno = ENOMEM;
		return NULL;
	}
	return b;
}

void hm_buckets__delete(struct hm_buckets *b)
{
	u32 i;

	if (!b)
		return;
	for (i = 0; i < b->nr; i++)
		free(b->b[i].sock);
	free(b->b);
	free(b->objs);
	free(b->frows);
	for (i = 0; i < b->nr_names; i++)
		free(b->names[i]);
	free(b->names);
	free(b->xfer);
	free(b->hitm);
	free(b->cont);
	free(b->cont_wait);
	free(b->waits);
	hm_waits__delete(b->callers);
	free(b);
}

static struct bk *bucket_get(struct hm_buckets *b, s32 table, u64 index)
{
	u32 h = hash64(((u64)(table + 1) << 48) ^ index), i;
	struct bk *e;

	for (i = b->head[h]; i; i = b->b[i - 1].next)
		if (b->b[i - 1].table == table && b->b[i - 1].index == index)
			return &b->b[i - 1];
	if (b->nr == b->alloc) {
		u32 n = b->alloc ? 2 * b->alloc : 256;
		struct bk *p = realloc(b->b, n * sizeof(*p));

		if (!p)
			return NULL;
		b->b = p;
		b->alloc = n;
	}
	e = &b->b[b->nr];
	memset(e, 0, sizeof(*e));
	e->sock = calloc(b->nr_sockets, sizeof(*e->sock));
	if (!e->sock)
		return NULL;
	e->table = table;
	e->index = index;
	e->next = b->head[h];
	b->head[h] = ++b->nr;
	return e;
}

static struct obj *obj_get(struct hm_buckets *b, const char *name, s32 pid, u64 line)
{
	struct obj *o;
	u32 i;

	for (i = 0; i < b->nr_objs; i++)
		if (b->objs[i].pid == pid && b->objs[i].addr == line && !strcmp(b->objs[i].name, name))
			return &b->objs[i];
	if (b->nr_objs == b->alloc_objs) {
		u32 n = b->alloc_objs ? 2 * b->alloc_objs : 16;
		struct obj *p = realloc(b->objs, n * sizeof(*p));

		if (!p)
			return NULL;
		b->objs = p;
		b->alloc_objs = n;
	}
	o = &b->objs[b->nr_objs++];
	memset(o, 0, sizeof(*o));
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->pid = pid;
	o->addr = line;
	return o;
}

static struct frow *frow_get(struct hm_buckets *b, u8 kind, u8 field, u8 acc, const char *func)
{
	u32 h = hash64(((u64)kind << 40 | (u64)field << 32 | (u64)acc << 24) ^ (u64)(uintptr_t)func), i;
	struct frow *f;

	for (i = b->fhead[h]; i; i = b->frows[i - 1].next) {
		f = &b->frows[i - 1];
		if (f->kind == kind && f->field == field && f->acc == acc && f->func == func)
			return f;
	}
	if (b->nr_frows == b->alloc_frows) {
		u32 n = b->alloc_frows ? 2 * b->alloc_frows : 64;
		struct frow *p = realloc(b->frows, n * sizeof(*p));

		if (!p)
			return NULL;
		b->frows = p;
		b->alloc_frows = n;
	}
	f = &b->frows[b->nr_frows];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->field = field;
	f->acc = acc;
	f->func = func;
	f->next = b->fhead[h];
	b->fhead[h] = ++b->nr_frows;
	return f;
}

/* futex code whose data accesses are bucket fields (notes 4, 5.4) */
static bool futex_code(const char *fn)
{
	static const char *const names[] = {
		"futex_q_lock", "futex_q_unlock", "futex_hash", "__futex_hash", "futex_hash_put",
		"futex_wait_setup", "futex_wake", "__futex_queue", "__futex_unqueue", "futex_wait_queue",
		"futex_requeue", "futex_wake_op", "futex_unqueue", "futex_hb_waiters_pending",
		"futex_top_waiter", "futex_lock_pi", "futex_unlock_pi", NULL,
	};
	int i;

	if (!fn)
		return false;
	for (i = 0; names[i]; i++)
		if (!strcmp(fn, names[i]))
			return true;
	return false;
}

static void func_add(struct bk_field *f, const char *name)
{
	int i, min = 0;

	for (i = 0; i < MAX_FUNCS; i++) {
		if (f->func[i].name == name) {
			f->func[i].n++;
			return;
		}
		if (!f->func[i].name) {
			f->func[i].name = name;
			f->func[i].n = 1;
			return;
		}
		if (f->func[i].n < f->func[min].n)
			min = i;
	}
	f->other_funcs++;	/* more distinct functions than slots: counted, not named */
	(void)min;
}

static u8 access_kind(const struct hm_mem_sample *ms)
{
	if (ms->cls.locked)
		return ACC_ATOMIC;
	return ms->cls.store ? ACC_STORE : ACC_LOAD;
}

static struct wait *wait_slot(struct hm_buckets *b, u32 tid, bool insert);

/* Cell of the requesting socket x the table's node (private tables: node unknown). */
static int cont_cell(const struct hm_buckets *b, const struct hm_report *r,
		     const struct hm_mem_sample *ms, const struct hm_futex_table *t)
{
	int node = t && !t->kind ? t->node : -1;

	if (ms->cpu_socket < 0 || (u32)ms->cpu_socket >= b->nr_sockets)
		return -1;
	if (node < -1 || node >= (int)b->nr_nodes)
		node = -1;
	return ms->cpu_socket * (int)(b->nr_nodes + 1) + node + 1;
}

/*
 * Contention mode (no PMU): a lock:contention_begin whose lock_addr is the
 * lock of a bucket of a known table counts as one contention of that bucket
 * (lock field, the function at the sample's IP).  Other locks are not futex
 * buckets as far as the model knows and are not counted.
 */
static int add_contention(struct hm_buckets *b, const struct hm_report *r, const struct hm_mem_sample *ms)
{
	const struct hm_sample *s = ms->s;
	struct hm_symbol_info info;
	struct hm_futex_loc loc;
	const char *fn = NULL;
	s32 lock_off = r->futex.layout.offset[HM_FUTEX_FIELD_LOCK];
	struct wait *w;
	int cell;
	u64 la;
	struct bk *e;

	if (hm_sample__tp_field(s, "lock_addr", &la) || !la)
		return 0;
	b->contentions++;
	if (lock_off < 0 || !hm_futex_model__resolve(&r->futex, la, &loc) || loc.field != HM_FUTEX_FIELD_LOCK)
		return 0;
	b->contentions_resolved++;
	e = bucket_get(b, loc.table - r->futex.tables, loc.index);
	if (!e)
		return -ENOMEM;
	e->contended++;
	cell = cont_cell(b, r, ms, loc.table);
	if (cell >= 0)
		b->cont[cell]++;
	char chain[256];
	const char *caller = NULL;

	/* the caller from the kernel call chain when recorded, else the IP's function */
	if (hm_waits__caller(r->syms, r->maps, s, chain, sizeof(chain)))
		fn = caller = hm_waits__intern(b->callers, chain);
	else if (r->syms && !hm_symbols__resolve(r->syms, r->maps, s->pid, s->misc & 7, s->ip, &info))
		fn = info.name ? caller = hm_waits__intern(b->callers, info.name) : NULL;
	if (caller)
		hm_waits__begin(b->callers, caller);
	func_add(&e->field[HM_FUTEX_FIELD_LOCK], intern(b, fn));
	if (!(s->sample_type & PERF_SAMPLE_TIME) || !(s->sample_type & PERF_SAMPLE_TID) || !s->tid)
		return 0;
	w = wait_slot(b, s->tid, true);
	if (!w)
		return -ENOMEM;
	w->bucket = (u32)(e - b->b);
	w->cell = cell;
	w->time = s->time;
	w->caller = caller;
	return 0;
}

/*
 * The thread's wait slot; with @insert a new one is made for an unknown
 * thread (NULL: no memory), without it NULL means unknown.
 */
static struct wait *wait_slot(struct hm_buckets *b, u32 tid, bool insert)
{
	u32 i, mask;

	if (!tid || (!insert && !b->alloc_waits))
		return NULL;
	if (insert && 2 * (b->nr_waits + 1) > b->alloc_waits) {
		u32 n = b->alloc_waits ? 2 * b->alloc_waits : 64, old = b->alloc_waits;
		struct wait *nw = calloc(n, sizeof(*nw)), *ow = b->waits;

		if (!nw)
			return NULL;
		b->waits = nw;
		b->alloc_waits = n;
		b->nr_waits = 0;
		for (i = 0; i < old; i++)
			if (ow[i].tid) {
				struct wait *d = wait_slot(b, ow[i].tid, true);

				*d = ow[i];
			}
		free(ow);
	}
	mask = b->alloc_waits - 1;
	for (i = (tid * 0x9e3779b1u) & mask; ; i = (i + 1) & mask) {
		if (b->waits[i].tid == tid)
			return &b->waits[i];
		if (!b->waits[i].tid) {
			if (!insert)
				return NULL;
			b->nr_waits++;
			b->waits[i].tid = tid;
			return &b->waits[i];
		}
	}
}

/*
 * lock:contention_end of a thread that began waiting on a bucket: the wait
 * time goes to that bucket and to its requesting socket x table node cell.
 * Threads are never removed (a slot is reused by the next begin), so memory
 * grows with threads, not events.
 */
static void end_contention(struct hm_buckets *b, const struct hm_mem_sample *ms)
{
	const struct hm_sample *s = ms->s;
	struct wait *w;

	if (!(s->sample_type & PERF_SAMPLE_TIME) || !(s->sample_type & PERF_SAMPLE_TID))
		return;
	w = wait_slot(b, s->tid, false);
	if (!w || w->bucket == UINT32_MAX)
		return;
	if (s->time >= w->time) {
		struct bk *e = &b->b[w->bucket];

		e->wait_ns += s->time - w->time;
		e->waits++;
		if (s->time - w->time > e->wait_max_ns)
			e->wait_max_ns = s->time - w->time;
		hm_waits__end(b->callers, w->caller, s->time - w->time);
		if (w->cell >= 0)
			b->cont_wait[w->cell] += s->time - w->time;
	}
	w->bucket = UINT32_MAX;
}

int hm_buckets__add(struct hm_buckets *b, const struct hm_report *r, const struct hm_mem_sample *ms)
{
	const struct hm_sample *s = ms->s;
	struct hm_symbol_info info;
	const char *fn = NULL;
	struct hm_futex_site site;
	char oname[48];
	bool in_futex, unknown_index = false;
	int sock = ms->cpu_socket, node = ms->data_node;
	s32 table = -1;
	u64 index = 0, w = ms->cls.load ? s->weight : 0;
	u8 kind = 2, field = HM_FUTEX_FIELD_PAD;
	struct bk *e;

	if (s && !s->addr && s->evsel && s->evsel->tp_event && s->evsel->name &&
	    !strcmp(s->evsel->name, "lock:contention_begin"))
		return add_contention(b, r, ms);
	if (s && !s->addr && s->evsel && s->evsel->tp_event && s->evsel->name &&
	    !strcmp(s->evsel->name, "lock:contention_end")) {
		end_contention(b, ms);
		return 0;
	}
	if (!s || !s->addr)
		return 0;
	if (ms->futex.table) {
		site.where = HM_FUTEX_WHERE_BUCKET;
		site.loc = ms->futex;
	} else {
		hm_futex_model__locate(&r->futex, s->addr, &site);
	}
	in_futex = site.where != HM_FUTEX_WHERE_NONE;
	if (r->syms && (in_futex || s->addr >= 0xffff800000000000ull) &&
	    !hm_symbols__resolve(r->syms, r->maps, s->pid, s->misc & 7, s->ip, &info))
		fn = info.name;
	/* struct page/folio, per-CPU and __futex_data lines of the futex path (src/futex/names.c) */
	if (!in_futex && fn && s->addr >= 0xffff800000000000ull && hm_futex__path_function(fn) &&
	    hm_futex__name_addr(&r->futex, s->addr, fn, oname, sizeof(oname)) == 1) {
		site.where = HM_FUTEX_WHERE_MM;		/* listed with the other futex objects */
		site.name = oname;
		site.pid = -1;
		in_futex = true;
	}
	if (!in_futex) {
		/* a kernel line touched by futex code, in no known table: by address only */
		if (!futex_code(fn) || s->addr < 0xffff800000000000ull)
			return 0;
		unknown_index = true;
	}
	b->futex_samples++;
	fn = intern(b, fn);
	if (sock < 0 || (u32)sock >= b->nr_sockets)
		sock = -1;
	if (site.where == HM_FUTEX_WHERE_FPH_HEADER || site.where == HM_FUTEX_WHERE_MM) {
		struct obj *o = obj_get(b, site.name, site.pid, ms->line);

		if (!o)
			return -ENOMEM;
		hm_c2c_stats__add_v(&o->st, ms->compat, s->data_src, s->addr, ms->mapped);
		o->cost += w;
		b->objects++;
		return 0;
	}
	if (unknown_index) {
		u32 bs = r->futex.layout.bucket_size ? r->futex.layout.bucket_size : 64;

		index = s->addr & ~(u64)(bs - 1);
		field = hm_futex_layout__field(&r->futex.layout, s->addr & (bs - 1));
		b->unknown_index++;
	} else {
		table = site.loc.table - r->futex.tables;
		index = site.loc.index;
		field = site.loc.field;
		kind = site.loc.table->kind;
		b->resolved++;
		if (node < 0 && !site.loc.table->kind)
			node = site.loc.table->node;	/* global tables live on their node */
	}
	e = bucket_get(b, table, index);
	if (!e)
		return -ENOMEM;
	hm_c2c_stats__add_v(&e->st, ms->compat, s->data_src, s->addr, ms->mapped);
	e->cost += w;
	if (sock >= 0)
		hm_c2c_stats__add_v(&e->sock[sock], ms->compat, s->data_src, s->addr, ms->mapped);
	hm_c2c_stats__add_v(&e->field[field].st, ms->compat, s->data_src, s->addr, ms->mapped);
	func_add(&e->field[field], fn);
	{
		struct frow *f = frow_get(b, kind, field, access_kind(ms), fn);

		if (!f)
			return -ENOMEM;
		hm_c2c_stats__add_v(&f->st, ms->compat, s->data_src, s->addr, ms->mapped);
		f->cost += w;
	}
	if (sock >= 0) {
		int n = node >= 0 && (u32)node < b->nr_nodes ? node + 1 : 0;
		struct hm_c2c_stats before = b->xfer[sock * (b->nr_nodes + 1) + n];

		hm_c2c_stats__add_v(&b->xfer[sock * (b->nr_nodes + 1) + n], ms->compat, s->data_src, s->addr, ms->mapped);
		/* socket-to-socket HITM: local from the same socket, remote from the other of two */
		if (b->xfer[sock * (b->nr_nodes + 1) + n].lcl_hitm != before.lcl_hitm)
			b->hitm[sock * b->nr_sockets + sock]++;
		else if (b->xfer[sock * (b->nr_nodes + 1) + n].rmt_hitm != before.rmt_hitm) {
			if (b->nr_sockets == 2)
				b->hitm[(1 - sock) * b->nr_sockets + sock]++;
			else
				b->hitm_unknown++;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ rendering */

static const struct hm_buckets *sort_ctx;

static int cmp_bucket(const void *a, const void *b)
{
	const struct bk *x = &sort_ctx->b[*(const u32 *)a], *y = &sort_ctx->b[*(const u32 *)b];

	if (x->st.tot_hitm != y->st.tot_hitm)
		return x->st.tot_hitm > y->st.tot_hitm ? -1 : 1;
	if (x->st.nr_entries != y->st.nr_entries)
		return x->st.nr_entries > y->st.nr_entries ? -1 : 1;
	if (x->contended != y->contended)
		return x->contended > y->contended ? -1 : 1;
	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_frow(const void *a, const void *b)
{
	const struct frow *x = &sort_ctx->frows[*(const u32 *)a], *y = &sort_ctx->frows[*(const u32 *)b];
	int c;

	if (x->st.tot_hitm != y->st.tot_hitm)
		return x->st.tot_hitm > y->st.tot_hitm ? -1 : 1;
	if (x->st.nr_entries != y->st.nr_entries)
		return x->st.nr_entries > y->st.nr_entries ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->field != y->field)
		return x->field - y->field;
	if (x->acc != y->acc)
		return x->acc - y->acc;
	c = strcmp(x->func, y->func);
	return c;
}

static u32 *sorted(const struct hm_buckets *b, u32 n, int (*cmp)(const void *, const void *))
{
	u32 *o = malloc((n ? n : 1) * sizeof(*o)), i;

	if (!o)
		return NULL;
	for (i = 0; i < n; i++)
		o[i] = i;
	sort_ctx = b;
	qsort(o, n, sizeof(*o), cmp);
	return o;
}

static const char *kind_name(u8 kind)
{
	return kind == 0 ? "global" : kind == 1 ? "private" : "unknown";
}

static void table_name(const struct hm_report *r, const struct bk *e, char *buf, size_t size,
		       int *node, s32 *pid)
{
	*node = -1;
	*pid = -1;
	if (e->table < 0) {
		snprintf(buf, size, "unknown");
		return;
	}
	const struct hm_futex_table *t = &r->futex.tables[e->table];

	if (t->kind) {
		*pid = t->pid;
		snprintf(buf, size, "private:%d", t->pid);
	} else {
		*node = t->node;
		snprintf(buf, size, "global");
	}
}

static int hottest_field(const struct bk *e)
{
	int f, best = -1;

	if (!e->st.nr_entries && e->contended)
		return HM_FUTEX_FIELD_LOCK;	/* contention mode: the lock is all there is */
	for (f = 0; f < HM_FUTEX_FIELD__MAX; f++) {
		if (!e->field[f].st.nr_entries)
			continue;
		if (best < 0 || e->field[f].st.tot_hitm > e->field[best].st.tot_hitm ||
		    (e->field[f].st.tot_hitm == e->field[best].st.tot_hitm &&
		     e->field[f].st.nr_entries > e->field[best].st.nr_entries))
			best = f;
	}
	return best;
}

static void sort_funcs(struct bk_field *f)
{
	int i, k;

	for (i = 1; i < MAX_FUNCS && f->func[i].name; i++)
		for (k = i; k > 0 && (f->func[k].n > f->func[k - 1].n ||
			(f->func[k].n == f->func[k - 1].n && strcmp(f->func[k].name, f->func[k - 1].name) < 0)); k--) {
			struct bk_func t = f->func[k];

			f->func[k] = f->func[k - 1];
			f->func[k - 1] = t;
		}
}

static void funcs_text(const struct bk_field *f, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < MAX_FUNCS && f->func[i].name && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s(%" PRIu64 ")", i ? "," : "", f->func[i].name, f->func[i].n);
	if (f->other_funcs && len < size)
		snprintf(buf + len, size - len, ",+%" PRIu64, f->other_funcs);
}

static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_stats(struct hm_json *j, const char *key, const struct hm_c2c_stats *st)
{
	hm_json__obj_begin(j, key);
	hm_json__u64(j, "samples", st->nr_entries);
	hm_json__u64(j, "loads", st->load);
	hm_json__u64(j, "lcl_hitm", st->lcl_hitm);
	hm_json__u64(j, "rmt_hitm", st->rmt_hitm);
	hm_json__u64(j, "tot_hitm", st->tot_hitm);
	hm_json__u64(j, "lcl_dram", st->lcl_dram);
	hm_json__u64(j, "rmt_dram", st->rmt_dram);
	hm_json__u64(j, "stores", st->store);
	hm_json__u64(j, "locked", st->locks);
	hm_json__obj_end(j);
}

static void json_summary(struct hm_json *j, const struct hm_buckets *b)
{
	hm_json__obj_begin(j, "summary");
	hm_json__u64(j, "futex_samples", b->futex_samples);
	hm_json__u64(j, "resolved", b->resolved);
	hm_json__u64(j, "unknown_index", b->unknown_index);
	hm_json__u64(j, "other_objects", b->objects);
	hm_json__u64(j, "contentions", b->contentions);
	hm_json__u64(j, "contentions_on_buckets", b->contentions_resolved);
	hm_json__double(j, "resolved_fraction", b->futex_samples ?
			(double)(b->resolved + b->objects) / b->futex_samples : 1.0);
	hm_json__obj_end(j);
}

static void render_objects_text(const struct hm_buckets *b, FILE *f)
{
	u32 i;

	if (!b->nr_objs)
		return;
	fprintf(f, "\nOther futex memory (not buckets)\n");
	fprintf(f, "%-28s %7s %-18s %8s %8s %8s %8s %8s %8s %10s\n", "OBJECT", "PID", "LINE", "LOADS",
		"LCL_HITM", "RMT_HITM", "LCL_DRAM", "RMT_DRAM", "STORES", "COST");
	for (i = 0; i < b->nr_objs; i++) {
		const struct obj *o = &b->objs[i];

		fprintf(f, "%-28s %7d 0x%-16" PRIx64 " %8u %8u %8u %8u %8u %8u %10" PRIu64 "\n", o->name, o->pid,
			o->addr, o->st.load, o->st.lcl_hitm, o->st.rmt_hitm, o->st.lcl_dram, o->st.rmt_dram,
			o->st.store, o->cost);
	}
}

/* Memory columns mean something: not a contention-mode file (lock tracepoints only). */
static bool memory_mode(const struct hm_buckets *b, const struct hm_report *r)
{
	if (b->futex_samples)
		return true;
	if (b->contentions)
		return false;
	for (int i = 0; r->reader && i < hm_reader__nr_evsels(r->reader); i++) {
		const struct hm_evsel *e = hm_reader__evsel(r->reader, i);

		if (e && e->name && !strcmp(e->name, "lock:contention_begin"))
			return false;
	}
	return true;
}

static int render_bucket(const struct hm_buckets *b, const struct hm_report *r, enum hm_format fmt, FILE *f)
{
	u32 *o = sorted(b, b->nr, cmp_bucket), i, s;

	/* function lists, most samples first (the only state rendering changes) */
	for (i = 0; i < b->nr; i++)
		for (int fl = 0; fl < HM_FUTEX_FIELD__MAX; fl++)
			sort_funcs(&((struct hm_buckets *)b)->b[i].field[fl]);
	char tname[32], funcs[256];
	struct hm_json *j = NULL;
	int node;
	s32 pid;
	/* columns the file's mode can fill: memory samples, or only lock contention */
	bool mem = memory_mode(b, r);

	if (!o)
		return -ENOMEM;
	if (fmt == HM_FMT_JSON) {
		j = hm_json__new(f, true);
		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "view", "bucket");
		hm_json__str(j, "era", hm_futex_era__name(r->futex.era));
		hm_json__str(j, "layout", r->futex.layout.source);
		hm_json__str(j, "geometry", r->futex.geometry[0] ? r->futex.geometry : "none");
		hm_json__u64(j, "sockets", b->nr_sockets);
		json_summary(j, b);
		hm_json__arr_begin(j, "tables");
		for (i = 0; i < r->futex.nr_tables; i++) {
			const struct hm_futex_table *t = &r->futex.tables[i];

			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "kind", t->kind ? "private" : "global");
			hm_json__s64(j, t->kind ? "pid" : "node", t->kind ? t->pid : t->node);
			hm_json__hex(j, "base", t->base);
			hm_json__u64(j, "slots", t->slots);
			hm_json__str(j, "provenance", t->provenance);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
		hm_json__arr_begin(j, "buckets");
	} else if (fmt == HM_FMT_CSV) {
		fprintf(f, "table,node,pid,index,addr,samples,loads,lcl_hitm,rmt_hitm,lcl_dram,rmt_dram,stores,cost");
		for (s = 0; s < b->nr_sockets; s++)
			fprintf(f, ",s%u_loads,s%u_lcl_hitm,s%u_rmt_hitm,s%u_stores", s, s, s, s);
		fprintf(f, ",hottest_field,functions,contended,wait_ns\n");
	} else {
		if (mem)
			fprintf(f, "Futex hash buckets: %u buckets, %" PRIu64 " samples in futex memory, %" PRIu64
				" resolved to a bucket, %" PRIu64 " other futex objects, %" PRIu64 " with unknown index\n",
				b->nr, b->futex_samples, b->resolved, b->objects, b->unknown_index);
		else
			fprintf(f, "Futex hash buckets, contention mode (lock tracepoints, no memory samples): %u buckets contended\n",
				b->nr);
		if (b->contentions || !mem)
			fprintf(f, "contention mode: %" PRIu64 " lock contentions, %" PRIu64 " on bucket locks of known tables%s\n",
				b->contentions, b->contentions_resolved,
				b->contentions ? "" : " (nothing contended while recording: more threads, fewer buckets, a longer run)");
		fprintf(f, "era %s, layout %s\n", hm_futex_era__name(r->futex.era), r->futex.layout.source);
		fprintf(f, "tables: %s\n", r->futex.geometry[0] ? r->futex.geometry : "none");
		if (b->nr) {	/* no empty table: the "tables:" line says why */
			fprintf(f, "\n%-14s %4s %8s", "TABLE", "NODE", "INDEX");
			if (mem)
				fprintf(f, " %8s %8s %8s %8s %8s %8s %10s", "LOADS", "LCL_HITM", "RMT_HITM", "LCL_DRAM",
					"RMT_DRAM", "STORES", "COST");
			if (b->contentions || !mem)
				fprintf(f, " %9s %10s %9s %10s", "CONTENDED", "WAIT_US", "AVG_US", "MAX_US");
			for (s = 0; mem && s < b->nr_sockets; s++)
				fprintf(f, " | S%-2u %6s %6s %6s", s, "LOADS", "HITM", "STORES");
			fprintf(f, " | %-8s %s\n", "FIELD", mem ? "FUNCTIONS" : "CALLERS");
		}
	}
	for (i = 0; i < b->nr; i++) {
		const struct bk *e = &b->b[o[i]];
		int hf = hottest_field(e);
		u64 addr = 0;

		table_name(r, e, tname, sizeof(tname), &node, &pid);
		if (e->table >= 0)
			addr = r->futex.tables[e->table].base + e->index * (r->futex.layout.bucket_size ? r->futex.layout.bucket_size : 64);
		else
			addr = e->index;
		funcs[0] = 0;
		if (hf >= 0)
			funcs_text(&e->field[hf], funcs, sizeof(funcs));
		if (j) {
			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "table", e->table < 0 ? "unknown" : pid >= 0 ? "private" : "global");
			if (node >= 0)
				hm_json__s64(j, "node", node);
			else
				hm_json__str(j, "node", NULL);
			if (pid >= 0)
				hm_json__s64(j, "pid", pid);
			if (e->table >= 0)
				hm_json__u64(j, "index", e->index);
			else
				hm_json__str(j, "index", NULL);	/* unknown, never a guess */
			hm_json__hex(j, "addr", addr);
			json_stats(j, "stats", &e->st);
			hm_json__u64(j, "cost", e->cost);
			hm_json__u64(j, "contended", e->contended);
			hm_json__u64(j, "wait_ns", e->wait_ns);
			hm_json__u64(j, "avg_wait_ns", e->waits ? e->wait_ns / e->waits : 0);
			hm_json__u64(j, "max_wait_ns", e->wait_max_ns);
			hm_json__arr_begin(j, "sockets");
			for (s = 0; s < b->nr_sockets; s++) {
				hm_json__obj_begin(j, NULL);
				hm_json__u64(j, "socket", s);
				json_stats(j, "stats", &e->sock[s]);
				hm_json__obj_end(j);
			}
			hm_json__arr_end(j);
			hm_json__str(j, "hottest_field", hf >= 0 ? hm_futex_field__name(hf) : NULL);
			hm_json__arr_begin(j, "fields");
			for (int fl = 0; fl < HM_FUTEX_FIELD__MAX; fl++) {
				const struct bk_field *bf = &e->field[fl];

				if (!bf->st.nr_entries)
					continue;
				hm_json__obj_begin(j, NULL);
				hm_json__str(j, "field", hm_futex_field__name(fl));
				json_stats(j, "stats", &bf->st);
				hm_json__arr_begin(j, "functions");
				for (int k = 0; k < MAX_FUNCS && bf->func[k].name; k++) {
					hm_json__obj_begin(j, NULL);
					hm_json__str(j, "name", bf->func[k].name);
					hm_json__u64(j, "samples", bf->func[k].n);
					hm_json__obj_end(j);
				}
				hm_json__arr_end(j);
				if (bf->other_funcs)
					hm_json__u64(j, "other_function_samples", bf->other_funcs);
				hm_json__obj_end(j);
			}
			hm_json__arr_end(j);
			hm_json__obj_end(j);
		} else if (fmt == HM_FMT_CSV) {
			fprintf(f, "%s,", e->table < 0 ? "unknown" : pid >= 0 ? "private" : "global");
			if (node >= 0)
				fprintf(f, "%d", node);
			fprintf(f, ",");
			if (pid >= 0)
				fprintf(f, "%d", pid);
			fprintf(f, ",");
			if (e->table >= 0)
				fprintf(f, "%" PRIu64, e->index);
			fprintf(f, ",0x%" PRIx64 ",%u,%u,%u,%u,%u,%u,%u,%" PRIu64, addr, e->st.nr_entries, e->st.load,
				e->st.lcl_hitm, e->st.rmt_hitm, e->st.lcl_dram, e->st.rmt_dram, e->st.store, e->cost);
			for (s = 0; s < b->nr_sockets; s++)
				fprintf(f, ",%u,%u,%u,%u", e->sock[s].load, e->sock[s].lcl_hitm, e->sock[s].rmt_hitm,
					e->sock[s].store);
			fprintf(f, ",%s,", hf >= 0 ? hm_futex_field__name(hf) : "");
			csv_str(f, funcs);
			fprintf(f, ",%" PRIu64 ",%" PRIu64 "\n", e->contended, e->wait_ns);
		} else {
			char nb[12] = "-", ib[24];

			if (node >= 0)
				snprintf(nb, sizeof(nb), "%d", node);
			if (e->table >= 0)
				snprintf(ib, sizeof(ib), "%" PRIu64, e->index);
			else
				snprintf(ib, sizeof(ib), "unknown");
			fprintf(f, "%-14s %4s %8s", tname, nb, ib);
			if (mem)
				fprintf(f, " %8u %8u %8u %8u %8u %8u %10" PRIu64, e->st.load, e->st.lcl_hitm,
					e->st.rmt_hitm, e->st.lcl_dram, e->st.rmt_dram, e->st.store, e->cost);
			if (b->contentions || !mem)
				fprintf(f, " %9" PRIu64 " %10.1f %9.2f %10.1f", e->contended, e->wait_ns / 1e3,
					e->waits ? e->wait_ns / 1e3 / e->waits : 0.0, e->wait_max_ns / 1e3);
			for (s = 0; mem && s < b->nr_sockets; s++)
				fprintf(f, " |     %6u %6u %6u", e->sock[s].load, e->sock[s].tot_hitm, e->sock[s].store);
			fprintf(f, " | %-8s %s", hf >= 0 ? hm_futex_field__name(hf) : "-", funcs);
			if (e->table < 0)
				fprintf(f, "  (line 0x%" PRIx64 ": table unknown)", addr);
			fputc('\n', f);
		}
	}
	if (j) {
		hm_json__arr_end(j);
		if (b->contentions)
			hm_waits__render_json(b->callers, j, "callers");
		hm_json__arr_begin(j, "objects");
		for (i = 0; i < b->nr_objs; i++) {
			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "object", b->objs[i].name);
			hm_json__s64(j, "pid", b->objs[i].pid);
			hm_json__hex(j, "line", b->objs[i].addr);
			json_stats(j, "stats", &b->objs[i].st);
			hm_json__u64(j, "cost", b->objs[i].cost);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
		hm_json__obj_end(j);
		hm_json__delete(j);
	} else if (fmt == HM_FMT_CSV) {
		for (i = 0; i < b->nr_objs; i++)
			fprintf(f, "object:%s,,%d,,0x%" PRIx64 ",%u,%u,%u,%u,%u,%u,%u,%" PRIu64 "\n", b->objs[i].name,
				b->objs[i].pid, b->objs[i].addr, b->objs[i].st.nr_entries, b->objs[i].st.load,
				b->objs[i].st.lcl_hitm, b->objs[i].st.rmt_hitm, b->objs[i].st.lcl_dram,
				b->objs[i].st.rmt_dram, b->objs[i].st.store, b->objs[i].cost);
	} else {
		render_objects_text(b, f);
		if (b->contentions && hm_waits__render_text(b->callers, f) < 0) {
			free(o);
			return -ENOMEM;
		}
	}
	free(o);
	return 0;
}

static int render_field(const struct hm_buckets *b, const struct hm_report *r, enum hm_format fmt, FILE *f)
{
	u32 *o = sorted(b, b->nr_frows, cmp_frow), i;
	struct hm_json *j = NULL;

	if (!o)
		return -ENOMEM;
	if (fmt == HM_FMT_JSON) {
		j = hm_json__new(f, true);
		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "view", "field");
		json_summary(j, b);
		hm_json__arr_begin(j, "fields");
	} else if (fmt == HM_FMT_CSV) {
		fprintf(f, "table,field,access,function,samples,loads,lcl_hitm,rmt_hitm,lcl_dram,rmt_dram,stores,cost\n");
	} else {
		fprintf(f, "Futex bucket fields x access x function (%" PRIu64 " bucket samples)\n\n", b->resolved + b->unknown_index);
		fprintf(f, "%-8s %-8s %-7s %8s %8s %8s %8s %8s %8s %8s %10s  %s\n", "TABLE", "FIELD", "ACCESS", "SAMPLES",
			"LOADS", "LCL_HITM", "RMT_HITM", "LCL_DRAM", "RMT_DRAM", "STORES", "COST", "FUNCTION");
	}
	for (i = 0; i < b->nr_frows; i++) {
		const struct frow *x = &b->frows[o[i]];

		if (j) {
			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "table", kind_name(x->kind));
			hm_json__str(j, "field", hm_futex_field__name(x->field));
			hm_json__str(j, "access", acc_names[x->acc]);
			hm_json__str(j, "function", x->func);
			json_stats(j, "stats", &x->st);
			hm_json__u64(j, "cost", x->cost);
			hm_json__obj_end(j);
		} else if (fmt == HM_FMT_CSV) {
			fprintf(f, "%s,%s,%s,", kind_name(x->kind), hm_futex_field__name(x->field), acc_names[x->acc]);
			csv_str(f, x->func);
			fprintf(f, ",%u,%u,%u,%u,%u,%u,%u,%" PRIu64 "\n", x->st.nr_entries, x->st.load, x->st.lcl_hitm,
				x->st.rmt_hitm, x->st.lcl_dram, x->st.rmt_dram, x->st.store, x->cost);
		} else {
			fprintf(f, "%-8s %-8s %-7s %8u %8u %8u %8u %8u %8u %8u %10" PRIu64 "  %s\n", kind_name(x->kind),
				hm_futex_field__name(x->field), acc_names[x->acc], x->st.nr_entries, x->st.load,
				x->st.lcl_hitm, x->st.rmt_hitm, x->st.lcl_dram, x->st.rmt_dram, x->st.store, x->cost, x->func);
		}
	}
	if (j) {
		hm_json__arr_end(j);
		hm_json__obj_end(j);
		hm_json__delete(j);
	} else if (fmt != HM_FMT_CSV) {
		render_objects_text(b, f);
	}
	free(o);
	return 0;
}

static int render_socket(const struct hm_buckets *b, const struct hm_report *r, enum hm_format fmt, FILE *f)
{
	struct hm_json *j = NULL;
	u32 s, n, h;
	bool matrix = b->nr_sockets <= 2;
	bool mem = memory_mode(b, r);	/* contention mode alone: no memory tables */

	if (fmt == HM_FMT_JSON) {
		j = hm_json__new(f, true);
		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "view", "socket");
		json_summary(j, b);
		hm_json__arr_begin(j, "xfer");
	} else if (fmt == HM_FMT_CSV) {
		fprintf(f, "socket,node,samples,loads,lcl_hitm,rmt_hitm,lcl_dram,rmt_dram,stores\n");
	} else if (mem) {
		fprintf(f, "Futex bucket accesses: requesting CPU socket x data home node\n\n");
		fprintf(f, "%-7s %-7s %8s %8s %8s %8s %8s %8s %8s\n", "SOCKET", "NODE", "SAMPLES", "LOADS",
			"LCL_HITM", "RMT_HITM", "LCL_DRAM", "RMT_DRAM", "STORES");
	}
	for (s = 0; s < b->nr_sockets; s++) {
		for (n = 0; n <= b->nr_nodes; n++) {
			const struct hm_c2c_stats *x = &b->xfer[s * (b->nr_nodes + 1) + n];
			char nb[16];

			if (!x->nr_entries)
				continue;
			if (n)
				snprintf(nb, sizeof(nb), "%u", n - 1);
			else
				snprintf(nb, sizeof(nb), "unknown");
			if (j) {
				hm_json__obj_begin(j, NULL);
				hm_json__u64(j, "socket", s);
				if (n)
					hm_json__u64(j, "node", n - 1);
				else
					hm_json__str(j, "node", NULL);
				json_stats(j, "stats", x);
				hm_json__obj_end(j);
			} else if (fmt == HM_FMT_CSV) {
				fprintf(f, "%u,%s,%u,%u,%u,%u,%u,%u,%u\n", s, n ? nb : "", x->nr_entries, x->load,
					x->lcl_hitm, x->rmt_hitm, x->lcl_dram, x->rmt_dram, x->store);
			} else {
				fprintf(f, "%-7u %-7s %8u %8u %8u %8u %8u %8u %8u\n", s, nb, x->nr_entries, x->load,
					x->lcl_hitm, x->rmt_hitm, x->lcl_dram, x->rmt_dram, x->store);
			}
		}
	}
	if (j) {
		hm_json__arr_end(j);
		if (b->contentions) {
			hm_json__arr_begin(j, "contention");
			for (s = 0; s < b->nr_sockets; s++)
				for (n = 0; n <= b->nr_nodes; n++) {
					u32 c = s * (b->nr_nodes + 1) + n;

					if (!b->cont[c])
						continue;
					hm_json__obj_begin(j, NULL);
					hm_json__u64(j, "socket", s);
					if (n)
						hm_json__u64(j, "node", n - 1);
					else
						hm_json__str(j, "node", NULL);
					hm_json__u64(j, "contended", b->cont[c]);
					hm_json__u64(j, "wait_ns", b->cont_wait[c]);
					hm_json__obj_end(j);
				}
			hm_json__arr_end(j);
		}
		if (matrix) {
			hm_json__arr_begin(j, "hitm_matrix");	/* [holder][requester] */
			for (h = 0; h < b->nr_sockets; h++) {
				hm_json__arr_begin(j, NULL);
				for (s = 0; s < b->nr_sockets; s++)
					hm_json__u64(j, NULL, b->hitm[h * b->nr_sockets + s]);
				hm_json__arr_end(j);
			}
			hm_json__arr_end(j);
		} else {
			hm_json__str(j, "hitm_matrix", NULL);
			hm_json__u64(j, "rmt_hitm_unknown_holder", b->hitm_unknown);
		}
		hm_json__obj_end(j);
		hm_json__delete(j);
		return 0;
	}
	if (b->contentions) {
		if (fmt == HM_FMT_CSV)
			fprintf(f, "\nsocket,table_node,contended,wait_ns\n");
		else
			fprintf(f, "%sFutex bucket lock contention (contention mode): requesting CPU socket x table node\n"
				"(private hashes have no node of their own: \"private\")\n\n%-7s %-8s %10s %12s %10s\n",
				mem ? "\n" : "", "SOCKET", "NODE", "CONTENDED", "WAIT_US", "AVG_US");
		for (s = 0; s < b->nr_sockets; s++)
			for (n = 0; n <= b->nr_nodes; n++) {
				u32 c = s * (b->nr_nodes + 1) + n;
				char nb[16];

				if (!b->cont[c])
					continue;
				if (n)
					snprintf(nb, sizeof(nb), "%u", n - 1);
				else
					snprintf(nb, sizeof(nb), "%s", fmt == HM_FMT_CSV ? "" : "private");
				if (fmt == HM_FMT_CSV)
					fprintf(f, "%u,%s,%" PRIu64 ",%" PRIu64 "\n", s, nb, b->cont[c], b->cont_wait[c]);
				else
					fprintf(f, "%-7u %-8s %10" PRIu64 " %12.1f %10.2f\n", s, nb, b->cont[c],
						b->cont_wait[c] / 1e3, b->cont_wait[c] / 1e3 / b->cont[c]);
			}
	}
	if (fmt == HM_FMT_CSV) {
		if (matrix) {
			fprintf(f, "\nholder_socket");
			for (s = 0; s < b->nr_sockets; s++)
				fprintf(f, ",to_s%u", s);
			fputc('\n', f);
			for (h = 0; h < b->nr_sockets; h++) {
				fprintf(f, "%u", h);
				for (s = 0; s < b->nr_sockets; s++)
					fprintf(f, ",%" PRIu64, b->hitm[h * b->nr_sockets + s]);
				fputc('\n', f);
			}
		}
		return 0;
	}
	if (!mem) {
		if (!b->contentions)
			fprintf(f, "Futex bucket lock contention (contention mode): nothing contended while recording\n");
		return 0;
	}
	if (!matrix) {
		fprintf(f, "\nSocket-to-socket HITM matrix: not shown; with %u sockets a remote HITM does not say which socket held the line (%" PRIu64 " remote HITMs)\n",
			b->nr_sockets, b->hitm_unknown);
		return 0;
	}
	fprintf(f, "\nHITM: socket holding the modified line (rows) -> requesting socket (columns)\n%-8s", "");
	for (s = 0; s < b->nr_sockets; s++)
		fprintf(f, " %8s%u", "S", s);
	fputc('\n', f);
	for (h = 0; h < b->nr_sockets; h++) {
		fprintf(f, "S%-7u", h);
		for (s = 0; s < b->nr_sockets; s++)
			fprintf(f, " %9" PRIu64, b->hitm[h * b->nr_sockets + s]);
		fputc('\n', f);
	}
	return 0;
}

int hm_buckets__render(const struct hm_buckets *b, const struct hm_report *r,
		       enum hm_bucket_view view, enum hm_format fmt, FILE *f)
{
	if (!b || !r || !f)
		return -EINVAL;
	if (fmt != HM_FMT_TEXT && fmt != HM_FMT_JSON && fmt != HM_FMT_CSV) {
		hm_err("--by bucket/field/socket: output format not supported; use text, --json or --csv");
		return -EINVAL;
	}
	switch (view) {
	case HM_BY_BUCKET: return render_bucket(b, r, fmt, f);
	case HM_BY_FIELD:  return render_field(b, r, fmt, f);
	case HM_BY_SOCKET: return render_socket(b, r, fmt, f);
	}
	return -EINVAL;
}
