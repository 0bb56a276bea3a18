// SPDX-License-Identifier: GPL-2.0-only
/*
 * The futex views' row writers (src/report/rowfmt.h) against printf's
 * conversions they stand for: every width around every digit count, the
 * powers of ten and their neighbours, random values, and strings.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "report/rowfmt.h"
#include "tap.h"

static u64 rng = 0x9e3779b97f4a7c15ull;

static u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* hm_row__u(v, width) == "%*" PRIu64; the first mismatch in @why */
static int check_u(u64 v, int width, char *why, size_t size)
{
	char got[64 + HM_ROW_SLACK], want[64];
	int n = snprintf(want, sizeof(want), "%*" PRIu64, width, v);
	char *e = hm_row__u(got, v, width);

	if (e - got != n || memcmp(got, want, (size_t)n)) {
		snprintf(why, size, "%" PRIu64 " width %d: \"%.*s\", expected \"%s\"", v, width, (int)(e - got), got, want);
		return -1;
	}
	return 0;
}

int main(void)
{
	char why[160] = "", got[64 + HM_ROW_SLACK], want[64];
	int bad = 0, n;
	u64 p = 1;
	char *e;

	for (int d = 0; d < 20 && !bad; d++, p *= 10)
		for (int w = 0; w <= 24 && !bad; w++)
			bad = check_u(p, w, why, sizeof(why)) || check_u(p - 1, w, why, sizeof(why)) ||
			      check_u(p + 1, w, why, sizeof(why));
	for (int w = 0; w <= 24 && !bad; w++)
		bad = check_u(0, w, why, sizeof(why)) || check_u(UINT64_MAX, w, why, sizeof(why));
	if (!bad)
		PASS("rowfmt-u-edges");
	else
		FAILF("rowfmt-u-edges", "%s", why);
	bad = 0;
	for (int i = 0; i < 200000 && !bad; i++) {
		u64 v = next() >> (next() % 64);

		bad = check_u(v, (int)(next() % 30), why, sizeof(why));
	}
	if (!bad)
		PASS("rowfmt-u-random");
	else
		FAILF("rowfmt-u-random", "%s", why);

	e = hm_row__x(got, 0xffff888040200000ull);
	*e = 0;
	CHECK_STR("rowfmt-x", got, "ffff888040200000");
	e = hm_row__x(got, 0);
	*e = 0;
	CHECK_STR("rowfmt-x-zero", got, "0");

	bad = 0;
	for (int w = -20; w <= 20 && !bad; w++) {
		static const char *const s[] = { "", "-", "global", "private:12345", "a string longer than twenty" };

		for (size_t k = 0; k < sizeof(s) / sizeof(s[0]) && !bad; k++) {
			/* %-*s for w > 0, %*s in -w for w < 0, %s for 0 */
			n = snprintf(want, sizeof(want), w < 0 ? "%*s" : "%-*s", w < 0 ? -w : w, s[k]);
			e = hm_row__s(got, s[k], w);
			if (e - got != n || memcmp(got, want, (size_t)n)) {
				snprintf(why, sizeof(why), "\"%s\" width %d: \"%.*s\", expected \"%s\"", s[k], w,
					 (int)(e - got), got, want);
				bad = 1;
			}
		}
	}
	if (!bad)
		PASS("rowfmt-s");
	else
		FAILF("rowfmt-s", "%s", why);
	TAP_DONE();
}
