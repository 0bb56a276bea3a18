/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_PARETO_H
#define HITMAP_REPORT_PARETO_H

/*
 * perf c2c's two-level aggregation, for its "Shared Data Cache Line Table"
 * and its "Shared Cache Line Distribution Pareto" (hitmap report --stdio):
 *
 *   level 1, a line: perf's cache-line entry (sort__dcacheline_cmp: cpumode,
 *            data map, pid for private anonymous memory, map-relative line);
 *   level 2, a row:  within a line, the offset and the -c/--coalesce fields
 *            (tid, pid, iaddr, dso; perf's default is iaddr).
 *
 * Each keeps perf's counters, CPU and data-node sets, PA changes and, for a
 * row, the counters per accessor node and perf's running means of the
 * sample weights (remote HITM, local HITM, remote peer, local peer, load).
 * Built only when the perf layout is printed; memory grows with distinct
 * lines and rows, never with samples (two open-addressing hashes).
 * Rendered by render-pareto.c.
 */
#include "report.h"

enum hm_pareto_field { HM_PARETO_TID, HM_PARETO_PID, HM_PARETO_IADDR, HM_PARETO_DSO };

#define HM_PARETO_MAX_FIELDS 8

/* -c/--coalesce, in the order given (it orders rows that sort equal, like perf). */
struct hm_pareto_opts {
	int			nr_fields;
	enum hm_pareto_field	field[HM_PARETO_MAX_FIELDS];
	char			text[64];	/* as given, for the grouping line */
};

/*
 * Parse a -c list ("tid,pid,iaddr,dso", any subset and order; "offset" is
 * accepted and implied).  0, or -EINVAL with @bad pointing at the token.
 */
int  hm_pareto_opts__parse(struct hm_pareto_opts *o, const char *text, char *bad, size_t bad_size);
bool hm_pareto_opts__has(const struct hm_pareto_opts *o, enum hm_pareto_field f);
/* "offset,<-c as given>": perf's "Cacheline data grouping" text. */
void hm_pareto_opts__grouping(const struct hm_pareto_opts *o, char *buf, size_t size);

/* perf's level-1 key, from the report's resolution of the sample. */
struct hm_pareto_key {
	u64	line;		/* cl_address(al_addr): map-relative line */
	u32	pid;		/* private anonymous user memory, else 0 */
	u32	dso_id;		/* the data map's device/inode id, 0 when none */
	u8	cpumode;
	bool	mapped;		/* a data map was found */
};

/* perf's running mean (util/stat.c update_stats), bit for bit. */
struct hm_pareto_mean {
	u64	n;
	double	mean;
};

enum { HM_PM_RMT_HITM, HM_PM_LCL_HITM, HM_PM_RMT_PEER, HM_PM_LCL_PEER, HM_PM_LOAD, HM_PM__MAX };

/* A node's share of a row (the -N column). */
struct hm_pareto_node {
	u32	lcl_hitm, rmt_hitm, tot_peer, store;
};

struct hm_pareto_line {
	struct hm_pareto_key	k;
	u64			addr;		/* cl_address of the first sample's address */
	struct hm_c2c_stats	st;
	double			cost;		/* sum of sample weights */
	u64			nodes;		/* data node ids (PHYS_ADDR), bit < 64 */
	u64			paddr;
	u32			paddr_cnt;	/* PHYS_ADDR changes, perf's "PA cnt" */
	u32			nr_rows;
};

struct hm_pareto_row {
	u32			line;		/* index of its line */
	u32			off;		/* byte offset in the line */
	u32			pid, tid;	/* of the first sample */
	u64			ip;
	const char		*dso;		/* code map's file name, NULL: no map */
	const struct hm_map	*imap;
	u8			cpumode;
	struct hm_c2c_stats	st;
	double			cost;
	u64			nodes;		/* data node ids */
	u64			paddr;
	u32			paddr_cnt;
	struct hm_pareto_mean	mean[HM_PM__MAX];
	u64			*cpus;		/* bitmap of nr_cpus bits */
	struct hm_pareto_node	*node;		/* per accessor node index */
};

struct hm_pareto;

/*
 * @cpu_node_idx maps a CPU to its node index (perf's cpu2node), -1 none;
 * it must outlive the aggregation.
 */
struct hm_pareto *hm_pareto__new(const struct hm_pareto_opts *o, u32 cacheline_size,
				 int nr_cpus, int nr_nodes, const int *cpu_node_idx);
void hm_pareto__delete(struct hm_pareto *pa);
/* One sample: @one its perf counters, @imap the map of its ip (or NULL). */
int  hm_pareto__add(struct hm_pareto *pa, const struct hm_pareto_key *k,
		    const struct hm_mem_sample *ms, const struct hm_c2c_stats *one,
		    const struct hm_map *imap);

size_t hm_pareto__nr_lines(const struct hm_pareto *pa);
const struct hm_pareto_line *hm_pareto__line(const struct hm_pareto *pa, size_t i);
size_t hm_pareto__nr_rows(const struct hm_pareto *pa);
const struct hm_pareto_row *hm_pareto__row(const struct hm_pareto *pa, size_t i);
const struct hm_pareto_opts *hm_pareto__opts(const struct hm_pareto *pa);
int  hm_pareto__nr_cpus(const struct hm_pareto *pa);
int  hm_pareto__nr_nodes(const struct hm_pareto *pa);
const int *hm_pareto__cpu_node_idx(const struct hm_pareto *pa);
/* Bytes held. */
size_t hm_pareto__bytes(const struct hm_pareto *pa);

/* ------------------------------------------------ render-pareto.c */

struct hm_pareto_render {
	enum hm_sort	sort;		/* -d; HM_SORT_COST is hitmap's own */
	int		node_info;	/* 0, 1 (-N), 2 (-NN) */
	bool		show_all;	/* --show-all: no display filter */
	bool		full_symbols;	/* --full-symbols */
	bool		no_source;	/* --no-source */
	bool		double_cl;	/* --double-cl: "Double-Cacheline" over the line address */
};

/*
 * perf c2c report --stdio's "Shared Data Cache Line Table" and "Shared Cache
 * Line Distribution Pareto" sections, character for character (perf 6.1).
 */
int hm_pareto__render(const struct hm_pareto *pa, const struct hm_report *r,
		      const struct hm_pareto_render *o, FILE *f);

#endif
