// SPDX-License-Identifier: GPL-2.0-only
/* Per-CPU perf ring buffers (perf_event_mmap_page protocol). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "mmap.h"

int hm_ring__mmap(struct hm_ring *r, int fd, int cpu, size_t data_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!data_pages || (data_pages & (data_pages - 1))) {
		hm_err("ring buffer of %zu pages: not a power of two; fix: -m 64, 128, 256 ...", data_pages);
		return -EINVAL;
	}
	len = data_pages * page;
	r->base = mmap(NULL, len + page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		int err = -errno;

		r->base = NULL;
		hm_err("mmap of the CPU %d ring buffer (%zu KiB): %s; fix: smaller -m, or raise kernel.perf_event_mlock_kb / ulimit -l",
		       cpu, len / 1024, strerror(-err));
		return err;
	}
	r->tmp = malloc(65536);
	if (!r->tmp) {
		munmap(r->base, len + page);
		r->base = NULL;
		return -ENOMEM;
	}
	r->len = len;
	r->fd = fd;
	r->cpu = cpu;
	r->tail = ((struct perf_event_mmap_page *)r->base)->data_tail;
	return 0;
}

void hm_ring__munmap(struct hm_ring *r)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!r || !r->base)
		return;
	munmap(r->base, r->len + page);
	free(r->tmp);
	r->base = NULL;
	r->tmp = NULL;
}

int hm_ring__set_output(const struct hm_ring *r, int fd)
{
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) < 0)
		return -errno;
	return 0;
}

size_t hm_ring__pending(const struct hm_ring *r)
{
	struct perf_event_mmap_page *pc = r->base;
	u64 head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);

	return head - r->tail;
}

long hm_ring__drain(struct hm_ring *r, hm_ring_fn fn, void *ctx)
{
	struct perf_event_mmap_page *pc = r->base;
	long page = sysconf(_SC_PAGESIZE);
	u8 *data = (u8 *)r->base + page;
	u64 mask = r->len - 1, head, tail = r->tail;
	long n = 0;
	int err = 0;

	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	while (tail < head) {
		struct perf_event_header *h = (void *)&data[tail & mask];
		size_t off = tail & mask, size;

		/* the header itself never wraps: records are 8-byte multiples */
		size = h->size;
		if (size < sizeof(*h) || size > head - tail) {
			/* corrupt ring: give up on it rather than loop */
			hm_err("CPU %d ring buffer: bad record size %zu at %llu; fix: report a kernel bug",
			       r->cpu, size, (unsigned long long)tail);
			err = -EIO;
			tail = head;
			break;
		}
		if (off + size > r->len) {
			size_t first = r->len - off;

			memcpy(r->tmp, &data[off], first);
			memcpy(r->tmp + first, data, size - first);
			h = (void *)r->tmp;
		}
		if (h->type == PERF_RECORD_LOST && size >= sizeof(*h) + 16)
			r->nr_lost += ((const u64 *)(h + 1))[1];
		else if (h->type == PERF_RECORD_LOST_SAMPLES && size >= sizeof(*h) + 8)
			r->nr_lost_samples += ((const u64 *)(h + 1))[0];
		err = fn(ctx, h, size);
		if (err < 0)
			break;
		tail += size;
		r->bytes += size;
		r->nr_records++;
		n++;
	}
	r->tail = tail;
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return err < 0 ? err : n;
}
