/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_RECORD_H
#define HITMAP_RECORD_RECORD_H

/* hitmap record: one recording session (events, target, drain, perf.data). */
#include <signal.h>
#include <stdbool.h>
#include <hitmap/perf_data.h>
#include "workload/futex_hash.h"
#include "record/pmu.h"

struct hm_record_opts {
	const char	*output;		/* "perf.data" */
	enum hm_rec_mode mode;
	int		ldlat;			/* -1: default 30 */
	u64		period;			/* 0: freq 4000 */
	bool		all_cpus;		/* -a */
	const char	*cpus;			/* -C LIST */
	bool		user_only, kernel_only;	/* -u, -k */
	bool		futex_syscalls;
	bool		futex_bpf;		/* pair futexes and buckets in BPF */
	const char	*bpf_obj;		/* NULL: hm_bpfpair__default_path() */
	int		mmap_pages;		/* per CPU, power of two; 0: 512 */
	char		**argv;			/* command, or NULL with workload */
	bool		workload;		/* --workload futex-hash */
	struct hm_futex_hash_opts wl;
	const char	*sysfs_root;		/* PMU detection; NULL: "/" */
	volatile sig_atomic_t *stop;		/* SIGINT/SIGTERM */
	int		argc_cmdline;		/* for the CMDLINE feature */
	char		**argv_cmdline;
	/* called in the workload child after the run (prints the results) */
	void		(*workload_done)(const struct hm_futex_hash *fh, void *ctx);
	void		*ctx;
};

#define HM_REC_MAX_SOCK 8

/* One contended futex bucket of the workload's table. */
struct hm_record_bucket {
	u64	index, addr;		/* bucket index and address */
	u64	events;			/* contention_begin on the bucket's lock (the report's count) */
	u64	wait_ns;		/* begin -> end, summed */
	bool	predicted;		/* index checked against the kernel's hash */
	u64	sock[HM_REC_MAX_SOCK];	/* events per socket of the contending CPU */
};

struct hm_record_result {
	enum hm_rec_mode mode;			/* what ran */
	char		mode_why[256];		/* why auto chose it */
	int		nr_cpus;
	u64		nr_samples;
	u64		nr_records;
	u64		lost, lost_samples;
	u64		bytes;
	u64		aux_records, aux_bytes;	/* Arm SPE: AUXTRACE records and their data */
	u64		aux_lost;		/* PERF_RECORD_AUX truncated or partial */
	int		child_status;		/* wait status of the command */
	int		exec_errno;		/* the command could not be run: execvp's errno */
	bool		interrupted;
	bool		not_written;		/* stopped while setting up: no file written */
	/* contention mode */
	u64		nr_begin, nr_end, nr_futex_sys;
	u64		nr_locks;		/* distinct contended lock addresses */
	u64		nr_buckets;		/* of those, futex buckets of the workload */
	u64		nr_buckets_attributed;	/* with table and index */
	u64		bucket_events;		/* contention_begin on those buckets */
	u64		table_base, table_slots;
	int		table_kind;		/* 0 global, 1 private, -1 none */
	int		table_pid;
	u64		nr_pairs;		/* uaddr -> bucket pairs stored */
	/* --futex-bpf */
	u64		bpf_seen, bpf_in_futex;	/* contention_begin seen, inside a futex call */
	u64		bpf_pairs, bpf_events;	/* distinct pairs, events they cover */
	u64		bpf_checked, bpf_agree;	/* workload pairs checked against the model */
	u64		bpf_not_bucket;		/* workload pairs whose lock is no bucket of the table */
	struct hm_record_bucket *buckets;	/* by events, descending */
	int		nr_rows;
	int		nr_sockets;
	/* workload */
	double		wl_avg, wl_rel_stddev;
	u64		wl_total_ops;
	double		wl_cpu_secs;		/* the workload process's CPU time */
	double		rec_cpu_secs;		/* the recorder's CPU time */
	int		wl_threads;
	/* live futex table discovery (futex-tables.c): tables added, one-line summary */
	int		futex_tables;
	char		futex_tables_sum[192];
};

/* Run the whole session.  0, or a negative errno with the reason logged. */
int hm_record__run(const struct hm_record_opts *o, struct hm_record_result *res);
/* Free what run allocated in @r (the bucket rows). */
void hm_record_result__release(struct hm_record_result *r);

#endif
