// SPDX-License-Identifier: GPL-2.0-only
/*
 * Run-to-run statistics: mean, LKP's %stddev and %change, Welch's t-test,
 * a conditional Poisson (binomial) test for single runs, Holm's correction,
 * and LKP's comparison row layout.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

void hm_stats__summarize(const double *v, uint32_t n, struct hm_stat_summary *s)
{
	double sum = 0, ss = 0;
	uint32_t i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += v[i];
	s->sum = sum;
	s->mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = sqrt(ss / n);
	s->sd_sample = n > 1 ? sqrt(ss / (n - 1)) : 0;
	s->pct_stddev = s->mean != 0 ? 100.0 * s->stddev / fabs(s->mean) : 0;
}

double hm_stats__pct_change(double base, double new_)
{
	if (base == 0)
		base = 1e-100;
	return 100.0 * (new_ - base) / base;
}

const char *hm_stat_test__name(enum hm_stat_test_kind k)
{
	switch (k) {
	case HM_TEST_WELCH:	return "welch";
	case HM_TEST_POISSON:	return "poisson";
	case HM_TEST_PREDICT:	return "prediction";
	default:		return "none";
	}
}

/* Continued fraction for the incomplete beta (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;

		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double hm_stats__ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double hm_stats__t_pvalue(double t, double df)
{
	if (!isfinite(t))
		return isnan(t) ? 1 : 0;
	if (df <= 0)
		return 1;
	if (!isfinite(df) || df > 1e7)
		return erfc(fabs(t) / M_SQRT2);		/* the normal limit */
	return hm_stats__ibeta(df / 2, 0.5, df / (df + t * t));
}

/* P(X <= k) for X ~ Binomial(n, p). */
static double binom_cdf(double k, double n, double p)
{
	if (k < 0)
		return 0;
	if (k >= n)
		return 1;
	return hm_stats__ibeta(n - k, k + 1, 1 - p);
}

double hm_stats__binom_pvalue(double k, double n, double p0)
{
	double lo, hi, pv;

	if (n <= 0)
		return 1;
	lo = binom_cdf(k, n, p0);		/* P(X <= k) */
	hi = 1 - binom_cdf(k - 1, n, p0);	/* P(X >= k) */
	pv = 2 * (lo < hi ? lo : hi);
	return pv > 1 ? 1 : pv;
}

void hm_stats__test(const struct hm_stat_summary *a, const struct hm_stat_summary *b,
		    bool is_count, struct hm_stat_test *t)
{
	memset(t, 0, sizeof(*t));
	t->kind = HM_TEST_NONE;
	t->p = 1;
	if (!a->n || !b->n)
		return;
	if (a->n >= 2 && b->n >= 2) {
		double sa2 = a->sd_sample * a->sd_sample, sb2 = b->sd_sample * b->sd_sample;
		double va, vb, se2, diff = b->mean - a->mean, den;
		bool known_a = false, known_b = false;

		/*
		 * A sample count is at least Poisson-noisy: its variance is at least
		 * its mean.  Where that floor is used, the variance is known rather
		 * than estimated and adds no degrees-of-freedom uncertainty.
		 */
		if (is_count && sa2 <= fabs(a->mean)) {
			sa2 = fabs(a->mean);
			known_a = true;
		}
		if (is_count && sb2 <= fabs(b->mean)) {
			sb2 = fabs(b->mean);
			known_b = true;
		}
		va = sa2 / a->n;
		vb = sb2 / b->n;
		se2 = va + vb;

		t->kind = HM_TEST_WELCH;
		if (se2 <= 0) {
			/* no noise on either side: any difference is real */
			t->stat = diff == 0 ? 0 : (diff > 0 ? INFINITY : -INFINITY);
			t->df = a->n + b->n - 2;
			t->p = diff == 0 ? 1 : 0;
			return;
		}
		t->stat = diff / sqrt(se2);
		den = (known_a ? 0 : va * va / (a->n - 1)) + (known_b ? 0 : vb * vb / (b->n - 1));
		t->df = den > 0 ? se2 * se2 / den : INFINITY;
		t->p = hm_stats__t_pvalue(t->stat, t->df);
		return;
	}
	if (a->n >= 2 || b->n >= 2) {
		/*
		 * One run against several: is it inside the prediction interval of
		 * the several?  t = (x - mean) / sqrt(s^2/n + s1^2), with s^2 the
		 * several's variance and s1^2 the single run's, taken as the same
		 * (homoscedastic); for counts each at least its mean (Poisson),
		 * and a floored variance is known (no df uncertainty).
		 */
		const struct hm_stat_summary *many = a->n >= 2 ? a : b, *one = a->n >= 2 ? b : a;
		double s2 = many->sd_sample * many->sd_sample, s2m = s2, s21 = s2, se;
		bool known = false;

		t->kind = HM_TEST_PREDICT;
		if (is_count && s2 <= fabs(many->mean)) {
			s2m = fabs(many->mean);
			known = true;
		}
		if (is_count)
			s21 = fmax(s2, fabs(one->mean));
		t->df = known ? INFINITY : many->n - 1;
		se = sqrt(s2m / many->n + s21);
		if (se <= 0) {
			t->stat = one->mean == many->mean ? 0 : INFINITY;
			t->p = one->mean == many->mean ? 1 : 0;
			return;
		}
		t->stat = (one->mean - many->mean) / se;
		if (one == a)
			t->stat = -t->stat;
		t->p = hm_stats__t_pvalue(t->stat, t->df);
		return;
	}
	if (is_count) {
		/*
		 * One run each, sums of Poisson counts: given the total, the new
		 * count is Binomial(total, 1/2) when both rates are equal.
		 */
		double ka = a->sum, kb = b->sum, n;
		double p0 = (double)b->n / (a->n + b->n);

		t->kind = HM_TEST_POISSON;
		ka = ka < 0 ? 0 : floor(ka + 0.5);
		kb = kb < 0 ? 0 : floor(kb + 0.5);
		n = ka + kb;
		t->stat = n > 0 ? (kb - n * p0) / sqrt(n * p0 * (1 - p0)) : 0;
		t->p = hm_stats__binom_pvalue(kb, n, p0);
	}
}

static const double *holm_p;

static int holm_cmp(const void *x, const void *y)
{
	double a = holm_p[*(const size_t *)x], b = holm_p[*(const size_t *)y];

	if (a < b)
		return -1;
	if (a > b)
		return 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

void hm_stats__holm(const double *p, size_t n, double alpha, bool *sig, size_t *order)
{
	size_t i;

	for (i = 0; i < n; i++) {
		order[i] = i;
		sig[i] = false;
	}
	holm_p = p;
	qsort(order, n, sizeof(*order), holm_cmp);
	holm_p = NULL;
	for (i = 0; i < n; i++) {
		if (p[order[i]] > alpha / (double)(n - i))
			break;
		sig[order[i]] = true;
	}
}

/* LKP: ABS_WIDTH 10, REL_WIDTH 10, ERR_WIDTH 6 (lib/compare.rb). */
#define LKP_ABS 10
#define LKP_REL 10
#define LKP_ERR 6

static int lkp_value(char *buf, size_t size, const struct hm_stat_summary *s)
{
	double avg = s->mean, sd;
	int len;

	if (fabs(avg) < 1000)
		len = snprintf(buf, size, "%*.2f", LKP_ABS, avg);
	else if (fabs(avg) > 100000000)
		len = snprintf(buf, size, "%*.4g", LKP_ABS, avg);
	else
		len = snprintf(buf, size, "%*lld", LKP_ABS, (long long)avg);	/* Ruby %d truncates */
	if (len < 0 || (size_t)len >= size)
		return len;
	/* LKP: stddev of one run is -1, shown as nothing */
	sd = s->n >= 2 ? s->stddev : -1;
	if (s->n >= 2 && avg != 0)
		sd = 100 * sd / avg;
	if (s->n >= 2 && sd > 2)
		len += snprintf(buf + len, size - len, " \xc2\xb1%*lld%%", LKP_ERR - 3, (long long)sd);
	else
		len += snprintf(buf + len, size - len, "%*s", LKP_ERR, "");
	return len;
}

int hm_stats__lkp_row(char *buf, size_t size, const struct hm_stat_summary *base,
		      const struct hm_stat_summary *new_, const char *name)
{
	size_t nl = strlen(name);
	bool abs_change = nl && name[nl - 1] == '%';
	double p = abs_change ? new_->mean - base->mean : hm_stats__pct_change(base->mean, new_->mean);

	/* LKP prints 0 -> 0 as -100% (base 1e-100); it never shows such a row, we do */
	if (base->mean == 0 && new_->mean == 0)
		p = 0;
	int len, r;

	len = lkp_value(buf, size, base);
	if (len < 0 || (size_t)len >= size)
		return len;
	if (fabs(p) < 100000)
		r = snprintf(buf + len, size - len, "%+*.1f", LKP_REL, p);
	else
		r = snprintf(buf + len, size - len, "%+*.2g", LKP_REL, p);
	if (r < 0 || (size_t)(len += r) >= size)
		return len;
	r = snprintf(buf + len, size - len, "%s", abs_change ? "  " : "% ");
	if (r < 0 || (size_t)(len += r) >= size)
		return len;
	r = lkp_value(buf + len, size - len, new_);
	if (r < 0 || (size_t)(len += r) >= size)
		return len;
	r = snprintf(buf + len, size - len, "  %s\n", name);
	return r < 0 ? r : len + r;
}

int hm_stats__lkp_header(char *buf, size_t size, const char *base_label, const char *new_label)
{
	int first = LKP_ABS + LKP_ERR, width = first + LKP_REL + 1;
	char d1[64], d2[64];

	memset(d1, '-', first);
	d1[first] = 0;
	memset(d2, '-', width);
	d2[width] = 0;
	return snprintf(buf, size,
			"%*.*s %*.*s \n%s %s \n"
			"         %%stddev     %%change         %%stddev\n"
			"             \\          |                \\  \n",
			first, first, base_label, width, width, new_label, d1, d2);
}
