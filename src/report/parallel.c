// SPDX-License-Identifier: GPL-2.0-only
/* The cache-line table built by worker threads and the reading thread; see parallel.h. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "parallel.h"

#define CHUNK		2048	/* samples per hand-over */
#define SHARDS_PER	4	/* shards per thread of the pass */
#define MAX_SHARDS	64	/* each holds a partly used arena chunk and a table */
#define INFLIGHT_PER	3	/* queued chunks per thread, beyond one filling chunk per shard */
#define MAX_ONES	65536	/* distinct perf counter values */
#define PF_D		2	/* prefetch distance, as report.c's */

/* What hm_lines__add reads of a sample, nothing more. */
struct par_msg {
	u64	addr, ip, phys, weight, seq;
	u32	pid, tid, cpu, one_idx;
	int	socket, data_node, node_idx;
	u8	cat, cpumode;
	u8	load, has_cpu;
	u32	hint;		/* the processing thread's hm_lines__hint */
};

struct chunk {
	struct chunk	*next;
	int		n;
	struct par_msg	m[CHUNK];
};

/*
 * A shard: a part of the table (the lines whose hash falls in it) and its
 * queue of full chunks.  Whoever holds it (busy) works through the queue in
 * order, so each line sees its samples in the pass's order, whichever
 * thread processes them.
 */
struct shard {
	struct hm_lines	*lines;
	struct chunk	*head, *tail;	/* under mu */
	bool		busy;		/* under mu */
	struct chunk	*fill;		/* the reading thread's */
};

struct hm_par {
	int			nr_workers, nr_shards;
	u32			cls;
	pthread_t		*th;
	int			nr_started;
	struct shard		*sh;
	pthread_mutex_t		mu;
	pthread_cond_t		cv_work;	/* a chunk was queued, or stop */
	pthread_cond_t		cv_free;	/* a chunk was freed or a shard released */
	struct chunk		*free;		/* under mu */
	int			nr_pending;	/* queued chunks, under mu */
	int			next_shard;	/* where the next search starts, under mu */
	bool			stop;		/* under mu */
	int			err;		/* first error, under mu */
	struct hm_c2c_stats	*ones;		/* never moves: workers read it */
	int			nr_ones;
	u64			*ones_slot;	/* 2 * MAX_ONES: hash tag << 32 | index + 1, 0 empty */
	struct { u64 key; u32 idx; } *packed;	/* 2 * MAX_ONES: pack()ed key, index + 1 */
};

static void process(struct hm_par *p, struct hm_lines *l, struct chunk *c)
{
	const struct hm_c2c_stats *ones = p->ones;
	u64 clmask = ~(u64)(p->cls - 1);
	struct hm_sample s;
	struct hm_mem_sample ms;
	bool deferred = hm_lines__deferred(l);
	int i, err;

	memset(&s, 0, sizeof(s));
	memset(&ms, 0, sizeof(ms));
	ms.s = &s;
	for (i = -3 * PF_D; i < c->n; i++) {
		int j = i + 3 * PF_D, k = i + 2 * PF_D, m = i + PF_D, q = i + PF_D / 2;

		if (j < c->n)
			hm_lines__prefetch_slot(l, c->m[j].addr & clmask);
		if (k >= 0 && k < c->n) {
			c->m[k].hint = hm_lines__hint(l, c->m[k].addr & clmask);
			hm_lines__prefetch_at(l, c->m[k].hint, 0);
		}
		if (m >= 0 && m < c->n)
			hm_lines__prefetch_at(l, c->m[m].hint, 1);
		if (q >= 0 && q < c->n && !deferred)
			hm_lines__prefetch_ips_at(l, c->m[q].hint, c->m[q].addr);
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
			err = hm_lines__add_at(l, &ms, &ones[x->one_idx], x->node_idx, x->seq, x->hint);
			if (err < 0) {
				pthread_mutex_lock(&p->mu);
				if (!p->err)
					p->err = err;
				pthread_mutex_unlock(&p->mu);
				return;
			}
		}
	}
}

/* Under mu: a shard with queued chunks that nobody holds, or NULL. */
static struct shard *claim(struct hm_par *p)
{
	for (int i = 0; i < p->nr_shards; i++) {
		int k = (p->next_shard + i) % p->nr_shards;
		struct shard *sh = &p->sh[k];

		if (sh->head && !sh->busy) {
			sh->busy = true;
			p->next_shard = (k + 1) % p->nr_shards;
			return sh;
		}
	}
	return NULL;
}

/*
 * Under mu, with @sh claimed: process its oldest chunk (mu dropped while
 * processing), free it, and release the shard when @all is false or its
 * queue is empty.  Returns with mu held.
 */
static void run_shard(struct hm_par *p, struct shard *sh, bool all)
{
	do {
		struct chunk *c = sh->head;
		bool failed = p->err != 0;

		sh->head = c->next;
		if (!sh->head)
			sh->tail = NULL;
		p->nr_pending--;
		pthread_mutex_unlock(&p->mu);
		if (!failed)
			process(p, sh->lines, c);
		c->n = 0;
		pthread_mutex_lock(&p->mu);
		c->next = p->free;
		p->free = c;
		pthread_cond_broadcast(&p->cv_free);
	} while (all && sh->head);
	sh->busy = false;
	pthread_cond_broadcast(&p->cv_free);
	if (sh->head)
		pthread_cond_signal(&p->cv_work);
}

static void *worker_main(void *arg)
{
	struct hm_par *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct shard *sh = claim(p);

		if (sh) {
			run_shard(p, sh, true);
			continue;
		}
		if (p->stop && !p->nr_pending)
			break;
		pthread_cond_wait(&p->cv_work, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/*
 * Queue the shard's full chunk and give it an empty one.  When none is free
 * (the workers are behind) the reading thread processes a queued chunk
 * itself rather than wait: that balances its own work against the table's.
 */
static int submit(struct hm_par *p, struct shard *sh)
{
	struct chunk *c = sh->fill;
	int err;

	pthread_mutex_lock(&p->mu);
	c->next = NULL;
	if (sh->tail)
		sh->tail->next = c;
	else
		sh->head = c;
	sh->tail = c;
	p->nr_pending++;
	pthread_cond_signal(&p->cv_work);
	while (!p->free && !p->err) {
		struct shard *o = claim(p);

		if (o)
			run_shard(p, o, false);
		else
			pthread_cond_wait(&p->cv_free, &p->mu);
	}
	sh->fill = p->free;
	if (sh->fill)
		p->free = sh->fill->next;
	err = p->err;
	pthread_mutex_unlock(&p->mu);
	return err;
}

static void stop_all(struct hm_par *p)
{
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_broadcast(&p->cv_work);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->nr_started; i++)
		pthread_join(p->th[i], NULL);
	p->nr_started = 0;
}

void hm_par__delete(struct hm_par *p)
{
	struct chunk *c;

	if (!p)
		return;
	stop_all(p);
	for (int i = 0; p->sh && i < p->nr_shards; i++) {
		struct shard *sh = &p->sh[i];

		hm_lines__delete(sh->lines);
		free(sh->fill);
		while ((c = sh->head)) {
			sh->head = c->next;
			free(c);
		}
	}
	while ((c = p->free)) {
		p->free = c->next;
		free(c);
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv_work);
	pthread_cond_destroy(&p->cv_free);
	free(p->sh);
	free(p->th);
	free(p->ones);
	free(p->ones_slot);
	free(p->packed);
	free(p);
}

struct hm_par *hm_par__new(int nr_workers, u32 cacheline_size, int nr_cpus, int nr_nodes)
{
	struct hm_par *p = calloc(1, sizeof(*p));
	int err = ENOMEM, nr_free;

	if (!p)
		return NULL;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv_work, NULL);
	pthread_cond_init(&p->cv_free, NULL);
	if (nr_workers < 1)
		nr_workers = 1;
	p->nr_workers = nr_workers;
	p->nr_shards = SHARDS_PER * (nr_workers + 1);
	if (p->nr_shards > MAX_SHARDS)
		p->nr_shards = MAX_SHARDS;
	p->cls = cacheline_size ? cacheline_size : 64;
	p->th = calloc(nr_workers, sizeof(*p->th));
	p->sh = calloc(p->nr_shards, sizeof(*p->sh));
	p->ones = calloc(MAX_ONES, sizeof(*p->ones));
	p->ones_slot = calloc(2 * MAX_ONES, sizeof(*p->ones_slot));
	p->packed = calloc(2 * MAX_ONES, sizeof(*p->packed));
	if (!p->th || !p->sh || !p->ones || !p->ones_slot || !p->packed)
		goto fail;
	for (int i = 0; i < p->nr_shards; i++) {
		struct shard *sh = &p->sh[i];

		sh->lines = hm_lines__new(cacheline_size, nr_cpus, nr_nodes);
		sh->fill = malloc(sizeof(*sh->fill));
		if (!sh->lines || !sh->fill)
			goto fail;
		sh->fill->n = 0;
	}
	nr_free = INFLIGHT_PER * (nr_workers + 1);
	for (int i = 0; i < nr_free; i++) {
		struct chunk *c = malloc(sizeof(*c));

		if (!c)
			goto fail;
		c->n = 0;
		c->next = p->free;
		p->free = c;
	}
	for (int i = 0; i < nr_workers; i++) {
		err = pthread_create(&p->th[i], NULL, worker_main, p);
		if (err)
			goto fail;
		p->nr_started++;
	}
	hm_debug("report: one reader, the line table in %d shards on %d worker(s)", p->nr_shards, nr_workers);
	return p;
fail:
	hm_par__delete(p);
	errno = err;
	return NULL;
}

/* @one with every counter below 4 (one sample's are 0 or 1) as 2 bits a counter. */
static bool pack(const struct hm_c2c_stats *one, u64 *key)
{
	const u32 *w = (const u32 *)one;
	u64 k = 0;

	for (size_t i = 0; i < sizeof(*one) / 4; i++) {
		if (w[i] > 3)
			return false;
		k |= (u64)w[i] << (2 * i);
	}
	*key = k;
	return true;
}

/* p->ones[] gets @one as entry nr_ones, or -ENOSPC. */
static int intern_append(struct hm_par *p, const struct hm_c2c_stats *one)
{
	if (p->nr_ones == MAX_ONES)
		return -ENOSPC;
	p->ones[p->nr_ones] = *one;
	return p->nr_ones++;
}

int hm_par__intern(struct hm_par *p, const struct hm_c2c_stats *one)
{
	const size_t mask = 2 * MAX_ONES - 1;
	const u32 *w = (const u32 *)one;
	u64 h = 0, tag, key;
	size_t k;
	int idx;

	_Static_assert(sizeof(*one) / 4 <= 32, "2 bits a counter in a u64");
	if (pack(one, &key)) {
		/* the common case: the key is the value, no compare against p->ones */
		h = (key + 1) * 0x9e3779b97f4a7c15ULL;
		for (k = (h ^ h >> 29) & mask; p->packed[k].idx; k = (k + 1) & mask)
			if (p->packed[k].key == key)
				return (int)p->packed[k].idx - 1;
		idx = intern_append(p, one);
		if (idx >= 0) {
			p->packed[k].key = key;
			p->packed[k].idx = (u32)idx + 1;
		}
		return idx;
	}
	for (k = 0; k < sizeof(*one) / 4; k++)
		h = (h + w[k] + 1) * 0x9e3779b97f4a7c15ULL;
	h ^= h >> 29;
	/* the slot keeps 32 bits of the hash: most probes end without reading p->ones */
	tag = h >> 32 << 32;
	for (k = h & mask; p->ones_slot[k]; k = (k + 1) & mask) {
		u32 i = (u32)p->ones_slot[k] - 1;

		if ((p->ones_slot[k] & ~0xffffffffULL) == tag && !memcmp(&p->ones[i], one, sizeof(*one)))
			return (int)i;
	}
	idx = intern_append(p, one);
	if (idx >= 0)
		p->ones_slot[k] = tag | (u32)(idx + 1);
	return idx;
}

static inline struct shard *shard_of(const struct hm_par *p, u64 line)
{
	u64 x = (line >> 6) * 0x9e3779b97f4a7c15ULL;

	return &p->sh[(x >> 32) % (u64)p->nr_shards];
}

int hm_par__add(struct hm_par *p, const struct hm_mem_sample *ms, int one_idx, int node_idx,
		u64 seq)
{
	const struct hm_sample *s = ms->s;
	struct shard *sh = shard_of(p, ms->line);
	struct chunk *c = sh->fill;
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
	return c->n == CHUNK ? submit(p, sh) : 0;
}

void hm_par__defer_details(struct hm_par *p, hm_lines_fill_fn fill, void *priv)
{
	for (int i = 0; i < p->nr_shards; i++)
		hm_lines__defer_details(p->sh[i].lines, fill, priv);
}

int hm_par__finish(struct hm_par *p, struct hm_lines **out)
{
	struct hm_lines **parts;
	int err = 0;

	for (int i = 0; i < p->nr_shards && !err; i++)
		if (p->sh[i].fill && p->sh[i].fill->n)
			err = submit(p, &p->sh[i]);
	/* help the workers drain the queues, then stop them */
	pthread_mutex_lock(&p->mu);
	while (p->nr_pending && !p->err) {
		struct shard *sh = claim(p);

		if (sh)
			run_shard(p, sh, true);
		else
			pthread_cond_wait(&p->cv_free, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	stop_all(p);
	if (p->err)
		return p->err;
	if (err)
		return err;
	parts = calloc(p->nr_shards, sizeof(*parts));
	if (!parts)
		return -ENOMEM;
	for (int i = 0; i < p->nr_shards; i++) {
		parts[i] = p->sh[i].lines;
		p->sh[i].lines = NULL;
	}
	*out = hm_lines__merge(parts, p->nr_shards);
	free(parts);
	return *out ? 0 : -ENOMEM;
}
