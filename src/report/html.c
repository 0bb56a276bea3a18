// SPDX-License-Identifier: GPL-2.0-only
/*
 * The self-contained HTML report: one file, inline CSS, JS and SVG, nothing
 * fetched.  The data goes in as one JSON block (columnar arrays, aggregated
 * per bucket and line) and the page draws it client-side: canvas heat maps
 * (buckets x sockets), an SVG of the bucket's fields to scale, the socket x
 * node matrix and paged, sortable tables, so 100k lines and 32k buckets stay
 * fast.  For a diff, the same views carry both sides and colour by change.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include "metrics.h"
#include "html-page.h"
#include "html-contention.h"
#include "html-esc.h"

/*
 * Heat-map stats (per bucket x socket) and field stats: hitmap's precise
 * categories, hitmap's spelling; line-table stats: perf's counters of the
 * cache-line table, perf's spelling (metrics.h, enum hm_mstat).
 */
static const char *const bstats[] = { "hitm_local", "hitm_xdie", "hitm_remote", "dram_local", "dram_remote" };
static const enum hm_mstat bstat_ids[] = {
	HM_MS_HITM_LOCAL, HM_MS_HITM_XDIE, HM_MS_HITM_REMOTE, HM_MS_DRAM_LOCAL, HM_MS_DRAM_REMOTE,
};
#define NR_BSTATS 5
static const char *const lstats[] = { "tot_hitm", "lcl_hitm", "rmt_hitm", "total_loads", "store" };
static const enum hm_mstat lstat_ids[] = {
	HM_MS_HITM_TOTAL, HM_MS_HITM_LOCAL, HM_MS_HITM_REMOTE, HM_MS_TOTAL_LOADS, HM_MS_STORES,
};
#define NR_LSTATS 5
static const char *const fstats[] = { "hitm", "stores", "loads", "hitm_local", "hitm_xdie", "hitm_remote" };
static const enum hm_mstat fstat_ids[] = {
	HM_MS_HITM_TOTAL, HM_MS_STORES, HM_MS_LOADS, HM_MS_HITM_LOCAL, HM_MS_HITM_XDIE, HM_MS_HITM_REMOTE,
};
#define NR_FSTATS 6

struct strmap {
	char	**keys;
	u32	nr, alloc;
	u32	*hash, hash_size;
};

static u32 hstr(const char *s, size_t n)
{
	u32 h = 2166136261u;

	while (n--)
		h = (h ^ (u8)*s++) * 16777619u;
	return h;
}

/* Index of @key (length @n) in @m, added when @add; -1 when absent or on ENOMEM. */
static s64 strmap_get(struct strmap *m, const char *key, size_t n, bool add)
{
	u32 p;

	if (add && (m->nr + 1) * 2 > m->hash_size) {
		u32 size = m->hash_size ? m->hash_size * 2 : 1024, i;
		u32 *h = malloc(size * sizeof(*h));

		if (!h)
			return -1;
		memset(h, 0xff, size * sizeof(*h));
		for (i = 0; i < m->nr; i++) {
			u32 q = hstr(m->keys[i], strlen(m->keys[i])) & (size - 1);

			while (h[q] != UINT32_MAX)
				q = (q + 1) & (size - 1);
			h[q] = i;
		}
		free(m->hash);
		m->hash = h;
		m->hash_size = size;
	}
	if (!m->hash_size)
		return -1;
	p = hstr(key, n) & (m->hash_size - 1);
	while (m->hash[p] != UINT32_MAX) {
		const char *k = m->keys[m->hash[p]];

		if (!strncmp(k, key, n) && !k[n])
			return m->hash[p];
		p = (p + 1) & (m->hash_size - 1);
	}
	if (!add)
		return -1;
	if (m->nr == m->alloc) {
		u32 na = m->alloc ? m->alloc * 2 : 256;
		char **nk = realloc(m->keys, na * sizeof(*nk));

		if (!nk)
			return -1;
		m->keys = nk;
		m->alloc = na;
	}
	m->keys[m->nr] = strndup(key, n);
	if (!m->keys[m->nr])
		return -1;
	m->hash[p] = m->nr;
	return m->nr++;
}

static void strmap_release(struct strmap *m)
{
	u32 i;

	for (i = 0; i < m->nr; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->hash);
}

struct total {
	const char	*key;
	double		v[2];
	double		p;
	bool		sig, tested;
};

/* A line's code: up to HM_MV_CODE locations (index in view.wheres) and their counts. */
struct lcode {
	u32	n;
	u32	where[HM_MV_CODE];
	u64	count[HM_MV_CODE];
};

struct view {
	int		ns;
	u32		nsock, nnode;
	struct strmap	buckets;
	double		*bv;		/* [bucket][side][socket][NR_BSTATS] */
	u32		bv_alloc;
	struct strmap	lines;
	double		*lv;		/* [line][side][NR_LSTATS] */
	u32		lv_alloc;
	u8		*lmatch;
	struct lcode	*lcode;		/* [line] */
	struct strmap	wheres;		/* the code locations the lines name, once each */
	struct strmap	tables;		/* the futex tables the buckets name */
	u32		*btable;	/* [bucket]: index in tables */
	u64		*bindex;	/* [bucket]: index in its table */
	double		fv[2][HM_FUTEX_FIELD__MAX][NR_FSTATS][2];	/* [kind][field][stat][side] */
	bool		has_field[2];
	double		*xv;		/* [side][socket][node] */
	struct total	*totals;
	u32		nr_totals, totals_alloc;
	bool		err;
};

static double *grow(double *v, u32 *alloc, u32 need, size_t per)
{
	u32 n = *alloc;
	double *nv;

	if (need <= n)
		return v;
	while (n < need)
		n = n ? n * 2 : 256;
	/* one spare element: per is 0 without sockets, and realloc(v, 0) frees v */
	nv = realloc(v, ((size_t)n * per + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	memset(nv + (size_t)*alloc * per, 0, (size_t)(n - *alloc) * per * sizeof(*nv));
	*alloc = n;
	return nv;
}

/* The bucket's row in @w, made at its first sight; -1 on ENOMEM. */
static s64 view_bucket(struct view *w, const struct hm_mv_bucket *mb)
{
	size_t per = (size_t)w->ns * w->nsock * NR_BSTATS;
	char id[64];
	int len = snprintf(id, sizeof(id), "%s.bucket.%" PRIu64, mb->table, mb->index);
	u32 old = w->bv_alloc, nr = w->buckets.nr;
	s64 b = strmap_get(&w->buckets, id, len, true), t;
	double *nv;

	if (b < 0)
		return -1;
	nv = grow(w->bv, &w->bv_alloc, b + 1, per);
	if (!nv)
		return -1;
	w->bv = nv;
	if (w->bv_alloc != old) {
		u32 *nt = realloc(w->btable, w->bv_alloc * sizeof(*nt));
		u64 *ni;

		if (!nt)
			return -1;
		w->btable = nt;
		ni = realloc(w->bindex, w->bv_alloc * sizeof(*ni));
		if (!ni)
			return -1;
		w->bindex = ni;
	}
	if (w->buckets.nr != nr) {	/* new */
		t = strmap_get(&w->tables, mb->table, strlen(mb->table), true);
		if (t < 0)
			return -1;
		w->btable[b] = t;
		w->bindex[b] = mb->index;
	}
	return b;
}

static s64 view_line(struct view *w, const char *id, size_t n)
{
	s64 l = strmap_get(&w->lines, id, n, true);
	u32 old = w->lv_alloc;
	double *nv;

	if (l < 0)
		return -1;
	nv = grow(w->lv, &w->lv_alloc, l + 1, (size_t)w->ns * NR_LSTATS);
	if (!nv)
		return -1;
	w->lv = nv;
	if (w->lv_alloc != old) {
		u8 *nm = realloc(w->lmatch, w->lv_alloc);
		struct lcode *nc = realloc(w->lcode, w->lv_alloc * sizeof(*nc));

		if (nm)
			w->lmatch = nm;
		if (nc)
			w->lcode = nc;
		if (!nm || !nc)
			return -1;
		memset(w->lmatch + old, 0, w->lv_alloc - old);
		memset(w->lcode + old, 0, (w->lv_alloc - old) * sizeof(*nc));
	}
	return l;
}

/* A row of the totals table: a report's metric @v, or a diff's row @r (both sides). */
static void view_total(struct view *w, const char *key, double v, const struct hm_diff_row *r)
{
	struct total *t;

	if (w->nr_totals == w->totals_alloc) {
		u32 n = w->totals_alloc ? w->totals_alloc * 2 : 64;
		struct total *nt = realloc(w->totals, n * sizeof(*nt));

		if (!nt) {
			w->err = true;
			return;
		}
		w->totals = nt;
		w->totals_alloc = n;
	}
	t = &w->totals[w->nr_totals++];
	memset(t, 0, sizeof(*t));
	t->key = key;
	/* a side without the value (a run without futex tables): null, "-" */
	t->v[0] = r ? (r->a->n ? r->a->mean : NAN) : v;
	t->v[1] = r ? (r->b->n ? r->b->mean : NAN) : 0;
	t->p = r ? r->p : 1;
	t->sig = r ? r->significant : false;
	t->tested = r && r->test != HM_TEST_NONE;
}

/* The totals table lists the metrics by name; every other view is built from structured data. */
static bool group_is_total(u8 g)
{
	switch (g) {
	case HM_MG_BUCKET: case HM_MG_BUCKET_SOCKET: case HM_MG_BUCKET_FIELD:
	case HM_MG_FIELD: case HM_MG_XFER: case HM_MG_LINE:
		return false;
	default:
		return true;
	}
}

/*
 * One report's view from its metric set's structured data (buckets with
 * their sockets and fields, lines, socket x node), not from its keys; the
 * keys feed only the totals table, which lists them by name.
 */
static void view_from_metrics(struct view *w, const struct hm_metrics *m)
{
	struct hm_counts fsum[2][HM_FUTEX_FIELD__MAX];
	u32 i, s, n;
	int k, f, kind;

	memset(fsum, 0, sizeof(fsum));
	/* lines in hotness order, so the table starts sorted; those with HITMs (their metrics) */
	for (i = 0; i < m->nr_lines; i++) {
		const struct hm_mv_line *l = &m->lines[i];
		s64 li;

		if (!l->st.tot_hitm)
			continue;
		li = view_line(w, l->id, strlen(l->id));
		if (li < 0) {
			w->err = true;
			return;
		}
		for (k = 0; k < NR_LSTATS; k++)
			w->lv[li * NR_LSTATS + k] = hm_mstat__get(&l->st, lstat_ids[k]);
		w->lmatch[li] = l->match;
	}
	for (i = 0; i < m->nr_buckets; i++) {
		const struct hm_mv_bucket *b = &m->buckets[i];
		s64 bi = view_bucket(w, b);

		if (bi < 0) {
			w->err = true;
			return;
		}
		for (s = 0; s < w->nsock && s < b->nr_socket; s++)
			for (k = 0; k < NR_BSTATS; k++)
				w->bv[(bi * w->nsock + s) * NR_BSTATS + k] =
					hm_mstat__get_counts(&b->socket[s], bstat_ids[k]);
		kind = b->kind ? 1 : 0;
		for (f = 0; f < HM_FUTEX_FIELD__MAX; f++) {
			const struct hm_counts *c = &b->field[f];

			if (!c->samples)
				continue;
			fsum[kind][f].samples += c->samples;
			fsum[kind][f].loads += c->loads;
			fsum[kind][f].stores += c->stores;
			fsum[kind][f].locked += c->locked;
			for (int cat = 0; cat < HM_CAT__MAX; cat++)
				fsum[kind][f].cat[cat] += c->cat[cat];
			w->has_field[kind] = true;
		}
	}
	for (kind = 0; kind < 2; kind++)
		for (f = 0; w->has_field[kind] && f < HM_FUTEX_FIELD__MAX; f++)
			for (k = 0; k < NR_FSTATS; k++)
				w->fv[kind][f][k][0] = hm_mstat__get_counts(&fsum[kind][f], fstat_ids[k]);
	for (s = 0; s < w->nsock && s < m->nr_sockets; s++)
		for (n = 0; n < w->nnode && n < m->nr_nodes; n++)
			w->xv[(size_t)s * w->nnode + n] = m->xfer[s * m->nr_nodes + n];
	for (i = 0; i < m->nr; i++)
		if (group_is_total(m->m[i].group))
			view_total(w, m->m[i].key, m->m[i].value, NULL);
}

/*
 * One side of a diff from its runs' structured data (buckets with their
 * sockets and fields, lines, socket x node), as view_from_metrics builds a
 * report's: each value is the mean over the side's runs, a run without the
 * bucket or line counting 0, as the diff's rows count it.  Buckets and
 * fields: the mean over the runs that have futex tables, as the diff's
 * futex rows compare them (a run without tables knows no bucket).  Lines:
 * those among the first @top_lines of some run (0: all), as the diff's
 * line rows.
 */
static void view_diff_side(struct view *w, int side, struct hm_metrics *const *runs, u32 nr, u32 top_lines)
{
	double fsum[2][HM_FUTEX_FIELD__MAX][NR_FSTATS];
	u32 i, k, s, n, r, nt = 0;
	int f, kind;
	size_t j;

	memset(fsum, 0, sizeof(fsum));
	for (r = 0; r < nr; r++) {
		const struct hm_metrics *m = runs[r];

		nt += m->has_layout;
		for (i = 0; i < m->nr_lines; i++) {
			const struct hm_mv_line *l = &m->lines[i];
			double v[NR_LSTATS];
			bool any = false;
			s64 li;

			if ((m->top_lines && i >= m->top_lines) || (top_lines && i >= top_lines))
				break;
			for (k = 0; k < NR_LSTATS; k++) {
				v[k] = hm_mstat__get(&l->st, lstat_ids[k]);
				any |= v[k] != 0;
			}
			if (!any)
				continue;
			li = view_line(w, l->id, strlen(l->id));
			if (li < 0) {
				w->err = true;
				return;
			}
			for (k = 0; k < NR_LSTATS; k++)
				w->lv[(li * w->ns + side) * NR_LSTATS + k] += v[k];
			w->lmatch[li] = l->match;
		}
		for (i = 0; i < m->nr_buckets; i++) {
			const struct hm_mv_bucket *b = &m->buckets[i];
			s64 bi = view_bucket(w, b);

			if (bi < 0) {
				w->err = true;
				return;
			}
			for (s = 0; s < w->nsock && s < b->nr_socket; s++)
				for (k = 0; k < NR_BSTATS; k++)
					w->bv[((bi * w->ns + side) * w->nsock + s) * NR_BSTATS + k] +=
						hm_mstat__get_counts(&b->socket[s], bstat_ids[k]);
			kind = b->kind ? 1 : 0;
			for (f = 0; f < HM_FUTEX_FIELD__MAX; f++) {
				if (!b->field[f].samples)
					continue;
				for (k = 0; k < NR_FSTATS; k++)
					fsum[kind][f][k] += hm_mstat__get_counts(&b->field[f], fstat_ids[k]);
				w->has_field[kind] = true;
			}
		}
		for (s = 0; s < w->nsock && s < m->nr_sockets; s++)
			for (n = 0; n < w->nnode && n < m->nr_nodes; n++)
				w->xv[((size_t)side * w->nsock + s) * w->nnode + n] += m->xfer[s * m->nr_nodes + n];
	}
	if (!nr)
		return;
	for (j = 0; j < w->lines.nr; j++)
		for (k = 0; k < NR_LSTATS; k++)
			w->lv[(j * w->ns + side) * NR_LSTATS + k] /= nr;
	for (j = 0; nt && j < w->buckets.nr; j++)
		for (k = 0; k < w->nsock * NR_BSTATS; k++)
			w->bv[(j * w->ns + side) * w->nsock * NR_BSTATS + k] /= nt;
	for (kind = 0; nt && kind < 2; kind++)
		for (f = 0; f < HM_FUTEX_FIELD__MAX; f++)
			for (k = 0; k < NR_FSTATS; k++)
				w->fv[kind][f][k][side] = fsum[kind][f][k] / nt;
	for (k = 0; k < w->nsock * w->nnode; k++)
		w->xv[(size_t)side * w->nsock * w->nnode + k] /= nr;
}

/* The lines' code locations; the page writes them out "where xN; ..." when shown. */
static void view_code(struct view *w, const struct hm_metrics *m)
{
	u32 i, k;

	for (i = 0; i < m->nr_lines; i++) {
		const struct hm_mv_line *l = &m->lines[i];
		s64 li = strmap_get(&w->lines, l->id, strlen(l->id), false);
		struct lcode *c;

		/* a run where the line is past --lines has no code for it: take another's */
		if (li < 0 || w->lcode[li].n || !l->nr_code)
			continue;
		c = &w->lcode[li];
		for (k = 0; k < l->nr_code && k < HM_MV_CODE; k++) {
			s64 wi = strmap_get(&w->wheres, l->code[k].where, strlen(l->code[k].where), true);

			if (wi < 0) {
				w->err = true;
				return;
			}
			c->where[k] = wi;
			c->count[k] = l->code[k].count;
		}
		c->n = k;
	}
}

static void view_release(struct view *w)
{
	strmap_release(&w->buckets);
	strmap_release(&w->lines);
	strmap_release(&w->wheres);
	strmap_release(&w->tables);
	free(w->btable);
	free(w->bindex);
	free(w->bv);
	free(w->lv);
	free(w->lmatch);
	free(w->lcode);
	free(w->xv);
	free(w->totals);
}

/* Numbers exactly (integers as integers), so the page and --json agree. */
static void num(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.17g", v);
}

/*
 * The page's data.  @first: the run whose futex layout the fields drawing
 * shows (NULL: none); @bare: per side, true where the side has no futex
 * tables (NULL: every side has them), whose bucket and field values are
 * null, not 0: nothing to draw, nothing to compare.
 */
static int emit_view(FILE *f, const struct view *w, const struct hm_metrics *first, const bool *bare)
{
	struct strmap pre;
	u32 i, k, n, nr_pre = 0, *lp;
	int s, kind, fi;

	bool keep[NR_BSTATS];
	u32 nkept = 0;

	memset(&pre, 0, sizeof(pre));
	lp = malloc((w->lines.nr ? w->lines.nr : 1) * sizeof(*lp));
	if (!lp)
		return -ENOMEM;

	/*
	 * Cross-die HITMs exist only on multi-die sockets: where the file has
	 * none, the page leaves the all-zero column out (less to load and draw).
	 */
	n = w->buckets.nr * w->ns * w->nsock * NR_BSTATS;
	for (k = 0; k < NR_BSTATS; k++)
		keep[k] = strcmp(bstats[k], "hitm_xdie") != 0;
	for (i = 0; i < n; i++)
		if (w->bv[i] != 0 && strcmp(bstats[i % NR_BSTATS], "hitm_xdie") == 0)
			keep[i % NR_BSTATS] = true;
	fprintf(f, ",\"sockets\":%u,\"nodes\":%u,\"bstats\":[", w->nsock, w->nnode);
	for (k = 0; k < NR_BSTATS; k++)
		if (keep[k])
			fprintf(f, "%s\"%s\"", nkept++ ? "," : "", bstats[k]);
	fputs("],\"lstats\":[", f);
	for (k = 0; k < NR_LSTATS; k++)
		fprintf(f, "%s\"%s\"", k ? "," : "", lstats[k]);
	fputs("],\"totals\":[", f);
	for (i = 0; i < w->nr_totals; i++) {
		const struct total *t = &w->totals[i];

		fprintf(f, "%s{\"k\":", i ? "," : "");
		hm_json__write_string(f, t->key);
		fputs(",\"v\":[", f);
		for (s = 0; s < w->ns; s++) {
			if (s)
				fputc(',', f);
			num(f, t->v[s]);
		}
		fprintf(f, "],\"sig\":%s,\"p\":", t->sig ? "true" : "false");
		if (t->tested)
			num(f, t->p);
		else
			fputs("null", f);
		fputc('}', f);
	}
	/* bucket b is tables[t[b]] + ".bucket." + index[b] (the page spells the ids) */
	fputs("],\"buckets\":{\"tables\":[", f);
	for (i = 0; i < w->tables.nr; i++) {
		if (i)
			fputc(',', f);
		hm_json__write_string(f, w->tables.keys[i]);
	}
	fputs("],\"t\":[", f);
	for (i = 0; i < w->buckets.nr; i++)
		fprintf(f, "%s%u", i ? "," : "", w->btable[i]);
	fputs("],\"index\":[", f);
	for (i = 0; i < w->buckets.nr; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", w->bindex[i]);
	fputs("],\"v\":[", f);
	for (i = 0, nkept = 0; i < n; i++) {
		if (!keep[i % NR_BSTATS])
			continue;
		if (nkept++)
			fputc(',', f);
		/* [bucket][side][socket][stat] */
		if (bare && bare[i / (w->nsock * NR_BSTATS) % w->ns])
			fputs("null", f);
		else
			num(f, w->bv[i]);
	}
	fputs("]},\"layout\":", f);
	if (first && first->has_layout) {
		const struct hm_futex_layout *l = &first->layout;

		fprintf(f, "{\"size\":%u,\"source\":", l->bucket_size);
		hm_json__write_string(f, l->source);
		fputs(",\"fields\":[", f);
		for (fi = 0, k = 0; fi < HM_FUTEX_FIELD__MAX; fi++) {
			if (l->offset[fi] < 0 || fi == HM_FUTEX_FIELD_PAD)
				continue;
			fprintf(f, "%s{\"name\":\"%s\",\"offset\":%d,\"size\":%u}", k++ ? "," : "",
				hm_futex_field__name(fi), l->offset[fi], l->size[fi]);
		}
		fputs("]}", f);
	} else {
		fputs("null", f);
	}
	fputs(",\"fields\":{", f);
	for (kind = 0, k = 0; kind < 2; kind++) {
		if (!w->has_field[kind])
			continue;
		fprintf(f, "%s\"%s\":{", k++ ? "," : "", kind ? "private" : "global");
		for (fi = 0, n = 0; fi < HM_FUTEX_FIELD__MAX; fi++) {
			u32 st;

			fprintf(f, "%s\"%s\":{", n++ ? "," : "", hm_futex_field__name(fi));
			for (st = 0; st < NR_FSTATS; st++) {
				fprintf(f, "%s\"%s\":[", st ? "," : "", fstats[st]);
				for (s = 0; s < w->ns; s++) {
					if (s)
						fputc(',', f);
					num(f, bare && bare[s] ? NAN : w->fv[kind][fi][st][s]);
				}
				fputc(']', f);
			}
			fputc('}', f);
		}
		fputc('}', f);
	}
	fputs("},\"xfer\":[", f);
	n = w->ns * w->nsock * w->nnode;
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		num(f, w->xv[i]);
	}
	/*
	 * line i is pre[p[i]] + s[i]: its id without the trailing hex digits
	 * (an address, offset or index), once per distinct prefix, and those
	 * digits; 100k ids such as addr:0x7f00000c19c0 or
	 * futex.global.node0.bucket.7805 load a third smaller
	 */
	fputs("],\"lines\":{\"pre\":[", f);
	for (i = 0; i < w->lines.nr; i++) {
		const char *key = w->lines.keys[i];
		size_t len = strlen(key);
		s64 pi;

		while (len && isxdigit((unsigned char)key[len - 1]))
			len--;
		pi = strmap_get(&pre, key, len, true);
		if (pi < 0) {
			strmap_release(&pre);
			free(lp);
			return -ENOMEM;
		}
		lp[i] = pi;
		if ((u32)pi == nr_pre) {	/* new: pre.keys[pi] is the prefix alone */
			fputs(nr_pre++ ? "," : "", f);
			hm_json__write_string(f, pre.keys[pi]);
		}
	}
	fputs("],\"p\":[", f);
	for (i = 0; i < w->lines.nr; i++)
		fprintf(f, "%s%u", i ? "," : "", lp[i]);
	fputs("],\"s\":[", f);
	for (i = 0; i < w->lines.nr; i++) {
		const char *key = w->lines.keys[i];

		fprintf(f, "%s\"%s\"", i ? "," : "", key + strlen(pre.keys[lp[i]]));
	}
	strmap_release(&pre);
	free(lp);
	/* how each line is matched, as an index into matchNames (short for 100k lines) */
	fputs("],\"matchNames\":[", f);
	for (k = 0; k < HM_MATCH__MAX; k++)
		fprintf(f, "%s\"%s\"", k ? "," : "", hm_metric_match__name(k));
	fputs("],\"match\":[", f);
	for (i = 0; i < w->lines.nr; i++)
		fprintf(f, "%s%u", i ? "," : "", w->lmatch[i]);
	/* each code location once; per line how many (cn), which (ci) and how often (cc) */
	fputs("],\"where\":[", f);
	for (i = 0; i < w->wheres.nr; i++) {
		if (i)
			fputc(',', f);
		hm_json__write_string(f, w->wheres.keys[i]);
	}
	fputs("],\"cn\":[", f);
	for (i = 0; i < w->lines.nr; i++)
		fprintf(f, "%s%u", i ? "," : "", w->lcode[i].n);
	fputs("],\"ci\":[", f);
	for (i = 0, n = 0; i < w->lines.nr; i++)
		for (k = 0; k < w->lcode[i].n; k++)
			fprintf(f, "%s%u", n++ ? "," : "", w->lcode[i].where[k]);
	fputs("],\"cc\":[", f);
	for (i = 0, n = 0; i < w->lines.nr; i++)
		for (k = 0; k < w->lcode[i].n; k++)
			fprintf(f, "%s%" PRIu64, n++ ? "," : "", w->lcode[i].count[k]);
	fputs("],\"v\":[", f);
	n = w->lines.nr * w->ns * NR_LSTATS;
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		num(f, w->lv[i]);
	}
	fputs("]}", f);
	return 0;
}

/* Copy @s to @f with "</" broken up, so no string ends the script element. */
static void put_script_safe(FILE *f, const char *s, size_t n)
{
	size_t i, from = 0;

	for (i = 0; i + 1 < n; i++)
		if (s[i] == '<' && s[i + 1] == '/') {
			fwrite(s + from, 1, i + 1 - from, f);
			fputs("\\", f);
			from = i + 1;
		}
	fwrite(s + from, 1, n - from, f);
}

static int page(FILE *f, const char *title, const char *subtitle, const char *json, size_t len,
		const char *extra)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>", f);
	hm_html__escape(f, title);
	fputs("</title>\n<style>\n", f);
	fputs(hm_html_css, f);
	fputs("</style></head><body>\n<header><h1>", f);
	hm_html__escape(f, title);
	fputs("</h1><p>", f);
	hm_html__escape(f, subtitle);
	fputs("</p></header>\n<main>\n"
	      "<section id=\"rows-section\"><h2>Changes (LKP's comparison, sorted by significance and size)</h2>"
	      "<p class=\"muted\" id=\"rows-info\"></p><div style=\"max-height:480px;overflow:auto\"><table id=\"rows\"></table></div></section>\n"
	      "<section><h2>Totals</h2><div style=\"max-height:420px;overflow:auto\"><table id=\"totals\"></table></div></section>\n"
	      "<section id=\"heat-section\"><h2>Futex hash buckets x sockets</h2>"
	      "<div class=\"controls\"><label>value <select id=\"heat-stat\"></select></label>"
	      "<label>show <select id=\"heat-view\"></select></label></div>"
	      "<div id=\"heat\"></div><div class=\"legend\" id=\"heat-legend\"></div></section>\n"
	      "<section><h2>Bucket fields, to scale</h2><div id=\"fields\"></div></section>\n"
	      "<section><h2>Socket to node transfers (loads served by HITM, remote cache or DRAM)</h2>"
	      "<table id=\"xfer\"></table></section>\n"
	      "<section><h2>Shared cache lines</h2><div class=\"pager\"><button id=\"lines-prev\">&larr; prev</button>"
	      "<button id=\"lines-next\">next &rarr;</button><span id=\"lines-info\"></span></div>"
	      "<div style=\"overflow:auto\"><table id=\"lines\"><thead><tr id=\"lines-head\"></tr></thead>"
	      "<tbody id=\"lines-body\"></tbody></table></div></section>\n", f);
	if (extra)	/* html-contention.c */
		fputs(extra, f);
	fputs("</main><div id=\"tip\"></div>\n<script type=\"application/json\" id=\"hm-data\">", f);
	put_script_safe(f, json, len);
	fputs("</script>\n<script>\n", f);
	fputs(hm_html_js, f);
	fputs("</script>\n</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}

static int view_init(struct view *w, int ns, u32 nsock, u32 nnode)
{
	memset(w, 0, sizeof(*w));
	w->ns = ns;
	w->nsock = nsock;
	w->nnode = nnode;
	w->xv = calloc((size_t)ns * (nsock ? nsock : 1) * (nnode ? nnode : 1), sizeof(*w->xv));
	return w->xv ? 0 : -ENOMEM;
}

int hm_html__render_metrics(const struct hm_metrics *m, FILE *f)
{
	return hm_html__render_metrics_extra(m, NULL, f);
}

int hm_html__render_metrics_extra(const struct hm_metrics *m, const char *extra, FILE *f)
{
	struct view w;
	char *json = NULL, sub[1024];
	size_t len = 0;
	FILE *j;
	int err;

	if (view_init(&w, 1, m->nr_sockets, m->nr_nodes))
		return -ENOMEM;
	view_from_metrics(&w, m);
	if (!w.err)
		view_code(&w, m);
	if (w.err) {
		view_release(&w);
		return -ENOMEM;
	}
	j = open_memstream(&json, &len);
	if (!j) {
		view_release(&w);
		return -ENOMEM;
	}
	fputs("{\"mode\":\"report\",\"sides\":[", j);
	hm_json__write_string(j, m->label);
	fprintf(j, "],\"samples\":[%" PRIu64 "]", m->nr_samples);
	if (emit_view(j, &w, m, NULL) < 0) {
		fclose(j);
		free(json);
		view_release(&w);
		return -ENOMEM;
	}
	fputs(",\"rows\":[],\"rowsNote\":\"\"}", j);
	fclose(j);
	if (extra && *extra && !m->nr_lines)	/* contention mode: html-contention.c's view */
		snprintf(sub, sizeof(sub), "%s: %" PRIu64 " samples, lock contention events, no memory samples: "
			 "see \"Futex bucket lock contention\" below", m->label, m->nr_samples);
	else if (!m->c2c.nr_entries)	/* contention mode: no memory samples to draw */
		snprintf(sub, sizeof(sub), "%s: %" PRIu64 " samples, none of them memory samples (contention mode?): "
			 "'hitmap report --by bucket' gives bucket lock contention and its callers", m->label, m->nr_samples);
	else
		snprintf(sub, sizeof(sub), "%s: %" PRIu64 " samples, %u shared lines, %u futex buckets touched; "
			 "counting: hitmap's precise categories (cache lines: perf c2c's counters)%s%s",
			 m->label, m->nr_samples, m->nr_lines, m->nr_buckets,
			 m->counting_note ? "; " : "", m->counting_note ? m->counting_note : "");
	err = page(f, "hitmap report", sub, json, len, extra);
	free(json);
	view_release(&w);
	return err;
}

#define HTML_MAX_ROWS 5000

/*
 * Per side of a diff, whether its runs have futex tables, as hitmap diff
 * decides its "-" (hm_metrics.has_layout): "futexTables" (false: none of
 * the side's runs has them, the page draws no bucket of it), "futexRuns"
 * (how many of its runs have them: the bucket means are over those) and
 * "futexWhy" (for a side without: the first run's reason, else null).
 * Sets @bare per side; returns the first run with tables (its layout for
 * the fields drawing) or NULL.
 */
static const struct hm_metrics *emit_sides_futex(FILE *j, struct hm_metrics *const *runs[2],
						 const u32 nr[2], bool bare[2])
{
	const struct hm_metrics *first = NULL, *why[2] = { NULL, NULL };
	u32 with[2] = { 0, 0 }, i;
	int s;

	for (s = 0; s < 2; s++)
		for (i = 0; i < nr[s]; i++) {
			const struct hm_metrics *m = runs[s][i];

			if (m->has_layout) {
				with[s]++;
				if (!first)
					first = m;
			} else if (!why[s]) {
				why[s] = m;
			}
		}
	for (s = 0; s < 2; s++)
		bare[s] = !with[s];
	fprintf(j, ",\"futexTables\":[%s,%s],\"futexRuns\":[%u,%u],\"futexWhy\":[",
		bare[0] ? "false" : "true", bare[1] ? "false" : "true", with[0], with[1]);
	for (s = 0; s < 2; s++) {
		const char *w = bare[s] && why[s] ? why[s]->futex_tables : NULL;

		if (s)
			fputc(',', j);
		if (!bare[s]) {
			fputs("null", j);
			continue;
		}
		if (w && !strncmp(w, "none: ", 6))
			w += 6;
		hm_json__write_string(j, w && *w ? w : nr[s] ? "no hitmap metadata" : "no runs");
	}
	fputc(']', j);
	return first;
}

int hm_html__render_diff(const struct hm_diff *d, FILE *f)
{
	const struct hm_diff_opts *o = hm_diff__opts(d);
	struct hm_metrics *const *base, *const *new_, *const *runs[2];
	u32 nb, nn, i, nr = hm_diff__nr_rows(d), nsock = 0, nnode = 0, shown = 0, nruns[2];
	const struct hm_metrics *first;
	bool bare[2];
	const char *bl, *nl;
	struct view w;
	char *json = NULL, sub[512];
	size_t len = 0;
	FILE *j;
	int err;

	base = hm_diff__runs(d, 0, &nb);
	new_ = hm_diff__runs(d, 1, &nn);
	for (i = 0; i < nb + nn; i++) {
		const struct hm_metrics *m = i < nb ? base[i] : new_[i - nb];

		if (m->nr_sockets > nsock)
			nsock = m->nr_sockets;
		if (m->nr_nodes > nnode)
			nnode = m->nr_nodes;
	}
	if (view_init(&w, 2, nsock, nnode))
		return -ENOMEM;
	view_diff_side(&w, 0, base, nb, o->top_lines);
	if (!w.err)
		view_diff_side(&w, 1, new_, nn, o->top_lines);
	for (i = 0; i < nr && !w.err; i++) {
		const struct hm_diff_row *r = hm_diff__row(d, i);

		if (group_is_total(r->group))
			view_total(&w, r->key, 0, r);
	}
	for (i = 0; i < nb + nn && !w.err; i++)
		view_code(&w, i < nb ? base[i] : new_[i - nb]);
	if (w.err) {
		view_release(&w);
		return -ENOMEM;
	}
	j = open_memstream(&json, &len);
	if (!j) {
		view_release(&w);
		return -ENOMEM;
	}
	bl = o->base_label ? o->base_label : nb ? base[0]->label : "base";
	nl = o->new_label ? o->new_label : nn ? new_[0]->label : "new";
	fputs("{\"mode\":\"diff\",\"sides\":[", j);
	hm_json__write_string(j, bl);
	fputc(',', j);
	hm_json__write_string(j, nl);
	fprintf(j, "],\"samples\":[%" PRIu64 ",%" PRIu64 "]", nb ? base[0]->nr_samples : 0,
		nn ? new_[0]->nr_samples : 0);
	runs[0] = base;
	runs[1] = new_;
	nruns[0] = nb;
	nruns[1] = nn;
	first = emit_sides_futex(j, runs, nruns, bare);
	if (emit_view(j, &w, first, bare) < 0) {
		fclose(j);
		free(json);
		view_release(&w);
		return -ENOMEM;
	}
	fputs(",\"rows\":[", j);
	for (i = 0; i < nr && shown < HTML_MAX_ROWS; i++) {
		const struct hm_diff_row *r = hm_diff__row(d, i);

		if (!r->shown)
			continue;
		fprintf(j, "%s{\"k\":", shown++ ? "," : "");
		hm_json__write_string(j, r->key);
		fputs(",\"a\":", j);
		num(j, r->a->n ? r->a->mean : NAN);
		fputs(",\"as\":", j);
		num(j, r->a->n > 1 ? r->a->pct_stddev : 0);
		fputs(",\"b\":", j);
		num(j, r->b->n ? r->b->mean : NAN);
		fputs(",\"bs\":", j);
		num(j, r->b->n > 1 ? r->b->pct_stddev : 0);
		fprintf(j, ",\"m\":\"%s\",\"t\":\"%s\",\"p\":", hm_metric_match__name(r->match),
			hm_stat_test__name(r->test));
		num(j, r->p);
		fprintf(j, ",\"sig\":%s}", r->significant ? "true" : "false");
	}
	fprintf(j, "],\"rowsNote\":\"%u rows shown (perf-c2c.*, workload and significant rows; "
		   "family-wise alpha %g, split over metric groups, Holm-Bonferroni in each)%s\"}", shown, o->alpha,
		shown == HTML_MAX_ROWS ? "; the first 5000" : "");
	fclose(j);
	snprintf(sub, sizeof(sub), "base: %s (%u run%s)  new: %s (%u run%s)", bl, nb, nb == 1 ? "" : "s",
		 nl, nn, nn == 1 ? "" : "s");
	err = page(f, "hitmap diff", sub, json, len, NULL);
	free(json);
	view_release(&w);
	return err;
}
