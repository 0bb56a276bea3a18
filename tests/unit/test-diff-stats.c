// SPDX-License-Identifier: GPL-2.0-only
/* hitmap diff statistics and LKP's comparison layout, byte for byte. */
#include <math.h>
#include "tap.h"
#include "report/stats.h"

static struct hm_stat_summary sm(unsigned n, double mean, double pct)
{
	struct hm_stat_summary s = { .n = n, .mean = mean, .sum = mean * n };

	s.stddev = pct * mean / 100;
	s.sd_sample = s.stddev;
	s.pct_stddev = pct;
	return s;
}

static void row(const char *name, struct hm_stat_summary a, struct hm_stat_summary b,
		const char *metric, const char *want)
{
	char buf[256];

	hm_stats__lkp_row(buf, sizeof(buf), &a, &b, metric);
	CHECK_STR(name, buf, want);
}

int main(void)
{
	struct hm_stat_summary a, b;
	struct hm_stat_test t;
	double va[] = { 1, 2, 3, 4, 5 }, vb[] = { 2, 4, 6, 8, 10 };
	char hdr[512];

	/*
	 * The rows of the report that started the project (issue 7), with the
	 * one leading blank that lkp-tests' "%10d" gives (the issue's copy lost
	 * it to its block indent; every other column is as quoted).
	 */
	row("lkp-row-dram-remote", sm(6, 4129.9, 57.4), sm(6, 13444, 1.5), "perf-c2c.DRAM.remote",
	    "      4129 \xc2\xb1 57%    +225.5%      13444        perf-c2c.DRAM.remote\n");
	row("lkp-row-hitm-local", sm(6, 67558, 56.2), sm(6, 112351, 0.3), "perf-c2c.HITM.local",
	    "     67558 \xc2\xb1 56%     +66.3%     112351        perf-c2c.HITM.local\n");
	row("lkp-row-hitm-remote", sm(6, 4045, 57.9), sm(6, 13237, 2.0), "perf-c2c.HITM.remote",
	    "      4045 \xc2\xb1 57%    +227.2%      13237        perf-c2c.HITM.remote\n");
	/* the issue's three rows verbatim: ours are the same bytes after lkp-tests' extra blank */
	{
		static const char *const issue[] = {
			"     4129 \xc2\xb1 57%    +225.5%      13444        perf-c2c.DRAM.remote\n",
			"    67558 \xc2\xb1 56%     +66.3%     112351        perf-c2c.HITM.local\n",
			"     4045 \xc2\xb1 57%    +227.2%      13237        perf-c2c.HITM.remote\n",
		};
		struct hm_stat_summary b0[] = { sm(6, 4129.9, 57.4), sm(6, 67558, 56.2), sm(6, 4045, 57.9) };
		struct hm_stat_summary n0[] = { sm(6, 13444, 1.5), sm(6, 112351, 0.3), sm(6, 13237, 2.0) };
		const char *names[] = { "perf-c2c.DRAM.remote", "perf-c2c.HITM.local", "perf-c2c.HITM.remote" };
		char buf[256];
		int i, ok = 1;

		for (i = 0; i < 3; i++) {
			hm_stats__lkp_row(buf, sizeof(buf), &b0[i], &n0[i], names[i]);
			if (buf[0] != ' ' || strcmp(buf + 1, issue[i]))
				ok = 0;
		}
		CHECK("lkp-rows-issue-verbatim", ok);
	}
	/* Rows from LKP regression mails: small values, ± on both sides, %.4g, absolute change. */
	row("lkp-row-both-sides", sm(6, 10585, 7.9), sm(6, 1388, 20.1), "perf-c2c.DRAM.remote",
	    "     10585 \xc2\xb1  7%     -86.9%       1388 \xc2\xb1 20%  perf-c2c.DRAM.remote\n");
	row("lkp-row-fraction", sm(6, 6368, 7.5), sm(6, 715.33, 20.5), "perf-c2c.HITM.remote",
	    "      6368 \xc2\xb1  7%     -88.8%     715.33 \xc2\xb1 20%  perf-c2c.HITM.remote\n");
	row("lkp-row-big", sm(6, 4.012e8, 1), sm(6, 5.877e8, 7.2), "stress-ng.icmp-flood.ops",
	    " 4.012e+08           +46.5%  5.877e+08 \xc2\xb1  7%  stress-ng.icmp-flood.ops\n");
	row("lkp-row-abs-change", sm(6, 0.03, 1), sm(6, 0.04, 1), "mpstat.cpu.all.soft%",
	    "      0.03            +0.0        0.04        mpstat.cpu.all.soft%\n");
	row("lkp-row-stddev-137", sm(6, 62006, 43), sm(6, 25067, 137.9), "numa-meminfo.node0.Mapped",
	    "     62006 \xc2\xb1 43%     -59.6%      25067 \xc2\xb1" "137%  numa-meminfo.node0.Mapped\n");
	/* One run on a side: no ± there, however noisy the other side is. */
	row("lkp-row-one-run-new", sm(6, 4129.9, 57.4), sm(1, 13444, 0), "perf-c2c.DRAM.remote",
	    "      4129 \xc2\xb1 57%    +225.5%      13444        perf-c2c.DRAM.remote\n");
	row("lkp-row-one-run-both", sm(1, 7917.4, 0), sm(1, 7509.9, 0), "unixbench.score",
	    "      7917            -5.1%       7509        unixbench.score\n");
	/* columns: the change ends at byte 27, the new value at 38, the name starts at 46 */
	{
		char buf[256];
		struct hm_stat_summary x = sm(3, 1, 50), y = sm(1, 2, 0);

		hm_stats__lkp_row(buf, sizeof(buf), &x, &y, "m");
		/* "      1.00 ± 50%" has a 2-byte ± */
		CHECK_EQ("lkp-columns-width", strlen(buf), 10 + 7 + 12 + 10 + 6 + 2 + 1 + 1);
	}

	hm_stats__lkp_header(hdr, sizeof(hdr), "9cd6ffa60256e931", "f1a7941243c102a44e8847e3b94");
	CHECK_STR("lkp-header", hdr,
		  "9cd6ffa60256e931 f1a7941243c102a44e8847e3b94 \n"
		  "---------------- --------------------------- \n"
		  "         %stddev     %change         %stddev\n"
		  "             \\          |                \\  \n");

	/* LKP's stddev is over n, not n - 1 (lkp-tests lib/statistics.rb) */
	hm_stats__summarize(va, 5, &a);
	hm_stats__summarize(vb, 5, &b);
	CHECK("stddev-population", fabs(a.stddev - sqrt(2.0)) < 1e-12);
	CHECK("stddev-sample", fabs(a.sd_sample - sqrt(2.5)) < 1e-12);
	CHECK("pct-stddev", fabs(a.pct_stddev - 100 * sqrt(2.0) / 3) < 1e-9);
	CHECK("pct-change", fabs(hm_stats__pct_change(4, 5) - 25) < 1e-12);
	CHECK("pct-change-zero-base", hm_stats__pct_change(0, 1) > 1e90);

	/* Welch: R's t.test(1:5, 2*(1:5)) gives t = -1.8974, df = 5.882, p = 0.1075 */
	hm_stats__test(&a, &b, false, &t);
	CHECK_EQ("welch-kind", t.kind, HM_TEST_WELCH);
	CHECK("welch-t", fabs(t.stat - 1.8974) < 1e-3);
	CHECK("welch-df", fabs(t.df - 5.882) < 1e-3);
	CHECK("welch-p", fabs(t.p - 0.1075) < 5e-4);
	/* the t table: t(0.975, 10) = 2.228 */
	CHECK("t-table", fabs(hm_stats__t_pvalue(2.228, 10) - 0.05) < 2e-4);
	CHECK("t-normal-limit", fabs(hm_stats__t_pvalue(1.959964, INFINITY) - 0.05) < 1e-6);
	/* binom.test(60, 100): p = 0.05689 */
	CHECK("binom-p", fabs(hm_stats__binom_pvalue(60, 100, 0.5) - 0.05689) < 1e-4);
	CHECK("binom-p-equal", hm_stats__binom_pvalue(50, 100, 0.5) > 0.99);

	/* single runs of counts: Poisson */
	{
		struct hm_stat_summary x = sm(1, 10000, 0), y = sm(1, 10100, 0), z = sm(1, 12000, 0);

		hm_stats__test(&x, &y, true, &t);
		CHECK_EQ("poisson-kind", t.kind, HM_TEST_POISSON);
		CHECK("poisson-within-noise", t.p > 0.05);
		hm_stats__test(&x, &z, true, &t);
		CHECK("poisson-beyond-noise", t.p < 1e-6);
		hm_stats__test(&x, &z, false, &t);
		CHECK_EQ("no-test-single-non-count", t.kind, HM_TEST_NONE);
		CHECK("no-test-p", t.p == 1);
	}
	/* identical runs, no noise: not significant; shifted: significant */
	{
		double c1[] = { 5, 5, 5 }, c2[] = { 6, 6, 6 };
		struct hm_stat_summary x, y;

		hm_stats__summarize(c1, 3, &x);
		hm_stats__summarize(c1, 3, &y);
		hm_stats__test(&x, &y, true, &t);
		CHECK("welch-identical", t.p == 1);
		hm_stats__summarize(c2, 3, &y);
		hm_stats__test(&x, &y, false, &t);
		CHECK("welch-noiseless-shift", t.p == 0);
		/* counts are at least Poisson-noisy: 5,5,5 -> 6,6,6 samples is no change */
		hm_stats__test(&x, &y, true, &t);
		CHECK("welch-count-poisson-floor", t.kind == HM_TEST_WELCH && t.p > 0.05);
	}
	{
		double z[] = { 0, 0, 0 }, two[] = { 2, 2, 2 }, h1[] = { 100, 100, 100 }, h2[] = { 200, 200, 200 };
		struct hm_stat_summary x, y;

		hm_stats__summarize(z, 3, &x);
		hm_stats__summarize(two, 3, &y);
		hm_stats__test(&x, &y, true, &t);
		/* 0,0,0 -> 2,2,2: as the exact Poisson test of 0 vs 6 (p = 0.03) */
		CHECK("welch-count-0-to-2", t.p > 0.005 && t.p < 0.05);
		hm_stats__summarize(h1, 3, &x);
		hm_stats__summarize(h2, 3, &y);
		hm_stats__test(&x, &y, true, &t);
		CHECK("welch-count-100-to-200", t.p < 0.01);
		/* 4000 samples in every base run, none in the new ones: certain, even with 3 runs */
		{
			double f1[] = { 4006, 3950, 4060 };

			hm_stats__summarize(f1, 3, &x);
			hm_stats__summarize(z, 3, &y);
			hm_stats__test(&x, &y, true, &t);
			CHECK("welch-count-known-variance", t.p < 1e-12 && !isfinite(t.df));
		}
	}
	/* prediction interval: one run against five */
	{
		struct hm_stat_summary one = sm(1, 3.2, 0), far = sm(1, 30, 0);

		hm_stats__test(&a, &one, false, &t);
		CHECK_EQ("predict-kind", t.kind, HM_TEST_PREDICT);
		CHECK("predict-inside", t.p > 0.5);
		hm_stats__test(&a, &far, false, &t);
		CHECK("predict-outside", t.p < 0.001);
	}
	/* counts, two runs against one: the two runs' spread counts, not only Poisson */
	{
		double two[] = { 3928, 3990 }, wide[] = { 3700, 4200 };
		struct hm_stat_summary x, y = sm(1, 4303, 0);

		hm_stats__summarize(two, 2, &x);
		hm_stats__test(&x, &y, true, &t);
		CHECK_EQ("predict-count-kind", t.kind, HM_TEST_PREDICT);
		CHECK("predict-count-poisson-floor", t.p < 0.01);
		hm_stats__summarize(wide, 2, &x);
		hm_stats__test(&x, &y, true, &t);
		CHECK("predict-count-noisy-runs", t.p > 0.05);
	}
	/* Holm */
	{
		double p[] = { 0.01, 0.04, 0.03, 0.005 };
		bool sig[4];
		size_t ord[4];

		hm_stats__holm(p, 4, 0.05, sig, ord);
		/* sorted 0.005 <= .0125 yes, 0.01 <= .0167 yes, 0.03 <= .025 no */
		CHECK("holm", sig[3] && sig[0] && !sig[2] && !sig[1]);
	}
	TAP_DONE();
}
