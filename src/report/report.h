/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_PRIV_H
#define HITMAP_REPORT_PRIV_H

/*
 * One pass over a perf.data file: read -> classify -> resolve -> aggregate.
 * The renderers (text, JSON, CSV, LKP, HTML) then read the aggregates.
 *
 * Owners: report.c/lines.c/render-c2c.c (c2c), buckets.c (futex views),
 * html.c and diff.c (comparison and HTML).
 */
#include <hitmap/perf_data.h>
#include <hitmap/mem.h>
#include <hitmap/topo.h>
#include <hitmap/meta.h>
#include <hitmap/futex.h>
#include <hitmap/symbols.h>

enum hm_format { HM_FMT_TEXT, HM_FMT_JSON, HM_FMT_CSV, HM_FMT_LKP, HM_FMT_HTML };

enum hm_sort { HM_SORT_TOT, HM_SORT_RMT, HM_SORT_LCL, HM_SORT_PEER, HM_SORT_COST };

/* A sample after classification and resolution: what every aggregate sees. */
struct hm_mem_sample {
	const struct hm_sample	*s;
	struct hm_mem_class	cls;
	bool			mapped;		/* data and code address in a known map */
	int			cpu_socket;	/* -1 unknown */
	int			cpu_node;
	int			data_node;	/* from PHYS_ADDR + MEM_TOPOLOGY, -1 */
	u64			line;		/* addr & ~(cacheline - 1) */
	enum hm_perf_compat	compat;		/* whose c2c counters (opts.perf_compat) */
	struct hm_futex_loc	futex;		/* futex.table NULL: not in a known table */
};

struct hm_report;
struct hm_pareto_opts;
struct hm_pareto;

struct hm_report_opts {
	const char	*input;
	const char	*kallsyms;
	const char	*symfs;
	bool		no_source;
	u32		cacheline_size;		/* 64 */
	enum hm_perf_compat perf_compat;	/* perf's counters as this version computes them */
	bool		want_lines;		/* build the shared cache-line table */
	bool		want_buckets;		/* build the futex views */
	/* --futex-table specs, "global:NODE:ADDR:SLOTS" / "private:PID:ADDR:SLOTS" */
	int		nr_futex_tables;
	const char	**futex_tables;
	const char	*kernel_release;	/* override the era: "6.16" ... */
	/*
	 * Called for every sample after classification and resolution, in
	 * the report's single pass (diff metrics and HTML use it); a
	 * negative return stops the run with that error.
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
};

/* perf's "Global Shared Cache Line Event Information", by its labels (report.c). */
struct hm_perf_shared {
	u32	load, fbhit, l1hit, l2hit;
	u32	llc;		/* ld_llchit + lcl_hitm */
	u32	peer;		/* lcl_peer + rmt_peer */
	u32	locks;
	u32	blk;		/* blk_data + blk_addr */
	u32	store, st_l1hit, st_na;
	u32	merged;		/* lcl_hitm + rmt_hitm + store */
};

struct hm_lines;	/* per cache line aggregation (lines.c) */
struct hm_buckets;	/* futex aggregation (buckets.c) */
struct hm_perf_lines;	/* perf's cache-line entries, for its global block (report.c) */
struct hm_map_ids;		/* report.c */
struct hm_dsrc_cache;		/* report.c */

struct hm_report {
	struct hm_report_opts	opts;
	struct hm_reader	*reader;
	const struct hm_header	*header;
	struct hm_topo		*topo;
	enum hm_vendor		vendor;
	struct hm_meta		*meta;		/* may be empty, never NULL after run */
	struct hm_futex_model	futex;
	struct hm_maps		*maps;
	struct hm_symbols	*syms;
	struct hm_c2c_stats	c2c;		/* perf-compatible totals */
	struct hm_mem_cats	cats;		/* precise totals */
	u64			nr_samples;
	struct hm_lines		*lines;
	struct hm_buckets	*buckets;
	/* c2c (report.c), added: perf's level-1 entries and its global block */
	struct hm_perf_lines	*perf_lines;
	struct hm_perf_shared	shared;		/* perf's Global Shared Cache Line block */
	u32			nr_shared;	/* "Total Shared Cache Lines" */
	int			*cpu_node_idx;	/* CPU -> node index (NUMA order), -1 */
	u64			nr_nocpu;	/* samples without a CPU */
	/* hitmap categories per accessor socket: [socket * HM_CAT__MAX + cat] */
	u64			*socket_cats;
	int			nr_socket_cats;	/* sockets */
	struct hm_map_ids		*map_ids;	/* MMAP2 device/inode ids of maps (report.c) */
	struct hm_dsrc_cache		*dsrc_cache;	/* data_src -> counters, class (report.c) */
	struct hm_pareto		*pareto;	/* opts.pareto: perf's Pareto (pareto.c) */
};

struct hm_report *hm_report__new(const struct hm_report_opts *opts);
/* Read the whole file; returns 0 or a negative errno (message in the log). */
int  hm_report__run(struct hm_report *r);
void hm_report__delete(struct hm_report *r);

/* Futex views (buckets.c). */
enum hm_bucket_view { HM_BY_BUCKET, HM_BY_FIELD, HM_BY_SOCKET };
struct hm_buckets *hm_buckets__new(const struct hm_report *r);
void hm_buckets__delete(struct hm_buckets *b);
int  hm_buckets__add(struct hm_buckets *b, const struct hm_report *r, const struct hm_mem_sample *ms);
int  hm_buckets__render(const struct hm_buckets *b, const struct hm_report *r,
			enum hm_bucket_view view, enum hm_format fmt, FILE *f);


#endif
