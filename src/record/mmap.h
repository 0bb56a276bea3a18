/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_MMAP_H
#define HITMAP_RECORD_MMAP_H

/* Per-CPU perf ring buffers, drained record by record without loss. */
#include <stddef.h>
#include <hitmap/perf_data.h>

struct hm_ring {
	int	cpu;
	int	fd;
	void	*base;		/* control page, then data */
	size_t	len;		/* data size (power of two) */
	u64	tail;
	u8	*tmp;		/* one record that wraps */
	u64	nr_records;
	u64	nr_lost;	/* sum of LOST.lost */
	u64	nr_lost_samples;/* sum of LOST_SAMPLES.lost */
	u64	bytes;
};

/* Map @data_pages (power of two) of data for @fd.  Returns 0 or -errno. */
int hm_ring__mmap(struct hm_ring *r, int fd, int cpu, size_t data_pages);
void hm_ring__munmap(struct hm_ring *r);
/* Route @fd's records into @r's buffer (PERF_EVENT_IOC_SET_OUTPUT). */
int hm_ring__set_output(const struct hm_ring *r, int fd);

typedef int (*hm_ring_fn)(void *ctx, const struct perf_event_header *rec, size_t size);
/*
 * Hand every complete record to @fn (in order; a record that wraps is copied
 * to one piece), then release the space.  Returns the number of records or
 * the callback's negative errno.
 */
long hm_ring__drain(struct hm_ring *r, hm_ring_fn fn, void *ctx);
/* Bytes waiting. */
size_t hm_ring__pending(const struct hm_ring *r);

#endif
