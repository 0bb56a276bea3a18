// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TUI's sortable tables (tui-table.h).  Numbers are kept as numbers and
 * formatted when a row is drawn or searched, so a table of every bucket of
 * a big run costs one array, not a string per cell.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui-table.h"
#include "util/htab.h"

struct col {
	char			name[32];
	enum hm_tui_col_kind	kind;
	int			max_width;	/* text: cap, 0 none */
	int			width;		/* of the widest cell or the name */
	double			max;		/* numbers: the largest, for the width */
};

union cell {
	double	v;
	char	*s;
};

struct row {
	u64	key, key2;
};

struct hm_tui_table {
	char		title[256];
	int		nr_cols;
	struct col	*col;
	size_t		nr, alloc;
	struct row	*row;
	union cell	*cell;		/* nr x nr_cols */
	size_t		*perm;		/* display order -> row */
	int		sort_col;	/* -1: insertion order */
	int		sort_first;	/* where d goes from the insertion order */
	bool		reverse;
	char		**foot;
	size_t		nr_foot;
	/* text cells point into a set of distinct strings (a view repeats a few) */
	char		**strs;
	size_t		nr_strs, alloc_strs;	/* alloc_strs: a power of two */
};

/* The table's copy of @s; NULL: no memory. */
static char *intern(struct hm_tui_table *t, const char *s)
{
	size_t i;

	if (2 * (t->nr_strs + 1) > t->alloc_strs) {
		size_t n = t->alloc_strs ? 2 * t->alloc_strs : 256;
		char **v = calloc(n, sizeof(*v));

		if (!v)
			return NULL;
		for (size_t k = 0; k < t->alloc_strs; k++) {
			if (!t->strs[k])
				continue;
			for (i = hm_hash_str(t->strs[k]) & (n - 1); v[i]; i = (i + 1) & (n - 1))
				;
			v[i] = t->strs[k];
		}
		free(t->strs);
		t->strs = v;
		t->alloc_strs = n;
	}
	for (i = hm_hash_str(s) & (t->alloc_strs - 1); t->strs[i]; i = (i + 1) & (t->alloc_strs - 1))
		if (!strcmp(t->strs[i], s))
			return t->strs[i];
	t->strs[i] = strdup(s);
	if (t->strs[i])
		t->nr_strs++;
	return t->strs[i];
}

struct hm_tui_table *hm_tui_table__new(const char *title, int nr_cols)
{
	struct hm_tui_table *t;

	if (nr_cols <= 0) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->col = calloc(nr_cols, sizeof(*t->col));
	if (!t->col) {
		free(t);
		return NULL;
	}
	t->nr_cols = nr_cols;
	t->sort_col = -1;
	snprintf(t->title, sizeof(t->title), "%s", title);
	return t;
}

void hm_tui_table__delete(struct hm_tui_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->alloc_strs; i++)
		free(t->strs[i]);
	free(t->strs);
	for (size_t i = 0; i < t->nr_foot; i++)
		free(t->foot[i]);
	free(t->foot);
	free(t->col);
	free(t->row);
	free(t->cell);
	free(t->perm);
	free(t);
}

void hm_tui_table__col(struct hm_tui_table *t, int c, const char *name, enum hm_tui_col_kind kind,
		       int max_width)
{
	struct col *k;

	if (c < 0 || c >= t->nr_cols)
		return;
	k = &t->col[c];
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->kind = kind;
	k->max_width = max_width;
	k->width = strlen(k->name);
}

static int reserve(struct hm_tui_table *t, size_t n)
{
	if (n > t->alloc) {
		struct row *r = realloc(t->row, n * sizeof(*r));
		union cell *c;
		size_t *p;

		if (!r)
			return -ENOMEM;
		t->row = r;
		c = realloc(t->cell, n * t->nr_cols * sizeof(*c));
		if (!c)
			return -ENOMEM;
		t->cell = c;
		p = realloc(t->perm, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		t->perm = p;
		t->alloc = n;
	}
	return 0;
}

int hm_tui_table__reserve(struct hm_tui_table *t, size_t rows)
{
	return reserve(t, rows);
}

long hm_tui_table__row_add(struct hm_tui_table *t, u64 key, u64 key2)
{
	if (t->nr == t->alloc && reserve(t, t->alloc ? t->alloc * 2 : 64))
		return -ENOMEM;
	t->row[t->nr].key = key;
	t->row[t->nr].key2 = key2;
	memset(&t->cell[t->nr * t->nr_cols], 0, t->nr_cols * sizeof(*t->cell));
	t->perm[t->nr] = t->nr;
	return (long)t->nr++;
}

void hm_tui_table__num(struct hm_tui_table *t, long row, int c, double v)
{
	if (row < 0 || (size_t)row >= t->nr || c < 0 || c >= t->nr_cols || t->col[c].kind == HM_TUI_COL_TEXT)
		return;
	t->cell[row * t->nr_cols + c].v = v;
	if (!isnan(v) && v > t->col[c].max)
		t->col[c].max = v;
}

int hm_tui_table__str(struct hm_tui_table *t, long row, int c, const char *s)
{
	union cell *x;
	int len;

	if (row < 0 || (size_t)row >= t->nr || c < 0 || c >= t->nr_cols || t->col[c].kind != HM_TUI_COL_TEXT)
		return -EINVAL;
	x = &t->cell[row * t->nr_cols + c];
	x->s = intern(t, s ? s : "");
	if (!x->s)
		return -ENOMEM;
	len = strlen(x->s);
	if (t->col[c].max_width && len > t->col[c].max_width)
		len = t->col[c].max_width;
	if (len > t->col[c].width)
		t->col[c].width = len;
	return 0;
}

int hm_tui_table__foot_add(struct hm_tui_table *t, const char *line)
{
	char **f = realloc(t->foot, (t->nr_foot + 1) * sizeof(*f));

	if (!f)
		return -ENOMEM;
	t->foot = f;
	f[t->nr_foot] = strdup(line);
	if (!f[t->nr_foot])
		return -ENOMEM;
	t->nr_foot++;
	return 0;
}

size_t hm_tui_table__nr(const struct hm_tui_table *t)
{
	return t->nr;
}

int hm_tui_table__nr_cols(const struct hm_tui_table *t)
{
	return t->nr_cols;
}

const char *hm_tui_table__title(const struct hm_tui_table *t)
{
	return t->title;
}

size_t hm_tui_table__nr_foot(const struct hm_tui_table *t)
{
	return t->nr_foot;
}

const char *hm_tui_table__foot(const struct hm_tui_table *t, size_t i)
{
	return i < t->nr_foot ? t->foot[i] : "";
}

void hm_tui_table__key(const struct hm_tui_table *t, size_t row, u64 *key, u64 *key2)
{
	const struct row *r = &t->row[t->perm[row]];

	*key = r->key;
	*key2 = r->key2;
}

static const struct hm_tui_table *sort_t;

static int row_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct hm_tui_table *t = sort_t;
	int c = t->sort_col, d = 0;

	if (c >= 0) {
		const union cell *cx = &t->cell[x * t->nr_cols + c], *cy = &t->cell[y * t->nr_cols + c];

		if (t->col[c].kind == HM_TUI_COL_TEXT)
			d = strcmp(cx->s ? cx->s : "", cy->s ? cy->s : "");
		else if (isnan(cx->v) || isnan(cy->v))	/* "-": last, either way */
			return isnan(cx->v) != isnan(cy->v) ? (isnan(cx->v) ? 1 : -1) : (x < y ? -1 : x > y);
		else
			d = cx->v > cy->v ? -1 : cx->v < cy->v;
		if (t->reverse)
			d = -d;
	}
	if (d)
		return d;
	return x < y ? -1 : x > y;	/* ties: the --stdio order */
}

int hm_tui_table__sort(struct hm_tui_table *t, int c, bool reverse)
{
	if (c < -1 || c >= t->nr_cols)
		return -EINVAL;
	t->sort_col = c;
	t->reverse = c >= 0 && reverse;
	for (size_t i = 0; i < t->nr; i++)
		t->perm[i] = i;
	sort_t = t;
	if (t->nr)	/* an empty view has no perm array: qsort(NULL, 0) is undefined */
		qsort(t->perm, t->nr, sizeof(*t->perm), row_cmp);
	return 0;
}

int hm_tui_table__sort_col(const struct hm_tui_table *t, bool *reverse)
{
	if (reverse)
		*reverse = t->reverse;
	return t->sort_col;
}

const char *hm_tui_table__col_name(const struct hm_tui_table *t, int c)
{
	return c >= 0 && c < t->nr_cols ? t->col[c].name : "--stdio order";
}

void hm_tui_table__sort_first(struct hm_tui_table *t, int c)
{
	if (c >= 0 && c < t->nr_cols)
		t->sort_first = c;
}

/* The cycle: -1, first, first + 1 .. last, 0 .. first - 1, -1 again. */
int hm_tui_table__col_next(const struct hm_tui_table *t, int c, int dir)
{
	int n = t->nr_cols + 1;
	/* position in the cycle: 0 for -1, then the columns from sort_first */
	int pos = c < 0 ? 0 : 1 + (c - t->sort_first + t->nr_cols) % t->nr_cols;

	pos = (pos + (dir > 0 ? 1 : n - 1)) % n;
	return pos ? (t->sort_first + pos - 1) % t->nr_cols : -1;
}

static int num_width(const struct col *k)
{
	char b[64];

	return snprintf(b, sizeof(b), k->kind == HM_TUI_COL_FIX1 ? "%.1f" : k->kind == HM_TUI_COL_FIX2 ?
			"%.2f" : "%.0f", k->max);
}

/* Width of column @c, the sort mark included. */
static int col_width(const struct hm_tui_table *t, int c)
{
	const struct col *k = &t->col[c];
	int w = k->width + 1;

	if (k->kind != HM_TUI_COL_TEXT && num_width(k) > w)
		w = num_width(k);
	return w;
}

void hm_tui_table__header(const struct hm_tui_table *t, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (int c = 0; c < t->nr_cols && len < size; c++) {
		const struct col *k = &t->col[c];
		char name[40];
		bool last = c == t->nr_cols - 1;

		snprintf(name, sizeof(name), "%s%s", k->name, c == t->sort_col ? (t->reverse ? "^" : "v") : "");
		if (k->kind == HM_TUI_COL_TEXT)
			len += snprintf(buf + len, size - len, "%s%-*s", c ? " " : "", last ? 0 : col_width(t, c), name);
		else
			len += snprintf(buf + len, size - len, "%s%*s", c ? " " : "", col_width(t, c), name);
	}
}

void hm_tui_table__cell(const struct hm_tui_table *t, size_t i, int c, char *buf, size_t size)
{
	const union cell *x;

	buf[0] = 0;
	if (i >= t->nr || c < 0 || c >= t->nr_cols)
		return;
	x = &t->cell[t->perm[i] * t->nr_cols + c];
	if (t->col[c].kind == HM_TUI_COL_TEXT)
		snprintf(buf, size, "%s", x->s ? x->s : "");
	else if (isnan(x->v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, t->col[c].kind == HM_TUI_COL_FIX1 ? "%.1f" : t->col[c].kind == HM_TUI_COL_FIX2 ?
			 "%.2f" : "%.0f", x->v);
}

void hm_tui_table__row(const struct hm_tui_table *t, size_t i, char *buf, size_t size)
{
	size_t len = 0, r = t->perm[i];

	buf[0] = 0;
	for (int c = 0; c < t->nr_cols && len < size; c++) {
		const struct col *k = &t->col[c];
		const union cell *x = &t->cell[r * t->nr_cols + c];
		bool last = c == t->nr_cols - 1;
		const char *sep = c ? " " : "";

		if (k->kind != HM_TUI_COL_TEXT && isnan(x->v)) {
			len += snprintf(buf + len, size - len, "%s%*s", sep, col_width(t, c), "-");
			continue;
		}
		switch (k->kind) {
		case HM_TUI_COL_TEXT:
			if (last)
				len += snprintf(buf + len, size - len, "%s%s", sep, x->s ? x->s : "");
			else
				len += snprintf(buf + len, size - len, "%s%-*.*s", sep, col_width(t, c),
						k->max_width ? k->max_width : 1000, x->s ? x->s : "");
			break;
		case HM_TUI_COL_INT:
			len += snprintf(buf + len, size - len, "%s%*.0f", sep, col_width(t, c), x->v);
			break;
		case HM_TUI_COL_FIX1:
			len += snprintf(buf + len, size - len, "%s%*.1f", sep, col_width(t, c), x->v);
			break;
		case HM_TUI_COL_FIX2:
			len += snprintf(buf + len, size - len, "%s%*.2f", sep, col_width(t, c), x->v);
			break;
		}
	}
	/* no trailing blanks: rows compare with --stdio's */
	while (len > 0 && len < size && buf[len - 1] == ' ')
		buf[--len] = 0;
}
