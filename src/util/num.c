// SPDX-License-Identifier: GPL-2.0-only
/* Number parsing with range checks (see num.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/num.h"

static int fail(int err)
{
	errno = err;
	return -err;
}

static int parse_u64(const char *s, int base, uint64_t max, uint64_t *out, const char **endp)
{
	unsigned long long v;
	char *end;
	int saved = errno;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return fail(EINVAL);
	errno = 0;
	v = strtoull(s, &end, base);
	if (end == s)
		return errno = saved, fail(EINVAL);
	if (!endp && *end)
		return errno = saved, fail(EINVAL);
	if (errno == ERANGE || v > max)
		return fail(ERANGE);
	errno = saved;
	if (endp)
		*endp = end;
	*out = v;
	return 0;
}

int hm_num__parse_u64(const char *s, int base, uint64_t max, uint64_t *out)
{
	return parse_u64(s, base, max, out, NULL);
}

int hm_num__parse_prefix(const char **p, int base, uint64_t max, uint64_t *out)
{
	if (!*p || !isdigit((unsigned char)**p))
		return fail(EINVAL);
	return parse_u64(*p, base, max, out, p);
}

int hm_num__parse_s64(const char *s, int base, int64_t min, int64_t max, int64_t *out)
{
	long long v;
	char *end;
	int saved = errno;

	if (!s)
		return fail(EINVAL);
	errno = 0;
	v = strtoll(s, &end, base);
	if (end == s || *end)
		return errno = saved, fail(EINVAL);
	if (errno == ERANGE || v < min || v > max)
		return fail(ERANGE);
	errno = saved;
	*out = v;
	return 0;
}

int hm_num__parse_double(const char *s, double min, double max, double *out)
{
	double v;
	char *end;
	int saved = errno;

	if (!s)
		return fail(EINVAL);
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end)
		return errno = saved, fail(EINVAL);
	/* !(in range), not (out of range): NaN compares false both ways */
	if (errno == ERANGE || !(v >= min && v <= max))
		return fail(ERANGE);
	errno = saved;
	*out = v;
	return 0;
}

int hm_num__read_file(const char *path, int base, uint64_t *out)
{
	char buf[128], *s, *e;
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f))
		err = fail(EINVAL);
	fclose(f);
	if (err)
		return err;
	for (s = buf; isspace((unsigned char)*s); s++)
		;
	for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
		;
	*e = '\0';
	return hm_num__parse_u64(s, base, UINT64_MAX, out);
}
