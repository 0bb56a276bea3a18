/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_SIM_SCHED_H
#define HITMAP_SIM_SCHED_H

/*
 * Which simulated thread runs next (workload.c): the one with the smallest
 * key, clock << HM_SCHED_TID_BITS | thread, so ties of the clock go to the
 * lower thread number.  Keys are unique: any exact priority queue gives the
 * same order.
 *
 * The queue is monotone: a key added is never below the last one taken (a
 * thread's clock only advances, and a thread woken by another starts no
 * earlier than the waker's clock), so a calendar over simulated time does it
 * in O(1): HM_SCHED_N buckets of HM_SCHED_SHIFT-wide ranges of cycles, a
 * window starting at the last bucket taken, each bucket a list sorted by key
 * (threads a few cycles apart mostly fall in distinct buckets), a two-level
 * bitmap of the buckets in use, and an unsorted overflow for keys past the
 * window, pulled in once the window reaches them (the threads of the modelled
 * workload are within a few thousand cycles of each other).
 *
 * The running thread is held outside the queue: while its key stays below
 * the queue's smallest it runs on, and nothing is updated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <hitmap/perf_data.h>	/* u16, u32, u64 */

#define HM_SCHED_TID_BITS	12
#define HM_SCHED_TID_MASK	((1u << HM_SCHED_TID_BITS) - 1)
#define HM_SCHED_SHIFT		2	/* 4 cycles a bucket */
#define HM_SCHED_N		4096u	/* buckets: 64 bitmap words, one summary word; 16384 cycles */
#define HM_SCHED_BSHIFT		(HM_SCHED_TID_BITS + HM_SCHED_SHIFT)	/* key -> bucket number */
#define HM_SCHED_NONE		UINT32_MAX

struct hm_sched {
	u64	min;		/* smallest key queued, UINT64_MAX none */
	u64	held;		/* key of the running thread (not queued), UINT64_MAX none */
	u64	base;		/* bucket number of the last key taken: the window's start */
	u64	summary;	/* bit w: bits[w] != 0 */
	u64	bits[HM_SCHED_N / 64];	/* bit i: head[i] != 0 */
	u16	head[HM_SCHED_N];	/* thread + 1 of the bucket's smallest key, 0 empty */
	u16	tail[HM_SCHED_N];	/* thread + 1 of its largest (valid while head is not 0) */
	u16	*next;		/* per thread: the next thread + 1 of its bucket */
	u64	*key;		/* per thread: its key while queued */
	u64	*far;		/* keys past the window, unsorted */
	u32	nfar;
	u64	far_min;
};

/* An empty queue for @n threads (n <= 1 << HM_SCHED_TID_BITS); NULL on ENOMEM. */
static inline struct hm_sched *hm_sched__new(u32 n)
{
	struct hm_sched *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	q->next = calloc(n ? n : 1, sizeof(*q->next));
	q->key = calloc(n ? n : 1, sizeof(*q->key));
	q->far = calloc(n ? n : 1, sizeof(*q->far));
	if (!q->next || !q->key || !q->far) {
		free(q->next);
		free(q->key);
		free(q->far);
		free(q);
		return NULL;
	}
	q->min = q->held = q->far_min = UINT64_MAX;
	return q;
}

static inline void hm_sched__delete(struct hm_sched *q)
{
	if (!q)
		return;
	free(q->next);
	free(q->key);
	free(q->far);
	free(q);
}

/* Link @key into its bucket, in key order (the window holds it). */
static inline void hm_sched__link(struct hm_sched *q, u64 key)
{
	u32 tid = (u32)(key & HM_SCHED_TID_MASK);
	u32 i = (u32)(key >> HM_SCHED_BSHIFT) & (HM_SCHED_N - 1);
	u16 *p = &q->head[i], t = q->tail[i];

	q->key[tid] = key;
	if (!*p || q->key[t - 1] < key) {
		/* empty, or after the last: threads in step come in key order */
		q->next[tid] = 0;
		*(*p ? &q->next[t - 1] : p) = (u16)(tid + 1);
		q->tail[i] = (u16)(tid + 1);
		q->bits[i >> 6] |= 1ULL << (i & 63);
		q->summary |= 1ULL << (i >> 6);
		return;
	}
	while (q->key[*p - 1] < key)	/* stops before the tail */
		p = &q->next[*p - 1];
	q->next[tid] = *p;
	*p = (u16)(tid + 1);
}

/* Move the overflow's keys that the window (from q->base) now covers into it. */
static __attribute__((noinline)) void hm_sched__pull(struct hm_sched *q)
{
	u32 i, n = 0;

	q->far_min = UINT64_MAX;
	for (i = 0; i < q->nfar; i++) {
		u64 k = q->far[i];

		if ((k >> HM_SCHED_BSHIFT) - q->base < HM_SCHED_N) {
			hm_sched__link(q, k);
		} else {
			q->far[n++] = k;
			if (k < q->far_min)
				q->far_min = k;
		}
	}
	q->nfar = n;
}

/* Queue @key past the window (noinline: rare). */
static __attribute__((noinline)) void hm_sched__add_far(struct hm_sched *q, u64 key)
{
	q->far[q->nfar++] = key;
	if (key < q->far_min)
		q->far_min = key;
}

/* Queue @key (its thread neither queued nor held); not below the last key taken. */
static inline void hm_sched__add(struct hm_sched *q, u64 key)
{
	if (key < q->min)
		q->min = key;
	if ((key >> HM_SCHED_BSHIFT) - q->base >= HM_SCHED_N)
		hm_sched__add_far(q, key);
	else
		hm_sched__link(q, key);
}

/*
 * The thread to run now: the held one while its key is the smallest, else
 * it is queued and the smallest taken (and held).  HM_SCHED_NONE: all done.
 * One function, the state in locals: the stores to the arrays do not make
 * the compiler reload it.
 */
static inline u32 hm_sched__next(struct hm_sched *q)
{
	u64 held = q->held, key = q->min, base = q->base, b;
	u16 *head = q->head, *next = q->next;
	u64 *keys = q->key, *bits = q->bits;
	u32 tid, i, w;
	u64 m;
	u16 h;

	if (held < key)
		return (u32)(held & HM_SCHED_TID_MASK);
	if (held != UINT64_MAX) {
		/* above q->min: only its bucket changes */
		if ((held >> HM_SCHED_BSHIFT) - base < HM_SCHED_N) {
			u16 *p, t;

			tid = (u32)(held & HM_SCHED_TID_MASK);
			i = (u32)(held >> HM_SCHED_BSHIFT) & (HM_SCHED_N - 1);
			keys[tid] = held;
			p = &head[i];
			t = q->tail[i];
			if (!*p) {
				next[tid] = 0;
				*p = q->tail[i] = (u16)(tid + 1);
				bits[i >> 6] |= 1ULL << (i & 63);
				q->summary |= 1ULL << (i >> 6);
			} else if (keys[t - 1] < held) {
				/* after the last: threads in step come in key order */
				next[tid] = 0;
				next[t - 1] = q->tail[i] = (u16)(tid + 1);
			} else {
				while (keys[*p - 1] < held)	/* stops before the tail */
					p = &next[*p - 1];
				next[tid] = *p;
				*p = (u16)(tid + 1);
			}
		} else {
			hm_sched__add_far(q, held);
		}
	}
	q->held = key;
	if (key == UINT64_MAX)
		return HM_SCHED_NONE;

	/* take @key, the smallest */
	b = key >> HM_SCHED_BSHIFT;
	tid = (u32)(key & HM_SCHED_TID_MASK);
	i = (u32)b & (HM_SCHED_N - 1);
	/*
	 * The window moves to @b.  Overflow keys are above every key in the
	 * window (they were past it when added, and are pulled as soon as it
	 * reaches them), so the smallest is in the window unless it is empty.
	 */
	q->base = b;
	if (q->nfar && (q->far_min >> HM_SCHED_BSHIFT) - b < HM_SCHED_N)
		hm_sched__pull(q);
	h = next[tid];	/* @key heads bucket i */
	head[i] = h;
	if (h) {
		q->min = keys[h - 1];
		return tid;
	}
	w = i >> 6;
	m = bits[w] & ~(1ULL << (i & 63));
	bits[w] = m;
	/* the next bucket in use, from i on around the window */
	m &= ~0ULL << (i & 63);
	if (!m) {
		u64 sum = q->summary, s;

		if (!bits[w])
			q->summary = sum &= ~(1ULL << w);
		s = sum & ~((2ULL << w) - 1);		/* later words */
		if (!s)
			s = sum;			/* wrapped: earlier words, or w's low bits */
		if (!s) {
			q->min = q->nfar ? q->far_min : UINT64_MAX;
			return tid;
		}
		w = (u32)__builtin_ctzll(s);
		m = bits[w];
	}
	q->min = keys[head[w * 64 + (u32)__builtin_ctzll(m)] - 1];
	return tid;
}

/* The running thread's new key; UINT64_MAX: it leaves (done, or asleep until woken). */
static inline void hm_sched__hold(struct hm_sched *q, u64 key)
{
	q->held = key;
}

#endif
