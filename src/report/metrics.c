// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flat metric set of one recording: perf-c2c totals under LKP's names,
 * hitmap's precise categories, sockets, nodes, futex buckets, fields and
 * ranks, shared lines and workload results, each keyed by what it is.
 * Memory grows with distinct lines and buckets, never with samples.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/symbols.h>
#include "metrics.h"
#include "render-c2c.h"
#include "names.h"
#include "buckets.h"
#include "places.h"

_Static_assert((int)HM_NAME_BUCKET == (int)HM_MATCH_BUCKET &&
	       (int)HM_NAME_FUTEX_OBJECT == (int)HM_MATCH_FUTEX_OBJECT &&
	       (int)HM_NAME_DATA_SYMBOL == (int)HM_MATCH_DATA_SYMBOL &&
	       (int)HM_NAME_CODE == (int)HM_MATCH_CODE && (int)HM_NAME_ADDRESS == (int)HM_MATCH_ADDRESS,
	       "names.h kinds are the diff's match kinds");

static const char *const mstat_names[HM_MS__MAX] = {
	"samples", "loads", "stores", "hitm_local", "hitm_remote", "hitm",
	"hit_remote", "dram_local", "dram_remote", "total_loads", "hitm_xdie",
};

/* perf's spelling (struct c2c_stats) of the same counters */
static const char *const mstat_perf_names[HM_MS__MAX] = {
	"samples", "load", "store", "lcl_hitm", "rmt_hitm", "tot_hitm",
	"rmt_hit", "lcl_dram", "rmt_dram", "total_loads", "hitm_xdie",
};

const char *hm_mstat__name(enum hm_mstat s)
{
	return s < HM_MS__MAX ? mstat_names[s] : "?";
}

const char *hm_mstat__perf_name(enum hm_mstat s)
{
	return s < HM_MS__MAX ? mstat_perf_names[s] : "?";
}

double hm_mstat__get(const struct hm_c2c_stats *st, enum hm_mstat s)
{
	switch (s) {
	case HM_MS_SAMPLES:	return st->nr_entries;
	case HM_MS_LOADS:	return st->load;
	case HM_MS_STORES:	return st->store;
	case HM_MS_HITM_LOCAL:	return st->lcl_hitm;
	case HM_MS_HITM_REMOTE:	return st->rmt_hitm;
	case HM_MS_HITM_TOTAL:	return st->tot_hitm;
	case HM_MS_HIT_REMOTE:	return st->rmt_hit;
	case HM_MS_DRAM_LOCAL:	return st->lcl_dram;
	case HM_MS_DRAM_REMOTE:	return st->rmt_dram;
	case HM_MS_TOTAL_LOADS:	return hm_c2c_stats__total_loads(st);
	default:		return 0;
	}
}

double hm_mstat__get_counts(const struct hm_counts *c, enum hm_mstat s)
{
	switch (s) {
	case HM_MS_SAMPLES:	return c->samples;
	case HM_MS_LOADS:	return c->loads;
	case HM_MS_STORES:	return c->stores;
	case HM_MS_HITM_LOCAL:	return c->cat[HM_CAT_HITM_LOCAL];
	case HM_MS_HITM_XDIE:	return c->cat[HM_CAT_HITM_XDIE];
	case HM_MS_HITM_REMOTE:	return c->cat[HM_CAT_HITM_REMOTE];
	case HM_MS_HITM_TOTAL:	return hm_counts__hitm(c);
	case HM_MS_HIT_REMOTE:	return c->cat[HM_CAT_HIT_REMOTE];
	case HM_MS_DRAM_LOCAL:	return c->cat[HM_CAT_DRAM_LOCAL];
	case HM_MS_DRAM_REMOTE:	return c->cat[HM_CAT_DRAM_REMOTE];
	default:		return 0;
	}
}

static const char *const group_names[HM_MG__MAX] = {
	"c2c", "category", "socket", "node", "xfer", "bucket", "bucket-socket",
	"bucket-field", "field", "rank", "line", "workload",
};

const char *hm_metric_group__name(enum hm_metric_group g)
{
	return g < HM_MG__MAX ? group_names[g] : "?";
}

static const char *const match_names[HM_MATCH__MAX] = {
	"name", "futex table kind+node+bucket index", "bucket field", "bucket rank by HITM",
	"futex object", "data symbol+offset", "code symbol+offset", "address", "workload result",
};

const char *hm_metric_match__name(enum hm_metric_match m)
{
	return m < HM_MATCH__MAX ? match_names[m] : "?";
}

/* ---------------------------------------------------------------- metric set */

static u32 hash_str(const char *s)
{
	u32 h = 2166136261u;

	while (*s)
		h = (h ^ (u8)*s++) * 16777619u;
	return h;
}

struct hm_metrics *hm_metrics__new(const char *label)
{
	struct hm_metrics *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->label = strdup(label ? label : "");
	if (!m->label) {
		free(m);
		return NULL;
	}
	return m;
}

void hm_metrics__delete(struct hm_metrics *m)
{
	u32 i, j;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++)
		free(m->m[i].key);
	free(m->m);
	free(m->hash);
	for (i = 0; i < m->nr_buckets; i++)
		free(m->buckets[i].socket);
	free(m->buckets);
	for (i = 0; i < m->nr_lines; i++) {
		free(m->lines[i].id);
		for (j = 0; j < m->lines[i].nr_code; j++)
			free(m->lines[i].code[j].where);
	}
	free(m->lines);
	free(m->socket);
	free(m->node);
	free(m->xfer);
	free(m->counting_note);
	free(m->workload);
	free(m->label);
	free(m);
}

static int metrics_rehash(struct hm_metrics *m)
{
	u32 size = m->hash_size ? m->hash_size * 2 : 1024, i;
	__typeof__(m->hash) h = malloc(size * sizeof(*h));

	if (!h)
		return -ENOMEM;
	memset(h, 0xff, size * sizeof(*h));
	for (i = 0; i < m->hash_size; i++) {
		u32 p;

		if (m->hash[i].idx == UINT32_MAX)
			continue;
		p = m->hash[i].h & (size - 1);
		while (h[p].idx != UINT32_MAX)
			p = (p + 1) & (size - 1);
		h[p] = m->hash[i];
	}
	free(m->hash);
	m->hash = h;
	m->hash_size = size;
	return 0;
}

static s64 metrics_lookup(const struct hm_metrics *m, const char *key, u32 *slot, u32 *hash)
{
	u32 p, hk = hash_str(key);

	if (hash)
		*hash = hk;
	if (!m->hash_size)
		return -1;
	p = hk & (m->hash_size - 1);
	while (m->hash[p].idx != UINT32_MAX) {
		if (m->hash[p].h == hk && !strcmp(m->m[m->hash[p].idx].key, key))
			return m->hash[p].idx;
		p = (p + 1) & (m->hash_size - 1);
	}
	if (slot)
		*slot = p;
	return -1;
}

const struct hm_metric *hm_metrics__find(const struct hm_metrics *m, const char *key)
{
	s64 i = metrics_lookup(m, key, NULL, NULL);

	return i < 0 ? NULL : &m->m[i];
}

int hm_metrics__set(struct hm_metrics *m, const char *key, double value,
		    enum hm_metric_group g, enum hm_metric_match match, bool count)
{
	struct hm_metric *e;
	u32 slot = 0, hk = 0;
	s64 i;

	if ((m->nr + 1) * 2 > m->hash_size && metrics_rehash(m))
		return -ENOMEM;
	i = metrics_lookup(m, key, &slot, &hk);
	if (i >= 0) {
		m->m[i].value = value;
		return i;
	}
	if (m->nr == m->alloc) {
		u32 n = m->alloc ? m->alloc * 2 : 256;
		struct hm_metric *nm = realloc(m->m, n * sizeof(*nm));

		if (!nm)
			return -ENOMEM;
		m->m = nm;
		m->alloc = n;
	}
	e = &m->m[m->nr];
	memset(e, 0, sizeof(*e));
	e->key = strdup(key);
	if (!e->key)
		return -ENOMEM;
	e->value = value;
	e->group = g;
	e->match = match;
	e->count = count;
	m->hash[slot].idx = m->nr;
	m->hash[slot].h = hk;
	return m->nr++;
}

/* (workload JSON: metrics-workload.c) */

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
	u32 nsock = bk ? bk->nr_sockets : 0;
	char key[256];
	u32 i;
	u32 k, n = 0;
	int f, kind;

	memset(fields, 0, sizeof(fields));
	memset(has_field, 0, sizeof(has_field));
	m->buckets = calloc(bk && bk->nr ? bk->nr : 1, sizeof(*m->buckets));
	if (!m->buckets)
		return -ENOMEM;
	row = bk ? calloc(1, sizeof(*row)) : NULL;
	if (bk && !row)
		return -ENOMEM;
	for (i = 0; bk && fm && i < bk->nr; i++) {
		const struct bk *b = &bk->b[i];
		const struct hm_futex_table *t;
		struct hm_mv_bucket *o;

		if (b->table < 0 || (u32)b->table >= fm->nr_tables)
			continue;
		hm_buckets__row(bk, i, true, row, NULL, 0);
		if (!row->st.samples)
			continue;
		t = &fm->tables[b->table];
		o = &m->buckets[m->nr_buckets++];
		hm_name__futex_table(fm, t, o->table, sizeof(o->table));
		o->kind = t->kind;
		o->node = t->node;
		o->index = b->index;
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
	for (i = 0; i < m->nr; i++) {
		double v = m->m[i].value;

		/* counts exactly; %.6g would round a million samples */
		if (v >= 0 && v == floor(v) && v < 1.8e19)
			hm_json__u64(j, m->m[i].key, (u64)v);
		else
			hm_json__double(j, m->m[i].key, v);
	}
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
