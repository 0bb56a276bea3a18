// SPDX-License-Identifier: GPL-2.0-only
/*
 * AUX area rings: the aux_head/aux_tail protocol of struct
 * perf_event_mmap_page (include/uapi/linux/perf_event.h: "Ring buffer
 * pointers aux_{head,tail} have the same semantics as data_{head,tail} and
 * same ordering rules apply"): read aux_head, then a read barrier before the
 * data; a full barrier after the data is copied, then aux_tail.  The record
 * handed out is perf's (tools/perf/util/auxtrace.c __auxtrace_mmap__read):
 * PERF_RECORD_AUXTRACE with size (padded to 8), offset (the head position
 * of the first byte in the area's stream), reference, idx, tid, cpu.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <hitmap/log.h>
#include "record/aux.h"

#define AUXTRACE_ALIGN	8	/* PERF_AUXTRACE_RECORD_ALIGNMENT */

int hm_aux__attach(struct hm_aux *a, struct perf_event_mmap_page *pc, void *base, size_t len,
		   int cpu, u32 idx, u32 tid)
{
	memset(a, 0, sizeof(*a));
	if (!pc || !base || len < AUXTRACE_ALIGN || (len & (len - 1)))
		return -EINVAL;
	a->pc = pc;
	a->base = base;
	a->len = len;
	a->cpu = cpu;
	a->idx = idx;
	a->tid = tid;
	/* where the kernel starts: the tail (0 on a fresh mapping) */
	a->prev = __atomic_load_n(&pc->aux_tail, __ATOMIC_ACQUIRE);
	return 0;
}

int hm_aux__mmap(struct hm_aux *a, struct perf_event_mmap_page *pc, size_t data_len, int fd,
		 size_t aux_len, int cpu, u32 idx, u32 tid)
{
	long page = sysconf(_SC_PAGESIZE);
	void *base;
	int err;

	memset(a, 0, sizeof(*a));
	if (!pc || aux_len < (size_t)page || (aux_len & (aux_len - 1))) {
		hm_err("AUX area of %zu bytes for CPU %d: not a power of two pages; fix: a power of two of at least %ld",
		       aux_len, cpu, page);
		return -EINVAL;
	}
	/* set before the mmap: the kernel checks the mapping against them */
	pc->aux_offset = (u64)page + data_len;
	pc->aux_size = aux_len;
	base = mmap(NULL, aux_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)(page + data_len));
	if (base == MAP_FAILED) {
		err = -errno;
		hm_err("mmap of the CPU %d AUX area (%zu KiB): %s; fix: a smaller AUX area, or raise "
		       "kernel.perf_event_mlock_kb / ulimit -l (or record as root)",
		       cpu, aux_len / 1024, strerror(-err));
		return err;
	}
	err = hm_aux__attach(a, pc, base, aux_len, cpu, idx, tid);
	if (err) {
		munmap(base, aux_len);
		return err;
	}
	a->mapped = true;
	return 0;
}

void hm_aux__munmap(struct hm_aux *a)
{
	if (!a || !a->base)
		return;
	if (a->mapped)
		munmap(a->base, a->len);
	a->base = NULL;
	a->mapped = false;
}

long hm_aux__read(struct hm_aux *a, u64 ref, hm_aux_fn fn, void *ctx)
{
	u64 head, old = a->prev, total, mask = a->len - 1;
	size_t size, head_off, len1, len2, pad;
	const u8 *data1, *data2;
	u8 rec[48];
	u64 v;
	u32 u;
	int err;

	if (!a->base)
		return 0;
	/* READ_ONCE(aux_head) + smp_rmb(): the data up to head is visible after this */
	head = __atomic_load_n(&a->pc->aux_head, __ATOMIC_ACQUIRE);
	if (head == old)
		return 0;
	total = head - old;
	if (total > a->len) {
		/*
		 * Only in overwrite mode may the kernel go past our tail; keep
		 * what the area still holds and say what was overwritten.
		 */
		a->nr_overrun++;
		a->overrun_bytes += total - a->len;
		hm_warn_lost("CPU %d AUX area: %llu bytes of AUX data were overwritten before they "
			     "were read (head %#llx, tail %#llx); fix: a larger AUX area",
			     a->cpu, (unsigned long long)(total - a->len),
			     (unsigned long long)head, (unsigned long long)old);
		total = a->len;
	}
	size = (size_t)total;
	head_off = (size_t)(head & mask);
	if (size > head_off) {
		/* wrapped: the end of the area, then its start */
		len1 = size - head_off;
		data1 = a->base + a->len - len1;
		len2 = head_off;
		data2 = len2 ? a->base : NULL;
	} else {
		len1 = size;
		data1 = a->base + head_off - size;
		len2 = 0;
		data2 = NULL;
	}
	pad = size & (AUXTRACE_ALIGN - 1);
	if (pad)
		pad = AUXTRACE_ALIGN - pad;

	memset(rec, 0, sizeof(rec));
	{
		struct perf_event_header h = { .type = HM_RECORD_AUXTRACE, .size = sizeof(rec) };

		memcpy(rec, &h, sizeof(h));
	}
	v = size + pad;
	memcpy(rec + 8, &v, 8);			/* size */
	v = head - size;
	memcpy(rec + 16, &v, 8);		/* offset */
	memcpy(rec + 24, &ref, 8);		/* reference */
	memcpy(rec + 32, &a->idx, 4);
	memcpy(rec + 36, &a->tid, 4);
	u = (u32)a->cpu;
	memcpy(rec + 40, &u, 4);
	err = fn(ctx, rec, data1, len1, data2, len2, pad);
	if (err < 0)
		return err;
	a->prev = head;
	a->nr_records++;
	a->bytes += size;
	/* smp_mb(): the copy is done before the kernel may reuse the space */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&a->pc->aux_tail, head, __ATOMIC_RELAXED);
	return (long)size;
}

void hm_aux_stats__add(struct hm_aux_stats *st, const struct perf_event_header *h, size_t size)
{
	u64 f[3];

	if (h->type != PERF_RECORD_AUX || size < sizeof(*h) + sizeof(f))
		return;
	memcpy(f, h + 1, sizeof(f));	/* aux_offset, aux_size, flags */
	st->nr_aux++;
	st->aux_bytes += f[1];
	if (f[2] & PERF_AUX_FLAG_TRUNCATED)
		st->truncated++;
	if (f[2] & PERF_AUX_FLAG_PARTIAL)
		st->partial++;
	if (f[2] & PERF_AUX_FLAG_COLLISION)
		st->collision++;
}

int hm_aux_stats__warn(const struct hm_aux_stats *st, const char *what)
{
	int lost = 0;

	if (st->truncated) {
		hm_warn_lost("%s: AUX data lost %llu times out of %llu (PERF_AUX_FLAG_TRUNCATED: the "
			     "AUX area was full; the kernel stops the trace on that CPU until it is "
			     "read); fix: a larger AUX area or a longer sampling period (-c)",
			     what, (unsigned long long)st->truncated, (unsigned long long)st->nr_aux);
		lost = 1;
	}
	if (st->partial) {
		hm_warn_lost("%s: AUX data had gaps in it %llu times out of %llu (PERF_AUX_FLAG_PARTIAL)",
			     what, (unsigned long long)st->partial, (unsigned long long)st->nr_aux);
		lost = 1;
	}
	if (st->collision)
		hm_warn("%s: AUX data detected collision %llu times out of %llu "
			"(PERF_AUX_FLAG_COLLISION: samples were not taken while one was in flight)",
			what, (unsigned long long)st->collision, (unsigned long long)st->nr_aux);
	return lost;
}
