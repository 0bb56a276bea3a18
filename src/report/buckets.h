/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_BUCKETS_H
#define HITMAP_REPORT_BUCKETS_H

/*
 * The futex views' aggregation as its readers see it (the TUI's tables,
 * the HTML page, the metrics, record's summary): struct hm_buckets is
 * opaque outside buckets*.c (its insides: buckets-int.h), and these calls
 * copy out what a reader shows.  buckets.c fills it, buckets-render.c
 * renders it.  Every row holds struct hm_counts: hitmap's precise
 * categories and perf's counters of the same samples.  They read the
 * aggregation after the pass (hm_buckets__finish has summed the rows);
 * pointers handed out (names, functions) live as long as it does.
 */
#include "report.h"
#include "counts.h"

#define MAX_SOCKETS	64
#define MAX_FUNCS	4	/* functions a field names; the others are counted together */

struct hm_waits;

struct bk_func { const char *name; u64 n; };

struct bk_field {
	struct hm_counts st;
	struct bk_func	func[MAX_FUNCS];
	u64		other_funcs;
};

/* A bucket's rows as the views print them (hm_buckets__row). */
struct bk_row {
	u32		touched;	/* fields with entries (the others are zero) */
	struct hm_counts st;
	struct bk_field	field[HM_FUTEX_FIELD__MAX];	/* functions most samples first */
	struct hm_counts sock[MAX_SOCKETS];		/* nr_sockets of them */
};

/* The aggregation's sizes and sample totals. */
struct hm_buckets_totals {
	u32	nr;			/* buckets: hm_buckets__bucket(0 .. nr - 1) */
	u32	nr_objs;		/* other futex objects: hm_buckets__object() */
	u32	nr_sockets, nr_nodes;	/* hm_buckets__cell(socket, node + 1) */
	u64	futex_samples;		/* memory samples on futex memory, of which */
	u64	resolved;		/*   on a bucket of a known table */
	u64	unknown_index;		/*   on a bucket line of an unknown table */
	u64	objects;		/*   on the other futex objects */
	u64	contentions;		/* contention mode: lock contentions, */
	u64	contentions_resolved;	/*   on a bucket lock */
};

/* Bucket @i's key and lock contention. */
struct hm_bucket_info {
	u64	index;			/* bucket index, or line address when table is -1 */
	s32	table;			/* index in the futex model, -1: unknown */
	u64	contended;		/* lock:contention_begin on its lock */
	u64	wait_ns;		/* contention_begin -> contention_end, summed */
	u64	wait_max_ns, waits;	/* the longest, and the waits that ended */
	u64	cost;			/* its loads' weights summed */
};

/* Other futex object @i (private hash header, mm futex fields), in the order of their first sample. */
struct hm_bucket_object {
	const char	*name;
	s32		pid;
	u64		addr;		/* its line */
	struct hm_counts st;
	u64		cost;		/* load weights summed */
};

/* Field row @i (table kind x field x access x function). */
struct hm_bucket_field_row {
	u8		kind;		/* table kind: 0 global, 1 private, 2 unknown */
	u8		field;		/* enum hm_futex_field */
	const char	*access;	/* "load", "store", "atomic" */
	const char	*func;
	struct hm_counts st;
	u64		cost;
};

/* Requesting socket x data home node: memory samples and lock contention. */
struct hm_bucket_cell {
	struct hm_counts st;
	u64		contentions;	/* contention mode: lock contentions */
	u64		wait_ns;	/* ... their waits summed */
};

void hm_buckets__totals(const struct hm_buckets *b, struct hm_buckets_totals *t);
void hm_buckets__bucket(const struct hm_buckets *b, u32 i, struct hm_bucket_info *info);
void hm_buckets__object(const struct hm_buckets *b, u32 i, struct hm_bucket_object *o);
void hm_buckets__field_row(const struct hm_buckets *b, u32 i, struct hm_bucket_field_row *f);
/* Cell of socket @s and node @node1 - 1 (@node1 0: the data's node unknown). */
void hm_buckets__cell(const struct hm_buckets *b, u32 s, u32 node1, struct hm_bucket_cell *c);
/* Contention mode: waits per caller (waits.c); NULL: none. */
const struct hm_waits *hm_buckets__callers(const struct hm_buckets *b);
/* Contention mode: lock:contention_begin on bucket @i from CPUs of socket @s. */
u64  hm_buckets__contended_socket(const struct hm_buckets *b, u32 i, u32 s);

/*
 * For the TUI's tables (buckets-render.c): the rows of @view (HM_BY_BUCKET:
 * buckets, HM_BY_FIELD: field rows) in the --stdio order, malloc'ed, *n of
 * them; whether the file has memory samples (not lock contention alone);
 * bucket @i's hottest field (-1: none) and its functions as --stdio prints
 * them.
 */
u32 *hm_buckets__order(const struct hm_buckets *b, enum hm_bucket_view view, u32 *n);
bool hm_buckets__memory_mode(const struct hm_buckets *b, const struct hm_report *r);
int  hm_buckets__hottest(const struct hm_buckets *b, u32 i, char *funcs, size_t size);
/*
 * Bucket @i's rows from its entries (perf's counters with @perf, else
 * zero) into @row, zero (calloc) before its first use and then reused;
 * returns the bucket's hottest field (-1: none) and writes that field's
 * functions at @funcs as --stdio prints them (@funcs NULL: not).
 */
int  hm_buckets__row(const struct hm_buckets *b, u32 i, bool perf, struct bk_row *row,
		     char *funcs, size_t size);
/*
 * The socket view's HITM matrix (or why it is not shown), one line at a
 * time to @fn, as --stdio prints it and the TUI's socket table shows it
 * below; stops at @fn's first non-zero return and returns it.
 */
int  hm_buckets__matrix_lines(const struct hm_buckets *b, int (*fn)(void *ctx, const char *line), void *ctx);

#endif
