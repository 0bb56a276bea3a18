// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's Arm samples as an Arm machine writes them: SPE AUX data
 * (AUXTRACE_INFO with metadata v2, per-CPU AUX buffers, CONTEXT packets with
 * the tid) instead of PERF_RECORD_SAMPLEs.  Each sampled access becomes the
 * SPE record a Neoverse N1 writes for it: the common data source encoding
 * for loads, no data source for stores (N1 has none), the events an access
 * to that level raises.  The data_src handed back to the ground truth is
 * what perf 7.3 (and hitmap's reader) synthesise from that record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sim/coherence.h"
#include "sim/spe-out.h"
#include "perfdata/spe-write.h"

/* caps/event_filter of a Neoverse N1 (no SNOOPED/HITM events: SPEv1p1) */
#define N1_EVENT_FILTER	0x0000000000000aaaULL
#define N1_MIN_INTERVAL	1024

struct hm_sim_spe {
	struct hm_spe_writer	*sw;
	struct hm_spe_cpu_meta	meta;
};

struct hm_sim_spe *hm_sim_spe__new(struct hm_writer *w, const struct hm_machine *m,
				   u64 evsel_id, u64 sample_type)
{
	struct hm_sim_spe *ss = calloc(1, sizeof(*ss));
	struct hm_spe_wopts o = {
		.version = 2, .pmu_type = m->pmu_type, .nr_cpus = m->nr_cpus,
		.min_interval = N1_MIN_INTERVAL, .ev_filter = N1_EVENT_FILTER,
		.context = true, .id = evsel_id, .sample_type = sample_type,
		.sample_id_all = true,
	};

	if (!ss)
		return NULL;
	o.midr = strtoull(m->cpuid, NULL, 16);
	ss->meta.have_midr = true;
	ss->meta.midr = o.midr;
	ss->meta.have_filter = true;
	ss->meta.ev_filter = o.ev_filter;
	ss->sw = hm_spe_writer__new(w, &o);
	if (!ss->sw) {
		int e = errno;

		free(ss);
		errno = e;
		return NULL;
	}
	return ss;
}

void hm_sim_spe__delete(struct hm_sim_spe *ss)
{
	if (!ss)
		return;
	hm_spe_writer__delete(ss->sw);
	free(ss);
}

/* Source and events of a load served by @src */
static void load_source(u8 src, struct hm_spe_record *r)
{
	const u64 l1 = HM_SPE_EV(L1D_ACCESS), l1m = HM_SPE_EV(L1D_REFILL);
	const u64 llc = HM_SPE_EV(LLC_ACCESS), llcm = HM_SPE_EV(LLC_MISS);

	switch (src) {
	case HM_SRC_L1:
	case HM_SRC_LFB:
		r->source = HM_SPE_DS_L1D;
		r->events |= l1;
		break;
	case HM_SRC_L2:
		r->source = HM_SPE_DS_L2;
		r->events |= l1 | l1m;
		break;
	case HM_SRC_HITM_LOCAL:
		r->source = HM_SPE_DS_PEER_CORE;
		r->events |= l1 | l1m;
		break;
	case HM_SRC_HITM_XDIE:
	case HM_SRC_HIT_XDIE:
		r->source = HM_SPE_DS_PEER_CLUSTER;
		r->events |= l1 | l1m | llc;
		break;
	case HM_SRC_LLC:
		r->source = HM_SPE_DS_SYS_CACHE;
		r->events |= l1 | l1m | llc;
		break;
	case HM_SRC_HITM_REMOTE:
	case HM_SRC_HIT_REMOTE:
	case HM_SRC_DRAM_REMOTE:
		r->source = HM_SPE_DS_REMOTE;
		r->events |= l1 | l1m | llc | llcm | HM_SPE_EV(REMOTE_ACCESS);
		break;
	case HM_SRC_DRAM_LOCAL:
	default:
		r->source = HM_SPE_DS_DRAM;
		r->events |= l1 | l1m | llc | llcm;
		break;
	}
}

int hm_sim_spe__write(struct hm_sim_spe *ss, const struct hm_sample_in *in, u32 pid, u64 time,
		      u64 phys, u32 weight, u64 *data_src)
{
	struct hm_spe_record r;
	bool load = !in->store_part && in->acc != HM_ACC_STORE;

	memset(&r, 0, sizeof(r));
	r.from_ip = in->ip;
	r.virt_addr = in->addr;
	r.phys_addr = phys;
	r.timestamp = time;
	r.context_id = in->tid;
	r.latency = weight;
	r.issue_lat = 1;
	r.trans_lat = 1;
	r.op = HM_SPE_OP_LDST | (load ? HM_SPE_OP_LD : HM_SPE_OP_ST);
	if (in->locked)
		r.op |= HM_SPE_OP_ATOMIC;
	r.events = HM_SPE_EV(RETIRED) | HM_SPE_EV(TLB_ACCESS);
	if (load)
		load_source(in->r->src, &r);
	else
		r.events |= HM_SPE_EV(L1D_ACCESS);
	*data_src = hm_spe__data_src(&r, &ss->meta);
	return hm_spe_writer__add(ss->sw, in->cpu, pid, in->tid, &r);
}

int hm_sim_spe__flush(struct hm_sim_spe *ss)
{
	return ss ? hm_spe_writer__flush(ss->sw) : 0;
}
