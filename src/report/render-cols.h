/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_RENDER_COLS_H
#define HITMAP_REPORT_RENDER_COLS_H

/*
 * perf's stdio table layout (ui/stdio/hist.c with builtin-c2c.c's headers):
 * "# " and two header lines, where a first-line title may span the next
 * columns, a line of dots under each column, "#"; then rows whose cells
 * each follow two spaces, padded to the column's width except the last,
 * the whole row cut where perf's row buffer ends.  Used by render-pareto.c.
 */
#include <stdbool.h>
#include <stdio.h>
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>

struct hm_col {
	int		id;		/* what the caller shows in it */
	int		width;
	const char	*h0;		/* first header line, NULL: blank */
	int		span;		/* columns after this one h0 covers */
	const char	*h1;
};

#define HM_COLS_MAX 32

struct hm_cols {
	struct hm_col	c[HM_COLS_MAX];
	int		n;
};

void hm_cols__add(struct hm_cols *l, int id, int width, const char *h0, int span, const char *h1);
void hm_cols__print_header(const struct hm_cols *l, FILE *f);

/* One row being built. */
struct hm_row {
	char	*b;
	size_t	len, cap;
	bool	err;		/* out of memory: the row is incomplete */
};

void hm_row__cell(struct hm_row *rb, const struct hm_col *c, bool last, const char *text);
/* Print the row (cut where perf @v's row buffer ends) and start the next one. */
void hm_row__flush(struct hm_row *rb, const struct hm_cols *l, enum hm_perf_compat v, FILE *f);
void hm_row__release(struct hm_row *rb);

/* bitmap_scnprintf(): "0-1,3" of the bits set below @nbits; the length. */
size_t hm_cols__bits_list(const u64 *v, int nbits, char *buf, size_t size);
/* perf's fill_line(): @text centred in dashes over @len characters. */
void hm_cols__fill_line(const char *text, int len, char *buf, size_t size);

#endif
