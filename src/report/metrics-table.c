// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table under every metric set: the names of counters, groups and
 * match kinds, a set's allocation and its key -> metric hash
 * (hm_metrics__set, hm_metrics__find).  metrics.c, metrics-lines.c and
 * metrics-workload.c fill a set through these; nothing here calls back up.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "metrics.h"
#include "render-c2c.h"
#include "util/htab.h"

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
	free(m->futex_tables);
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
	u32 p, hk = (u32)hm_hash_str(key);

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
