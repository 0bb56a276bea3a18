/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_RENDER_C2C_H
#define HITMAP_REPORT_RENDER_C2C_H

/* Renderers of hitmap report's c2c views (render-c2c.c). */
#include "report.h"

struct hm_render_opts {
	enum hm_sort	sort;
	int		node_info;	/* 0, 1 (-N), 2 (-NN) */
	bool		show_all;	/* no 0.1% display filter */
	bool		stats_only;
	int		max_lines;	/* text/CSV rows; 0: all */
	const char	*grouping;	/* "Cacheline data grouping" text, NULL: hitmap's */
	bool		double_cl;	/* --double-cl: lines are twice the line size */
};

/* perf's labels: Trace Event Information, Global Shared Cache Line Event Information, c2c details. */
int hm_render__stats(const struct hm_report *r, const struct hm_render_opts *o, FILE *f);
/* The shared cache-line table, line details and node/socket breakdown (text). */
int hm_render__lines_text(const struct hm_report *r, const struct hm_render_opts *o, FILE *f);
int hm_render__json(const struct hm_report *r, const struct hm_render_opts *o, FILE *f);
int hm_render__csv(const struct hm_report *r, const struct hm_render_opts *o, FILE *f);
/* LKP's perf-c2c.* metric lines. */
int hm_render__lkp(const struct hm_report *r, FILE *f);
/* perf's Total records column: LLC misses + cache hits + stores. */
u64 hm_c2c_stats__total_records(const struct hm_c2c_stats *s);
u64 hm_c2c_stats__total_loads(const struct hm_c2c_stats *s);
u64 hm_c2c_stats__llc_misses(const struct hm_c2c_stats *s);

#endif
