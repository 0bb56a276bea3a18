// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --threads N over ranges of a file: the whole per-sample pipeline
 * (decode, order, maps, classify, resolve, aggregate) runs on N threads,
 * each over its own byte range of the data section, into its own part;
 * the parts are merged in file order into what one pass builds.
 *
 *   plan   (the report's thread, before the pass) hm_range_scan walks the
 *          records' headers once up to the last cut: N ranges of about
 *          equal bytes meeting at FINISHED_ROUND records where the ordered
 *          reader's state carries over exactly (hitmap/reader_range.h), or
 *          -EAGAIN: the one-reader pass (parallel.c shards the table).
 *   pass   one part per range, a report of its own (hm_report__pass with
 *          r->chunk) that shares the file's read-only setup (topology,
 *          metadata, futex model) and has its own maps (replayed from the
 *          side-band records before its range), symbols, counters, perf's
 *          level-1 table, hitmap's line table (totals; the details come
 *          from the one second read as with one thread), places and futex
 *          observer.  The report's thread takes the last range.
 *   merge  adjacent parts pairwise, log2 N levels, the pairs of a level
 *          on threads: sums, each line's and entry's first sample in file
 *          order (lines after the parts before theirs, sample numbers moved
 *          on by the samples before), the first disagreement of perf's
 *          counters and hitmap's categories.  The maps after the file are
 *          the last part's.
 *
 * Speed (HITMAP_DEBUG prints each part's CPU time, the scan's and the
 * merge's): each part builds a table of every distinct line it sees, so
 * the per-part cost is (distinct lines) + (samples / N); the scan reads the
 * headers of the file up to the last cut on one thread; the merge has
 * log2 N levels of (distinct lines) each.
 *
 * Kernel samples (hitmap/reader_range.h): the kernel's symbols are the
 * report's, loaded once by the first part that needs them; perf widens the
 * kernel map at the first lookup in it, so each part starts from the
 * scan's guess of that state and runs again when the part before it ended
 * otherwise (report-range.c).
 *
 * Memory: each thread's tables grow with the distinct lines it sees; the
 * side-band records are kept once.  Nothing grows with samples.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hitmap/futex_infer.h>
#include <hitmap/log.h>
#include <hitmap/reader_range.h>
#include "report.h"
#include "lines.h"
#include "places.h"
#include "perf-lines.h"

#include "chunks.h"

/* Seconds of the clock (HITMAP_DEBUG's merge time: the merge runs on several threads). */
static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void part_delete(struct hm_report *r)
{
	if (!r)
		return;
	/* the parent's */
	r->topo = NULL;
	r->meta = NULL;
	memset(&r->futex, 0, sizeof(r->futex));
	r->cpu_node_idx = NULL;
	/* the range's */
	r->reader = NULL;
	if (r->chunk)
		hm_range__delete(r->chunk->range);
	free(r->chunk);
	hm_report__delete(r);
}

static struct hm_report *part_new(const struct hm_report *p, const struct hm_range_cut *from,
				  const struct hm_range_cut *to)
{
	struct hm_report_opts o = p->opts;
	struct hm_report *r;

	o.threads = 1;
	o.on_progress = NULL;	/* the report says when the file is read */
	r = hm_report__new(&o);
	if (!r)
		return NULL;
	r->chunk = calloc(1, sizeof(*r->chunk));
	if (!r->chunk)
		goto fail;
	r->chunk->parent = p;
	r->chunk->range = hm_range__new(p->opts.input, p->chunks->scan, from, to);
	if (!r->chunk->range)
		goto fail;
	return r;
fail:
	part_delete(r);
	return NULL;
}

static int run_part(struct hm_report *p, int i)
{
	struct hm_chunks *c = p->chunks;
	double t0 = hm_chunks__thread_cpu();
	int err;

	part_delete(c->part[i]);
	c->part[i] = part_new(p, i ? &c->cut[i - 1] : NULL, i < c->nr - 1 ? &c->cut[i] : NULL);
	if (!c->part[i])
		return errno ? -errno : -ENOMEM;
	err = hm_report__pass(c->part[i]);
	hm_debug("report: range %d: %llu samples, %.3f s CPU", i,
		 (unsigned long long)c->part[i]->nr_samples, hm_chunks__thread_cpu() - t0);
	return err;
}

struct worker {
	struct hm_report	*p;
	int			i;
	pthread_t		th;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->p->chunks->err[w->i] = run_part(w->p, w->i);
	return NULL;
}

/* ------------------------------------------------------------ merge */

static int merge_part(struct hm_report *r, struct hm_report *q)
{
	int err;

	hm_c2c_stats__sum(&r->c2c, &q->c2c);
	for (int i = 0; i < HM_CAT__MAX; i++)
		r->cats.nr[i] += q->cats.nr[i];
	for (int d = 0; d < HM_CDIFF__MAX; d++)
		for (int k = 0; k < HM_CAT__MAX; k++) {
			if (!q->cdiff.n[d][k])
				continue;
			if (!r->cdiff.n[d][k]) {
				r->cdiff.data_src[d][k] = q->cdiff.data_src[d][k];
				r->cdiff.remote[d][k] = q->cdiff.remote[d][k];
			}
			r->cdiff.n[d][k] += q->cdiff.n[d][k];
		}
	r->nr_nocpu += q->nr_nocpu;
	hm_places__merge(r->places, q->places);
	err = hm_perf_lines__merge_after(r->perf_lines, q->perf_lines);
	if (!err && r->lines && q->lines)
		err = hm_lines__merge_after(r->lines, q->lines, r->nr_samples);
	if (!err && r->infer && q->infer)
		err = hm_futex_observer__merge(r->infer, q->infer);
	r->nr_samples += q->nr_samples;
	return err;
}

struct merge_arg {
	struct hm_report	*dst, *src;
	pthread_t		th;
	bool			started;
	int			err;
};

static void *merge_main(void *arg)
{
	struct merge_arg *m = arg;

	m->err = merge_part(m->dst, m->src);
	return NULL;
}

/*
 * Parts i and i + step merged into part i, level by level (1, 2, 4, ...),
 * the pairs of a level on threads of their own: log2(N) merges one after
 * the other rather than N - 1.  Each pair is adjacent, so "after" holds.
 */
static int merge_tree(struct hm_chunks *c)
{
	for (int step = 1; step < c->nr; step *= 2) {
		struct merge_arg m[MAX_PARTS];
		int n = 0, err = 0;

		for (int i = 0; i + step < c->nr; i += 2 * step) {
			struct merge_arg *a = &m[n++];

			a->dst = c->part[i];
			a->src = c->part[i + step];
			a->err = 0;
			a->started = !pthread_create(&a->th, NULL, merge_main, a);
			if (!a->started)
				merge_main(a);
		}
		for (int k = 0; k < n; k++) {
			if (m[k].started)
				pthread_join(m[k].th, NULL);
			if (m[k].err < 0)
				err = m[k].err;
		}
		if (err < 0)
			return err;
	}
	return 0;
}

static int chunks_run(struct hm_report *r)
{
	struct hm_chunks *c = r->chunks;
	struct worker w[MAX_PARTS];
	int err = 0, last = c->nr - 1;
	struct hm_report *q;

	for (int i = 0; i < last; i++) {
		w[i].p = r;
		w[i].i = i;
		if (pthread_create(&w[i].th, NULL, worker_main, &w[i]))
			c->err[i] = 1;	/* run below */
	}
	c->err[last] = run_part(r, last);
	for (int i = 0; i < last; i++)
		if (c->err[i] != 1)
			pthread_join(w[i].th, NULL);
	for (int i = 0; i < last; i++)
		if (c->err[i] == 1)
			c->err[i] = run_part(r, i);
	/* a part that started from the wrong kernel-map state runs again (report-range.c) */
	for (int i = 1; i <= last && c->err[i - 1] >= 0 && c->err[i] >= 0; i++)
		if (hm_report__chunk_stale(r, i))
			c->err[i] = run_part(r, i);
	for (int i = 0; i <= last && err >= 0; i++)
		err = c->err[i];
	if (err >= 0) {
		/*
		 * The maps after the whole file are the last part's, with the
		 * symbols that loaded its kernel map; the report's own symbols
		 * (its futex observer's) look at them too.
		 */
		q = c->part[last];
		hm_maps__delete(r->maps);
		r->maps = q->maps;
		q->maps = NULL;
		free(r->map_ids);	/* empty: the report read no record */
		r->map_ids = q->map_ids;
		q->map_ids = NULL;
		c->syms = r->syms;
		hm_symbols__attach_maps(c->syms, r->maps);
		r->syms = q->syms;
		q->syms = NULL;
		hm_symbols__attach_maps(r->syms, r->maps);
	}
	double t0 = wall();

	if (err >= 0)
		err = merge_tree(c);
	if (err >= 0)
		err = merge_part(r, c->part[0]);
	hm_debug("report: merge %.3f s", wall() - t0);
	for (int i = 0; i <= last; i++) {
		part_delete(c->part[i]);
		c->part[i] = NULL;
	}
	return err < 0 ? err : 0;
}


/*
 * The report's run: the one pass (report.c), or, where setup_header cut
 * the file (1), the parts over its ranges, merged; then what follows the
 * pass either way.
 */
int hm_report__run(struct hm_report *r)
{
	int err = hm_report__pass(r);

	if (err == 1)
		err = chunks_run(r);
	return hm_report__pass_end(r, err);
}
