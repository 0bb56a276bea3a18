// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex views of hitmap report: --by bucket, --by field, --by socket.
 *
 * Each row counts with hitmap's precise categories and keeps perf's c2c
 * counters of the same samples beside them (struct hm_counts, from the one
 * classification in report.c; rendering in buckets-render.c).  Memory grows
 * with distinct buckets, fields x functions and futex objects, never with
 * samples.
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
#include "buckets.h"

const char *const hm_bk_acc_names[ACC__MAX] = { "load", "store", "atomic" };
const struct bk_field hm_bk_field_zero;

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
	int ns = r && hm_report__topo(r) ? hm_topo__nr_sockets(hm_report__topo(r)) : 0;
	int nn = r && hm_report__topo(r) ? hm_topo__nr_nodes(hm_report__topo(r)) : 0;
	u32 i;

	if (!b)
		return NULL;
	b->nr_sockets = ns > 0 ? (ns > MAX_SOCKETS ? MAX_SOCKETS : ns) : 1;
	b->nr_nodes = nn > 0 ? (nn > MAX_SOCKETS ? MAX_SOCKETS : nn) : 1;
	if (r)
		for (i = 0; i < hm_report__futex(r)->nr_tables; i++) {
			const struct hm_futex_table *t = &hm_report__futex(r)->tables[i];

			if (!t->kind && t->node >= 0 && (u32)t->node + 1 > b->nr_nodes && t->node < MAX_SOCKETS)
				b->nr_nodes = t->node + 1;
		}
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
	for (i = 0; i < b->nr_chunks; i++)
		free(b->chunks[i]);
	free(b->chunks);
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
	free(b->cont_sock);
	free(b->waits);
	free(b->bslot);
	hm_waits__delete(b->callers);
	free(b);
}

static u32 bslot_hash(s32 table, u64 index)
{
	u64 v = ((u64)(table + 1) << 48) ^ index;

	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return (u32)v;
}

static int bslots_grow(struct hm_buckets *b)
{
	u32 n = b->nr_bslots ? 2 * b->nr_bslots : 1024;
	struct bk_slot *ns = calloc(n, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (u32 i = 0; i < b->nr; i++) {
		u32 h = bslot_hash(b->b[i].table, b->b[i].index) & (n - 1);

		while (ns[h].idx)
			h = (h + 1) & (n - 1);
		ns[h] = (struct bk_slot){ .index = b->b[i].index, .table = b->b[i].table, .idx = i + 1 };
	}
	free(b->bslot);
	b->bslot = ns;
	b->nr_bslots = n;
	return 0;
}

static void *arena_alloc(struct hm_buckets *b, size_t size);

/* The bucket (@table, @index), made on its first sample (buckets stay in that order). */
static struct bk *bucket_get(struct hm_buckets *b, s32 table, u64 index)
{
	struct bk_slot *sl;
	struct bk *e;
	u32 h;

	if (2 * (b->nr + 1) > b->nr_bslots && bslots_grow(b) < 0)
		return NULL;
	h = bslot_hash(table, index) & (b->nr_bslots - 1);
	for (sl = &b->bslot[h]; sl->idx; sl = &b->bslot[h]) {
		if (sl->table == table && sl->index == index)
			return &b->b[sl->idx - 1];
		h = (h + 1) & (b->nr_bslots - 1);
	}
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
	e->sock = arena_alloc(b, b->nr_sockets * sizeof(*e->sock));
	if (!e->sock)
		return NULL;
	e->table = table;
	e->index = index;
	*sl = (struct bk_slot){ .index = index, .table = table, .idx = ++b->nr };
	return e;
}

#define CHUNK_SIZE	(256u << 10)

/*
 * @size zeroed bytes from the buckets' arena (NULL: no memory): one malloc
 * per CHUNK_SIZE instead of one per bucket row, rows of a bucket made
 * together lie together, and they never move.
 */
static void *arena_alloc(struct hm_buckets *b, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (size > CHUNK_SIZE)
		return NULL;
	if (size > b->chunk_left) {
		char *c;

		if (b->nr_chunks == b->alloc_chunks) {
			u32 n = b->alloc_chunks ? 2 * b->alloc_chunks : 16;
			char **p = realloc(b->chunks, n * sizeof(*p));

			if (!p)
				return NULL;
			b->chunks = p;
			b->alloc_chunks = n;
		}
		c = calloc(1, CHUNK_SIZE);
		if (!c)
			return NULL;
		b->chunks[b->nr_chunks++] = c;
		b->chunk_left = CHUNK_SIZE;
	}
	b->chunk_left -= size;
	return b->chunks[b->nr_chunks - 1] + (CHUNK_SIZE - b->chunk_left - size);
}

/* Field @f of bucket @e, made zero on its first touch (NULL: no memory). */
static struct bk_field *bk_field_get(struct hm_buckets *b, struct bk *e, int f)
{
	if (!e->field[f])
		e->field[f] = arena_alloc(b, sizeof(*e->field[f]));
	return e->field[f];
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

/* One contention of bucket @i from socket @sock (hm_buckets__contended_socket). */
static int cont_sock_add(struct hm_buckets *b, u32 i, int sock)
{
	size_t need = ((size_t)i + 1) * b->nr_sockets, n;
	u64 *p;

	if (sock < 0 || (u32)sock >= b->nr_sockets)
		return 0;
	if (need > b->nr_cont_sock) {
		for (n = b->nr_cont_sock ? b->nr_cont_sock : 64 * (size_t)b->nr_sockets; n < need; n *= 2)
			;
		p = realloc(b->cont_sock, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + b->nr_cont_sock, 0, (n - b->nr_cont_sock) * sizeof(*p));
		b->cont_sock = p;
		b->nr_cont_sock = n;
	}
	b->cont_sock[(size_t)i * b->nr_sockets + sock]++;
	return 0;
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
	s32 lock_off = hm_report__futex(r)->layout.offset[HM_FUTEX_FIELD_LOCK];
	struct wait *w;
	int cell;
	u64 la;
	struct bk *e;
	char chain[256];
	const char *caller = NULL;
	bool have_chain, site;

	if (hm_sample__tp_field(s, "lock_addr", &la) || !la)
		return 0;
	b->contentions++;
	/* where the kernel waited: a futex bucket-lock site or some other lock's */
	have_chain = hm_waits__caller(hm_report__symbols(r), hm_report__maps(r), s, chain, sizeof(chain));
	site = have_chain && hm_waits__bucket_site(chain);
	b->contentions_chained += have_chain;
	b->contentions_at_sites += site;
	if (lock_off < 0 || !hm_futex_model__resolve(hm_report__futex(r), la, &loc) || loc.field != HM_FUTEX_FIELD_LOCK)
		return 0;
	b->contentions_resolved++;
	b->contentions_at_sites_resolved += site;
	e = bucket_get(b, loc.table - hm_report__futex(r)->tables, loc.index);
	if (!e)
		return -ENOMEM;
	e->contended++;
	if (cont_sock_add(b, (u32)(e - b->b), ms->cpu_socket) < 0)
		return -ENOMEM;
	cell = cont_cell(b, r, ms, loc.table);
	if (cell >= 0)
		b->cont[cell]++;
	/* the caller from the kernel call chain when recorded, else the IP's function */
	if (have_chain)
		fn = caller = hm_waits__intern(b->callers, chain);
	else if (hm_report__symbols(r) && !hm_symbols__resolve(hm_report__symbols(r), hm_report__maps(r), s->pid, s->misc & 7, s->ip, &info))
		fn = info.name ? caller = hm_waits__intern(b->callers, info.name) : NULL;
	if (caller)
		hm_waits__begin(b->callers, caller);
	{
		struct bk_field *lf = bk_field_get(b, e, HM_FUTEX_FIELD_LOCK);

		if (!lf)
			return -ENOMEM;
		func_add(lf, intern(b, fn));
	}
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
		hm_futex_model__locate(hm_report__futex(r), s->addr, &site);
	}
	in_futex = site.where != HM_FUTEX_WHERE_NONE;
	if (hm_report__symbols(r) && (in_futex || s->addr >= 0xffff800000000000ull) &&
	    !hm_symbols__resolve(hm_report__symbols(r), hm_report__maps(r), s->pid, s->misc & 7, s->ip, &info))
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
		hm_counts__add(&o->st, ms);
		o->cost += w;
		b->objects++;
		return 0;
	}
	if (unknown_index) {
		u32 bs = hm_report__futex(r)->layout.bucket_size ? hm_report__futex(r)->layout.bucket_size : 64;

		index = s->addr & ~(u64)(bs - 1);
		field = hm_futex_layout__field(&hm_report__futex(r)->layout, s->addr & (bs - 1));
		b->unknown_index++;
	} else {
		table = site.loc.table - hm_report__futex(r)->tables;
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
	/* the bucket's rows are cold: fetch them together, not one after another */
	if (sock >= 0)
		__builtin_prefetch(&e->sock[sock]);
	if (e->field[field])
		__builtin_prefetch(e->field[field]);
	hm_counts__add(&e->st, ms);
	e->cost += w;
	if (sock >= 0)
		hm_counts__add(&e->sock[sock], ms);
	{
		struct bk_field *bf = bk_field_get(b, e, field);

		if (!bf)
			return -ENOMEM;
		hm_counts__add(&bf->st, ms);
		func_add(bf, fn);
	}
	{
		struct frow *f = frow_get(b, kind, field, access_kind(ms), fn);

		if (!f)
			return -ENOMEM;
		hm_counts__add(&f->st, ms);
		f->cost += w;
	}
	if (sock >= 0) {
		int n = node >= 0 && (u32)node < b->nr_nodes ? node + 1 : 0;

		hm_counts__add(&b->xfer[sock * (b->nr_nodes + 1) + n], ms);
		/* socket-to-socket HITM: local from the same socket, remote from the other of two */
		if (ms->cls.cat == HM_CAT_HITM_LOCAL || ms->cls.cat == HM_CAT_HITM_XDIE)
			b->hitm[sock * b->nr_sockets + sock]++;
		else if (ms->cls.cat == HM_CAT_HITM_REMOTE) {
			if (b->nr_sockets == 2)
				b->hitm[(1 - sock) * b->nr_sockets + sock]++;
			else
				b->hitm_unknown++;
		}
	}
	return 0;
}

