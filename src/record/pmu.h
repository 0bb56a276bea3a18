/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_PMU_H
#define HITMAP_RECORD_PMU_H

/*
 * PMU detection and event planning from sysfs
 * (<root>/sys/bus/event_source/devices/<pmu>/{type,events,format,caps}),
 * building the attrs perf 6.1's 'perf c2c record' builds on that machine
 * (notes/pmu-sysfs.md sections 5-7).
 */
#include <stdbool.h>
#include <hitmap/perf_data.h>

enum hm_rec_mode {
	HM_MODE_AUTO, HM_MODE_PEBS, HM_MODE_IBS, HM_MODE_SPE, HM_MODE_CONTENTION,
};
const char *hm_rec_mode__name(enum hm_rec_mode m);
int hm_rec_mode__parse(const char *s, enum hm_rec_mode *m);

#define HM_PLAN_MAX 12

struct hm_plan_event {
	struct perf_event_attr	attr;
	char		name[96];	/* perf's name: "cpu/mem-loads,ldlat=30/P" */
	char		pmu[32];
	int		leader;		/* index in the plan of the group leader, -1 */
	bool		precise_max;	/* retry with precise_ip - 1 on open errors */
	int		expect_precise;	/* what the kernel is expected to accept (s5.4) */
	bool		tracking;	/* carries mmap/comm/task */
	char		cpus[256];	/* hybrid PMU's cpus file ("" every CPU) */
};

struct hm_pmu_plan {
	enum hm_rec_mode	mode;
	int			nr;
	struct hm_plan_event	ev[HM_PLAN_MAX];
	char			desc[160];	/* "Intel sapphire_rapids: cpu mem-loads-aux group + mem-stores" */
	char			why[256];	/* when nr == 0: what is missing */
	/* Arm SPE: what AUXTRACE_INFO (metadata v2) and the AUX ring need */
	u64			spe_midr;	/* cpu0's MIDR_EL1; 0: unknown */
	u64			spe_ev_filter;	/* caps/event_filter; 0: not exported */
	u32			spe_min_interval; /* caps/min_interval */
	u32			aux_bytes;	/* AUX ring per CPU (perf: 4 MiB as root) */
};

struct hm_pmu_plan_opts {
	const char	*sysfs_root;	/* NULL: "" (the live /sys) */
	enum hm_rec_mode mode;		/* AUTO: best available; CONTENTION: nr = 0 */
	int		ldlat;		/* -1: 30 */
	u64		period;		/* 0: freq 4000 */
	bool		system_wide;	/* -a / -C: dummy, IDENTIFIER, no enable_on_exec */
	bool		user_only, kernel_only;
};

/*
 * Plan the memory-sampling events for this machine (or the sysfs tree under
 * opts->sysfs_root).  Returns 0 with plan->nr events, or 0 with nr == 0 and
 * plan->why when the machine has no usable PMU for the mode; a negative
 * errno for impossible requests (message logged).
 */
int hm_pmu__plan(const struct hm_pmu_plan_opts *o, struct hm_pmu_plan *plan);

#endif
