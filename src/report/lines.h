/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_LINES_H
#define HITMAP_REPORT_LINES_H

/*
 * Per cache line aggregation: one entry per virtual cache line (not split
 * by map or pid like perf), an open-addressing hash keyed by line address.
 * Memory grows with distinct lines (and distinct offsets/code addresses
 * within a line, capped), never with samples.
 */
#include <stdint.h>
#include "report.h"

#define HM_LINE_MAX_IPS		8	/* code addresses kept per offset */
#define HM_LINE_MAX_PIDS	8	/* pids kept per line */

/*
 * 24 bytes: a line keeps up to 8 of these per offset, so on files with many
 * lines they are most of the report's memory.  nr saturates at
 * HM_LINE_IP_NR_MAX (536870911 samples of one code address at one offset).
 */
#define HM_LINE_IP_NR_MAX	((1u << 29) - 1)
struct hm_line_ip {
	u64	ip;
	u32	pid, tid;
	u32	nr:29;
	u32	cpumode:3;
	u16	hitm, store;	/* saturating */
};

/* One byte offset in a line: what the Pareto/details rows show. */
struct hm_line_off {
	u32			off;
	u32			lcl_hitm, rmt_hitm, hitm_xdie, store, load;	/* perf's, load = Total Loads */
	u32			n_load, n_hitm;
	u32			ips_dropped;	/* samples of code addresses beyond the cap */
	float			w_load, w_hitm;	/* weight sums */
	u8			nr_ips, alloc_ips;
	struct hm_line_ip	*ip;
};

/* The hitmap categories a line keeps (the contention kinds). */
#define HM_LINE_CATS 5
static inline int hm_line__cat_slot(enum hm_mem_cat c)
{
	switch (c) {
	case HM_CAT_HITM_LOCAL:		return 0;
	case HM_CAT_HITM_XDIE:		return 1;
	case HM_CAT_HITM_REMOTE:	return 2;
	case HM_CAT_PEER_LOCAL:		return 3;
	case HM_CAT_PEER_REMOTE:	return 4;
	default:			return -1;
	}
}

/*
 * A line's fixed part is 256 bytes (4 cache lines), all of it what the
 * pass reads or writes a sample.  The CPU bitmap and the per-node counters
 * follow in the line itself where they fit its stride, so that a sample's
 * prefetch follows no pointer: 320 bytes (5 cache lines) hold 8 words, 384
 * (6) hold 16 (2 nodes: up to 320 and 832 CPUs; LKP's 192-CPU, 2-node
 * boxes take 6 words, so 320); past that they are in a block of their own.
 * The table picks the stride (hm_lines__new); read them with
 * hm_line__cpus() and hm_line__node().
 *
 * What the line's first sample sets and only a merge or the line's name
 * reads (struct hm_line_first: 32 bytes) is not in the fixed part: it ends
 * the line where the stride has room after the words above (4 words of
 * them or fewer, 9 to 12, or a block's two pointers), else it is in an
 * array beside the lines (in each segment's mapping), written once a
 * line, in the order lines are added.  So a sample of a
 * 192-CPU, 2-node file touches 5 cache lines, not 6 (384 bytes before).
 * Read it with hm_lines__first().
 */
#define HM_LINE_FIXED	256	/* bytes before ext */
#define HM_LINE_EXT	8	/* u64 words in a 320-byte line */
#define HM_LINE_EXT_BIG	16	/* u64 words in a 384-byte line */
struct hm_line {
	u64			addr;
	struct hm_c2c_stats	st;		/* perf's counters for the line */
	u32			cat[HM_LINE_CATS];	/* hitmap's HITM/peer categories, hm_line__cat() */
	u32			pa_cnt;		/* phys address changes, like perf's PA cnt */
	double			cost;		/* sum of sample weights */
	double			w_load;		/* weight of loads */
	u64			sockets;	/* accessor sockets (bit < 64) */
	u64			data_nodes;	/* nodes of the data (PHYS_ADDR) */
	u64			last_phys;
	u32			pid[HM_LINE_MAX_PIDS];
	u32			pkey;		/* hm_lines__add_key(): the first sample's perf key id */
	u8			nr_pids;
	u8			ext_at;		/* 0: bitmap and counters in a block (ext[0], ext[1]);
						   else the bitmap at ext[0], the counters at ext[ext_at] */
	u8			first_cpumode;	/* the first access's (what names the line) */
	u8			details;	/* hm_lines__defer_details(): 1 wanted, 2 filled */
	struct hm_line_off	*offs;
	u32			first_pid;
	u16			nr_offs, alloc_offs;	/* at most 1 << 15 (lines.c) */
	/* to the end of the line's stride: the CPU bitmap, then the counters, or the block's two pointers */
	u64			ext[];
} __attribute__((aligned(64)));

/* What a line's first sample set (see above). */
struct hm_line_first {
	u64	addr, ip;	/* the first access: what names the line */
	u64	seq;		/* the pass's sample number of that access */
	u64	phys;		/* the first nonzero phys address (pa_cnt's merge) */
};

/* The line's CPU bitmap (nr_cpus bits: hm_lines__nr_cpus()). */
static inline const u64 *hm_line__cpus(const struct hm_line *ln)
{
	return ln->ext_at ? ln->ext : (const u64 *)(uintptr_t)ln->ext[0];
}

/* Per accessor node index: hitm, peer, store (3 counters a node). */
static inline const u32 *hm_line__node(const struct hm_line *ln)
{
	return ln->ext_at ? (const u32 *)&ln->ext[ln->ext_at] : (const u32 *)(uintptr_t)ln->ext[1];
}

static inline u32 hm_line__cat(const struct hm_line *ln, enum hm_mem_cat c)
{
	int i = hm_line__cat_slot(c);

	return i < 0 ? 0 : ln->cat[i];
}

struct hm_lines;

struct hm_lines *hm_lines__new(u32 cacheline_size, int nr_cpus, int nr_nodes);
/* Line @ln's first sample (@ln: one of @l's lines); NULL when @ln is not @l's. */
const struct hm_line_first *hm_lines__first(const struct hm_lines *l, const struct hm_line *ln);
struct hm_line_ref;
/*
 * Line @ln as the namer needs it (names.h): its first access names it;
 * without one (@l NULL or @ln not @l's), the line's address and no code.
 */
void hm_lines__ref(const struct hm_lines *l, const struct hm_line *ln, struct hm_line_ref *ref);
void hm_lines__delete(struct hm_lines *l);
/* @one: this sample's perf counters; @node_idx: accessor node index or -1. */
int  hm_lines__add(struct hm_lines *l, const struct hm_mem_sample *ms,
		   const struct hm_c2c_stats *one, int node_idx);
/*
 * One table from @n tables that hold disjoint sets of lines (each line's
 * samples all went to one part, in the pass's order): lines in the order
 * of their first sample, so the result is the table one pass would have
 * built.  The parts are consumed (freed) in any case; NULL on failure.
 */
struct hm_lines *hm_lines__merge(struct hm_lines **parts, int n);
/*
 * One probe per sample in a batch: hm_lines__hint gives the line's index
 * + 1 (0: not in the table yet), which stays valid while lines are added;
 * the prefetches and hm_lines__add_at take it instead of probing again
 * (@hint 0: look the line up, adding it).  It compares the slots' hashes
 * only, not the line (not yet in the cache): rarely another line's, which
 * hm_lines__add_at sees and looks up again.  hm_lines__lookup is exact.
 * Stage 0 of the prefetch: the line; 1: its offsets (and CPU bitmap when
 * not in the line).
 */
u32  hm_lines__hint(const struct hm_lines *l, u64 line);
u32  hm_lines__lookup(const struct hm_lines *l, u64 line);
void hm_lines__prefetch_at(const struct hm_lines *l, u32 hint, int stage);
void hm_lines__prefetch_ips_at(const struct hm_lines *l, u32 hint, u64 addr);
/*
 * @seq: the sample's number in the pass, which orders the lines when tables
 * that hold parts of the lines are merged (--threads, parallel.c).
 */
int  hm_lines__add_at(struct hm_lines *l, const struct hm_mem_sample *ms,
		      const struct hm_c2c_stats *one, int node_idx, u64 seq, u32 hint);
/*
 * hm_lines__add_at() that also tells whether the sample's perf level-1 key
 * (@pkey, an id from hm_perf_lines__key_id; 0: none, always 0 returned) is
 * the one of the line's first sample, which the line keeps: 0 when it is
 * (the line's own counters are that entry's: perf-lines.c), 1 when it is
 * not (the caller counts the sample under (line, key) itself), or a
 * negative errno.  A line that had such a sample has HM_LINE_PKEY_OTHER.
 */
#define HM_LINE_PKEY_OTHER	(1u << 31)
int  hm_lines__add_key(struct hm_lines *l, const struct hm_mem_sample *ms,
		       const struct hm_c2c_stats *one, int node_idx, u64 seq, u32 hint, u32 pkey);
/* Prefetch hint for a batch: the line's hash slot (before hm_lines__lookup). */
void hm_lines__prefetch_slot(const struct hm_lines *l, u64 line);
/*
 * Deferred details: the per-offset rows (offs, code addresses) are not
 * built during the pass; the text, JSON and CSV views print them only for
 * the few lines they show.  hm_lines__shared() (or hm_lines__fill() for
 * other sets of lines) marks those lines and calls @fill once, which feeds
 * their samples again, in the pass's order, to hm_lines__add_details()
 * (report.c reads the file a second time).  Readers of every line's
 * offsets (TUI, HTML metrics) do not defer.
 */
/*
 * An idle thread's server (util/prefault.h) faults in the line array's next
 * stretches ahead of the adds; NULL: none.  The server must be done
 * (hm_prefault__serve returned) before the table is merged or deleted.
 */
struct hm_prefault;
void hm_lines__set_prefault(struct hm_lines *l, struct hm_prefault *pf);

typedef int (*hm_lines_fill_fn)(void *priv, struct hm_lines *l);
void hm_lines__defer_details(struct hm_lines *l, hm_lines_fill_fn fill, void *priv);
bool hm_lines__deferred(const struct hm_lines *l);
/* Fill the details of @v[0..n) (no-op without deferral); 0 or a negative errno. */
int  hm_lines__fill(struct hm_lines *l, struct hm_line *const *v, size_t n);
/* For @fill: whether @ln (hm_lines__at(hm_lines__lookup())) wants its details. */
static inline bool hm_lines__wants(const struct hm_line *ln)
{
	return ln->details == 1;
}
struct hm_line *hm_lines__at(struct hm_lines *l, u32 hint);
/* The offset and code-address part of hm_lines__add_at() for line @ln. */
int  hm_lines__add_details(struct hm_lines *l, struct hm_line *ln, const struct hm_mem_sample *ms,
			   const struct hm_c2c_stats *one);
size_t hm_lines__count(const struct hm_lines *l);
struct hm_line *hm_lines__get(struct hm_lines *l, size_t i);
/* The value a line is sorted on. */
double hm_line__metric(const struct hm_line *ln, enum hm_sort s);
/*
 * The lines the table shows, sorted descending: with @all every line (perf's
 * --show-all), else lines with HITM or peer loads (perf's "shared") whose
 * metric is at least 0.1% of the shared total (perf's display filter); for
 * HM_SORT_COST any line whose cost is at least 0.1% of all lines' cost.
 * Returns a malloc'ed array (caller frees) and its length.
 */
struct hm_line **hm_lines__shared(struct hm_lines *l, enum hm_sort s, bool all, size_t *n);
int  hm_lines__nr_cpus(const struct hm_lines *l);
u32  hm_lines__cacheline(const struct hm_lines *l);
/* Bytes held (for the benchmark's memory claims). */
size_t hm_lines__bytes(const struct hm_lines *l);
/*
 * Add the lines of @src, whose samples all come after @dst's in the pass
 * (report --threads over ranges of the file), to @dst as one pass over
 * both would have built them: per-line totals only (both deferred), new
 * lines after @dst's in their order, their first sample's number moved
 * on by @seq_base.  @src is left empty (its memory freed as its lines
 * are read; an empty @dst takes them as they are).  0 or -ENOMEM (@src
 * then only fit for hm_lines__delete).
 */
int  hm_lines__merge_after(struct hm_lines *dst, struct hm_lines *src, u64 seq_base);
/*
 * hm_lines__merge_after in two steps.  hm_lines__merge_found sums each of
 * @src's lines that @dst has into @dst's line and marks the others in
 * *@fresh (a malloc'ed bitmap by @src's index, the caller frees; NULL
 * when @dst takes @src as it is): it only reads @dst's slots and @src, and
 * writes @dst's lines but their pkey, so hm_perf_lines__merge_after may
 * run beside it (it reads both tables and writes pkeys only).
 * hm_lines__merge_new then appends the marked lines in @src's order and
 * empties @src.  0, -EINVAL or -ENOMEM.
 */
int  hm_lines__merge_found(struct hm_lines *dst, const struct hm_lines *src, u64 seq_base, u64 **fresh);
int  hm_lines__merge_new(struct hm_lines *dst, struct hm_lines *src, u64 seq_base, u64 *fresh);

#endif
