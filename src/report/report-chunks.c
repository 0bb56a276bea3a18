// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --threads N over ranges of a file: the whole per-sample pipeline
 * (decode, order, maps, classify, resolve, aggregate) runs on N threads,
 * each over its own byte range of the data section, into its own part;
 * the parts are merged in file order into what one pass builds.
 *
 *   plan   (the report's thread) hm_range_scan walks the records' headers
 *          once up to the last cut: N ranges meeting at FINISHED_ROUND
 *          records where the ordered reader's state carries over exactly
 *          (hitmap/reader_range.h), or -EAGAIN: the one-reader pass
 *          (parallel.c shards the table).  The first range needs nothing
 *          from the scan but its end, so it runs from the scan's first
 *          round on, on a thread of its own, and waits at the first
 *          FINISHED_ROUND past 1/N of the data until the scan has found
 *          its cut; it takes more bytes than the others by what it read
 *          during the scan (first_cut).  Its thread's messages are held
 *          until the scan is done: given up, the range is stopped and its
 *          messages dropped, and the one reader says them again.  Without
 *          --threads the first range also says whether cutting pays
 *          (report-range.c); the others start before it has, each on a
 *          CPU of its own, their messages held until it has: not cut,
 *          they are dropped and the first range reads on to the end.
 *   pass   one part per range, a report of its own (hm_report__pass with
 *          r->chunk) that shares the file's read-only setup (topology,
 *          metadata, futex model) and has its own maps (replayed from the
 *          side-band records before its range), symbols, counters, perf's
 *          level-1 table, hitmap's line table (totals; the details come
 *          from the one second read as with one thread), places and futex
 *          observer.  The report's thread takes the last range.  With a
 *          range a CPU the ranges' threads turn round the CPUs every 50 ms
 *          from 0.2 s on (util/rotate.h), so that each runs at the CPUs'
 *          mean speed: the cut is fixed once the second range starts, and
 *          CPUs of unlike speeds (a VM's vCPUs on busy host cores, which
 *          the guest cannot see: this VM's two often run 1.5-2.8x apart
 *          for minutes) left the pass waiting on the slower CPU's half.
 *   merge  adjacent parts pairwise, log2 N levels, the pairs of a level
 *          on threads: sums, each line's and entry's first sample in file
 *          order (lines after the parts before theirs, sample numbers moved
 *          on by the samples before), the first disagreement of perf's
 *          counters and hitmap's categories.  The maps after the file are
 *          the last part's.
 *
 * Speed (HITMAP_DEBUG prints the scan's CPU and wall time, each part's CPU
 * time and wall span, and the merge's): each part builds a table of every
 * distinct line it sees, so the per-part cost is F (distinct lines: its
 * tables' first touch and growth, 0.04-0.2 s at 200k lines on the 2-CPU
 * VM, the more when its new pages come from the host again) + P / N; the
 * scan walks the headers up to the last cut on one thread at about 27-48x
 * a part's byte rate (r 0.021-0.037), and only the first range overlaps
 * it; the merge has log2 N levels of (distinct lines) each (m 0.05 s wall
 * at 200k lines).  So
 * T(N) = F + P (1 + r (N - 2)) / (N - r) + m log2 N: the first range's
 * share, which at N = 2 hides the scan and at large N tends to r (the
 * serial scan); F and the merge levels do not shrink with N either.
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
#include <hitmap/futex_infer.h>
#include <hitmap/log.h>
#include <hitmap/reader_range.h>
#include <hitmap/topo.h>
#include "report.h"
#include "lines.h"
#include "places.h"
#include "perf-lines.h"

#include "chunks.h"

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

static struct hm_report *part_new(struct hm_report *p, const struct hm_range_cut *from,
				  const struct hm_range_cut *to, bool open)
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
	r->chunk->open = open ? p->chunks : NULL;
	r->chunk->range = hm_range__new(p->opts.input, p->chunks->scan, from, to,
					  p->opts.queue_bytes);
	if (!r->chunk->range)
		goto fail;
	return r;
fail:
	part_delete(r);
	return NULL;
}

/* The first range's thread: until the scan is done (or given up), and whether it was. */
static bool scan_done(struct hm_chunks *c)
{
	bool done;

	pthread_mutex_lock(&c->lock);
	while (!c->scan_done && !c->given_up)
		pthread_cond_wait(&c->cond, &c->lock);
	done = !c->given_up;
	pthread_mutex_unlock(&c->lock);
	return done;
}

/* Part @i over its range; @open: the first range, run while the cuts are found. */
static int run_part(struct hm_report *p, int i, bool open)
{
	struct hm_chunks *c = p->chunks;
	double t0 = hm_clock__thread_cpu(), w0 = hm_clock__mono();
	/* started before the first range's verdict (or just after one not to cut): dropped then */
	bool spec = !open && i && __atomic_load_n(&c->verdict, __ATOMIC_RELAXED) != HM_CUT;
	int err;

	if (open || spec)
		hm_log__hold();
	part_delete(c->part[i]);
	c->part[i] = part_new(p, i ? &c->cut[i - 1] : NULL, i < c->nr - 1 && !open ? &c->cut[i] : NULL,
			      open);
	if (!c->part[i]) {
		err = errno ? -errno : -ENOMEM;
	} else {
		c->part[i]->chunk->spec = spec;	/* report-range.c */
		c->part[i]->chunk->from = spec ? c->cut[i - 1].off : 0;
		hm_rotor__init(&c->part[i]->chunk->rot, &c->rot, i);
		err = hm_report__pass(c->part[i]);
		hm_rotor__release(&c->part[i]->chunk->rot);
	}
	/* one range ended: the others are not equal work any more */
	hm_rotate__stop(&c->rot);
	if (open) {
		hm_chunks__say(c, HM_CUT);	/* ended (or failed) before its verdict */
		hm_log__release(scan_done(c));
	}
	if (spec) {
		if (hm_chunks__verdict_wait(c) == HM_CUT_WHOLE)
			err = -ECANCELED;
		hm_log__release(err != -ECANCELED);
		if (err == -ECANCELED) {
			/* freed now, on this thread, while the first range reads on */
			hm_debug("report: range %d: dropped at byte %llu, after %.3f s CPU, %.3f-%.3f s", i,
				 (unsigned long long)(c->part[i] ? c->part[i]->chunk->at : 0),
				 hm_clock__thread_cpu() - t0, w0 - c->t0, hm_clock__mono() - c->t0);
			part_delete(c->part[i]);
			c->part[i] = NULL;
		}
	}
	if (c->part[i])
		hm_debug("report: range %d: %llu samples, %.3f s CPU, %.3f-%.3f s", i,
			 (unsigned long long)c->part[i]->nr_samples, hm_clock__thread_cpu() - t0,
			 w0 - c->t0, hm_clock__mono() - c->t0);
	return err;
}

struct worker {
	struct hm_report	*p;
	int			i;
	bool			open;
	bool			started;	/* on its thread; else run after the others */
	pthread_t		th;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->p->chunks->err[w->i] = run_part(w->p, w->i, w->open);
	if (w->open)
		hm_prefault__quit(&w->p->chunks->pf);	/* its lines are added: the server returns */
	return NULL;
}

/* ------------------------------------------------------------ merge */

struct lines_merge {
	struct hm_report	*dst, *src;
	int			err;
	double			cpu;	/* its thread's CPU seconds (HITMAP_DEBUG) */
};

struct found_arg {
	struct hm_lines		*dst;
	const struct hm_lines	*src;
	u64			seq_base;
	u64			*fresh;
	int			err;
	double			cpu;
};

static void *found_main(void *arg)
{
	struct found_arg *f = arg;
	double t0 = hm_clock__thread_cpu();

	f->err = hm_lines__merge_found(f->dst, f->src, f->seq_base, &f->fresh);
	f->cpu = hm_clock__thread_cpu() - t0;
	return NULL;
}

/*
 * perf's keys and the lines @dst has already on two threads (each reads
 * both line tables; perf's merge writes the lines' keys only, the other
 * their counters only: lines.h), then the lines new to @dst, whose keys
 * perf's merge has rewritten (perf-lines.h).  Measured at two threads on
 * the 20M-sample file: 0.058 s each, one after the other before.
 */
static void *lines_merge_main(void *arg)
{
	struct lines_merge *m = arg;
	struct found_arg f = { m->dst->lines, m->src->lines, m->dst->nr_samples, NULL, 0, 0 };
	double t0 = hm_clock__thread_cpu();
	bool th = false;
	pthread_t t;

	if (f.dst && f.src)
		th = !pthread_create(&t, NULL, found_main, &f);
	m->err = hm_perf_lines__merge_after(m->dst->perf_lines, m->dst->lines, m->src->perf_lines,
					    m->src->lines);
	if (th)
		pthread_join(t, NULL);
	else if (f.dst && f.src)
		found_main(&f);
	if (!m->err)
		m->err = f.err;
	if (!m->err && f.dst && f.src)
		m->err = hm_lines__merge_new(f.dst, m->src->lines, f.seq_base, f.fresh);
	free(f.fresh);
	m->cpu = hm_clock__thread_cpu() - t0 + (th ? f.cpu : 0);
	return NULL;
}

/*
 * @q (the samples after @r's) into @r.  perf's keys and the line table
 * (perf's merge reads both tables before theirs) on a thread of their own.
 */
static int merge_part(struct hm_report *r, struct hm_report *q)
{
	struct lines_merge lm = { r, q, 0, 0 };
	bool th = false;
	double t0 = hm_clock__thread_cpu();
	pthread_t t;
	int err = 0;

	if (r->nr_samples)
		th = !pthread_create(&t, NULL, lines_merge_main, &lm);
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
	if (r->infer && q->infer)
		err = hm_futex_observer__merge(r->infer, q->infer);
	if (!err)
		err = hm_buckets__merge(r->buckets, q->buckets, &r->futex);
	t0 = hm_clock__thread_cpu() - t0;
	if (th)
		pthread_join(t, NULL);
	else
		lines_merge_main(&lm);
	if (!err)
		err = lm.err;
	hm_debug("report: merged %llu samples after %llu: lines %.3f s CPU, the rest %.3f s CPU",
		 (unsigned long long)q->nr_samples, (unsigned long long)r->nr_samples, lm.cpu, t0);
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

/* The scan's outcome to the first range's thread: its end (@end), or given up (@end 0). */
static void publish(struct hm_chunks *c, u64 end, bool done)
{
	pthread_mutex_lock(&c->lock);
	if (end)
		c->first_end = end;
	else
		__atomic_store_n(&c->given_up, 1, __ATOMIC_RELAXED);
	c->scan_done = done;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

/*
 * The first cut, found while the first range runs (from @w0, the wall
 * time its thread started; @first: the first round's cut): the first range
 * starts a scan's length before the others, so it takes more bytes.  With
 * N ranges on N CPUs, a range reading at vp bytes/s and the scan at vs,
 * the others get B = E (1 - r) / (N - r) bytes each (r = vp / vs) and all
 * end together; r is measured as the scan goes (0, equal ranges, until
 * the first range has read anything), so the load and the file decide.
 * The scan goes in steps of 1/CUT_STEPS of the data, each step's target
 * from the rates then: a target set once from the first round's rates
 * (the scan barely started, the first range still setting up) put the
 * cut anywhere from 50% to 66% of a 1.7 GB file in runs a minute apart
 * (the first range then ended up to 2 s after the second).
 * 1 with cut[0] set, 0 or a negative errno as hm_range_scan__next.
 */
#define CUT_STEPS	64

static int first_cut(struct hm_chunks *c, const struct hm_range_cut *first, double w0, bool own_cpus)
{
	u64 start, end, e;
	double ws = c->t0;
	int ret = 1;

	hm_range_scan__data(c->scan, &start, &end);
	e = end - start;
	c->cut[0] = *first;
	for (;;) {
		double now = hm_clock__mono(), vs, vp, q = 0;
		u64 at = __atomic_load_n(&c->at, __ATOMIC_RELAXED), want, even;
		int verdict = __atomic_load_n(&c->verdict, __ATOMIC_RELAXED);

		if (verdict == HM_CUT_WHOLE)
			return 2;
		vs = (c->cut[0].off - start) / (now - ws + 1e-9);
		vp = at > start ? (at - start) / (now - w0 + 1e-9) : 0;
		if (own_cpus && vs > 0) {
			q = vp / vs;
			if (q > 0.5)
				q = 0.5;
		}
		want = e - (u64)((c->nr - 1) * (e * (1 - q) / (c->nr - q)));
		if (want < e / c->nr)
			want = e / c->nr;
		/*
		 * The others start now at the soonest: the first range's bytes
		 * left and theirs even (it has read more when it took long to
		 * say whether to cut).
		 */
		even = at > start ? (e + (c->nr - 1) * (at - start)) / c->nr : 0;
		if (own_cpus && even > want && even < e)
			want = even;
		if (c->cut[0].off >= start + want) {
			/*
			 * The others start now, before the verdict, when each
			 * range has a CPU of its own: dropped if the verdict is
			 * not to cut (report-range.c), else the first range
			 * would read on alone until it comes.
			 */
			if (verdict == HM_CUT || own_cpus)
				return 1;
			hm_chunks__verdict_wait(c);
			continue;
		}
		{
			struct hm_range_cut cut;
			u64 step = c->cut[0].off - start + e / CUT_STEPS;

			ret = hm_range_scan__next(c->scan, start + (want < step ? want : step), &cut);
			if (ret <= 0)
				break;
			c->cut[0] = cut;
		}
	}
	/* the data ended first: the cut before is still one */
	if (ret == 0 && c->cut[0].off >= start + e / c->nr) {
		/* its verdict comes at the latest at the first round past min_end */
		return hm_chunks__verdict_wait(c) == HM_CUT_WHOLE ? 2 : 1;
	}
	return ret;
}

/*
 * The other cuts: the bytes after the first one in equal parts.  1, or
 * 0 / -errno as the scan.  Data that ends before a cut (too few rounds
 * left) leaves the ranges found: c->nr shrinks to them.
 */
static int other_cuts(struct hm_chunks *c)
{
	u64 start, end;
	int ret = 1;

	hm_range_scan__data(c->scan, &start, &end);
	start = c->cut[0].off;
	for (int i = 1; i < c->nr - 1 && ret > 0; i++) {
		ret = hm_range_scan__next(c->scan, start + (end - start) / (c->nr - 1) * i, &c->cut[i]);
		if (!ret) {
			c->nr = i + 1;
			return 1;
		}
	}
	return ret;
}

/*
 * The cuts (the report's thread) with the first range on a thread of its
 * own from the first round on; 1: cut[] set, the first range's end
 * published; 0: given up (the first range stopped), -errno.
 */
static int plan_run(struct hm_report *r, struct worker *w0, bool *started)
{
	struct hm_chunks *c = r->chunks;
	struct hm_range_cut first;
	u64 start, end;
	double t_cpu = hm_clock__thread_cpu(), tw;
	int ret;

	hm_range_scan__data(c->scan, &start, &end);
	c->min_end = start + (end - start) / c->nr;
	/* a file the scan refuses at its first round (kernel samples) starts no range */
	ret = hm_range_scan__next(c->scan, start, &first);
	if (ret > 0) {
		w0->p = r;
		w0->i = 0;
		w0->open = true;
		c->err[0] = 0;
		tw = hm_clock__mono();
		*started = !pthread_create(&w0->th, NULL, worker_main, w0);
		if (!*started)
			hm_chunks__say(c, HM_CUT);	/* no first range to say it */
		ret = first_cut(c, &first, *started ? tw : hm_clock__mono(), *started &&
				c->nr <= hm_report__cpus_available());
	}
	if (ret == 2) {
		/* not cut: the first range reads on to the end, the only part */
		c->nr = 1;
		hm_debug("report: 1 range, cut scan %.3f s CPU, %.3f s; the first range reads the whole file",
			 hm_clock__thread_cpu() - t_cpu, hm_clock__mono() - c->t0);
		publish(c, HM_CUT_NO_END, true);
		return 1;
	}
	if (ret > 0) {
		publish(c, c->cut[0].off, false);
		ret = other_cuts(c);
	}
	hm_debug("report: %d ranges, cut scan %.3f s CPU, %.3f s; the first range %.1f%% of the data",
		 ret > 0 ? c->nr : 1, hm_clock__thread_cpu() - t_cpu, hm_clock__mono() - c->t0,
		 ret > 0 ? 100.0 * (c->cut[0].off - start) / (end - start) : 100.0);
	if (ret > 0) {
		publish(c, c->cut[0].off, true);
		return 1;
	}
	publish(c, 0, false);
	if (*started)
		pthread_join(w0->th, NULL);
	*started = false;
	part_delete(c->part[0]);
	c->part[0] = NULL;
	return ret < 0 && ret != -ENOMEM ? 0 : ret;	/* not cut (or unreadable: the pass says why) */
}

/* CPU @cpu's NUMA node on this machine (hm_rotate__start's node_of; 0 where unknown) */
static int host_node(int cpu, void *topo)
{
	int n = hm_topo__cpu_node(topo, cpu);

	return n < 0 ? 0 : n;
}

static int chunks_run(struct hm_report *r)
{
	struct hm_chunks *c = r->chunks;
	struct worker w[MAX_PARTS];
	int err = 0, last;
	bool first_started = false;
	struct hm_report *q;

	c->t0 = hm_clock__mono();
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	hm_prefault__init(&c->pf);
	err = plan_run(r, &w[0], &first_started);
	if (err <= 0) {
		hm_prefault__destroy(&c->pf);
		pthread_cond_destroy(&c->cond);
		pthread_mutex_destroy(&c->lock);
		return err < 0 ? err : hm_report__pass_whole(r);
	}
	err = 0;
	last = c->nr - 1;
	w[0].started = first_started;
	/* cut, a range a CPU: their threads turn round the CPUs, which may run at unlike speeds */
	if (first_started && c->nr >= 2 && c->nr == hm_report__cpus_available()) {
		struct hm_topo *host = hm_topo__new_live(NULL);	/* this machine's nodes, not the file's */

		hm_rotate__start(&c->rot, c->nr, host ? host_node : NULL, host);
		hm_topo__delete(host);
	}
	if (last)
		w[last].started = false;	/* the report's thread's */
	for (int i = 1; i < last; i++) {
		w[i].p = r;
		w[i].i = i;
		w[i].open = false;
		w[i].started = !pthread_create(&w[i].th, NULL, worker_main, &w[i]);
	}
	/* the report's thread takes the last range (none when the first reads the whole file) */
	if (last || !w[0].started)
		c->err[last] = run_part(r, last, false);
	/*
	 * Not cut: this thread has nothing left to read, and the first range
	 * pays for each new page of its line table (the kernel clears it):
	 * this one faults them in ahead of it until it ends (util/prefault.h).
	 */
	if (w[0].started && __atomic_load_n(&c->verdict, __ATOMIC_RELAXED) == HM_CUT_WHOLE) {
		double t = hm_clock__mono(), cpu = hm_clock__thread_cpu();
		size_t b = hm_prefault__serve(&c->pf);

		hm_debug("report: this thread faulted in %.1f MB of the first range's lines ahead of it, %.3f s CPU, %.3f-%.3f s",
			 b / 1e6, hm_clock__thread_cpu() - cpu, t - c->t0, hm_clock__mono() - c->t0);
	}
	for (int i = 0; i <= last; i++)
		if (w[i].started)
			pthread_join(w[i].th, NULL);
	if (c->rot.on)
		hm_debug("report: the ranges' threads turned round %d CPUs every %.0f ms: %d moves",
			 c->rot.nr, c->rot.period * 1e3, c->rot.moves);
	if (c->part[0] && c->part[0]->lines)
		hm_lines__set_prefault(c->part[0]->lines, NULL);	/* served no more */
	for (int i = 0; i < last; i++)
		if (!w[i].started)
			c->err[i] = run_part(r, i, false);
	/* the others started before the first range's verdict, which was not to cut */
	if (last && __atomic_load_n(&c->verdict, __ATOMIC_RELAXED) == HM_CUT_WHOLE) {
		hm_debug("report: the first range read the whole file; the other ranges (%d), started before its verdict, dropped",
			 last);
		for (int i = 1; i <= last; i++)
			c->err[i] = 0;	/* -ECANCELED: each dropped its part (run_part) */
		c->nr = 1;
		last = 0;
	}
	/* a part that started from the wrong kernel-map state runs again (report-range.c) */
	for (int i = 1; i <= last && c->err[i - 1] >= 0 && c->err[i] >= 0; i++)
		if (hm_report__chunk_stale(r, i))
			c->err[i] = run_part(r, i, false);
	hm_prefault__destroy(&c->pf);
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
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
	double t0 = hm_clock__mono();

	if (err >= 0)
		err = merge_tree(c);
	if (err >= 0)
		err = merge_part(r, c->part[0]);
	double t1 = hm_clock__mono();

	for (int i = 0; i <= last; i++) {
		part_delete(c->part[i]);
		c->part[i] = NULL;
	}
	hm_debug("report: merge %.3f s, the parts freed %.3f s, until %.3f s", t1 - t0,
		 hm_clock__mono() - t1, hm_clock__mono() - c->t0);
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
