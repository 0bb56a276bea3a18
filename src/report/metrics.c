// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flat metric set of one recording: perf-c2c totals under LKP's names,
 * hitmap's precise categories, sockets, nodes, futex buckets, fields and
 * ranks, shared lines and workload results, each keyed by what it is.
 * Memory grows with distinct lines and buckets, never with samples.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/symbols.h>
#include "metrics.h"
#include "names.h"
#include "buckets.h"
#include "places.h"

_Static_assert((int)HM_NAME_BUCKET == (int)HM_MATCH_BUCKET &&
	       (int)HM_NAME_FUTEX_OBJECT == (int)HM_MATCH_FUTEX_OBJECT &&
	       (int)HM_NAME_DATA_SYMBOL == (int)HM_MATCH_DATA_SYMBOL &&
	       (int)HM_NAME_CODE == (int)HM_MATCH_CODE && (int)HM_NAME_ADDRESS == (int)HM_MATCH_ADDRESS,
	       "names.h kinds are the diff's match kinds");

/* (names, hm_mstat__get*, the table of metrics: metrics-table.c; workload JSON: metrics-workload.c) */

/* ---------------------------------------------------------------- finish */


static int set_counts(struct hm_metrics *m, const char *prefix, const struct hm_counts *c,
		      const enum hm_mstat *which, int n, enum hm_metric_group g,
		      enum hm_metric_match match, bool keep_zero)
{
	char key[512];
	int i;

	for (i = 0; i < n; i++) {
		double v = hm_mstat__get_counts(c, which[i]);

		if (!v && !keep_zero)
			continue;
		snprintf(key, sizeof(key), "%s.%s", prefix, hm_mstat__name(which[i]));
		if (hm_metrics__set(m, key, v, g, match, true) < 0)
			return -ENOMEM;
	}
	return 0;
}

static const enum hm_mstat all_stats[] = {
	HM_MS_SAMPLES, HM_MS_LOADS, HM_MS_STORES, HM_MS_HITM_LOCAL, HM_MS_HITM_XDIE, HM_MS_HITM_REMOTE,
	HM_MS_HITM_TOTAL, HM_MS_HIT_REMOTE, HM_MS_DRAM_LOCAL, HM_MS_DRAM_REMOTE,
};
static const enum hm_mstat bucket_stats[] = {
	HM_MS_LOADS, HM_MS_STORES, HM_MS_HITM_LOCAL, HM_MS_HITM_XDIE, HM_MS_HITM_REMOTE, HM_MS_HITM_TOTAL,
	HM_MS_DRAM_LOCAL, HM_MS_DRAM_REMOTE,
};
static const enum hm_mstat socket_stats_set[] = {
	HM_MS_LOADS, HM_MS_STORES, HM_MS_HITM_LOCAL, HM_MS_HITM_XDIE, HM_MS_HITM_REMOTE, HM_MS_DRAM_LOCAL,
	HM_MS_DRAM_REMOTE,
};
static const enum hm_mstat field_stats[] = {
	HM_MS_LOADS, HM_MS_STORES, HM_MS_HITM_LOCAL, HM_MS_HITM_XDIE, HM_MS_HITM_REMOTE, HM_MS_HITM_TOTAL,
};
#define NR(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int cmp_bucket_view(const void *x, const void *y)
{
	const struct hm_mv_bucket *a = x, *b = y;
	int c = strcmp(a->table, b->table);

	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_bucket_hot(const void *x, const void *y)
{
	const struct hm_mv_bucket *a = *(const struct hm_mv_bucket *const *)x;
	const struct hm_mv_bucket *b = *(const struct hm_mv_bucket *const *)y;

	if (hm_counts__hitm(&a->tot) != hm_counts__hitm(&b->tot))
		return hm_counts__hitm(&a->tot) > hm_counts__hitm(&b->tot) ? -1 : 1;
	if (a->tot.samples != b->tot.samples)
		return a->tot.samples > b->tot.samples ? -1 : 1;
	return cmp_bucket_view(a, b);
}

#define NR_RANKS 10

/*
 * The futex rows: the buckets of the report's futex aggregation (buckets.c)
 * that memory samples touched, their sockets and fields.  Buckets without a
 * known table index and buckets with lock contention alone are left out.
 */
static int finish_buckets(const struct hm_metrics_ctx *ctx, const struct hm_buckets *bk,
			  struct hm_metrics *m)
{
	const struct hm_futex_model *fm = ctx->futex;
	struct hm_counts fields[2][HM_FUTEX_FIELD__MAX];
	bool has_field[2][HM_FUTEX_FIELD__MAX];
	struct hm_mv_bucket **hot;
	struct bk_row *row;
	struct hm_buckets_totals tot = { 0 };
	u32 nsock;
	char key[256];
	u32 i;
	u32 k, n = 0;
	int f, kind;

	if (bk)
		hm_buckets__totals(bk, &tot);
	nsock = tot.nr_sockets;
	memset(fields, 0, sizeof(fields));
	memset(has_field, 0, sizeof(has_field));
	m->buckets = calloc(tot.nr ? tot.nr : 1, sizeof(*m->buckets));
	if (!m->buckets)
		return -ENOMEM;
	row = bk ? calloc(1, sizeof(*row)) : NULL;
	if (bk && !row)
		return -ENOMEM;
	for (i = 0; fm && i < tot.nr; i++) {
		struct hm_bucket_info b;
		const struct hm_futex_table *t;
		struct hm_mv_bucket *o;

		hm_buckets__bucket(bk, i, &b);
		if (b.table < 0 || (u32)b.table >= fm->nr_tables)
			continue;
		hm_buckets__row(bk, i, true, row, NULL, 0);
		if (!row->st.samples)
			continue;
		t = &fm->tables[b.table];
		o = &m->buckets[m->nr_buckets++];
		hm_name__futex_table(fm, t, o->table, sizeof(o->table));
		o->kind = t->kind;
		o->node = t->node;
		o->index = b.index;
		o->tot = row->st;
		for (f = 0; f < HM_FUTEX_FIELD__MAX; f++)
			o->field[f] = row->field[f].st;
		o->socket = malloc((nsock ? nsock : 1) * sizeof(*o->socket));
		if (!o->socket) {
			free(row);
			return -ENOMEM;
		}
		memcpy(o->socket, row->sock, nsock * sizeof(*o->socket));
		o->nr_socket = nsock;
	}
	free(row);
	qsort(m->buckets, m->nr_buckets, sizeof(*m->buckets), cmp_bucket_view);
	for (k = 0; k < m->nr_buckets; k++) {
		struct hm_mv_bucket *b = &m->buckets[k];
		u32 s;

		kind = b->kind ? 1 : 0;
		snprintf(key, sizeof(key), "futex.%s.bucket.%" PRIu64, b->table, b->index);
		if (set_counts(m, key, &b->tot, bucket_stats, NR(bucket_stats), HM_MG_BUCKET,
			      HM_MATCH_BUCKET, false))
			return -ENOMEM;
		for (s = 0; b->socket && s < m->nr_sockets && s < b->nr_socket; s++) {
			snprintf(key, sizeof(key), "futex.%s.bucket.%" PRIu64 ".socket.%u",
				 b->table, b->index, s);
			if (set_counts(m, key, &b->socket[s], socket_stats_set, NR(socket_stats_set),
				      HM_MG_BUCKET_SOCKET, HM_MATCH_BUCKET, false))
				return -ENOMEM;
		}
		for (f = 0; f < HM_FUTEX_FIELD__MAX; f++) {
			static const enum hm_mstat bf[] = { HM_MS_STORES, HM_MS_HITM_TOTAL };

			if (!b->field[f].samples)
				continue;
			fields[kind][f].samples += b->field[f].samples;
			fields[kind][f].loads += b->field[f].loads;
			fields[kind][f].stores += b->field[f].stores;
			fields[kind][f].locked += b->field[f].locked;
			for (int c = 0; c < HM_CAT__MAX; c++)
				fields[kind][f].cat[c] += b->field[f].cat[c];
			has_field[kind][f] = true;
			snprintf(key, sizeof(key), "futex.%s.bucket.%" PRIu64 ".%s", b->table, b->index,
				 hm_futex_field__name(f));
			if (set_counts(m, key, &b->field[f], bf, NR(bf), HM_MG_BUCKET_FIELD,
				      HM_MATCH_FIELD, false))
				return -ENOMEM;
		}
	}
	for (kind = 0; kind < 2; kind++)
		for (f = 0; f < HM_FUTEX_FIELD__MAX; f++) {
			if (!has_field[kind][f])
				continue;
			snprintf(key, sizeof(key), "futex.%s.field.%s", kind ? "private" : "global",
				 hm_futex_field__name(f));
			if (set_counts(m, key, &fields[kind][f], field_stats, NR(field_stats),
				      HM_MG_FIELD, HM_MATCH_FIELD, true))
				return -ENOMEM;
		}
	/* by rank: the hottest buckets of each kind, whatever their index this run */
	hot = malloc((m->nr_buckets ? m->nr_buckets : 1) * sizeof(*hot));
	if (!hot)
		return -ENOMEM;
	for (kind = 0; kind < 2; kind++) {
		n = 0;
		for (k = 0; k < m->nr_buckets; k++)
			if ((m->buckets[k].kind ? 1 : 0) == kind)
				hot[n++] = &m->buckets[k];
		if (!n)
			continue;
		qsort(hot, n, sizeof(*hot), cmp_bucket_hot);
		for (k = 0; k < n && k < NR_RANKS; k++) {
			static const enum hm_mstat rs[] = { HM_MS_SAMPLES, HM_MS_HITM_TOTAL };

			snprintf(key, sizeof(key), "futex.%s.hottest.%u", kind ? "private" : "global", k + 1);
			if (set_counts(m, key, &hot[k]->tot, rs, NR(rs), HM_MG_RANK, HM_MATCH_RANK, true)) {
				free(hot);
				return -ENOMEM;
			}
		}
		snprintf(key, sizeof(key), "futex.%s.buckets_touched", kind ? "private" : "global");
		if (hm_metrics__set(m, key, n, HM_MG_RANK, HM_MATCH_NAME, true) < 0) {
			free(hot);
			return -ENOMEM;
		}
	}
	free(hot);
	return 0;
}

struct hm_metrics *hm_metrics__build(const struct hm_metrics_ctx *ctx, const struct hm_magg *agg)
{
	static const struct { const char *name; size_t off; } lkp[] = {
		{ "perf-c2c.HITM.local",  offsetof(struct hm_c2c_stats, lcl_hitm) },
		{ "perf-c2c.HITM.remote", offsetof(struct hm_c2c_stats, rmt_hitm) },
		{ "perf-c2c.HITM.total",  offsetof(struct hm_c2c_stats, tot_hitm) },
		{ "perf-c2c.HIT.remote",  offsetof(struct hm_c2c_stats, rmt_hit) },
		{ "perf-c2c.DRAM.local",  offsetof(struct hm_c2c_stats, lcl_dram) },
		{ "perf-c2c.DRAM.remote", offsetof(struct hm_c2c_stats, rmt_dram) },
	};
	static const struct hm_places no_places;
	const struct hm_places *pl = agg->places ? agg->places : &no_places;
	const char *label = ctx->label ? ctx->label : "";
	struct hm_metrics *m = hm_metrics__new(label);
	char key[128];
	u32 i, s, n;

	if (!m)
		goto nomem;
	m->nr_samples = agg->nr_samples;
	m->top_lines = ctx->top_lines;
	m->c2c = agg->c2c;
	m->cats = agg->cats;
	m->nr_sockets = pl->nr_sockets;
	m->nr_nodes = pl->nr_nodes;
	for (i = 0; i < sizeof(lkp) / sizeof(lkp[0]); i++) {
		u32 v;

		memcpy(&v, (const char *)&agg->c2c + lkp[i].off, sizeof(v));
		/* LKP: HITM.total is the parser's sum of local and remote */
		if (!strcmp(lkp[i].name, "perf-c2c.HITM.total"))
			v = agg->c2c.lcl_hitm + agg->c2c.rmt_hitm;
		if (hm_metrics__set(m, lkp[i].name, v, HM_MG_C2C, HM_MATCH_NAME, true) < 0)
			goto nomem;
	}
	if (hm_metrics__set(m, "hitmap.samples", agg->nr_samples, HM_MG_CAT, HM_MATCH_NAME, true) < 0)
		goto nomem;
	for (i = 0; i < HM_CAT__MAX; i++) {
		snprintf(key, sizeof(key), "hitmap.%s", hm_mem_cat__name(i));
		if (hm_metrics__set(m, key, agg->cats.nr[i], HM_MG_CAT, HM_MATCH_NAME, true) < 0)
			goto nomem;
	}
	m->socket = calloc(m->nr_sockets ? m->nr_sockets : 1, sizeof(*m->socket));
	m->node = calloc(m->nr_nodes ? m->nr_nodes : 1, sizeof(*m->node));
	m->xfer = calloc((m->nr_sockets ? m->nr_sockets : 1) * (m->nr_nodes ? m->nr_nodes : 1),
			 sizeof(*m->xfer));
	if (!m->socket || !m->node || !m->xfer)
		goto nomem;
	for (s = 0; s < m->nr_sockets; s++) {
		m->socket[s] = pl->socket[s];
		snprintf(key, sizeof(key), "socket.%u", s);
		if (set_counts(m, key, &pl->socket[s], all_stats, NR(all_stats), HM_MG_SOCKET,
			      HM_MATCH_NAME, true))
			goto nomem;
	}
	for (n = 0; n < m->nr_nodes; n++) {
		m->node[n] = pl->node[n];
		snprintf(key, sizeof(key), "node.%u", n);
		if (set_counts(m, key, &pl->node[n], all_stats, NR(all_stats), HM_MG_NODE,
			      HM_MATCH_NAME, true))
			goto nomem;
	}
	for (s = 0; s < m->nr_sockets; s++)
		for (n = 0; n < m->nr_nodes; n++) {
			u64 v = pl->xfer[s * HM_PLACES_MAX + n];

			m->xfer[s * m->nr_nodes + n] = v;
			snprintf(key, sizeof(key), "xfer.socket%u.node%u", s, n);
			if (hm_metrics__set(m, key, v, HM_MG_XFER, HM_MATCH_NAME, true) < 0)
				goto nomem;
		}
	if (ctx->futex) {
		m->has_layout = true;
		m->layout = ctx->futex->layout;
	}
	if (finish_buckets(ctx, agg->buckets, m) || hm_metrics__add_lines(m, agg->lines, ctx))
		goto nomem;
	if (ctx->meta) {
		u32 len = 0;
		const void *w = hm_meta__find(ctx->meta, HM_META_WORKLOAD, &len);

		if (w && len) {
			m->workload = strndup(w, len);
			if (!m->workload)
				goto nomem;
			hm_metrics__add_workload(m, w, len);
		}
	}
	return m;
nomem:
	hm_err("%s: out of memory building the metric set", label);
	hm_metrics__delete(m);
	errno = ENOMEM;
	return NULL;
}

/* ---------------------------------------------------------------- JSON */

int hm_metrics__write_json(const struct hm_metrics *m, FILE *f)
{
	struct hm_json *j = hm_json__new(f, true);
	u32 i;

	if (!j)
		return -ENOMEM;
	hm_json__obj_begin(j, NULL);
	hm_json__str(j, "label", m->label);
	hm_json__u64(j, "samples", m->nr_samples);
	hm_json__u64(j, "sockets", m->nr_sockets);
	hm_json__u64(j, "nodes", m->nr_nodes);
	hm_json__obj_begin(j, "metrics");
	for (i = 0; i < m->nr; i++)
		hm_json__double(j, m->m[i].key, m->m[i].value);	/* counts as integers */
	hm_json__obj_end(j);
	hm_json__obj_begin(j, "match");
	for (i = 0; i < m->nr; i++)
		if (m->m[i].match != HM_MATCH_NAME)
			hm_json__str(j, m->m[i].key, hm_metric_match__name(m->m[i].match));
	hm_json__obj_end(j);
	hm_json__obj_end(j);
	hm_json__delete(j);
	return ferror(f) ? -EIO : 0;
}
