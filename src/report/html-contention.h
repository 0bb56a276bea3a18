/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_HTML_CONTENTION_H
#define HITMAP_REPORT_HTML_CONTENTION_H

/*
 * The report page's contention view (contention mode: lock:contention_begin
 * and _end tracepoints): waits per bucket, per socket and per caller, with
 * the numbers and column names of 'hitmap report --by bucket|socket'.
 */
#include <stdio.h>
#include "report.h"
#include "metrics.h"

/*
 * The section (an HTML fragment, malloc'ed; "" when the report has no
 * contention events or ran without the futex views), or NULL with errno
 * ENOMEM.  At most @max_rows buckets (0: 500), the most contended first.
 */
char *hm_html_contention__section(const struct hm_report *r, unsigned max_rows);

/*
 * The section for the page of @r (its metrics @m): from @r when it ran with
 * the futex views; else, when the file recorded lock:contention_begin, from
 * a pass of its own over the file of @opts with them (not for a pipe, "-";
 * the page's own pass leaves the futex views out, their table inference
 * would change its heat map).  "" when there is no contention to show; NULL
 * with errno on failure (the pass's error).
 */
char *hm_html_contention__page_section(const struct hm_report *r, const struct hm_metrics *m,
					const struct hm_report_opts *opts);

/* html.c: the report page with @extra, an HTML fragment, at the end of its main part. */
int hm_html__render_metrics_extra(const struct hm_metrics *m, const char *extra, FILE *f);

#endif
