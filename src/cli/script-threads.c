// SPDX-License-Identifier: GPL-2.0-only
/* hitmap script: thread names by tid (script-threads.h), in the project's hash table. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "script-threads.h"

static struct hm_script_thread *thread__lookup(const struct hm_script_threads *t, u32 tid)
{
	const uint64_t *v = hm_htab__find(&t->tab, tid);

	return v ? (struct hm_script_thread *)(uintptr_t)*v : NULL;
}

const struct hm_script_thread *hm_script_threads__find(const struct hm_script_threads *t, u32 tid)
{
	return thread__lookup(t, tid);
}

/* The entry of @tid, created (pid @pid, no name) when absent; NULL on ENOMEM. */
static struct hm_script_thread *threads__findnew(struct hm_script_threads *t, u32 pid, u32 tid)
{
	struct hm_script_thread *e = thread__lookup(t, tid);
	uint64_t *v;

	if (e)
		return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	v = hm_htab__insert(&t->tab, tid, NULL);
	if (!v) {
		free(e);
		return NULL;
	}
	e->tid = tid;
	e->pid = pid;
	*v = (uint64_t)(uintptr_t)e;
	return e;
}

static void threads__remove(struct hm_script_threads *t, u32 tid)
{
	struct hm_script_thread *e = thread__lookup(t, tid);

	if (!e)
		return;
	hm_htab__del(&t->tab, tid);
	free(e);
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
	uint64_t v;

	for (uint32_t it = 0; hm_htab__next(&t->tab, &it, NULL, &v); )
		free((void *)(uintptr_t)v);
	hm_htab__fini(&t->tab);
}
