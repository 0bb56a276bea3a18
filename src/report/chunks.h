/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_CHUNKS_H
#define HITMAP_REPORT_CHUNKS_H

/*
 * report --threads over ranges of a file: the plan and a part's setup
 * (report-range.c, called by the pass in report.c) and the parts' run and
 * merge (report-chunks.c, above report.c: it runs the pass of each part).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <hitmap/reader_range.h>
#include "report.h"
#include "util/clock.h"
#include "util/prefault.h"
#include "util/rotate.h"

#define MAX_PARTS	256

/* One range's report (r->chunk of a part). */
struct hm_chunk {
	const struct hm_report	*parent;
	struct hm_range		*range;
	struct hm_chunks	*open;	/* the first range, run while the cuts are found */
	bool			ended;	/* open: its last record (the first cut's) given */
	bool			held;	/* open: its thread's messages held (hm_log__hold) */
	/* open, the verdict's measure (report-range.c): samples read, and at the last check */
	u64			nr_read, next_check;
	u64			s_prev, d_prev;	/* samples added and lines then */
	/*
	 * Another range started before the first range's verdict
	 * (report-range.c): it reads on, and drops its part when the verdict
	 * is not to cut.  from: its range's first byte; at: the last record's
	 * (HITMAP_DEBUG says where a dropped range stopped); nr_rec: its records.
	 */
	bool			spec;
	u64			from, at, nr_rec;
	struct hm_rotor		rot;	/* its thread's turn round the CPUs (report-chunks.c) */
};

/*
 * Whether cutting pays (hm_chunks.verdict), which the first range says
 * from the lines it sees per sample when --threads was not given
 * (report-range.c): CUT, or WHOLE: it reads the whole file alone.
 */
enum { HM_CUT_UNKNOWN, HM_CUT, HM_CUT_WHOLE };
#define HM_CUT_NO_END	UINT64_MAX	/* first_end when the first range reads the whole file */

/* The plan (r->chunks of the report that runs them). */
struct hm_chunks {
	struct hm_range_scan	*scan;
	int			nr;		/* ranges */
	struct hm_range_cut	cut[MAX_PARTS];	/* cut[i]: between range i and i + 1 */
	struct hm_report	*part[MAX_PARTS];
	int			err[MAX_PARTS];
	struct hm_symbols	*syms;		/* the report's own, after the pass */
	/*
	 * The first range runs while the report's thread scans for the cuts
	 * (report-chunks.c): it reads on to the first FINISHED_ROUND at or
	 * past min_end, then waits for first_end, the first cut's (or for
	 * given_up).  Its thread's messages are held until the scan is done
	 * (scan_done: given out; given_up: dropped, the one reader's pass
	 * says them again).
	 */
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	u64			min_end;
	u64			start, share;	/* the data's first byte; 1/nr of its bytes */
	u64			first_end;	/* under lock */
	int			scan_done;	/* under lock */
	int			given_up;	/* under lock; read atomically as well */
	u64			at;		/* the first range's file offset (atomic) */
	int			verdict;	/* HM_CUT_*, under lock; read atomically as well */
	double			cut_lines;	/* the verdict's threshold (HITMAP_CUT_LINES) */
	/* not cut: the report's thread, idle, faults in the first range's lines ahead of it */
	struct hm_prefault	pf;
	/* cut, one range a CPU: the ranges' threads turn round the CPUs (util/rotate.h) */
	struct hm_rotate	rot;
	double			t0;		/* the run's start (HITMAP_DEBUG's times) */
};

/* The first range's verdict (HM_CUT or HM_CUT_WHOLE), if none was said yet. */
static inline void hm_chunks__say(struct hm_chunks *c, int verdict)
{
	pthread_mutex_lock(&c->lock);
	if (c->verdict == HM_CUT_UNKNOWN) {
		__atomic_store_n(&c->verdict, verdict, __ATOMIC_RELAXED);
		pthread_cond_broadcast(&c->cond);
	}
	pthread_mutex_unlock(&c->lock);
}

/* The first range's verdict, once said (it is at the latest when the first range ends). */
static inline int hm_chunks__verdict_wait(struct hm_chunks *c)
{
	int v;

	pthread_mutex_lock(&c->lock);
	while (c->verdict == HM_CUT_UNKNOWN)
		pthread_cond_wait(&c->cond, &c->lock);
	v = c->verdict;
	pthread_mutex_unlock(&c->lock);
	return v;
}

/*
 * The first range's record @ev (hm_report__chunk_next, on its thread): 1 to
 * go on (k->ended: @ev is its last), -ECANCELED when the ranges were given
 * up, -EIO when it read past the first cut (cannot happen: it waits at
 * min_end).
 */
static inline int hm_chunk__open_next(struct hm_chunk *k, const struct hm_event *ev)
{
	struct hm_chunks *c = k->open;
	u64 end;
	int gone;

	__atomic_store_n(&c->at, ev->file_offset, __ATOMIC_RELAXED);
	if (__atomic_load_n(&c->given_up, __ATOMIC_RELAXED))
		return -ECANCELED;
	if (ev->type != HM_RECORD_FINISHED_ROUND || ev->file_offset < c->min_end)
		return 1;
	/* said by now (open_check): not cut, whatever cut the others started from */
	if (__atomic_load_n(&c->verdict, __ATOMIC_RELAXED) == HM_CUT_WHOLE) {
		k->open = NULL;
		return 1;
	}
	pthread_mutex_lock(&c->lock);
	while (!c->first_end && !c->given_up)
		pthread_cond_wait(&c->cond, &c->lock);
	end = c->first_end;
	gone = c->given_up;
	pthread_mutex_unlock(&c->lock);
	if (gone)
		return -ECANCELED;
	if (end == HM_CUT_NO_END) {
		k->open = NULL;	/* not cut: on to the end of the data */
		return 1;
	}
	if (ev->file_offset > end)
		return -EIO;
	k->ended = ev->file_offset == end;
	return 1;
}

#endif
