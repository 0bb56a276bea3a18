// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex table geometry from the samples alone (include/hitmap/futex_infer.h
 * explains the rules; facts: shared/docs/notes/futex.md 2.1, 2.5, 2.6, 5.4).
 *
 * Observations are kept per distinct 64-byte line: the samples' code class,
 * the byte offsets touched, the process (or "several"), and node votes from
 * physical addresses; threads per process in a second small table.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/futex_infer.h>
#include <hitmap/log.h>
#include "util/htab.h"

#define LINE		64ull
#define MAX_VOTE_NODES	8
#define MIN_PRIVATE_LINES	12	/* fewer lines than this place no private hash */
#define MIN_GLOBAL_LINES	4
#define MB2		(2ull << 20)
#define MAX_ORDER_BYTES	(4ull << 20)	/* MAX_PAGE_ORDER 10 with 4 KiB pages */

struct obs {
	u64	line;
	s32	pid;		/* -2: several processes */
	u64	n;		/* samples */
	u64	bucket_n;	/* samples that are bucket evidence */
	u64	offs;		/* bit i: byte offset i touched */
	u32	code_mask;	/* bit per enum hm_futex_code */
	u32	votes[MAX_VOTE_NODES];
	s32	table;		/* placed: index in the model's tables, -1 */
};

struct proc {
	s32	pid;
	u32	threads;
};

struct hm_futex_infer {
	struct hm_futex_kernel	k;
	struct hm_futex_layout	layout;
	struct hm_futex_fph_layout fph;
	struct hm_futex_mm_layout mm;
	enum hm_futex_era	era;
	u32			nr_online, nr_nodes;
	u64			global_slots;	/* per table */
	u32			nr, alloc;
	struct obs		*o;
	struct hm_htab		by_line;	/* line -> index in o */
	struct hm_htab		thr;		/* tid -> pid */
	u64			samples;
};

static const char *const code_names[HM_FUTEX_CODE__MAX] = {
	"none", "futex_q_lock", "futex_q_unlock", "futex_hash", "__futex_hash", "futex_hash_put",
	"spin-lock(futex)", "fph-ref", "queue/wake", "spin-lock(any)",
};

const char *hm_futex_code__name(enum hm_futex_code c)
{
	return (unsigned)c < HM_FUTEX_CODE__MAX ? code_names[c] : "?";
}

enum hm_futex_code hm_futex_code__from_symbol(const char *name)
{
	static const struct { const char *n; enum hm_futex_code c; } t[] = {
		{ "futex_q_lock", HM_FUTEX_CODE_Q_LOCK },
		{ "futex_q_unlock", HM_FUTEX_CODE_Q_UNLOCK },
		{ "futex_hash", HM_FUTEX_CODE_HASH },
		{ "__futex_hash", HM_FUTEX_CODE_HASH_INNER },
		{ "__futex_hash_private", HM_FUTEX_CODE_HASH_INNER },
		{ "futex_hash_put", HM_FUTEX_CODE_HASH_PUT },
		{ "futex_private_hash_get", HM_FUTEX_CODE_REF },
		{ "futex_private_hash_put", HM_FUTEX_CODE_REF },
		{ "futex_ref_get", HM_FUTEX_CODE_REF },
		{ "futex_ref_put", HM_FUTEX_CODE_REF },
		{ "futex_private_hash", HM_FUTEX_CODE_REF },
		{ "futex_wake", HM_FUTEX_CODE_QUEUE },
		{ "__futex_queue", HM_FUTEX_CODE_QUEUE },
		{ "__futex_unqueue", HM_FUTEX_CODE_QUEUE },
		{ "futex_unqueue", HM_FUTEX_CODE_QUEUE },
		{ "futex_wait_queue", HM_FUTEX_CODE_QUEUE },
		{ "futex_hb_waiters_pending", HM_FUTEX_CODE_QUEUE },
		{ "futex_top_waiter", HM_FUTEX_CODE_QUEUE },
		{ "futex_requeue", HM_FUTEX_CODE_QUEUE },
		{ "futex_wake_op", HM_FUTEX_CODE_QUEUE },
		{ "_raw_spin_lock", HM_FUTEX_CODE_LOCK_ANY },
		{ "_raw_spin_unlock", HM_FUTEX_CODE_LOCK_ANY },
		{ "native_queued_spin_lock_slowpath", HM_FUTEX_CODE_LOCK_ANY },
		{ "__pv_queued_spin_lock_slowpath", HM_FUTEX_CODE_LOCK_ANY },
		{ "queued_spin_lock_slowpath", HM_FUTEX_CODE_LOCK_ANY },
	};
	size_t i, len;
	const char *dot;

	if (!name)
		return HM_FUTEX_CODE_NONE;
	/* compiler clones keep their function's class: futex_q_lock.constprop.0, .isra.0, .cold */
	dot = strchr(name, '.');
	len = dot ? (size_t)(dot - name) : strlen(name);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strlen(t[i].n) == len && !strncmp(name, t[i].n, len))
			return t[i].c;
	return HM_FUTEX_CODE_NONE;
}

struct hm_futex_infer *hm_futex_infer__new(const struct hm_futex_model *m, const struct hm_futex_kernel *k,
					   u32 nr_cpus, u32 nr_online, u32 nr_nodes)
{
	struct hm_futex_infer *inf;

	if (!m) {
		errno = EINVAL;
		return NULL;
	}
	inf = calloc(1, sizeof(*inf));
	if (!inf)
		return NULL;
	if (k) {
		inf->k = *k;
	} else {
		inf->k.era = m->era;
		inf->k.per_node = m->era != HM_FUTEX_ERA_PRE_6_16;
		inf->k.private_hash = m->era != HM_FUTEX_ERA_PRE_6_16;
	}
	inf->era = m->era;
	inf->layout = m->layout;
	inf->fph = m->fph;
	inf->mm = m->mm;
	inf->nr_online = nr_online ? nr_online : (nr_cpus ? nr_cpus : 1);
	inf->nr_nodes = nr_nodes ? nr_nodes : 1;
	inf->global_slots = hm_futex__global_slots(m->era, nr_cpus ? nr_cpus : inf->nr_online,
						   m->era == HM_FUTEX_ERA_PRE_6_16 ? 1 : inf->nr_nodes);
	return inf;
}

void hm_futex_infer__delete(struct hm_futex_infer *inf)
{
	if (!inf)
		return;
	free(inf->o);
	hm_htab__fini(&inf->by_line);
	hm_htab__fini(&inf->thr);
	free(inf);
}

static struct obs *obs_get(struct hm_futex_infer *inf, u64 line)
{
	struct obs *o;
	bool added;
	u64 *idx = hm_htab__insert(&inf->by_line, line, &added);

	if (!idx)
		return NULL;
	if (!added)
		return &inf->o[*idx];
	if (inf->nr == inf->alloc) {
		u32 n = inf->alloc ? 2 * inf->alloc : 256;
		struct obs *p = realloc(inf->o, n * sizeof(*p));

		if (!p) {
			hm_htab__del(&inf->by_line, line);
			return NULL;
		}
		inf->o = p;
		inf->alloc = n;
	}
	*idx = inf->nr;
	o = &inf->o[inf->nr++];
	memset(o, 0, sizeof(*o));
	o->line = line;
	o->pid = -1;
	o->table = -1;
	return o;
}

static int thread_note(struct hm_futex_infer *inf, s32 pid, u32 tid)
{
	bool added;
	u64 *v;

	if (!tid)
		return 0;
	v = hm_htab__insert(&inf->thr, tid, &added);
	if (!v)
		return -ENOMEM;
	if (added)
		*v = (u32)pid;
	return 0;
}

static u32 threads_of(const struct hm_futex_infer *inf, s32 pid)
{
	u32 n = 0;
	u64 v;

	for (u32 it = 0; hm_htab__next(&inf->thr, &it, NULL, &v);)
		if ((s32)(u32)v == pid)
			n++;
	return n;
}

static bool field_is(const struct hm_futex_layout *l, enum hm_futex_field f, u32 off)
{
	return l->offset[f] >= 0 && off >= (u32)l->offset[f] &&
	       off < (u32)l->offset[f] + (l->size[f] ? l->size[f] : 4);
}

/* Is an access by @code at byte @off of its line a bucket field? */
static bool bucket_evidence(const struct hm_futex_infer *inf, enum hm_futex_code code, u32 off)
{
	const struct hm_futex_layout *l = &inf->layout;

	switch (code) {
	case HM_FUTEX_CODE_Q_LOCK:
		return field_is(l, HM_FUTEX_FIELD_WAITERS, off) || field_is(l, HM_FUTEX_FIELD_LOCK, off);
	case HM_FUTEX_CODE_Q_UNLOCK:
		return field_is(l, HM_FUTEX_FIELD_WAITERS, off) || field_is(l, HM_FUTEX_FIELD_LOCK, off);
	case HM_FUTEX_CODE_HASH:
	case HM_FUTEX_CODE_HASH_PUT:
		return field_is(l, HM_FUTEX_FIELD_PRIV, off);
	case HM_FUTEX_CODE_SPIN:
		return field_is(l, HM_FUTEX_FIELD_LOCK, off);
	case HM_FUTEX_CODE_QUEUE:
		return field_is(l, HM_FUTEX_FIELD_WAITERS, off) || field_is(l, HM_FUTEX_FIELD_LOCK, off) ||
		       field_is(l, HM_FUTEX_FIELD_CHAIN, off);
	default:
		return false;
	}
}

void hm_futex_infer__prefetch(const struct hm_futex_infer *inf, u64 addr, int stage)
{
	u64 line = addr & ~(LINE - 1);
	const u64 *idx;

	if (!inf || !inf->by_line.slot || !line)
		return;
	if (stage == 0) {
		__builtin_prefetch(&inf->by_line.slot[(u32)hm_hash_u64(line) & inf->by_line.mask]);
		return;
	}
	idx = hm_htab__find(&inf->by_line, line);
	if (idx) {
		/* an observation spans two cache lines at most */
		__builtin_prefetch(&inf->o[*idx], 1);
		__builtin_prefetch((const char *)&inf->o[*idx + 1] - 1, 1);
	}
}

int hm_futex_infer__add(struct hm_futex_infer *inf, enum hm_futex_code code, u64 addr,
			s32 pid, u32 tid, s32 node, u64 count)
{
	struct obs *o;
	u32 off = (u32)(addr & (LINE - 1));

	if (!inf || code == HM_FUTEX_CODE_NONE || (unsigned)code >= HM_FUTEX_CODE__MAX || !addr)
		return 0;
	if (!count)
		count = 1;
	o = obs_get(inf, addr & ~(LINE - 1));
	if (!o)
		return -ENOMEM;
	inf->samples += count;
	if (o->pid == -1)
		o->pid = pid;
	else if (o->pid != pid)
		o->pid = -2;
	o->n += count;
	o->offs |= 1ull << off;
	o->code_mask |= 1u << code;
	if (inf->layout.bucket_size == LINE && bucket_evidence(inf, code, off))
		o->bucket_n += count;
	if (node >= 0 && node < MAX_VOTE_NODES)
		o->votes[node] += (u32)(count > UINT32_MAX ? UINT32_MAX : count);
	return thread_note(inf, pid, tid);
}

/* ------------------------------------------------------------ finishing */

static int cmp_line(const void *a, const void *b)
{
	const struct obs *x = *(const struct obs *const *)a, *y = *(const struct obs *const *)b;

	return x->line < y->line ? -1 : x->line > y->line;
}

/* Node with a clear majority (>= 90%) of @o[0..n)'s votes, -1 otherwise. */
static s32 majority_node(struct obs **o, u32 n)
{
	u64 v[MAX_VOTE_NODES] = { 0 }, tot = 0;
	u32 i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < MAX_VOTE_NODES; k++) {
			v[k] += o[i]->votes[k];
			tot += o[i]->votes[k];
		}
	for (k = 0; k < MAX_VOTE_NODES && tot; k++)
		if (v[k] * 10 >= tot * 9)
			return (s32)k;
	return -1;
}

static void provenance(char *buf, size_t size, u32 lines, u64 samples, const char *how)
{
	snprintf(buf, size, "inferred:%s,%u lines,%" PRIu64 " samples", how, lines, samples);
}

/*
 * Private hash of @pid: its bucket lines @L[0..n) (sorted).  Tries the
 * default size for the threads seen, then every size from 4 up to half the
 * global size (a larger private hash is not told apart from a global table)
 * and takes the smallest that holds >= 90% of the lines and whose lines span
 * at least half of it.  Returns the fph address (0: not placed) and *slots.
 */
static u64 place_private(const struct hm_futex_infer *inf, s32 pid, struct obs **L, u32 n, u64 *slots,
			 u32 *held)
{
	u64 pred = hm_futex__private_slots(inf->era, threads_of(inf, pid), inf->nr_online, inf->global_slots);
	u64 s, cand[40];
	u32 nc = 0, c, i;
	u64 q = inf->fph.queues ? inf->fph.queues : 64;

	if (n < MIN_PRIVATE_LINES)
		return 0;
	if (pred)
		cand[nc++] = pred;
	for (s = 4; s <= inf->global_slots / 2 && nc < 40; s <<= 1)
		if (s != pred)
			cand[nc++] = s;
	for (c = 0; c < nc; c++) {
		u64 sz = cand[c], align = 128 * sz, best_fph = 0;
		u32 best = 0, j;
		u64 lo = UINT64_MAX, hi = 0;

		/* the allocation holding most lines: group by aligned start */
		for (i = 0; i < n; i = j) {
			u64 fph = (L[i]->line - q) & ~(align - 1);
			u32 in = 0;

			for (j = i; j < n && ((L[j]->line - q) & ~(align - 1)) == fph; j++)
				if (L[j]->line >= fph + q && L[j]->line < fph + q + LINE * sz)
					in++;
			if (in > best) {
				best = in;
				best_fph = fph;
			}
		}
		if (!best || best * 10 < n * 9)
			continue;
		for (i = 0; i < n; i++)
			if (L[i]->line >= best_fph + q && L[i]->line < best_fph + q + LINE * sz) {
				lo = L[i]->line < lo ? L[i]->line : lo;
				hi = L[i]->line > hi ? L[i]->line : hi;
			}
		/* the lines must fill the table: a smaller one would not hold them */
		if ((hi - lo) / LINE + 1 < sz / 2 && !(c == 0 && pred && sz <= 16))
			continue;
		*slots = sz;
		*held = best;
		return best_fph;
	}
	return 0;
}

/* Alignment of a global table of @bytes (notes 1.1, 2.1): allocator by era and node count. */
static u64 global_align(const struct hm_futex_infer *inf, u64 bytes)
{
	bool vmalloc = bytes > MAX_ORDER_BYTES ||
		       (inf->era == HM_FUTEX_ERA_PRE_6_16 && inf->nr_nodes > 1);	/* hashdist */

	if (!vmalloc)
		return bytes;		/* alloc_pages_exact[_nid]: the order's natural alignment */
	return bytes >= MB2 ? MB2 : 4096;	/* vmalloc_huge: PMD-aligned; else a page */
}

static int add_private(struct hm_futex_infer *inf, struct hm_futex_model *m, s32 pid, struct obs **L,
		       u32 n, struct hm_futex_infer_result *res)
{
	u64 slots = 0, fph, q = inf->fph.queues ? inf->fph.queues : 64, samples = 0;
	struct hm_futex_table t;
	u32 held = 0, i;
	int err, ti;

	fph = place_private(inf, pid, L, n, &slots, &held);
	if (!fph)
		return 0;	/* its lines may be global ones: the next step sees them */
	memset(&t, 0, sizeof(t));
	t.kind = 1;
	t.node = -1;
	t.pid = pid;
	t.base = fph + q;
	t.slots = slots;
	for (i = 0; i < n; i++)
		if (L[i]->line >= t.base && L[i]->line < t.base + LINE * slots)
			samples += L[i]->n;
	provenance(t.provenance, sizeof(t.provenance), held, samples, "fph");
	err = hm_futex_model__add_table(m, &t);
	if (err < 0)
		return err;
	ti = (int)m->nr_tables - 1;
	for (i = 0; i < n; i++)
		if (L[i]->line >= t.base && L[i]->line < t.base + LINE * slots)
			L[i]->table = ti;
	res->tables++;
	return 0;
}

/* A cluster of global lines @L[0..n) (sorted, unplaced): the one aligned base that holds all. */
static int add_global(struct hm_futex_infer *inf, struct hm_futex_model *m, struct obs **L, u32 n,
		      struct hm_futex_infer_result *res)
{
	u64 bytes = inf->global_slots * LINE, align = global_align(inf, bytes), lo = L[0]->line,
	    hi = L[n - 1]->line, first, last, samples = 0;
	struct hm_futex_table t;
	u32 i;
	int err, ti;

	if (n < MIN_GLOBAL_LINES || hi - lo >= bytes || (hi - lo + LINE) * 4 < bytes) {
		res->unplaced++;
		return 0;
	}
	/* bases b with b <= lo and hi < b + bytes, aligned */
	first = hi + LINE > bytes ? hi + LINE - bytes : 0;
	first = (first + align - 1) & ~(align - 1);
	last = lo & ~(align - 1);
	if (first > last || last - first >= align) {
		res->unplaced++;	/* none, or more than one: the base is not determined */
		return 0;
	}
	memset(&t, 0, sizeof(t));
	t.kind = 0;
	t.pid = -1;
	t.base = first;
	t.slots = inf->global_slots;
	/* before 6.16 the one table is queues "0" (its pages may be spread over the nodes) */
	t.node = inf->era == HM_FUTEX_ERA_PRE_6_16 ? 0 : majority_node(L, n);
	if (inf->era != HM_FUTEX_ERA_PRE_6_16 && t.node < 0 && inf->nr_nodes == 1)
		t.node = 0;
	for (i = 0; i < n; i++)
		samples += L[i]->n;
	provenance(t.provenance, sizeof(t.provenance), n, samples, "align");
	err = hm_futex_model__add_table(m, &t);
	if (err < 0)
		return err;
	ti = (int)m->nr_tables - 1;
	for (i = 0; i < n; i++)
		L[i]->table = ti;
	res->tables++;
	return 0;
}

/* mm_structs: __futex_hash reads mm->futex_phash, futex_ref_get/put mm->futex_ref. */
static int place_mms(struct hm_futex_infer *inf, struct hm_futex_model *m, struct hm_futex_infer_result *res)
{
	s32 ph = inf->mm.offset[HM_FUTEX_MM_futex_phash], rf = inf->mm.offset[HM_FUTEX_MM_futex_ref];
	u32 i;
	int err;

	for (i = 0; i < inf->nr; i++) {
		const struct obs *o = &inf->o[i];
		u64 mm = 0;

		if (o->pid < 0 || o->bucket_n || o->table >= 0)
			continue;
		if (ph >= 0 && (o->code_mask & (1u << HM_FUTEX_CODE_HASH_INNER)) &&
		    (o->offs & (1ull << (ph & 63))) && o->line >= (u64)(ph & ~63))
			mm = o->line - (ph & ~63);
		else if (rf >= 0 && (o->code_mask & (1u << HM_FUTEX_CODE_REF)) &&
			 (o->offs & (1ull << (rf & 63))) && o->line >= (u64)(rf & ~63))
			mm = o->line - (rf & ~63);
		if (!mm)
			continue;
		/* the private hash header lies on a 2 KiB boundary; an mm line there is the fph */
		{
			bool is_fph = false;

			for (u32 t = 0; t < m->nr_tables; t++)
				if (m->tables[t].kind == 1 && m->tables[t].base - (inf->fph.queues ? inf->fph.queues : 64) == o->line)
					is_fph = true;
			if (is_fph)
				continue;
		}
		err = hm_futex_model__add_mm(m, o->pid, mm);
		if (err < 0)
			return err;
		res->mms++;
	}
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct obs *x = *(const struct obs *const *)a, *y = *(const struct obs *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int hm_futex_infer__finish(struct hm_futex_infer *inf, struct hm_futex_model *m,
			   struct hm_futex_infer_result *res)
{
	struct obs **L = NULL;
	u32 nb = 0, i, j;
	int err = 0;

	memset(res, 0, sizeof(*res));
	if (!inf || !m)
		return -EINVAL;
	res->samples = inf->samples;
	res->lines = inf->nr;
	for (i = 0; i < inf->nr; i++)
		if (inf->o[i].bucket_n)
			nb++;
	res->bucket_lines = nb;
	if (inf->layout.bucket_size != LINE) {
		snprintf(res->why, sizeof(res->why),
			 "buckets of %u bytes (spinlock debugging): no inference; pass --futex-table",
			 inf->layout.bucket_size);
		return 0;
	}
	if (!nb) {
		if (!inf->samples)
			snprintf(res->why, sizeof(res->why), "no sample has an IP in futex code");
		else
			snprintf(res->why, sizeof(res->why),
				 "%" PRIu64 " futex-code samples, none on a bucket field; pass --futex-table", inf->samples);
		return 0;
	}
	L = malloc(nb * sizeof(*L));
	if (!L)
		return -ENOMEM;
	for (i = 0, j = 0; i < inf->nr; i++)
		if (inf->o[i].bucket_n)
			L[j++] = &inf->o[i];
	/* 1. private hashes, one process at a time (lines of several processes are global) */
	if (inf->k.private_hash && inf->era != HM_FUTEX_ERA_PRE_6_16) {
		qsort(L, nb, sizeof(*L), cmp_pid);
		for (i = 0; i < nb; i = j) {
			for (j = i; j < nb && L[j]->pid == L[i]->pid; j++)
				;
			if (L[i]->pid < 0)
				continue;
			err = add_private(inf, m, L[i]->pid, L + i, j - i, res);
			if (err < 0)
				goto out;
		}
	}
	/* 2. global tables: the rest, in clusters no longer than a table */
	qsort(L, nb, sizeof(*L), cmp_line);
	{
		u64 bytes = inf->global_slots * LINE, align = global_align(inf, bytes);
		u32 k = 0;

		for (i = 0; i < nb; i++)
			if (L[i]->table < 0)
				L[k++] = L[i];
		u64 prev_blk = 0;
		s32 prev_node = -2;

		for (i = 0; i < k; i = j) {
			if (align == bytes) {
				u64 blk = L[i]->line & ~(bytes - 1), next_blk = 0;
				s32 node;
				u32 e;

				for (j = i; j < k && (L[j]->line & ~(bytes - 1)) == blk; j++)
					;
				/*
				 * Two neighbouring blocks on the same node: more likely one
				 * table larger than the CPU count gives (possible CPUs the
				 * header does not show) than two tables.  Both stay unknown.
				 */
				node = majority_node(L + i, j - i);
				for (e = j; e < k && (L[e]->line & ~(bytes - 1)) == (L[j]->line & ~(bytes - 1)); e++)
					;
				if (j < k)
					next_blk = L[j]->line & ~(bytes - 1);
				if ((prev_node == node && prev_blk + bytes == blk) ||
				    (next_blk == blk + bytes && majority_node(L + j, e - j) == node)) {
					prev_blk = blk;
					prev_node = node;
					res->unplaced++;
					continue;
				}
				prev_blk = blk;
				prev_node = node;
			} else {
				for (j = i; j < k && L[j]->line - L[i]->line < bytes; j++)
					;
			}
			err = add_global(inf, m, L + i, j - i, res);
			if (err < 0)
				goto out;
		}
	}
	err = place_mms(inf, m, res);
	if (err < 0)
		goto out;
	if (!res->tables)
		snprintf(res->why, sizeof(res->why),
			 "%" PRIu64 " bucket lines from futex code, too few or too scattered to place a table; "
			 "pass --futex-table global:NODE:ADDR:SLOTS or private:PID:ADDR:SLOTS (hitmap hash --probe)",
			 res->bucket_lines);
	err = 0;
out:
	free(L);
	return err < 0 ? err : (int)res->tables;
}

int hm_futex_infer__merge(struct hm_futex_infer *dst, const struct hm_futex_infer *src)
{
	u64 tid, pid;

	for (u32 i = 0; i < src->nr; i++) {
		const struct obs *b = &src->o[i];
		struct obs *a = obs_get(dst, b->line);

		if (!a)
			return -ENOMEM;
		if (a->pid == -1)
			a->pid = b->pid;
		else if (b->pid != -1 && a->pid != b->pid)
			a->pid = -2;
		a->n += b->n;
		a->bucket_n += b->bucket_n;
		a->offs |= b->offs;
		a->code_mask |= b->code_mask;
		for (int k = 0; k < MAX_VOTE_NODES; k++)
			a->votes[k] += b->votes[k];
	}
	/* each thread's first process: @dst's samples come first */
	for (u32 it = 0; hm_htab__next(&src->thr, &it, &tid, &pid);) {
		bool added;
		u64 *v = hm_htab__insert(&dst->thr, tid, &added);

		if (!v)
			return -ENOMEM;
		if (added)
			*v = pid;
	}
	dst->samples += src->samples;
	return 0;
}
