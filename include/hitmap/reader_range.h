/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_READER_RANGE_H
#define HITMAP_READER_RANGE_H

/*
 * A file-mode perf.data read in byte ranges that meet at FINISHED_ROUND
 * records, each range giving exactly the events the ordered reader
 * (hm_reader_opts.ordered) gives between two of its rounds' flushes.
 *
 * The ordered reader flushes at a FINISHED_ROUND F(j) the queued records
 * whose time is at most the largest time seen before F(j-1) (perf's
 * ordered_events).  What it still holds after that flush are records read
 * between F(j-1) and F(j) with a later time, so a reader that starts just
 * past F(j-1) with that limit, drops every event up to F(j)'s own, and goes
 * on from there gives the same events as one that read everything before.
 * The non-sample records that set up processes and maps (MMAP, MMAP2,
 * COMM, FORK, EXIT, KSYMBOL) of everything before come first, replayed in
 * the order the ordered reader gave them.
 *
 * hm_range_scan walks the records of the data section once (headers and
 * timestamps; the side-band records are copied) and finds the cuts.  It
 * refuses (-EAGAIN) a file it cannot cut exactly: a pipe, compressed
 * records, AUX data, header records in the data, no sample_id_all (the
 * reader does not order), a kernel image MMAP after a kernel sample or two
 * that differ (the kernel's symbols load once for the file, picked by the
 * image's build-id).  A round may be of any size: past 4 MiB the ordered
 * reader hands out early only records that the flush at the round's end
 * gives out anyway, so what it holds after each flush is the same as in
 * a reader without that limit.  Memory: the side-band records, never the
 * samples.
 *
 * The kernel map: perf widens it to kallsyms' range at the first lookup in
 * it (hm_maps__load_kernel), which changes what later lookups and KSYMBOL
 * records find.  A range does not see the lookups before it, so a cut
 * carries a state for the range after it (kload): the kernel map loaded
 * after that many side-band records of the replay, or not
 * (HM_RANGE_KNONE).  The scan guesses it from the first kernel sample; the
 * reader of the ranges knows it once the range before was read (its maps'
 * hm_maps__kernel_loaded), and reads again a range that started from a
 * state hm_range_scan__kernel_same says is not the same.
 */
#include <hitmap/perf_data.h>

struct hm_range_scan;

struct hm_range_cut {
	u64	off;		/* the FINISHED_ROUND record */
	u64	from;		/* just past the FINISHED_ROUND before it (or the data's start) */
	u64	limit;		/* the largest time seen before that one: this round's flush limit */
	size_t	nr_sb;		/* side-band records given out up to this round's flush */
	u64	kload;		/* the kernel map loaded after this many of them (or HM_RANGE_KNONE) */
};

#define HM_RANGE_KNONE	UINT64_MAX

struct hm_range_scan *hm_range_scan__new(const char *path);
void hm_range_scan__delete(struct hm_range_scan *s);
/*
 * The first cut at or past file offset @target (after @prev's, if any):
 * 1 with *@cut set, 0 when the data ends first, -EAGAIN when the file
 * cannot be cut exactly, another negative errno on failure.
 */
int  hm_range_scan__next(struct hm_range_scan *s, u64 target, struct hm_range_cut *cut);
/* The data section's [start, end) (end: the file's size when unknown). */
void hm_range_scan__data(const struct hm_range_scan *s, u64 *start, u64 *end);
/*
 * Whether the kernel map loaded after @a or after @b side-band records (or
 * not: HM_RANGE_KNONE) gives the same maps after the first @n of them: no
 * kernel MMAP or KSYMBOL record between the two.
 */
bool hm_range_scan__kernel_same(const struct hm_range_scan *s, u64 a, u64 b, u64 n);

struct hm_range;

/*
 * The events after cut @from (NULL: from the start) up to and including
 * cut @to's FINISHED_ROUND (NULL: to the end), the side-band records
 * before @from first.  @s must outlive it; its records are read, never
 * changed, so ranges may be read by several threads at once.
 * @queue_bytes: as hm_reader_opts.queue_bytes.
 */
struct hm_range *hm_range__new(const char *path, struct hm_range_scan *s,
			       const struct hm_range_cut *from, const struct hm_range_cut *to,
			       u32 queue_bytes);
void hm_range__delete(struct hm_range *rg);
/* Its reader (header, events); owned by the range. */
struct hm_reader *hm_range__reader(struct hm_range *rg);
/* As hm_reader__next: 1 with @ev set, 0 at the range's end, <0 error. */
int  hm_range__next(struct hm_range *rg, struct hm_event *ev);
/*
 * True once, before the hm_range__next that would give side-band record
 * kload of the replay (@from's; after the last one when it is nr_sb): the
 * reader loads its kernel map then (hm_maps__load_kernel).
 */
bool hm_range__kernel_due(struct hm_range *rg);

#endif
