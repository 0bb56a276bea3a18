// SPDX-License-Identifier: GPL-2.0-only
/*
 * What views and hooks may know of a report (include/hitmap/report.h),
 * and the CPUs a report may use (the pass, its ranges and the details'
 * second read ask), and the symbol options its pass and its ranges' parts
 * take.  Apart from report.c so that the views that read these (buckets.c,
 * buckets-render.c, metrics-scan.c), report-details.c and report-range.c,
 * and report.c, which feeds or calls them, do not call each other in a loop.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include "report.h"
#include "lines.h"
#include "names.h"

/* The symbol options of the report's opts (a part's own hm_symbols take them too). */
void hm_report__symbols_opts(const struct hm_report *r, struct hm_symbols_opts *so)
{
	memset(so, 0, sizeof(*so));
	so->kallsyms = r->opts.kallsyms;
	so->symfs = r->opts.symfs;
	so->vmlinux = r->opts.vmlinux;
	so->no_source = r->opts.no_source;
	so->ksyms_text = hm_meta__find(r->meta, HM_META_KSYMS, &so->ksyms_len);
	hm_symbols_opts__set_perf(so, r->opts.perf_compat);
}

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

const char *hm_report__arch(const struct hm_report *r)
{
	return r && r->header ? r->header->arch : NULL;
}

struct hm_buckets *hm_report__buckets(const struct hm_report *r)
{
	return r ? r->buckets : NULL;
}

const struct hm_reader *hm_report__reader(const struct hm_report *r)
{
	return r ? r->reader : NULL;
}

bool hm_report__has_contention_events(const struct hm_report *r)
{
	const struct hm_reader *rd = hm_report__reader(r);

	for (int i = 0; rd && i < hm_reader__nr_evsels(rd); i++) {
		const struct hm_evsel *e = hm_reader__evsel(rd, i);

		if (e && e->name && !strcmp(e->name, "lock:contention_begin"))
			return true;
	}
	return false;
}

bool hm_report__has_memory_samples(const struct hm_report *r)
{
	return r->c2c.load || r->c2c.store;
}

struct hm_lines *hm_report__lines(const struct hm_report *r)
{
	return r ? r->lines : NULL;
}

struct hm_pareto *hm_report__pareto(const struct hm_report *r)
{
	return r ? r->pareto : NULL;
}

const struct hm_report_opts *hm_report__opts(const struct hm_report *r)
{
	return &r->opts;
}

enum hm_vendor hm_report__vendor(const struct hm_report *r)
{
	return r->vendor;
}

u64 hm_report__nr_samples(const struct hm_report *r)
{
	return r->nr_samples;
}

const struct hm_c2c_stats *hm_report__c2c(const struct hm_report *r)
{
	return &r->c2c;
}

const struct hm_mem_cats *hm_report__cats(const struct hm_report *r)
{
	return &r->cats;
}

const struct hm_count_diff *hm_report__count_diff(const struct hm_report *r)
{
	return &r->cdiff;
}

const struct hm_perf_shared *hm_report__shared(const struct hm_report *r, u32 *nr_lines)
{
	if (nr_lines)
		*nr_lines = r->nr_shared;
	return &r->shared;
}

const struct hm_places *hm_report__places(const struct hm_report *r)
{
	return r->places;
}

const int *hm_report__cpu_node_idx(const struct hm_report *r)
{
	return r->cpu_node_idx;
}

static int name_resolve(void *priv, u32 pid, u8 cpumode, u64 addr, struct hm_symbol_info *info)
{
	const struct hm_report *r = priv;

	if (!r->syms)
		return -ENOENT;
	return hm_symbols__resolve(r->syms, r->maps, pid, cpumode, addr, info);
}

void hm_report__namer(const struct hm_report *r, struct hm_namer *n)
{
	n->futex = r->futex.nr_tables ? &r->futex : NULL;
	n->resolve = name_resolve;
	n->priv = (void *)r;
}

void hm_report__line_name(const struct hm_report *r, const struct hm_line *ln, char *buf, size_t size)
{
	struct hm_namer n;
	struct hm_line_ref ref;

	hm_lines__ref(r->lines, ln, &ref);
	hm_report__namer(r, &n);
	hm_name__line(&n, &ref, buf, size);
}

void hm_report__offset_name(const struct hm_report *r, u64 addr, u32 pid, char *buf, size_t size)
{
	struct hm_namer n;

	hm_report__namer(r, &n);
	hm_name__offset(&n, addr, pid, buf, size);
}

int hm_report__cpus_available(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* zstd records decompressed on a CPU of their own (compress.c), unless told one thread. */
bool hm_report__zstd_ahead(const struct hm_report *r)
{
	return r->opts.threads > 1 || (r->opts.threads <= 0 && hm_report__cpus_available() > 1);
}
