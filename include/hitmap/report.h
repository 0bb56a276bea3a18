/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_H
#define HITMAP_REPORT_H

/*
 * hitmap report as a library: one streaming pass over a perf.data file
 * (read -> classify -> resolve -> aggregate), then views of the aggregates.
 * struct hm_report is opaque: consumers use the functions below; the
 * report's own renderers live in src/report/ (README, Architecture).
 */
#include <stdbool.h>
#include <stdio.h>
#include <hitmap/perf_data.h>
#include <hitmap/futex.h>
#include <hitmap/symbols.h>
#include <hitmap/topo.h>
#include <hitmap/meta.h>
#include <hitmap/mem.h>

enum hm_format { HM_FMT_TEXT, HM_FMT_JSON, HM_FMT_CSV, HM_FMT_LKP, HM_FMT_HTML };

enum hm_sort { HM_SORT_TOT, HM_SORT_RMT, HM_SORT_LCL, HM_SORT_PEER, HM_SORT_COST };

/* The futex views (--by). */
enum hm_bucket_view { HM_BY_BUCKET, HM_BY_FIELD, HM_BY_SOCKET };

struct hm_report;
struct hm_pareto_opts;	/* src/report/pareto.h */
struct hm_mem_sample;	/* one classified, resolved sample (src/report/report.h) */

struct hm_report_opts {
	const char	*input;
	const char	*kallsyms;
	const char	*symfs;
	bool		no_source;
	u32		cacheline_size;		/* 64 */
	enum hm_perf_compat perf_compat;	/* perf's counters as this version computes them */
	bool		want_lines;		/* build the shared cache-line table */
	bool		want_buckets;		/* build the futex views */
	/*
	 * Only the futex views are rendered: perf's level-1 line table (the
	 * global shared-line block) and the socket/node places are not built.
	 */
	bool		futex_views_only;
	/*
	 * Only the pass's counts are rendered (the Trace Event block, LKP's
	 * perf-c2c.* lines): as with futex_views_only, perf's level-1 line
	 * table and the places are not built; with want_lines, want_buckets
	 * and pareto off, nothing past the counts is.
	 */
	bool		counts_only;
	/* --futex-table specs, "global:NODE:ADDR:SLOTS" / "private:PID:ADDR:SLOTS" */
	int		nr_futex_tables;
	const char	**futex_tables;
	const char	*kernel_release;	/* override the era: "6.16" ... */
	/*
	 * Called for every sample after classification and resolution, in
	 * the report's single pass, after the report's own aggregates; a
	 * negative return stops the run with that error.  hitmap's own views
	 * read the report's aggregates after the pass instead.
	 */
	int		(*on_sample)(void *priv, const struct hm_report *r,
				     const struct hm_mem_sample *ms);
	void		*on_sample_priv;
	/*
	 * Progress of the pass, every few thousand records: bytes of the data
	 * section read so far, of @total (0 when unknown: pipes).  The library
	 * never prints; the CLI shows it (src/cli/progress.c).
	 */
	void		(*on_progress)(void *priv, u64 done, u64 total);
	void		*on_progress_priv;
	/* perf c2c's line x offset x code address aggregation (pareto.c), NULL: none */
	const struct hm_pareto_opts *pareto;
	/*
	 * Threads of the pass (report --threads): 0 the CPUs this process may
	 * run on, 1 none besides the caller's.  The result does not depend on it.
	 */
	int		threads;
	/*
	 * The ordering queue's bytes past which it hands out early what
	 * perf's flush gives out anyway (hm_reader_opts.queue_bytes; 0:
	 * 4 MiB), in every reader of the pass.  The fuzzers set it small.
	 */
	u32		queue_bytes;
	/* additive: a vmlinux ELF for kernel symbols (report -k), NULL: none */
	const char	*vmlinux;
	/*
	 * The cache-line table's per-offset rows only for the lines a view
	 * shows (text, JSON, CSV): built by reading the file again for those
	 * lines after the pass, not during it (memory: distinct lines only).
	 * Ignored for pipes and with threads; views that read every line's
	 * offsets (TUI, HTML) leave it off.
	 */
	bool		defer_details;
};

struct hm_report *hm_report__new(const struct hm_report_opts *opts);
/* The CPUs this process may run on (sched_getaffinity): opts.threads 0. */
int  hm_report__cpus_available(void);

/* Read the whole file; returns 0 or a negative errno (message in the log). */
int  hm_report__run(struct hm_report *r);
void hm_report__delete(struct hm_report *r);

/*
 * What views and hooks need of a report (NULL before its header is read):
 * the input's name, its cache-line size, the recording machine's
 * architecture (uname -m, NULL: not in the file), futex model, symbol
 * resolver, maps, topology and hitmap metadata.
 */
const char *hm_report__input(const struct hm_report *r);
u32 hm_report__cacheline(const struct hm_report *r);
const char *hm_report__arch(const struct hm_report *r);
const struct hm_futex_model *hm_report__futex(const struct hm_report *r);
struct hm_symbols *hm_report__symbols(const struct hm_report *r);
struct hm_maps *hm_report__maps(const struct hm_report *r);
const struct hm_topo *hm_report__topo(const struct hm_report *r);
const struct hm_meta *hm_report__meta(const struct hm_report *r);

/*
 * Where perf's c2c counters and hitmap's categories count this file's
 * samples differently, in one line ("perf counts 590 remote HITMs again as
 * remote DRAM: this CPU encodes them as RAM|REM|HITM"); returns its length,
 * 0 (and "") when they agree.
 */
int  hm_report__counting_note(const struct hm_report *r, char *buf, size_t size);

/*
 * The futex views (--by bucket|field|socket; the report was made with
 * want_buckets): hitmap's precise categories, with @perf_counters perf's
 * counters beside them.  0 or a negative errno.
 */
int  hm_report__render_futex(const struct hm_report *r, enum hm_bucket_view view,
			     enum hm_format fmt, bool perf_counters, FILE *f);

#endif
