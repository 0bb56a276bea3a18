// SPDX-License-Identifier: GPL-2.0-only
/*
 * What views and hooks may know of a report (include/hitmap/report.h).
 * Apart from report.c so that the views that read these (buckets.c,
 * buckets-render.c, metrics-scan.c) and report.c, which feeds them, do not
 * call each other in a loop.
 */
#include "report.h"

const struct hm_futex_model *hm_report__futex(const struct hm_report *r)
{
	return r ? &r->futex : NULL;
}

struct hm_symbols *hm_report__symbols(const struct hm_report *r)
{
	return r ? r->syms : NULL;
}

struct hm_maps *hm_report__maps(const struct hm_report *r)
{
	return r ? r->maps : NULL;
}

const struct hm_topo *hm_report__topo(const struct hm_report *r)
{
	return r ? r->topo : NULL;
}

const struct hm_meta *hm_report__meta(const struct hm_report *r)
{
	return r ? r->meta : NULL;
}

const char *hm_report__input(const struct hm_report *r)
{
	return r ? r->opts.input : NULL;
}

u32 hm_report__cacheline(const struct hm_report *r)
{
	return r ? r->opts.cacheline_size : 64;
}

struct hm_buckets *hm_report__buckets(const struct hm_report *r)
{
	return r ? r->buckets : NULL;
}

const struct hm_reader *hm_report__reader(const struct hm_report *r)
{
	return r ? r->reader : NULL;
}

struct hm_lines *hm_report__lines(const struct hm_report *r)
{
	return r ? r->lines : NULL;
}
