/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_TEST_STREAM_BUILD_H
#define HITMAP_TEST_STREAM_BUILD_H
/*
 * Pipe-mode perf.data streams built in memory by the reader's unit tests
 * (test-reader-order.c, test-reader-ahead.c): a growing buffer, records,
 * and the header of one cpu-clock event with IDENTIFIER, IP, TID, TIME,
 * CPU and PERIOD.
 */
#include <stdlib.h>
#include <string.h>
#include <hitmap/perf_data.h>

struct bld {
	u8	*p;
	size_t	len, cap;
};

static void put(struct bld *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}
static void p64(struct bld *b, u64 v) { put(b, &v, 8); }
static void p32(struct bld *b, u32 v) { put(b, &v, 4); }

static size_t rec_begin(struct bld *b, u32 type)
{
	size_t at = b->len;

	p32(b, type);
	p32(b, 0);
	return at;
}

static void rec_end(struct bld *b, size_t at)
{
	u16 size = (u16)(b->len - at);

	memcpy(b->p + at + 6, &size, 2);
}

#define ID	300

/* pipe header and the one event: IDENTIFIER, IP, TID, TIME, CPU, PERIOD */
static void header(struct bld *b)
{
	struct perf_event_attr a;
	size_t at;

	put(b, "PERFILE2", 8);
	p64(b, 16);
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 4000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a.sample_id_all = 1;
	at = rec_begin(b, HM_RECORD_HEADER_ATTR);
	put(b, &a, sizeof(a));
	p64(b, ID);
	rec_end(b, at);
}

#endif
