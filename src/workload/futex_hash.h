/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_WORKLOAD_FUTEX_HASH_H
#define HITMAP_WORKLOAD_FUTEX_HASH_H

/*
 * The futex hash workload, faithful to tools/perf/bench/futex-hash.c
 * (notes/futex.md section 3): per-thread calloc'ed arrays of u32 futexes
 * allocated in order by the creating thread, thread i pinned to CPU i mod N,
 * a condition-variable start barrier, FUTEX_WAIT(|PRIVATE) with val 1234
 * that always fails with EAGAIN, integer-second division, per-thread mean and
 * standard error of the mean.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum hm_placement {
	HM_PLACE_PERF,		/* perf's: thread i on online CPU i mod N */
	HM_PLACE_SPREAD,	/* round-robin over sockets */
	HM_PLACE_COMPACT,	/* fill one socket before the next */
};

/*
 * Bounds on -t and -f. perf takes any unsigned int, and its worker finishes a
 * whole pass over its futexes before it looks at the stop flag. So a huge -f
 * ignores -r and SIGTERM for minutes and allocates gigabytes. 2^24 futexes
 * (64 MiB per thread) is far more than the largest futex hash (2^21 buckets
 * at 8192 CPUs). hm_futex_hash__new() also refuses a run whose futex arrays
 * would take more than half of physical memory.
 */
#define HM_FUTEX_HASH_MAX_THREADS	65536
#define HM_FUTEX_HASH_MAX_FUTEXES	(1 << 24)

struct hm_futex_hash_opts {
	int	threads;	/* 0: number of (selected) CPUs */
	int	futexes;	/* per thread; 1024 */
	int	runtime;	/* seconds; 10 */
	bool	shared;		/* -S: no FUTEX_PRIVATE_FLAG */
	bool	mlockall;	/* -m */
	long	buckets;	/* -b: PR_FUTEX_HASH SET_SLOTS; -1: leave alone */
	const char *cpus;	/* --cpus LIST; NULL: online CPUs */
	enum hm_placement placement;
	const char *sysfs_root;	/* for the socket topology; NULL: "/" */
	/* Set asynchronously (signal handler) to end the run early. */
	volatile sig_atomic_t *stop;
};

void hm_futex_hash_opts__init(struct hm_futex_hash_opts *o);

struct hm_futex_hash_thread {
	int		cpu;		/* pinned CPU */
	uint32_t	*futex;		/* futexes[0] */
	uint64_t	ops;
	uint64_t	ops_per_sec;
};

struct hm_futex_hash {
	struct hm_futex_hash_opts opts;
	int		nr_threads;
	struct hm_futex_hash_thread *thr;
	int		pid;
	long		slots_before;	/* GET_SLOTS before threads existed */
	long		slots;		/* GET_SLOTS after the run (0: global hash) */
	int		secs;		/* integer runtime, as perf divides */
	double		elapsed;	/* exact runtime in seconds */
	double		avg;		/* per-thread mean ops/sec */
	double		rel_stddev;	/* percent */
	uint64_t	total_ops;
	double		cpu_secs;	/* user+system time of the process during the run */
	bool		ran;
	/* private */
	void		*priv;
};

/* Validate options and pick CPUs; allocates nothing but the thread table. */
struct hm_futex_hash *hm_futex_hash__new(const struct hm_futex_hash_opts *o);
/*
 * Allocate the futexes, start pinned threads, run for opts.runtime seconds
 * (or until *opts.stop), join, compute the statistics.  Returns 0 or a
 * negative errno (message in hm_log__last_error()).
 */
int hm_futex_hash__run(struct hm_futex_hash *fh);
void hm_futex_hash__delete(struct hm_futex_hash *fh);

/* perf's output: summary line, per-thread lines, "Averaged ..." line. */
void hm_futex_hash__print_header(const struct hm_futex_hash *fh, FILE *f);
void hm_futex_hash__print_result(const struct hm_futex_hash *fh, FILE *f, bool silent);
void hm_futex_hash__print_json(const struct hm_futex_hash *fh, FILE *f);
/* The JSON object as a malloc'ed string (for HM_META_WORKLOAD). */
char *hm_futex_hash__json_string(const struct hm_futex_hash *fh);

#endif
