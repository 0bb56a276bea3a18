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
 * Per sample, little work: the sample's classification is a class (one per
 * distinct classification of the file, found by data_src), its function
 * comes from a cache by IP, and rows count samples by class, summed into
 * struct hm_counts only for the views: a bucket keeps a short list of
 * entries (buckets-int.h: struct bk_ent), field rows and socket cells a count
 * per class (hm_buckets__finish sums them).
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
#include "buckets-int.h"
#include "util/htab.h"

const char *const hm_bk_acc_names[ACC__MAX] = { "load", "store", "atomic" };

static u32 hash64(u64 v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return (u32)v & ((1u << HASH_BITS) - 1);
}

/* The index of name @s in b->names, added when new (-ENOMEM); by content. */
s32 hm_buckets__name(struct hm_buckets *b, const char *s)
{
	u32 i;

	for (i = 0; i < b->nr_names; i++)
		if (!strcmp(b->names[i], s))
			return (s32)i;
	if (b->nr_names >= BK_FUNC_OTHER)
		return -ENOMEM;
	if (b->nr_names == b->alloc_names) {
		u32 n = b->alloc_names ? 2 * b->alloc_names : 64;
		char **p = realloc(b->names, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		b->names = p;
		b->alloc_names = n;
	}
	b->names[b->nr_names] = strdup(s);
	if (!b->names[b->nr_names])
		return -ENOMEM;
	return (s32)b->nr_names++;
}

/*
 * The index of name @s (NULL: "[unknown]") in b->names; -ENOMEM.  Cached
 * by the pointer: the resolver's names stay where they are.
 */
static s32 intern(struct hm_buckets *b, const char *s)
{
	u32 slot;
	s32 id;

	if (!s)
		s = "[unknown]";
	slot = hash64((u64)(uintptr_t)s) & 255;
	if (b->name_cache[slot].key == s)
		return (s32)b->name_cache[slot].id;
	id = hm_buckets__name(b, s);
	if (id >= 0) {
		b->name_cache[slot].key = s;
		b->name_cache[slot].id = (u32)id;
	}
	return id;
}

struct hm_buckets *hm_buckets__new(const struct hm_report *r)
{
	struct hm_buckets *b = calloc(1, sizeof(*b));
	int ns = r && hm_report__topo(r) ? hm_topo__nr_sockets(hm_report__topo(r)) : 0;
	int nn = r && hm_report__topo(r) ? hm_topo__nr_nodes(hm_report__topo(r)) : 0;
	u32 i;

	if (!b)
		return NULL;
	b->max_funcs = MAX_FUNCS;
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
	b->xh = calloc((size_t)b->nr_sockets * (b->nr_nodes + 1), sizeof(*b->xh));
	b->callers = hm_waits__new();
	if (!b->xfer || !b->hitm || !b->cont || !b->cont_wait || !b->xh || !b->callers) {
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
	hm_buckets__release_store(b);
	free(b->objs);
	free(b->oslot);
	for (i = 0; i < b->nr_names; i++)
		free(b->names[i]);
	free(b->names);
	free(b->xfer);
	free(b->hitm);
	free(b->cont);
	free(b->cont_wait);
	free(b->cont_sock);
	free(b->waits);
	free(b->cls);
	free(b->cls_slot);
	free(b->rc);
	for (i = 0; i < b->nr_frows; i++)
		free(b->frows[i].h.n);
	free(b->frows);
	for (i = 0; b->xh && i < b->nr_sockets * (b->nr_nodes + 1); i++)
		free(b->xh[i].n);
	free(b->xh);
	hm_waits__delete(b->callers);
	free(b);
}

/* ------------------------------------------------------------ for readers */

void hm_buckets__totals(const struct hm_buckets *b, struct hm_buckets_totals *t)
{
	*t = (struct hm_buckets_totals){
		.nr = b->nr, .nr_objs = b->nr_objs,
		.nr_sockets = b->nr_sockets, .nr_nodes = b->nr_nodes,
		.futex_samples = b->futex_samples, .resolved = b->resolved,
		.unknown_index = b->unknown_index, .objects = b->objects,
		.contentions = b->contentions, .contentions_resolved = b->contentions_resolved,
	};
}

void hm_buckets__bucket(const struct hm_buckets *b, u32 i, struct hm_bucket_info *info)
{
	const struct bk *e = &b->b[i];

	*info = (struct hm_bucket_info){ .index = e->index, .table = e->table,
					 .contended = e->contended, .wait_ns = e->wait_ns,
					 .wait_max_ns = e->wait_max_ns, .waits = e->waits,
					 .cost = e->cost };
}

void hm_buckets__object(const struct hm_buckets *b, u32 i, struct hm_bucket_object *o)
{
	const struct obj *x = &b->objs[i];

	*o = (struct hm_bucket_object){ .name = x->name, .pid = x->pid, .addr = x->addr,
					.st = x->st, .cost = x->cost };
}

void hm_buckets__field_row(const struct hm_buckets *b, u32 i, struct hm_bucket_field_row *f)
{
	const struct frow *x = &b->frows[i];

	*f = (struct hm_bucket_field_row){ .kind = x->kind, .field = x->field,
					   .access = hm_bk_acc_names[x->acc],
					   .func = x->func, .st = x->st, .cost = x->cost };
}

void hm_buckets__cell(const struct hm_buckets *b, u32 s, u32 node1, struct hm_bucket_cell *c)
{
	size_t k = (size_t)s * (b->nr_nodes + 1) + node1;

	memset(c, 0, sizeof(*c));
	if (s >= b->nr_sockets || node1 > b->nr_nodes)
		return;
	c->st = b->xfer[k];	/* xfer, cont and cont_wait: made with the buckets */
	c->contentions = b->cont[k];
	c->wait_ns = b->cont_wait[k];
}

const struct hm_waits *hm_buckets__callers(const struct hm_buckets *b)
{
	return b->callers;
}

u64 hm_buckets__contended_socket(const struct hm_buckets *b, u32 i, u32 s)
{
	size_t k = (size_t)i * b->nr_sockets + s;

	return s < b->nr_sockets && k < b->nr_cont_sock ? b->cont_sock[k] : 0;
}

/* ------------------------------------------------------------ rows by class */

static u32 rc_hash(u32 row, u32 cls)
{
	return (u32)((((u64)row << 32 | cls) * 0x9e3779b97f4a7c15ull) >> 32);
}

/* @n more samples of class @cls in row @row (struct bk_rc). */
static int rc_add(struct hm_buckets *b, u32 row, u32 cls, u32 n_add)
{
	u32 h, mask;

	if (2 * (b->nr_rc + 1) > b->nr_rc_slots) {
		u32 n = b->nr_rc_slots ? 2 * b->nr_rc_slots : 256;
		struct bk_rc *ns = calloc(n, sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		for (u32 i = 0; i < b->nr_rc_slots; i++) {
			if (!b->rc[i].row)
				continue;
			for (h = rc_hash(b->rc[i].row, b->rc[i].cls) & (n - 1); ns[h].row; h = (h + 1) & (n - 1))
				;
			ns[h] = b->rc[i];
		}
		free(b->rc);
		b->rc = ns;
		b->nr_rc_slots = n;
	}
	b->unsummed = true;
	mask = b->nr_rc_slots - 1;
	for (h = rc_hash(row, cls) & mask; b->rc[h].row; h = (h + 1) & mask)
		if (b->rc[h].row == row && b->rc[h].cls == cls) {
			b->rc[h].n += n_add;
			return 0;
		}
	b->rc[h] = (struct bk_rc){ .row = row, .cls = cls, .n = n_add };
	b->nr_rc++;
	return 0;
}

/* @n more samples of class @cls in @h, row @row of rc past BK_HIST_MAX classes. */
int hm_buckets__hist_add(struct hm_buckets *b, struct bk_hist *h, u32 row, u32 cls, u32 n_add)
{
	if (cls >= BK_HIST_MAX)
		return rc_add(b, row, cls, n_add);
	if (cls >= h->cap) {
		u32 n = h->cap ? h->cap : 16;
		u32 *p;

		while (n <= cls)
			n *= 2;
		p = realloc(h->n, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + h->cap, 0, (n - h->cap) * sizeof(*p));
		h->n = p;
		h->cap = n;
	}
	h->n[cls] += n_add;
	b->unsummed = true;
	return 0;
}

static int hist_add(struct hm_buckets *b, struct bk_hist *h, u32 row, u32 cls)
{
	return hm_buckets__hist_add(b, h, row, cls, 1);
}

static void hist_sum(const struct hm_buckets *b, const struct bk_hist *h, struct hm_counts *c)
{
	for (u32 k = 0; k < h->cap; k++)
		if (h->n[k])
			bk_class__add(&b->cls[k], c, h->n[k], true);
}

int hm_buckets__finish(struct hm_buckets *b)
{
	u32 i, nx;
	int err;

	if (!b)
		return 0;
	err = hm_buckets__drain(b);
	if (!b->unsummed)
		return err;
	nx = b->nr_sockets * (b->nr_nodes + 1);
	for (i = 0; i < b->nr_frows; i++) {
		memset(&b->frows[i].st, 0, sizeof(b->frows[i].st));
		hist_sum(b, &b->frows[i].h, &b->frows[i].st);
	}
	memset(b->xfer, 0, (size_t)nx * sizeof(*b->xfer));
	for (i = 0; i < nx; i++)
		hist_sum(b, &b->xh[i], &b->xfer[i]);
	for (i = 0; i < b->nr_rc_slots; i++) {
		const struct bk_rc *x = &b->rc[i];

		if (!x->row)
			continue;
		bk_class__add(&b->cls[x->cls], x->row & BK_RC_XFER ? &b->xfer[x->row & ~BK_RC_XFER] :
			      &b->frows[x->row - 1].st, x->n, true);
	}
	b->unsummed = false;
	return err;
}

/* ------------------------------------------------------------ classifications */

static u32 class_hash(const struct hm_counts *c)
{
	const u32 *w = (const u32 *)c;
	u64 h = 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i < sizeof(*c) / sizeof(u32); i++)
		h = (h ^ w[i]) * 0xff51afd7ed558ccdull;
	return (u32)(h ^ h >> 32);
}

/* The index of @one in b->cls, added when new (-ENOMEM, -E2BIG). */
int hm_buckets__class(struct hm_buckets *b, const struct hm_counts *one, u32 cat)
{
	u32 h, mask;

	if (2 * (b->nr_cls + 1) > b->nr_cls_slots) {
		u32 n = b->nr_cls_slots ? 2 * b->nr_cls_slots : 64;
		u32 *ns = calloc(n, sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		for (u32 i = 0; i < b->nr_cls; i++) {
			for (h = class_hash(&b->cls[i].one) & (n - 1); ns[h]; h = (h + 1) & (n - 1))
				;
			ns[h] = i + 1;
		}
		free(b->cls_slot);
		b->cls_slot = ns;
		b->nr_cls_slots = n;
	}
	mask = b->nr_cls_slots - 1;
	for (h = class_hash(one) & mask; b->cls_slot[h]; h = (h + 1) & mask)
		if (!memcmp(&b->cls[b->cls_slot[h] - 1].one, one, sizeof(*one)))
			return (int)b->cls_slot[h] - 1;
	if (b->nr_cls >= BK_CLASS_MAX)
		return -E2BIG;
	if (b->nr_cls == b->alloc_cls) {
		u32 n = b->alloc_cls ? 2 * b->alloc_cls : 32;
		struct bk_class *p = realloc(b->cls, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		b->cls = p;
		b->alloc_cls = n;
	}
	b->cls[b->nr_cls].one = *one;
	b->cls[b->nr_cls].cat = cat;
	b->cls_slot[h] = b->nr_cls + 1;
	return (int)b->nr_cls++;
}

/*
 * The class of @ms (-ENOMEM, -E2BIG).  The report classifies a sample by
 * its data_src, whether it has a data address and whether it is mapped
 * (report.c's classify: perf's counters and hitmap's category depend on
 * nothing else), so a cache by those answers; the category and access
 * bits are checked all the same, as they cost nothing.
 */
static int class_of(struct hm_buckets *b, const struct hm_mem_sample *ms)
{
	u64 ds = ms->s->data_src;
	u32 flags = 1 | (ms->s->addr ? 2 : 0) | (ms->mapped ? 4 : 0) | (ms->perf ? 8 : 0);
	u32 slot = (u32)(((ds ^ flags) * 0x9e3779b97f4a7c15ull) >> 58);
	struct hm_counts one;
	const struct bk_class *k;
	int id;

	if (b->cls_cache[slot].flags == flags && b->cls_cache[slot].data_src == ds) {
		k = &b->cls[b->cls_cache[slot].id];
		if (k->cat == (u32)ms->cls.cat && k->one.loads == ms->cls.load && k->one.stores == ms->cls.store &&
		    k->one.locked == ms->cls.locked)
			return (int)b->cls_cache[slot].id;
	}
	memset(&one, 0, sizeof(one));
	hm_counts__add(&one, ms);
	id = hm_buckets__class(b, &one, ms->cls.cat);
	if (id >= 0) {
		b->cls_cache[slot].data_src = ds;
		b->cls_cache[slot].flags = flags;
		b->cls_cache[slot].id = (u32)id;
	}
	return id;
}

static u32 obj_hash(const char *name, s32 pid, u64 line)
{
	return (u32)hm_hash_u64(hm_hash_str(name) ^ line ^ (u64)(u32)pid << 32);
}

/*
 * The object (@name as it is stored, @pid, @line), added when new: by
 * hash, as a file can name thousands (every futex word sampled).
 */
struct obj *hm_buckets__obj(struct hm_buckets *b, const char *name, s32 pid, u64 line)
{
	char key[BK_OBJ_NAME];
	struct obj *o;
	u32 h, mask;

	snprintf(key, sizeof(key), "%s", name);
	if (2 * (b->nr_objs + 1) > b->nr_oslots) {
		u32 n = b->nr_oslots ? 2 * b->nr_oslots : 64;
		u32 *ns = calloc(n, sizeof(*ns));

		if (!ns)
			return NULL;
		for (u32 i = 0; i < b->nr_objs; i++) {
			o = &b->objs[i];
			for (h = obj_hash(o->name, o->pid, o->addr) & (n - 1); ns[h]; h = (h + 1) & (n - 1))
				;
			ns[h] = i + 1;
		}
		free(b->oslot);
		b->oslot = ns;
		b->nr_oslots = n;
	}
	mask = b->nr_oslots - 1;
	for (h = obj_hash(key, pid, line) & mask; b->oslot[h]; h = (h + 1) & mask) {
		o = &b->objs[b->oslot[h] - 1];
		if (o->pid == pid && o->addr == line && !strcmp(o->name, key))
			return o;
	}
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
	memcpy(o->name, key, sizeof(key));
	o->pid = pid;
	o->addr = line;
	b->oslot[h] = b->nr_objs;
	return o;
}

struct frow *hm_buckets__frow(struct hm_buckets *b, u8 kind, u8 field, u8 acc, const char *func)
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

static u8 access_kind(const struct hm_mem_sample *ms)
{
	if (ms->cls.locked)
		return ACC_ATOMIC;
	return ms->cls.store ? ACC_STORE : ACC_LOAD;
}

static struct wait *wait_slot(struct hm_buckets *b, u32 tid, bool insert);

/*
 * The function at @s's IP (fn, NULL: none) and its index in b->names (fid,
 * -1 until asked): the symbols' answer, cached while the maps stay the same.
 */
static struct bk_fn *ip_function(struct hm_buckets *b, const struct hm_report *r, const struct hm_sample *s)
{
	u64 gen = hm_maps__gen(hm_report__maps(r)) + 1;
	u8 cpumode = s->misc & 7;
	u32 slot = (u32)(((s->ip ^ (u64)s->pid << 40) * 0x9e3779b97f4a7c15ull) >> 54);
	struct bk_fn *c = &b->fn_cache[slot];
	struct hm_symbol_info info;

	if (c->gen == gen && c->ip == s->ip && c->pid == s->pid && c->cpumode == cpumode)
		return c;
	*c = (struct bk_fn){ .ip = s->ip, .gen = gen, .pid = s->pid, .cpumode = cpumode, .fid = -1,
			     .path = -1, .code = -1 };
	if (!hm_symbols__resolve(hm_report__symbols(r), hm_report__maps(r), s->pid, cpumode, s->ip, &info))
		c->fn = info.name;
	return c;
}

/*
 * Whether @c's function is on the futex path (hm_futex__path_function), and
 * futex code (futex_code): string compares against some sixty names, asked
 * once per cached code address, not once per kernel sample.
 */
static bool fn_path(struct bk_fn *c)
{
	if (c->path < 0)
		c->path = c->fn && hm_futex__path_function(c->fn);
	return c->path;
}

static bool fn_code(struct bk_fn *c)
{
	if (c->code < 0)
		c->code = futex_code(c->fn);
	return c->code;
}

/* lock:contention_begin, lock:contention_end, or another event: by name, once per event */
static int evsel_kind(struct hm_buckets *b, const struct hm_evsel *ev)
{
	u32 i = 0;
	int k = EV_OTHER;

	for (; i < 4 && b->ev_seen[i]; i++)
		if (b->ev_seen[i] == ev)
			return b->ev_kind[i];
	if (!ev->tp_event || !ev->name)
		return EV_OTHER;	/* not yet known (pipe mode: the format may come later) */
	if (!strcmp(ev->name, "lock:contention_begin"))
		k = EV_BEGIN;
	else if (!strcmp(ev->name, "lock:contention_end"))
		k = EV_END;
	if (i < 4) {
		b->ev_seen[i] = ev;
		b->ev_kind[i] = k;
	}
	return k;
}

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
	struct hm_futex_loc loc;
	const char *fn = NULL;
	s32 lock_off = hm_report__futex(r)->layout.offset[HM_FUTEX_FIELD_LOCK];
	struct wait *w;
	int cell;
	s32 fid;
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
	e = hm_buckets__get(b, loc.table - hm_report__futex(r)->tables, loc.index, loc.table->slots);
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
	else if (hm_report__symbols(r) && (fn = ip_function(b, r, s)->fn))
		fn = caller = hm_waits__intern(b->callers, fn);
	if (caller)
		hm_waits__begin(b->callers, caller);
	fid = intern(b, fn);
	if (fid < 0 || hm_buckets__func(b, e, HM_FUTEX_FIELD_LOCK, (u32)fid) < 0)
		return -ENOMEM;
	if (!(s->sample_type & PERF_SAMPLE_TIME) || !(s->sample_type & PERF_SAMPLE_TID) || !s->tid)
		return 0;
	w = wait_slot(b, s->tid, true);
	if (!w)
		return -ENOMEM;
	w->bucket = (u32)(e - b->b);
	w->cell = cell;
	w->time = s->time;
	w->lock = la;
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
 * The end names its lock: another lock's end is a contention nested in the
 * wait (an interrupt's, begun and ended while the thread spun) and leaves
 * the wait open.  Threads are never removed (a slot is reused by the next
 * begin), so memory grows with threads, not events.
 */
static void end_contention(struct hm_buckets *b, const struct hm_mem_sample *ms)
{
	const struct hm_sample *s = ms->s;
	struct wait *w;
	u64 la;

	if (!(s->sample_type & PERF_SAMPLE_TIME) || !(s->sample_type & PERF_SAMPLE_TID))
		return;
	w = wait_slot(b, s->tid, false);
	if (!w || w->bucket == UINT32_MAX)
		return;
	if (!hm_sample__tp_field(s, "lock_addr", &la) && la != w->lock)
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
	const char *fn = NULL;
	struct hm_futex_site site;
	char oname[BK_OBJ_NAME];
	bool in_futex, unknown_index = false;
	int sock = ms->cpu_socket, node = ms->data_node;
	s32 table = -1;
	u64 index = 0, w = ms->cls.load ? s->weight : 0;
	u8 kind = 2, field = HM_FUTEX_FIELD_PAD;
	struct bk_fn *fc = NULL;
	int cls;
	s32 fid;

	if (s && !s->addr && s->evsel) {
		int k = evsel_kind(b, s->evsel);

		if (k != EV_OTHER && b->q_n) {
			int err = hm_buckets__drain(b);	/* these read and make buckets in sample order */

			if (err < 0)
				return err;
		}
		if (k == EV_BEGIN)
			return add_contention(b, r, ms);
		if (k == EV_END) {
			end_contention(b, ms);
			return 0;
		}
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
	if (hm_report__symbols(r) && (in_futex || s->addr >= 0xffff800000000000ull)) {
		fc = ip_function(b, r, s);
		fn = fc->fn;
	}
	/*
	 * struct page/folio, per-CPU and __futex_data lines of the futex path, and
	 * whatever the file's metadata lays out (src/futex/names.c)
	 */
	if (!in_futex && ((fn && s->addr >= 0xffff800000000000ull && fn_path(fc)) ||
			  hm_futex_model__region(hm_report__futex(r), s->addr)) &&
	    hm_futex__name_addr(&r->futex, s->addr, fn, oname, sizeof(oname)) == 1) {
		site.where = HM_FUTEX_WHERE_MM;		/* listed with the other futex objects */
		site.name = oname;
		/* user memory is the sampled process's (a futex word); kernel memory no process's */
		site.pid = s->addr < 0xffff800000000000ull ? (s32)s->pid : -1;
		in_futex = true;
	}
	if (!in_futex) {
		/* a kernel line touched by futex code, in no known table: by address only */
		if (!fn || s->addr < 0xffff800000000000ull || !fn_code(fc))
			return 0;
		unknown_index = true;
	}
	b->futex_samples++;
	fid = fc && fc->fid >= 0 ? fc->fid : intern(b, fn);
	if (fid < 0)
		return fid;
	if (fc)
		fc->fid = fid;
	fn = b->names[fid];
	if (sock < 0 || (u32)sock >= b->nr_sockets)
		sock = -1;
	if (site.where == HM_FUTEX_WHERE_FPH_HEADER || site.where == HM_FUTEX_WHERE_MM) {
		struct obj *o = hm_buckets__obj(b, site.name, site.pid, ms->line);

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
	cls = class_of(b, ms);
	if (cls < 0)
		return cls;
	{
		struct bk_op op = { .index = index, .w = w, .table = table, .field = field, .fid = (u32)fid,
				    .dkey = bk_key__count((u32)(sock + 1), field, (u32)cls) };

		if (hm_buckets__dense_slot(b, table, index, table < 0 ? 0 : site.loc.table->slots, &op.ds) < 0 ||
		    hm_buckets__queue(b, &op) < 0)
			return -ENOMEM;
	}
	{
		struct frow *f = hm_buckets__frow(b, kind, field, access_kind(ms), fn);

		if (!f || hist_add(b, &f->h, (u32)(f - b->frows) + 1, (u32)cls) < 0)
			return -ENOMEM;
		f->cost += w;
	}
	if (sock >= 0) {
		int n = node >= 0 && (u32)node < b->nr_nodes ? node + 1 : 0;

		u32 cell = (u32)(sock * (b->nr_nodes + 1) + n);

		if (hist_add(b, &b->xh[cell], BK_RC_XFER | cell, (u32)cls) < 0)
			return -ENOMEM;
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

