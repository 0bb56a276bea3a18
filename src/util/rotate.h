/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_ROTATE_H
#define HITMAP_UTIL_ROTATE_H
/*
 * N threads of equal work on N CPUs that may run at unlike speeds, turned
 * round the CPUs so that each spends about as long on each.  A fixed
 * split of work ends with the slowest CPU's share; where the CPUs' speeds
 * differ for reasons the threads cannot see (a VM's vCPUs on busy host
 * cores, a hybrid machine's small cores, another process on one CPU),
 * turning them round makes every thread run at the CPUs' mean speed, so
 * they end together, without moving any work between them.
 *
 * The turn is a clock's: thread @slot runs on CPU (slot + k) mod N of the
 * set the process was allowed when the rotation was made, k the number of
 * periods since it started, less HM_ROTATE_LEAD: for those first periods
 * the threads stay where the scheduler put them, so that a pass too short
 * for the CPUs' speeds to matter much does not pay for the moves (each
 * costs the thread its caches: measured on a 2-CPU VM, 0.7 ms a move at
 * 10 ms periods; turned from the start every 50 ms, a 0.17 s pass was
 * 3-5% slower).  On a NUMA machine the threads turn within
 * their NUMA nodes only (slot i starts on the set's i-th CPU in node
 * order and stays among that node's CPUs of the set), so that the memory
 * each fills stays local to it.  Each thread checks the clock every few
 * thousand steps of its own (hm_rotor__step) and moves itself, so no
 * thread waits for another; two share a CPU at most from the turn until
 * the later one's next check.  The rotation stops (each thread allowed
 * the whole set again) when hm_rotate__stop is called: one thread has
 * ended, the rest are not equal work any more.
 */
#include <sched.h>
#include <stdbool.h>

#define HM_ROTATE_MAX	64	/* the most CPUs (and threads) turned round */
#define HM_ROTATE_LEAD	4	/* periods before the first turn */

struct hm_rotate {
	int		on;			/* atomic: set once the rest is */
	int		nr;			/* CPUs, one a thread */
	int		cpu[HM_ROTATE_MAX];	/* in node order */
	/* slot i turns round cpu[first[i]] .. cpu[first[i] + size[i] - 1], its node's */
	int		first[HM_ROTATE_MAX], size[HM_ROTATE_MAX];
	cpu_set_t	allowed;		/* the set the threads are given back */
	double		t0, period;		/* CLOCK_MONOTONIC seconds */
	int		stopped;		/* atomic */
	int		moves;			/* atomic: the moves made (HITMAP_DEBUG) */
};

/* One thread's place in the rotation. */
struct hm_rotor {
	struct hm_rotate	*rt;
	int			slot;
	long			turn;		/* the last turn it moved for; -1 none */
	unsigned		left;		/* steps to the next check */
	bool			pinned;
};

/*
 * The rotation of @nr threads round the CPUs this process is allowed, if
 * it is allowed exactly @nr, 2 to HM_ROTATE_MAX (HITMAP_ROTATE_MS=0:
 * never; another number: the period in ms, 50 by default): 1, and the
 * threads that joined @rt (zeroed memory: off until then) start turning
 * at their next check; else 0.  @node_of(cpu, @priv) gives a CPU's NUMA
 * node (the caller's topology; NULL: one node).
 */
int  hm_rotate__start(struct hm_rotate *rt, int nr, int (*node_of)(int cpu, void *priv), void *priv);
/* The rotation ends: each thread gives its CPU up at its next step. */
void hm_rotate__stop(struct hm_rotate *rt);

/*
 * @rt's nr CPUs (cpu[]) put in node order, @node_of[i] the node of cpu[i]
 * (stable: by number within a node), and each slot given its node's
 * stretch (first[], size[]).  hm_rotate__start calls it with its
 * caller's nodes; the tests with made-up ones.
 */
void hm_rotate__group(struct hm_rotate *rt, const int *node_of);

/* The CPU slot @slot of started @rt is on at turn @turn. */
static inline int hm_rotate__cpu(const struct hm_rotate *rt, int slot, long turn)
{
	int f = rt->first[slot];

	return rt->cpu[f + (int)((slot - f + turn) % rt->size[slot])];
}

/* Thread @slot joins @rt (NULL, or off: its steps cost a decrement and a load). */
void hm_rotor__init(struct hm_rotor *ro, struct hm_rotate *rt, int slot);
void hm_rotor__check(struct hm_rotor *ro);
/* The calling thread is allowed every CPU of the set again, if it was pinned. */
void hm_rotor__release(struct hm_rotor *ro);

/* One step of the thread's work (a record): every few thousand, the clock. */
static inline void hm_rotor__step(struct hm_rotor *ro)
{
	if (__builtin_expect(--ro->left == 0, 0))
		hm_rotor__check(ro);
}

#endif
