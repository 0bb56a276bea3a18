// SPDX-License-Identifier: GPL-2.0-only
/* The cache-line table built by worker threads; see parallel.h. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "parallel.h"

#define CHUNK		4096	/* samples per hand-over */
#define NBUF		4	/* chunks in flight per worker */
#define MAX_ONES	65536	/* distinct perf counter values */
#define PF_D		2	/* prefetch distance, as report.c's */

/* What hm_lines__add reads of a sample, nothing more. */
struct par_msg {
	u64	addr, ip, phys, weight, seq;
	u32	pid, tid, cpu, one_idx;
	int	socket, data_node, node_idx;
	u8	cat, cpumode;
	u8	load, has_cpu;
	u32	hint;		/* the worker's hm_lines__lookup */
};

struct chunk {
	struct par_msg	*m;
	int		n;
};

struct worker {
	struct hm_par	*p;
	pthread_t	th;
	bool		started;
	struct hm_lines	*lines;
	pthread_mutex_t	mu;
	pthread_cond_t	cv_full, cv_free;
	struct chunk	buf[NBUF];
	bool		full[NBUF];	/* under mu */
	bool		stop;		/* under mu */
	int		fill, proc;	/* the report's thread's chunk, the worker's */
	int		err;
};

struct hm_par {
	int			nr;
	u32			cls;
	struct worker		*w;
	struct hm_c2c_stats	*ones;		/* never moves: workers read it */
	int			nr_ones;
	u32			*ones_slot;	/* 2 * MAX_ONES: index + 1, 0 empty */
};

static void process(struct worker *w, struct chunk *c)
{
	const struct hm_c2c_stats *ones = w->p->ones;
	u64 clmask = ~(u64)(w->p->cls - 1);
	struct hm_sample s;
	struct hm_mem_sample ms;
	int i, err;

	memset(&s, 0, sizeof(s));
	memset(&ms, 0, sizeof(ms));
	ms.s = &s;
	for (i = -3 * PF_D; i < c->n; i++) {
		int j = i + 3 * PF_D, k = i + 2 * PF_D, m = i + PF_D, q = i + PF_D / 2;

		if (j < c->n)
			hm_lines__prefetch_slot(w->lines, c->m[j].addr & clmask);
		if (k >= 0 && k < c->n) {
			c->m[k].hint = hm_lines__lookup(w->lines, c->m[k].addr & clmask);
			hm_lines__prefetch_at(w->lines, c->m[k].hint, 0);
		}
		if (m >= 0 && m < c->n)
			hm_lines__prefetch_at(w->lines, c->m[m].hint, 1);
		if (q >= 0 && q < c->n)
			hm_lines__prefetch_ips_at(w->lines, c->m[q].hint, c->m[q].addr);
		if (i < 0)
			continue;
		{
			const struct par_msg *x = &c->m[i];

			s.addr = x->addr;
			s.ip = x->ip;
			s.phys_addr = x->phys;
			s.weight = x->weight;
			s.pid = x->pid;
			s.tid = x->tid;
			s.cpu = x->cpu;
			s.misc = x->cpumode;
			s.sample_type = x->has_cpu ? PERF_SAMPLE_CPU : 0;
			ms.cls.cat = x->cat;
			ms.cls.load = x->load;
			ms.cpu_socket = x->socket;
			ms.data_node = x->data_node;
			ms.line = x->addr & clmask;
			err = hm_lines__add_at(w->lines, &ms, &ones[x->one_idx], x->node_idx, x->seq,
					       x->hint);
			if (err < 0) {
				w->err = err;
				return;
			}
		}
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	for (;;) {
		struct chunk *c = &w->buf[w->proc];

		pthread_mutex_lock(&w->mu);
		while (!w->full[w->proc] && !w->stop)
			pthread_cond_wait(&w->cv_full, &w->mu);
		if (!w->full[w->proc]) {
			pthread_mutex_unlock(&w->mu);
			break;
		}
		pthread_mutex_unlock(&w->mu);
		if (!w->err)
			process(w, c);
		pthread_mutex_lock(&w->mu);
		w->full[w->proc] = false;
		pthread_cond_signal(&w->cv_free);
		pthread_mutex_unlock(&w->mu);
		w->proc = (w->proc + 1) % NBUF;
	}
	return NULL;
}

/* Hand the filling chunk to the worker and wait for the next one to be free. */
static int submit(struct worker *w)
{
	int err;

	pthread_mutex_lock(&w->mu);
	w->full[w->fill] = true;
	pthread_cond_signal(&w->cv_full);
	w->fill = (w->fill + 1) % NBUF;
	while (w->full[w->fill])
		pthread_cond_wait(&w->cv_free, &w->mu);
	err = w->err;
	pthread_mutex_unlock(&w->mu);
	w->buf[w->fill].n = 0;
	return err;
}

static void stop_all(struct hm_par *p)
{
	for (int i = 0; i < p->nr; i++) {
		struct worker *w = &p->w[i];

		if (!w->started)
			continue;
		if (w->buf[w->fill].n)
			submit(w);
		pthread_mutex_lock(&w->mu);
		w->stop = true;
		pthread_cond_signal(&w->cv_full);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->th, NULL);
		w->started = false;
	}
}

void hm_par__delete(struct hm_par *p)
{
	if (!p)
		return;
	stop_all(p);
	for (int i = 0; i < p->nr; i++) {
		struct worker *w = &p->w[i];

		hm_lines__delete(w->lines);
		for (int b = 0; b < NBUF; b++)
			free(w->buf[b].m);
		pthread_mutex_destroy(&w->mu);
		pthread_cond_destroy(&w->cv_full);
		pthread_cond_destroy(&w->cv_free);
	}
	free(p->w);
	free(p->ones);
	free(p->ones_slot);
	free(p);
}

struct hm_par *hm_par__new(int nr_workers, u32 cacheline_size, int nr_cpus, int nr_nodes)
{
	struct hm_par *p = calloc(1, sizeof(*p));
	int err = ENOMEM;

	if (!p)
		return NULL;
	p->cls = cacheline_size ? cacheline_size : 64;
	p->w = calloc(nr_workers > 0 ? nr_workers : 1, sizeof(*p->w));
	p->ones = calloc(MAX_ONES, sizeof(*p->ones));
	p->ones_slot = calloc(2 * MAX_ONES, sizeof(*p->ones_slot));
	if (!p->w || !p->ones || !p->ones_slot)
		goto fail;
	for (int i = 0; i < nr_workers; i++) {
		struct worker *w = &p->w[i];

		w->p = p;
		pthread_mutex_init(&w->mu, NULL);
		pthread_cond_init(&w->cv_full, NULL);
		pthread_cond_init(&w->cv_free, NULL);
		p->nr++;
		w->lines = hm_lines__new(cacheline_size, nr_cpus, nr_nodes);
		if (!w->lines)
			goto fail;
		for (int b = 0; b < NBUF; b++) {
			w->buf[b].m = malloc(CHUNK * sizeof(*w->buf[b].m));
			if (!w->buf[b].m)
				goto fail;
		}
		err = pthread_create(&w->th, NULL, worker_main, w);
		if (err)
			goto fail;
		w->started = true;
	}
	return p;
fail:
	hm_par__delete(p);
	errno = err;
	return NULL;
}

int hm_par__intern(struct hm_par *p, const struct hm_c2c_stats *one)
{
	const u32 *w = (const u32 *)one;
	u64 h = 0;
	size_t k;

	for (k = 0; k < sizeof(*one) / 4; k++)
		h = (h ^ w[k]) * 0x100000001b3ULL;
	h ^= h >> 29;
	for (k = h & (2 * MAX_ONES - 1); p->ones_slot[k]; k = (k + 1) & (2 * MAX_ONES - 1))
		if (!memcmp(&p->ones[p->ones_slot[k] - 1], one, sizeof(*one)))
			return (int)p->ones_slot[k] - 1;
	if (p->nr_ones == MAX_ONES)
		return -ENOSPC;
	p->ones[p->nr_ones] = *one;
	p->ones_slot[k] = (u32)++p->nr_ones;
	return p->nr_ones - 1;
}

static inline int shard_of(const struct hm_par *p, u64 line)
{
	u64 x = (line >> 6) * 0x9e3779b97f4a7c15ULL;

	return (int)((x >> 32) % (u64)p->nr);
}

int hm_par__add(struct hm_par *p, const struct hm_mem_sample *ms, int one_idx, int node_idx,
		u64 seq)
{
	const struct hm_sample *s = ms->s;
	struct worker *w = &p->w[shard_of(p, ms->line)];
	struct chunk *c = &w->buf[w->fill];
	struct par_msg *x = &c->m[c->n++];

	x->addr = s->addr;
	x->ip = s->ip;
	x->phys = s->phys_addr;
	x->weight = s->weight;
	x->seq = seq;
	x->pid = s->pid;
	x->tid = s->tid;
	x->cpu = s->cpu;
	x->one_idx = (u32)one_idx;
	x->socket = ms->cpu_socket;
	x->data_node = ms->data_node;
	x->node_idx = node_idx;
	x->cat = (u8)ms->cls.cat;
	x->cpumode = s->misc & 7;
	x->load = ms->cls.load;
	x->has_cpu = !!(s->sample_type & PERF_SAMPLE_CPU);
	return c->n == CHUNK ? submit(w) : 0;
}

int hm_par__finish(struct hm_par *p, struct hm_lines **out)
{
	struct hm_lines **parts;
	int err = 0;

	stop_all(p);
	for (int i = 0; i < p->nr; i++)
		if (p->w[i].err && !err)
			err = p->w[i].err;
	if (err)
		return err;
	parts = calloc(p->nr > 0 ? (size_t)p->nr : 1, sizeof(*parts));
	if (!parts)
		return -ENOMEM;
	for (int i = 0; i < p->nr; i++) {
		parts[i] = p->w[i].lines;
		p->w[i].lines = NULL;
	}
	*out = hm_lines__merge(parts, p->nr);
	free(parts);
	return *out ? 0 : -ENOMEM;
}
