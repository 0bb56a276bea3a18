/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_METRICS_H
#define HITMAP_REPORT_METRICS_H

/*
 * A flat, comparable metric set of one recording (metrics.c, over the
 * table of metrics-table.c), the diff of several (diff.c) and the HTML
 * report of either (html.c).
 *
 * Each metric is keyed by what it IS, not by its address, so that two runs
 * with different ASLR, boots or allocations still line up:
 *   perf-c2c.HITM.local ...                    LKP's names (totals)
 * <stat> is hitmap's spelling (hitm_local ...) except in line.* (perf's
 * counters, perf's spelling: lcl_hitm ...); see enum hm_mstat.
 *   hitmap.<category>                          precise categories
 *   socket.S.<stat>, node.N.<stat>             CPU socket / memory node
 *   xfer.socketS.nodeN                         LLC-miss loads by socket and node
 *   futex.<table>.bucket.I.<stat>              table kind+node and bucket index
 *   futex.<table>.bucket.I.socket.S.<stat>     ... per CPU socket
 *   futex.<table>.bucket.I.<field>.<stat>      ... per bucket field
 *   futex.<kind>.field.<field>.<stat>          a field over all buckets
 *   futex.<kind>.hottest.R.<stat>              the R-th hottest bucket (by rank)
 *   line.<identity>.<stat>                     shared cache line: futex object,
 *                                              data symbol+offset, or code
 *   workload.<name>                            HM_META_WORKLOAD numbers (ops/s)
 */
#include <stdio.h>
#include <hitmap/mem.h>
#include <hitmap/futex.h>
#include "report.h"
#include "counts.h"
#include "stats.h"

/*
 * The counters of a metric, with one spelling per counter across outputs.
 * Totals named perf-c2c.* (LKP's names, unchanged) and the line metrics
 * (the cache-line table's rows, perf's view) read perf's c2c counters
 * (hm_mstat__get) and are spelled as perf spells them (hm_mstat__perf_name:
 * lcl_hitm, rmt_hitm, tot_hitm, store); sockets, nodes, buckets and fields
 * read hitmap's precise categories (hm_mstat__get_counts) and are spelled
 * as hitmap's own views spell them (hm_mstat__name: hitm_local, hitm_xdie,
 * hitm_remote, hitm = their sum, dram_remote = DRAM of another socket), so
 * that no sample counts twice.  TOTAL_LOADS is perf's Total Loads column of
 * a line (LLC misses + hits, perf's quirks included).
 */
enum hm_mstat {
	HM_MS_SAMPLES, HM_MS_LOADS, HM_MS_STORES, HM_MS_HITM_LOCAL, HM_MS_HITM_REMOTE,
	HM_MS_HITM_TOTAL, HM_MS_HIT_REMOTE, HM_MS_DRAM_LOCAL, HM_MS_DRAM_REMOTE,
	HM_MS_TOTAL_LOADS, HM_MS_HITM_XDIE,
	HM_MS__MAX
};
const char *hm_mstat__name(enum hm_mstat s);
const char *hm_mstat__perf_name(enum hm_mstat s);
double hm_mstat__get(const struct hm_c2c_stats *st, enum hm_mstat s);
double hm_mstat__get_counts(const struct hm_counts *c, enum hm_mstat s);

enum hm_metric_group {
	HM_MG_C2C, HM_MG_CAT, HM_MG_SOCKET, HM_MG_NODE, HM_MG_XFER, HM_MG_BUCKET,
	HM_MG_BUCKET_SOCKET, HM_MG_BUCKET_FIELD, HM_MG_FIELD, HM_MG_RANK, HM_MG_LINE,
	HM_MG_WORKLOAD, HM_MG__MAX
};
const char *hm_metric_group__name(enum hm_metric_group g);

/* How a metric is matched across runs. */
enum hm_metric_match {
	HM_MATCH_NAME,		/* the name says it all (totals, sockets, nodes) */
	HM_MATCH_BUCKET,	/* futex table kind + node + bucket index */
	HM_MATCH_FIELD,		/* ... and the bucket field */
	HM_MATCH_RANK,		/* rank of the bucket by HITM */
	HM_MATCH_FUTEX_OBJECT,	/* futex object that is not a bucket (fph header, mm field) */
	HM_MATCH_DATA_SYMBOL,	/* kernel or user data symbol + offset */
	HM_MATCH_CODE,		/* the code that touched the line (symbol + offset) */
	HM_MATCH_ADDRESS,	/* nothing better: raw address (rarely matches) */
	HM_MATCH_WORKLOAD,	/* workload result name */
	HM_MATCH__MAX
};
const char *hm_metric_match__name(enum hm_metric_match m);

struct hm_metric {
	char	*key;
	double	value;
	u8	group;		/* enum hm_metric_group */
	u8	match;		/* enum hm_metric_match */
	bool	count;		/* a sample count: Poisson when a side has one run */
	u32	rank;		/* lines and buckets: 1 = hottest in this run, 0 = n/a */
};

/* Views for the HTML report. */
struct hm_mv_bucket {
	char	table[24];	/* "global.node0", "private" */
	s32	kind, node;
	u64	index;
	struct hm_counts tot;
	struct hm_counts *socket;			/* nr_socket, NULL: none */
	u32	nr_socket;
	struct hm_counts field[HM_FUTEX_FIELD__MAX];
};

#define HM_MV_CODE 4
struct hm_mv_line {
	char	*id;		/* identity (key part), unique in the set */
	u8	match;
	u64	addr;
	struct hm_c2c_stats st;
	u32	nr_code;
	struct { char *where; u64 count; } code[HM_MV_CODE];	/* "sym+0x1f (file.c:12)" */
};

struct hm_metrics {
	char			*label;
	u64			nr_samples;
	struct hm_c2c_stats	c2c;
	struct hm_mem_cats	cats;
	u32			nr_sockets, nr_nodes;
	struct hm_counts	*socket;	/* nr_sockets */
	struct hm_counts	*node;		/* nr_nodes */
	u64			*xfer;		/* [socket * nr_nodes + node] */
	bool			has_layout;
	struct hm_futex_layout	layout;
	u32			nr_buckets;
	struct hm_mv_bucket	*buckets;	/* by table, index */
	u32			nr_lines;
	struct hm_mv_line	*lines;		/* shared lines, hottest first */
	u32			top_lines;	/* lines[0 .. top_lines) have line.* metrics (0: all) */
	char			*workload;	/* HM_META_WORKLOAD text or NULL */
	char			*counting_note;	/* where perf's counters differ (counts.h), or NULL */
	char			*futex_tables;	/* how the futex tables were found (the report's
						   geometry: "none: why" without), or NULL */
	u32			nr, alloc;
	struct hm_metric	*m;
	/* key -> metric index; each slot keeps the key's hash beside the index
	 * (UINT32_MAX: empty), so a probe rarely touches the key itself */
	struct { u32 idx, h; }	*hash;
	u32			hash_size;
};

/*
 * Resolve a code or data address to symbol+offset (and source line): 0 and
 * @info filled, or a negative errno.  metrics-scan.c wraps hm_symbols.
 */
typedef int (*hm_metrics_resolve_fn)(void *priv, u32 pid, u8 cpumode, u64 addr,
				     struct hm_symbol_info *info);

/* Where the metric set looks things up; any pointer may be NULL. */
struct hm_metrics_ctx {
	const char			*label;
	const struct hm_futex_model	*futex;
	const struct hm_meta		*meta;
	hm_metrics_resolve_fn		resolve;
	void				*resolve_priv;
	u32				top_lines;	/* lines with per-line metrics; 0: all shared */
};

/*
 * What the metric set reads: the report's one aggregation after its pass
 * (report.c fills it; the text, JSON and CSV views read the same), so that
 * no metric counts on its own.  Any pointer may be NULL (no such rows).
 */
struct hm_places;
struct hm_buckets;
struct hm_lines;
struct hm_magg {
	u64			nr_samples;
	struct hm_c2c_stats	c2c;		/* perf's counters of every sample */
	struct hm_mem_cats	cats;		/* hitmap's categories of every sample */
	const struct hm_places	*places;	/* sockets, nodes, socket x node (places.h) */
	const struct hm_buckets	*buckets;	/* the futex views' buckets (buckets.h) */
	struct hm_lines		*lines;		/* the cache-line table (lines.h) */
};

/* The metric set of @agg (NULL with errno). */
struct hm_metrics *hm_metrics__build(const struct hm_metrics_ctx *ctx, const struct hm_magg *agg);
/* The line.* metrics and m->lines from @lines (metrics-lines.c); 0 or -ENOMEM. */
int  hm_metrics__add_lines(struct hm_metrics *m, struct hm_lines *lines, const struct hm_metrics_ctx *ctx);

/* The table (metrics-table.c, with the names above): a set, its metrics by key. */
struct hm_metrics *hm_metrics__new(const char *label);
void hm_metrics__delete(struct hm_metrics *m);
/* Add or replace a metric; returns its index or a negative errno. */
int  hm_metrics__set(struct hm_metrics *m, const char *key, double value,
		     enum hm_metric_group g, enum hm_metric_match match, bool count);
const struct hm_metric *hm_metrics__find(const struct hm_metrics *m, const char *key);

/* Numbers of a workload JSON object, flattened as workload.a.b; returns how many. */
int  hm_metrics__add_workload(struct hm_metrics *m, const char *json, size_t len);
int  hm_metrics__write_json(const struct hm_metrics *m, FILE *f);

/*
 * Metrics of a whole file (metrics-scan.c), read from the report's one
 * aggregation after its single pass:
 *
 *	hm_metrics__want(&report_opts);		// the aggregates the metrics read
 *	r = hm_report__new(&report_opts);
 *	... hm_report__run(r) ...
 *	m = hm_metrics__from_report(r, top_lines);	// owned by the caller
 *
 * @top_lines: lines with per-line metrics (0: all shared lines).
 * __scan does all of that for one file (opts->input).  NULL with errno.
 */
void hm_metrics__want(struct hm_report_opts *opts);
struct hm_metrics *hm_metrics__from_report(const struct hm_report *r, u32 top_lines);
struct hm_metrics *hm_metrics__scan(const struct hm_report_opts *opts, u32 top_lines);

/* ---------------------------------------------------------------- diff */

struct hm_diff_opts {
	double	alpha;		/* family-wise level, 0.05 */
	double	min_change;	/* |%change| below this is never significant (0) */
	u32	top_lines;	/* line rows: lines in the top N of any run (20) */
	bool	all;		/* every row, not only significant ones and perf-c2c.* */
	const char *base_label, *new_label;
};

struct hm_diff_row {
	const char		*key;		/* owned by the diff */
	u8			group, match;
	bool			count;
	struct hm_stat_summary	*a, *b;		/* points into the row */
	double			change;		/* %change (LKP) */
	double			p;
	u8			test;		/* enum hm_stat_test_kind */
	bool			significant;
	bool			shown;
};

struct hm_diff;
/* @base/@new: metric sets of each side's runs (not owned). */
struct hm_diff *hm_diff__new(struct hm_metrics *const *base, u32 nr_base,
			     struct hm_metrics *const *new_, u32 nr_new,
			     const struct hm_diff_opts *opts);
void hm_diff__delete(struct hm_diff *d);
u32  hm_diff__nr_rows(const struct hm_diff *d);
const struct hm_diff_row *hm_diff__row(const struct hm_diff *d, u32 i);	/* sorted */
const struct hm_diff_row *hm_diff__find(const struct hm_diff *d, const char *key);
/*
 * Text, JSON or CSV (-EINVAL for HTML: the page is html.c's
 * hm_html__render_diff, which reads the diff through these accessors).
 */
int  hm_diff__render(const struct hm_diff *d, enum hm_format fmt, FILE *f);
/* The metric sets of one side (0 base, 1 new). */
struct hm_metrics *const *hm_diff__runs(const struct hm_diff *d, int side, u32 *nr);
const struct hm_diff_opts *hm_diff__opts(const struct hm_diff *d);

/* ---------------------------------------------------------------- html */

int hm_html__render_metrics(const struct hm_metrics *m, FILE *f);
int hm_html__render_diff(const struct hm_diff *d, FILE *f);

#endif
