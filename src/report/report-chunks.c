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
 *   pass   one part per range, a report of its own (hm_report__run with
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
 * Not cut (hitmap/reader_range.h): files with a kernel map or kernel
 * samples before the last cut.  perf widens the kernel map to kallsyms'
 * range at the first lookup in it and the kernel's symbols load once, with
 * their warnings; a range would not know whether the ranges before it did.
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

#define MAX_PARTS	256
/*
 * Bytes of the data section a range needs at least (HITMAP_RANGE_BYTES
 * overrides): a part costs about 0.3 s of its own on a 2-CPU VM (its
 * tables, data_src cache, reader) and its merge grows with the distinct
 * lines, so small files stay with the one reader (1M samples, ~90 MB,
 * measured no faster in ranges).
 */
#define RANGE_BYTES	(128ull << 20)

/* Seconds of the clock (HITMAP_DEBUG's merge time: the merge runs on several threads). */
static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU seconds of the calling thread (HITMAP_DEBUG's per-thread times). */
static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One range's report (r->chunk of a part). */
struct hm_chunk {
	const struct hm_report	*parent;
	struct hm_range		*range;
};

/* The plan (r->chunks of the report that runs them). */
struct hm_chunks {
	struct hm_range_scan	*scan;
	int			nr;		/* ranges */
	struct hm_range_cut	cut[MAX_PARTS];	/* cut[i]: between range i and i + 1 */
	struct hm_report	*part[MAX_PARTS];
	int			err[MAX_PARTS];
	struct hm_symbols	*syms;		/* the report's own, after the pass */
};

void hm_report__chunks_delete(struct hm_chunks *c)
{
	if (!c)
		return;
	hm_range_scan__delete(c->scan);
	hm_symbols__delete(c->syms);
	free(c);
}

/* The views whose aggregates have merge functions (the others read in one pass). */
static bool mergeable(const struct hm_report *r)
{
	const struct hm_report_opts *o = &r->opts;

	if (o->want_buckets || o->pareto || o->futex_views_only || o->on_sample)
		return false;
	/* the table's details from the second read, as with one thread */
	if (o->want_lines && !(o->defer_details && !r->header->pipe && strcmp(o->input, "-")))
		return false;
	return !r->header->pipe && strcmp(o->input, "-");
}

int hm_report__chunks_plan(struct hm_report *r)
{
	struct hm_chunks *c;
	u64 start, end;
	int n = r->nr_threads, ret = 0;

	if (n < 2 || r->chunk || getenv("HITMAP_NO_RANGES") || !mergeable(r))
		return 0;
	if (n > MAX_PARTS)
		n = MAX_PARTS;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	double t0 = thread_cpu();

	c->scan = hm_range_scan__new(r->opts.input);
	if (!c->scan) {
		ret = errno == ENOMEM ? -ENOMEM : 0;
		goto out;
	}
	hm_range_scan__data(c->scan, &start, &end);
	{
		const char *e = getenv("HITMAP_RANGE_BYTES");
		u64 min = e ? strtoull(e, NULL, 0) : RANGE_BYTES;

		if (min && (u64)n > (end - start) / min)
			n = (int)((end - start) / min);
	}
	for (c->nr = 1; c->nr < n; c->nr++) {
		u64 target = start + (end - start) / n * c->nr;

		ret = hm_range_scan__next(c->scan, target, &c->cut[c->nr - 1]);
		if (ret <= 0)
			break;
	}
	if (ret < 0 && ret != -ENOMEM)
		ret = 0;	/* not cut (or unreadable: the pass says why): one reader */
	if (c->nr < 2)
		ret = 0;
	else if (ret >= 0)
		ret = 1;
	hm_debug("report: %d ranges, cut scan %.3f s CPU", ret == 1 ? c->nr : 1, thread_cpu() - t0);
out:
	if (ret == 1) {
		r->chunks = c;
		return 1;
	}
	hm_report__chunks_delete(c);
	return ret;
}

/* ------------------------------------------------------------ one part */

static int no_fill(void *priv, struct hm_lines *l)
{
	(void)priv;
	(void)l;
	return 0;
}

/* What setup_header gives the report, for a part: the parent's read-only setup, its own state. */
int hm_report__chunk_setup(struct hm_report *r)
{
	const struct hm_report *p = r->chunk->parent;
	struct hm_symbols_opts so;

	r->vendor = p->vendor;
	r->topo = p->topo;
	r->meta = p->meta;
	r->futex = p->futex;		/* tables shared, never released by a part */
	r->cpu_node_idx = p->cpu_node_idx;
	r->nr_threads = 1;
	r->places = hm_places__new(r->topo);
	if (!r->places)
		return -ENOMEM;
	hm_maps__set_build_ids(r->maps, r->header);
	/* symbols_opts() of report.c */
	memset(&so, 0, sizeof(so));
	so.kallsyms = r->opts.kallsyms;
	so.symfs = r->opts.symfs;
	so.vmlinux = r->opts.vmlinux;
	so.no_source = r->opts.no_source;
	so.ksyms_text = hm_meta__find(r->meta, HM_META_KSYMS, &so.ksyms_len);
	so.running_kallsyms_range = r->opts.perf_compat == HM_PERF_NEWEST ||
				    r->opts.perf_compat > HM_PERF_6_12;
	r->syms = hm_symbols__new(&so);
	if (!r->syms)
		return -ENOMEM;
	hm_symbols__attach_maps(r->syms, r->maps);
	if (p->infer) {
		r->infer = hm_futex_observer__new(r->header, r->opts.kernel_release, r->syms, r->topo,
						  &r->futex);
		if (!r->infer)
			return -ENOMEM;
	}
	if (p->lines) {
		r->lines = hm_lines__new(r->opts.cacheline_size, hm_topo__nr_cpus(r->topo),
					 hm_topo__nr_nodes(r->topo));
		if (!r->lines)
			return -ENOMEM;
		hm_lines__defer_details(r->lines, no_fill, NULL);	/* totals only */
	}
	return 0;
}

int hm_report__chunk_next(struct hm_report *r, struct hm_event *ev)
{
	return hm_range__next(r->chunk->range, ev);
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
	double t0 = thread_cpu();
	int err;

	part_delete(c->part[i]);
	c->part[i] = part_new(p, i ? &c->cut[i - 1] : NULL, i < c->nr - 1 ? &c->cut[i] : NULL);
	if (!c->part[i])
		return errno ? -errno : -ENOMEM;
	err = hm_report__run(c->part[i]);
	hm_debug("report: range %d: %llu samples, %.3f s CPU", i,
		 (unsigned long long)c->part[i]->nr_samples, thread_cpu() - t0);
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

int hm_report__chunks_run(struct hm_report *r)
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

struct hm_reader *hm_report__chunk_reader(struct hm_report *r)
{
	return hm_range__reader(r->chunk->range);
}
