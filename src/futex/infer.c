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
#include <stddef.h>
#include <string.h>
#include <hitmap/futex_infer.h>
#include <hitmap/log.h>
#include "util/bigalloc.h"
#include "util/htab.h"
#include "util/prefetch.h"

#define LINE		64ull
#define MAX_VOTE_NODES	8
#define MIN_PRIVATE_LINES	12	/* fewer lines than this place no private hash */
#define MIN_GLOBAL_LINES	4
#define MB2		(2ull << 20)
#define MAX_ORDER_BYTES	(4ull << 20)	/* MAX_PAGE_ORDER 10 with 4 KiB pages */

/* One line's observations, as the placing below reads them (built at finish). */
struct obs {
	u64	line;
	s32	pid;		/* -2: several processes */
	u64	n;		/* samples */
	bool	bucket;		/* some sample is bucket evidence */
	u64	offs;		/* bit i: byte offset i touched */
	u32	code_mask;	/* bit per enum hm_futex_code */
	u32	votes[MAX_VOTE_NODES];
	s32	table;		/* placed: index in the model's tables, -1 */
};

/*
 * The same while samples arrive: one slot per line in a flat open-addressing
 * table (linear probing, at most half full), so that a sample costs one
 * hash and, mostly, one cache line, which the caller can prefetch
 * (hm_futex_infer__prefetch).  A slot is 32 bytes (votes of nodes 0-2) or,
 * on machines of more nodes, 64 (nodes 0-7); a vote for a node past the
 * slot's goes to a side table (exact, and rare: node ids follow the count).
 * Only what the placing reads is kept: of the offsets touched, the two an
 * mm_struct is recognised by; the sample count saturates at 2^32 - 1.
 * Key: the line | 1 (0: a free slot).
 */
struct slot {
	u64	key;
	u32	n;
	s32	pid;
	u16	code_mask;
	u8	bucket;
	u8	mm_offs;	/* bit 0: mm->futex_phash's offset touched, bit 1: mm->futex_ref's */
	u32	votes[];	/* (stride - 20) / 4 of them */
};

#define SLOT_HDR	20u
_Static_assert(offsetof(struct slot, votes) == SLOT_HDR, "votes follow the 20-byte header");
_Static_assert(HM_FUTEX_CODE__MAX <= 16, "code_mask is 16 bits");

#define TID_SEEN	256	/* threads already noted: a direct-mapped cache */

struct hm_futex_infer {
	struct hm_futex_kernel	k;
	struct hm_futex_layout	layout;
	struct hm_futex_fph_layout fph;
	struct hm_futex_mm_layout mm;
	enum hm_futex_era	era;
	u32			nr_online, nr_nodes;
	u64			global_slots;	/* per table */
	u8			*tab;		/* cap slots of stride bytes, cap a power of two */
	u32			cap, nr;	/* nr: distinct lines */
	u32			stride, nr_votes;	/* slot bytes, votes in a slot */
	u32			ph_off, rf_off;	/* mm->futex_phash, mm->futex_ref in their line (64: none) */
	struct hm_htab		votes_more;	/* line | node -> votes, nodes past the slot's */
	u64			*order;		/* keys in the order first seen (nr of them) */
	u32			order_alloc;
	u64			bucket_offs[HM_FUTEX_CODE__MAX];	/* bit i: offset i is bucket evidence */
	u32			tid_seen[TID_SEEN];
	struct obs		*o;		/* nr lines by address: at finish (hm_big__alloc) */
	size_t			o_bytes;
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

static bool field_is(const struct hm_futex_layout *l, enum hm_futex_field f, u32 off)
{
	return l->offset[f] >= 0 && off >= (u32)l->offset[f] &&
	       off < (u32)l->offset[f] + (l->size[f] ? l->size[f] : 4);
}

/* Is an access by @code at byte @off of its line a bucket field? */
static bool bucket_evidence(const struct hm_futex_layout *l, enum hm_futex_code code, u32 off)
{
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
	inf->stride = inf->nr_nodes <= 3 ? 32 : 64;
	inf->nr_votes = (inf->stride - SLOT_HDR) / 4;
	if (inf->nr_votes > MAX_VOTE_NODES)
		inf->nr_votes = MAX_VOTE_NODES;
	inf->ph_off = m->mm.offset[HM_FUTEX_MM_futex_phash] >= 0 ? (u32)m->mm.offset[HM_FUTEX_MM_futex_phash] & 63 : 64;
	inf->rf_off = m->mm.offset[HM_FUTEX_MM_futex_ref] >= 0 ? (u32)m->mm.offset[HM_FUTEX_MM_futex_ref] & 63 : 64;
	/* bucket evidence needs a bucket per line: with larger buckets nothing is */
	for (u32 c = 0; c < HM_FUTEX_CODE__MAX && inf->layout.bucket_size == LINE; c++)
		for (u32 off = 0; off < LINE; off++)
			if (bucket_evidence(&inf->layout, (enum hm_futex_code)c, off))
				inf->bucket_offs[c] |= 1ull << off;
	return inf;
}

void hm_futex_infer__delete(struct hm_futex_infer *inf)
{
	if (!inf)
		return;
	hm_big__free(inf->tab, (size_t)inf->cap * inf->stride);
	free(inf->order);
	hm_htab__fini(&inf->votes_more);
	hm_big__free(inf->o, inf->o_bytes);
	hm_htab__fini(&inf->thr);
	free(inf);
}

/* Fibonacci hashing of the line number: neighbouring lines spread over the table. */
static inline u32 slot_of(const struct hm_futex_infer *inf, u64 key)
{
	return (u32)(((key >> 6) * 0x9e3779b97f4a7c15ull) >> 32) & (inf->cap - 1);
}

static inline struct slot *slot_at(const struct hm_futex_infer *inf, u32 i)
{
	return (struct slot *)(inf->tab + (size_t)i * inf->stride);
}

/*
 * Twice the slots (at most half full after); 0 or -ENOMEM.  The slots are
 * touched at random, one sample at a time: hm_big__alloc maps them on
 * huge pages from 2 MiB on, else nearly every sample is a TLB miss (in a
 * VM, a two-dimensional page walk).
 */
static int tab_grow(struct hm_futex_infer *inf)
{
	u32 cap = inf->cap ? 2 * inf->cap : 1024, old = inf->cap, i, j;
	size_t bytes = (size_t)cap * inf->stride;
	u8 *t, *ot = inf->tab;

	if (cap < old)
		return -ENOMEM;
	t = hm_big__alloc_now(bytes);	/* at most half full, at random */
	if (!t)
		return -ENOMEM;
	inf->tab = t;
	inf->cap = cap;
	for (i = 0; i < old; i++) {
		const struct slot *o = (const struct slot *)(ot + (size_t)i * inf->stride);

		if (!o->key)
			continue;
		for (j = slot_of(inf, o->key); slot_at(inf, j)->key; j = (j + 1) & (cap - 1))
			;
		memcpy(slot_at(inf, j), o, inf->stride);
	}
	hm_big__free(ot, (size_t)old * inf->stride);
	return 0;
}

/* The slot of @line, made when new (NULL: no memory). */
static struct slot *slot_get(struct hm_futex_infer *inf, u64 line)
{
	u64 key = line | 1;
	struct slot *s;
	u32 i;

	if (2 * ((u64)inf->nr + 1) > inf->cap && tab_grow(inf) < 0)
		return NULL;
	for (i = slot_of(inf, key);; i = (i + 1) & (inf->cap - 1)) {
		s = slot_at(inf, i);
		if (s->key == key)
			return s;
		if (!s->key)
			break;
	}
	if (inf->nr == inf->order_alloc) {
		u32 n = inf->order_alloc ? 2 * inf->order_alloc : 256;
		u64 *p = realloc(inf->order, n * sizeof(*p));

		if (!p)
			return NULL;
		inf->order = p;
		inf->order_alloc = n;
	}
	inf->order[inf->nr++] = key;
	s->key = key;
	s->pid = -1;
	return s;
}

static int thread_note(struct hm_futex_infer *inf, s32 pid, u32 tid)
{
	u32 *seen = &inf->tid_seen[(tid * 0x9e3779b1u) >> 24];
	bool added;
	u64 *v;

	if (!tid || *seen == tid)
		return 0;
	v = hm_htab__insert(&inf->thr, tid, &added);
	if (!v)
		return -ENOMEM;
	if (added)
		*v = (u32)pid;
	*seen = tid;
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

void hm_futex_infer__prefetch(const struct hm_futex_infer *inf, u64 addr, int stage)
{
	if (!inf || !inf->cap || stage)
		return;
	hm_prefetch_w(slot_at(inf, slot_of(inf, (addr & ~(LINE - 1)) | 1)));
}

int hm_futex_infer__add(struct hm_futex_infer *inf, enum hm_futex_code code, u64 addr,
			s32 pid, u32 tid, s32 node, u64 count)
{
	struct slot *o;
	u32 off = (u32)(addr & (LINE - 1)), c;

	if (!inf || code == HM_FUTEX_CODE_NONE || (unsigned)code >= HM_FUTEX_CODE__MAX || !addr)
		return 0;
	if (!count)
		count = 1;
	o = slot_get(inf, addr & ~(LINE - 1));
	if (!o)
		return -ENOMEM;
	inf->samples += count;
	if (o->pid == -1)
		o->pid = pid;
	else if (o->pid != pid)
		o->pid = -2;
	o->n = count >= UINT32_MAX - o->n ? UINT32_MAX : o->n + (u32)count;
	o->mm_offs |= (u8)((off == inf->ph_off) | (off == inf->rf_off) << 1);
	o->code_mask |= (u16)(1u << code);
	o->bucket |= (inf->bucket_offs[code] >> off) & 1;
	c = (u32)(count > UINT32_MAX ? UINT32_MAX : count);
	if (node >= 0 && (u32)node < inf->nr_votes) {
		o->votes[node] += c;
	} else if (node >= 0 && node < MAX_VOTE_NODES) {
		u64 *v = hm_htab__insert(&inf->votes_more, (addr & ~(LINE - 1)) | (u64)node, NULL);

		if (!v)
			return -ENOMEM;
		*v += c;
	}
	return thread_note(inf, pid, tid);
}

/*
 * Sort @a[0..n) by key (LSD radix, a byte at a time; bytes all keys share
 * are skipped).  0 or -ENOMEM.
 */
struct kv {
	u64	k, v;
};

static int sort_kv(struct kv *a, u32 n)
{
	struct kv *t, *src = a, *dst;
	u32 cnt[256], i, b;

	if (n < 2)
		return 0;
	t = malloc((size_t)n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	dst = t;
	for (b = 0; b < 64; b += 8) {
		u32 sum = 0;

		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(src[i].k >> b) & 255]++;
		if (cnt[(src[0].k >> b) & 255] == n)
			continue;
		for (i = 0; i < 256; i++) {
			u32 c = cnt[i];

			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[(src[i].k >> b) & 255]++] = src[i];
		dst = src;
		src = src == a ? t : a;
	}
	if (src != a)
		memcpy(a, src, (size_t)n * sizeof(*a));
	free(t);
	return 0;
}

/* inf->o: the lines by address, with their observations; 0 or -ENOMEM. */
static int obs_build(struct hm_futex_infer *inf)
{
	struct kv *by_line;
	u32 k, i;
	int err;

	/*
	 * Fresh memory of some MB (80 bytes a line): on huge pages, as a 4 KiB
	 * page's first touch costs 10 us in a VM (bigalloc.h)
	 */
	hm_big__free(inf->o, inf->o_bytes);
	inf->o_bytes = (inf->nr ? inf->nr : 1) * sizeof(*inf->o);
	inf->o = hm_big__alloc(inf->o_bytes);
	by_line = malloc((inf->nr ? inf->nr : 1) * sizeof(*by_line));
	if (!inf->o || !by_line) {
		free(by_line);
		return -ENOMEM;
	}
	for (i = 0, k = 0; i < inf->cap; i++)
		if (slot_at(inf, i)->key)
			by_line[k++] = (struct kv){ slot_at(inf, i)->key, i };
	err = sort_kv(by_line, k);
	if (err < 0) {
		free(by_line);
		return err;
	}
	for (k = 0; k < inf->nr; k++) {
		const struct slot *s = slot_at(inf, (u32)by_line[k].v);
		struct obs *o = &inf->o[k];

		o->line = s->key & ~(LINE - 1);
		o->pid = s->pid;
		o->n = s->n;
		o->bucket = s->bucket;
		o->offs = (s->mm_offs & 1 ? 1ull << inf->ph_off : 0) | (s->mm_offs & 2 ? 1ull << inf->rf_off : 0);
		o->code_mask = s->code_mask;
		memcpy(o->votes, s->votes, inf->nr_votes * sizeof(u32));
		for (u32 v = inf->nr_votes; v < MAX_VOTE_NODES && hm_htab__nr(&inf->votes_more); v++) {
			const u64 *x = hm_htab__find(&inf->votes_more, o->line | v);

			o->votes[v] = x ? (u32)*x : 0;
		}
		o->table = -1;
	}
	free(by_line);
	return 0;
}

/*
 * The lines of @inf->o in the order first seen: @idx[0..n) (indexes in o)
 * sorted so.  0 or -ENOMEM.
 */
static int first_seen_order(const struct hm_futex_infer *inf, u32 *idx, u32 n)
{
	struct hm_htab at = HM_HTAB_INIT;
	struct kv *r;
	u32 i;
	int err = -ENOMEM;

	if (n < 2)
		return 0;
	r = malloc((size_t)n * sizeof(*r));
	if (!r || hm_htab__reserve(&at, n) < 0)
		goto out;
	for (i = 0; i < n; i++)
		*hm_htab__insert(&at, inf->o[idx[i]].line | 1, NULL) = i;
	for (i = 0; i < inf->nr; i++) {
		const u64 *c = hm_htab__find(&at, inf->order[i]);

		if (c)
			r[*c] = (struct kv){ i, idx[*c] };
	}
	err = sort_kv(r, n);
	for (i = 0; !err && i < n; i++)
		idx[i] = (u32)r[i].v;
out:
	free(r);
	hm_htab__fini(&at);
	return err;
}

/* ------------------------------------------------------------ finishing */

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

/*
 * mm_structs: __futex_hash reads mm->futex_phash, futex_ref_get/put
 * mm->futex_ref.  Registered in the order their lines were first seen.
 */
static int place_mms(struct hm_futex_infer *inf, struct hm_futex_model *m, struct hm_futex_infer_result *res)
{
	s32 ph = inf->mm.offset[HM_FUTEX_MM_futex_phash], rf = inf->mm.offset[HM_FUTEX_MM_futex_ref];
	u32 i, n = 0, *idx;
	u64 *mms;
	int err = 0;

	idx = malloc((inf->nr ? inf->nr : 1) * sizeof(*idx));
	mms = malloc((inf->nr ? inf->nr : 1) * sizeof(*mms));
	if (!idx || !mms) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < inf->nr; i++) {
		const struct obs *o = &inf->o[i];
		u64 mm = 0;

		if (o->pid < 0 || o->bucket || o->table >= 0)
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
		mms[i] = mm;
		idx[n++] = i;
	}
	err = first_seen_order(inf, idx, n);
	for (i = 0; !err && i < n; i++) {
		err = hm_futex_model__add_mm(m, inf->o[idx[i]].pid, mms[idx[i]]);
		if (!err)
			res->mms++;
	}
out:
	free(idx);
	free(mms);
	return err;
}

int hm_futex_infer__finish(struct hm_futex_infer *inf, struct hm_futex_model *m,
			   struct hm_futex_infer_result *res)
{
	struct obs **L = NULL, **P = NULL;
	struct kv *by_pid = NULL;
	u32 nb = 0, i, j;
	int err = 0;

	memset(res, 0, sizeof(*res));
	if (!inf || !m)
		return -EINVAL;
	err = obs_build(inf);
	if (err < 0)
		return err;
	res->samples = inf->samples;
	res->lines = inf->nr;
	for (i = 0; i < inf->nr; i++)
		if (inf->o[i].bucket)
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
	/* the bucket lines by address (as inf->o): L, and by process, then address: P */
	L = malloc(nb * sizeof(*L));
	P = malloc(nb * sizeof(*P));
	by_pid = malloc(nb * sizeof(*by_pid));
	if (!L || !P || !by_pid) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0, j = 0; i < inf->nr; i++)
		if (inf->o[i].bucket) {
			by_pid[j] = (struct kv){ (u64)((u32)inf->o[i].pid ^ 0x80000000u) << 32 | j, 0 };
			L[j++] = &inf->o[i];
		}
	/* 1. private hashes, one process at a time (lines of several processes are global) */
	if (inf->k.private_hash && inf->era != HM_FUTEX_ERA_PRE_6_16) {
		err = sort_kv(by_pid, nb);
		if (err < 0)
			goto out;
		for (i = 0; i < nb; i++)
			P[i] = L[(u32)by_pid[i].k];
		for (i = 0; i < nb; i = j) {
			for (j = i; j < nb && P[j]->pid == P[i]->pid; j++)
				;
			if (P[i]->pid < 0)
				continue;
			err = add_private(inf, m, P[i]->pid, P + i, j - i, res);
			if (err < 0)
				goto out;
		}
	}
	/* 2. global tables: the rest, in clusters no longer than a table */
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
	free(P);
	free(by_pid);
	return err < 0 ? err : (int)res->tables;
}

int hm_futex_infer__merge(struct hm_futex_infer *dst, const struct hm_futex_infer *src)
{
	u64 tid, pid;

	/* in the order @src first saw its lines: @dst's come first */
	for (u32 i = 0; i < src->nr; i++) {
		u64 key = src->order[i];
		const struct slot *b = NULL;
		struct slot *a;

		for (u32 j = slot_of(src, key);; j = (j + 1) & (src->cap - 1)) {
			b = slot_at(src, j);
			if (b->key == key)
				break;
		}
		a = slot_get(dst, key & ~(u64)1);
		if (!a)
			return -ENOMEM;
		if (a->pid == -1)
			a->pid = b->pid;
		else if (b->pid != -1 && a->pid != b->pid)
			a->pid = -2;
		a->n = b->n >= UINT32_MAX - a->n ? UINT32_MAX : a->n + b->n;
		a->mm_offs |= b->mm_offs;
		a->code_mask |= b->code_mask;
		a->bucket |= b->bucket;
		for (u32 k = 0; k < dst->nr_votes; k++)
			a->votes[k] += b->votes[k];
	}
	for (u32 it = 0; hm_htab__next(&src->votes_more, &it, &tid, &pid);) {
		u64 *v = hm_htab__insert(&dst->votes_more, tid, NULL);

		if (!v)
			return -ENOMEM;
		*v += pid;
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
