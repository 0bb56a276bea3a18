/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_TUI_H
#define HITMAP_REPORT_TUI_H

/*
 * hitmap report --tui: an interactive browser (ncurses) over a report that
 * has run with want_lines and want_buckets: the shared cache-line table,
 * a line's offsets and code addresses, their source, the bucket, field and
 * socket views.  Like the other renderers it only reads the aggregates.
 */
#include <stdbool.h>
#include "report.h"

struct hm_tui_opts {
	enum hm_sort	sort;		/* initial sort key (-d) */
	bool		show_all;	/* --show-all: no 0.1% display filter */
	const char	*symfs;		/* prefix for source files, or NULL */
	double		t_ready;	/* CLOCK_MONOTONIC seconds when the pass ended, 0: unknown */
	double		t_ready_cpu;	/* CLOCK_THREAD_CPUTIME_ID seconds then (this thread) */
};

/*
 * Run the browser on the terminal until the user quits.  Returns 0, or a
 * negative errno (-ENOTTY when stdin/stdout are not a terminal, -ENOMEM).
 */
int hm_tui__run(struct hm_report *r, const struct hm_tui_opts *o);

#endif
