/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_TAP_H
#define HITMAP_TAP_H
/*
 * Tiny test protocol shared by unit tests and shell tests: each check prints
 * one line "PASS name", "FAIL name: why" or "SKIP name: why"; tests/run.sh
 * counts them.  A unit test binary exits non-zero if any check failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_failed;

#define PASS(name) printf("PASS %s\n", name)
#define SKIP(name, ...) do { printf("SKIP %s: ", name); printf(__VA_ARGS__); printf("\n"); } while (0)
#define FAILF(name, ...) do { tap_failed++; printf("FAIL %s: ", name); printf(__VA_ARGS__); printf(" (%s:%d)\n", __FILE__, __LINE__); } while (0)

/* CHECK(name, cond): one check; prints PASS or FAIL with the condition. */
#define CHECK(name, cond) do { if (cond) PASS(name); else FAILF(name, "%s", #cond); } while (0)
/* CHECK_EQ(name, a, b): integers, printed on failure. */
#define CHECK_EQ(name, a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
	if (_a == _b) PASS(name); else FAILF(name, "%s = %lld, expected %lld", #a, _a, _b); } while (0)
#define CHECK_STR(name, a, b) do { const char *_a = (a), *_b = (b); \
	if (_a && _b && !strcmp(_a, _b)) PASS(name); else FAILF(name, "%s = \"%s\", expected \"%s\"", #a, _a ? _a : "(null)", _b ? _b : "(null)"); } while (0)

#define TAP_DONE() return tap_failed ? 1 : 0

/* Fixture folder: $HITMAP_FIXTURES, else ../shared/fixtures/perf-data. */
static inline const char *tap_fixtures(void)
{
	const char *d = getenv("HITMAP_FIXTURES");
	return d && *d ? d : "../shared/fixtures/perf-data";
}
#endif
