// SPDX-License-Identifier: GPL-2.0-only
/* struct hm_header: what the reader (or a caller) allocated in it. */
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <hitmap/perf_data.h>
#include "reader-int.h"

static void free_strv(char **v, u32 n)
{
	if (!v)
		return;
	for (u32 i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void hm_header__release(struct hm_header *h)
{
	if (!h)
		return;
	free(h->hostname);
	free(h->osrelease);
	free(h->version);
	free(h->arch);
	free(h->cpudesc);
	free(h->cpuid);
	free_strv(h->cmdline_argv, h->cmdline_argc);
	free_strv(h->package_cpus, h->nr_package_cpus);
	free_strv(h->core_cpus, h->nr_core_cpus);
	free_strv(h->die_cpus, h->nr_die_cpus);
	free(h->cpu);
	if (h->numa)
		for (u32 i = 0; i < h->nr_numa_nodes; i++)
			free(h->numa[i].cpus);
	free(h->numa);
	if (h->mem)
		for (u64 i = 0; i < h->nr_mem_nodes; i++)
			free(h->mem[i].bitmap);
	free(h->mem);
	if (h->caches)
		for (u32 i = 0; i < h->nr_caches; i++) {
			free(h->caches[i].type);
			free(h->caches[i].size);
			free(h->caches[i].map);
		}
	free(h->caches);
	free(h->pmu_types);
	free_strv(h->pmu_names, h->nr_pmu_mappings);
	free_strv(h->group_names, h->nr_groups);
	free(h->group_leader);
	free(h->group_members);
	free_strv(h->hybrid_pmu, h->nr_hybrid);
	free_strv(h->hybrid_cpus, h->nr_hybrid);
	if (h->pmu_caps)
		for (u32 i = 0; i < h->nr_pmu_caps; i++) {
			free(h->pmu_caps[i].pmu_name);
			free_strv(h->pmu_caps[i].names, h->pmu_caps[i].nr);
			free_strv(h->pmu_caps[i].values, h->pmu_caps[i].nr);
		}
	free(h->pmu_caps);
	if (h->build_ids)
		for (u32 i = 0; i < h->nr_build_ids; i++)
			free(h->build_ids[i].filename);
	free(h->build_ids);
	hm_feat__bpf_progs_free(h);
	hm_feat__btf_free(h);
	if (h->tep)
		tep_free(h->tep);
	free(h->hitmap_meta);
	free(h->tracing_data);
	if (h->feat_raw)
		for (int f = 0; f < HM_FEAT_BITS; f++)
			free(h->feat_raw[f].data);
	free(h->feat_raw);
	memset(h, 0, sizeof(*h));
}
