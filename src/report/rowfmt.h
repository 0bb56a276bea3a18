/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_ROWFMT_H
#define HITMAP_REPORT_ROWFMT_H

/*
 * Text rows built in memory and written with one fwrite: the futex views
 * print tens of thousands of rows of a dozen numbers each, and fprintf per
 * column cost more than the whole aggregation.  Each helper writes what
 * the printf conversion in its comment writes, at @p, and returns the end;
 * the caller sizes the buffer, with HM_ROW_SLACK bytes more past the row.
 */
#include <string.h>
#include <hitmap/perf_data.h>

#define HM_ROW_SLACK	16

/* @n spaces */
static inline char *hm_row__pad(char *p, int n)
{
	if (n <= 16)	/* the buffer's slack takes the rest */
		memcpy(p, "                ", 16);
	else
		memset(p, ' ', (size_t)n);
	return p + n;
}

/* "%*" PRIu64 (@width 0: "%" PRIu64) */
static inline char *hm_row__u(char *p, u64 v, int width)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	int n = 1;
	char *d;

	for (u64 x = v; x >= 10; x /= 10)
		n++;
	if (n < width)
		p = hm_row__pad(p, width - n);
	d = p + n;
	for (; v >= 100; v /= 100) {
		d -= 2;
		memcpy(d, pairs + 2 * (v % 100), 2);
	}
	if (v >= 10)
		memcpy(d - 2, pairs + 2 * v, 2);
	else
		d[-1] = (char)('0' + v);
	return p + n;
}

/* "%" PRIx64 */
static inline char *hm_row__x(char *p, u64 v)
{
	char t[16], *e = t + sizeof(t), *s = e;
	int n;

	do {
		*--s = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	n = (int)(e - s);
	memcpy(p, s, (size_t)n);
	return p + n;
}

/* "%-*s" (@width < 0: "%*s", right-aligned in -@width) */
static inline char *hm_row__s(char *p, const char *s, int width)
{
	size_t n = strlen(s);
	int pad = (width < 0 ? -width : width) - (int)n;

	if (width < 0 && pad > 0)
		p = hm_row__pad(p, pad);
	memcpy(p, s, n);
	p += n;
	if (width > 0 && pad > 0)
		p = hm_row__pad(p, pad);
	return p;
}

#endif
