/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_PARALLEL_H
#define HITMAP_REPORT_PARALLEL_H

/*
 * The cache-line table built by worker threads (report --threads N), for
 * what report-chunks.c does not cut into ranges (the whole pipeline a
 * thread, each over its part of the file): pipes, compressed files, files
 * with kernel samples, the views whose aggregates do not merge.
 *
 * The report's thread reads, resolves and classifies every sample, in the
 * pass's order; the table's work (hm_lines__add, most of a report's cost:
 * cache misses in large tables) is split by cache line into shards (four
 * per thread), each a table of its own with a queue of chunks of samples.
 * Whoever holds a shard works through its queue in order, so each line sees
 * its samples in the pass's order, whichever thread processes them, and
 * ends exactly as one thread would have built it.  The N - 1 workers take
 * any shard with queued chunks; the report's thread takes one too when no
 * chunk is free (the workers are behind), so that the table's work spreads
 * over all N threads rather than N - 1.  The parts are merged in the order
 * of each line's first sample (hm_lines__merge), which is the single
 * pass's order: output does not depend on the number of threads.
 *
 * Chunks come from a fixed pool (one filling chunk per shard and three
 * queued per thread): memory does not grow with samples.
 */
#include "report.h"
#include "lines.h"

struct hm_par;

/* @nr_workers >= 1 threads, each with its part of the table. */
struct hm_par *hm_par__new(int nr_workers, u32 cacheline_size, int nr_cpus, int nr_nodes);
/*
 * A stable index of perf's counters @one (a few distinct values per file):
 * what hm_par__add takes, so that samples need not carry them.  -ENOSPC
 * past 65536 distinct values.
 */
int  hm_par__intern(struct hm_par *p, const struct hm_c2c_stats *one);
/* Queue one sample (ms->s->addr != 0) for its line's worker; @seq: its number in the pass. */
int  hm_par__add(struct hm_par *p, const struct hm_mem_sample *ms, int one_idx, int node_idx,
		 u64 seq);
/*
 * Per-line totals only (hm_lines__defer_details on every part): the offsets
 * and code addresses come later from the caller's second read.  Call before
 * the first hm_par__add.
 */
void hm_par__defer_details(struct hm_par *p, hm_lines_fill_fn fill, void *priv);
/* Hand over what is queued, wait for the workers and merge their parts into *@out. */
int  hm_par__finish(struct hm_par *p, struct hm_lines **out);
/* Stops the workers if still running; accepts NULL. */
void hm_par__delete(struct hm_par *p);

#endif
