/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_BUCKETS_H
#define HITMAP_REPORT_BUCKETS_H

/*
 * The futex views' aggregation (buckets.c fills it, buckets-render.c
 * renders it): buckets, other futex objects, field rows, socket x node.
 * Every row holds struct hm_counts: hitmap's precise categories and perf's
 * counters of the same samples.
 */
#include "report.h"
#include "counts.h"
#include "waits.h"

#define MAX_SOCKETS	64
#define MAX_FUNCS	4
#define HASH_BITS	16

struct bk_func { const char *name; u64 n; };

struct bk_field {
	struct hm_counts st;
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

struct bk_slot {
	u64		index;
	s32		table;
	u32		idx;		/* index + 1 in b, 0 empty */
};

struct bk {
	u32		next;		/* hash chain, index + 1 */
	s32		table;		/* index in the model, -1: index unknown */
	u64		index;		/* bucket index, or line address when table -1 */
	/* first, so that one cache line leads to the rows a sample updates */
	struct hm_counts *sock;	/* nr_sockets, in the arena */
	/* only the fields this bucket's samples touched, NULL for the others (read with bk__field) */
	struct bk_field	*field[HM_FUTEX_FIELD__MAX];
	u64		cost;
	struct hm_counts st;
	u64		contended;	/* lock:contention_begin on this bucket's lock */
	u64		wait_ns;	/* contention_begin -> contention_end, summed */
	u64		wait_max_ns, waits;	/* the longest, and ended waits */
};

/* A field no sample touched: all zero. */
extern const struct bk_field hm_bk_field_zero;

/* Field @f of bucket @e (hm_bk_field_zero when untouched). */
static inline const struct bk_field *bk__field(const struct bk *e, int f)
{
	return e->field[f] ? e->field[f] : &hm_bk_field_zero;
}

struct obj {			/* fph header / mm fields */
	char		name[32];
	s32		pid;
	u64		addr;		/* the object's line */
	struct hm_counts st;
	u64		cost;
};

enum { ACC_LOAD, ACC_STORE, ACC_ATOMIC, ACC__MAX };
extern const char *const hm_bk_acc_names[ACC__MAX];

struct frow {
	u32		next;
	u8		kind;		/* table kind: 0 global, 1 private, 2 unknown */
	u8		field;
	u8		acc;
	const char	*func;
	struct hm_counts st;
	u64		cost;
};

struct hm_buckets {
	u32		nr_sockets, nr_nodes;
	u32		nr, alloc;
	struct bk	*b;
	/* bucket fields and socket rows, zeroed, never moved, freed at once */
	char		**chunks;
	u32		nr_chunks, alloc_chunks;
	size_t		chunk_left;
	struct bk_slot	*bslot;		/* open addressing over b: key inline, index + 1 */
	u32		nr_bslots;	/* power of two, 0 before the first bucket */
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
	struct hm_counts *xfer;	/* [socket * (nodes+1) + node+1]; node -1 at 0 */
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
};

/*
 * For the TUI's tables (buckets-render.c): the rows of @view (HM_BY_BUCKET:
 * b->b, HM_BY_FIELD: b->frows) in the --stdio order, malloc'ed, *n of them;
 * whether the file has memory samples (not lock contention alone); bucket
 * @i's hottest field (-1: none) and its functions as --stdio prints them.
 */
u32 *hm_buckets__order(const struct hm_buckets *b, enum hm_bucket_view view, u32 *n);
bool hm_buckets__memory_mode(const struct hm_buckets *b, const struct hm_report *r);
/* Contention mode: lock:contention_begin on bucket @i from CPUs of socket @s. */
static inline u64 hm_buckets__contended_socket(const struct hm_buckets *b, u32 i, u32 s)
{
	size_t k = (size_t)i * b->nr_sockets + s;

	return s < b->nr_sockets && k < b->nr_cont_sock ? b->cont_sock[k] : 0;
}
int  hm_buckets__hottest(const struct hm_buckets *b, u32 i, char *funcs, size_t size);
/*
 * The socket view's HITM matrix (or why it is not shown), one line at a
 * time to @fn, as --stdio prints it and the TUI's socket table shows it
 * below; stops at @fn's first non-zero return and returns it.
 */
int  hm_buckets__matrix_lines(const struct hm_buckets *b, int (*fn)(void *ctx, const char *line), void *ctx);

#endif
