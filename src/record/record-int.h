/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_RECORD_INT_H
#define HITMAP_RECORD_RECORD_INT_H

/*
 * Private to hitmap record: src/record/record*.c.  record.c runs the session
 * (events, rings, target, main loop) over record-futex.c (contention
 * accounting and futex attribution), record-synth.c (records synthesized
 * from /proc) and record-header.c (header features, DSOs for BUILD_ID).
 */
#include <signal.h>
#include <sys/types.h>
#include <hitmap/futex.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include "futex-tables.h"
#include "record/bpfpair.h"
#include "record/contention.h"
#include "record/evsel.h"
#include "record/mmap.h"
#include "record/aux-rec.h"
#include "record/record.h"

#ifndef HITMAP_VERSION
#define HITMAP_VERSION "0.1"
#endif

#define MAX_EV		(HM_PLAN_MAX + 4)

/* ---- small hash sets (record-futex.c) */

struct lockent {
	u64	addr;		/* 0: empty */
	u64	count;		/* contention_begin events */
	u64	wl_count;	/* of those, from the workload process */
};

struct pairent {
	u64	uaddr, hb;	/* uaddr 0: empty */
};

struct tident {
	u32	tid;		/* 0: empty */
	u64	uaddr;		/* last sys_enter_futex uaddr */
};

struct lockset { struct lockent *e; size_t cap, nr; };
struct pairset { struct pairent *e; size_t cap, nr; };
struct tidset { struct tident *e; size_t cap, nr; };

/* ---- the session */

struct wl_shared {
	int	done;
	int	pid;
	long	slots;
	double	avg, rel_stddev, cpu_secs;
	u64	total_ops;
	int	nr_threads, futexes;
	u64	base[];		/* futex[0] of each thread */
};

struct hm_rec_session {
	const struct hm_record_opts *o;
	struct hm_record_result *res;
	struct hm_writer	*w;
	struct hm_pevsel	ev[MAX_EV];
	int			nr_ev;
	int			ev_begin, ev_end, ev_futex;	/* -1 when absent */
	int			*cpus, nr_cpus;
	struct hm_ring		*ring;
	struct hm_contention	ct;
	pid_t			child;
	int			go_fd;
	int			exec_fd;	/* the command's exec errno, if exec failed */
	bool			child_done;
	struct wl_shared	*wl;
	size_t			wl_len;
	struct hm_futex_hash	*fh;
	struct lockset		locks;
	struct pairset		pairs;
	struct tidset		tids;
	u64			time_first, time_last;
	bool			wrote_since_round;
	int			*cpu_sock;	/* CPU -> socket, [8192] */
	struct hm_bpfpair	*bpf;
	struct hm_bpf_pair	*bpf_pairs;
	size_t			nr_bpf_pairs;
	char			**dsos;		/* mapped executable files, for BUILD_ID */
	int			nr_dsos, cap_dsos;
	struct hm_rec_futex	*ftab;		/* live futex table discovery (futex-tables.c) */
	struct hm_rec_aux	*aux;		/* Arm SPE AUX areas (aux-rec.c) */
	struct hm_evsel		dec[MAX_EV];	/* ev[] for the sample decoder (record-futex.c) */
	bool			dec_ready[MAX_EV];
};

/* ---- record-futex.c */
/* Count one record of the ring: samples, contention per lock, waits, futex pairs. */
void hm_rec__account(struct hm_rec_session *s, const struct perf_event_header *h);
/* Attribute the contended locks to futex hash buckets, into s->res and @meta. */
void hm_rec__attribute(struct hm_rec_session *s, struct hm_meta *meta);
/*
 * The contended buckets of res (rows, bucket_events) from the written file
 * @path, by the report's pass and futex aggregation (record-summary.c), so
 * they are 'hitmap report --by bucket''s numbers.  0 or a negative errno.
 */
int  hm_rec__summarize(const char *path, struct hm_record_result *res);

/* ---- record-synth.c: MMAP2 and COMM records from /proc */
void hm_rec__synth_kernel(struct hm_rec_session *s);
void hm_rec__synth_task(struct hm_rec_session *s, pid_t pid, bool data_maps);
void hm_rec__synth_all(struct hm_rec_session *s, bool data_maps);

/* SIGINT/SIGTERM asked the run to end (checked between and inside set-up steps) */
static inline bool hm_rec__stopped(const struct hm_rec_session *s)
{
	return s->o->stop && *s->o->stop;
}

/* ---- record-header.c */
/* Note an executable mapping of @name (for BUILD_ID). */
void hm_rec__add_dso(struct hm_rec_session *s, const char *name);
/* The header features of this machine and session, hitmap's metadata @meta in it. */
void hm_rec__fill_header(struct hm_rec_session *s, struct hm_header *h, struct hm_meta *meta);

#endif
