// SPDX-License-Identifier: GPL-2.0-only
/* The one number parser (src/util/num.h): whole strings, ranges, errno. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include "tap.h"
#include "util/num.h"

int main(void)
{
	uint64_t u = 7;
	int64_t s = 7;
	double d = 7;
	const char *p;
	char path[] = "/tmp/hm-num-XXXXXX";
	FILE *f;
	int fd;

	CHECK("u64 dec", hm_num__parse_u64("123", 10, UINT64_MAX, &u) == 0 && u == 123);
	CHECK("u64 base 0 hex", hm_num__parse_u64("0x1f", 0, UINT64_MAX, &u) == 0 && u == 31);
	CHECK("u64 base 16 no prefix", hm_num__parse_u64("ffff", 16, UINT64_MAX, &u) == 0 && u == 0xffff);
	CHECK("u64 max", hm_num__parse_u64("18446744073709551615", 10, UINT64_MAX, &u) == 0 && u == UINT64_MAX);
	u = 5;
	CHECK_EQ("u64 overflow", hm_num__parse_u64("18446744073709551616", 10, UINT64_MAX, &u), -ERANGE);
	CHECK_EQ("u64 overflow errno", errno, ERANGE);
	CHECK_EQ("u64 over max", hm_num__parse_u64("101", 10, 100, &u), -ERANGE);
	CHECK_EQ("u64 untouched on error", u, 5);
	CHECK_EQ("u64 negative", hm_num__parse_u64("-1", 10, UINT64_MAX, &u), -EINVAL);
	CHECK_EQ("u64 plus", hm_num__parse_u64("+1", 10, UINT64_MAX, &u), -EINVAL);
	CHECK_EQ("u64 blank", hm_num__parse_u64(" 1", 10, UINT64_MAX, &u), -EINVAL);
	CHECK_EQ("u64 empty", hm_num__parse_u64("", 10, UINT64_MAX, &u), -EINVAL);
	CHECK_EQ("u64 NULL", hm_num__parse_u64(NULL, 10, UINT64_MAX, &u), -EINVAL);
	CHECK_EQ("u64 trailing", hm_num__parse_u64("12k", 10, UINT64_MAX, &u), -EINVAL);
	errno = 0;
	CHECK("u64 errno kept", hm_num__parse_u64("1", 10, 9, &u) == 0 && errno == 0);

	CHECK("s64", hm_num__parse_s64("-42", 0, -100, 100, &s) == 0 && s == -42);
	CHECK("s64 hex", hm_num__parse_s64("0x10", 0, 0, 100, &s) == 0 && s == 16);
	CHECK_EQ("s64 below", hm_num__parse_s64("-101", 0, -100, 100, &s), -ERANGE);
	CHECK_EQ("s64 trailing", hm_num__parse_s64("5x", 0, 0, 100, &s), -EINVAL);
	CHECK_EQ("s64 overflow", hm_num__parse_s64("99999999999999999999", 10, INT64_MIN, INT64_MAX, &s), -ERANGE);

	CHECK("double", hm_num__parse_double("0.25", 0, 1, &d) == 0 && d == 0.25);
	CHECK_EQ("double NaN", hm_num__parse_double("nan", 0, 1, &d), -ERANGE);
	CHECK_EQ("double range", hm_num__parse_double("2", 0, 1, &d), -ERANGE);
	CHECK_EQ("double junk", hm_num__parse_double("1e", 0, 10, &d), -EINVAL);

	p = "6.16-rc1";
	CHECK("prefix", hm_num__parse_prefix(&p, 10, 100000, &u) == 0 && u == 6 && *p == '.');
	CHECK_EQ("prefix not digit", hm_num__parse_prefix(&p, 10, 100000, &u), -EINVAL);
	p = "200000";
	CHECK_EQ("prefix range", hm_num__parse_prefix(&p, 10, 100000, &u), -ERANGE);

	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		SKIP("read_file", "no temporary file");
	} else {
		fputs("0x00000000410fd0c0\n", f);
		fclose(f);
		CHECK("read_file", hm_num__read_file(path, 16, &u) == 0 && u == 0x410fd0c0);
		CHECK_EQ("read_file missing", hm_num__read_file("/nonexistent/x", 16, &u), -ENOENT);
		unlink(path);
	}
	TAP_DONE();
}
