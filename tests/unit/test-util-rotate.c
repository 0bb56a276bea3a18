// SPDX-License-Identifier: GPL-2.0-only
/*
 * Threads turned round the CPUs (src/util/rotate.h): a rotation starts only
 * for as many threads as the process has CPUs (and not with
 * HITMAP_ROTATE_MS=0, nor once stopped); a thread that joined before the
 * start stays where it is until then, and so does every thread for the
 * first HM_ROTATE_LEAD periods; after them, each thread is on its
 * turn's CPU at each check, so each visits every CPU of its NUMA node and
 * no two are on the same CPU in the same turn; stopped, each is given the
 * whole set again at its next check, and release gives it back at once.
 * The NUMA grouping on made-up nodes: node order, each slot within its
 * node, a CPU a slot at every turn.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "util/clock.h"
#include "util/rotate.h"

#define TURNS	8	/* the turns each thread checks through */

struct runner {
	struct hm_rotate	*rt;
	struct hm_rotor		ro;
	int			slot;
	int			wrong;		/* checks that left it off its CPU */
	int			early;		/* checks that pinned it in the lead's periods */
	int			seen;		/* bit per index of rt->cpu visited */
	int			cpu_at[TURNS];	/* its CPU's index at turns 0 .. TURNS - 1 (-1: none) */
	bool			whole_after;	/* the whole set again after the stop */
};

static int cpu_index(const struct hm_rotate *rt, int cpu)
{
	for (int i = 0; i < rt->nr; i++)
		if (rt->cpu[i] == cpu)
			return i;
	return -1;
}

static bool has_whole_set(const struct hm_rotate *rt)
{
	cpu_set_t now;

	return !sched_getaffinity(0, sizeof(now), &now) && CPU_EQUAL(&now, &rt->allowed);
}

static void *run(void *arg)
{
	struct runner *u = arg;
	double end = u->rt->t0 + u->rt->period * (HM_ROTATE_LEAD + TURNS);

	hm_rotor__init(&u->ro, u->rt, u->slot);
	for (int i = 0; i < TURNS; i++)
		u->cpu_at[i] = -1;
	while (hm_clock__mono() < end) {
		int idx;

		hm_rotor__check(&u->ro);
		idx = cpu_index(u->rt, sched_getcpu());
		if (hm_clock__mono() < u->rt->t0 + u->rt->period * (HM_ROTATE_LEAD - 0.5) && u->ro.pinned)
			u->early++;
		if (u->ro.turn < 0 || u->ro.turn >= TURNS)
			continue;
		if (sched_getcpu() != hm_rotate__cpu(u->rt, u->slot, u->ro.turn))
			u->wrong++;
		if (idx >= 0) {
			u->seen |= 1 << idx;
			u->cpu_at[u->ro.turn] = idx;
		}
		usleep(200);
	}
	hm_rotate__stop(u->rt);
	hm_rotor__check(&u->ro);
	u->whole_after = has_whole_set(u->rt) && !u->ro.pinned;
	return NULL;
}

int main(void)
{
	static struct hm_rotate rt, rt2;
	struct runner u[HM_ROTATE_MAX];
	struct hm_rotor lone;
	pthread_t th[HM_ROTATE_MAX];
	cpu_set_t set;
	int n, started = 0, clash = 0, moves;

	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 2 || CPU_COUNT(&set) > HM_ROTATE_MAX) {
		SKIP("rotate", "needs 2 to %d CPUs allowed to this process (it has %d)", HM_ROTATE_MAX,
		     CPU_COUNT(&set));
		TAP_DONE();
	}
	n = CPU_COUNT(&set);
	if (n > 8) {
		/* a test of the turn, not of the machine: 8 threads on 8 of the CPUs */
		cpu_set_t few;

		CPU_ZERO(&few);
		for (int c = 0, k = 0; c < CPU_SETSIZE && k < 8; c++)
			if (CPU_ISSET(c, &set)) {
				CPU_SET(c, &few);
				k++;
			}
		if (sched_setaffinity(0, sizeof(few), &few)) {
			SKIP("rotate", "cannot narrow this process to 8 CPUs");
			TAP_DONE();
		}
		n = 8;
	}

	CHECK_EQ("one thread more than CPUs: no rotation", hm_rotate__start(&rt, n + 1, NULL, NULL), 0);
	CHECK_EQ("one thread fewer: no rotation", hm_rotate__start(&rt, n - 1, NULL, NULL), 0);
	CHECK_EQ("one thread: no rotation", hm_rotate__start(&rt, 1, NULL, NULL), 0);
	setenv("HITMAP_ROTATE_MS", "0", 1);
	CHECK_EQ("HITMAP_ROTATE_MS=0: no rotation", hm_rotate__start(&rt, n, NULL, NULL), 0);
	setenv("HITMAP_ROTATE_MS", "5", 1);

	/* joined before the start: nothing moves it */
	hm_rotor__init(&lone, &rt, 0);
	hm_rotor__check(&lone);
	CHECK("before the start: not pinned", !lone.pinned);
	/* no rotation: a rotor of none does nothing */
	hm_rotor__init(&lone, NULL, 0);
	hm_rotor__check(&lone);
	hm_rotor__release(&lone);
	CHECK("a rotor of no rotation: not pinned", !lone.pinned);

	/* stopped before it started: it does not start */
	hm_rotate__stop(&rt2);
	CHECK_EQ("stopped first: no rotation", hm_rotate__start(&rt2, n, NULL, NULL), 0);

	CHECK_EQ("as many threads as CPUs: a rotation", hm_rotate__start(&rt, n, NULL, NULL), 1);
	CHECK_EQ("started twice: the second refused", hm_rotate__start(&rt, n, NULL, NULL), 0);
	CHECK("its period is HITMAP_ROTATE_MS", rt.period > 0.0049 && rt.period < 0.0051);
	for (int i = 0; i < n; i++) {
		memset(&u[i], 0, sizeof(u[i]));
		u[i].rt = &rt;
		u[i].slot = i;
		if (pthread_create(&th[i], NULL, run, &u[i]))
			break;
		started++;
	}
	if (started < n) {
		for (int i = 0; i < started; i++)
			pthread_join(th[i], NULL);
		SKIP("rotate", "no %d threads", n);
		TAP_DONE();
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	moves = rt.moves;
	for (int i = 0; i < n; i++) {
		char name[96];

		snprintf(name, sizeof(name), "thread %d: on its turn's CPU at every check", i);
		CHECK_EQ(name, u[i].wrong, 0);
		snprintf(name, sizeof(name), "thread %d: not pinned in the first %d periods", i, HM_ROTATE_LEAD);
		CHECK_EQ(name, u[i].early, 0);
		snprintf(name, sizeof(name), "thread %d: visited every CPU of its node", i);
		CHECK_EQ(name, u[i].seen, ((1 << rt.size[i]) - 1) << rt.first[i]);
		snprintf(name, sizeof(name), "thread %d: stopped, the whole set again", i);
		CHECK(name, u[i].whole_after);
	}
	for (int t = 0; t < TURNS; t++)
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				clash += u[i].cpu_at[t] >= 0 && u[i].cpu_at[t] == u[j].cpu_at[t];
	CHECK_EQ("no two threads on one CPU in the same turn", clash, 0);
	CHECK("each thread moved at each turn it saw", moves >= n * (TURNS / 2));

	/* NUMA: a node of 2 CPUs and one of 4 interleaved in number order, a third of one */
	{
		static struct hm_rotate g;
		int node[7] = { 0, 1, 1, 0, 1, 1, 2 }, want[7] = { 10, 13, 11, 12, 14, 15, 16 };
		int ok = 1, stays = 1, cover = 1;

		g.nr = 7;
		for (int i = 0; i < 7; i++)
			g.cpu[i] = 10 + i;
		hm_rotate__group(&g, node);
		for (int i = 0; i < 7; i++)
			ok &= g.cpu[i] == want[i];
		CHECK("NUMA: the CPUs in node order, by number within a node", ok);
		CHECK("NUMA: each slot's stretch is its node's",
		      g.first[0] == 0 && g.size[0] == 2 && g.first[1] == 0 && g.first[2] == 2 &&
		      g.size[2] == 4 && g.first[5] == 2 && g.size[5] == 4 && g.first[6] == 6 && g.size[6] == 1);
		ok = 1;
		for (int i = 0; i < 7; i++)
			ok &= hm_rotate__cpu(&g, i, 0) == g.cpu[i] && hm_rotate__cpu(&g, i, g.size[i]) == g.cpu[i];
		CHECK("NUMA: slot i starts on the i-th CPU and is back on it after its node's turns", ok);
		for (int i = 0; i < 7; i++) {
			int seen = 0;

			for (long t = 0; t < 6; t++) {
				int c = hm_rotate__cpu(&g, i, t);

				stays &= node[c - 10] == node[g.cpu[i] - 10];
				seen |= 1 << (c - 10);
			}
			cover &= __builtin_popcount(seen) == g.size[i];
		}
		CHECK("NUMA: a slot turns within its node only", stays);
		CHECK("NUMA: and round every CPU of it", cover);
		ok = 1;
		for (long t = 0; t < 6; t++) {
			int seen = 0;

			for (int i = 0; i < 7; i++)
				seen |= 1 << (hm_rotate__cpu(&g, i, t) - 10);
			ok &= seen == 0x7f;
		}
		CHECK("NUMA: at each turn, a CPU a slot", ok);
	}

	/* a thread that stays pinned until released: given the whole set back at once */
	{
		static struct hm_rotate r3;
		struct hm_rotor ro;

		CHECK_EQ("a second rotation", hm_rotate__start(&r3, n, NULL, NULL), 1);
		hm_rotor__init(&ro, &r3, n - 1);
		hm_rotor__check(&ro);
		CHECK("not pinned before the lead's end", !ro.pinned);
		usleep((useconds_t)(r3.period * (HM_ROTATE_LEAD + 0.5) * 1e6));
		hm_rotor__check(&ro);
		CHECK("pinned at its first check after it", ro.pinned && sched_getcpu() == hm_rotate__cpu(&r3, n - 1, ro.turn));
		hm_rotor__release(&ro);
		CHECK("released: the whole set again", !ro.pinned && has_whole_set(&r3));
	}
	TAP_DONE();
}
