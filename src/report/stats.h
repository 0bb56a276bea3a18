/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_STATS_H
#define HITMAP_REPORT_STATS_H

/*
 * Run-to-run statistics for hitmap diff: mean, LKP's %stddev, %change and a
 * significance test.  Pure functions, no allocation.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hm_stat_summary {
	uint32_t n;
	double	 mean;
	double	 sum;
	double	 stddev;	/* LKP's: sqrt(sum((x-mean)^2) / n) (lkp-tests lib/statistics.rb) */
	double	 sd_sample;	/* unbiased: sqrt(sum((x-mean)^2) / (n-1)); 0 when n < 2 */
	double	 pct_stddev;	/* 100 * stddev / mean (0 when mean is 0); LKP's "± N%" */
};
void hm_stats__summarize(const double *v, uint32_t n, struct hm_stat_summary *s);

/* LKP's %change: 100 * (new - base) / base, base 0 taken as 1e-100. */
double hm_stats__pct_change(double base, double new_);

enum hm_stat_test_kind {
	HM_TEST_NONE,		/* no test possible (one run each, not a count) */
	HM_TEST_WELCH,		/* Welch's unequal-variance t-test, both sides n >= 2 */
	HM_TEST_POISSON,	/* counts, one run on each side: conditional binomial test */
	HM_TEST_PREDICT,	/* one run against n >= 2: t prediction interval (counts: Poisson floor) */
};
const char *hm_stat_test__name(enum hm_stat_test_kind k);

struct hm_stat_test {
	enum hm_stat_test_kind kind;
	double	stat;		/* t or z-like statistic */
	double	df;		/* degrees of freedom (t tests) */
	double	p;		/* two-sided p-value; 1 when no test */
};

/*
 * Test whether @a and @b differ.  @is_count: the metric is a sample count
 * (so a single run is a Poisson draw).  Picks the test as described in
 * hitmap-diff(1) and fills @t.
 */
void hm_stats__test(const struct hm_stat_summary *a, const struct hm_stat_summary *b,
		    bool is_count, struct hm_stat_test *t);

/* Two-sided p-value of Student's t with @df degrees of freedom. */
double hm_stats__t_pvalue(double t, double df);
/* Regularized incomplete beta I_x(a, b). */
double hm_stats__ibeta(double a, double b, double x);
/* Two-sided exact binomial p-value of @k successes in @n trials with probability @p0. */
double hm_stats__binom_pvalue(double k, double n, double p0);

/*
 * Holm-Bonferroni: given @n p-values, set sig[i] when p[i] is rejected at
 * family-wise level @alpha.  @order is scratch space for @n indices.
 */
void hm_stats__holm(const double *p, size_t n, double alpha, bool *sig, size_t *order);

/*
 * One LKP comparison row (lkp-tests lib/compare.rb show_perf_change +
 * show_stat): "%10s ±%3d%%" base, "%+10.1f%% " change, new, "  name\n".
 * Writes at most @size bytes to @buf (NUL-terminated); returns the length.
 * @abs_change: the change is absolute (LKP does so for names ending in '%').
 */
int hm_stats__lkp_row(char *buf, size_t size, const struct hm_stat_summary *base,
		      const struct hm_stat_summary *new_, const char *name);
/* LKP's column header (two lines) and the label lines above it. */
int hm_stats__lkp_header(char *buf, size_t size, const char *base_label, const char *new_label);

#endif
