// SPDX-License-Identifier: GPL-2.0-only
/* What the perf.data generators share: see gen-common.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen-common.h"

u64 gen_rng = 88172645463325252ull;

u64 gen_rnd(u64 n)
{
	gen_rng ^= gen_rng << 13;
	gen_rng ^= gen_rng >> 7;
	gen_rng ^= gen_rng << 17;
	return n ? gen_rng % n : 0;
}

static char *pkg[2] = { "0-1", "2-3" }, *core[4] = { "0", "1", "2", "3" };

void gen_host__header(struct gen_host *g, struct hm_header *h, const char *tool,
		      const char *osrelease, bool numa)
{
	int c;

	memset(h, 0, sizeof(*h));
	snprintf(g->cpudesc, sizeof(g->cpudesc), "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz (%s)",
		 tool);
	h->hostname = (char *)tool;
	h->osrelease = (char *)osrelease;
	h->version = "6.1.0";
	h->arch = "x86_64";
	h->cpudesc = g->cpudesc;
	h->cpuid = "GenuineIntel,6,85,4";
	h->nr_cpus_avail = h->nr_cpus_online = 4;
	for (c = 0; c < 4; c++)
		g->cpu[c] = (struct hm_cpu_topo){ c % 2, c / 2, 0 };
	h->cpu = g->cpu;
	h->nr_package_cpus = 2;
	h->package_cpus = pkg;
	h->nr_core_cpus = 4;
	h->core_cpus = core;
	h->nr_die_cpus = 2;
	h->die_cpus = pkg;
	if (!numa)
		return;
	h->total_mem_kb = 2 * (GEN_NODE_MEM >> 10);
	for (c = 0; c < 2; c++) {
		g->numa[c] = (struct hm_numa_node){ c, GEN_NODE_MEM >> 10, GEN_NODE_MEM >> 11, pkg[c] };
		g->bits[c] = ((1ull << (GEN_NODE_MEM / GEN_MEM_BLOCK)) - 1) <<
			     (c * (GEN_NODE_MEM / GEN_MEM_BLOCK));
		g->mem[c] = (struct hm_mem_node){ c, 2 * GEN_NODE_MEM / GEN_MEM_BLOCK, &g->bits[c] };
	}
	h->nr_numa_nodes = 2;
	h->numa = g->numa;
	h->mem_block_size = GEN_MEM_BLOCK;
	h->nr_mem_nodes = 2;
	h->mem = g->mem;
}

struct perf_event_attr gen_mem_attr(u64 config, u64 config1, bool first)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.size = sizeof(a);
	a.config = config;
	a.config1 = config1;
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT |
			PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;
	a.read_format = PERF_FORMAT_ID;
	a.precise_ip = 3;
	a.sample_id_all = 1;
	if (first)
		a.mmap = a.comm = a.mmap_data = a.mmap2 = 1;
	return a;
}

int gen_meta__attach(struct hm_meta *meta, struct hm_header *h, void **raw, const char *tool)
{
	u64 size = 0;
	int err = hm_meta__serialize(meta, raw, &size);

	if (err) {
		fprintf(stderr, "%s: metadata: %s\n", tool, strerror(-err));
		return err;
	}
	h->hitmap_meta = *raw;
	h->hitmap_meta_size = size;
	return 0;
}

struct hm_writer *gen_writer__open(const char *tool, const char *out, const struct hm_header *h,
				   const struct perf_event_attr *a0, const char *n0, const u64 *ids0,
				   const struct perf_event_attr *a1, const char *n1, const u64 *ids1,
				   u32 pid, const char *comm)
{
	struct hm_writer *w = hm_writer__new(out);

	if (!w) {
		fprintf(stderr, "%s: %s: %s\n", tool, out, strerror(errno));
		return NULL;
	}
	if (hm_writer__add_evsel(w, a0, n0, ids0, 4) < 0 ||
	    hm_writer__add_evsel(w, a1, n1, ids1, 4) < 0 ||
	    hm_writer__set_header(w, h) || hm_writer__write_comm(w, pid, pid, comm)) {
		fprintf(stderr, "%s: %s: writer setup failed\n", tool, out);
		hm_writer__delete(w);
		return NULL;
	}
	return w;
}

int gen_record(struct hm_writer *w, u32 type, u16 misc, const void *body, size_t blen, const char *str)
{
	unsigned char rec[4096];
	struct perf_event_header *h = (void *)rec;
	size_t n = sizeof(*h) + blen, sl = str ? strlen(str) + 1 : 0;

	if (n + sl + 8 > sizeof(rec))
		return -ENAMETOOLONG;
	memset(rec, 0, sizeof(rec));
	memcpy(rec + sizeof(*h), body, blen);
	if (str) {
		memcpy(rec + n, str, sl);
		n += (sl + 7) & ~7UL;
	}
	h->type = type;
	h->misc = misc;
	h->size = (u16)n;
	return hm_writer__write(w, rec, n);
}

int gen_writer__finish(struct hm_writer *w, int err, bool round, const char *tool, const char *out)
{
	if (!err && round)
		err = hm_writer__write_finished_round(w);
	if (!err)
		err = hm_writer__close(w);
	hm_writer__delete(w);
	if (err) {
		fprintf(stderr, "%s: %s: write failed: %s\n", tool, out, strerror(-err));
		return 1;
	}
	return 0;
}
