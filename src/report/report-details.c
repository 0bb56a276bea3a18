// SPDX-License-Identifier: GPL-2.0-only
/* The deferred details' second read; see details.h. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "details.h"
#include "lines.h"
#include "util/clock.h"

#define BATCH	2048
#define NR	4		/* batches in flight: ~450 KB */

struct hm_detail_pipe {
	struct hm_detail	b[NR][BATCH];
	int			n[NR];
	u64			made, used;	/* batches handed over, batches run (under lock) */
	int			fill;		/* items in the batch being filled */
	bool			done;
	int			err;		/* the first failure of fn (under lock) */
	hm_detail_fn		fn;
	void			*priv;
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	pthread_t		th;
};

static void *pipe_main(void *arg)
{
	struct hm_detail_pipe *p = arg;
	int err = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct hm_detail *b;
		int n;

		while (p->used == p->made && !p->done)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->used == p->made)
			break;
		b = p->b[p->used % NR];
		n = p->n[p->used % NR];
		pthread_mutex_unlock(&p->lock);
		for (int i = 0; i < n && err >= 0; i++)
			err = p->fn(p->priv, &b[i]);
		pthread_mutex_lock(&p->lock);
		if (err < 0 && !p->err)
			p->err = err;
		p->used++;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct hm_detail_pipe *hm_detail_pipe__new(hm_detail_fn fn, void *priv)
{
	struct hm_detail_pipe *p = malloc(sizeof(*p));

	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	p->made = p->used = 0;
	p->fill = 0;
	p->done = false;
	p->err = 0;
	p->fn = fn;
	p->priv = priv;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	if (pthread_create(&p->th, NULL, pipe_main, p)) {
		pthread_cond_destroy(&p->cond);
		pthread_mutex_destroy(&p->lock);
		free(p);
		errno = EAGAIN;
		return NULL;
	}
	return p;
}

/* Hand the batch being filled to the thread; then wait for a free one. */
static int hand_over(struct hm_detail_pipe *p, bool last)
{
	int err;

	pthread_mutex_lock(&p->lock);
	if (p->fill) {
		p->n[p->made % NR] = p->fill;
		p->made++;
		p->fill = 0;
	}
	p->done = last;
	pthread_cond_broadcast(&p->cond);
	while (!last && p->made - p->used == NR && !p->err)
		pthread_cond_wait(&p->cond, &p->lock);
	err = p->err;
	pthread_mutex_unlock(&p->lock);
	return err;
}

int hm_detail_pipe__add(struct hm_detail_pipe *p, const struct hm_detail *d)
{
	/* a free batch: hand_over waited for it */
	p->b[p->made % NR][p->fill++] = *d;
	return p->fill == BATCH ? hand_over(p, false) : 0;
}

int hm_detail_pipe__finish(struct hm_detail_pipe *p)
{
	int err;

	if (!p)
		return 0;
	hand_over(p, true);
	pthread_join(p->th, NULL);
	err = p->err;
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p);
	return err;
}

/*
 * Deferred details (opts.defer_details): the offsets and code addresses of
 * the lines a view shows, from a second read of the file.  The maps are
 * replayed into fresh ones and every sample is resolved as in the pass
 * (a kernel hit may widen the kernel map), so each marked line gets the
 * same samples, counted the same way, in the same order.  With threads,
 * the samples of the lines shown are classified and added on a second
 * thread (above) while this one reads on: on a 5M-sample file of 2000
 * lines (200 shown, 54% of the samples theirs) this read took 1.2-1.7 s
 * CPU on one thread, about what the whole pass took on two ranges.
 */
int hm_report__details_read(struct hm_report *r, struct hm_lines *l, hm_detail_fn add, void *priv)
{
	/* a zstd stream is decompressed again, ahead as in the pass; the pass said what is wrong */
	struct hm_reader_opts ro = { .ordered = true, .all_records = true,
				     .zstd_ahead = hm_report__zstd_ahead(r), .quiet = true,
				     .queue_bytes = r->opts.queue_bytes };
	struct hm_reader *rd = hm_reader__new(r->opts.input, &ro);
	struct hm_maps *maps = hm_maps__new();
	struct hm_detail_pipe *pipe = NULL;
	u64 cl = ~(u64)(r->opts.cacheline_size - 1);
	struct hm_event ev;
	double t0 = hm_clock__thread_cpu();
	u64 nr = 0;
	int err = 0, e2;

	if (!rd || !maps) {
		err = rd ? -ENOMEM : -errno;
		goto out;
	}
	if (r->nr_threads > 1)
		pipe = hm_detail_pipe__new(add, priv);	/* NULL: on this thread */
	hm_maps__set_build_ids(maps, r->header);
	hm_symbols__attach_maps(r->syms, maps);
	while ((err = hm_reader__next(rd, &ev)) > 0) {
		const struct hm_sample *s = &ev.sample;
		const struct hm_map *imap, *dmap;
		struct hm_detail d;
		struct hm_line *ln;

		if (ev.type != PERF_RECORD_SAMPLE) {
			hm_maps__process(maps, &ev);
			continue;
		}
		if (!ev.has_sample)
			continue;
		/* perf's order, as resolve(): the ip first, then the data */
		imap = hm_maps__find_ip_thread(maps, s->pid, s->tid, s->ip);
		dmap = hm_maps__find_thread(maps, s->pid, s->tid, s->misc & 7, s->addr);
		if (!s->addr)
			continue;
		ln = hm_lines__at(l, hm_lines__lookup(l, s->addr & cl));
		if (!ln || !hm_lines__wants(ln))
			continue;
		d = (struct hm_detail){ .ip = s->ip, .addr = s->addr, .weight = s->weight,
					.data_src = s->data_src, .pid = s->pid, .tid = s->tid,
					.misc = s->misc, .mapped = dmap && imap, .ln = ln };
		nr++;
		err = pipe ? hm_detail_pipe__add(pipe, &d) : add(priv, &d);
		if (err < 0)
			break;
	}
	e2 = hm_detail_pipe__finish(pipe);
	if (err >= 0 && e2 < 0)
		err = e2;
	hm_symbols__attach_maps(r->syms, r->maps);
	if (err < 0)
		hm_err("%s: reading the file again for the lines' details failed: %s",
		       r->opts.input, strerror(-err));
	/* serial but for the pipe: HITMAP_DEBUG says what it costs */
	hm_debug("report: details: second read, %llu samples of the lines shown, %.3f s CPU (%s)",
		 (unsigned long long)nr, hm_clock__thread_cpu() - t0,
		 pipe ? "reader's thread" : "one thread");
out:
	hm_maps__delete(maps);
	hm_reader__delete(rd);
	return err < 0 ? err : 0;
}
