// SPDX-License-Identifier: GPL-2.0-only
/*
 * Metric sets from files.  The samples come from the report's single pass
 * (report.c, through its on_sample hook), already classified and resolved,
 * so metrics, the report and the HTML page always count the same things.
 * Kept apart from metrics.c so the accumulator builds and tests without the
 * reader.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/symbols.h>
#include <hitmap/topo.h>
#include "metrics.h"
#include "counts.h"

struct hm_mscan {
	u32			top_lines;
	struct hm_macc		*acc;		/* made at the first sample */
	const struct hm_report	*r;		/* its maps and symbols name the lines */
};

static int resolve_cb(void *priv, u32 pid, u8 cpumode, u64 addr, struct hm_symbol_info *info)
{
	struct hm_mscan *s = priv;

	if (!s->r || !hm_report__symbols(s->r))
		return -ENOENT;
	return hm_symbols__resolve(hm_report__symbols(s->r), hm_report__maps(s->r), pid, cpumode, addr, info);
}

/* The accumulator needs the report's context, known once its header is set up. */
static int mscan_setup(struct hm_mscan *s, const struct hm_report *r)
{
	struct hm_macc_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.label = hm_report__input(r);
	ctx.futex = hm_report__futex(r)->nr_tables ? hm_report__futex(r) : NULL;
	ctx.meta = hm_report__meta(r);
	ctx.resolve = resolve_cb;
	ctx.resolve_priv = s;
	ctx.nr_sockets = hm_report__topo(r) ? hm_topo__nr_sockets(hm_report__topo(r)) : 0;
	ctx.nr_nodes = hm_report__topo(r) ? hm_topo__nr_nodes(hm_report__topo(r)) : 0;
	ctx.cacheline = hm_report__cacheline(r) ? hm_report__cacheline(r) : 64;
	ctx.top_lines = s->top_lines;
	s->r = r;
	s->acc = hm_macc__new(&ctx);
	return s->acc ? 0 : -ENOMEM;
}

static int on_sample(void *priv, const struct hm_report *r, const struct hm_mem_sample *ms)
{
	struct hm_mscan *s = priv;

	if (!s->acc) {
		int err = mscan_setup(s, r);

		if (err < 0)
			return err;
	}
	return hm_macc__add(s->acc, ms);
}

struct hm_mscan *hm_mscan__new(u32 top_lines)
{
	struct hm_mscan *s = calloc(1, sizeof(*s));

	if (s)
		s->top_lines = top_lines;
	return s;
}

int hm_mscan__attach(struct hm_mscan *s, struct hm_report *r)
{
	return hm_report__add_sink(r, on_sample, s);
}

struct hm_metrics *hm_mscan__finish(struct hm_mscan *s, const struct hm_report *r)
{
	if (!s->acc) {			/* a file without samples */
		int err = mscan_setup(s, r);

		if (err < 0) {
			errno = -err;
			return NULL;
		}
	}
	{
		struct hm_metrics *m = hm_macc__finish(s->acc, hm_report__lines(r));
		char note[256];

		if (m && hm_report__counting_note(r, note, sizeof(note)) > 0)
			m->counting_note = strdup(note);	/* NULL on failure: no note */
		return m;
	}
}

void hm_mscan__delete(struct hm_mscan *s)
{
	if (!s)
		return;
	hm_macc__delete(s->acc);
	free(s);
}

struct hm_metrics *hm_metrics__scan(const struct hm_report_opts *opts, u32 top_lines)
{
	struct hm_report_opts o = *opts;
	struct hm_metrics *m = NULL;
	struct hm_report *r = NULL;
	struct hm_mscan *s;
	int err;

	s = hm_mscan__new(top_lines);
	if (!s)
		return NULL;
	o.want_lines = true;		/* the shared lines are the report's */
	o.want_buckets = false;
	r = hm_report__new(&o);
	if (!r) {
		err = -errno;
		goto out;
	}
	err = hm_mscan__attach(s, r);
	if (err < 0)
		goto out;
	err = hm_report__run(r);
	if (err < 0)
		goto out;
	m = hm_mscan__finish(s, r);
	err = m ? 0 : -errno;
out:
	hm_mscan__delete(s);
	hm_report__delete(r);
	if (!m)
		errno = err ? -err : ENOMEM;
	return m;
}
