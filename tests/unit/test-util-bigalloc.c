// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_big__realloc (src/util/bigalloc.h): contents kept and the tail zero
 * at every growth (small pages, the step to huge pages, huge pages
 * doubling); from 2 MB on the result starts at a huge-page boundary; a
 * table already that large keeps its pages resident at the new address
 * and its old address is unmapped (a copy does both too), and a growth
 * from whole huge pages faults nothing in, where a copy faults in at least
 * one page a huge page: the pages moved, only the new tail is fresh.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "tap.h"
#include "util/bigalloc.h"

#define MB	(1UL << 20)

/* Pages of [p, p + n) resident; -1: not mapped (mincore's ENOMEM). */
static long resident(const void *p, size_t n)
{
	size_t pages = n / 4096;
	unsigned char *v = malloc(pages);
	long r = 0;

	if (!v)
		return -2;
	if (mincore((void *)p, n, v)) {
		free(v);
		return errno == ENOMEM ? -1 : -2;
	}
	for (size_t i = 0; i < pages; i++)
		r += v[i] & 1;
	free(v);
	return r;
}

static long minflt(void)
{
	struct rusage u;

	return getrusage(RUSAGE_SELF, &u) ? -1 : u.ru_minflt;
}

/* Word i of the table holds i ^ @salt. */
static void fill(uint64_t *p, size_t bytes, uint64_t salt)
{
	for (size_t i = 0; i < bytes / 8; i++)
		p[i] = i ^ salt;
}

static bool kept(const uint64_t *p, size_t bytes, uint64_t salt)
{
	for (size_t i = 0; i < bytes / 8; i++)
		if (p[i] != (i ^ salt))
			return false;
	return true;
}

static bool zero(const char *p, size_t bytes)
{
	for (size_t i = 0; i < bytes; i += 512)
		if (p[i])
			return false;
	return true;
}

int main(void)
{
	size_t sizes[] = { 64 << 10, 1 * MB, 3 * MB, 6 * MB, 12 * MB, 24 * MB + 4096 };
	size_t old = 4096;
	uint64_t *p = hm_big__alloc(old), *q;
	bool all_kept = true, all_zero = true, aligned = true;

	if (!p) {
		SKIP("bigalloc", "no anonymous memory");
		TAP_DONE();
	}
	fill(p, old, 0x5a5a);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		long before = old >= HM_BIG_HUGE ? resident(p, hm_big__round(old)) : 0;
		uint64_t *was = p;
		long f0 = minflt(), faults;

		q = hm_big__realloc(p, old, n);
		faults = minflt() - f0;
		printf("# %zu -> %zu: %ld faults\n", old, n, faults);
		if (!q) {
			FAILF("realloc", "%zu -> %zu bytes: out of memory", old, n);
			TAP_DONE();
		}
		all_kept &= kept(q, old, 0x5a5a);
		all_zero &= zero((char *)q + old, n - old);
		if (n >= HM_BIG_HUGE)
			aligned &= !((uintptr_t)q & (HM_BIG_HUGE - 1));
		if (old >= HM_BIG_HUGE && !HM_BIG_TSAN) {
			/* what a move and a copy both give; the fault count below tells them apart */
			CHECK("grown past 2 MB: the old part resident at the new address",
			      resident(q, hm_big__round(old)) >= before && before > 0);
			CHECK("grown past 2 MB: the old address is unmapped",
			      q == was || resident(was, 4096) == -1);
			/*
			 * A copy faults in at least one page a huge page of the
			 * old table.  Only where the old size is whole huge
			 * pages: a part past them is copied, and its first
			 * touch faults (under the sanitizer its shadow too).
			 */
			if (!(old & (HM_BIG_HUGE - 1)))
				CHECK("grown from whole huge pages: not copied (fewer faults than its huge pages)",
				      faults >= 0 && (size_t)faults < hm_big__round(old) / HM_BIG_HUGE);
		}
		p = q;
		old = n;
		fill(p, old, 0x5a5a);
	}
	CHECK("contents kept at every growth", all_kept);
	CHECK("the grown tail reads zero at every growth", all_zero);
	CHECK("from 2 MB on at a huge-page boundary", aligned);
	CHECK("the last size whole", kept(p, old, 0x5a5a));
	/* a shrink or an equal size keeps the contents too */
	q = hm_big__realloc(p, old, 4 * MB);
	CHECK("shrunk: the kept part intact", q && kept(q, 4 * MB, 0x5a5a));
	hm_big__free(q ? q : p, q ? 4 * MB : old);
	hm_big__free(NULL, 123);
	PASS("free(NULL) is a no-op");
	TAP_DONE();
}
