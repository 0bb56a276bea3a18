/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_CONTENTION_H
#define HITMAP_RECORD_CONTENTION_H

/*
 * Contention mode: lock:contention_begin/end (and optionally
 * syscalls:sys_enter_futex), ids and field offsets from tracefs through
 * libtracefs/libtraceevent; the TRACING_DATA blob perf needs to decode them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <hitmap/perf_data.h>

struct hm_tp_field {
	int	offset, size;	/* -1 when missing */
};

struct hm_tp {
	const char	*sys, *name;
	int		id;
	struct hm_tp_field f1, f2;	/* begin/end: lock_addr, flags|ret; futex: uaddr, op */
};

enum { HM_TP_BEGIN, HM_TP_END, HM_TP_FUTEX, HM_TP__MAX };

struct hm_contention {
	char		tracing_dir[256];
	int		nr_tps;
	struct hm_tp	tp[HM_TP__MAX];
};

/*
 * Find tracefs (mounting it when root and unmounted) and the tracepoints.
 * Returns 0 or a negative errno; the message names the fix (mount command,
 * missing CONFIG_LOCK_EVENTS-style tracepoints, permissions).
 */
int hm_contention__init(struct hm_contention *c, bool futex_syscalls);

/*
 * Build perf's TRACING_DATA feature body (version 0.6) for the tracepoints
 * of @c: header_page, header_event, the event formats, printk formats and
 * saved_cmdlines.  *buf is malloc'ed.
 */
int hm_contention__tracing_data(const struct hm_contention *c, void **buf, size_t *size);

#endif
