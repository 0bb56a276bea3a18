// SPDX-License-Identifier: GPL-2.0-only
/*
 * The futex views as the TUI's tables (tui-futex.h), from the aggregation
 * buckets.c builds, with --stdio's columns and formats (buckets-render.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buckets.h"
#include "waits.h"
#include "tui-futex.h"

static void upper(char *d, const char *s, size_t size)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < size; i++)
		d[i] = (s[i] >= 'a' && s[i] <= 'z') ? s[i] - 32 : s[i];
	d[i] = 0;
}

/* Columns hm_counts__text prints, from @first (0 samples, 1 loads). */
static int counts_cols(struct hm_tui_table *t, int c, int first)
{
	char name[32];

	for (int i = first; i < HM_COUNTS_NR_COLS; i++) {
		upper(name, hm_counts__col_names[i], sizeof(name));
		hm_tui_table__col(t, c++, name, HM_TUI_COL_INT, 0);
	}
	return c;
}

static int counts_row(struct hm_tui_table *t, long row, int c, int first, const struct hm_counts *x)
{
	for (int i = first; i < HM_COUNTS_NR_COLS; i++)
		hm_tui_table__num(t, row, c++, hm_counts__col(x, i));
	return c;
}

static const struct hm_buckets *buckets_of(const struct hm_report *r)
{
	const struct hm_buckets *b = hm_report__buckets(r);

	if (!b)
		errno = ENOENT;
	return b;
}

/* The lines hm_waits__render_text prints, as the table's foot. */
static int foot_text(struct hm_tui_table *t, const struct hm_waits *w)
{
	char *buf = NULL, *p, *e;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f)
		return -ENOMEM;
	err = hm_waits__render_text(w, f);
	if (fclose(f) && !err)
		err = -ENOMEM;
	for (p = buf; !err && p && *p; p = e + 1) {
		e = strchr(p, '\n');
		if (e)
			*e = 0;
		err = hm_tui_table__foot_add(t, p);
		if (!e)
			break;
	}
	free(buf);
	return err;
}

struct hm_tui_table *hm_tui_futex__buckets(const struct hm_report *r)
{
	const struct hm_buckets *b = buckets_of(r);
	const struct hm_futex_model *fm = hm_report__futex(r);
	u32 bsz = fm->layout.bucket_size ? fm->layout.bucket_size : 64;
	struct hm_tui_table *t;
	char title[256], name[32], funcs[256];
	struct hm_buckets_totals tot;
	struct bk_row *br;
	bool mem, cont;
	int nc, c, err = 0;
	u32 *o, n, i, s;

	if (!b)
		return NULL;
	hm_buckets__totals(b, &tot);
	mem = hm_buckets__memory_mode(b, r);
	cont = tot.contentions || !mem;
	if (mem)
		snprintf(title, sizeof(title), "Futex buckets (--by bucket): %u buckets, %" PRIu64 " samples in futex memory, %"
			 PRIu64 " resolved, %" PRIu64 " other futex objects", tot.nr, tot.futex_samples, tot.resolved, tot.objects);
	else
		snprintf(title, sizeof(title), "Futex buckets (--by bucket), contention mode: %u buckets contended, %" PRIu64
			 " lock contentions, %" PRIu64 " on bucket locks", tot.nr, tot.contentions, tot.contentions_resolved);
	/* TABLE NODE INDEX [HITM LOADS .. STORES COST] [CONTENDED WAIT_US AVG_US MAX_US] [Sn ..] FIELD FUNCTIONS */
	nc = 3 + (mem ? 1 + HM_COUNTS_NR_COLS - 1 + 1 : 0) + (cont ? 4 : 0) + (mem ? 3 * tot.nr_sockets : 0) + 2;
	t = hm_tui_table__new(title, nc);
	if (!t)
		return NULL;
	hm_tui_table__col(t, 0, "TABLE", HM_TUI_COL_TEXT, 28);
	hm_tui_table__col(t, 1, "NODE", HM_TUI_COL_INT, 0);
	hm_tui_table__col(t, 2, "INDEX", HM_TUI_COL_INT, 0);
	c = 3;
	hm_tui_table__sort_first(t, 3);		/* HITM, or CONTENDED */
	if (mem) {
		hm_tui_table__col(t, c++, "HITM", HM_TUI_COL_INT, 0);	/* local + xdie + remote */
		c = counts_cols(t, c, 1);
		hm_tui_table__col(t, c++, "COST", HM_TUI_COL_INT, 0);
	}
	if (cont) {
		hm_tui_table__col(t, c++, "CONTENDED", HM_TUI_COL_INT, 0);
		hm_tui_table__col(t, c++, "WAIT_US", HM_TUI_COL_FIX1, 0);
		hm_tui_table__col(t, c++, "AVG_US", HM_TUI_COL_FIX2, 0);
		hm_tui_table__col(t, c++, "MAX_US", HM_TUI_COL_FIX1, 0);
	}
	for (s = 0; mem && s < tot.nr_sockets; s++) {
		snprintf(name, sizeof(name), "S%u_LOADS", s);
		hm_tui_table__col(t, c++, name, HM_TUI_COL_INT, 0);
		snprintf(name, sizeof(name), "S%u_HITM", s);
		hm_tui_table__col(t, c++, name, HM_TUI_COL_INT, 0);
		snprintf(name, sizeof(name), "S%u_STORES", s);
		hm_tui_table__col(t, c++, name, HM_TUI_COL_INT, 0);
	}
	hm_tui_table__col(t, c++, "FIELD", HM_TUI_COL_TEXT, 8);
	hm_tui_table__col(t, c++, mem ? "FUNCTIONS" : "CALLERS", HM_TUI_COL_TEXT, 0);

	o = hm_buckets__order(b, HM_BY_BUCKET, &n);
	br = calloc(1, sizeof(*br));
	if (!o || !br || hm_tui_table__reserve(t, (size_t)n + tot.nr_objs)) {
		free(o);
		free(br);
		goto nomem;
	}
	for (i = 0; i < n && !err; i++) {
		const struct hm_futex_table *ft;
		struct hm_bucket_info e;
		long row;
		int hf;

		hm_buckets__bucket(b, o[i], &e);
		ft = e.table >= 0 ? &fm->tables[e.table] : NULL;
		row = hm_tui_table__row_add(t, ft ? ft->base + e.index * bsz : e.index, ft ? bsz : 64);
		hf = hm_buckets__row(b, o[i], false, br, funcs, sizeof(funcs));
		if (row < 0)
			break;
		if (!ft)
			snprintf(name, sizeof(name), "unknown");
		else if (ft->kind)
			snprintf(name, sizeof(name), "private:%d", ft->pid);
		else
			snprintf(name, sizeof(name), "global");
		err = hm_tui_table__str(t, row, 0, name);
		hm_tui_table__num(t, row, 1, ft && !ft->kind ? ft->node : NAN);
		hm_tui_table__num(t, row, 2, ft ? (double)e.index : NAN);
		c = 3;
		if (mem) {
			hm_tui_table__num(t, row, c++, hm_counts__hitm(&br->st));
			c = counts_row(t, row, c, 1, &br->st);
			hm_tui_table__num(t, row, c++, e.cost);
		}
		if (cont) {
			hm_tui_table__num(t, row, c++, e.contended);
			hm_tui_table__num(t, row, c++, e.wait_ns / 1e3);
			hm_tui_table__num(t, row, c++, e.waits ? e.wait_ns / 1e3 / e.waits : 0.0);
			hm_tui_table__num(t, row, c++, e.wait_max_ns / 1e3);
		}
		for (s = 0; mem && s < tot.nr_sockets; s++) {
			hm_tui_table__num(t, row, c++, br->sock[s].loads);
			hm_tui_table__num(t, row, c++, hm_counts__hitm(&br->sock[s]));
			hm_tui_table__num(t, row, c++, br->sock[s].stores);
		}
		if (!err)
			err = hm_tui_table__str(t, row, c++, hf >= 0 ? hm_futex_field__name(hf) : "-");
		if (!err)
			err = hm_tui_table__str(t, row, c++, funcs);
	}
	free(o);
	free(br);
	if (i < n || err)
		goto nomem;
	/* the other futex memory (fph header, mm fields), beside the buckets */
	for (i = 0; i < tot.nr_objs && !err; i++) {
		struct hm_bucket_object x;
		long row;

		hm_buckets__object(b, i, &x);
		row = hm_tui_table__row_add(t, x.addr, 64);
		if (row < 0)
			goto nomem;
		err = hm_tui_table__str(t, row, 0, x.name);
		for (c = 1; c < nc - 2; c++)	/* what a bucket has and an object not: "-" */
			hm_tui_table__num(t, row, c, NAN);
		if (mem) {
			hm_tui_table__num(t, row, 3, hm_counts__hitm(&x.st));
			c = counts_row(t, row, 4, 1, &x.st);
			hm_tui_table__num(t, row, c++, x.cost);
		}
		if (!err)
			err = hm_tui_table__str(t, row, nc - 2, "-");
	}
	if (!err && tot.contentions)
		err = foot_text(t, hm_buckets__callers(b));
	if (err)
		goto nomem;
	return t;
nomem:
	hm_tui_table__delete(t);
	errno = ENOMEM;
	return NULL;
}

struct hm_tui_table *hm_tui_futex__fields(const struct hm_report *r)
{
	static const char *const kind[] = { "global", "private", "unknown" };
	const struct hm_buckets *b = buckets_of(r);
	struct hm_buckets_totals tot;
	struct hm_tui_table *t;
	char title[160];
	u32 *o, n, i;
	int c, err = 0;

	if (!b)
		return NULL;
	hm_buckets__totals(b, &tot);
	snprintf(title, sizeof(title), "Bucket fields x access x function (--by field): %" PRIu64 " bucket samples",
		 tot.resolved + tot.unknown_index);
	t = hm_tui_table__new(title, 3 + 1 + HM_COUNTS_NR_COLS + 2);
	if (!t)
		return NULL;
	hm_tui_table__col(t, 0, "TABLE", HM_TUI_COL_TEXT, 8);
	hm_tui_table__col(t, 1, "FIELD", HM_TUI_COL_TEXT, 8);
	hm_tui_table__col(t, 2, "ACCESS", HM_TUI_COL_TEXT, 7);
	hm_tui_table__col(t, 3, "HITM", HM_TUI_COL_INT, 0);
	hm_tui_table__sort_first(t, 3);
	c = counts_cols(t, 4, 0);
	hm_tui_table__col(t, c++, "COST", HM_TUI_COL_INT, 0);
	hm_tui_table__col(t, c, "FUNCTION", HM_TUI_COL_TEXT, 0);
	o = hm_buckets__order(b, HM_BY_FIELD, &n);
	if (!o)
		goto nomem;
	for (i = 0; i < n && !err; i++) {
		struct hm_bucket_field_row x;
		long row = hm_tui_table__row_add(t, 0, 0);

		if (row < 0)
			break;
		hm_buckets__field_row(b, o[i], &x);
		err = hm_tui_table__str(t, row, 0, kind[x.kind < 3 ? x.kind : 2]);
		if (!err)
			err = hm_tui_table__str(t, row, 1, hm_futex_field__name(x.field));
		if (!err)
			err = hm_tui_table__str(t, row, 2, x.access);
		hm_tui_table__num(t, row, 3, hm_counts__hitm(&x.st));
		c = counts_row(t, row, 4, 0, &x.st);
		hm_tui_table__num(t, row, c++, x.cost);
		if (!err)
			err = hm_tui_table__str(t, row, c, x.func);
	}
	free(o);
	if (i < n || err)
		goto nomem;
	return t;
nomem:
	hm_tui_table__delete(t);
	errno = ENOMEM;
	return NULL;
}

/* The HITM matrix --stdio prints under the socket table. */
static int foot_line(void *t, const char *line)
{
	return hm_tui_table__foot_add(t, line);
}

struct hm_tui_table *hm_tui_futex__sockets(const struct hm_report *r)
{
	const struct hm_buckets *b = buckets_of(r);
	struct hm_buckets_totals tot;
	struct hm_tui_table *t;
	bool mem, cont;
	int c, err = 0;

	if (!b)
		return NULL;
	hm_buckets__totals(b, &tot);
	mem = hm_buckets__memory_mode(b, r);
	cont = tot.contentions != 0;
	t = hm_tui_table__new(mem ? "Sockets (--by socket): requesting CPU socket x data home node" :
			      "Sockets (--by socket), contention mode: requesting CPU socket x table node",
			      2 + (mem ? HM_COUNTS_NR_COLS : 0) + (cont ? 3 : 0));
	if (!t)
		return NULL;
	hm_tui_table__col(t, 0, "SOCKET", HM_TUI_COL_INT, 0);
	hm_tui_table__col(t, 1, "NODE", HM_TUI_COL_TEXT, 8);
	hm_tui_table__sort_first(t, 2);
	c = mem ? counts_cols(t, 2, 0) : 2;
	if (cont) {
		hm_tui_table__col(t, c++, "CONTENDED", HM_TUI_COL_INT, 0);
		hm_tui_table__col(t, c++, "WAIT_US", HM_TUI_COL_FIX1, 0);
		hm_tui_table__col(t, c++, "AVG_US", HM_TUI_COL_FIX2, 0);
	}
	for (u32 s = 0; s < tot.nr_sockets && !err; s++)
		for (u32 n = 0; n <= tot.nr_nodes && !err; n++) {
			struct hm_bucket_cell x;
			u64 nc;
			char nb[16];
			long row;

			hm_buckets__cell(b, s, n, &x);
			nc = cont ? x.contentions : 0;
			if (!(mem && x.st.samples) && !nc)
				continue;
			row = hm_tui_table__row_add(t, s, n);
			if (row < 0) {
				err = -ENOMEM;
				break;
			}
			if (n)
				snprintf(nb, sizeof(nb), "%u", n - 1);
			else	/* memory: the data's node unknown; contention: a private hash */
				snprintf(nb, sizeof(nb), "%s", mem ? "unknown" : "private");
			hm_tui_table__num(t, row, 0, s);
			err = hm_tui_table__str(t, row, 1, nb);
			c = mem ? counts_row(t, row, 2, 0, &x.st) : 2;
			if (cont) {
				hm_tui_table__num(t, row, c++, nc);
				hm_tui_table__num(t, row, c++, x.wait_ns / 1e3);
				hm_tui_table__num(t, row, c++, nc ? x.wait_ns / 1e3 / nc : 0.0);
			}
		}
	if (!err && mem)
		err = hm_buckets__matrix_lines(b, foot_line, t);
	else if (!err && !cont)
		err = hm_tui_table__foot_add(t, "Futex bucket lock contention (contention mode): nothing contended "
					     "while recording");
	if (err) {
		hm_tui_table__delete(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

bool hm_tui_futex__memory_mode(const struct hm_report *r)
{
	const struct hm_buckets *b = hm_report__buckets(r);

	return b && hm_buckets__memory_mode(b, r);
}
