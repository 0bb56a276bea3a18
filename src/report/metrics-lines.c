// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared lines of a metric set, read from the report's one per-line
 * aggregation (lines.c): each line named by what it is (names.c), its
 * perf counters as line.<identity>.<stat>, its code locations merged over
 * its offsets.  Lines that share an identity (the same code, no data
 * symbol) are numbered id, id#2, id#3 ... with a counter per identity, so
 * a million lines cost a million lookups.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/symbols.h>
#include "metrics.h"
#include "lines.h"
#include "names.h"
#include "util/htab.h"

struct id_counter {
	char	*id;	/* NULL: empty slot */
	u32	next;	/* the number the next line of this identity gets */
};

struct id_counters {
	struct id_counter	*e;
	u64			nr, size;
};

static void id_counters__release(struct id_counters *c)
{
	u64 i;

	for (i = 0; i < c->size; i++)
		free(c->e[i].id);
	free(c->e);
}

/* The counter of @id, added (next = 1) when new; NULL on ENOMEM. */
static struct id_counter *id_counters__get(struct id_counters *c, const char *id)
{
	u64 p;

	if ((c->nr + 1) * 2 > c->size) {
		u64 size = c->size ? c->size * 2 : 1024, i;
		struct id_counter *n = calloc(size, sizeof(*n));

		if (!n)
			return NULL;
		for (i = 0; i < c->size; i++) {
			if (!c->e[i].id)
				continue;
			p = (u32)hm_hash_str(c->e[i].id) & (size - 1);
			while (n[p].id)
				p = (p + 1) & (size - 1);
			n[p] = c->e[i];
		}
		free(c->e);
		c->e = n;
		c->size = size;
	}
	p = (u32)hm_hash_str(id) & (c->size - 1);
	while (c->e[p].id && strcmp(c->e[p].id, id))
		p = (p + 1) & (c->size - 1);
	if (!c->e[p].id) {
		c->e[p].id = strdup(id);
		if (!c->e[p].id)
			return NULL;
		c->e[p].next = 1;
		c->nr++;
	}
	return &c->e[p];
}

static int cmp_line_hot(const void *x, const void *y)
{
	const struct hm_line *a = *(const struct hm_line *const *)x;
	const struct hm_line *b = *(const struct hm_line *const *)y;

	if (a->st.tot_hitm != b->st.tot_hitm)
		return a->st.tot_hitm > b->st.tot_hitm ? -1 : 1;
	if (a->st.nr_entries != b->st.nr_entries)
		return a->st.nr_entries > b->st.nr_entries ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* A line's code address summed over its offsets. */
struct code_count {
	u64	ip;
	u32	pid;
	u8	cpumode;
	u64	count;
};

#define MAX_CODE 64

static int cmp_code(const void *x, const void *y)
{
	const struct code_count *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->ip != b->ip)
		return a->ip < b->ip ? -1 : 1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* The line's code addresses (the first MAX_CODE distinct ones), most frequent first. */
static u32 line_code(const struct hm_line *l, struct code_count *c)
{
	u32 n = 0, i, j, k;

	for (i = 0; i < l->nr_offs; i++)
		for (j = 0; j < l->offs[i].nr_ips; j++) {
			const struct hm_line_ip *ip = &l->offs[i].ip[j];

			for (k = 0; k < n; k++)
				if (c[k].ip == ip->ip && c[k].pid == ip->pid)
					break;
			if (k == n) {
				if (n == MAX_CODE)
					continue;
				c[n++] = (struct code_count){ ip->ip, ip->pid, ip->cpumode, 0 };
			}
			c[k].count += ip->nr;
		}
	qsort(c, n, sizeof(*c), cmp_code);
	return n;
}

static const enum hm_mstat line_stats[] = {
	HM_MS_TOTAL_LOADS, HM_MS_STORES, HM_MS_HITM_LOCAL, HM_MS_HITM_REMOTE, HM_MS_HITM_TOTAL,
};

static int line_metrics(struct hm_metrics *m, const char *uniq, const struct hm_line *l, u8 match,
			u32 rank)
{
	char key[480];
	u32 i;

	for (i = 0; i < sizeof(line_stats) / sizeof(line_stats[0]); i++) {
		double v = hm_mstat__get(&l->st, line_stats[i]);
		int k;

		if (!v)
			continue;
		snprintf(key, sizeof(key), "line.%s.%s", uniq, hm_mstat__perf_name(line_stats[i]));
		k = hm_metrics__set(m, key, v, HM_MG_LINE, match, true);
		if (k < 0)
			return -ENOMEM;
		m->m[k].rank = rank;
	}
	return 0;
}

/* Where the line's code is: "sym+0x1f (file.c:12)" or the address. */
static int line_where(const struct hm_metrics_ctx *ctx, struct hm_mv_line *o, const struct code_count *c,
		      u32 n)
{
	u32 k;

	for (k = 0; k < n && o->nr_code < HM_MV_CODE; k++) {
		struct hm_symbol_info info;
		char where[300];

		if (ctx->resolve && !ctx->resolve(ctx->resolve_priv, c[k].pid, c[k].cpumode, c[k].ip, &info) &&
		    info.name)
			hm_name__symbol(&info, info.offset, true, where, sizeof(where));
		else
			snprintf(where, sizeof(where), "0x%" PRIx64, c[k].ip);
		o->code[o->nr_code].where = strdup(where);
		o->code[o->nr_code].count = c[k].count;
		if (!o->code[o->nr_code].where)
			return -ENOMEM;
		o->nr_code++;
	}
	return 0;
}

int hm_metrics__add_lines(struct hm_metrics *m, struct hm_lines *lines, const struct hm_metrics_ctx *ctx)
{
	struct hm_namer namer = { ctx->futex, ctx->resolve, ctx->resolve_priv };
	struct id_counters ids = { NULL, 0, 0 };
	size_t nr = lines ? hm_lines__count(lines) : 0, i, n = 0;
	struct code_count *code;
	struct hm_line **v;
	int err = 0;

	v = malloc((nr ? nr : 1) * sizeof(*v));
	code = malloc(MAX_CODE * sizeof(*code));
	if (!v || !code) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		struct hm_line *l = hm_lines__get(lines, i);

		/* perf c2c's shared lines: some HITM (or peer) */
		if (l->st.tot_hitm || l->st.tot_peer)
			v[n++] = l;
	}
	qsort(v, n, sizeof(*v), cmp_line_hot);
	m->lines = calloc(n ? n : 1, sizeof(*m->lines));
	if (!m->lines) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n && !err; i++) {
		const struct hm_line *l = v[i];
		struct hm_mv_line *o = &m->lines[m->nr_lines++];
		struct hm_line_ref ref;
		char id[400], key[480], uniq[420];
		struct id_counter *dup;
		u8 match;
		int k;

		hm_lines__ref(lines, l, &ref);
		match = (u8)hm_name__line(&namer, &ref, id, sizeof(id));
		dup = id_counters__get(&ids, id);
		if (!dup) {
			err = -ENOMEM;
			break;
		}
		/* the loop only steps over an "id#N" that is another line's own identity */
		for (;;) {
			if (dup->next++ == 1)
				snprintf(uniq, sizeof(uniq), "%s", id);
			else
				snprintf(uniq, sizeof(uniq), "%s#%u", id, dup->next - 1);
			snprintf(key, sizeof(key), "line.%s.samples", uniq);
			if (!hm_metrics__find(m, key))
				break;
		}
		o->id = strdup(uniq);
		o->match = match;
		o->addr = l->addr;
		o->st = l->st;
		if (!o->id) {
			err = -ENOMEM;
			break;
		}
		/* the samples key marks the identity as taken, even past top_lines */
		k = hm_metrics__set(m, key, l->st.nr_entries, HM_MG_LINE, match, true);
		if (k < 0) {
			err = -ENOMEM;
			break;
		}
		m->m[k].rank = i + 1;
		if ((!ctx->top_lines || i < ctx->top_lines) && line_metrics(m, uniq, l, match, i + 1)) {
			err = -ENOMEM;
			break;
		}
		/* where the code is: only the lines that get metrics show it (HTML) */
		if (!ctx->top_lines || i < ctx->top_lines)
			err = line_where(ctx, o, code, line_code(l, code));
	}
out:
	id_counters__release(&ids);
	free(code);
	free(v);
	return err;
}
