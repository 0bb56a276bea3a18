// SPDX-License-Identifier: GPL-2.0-only
/*
 * simulate --compare: two runs side by side.
 *
 *  1. LKP's comparison layout (lkp-tests' compare: base value, %change, new
 *     value, metric name) for perf-bench-futex.ops/s and the perf-c2c.*
 *     metrics: those are what perf c2c counts from the samples written
 *     (data_src decoded as perf decodes it), with hitmap's precise
 *     categories (the model's true sources) beside.  LKP runs a fixed time,
 *     so sample counts are scaled to A's simulated time.
 *  2. Which accesses of the kernel path account for the change: HITM per
 *     1000 operations of every modelled access (not only sampled ones),
 *     matched between A and B by function, field and kind.
 *  3. Why, in words; and for the configuration of the LKP report that
 *     started this project (202507160223.2a483e8b-lkp@intel.com) a verdict:
 *     does the model reproduce the report's direction.
 *
 * The renderer writes to the caller's stream; nothing here is tuned to
 * any published result.
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "sim/sim.h"

/* ------------------------------------------------------------ counting */

static u64 hitm_of(const struct hm_sim *s, int obj, int field, bool remote_only)
{
	u64 n = hm_truth__pop(s->truth, obj, field, HM_SRC_HITM_REMOTE);

	if (!remote_only)
		n += hm_truth__pop(s->truth, obj, field, HM_SRC_HITM_LOCAL) +
		     hm_truth__pop(s->truth, obj, field, HM_SRC_HITM_XDIE);
	return n;
}

static double per_kop(u64 n, u64 ops)
{
	return ops ? 1000.0 * (double)n / (double)ops : 0;
}

static double sim_ms(const struct hm_sim *s)
{
	return (double)s->res.cycles_max / s->m.ghz / 1e6;
}

static u64 slots_of(const struct hm_sim *s)
{
	return s->lay.fph ? s->lay.fph_slots : s->lay.table_slots * s->lay.nr_tables;
}

static double chg(double a, double b)
{
	return a != 0 ? 100.0 * (b - a) / a : (b != 0 ? INFINITY : 0);
}

static void fmt_val(char *buf, size_t n, double v)
{
	if (fabs(v) < 100 && v != floor(v))
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "%.0f", v);
}

static void fmt_chg(char *buf, size_t n, double a, double b)
{
	double c = chg(a, b);

	if (isinf(c))
		snprintf(buf, n, "new");
	else
		snprintf(buf, n, "%+.1f%%", c);
}

static void row(FILE *f, const char *what, double a, double b, const char *unit)
{
	char d[32];

	if (a == 0 && b == 0)
		return;
	fmt_chg(d, sizeof(d), a, b);
	fprintf(f, "  %-34s %14.1f %14.1f  %8s  %s\n", what, a, b, d, unit);
}

/* ------------------------------------------------------------ LKP layout */

struct lkp_metric {
	const char	*name;
	double		a, b;		/* perf-compatible (samples, scaled) */
	double		sda, sdb;	/* %stddev over runs, NAN with one run */
	const char	*pname;
	double		pa, pb;		/* precise */
	double		published;	/* the report's %change, NAN: none */
};

enum { M_OPS, M_DRAM_L, M_DRAM_R, M_HITM_L, M_HITM_R, M_HITM_T, M__MAX };

/* The LKP report's changes (futex.md 4.4), in M_ order. */
static const double lkp_report[M__MAX] = { 1.9, 121.4, 225.5, 66.3, 227.2, 75.4 };

static bool is_seed(const struct hm_sim *a, const struct hm_sim *b)
{
	return !strcmp(a->kmod->name, "6.16-rc4") && !strcmp(b->kmod->name, "6.16") &&
	       a->o.shared && b->o.shared;
}

void hm_sim__rates(const struct hm_sim *s, struct hm_sim_rates *r)
{
	struct hm_c2c_stats c;
	const u64 *p = s->res.src;
	double ms = sim_ms(s) > 0 ? sim_ms(s) : 1;

	hm_truth__counts(s->truth, -1, &c, NULL);
	memset(r, 0, sizeof(*r));
	r->ms = ms;
	r->ops = s->res.ops_per_sec_thread;
	r->c2c[M_DRAM_L] = c.lcl_dram / ms;
	r->c2c[M_DRAM_R] = c.rmt_dram / ms;
	r->c2c[M_HITM_L] = c.lcl_hitm / ms;
	r->c2c[M_HITM_R] = c.rmt_hitm / ms;
	r->c2c[M_HITM_T] = c.tot_hitm / ms;
	r->pop[M_DRAM_L] = p[HM_SRC_DRAM_LOCAL] / ms;
	r->pop[M_DRAM_R] = p[HM_SRC_DRAM_REMOTE] / ms;
	r->pop[M_HITM_L] = (p[HM_SRC_HITM_LOCAL] + p[HM_SRC_HITM_XDIE]) / ms;
	r->pop[M_HITM_R] = p[HM_SRC_HITM_REMOTE] / ms;
	r->pop[M_HITM_T] = (p[HM_SRC_HITM_LOCAL] + p[HM_SRC_HITM_XDIE] + p[HM_SRC_HITM_REMOTE]) / ms;
}

/* Mean and %stddev (sample) of metric @i over @n runs: ops (i == 0), c2c or pop. */
static double mean_of(const struct hm_sim_rates *r, u32 n, int i, bool pop, double *sd_pct)
{
	double sum = 0, sq = 0, m;
	u32 k;

	for (k = 0; k < n; k++)
		sum += i == M_OPS ? r[k].ops : pop ? r[k].pop[i] : r[k].c2c[i];
	m = n ? sum / n : 0;
	for (k = 0; k < n; k++) {
		double v = i == M_OPS ? r[k].ops : pop ? r[k].pop[i] : r[k].c2c[i];

		sq += (v - m) * (v - m);
	}
	*sd_pct = n > 1 && m > 0 ? 100.0 * sqrt(sq / (n - 1)) / m : NAN;
	return m;
}

static void lkp_metrics(const struct hm_sim_rates *ra, u32 na, const struct hm_sim_rates *rb, u32 nb,
			bool seed, struct lkp_metric *m)
{
	static const char *const names[M__MAX] = {
		"perf-bench-futex.ops/s", "perf-c2c.DRAM.local", "perf-c2c.DRAM.remote",
		"perf-c2c.HITM.local", "perf-c2c.HITM.remote", "perf-c2c.HITM.total",
	};
	static const char *const pnames[M__MAX] = {
		NULL, "dram_local", "dram_remote", "hitm_local+xdie", "hitm_remote", "hitm (all)",
	};
	double ms = 0, sd;
	u32 k;
	int i;

	/* rates scaled to A's mean simulated time: LKP runs a fixed time */
	for (k = 0; k < na; k++)
		ms += ra[k].ms / na;
	for (i = 0; i < M__MAX; i++) {
		double scale = i == M_OPS ? 1 : ms;

		m[i].name = names[i];
		m[i].pname = pnames[i];
		m[i].a = mean_of(ra, na, i, false, &m[i].sda) * scale;
		m[i].b = mean_of(rb, nb, i, false, &m[i].sdb) * scale;
		m[i].pa = i == M_OPS ? 0 : mean_of(ra, na, i, true, &sd) * scale;
		m[i].pb = i == M_OPS ? 0 : mean_of(rb, nb, i, true, &sd) * scale;
		m[i].published = seed ? lkp_report[i] : NAN;
	}
}

static void sd_str(char *buf, size_t n, double v, double sd)
{
	char x[24];

	fmt_val(x, sizeof(x), v);
	if (!isnan(sd) && sd >= 1)
		snprintf(buf, n, "%s \u00b1%3.0f%%", x, sd);
	else
		snprintf(buf, n, "%s", x);
}

static void print_lkp(FILE *f, const struct hm_sim *a, const struct hm_sim *b, const struct lkp_metric *m,
		      const char *sa, const char *sb, u32 runs)
{
	bool same = !strcmp(a->kmod->name, b->kmod->name);
	const char *ta = same ? (*sa ? sa : "(base)") : a->kmod->name;
	const char *tb = same ? (*sb ? sb : "(base)") : b->kmod->name;
	char va[64], vb[64], c[32], pa[32], pb[32], pc[32];
	int i;

	fprintf(f, "LKP layout: perf-c2c.* are what perf c2c counts from the samples written (data_src\n"
		   "decoded as perf does); precise: every simulated load by its true source (no sampling\n"
		   "noise).  Counts scaled to A's simulated time (%.3f ms; B ran %.3f ms), as LKP runs a\n"
		   "fixed time; %s.\n\n",
		sim_ms(a), sim_ms(b), runs > 1 ? "mean of the runs (seeds S, S+1, ...), +- the %stddev" :
		"one run per side (--runs N for a %stddev)");
	fprintf(f, "%16.16s %-27.27s\n", ta, tb);
	fprintf(f, "---------------- --------------------------- \n");
	fprintf(f, "         %%stddev     %%change         %%stddev\n");
	fprintf(f, "             \\          |                \\  \n");
	for (i = 0; i < M__MAX; i++) {
		sd_str(va, sizeof(va), m[i].a, m[i].sda);
		sd_str(vb, sizeof(vb), m[i].b, m[i].sdb);
		fmt_chg(c, sizeof(c), m[i].a, m[i].b);
		fprintf(f, "%16s %14s %16s        %-26s", va, c, vb, m[i].name);
		if (m[i].pname) {
			fmt_val(pa, sizeof(pa), m[i].pa);
			fmt_val(pb, sizeof(pb), m[i].pb);
			fmt_chg(pc, sizeof(pc), m[i].pa, m[i].pb);
			fprintf(f, " | precise %-15s %8s %8s %9s", m[i].pname, pa, pb, pc);
		}
		if (!isnan(m[i].published))
			fprintf(f, " | report %+.1f%%", m[i].published);
		fputc('\n', f);
	}
}

/* ------------------------------------------------------------ accesses */

struct acc_row {
	char	key[96];
	double	a, b;		/* HITM per 1000 ops */
	double	ra, rb;		/* remote HITM per 1000 ops */
};

static u64 step_hitm(const struct hm_sim *s, u32 i, bool remote)
{
	const u64 *p = s->pop.step[i];

	return remote ? p[HM_SRC_HITM_REMOTE] : p[HM_SRC_HITM_REMOTE] + p[HM_SRC_HITM_LOCAL] + p[HM_SRC_HITM_XDIE];
}

static void step_key(const struct hm_sim *s, u32 i, char *k, size_t n)
{
	if (i == HM_SIM_MAX_STEPS) {
		snprintf(k, n, "%-32s %-22s %-5s", "native_queued_spin_lock_slowpath", "hb->lock", "spin");
		return;
	}
	snprintf(k, n, "%-32s %-22s %-5s", hm_sim_ksym__name(s->tp.st[i].ksym),
		 s->tp.st[i].what ? s->tp.st[i].what : hm_obj__name(s->tp.st[i].obj),
		 hm_sim_acc__name(s->tp.st[i].acc));
}

static int add_rows(const struct hm_sim *s, bool is_b, struct acc_row *rows, int n)
{
	u32 i, j;
	char k[96];

	for (i = 0; i <= HM_SIM_MAX_STEPS; i++) {
		double v, r;
		struct acc_row *x = NULL;

		if (i < HM_SIM_MAX_STEPS && i >= s->tp.n)
			continue;
		step_key(s, i, k, sizeof(k));
		v = per_kop(step_hitm(s, i, false), s->res.ops);
		r = per_kop(step_hitm(s, i, true), s->res.ops);
		for (j = 0; j < (u32)n; j++)
			if (!strcmp(rows[j].key, k)) {
				x = &rows[j];
				break;
			}
		if (!x) {
			if (n >= 2 * (HM_SIM_MAX_STEPS + 1))
				continue;
			x = &rows[n++];
			memset(x, 0, sizeof(*x));
			snprintf(x->key, sizeof(x->key), "%s", k);
		}
		/* the same access twice in one path (two hb->priv loads): sum them */
		if (is_b) {
			x->b += v;
			x->rb += r;
		} else {
			x->a += v;
			x->ra += r;
		}
	}
	return n;
}

static int cmp_delta(const void *p, const void *q)
{
	const struct acc_row *x = p, *y = q;
	double dx = fabs(x->b - x->a), dy = fabs(y->b - y->a);

	return dx < dy ? 1 : dx > dy ? -1 : strcmp(x->key, y->key);
}

/* Access rows, biggest change first; returns the count. */
static int access_rows(const struct hm_sim *a, const struct hm_sim *b, struct acc_row *rows)
{
	int n = add_rows(a, false, rows, 0);

	n = add_rows(b, true, rows, n);
	qsort(rows, n, sizeof(*rows), cmp_delta);
	return n;
}

static void print_accesses(FILE *f, const struct acc_row *rows, int n)
{
	int i, shown = 0;

	fprintf(f, "\naccesses that account for it (HITM per 1000 ops, every modelled access, local+remote;\n"
		   "remote in brackets), biggest change first:\n");
	fprintf(f, "  %-32s %-22s %-5s %16s %16s %9s\n", "function", "access", "kind", "A", "B", "change");
	for (i = 0; i < n && shown < 12; i++) {
		char ca[32], cb[32];

		if (rows[i].a < 0.05 && rows[i].b < 0.05)
			continue;
		snprintf(ca, sizeof(ca), "%.1f (%.1f)", rows[i].a, rows[i].ra);
		snprintf(cb, sizeof(cb), "%.1f (%.1f)", rows[i].b, rows[i].rb);
		fprintf(f, "  %s %16s %16s %+9.1f\n", rows[i].key, ca, cb, rows[i].b - rows[i].a);
		shown++;
	}
	if (!shown)
		fprintf(f, "  (no access takes a HITM on either side)\n");
}

/* ------------------------------------------------------------ verdict */

static const char *direction(double model, double report)
{
	if (fabs(model) < 0.5)
		return "no change in the model";
	if ((model > 0) == (report > 0))
		return "same direction";
	return "opposite direction";
}

static void print_verdict(FILE *f, const struct hm_sim *a, const struct hm_sim *b,
			  const struct lkp_metric *m, const struct acc_row *rows, int n)
{
	double c[M__MAX];
	int i, same = 0, tested = 0;
	bool machine = a->m.nr_cpus == 192 && a->m.sockets == 2 && !strcmp(a->m.name, "srf") &&
		       a->nr_threads == 192;

	fprintf(f, "\nverdict against LKP 202507160223.2a483e8b-lkp@intel.com (v6.16-rc4 -> \"futex: Temporary\n"
		   "disable FUTEX_PRIVATE_HASH\", perf bench futex hash -S, 192 threads, lkp-srf-2sp2):\n");
	if (!machine)
		fprintf(f, "- note: this run is not the report's machine and thread count (srf preset, 192\n"
			   "  threads); the directions below are still those of the model.\n");
	fprintf(f, "  (model: the precise count where there is one, free of sampling noise; the\n"
		   "  samples' change is in brackets)\n");
	for (i = 0; i < M__MAX; i++) {
		double sc = chg(m[i].a, m[i].b);

		c[i] = m[i].pname ? chg(m[i].pa, m[i].pb) : sc;
		if (isinf(c[i]))
			c[i] = 100;
		if (m[i].pname)
			fprintf(f, "- %-22s model %+7.1f%% (%+.1f%%), report %+7.1f%%: %s\n", m[i].name, c[i],
				isinf(sc) ? 100.0 : sc, lkp_report[i], direction(c[i], lkp_report[i]));
		else
			fprintf(f, "- %-22s model %+7.1f%%, report %+7.1f%%: %s\n", m[i].name, c[i],
				lkp_report[i], direction(c[i], lkp_report[i]));
		if (fabs(c[i]) >= 0.5) {
			tested++;
			same += (c[i] > 0) == (lkp_report[i] > 0);
		}
	}
	fprintf(f, "- In words: the two kernels differ, for shared futexes, only in the two loads of\n"
		   "  hb->priv (futex_hash, futex_hash_put) that 6.16-rc4 makes and 6.16 final, with the\n"
		   "  private hash compiled out, does not; the private hash itself is never used by -S\n"
		   "  (every key is FUT_OFF_MMSHARED).\n");
	if (n > 0 && (fabs(rows[0].b - rows[0].a) >= 0.05)) {
		fprintf(f, "  The accesses that carry the change (HITM per 1000 ops, B - A):\n");
		for (i = 0; i < n && i < 3; i++) {
			const char *p = rows[i].key;
			char fn[40], acc[32];

			if (fabs(rows[i].b - rows[i].a) < 0.05)
				break;
			if (sscanf(p, "%39s %31s", fn, acc) != 2)
				continue;
			fprintf(f, "    %-22s in %-30s %+8.1f\n", acc, fn, rows[i].b - rows[i].a);
		}
	}
	{
		double ha = per_kop(a->res.src[HM_SRC_HITM_LOCAL] + a->res.src[HM_SRC_HITM_XDIE] +
				    a->res.src[HM_SRC_HITM_REMOTE], a->res.ops);
		double hb = per_kop(b->res.src[HM_SRC_HITM_LOCAL] + b->res.src[HM_SRC_HITM_XDIE] +
				    b->res.src[HM_SRC_HITM_REMOTE], b->res.ops);

		fprintf(f, "  Per operation the model's HITM go from %.1f to %.1f per 1000 ops (%+.1f%%): without\n"
			   "  the priv load the waiters increment is the first touch of the bucket line and takes\n"
			   "  the HITM itself, in one read-for-ownership where 6.16-rc4 needed a shared read and\n"
			   "  then an upgrade.  That saves time, not HITM: the fixed-time counts above change\n"
			   "  with the number of operations done (%+.1f%% ops/s).\n",
			ha, hb, chg(ha, hb), c[M_OPS]);
	}
	if (a->m.pmu == HM_PMU_INTEL_CMT && m[M_HITM_R].a > 0)
		fprintf(f, "  perf-c2c.DRAM.remote follows HITM.remote (model %.0f and %.0f samples; the report\n"
			   "  4129 and 4045, then 13444 and 13237): Crestmont PEBS encodes a remote HITM with\n"
			   "  the RAM level, so perf c2c counts it as remote DRAM too, while true remote DRAM\n"
			   "  loads are %.0f%% of the remote HITM (all accesses: %.0f against %.0f).  The\n"
			   "  report's DRAM.remote is, in the main, its HITM.remote.\n",
			m[M_DRAM_R].a, m[M_HITM_R].a,
			m[M_HITM_R].pa > 0 ? 100.0 * m[M_DRAM_R].pa / m[M_HITM_R].pa : 0.0,
			m[M_DRAM_R].pa, m[M_HITM_R].pa);
	if (tested && same == tested)
		fprintf(f, "- The model reproduces the report's direction on all %d metrics that move.\n", tested);
	else if (same)
		fprintf(f, "- The model reproduces the report's direction on %d of %d metrics that move, not on\n"
			   "  the others: it does NOT reproduce the report as a whole.\n", same, tested);
	else
		fprintf(f, "- The model does NOT reproduce the report's direction on any metric that moves.\n");
	fprintf(f, "  The size of the report's rise in HITM (+75.4%% total, +227%% remote; the base side\n"
		   "  varies by +-57%% from run to run) is not what these code paths predict: per\n"
		   "  operation the patched kernel makes fewer accesses to the bucket line, not more.\n"
		   "  What the model leaves out (mm_struct fields shifted by 48 bytes next to hot ones,\n"
		   "  the futex arrays' placement in THPs, run-to-run variance) may account for it.\n");
}

/* ------------------------------------------------------------ why */

static bool big_drop(double a, double b)
{
	return a > 1 && b < a * 0.2;
}

static bool big_rise(double a, double b)
{
	return b > 1 && b > a * 5 + 1;
}

static int field_hottest(const struct hm_sim *s)
{
	int f, best = -1;
	u64 bn = 0;

	for (f = 0; f < HM_FUTEX_FIELD__MAX; f++) {
		u64 n = hitm_of(s, -1, f, false);

		if (n > bn) {
			bn = n;
			best = f;
		}
	}
	return best;
}

static void explain(FILE *f, const struct hm_sim *a, const struct hm_sim *b)
{
	double fa = per_kop(hitm_of(a, HM_OBJ_FPH, -1, false), a->res.ops);
	double fb = per_kop(hitm_of(b, HM_OBJ_FPH, -1, false), b->res.ops);
	double pa = per_kop(hitm_of(a, -1, HM_FUTEX_FIELD_PRIV, false), a->res.ops);
	double pb = per_kop(hitm_of(b, -1, HM_FUTEX_FIELD_PRIV, false), b->res.ops);
	double ra = per_kop(a->res.src[HM_SRC_HITM_REMOTE], a->res.ops);
	double rb = per_kop(b->res.src[HM_SRC_HITM_REMOTE], b->res.ops);
	double da = per_kop(a->res.src[HM_SRC_DRAM_REMOTE], a->res.ops);
	double db = per_kop(b->res.src[HM_SRC_DRAM_REMOTE], b->res.ops);
	double ga = per_kop(hitm_of(a, HM_OBJ_FOLIO, -1, false), a->res.ops);
	double gb = per_kop(hitm_of(b, HM_OBJ_FOLIO, -1, false), b->res.ops);
	int ha = field_hottest(a), hb = field_hottest(b);
	int n = 0;

	fprintf(f, "\nwhy:\n");
	if (big_drop(fa, fb) || big_rise(fa, fb)) {
		const struct hm_sim *hot = fa > fb ? a : b, *cold = fa > fb ? b : a;

		fprintf(f, "- %s: the private hash header (struct futex_private_hash) no longer bounces between CPUs.\n",
			fa > fb ? "B" : "A");
		if (hot->kmod->ref == HM_SIM_REF_RCUREF && cold->kmod->ref == HM_SIM_REF_PERCPU && cold->lay.fph)
			fprintf(f, "  On 6.16-rc every futex operation takes and drops a reference with rcuref_get()/\n"
				   "  rcuref_put(): two atomic read-modify-writes of fph->users, one cache line that\n"
				   "  every thread of the process writes, so each operation finds it modified in\n"
				   "  another CPU's cache (HITM; remote HITM when that CPU is on the other socket).\n"
				   "  6.17 (56180dd20c19) counts references per CPU (futex_ref_get: this_cpu_inc),\n"
				   "  so the fph line is only read and stays shared in every cache.\n");
		else if (!cold->lay.fph)
			fprintf(f, "  Without a private hash there is no fph line at all: the futexes hash into the\n"
				   "  global table(s)%s.\n",
				   !cold->kmod->private_hash ? " (this kernel is built without FUTEX_PRIVATE_HASH)" : "");
		n++;
	}
	if (big_drop(pa, pb) || big_rise(pa, pb)) {
		const struct hm_sim *gone = pa > pb ? b : a;

		fprintf(f, "- HITM on the bucket's priv field %s in %s (%.1f -> %.1f per 1000 ops).\n",
			pa > pb ? "disappears" : "appears", pa > pb ? "B" : "A", pa, pb);
		fprintf(f, "  6.16-rc, 6.17 and 6.18 read hb->priv first in every operation (futex_hash), right\n"
			   "  after another CPU wrote the same line (waiters, lock), so that load takes the HITM.\n");
		if (gone->fm.layout.offset[HM_FUTEX_FIELD_PRIV] < 0 && gone->era == HM_FUTEX_ERA_7)
			fprintf(f, "  %s has no priv in struct futex_hash_bucket (a734d9fca84e removed it), so\n"
				   "  the first touch of the line is the waiters increment, which takes the HITM.\n",
				   gone->kmod->name);
		else if (gone->era == HM_FUTEX_ERA_PRE_6_16)
			fprintf(f, "  %s has no priv: it came with the private hash in 6.16; the first touch of\n"
				   "  the line is the waiters increment.\n", gone->kmod->name);
		else if (!gone->kmod->priv_loads)
			fprintf(f, "  %s keeps the field but never reads it: with FUTEX_PRIVATE_HASH compiled out\n"
				   "  futex_hash() is __futex_hash(key, NULL) and futex_hash_put() is empty.\n",
				   gone->kmod->name);
		else if (gone->fm.layout.offset[HM_FUTEX_FIELD_PRIV] < 0)
			fprintf(f, "  %s: the field was dropped (--drop-field priv).\n", gone->kmod->name);
		else if (gone->o.pad_field == HM_FUTEX_FIELD_PRIV)
			fprintf(f, "  %s: priv sits on its own cache line (--pad-field priv), which nobody writes,\n"
				   "  so the load hits a shared copy.\n", gone->kmod->name);
		n++;
	}
	if (big_drop(ga, gb) || big_rise(ga, gb)) {
		fprintf(f, "- HITM on the folio reference count %s (%.1f -> %.1f per 1000 ops).\n",
			ga > gb ? "falls" : "rises", ga, gb);
		fprintf(f, "  get_futex_key() takes and drops a reference on the futex word's folio (GUP-fast,\n"
			   "  folio_put) with atomics on folio->_refcount: a 4 KiB page is shared by neighbouring\n"
			   "  threads' arrays, a THP by all of them, so every thread writes the same line.\n");
		n++;
	}
	if (ha != hb && ha >= 0 && hb >= 0) {
		fprintf(f, "- The hottest HITM field of the bucket moves from %s to %s.\n",
			hm_futex_field__name(ha), hm_futex_field__name(hb));
		n++;
	}
	if ((ra < 0.01 && rb > 0.01) || (rb < 0.01 && ra > 0.01) || (da < 0.01 && db > 0.01) ||
	    (db < 0.01 && da > 0.01)) {
		const struct hm_sim *two = ra + da > rb + db ? a : b;
		const struct hm_sim *one = two == a ? b : a;

		fprintf(f, "- %s shows remote HITM (%.1f vs %.1f per 1000 ops) and remote DRAM (%.1f vs %.1f).\n",
			two == a ? "A" : "B", ra, rb, da, db);
		if (a->m.sockets != b->m.sockets)
			fprintf(f, "  With %u sockets a line last written by a CPU of the other socket has to cross\n"
				   "  the socket link (remote HITM), and memory homed on the other node is remote\n"
				   "  DRAM; on one socket every transfer stays inside one LLC.\n", two->m.sockets);
		else if (a->o.placement != b->o.placement)
			fprintf(f, "  %s placement keeps all %u threads on one socket (compact fills a socket\n"
				   "  first; perf bench's thread i on CPU i does too), so no line crosses the socket link; %s\n"
				   "  placement puts threads on both sockets, so lines written on one socket are\n"
				   "  read on the other (remote HITM), and the other socket reads memory homed on\n"
				   "  node 0 (remote DRAM).\n",
				one->o.placement == HM_PLACE_SPREAD ? "Spread" :
				one->o.placement == HM_PLACE_PERF ? "Perf" : "Compact", one->nr_threads,
				two->o.placement == HM_PLACE_SPREAD ? "spread" :
				two->o.placement == HM_PLACE_PERF ? "perf" : "compact");
		else
			fprintf(f, "  Threads on both sockets now share lines: a line written on one socket and\n"
				   "  read on the other is a remote HITM.\n");
		n++;
	} else if (big_rise(ra, rb) || big_drop(ra, rb)) {
		fprintf(f, "- Remote HITM %s (%.1f -> %.1f per 1000 ops).\n", rb > ra ? "rises" : "falls", ra, rb);
		if (a->o.placement != b->o.placement)
			fprintf(f, "  Compact placement fills one socket before the other (so does perf bench's thread\n"
				   "  i on CPU i while threads fit), spread alternates sockets: shared lines of both\n"
				   "  sockets cross the socket link more often.\n");
		else if (slots_of(a) != slots_of(b) || !a->lay.fph != !b->lay.fph)
			fprintf(f, "  The number of buckets changed: fewer buckets for the same futexes means more\n"
				   "  threads per bucket line, so more lines are written on one socket and read on\n"
				   "  the other.\n");
		n++;
	}
	if (slots_of(a) != slots_of(b) || !a->lay.fph != !b->lay.fph ||
	    a->nr_threads != b->nr_threads || a->o.futexes != b->o.futexes) {
		fprintf(f, "- Buckets: A uses %s (%llu slots) for %u x %u futexes, B uses %s (%llu slots) for\n"
			   "  %u x %u futexes.\n",
			a->lay.fph ? "a private hash" : "the global hash", (unsigned long long)slots_of(a),
			a->nr_threads, a->o.futexes,
			b->lay.fph ? "a private hash" : "the global hash", (unsigned long long)slots_of(b),
			b->nr_threads, b->o.futexes);
		n++;
	}
	if (a->fm.layout.bucket_size != b->fm.layout.bucket_size)
		fprintf(f, "- Bucket size %u -> %u bytes (a field on its own cache line).\n",
			a->fm.layout.bucket_size, b->fm.layout.bucket_size);
	{
		double oa = a->res.ops_per_sec_thread, ob = b->res.ops_per_sec_thread;

		if (oa > 0 && fabs(ob - oa) / oa > 0.05) {
			fprintf(f, "- Throughput per thread %s by %.0f%%: %s.\n", ob > oa ? "rises" : "falls",
				100.0 * fabs(ob - oa) / oa,
				"each HITM or remote access stalls the operation for hundreds of cycles "
				"(see the latency table in hitmap-simulate(1))");
			n++;
		}
	}
	if (!n)
		fprintf(f, "- Nothing in the coherence traffic changed by more than the thresholds.\n");
}

/* ------------------------------------------------------------ entry */

static void describe(FILE *f, const char *tag, const char *spec, const struct hm_sim *s)
{
	fprintf(f, "%s: %s\n   %s, kernel %s (%s), %s hash, %llu slots, %u threads x %u %s futexes%s%s\n",
		tag, spec, s->m.name, s->kmod->name, s->release, s->lay.fph ? "private" : "global",
		(unsigned long long)slots_of(s), s->nr_threads, s->o.futexes,
		s->o.shared ? "shared" : "private", s->o.thp ? " (THP heap)" : "",
		!strncmp(s->fm.layout.source, "what-if", 7) ? ", what-if layout" : "");
	if (s->o.pad_field >= 0 || s->o.drop_field >= 0)
		fprintf(f, "   bucket %u bytes%s%s%s%s\n", s->fm.layout.bucket_size,
			s->o.pad_field >= 0 ? ", own line for " : "",
			s->o.pad_field >= 0 ? hm_futex_field__name(s->o.pad_field) : "",
			s->o.drop_field >= 0 ? ", dropped " : "",
			s->o.drop_field >= 0 ? hm_futex_field__name(s->o.drop_field) : "");
	if (s->m.read_migrates)
		fprintf(f, "   what-if protocol: loads of a line modified elsewhere take it modified (--read-migrates)\n");
}

void hm_sim__compare(FILE *f, const struct hm_sim *a, const struct hm_sim *b, const char *sa,
		     const char *sb, const struct hm_sim_rates *ra, u32 na,
		     const struct hm_sim_rates *rb, u32 nb)
{
	struct hm_sim_rates one_a, one_b;
	struct lkp_metric m[M__MAX];
	struct acc_row rows[2 * (HM_SIM_MAX_STEPS + 1)];
	int k, n;

	describe(f, "A", sa, a);
	describe(f, "B", sb, b);
	fputc('\n', f);
	if (!ra || !na || !rb || !nb) {
		hm_sim__rates(a, &one_a);
		hm_sim__rates(b, &one_b);
		ra = &one_a;
		rb = &one_b;
		na = nb = 1;
	}
	lkp_metrics(ra, na, rb, nb, is_seed(a, b), m);
	print_lkp(f, a, b, m, sa, sb, na < nb ? na : nb);
	fprintf(f, "\nper operation (every modelled access):\n");
	fprintf(f, "  %-34s %14s %14s  %8s\n", "", "A", "B", "change");
	row(f, "ops/s per thread", a->res.ops_per_sec_thread, b->res.ops_per_sec_thread, "");
	for (k = 0; k < HM_SRC__MAX; k++) {
		char what[64];

		snprintf(what, sizeof(what), "loads from %s", hm_src__name(k));
		row(f, what, per_kop(a->res.src[k], a->res.ops), per_kop(b->res.src[k], b->res.ops),
		    "per 1000 ops");
	}
	for (k = 0; k < HM_OBJ__MAX; k++) {
		char what[64];

		snprintf(what, sizeof(what), "HITM on %s", hm_obj__name(k));
		row(f, what, per_kop(hitm_of(a, k, -1, false), a->res.ops),
		    per_kop(hitm_of(b, k, -1, false), b->res.ops), "per 1000 ops");
	}
	for (k = 0; k < HM_FUTEX_FIELD__MAX; k++) {
		char what[64];

		snprintf(what, sizeof(what), "HITM on bucket.%s", hm_futex_field__name(k));
		row(f, what, per_kop(hitm_of(a, -1, k, false), a->res.ops),
		    per_kop(hitm_of(b, -1, k, false), b->res.ops), "per 1000 ops");
	}
	n = access_rows(a, b, rows);
	print_accesses(f, rows, n);
	explain(f, a, b);
	if (is_seed(a, b))
		print_verdict(f, a, b, m, rows, n);
}
