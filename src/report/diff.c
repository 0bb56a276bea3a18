// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap diff: match the metrics of several runs per side by key, summarize
 * each side (mean, LKP's %stddev), test the change (Welch / Poisson /
 * prediction interval, Holm-corrected), sort by significance and size, and
 * render LKP's comparison layout, JSON or CSV.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include "metrics.h"
#include "util/htab.h"

struct diff_row {
	struct hm_diff_row	r;
	struct hm_stat_summary	sa, sb;
	u32			min_rank;	/* lines: best rank in any run */
	bool			in_bare;	/* present in a run without futex tables */
};

struct hm_diff {
	struct hm_diff_opts	opts;
	struct hm_metrics *const *base, *const *new_;
	u32			nr_base, nr_new;
	u32			nr_rows, alloc;
	struct diff_row		*rows;
	u32			*order;		/* sorted row indexes */
	u32			*hash;
	u32			hash_size;
	u32			nr_shown, nr_significant, nr_tested, nr_families;
	u32			nr_match[HM_MATCH__MAX];
	u32			tests_used;	/* bit per enum hm_stat_test_kind */
	u32			nr_bare;	/* runs without futex tables, when others have them */
	u32			nr_uncompared;	/* shown rows with a side that has no value */
};

static int rehash(struct hm_diff *d)
{
	u32 size = d->hash_size ? d->hash_size * 2 : 4096, i;
	u32 *h = malloc(size * sizeof(*h));

	if (!h)
		return -ENOMEM;
	memset(h, 0xff, size * sizeof(*h));
	for (i = 0; i < d->nr_rows; i++) {
		u32 p = (u32)hm_hash_str(d->rows[i].r.key) & (size - 1);

		while (h[p] != UINT32_MAX)
			p = (p + 1) & (size - 1);
		h[p] = i;
	}
	free(d->hash);
	d->hash = h;
	d->hash_size = size;
	return 0;
}

static s64 row_find(const struct hm_diff *d, const char *key, u32 *slot)
{
	u32 p;

	if (!d->hash_size)
		return -1;
	p = (u32)hm_hash_str(key) & (d->hash_size - 1);
	while (d->hash[p] != UINT32_MAX) {
		if (!strcmp(d->rows[d->hash[p]].r.key, key))
			return d->hash[p];
		p = (p + 1) & (d->hash_size - 1);
	}
	if (slot)
		*slot = p;
	return -1;
}

static s64 row_add(struct hm_diff *d, const struct hm_metric *m)
{
	struct diff_row *r;
	u32 slot = 0;
	s64 i;

	if ((d->nr_rows + 1) * 2 > d->hash_size && rehash(d))
		return -ENOMEM;
	i = row_find(d, m->key, &slot);
	if (i >= 0)
		return i;
	if (d->nr_rows == d->alloc) {
		u32 n = d->alloc ? d->alloc * 2 : 1024;
		struct diff_row *nr = realloc(d->rows, n * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		d->rows = nr;
		d->alloc = n;
	}
	r = &d->rows[d->nr_rows];
	memset(r, 0, sizeof(*r));
	r->r.key = strdup(m->key);
	if (!r->r.key)
		return -ENOMEM;
	r->r.group = m->group;
	r->r.match = m->match;
	r->r.count = m->count;
	r->min_rank = UINT32_MAX;
	d->hash[slot] = d->nr_rows;
	return d->nr_rows++;
}

static bool futex_group(u8 g)
{
	return g == HM_MG_BUCKET || g == HM_MG_BUCKET_SOCKET || g == HM_MG_BUCKET_FIELD ||
	       g == HM_MG_FIELD || g == HM_MG_RANK;
}

/*
 * A metric absent from @run: is its value there known to be 0?  Not for a
 * workload number (the file holds no such result), nor for what only futex
 * tables can name in a run that has none (buckets, fields, ranks, lines named
 * by their futex object), nor, in such a diff, for a line a run without
 * tables names by code or data that a run with tables may name by its
 * bucket.  Sample counts are 0 otherwise; other values are unknown.
 */
static bool absent_is_zero(const struct hm_diff *d, const struct diff_row *r,
			   const struct hm_metrics *run)
{
	if (!r->r.count || r->r.group == HM_MG_WORKLOAD)
		return false;
	if (!d->nr_bare)
		return true;
	if (futex_group(r->r.group))
		return run->has_layout;
	if (r->r.group == HM_MG_LINE) {
		if (r->r.match == HM_MATCH_BUCKET || r->r.match == HM_MATCH_FUTEX_OBJECT)
			return run->has_layout;
		return !(run->has_layout && r->in_bare);
	}
	return true;
}

/* Values of row @r over @n runs; unknown values are left out (a side of none: "-"). */
static void summarize(const struct hm_diff *d, const struct diff_row *r,
		      struct hm_metrics *const *runs, u32 n, double *buf, struct hm_stat_summary *s)
{
	u32 i, k = 0;

	for (i = 0; i < n; i++) {
		const struct hm_metric *m = hm_metrics__find(runs[i], r->r.key);

		if (m)
			buf[k++] = m->value;
		else if (absent_is_zero(d, r, runs[i]))
			buf[k++] = 0;
	}
	hm_stats__summarize(buf, k, s);
}

/* Both sides have a value: the row is compared (else it shows "-"). */
static bool compared(const struct diff_row *r)
{
	return r->sa.n && r->sb.n;
}

static const struct hm_diff *sort_d;

static int cmp_rows(const void *x, const void *y)
{
	const struct diff_row *a = &sort_d->rows[*(const u32 *)x], *b = &sort_d->rows[*(const u32 *)y];
	double ca = fabs(a->r.change), cb = fabs(b->r.change);
	double ma = fmax(fabs(a->sa.mean), fabs(a->sb.mean)), mb = fmax(fabs(b->sa.mean), fabs(b->sb.mean));
	double da, db;

	int ta = a->r.significant ? 0 : a->r.test == HM_TEST_NONE && a->r.change != 0 ? 1 : 2;
	int tb = b->r.significant ? 0 : b->r.test == HM_TEST_NONE && b->r.change != 0 ? 1 : 2;

	/* significant, then changed but untestable (one run each of ops/s), then the rest */
	if (ta != tb)
		return ta - tb;
	/* perf-c2c.* first among equals: they are what LKP reports */
	if ((a->r.group == HM_MG_C2C) != (b->r.group == HM_MG_C2C))
		return a->r.group == HM_MG_C2C ? -1 : 1;
	/* size: how many samples moved (counts only: ops/s are not samples), then how far */
	da = a->r.count ? fabs(a->sb.mean - a->sa.mean) : 0;
	db = b->r.count ? fabs(b->sb.mean - b->sa.mean) : 0;
	if (da != db)
		return da > db ? -1 : 1;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (ma != mb)
		return ma > mb ? -1 : 1;
	return strcmp(a->r.key, b->r.key);
}

void hm_diff__delete(struct hm_diff *d)
{
	u32 i;

	if (!d)
		return;
	for (i = 0; i < d->nr_rows; i++)
		free((char *)d->rows[i].r.key);
	free(d->rows);
	free(d->order);
	free(d->hash);
	free(d);
}

struct hm_diff *hm_diff__new(struct hm_metrics *const *base, u32 nr_base,
			     struct hm_metrics *const *new_, u32 nr_new,
			     const struct hm_diff_opts *opts)
{
	struct hm_diff *d = calloc(1, sizeof(*d));
	double *buf = NULL, *p = NULL;
	bool *sig = NULL;
	size_t *ord = NULL;
	u32 *tested = NULL;
	u32 i, k, nt = 0;

	if (!d)
		goto nomem;
	d->opts = *opts;
	if (d->opts.alpha <= 0 || d->opts.alpha >= 1)
		d->opts.alpha = 0.05;
	d->base = base;
	d->new_ = new_;
	d->nr_base = nr_base;
	d->nr_new = nr_new;
	/* runs without futex tables beside runs with them: their futex rows are unknown */
	for (k = 0, i = 0; k < nr_base + nr_new; k++)
		i += (k < nr_base ? base[k] : new_[k - nr_base])->has_layout;
	if (i)
		d->nr_bare = nr_base + nr_new - i;
	for (k = 0; k < nr_base + nr_new; k++) {
		const struct hm_metrics *m = k < nr_base ? base[k] : new_[k - nr_base];

		for (i = 0; i < m->nr; i++) {
			const struct hm_metric *e = &m->m[i];
			s64 r;

			/* lines: only those among the top N of some run */
			if (e->group == HM_MG_LINE && d->opts.top_lines && e->rank > d->opts.top_lines)
				continue;
			r = row_add(d, e);
			if (r < 0)
				goto nomem;
			if (e->rank && e->rank < d->rows[r].min_rank)
				d->rows[r].min_rank = e->rank;
			if (!m->has_layout)
				d->rows[r].in_bare = true;
		}
	}
	buf = malloc((nr_base + nr_new + 1) * sizeof(*buf));
	p = malloc((d->nr_rows + 1) * sizeof(*p));
	sig = malloc((d->nr_rows + 1) * sizeof(*sig));
	ord = malloc((d->nr_rows + 1) * sizeof(*ord));
	tested = malloc((d->nr_rows + 1) * sizeof(*tested));
	d->order = malloc((d->nr_rows + 1) * sizeof(*d->order));
	if (!buf || !p || !sig || !ord || !tested || !d->order)
		goto nomem;
	for (i = 0; i < d->nr_rows; i++) {
		struct diff_row *r = &d->rows[i];
		struct hm_stat_test t;

		r->r.a = &r->sa;
		r->r.b = &r->sb;
		summarize(d, r, base, nr_base, buf, &r->sa);
		summarize(d, r, new_, nr_new, buf, &r->sb);
		r->r.change = hm_stats__pct_change(r->sa.mean, r->sb.mean);
		if ((r->sa.mean == 0 && r->sb.mean == 0) || !compared(r))
			r->r.change = 0;	/* no value on a side: no change to claim */
		hm_stats__test(&r->sa, &r->sb, r->r.count, &t);
		/* a line that is a futex bucket is tested as the bucket, not twice */
		if (r->r.group == HM_MG_LINE && r->r.match == HM_MATCH_BUCKET) {
			t.kind = HM_TEST_NONE;
			t.p = 1;
		}
		r->r.test = t.kind;
		r->r.p = t.p;
		d->tests_used |= 1u << t.kind;
		if (t.kind != HM_TEST_NONE) {
			p[nt] = t.p;
			tested[nt++] = i;
		}
	}
	d->nr_tested = nt;
	/*
	 * Family-wise alpha split evenly (Bonferroni) over the metric groups
	 * that have tested rows, Holm-Bonferroni within each group: the 6
	 * perf-c2c totals are not drowned by 30 000 buckets, and a comparison
	 * of identical configurations still calls anything significant with
	 * probability at most alpha.
	 */
	{
		u32 g, ng = 0, cnt[HM_MG__MAX] = { 0 };
		double *gp = malloc((nt + 1) * sizeof(*gp));
		bool *gs = malloc((nt + 1) * sizeof(*gs));
		u32 *gi = malloc((nt + 1) * sizeof(*gi));

		if (!gp || !gs || !gi) {
			free(gp);
			free(gs);
			free(gi);
			goto nomem;
		}
		for (k = 0; k < nt; k++)
			cnt[d->rows[tested[k]].r.group]++;
		for (g = 0; g < HM_MG__MAX; g++)
			ng += cnt[g] > 0;
		d->nr_families = ng;
		memset(sig, 0, nt * sizeof(*sig));
		for (g = 0; g < HM_MG__MAX; g++) {
			u32 n = 0, q;

			if (!cnt[g])
				continue;
			for (k = 0; k < nt; k++)
				if (d->rows[tested[k]].r.group == g) {
					gp[n] = p[k];
					gi[n++] = k;
				}
			hm_stats__holm(gp, n, d->opts.alpha / ng, gs, ord);
			for (q = 0; q < n; q++)
				sig[gi[q]] = gs[q];
		}
		free(gp);
		free(gs);
		free(gi);
	}
	for (k = 0; k < nt; k++) {
		struct diff_row *r = &d->rows[tested[k]];

		r->r.significant = sig[k] && fabs(r->r.change) >= d->opts.min_change &&
				   r->sa.mean != r->sb.mean;
		d->nr_significant += r->r.significant;
	}
	for (i = 0; i < d->nr_rows; i++) {
		struct diff_row *r = &d->rows[i];

		d->order[i] = i;
		r->r.shown = d->opts.all || r->r.significant || r->r.group == HM_MG_C2C ||
			     r->r.group == HM_MG_WORKLOAD;
		/* a line that is a futex bucket repeats the bucket's own rows */
		if (!d->opts.all && r->r.group == HM_MG_LINE && r->r.match == HM_MATCH_BUCKET)
			r->r.shown = false;
		if (r->r.shown) {
			d->nr_shown++;
			d->nr_match[r->r.match]++;
			d->nr_uncompared += !compared(r);
		}
	}
	sort_d = d;
	qsort(d->order, d->nr_rows, sizeof(*d->order), cmp_rows);
	sort_d = NULL;
	free(buf);
	free(p);
	free(sig);
	free(ord);
	free(tested);
	return d;
nomem:
	hm_err("hitmap diff: out of memory matching %u metric sets", nr_base + nr_new);
	free(buf);
	free(p);
	free(sig);
	free(ord);
	free(tested);
	hm_diff__delete(d);
	errno = ENOMEM;
	return NULL;
}

u32 hm_diff__nr_rows(const struct hm_diff *d)
{
	return d->nr_rows;
}

const struct hm_diff_row *hm_diff__row(const struct hm_diff *d, u32 i)
{
	return i < d->nr_rows ? &d->rows[d->order[i]].r : NULL;
}

const struct hm_diff_row *hm_diff__find(const struct hm_diff *d, const char *key)
{
	s64 i = row_find(d, key, NULL);

	return i < 0 ? NULL : &d->rows[i].r;
}

struct hm_metrics *const *hm_diff__runs(const struct hm_diff *d, int side, u32 *nr)
{
	*nr = side ? d->nr_new : d->nr_base;
	return side ? d->new_ : d->base;
}

const struct hm_diff_opts *hm_diff__opts(const struct hm_diff *d)
{
	return &d->opts;
}

static const char *side_label(struct hm_metrics *const *runs, u32 n, const char *opt)
{
	const char *l;

	if (opt)
		return opt;
	if (!n)
		return "";
	l = strrchr(runs[0]->label, '/');
	return l ? l + 1 : runs[0]->label;
}

static const char *test_text(const struct hm_diff *d)
{
	static char buf[200];
	size_t n = 0;
	int k;

	buf[0] = 0;
	for (k = HM_TEST_WELCH; k <= HM_TEST_PREDICT; k++) {
		static const char *const what[] = {
			[HM_TEST_WELCH] = "Welch's t-test",
			[HM_TEST_POISSON] = "Poisson count test",
			[HM_TEST_PREDICT] = "t prediction interval",
		};

		if (!(d->tests_used & (1u << k)))
			continue;
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "", what[k]);
	}
	if (!n)
		snprintf(buf, sizeof(buf), "no test (one run per side and no counts)");
	return buf;
}

/*
 * One side of an LKP row (lib/compare.rb: the mean in 10 columns, " +-NNN%"
 * or six blanks), or "-" where the side has no value.
 */
static int side_text(char *buf, size_t size, const struct hm_stat_summary *s)
{
	double avg = s->mean, sd = s->n >= 2 && avg != 0 ? 100 * s->stddev / fabs(avg) : 0;
	int len;

	if (!s->n)
		return snprintf(buf, size, "%10s%6s", "-", "");
	if (fabs(avg) < 1000)
		len = snprintf(buf, size, "%10.2f", avg);
	else if (fabs(avg) > 100000000)
		len = snprintf(buf, size, "%10.4g", avg);
	else
		len = snprintf(buf, size, "%10lld", (long long)avg);
	if (len < 0 || (size_t)len >= size)
		return len;
	if (s->n >= 2 && sd > 2)
		return len + snprintf(buf + len, size - len, " \xc2\xb1%3lld%%", (long long)sd);
	return len + snprintf(buf + len, size - len, "%6s", "");
}

/* A row with a side that has no value: "-" there and in %change, never tested. */
static void text_uncompared(const struct diff_row *r, FILE *f)
{
	char a[64], b[64];

	side_text(a, sizeof(a), &r->sa);
	side_text(b, sizeof(b), &r->sb);
	fprintf(f, "%s%10s  %s  %s  (not compared)\n", a, "-", b, r->r.key);
}

static int render_text(const struct hm_diff *d, FILE *f)
{
	char line[1024];
	u32 i, m;
	bool first = true;

	hm_stats__lkp_header(line, sizeof(line), side_label(d->base, d->nr_base, d->opts.base_label),
			     side_label(d->new_, d->nr_new, d->opts.new_label));
	fputs(line, f);
	for (i = 0; i < d->nr_rows; i++) {
		const struct diff_row *r = &d->rows[d->order[i]];
		int len;

		if (!r->r.shown)
			continue;
		if (!compared(r)) {
			text_uncompared(r, f);
			continue;
		}
		len = hm_stats__lkp_row(line, sizeof(line), &r->sa, &r->sb, r->r.key);
		if (len > 0 && !r->r.significant && (size_t)len < sizeof(line)) {
			/* after the name, so every column stays where LKP has it */
			line[len - 1] = 0;
			fprintf(f, "%s  %s\n", line, r->r.test == HM_TEST_NONE && r->sa.mean != r->sb.mean ?
				"(untested)" : "(n.s.)");
		} else {
			fputs(line, f);
		}
	}
	fprintf(f, "\n%u of %u metrics changed significantly (%s; family-wise alpha %g over %u metric "
		   "groups, Holm-Bonferroni in each%s); %u rows shown%s\n",
		d->nr_significant, d->nr_tested, test_text(d), d->opts.alpha, d->nr_families,
		d->opts.min_change > 0 ? ", and |%change| >= --min-change" : "",
		d->nr_shown, d->opts.all ? "" : " (perf-c2c.*, workload and significant ones; --all for every row)");
	fprintf(f, "runs: base %u, new %u; rows matched by ", d->nr_base, d->nr_new);
	for (m = 0; m < HM_MATCH__MAX; m++) {
		if (!d->nr_match[m])
			continue;
		fprintf(f, "%s%s (%u)", first ? "" : ", ", hm_metric_match__name(m), d->nr_match[m]);
		first = false;
	}
	fprintf(f, "%s\n", first ? "nothing" : "");
	if (d->nr_uncompared)
		fprintf(f, "%u rows not compared: \"-\" is a side without the value (a workload number "
			   "the files do not hold%s)\n", d->nr_uncompared,
			d->nr_bare ? ", or futex rows of a run without futex tables" : "");
	if (d->nr_bare)
		fprintf(f, "futex buckets, fields and ranks: %u of %u runs have no futex tables; "
			   "those rows are compared only between runs that have them\n",
			d->nr_bare, d->nr_base + d->nr_new);
	return ferror(f) ? -EIO : 0;
}

static void json_side(struct hm_json *j, const char *key, const struct hm_stat_summary *s)
{
	hm_json__obj_begin(j, key);
	hm_json__u64(j, "runs", s->n);
	if (!s->n) {
		/* no value on this side: absent, not 0 */
		hm_json__str(j, "mean", NULL);
		hm_json__str(j, "stddev_pct", NULL);
		hm_json__obj_end(j);
		return;
	}
	if (s->mean >= 0 && s->mean == floor(s->mean) && s->mean < 1.8e19)
		hm_json__u64(j, "mean", (u64)s->mean);	/* exactly */
	else
		hm_json__double(j, "mean", s->mean);
	hm_json__double(j, "stddev_pct", s->pct_stddev);
	hm_json__obj_end(j);
}

static int render_json(const struct hm_diff *d, FILE *f)
{
	struct hm_json *j = hm_json__new(f, true);
	u32 i;

	if (!j)
		return -ENOMEM;
	hm_json__obj_begin(j, NULL);
	hm_json__obj_begin(j, "base");
	hm_json__str(j, "label", side_label(d->base, d->nr_base, d->opts.base_label));
	hm_json__arr_begin(j, "runs");
	for (i = 0; i < d->nr_base; i++)
		hm_json__str(j, NULL, d->base[i]->label);
	hm_json__arr_end(j);
	hm_json__obj_end(j);
	hm_json__obj_begin(j, "new");
	hm_json__str(j, "label", side_label(d->new_, d->nr_new, d->opts.new_label));
	hm_json__arr_begin(j, "runs");
	for (i = 0; i < d->nr_new; i++)
		hm_json__str(j, NULL, d->new_[i]->label);
	hm_json__arr_end(j);
	hm_json__obj_end(j);
	hm_json__obj_begin(j, "test");
	hm_json__str(j, "method", test_text(d));
	hm_json__str(j, "correction", "bonferroni over metric groups, holm-bonferroni within");
	hm_json__u64(j, "groups", d->nr_families);
	hm_json__double(j, "alpha", d->opts.alpha);
	hm_json__double(j, "min_change_pct", d->opts.min_change);
	hm_json__u64(j, "tested", d->nr_tested);
	hm_json__u64(j, "significant", d->nr_significant);
	hm_json__u64(j, "not_compared", d->nr_uncompared);
	hm_json__u64(j, "runs_without_futex_tables", d->nr_bare);
	hm_json__obj_end(j);
	hm_json__arr_begin(j, "rows");
	for (i = 0; i < d->nr_rows; i++) {
		const struct diff_row *r = &d->rows[d->order[i]];

		if (!r->r.shown)
			continue;
		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "metric", r->r.key);
		hm_json__str(j, "group", hm_metric_group__name(r->r.group));
		hm_json__str(j, "match", hm_metric_match__name(r->r.match));
		json_side(j, "base", &r->sa);
		json_side(j, "new", &r->sb);
		if (compared(r))
			hm_json__double(j, "change_pct", r->r.change);
		else
			hm_json__str(j, "change_pct", NULL);
		hm_json__bool(j, "compared", compared(r));
		hm_json__str(j, "test", hm_stat_test__name(r->r.test));
		hm_json__double(j, "p", r->r.p);
		hm_json__bool(j, "significant", r->r.significant);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);
	hm_json__obj_end(j);
	hm_json__delete(j);
	return ferror(f) ? -EIO : 0;
}

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_side(FILE *f, const struct hm_stat_summary *s)
{
	if (s->n)
		fprintf(f, ",%u,%.6g,%.2f", s->n, s->mean, s->pct_stddev);
	else
		fprintf(f, ",0,,");
}

static int render_csv(const struct hm_diff *d, FILE *f)
{
	u32 i;

	fputs("metric,group,match,base_runs,base_mean,base_stddev_pct,new_runs,new_mean,"
	      "new_stddev_pct,change_pct,test,p,significant\n", f);
	for (i = 0; i < d->nr_rows; i++) {
		const struct diff_row *r = &d->rows[d->order[i]];

		if (!r->r.shown)
			continue;
		csv_field(f, r->r.key);
		fprintf(f, ",%s,", hm_metric_group__name(r->r.group));
		csv_field(f, hm_metric_match__name(r->r.match));
		/* a side without the value: empty mean, %stddev and %change */
		csv_side(f, &r->sa);
		csv_side(f, &r->sb);
		if (compared(r))
			fprintf(f, ",%.6g", r->r.change);
		else
			fputc(',', f);
		fprintf(f, ",%s,%.6g,%s\n", hm_stat_test__name(r->r.test), r->r.p,
			r->r.significant ? "yes" : "no");
	}
	return ferror(f) ? -EIO : 0;
}

int hm_diff__render(const struct hm_diff *d, enum hm_format fmt, FILE *f)
{
	switch (fmt) {
	case HM_FMT_JSON:	return render_json(d, f);
	case HM_FMT_CSV:	return render_csv(d, f);
	case HM_FMT_HTML:	return -EINVAL;	/* the page: hm_html__render_diff */
	default:		return render_text(d, f);
	}
}
