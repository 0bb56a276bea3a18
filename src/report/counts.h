/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_COUNTS_H
#define HITMAP_REPORT_COUNTS_H

/*
 * The counts of one row of any hitmap view (bucket, field, object, socket x
 * node): hitmap's precise categories (each sample in exactly one) and, for
 * --perf-counters, perf's c2c_decode_stats counters of the same samples,
 * both from the one classification the report made (hm_mem_sample).
 *
 * One vocabulary: the precise columns are named after the categories
 * (hm_mem_cat__name: hitm_local, hitm_xdie, hitm_remote, dram_local,
 * dram_remote ...) in text (upper case), JSON and CSV alike; perf's
 * counters keep perf's c2c_stats names, under "perf_c2c" / PERF_*.
 */
#include <stdio.h>
#include <hitmap/mem.h>
#include <hitmap/json.h>
#include "report.h"

struct hm_counts {
	u32			samples, loads, stores, locked;
	u32			cat[HM_CAT__MAX];
	struct hm_c2c_stats	perf;
};

/* One sample in hitmap's precise columns only (no perf counters). */
static inline void hm_counts__add_precise(struct hm_counts *c, const struct hm_mem_sample *ms)
{
	c->samples++;
	c->loads += ms->cls.load;
	c->stores += ms->cls.store;
	c->locked += ms->cls.locked;
	c->cat[ms->cls.cat]++;
}

static inline void hm_counts__add(struct hm_counts *c, const struct hm_mem_sample *ms)
{
	hm_counts__add_precise(c, ms);
	if (ms->perf)
		hm_c2c_stats__sum(&c->perf, ms->perf);
}

/* @s's samples added to @d's. */
static inline void hm_counts__sum(struct hm_counts *d, const struct hm_counts *s)
{
	d->samples += s->samples;
	d->loads += s->loads;
	d->stores += s->stores;
	d->locked += s->locked;
	for (int i = 0; i < HM_CAT__MAX; i++)
		d->cat[i] += s->cat[i];
	hm_c2c_stats__sum(&d->perf, &s->perf);
}

static inline u32 hm_counts__hitm(const struct hm_counts *c)
{
	return c->cat[HM_CAT_HITM_LOCAL] + c->cat[HM_CAT_HITM_XDIE] + c->cat[HM_CAT_HITM_REMOTE];
}

/* The precise columns every hitmap view shows, in this order. */
#define HM_COUNTS_NR_COLS 8
extern const char *const hm_counts__col_names[HM_COUNTS_NR_COLS];	/* "samples", "loads", ... */
u32  hm_counts__col(const struct hm_counts *c, int col);
/* perf's columns on request (--perf-counters), perf's c2c_stats names. */
#define HM_COUNTS_NR_PERF_COLS 6
extern const char *const hm_counts__perf_col_names[HM_COUNTS_NR_PERF_COLS];
u32  hm_counts__perf_col(const struct hm_counts *c, int col);

/* Text: the header and values of the columns (loads .. stores, or perf's). */
void hm_counts__text_header(FILE *f, bool perf, bool samples);
void hm_counts__text(FILE *f, const struct hm_counts *c, bool perf, bool samples);
/* The same columns written at @p (at most HM_COUNTS_TEXT_MAX bytes): returns the end. */
#define HM_COUNTS_TEXT_MAX (HM_COUNTS_NR_COLS * 12 + 2 + HM_COUNTS_NR_PERF_COLS * 14)
char *hm_counts__text_row(char *p, const struct hm_counts *c, bool perf, bool samples);
/* CSV: ",name..." and ",value..." (samples first). */
void hm_counts__csv_header(FILE *f, bool perf);
void hm_counts__csv(FILE *f, const struct hm_counts *c, bool perf);
/*
 * JSON members of a row: "counts" {samples, loads, stores, locked, and the
 * contention categories}, "hitmap" {every non-zero category}, and with
 * @perf "perf_c2c" {perf's counters}.
 */
void hm_counts__json(struct hm_json *j, const struct hm_counts *c, bool perf);

/* hm_report__counting_note (include/hitmap/report.h) is in counts.c. */
/* The header line of a view: which counting it shows. */
void hm_counts__text_counting(FILE *f, const struct hm_report *r, bool perf);
void hm_counts__json_counting(struct hm_json *j, const struct hm_report *r, bool perf);

#endif
