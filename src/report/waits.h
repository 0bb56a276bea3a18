/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_WAITS_H
#define HITMAP_REPORT_WAITS_H

/*
 * Contention mode, what perf lock contention gives: who waits (the caller
 * from the kernel call chain of lock:contention_begin) and how long
 * (contentions, total, average and maximum wait per caller).  Memory grows
 * with distinct callers, never with events.
 */
#include <stdbool.h>
#include <stdio.h>
#include <hitmap/json.h>
#include <hitmap/perf_data.h>
#include <hitmap/symbols.h>

/*
 * The waiting code of a contention sample: the first two call-chain frames
 * outside the lock implementation ("futex_q_lock <- futex_wait_setup"), in
 * @buf.  Returns 1, or 0 without a call chain (then the caller is the IP's).
 */
int hm_waits__caller(struct hm_symbols *syms, const struct hm_maps *maps, const struct hm_sample *s,
		     char *buf, size_t size);

/*
 * Whether a waiting call chain (as hm_waits__caller writes it) is a site that
 * takes a futex hash bucket's lock: its first frame is a futex operation
 * (futex_q_lock, futex_wait_setup, futex_wake, futex_wake_op, double_lock_hb,
 * futex_requeue, futex_lock_pi, ...), not the private hash's set-up and
 * reference counting, which take mm->futex_hash_lock or no lock at all.
 */
bool hm_waits__bucket_site(const char *chain);

struct hm_waits;

struct hm_waits *hm_waits__new(void);
void hm_waits__delete(struct hm_waits *w);
/* A stable copy of @name, one per distinct string (NULL: no memory). */
const char *hm_waits__intern(struct hm_waits *w, const char *name);
/* One contention of @name (an interned pointer); 0 or -ENOMEM. */
int  hm_waits__begin(struct hm_waits *w, const char *name);
/* Its wait, from contention_begin to contention_end. */
void hm_waits__end(struct hm_waits *w, const char *name, u64 ns);
unsigned hm_waits__count(const struct hm_waits *w);
/* One caller's waits, as the views show them. */
struct hm_waits_row {
	const char	*caller;	/* valid while @w lives */
	u64		contended;	/* contention_begin */
	u64		waits, wait_ns, max_ns;	/* ended waits (to contention_end), their sum, the longest */
};
/* The callers, most total wait first: malloc'ed, *n of them; NULL with errno ENOMEM. */
struct hm_waits_row *hm_waits__rows(const struct hm_waits *w, unsigned *n);
/* "Contention by caller" as text (most total wait first), or a JSON array under @key. */
int  hm_waits__render_text(const struct hm_waits *w, FILE *f);
void hm_waits__render_json(const struct hm_waits *w, struct hm_json *j, const char *key);

#endif
