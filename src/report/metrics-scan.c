// SPDX-License-Identifier: GPL-2.0-only
/*
 * Metric sets from files: one streaming pass with the context of a report
 * (topology, futex model, vendor, metadata), classifying each sample the way
 * report.c does, into the metrics accumulator.  Kept apart from metrics.c so
 * the accumulator builds and tests without the reader.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/progress.h>
#include <hitmap/symbols.h>
#include <hitmap/topo.h>
#include "metrics.h"

struct resolver {
	struct hm_symbols	*syms;
	struct hm_maps		*maps;
};

static int resolve_cb(void *priv, u32 pid, u8 cpumode, u64 addr, struct hm_symbol_info *info)
{
	struct resolver *rs = priv;

	if (!rs->syms)
		return -ENOENT;
	return hm_symbols__resolve(rs->syms, rs->maps, pid, cpumode, addr, info);
}

static struct hm_metrics *scan_with(const struct hm_report *r, const char *path, u32 top_lines)
{
	struct hm_reader_opts ro = { .ordered = false, .all_records = true };
	struct hm_symbols_opts so;
	struct hm_macc_ctx ctx;
	struct resolver rs = { 0 };
	struct hm_reader *rd;
	const struct hm_header *h;
	struct hm_progress *pg = NULL;
	struct hm_macc *a = NULL;
	struct hm_metrics *m = NULL;
	struct hm_event ev;
	char label[300];
	u64 nr = 0;
	int err;

	rd = hm_reader__new(path, &ro);
	if (!rd)
		return NULL;
	h = hm_reader__header(rd);
	rs.maps = hm_maps__new();
	if (!rs.maps)
		goto out;
	hm_maps__set_build_ids(rs.maps, h);
	memset(&so, 0, sizeof(so));
	so.kallsyms = r->opts.kallsyms;
	so.symfs = r->opts.symfs;
	so.no_source = r->opts.no_source;
	if (r->meta)
		so.ksyms_text = hm_meta__find(r->meta, HM_META_KSYMS, &so.ksyms_len);
	rs.syms = hm_symbols__new(&so);

	memset(&ctx, 0, sizeof(ctx));
	ctx.label = path;
	ctx.futex = r->futex.nr_tables ? &r->futex : NULL;
	ctx.meta = r->meta;
	ctx.resolve = resolve_cb;
	ctx.resolve_priv = &rs;
	ctx.nr_sockets = r->topo ? hm_topo__nr_sockets(r->topo) : 0;
	ctx.nr_nodes = r->topo ? hm_topo__nr_nodes(r->topo) : 0;
	ctx.cacheline = r->opts.cacheline_size;
	ctx.top_lines = top_lines;
	a = hm_macc__new(&ctx);
	if (!a)
		goto out;
	snprintf(label, sizeof(label), "hitmap: reading %s", path);
	if (!h->pipe)
		pg = hm_progress__new(label, h->data_size);

	while ((err = hm_reader__next(rd, &ev)) > 0) {
		const struct hm_sample *s = &ev.sample;
		struct hm_mem_sample ms;
		u8 cpumode;

		if ((++nr & 4095) == 0)
			hm_progress__update(pg, ev.file_offset > h->data_offset ?
					    ev.file_offset - h->data_offset : 0);
		if (ev.type != PERF_RECORD_SAMPLE) {
			hm_maps__process(rs.maps, &ev);
			continue;
		}
		if (!ev.has_sample)
			continue;
		cpumode = s->misc & 7;
		memset(&ms, 0, sizeof(ms));
		ms.s = s;
		ms.mapped = hm_maps__find(rs.maps, s->pid, cpumode, s->addr) &&
			    hm_maps__find_ip(rs.maps, s->pid, s->ip);
		hm_mem__classify(r->vendor, s->data_src, s->addr, &ms.cls);
		if ((s->sample_type & PERF_SAMPLE_CPU) && r->topo) {
			ms.cpu_socket = hm_topo__cpu_socket(r->topo, s->cpu);
			ms.cpu_node = hm_topo__cpu_node(r->topo, s->cpu);
		} else {
			ms.cpu_socket = ms.cpu_node = -1;
		}
		ms.data_node = s->phys_addr && r->topo ? hm_topo__phys_node(r->topo, s->phys_addr) : -1;
		ms.line = s->addr & ~(u64)(r->opts.cacheline_size - 1);
		if (r->futex.nr_tables)
			hm_futex_model__resolve(&r->futex, s->addr, &ms.futex);
		err = hm_macc__add(a, &ms);
		if (err < 0)
			break;
	}
	hm_progress__update(pg, h->data_size);
	hm_progress__delete(pg);
	if (err < 0) {
		errno = -err;
		goto out;
	}
	m = hm_macc__finish(a);
out:
	hm_macc__delete(a);
	hm_symbols__delete(rs.syms);
	hm_maps__delete(rs.maps);
	hm_reader__delete(rd);
	return m;
}

struct hm_metrics *hm_metrics__from_report(const struct hm_report *r)
{
	return scan_with(r, r->opts.input, 0);
}

struct hm_metrics *hm_metrics__scan(const struct hm_report_opts *opts, u32 top_lines)
{
	struct hm_report_opts ro = *opts;
	struct hm_report *r;
	struct hm_metrics *m = NULL;
	int err;

	/* the report's pass sets up topology, futex tables and metadata as report does */
	ro.want_lines = false;
	ro.want_buckets = false;
	r = hm_report__new(&ro);
	if (!r)
		return NULL;
	err = hm_report__run(r);
	if (err < 0) {
		hm_report__delete(r);
		errno = -err;
		return NULL;
	}
	m = scan_with(r, opts->input, top_lines);
	if (m && memcmp(&m->c2c, &r->c2c, sizeof(m->c2c)))
		hm_warn("%s: the metric pass counted other perf-c2c totals than the report pass",
			opts->input);
	hm_report__delete(r);
	return m;
}

int hm_html__render_report(const struct hm_report *r, FILE *f)
{
	struct hm_metrics *m = hm_metrics__from_report(r);
	int err;

	if (!m)
		return errno ? -errno : -ENOMEM;
	err = hm_html__render_metrics(m, f);
	hm_metrics__delete(m);
	return err;
}
