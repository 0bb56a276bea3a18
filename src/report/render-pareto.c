// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf c2c report --stdio's "Shared Data Cache Line Table" and "Shared
 * Cache Line Distribution Pareto", from the aggregation of pareto.c.
 *
 * The layout is perf 6.1's (builtin-c2c.c and its stdio hists printer):
 * columns joined by two spaces, two header lines whose first line spans
 * groups of columns, a line of dots, then the rows.  Lines are sorted on
 * the -d metric, ties in perf's cache-line order (cpumode, mapped first,
 * data map, pid, address); a line is shown when its metric is at least
 * 0.1% of the shared lines' total (--show-all: every line).  Rows sort on
 * offset, then the -d metric(s), ties in the -c key order; a row is shown
 * when it has stores or a non-zero -d metric.  The symbol, object, source
 * and thread column widths are those of each line's rows (the header uses
 * the first line's), symbol and source capped at 30 (--full-symbols: not).
 * Rows end where the --perf-compat version's row buffer does (render-cols.c:
 * a long -NN cpu list is cut at 466 characters by 6.1, later by 6.12, 7.3).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "pareto.h"
#include "render-cols.h"

#define RULE "=================================================\n"
#define DASHES "  ----------------------------------------------------------------------\n"
#define SYMBOL_WIDTH 30

/* --------------------------------------------------------- small helpers */

static double percent(u32 st, u32 tot)
{
	return tot ? 100. * (double)st / (double)tot : 0;
}

static int popcount(const u64 *v, int bits)
{
	int n = 0;

	for (int i = 0; i < (bits + 63) / 64; i++)
		n += __builtin_popcountll(v[i]);
	return n;
}

/* perf's nodestr: the data nodes, or "N/A" */
static void node_str(u64 nodes, int nr_nodes, char *buf, size_t size)
{
	if (nr_nodes > 64)
		nr_nodes = 64;
	if (nr_nodes < 64)
		nodes &= (1ULL << nr_nodes) - 1;
	if (!nodes)
		snprintf(buf, size, "N/A");
	else
		hm_cols__bits_list(&nodes, nr_nodes, buf, size);
}

static double metric(const struct hm_c2c_stats *s, double cost, enum hm_sort d)
{
	switch (d) {
	case HM_SORT_RMT:	return s->rmt_hitm;
	case HM_SORT_LCL:	return s->lcl_hitm;
	case HM_SORT_PEER:	return s->tot_peer;
	case HM_SORT_COST:	return cost;
	case HM_SORT_TOT:
	default:		return s->tot_hitm;
	}
}

/* ------------------------------------------------------------ columns */

/* What a column shows (perf's c2c dimensions). */
enum col_id {
	C_IDX, C_NUM_EMPTY, C_DCACHELINE, C_DNODE, C_PACNT, C_PCT_SNOOP,
	C_TOT_HITM, C_LCL_HITM, C_RMT_HITM, C_TOT_PEER, C_LCL_PEER, C_RMT_PEER,
	C_TOT_RECS, C_TOT_LOADS, C_TOT_STORES, C_ST_L1HIT, C_ST_L1MISS, C_ST_NA,
	C_LD_FBHIT, C_LD_L1HIT, C_LD_L2HIT, C_LD_LCLHIT, C_LD_RMTHIT, C_DRAM_LCL, C_DRAM_RMT,
	C_P_RMT_HITM, C_P_LCL_HITM, C_P_RMT_PEER, C_P_LCL_PEER, C_P_ST_L1HIT, C_P_ST_L1MISS,
	C_P_ST_NA, C_OFFSET, C_ONODE, C_PID, C_TID, C_IADDR, C_MEAN_RMT, C_MEAN_LCL,
	C_MEAN_RMT_PEER, C_MEAN_LCL_PEER, C_MEAN_LOAD, C_CPUCNT, C_SYMBOL, C_DSO, C_SRCLINE,
	C_NODE,
};

/* --------------------------------------------------------- render state */

struct rrow {
	const struct hm_pareto_row *r;
	char	sym[320];	/* "[.] name" text before truncation, or the raw address */
	bool	has_sym;
	size_t	sym_len;	/* perf's HISTC_SYMBOL contribution */
	const char *dso;
	char	src[320];
	char	comm[64];
};

struct ctx {
	const struct hm_pareto		*pa;
	const struct hm_report		*r;
	const struct hm_pareto_render	*o;
	const struct hm_pareto_opts	*co;
	bool	peer;
	int	nr_nodes, nr_cpus;
	const int *cpu_node_idx;
	int	onode_w;	/* offset Node column width */
	enum hm_perf_compat compat;	/* whose row buffer cuts the rows */
};

static char level_of(u8 cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:		return 'k';
	case PERF_RECORD_MISC_USER:		return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL:	return 'g';
	case PERF_RECORD_MISC_GUEST_USER:	return 'u';
	default:				return 'H';
	}
}

static u64 al_addr(const struct hm_map *m, u64 ip)
{
	if (!m || m->type == HM_MAP_VMLINUX || m->kernel)
		return ip;
	return ip - m->start + m->pgoff;
}

static void resolve_row(const struct ctx *x, struct rrow *rr)
{
	const struct hm_pareto_row *w = rr->r;
	struct hm_symbol_info info;
	const char *comm;
	bool ok = false;

	memset(&info, 0, sizeof(info));
	if (hm_report__symbols(x->r) && hm_report__maps(x->r) && w->imap)
		ok = hm_symbols__resolve(hm_report__symbols(x->r), hm_report__maps(x->r), w->pid, w->cpumode, w->ip, &info) == 0;
	rr->has_sym = ok && info.name;
	if (rr->has_sym) {
		snprintf(rr->sym, sizeof(rr->sym), "%s", info.name);
		rr->sym_len = strlen(info.name) + 4;
	} else {
		snprintf(rr->sym, sizeof(rr->sym), "%-#.*" PRIx64, 16, al_addr(w->imap, w->ip));
		rr->sym_len = 16 + 4 + 2;
	}
	rr->dso = w->dso;
	/* perf's srcline: file:line from the debug info, else sym+offset, else dso[addr] */
	if (!w->imap) {
		snprintf(rr->src, sizeof(rr->src), "??:0");
	} else if (ok && info.file && info.line > 0) {
		const char *b = strrchr(info.file, '/');

		snprintf(rr->src, sizeof(rr->src), "%s:%d", b ? b + 1 : info.file, info.line);
	} else if (rr->has_sym) {
		snprintf(rr->src, sizeof(rr->src), "%s+%" PRIu64, info.name, info.offset);
	} else {
		snprintf(rr->src, sizeof(rr->src), "%s[%" PRIx64 "]", w->dso ? w->dso : "",
			 al_addr(w->imap, w->ip));
	}
	comm = hm_report__maps(x->r) ? hm_maps__comm(hm_report__maps(x->r), w->tid) : NULL;
	if (comm)
		snprintf(rr->comm, sizeof(rr->comm), "%s", comm);
	else
		snprintf(rr->comm, sizeof(rr->comm), ":%u", w->tid);
}

/* ------------------------------------------------------------- sorting */

static int key_cmp_line(const struct hm_pareto_line *a, const struct hm_pareto_line *b)
{
	/* perf's sort__dcacheline_cmp order, as its tree lists it */
	if (a->k.cpumode != b->k.cpumode)
		return a->k.cpumode < b->k.cpumode ? -1 : 1;
	if (a->k.mapped != b->k.mapped)
		return a->k.mapped ? -1 : 1;
	if (a->k.dso_id != b->k.dso_id)
		return a->k.dso_id < b->k.dso_id ? -1 : 1;
	if (a->k.pid != b->k.pid)
		return a->k.pid < b->k.pid ? -1 : 1;
	if (a->k.line != b->k.line)
		return a->k.line < b->k.line ? -1 : 1;
	return 0;
}

static int line_cmp(const void *pa_, const void *pb_, void *arg)
{
	const struct hm_pareto_line *a = *(const struct hm_pareto_line *const *)pa_;
	const struct hm_pareto_line *b = *(const struct hm_pareto_line *const *)pb_;
	enum hm_sort d = ((const struct ctx *)arg)->o->sort;
	double ma = metric(&a->st, a->cost, d), mb = metric(&b->st, b->cost, d);

	if (ma != mb)
		return ma > mb ? -1 : 1;
	return key_cmp_line(a, b);
}

static int dso_cmp(const char *a, const char *b)
{
	/* perf's _sort__dso_cmp: no object sorts after every object */
	if (!a || !b)
		return !a && !b ? 0 : !a ? 1 : -1;
	return strcmp(a, b);
}

static int row_cmp(const void *pa_, const void *pb_, void *arg)
{
	const struct hm_pareto_row *a = ((const struct rrow *)pa_)->r;
	const struct hm_pareto_row *b = ((const struct rrow *)pb_)->r;
	const struct hm_pareto_opts *co = ((const struct ctx *)arg)->co;
	int c;

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	switch (((const struct ctx *)arg)->o->sort) {
	case HM_SORT_RMT:
		if (a->st.rmt_hitm != b->st.rmt_hitm)
			return a->st.rmt_hitm > b->st.rmt_hitm ? -1 : 1;
		if (a->st.lcl_hitm != b->st.lcl_hitm)
			return a->st.lcl_hitm > b->st.lcl_hitm ? -1 : 1;
		break;
	case HM_SORT_LCL:
		if (a->st.lcl_hitm != b->st.lcl_hitm)
			return a->st.lcl_hitm > b->st.lcl_hitm ? -1 : 1;
		if (a->st.rmt_hitm != b->st.rmt_hitm)
			return a->st.rmt_hitm > b->st.rmt_hitm ? -1 : 1;
		break;
	case HM_SORT_PEER:
		if (a->st.tot_peer != b->st.tot_peer)
			return a->st.tot_peer > b->st.tot_peer ? -1 : 1;
		break;
	case HM_SORT_COST:
		if (a->cost != b->cost)
			return a->cost > b->cost ? -1 : 1;
		break;
	case HM_SORT_TOT:
	default:
		if (a->st.tot_hitm != b->st.tot_hitm)
			return a->st.tot_hitm > b->st.tot_hitm ? -1 : 1;
		break;
	}
	/* ties: perf's tree order of "offset,<coalesce>" */
	for (int i = 0; i < co->nr_fields; i++) {
		switch (co->field[i]) {
		case HM_PARETO_TID:
			if (a->tid != b->tid)
				return a->tid < b->tid ? -1 : 1;
			break;
		case HM_PARETO_PID:	/* perf's pid_cmp runs the other way */
			if (a->pid != b->pid)
				return a->pid > b->pid ? -1 : 1;
			break;
		case HM_PARETO_IADDR:
			if (a->ip != b->ip)
				return (s64)a->ip < (s64)b->ip ? -1 : 1;
			break;
		case HM_PARETO_DSO:
			c = dso_cmp(a->dso, b->dso);
			if (c)
				return c;
			break;
		}
	}
	return 0;
}

/* perf's is_valid_hist_entry(): stores, or a non-zero -d metric */
static bool row_valid(const struct hm_pareto_row *w, enum hm_sort d)
{
	if (w->st.store)
		return true;
	if (d == HM_SORT_COST)
		return w->st.load != 0;
	return metric(&w->st, w->cost, d) != 0;
}

/* ------------------------------------------------------------ the table */

static void layout_table(struct hm_cols *l, bool peer, bool double_cl, enum hm_sort d)
{
	static char cl_h0[64];
	static const char *const snoop_h0[] = {
		[HM_SORT_TOT] = "Tot", [HM_SORT_RMT] = "Rmt", [HM_SORT_LCL] = "Lcl",
		[HM_SORT_PEER] = "Peer", [HM_SORT_COST] = "Load",
	};
	static const char *const snoop_h1[] = {
		[HM_SORT_TOT] = "Hitm", [HM_SORT_RMT] = "Hitm", [HM_SORT_LCL] = "Hitm",
		[HM_SORT_PEER] = "Snoop", [HM_SORT_COST] = "Cost",
	};

	/*
	 * perf widens only the offset's Node column, never this one.  The
	 * title is "Double-Cacheline" with --double-cl, as in every perf that
	 * has the option (6.3+, the same commit; 6.1 has neither).
	 */
	hm_cols__fill_line(double_cl ? "Double-Cacheline" : "Cacheline", 18 + 4 + 6 + 4, cl_h0, sizeof(cl_h0));
	l->n = 0;
	hm_cols__add(l, C_IDX, 5, NULL, 0, "Index");
	hm_cols__add(l, C_DCACHELINE, 18, cl_h0, 2, "Address");
	hm_cols__add(l, C_DNODE, 4, NULL, 0, "Node");
	hm_cols__add(l, C_PACNT, 6, NULL, 0, "PA cnt");
	hm_cols__add(l, C_PCT_SNOOP, 7, snoop_h0[d], 0, snoop_h1[d]);
	if (peer) {
		hm_cols__add(l, C_TOT_PEER, 7, "------- Load Peer -------", 2, "Total");
		hm_cols__add(l, C_LCL_PEER, 7, NULL, 0, "Local");
		hm_cols__add(l, C_RMT_PEER, 7, NULL, 0, "Remote");
	} else {
		hm_cols__add(l, C_TOT_HITM, 7, "------- Load Hitm -------", 2, "Total");
		hm_cols__add(l, C_LCL_HITM, 7, NULL, 0, "LclHitm");
		hm_cols__add(l, C_RMT_HITM, 7, NULL, 0, "RmtHitm");
	}
	hm_cols__add(l, C_TOT_RECS, 7, "Total", 0, "records");
	hm_cols__add(l, C_TOT_LOADS, 7, "Total", 0, "Loads");
	hm_cols__add(l, C_TOT_STORES, 7, "Total", 0, "Stores");
	hm_cols__add(l, C_ST_L1HIT, 7, "--------- Stores --------", 2, "L1Hit");
	hm_cols__add(l, C_ST_L1MISS, 7, NULL, 0, "L1Miss");
	hm_cols__add(l, C_ST_NA, 7, NULL, 0, "N/A");
	hm_cols__add(l, C_LD_FBHIT, 7, "----- Core Load Hit -----", 2, "FB");
	hm_cols__add(l, C_LD_L1HIT, 7, NULL, 0, "L1");
	hm_cols__add(l, C_LD_L2HIT, 7, NULL, 0, "L2");
	hm_cols__add(l, C_LD_LCLHIT, 8, "- LLC Load Hit --", 1, "LclHit");
	hm_cols__add(l, C_LCL_HITM, 7, NULL, 0, "LclHitm");
	hm_cols__add(l, C_LD_RMTHIT, 8, "- RMT Load Hit --", 1, "RmtHit");
	hm_cols__add(l, C_RMT_HITM, 7, NULL, 0, "RmtHitm");
	hm_cols__add(l, C_DRAM_LCL, 8, "--- Load Dram ----", 1, "Lcl");
	hm_cols__add(l, C_DRAM_RMT, 8, NULL, 0, "Rmt");
}

static u64 llc_misses(const struct hm_c2c_stats *s)
{
	return (u64)s->lcl_dram + s->rmt_dram + s->rmt_hitm + s->rmt_hit;
}

static u64 tot_loads(const struct hm_c2c_stats *s)
{
	return llc_misses(s) + s->ld_fbhit + s->ld_l1hit + s->ld_l2hit + s->ld_llchit + s->lcl_hitm;
}

static u64 tot_recs(const struct hm_c2c_stats *s)
{
	return tot_loads(s) + s->st_l1hit + s->st_l1miss + s->st_na;
}

/* The cells every level shows from the counters alone. */
static bool stat_cell(enum col_id id, const struct hm_c2c_stats *s, int w, char *t, size_t ts)
{
	u64 v;

	switch (id) {
	case C_TOT_HITM:	v = (u64)s->lcl_hitm + s->rmt_hitm; break;
	case C_LCL_HITM:	v = s->lcl_hitm; break;
	case C_RMT_HITM:	v = s->rmt_hitm; break;
	case C_TOT_PEER:	v = s->tot_peer; break;
	case C_LCL_PEER:	v = s->lcl_peer; break;
	case C_RMT_PEER:	v = s->rmt_peer; break;
	case C_TOT_RECS:	v = tot_recs(s); break;
	case C_TOT_LOADS:	v = tot_loads(s); break;
	case C_TOT_STORES:	v = s->store; break;
	case C_ST_L1HIT:	v = s->st_l1hit; break;
	case C_ST_L1MISS:	v = s->st_l1miss; break;
	case C_ST_NA:		v = s->st_na; break;
	case C_LD_FBHIT:	v = s->ld_fbhit; break;
	case C_LD_L1HIT:	v = s->ld_l1hit; break;
	case C_LD_L2HIT:	v = s->ld_l2hit; break;
	case C_LD_LCLHIT:	v = s->ld_llchit; break;
	case C_LD_RMTHIT:	v = s->rmt_hit; break;
	case C_DRAM_LCL:	v = s->lcl_dram; break;
	case C_DRAM_RMT:	v = s->rmt_dram; break;
	default:		return false;
	}
	/* perf prints the u32 counters with %u, its u64 sums with PRIu64 */
	snprintf(t, ts, "%*" PRIu64, w, v);
	return true;
}

static void pct_cell(double p, int w, char *t, size_t ts)
{
	char buf[10];

	snprintf(buf, sizeof(buf), "%.2F%%", p);
	snprintf(t, ts, "%*s", w, buf);
}

static int print_table(const struct ctx *x, struct hm_pareto_line **v, size_t n,
			const struct hm_c2c_stats *all, double all_cost, FILE *f)
{
	struct hm_cols l;
	struct hm_row rb = { 0 };
	char t[512], ns[256];
	u32 tot = 0;

	layout_table(&l, x->peer, x->o->double_cl, x->o->sort);
	hm_cols__print_header(&l, f);
	switch (x->o->sort) {
	case HM_SORT_RMT:	tot = all->rmt_hitm; break;
	case HM_SORT_LCL:	tot = all->lcl_hitm; break;
	case HM_SORT_PEER:	tot = all->tot_peer; break;
	default:		tot = all->tot_hitm; break;
	}
	for (size_t i = 0; i < n; i++) {
		const struct hm_pareto_line *ln = v[i];

		for (int c = 0; c < l.n; c++) {
			const struct hm_col *cl = &l.c[c];
			bool last = c == l.n - 1;

			if (stat_cell(cl->id, &ln->st, cl->width, t, sizeof(t))) {
				hm_row__cell(&rb, cl, last, t);
				continue;
			}
			switch (cl->id) {
			case C_IDX:
				snprintf(t, sizeof(t), "%*zu", cl->width, i);
				break;
			case C_DCACHELINE:
				snprintf(ns, sizeof(ns), "0x%" PRIx64, ln->addr);
				snprintf(t, sizeof(t), "%*s", cl->width, ns);
				break;
			case C_DNODE:
				node_str(ln->nodes, x->nr_nodes, ns, sizeof(ns));
				snprintf(t, sizeof(t), "%*s", cl->width, ns);
				break;
			case C_PACNT:
				snprintf(t, sizeof(t), "%*u", cl->width, ln->paddr_cnt);
				break;
			case C_PCT_SNOOP:
				if (x->o->sort == HM_SORT_COST)
					pct_cell(all_cost > 0 ? 100. * ln->cost / all_cost : 0, cl->width,
						 t, sizeof(t));
				else	/* percent_costly_snoop(): 100 * (st / tot) */
					pct_cell(tot ? 100 * ((double)(u32)metric(&ln->st, 0, x->o->sort) / tot) : 0,
						 cl->width, t, sizeof(t));
				break;
			default:
				t[0] = '\0';
				break;
			}
			hm_row__cell(&rb, cl, last, t);
		}
		hm_row__flush(&rb, &l, x->compat, f);
	}
	if (rb.err) {
		hm_row__release(&rb);
		return -ENOMEM;
	}
	hm_row__release(&rb);
	return 0;
}

/* ----------------------------------------------------------- the Pareto */

struct widths {
	int	sym, dso, thread, src;
};

static void layout_pareto(const struct ctx *x, const struct widths *w, struct hm_cols *l,
			  char *off_h0, size_t off_h0_size)
{
	const struct hm_pareto_opts *co = x->co;
	bool iaddr = hm_pareto_opts__has(co, HM_PARETO_IADDR);
	bool src = iaddr && !x->o->no_source;
	static const char *const node_h[] = {
		"Node", "Node{cpus %hitms %stores}", "Node{cpu list}",
	};
	const char *nh = x->o->node_info == 1 && x->peer ? "Node{cpus %peers %stores}" :
			 node_h[x->o->node_info > 2 ? 2 : x->o->node_info];

	hm_cols__fill_line("Data address", 18 + x->onode_w + 6 + 4, off_h0, off_h0_size);
	l->n = 0;
	hm_cols__add(l, C_NUM_EMPTY, 5, NULL, 0, "Num");
	if (x->peer) {
		hm_cols__add(l, C_P_RMT_PEER, 7, "-- Peer Snoop --", 1, "Rmt");
		hm_cols__add(l, C_P_LCL_PEER, 7, NULL, 0, "Lcl");
	} else {
		hm_cols__add(l, C_P_RMT_HITM, 7, "----- HITM -----", 1, "RmtHitm");
		hm_cols__add(l, C_P_LCL_HITM, 7, NULL, 0, "LclHitm");
	}
	hm_cols__add(l, C_P_ST_L1HIT, 7, "------- Store Refs ------", 2, "L1 Hit");
	hm_cols__add(l, C_P_ST_L1MISS, 7, NULL, 0, "L1 Miss");
	hm_cols__add(l, C_P_ST_NA, 7, NULL, 0, "N/A");
	hm_cols__add(l, C_OFFSET, 18, off_h0, 2, "Offset");
	hm_cols__add(l, C_ONODE, x->onode_w, NULL, 0, "Node");
	hm_cols__add(l, C_PACNT, 6, NULL, 0, "PA cnt");
	if (hm_pareto_opts__has(co, HM_PARETO_PID))
		hm_cols__add(l, C_PID, 7, NULL, 0, "Pid");
	if (hm_pareto_opts__has(co, HM_PARETO_TID))
		hm_cols__add(l, C_TID, w->thread, NULL, 0, "Tid");
	if (iaddr)
		hm_cols__add(l, C_IADDR, 18, NULL, 0, "Code address");
	if (x->peer) {
		hm_cols__add(l, C_MEAN_RMT_PEER, 8, "---------- cycles ----------", 2, "rmt peer");
		hm_cols__add(l, C_MEAN_LCL_PEER, 8, NULL, 0, "lcl peer");
	} else {
		hm_cols__add(l, C_MEAN_RMT, 8, "---------- cycles ----------", 2, "rmt hitm");
		hm_cols__add(l, C_MEAN_LCL, 8, NULL, 0, "lcl hitm");
	}
	hm_cols__add(l, C_MEAN_LOAD, 8, NULL, 0, "load");
	hm_cols__add(l, C_TOT_RECS, 7, "Total", 0, "records");
	hm_cols__add(l, C_CPUCNT, 8, "cpu", 0, "cnt");
	if (iaddr)
		hm_cols__add(l, C_SYMBOL, w->sym, NULL, 0, "Symbol");
	if (iaddr || hm_pareto_opts__has(co, HM_PARETO_DSO))
		hm_cols__add(l, C_DSO, w->dso, "Shared", 0, "Object");
	if (src)
		hm_cols__add(l, C_SRCLINE, w->src, NULL, 0, "Source:Line");
	hm_cols__add(l, C_NODE, 4, NULL, 0, nh);
}

/* perf's HISTC widths of one line's rows (every row, shown or not). */
static void line_widths(const struct ctx *x, const struct rrow *rr, size_t n, struct widths *w)
{
	int sym = 0, dso = 0, comm = 0, src = 0;
	bool unres = false;

	for (size_t i = 0; i < n; i++) {
		int len;

		if ((int)rr[i].sym_len > sym)
			sym = (int)rr[i].sym_len;
		if (!rr[i].has_sym)
			unres = true;
		if (rr[i].dso && (len = (int)strlen(rr[i].dso)) > dso)
			dso = len;
		if ((len = (int)strlen(rr[i].comm)) > comm)
			comm = len;
		if ((len = (int)strlen(rr[i].src)) > src)
			src = len;
	}
	if (unres && dso < 16)
		dso = 16;
	if (src < 11)
		src = 11;
	w->sym = x->o->full_symbols || sym < SYMBOL_WIDTH ? sym : SYMBOL_WIDTH;
	w->src = x->o->full_symbols || src < SYMBOL_WIDTH ? src : SYMBOL_WIDTH;
	w->dso = dso;
	w->thread = comm ? comm + 8 : 0;
}

static void node_cell(const struct ctx *x, const struct hm_pareto_row *w, struct hm_row *rb,
		      const struct hm_col *cl)
{
	char buf[4096], list[1024];
	size_t len = 0;
	bool first = true;
	u64 set[64];
	int words = (x->nr_cpus + 63) / 64;

	buf[0] = '\0';
	if (words > 64)
		words = 64;
	for (int nd = 0; nd < x->nr_nodes && len < sizeof(buf) - 64; nd++) {
		int num;

		memset(set, 0, sizeof(set));
		for (int c = 0; c < words * 64 && c < x->nr_cpus; c++)
			if (((w->cpus[c / 64] >> (c % 64)) & 1) && x->cpu_node_idx[c] == nd)
				set[c / 64] |= 1ULL << (c % 64);
		num = popcount(set, words * 64);
		if (!num) {
			if (x->o->node_info == 1)
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%21s", " ");
			continue;
		}
		if (!first)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, " ");
		switch (x->o->node_info) {
		case 0:
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%2d", nd);
			break;
		case 1: {
			const struct hm_pareto_node *ns = &w->node[nd];
			u32 val, sum;

			switch (x->o->sort) {
			case HM_SORT_RMT:	val = ns->rmt_hitm; sum = w->st.rmt_hitm; break;
			case HM_SORT_LCL:	val = ns->lcl_hitm; sum = w->st.lcl_hitm; break;
			case HM_SORT_PEER:	val = ns->tot_peer; sum = w->st.tot_peer; break;
			default:		val = ns->lcl_hitm + ns->rmt_hitm; sum = w->st.tot_hitm; break;
			}
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%2d{%2d ", nd, num);
			if (sum)
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%5.1f%% ",
							percent(val, sum));
			else
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%6s ", "n/a");
			if (w->st.store)
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%5.1f%%}",
							percent(ns->store, w->st.store));
			else
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%6s}", "n/a");
			break;
		}
		default:
			hm_cols__bits_list(set, words * 64, list, sizeof(list));
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%2d{%s}", nd, list);
			break;
		}
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		first = false;
	}
	hm_row__cell(rb, cl, true, buf);
}

static void mean_cell(const struct hm_pareto_mean *m, int w, char *t, size_t ts)
{
	char buf[10];

	snprintf(buf, sizeof(buf), "%6.0f", m->n ? m->mean : 0.0);
	snprintf(t, ts, "%*s", w, buf);
}

static void print_row(const struct ctx *x, const struct hm_cols *l, const struct widths *wd,
		      const struct rrow *rr, const struct hm_c2c_stats *lt, struct hm_row *rb, FILE *f)
{
	const struct hm_pareto_row *w = rr->r;
	char t[512], ns[256];

	for (int c = 0; c < l->n; c++) {
		const struct hm_col *cl = &l->c[c];
		bool last = c == l->n - 1;

		if (cl->id == C_TOT_RECS) {
			stat_cell(cl->id, &w->st, cl->width, t, sizeof(t));
			hm_row__cell(rb, cl, last, t);
			continue;
		}
		switch (cl->id) {
		case C_NUM_EMPTY:
			snprintf(t, sizeof(t), "%*s", cl->width, "");
			break;
		case C_P_RMT_HITM:
			pct_cell(percent(w->st.rmt_hitm, lt->rmt_hitm), cl->width, t, sizeof(t));
			break;
		case C_P_LCL_HITM:
			pct_cell(percent(w->st.lcl_hitm, lt->lcl_hitm), cl->width, t, sizeof(t));
			break;
		case C_P_RMT_PEER:
			pct_cell(percent(w->st.rmt_peer, lt->rmt_peer), cl->width, t, sizeof(t));
			break;
		case C_P_LCL_PEER:
			pct_cell(percent(w->st.lcl_peer, lt->lcl_peer), cl->width, t, sizeof(t));
			break;
		case C_P_ST_L1HIT:
			pct_cell(percent(w->st.st_l1hit, lt->st_l1hit), cl->width, t, sizeof(t));
			break;
		case C_P_ST_L1MISS:
			pct_cell(percent(w->st.st_l1miss, lt->st_l1miss), cl->width, t, sizeof(t));
			break;
		case C_P_ST_NA:
			pct_cell(percent(w->st.st_na, lt->st_na), cl->width, t, sizeof(t));
			break;
		case C_OFFSET:
			snprintf(ns, sizeof(ns), "0x%x", w->off);
			snprintf(t, sizeof(t), "%*s", cl->width, ns);
			break;
		case C_ONODE:
			node_str(w->nodes, x->nr_nodes, ns, sizeof(ns));
			snprintf(t, sizeof(t), "%*s", cl->width, ns);
			break;
		case C_PACNT:
			snprintf(t, sizeof(t), "%*u", cl->width, w->paddr_cnt);
			break;
		case C_PID:
			snprintf(t, sizeof(t), "%*d", cl->width, (int)w->pid);
			break;
		case C_TID: {
			int cw = (wd->thread > 7 ? wd->thread : 7) - 8;

			if (cw < 0)
				snprintf(t, sizeof(t), "%7d:%s", (int)w->tid, rr->comm);
			else
				snprintf(t, sizeof(t), "%7d:%-*.*s", (int)w->tid, cw, cw, rr->comm);
			break;
		}
		case C_IADDR:
			snprintf(ns, sizeof(ns), "0x%" PRIx64, w->ip);
			snprintf(t, sizeof(t), "%*s", cl->width, ns);
			break;
		case C_MEAN_RMT:
			mean_cell(&w->mean[HM_PM_RMT_HITM], cl->width, t, sizeof(t));
			break;
		case C_MEAN_LCL:
			mean_cell(&w->mean[HM_PM_LCL_HITM], cl->width, t, sizeof(t));
			break;
		case C_MEAN_RMT_PEER:
			mean_cell(&w->mean[HM_PM_RMT_PEER], cl->width, t, sizeof(t));
			break;
		case C_MEAN_LCL_PEER:
			mean_cell(&w->mean[HM_PM_LCL_PEER], cl->width, t, sizeof(t));
			break;
		case C_MEAN_LOAD:
			mean_cell(&w->mean[HM_PM_LOAD], cl->width, t, sizeof(t));
			break;
		case C_CPUCNT:
			snprintf(ns, sizeof(ns), "%d", popcount(w->cpus, x->nr_cpus));
			snprintf(t, sizeof(t), "%*s", cl->width, ns);
			break;
		case C_SYMBOL: {
			int room = cl->width - 4;

			if (rr->has_sym)
				snprintf(t, sizeof(t), "[%c] %.*s", level_of(w->cpumode),
					 room > 0 ? room : 0, rr->sym);
			else
				snprintf(t, sizeof(t), "[%c] %s", level_of(w->cpumode), rr->sym);
			break;
		}
		case C_DSO:
			snprintf(t, sizeof(t), "%-*.*s", cl->width, cl->width,
				 rr->dso ? rr->dso : "[unknown]");
			break;
		case C_SRCLINE:
			snprintf(t, sizeof(t), "%-.*s", cl->width, rr->src);
			break;
		case C_NODE:
			node_cell(x, w, rb, cl);
			continue;
		default:
			t[0] = '\0';
			break;
		}
		hm_row__cell(rb, cl, last, t);
	}
	hm_row__flush(rb, l, x->compat, f);
}

static int print_pareto(const struct ctx *x, struct hm_pareto_line **v, size_t n, FILE *f)
{
	const struct hm_pareto *pa = x->pa;
	size_t nr_lines = hm_pareto__nr_lines(pa), nr_rows = hm_pareto__nr_rows(pa);
	size_t *first = NULL, *fill = NULL, *order = NULL;
	struct rrow *rr = NULL;
	struct hm_row rb = { 0 };
	char off_h0[128];
	bool header = false;
	int err = -ENOMEM;

	if (!n)
		return 0;
	/* the rows of each line, by a counting pass over the rows */
	first = calloc(nr_lines + 1, sizeof(*first));
	fill = calloc(nr_lines + 1, sizeof(*fill));
	order = malloc((nr_rows ? nr_rows : 1) * sizeof(*order));
	if (!first || !fill || !order)
		goto out;
	for (size_t i = 0; i < nr_rows; i++)
		first[hm_pareto__row(pa, i)->line + 1]++;
	for (size_t i = 0; i < nr_lines; i++)
		first[i + 1] += first[i];
	for (size_t i = 0; i < nr_rows; i++) {
		u32 li = hm_pareto__row(pa, i)->line;

		order[first[li] + fill[li]++] = i;
	}
	for (size_t i = 0; i < n; i++) {
		const struct hm_pareto_line *ln = v[i];
		size_t li = (size_t)(ln - hm_pareto__line(pa, 0)), nr = first[li + 1] - first[li];
		struct rrow *nrr = realloc(rr, (nr ? nr : 1) * sizeof(*rr));
		struct hm_cols l;
		struct widths wd;
		char t[64];

		if (!nrr)
			goto out;
		rr = nrr;
		for (size_t k = 0; k < nr; k++) {
			memset(&rr[k], 0, sizeof(rr[k]));
			rr[k].r = hm_pareto__row(pa, order[first[li] + k]);
			resolve_row(x, &rr[k]);
		}
		line_widths(x, rr, nr, &wd);
		qsort_r(rr, nr, sizeof(*rr), row_cmp, (void *)x);
		layout_pareto(x, &wd, &l, off_h0, sizeof(off_h0));
		if (!header) {
			hm_cols__print_header(&l, f);
			header = true;
		} else {
			fputs("\n", f);
		}
		fputs(DASHES, f);
		/* the line's own row: cl_num, HITM (or peer), stores, address */
		fprintf(f, "  %5zu", i);
		if (x->peer)
			fprintf(f, "  %7u  %7u", ln->st.rmt_peer, ln->st.lcl_peer);
		else
			fprintf(f, "  %7u  %7u", ln->st.rmt_hitm, ln->st.lcl_hitm);
		fprintf(f, "  %7u  %7u  %7u", ln->st.st_l1hit, ln->st.st_l1miss, ln->st.st_na);
		snprintf(t, sizeof(t), "0x%" PRIx64, ln->addr);
		fprintf(f, "  %18s\n", t);
		fputs(DASHES, f);
		for (size_t k = 0; k < nr; k++)
			if (row_valid(rr[k].r, x->o->sort))
				print_row(x, &l, &wd, &rr[k], &ln->st, &rb, f);
	}
	err = rb.err ? -ENOMEM : 0;
out:
	hm_row__release(&rb);
	free(rr);
	free(first);
	free(fill);
	free(order);
	return err;
}

/* ----------------------------------------------------------------- main */

int hm_pareto__render(const struct hm_pareto *pa, const struct hm_report *r,
		      const struct hm_pareto_render *o, FILE *f)
{
	size_t nr = hm_pareto__nr_lines(pa), n = 0;
	struct hm_pareto_line **v;
	struct hm_c2c_stats all, shared;
	double all_cost = 0, shared_m = 0;
	struct ctx x;
	char ns[256];
	int err;

	if (!pa)
		return -EINVAL;
	memset(&x, 0, sizeof(x));
	x.pa = pa;
	x.r = r;
	x.o = o;
	x.co = hm_pareto__opts(pa);
	x.peer = o->sort == HM_SORT_PEER;
	x.nr_nodes = hm_pareto__nr_nodes(pa);
	x.nr_cpus = hm_pareto__nr_cpus(pa);
	x.cpu_node_idx = hm_pareto__cpu_node_idx(pa);
	x.onode_w = 4;
	x.compat = r ? hm_report__opts(r)->perf_compat : HM_PERF_NEWEST;

	memset(&all, 0, sizeof(all));
	memset(&shared, 0, sizeof(shared));
	v = malloc((nr ? nr : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		const struct hm_pareto_line *ln = hm_pareto__line(pa, i);

		hm_c2c_stats__sum(&all, &ln->st);
		all_cost += ln->cost;
		if (ln->st.lcl_hitm || ln->st.rmt_hitm || ln->st.lcl_peer || ln->st.rmt_peer)
			hm_c2c_stats__sum(&shared, &ln->st);
		v[i] = (struct hm_pareto_line *)ln;
	}
	shared_m = o->sort == HM_SORT_COST ? all_cost : metric(&shared, 0, o->sort);
	qsort_r(v, nr, sizeof(*v), line_cmp, &x);
	/* perf's he__display(): at least 0.1% of the shared lines' metric */
	for (size_t i = 0; i < nr; i++) {
		double m = metric(&v[i]->st, v[i]->cost, o->sort);

		if (!o->show_all && (shared_m == 0 || m / shared_m < 0.001))
			continue;
		v[n++] = v[i];
	}
	/* the offset Node column grows to the widest node list of the shown lines and their rows */
	for (size_t i = 0; i < n; i++) {
		int len;

		node_str(v[i]->nodes, x.nr_nodes, ns, sizeof(ns));
		if ((len = (int)strlen(ns)) > x.onode_w)
			x.onode_w = len;
	}
	for (size_t i = 0; i < hm_pareto__nr_rows(pa) && n; i++) {
		const struct hm_pareto_row *w = hm_pareto__row(pa, i);
		const struct hm_pareto_line *ln = hm_pareto__line(pa, w->line);
		double m = metric(&ln->st, ln->cost, o->sort);
		int len;

		if (!o->show_all && (shared_m == 0 || m / shared_m < 0.001))
			continue;
		node_str(w->nodes, x.nr_nodes, ns, sizeof(ns));
		if ((len = (int)strlen(ns)) > x.onode_w)
			x.onode_w = len;
	}

	fprintf(f, "\n" RULE "           Shared Data Cache Line Table          \n" RULE "#\n");
	err = print_table(&x, v, n, &all, all_cost, f);
	if (!err) {
		fprintf(f, "\n" RULE "      Shared Cache Line Distribution Pareto      \n" RULE "#\n");
		err = print_pareto(&x, v, n, f);
	}
	free(v);
	if (err < 0)
		return err;
	return ferror(f) ? -EIO : 0;
}
