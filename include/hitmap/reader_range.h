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
 * reader does not order), rounds that could fill the ordering queue past
 * its limit (which flushes half of it), a kernel map or kernel samples
 * before the last cut (perf widens the kernel map at its first lookup and
 * the kernel's symbols load once, with their warnings: state that does not
 * split).  Memory: the side-band records, never the samples.
 */
#include <hitmap/perf_data.h>

struct hm_range_scan;

struct hm_range_cut {
	u64	off;		/* the FINISHED_ROUND record */
	u64	from;		/* just past the FINISHED_ROUND before it (or the data's start) */
	u64	limit;		/* the largest time seen before that one: this round's flush limit */
	size_t	nr_sb;		/* side-band records given out up to this round's flush */
};

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

struct hm_range;

/*
 * The events after cut @from (NULL: from the start) up to and including
 * cut @to's FINISHED_ROUND (NULL: to the end), the side-band records
 * before @from first.  @s must outlive it; its records are read, never
 * changed, so ranges may be read by several threads at once.
 */
struct hm_range *hm_range__new(const char *path, struct hm_range_scan *s,
			       const struct hm_range_cut *from, const struct hm_range_cut *to);
void hm_range__delete(struct hm_range *rg);
/* Its reader (header, events); owned by the range. */
struct hm_reader *hm_range__reader(struct hm_range *rg);
/* As hm_reader__next: 1 with @ev set, 0 at the range's end, <0 error. */
int  hm_range__next(struct hm_range *rg, struct hm_event *ev);

#endif
