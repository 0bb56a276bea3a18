// SPDX-License-Identifier: GPL-2.0-only
/*
 * Metric sets from files: after the report's single pass, the metric set
 * reads the report's one aggregation (totals, places.c's sockets and nodes,
 * buckets.c's futex buckets, lines.c's cache lines), the same data the
 * text, JSON and CSV views read, so metrics, the report and the HTML page
 * always show the same numbers.  Kept apart from metrics.c so the metric
 * set builds and tests without the reader.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/symbols.h>
#include "metrics.h"
#include "counts.h"

static int resolve_cb(void *priv, u32 pid, u8 cpumode, u64 addr, struct hm_symbol_info *info)
{
	const struct hm_report *r = priv;

	if (!hm_report__symbols(r))
		return -ENOENT;
	return hm_symbols__resolve(hm_report__symbols(r), hm_report__maps(r), pid, cpumode, addr, info);
}

void hm_metrics__want(struct hm_report_opts *opts)
{
	opts->want_lines = true;	/* the shared lines */
	opts->want_buckets = true;	/* the futex buckets */
}

struct hm_metrics *hm_metrics__from_report(const struct hm_report *r, u32 top_lines)
{
	struct hm_metrics_ctx ctx;
	struct hm_magg agg;
	struct hm_metrics *m;
	char note[256];

	memset(&ctx, 0, sizeof(ctx));
	ctx.label = hm_report__input(r);
	ctx.futex = hm_report__futex(r)->nr_tables ? hm_report__futex(r) : NULL;
	ctx.meta = hm_report__meta(r);
	ctx.resolve = resolve_cb;
	ctx.resolve_priv = (void *)r;
	ctx.top_lines = top_lines;
	memset(&agg, 0, sizeof(agg));
	agg.nr_samples = hm_report__nr_samples(r);
	agg.c2c = *hm_report__c2c(r);
	agg.cats = *hm_report__cats(r);
	agg.places = hm_report__places(r);
	agg.buckets = hm_report__buckets(r);
	agg.lines = hm_report__lines(r);
	m = hm_metrics__build(&ctx, &agg);
	if (m && hm_report__counting_note(r, note, sizeof(note)) > 0)
		m->counting_note = strdup(note);	/* NULL on failure: no note */
	if (m && hm_report__futex(r)->geometry[0])
		m->futex_tables = strdup(hm_report__futex(r)->geometry);	/* NULL: no reason to give */
	return m;
}

struct hm_metrics *hm_metrics__scan(const struct hm_report_opts *opts, u32 top_lines)
{
	struct hm_report_opts o = *opts;
	struct hm_metrics *m = NULL;
	struct hm_report *r;
	int err;

	hm_metrics__want(&o);
	r = hm_report__new(&o);
	if (!r)
		return NULL;
	err = hm_report__run(r);
	if (err >= 0) {
		m = hm_metrics__from_report(r, top_lines);
		err = m ? 0 : -errno;
	}
	hm_report__delete(r);
	if (!m)
		errno = err ? -err : ENOMEM;
	return m;
}
