/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_CHUNKS_H
#define HITMAP_REPORT_CHUNKS_H

/*
 * report --threads over ranges of a file: the plan and a part's setup
 * (report-range.c, called by the pass in report.c) and the parts' run and
 * merge (report-chunks.c, above report.c: it runs the pass of each part).
 */
#include <time.h>
#include <hitmap/reader_range.h>
#include "report.h"

#define MAX_PARTS	256

/* CPU seconds of the calling thread (HITMAP_DEBUG's per-thread times). */
static inline double hm_chunks__thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One range's report (r->chunk of a part). */
struct hm_chunk {
	const struct hm_report	*parent;
	struct hm_range		*range;
};

/* The plan (r->chunks of the report that runs them). */
struct hm_chunks {
	struct hm_range_scan	*scan;
	int			nr;		/* ranges */
	struct hm_range_cut	cut[MAX_PARTS];	/* cut[i]: between range i and i + 1 */
	struct hm_report	*part[MAX_PARTS];
	int			err[MAX_PARTS];
	struct hm_symbols	*syms;		/* the report's own, after the pass */
};

#endif
