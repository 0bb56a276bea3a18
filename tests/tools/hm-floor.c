// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-floor -i FILE [--stride BYTES] [--touch K] [--runs N]: the floor of a
 * one-thread report of FILE with a line table like the report's, in two
 * parts, each the best of N:
 *
 *   read   the reader as the report runs it (ordered by time, every record)
 *          to the end, every sample decoded and nothing done with it;
 *   lines  one update per sample with a data address (the report's table
 *          skips address 0) of a per-line record of BYTES (320 as the
 *          report's table on up to 320 CPUs and two nodes: lines.h), K
 *          cache lines of it touched (default: all), after an 8-byte hash slot found by the line's
 *          address, in the file's sample order, both prefetched ahead as
 *          the report prefetches them, both mapped as the report maps its
 *          tables (huge pages from 2 MiB on); the lines indexed
 *          beforehand, not timed.
 *
 * It prints "read S lines S lines_n N samples N": the distinct lines (the
 * report's table has as many) and the SAMPLE records.  The bench prints
 * the two times' sum over hitmap stat's time: the ratio no report that
 * reads in perf's order and keeps such a record a line can beat.  The
 * samples' line addresses are kept in memory (8 bytes a sample): a bench
 * tool.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hitmap/perf_data.h>
#include "util/bigalloc.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static u64 mix(u64 x)
{
	return x * 0x9E3779B97F4A7C15ULL;
}

/*
 * One read of @path as the report reads it.  When asked, the samples in
 * *@nsamples and the lines of their nonzero addresses (what the report's
 * table counts) in *@addr, *@n.
 */
static double read_once(const char *path, u64 **addr, size_t *n, size_t *nsamples)
{
	struct hm_reader_opts ro = { .ordered = true, .all_records = true };
	struct hm_reader *r = hm_reader__new(path, &ro);
	struct hm_event ev;
	size_t cap = 0;
	double t0 = now(), t;
	int ret;

	if (!r)
		return -1;
	while ((ret = hm_reader__next(r, &ev)) > 0) {
		if (ev.type != PERF_RECORD_SAMPLE || !ev.has_sample || !addr)
			continue;
		++*nsamples;
		if (!ev.sample.addr)
			continue;
		if (*n == cap) {
			u64 *p = realloc(*addr, (cap = cap ? cap * 2 : 1 << 20) * sizeof(*p));

			if (!p) {
				ret = -ENOMEM;
				break;
			}
			*addr = p;
		}
		(*addr)[(*n)++] = ev.sample.addr & ~63ULL;
	}
	t = now() - t0;
	hm_reader__delete(r);
	return ret < 0 ? -1 : t;
}

struct slot {
	u32	hash, idx;
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The record of the line at @line: the slot whose hash and record match. */
static inline char *find(char *lines, size_t stride, const struct slot *slot, size_t nslots, u64 line)
{
	u32 hv = (u32)(mix(line) >> 32);
	size_t h = hv & (nslots - 1);

	for (;;) {
		char *p = lines + (size_t)(slot[h].idx - 1) * stride;

		if (slot[h].idx && slot[h].hash == hv && *(u64 *)p == line)
			return p;
		h = (h + 1) & (nslots - 1);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "stride", required_argument, NULL, 's' },
		{ "touch", required_argument, NULL, 'k' },
		{ "runs", required_argument, NULL, 'r' },
		{ 0 }
	};
	const char *path = NULL;
	size_t stride = 320, k = 0, runs = 3, n = 0, nsamples = 0, nslots, nl = 0, nfound = 0, i;
	u64 *addr = NULL, *sorted;
	struct slot *slot;
	char *lines;
	double best_read = 1e9, best_lines = 1e9;
	int c;

	while ((c = getopt_long(argc, argv, "i:", opts, NULL)) != -1) {
		switch (c) {
		case 'i': path = optarg; break;
		case 's': stride = strtoul(optarg, NULL, 0); break;
		case 'k': k = strtoul(optarg, NULL, 0); break;
		case 'r': runs = strtoul(optarg, NULL, 0); break;
		default: goto usage;
		}
	}
	if (!k)
		k = stride / 64;	/* every cache line of the record, as the report's prefetch */
	if (!path || stride < 64 || k < 1 || k > stride / 64 || !runs)
		goto usage;
	if (read_once(path, &addr, &n, &nsamples) < 0 || !n) {
		fprintf(stderr, "hm-floor: %s: %s\n", path,
			n ? "read failed" : "no samples with a data address");
		return 1;
	}
	for (size_t r = 0; r < runs; r++) {
		double t = read_once(path, NULL, NULL, NULL);

		if (t >= 0 && t < best_read)
			best_read = t;
	}
	/* the lines (not timed): the distinct addresses, a sorted copy's runs */
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return 1;
	memcpy(sorted, addr, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (i = 0; i < n; i++)
		nl += !i || sorted[i] != sorted[i - 1];
	free(sorted);
	/*
	 * Found as the report finds them: 8-byte slots (the hash's low 32 bits
	 * and the line's number + 1) at most half full, the address checked in
	 * the line's record.
	 */
	for (nslots = 1024; nslots < 2 * nl; nslots *= 2)
		;
	/* mapped as the report maps its tables: huge pages from 2 MiB on, zeroed (bigalloc.h) */
	lines = hm_big__alloc(nl * stride);
	slot = hm_big__alloc(nslots * sizeof(*slot));
	if (!lines || !slot)
		return 1;
	/* each line's record starts with its address; its slot holds hash and number */
	for (i = 0; i < n; i++) {
		u32 hv = (u32)(mix(addr[i]) >> 32);
		size_t h = hv & (nslots - 1);
		u64 *rec;

		while (slot[h].idx && (slot[h].hash != hv ||
				       *(u64 *)(lines + (size_t)(slot[h].idx - 1) * stride) != addr[i]))
			h = (h + 1) & (nslots - 1);
		if (slot[h].idx)
			continue;
		slot[h].hash = hv;
		slot[h].idx = (u32)++nfound;
		rec = (u64 *)(lines + (size_t)(nfound - 1) * stride);
		*rec = addr[i];
	}
	for (size_t r = 0; r < runs; r++) {
		double t0 = now(), t;

		for (i = 0; i < n; i++) {
			char *p;

			if (i + 8 < n)
				__builtin_prefetch(&slot[(u32)(mix(addr[i + 8]) >> 32) & (nslots - 1)]);
			if (i + 4 < n) {
				p = find(lines, stride, slot, nslots, addr[i + 4]);
				for (size_t j = 0; j < k; j++)
					__builtin_prefetch(p + 64 * j, 1);
			}
			p = find(lines, stride, slot, nslots, addr[i]);
			for (size_t j = 0; j < k; j++)
				(*(volatile u32 *)(p + 64 * j + 8))++;
		}
		t = now() - t0;
		if (t < best_lines)
			best_lines = t;
	}
	printf("read %.6f lines %.6f lines_n %zu samples %zu\n", best_read, best_lines, nl, nsamples);
	hm_big__free(lines, nl * stride);
	hm_big__free(slot, nslots * sizeof(*slot));
	free(addr);
	return 0;
usage:
	fprintf(stderr, "usage: hm-floor -i FILE [--stride BYTES] [--touch K (1..BYTES/64)] [--runs N]\n");
	return 2;
}
