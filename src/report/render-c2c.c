// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap report's c2c views: perf's stat blocks (labels and numbers of perf
 * 6.1's print_c2c__display_stats/print_shared_cacheline_info), the shared
 * cache-line table (one row per virtual line), per-line details, the
 * per-node and per-socket breakdown, and JSON, CSV and LKP output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include "render-c2c.h"
#include "counts.h"
#include "names.h"
#include "lines.h"
#include "places.h"

#define RULE "=================================================\n"

u64 hm_c2c_stats__llc_misses(const struct hm_c2c_stats *s)
{
	return (u64)s->lcl_dram + s->rmt_dram + s->rmt_hitm + s->rmt_hit;
}

u64 hm_c2c_stats__total_loads(const struct hm_c2c_stats *s)
{
	return hm_c2c_stats__llc_misses(s) + s->ld_fbhit + s->ld_l1hit + s->ld_l2hit +
	       s->ld_llchit + s->lcl_hitm;
}

u64 hm_c2c_stats__total_records(const struct hm_c2c_stats *s)
{
	return hm_c2c_stats__total_loads(s) + s->st_l1hit + s->st_l1miss + s->st_na;
}

static const char *const display_str[] = {
	[HM_SORT_TOT] = "Total HITMs", [HM_SORT_RMT] = "Remote HITMs",
	[HM_SORT_LCL] = "Local HITMs", [HM_SORT_PEER] = "Peer Snoop",
	[HM_SORT_COST] = "Load cost (sum of weights)",
};

int hm_render__stats(const struct hm_report *r, const struct hm_render_opts *o, FILE *f)
{
	const struct hm_c2c_stats *s = hm_report__c2c(r);
	u32 nr_shared;
	const struct hm_perf_shared *g = hm_report__shared(r, &nr_shared);
	/* perf keeps these in int and prints them with %d */
	int llc = (int)hm_c2c_stats__llc_misses(s);
	int n;

	fprintf(f, RULE "            Trace Event Information              \n" RULE);
	fprintf(f, "  Total records                     : %10d\n", (int)s->nr_entries);
	fprintf(f, "  Locked Load/Store Operations      : %10d\n", (int)s->locks);
	fprintf(f, "  Load Operations                   : %10d\n", (int)s->load);
	fprintf(f, "  Loads - uncacheable               : %10d\n", (int)s->ld_uncache);
	fprintf(f, "  Loads - IO                        : %10d\n", (int)s->ld_io);
	fprintf(f, "  Loads - Miss                      : %10d\n", (int)s->ld_miss);
	fprintf(f, "  Loads - no mapping                : %10d\n", (int)s->ld_noadrs);
	fprintf(f, "  Load Fill Buffer Hit              : %10d\n", (int)s->ld_fbhit);
	fprintf(f, "  Load L1D hit                      : %10d\n", (int)s->ld_l1hit);
	fprintf(f, "  Load L2D hit                      : %10d\n", (int)s->ld_l2hit);
	fprintf(f, "  Load LLC hit                      : %10d\n", (int)(s->ld_llchit + s->lcl_hitm));
	fprintf(f, "  Load Local HITM                   : %10d\n", (int)s->lcl_hitm);
	fprintf(f, "  Load Remote HITM                  : %10d\n", (int)s->rmt_hitm);
	fprintf(f, "  Load Remote HIT                   : %10d\n", (int)s->rmt_hit);
	fprintf(f, "  Load Local DRAM                   : %10d\n", (int)s->lcl_dram);
	fprintf(f, "  Load Remote DRAM                  : %10d\n", (int)s->rmt_dram);
	fprintf(f, "  Load MESI State Exclusive         : %10d\n", (int)s->ld_excl);
	fprintf(f, "  Load MESI State Shared            : %10d\n", (int)s->ld_shared);
	fprintf(f, "  Load LLC Misses                   : %10d\n", llc);
	fprintf(f, "  Load access blocked by data       : %10d\n", (int)s->blk_data);
	fprintf(f, "  Load access blocked by address    : %10d\n", (int)s->blk_addr);
	fprintf(f, "  Load HIT Local Peer               : %10d\n", (int)s->lcl_peer);
	fprintf(f, "  Load HIT Remote Peer              : %10d\n", (int)s->rmt_peer);
	fprintf(f, "  LLC Misses to Local DRAM          : %10.1f%%\n", ((double)s->lcl_dram / (double)llc) * 100.);
	fprintf(f, "  LLC Misses to Remote DRAM         : %10.1f%%\n", ((double)s->rmt_dram / (double)llc) * 100.);
	fprintf(f, "  LLC Misses to Remote cache (HIT)  : %10.1f%%\n", ((double)s->rmt_hit / (double)llc) * 100.);
	fprintf(f, "  LLC Misses to Remote cache (HITM) : %10.1f%%\n", ((double)s->rmt_hitm / (double)llc) * 100.);
	fprintf(f, "  Store Operations                  : %10d\n", (int)s->store);
	fprintf(f, "  Store - uncacheable               : %10d\n", (int)s->st_uncache);
	fprintf(f, "  Store - no mapping                : %10d\n", (int)s->st_noadrs);
	fprintf(f, "  Store L1D Hit                     : %10d\n", (int)s->st_l1hit);
	fprintf(f, "  Store L1D Miss                    : %10d\n", (int)s->st_l1miss);
	fprintf(f, "  Store No available memory level   : %10d\n", (int)s->st_na);
	fprintf(f, "  No Page Map Rejects               : %10d\n", (int)s->nomap);
	fprintf(f, "  Unable to parse data source       : %10d\n", (int)s->noparse);
	fprintf(f, "\n");
	fprintf(f, RULE "    Global Shared Cache Line Event Information   \n" RULE);
	fprintf(f, "  Total Shared Cache Lines          : %10d\n", (int)nr_shared);
	fprintf(f, "  Load HITs on shared lines         : %10d\n", (int)g->load);
	fprintf(f, "  Fill Buffer Hits on shared lines  : %10d\n", (int)g->fbhit);
	fprintf(f, "  L1D hits on shared lines          : %10d\n", (int)g->l1hit);
	fprintf(f, "  L2D hits on shared lines          : %10d\n", (int)g->l2hit);
	fprintf(f, "  LLC hits on shared lines          : %10d\n", (int)g->llc);
	fprintf(f, "  Load hits on peer cache or nodes  : %10d\n", (int)g->peer);
	fprintf(f, "  Locked Access on shared lines     : %10d\n", (int)g->locks);
	fprintf(f, "  Blocked Access on shared lines    : %10d\n", (int)g->blk);
	fprintf(f, "  Store HITs on shared lines        : %10d\n", (int)g->store);
	fprintf(f, "  Store L1D hits on shared lines    : %10d\n", (int)g->st_l1hit);
	fprintf(f, "  Store No available memory level   : %10d\n", (int)g->st_na);
	fprintf(f, "  Total Merged records              : %10d\n", (int)g->merged);
	fprintf(f, "\n");
	fprintf(f, RULE "                 c2c details                     \n" RULE);
	n = hm_report__reader(r) ? hm_reader__nr_evsels(hm_report__reader(r)) : 0;
	for (int i = 0; i < n; i++) {
		const struct hm_evsel *e = hm_reader__evsel(hm_report__reader(r), i);
		char raw[64];
		const char *name = e ? e->name : NULL;

		if (!name) {
			snprintf(raw, sizeof(raw), "raw 0x%llx", e ? (unsigned long long)e->attr.config : 0ULL);
			name = raw;
		}
		fprintf(f, "%-36s: %s\n", i ? "" : "  Events", name);
	}
	fprintf(f, "  Cachelines sort on                : %s\n", display_str[o->sort]);
	fprintf(f, "  Cacheline data grouping           : %s\n",
		o->grouping ? o->grouping : "line (hitmap: one row per virtual line)");
	return ferror(f) ? -EIO : 0;
}

int hm_render__lkp(const struct hm_report *r, FILE *f)
{
	const struct hm_c2c_stats *s = hm_report__c2c(r);

	fprintf(f, "perf-c2c.HITM.local: %u\n", s->lcl_hitm);
	fprintf(f, "perf-c2c.HITM.remote: %u\n", s->rmt_hitm);
	fprintf(f, "perf-c2c.HIT.remote: %u\n", s->rmt_hit);
	fprintf(f, "perf-c2c.DRAM.local: %u\n", s->lcl_dram);
	fprintf(f, "perf-c2c.DRAM.remote: %u\n", s->rmt_dram);
	fprintf(f, "perf-c2c.HITM.total: %llu\n", (unsigned long long)s->lcl_hitm + s->rmt_hitm);
	return ferror(f) ? -EIO : 0;
}

/* ------------------------------------------------------------- helpers */

static int popcount64v(const u64 *v, int bits)
{
	int n = 0;

	for (int i = 0; i < (bits + 63) / 64; i++)
		n += __builtin_popcountll(v[i]);
	return n;
}

/* "0-1,3" of the set bits of a u64 mask */
static void mask_list(u64 m, char *buf, size_t size)
{
	size_t len = 0;
	int b = 0;

	buf[0] = '\0';
	if (!m) {
		snprintf(buf, size, "N/A");
		return;
	}
	while (b < 64 && len + 1 < size) {
		int a;

		if (!((m >> b) & 1)) {
			b++;
			continue;
		}
		a = b;
		while (b + 1 < 64 && ((m >> (b + 1)) & 1))
			b++;
		len += snprintf(buf + len, size - len, a == b ? "%s%d" : "%s%d-%d", len ? "," : "", a, b);
		b++;
	}
}

static double pct(double a, double b)
{
	return b > 0 ? 100.0 * a / b : 0.0;
}

static u32 line_hitm_xdie(const struct hm_line *ln)
{
	return hm_line__cat(ln, HM_CAT_HITM_XDIE);
}

/* cpus of @ln that sit in node index @idx */
static int node_cpus(const struct hm_report *r, const struct hm_line *ln, int idx)
{
	int n = 0, nr = hm_topo__nr_cpus(hm_report__topo(r));

	for (int c = 0; c < nr; c++)
		if (((hm_line__cpus(ln)[c / 64] >> (c % 64)) & 1) && hm_report__cpu_node_idx(r)[c] == idx)
			n++;
	return n;
}

static void sym_text(const struct hm_report *r, const struct hm_line_ip *ip, char *sym, size_t ssz,
		     char *src, size_t srcsz, const char **dso)
{
	struct hm_symbol_info info;

	snprintf(sym, ssz, "[unknown]");
	snprintf(src, srcsz, "-");
	*dso = "[unknown]";
	if (!hm_report__symbols(r) || !hm_report__maps(r))
		return;
	if (hm_symbols__resolve(hm_report__symbols(r), hm_report__maps(r), ip->pid, ip->cpumode, ip->ip, &info) < 0)
		return;
	if (info.dso)
		*dso = info.dso;
	if (info.name)
		snprintf(sym, ssz, "%s+0x%llx", info.name, (unsigned long long)info.offset);
	if (info.file && info.line)
		snprintf(src, srcsz, "%s:%d", info.file, info.line);
}

/* What the line is (names.h): the same name as the HTML page and the diff give it. */
static void line_name(const struct hm_report *r, const struct hm_line *ln, char *buf, size_t size)
{
	hm_report__line_name(r, ln, buf, size);
}

/* What the byte at @off of the line is: field or symbol+offset, "-" when unknown. */
static void off_name(const struct hm_report *r, const struct hm_line *ln, u32 off, char *buf, size_t size)
{
	hm_report__offset_name(r, ln->addr + off, ln->first_pid, buf, size);
	if (!buf[0])
		snprintf(buf, size, "-");
}

static const char *comm_of(const struct hm_report *r, u32 tid)
{
	const char *c = hm_report__maps(r) ? hm_maps__comm(hm_report__maps(r), tid) : NULL;

	return c ? c : "-";
}

static int ip_cmp(const void *a, const void *b)
{
	const struct hm_line_ip *x = a, *y = b;

	if (x->hitm != y->hitm)
		return x->hitm > y->hitm ? -1 : 1;
	if (x->nr != y->nr)
		return x->nr > y->nr ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* The offset's code addresses, most HITM then most samples first, into @v. */
static u32 sorted_ips(const struct hm_line_off *of, struct hm_line_ip *v)
{
	u32 n = of->nr_ips < HM_LINE_MAX_IPS ? of->nr_ips : HM_LINE_MAX_IPS;

	memcpy(v, of->ip, n * sizeof(*v));
	qsort(v, n, sizeof(*v), ip_cmp);
	return n;
}

/* ---------------------------------------------------------------- text */

int hm_render__lines_text(const struct hm_report *r, const struct hm_render_opts *o, FILE *f)
{
	const struct hm_c2c_stats *tot = hm_report__c2c(r);
	struct hm_line **v;
	size_t n;
	char nodes[64], socks[64];
	int nr_nodes = hm_topo__nr_nodes(hm_report__topo(r));
	/* the sort column, labelled by -d as the Pareto view and perf label it */
	const char *mlabel = o->sort == HM_SORT_RMT ? "Rmt Hitm" : o->sort == HM_SORT_LCL ? "Lcl Hitm" :
			     o->sort == HM_SORT_PEER ? "Peer Snoop" : o->sort == HM_SORT_COST ? "Load Cost" :
			     "Tot Hitm";
	int mw = (int)strlen(mlabel) > 8 ? (int)strlen(mlabel) : 8;
	const struct hm_places *pl = hm_report__places(r);
	int nr_sc = pl ? (int)pl->topo_sockets : 0;
	double all_cost = 0;

	if (!hm_report__lines(r))
		return 0;
	v = hm_lines__shared(hm_report__lines(r), o->sort, o->show_all, &n);
	if (!v)
		return -ENOMEM;
	if (o->max_lines && n > (size_t)o->max_lines)
		n = o->max_lines;
	for (size_t k = 0; k < hm_lines__count(hm_report__lines(r)); k++)
		all_cost += hm_lines__get(hm_report__lines(r), k)->cost;
	/* PA (physical addresses seen) widens with big files, header and rows alike */
	int paw = 4;
	for (size_t i = 0; i < n; i++)
		for (u32 x = v[i]->pa_cnt, d = 1; d <= 10; d++, x /= 10)
			if (x < 10) {
				if ((int)d > paw)
					paw = (int)d;
				break;
			}

	fprintf(f, "\n" RULE "           Shared Data Cache Line Table          \n" RULE);
	fprintf(f, "# one row per virtual cache line, sorted on %s; %zu of %zu lines shown\n",
		display_str[o->sort], n, hm_lines__count(hm_report__lines(r)));
	fprintf(f, "# counting: perf c2c's counters (Loads: perf's Total Loads); XDie: hitmap's cross-die HITMs\n");
	{
		char note[256];

		if (hm_report__counting_note(r, note, sizeof(note)) > 0)
			fprintf(f, "# note: %s\n", note);
	}
	fprintf(f, "#\n");
	fprintf(f, "# %5s %18s %5s %*s %*s %7s %7s %7s %6s %8s %7s %7s %6s %6s %6s %6s %6s %6s %6s %7s %6s %7s %6s %6s %10s %6s %4s %7s %s\n",
		"Index", o->double_cl ? "Double-Cacheline" : "Cacheline", "Node", paw, "PA", mw, mlabel,
		"Hitm", "LclHitm", "RmtHitm", "XDie",
		"Records", "Loads", "Stores", "StL1H", "StL1M", "StNA", "FB", "L1", "L2", "LclHit",
		"LclHitm", "RmtHit", "RmtHitm", "DrLcl", "DrRmt", "Cost", "Cycles", "CPUs", "Sockets", "Data");
	for (size_t i = 0; i < n; i++) {
		const struct hm_line *ln = v[i];
		const struct hm_c2c_stats *s = &ln->st;
		double m = o->sort == HM_SORT_PEER ? pct(s->tot_peer, tot->tot_peer) :
			   o->sort == HM_SORT_RMT ? pct(s->rmt_hitm, tot->rmt_hitm) :
			   o->sort == HM_SORT_LCL ? pct(s->lcl_hitm, tot->lcl_hitm) :
			   o->sort == HM_SORT_COST ? 0 : pct(s->tot_hitm, tot->tot_hitm);

		char name[300];

		if (o->sort == HM_SORT_COST)
			m = pct(ln->cost, all_cost);
		mask_list(ln->data_nodes, nodes, sizeof(nodes));
		mask_list(ln->sockets, socks, sizeof(socks));
		line_name(r, ln, name, sizeof(name));
		fprintf(f, "  %5zu %#18llx %5s %*u %*.2f%% %7u %7u %7u %6u %8llu %7u %7u %6u %6u %6u %6u %6u %6u %6u %7u %6u %7u %6u %6u %10.0f %6.0f %4d %7s %s\n",
			i, (unsigned long long)ln->addr, nodes, paw, ln->pa_cnt, mw - 1, m, s->tot_hitm, s->lcl_hitm,
			s->rmt_hitm, line_hitm_xdie(ln),
			(unsigned long long)hm_c2c_stats__total_records(s),
			(unsigned)hm_c2c_stats__total_loads(s), s->store, s->st_l1hit, s->st_l1miss, s->st_na, s->ld_fbhit, s->ld_l1hit, s->ld_l2hit,
			s->ld_llchit, s->lcl_hitm, s->rmt_hit, s->rmt_hitm, s->lcl_dram, s->rmt_dram,
			ln->cost, s->load ? ln->w_load / s->load : 0.0,
			popcount64v(hm_line__cpus(ln), hm_lines__nr_cpus(hm_report__lines(r))), socks, name);
	}

	fprintf(f, "\n" RULE "           Shared Cache Line Details             \n" RULE);
	for (size_t i = 0; i < n; i++) {
		const struct hm_line *ln = v[i];
		char name[300];

		mask_list(ln->sockets, socks, sizeof(socks));
		line_name(r, ln, name, sizeof(name));
		fprintf(f, "\n  ----------------------------------------------------------------------\n");
		/* the table's numbers (perf's counters), then hitmap's categories of the same samples */
		fprintf(f, "  %zu  %#llx  %s  Tot Hitm %u (LclHitm %u, RmtHitm %u)  Loads %llu  Stores %u\n",
			i, (unsigned long long)ln->addr, name, ln->st.tot_hitm, ln->st.lcl_hitm, ln->st.rmt_hitm,
			(unsigned long long)hm_c2c_stats__total_loads(&ln->st), ln->st.store);
		fprintf(f, "  hitmap: loads %u  hitm_local %u  hitm_xdie %u  hitm_remote %u  stores %u  cost %.0f  sockets %s  pids",
			ln->st.load, hm_line__cat(ln, HM_CAT_HITM_LOCAL), hm_line__cat(ln, HM_CAT_HITM_XDIE),
			hm_line__cat(ln, HM_CAT_HITM_REMOTE), ln->st.store, ln->cost, socks);
		for (u32 p = 0; p < ln->nr_pids; p++)
			fprintf(f, "%s%u", p ? "," : " ", ln->pid[p]);
		fprintf(f, "%s\n", ln->nr_pids == HM_LINE_MAX_PIDS ? ",..." : "");
		if (o->node_info && nr_nodes) {
			fprintf(f, "  Node{cpus %%%s %%stores}:", o->sort == HM_SORT_PEER ? "peers" : "hitms");
			for (int k = 0; k < nr_nodes; k++) {
				int nc = node_cpus(r, ln, k);
				u32 hm = hm_line__node(ln)[k * 3 + (o->sort == HM_SORT_PEER)];
				u32 st = hm_line__node(ln)[k * 3 + 2];
				u32 all = o->sort == HM_SORT_PEER ? ln->st.tot_peer : ln->st.tot_hitm;

				if (!nc)
					continue;
				fprintf(f, " %2d{%2d %5.1f%% %5.1f%%}", hm_topo__node_id(hm_report__topo(r), k), nc,
					pct(hm, all), pct(st, ln->st.store));
			}
			fprintf(f, "\n");
		}
		if (o->node_info >= 2 && nr_nodes) {
			/* like perf -NN: the CPUs of each node that touched the line */
			fprintf(f, "  Node{cpu list}:");
			for (int k = 0; k < nr_nodes; k++) {
				int nr = hm_topo__nr_cpus(hm_report__topo(r)), first = 1;

				if (!node_cpus(r, ln, k))
					continue;
				fprintf(f, " %2d{", hm_topo__node_id(hm_report__topo(r), k));
				for (int c = 0; c < nr; c++)
					if (((hm_line__cpus(ln)[c / 64] >> (c % 64)) & 1) && hm_report__cpu_node_idx(r)[c] == k) {
						fprintf(f, "%s%d", first ? "" : ",", c);
						first = 0;
					}
				fprintf(f, "}");
			}
			fprintf(f, "\n");
		}
		fprintf(f, "  %6s %-20s %7s %7s %5s %7s %7s %7s %7s %18s %7s %7s  %-16s %s\n",
			"Offset", "Data", "LclHitm", "RmtHitm", "XDie", "Stores", "Loads", "LdCyc", "HitmCyc",
			"Code address", "Pid", "Tid", "Comm", "Symbol / source");
		for (u32 k = 0; k < ln->nr_offs; k++) {
			const struct hm_line_off *of = &ln->offs[k];

			struct hm_line_ip ips[HM_LINE_MAX_IPS];
			u32 nips = sorted_ips(of, ips);
			char offs[16], oname[200];

			snprintf(offs, sizeof(offs), "0x%x", of->off);
			off_name(r, ln, of->off, oname, sizeof(oname));
			for (u32 j = 0; j < nips; j++) {
				const struct hm_line_ip *ip = &ips[j];
				char sym[160], src[160];
				const char *dso;

				sym_text(r, ip, sym, sizeof(sym), src, sizeof(src), &dso);
				if (!j)
					fprintf(f, "  %6s %-20s %7u %7u %5u %7u %7u %7.0f %7.0f",
						offs, oname, of->lcl_hitm, of->rmt_hitm, of->hitm_xdie,
						of->store, of->load,
						of->n_load ? of->w_load / of->n_load : 0.0,
						of->n_hitm ? of->w_hitm / of->n_hitm : 0.0);
				else
					fprintf(f, "  %6s %-20s %7s %7s %5s %7s %7s %7s %7s", "", "", "", "", "", "", "", "", "");
				fprintf(f, " %#18llx %7u %7u  %-16s %s %s %s\n", (unsigned long long)ip->ip,
					ip->pid, ip->tid, comm_of(r, ip->tid), sym, dso, src);
			}
		}
	}

	/* per-node and per-socket breakdown over the shown lines */
	fprintf(f, "\n" RULE "        Node and socket breakdown                \n" RULE);
	if (nr_nodes) {
		fprintf(f, "  %5s %7s %10s %10s %10s\n", "Node", "Socket", "Hitm", "Peer", "Stores");
		for (int k = 0; k < nr_nodes; k++) {
			u64 hm = 0, pe = 0, st = 0;

			for (size_t i = 0; i < n; i++) {
				hm += hm_line__node(v[i])[k * 3];
				pe += hm_line__node(v[i])[k * 3 + 1];
				st += hm_line__node(v[i])[k * 3 + 2];
			}
			fprintf(f, "  %5d %7d %10llu %10llu %10llu\n", hm_topo__node_id(hm_report__topo(r), k),
				hm_topo__node_socket(hm_report__topo(r), hm_topo__node_id(hm_report__topo(r), k)),
				(unsigned long long)hm, (unsigned long long)pe, (unsigned long long)st);
		}
	}
	if (nr_sc) {
		static const enum hm_mem_cat cols[] = {
			HM_CAT_HITM_LOCAL, HM_CAT_HITM_XDIE, HM_CAT_HITM_REMOTE, HM_CAT_PEER_LOCAL,
			HM_CAT_PEER_REMOTE, HM_CAT_HIT_REMOTE, HM_CAT_DRAM_LOCAL, HM_CAT_DRAM_REMOTE,
		};

		fprintf(f, "\n  hitmap categories of all samples by accessor socket:\n  %6s", "Socket");
		for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
			fprintf(f, " %12s", hm_mem_cat__name(cols[c]));
		fprintf(f, " %12s\n", "stores");
		for (int k = 0; k < nr_sc; k++) {
			const u32 *sc = pl->socket[k].cat;

			fprintf(f, "  %6d", k);
			for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
				fprintf(f, " %12llu", (unsigned long long)sc[cols[c]]);
			fprintf(f, " %12llu\n", (unsigned long long)(sc[HM_CAT_STORE_L1HIT] +
				sc[HM_CAT_STORE_L1MISS] + sc[HM_CAT_STORE_OTHER]));
		}
	}
	fprintf(f, "\n  hitmap categories (all samples):");
	for (int c = 0; c < HM_CAT__MAX; c++)
		if (hm_report__cats(r)->nr[c])
			fprintf(f, " %s=%llu", hm_mem_cat__name(c), (unsigned long long)hm_report__cats(r)->nr[c]);
	fprintf(f, "\n");
	free(v);
	return ferror(f) ? -EIO : 0;
}

/* ---------------------------------------------------------------- JSON */

static void json_c2c(struct hm_json *j, const char *key, const struct hm_c2c_stats *s)
{
	hm_json__obj_begin(j, key);
#define HM_C2C_JSON(n) hm_json__u64(j, #n, s->n);
	HM_C2C_COUNTERS(HM_C2C_JSON)
#undef HM_C2C_JSON
	hm_json__obj_end(j);
}

static void json_cats(struct hm_json *j, const char *key, const u64 *c64, const u32 *c32)
{
	hm_json__obj_begin(j, key);
	for (int c = 0; c < HM_CAT__MAX; c++)
		hm_json__u64(j, hm_mem_cat__name(c), c64 ? c64[c] : c32[c]);
	hm_json__obj_end(j);
}

static void json_line(struct hm_json *j, const struct hm_report *r, const struct hm_line *ln)
{
	int nr_nodes = hm_topo__nr_nodes(hm_report__topo(r));
	char buf[64];

	hm_json__obj_begin(j, NULL);
	hm_json__hex(j, "address", ln->addr);
	{
		char name[300];

		line_name(r, ln, name, sizeof(name));
		hm_json__str(j, "data", name);
	}
	mask_list(ln->data_nodes, buf, sizeof(buf));
	hm_json__str(j, "data_nodes", buf);
	hm_json__u64(j, "pa_cnt", ln->pa_cnt);
	hm_json__u64(j, "hitm", ln->st.tot_hitm);
	hm_json__u64(j, "lcl_hitm", ln->st.lcl_hitm);
	hm_json__u64(j, "rmt_hitm", ln->st.rmt_hitm);
	hm_json__u64(j, "stores", ln->st.store);
	hm_json__u64(j, "total_loads", hm_c2c_stats__total_loads(&ln->st));	/* the table's Loads */
	hm_json__u64(j, "loads", ln->st.load);					/* load samples */
	hm_json__u64(j, "records", hm_c2c_stats__total_records(&ln->st));
	hm_json__double(j, "cost", ln->cost);
	hm_json__double(j, "mean_load_cycles", ln->st.load ? ln->w_load / ln->st.load : 0.0);
	hm_json__u64(j, "cpus", popcount64v(hm_line__cpus(ln), hm_lines__nr_cpus(hm_report__lines(r))));
	mask_list(ln->sockets, buf, sizeof(buf));
	hm_json__str(j, "sockets", buf);
	hm_json__arr_begin(j, "pids");
	for (u32 p = 0; p < ln->nr_pids; p++)
		hm_json__u64(j, NULL, ln->pid[p]);
	hm_json__arr_end(j);
	json_c2c(j, "perf_c2c", &ln->st);
	hm_json__obj_begin(j, "hitmap");
	for (int c = 0; c < HM_CAT__MAX; c++)
		if (hm_line__cat_slot(c) >= 0)
			hm_json__u64(j, hm_mem_cat__name(c), hm_line__cat(ln, c));
	hm_json__obj_end(j);
	hm_json__arr_begin(j, "nodes");
	for (int k = 0; k < nr_nodes; k++) {
		int nc = node_cpus(r, ln, k);

		if (!nc)
			continue;
		hm_json__obj_begin(j, NULL);
		hm_json__s64(j, "node", hm_topo__node_id(hm_report__topo(r), k));
		hm_json__u64(j, "cpus", nc);
		hm_json__u64(j, "hitm", hm_line__node(ln)[k * 3]);
		hm_json__u64(j, "peer", hm_line__node(ln)[k * 3 + 1]);
		hm_json__u64(j, "stores", hm_line__node(ln)[k * 3 + 2]);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);
	hm_json__arr_begin(j, "offsets");
	for (u32 k = 0; k < ln->nr_offs; k++) {
		const struct hm_line_off *of = &ln->offs[k];

		hm_json__obj_begin(j, NULL);
		hm_json__u64(j, "offset", of->off);
		{
			char oname[200];

			off_name(r, ln, of->off, oname, sizeof(oname));
			hm_json__str(j, "data", oname);
		}
		hm_json__u64(j, "lcl_hitm", of->lcl_hitm);
		hm_json__u64(j, "rmt_hitm", of->rmt_hitm);
		hm_json__u64(j, "hitm_xdie", of->hitm_xdie);
		hm_json__u64(j, "stores", of->store);
		hm_json__u64(j, "loads", of->load);
		hm_json__double(j, "mean_load_cycles", of->n_load ? of->w_load / of->n_load : 0.0);
		hm_json__double(j, "mean_hitm_cycles", of->n_hitm ? of->w_hitm / of->n_hitm : 0.0);
		struct hm_line_ip ips[HM_LINE_MAX_IPS];
		u32 nips = sorted_ips(of, ips);

		hm_json__arr_begin(j, "code");
		for (u32 q = 0; q < nips; q++) {
			const struct hm_line_ip *ip = &ips[q];
			char sym[160], src[160];
			const char *dso;

			sym_text(r, ip, sym, sizeof(sym), src, sizeof(src), &dso);
			hm_json__obj_begin(j, NULL);
			hm_json__hex(j, "ip", ip->ip);
			hm_json__u64(j, "pid", ip->pid);
			hm_json__u64(j, "tid", ip->tid);
			hm_json__str(j, "comm", comm_of(r, ip->tid));
			hm_json__str(j, "symbol", sym);
			hm_json__str(j, "dso", dso);
			hm_json__str(j, "source", src);
			hm_json__u64(j, "samples", ip->nr);
			hm_json__u64(j, "hitm", ip->hitm);
			hm_json__u64(j, "stores", ip->store);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
		hm_json__u64(j, "code_dropped", of->ips_dropped);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);
	hm_json__obj_end(j);
}

int hm_render__json(const struct hm_report *r, const struct hm_render_opts *o, FILE *f)
{
	struct hm_json *j = hm_json__new(f, true);
	u32 nr_shared;
	const struct hm_perf_shared *g = hm_report__shared(r, &nr_shared);
	const struct hm_places *pl = hm_report__places(r);
	int nr_sc = pl ? (int)pl->topo_sockets : 0;

	if (!j)
		return -ENOMEM;
	hm_json__obj_begin(j, NULL);
	hm_json__str(j, "input", hm_report__opts(r)->input);
	hm_json__str(j, "vendor", hm_vendor__name(hm_report__vendor(r)));
	hm_json__u64(j, "samples", hm_report__nr_samples(r));
	hm_json__u64(j, "cacheline_size", hm_report__opts(r)->cacheline_size);
	json_c2c(j, "perf_c2c", hm_report__c2c(r));
	hm_json__obj_begin(j, "perf_c2c_shared");
	hm_json__u64(j, "lines", nr_shared);
	hm_json__u64(j, "load", g->load);
	hm_json__u64(j, "ld_fbhit", g->fbhit);
	hm_json__u64(j, "ld_l1hit", g->l1hit);
	hm_json__u64(j, "ld_l2hit", g->l2hit);
	hm_json__u64(j, "llc_hit", g->llc);
	hm_json__u64(j, "peer", g->peer);
	hm_json__u64(j, "locks", g->locks);
	hm_json__u64(j, "blocked", g->blk);
	hm_json__u64(j, "store", g->store);
	hm_json__u64(j, "st_l1hit", g->st_l1hit);
	hm_json__u64(j, "st_na", g->st_na);
	hm_json__u64(j, "merged", g->merged);
	hm_json__obj_end(j);
	json_cats(j, "hitmap", hm_report__cats(r)->nr, NULL);
	{
		/* where perf_c2c and hitmap count the same samples differently, and why */
		char note[256];

		hm_json__str(j, "counting_note",
			     hm_report__counting_note(r, note, sizeof(note)) > 0 ? note : NULL);
	}
	hm_json__arr_begin(j, "sockets");
	for (int k = 0; k < nr_sc; k++) {
		hm_json__obj_begin(j, NULL);
		hm_json__s64(j, "socket", k);
		json_cats(j, "hitmap", NULL, pl->socket[k].cat);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);
	if (!o->stats_only && hm_report__lines(r)) {
		size_t n;
		struct hm_line **v = hm_lines__shared(hm_report__lines(r), o->sort, o->show_all, &n);

		if (!v) {
			hm_json__delete(j);
			return -ENOMEM;
		}
		if (o->max_lines && n > (size_t)o->max_lines)
			n = o->max_lines;
		hm_json__str(j, "sort", display_str[o->sort]);
		hm_json__u64(j, "nr_lines", hm_lines__count(hm_report__lines(r)));
		hm_json__arr_begin(j, "lines");
		for (size_t i = 0; i < n; i++)
			json_line(j, r, v[i]);
		hm_json__arr_end(j);
		free(v);
	}
	hm_json__obj_end(j);
	hm_json__delete(j);
	return ferror(f) ? -EIO : 0;
}

/* ----------------------------------------------------------------- CSV */

int hm_render__csv(const struct hm_report *r, const struct hm_render_opts *o, FILE *f)
{
	struct hm_line **v;
	size_t n;
	char nodes[64], socks[64];

	if (!hm_report__lines(r))
		return 0;
	v = hm_lines__shared(hm_report__lines(r), o->sort, o->show_all, &n);
	if (!v)
		return -ENOMEM;
	if (o->max_lines && n > (size_t)o->max_lines)
		n = o->max_lines;
	fprintf(f, "index,address,data_nodes,pa_cnt,hitm,lcl_hitm,rmt_hitm,hitm_xdie,records,total_loads,stores,"
		   "st_l1hit,st_l1miss,st_na,ld_fbhit,ld_l1hit,ld_l2hit,ld_llchit,rmt_hit,lcl_dram,rmt_dram,"
		   "cost,mean_load_cycles,cpus,sockets,loads,data\n");
	for (size_t i = 0; i < n; i++) {
		const struct hm_line *ln = v[i];
		const struct hm_c2c_stats *s = &ln->st;
		char name[300];

		mask_list(ln->data_nodes, nodes, sizeof(nodes));
		mask_list(ln->sockets, socks, sizeof(socks));
		line_name(r, ln, name, sizeof(name));
		fprintf(f, "%zu,%#llx,\"%s\",%u,%u,%u,%u,%u,%llu,%llu,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%.0f,%.1f,%d,\"%s\",%u,\"%s\"\n",
			i, (unsigned long long)ln->addr, nodes, ln->pa_cnt, s->tot_hitm, s->lcl_hitm,
			s->rmt_hitm, line_hitm_xdie(ln), (unsigned long long)hm_c2c_stats__total_records(s),
			(unsigned long long)hm_c2c_stats__total_loads(s), s->store, s->st_l1hit, s->st_l1miss, s->st_na, s->ld_fbhit, s->ld_l1hit,
			s->ld_l2hit, s->ld_llchit, s->rmt_hit, s->lcl_dram, s->rmt_dram, ln->cost,
			s->load ? ln->w_load / s->load : 0.0,
			popcount64v(hm_line__cpus(ln), hm_lines__nr_cpus(hm_report__lines(r))), socks, s->load, name);
	}
	free(v);
	return ferror(f) ? -EIO : 0;
}
