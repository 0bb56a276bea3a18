/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_TUI_TABLE_H
#define HITMAP_REPORT_TUI_TABLE_H

/*
 * A table the TUI can move through and sort: named columns, numeric cells
 * formatted when drawn (as the --stdio views format them), text cells, and
 * per row a key the browser acts on (a bucket's address range).  Rows keep
 * their insertion order (the --stdio order) until sorted on a column; ties
 * keep it too.  Lines under the table (a matrix, a note) go in the foot.
 */
#include <stdbool.h>
#include <stddef.h>
#include <hitmap/perf_data.h>

enum hm_tui_col_kind {
	HM_TUI_COL_TEXT,	/* left-aligned string */
	HM_TUI_COL_INT,		/* %.0f */
	HM_TUI_COL_FIX1,	/* %.1f */
	HM_TUI_COL_FIX2,	/* %.2f */
};

struct hm_tui_table;

struct hm_tui_table *hm_tui_table__new(const char *title, int nr_cols);
void hm_tui_table__delete(struct hm_tui_table *t);
/* Column @c: its header @name and kind; @max_width caps a text column (0: none). */
void hm_tui_table__col(struct hm_tui_table *t, int c, const char *name, enum hm_tui_col_kind kind,
		       int max_width);
/* Room for @rows rows: 0 or -ENOMEM. */
int  hm_tui_table__reserve(struct hm_tui_table *t, size_t rows);
/* A new row; returns its index or -ENOMEM.  @key, @key2: what the row is (bucket address, size). */
long hm_tui_table__row_add(struct hm_tui_table *t, u64 key, u64 key2);
/* A number; NAN is drawn "-" and sorts last. */
void hm_tui_table__num(struct hm_tui_table *t, long row, int c, double v);
/* 0 or -ENOMEM. */
int  hm_tui_table__str(struct hm_tui_table *t, long row, int c, const char *s);
/* A line under the table; 0 or -ENOMEM. */
int  hm_tui_table__foot_add(struct hm_tui_table *t, const char *line);

size_t hm_tui_table__nr(const struct hm_tui_table *t);
int  hm_tui_table__nr_cols(const struct hm_tui_table *t);
const char *hm_tui_table__title(const struct hm_tui_table *t);
size_t hm_tui_table__nr_foot(const struct hm_tui_table *t);
const char *hm_tui_table__foot(const struct hm_tui_table *t, size_t i);
void hm_tui_table__key(const struct hm_tui_table *t, size_t row, u64 *key, u64 *key2);

/*
 * Sort on column @c (-1: insertion order), numbers largest first and text
 * A-Z, or the other way with @reverse.  Rows keep their insertion order on ties.
 */
int  hm_tui_table__sort(struct hm_tui_table *t, int c, bool reverse);
int  hm_tui_table__sort_col(const struct hm_tui_table *t, bool *reverse);
const char *hm_tui_table__col_name(const struct hm_tui_table *t, int c);
/*
 * The next (@dir 1) or previous (-1) sort column after @c: from -1 (the
 * insertion order) to the column set by sort_first (the main metric), on
 * to the last, the first columns, and -1 again.
 */
void hm_tui_table__sort_first(struct hm_tui_table *t, int c);
int  hm_tui_table__col_next(const struct hm_tui_table *t, int c, int dir);

/* The header (the sort column marked "v" or "^") and row @i (in sorted order), as drawn. */
void hm_tui_table__header(const struct hm_tui_table *t, char *buf, size_t size);
void hm_tui_table__row(const struct hm_tui_table *t, size_t i, char *buf, size_t size);
/* Cell @c of row @i (in sorted order) alone, unpadded ("-" for NAN). */
void hm_tui_table__cell(const struct hm_tui_table *t, size_t i, int c, char *buf, size_t size);

#endif
