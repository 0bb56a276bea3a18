// SPDX-License-Identifier: GPL-2.0-only
/* Threads of equal work turned round the CPUs (rotate.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "util/clock.h"
#include "util/rotate.h"

#define PERIOD		0.050	/* s: a thread's stay on one CPU */
#define CHECK_STEPS	256	/* steps (records, 0.1-0.5 us each) between two clock reads */

void hm_rotate__group(struct hm_rotate *rt, const int *node_of)
{
	int node[HM_ROTATE_MAX];

	for (int i = 0; i < rt->nr; i++)
		node[i] = node_of[i];
	/* insertion sort by node, stable: CPUs in number order within a node */
	for (int i = 1; i < rt->nr; i++)
		for (int j = i; j > 0 && node[j - 1] > node[j]; j--) {
			int t = node[j];

			node[j] = node[j - 1];
			node[j - 1] = t;
			t = rt->cpu[j];
			rt->cpu[j] = rt->cpu[j - 1];
			rt->cpu[j - 1] = t;
		}
	for (int i = 0, f = 0; i < rt->nr; i++) {
		if (node[i] != node[f])
			f = i;
		rt->first[i] = f;
	}
	for (int i = rt->nr - 1, end = rt->nr; i >= 0; i--) {
		if (i + 1 < rt->nr && rt->first[i + 1] != rt->first[i])
			end = i + 1;
		rt->size[i] = end - rt->first[i];
	}
}

int hm_rotate__start(struct hm_rotate *rt, int nr, int (*node_of)(int cpu, void *priv), void *priv)
{
	const char *e = getenv("HITMAP_ROTATE_MS");
	double period = PERIOD;
	int n = 0;

	if (__atomic_load_n(&rt->on, __ATOMIC_RELAXED) || __atomic_load_n(&rt->stopped, __ATOMIC_RELAXED))
		return 0;
	if (e) {
		char *end;
		double ms;

		errno = 0;
		ms = strtod(e, &end);
		if (end == e || *end || errno || !(ms >= 0 && ms <= 60000)) {
			hm_warn("HITMAP_ROTATE_MS='%s': not a number of ms from 0 to 60000; ignored (the period stays %g ms)",
				e, PERIOD * 1e3);
			ms = PERIOD * 1e3;
		}
		if (ms == 0)
			return 0;
		period = ms * 1e-3;
	}
	if (nr < 2 || nr > HM_ROTATE_MAX || sched_getaffinity(0, sizeof(rt->allowed), &rt->allowed))
		return 0;
	if (CPU_COUNT(&rt->allowed) != nr)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < nr; c++)
		if (CPU_ISSET(c, &rt->allowed))
			rt->cpu[n++] = c;
	rt->nr = n;
	{
		int node[HM_ROTATE_MAX];

		for (int i = 0; i < n; i++)
			node[i] = node_of ? node_of(rt->cpu[i], priv) : 0;
		hm_rotate__group(rt, node);
	}
	rt->period = period;
	rt->t0 = hm_clock__mono();
	__atomic_store_n(&rt->on, 1, __ATOMIC_RELEASE);
	return 1;
}

void hm_rotate__stop(struct hm_rotate *rt)
{
	__atomic_store_n(&rt->stopped, 1, __ATOMIC_RELAXED);
}

void hm_rotor__init(struct hm_rotor *ro, struct hm_rotate *rt, int slot)
{
	memset(ro, 0, sizeof(*ro));
	ro->rt = slot >= 0 && slot < HM_ROTATE_MAX ? rt : NULL;
	ro->slot = slot;
	ro->turn = -1;
	ro->left = CHECK_STEPS;
}

void hm_rotor__release(struct hm_rotor *ro)
{
	if (!ro->pinned)
		return;
	ro->pinned = false;
	sched_setaffinity(0, sizeof(ro->rt->allowed), &ro->rt->allowed);
}

void hm_rotor__check(struct hm_rotor *ro)
{
	struct hm_rotate *rt = ro->rt;
	cpu_set_t one;
	long turn;

	ro->left = CHECK_STEPS;
	if (!rt || !__atomic_load_n(&rt->on, __ATOMIC_ACQUIRE))
		return;
	if (ro->slot >= rt->nr || __atomic_load_n(&rt->stopped, __ATOMIC_RELAXED)) {
		hm_rotor__release(ro);
		ro->rt = NULL;
		ro->left = ~0u;
		return;
	}
	turn = (long)((hm_clock__mono() - rt->t0) / rt->period) - HM_ROTATE_LEAD;
	if (turn < 0 || turn == ro->turn)
		return;
	ro->turn = turn;
	CPU_ZERO(&one);
	CPU_SET(hm_rotate__cpu(rt, ro->slot, turn), &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		/* not allowed any more (a cpuset changed): out of the rotation */
		hm_rotor__release(ro);
		ro->rt = NULL;
		ro->left = ~0u;
		return;
	}
	ro->pinned = true;
	__atomic_fetch_add(&rt->moves, 1, __ATOMIC_RELAXED);
}
