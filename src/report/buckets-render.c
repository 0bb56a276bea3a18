// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rendering of the futex views (--by bucket, --by field, --by socket) from
 * the aggregation buckets.c builds: text, JSON and CSV.  The columns are
 * hitmap's precise categories (counts.h); --perf-counters adds perf's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include "buckets-int.h"
#include "names.h"
#include "rowfmt.h"
#include "util/prefetch.h"

#define acc_names hm_bk_acc_names

/* ------------------------------------------------------------ rendering */

static const struct hm_buckets *sort_ctx;

static int cmp_frow(const void *a, const void *b)
{
	const struct frow *x = &sort_ctx->frows[*(const u32 *)a], *y = &sort_ctx->frows[*(const u32 *)b];
	int c;

	if (hm_counts__hitm(&x->st) != hm_counts__hitm(&y->st))
		return hm_counts__hitm(&x->st) > hm_counts__hitm(&y->st) ? -1 : 1;
	if (x->st.samples != y->st.samples)
		return x->st.samples > y->st.samples ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->field != y->field)
		return x->field - y->field;
	if (x->acc != y->acc)
		return x->acc - y->acc;
	c = strcmp(x->func, y->func);
	return c;
}

static u32 *sorted(const struct hm_buckets *b, u32 n, int (*cmp)(const void *, const void *))
{
	u32 *o = malloc((n ? n : 1) * sizeof(*o)), i;

	if (!o)
		return NULL;
	for (i = 0; i < n; i++)
		o[i] = i;
	sort_ctx = b;
	qsort(o, n, sizeof(*o), cmp);
	return o;
}

static const char *kind_name(u8 kind)
{
	return kind == 0 ? "global" : kind == 1 ? "private" : "unknown";
}

static void table_name(const struct hm_report *r, const struct bk *e, char *buf, size_t size,
		       int *node, s32 *pid)
{
	*node = -1;
	*pid = -1;
	if (e->table < 0) {
		snprintf(buf, size, "unknown");
		return;
	}
	const struct hm_futex_table *t = &hm_report__futex(r)->tables[e->table];

	if (t->kind) {
		*pid = t->pid;
		snprintf(buf, size, "private:%d", t->pid);
	} else {
		*node = t->node;
		memcpy(buf, "global", sizeof("global"));
	}
}

/* The bucket's line name (names.c), as the line table, the HTML page and the diff call it. */
static void bucket_line_name(const struct hm_report *r, u64 addr, char *buf, size_t size)
{
	struct hm_namer n = { .futex = hm_report__futex(r) };
	struct hm_line_ref ref = { .line = addr, .first_addr = addr, .pid = 0 };

	hm_name__line(&n, &ref, buf, size);
}

static int hottest_field(const struct bk *e, const struct bk_row *row)
{
	int f, best = -1;

	if (!row->st.samples && e->contended)
		return HM_FUTEX_FIELD_LOCK;	/* contention mode: the lock is all there is */
	for (f = 0; f < HM_FUTEX_FIELD__MAX; f++) {
		u32 h = hm_counts__hitm(&row->field[f].st), hb;

		if (!row->field[f].st.samples)
			continue;
		hb = best < 0 ? 0 : hm_counts__hitm(&row->field[best].st);
		if (best < 0 || h > hb || (h == hb && row->field[f].st.samples > row->field[best].st.samples))
			best = f;
	}
	return best;
}

static void sort_funcs(struct bk_field *f)
{
	int i, k;

	for (i = 1; i < MAX_FUNCS && f->func[i].name; i++)
		for (k = i; k > 0 && (f->func[k].n > f->func[k - 1].n ||
			(f->func[k].n == f->func[k - 1].n && strcmp(f->func[k].name, f->func[k - 1].name) < 0)); k--) {
			struct bk_func t = f->func[k];

			f->func[k] = f->func[k - 1];
			f->func[k - 1] = t;
		}
}

/* snprintf(buf + len, size - len, "%s", s) when len < size; the length it would reach */
static size_t append(char *buf, size_t len, size_t size, const char *s, size_t n)
{
	if (len < size) {
		size_t k = n < size - len - 1 ? n : size - len - 1;

		memcpy(buf + len, s, k);
		buf[len + k] = 0;
	}
	return len + n;
}

/* "name(n),name(n)...,+other", cut at @size like snprintf */
static void funcs_text(const struct bk_field *f, char *buf, size_t size)
{
	size_t len = 0;
	char num[24];
	int i;

	buf[0] = 0;
	for (i = 0; i < MAX_FUNCS && f->func[i].name && len < size; i++) {
		if (i)
			len = append(buf, len, size, ",", 1);
		len = append(buf, len, size, f->func[i].name, strlen(f->func[i].name));
		num[0] = '(';
		*hm_row__u(num + 1, f->func[i].n, 0) = 0;
		strcat(num, ")");
		len = append(buf, len, size, num, strlen(num));
	}
	if (f->other_funcs && len < size) {
		num[0] = ',';
		num[1] = '+';
		*hm_row__u(num + 2, f->other_funcs, 0) = 0;
		append(buf, len, size, num, strlen(num));
	}
}

static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}


/* A view's JSON object: its name and which counting it shows; the caller closes it. */
static struct hm_json *json_view_begin(FILE *f, const char *view, const struct hm_report *r, bool perf)
{
	struct hm_json *j = hm_json__new(f, true);

	hm_json__obj_begin(j, NULL);
	hm_json__str(j, "view", view);
	hm_counts__json_counting(j, r, perf);
	return j;
}

/* How the futex tables were found (metadata, inferred, given) or why none were: every view says it. */
static const char *geometry_of(const struct hm_report *r)
{
	return hm_report__futex(r)->geometry[0] ? hm_report__futex(r)->geometry : "none";
}

static void json_summary(struct hm_json *j, const struct hm_buckets *b)
{
	hm_json__obj_begin(j, "summary");
	hm_json__u64(j, "futex_samples", b->futex_samples);
	hm_json__u64(j, "resolved", b->resolved);
	hm_json__u64(j, "unknown_index", b->unknown_index);
	hm_json__u64(j, "other_objects", b->objects);
	hm_json__u64(j, "contentions", b->contentions);
	hm_json__u64(j, "contentions_on_buckets", b->contentions_resolved);
	hm_json__u64(j, "contentions_with_callchain", b->contentions_chained);
	hm_json__u64(j, "contentions_at_bucket_sites", b->contentions_at_sites);
	hm_json__u64(j, "contentions_at_bucket_sites_on_buckets", b->contentions_at_sites_resolved);
	hm_json__double(j, "resolved_fraction", b->futex_samples ?
			(double)(b->resolved + b->objects) / b->futex_samples : 1.0);
	hm_json__obj_end(j);
}

static void render_objects_text(const struct hm_buckets *b, const struct hm_report *r, bool perf, FILE *f)
{
	char ln[64];
	u32 i;

	if (!b->nr_objs)
		return;
	fprintf(f, "\nOther futex memory (not buckets)\n");
	fprintf(f, "%-28s %-24s %7s %-18s", "OBJECT", "NAME", "PID", "LINE");
	hm_counts__text_header(f, perf, false);
	fprintf(f, " %10s\n", "COST");
	for (i = 0; i < b->nr_objs; i++) {
		const struct obj *o = &b->objs[i];

		hm_name__futex_object(hm_report__futex(r), o->name, o->pid, o->addr, ln, sizeof(ln));
		fprintf(f, "%-28s %-24s %7d 0x%-16" PRIx64, o->name, ln, o->pid, o->addr);
		hm_counts__text(f, &o->st, perf, false);
		fprintf(f, " %10" PRIu64 "\n", o->cost);
	}
}

/* Memory columns mean something: not a contention-mode file (lock tracepoints only). */
static bool memory_mode(const struct hm_buckets *b, const struct hm_report *r)
{
	if (b->futex_samples)
		return true;
	if (b->contentions)
		return false;
	return !hm_report__has_contention_events(r);
}

static int render_bucket(const struct hm_buckets *b, const struct hm_report *r, enum hm_format fmt, bool perf, FILE *f)
{
	u32 n, *o = hm_buckets__order(b, HM_BY_BUCKET, &n), i, s;
	struct bk_row *br = calloc(1, sizeof(*br));
	char tname[32], funcs[256], lname[64];
	/* a text row: the fixed columns, up to MAX_SOCKETS socket groups, a field and funcs */
	char row[512 + HM_COUNTS_TEXT_MAX + MAX_SOCKETS * 32 + sizeof(funcs) + HM_ROW_SLACK];
	struct hm_json *j = NULL;
	int node;
	s32 pid;
	/* columns the file's mode can fill: memory samples, or only lock contention */
	bool mem = memory_mode(b, r);

	if (!o || !br) {
		free(o);
		free(br);
		return -ENOMEM;
	}
	if (fmt == HM_FMT_JSON) {
		j = json_view_begin(f, "bucket", r, perf);
		hm_json__str(j, "era", hm_futex_era__name(hm_report__futex(r)->era));
		hm_json__str(j, "layout", hm_report__futex(r)->layout.source);
		hm_json__str(j, "geometry", geometry_of(r));
		hm_json__u64(j, "sockets", b->nr_sockets);
		json_summary(j, b);
		hm_json__arr_begin(j, "tables");
		for (i = 0; i < hm_report__futex(r)->nr_tables; i++) {
			const struct hm_futex_table *t = &hm_report__futex(r)->tables[i];

			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "kind", t->kind ? "private" : "global");
			hm_json__s64(j, t->kind ? "pid" : "node", t->kind ? t->pid : t->node);
			hm_json__hex(j, "base", t->base);
			hm_json__u64(j, "slots", t->slots);
			hm_json__str(j, "provenance", t->provenance);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
		hm_json__arr_begin(j, "buckets");
	} else if (fmt == HM_FMT_CSV) {
		fprintf(f, "table,node,pid,index,addr");
		hm_counts__csv_header(f, perf);
		fprintf(f, ",cost");
		for (s = 0; s < b->nr_sockets; s++)
			fprintf(f, ",s%u_loads,s%u_hitm_local,s%u_hitm_xdie,s%u_hitm_remote,s%u_stores", s, s, s, s, s);
		fprintf(f, ",hottest_field,functions,contended,wait_ns,name\n");
	} else {
		if (mem)
			fprintf(f, "Futex hash buckets: %u buckets, %" PRIu64 " samples in futex memory, %" PRIu64
				" resolved to a bucket, %" PRIu64 " other futex objects, %" PRIu64 " with unknown index\n",
				b->nr, b->futex_samples, b->resolved, b->objects, b->unknown_index);
		else
			fprintf(f, "Futex hash buckets, contention mode (lock tracepoints, no memory samples): %u buckets contended\n",
				b->nr);
		if (b->contentions || !mem)
			fprintf(f, "contention mode: %" PRIu64 " lock contentions, %" PRIu64 " on bucket locks of known tables%s\n",
				b->contentions, b->contentions_resolved,
				b->contentions ? "" : " (nothing contended while recording: more threads, fewer buckets, a longer run)");
		if (b->contentions_chained)	/* call chains tell bucket-lock sites from other locks */
			fprintf(f, "contention mode: %" PRIu64 " of them at futex bucket-lock call sites, %" PRIu64
				" of those on bucket locks of known tables%s\n", b->contentions_at_sites,
				b->contentions_at_sites_resolved, b->contentions_at_sites < b->contentions ?
				" (the others waited on other locks)" : "");
		fprintf(f, "era %s, layout %s\n", hm_futex_era__name(hm_report__futex(r)->era), hm_report__futex(r)->layout.source);
		fprintf(f, "tables: %s\n", geometry_of(r));
		if (mem)
			hm_counts__text_counting(f, r, perf);
		if (b->nr) {	/* no empty table: the "tables:" line says why */
			fprintf(f, "\n%-14s %4s %8s", "TABLE", "NODE", "INDEX");
			if (mem) {
				hm_counts__text_header(f, perf, false);
				fprintf(f, " %10s", "COST");
			}
			if (b->contentions || !mem)
				fprintf(f, " %9s %10s %9s %10s", "CONTENDED", "WAIT_US", "AVG_US", "MAX_US");
			for (s = 0; mem && s < b->nr_sockets; s++)
				fprintf(f, " | S%-2u %6s %6s %6s", s, "LOADS", "HITM", "STORES");	/* HITM: local+xdie+remote */
			fprintf(f, " | %-8s %s\n", "FIELD", mem ? "FUNCTIONS" : "CALLERS");
		}
	}
	for (i = 0; i < b->nr; i++) {
		const struct bk *e = &b->b[o[i]];
		int hf;

		/* rows in the view's order are at random: fetch the next ones' buckets, then entries */
		if (i + 8 < b->nr)
			hm_prefetch(&b->b[o[i + 8]]);
		if (i + 4 < b->nr)
			hm_prefetch(b->b[o[i + 4]].ent);
		hf = hm_buckets__row(b, o[i], perf, br, funcs, sizeof(funcs));
		u64 addr = 0;

		table_name(r, e, tname, sizeof(tname), &node, &pid);
		if (e->table >= 0)
			addr = hm_report__futex(r)->tables[e->table].base + e->index * (hm_report__futex(r)->layout.bucket_size ? hm_report__futex(r)->layout.bucket_size : 64);
		else
			addr = e->index;
		if (fmt != HM_FMT_TEXT)	/* the text row has no name column */
			bucket_line_name(r, addr, lname, sizeof(lname));
		if (j) {
			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "table", e->table < 0 ? "unknown" : pid >= 0 ? "private" : "global");
			if (node >= 0)
				hm_json__s64(j, "node", node);
			else
				hm_json__str(j, "node", NULL);
			if (pid >= 0)
				hm_json__s64(j, "pid", pid);
			if (e->table >= 0)
				hm_json__u64(j, "index", e->index);
			else
				hm_json__str(j, "index", NULL);	/* unknown, never a guess */
			hm_json__hex(j, "addr", addr);
			hm_json__str(j, "name", lname);
			hm_counts__json(j, &br->st, perf);
			hm_json__u64(j, "cost", e->cost);
			hm_json__u64(j, "contended", e->contended);
			hm_json__u64(j, "wait_ns", e->wait_ns);
			hm_json__u64(j, "avg_wait_ns", e->waits ? e->wait_ns / e->waits : 0);
			hm_json__u64(j, "max_wait_ns", e->wait_max_ns);
			hm_json__arr_begin(j, "sockets");
			for (s = 0; s < b->nr_sockets; s++) {
				hm_json__obj_begin(j, NULL);
				hm_json__u64(j, "socket", s);
				hm_counts__json(j, &br->sock[s], perf);
				hm_json__obj_end(j);
			}
			hm_json__arr_end(j);
			hm_json__str(j, "hottest_field", hf >= 0 ? hm_futex_field__name(hf) : NULL);
			hm_json__arr_begin(j, "fields");
			for (int fl = 0; fl < HM_FUTEX_FIELD__MAX; fl++) {
				const struct bk_field *bf = &br->field[fl];

				if (!bf->st.samples)
					continue;
				hm_json__obj_begin(j, NULL);
				hm_json__str(j, "field", hm_futex_field__name(fl));
				hm_counts__json(j, &bf->st, perf);
				hm_json__arr_begin(j, "functions");
				for (int k = 0; k < MAX_FUNCS && bf->func[k].name; k++) {
					hm_json__obj_begin(j, NULL);
					hm_json__str(j, "name", bf->func[k].name);
					hm_json__u64(j, "samples", bf->func[k].n);
					hm_json__obj_end(j);
				}
				hm_json__arr_end(j);
				if (bf->other_funcs)
					hm_json__u64(j, "other_function_samples", bf->other_funcs);
				hm_json__obj_end(j);
			}
			hm_json__arr_end(j);
			hm_json__obj_end(j);
		} else if (fmt == HM_FMT_CSV) {
			fprintf(f, "%s,", e->table < 0 ? "unknown" : pid >= 0 ? "private" : "global");
			if (node >= 0)
				fprintf(f, "%d", node);
			fprintf(f, ",");
			if (pid >= 0)
				fprintf(f, "%d", pid);
			fprintf(f, ",");
			if (e->table >= 0)
				fprintf(f, "%" PRIu64, e->index);
			fprintf(f, ",0x%" PRIx64, addr);
			hm_counts__csv(f, &br->st, perf);
			fprintf(f, ",%" PRIu64, e->cost);
			for (s = 0; s < b->nr_sockets; s++)
				fprintf(f, ",%u,%u,%u,%u,%u", br->sock[s].loads, br->sock[s].cat[HM_CAT_HITM_LOCAL],
					br->sock[s].cat[HM_CAT_HITM_XDIE], br->sock[s].cat[HM_CAT_HITM_REMOTE],
					br->sock[s].stores);
			fprintf(f, ",%s,", hf >= 0 ? hm_futex_field__name(hf) : "");
			csv_str(f, funcs);
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%s\n", e->contended, e->wait_ns, lname);
		} else {
			/* one row, one write (rowfmt.h): the same bytes as printf's conversions */
			char *p = row;

			p = hm_row__s(p, tname, 14);
			*p++ = ' ';
			p = node >= 0 ? hm_row__u(p, (u64)node, 4) : hm_row__s(p, "-", -4);
			*p++ = ' ';
			if (e->table >= 0)
				p = hm_row__u(p, e->index, 8);
			else
				p = hm_row__s(p, "unknown", -8);
			if (mem) {
				p = hm_counts__text_row(p, &br->st, perf, false);
				*p++ = ' ';
				p = hm_row__u(p, e->cost, 10);
			}
			if (b->contentions || !mem)
				p += snprintf(p, 96, " %9" PRIu64 " %10.1f %9.2f %10.1f", e->contended, e->wait_ns / 1e3,
					      e->waits ? e->wait_ns / 1e3 / e->waits : 0.0, e->wait_max_ns / 1e3);
			for (s = 0; mem && s < b->nr_sockets; s++) {
				p = hm_row__s(p, " |     ", 0);
				p = hm_row__u(p, br->sock[s].loads, 6);
				*p++ = ' ';
				p = hm_row__u(p, hm_counts__hitm(&br->sock[s]), 6);
				*p++ = ' ';
				p = hm_row__u(p, br->sock[s].stores, 6);
			}
			p = hm_row__s(p, " | ", 0);
			p = hm_row__s(p, hf >= 0 ? hm_futex_field__name(hf) : "-", 8);
			*p++ = ' ';
			p = hm_row__s(p, funcs, 0);
			if (e->table < 0) {
				p = hm_row__s(p, "  (line 0x", 0);
				p = hm_row__x(p, addr);
				p = hm_row__s(p, ": table unknown)", 0);
			}
			*p++ = '\n';
			fwrite(row, 1, (size_t)(p - row), f);
		}
	}
	if (j) {
		hm_json__arr_end(j);
		if (b->contentions)
			hm_waits__render_json(b->callers, j, "callers");
		hm_json__arr_begin(j, "objects");
		for (i = 0; i < b->nr_objs; i++) {
			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "object", b->objs[i].name);
			hm_name__futex_object(hm_report__futex(r), b->objs[i].name, b->objs[i].pid, b->objs[i].addr,
					      lname, sizeof(lname));
			hm_json__str(j, "name", lname);
			hm_json__s64(j, "pid", b->objs[i].pid);
			hm_json__hex(j, "line", b->objs[i].addr);
			hm_counts__json(j, &b->objs[i].st, perf);
			hm_json__u64(j, "cost", b->objs[i].cost);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
		hm_json__obj_end(j);
		hm_json__delete(j);
	} else if (fmt == HM_FMT_CSV) {
		for (i = 0; i < b->nr_objs; i++) {
			fprintf(f, "object:%s,,%d,,0x%" PRIx64, b->objs[i].name, b->objs[i].pid, b->objs[i].addr);
			hm_counts__csv(f, &b->objs[i].st, perf);
			fprintf(f, ",%" PRIu64 "\n", b->objs[i].cost);
		}
	} else {
		render_objects_text(b, r, perf, f);
		if (b->contentions && hm_waits__render_text(b->callers, f) < 0) {
			free(o);
			free(br);
			return -ENOMEM;
		}
	}
	free(o);
	free(br);
	return 0;
}

static int render_field(const struct hm_buckets *b, const struct hm_report *r, enum hm_format fmt, bool perf, FILE *f)
{
	u32 *o = sorted(b, b->nr_frows, cmp_frow), i;
	struct hm_json *j = NULL;

	if (!o)
		return -ENOMEM;
	if (fmt == HM_FMT_JSON) {
		j = json_view_begin(f, "field", r, perf);
		hm_json__str(j, "geometry", geometry_of(r));
		json_summary(j, b);
		hm_json__arr_begin(j, "fields");
	} else if (fmt == HM_FMT_CSV) {
		fprintf(f, "table,field,access,function");
		hm_counts__csv_header(f, perf);
		fprintf(f, ",cost\n");
	} else {
		fprintf(f, "Futex bucket fields x access x function (%" PRIu64 " bucket samples)\n", b->resolved + b->unknown_index);
		fprintf(f, "tables: %s\n", geometry_of(r));
		hm_counts__text_counting(f, r, perf);
		fprintf(f, "\n%-8s %-8s %-7s", "TABLE", "FIELD", "ACCESS");
		hm_counts__text_header(f, perf, true);
		fprintf(f, " %10s  %s\n", "COST", "FUNCTION");
	}
	for (i = 0; i < b->nr_frows; i++) {
		const struct frow *x = &b->frows[o[i]];

		if (j) {
			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "table", kind_name(x->kind));
			hm_json__str(j, "field", hm_futex_field__name(x->field));
			hm_json__str(j, "access", acc_names[x->acc]);
			hm_json__str(j, "function", x->func);
			hm_counts__json(j, &x->st, perf);
			hm_json__u64(j, "cost", x->cost);
			hm_json__obj_end(j);
		} else if (fmt == HM_FMT_CSV) {
			fprintf(f, "%s,%s,%s,", kind_name(x->kind), hm_futex_field__name(x->field), acc_names[x->acc]);
			csv_str(f, x->func);
			hm_counts__csv(f, &x->st, perf);
			fprintf(f, ",%" PRIu64 "\n", x->cost);
		} else {
			fprintf(f, "%-8s %-8s %-7s", kind_name(x->kind), hm_futex_field__name(x->field), acc_names[x->acc]);
			hm_counts__text(f, &x->st, perf, true);
			fprintf(f, " %10" PRIu64 "  %s\n", x->cost, x->func);
		}
	}
	if (j) {
		hm_json__arr_end(j);
		hm_json__obj_end(j);
		hm_json__delete(j);
	} else if (fmt != HM_FMT_CSV) {
		render_objects_text(b, r, perf, f);
	}
	free(o);
	return 0;
}

static int put_line(void *f, const char *line)
{
	fprintf(f, "%s\n", line);
	return 0;
}

static int render_socket(const struct hm_buckets *b, const struct hm_report *r, enum hm_format fmt, bool perf, FILE *f)
{
	struct hm_json *j = NULL;
	u32 s, n, h;
	bool matrix = b->nr_sockets <= 2;
	bool mem = memory_mode(b, r);	/* contention mode alone: no memory tables */

	if (fmt == HM_FMT_JSON) {
		j = json_view_begin(f, "socket", r, perf);
		hm_json__str(j, "geometry", geometry_of(r));
		json_summary(j, b);
		hm_json__arr_begin(j, "xfer");
	} else if (fmt == HM_FMT_CSV) {
		fprintf(f, "socket,node");
		hm_counts__csv_header(f, perf);
		fputc('\n', f);
	} else if (mem) {
		fprintf(f, "Futex bucket accesses: requesting CPU socket x data home node\n");
		fprintf(f, "tables: %s\n", geometry_of(r));
		hm_counts__text_counting(f, r, perf);
		fprintf(f, "\n%-7s %-7s", "SOCKET", "NODE");
		hm_counts__text_header(f, perf, true);
		fputc('\n', f);
	} else {
		fprintf(f, "tables: %s\n", geometry_of(r));	/* contention mode: the lock table follows */
	}
	for (s = 0; s < b->nr_sockets; s++) {
		for (n = 0; n <= b->nr_nodes; n++) {
			const struct hm_counts *x = &b->xfer[s * (b->nr_nodes + 1) + n];
			char nb[16];

			if (!x->samples)
				continue;
			if (n)
				snprintf(nb, sizeof(nb), "%u", n - 1);
			else
				snprintf(nb, sizeof(nb), "unknown");
			if (j) {
				hm_json__obj_begin(j, NULL);
				hm_json__u64(j, "socket", s);
				if (n)
					hm_json__u64(j, "node", n - 1);
				else
					hm_json__str(j, "node", NULL);
				hm_counts__json(j, x, perf);
				hm_json__obj_end(j);
			} else if (fmt == HM_FMT_CSV) {
				fprintf(f, "%u,%s", s, n ? nb : "");
				hm_counts__csv(f, x, perf);
				fputc('\n', f);
			} else {
				fprintf(f, "%-7u %-7s", s, nb);
				hm_counts__text(f, x, perf, true);
				fputc('\n', f);
			}
		}
	}
	if (j) {
		hm_json__arr_end(j);
		if (b->contentions) {
			hm_json__arr_begin(j, "contention");
			for (s = 0; s < b->nr_sockets; s++)
				for (n = 0; n <= b->nr_nodes; n++) {
					u32 c = s * (b->nr_nodes + 1) + n;

					if (!b->cont[c])
						continue;
					hm_json__obj_begin(j, NULL);
					hm_json__u64(j, "socket", s);
					if (n)
						hm_json__u64(j, "node", n - 1);
					else
						hm_json__str(j, "node", NULL);
					hm_json__u64(j, "contended", b->cont[c]);
					hm_json__u64(j, "wait_ns", b->cont_wait[c]);
					hm_json__obj_end(j);
				}
			hm_json__arr_end(j);
		}
		if (matrix) {
			hm_json__arr_begin(j, "hitm_matrix");	/* [holder][requester] */
			for (h = 0; h < b->nr_sockets; h++) {
				hm_json__arr_begin(j, NULL);
				for (s = 0; s < b->nr_sockets; s++)
					hm_json__u64(j, NULL, b->hitm[h * b->nr_sockets + s]);
				hm_json__arr_end(j);
			}
			hm_json__arr_end(j);
		} else {
			hm_json__str(j, "hitm_matrix", NULL);
			hm_json__u64(j, "rmt_hitm_unknown_holder", b->hitm_unknown);
		}
		hm_json__obj_end(j);
		hm_json__delete(j);
		return 0;
	}
	if (b->contentions) {
		if (fmt == HM_FMT_CSV)
			fprintf(f, "\nsocket,table_node,contended,wait_ns\n");
		else
			fprintf(f, "%sFutex bucket lock contention (contention mode): requesting CPU socket x table node\n"
				"(private hashes have no node of their own: \"private\")\n\n%-7s %-8s %10s %12s %10s\n",
				mem ? "\n" : "", "SOCKET", "NODE", "CONTENDED", "WAIT_US", "AVG_US");
		for (s = 0; s < b->nr_sockets; s++)
			for (n = 0; n <= b->nr_nodes; n++) {
				u32 c = s * (b->nr_nodes + 1) + n;
				char nb[16];

				if (!b->cont[c])
					continue;
				if (n)
					snprintf(nb, sizeof(nb), "%u", n - 1);
				else
					snprintf(nb, sizeof(nb), "%s", fmt == HM_FMT_CSV ? "" : "private");
				if (fmt == HM_FMT_CSV)
					fprintf(f, "%u,%s,%" PRIu64 ",%" PRIu64 "\n", s, nb, b->cont[c], b->cont_wait[c]);
				else
					fprintf(f, "%-7u %-8s %10" PRIu64 " %12.1f %10.2f\n", s, nb, b->cont[c],
						b->cont_wait[c] / 1e3, b->cont_wait[c] / 1e3 / b->cont[c]);
			}
	}
	if (fmt == HM_FMT_CSV) {
		if (matrix) {
			fprintf(f, "\nholder_socket");
			for (s = 0; s < b->nr_sockets; s++)
				fprintf(f, ",to_s%u", s);
			fputc('\n', f);
			for (h = 0; h < b->nr_sockets; h++) {
				fprintf(f, "%u", h);
				for (s = 0; s < b->nr_sockets; s++)
					fprintf(f, ",%" PRIu64, b->hitm[h * b->nr_sockets + s]);
				fputc('\n', f);
			}
		}
		return 0;
	}
	if (!mem) {
		if (!b->contentions)
			fprintf(f, "Futex bucket lock contention (contention mode): nothing contended while recording\n");
		return 0;
	}
	fputc('\n', f);
	return hm_buckets__matrix_lines(b, put_line, f);
}

int hm_buckets__matrix_lines(const struct hm_buckets *b, int (*fn)(void *ctx, const char *line), void *ctx)
{
	char line[512];
	size_t len;
	int err;

	if (b->nr_sockets > 2) {
		snprintf(line, sizeof(line), "Socket-to-socket HITM matrix: not shown; with %u sockets a remote HITM does "
			 "not say which socket held the line (%" PRIu64 " remote HITMs)", b->nr_sockets, b->hitm_unknown);
		return fn(ctx, line);
	}
	err = fn(ctx, "HITM: socket holding the modified line (rows) -> requesting socket (columns)");
	len = snprintf(line, sizeof(line), "%-8s", "");
	for (u32 s = 0; s < b->nr_sockets && len < sizeof(line); s++)
		len += snprintf(line + len, sizeof(line) - len, " %8s%u", "S", s);
	if (!err)
		err = fn(ctx, line);
	for (u32 h = 0; h < b->nr_sockets && !err; h++) {
		len = snprintf(line, sizeof(line), "S%-7u", h);
		for (u32 s = 0; s < b->nr_sockets && len < sizeof(line); s++)
			len += snprintf(line + len, sizeof(line) - len, " %9" PRIu64, b->hitm[h * b->nr_sockets + s]);
		err = fn(ctx, line);
	}
	return err;
}

int hm_report__render_futex(const struct hm_report *r, enum hm_bucket_view view,
			    enum hm_format fmt, bool perf_counters, FILE *f)
{
	return hm_buckets__render(hm_report__buckets(r), r, view, fmt, perf_counters, f);
}

int hm_buckets__render(const struct hm_buckets *b, const struct hm_report *r,
		       enum hm_bucket_view view, enum hm_format fmt, bool perf_counters, FILE *f)
{
	if (!b || !r || !f)
		return -EINVAL;
	hm_buckets__finish((struct hm_buckets *)b);	/* when not called after the pass: a cache fill */
	if (fmt != HM_FMT_TEXT && fmt != HM_FMT_JSON && fmt != HM_FMT_CSV) {
		hm_err("--by bucket/field/socket: output format not supported; use text, --json or --csv");
		return -EINVAL;
	}
	switch (view) {
	case HM_BY_BUCKET: return render_bucket(b, r, fmt, perf_counters, f);
	case HM_BY_FIELD:  return render_field(b, r, fmt, perf_counters, f);
	case HM_BY_SOCKET: return render_socket(b, r, fmt, perf_counters, f);
	}
	return -EINVAL;
}

/* ------------------------------------------------------------ for the TUI's tables */

/*
 * The bucket view's order (most HITM, samples, contentions; then table,
 * index) on a compact copy of its keys: sorting tens of thousands of
 * buckets through their (kilobyte) structs costs a cache miss per compare.
 */
struct bkey {
	u64	hot;		/* ~hitm << 32 | ~samples: ascending is most first */
	u64	cold;		/* ~contended */
	u64	index;
	s32	table;
	u32	i;
};

/*
 * The sort key, least significant field first: index, table (sign bit
 * flipped: signed order), cold, hot; ascending in it is bkey order (hot,
 * cold, table, index).  bkey_width: each field's bytes.
 */
#define BKEY_FIELDS	4
static const u8 bkey_width[BKEY_FIELDS] = { 8, 4, 8, 8 };

static inline u64 bkey_field(const struct bkey *x, u32 f)
{
	return f == 0 ? x->index : f == 1 ? (u32)x->table ^ 0x80000000u : f == 2 ? x->cold : x->hot;
}

/*
 * LSD radix sort of @k (@t: room for @n more), one stable counting pass per
 * key byte that is not the same in every key (a bucket view's keys differ in
 * a few bytes: the index's low two, the counts' low ones); the keys are
 * unique, so the order is the one a comparison sort gives.  Returns the
 * array that holds the result.
 */
static struct bkey *bkey_sort(struct bkey *k, struct bkey *t, u32 n)
{
	u32 count[BKEY_FIELDS][8][256] = { { { 0 } } };	/* 32 KiB */
	u32 f, d, i, c;

	for (i = 0; i < n; i++)
		for (f = 0; f < BKEY_FIELDS; f++) {
			u64 v = bkey_field(&k[i], f);

			for (d = 0; d < bkey_width[f]; d++)
				count[f][d][v >> 8 * d & 0xff]++;
		}
	for (f = 0; f < BKEY_FIELDS; f++)
		for (d = 0; d < bkey_width[f]; d++) {
			u32 *hist = count[f][d], sum = 0;
			struct bkey *x;

			if (n < 2 || hist[bkey_field(&k[0], f) >> 8 * d & 0xff] == n)
				continue;	/* one value: the pass keeps the order */
			for (c = 0; c < 256; c++) {
				u32 v = hist[c];

				hist[c] = sum;
				sum += v;
			}
			for (i = 0; i < n; i++)
				t[hist[bkey_field(&k[i], f) >> 8 * d & 0xff]++] = k[i];
			x = k;
			k = t;
			t = x;
		}
	return k;
}

static bool is_hitm(u32 cat)
{
	return cat == HM_CAT_HITM_LOCAL || cat == HM_CAT_HITM_XDIE || cat == HM_CAT_HITM_REMOTE;
}

u32 *hm_buckets__order(const struct hm_buckets *b, enum hm_bucket_view view, u32 *n)
{
	struct bkey *k, *s;
	u32 *o, i;

	hm_buckets__finish((struct hm_buckets *)b);	/* when not called after the pass */
	if (view == HM_BY_FIELD) {
		*n = b->nr_frows;
		return sorted(b, *n, cmp_frow);
	}
	*n = b->nr;
	o = malloc((b->nr ? b->nr : 1) * sizeof(*o));
	k = malloc((b->nr ? b->nr : 1) * 2 * sizeof(*k));
	if (!o || !k) {
		free(o);
		free(k);
		return NULL;
	}
	for (i = 0; i < b->nr; i++) {
		const struct bk *e = &b->b[i];
		u32 hitm = 0, samples = 0;

		if (i + 4 < b->nr)
			hm_prefetch(b->b[i + 4].ent);

		for (u32 x = 0; x < e->nr; x++) {
			const struct bk_ent *t = &e->ent[x];

			if (t->key & BK_FUNC)
				continue;
			samples += t->n;
			if (is_hitm(b->cls[bk_key__class(t->key)].cat))
				hitm += t->n;
		}
		k[i] = (struct bkey){ .hot = (u64)~hitm << 32 | (u32)~samples, .cold = ~e->contended,
				      .index = e->index, .table = e->table, .i = i };
	}
	s = bkey_sort(k, k + b->nr, b->nr);
	for (i = 0; i < b->nr; i++)
		o[i] = s[i].i;
	free(k);
	return o;
}

bool hm_buckets__memory_mode(const struct hm_buckets *b, const struct hm_report *r)
{
	return memory_mode(b, r);
}

int hm_buckets__hottest(const struct hm_buckets *b, u32 i, char *funcs, size_t size)
{
	struct bk_row *row = calloc(1, sizeof(*row));
	int hf;

	funcs[0] = 0;
	if (!row)
		return -1;
	hf = hm_buckets__row(b, i, false, row, funcs, size);
	free(row);
	return hf;
}

int hm_buckets__row(const struct hm_buckets *b, u32 i, bool perf, struct bk_row *row,
		    char *funcs, size_t size)
{
	const struct bk *e = &b->b[i];
	int hf;

	/* only what the last bucket wrote is not zero */
	memset(&row->st, 0, sizeof(row->st));
	memset(row->sock, 0, b->nr_sockets * sizeof(row->sock[0]));
	for (int f = 0; row->touched; f++, row->touched >>= 1)
		if (row->touched & 1)
			memset(&row->field[f], 0, sizeof(row->field[f]));
	for (u32 x = 0; x < e->nr; x++) {
		const struct bk_ent *t = &e->ent[x];
		u32 f = bk_key__field(t->key);
		struct bk_field *bf = &row->field[f];

		row->touched |= 1u << f;
		if (t->key & BK_FUNC) {
			u32 id = t->key & BK_FUNC_OTHER, k = 0;

			if (id == BK_FUNC_OTHER) {
				bf->other_funcs += t->n;
				continue;
			}
			while (bf->func[k].name)	/* a field has at most MAX_FUNCS named */
				k++;
			bf->func[k].name = b->names[id];
			bf->func[k].n = t->n;
		} else {
			const struct bk_class *c = &b->cls[bk_key__class(t->key)];
			u32 s = bk_key__sock1(t->key);

			bk_class__add(c, &row->st, t->n, perf);
			bk_class__add(c, &bf->st, t->n, perf);
			if (s)
				bk_class__add(c, &row->sock[s - 1], t->n, perf);
		}
	}
	for (int f = 0; f < HM_FUTEX_FIELD__MAX; f++)
		if (row->touched >> f & 1)
			sort_funcs(&row->field[f]);
	hf = hottest_field(e, row);
	if (funcs) {
		funcs[0] = 0;
		if (hf >= 0)
			funcs_text(&row->field[hf], funcs, size);
	}
	return hf;
}
