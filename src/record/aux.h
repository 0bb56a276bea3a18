/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_AUX_H
#define HITMAP_RECORD_AUX_H

/*
 * AUX area rings (Arm SPE): the perf_event_mmap_page aux_{head,tail,offset,
 * size} protocol of include/uapi/linux/perf_event.h.  What lies between
 * the tail we wrote and the kernel's aux_head is handed out as one
 * PERF_RECORD_AUXTRACE record (48 bytes: size, offset, reference, idx, tid,
 * cpu) and the AUX bytes after it, as perf's __auxtrace_mmap__read does
 * (tools/perf/util/auxtrace.c), then the tail is released.
 */
#include <stddef.h>
#include <hitmap/perf_data.h>

struct perf_event_mmap_page;

struct hm_aux {
	struct perf_event_mmap_page *pc;	/* the data ring's control page */
	u8	*base;		/* the AUX area */
	size_t	len;		/* its size (a power of two) */
	int	cpu;
	u32	idx;		/* the mmap's index: AUXTRACE idx */
	u32	tid;		/* AUXTRACE tid (-1: per-CPU, every task) */
	u64	prev;		/* head read last = tail written last */
	bool	mapped;		/* base from mmap (hm_aux__munmap unmaps it) */
	u64	nr_records;	/* AUXTRACE records handed out */
	u64	bytes;		/* AUX bytes handed out (without padding) */
	u64	nr_overrun;	/* times the head ran more than the area past the tail */
	u64	overrun_bytes;	/* bytes that were overwritten then */
};

/*
 * The AUX record and its data: @rec is the 48-byte AUXTRACE record; its
 * size field counts @len1 + @len2 + @pad bytes (pad: zeros up to 8).  The
 * data is @data1, then @data2 (NULL when it did not wrap).
 */
typedef int (*hm_aux_fn)(void *ctx, const void *rec, const void *data1, size_t len1,
			 const void *data2, size_t len2, size_t pad);

/*
 * Use @base (@len bytes, a power of two) as the AUX area whose pointers are in
 * @pc; nothing is mapped (tests drive it over memory).  Returns 0 or -EINVAL.
 */
int hm_aux__attach(struct hm_aux *a, struct perf_event_mmap_page *pc, void *base, size_t len,
		   int cpu, u32 idx, u32 tid);
/*
 * Map the AUX area of @fd, whose data ring (control page + @data_len bytes)
 * is mapped at @pc: aux_offset and aux_size go into the control page, then
 * @aux_len bytes (power of two pages) are mapped read-write (full trace, not
 * snapshot mode).  0 or a negative errno (message logged with the fix).
 */
int hm_aux__mmap(struct hm_aux *a, struct perf_event_mmap_page *pc, size_t data_len, int fd,
		 size_t aux_len, int cpu, u32 idx, u32 tid);
void hm_aux__munmap(struct hm_aux *a);

/*
 * Hand what the kernel wrote since the last call to @fn as one AUXTRACE
 * record (@ref its reference), then release it (aux_tail).  Returns the AUX
 * bytes handed out (0: nothing new) or @fn's negative errno (the tail is then
 * not moved).
 */
long hm_aux__read(struct hm_aux *a, u64 ref, hm_aux_fn fn, void *ctx);

/* What the PERF_RECORD_AUX records of a recording said (perf's events_stats). */
struct hm_aux_stats {
	u64	nr_aux;		/* PERF_RECORD_AUX records */
	u64	aux_bytes;	/* the aux_size they announced */
	u64	truncated;	/* PERF_AUX_FLAG_TRUNCATED: the area was full, data lost */
	u64	partial;	/* PERF_AUX_FLAG_PARTIAL: the data has gaps */
	u64	collision;	/* PERF_AUX_FLAG_COLLISION: samples collided (not taken) */
};

/* Count one PERF_RECORD_AUX (header, aux_offset, aux_size, flags, ...); other types: ignored. */
void hm_aux_stats__add(struct hm_aux_stats *st, const struct perf_event_header *h, size_t size);
/*
 * Say what was lost, as perf report does ("AUX data lost N times out of M"):
 * truncation and gaps are lost data (hm_warn_lost), collisions a warning.
 * @what names the recording.  Returns 1 when data was lost, else 0.
 */
int hm_aux_stats__warn(const struct hm_aux_stats *st, const char *what);

#endif
