/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_BUCKETS_INT_H
#define HITMAP_REPORT_BUCKETS_INT_H

/*
 * The futex views' aggregation inside (buckets.c fills it, buckets-store.c
 * keeps its buckets, buckets-merge.c merges the parts of --threads,
 * buckets-render.c renders it); its readers elsewhere see buckets.h.
 */
#include "buckets.h"
#include "waits.h"
#include "util/bigalloc.h"

#define HASH_BITS	16

struct wait {			/* open addressing by tid; tid 0 is free */
	u32		tid;
	u32		bucket;		/* index in b->b */
	s32		cell;		/* index in b->cont */
	u64		time;
	u64		lock;		/* the bucket lock it waits on (contention_end names it too) */
	const char	*caller;	/* interned in b->callers, or NULL */
};

struct bk_slot {
	u64		index;
	s32		table;
	u32		idx;		/* index + 1 in b, 0 empty */
};

/*
 * A bucket's counts, compact: a sample adds one to the entry of its
 * (socket, field, classification) and one to its function's entry of the
 * field.  A bucket has a few entries however many samples it has, where
 * struct hm_counts rows per socket and field cost kilobytes per bucket and
 * a cache miss per row and sample; hm_buckets__row() makes the rows.
 *
 *   count     key: socket + 1 (0: unknown) | field << 7 | class << 10, the
 *             class an index in b->cls (one per distinct classification of
 *             the file's samples); n: samples
 *   function  key: BK_FUNC | field << 24 | name index, or BK_FUNC_OTHER for
 *             the field's functions past its first MAX_FUNCS; n: samples.
 *             Entries never move: a field's first MAX_FUNCS functions are
 *             the first function entries of the field.
 */
struct bk_ent { u32 key, n; };

#define BK_FUNC		0x80000000u
#define BK_FUNC_OTHER	0xffffffu
#define BK_CLASS_MAX	(1u << 21)

/* The keys above, made and read in one place. */
static inline u32 bk_key__count(u32 sock1, u32 field, u32 cls)
{
	return sock1 | field << 7 | cls << 10;
}
static inline u32 bk_key__func(u32 field, u32 fid)
{
	return BK_FUNC | field << 24 | fid;
}
static inline u32 bk_key__field(u32 key)
{
	return key >> (key & BK_FUNC ? 24 : 7) & 7;
}
/* A count key's class, its socket + 1, and the key with another class. */
static inline u32 bk_key__class(u32 key)
{
	return key >> 10;
}
static inline u32 bk_key__sock1(u32 key)
{
	return key & 127;
}
static inline u32 bk_key__with_class(u32 key, u32 cls)
{
	return (key & 0x3ff) | cls << 10;
}

struct bk {
	u64		index;		/* bucket index, or line address when table -1 */
	s32		table;		/* index in the model, -1: index unknown */
	u32		nr;		/* entries; room for the next power of two, 4 at least */
	struct bk_ent	*ent;
	u64		cost;
	u64		contended;	/* lock:contention_begin on this bucket's lock */
	u64		wait_ns;	/* contention_begin -> contention_end, summed */
	u64		wait_max_ns, waits;	/* the longest, and ended waits */
};

/* One sample of a classification: what it adds to a row, and its category. */
struct bk_class {
	struct hm_counts one;
	u32		cat;
};

/* @n samples of class @k into @c; perf's counters with @perf. */
static inline void bk_class__add(const struct bk_class *k, struct hm_counts *c, u32 n, bool perf)
{
	c->samples += n;
	c->loads += n * k->one.loads;
	c->stores += n * k->one.stores;
	c->locked += n * k->one.locked;
	c->cat[k->cat] += n;
	if (perf) {
		u32 *d = (u32 *)&c->perf;
		const u32 *s = (const u32 *)&k->one.perf;

		for (size_t i = 0; i < sizeof(c->perf) / sizeof(u32); i++)
			d[i] += n * s[i];
	}
}

/*
 * Samples of a field row (frow) or a socket x node cell by class, for
 * classes past BK_HIST_MAX (their struct bk_hist holds the others), summed
 * into their struct hm_counts by hm_buckets__finish: row: frow index + 1,
 * or BK_RC_XFER | cell; 0 is a free slot.
 */
struct bk_rc { u32 row, cls, n; };
#define BK_RC_XFER	0x80000000u

/* an object's name: as long as hm_futex__name_addr makes it for the bucket view */
#define BK_OBJ_NAME	48

struct obj {			/* fph header / mm fields */
	char		name[BK_OBJ_NAME];
	s32		pid;
	u64		addr;		/* the object's line */
	struct hm_counts st;
	u64		cost;
};

enum { ACC_LOAD, ACC_STORE, ACC_ATOMIC, ACC__MAX };
extern const char *const hm_bk_acc_names[ACC__MAX];

/* Samples by class: n[class], cap of them (classes past BK_HIST_MAX go to rc). */
struct bk_hist { u32 *n; u32 cap; };
#define BK_HIST_MAX	1024

struct frow {
	u32		next;
	u8		kind;		/* table kind: 0 global, 1 private, 2 unknown */
	u8		field;
	u8		acc;
	const char	*func;
	struct hm_counts st;	/* by hm_buckets__finish from h (and rc) */
	struct bk_hist	h;
	u64		cost;
};

/*
 * A memory sample's bucket update (hm_buckets__queue), waiting a few
 * samples so that its cache misses (slot, bucket, entries) overlap the
 * next samples' work; applied in sample order.
 */
struct bk_op {
	u64		index, w;	/* the bucket's key; the load's weight */
	s32		table;
	u32		dkey, fid;	/* its count entry's key; the function */
	u32		*ds;		/* its number in its table's array; NULL: by hash */
	u32		h, idx;		/* bslot_hash; the bucket's number when looked ahead */
	int		field;
};

/* A known table's buckets by index (hm_buckets__dense_slot). */
struct bk_tab {
	u32		*idx;		/* [slot]: bucket index + 1 in b, 0 none; NULL: not yet or hashed */
	bool		hashed;		/* over BK_DENSE_MAX slots: by bslot */
};
#define BK_DENSE_MAX	(1u << 22)
#define BK_Q		8	/* power of two, over BK_Q_APPLY */

struct hm_buckets {
	u32		nr_sockets, nr_nodes;
	struct bk_op	q[BK_Q];	/* queued updates, the oldest at q_head */
	u32		q_head, q_n;
	u32		nr, alloc;
	struct bk	*b;
	/* bucket entries: blocks of 4 << k, from an arena freed at once; blocks outgrown are reused */
	struct hm_arena	ent_arena;
	struct bk_ent	*ent_free[32];
	/* the file's distinct classifications, hashed by content; a cache by data_src in front */
	struct bk_class	*cls;
	u32		nr_cls, alloc_cls;
	u32		*cls_slot;	/* open addressing over cls: index + 1 */
	u32		nr_cls_slots;
	struct { u64 data_src; u32 flags, id; } cls_cache[64];	/* flags 0: empty */
	/* frows' and xfer's samples by class until hm_buckets__finish sums them */
	struct bk_rc	*rc;
	u32		nr_rc, nr_rc_slots;
	bool		unsummed;	/* rc has samples that frows and xfer do not */
	struct bk_tab	*tabs;		/* by the model's table index, nr_tabs of them */
	u32		nr_tabs;
	struct bk_slot	*bslot;		/* open addressing over the other buckets: key inline, index + 1 */
	u32		nr_bslots;	/* power of two, 0 before the first bucket */
	u32		nr_hashed;	/* buckets in bslot */
	u32		nr_objs, alloc_objs;
	struct obj	*objs;		/* in the order of their first sample */
	u32		*oslot;		/* open addressing over objs: index + 1 */
	u32		nr_oslots;	/* power of two, 0 before the first object */
	u32		nr_frows, alloc_frows;
	struct frow	*frows;		/* st: see rc */
	u32		fhead[1u << HASH_BITS];
	/* strings, with a cache keyed by the resolver's (stable) pointers */
	struct { const char *key; u32 id; } name_cache[256];
	/* the function at an IP (pid, cpumode, ip), while the maps' generation is gen - 1 */
	struct bk_fn {
		u64		ip, gen;
		u32		pid;
		u8		cpumode;
		s32		fid;		/* fn's index in names, -1: not yet */
		int8_t		path, code;	/* fn on the futex path, futex code: -1 not yet asked */
		const char	*fn;
	} fn_cache[1024];
	char		**names;
	u32		nr_names, alloc_names;
	/* socket x node, and holder socket x requesting socket HITM */
	struct hm_counts *xfer;	/* [socket * (nodes+1) + node+1]; node -1 at 0; see rc */
	struct bk_hist	*xh;	/* xfer's samples by class, until hm_buckets__finish */
	u64		*hitm;		/* [holder * nr_sockets + requester] */
	u64		hitm_unknown;	/* remote HITM with > 2 sockets */
	u64		futex_samples, resolved, unknown_index, objects;
	u64		contentions, contentions_resolved;	/* contention mode */
	u64		contentions_chained;		/* ... with a kernel call chain */
	u64		contentions_at_sites;		/* ... taken at a futex bucket-lock site */
	u64		contentions_at_sites_resolved;	/* ... and on a bucket of a known table */
	/* contention mode: requesting socket x table node ([s * (nodes+1) + node+1]) */
	u64		*cont, *cont_wait;
	/* contention mode: contentions per bucket x requesting socket ([i * nr_sockets + s]) */
	u64		*cont_sock;
	size_t		nr_cont_sock;
	/* contention_begin on a bucket, per thread, until its contention_end */
	u32		nr_waits, alloc_waits;
	struct wait	*waits;
	struct hm_waits	*callers;	/* contention mode: waits per caller (waits.c) */
	const struct hm_evsel *ev_seen[4];	/* the first events seen, and what they are (EV_*) */
	int		ev_kind[4];
	/*
	 * Functions a field names (MAX_FUNCS, the rest counted together);
	 * a range's part names all, so that the merge can name the first
	 * MAX_FUNCS of the whole file (buckets-merge.c).
	 */
	u32		max_funcs;
	bool		funcs_over;	/* a field names more than MAX_FUNCS */
};

enum { EV_OTHER, EV_BEGIN, EV_END };

/*
 * The buckets' store (buckets-store.c).  A bucket is numbered in its
 * table's array when the table is known and not over BK_DENSE_MAX slots,
 * else in the hash (bslot); hm_buckets__dense_slot says where (*ds, NULL:
 * the hash).  hm_buckets__get: bucket @index of table @table (of @slots
 * slots; -1: no known table), made on its first sample; NULL: ENOMEM.
 * hm_buckets__func: one more sample of function @fid on @field of @e (a
 * field names its first MAX_FUNCS functions).  hm_buckets__queue: a memory
 * sample's update, applied a few samples later in sample order;
 * hm_buckets__drain applies the queued ones (before anything reads or
 * makes buckets otherwise).  -ENOMEM.
 */
int  hm_buckets__dense_slot(struct hm_buckets *b, s32 table, u64 index, u64 slots, u32 **ds);
struct bk *hm_buckets__get(struct hm_buckets *b, s32 table, u64 index, u64 slots);
void hm_buckets__prefetch(const struct hm_buckets *b, s32 table, u64 index, int stage);
int  hm_buckets__func(struct hm_buckets *b, struct bk *e, int field, u32 fid);
/* @n samples of function @fid (BK_FUNC_OTHER: of the field's others) on @field of @e. */
int  hm_buckets__func_n(struct hm_buckets *b, struct bk *e, int field, u32 fid, u32 n);
/* A field names its first @max functions (the others counted together) from now on. */
int  hm_buckets__cap_funcs(struct hm_buckets *b, u32 max);
/* @n more in @e's count entry @key, added at the end when new. */
int  hm_buckets__count_n(struct hm_buckets *b, struct bk *e, u32 key, u32 n);
int  hm_buckets__queue(struct hm_buckets *b, const struct bk_op *op);
int  hm_buckets__drain(struct hm_buckets *b);
/*
 * What buckets.c adds with, for the merge (buckets-merge.c): a name's,
 * a class's, an object's and a field row's index or entry, made when new
 * (-ENOMEM, NULL); @n more samples of class @cls in @h (row @row).
 */
s32  hm_buckets__name(struct hm_buckets *b, const char *s);
int  hm_buckets__class(struct hm_buckets *b, const struct hm_counts *one, u32 cat);
struct obj *hm_buckets__obj(struct hm_buckets *b, const char *name, s32 pid, u64 line);
struct frow *hm_buckets__frow(struct hm_buckets *b, u8 kind, u8 field, u8 acc, const char *func);
int  hm_buckets__hist_add(struct hm_buckets *b, struct bk_hist *h, u32 row, u32 cls, u32 n);
/* Frees the buckets, their entries and their indexes (hm_buckets__delete). */
void hm_buckets__release_store(struct hm_buckets *b);

#endif
