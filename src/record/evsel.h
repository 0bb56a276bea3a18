/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_EVSEL_H
#define HITMAP_RECORD_EVSEL_H

/*
 * A small perf_event layer on the kernel UAPI header (libperf is not
 * packaged): one event opened on a list of CPUs, optionally for one task
 * (inherit), in a group behind a leader.
 */
#include <stdbool.h>
#include <sys/types.h>
#include <hitmap/perf_data.h>

struct hm_pevsel {
	struct perf_event_attr	attr;
	char			name[96];
	int			leader;		/* index of the group leader, -1: none/self */
	int			nr_cpus;
	int			*fd;		/* [nr_cpus], -1 when not open */
	char			pmu_cpus[256];	/* hybrid PMUs: the CPUs it counts on ("" all) */
	u64			*id;		/* [nr_cpus] */
};

int hm_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		       unsigned long flags);

/* The attr's defaults every recording shares (size, sample_id_all, ...). */
void hm_pevsel__init(struct hm_pevsel *e, u32 type, u64 config, const char *name);
/*
 * Open on each of @cpus (pid @pid, -1 for all tasks).  @leader (may be NULL)
 * gives the group fds per CPU.  Returns 0 or a negative errno; the message
 * names the event, the CPU and the fix.
 */
int hm_pevsel__open(struct hm_pevsel *e, const int *cpus, int nr_cpus, pid_t pid,
		    const struct hm_pevsel *leader);
void hm_pevsel__close(struct hm_pevsel *e);
int hm_pevsel__enable(struct hm_pevsel *e);
int hm_pevsel__disable(struct hm_pevsel *e);

/* A one-line explanation and fix for an open errno (paranoid, caps, PMU). */
const char *hm_pevsel__strerror(int err, const struct perf_event_attr *attr, char *buf, size_t size);

/* /proc/sys/kernel/perf_event_paranoid, or 2 when unreadable. */
int hm_perf__paranoid(void);

#endif
