// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap record's header features: this machine's topology, CPU, memory,
 * caches, PMU mappings, the command line, and the BUILD_IDs of the
 * executables the recording mapped.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hitmap/futex.h>
#include "futex-tables.h"
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include <hitmap/topo.h>
#include "record/bpfpair.h"
#include "record/buildid.h"
#include "record/contention.h"
#include "record/evsel.h"
#include "record/mmap.h"
#include "record/record.h"
#include "record/record-int.h"

#define MAX_DSOS 1024

void hm_rec__add_dso(struct hm_rec_session *s, const char *name)
{
	int i;

	if (name[0] != '/' || s->nr_dsos >= MAX_DSOS)
		return;
	for (i = 0; i < s->nr_dsos; i++)
		if (!strcmp(s->dsos[i], name))
			return;
	if (s->nr_dsos == s->cap_dsos) {
		int cap = s->cap_dsos ? s->cap_dsos * 2 : 64;
		char **n = realloc(s->dsos, cap * sizeof(*n));

		if (!n)
			return;
		s->dsos = n;
		s->cap_dsos = cap;
	}
	s->dsos[s->nr_dsos] = strdup(name);
	if (s->dsos[s->nr_dsos])
		s->nr_dsos++;
}


static char *cpuinfo_field(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	size_t kl = strlen(key);
	char *res = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *c;

		if (strncmp(line, key, kl) || !(c = strchr(line, ':')))
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		c[strcspn(c, "\n")] = 0;
		res = strdup(c);
		break;
	}
	fclose(f);
	return res;
}

/* PMU_MAPPINGS: every /sys/bus/event_source/devices/NAME/type */
static int add_pmu_mapping(const char *name, u32 type, void *arg)
{
	struct hm_header *h = arg;
	u32 n = h->nr_pmu_mappings;
	u32 *t = realloc(h->pmu_types, (n + 1) * sizeof(*t));
	char **nm;

	if (!t)
		return -ENOMEM;
	h->pmu_types = t;
	nm = realloc(h->pmu_names, (n + 1) * sizeof(*nm));
	if (!nm)
		return -ENOMEM;
	h->pmu_names = nm;
	nm[n] = strdup(name);
	if (!nm[n])
		return -ENOMEM;
	t[n] = type;
	h->nr_pmu_mappings = n + 1;
	return 0;
}

static void fill_pmu_mappings(struct hm_header *h)
{
	hm_pmu__each(NULL, add_pmu_mapping, h);	/* out of memory: the ones so far */
}

static char *read_line(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return strdup(buf);
}

/* CACHE: each distinct {level, type, shared_cpu_list} over the CPUs, as perf */
static void fill_caches(struct hm_header *h, int nr_cpus)
{
	int cpu, idx;

	for (cpu = 0; cpu < nr_cpus && cpu < 8192; cpu++) {
		for (idx = 0; idx < 16; idx++) {
			char base[160], path[224];
			struct hm_cache_level c, *nc;
			char *lv, *ls, *sets, *ways;
			u32 i;
			bool dup = false;

			snprintf(base, sizeof(base), "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu, idx);
			snprintf(path, sizeof(path), "%s/level", base);
			lv = read_line(path);
			if (!lv)
				break;
			memset(&c, 0, sizeof(c));
			c.level = atoi(lv);
			free(lv);
			snprintf(path, sizeof(path), "%s/coherency_line_size", base);
			ls = read_line(path);
			snprintf(path, sizeof(path), "%s/number_of_sets", base);
			sets = read_line(path);
			snprintf(path, sizeof(path), "%s/ways_of_associativity", base);
			ways = read_line(path);
			c.line_size = ls ? atoi(ls) : 0;
			c.sets = sets ? atoi(sets) : 0;
			c.ways = ways ? atoi(ways) : 0;
			free(ls);
			free(sets);
			free(ways);
			snprintf(path, sizeof(path), "%s/type", base);
			c.type = read_line(path);
			snprintf(path, sizeof(path), "%s/size", base);
			c.size = read_line(path);
			snprintf(path, sizeof(path), "%s/shared_cpu_list", base);
			c.map = read_line(path);
			if (!c.type || !c.size || !c.map)
				dup = true;
			for (i = 0; !dup && i < h->nr_caches; i++)
				dup = h->caches[i].level == c.level && !strcmp(h->caches[i].type, c.type) &&
				      !strcmp(h->caches[i].map, c.map);
			nc = dup ? NULL : realloc(h->caches, (h->nr_caches + 1) * sizeof(*nc));
			if (!nc) {
				free(c.type);
				free(c.size);
				free(c.map);
				continue;
			}
			h->caches = nc;
			h->caches[h->nr_caches++] = c;
		}
	}
}

static void fill_build_ids(struct hm_rec_session *s, struct hm_header *h)
{
	struct hm_build_id *b = calloc(s->nr_dsos + 1, sizeof(*b));
	int i;

	if (!b)
		return;
	h->build_ids = b;
	if (!hm_buildid__read_kernel(b->id, &b->size)) {
		b->pid = -1;
		b->misc = PERF_RECORD_MISC_KERNEL;
		b->filename = strdup("[kernel.kallsyms]");
		if (b->filename) {
			h->nr_build_ids++;
			b++;
		}
	}
	for (i = 0; i < s->nr_dsos; i++) {
		if (hm_buildid__read_file(s->dsos[i], b->id, &b->size))
			continue;
		b->pid = -1;
		b->misc = PERF_RECORD_MISC_USER;
		b->filename = strdup(s->dsos[i]);
		if (b->filename) {
			h->nr_build_ids++;
			b++;
		}
	}
}

void hm_rec__fill_header(struct hm_rec_session *s, struct hm_header *h, struct hm_meta *meta)
{
	struct utsname u;
	struct sysinfo si;
	struct hm_topo *t = hm_topo__new_live(NULL);
	char *vendor = cpuinfo_field("vendor_id"), *fam = cpuinfo_field("cpu family"),
	     *model = cpuinfo_field("model\t"), *step = cpuinfo_field("stepping");
	char buf[256];
	void *mbuf = NULL;
	u64 msize = 0;

	if (t) {
		if (hm_topo__fill_header(t, h) < 0)
			hm_warn("topology features incomplete: %s", hm_log__last_error());
		hm_topo__delete(t);
	}
	if (!h->nr_cpus_avail) {
		h->nr_cpus_avail = get_nprocs_conf();
		h->nr_cpus_online = get_nprocs();
	}
	if (!uname(&u)) {
		h->hostname = strdup(u.nodename);
		h->osrelease = strdup(u.release);
		h->arch = strdup(u.machine);
	}
	h->version = strdup("hitmap-" HITMAP_VERSION);
	h->cpudesc = cpuinfo_field("model name");
	if (vendor && fam && model && step) {
		snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor, fam, model, step);
		h->cpuid = strdup(buf);
	}
	free(vendor);
	free(fam);
	free(model);
	free(step);
	if (!sysinfo(&si))
		h->total_mem_kb = (u64)si.totalram * si.mem_unit / 1024;
	if (s->o->argc_cmdline > 0) {
		int i;

		h->cmdline_argc = s->o->argc_cmdline;
		h->cmdline_argv = calloc(h->cmdline_argc, sizeof(char *));
		for (i = 0; h->cmdline_argv && i < s->o->argc_cmdline; i++)
			h->cmdline_argv[i] = strdup(s->o->argv_cmdline[i]);
		if (!h->cmdline_argv)
			h->cmdline_argc = 0;
	}
	fill_pmu_mappings(h);
	fill_caches(h, h->nr_cpus_avail);
	fill_build_ids(s, h);
	h->sample_time_first = s->time_first;
	h->sample_time_last = s->time_last;
	if (meta && !hm_meta__serialize(meta, &mbuf, &msize)) {
		h->hitmap_meta = mbuf;
		h->hitmap_meta_size = msize;
	}
}
