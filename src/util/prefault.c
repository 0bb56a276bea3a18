// SPDX-License-Identifier: GPL-2.0-only
/* Faulting in a writer's memory ahead of it on an idle thread (prefault.h). */
#include <stdint.h>
#include <string.h>
#include "util/bigalloc.h"
#include "util/prefault.h"

#define STEP		(2UL << 20)	/* a huge page a call: the writer catches up at most one */
#define PAGE_MASK_4K	((uintptr_t)4095)

void hm_prefault__init(struct hm_prefault *pf)
{
	memset(pf, 0, sizeof(*pf));
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->cond, NULL);
}

void hm_prefault__destroy(struct hm_prefault *pf)
{
	if (!pf)
		return;
	pthread_cond_destroy(&pf->cond);
	pthread_mutex_destroy(&pf->lock);
}

void hm_prefault__ahead(struct hm_prefault *pf, void *base, void *upto)
{
	char *u = (char *)((uintptr_t)upto & ~PAGE_MASK_4K);

	pthread_mutex_lock(&pf->lock);
	if (pf->base != base) {
		/* done belongs to its base: both change in one critical section */
		__atomic_store_n(&pf->base, (char *)base, __ATOMIC_RELEASE);
		__atomic_store_n(&pf->done, (char *)base, __ATOMIC_RELEASE);
		pf->want = base;
	}
	if (u > pf->want) {
		pf->want = u;
		/* woken a step at a time, not at every ask */
		if (pf->waiting && (size_t)(pf->want - pf->done) >= STEP)
			pthread_cond_signal(&pf->cond);
	}
	pthread_mutex_unlock(&pf->lock);
}

size_t hm_prefault__serve(struct hm_prefault *pf)
{
	size_t total = 0;

	pthread_mutex_lock(&pf->lock);
	for (;;) {
		char *b, *from, *to, *next;

		while (!pf->quit && pf->want <= pf->done) {
			pf->waiting = true;
			pthread_cond_wait(&pf->cond, &pf->lock);
			pf->waiting = false;
		}
		if (pf->quit)
			break;
		b = pf->base;
		from = pf->done;
		to = pf->want;
		/* to the next huge-page boundary at most */
		next = (char *)(((uintptr_t)from + STEP) & ~(uintptr_t)(STEP - 1));
		if (to > next)
			to = next;
		pthread_mutex_unlock(&pf->lock);
		/* best effort (a kernel before 5.14: the writer's touch faults them in) */
		hm_big__populate(from, (size_t)(to - from));
		total += (size_t)(to - from);
		pthread_mutex_lock(&pf->lock);
		if (pf->base == b && pf->done < to)
			__atomic_store_n(&pf->done, to, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&pf->lock);
	return total;
}

void hm_prefault__quit(struct hm_prefault *pf)
{
	pthread_mutex_lock(&pf->lock);
	pf->quit = true;
	pthread_cond_broadcast(&pf->cond);
	pthread_mutex_unlock(&pf->lock);
}
