// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ring buffer draining without a kernel: a perf_event_mmap_page plus data
 * area in plain memory, records that wrap around the end, LOST and
 * LOST_SAMPLES counted, the tail released.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "record/mmap.h"
#include "tap.h"

struct seen {
	int	n;
	u64	sum;		/* sum of the payload words */
	size_t	bytes;
	int	bad;
};

static int cb(void *ctx, const struct perf_event_header *h, size_t size)
{
	struct seen *s = ctx;
	const u64 *w = (const u64 *)(h + 1);
	size_t i;

	if (size != h->size)
		s->bad++;
	if (h->type == PERF_RECORD_SAMPLE)
		for (i = 0; i < (size - sizeof(*h)) / 8; i++)
			s->sum += w[i];
	s->n++;
	s->bytes += size;
	return 0;
}

/* Write a record at the ring's head, wrapping as the kernel does. */
static void put(struct hm_ring *r, u64 *head, u32 type, const u64 *words, int nw)
{
	long page = sysconf(_SC_PAGESIZE);
	u8 *data = (u8 *)r->base + page, rec[512];
	struct perf_event_header h = { .type = type, .misc = 0, .size = (u16)(8 + 8 * nw) };
	size_t i;

	memcpy(rec, &h, 8);
	memcpy(rec + 8, words, 8 * nw);
	for (i = 0; i < h.size; i++)
		data[(*head + i) & (r->len - 1)] = rec[i];
	*head += h.size;
	((struct perf_event_mmap_page *)r->base)->data_head = *head;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct hm_ring r;
	struct seen s = { 0 };
	u64 head = 0, words[40], want = 0;
	long n;
	int i;

	memset(&r, 0, sizeof(r));
	r.len = page;				/* one data page */
	r.base = calloc(1, page * 2);
	r.tmp = malloc(65536);
	r.cpu = 0;
	if (!r.base || !r.tmp) {
		FAILF("alloc", "out of memory");
		TAP_DONE();
	}
	/* start near the end so the third record wraps */
	head = r.len - 104;
	r.tail = head;
	((struct perf_event_mmap_page *)r.base)->data_tail = head;
	for (i = 0; i < 40; i++)
		words[i] = 1000 + i;
	put(&r, &head, PERF_RECORD_SAMPLE, words, 5);		/* 48 bytes */
	put(&r, &head, PERF_RECORD_SAMPLE, words + 5, 3);	/* 32: ends 20 before the end */
	put(&r, &head, PERF_RECORD_SAMPLE, words + 8, 10);	/* 88: wraps */
	for (i = 0; i < 18; i++)
		want += words[i];
	{
		u64 lost[3] = { 7, 42, 0 };	/* id, lost, sample_id */
		u64 ls[2] = { 5, 0 };

		put(&r, &head, PERF_RECORD_LOST, lost, 3);
		put(&r, &head, PERF_RECORD_LOST_SAMPLES, ls, 2);
	}
	CHECK_EQ("pending bytes before the drain", hm_ring__pending(&r), 48 + 32 + 88 + 32 + 24);
	n = hm_ring__drain(&r, cb, &s);
	CHECK_EQ("drain: records handed out", n, 5);
	CHECK_EQ("every record handed out whole, with its size", s.bad, 0);
	CHECK_EQ("payload intact across the wrap", s.sum, want);
	CHECK_EQ("LOST counted", r.nr_lost, 42);
	CHECK_EQ("LOST_SAMPLES counted", r.nr_lost_samples, 5);
	CHECK_EQ("tail released to head", ((struct perf_event_mmap_page *)r.base)->data_tail, head);
	CHECK_EQ("nothing pending after the drain", hm_ring__pending(&r), 0);
	CHECK_EQ("bytes accounted", r.bytes, s.bytes);
	/* a corrupt size stops the drain instead of looping */
	{
		u8 *data = (u8 *)r.base + page;
		struct perf_event_header bad = { .type = PERF_RECORD_SAMPLE, .size = 4 };

		memcpy(&data[head & (r.len - 1)], &bad, sizeof(bad));
		((struct perf_event_mmap_page *)r.base)->data_head = head + 64;
		hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);
		n = hm_ring__drain(&r, cb, &s);
		CHECK("corrupt record size: an error, ring skipped", n < 0 && hm_ring__pending(&r) == 0);
	}
	free(r.base);
	free(r.tmp);
	TAP_DONE();
}
