// SPDX-License-Identifier: GPL-2.0-only
/*
 * The prefault server (src/util/prefault.h): what a writer asks is faulted
 * in by the serving thread, zero and resident (mincore), nothing past it;
 * a new base starts a new stream whose done is its own; quit ends the
 * server whether it came before or after the call.
 */
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "util/bigalloc.h"
#include "util/prefault.h"

#define MB	(1UL << 20)

struct server {
	struct hm_prefault	*pf;
	size_t			bytes;
};

static void *serve_main(void *arg)
{
	struct server *s = arg;

	s->bytes = hm_prefault__serve(s->pf);
	return NULL;
}

/* Pages of [p, p + n) resident. */
static size_t resident(const char *p, size_t n)
{
	size_t pages = n / 4096, r = 0;
	unsigned char *v = malloc(pages);

	if (!v || mincore((void *)p, n, v)) {
		free(v);
		return (size_t)-1;
	}
	for (size_t i = 0; i < pages; i++)
		r += v[i] & 1;
	free(v);
	return r;
}

/* Until the stream at @base is done to @upto (at most 10 s). */
static bool wait_done(struct hm_prefault *pf, const char *base, const char *upto)
{
	for (int i = 0; i < 10000; i++) {
		if (hm_prefault__done(pf, base) >= upto)
			return true;
		usleep(1000);
	}
	return false;
}

static bool all_zero(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i += 4096)
		if (p[i] || p[i + 4095])
			return false;
	return true;
}

int main(void)
{
	struct hm_prefault pf;
	struct server s = { &pf, 0 };
	pthread_t th;
	char *a, *b;
	size_t n_a = 32 * MB, n_b = 8 * MB;

	/* quit first: the server returns at once, having done nothing */
	hm_prefault__init(&pf);
	hm_prefault__quit(&pf);
	CHECK_EQ("quit before serve: nothing populated", hm_prefault__serve(&pf), 0);
	hm_prefault__destroy(&pf);
	hm_prefault__destroy(NULL);

	a = hm_big__alloc(n_a);
	b = hm_big__alloc(n_b);
	if (!a || !b) {
		SKIP("prefault", "no 40 MB of anonymous memory");
		TAP_DONE();
	}
	if (madvise(b, 4096, MADV_POPULATE_WRITE)) {
		SKIP("prefault", "this kernel has no MADV_POPULATE_WRITE (Linux 5.14): the writer faults pages in itself");
		TAP_DONE();
	}
	hm_prefault__init(&pf);
	CHECK("never asked: done is the base", hm_prefault__done(&pf, a) == a);
	if (pthread_create(&th, NULL, serve_main, &s)) {
		SKIP("prefault", "no thread");
		TAP_DONE();
	}
	/* 12 MB and a bit: rounded down to the page */
	hm_prefault__ahead(&pf, a, a + 12 * MB + 100);
	CHECK("the stream is populated to what was asked", wait_done(&pf, a, a + 12 * MB));
	CHECK("not past it", hm_prefault__done(&pf, a) == a + 12 * MB);
	CHECK_EQ("resident: the pages asked", resident(a, 12 * MB), 12 * MB / 4096);
	CHECK_EQ("resident: none past them", resident(a + 16 * MB, 16 * MB), 0);
	CHECK("populated pages read zero", all_zero(a, 12 * MB));
	/* an ask below what is done changes nothing */
	hm_prefault__ahead(&pf, a, a + 4 * MB);
	CHECK("asking less: done stays", hm_prefault__done(&pf, a) == a + 12 * MB);
	/* a new base: a new stream, whose done is its own */
	hm_prefault__ahead(&pf, b, b + 6 * MB);
	CHECK("a new stream: the old base reads as not done", hm_prefault__done(&pf, a) == a);
	CHECK("the new stream is populated", wait_done(&pf, b, b + 6 * MB));
	CHECK_EQ("resident: the new stream's pages", resident(b, 6 * MB), 6 * MB / 4096);
	CHECK_EQ("resident: the old stream, no more than it asked", resident(a + 16 * MB, 16 * MB), 0);
	/* the writer's own writes land where the server populated */
	memset(b, 0x5a, 6 * MB);
	CHECK("written after populating: kept", b[0] == 0x5a && b[6 * MB - 1] == 0x5a);
	hm_prefault__quit(&pf);
	pthread_join(th, NULL);
	CHECK("quit: the server returns with what it populated",
	      s.bytes >= 18 * MB && s.bytes <= 18 * MB + 2 * MB);
	hm_prefault__destroy(&pf);
	hm_big__free(a, n_a);
	hm_big__free(b, n_b);
	TAP_DONE();
}
