// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap script: thread names by tid (script-threads.h), an open-addressing
 * table with linear probing; removal shifts the following entries back, so
 * no tombstones pile up when threads come and go.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "script-threads.h"

static inline u32 slot_of(u32 tid, u32 cap)
{
	return (tid * 2654435761u) & (cap - 1);
}

static struct hm_script_thread *thread__lookup(const struct hm_script_threads *t, u32 tid)
{
	u32 i;

	if (!t->cap)
		return NULL;
	for (i = slot_of(tid, t->cap); t->e[i].used; i = (i + 1) & (t->cap - 1))
		if (t->e[i].tid == tid)
			return &t->e[i];
	return NULL;
}

const struct hm_script_thread *hm_script_threads__find(const struct hm_script_threads *t, u32 tid)
{
	return thread__lookup(t, tid);
}

static int threads__grow(struct hm_script_threads *t)
{
	u32 ncap = t->cap ? t->cap * 2 : 1024;
	struct hm_script_thread *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (u32 j = 0; j < t->cap; j++) {
		u32 i;

		if (!t->e[j].used)
			continue;
		for (i = slot_of(t->e[j].tid, ncap); n[i].used; i = (i + 1) & (ncap - 1))
			;
		n[i] = t->e[j];
	}
	free(t->e);
	t->e = n;
	t->cap = ncap;
	return 0;
}

/* The entry of @tid, created (pid @pid, no name) when absent; NULL on ENOMEM. */
static struct hm_script_thread *threads__findnew(struct hm_script_threads *t, u32 pid, u32 tid)
{
	struct hm_script_thread *e = thread__lookup(t, tid);
	u32 i;

	if (e)
		return e;
	if ((t->nr + 1) * 2 > t->cap && threads__grow(t) < 0)
		return NULL;
	for (i = slot_of(tid, t->cap); t->e[i].used; i = (i + 1) & (t->cap - 1))
		;
	e = &t->e[i];
	memset(e, 0, sizeof(*e));
	e->used = true;
	e->tid = tid;
	e->pid = pid;
	t->nr++;
	return e;
}

static void threads__remove(struct hm_script_threads *t, u32 tid)
{
	struct hm_script_thread *e = thread__lookup(t, tid);
	u32 mask = t->cap - 1, hole, i;

	if (!e)
		return;
	hole = (u32)(e - t->e);
	t->e[hole].used = false;
	t->nr--;
	/* shift back every entry of the run after the hole that may move there */
	for (i = (hole + 1) & mask; t->e[i].used; i = (i + 1) & mask) {
		u32 home = slot_of(t->e[i].tid, t->cap);

		if (((i - home) & mask) >= ((i - hole) & mask)) {
			t->e[hole] = t->e[i];
			t->e[i].used = false;
			hole = i;
		}
	}
}

static void thread__set_comm(struct hm_script_thread *e, const char *s, size_t max)
{
	size_t n = strnlen(s, max < 15 ? max : 15);

	memcpy(e->comm, s, n);
	e->comm[n] = 0;
	e->len = (u8)n;
}

int hm_script_threads__comm(struct hm_script_threads *t, u32 pid, u32 tid,
			    const char *comm, size_t max)
{
	struct hm_script_thread *e = threads__findnew(t, pid, tid);

	if (!e)
		return -ENOMEM;
	thread__set_comm(e, comm, max);
	return 0;
}

int hm_script_threads__fork(struct hm_script_threads *t, u32 pid, u32 ppid, u32 tid, u32 ptid)
{
	const struct hm_script_thread *p = thread__lookup(t, ptid);
	struct hm_script_thread *e;
	char comm[16];
	u8 len = 0;

	/* perf: a "parent" of another process is a stale thread: dropped */
	if (p && p->pid != ppid) {
		threads__remove(t, ptid);
		p = NULL;
	}
	if (p) {
		len = p->len;
		memcpy(comm, p->comm, sizeof(comm));
	}
	/* perf: a thread already known under the child's tid is dropped */
	threads__remove(t, tid);
	if (!p)
		return 0;
	e = threads__findnew(t, pid, tid);
	if (!e)
		return -ENOMEM;
	thread__set_comm(e, comm, len);
	return 0;
}

void hm_script_threads__exit(struct hm_script_threads *t, u32 tid)
{
	if (t->exit_drops)
		threads__remove(t, tid);
}

void hm_script_threads__release(struct hm_script_threads *t)
{
	free(t->e);
	t->e = NULL;
	t->cap = t->nr = 0;
}
