/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_SCRIPT_THREADS_H
#define HITMAP_CLI_SCRIPT_THREADS_H

/*
 * hitmap script's thread names, kept from COMM, FORK and EXIT records as
 * perf's machine/thread code keeps them, so that each sample shows the comm
 * perf script shows:
 *   COMM   names the thread;
 *   FORK   drops a thread already known under the child's tid, and a
 *          "parent" whose pid is not the record's ppid, then gives the child
 *          its parent's name when the parent has one;
 *   EXIT   drops the thread when @exit_drops (perf 6.12 and later remove it,
 *          so that a later sample of that tid prints ":TID"; perf 6.1 only
 *          marks it dead and keeps its name).
 * Only threads with a name are stored: a thread perf knows without one
 * prints ":TID", as an unknown tid does.  Memory grows with the threads
 * alive at once, not with the samples.
 */
#include <stdbool.h>
#include <hitmap/perf_data.h>
#include "util/htab.h"

struct hm_script_thread {
	u32	tid, pid;
	u8	len;
	char	comm[16];
};

/* Zeroed: empty. */
struct hm_script_threads {
	struct hm_htab	tab;		/* tid -> struct hm_script_thread * */
	bool		exit_drops;
};

/* The thread @tid, or NULL when it has no name. */
const struct hm_script_thread *hm_script_threads__find(const struct hm_script_threads *t, u32 tid);
/* A COMM record's payload; 0 or -ENOMEM. */
int hm_script_threads__comm(struct hm_script_threads *t, u32 pid, u32 tid,
			    const char *comm, size_t max);
/* A FORK record; 0 or -ENOMEM. */
int hm_script_threads__fork(struct hm_script_threads *t, u32 pid, u32 ppid, u32 tid, u32 ptid);
/* An EXIT record. */
void hm_script_threads__exit(struct hm_script_threads *t, u32 tid);
void hm_script_threads__release(struct hm_script_threads *t);

#endif
