// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arm SPE recording plans against fixture sysfs trees of Neoverse N1
 * (Ampere Altra), V1 (Graviton3) and V2 (Grace): perf c2c's arm_spe config
 * (ts_enable, pa_enable, load_filter, store_filter, min_latency), the period
 * from caps/min_interval, a dummy:u tracking event, and what AUXTRACE_INFO
 * metadata v2 needs (MIDR, event filter); then a file written from the plan
 * with SPE AUX data reads back as memory samples with that MIDR's data
 * sources.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include "record/pmu.h"
#include "perfdata/spe-write.h"
#include "tap.h"

#define ROOT "tests/fixtures/sysfs/"

struct tree {
	const char *name;
	u64 midr, ev_filter;
	u32 type, min_interval;
};

static void plan_tree(const struct tree *t)
{
	struct hm_pmu_plan_opts o = { .mode = HM_MODE_SPE, .ldlat = 50, .system_wide = true };
	struct hm_pmu_plan p;
	const struct perf_event_attr *a;
	char root[128], nm[64];
	int err;

	snprintf(root, sizeof(root), ROOT "%s", t->name);
	o.sysfs_root = root;
	err = hm_pmu__plan(&o, &p);
	snprintf(nm, sizeof(nm), "%s: planned", t->name);
	CHECK(nm, !err && p.mode == HM_MODE_SPE && p.nr >= 2);
	if (err || p.nr < 2)
		return;
	a = &p.ev[0].attr;
	snprintf(nm, sizeof(nm), "%s: arm_spe_0 type", t->name);
	CHECK_EQ(nm, a->type, t->type);
	snprintf(nm, sizeof(nm), "%s: ts, pa, load and store filters", t->name);
	CHECK_EQ(nm, a->config, (1ULL << 0) | (1ULL << 1) | (1ULL << 33) | (1ULL << 34));
	snprintf(nm, sizeof(nm), "%s: min_latency in config2", t->name);
	CHECK_EQ(nm, a->config2, 50);
	snprintf(nm, sizeof(nm), "%s: name as perf c2c", t->name);
	CHECK_STR(nm, p.ev[0].name,
		  "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=50/");
	snprintf(nm, sizeof(nm), "%s: period caps/min_interval, no freq", t->name);
	CHECK(nm, !a->freq && a->sample_period == t->min_interval &&
		  p.spe_min_interval == t->min_interval);
	snprintf(nm, sizeof(nm), "%s: sample_type has CPU, TIME, DATA_SRC, PHYS_ADDR", t->name);
	CHECK(nm, (a->sample_type & (PERF_SAMPLE_CPU | PERF_SAMPLE_TIME | PERF_SAMPLE_DATA_SRC |
				     PERF_SAMPLE_PHYS_ADDR)) ==
		  (PERF_SAMPLE_CPU | PERF_SAMPLE_TIME | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR));
	snprintf(nm, sizeof(nm), "%s: dummy:u tracking event", t->name);
	CHECK(nm, p.ev[p.nr - 1].tracking && p.ev[p.nr - 1].attr.exclude_kernel);
	snprintf(nm, sizeof(nm), "%s: MIDR for metadata v2", t->name);
	CHECK_EQ(nm, p.spe_midr, t->midr);
	snprintf(nm, sizeof(nm), "%s: caps/event_filter", t->name);
	CHECK_EQ(nm, p.spe_ev_filter, t->ev_filter);
	snprintf(nm, sizeof(nm), "%s: 4 MiB AUX ring", t->name);
	CHECK_EQ(nm, p.aux_bytes, 4u << 20);

	/* a file as recording writes it from this plan, read back */
	{
		char path[] = "/tmp/hitmap-spe-plan-XXXXXX";
		int fd = mkstemp(path);
		struct hm_writer *w = fd >= 0 ? hm_writer__new(path) : NULL;
		struct hm_spe_wopts wo = {
			.version = 2, .pmu_type = a->type, .nr_cpus = 4, .midr = p.spe_midr,
			.min_interval = p.spe_min_interval, .ev_filter = p.spe_ev_filter,
			.context = true, .id = 1, .sample_type = a->sample_type,
			.sample_id_all = true,
		};
		struct hm_spe_writer *sw = NULL;
		struct hm_spe_record r = { 0 };
		struct hm_reader *rd;
		struct hm_event ev;
		u64 id = 1, ds[2] = { 0, 0 };
		int n = 0;

		if (fd >= 0)
			close(fd);
		if (w && hm_writer__add_evsel(w, a, p.ev[0].name, &id, 1) >= 0)
			sw = hm_spe_writer__new(w, &wo);
		r.op = HM_SPE_OP_LDST | HM_SPE_OP_LD;
		r.source = HM_SPE_DS_PEER_CORE;
		r.events = HM_SPE_EV(L1D_ACCESS) | HM_SPE_EV(L1D_REFILL);
		r.virt_addr = 0x1000;
		r.from_ip = 0x400000;
		r.context_id = 77;
		r.timestamp = 5000;
		err = sw ? hm_spe_writer__add(sw, 1, 7, 77, &r) : -1;
		r.op = HM_SPE_OP_LDST | HM_SPE_OP_ST;
		r.timestamp = 6000;
		if (!err)
			err = hm_spe_writer__add(sw, 2, 7, 77, &r);
		if (!err)
			err = hm_spe_writer__flush(sw);
		if (!err)
			err = hm_writer__close(w);
		hm_spe_writer__delete(sw);
		hm_writer__delete(w);
		rd = err ? NULL : hm_reader__new(path, NULL);
		while (rd && hm_reader__next(rd, &ev) == 1)
			if (ev.type == PERF_RECORD_SAMPLE && ev.has_sample && n < 2)
				ds[n++] = ev.sample.data_src;
		hm_reader__delete(rd);
		unlink(path);
		snprintf(nm, sizeof(nm), "%s: written from the plan, 2 samples read back", t->name);
		CHECK_EQ(nm, n, 2);
		snprintf(nm, sizeof(nm), "%s: peer-core load: L2 hit, SNOOPX_PEER", t->name);
		CHECK(nm, (ds[0] & PERF_MEM_S(OP, LOAD)) && (ds[0] & PERF_MEM_S(LVL, L2)) &&
			  (ds[0] & PERF_MEM_S(SNOOPX, PEER)));
		snprintf(nm, sizeof(nm), "%s: store: level N/A", t->name);
		CHECK(nm, (ds[1] & PERF_MEM_S(OP, STORE)) && (ds[1] & PERF_MEM_S(LVL, NA)));
	}
}

int main(void)
{
	static const struct tree trees[] = {
		{ "neoverse", 0x413fd0c1, 0, 12, 1024 },
		{ "neoverse-v1", 0x411fd401, 0x8aa, 12, 1024 },
		{ "neoverse-v2", 0x410fd4f0, 0x63f8aa, 13, 256 },
	};

	hm_log__set_sink(NULL, NULL, HM_LOG_WARN);
	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++)
		plan_tree(&trees[i]);
	TAP_DONE();
}
