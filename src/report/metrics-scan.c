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

/* What a pass needs besides the reader: a finished report's, or our own. */
struct scan_ctx {
	const struct hm_report_opts	*opts;
	const struct hm_topo		*topo;
	const struct hm_futex_model	*futex;
	const struct hm_meta		*meta;
	enum hm_vendor			vendor;
};

static struct hm_metrics *scan_core(struct hm_reader *rd, const char *path,
				    const struct scan_ctx *r, u32 top_lines)
{
	struct hm_symbols_opts so;
	struct hm_macc_ctx ctx;
	struct resolver rs = { 0 };
	const struct hm_header *h;
	struct hm_progress *pg = NULL;
	struct hm_macc *a = NULL;
	struct hm_metrics *m = NULL;
	struct hm_event ev;
	char label[300];
	u32 cl = r->opts->cacheline_size ? r->opts->cacheline_size : 64;
	u64 nr = 0;
	int err = 0;

	h = hm_reader__header(rd);
	rs.maps = hm_maps__new();
	if (!rs.maps)
		goto out;
	hm_maps__set_build_ids(rs.maps, h);
	memset(&so, 0, sizeof(so));
	so.kallsyms = r->opts->kallsyms;
	so.symfs = r->opts->symfs;
	so.no_source = r->opts->no_source;
	if (r->meta)
		so.ksyms_text = hm_meta__find(r->meta, HM_META_KSYMS, &so.ksyms_len);
	rs.syms = hm_symbols__new(&so);

	memset(&ctx, 0, sizeof(ctx));
	ctx.label = path;
	ctx.futex = r->futex && r->futex->nr_tables ? r->futex : NULL;
	ctx.meta = r->meta;
	ctx.resolve = resolve_cb;
	ctx.resolve_priv = &rs;
	ctx.nr_sockets = r->topo ? hm_topo__nr_sockets(r->topo) : 0;
	ctx.nr_nodes = r->topo ? hm_topo__nr_nodes(r->topo) : 0;
	ctx.cacheline = cl;
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
		ms.line = s->addr & ~(u64)(cl - 1);
		if (ctx.futex)
			hm_futex_model__resolve(ctx.futex, s->addr, &ms.futex);
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
	return m;
}

struct hm_metrics *hm_metrics__from_report(const struct hm_report *r)
{
	struct hm_reader_opts ro = { .ordered = false, .all_records = true };
	struct scan_ctx c = { .opts = &r->opts, .topo = r->topo, .futex = &r->futex,
			      .meta = r->meta, .vendor = r->vendor };
	struct hm_reader *rd;
	struct hm_metrics *m;

	if (!strcmp(r->opts.input, "-")) {
		hm_err("-: the HTML report reads its input twice; save the pipe to a file first");
		errno = EINVAL;
		return NULL;
	}
	rd = hm_reader__new(r->opts.input, &ro);
	if (!rd)
		return NULL;
	m = scan_core(rd, r->opts.input, &c, 0);
	hm_reader__delete(rd);
	if (m && memcmp(&m->c2c, &r->c2c, sizeof(m->c2c)))
		hm_warn("%s: the metric pass counted other perf-c2c totals than the report pass",
			r->opts.input);
	return m;
}

/*
 * The setup of report.c's hm_report__run, for a single pass: topology from
 * the header, hitmap metadata, the futex model (era from --kernel, the
 * file's HM_META_KERNEL or its osrelease; tables from the metadata and
 * --futex-table).
 */
struct hm_metrics *hm_metrics__scan(const struct hm_report_opts *opts, u32 top_lines)
{
	struct hm_reader_opts ro = { .ordered = false, .all_records = true };
	struct hm_futex_model fm;
	struct scan_ctx c = { .opts = opts };
	struct hm_topo *topo = NULL;
	struct hm_meta *meta = NULL;
	const struct hm_header *h;
	struct hm_metrics *m = NULL;
	struct hm_reader *rd;
	const char *rel = opts->kernel_release;
	enum hm_futex_era era;
	char buf[64];
	u32 len;
	int i, err = 0;

	memset(&fm, 0, sizeof(fm));
	rd = hm_reader__new(opts->input, &ro);
	if (!rd)
		return NULL;
	h = hm_reader__header(rd);
	topo = hm_topo__new_from_header(h);
	if (h->hitmap_meta && h->hitmap_meta_size) {
		meta = hm_meta__parse(h->hitmap_meta, h->hitmap_meta_size, h->needs_swap);
		if (!meta)
			hm_warn("%s: hitmap metadata section is corrupt; ignoring it", opts->input);
	}
	if (!meta)
		meta = hm_meta__new();
	if (!topo || !meta) {
		err = -ENOMEM;
		goto out;
	}
	if (!rel) {
		const char *k = hm_meta__find(meta, HM_META_KERNEL, &len);

		if (k && len) {
			snprintf(buf, sizeof(buf), "%.*s", (int)(len < 63 ? len : 63), k);
			rel = buf;
		}
	}
	if (!rel)
		rel = h->osrelease;
	era = hm_futex_era__from_release(rel ? rel : "");
	if (era >= HM_FUTEX_ERA__MAX) {
		/* no release known (a pipe's header comes later): the current era */
		hm_debug("%s: no kernel release; futex model of 6.17", opts->input);
		era = HM_FUTEX_ERA_6_17;
	}
	err = hm_futex_model__init(&fm, era);
	if (err < 0)
		goto out;
	if (hm_futex_model__from_meta(&fm, meta) < 0)
		hm_warn("%s: futex tables in the hitmap metadata are unreadable; ignoring them",
			opts->input);
	for (i = 0; i < opts->nr_futex_tables; i++) {
		struct hm_futex_table t;

		err = hm_futex_table__parse(opts->futex_tables[i], &t);
		if (!err)
			err = hm_futex_model__add_table(&fm, &t);
		if (err < 0)
			goto out;
	}
	c.topo = topo;
	c.futex = &fm;
	c.meta = meta;
	c.vendor = hm_vendor__from_header(h);
	m = scan_core(rd, opts->input, &c, top_lines);
	if (!m)
		err = errno ? -errno : -ENOMEM;
out:
	hm_futex_model__release(&fm);
	hm_meta__delete(meta);
	hm_topo__delete(topo);
	hm_reader__delete(rd);
	if (!m)
		errno = -err;
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
