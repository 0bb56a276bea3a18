// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sockets, nodes and socket x node of all samples (places.h): the report
 * adds every sample once; its socket rows and the metric set read them.
 */
#include <stdlib.h>
#include <hitmap/topo.h>
#include "places.h"

struct hm_places *hm_places__new(const struct hm_topo *topo)
{
	struct hm_places *p = calloc(1, sizeof(*p));
	int ns = topo ? hm_topo__nr_sockets(topo) : 0;
	int nn = topo ? hm_topo__nr_nodes(topo) : 0;

	if (!p)
		return NULL;
	p->topo_sockets = ns > 0 ? (ns > HM_PLACES_MAX ? HM_PLACES_MAX : ns) : 0;
	p->nr_sockets = p->topo_sockets;
	p->nr_nodes = nn > 0 ? (nn > HM_PLACES_MAX ? HM_PLACES_MAX : nn) : 0;
	return p;
}

void hm_places__delete(struct hm_places *p)
{
	free(p);
}

void hm_places__merge(struct hm_places *dst, const struct hm_places *src)
{
	for (int i = 0; i < HM_PLACES_MAX; i++) {
		hm_counts__sum(&dst->socket[i], &src->socket[i]);
		hm_counts__sum(&dst->node[i], &src->node[i]);
	}
	for (int i = 0; i < HM_PLACES_MAX * HM_PLACES_MAX; i++)
		dst->xfer[i] += src->xfer[i];
	if (src->nr_sockets > dst->nr_sockets)
		dst->nr_sockets = src->nr_sockets;
	if (src->nr_nodes > dst->nr_nodes)
		dst->nr_nodes = src->nr_nodes;
}
