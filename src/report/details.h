/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_DETAILS_H
#define HITMAP_REPORT_DETAILS_H

/*
 * The deferred details' second read (report-details.c, below report.c):
 * the file read again, each sample resolved as in the pass, those of the
 * lines shown (hm_lines__wants) handed to report.c's @add in order.  With
 * threads, on two: this thread reads, orders and resolves; a second one
 * runs @add (classify, add to the line's details).  Batches of a fixed
 * size, a few in flight.
 */
#include "report.h"

struct hm_line;

/* What adding one sample to its line's details needs (report.c's details_pass). */
struct hm_detail {
	u64		ip, addr, weight, data_src;
	u32		pid, tid;
	u16		misc;
	bool		mapped;		/* data and code maps found */
	struct hm_line	*ln;
};

typedef int (*hm_detail_fn)(void *priv, const struct hm_detail *d);

/* The second read of @r's file for @l's lines shown; 0 or a negative errno (said). */
int hm_report__details_read(struct hm_report *r, struct hm_lines *l, hm_detail_fn add, void *priv);

struct hm_detail_pipe;

/* @fn runs on the pipe's thread, for each sample in order; NULL + errno on failure. */
struct hm_detail_pipe *hm_detail_pipe__new(hm_detail_fn fn, void *priv);
/* Queue @d; 0, or the first negative result of @fn (nothing more is run then). */
int  hm_detail_pipe__add(struct hm_detail_pipe *p, const struct hm_detail *d);
/* Run what is queued, end the thread, free @p; 0 or the first negative result of @fn. */
int  hm_detail_pipe__finish(struct hm_detail_pipe *p);

#endif
