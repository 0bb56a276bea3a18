/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_PLACES_H
#define HITMAP_REPORT_PLACES_H

/*
 * Where the samples ran and where their data lived, over all samples of
 * the pass (places.c): hitmap's precise counts per accessor CPU socket, per
 * data node (PHYS_ADDR + MEM_TOPOLOGY), and the LLC-miss loads (HITM,
 * remote cache, DRAM) per socket x node.  The report's text and JSON socket
 * rows and the metric set's socket.*, node.* and xfer.* read this one
 * aggregation.  The rows' perf member stays zero: perf's counters of the
 * whole file are the report's totals (hm_report__c2c).
 */
#include "report.h"
#include "counts.h"

#define HM_PLACES_MAX 64

struct hm_places {
	u32			topo_sockets;	/* sockets of the file's topology (0: none) */
	u32			nr_sockets;	/* topology's, or more where samples say so */
	u32			nr_nodes;
	struct hm_counts	socket[HM_PLACES_MAX];
	struct hm_counts	node[HM_PLACES_MAX];
	u64			xfer[HM_PLACES_MAX * HM_PLACES_MAX];	/* [socket * MAX + node] */
};

/* @topo may be NULL (no topology: rows appear as the samples name them). */
struct hm_places *hm_places__new(const struct hm_topo *topo);
void hm_places__delete(struct hm_places *p);
/* Add @src's counts to @dst (report --threads: parts of the file). */
void hm_places__merge(struct hm_places *dst, const struct hm_places *src);

/* One classified, resolved sample (cpu_socket and data_node set). */
static inline void hm_places__add(struct hm_places *p, const struct hm_mem_sample *ms)
{
	int s = ms->cpu_socket, n = ms->data_node;

	if (s >= 0 && s < HM_PLACES_MAX) {
		hm_counts__add_precise(&p->socket[s], ms);
		if ((u32)s >= p->nr_sockets)
			p->nr_sockets = s + 1;
	}
	if (n >= 0 && n < HM_PLACES_MAX) {
		hm_counts__add_precise(&p->node[n], ms);
		if ((u32)n >= p->nr_nodes)
			p->nr_nodes = n + 1;
		if (s >= 0 && s < HM_PLACES_MAX)
			p->xfer[s * HM_PLACES_MAX + n] +=
				ms->cls.hitm || ms->cls.cat == HM_CAT_HIT_REMOTE ||
				ms->cls.cat == HM_CAT_DRAM_LOCAL || ms->cls.cat == HM_CAT_DRAM_REMOTE;
	}
}

#endif
