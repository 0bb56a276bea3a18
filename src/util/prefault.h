/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_PREFAULT_H
#define HITMAP_UTIL_PREFAULT_H

/*
 * Faulting in memory ahead of its writer, on a thread that has nothing
 * else to do.  A table that grows into fresh anonymous memory (the line
 * table's segments) pays for each page's first touch: the kernel clears
 * it, 2 MiB at a time on huge pages.  In a 2-CPU VM that clearing took
 * 9-16 ms for the 140 MB of 1M lines' table in most runs, and 146-185 ms
 * in some (memory the host had taken back).  Where a second CPU is idle,
 * its thread can take that off the writer's path.
 *
 * One stream: the writer says how far ahead it wants [base, upto)
 * populated (hm_prefault__ahead, monotone; a new base starts a new
 * stream), and reads how far it is (hm_prefault__done) to skip its own
 * populate there.  The server (hm_prefault__serve, on the idle thread)
 * populates it in huge-page steps with MADV_POPULATE_WRITE, which leaves
 * the contents alone (zero pages stay zero), until hm_prefault__quit.
 * The memory a stream names must stay mapped until the server returns.
 *
 * Nobody serving, the writer's own populate does the work, as before.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct hm_prefault {
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	char		*base;		/* the stream (under lock) */
	char		*want;		/* populate [done, want) (under lock) */
	char		*done;		/* populated up to (under lock; read atomically too) */
	bool		quit;		/* under lock */
	bool		waiting;	/* the server sleeps on cond (under lock) */
};

void hm_prefault__init(struct hm_prefault *pf);
void hm_prefault__destroy(struct hm_prefault *pf);

/* The writer: [@base, @upto) wanted populated; @base differs from the last: a new stream. */
void hm_prefault__ahead(struct hm_prefault *pf, void *base, void *upto);

/* The writer: how far the stream at @base is populated (@base itself when not, or another stream). */
static inline const char *hm_prefault__done(struct hm_prefault *pf, const void *base)
{
	/* base and done change together, under lock; only the writer changes base */
	return __atomic_load_n(&pf->base, __ATOMIC_ACQUIRE) == base ?
	       __atomic_load_n(&pf->done, __ATOMIC_ACQUIRE) : base;
}

/* The idle thread: populate what is asked until hm_prefault__quit; returns the bytes it populated. */
size_t hm_prefault__serve(struct hm_prefault *pf);

/* No more asks: the server returns (now, or once it is called). */
void hm_prefault__quit(struct hm_prefault *pf);

#endif
