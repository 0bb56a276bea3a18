/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_PRIV_H
#define HITMAP_REPORT_PRIV_H

/*
 * The report's insides (include/hitmap/report.h is its public, opaque API):
 * one pass over a perf.data file: read -> classify -> resolve -> aggregate.
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
#include <hitmap/report.h>	/* the public, opaque API */

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
	const struct hm_c2c_stats *perf;	/* perf's counters of this one sample */
};

struct hm_pareto;

/*
 * Samples whose perf counters and hitmap category disagree, by kind and by
 * hitmap category, with the first data_src of each (for the "why").
 */
enum hm_cdiff {
	HM_CDIFF_ALSO_DRAM,	/* perf: HITM and DRAM at once */
	HM_CDIFF_AS_DRAM,	/* perf: DRAM; hitmap: another source */
	HM_CDIFF_AS_HITM,	/* perf: HITM; hitmap: not a HITM */
	HM_CDIFF_NO_HITM,	/* hitmap: HITM; perf: none */
	HM_CDIFF__MAX
};
struct hm_count_diff {
	u64	n[HM_CDIFF__MAX][HM_CAT__MAX];
	u64	data_src[HM_CDIFF__MAX][HM_CAT__MAX];
	bool	remote[HM_CDIFF__MAX][HM_CAT__MAX];	/* perf's DRAM was remote */
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
struct hm_perf_lines;	/* perf's cache-line entries, for its global block (perf-lines.c) */
struct hm_map_ids;		/* report.c */
struct hm_dsrc_cache;		/* dsrc-cache.h */
struct hm_cpu_place;		/* report.c */
struct hm_par;			/* the cache-line table's worker threads (parallel.c) */
struct hm_places;		/* sockets and nodes of all samples (places.c) */
struct hm_futex_observer;	/* futex table inference (hitmap/futex_infer.h) */

struct hm_report {
	struct hm_report_opts	opts;
	const char		*name;		/* the input in messages: its path, or "<stdin>" */
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
	struct hm_count_diff	cdiff;		/* where perf's counters and the categories differ */
	u64			nr_samples;
	struct hm_lines		*lines;
	struct hm_buckets	*buckets;
	/* c2c (report.c), added: perf's level-1 entries and its global block */
	struct hm_perf_lines	*perf_lines;
	struct hm_perf_shared	shared;		/* perf's Global Shared Cache Line block */
	u32			nr_shared;	/* "Total Shared Cache Lines" */
	int			*cpu_node_idx;	/* CPU -> node index (NUMA order), -1 */
	struct hm_cpu_place	*cpu_place;	/* CPU -> socket, node, node index (report.c) */
	u32			nr_cpu_place;
	u64			nr_nocpu;	/* samples without a CPU */
	struct hm_places	*places;	/* sockets, nodes, socket x node of all samples (places.c) */
	struct hm_map_ids		*map_ids;	/* MMAP2 device/inode ids of maps (report.c) */
	struct hm_dsrc_cache		*dsrc_cache;	/* data_src -> counters, class (dsrc-cache.c) */
	struct hm_pareto		*pareto;	/* opts.pareto: perf's Pareto (pareto.c) */
	struct hm_par			*par;		/* threads > 1: builds lines (parallel.c) */
	int				nr_threads;	/* of the pass, resolved from opts.threads */
	struct hm_futex_observer	*infer;		/* no tables, cache-line views: fed by the pass */
	struct hm_chunks		*chunks;	/* threads over ranges of the file (report-chunks.c) */
	struct hm_chunk			*chunk;		/* a part of those: its range */
};

/*
 * The pass (report.c): 0 read, 1 cut into ranges by setup_header (run by
 * report-chunks.c's hm_report__run, which merges the parts), -errno; then
 * what follows it, given the result.
 */
int  hm_report__pass(struct hm_report *r);
/* After hm_report__pass gave 1: the ranges given up, the whole file read by the one reader. */
int  hm_report__pass_whole(struct hm_report *r);
int  hm_report__pass_end(struct hm_report *r, int err);

/*
 * report --threads over ranges of a file (report-range.c, below the pass):
 * plan in setup_header (1: the file is to be cut, one range a thread, the
 * cuts found by report-chunks.c, which may still give up; 0: one reader);
 * a part's reader, setup and events; deletion.
 */
struct hm_chunks;
struct hm_chunk;
struct hm_event;
/*
 * The default's most ranges (--threads not given): each part builds a table
 * of the lines it sees (memory: that many tables), and the gain past 8
 * flattens (README, "Speed": the serial cut scan, the merge levels).
 */
#define HM_RANGES_THREADS	8
int  hm_report__chunks_plan(struct hm_report *r);
/* Whether the report's readers decompress zstd ahead (not --threads 1, more than one CPU). */
bool hm_report__zstd_ahead(const struct hm_report *r);
void hm_report__chunks_delete(struct hm_chunks *c);
int  hm_report__chunk_setup(struct hm_report *r);
/* The symbol options of the report's opts (report-access.c): a part's own hm_symbols take them too. */
struct hm_symbols_opts;
void hm_report__symbols_opts(const struct hm_report *r, struct hm_symbols_opts *so);
int  hm_report__chunk_next(struct hm_report *r, struct hm_event *ev);
struct hm_reader *hm_report__chunk_reader(struct hm_report *r);
/* After the parts ran, the ones before @i final: part @i must run again (its start state set right). */
bool hm_report__chunk_stale(struct hm_report *r, int i);

/*
 * Futex tables of a file without any (report-infer.c): before the pass a
 * pre-scan for the futex views, else the pass feeds r->infer and
 * hm_report__infer_finish places the tables after it.  0 or -errno.
 */
int hm_report__infer_setup(struct hm_report *r);
int hm_report__infer_finish(struct hm_report *r);


/* The futex views' aggregation of a report (report-access.c). */
struct hm_buckets *hm_report__buckets(const struct hm_report *r);
/* Its per-line aggregation (opts.want_lines), NULL without. */
struct hm_lines *hm_report__lines(const struct hm_report *r);
/* perf's cache-line view (--perf-layout), NULL without. */
struct hm_pareto *hm_report__pareto(const struct hm_report *r);

/*
 * What the renderers read of a report (report-access.c): its options, the
 * vendor of its CPU, its totals (perf's counters and hitmap's categories),
 * where the two differ, perf's global shared-line block (*nr_lines: "Total
 * Shared Cache Lines"), hitmap's counts per accessor socket, data node and
 * socket x node (places.h), and CPU -> node index.
 */
const struct hm_report_opts *hm_report__opts(const struct hm_report *r);
enum hm_vendor hm_report__vendor(const struct hm_report *r);
u64 hm_report__nr_samples(const struct hm_report *r);
const struct hm_c2c_stats *hm_report__c2c(const struct hm_report *r);
const struct hm_mem_cats *hm_report__cats(const struct hm_report *r);
const struct hm_count_diff *hm_report__count_diff(const struct hm_report *r);
const struct hm_perf_shared *hm_report__shared(const struct hm_report *r, u32 *nr_lines);
const struct hm_places *hm_report__places(const struct hm_report *r);
const int *hm_report__cpu_node_idx(const struct hm_report *r);

/*
 * The names of names.c over the report's futex model and symbols, so that
 * every view (text, JSON, CSV, HTML, TUI, diff) says the same: what a line
 * is, and what the byte at @addr (touched by @pid) is ("" when unknown).
 */
struct hm_namer;
struct hm_line;
void hm_report__namer(const struct hm_report *r, struct hm_namer *n);
void hm_report__line_name(const struct hm_report *r, const struct hm_line *ln, char *buf, size_t size);
void hm_report__offset_name(const struct hm_report *r, u64 addr, u32 pid, char *buf, size_t size);
/* Its reader (the file's events), for the views that look at them. */
const struct hm_reader *hm_report__reader(const struct hm_report *r);
/* Whether the file recorded lock:contention_begin (contention mode, or both modes). */
bool hm_report__has_contention_events(const struct hm_report *r);
/*
 * Whether any sample was a load or a store with a data source (perf c2c's
 * Load and Store Operations): what the memory views count.  Not the
 * records' count, which a contention-mode file's tracepoints fill too.
 */
bool hm_report__has_memory_samples(const struct hm_report *r);

/* Futex views (buckets.c). */
struct hm_buckets *hm_buckets__new(const struct hm_report *r);
void hm_buckets__delete(struct hm_buckets *b);
int  hm_buckets__add(struct hm_buckets *b, const struct hm_report *r, const struct hm_mem_sample *ms);
/*
 * After the last add: its queued updates, the field rows' and socket cells'
 * counts (render does it too); -ENOMEM.
 */
int  hm_buckets__finish(struct hm_buckets *b);
/*
 * A range's part (buckets-merge.c): it names every function of a field,
 * so that the merge names the first MAX_FUNCS of the whole file; @src's
 * views (the samples after @dst's) into @dst, the tables' slots from
 * @model: 0, -ENOMEM, -EOPNOTSUPP (contention mode: waits span ranges).
 * hm_buckets__count: buckets and other objects, what a part's views grow with.
 */
void hm_buckets__name_all_funcs(struct hm_buckets *b);
int  hm_buckets__merge(struct hm_buckets *dst, struct hm_buckets *src, const struct hm_futex_model *model);
size_t hm_buckets__count(const struct hm_buckets *b);
/* @perf_counters: perf's c2c counters beside hitmap's categories (--perf-counters). */
int  hm_buckets__render(const struct hm_buckets *b, const struct hm_report *r,
			enum hm_bucket_view view, enum hm_format fmt, bool perf_counters, FILE *f);


#endif
