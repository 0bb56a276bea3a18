// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run loop's scheduler (sim/sched.h) against a plain scan for the
 * smallest key: same-cycle ties, clocks in step, keys past the window, threads
 * leaving and woken by another.
 */
#include <stdint.h>
#include "tap.h"
#include "sim/sched.h"

static u64 rng = 42;

static u64 rnd(void)
{
	u64 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One run of @steps picks; returns the number of picks that differ from the scan. */
static u64 run(u32 n, u64 steps, u32 far_pct, u64 *fars)
{
	struct hm_sched *q = hm_sched__new(n);
	u64 ref[4096], now = 0, bad = 0, i;
	u32 asleep[4096], nasleep = 0, t;

	if (!q)
		return UINT64_MAX;
	for (t = 0; t < n; t++) {
		ref[t] = ((rnd() % 64) << HM_SCHED_TID_BITS) | t;	/* many ties */
		hm_sched__add(q, ref[t]);
	}
	for (i = 0; i < steps; i++) {
		u64 best = UINT64_MAX, r = rnd(), time, cost;
		u32 ti = hm_sched__next(q), want = HM_SCHED_NONE;

		for (t = 0; t < n; t++)
			if (ref[t] < best) {
				best = ref[t];
				want = t;
			}
		if (ti != want) {
			bad++;
			break;
		}
		if (ti == HM_SCHED_NONE)
			break;
		time = ref[ti] >> HM_SCHED_TID_BITS;
		now = time;
		/* costs: in step (same), L1-like, misses, a syscall, past the window */
		switch (r % 8) {
		case 0: case 1:	cost = 4; break;
		case 2:		cost = r >> 60; break;
		case 3:		cost = 90 + (r >> 56); break;
		case 4:		cost = 780; break;
		case 5:		cost = (r >> 32) % 100 < far_pct ? 16384 + (r >> 40) % 70000 : 40; break;
		default:	cost = 1 + (r >> 61); break;
		}
		if ((r >> 8) % 16 == 0 && nasleep < n - 1) {
			/* asleep until another thread wakes it */
			asleep[nasleep++] = ti;
			ref[ti] = UINT64_MAX;
			hm_sched__hold(q, UINT64_MAX);
			continue;
		}
		if (nasleep && (r >> 16) % 4 == 0) {
			/* wake one: no earlier than the waker's clock */
			u32 w = asleep[--nasleep];

			ref[w] = ((now + (r >> 62) * 3) << HM_SCHED_TID_BITS) | w;
			hm_sched__add(q, ref[w]);
		}
		if (cost >= 16384)
			(*fars)++;
		ref[ti] = ((time + cost) << HM_SCHED_TID_BITS) | ti;
		if ((r >> 24) % 4096 == 0 && i > steps / 2)
			ref[ti] = UINT64_MAX;	/* done */
		hm_sched__hold(q, ref[ti]);
	}
	/* drain: the rest in order */
	for (t = 0; t < nasleep; t++) {
		ref[asleep[t]] = ((now + t) << HM_SCHED_TID_BITS) | asleep[t];
		hm_sched__add(q, ref[asleep[t]]);
	}
	for (;;) {
		u64 best = UINT64_MAX;
		u32 ti = hm_sched__next(q), want = HM_SCHED_NONE;

		for (t = 0; t < n; t++)
			if (ref[t] < best) {
				best = ref[t];
				want = t;
			}
		if (ti != want) {
			bad++;
			break;
		}
		if (ti == HM_SCHED_NONE)
			break;
		ref[ti] = UINT64_MAX;
		hm_sched__hold(q, UINT64_MAX);
	}
	hm_sched__delete(q);
	return bad;
}

int main(void)
{
	u64 fars = 0;

	CHECK_EQ("1 thread", run(1, 20000, 10, &fars), 0);
	CHECK_EQ("2 threads", run(2, 50000, 10, &fars), 0);
	CHECK_EQ("192 threads, few past the window", run(192, 400000, 1, &fars), 0);
	CHECK_EQ("192 threads, many past the window", run(192, 400000, 60, &fars), 0);
	CHECK_EQ("4096 threads", run(4096, 200000, 5, &fars), 0);
	CHECK("keys past the window were tried", fars > 10000);
	{
		/* a thread alone past the window: its key is the queue's smallest */
		struct hm_sched *q = hm_sched__new(2);

		hm_sched__add(q, (5ULL << HM_SCHED_TID_BITS) | 0);
		hm_sched__add(q, (1000000ULL << HM_SCHED_TID_BITS) | 1);
		CHECK_EQ("near first", hm_sched__next(q), 0);
		hm_sched__hold(q, (2000000ULL << HM_SCHED_TID_BITS) | 0);
		CHECK_EQ("then the far one", hm_sched__next(q), 1);
		hm_sched__hold(q, UINT64_MAX);
		CHECK_EQ("then the other far one", hm_sched__next(q), 0);
		hm_sched__hold(q, UINT64_MAX);
		CHECK_EQ("empty", hm_sched__next(q), HM_SCHED_NONE);
		hm_sched__delete(q);
	}
	TAP_DONE();
}
