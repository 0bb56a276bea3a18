/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_META_H
#define HITMAP_META_H

/*
 * hitmap's own metadata.  In a file it sits after the last feature section,
 * outside perf's feature index (perf 6.1's inject crashes on feature bits it
 * does not know), and the file ends with a struct hm_meta_trailer that
 * locates it; perf ignores bytes past the sections it indexes.  In memory it
 * is h->hitmap_meta, handed to the writer as if it were feature
 * HM_FEAT_HITMAP.  The payload is a list of TLVs:
 *     { u32 tag; u32 len; u8 data[len]; pad to 8 }
 * little-endian (swapped on read like everything else).  Unknown tags are
 * skipped, so old hitmaps read new files.
 */
#include <hitmap/perf_data.h>

enum hm_meta_tag {
	HM_META_FUTEX_TABLE	= 1,	/* struct hm_meta_futex_table */
	HM_META_FUTEX_LAYOUT	= 2,	/* struct hm_meta_futex_layout */
	HM_META_KSYMS		= 3,	/* text: "addr type name\n" lines, like kallsyms */
	HM_META_WORKLOAD	= 4,	/* text: JSON object of the workload's results */
	HM_META_RECORD_MODE	= 5,	/* text: "pebs", "ibs", "spe", "contention", "simulate" */
	HM_META_KERNEL		= 6,	/* text: kernel release the model assumes */
	HM_META_FUTEX_ADDRS	= 7,	/* u64 pairs { uaddr, bucket_addr }: observed pairings */
	HM_META_FUTEX_MMS	= 8,	/* u64 pairs { pid, mm_struct address }: names mm futex fields */
	HM_META_FUTEX_VALID	= 9,	/* u64 quads { pid, base, first_ns, last_ns }: when a table seen
					   live was in use (CLOCK_MONOTONIC; a resize makes a new table) */
	HM_META_FUTEX_OBJECTS	= 10,	/* text: futex-path memory besides the tables, one per line:
					   "KIND PID BASE SIZE NAME" (KIND mm, words, pt, global, pcpu,
					   qnode; BASE, SIZE hex), "mmfield OFF SIZE NAME" (the
					   file's struct mm_struct) and "fph PID FPH QUEUES
					   futex_private_hash" (a private table's header at FPH,
					   bucket 0 at FPH + QUEUES, offsetof(queues); hex) */
};

/* Last 24 bytes of a file that carries metadata (file byte order). */
#define HM_META_TRAILER_MAGIC 0x31305441544d4d48ULL	/* "HMMTAT01" */
struct hm_meta_trailer {
	u64	magic;
	u64	offset;		/* of the TLV payload */
	u64	size;		/* of the TLV payload, unpadded */
};

struct hm_meta_futex_table {
	u32	kind;		/* 0 global, 1 private */
	s32	node;		/* global: node; private: -1 */
	s32	pid;		/* private: owning process; global: -1 */
	u32	bucket_size;	/* bytes per bucket (64) */
	u64	base;		/* kernel virtual address of bucket 0 */
	u64	slots;		/* number of buckets */
	char	provenance[64];	/* "kallsyms", "contention+model", "user", "simulate", ... */
};

struct hm_meta_futex_layout {
	u32	bucket_size;
	u32	nr_fields;
	struct { char name[16]; u32 offset, size; } field[8];
	char	source[32];	/* "btf", "dwarf", "model:6.16", ... */
};

struct hm_meta;		/* parsed list */

struct hm_meta *hm_meta__new(void);
/* Parse the raw section (h->hitmap_meta); NULL with errno on corrupt input. */
struct hm_meta *hm_meta__parse(const void *buf, u64 size, bool needs_swap);
void hm_meta__delete(struct hm_meta *m);

int hm_meta__add(struct hm_meta *m, u32 tag, const void *data, u32 len);
/* Iterate: @i from 0; returns 1 with tag/data/len, 0 at the end. */
int hm_meta__get(const struct hm_meta *m, int i, u32 *tag, const void **data, u32 *len);
/* First entry with @tag, or NULL. */
const void *hm_meta__find(const struct hm_meta *m, u32 tag, u32 *len);
/* Serialize for the writer: *buf is malloc'ed. */
int hm_meta__serialize(const struct hm_meta *m, void **buf, u64 *size);

#endif
