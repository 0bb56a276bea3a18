// SPDX-License-Identifier: GPL-2.0-only
/*
 * PMU detection and event planning from sysfs, as perf 6.1's 'perf c2c
 * record' plans it (notes/pmu-sysfs.md s5-7):
 *   Intel:  cpu/mem-loads,ldlat=N/P + cpu/mem-stores/P, with the
 *           {mem-loads-aux, mem-loads} group where mem-loads-aux exists,
 *           once per core PMU on hybrids (cpu_atom, cpu_core);
 *   AMD:    ibs_op//;
 *   Arm:    arm_spe_N/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=N/.
 * c2c's record flags: -W (weight), -d (addr, data_src, mmap_data),
 * --phys-data, --sample-cpu; freq 4000; precise_ip from 3 down.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <hitmap/log.h>
#include "record/pmu.h"

#define DEVICES "/sys/bus/event_source/devices"

static int read_str(const char *root, const char *pmu, const char *rel, char *buf, size_t n)
{
	char path[1024];
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "%s%s/%s/%s", root, DEVICES, pmu, rel);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	len = fread(buf, 1, n - 1, f);
	fclose(f);
	buf[len] = 0;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = 0;
	return 0;
}

static bool exists(const char *root, const char *pmu, const char *rel)
{
	char path[1024];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s/%s%s%s", root, DEVICES, pmu, rel ? "/" : "", rel ? rel : "");
	return stat(path, &st) == 0;
}

static int read_int(const char *root, const char *pmu, const char *rel, int def)
{
	char buf[64];

	if (read_str(root, pmu, rel, buf, sizeof(buf)))
		return def;
	return atoi(buf);
}

/*
 * Pack @value into the attr per format "config:0-7", "config1:0-15" or
 * "config:8-15,40-47" (bits taken low to high over the ranges); OR-ed as
 * perf_pmu__format_pack() does for core PMUs.
 */
static int pack_term(const char *root, const char *pmu, const char *term, u64 value,
		     struct perf_event_attr *a)
{
	char fmt[128], rel[160], *p, *colon;
	u64 *word;
	int bit = 0;

	snprintf(rel, sizeof(rel), "format/%s", term);
	if (read_str(root, pmu, rel, fmt, sizeof(fmt))) {
		hm_err("%s%s/%s/format/%s: missing; fix: the PMU does not know '%s'", root, DEVICES,
		       pmu, term, term);
		return -ENOENT;
	}
	colon = strchr(fmt, ':');
	if (!colon)
		return -EINVAL;
	*colon = 0;
	if (!strcmp(fmt, "config"))
		word = (u64 *)&a->config;
	else if (!strcmp(fmt, "config1"))
		word = (u64 *)&a->config1;
	else if (!strcmp(fmt, "config2"))
		word = (u64 *)&a->config2;
	else
		return -EINVAL;
	for (p = colon + 1; *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo, b;

		if (end == p)
			return -EINVAL;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		for (b = lo; b <= hi && b < 64; b++, bit++)
			if ((value >> bit) & 1)
				*word |= 1ULL << b;
		if (*p == ',')
			p++;
		else
			break;
	}
	return 0;
}

/* Apply an alias string "event=0xcd,umask=0x1,ldlat=3" through the PMU's formats. */
static int apply_terms(const char *root, const char *pmu, const char *terms,
		       struct perf_event_attr *a)
{
	char buf[256], *save = NULL, *t;
	int err;

	snprintf(buf, sizeof(buf), "%s", terms);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		u64 v = 1;

		if (eq) {
			*eq = 0;
			v = strtoull(eq + 1, NULL, 0);
		}
		err = pack_term(root, pmu, t, v, a);
		if (err)
			return err;
	}
	return 0;
}

static struct hm_plan_event *add(struct hm_pmu_plan *p)
{
	struct hm_plan_event *e;

	if (p->nr >= HM_PLAN_MAX)
		return NULL;
	e = &p->ev[p->nr++];
	memset(e, 0, sizeof(*e));
	e->leader = -1;
	e->attr.size = 128;
	e->attr.sample_id_all = 1;
	return e;
}

#define C2C_SAMPLE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
		    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC | \
		    PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_WEIGHT_STRUCT)

static void sampling(struct hm_plan_event *e, const struct hm_pmu_plan_opts *o)
{
	if (o->period) {
		e->attr.sample_period = o->period;
	} else {
		e->attr.freq = 1;
		e->attr.sample_freq = 4000;
	}
	e->attr.sample_type = C2C_SAMPLE;
	e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	e->attr.inherit = 1;
	if (o->user_only)
		e->attr.exclude_kernel = 1;
	if (o->kernel_only)
		e->attr.exclude_user = 1;
}

static void tracking(struct hm_plan_event *e)
{
	e->tracking = true;
	e->attr.mmap = e->attr.comm = e->attr.task = e->attr.mmap_data = 1;
	e->attr.mmap2 = e->attr.comm_exec = e->attr.ksymbol = e->attr.bpf_event = 1;
}

/* Finish: ID or IDENTIFIER, the dummy, leaders and enable_on_exec. */
static void finish(struct hm_pmu_plan *p, const struct hm_pmu_plan_opts *o, bool dummy,
		   const char *dummy_name)
{
	int i;

	if (dummy) {
		struct hm_plan_event *d = add(p);

		if (d) {
			snprintf(d->name, sizeof(d->name), "%s", dummy_name);
			snprintf(d->pmu, sizeof(d->pmu), "software");
			d->attr.type = PERF_TYPE_SOFTWARE;
			d->attr.config = PERF_COUNT_SW_DUMMY;
			d->attr.sample_period = 1;
			d->attr.sample_type = (C2C_SAMPLE & ~PERF_SAMPLE_PERIOD);
			if (p->mode == HM_MODE_SPE)
				d->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						      PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
			d->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
			d->attr.inherit = 1;
			tracking(d);
			if (p->mode == HM_MODE_SPE) {
				d->attr.exclude_kernel = d->attr.exclude_hv = 1;
				d->attr.context_switch = o->system_wide;
			}
		}
	} else if (p->nr) {
		tracking(&p->ev[0]);
	}
	for (i = 0; i < p->nr; i++) {
		struct hm_plan_event *e = &p->ev[i];
		bool is_dummy = dummy && i == p->nr - 1;

		if (dummy || p->mode == HM_MODE_SPE)
			e->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		else if (p->nr > 1)
			e->attr.sample_type |= PERF_SAMPLE_ID;
		if (is_dummy)
			continue;
		if (e->leader < 0) {
			e->attr.disabled = 1;
			e->attr.enable_on_exec = !o->system_wide;
		}
	}
}

/* ------------------------------------------------------------ Intel */

static bool is_glc_class(const char *pmu_name, const char *pmu)
{
	/* GLC/LNC/PNC constraints: loads 0x1cd cannot get precise 3 (s5.4) */
	static const char *const glc[] = {
		"sapphire_rapids", "granite_rapids", "alderlake_hybrid", "meteorlake_hybrid",
		"lunarlake_hybrid", "arrowlake_hybrid", "arrowlake_h_hybrid", "pantherlake_hybrid",
		"novalake_hybrid", "panthercove", NULL
	};
	int i;

	if (!strcmp(pmu, "cpu_atom") || !strcmp(pmu, "cpu_lowpower"))
		return false;
	for (i = 0; glc[i]; i++)
		if (!strcmp(pmu_name, glc[i]))
			return true;
	return false;
}

static int plan_intel_pmu(const struct hm_pmu_plan_opts *o, const char *root, const char *pmu,
			  struct hm_pmu_plan *p, bool loads)
{
	char terms[256], pmu_name[64] = "";
	int type = read_int(root, pmu, "type", -1);
	int maxp = read_int(root, pmu, "caps/max_precise", 3);
	int ldlat = o->ldlat >= 0 ? o->ldlat : 30;
	struct hm_plan_event *e;
	int err, leader = -1;

	read_str(root, pmu, "caps/pmu_name", pmu_name, sizeof(pmu_name));
	if (maxp > 3 || maxp < 0)
		maxp = 3;
	if (loads) {
		if (!read_str(root, pmu, "events/mem-loads-aux", terms, sizeof(terms))) {
			e = add(p);
			if (!e)
				return -E2BIG;
			e->attr.type = type;
			err = apply_terms(root, pmu, terms, &e->attr);
			if (err)
				return err;
			snprintf(e->name, sizeof(e->name), "%s/mem-loads-aux/", pmu);
			snprintf(e->pmu, sizeof(e->pmu), "%s", pmu);
			sampling(e, o);
			e->attr.precise_ip = 3;
			e->precise_max = true;
			e->expect_precise = maxp;
			e->attr.exclude_guest = 1;	/* 6.1: group modifier keeps it */
			leader = p->nr - 1;
		}
		if (read_str(root, pmu, "events/mem-loads", terms, sizeof(terms)))
			return -ENOENT;
		e = add(p);
		if (!e)
			return -E2BIG;
		e->attr.type = type;
		err = apply_terms(root, pmu, terms, &e->attr);
		if (!err)
			err = pack_term(root, pmu, "ldlat", ldlat, &e->attr);
		if (err)
			return err;
		snprintf(e->name, sizeof(e->name), "%s/mem-loads,ldlat=%d/P", pmu, ldlat);
		snprintf(e->pmu, sizeof(e->pmu), "%s", pmu);
		sampling(e, o);
		e->attr.precise_ip = 3;
		e->precise_max = true;
		e->expect_precise = maxp;
		if ((e->attr.config & 0xffff) == 0x1cd && is_glc_class(pmu_name, pmu) && maxp > 2)
			e->expect_precise = 2;
		e->leader = leader;
		if (leader >= 0)
			e->attr.exclude_guest = 1;
		return 0;
	}
	if (read_str(root, pmu, "events/mem-stores", terms, sizeof(terms))) {
		hm_err("%s%s/%s/events/mem-stores: missing (Nehalem/Westmere have no store sampling); perf c2c record fails here too; fix: a newer CPU, or --mode contention",
		       root, DEVICES, pmu);
		return -ENOENT;
	}
	e = add(p);
	if (!e)
		return -E2BIG;
	e->attr.type = type;
	err = apply_terms(root, pmu, terms, &e->attr);
	if (err)
		return err;
	snprintf(e->name, sizeof(e->name), "%s/mem-stores/P", pmu);
	snprintf(e->pmu, sizeof(e->pmu), "%s", pmu);
	sampling(e, o);
	e->attr.precise_ip = 3;
	e->precise_max = true;
	e->expect_precise = maxp;
	return 0;
}

/* Core PMUs with mem-loads, sorted by name (cpu, or cpu_atom < cpu_core < cpu_lowpower). */
static int intel_core_pmus(const char *root, char names[4][32])
{
	static const char *const cand[] = { "cpu", "cpu_atom", "cpu_core", "cpu_lowpower" };
	int i, n = 0;

	for (i = 0; i < 4; i++)
		if (exists(root, cand[i], "events/mem-loads"))
			snprintf(names[n++], 32, "%s", cand[i]);
	return n;
}

static int plan_intel(const struct hm_pmu_plan_opts *o, const char *root, struct hm_pmu_plan *p)
{
	char pmus[4][32], pmu_name[64] = "";
	int n = intel_core_pmus(root, pmus), i, err;
	bool hybrid = n > 1 || (n == 1 && strcmp(pmus[0], "cpu"));

	p->mode = HM_MODE_PEBS;
	/* perf 6.1 is event-major: every PMU's loads, then every PMU's stores */
	for (i = 0; i < n; i++) {
		int first = p->nr, k;

		err = plan_intel_pmu(o, root, pmus[i], p, true);
		if (err)
			return err;
		for (k = first; k < p->nr; k++)
			read_str(root, pmus[i], "cpus", p->ev[k].cpus, sizeof(p->ev[k].cpus));
	}
	for (i = 0; i < n; i++) {
		int first = p->nr, k;

		err = plan_intel_pmu(o, root, pmus[i], p, false);
		if (err)
			return err;
		for (k = first; k < p->nr; k++)
			read_str(root, pmus[i], "cpus", p->ev[k].cpus, sizeof(p->ev[k].cpus));
	}
	read_str(root, hybrid ? "cpu_core" : "cpu", "caps/pmu_name", pmu_name, sizeof(pmu_name));
	snprintf(p->desc, sizeof(p->desc), "Intel PEBS (%s%s): %s%smem-loads ldlat + mem-stores",
		 pmu_name[0] ? pmu_name : "unknown", hybrid ? ", hybrid" : "",
		 hybrid ? "per core PMU, " : "",
		 exists(root, hybrid ? "cpu_core" : "cpu", "events/mem-loads-aux") ?
		 "mem-loads-aux group, " : "");
	finish(p, o, o->system_wide || hybrid, "dummy:HG");
	return 0;
}

/* ------------------------------------------------------------ AMD */

static int plan_ibs(const struct hm_pmu_plan_opts *o, const char *root, struct hm_pmu_plan *p)
{
	struct hm_plan_event *e;
	bool swfilt = exists(root, "ibs_op", "format/swfilt");
	bool zen4 = read_int(root, "ibs_op", "caps/zen4_ibs_extensions", 0) == 1;
	bool ldlat_cap = read_int(root, "ibs_op", "caps/ldlat", 0) == 1;
	int err;

	p->mode = HM_MODE_IBS;
	if ((o->user_only || o->kernel_only) && !swfilt) {
		hm_err("ibs_op on this kernel has no swfilt format: IBS cannot exclude user or kernel (PERF_PMU_CAP_NO_EXCLUDE); fix: drop -u/-k");
		return -EOPNOTSUPP;
	}
	if (o->ldlat > 0 && !ldlat_cap) {
		hm_err("ibs_op has no ldlat capability (Zen 4 and older); fix: drop -l");
		return -EOPNOTSUPP;
	}
	if (o->ldlat > 0 && (o->ldlat < 128 || o->ldlat > 2048)) {
		hm_err("-l %d: IBS load latency must be 128..2048 cycles; fix: -l 128", o->ldlat);
		return -EINVAL;
	}
	e = add(p);
	if (!e)
		return -E2BIG;
	e->attr.type = read_int(root, "ibs_op", "type", -1);
	snprintf(e->pmu, sizeof(e->pmu), "ibs_op");
	if (ldlat_cap) {
		/* perf 7.3: ibs_op/ldlat=%u/ with the default forced to 0 */
		err = pack_term(root, "ibs_op", "ldlat", o->ldlat > 0 ? o->ldlat : 0, &e->attr);
		if (err)
			return err;
		snprintf(e->name, sizeof(e->name), "ibs_op/ldlat=%d/", o->ldlat > 0 ? o->ldlat : 0);
	} else {
		snprintf(e->name, sizeof(e->name), "ibs_op//");
	}
	sampling(e, o);
	if (swfilt && (o->user_only || o->kernel_only))
		e->attr.config2 |= 1;	/* swfilt */
	e->expect_precise = 0;
	snprintf(p->desc, sizeof(p->desc), "AMD IBS op sampling (%s)",
		 zen4 ? "Zen 4+: fine-grained data_src" : "Zen 3 or older: coarse data_src");
	finish(p, o, o->system_wide, "dummy:HG");
	return 0;
}

/* ------------------------------------------------------------ Arm */

static int plan_spe(const struct hm_pmu_plan_opts *o, const char *root, const char *pmu,
		    struct hm_pmu_plan *p)
{
	struct hm_plan_event *e;
	int ldlat = o->ldlat >= 0 ? o->ldlat : 30, err;
	int interval = read_int(root, pmu, "caps/min_interval", 4096);

	p->mode = HM_MODE_SPE;
	e = add(p);
	if (!e)
		return -E2BIG;
	e->attr.type = read_int(root, pmu, "type", -1);
	snprintf(e->pmu, sizeof(e->pmu), "%s", pmu);
	err = apply_terms(root, pmu, "ts_enable=1,pa_enable=1,load_filter=1,store_filter=1", &e->attr);
	if (!err)
		err = pack_term(root, pmu, "min_latency", ldlat, &e->attr);
	if (err)
		return err;
	snprintf(e->name, sizeof(e->name),
		 "%s/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=%d/", pmu, ldlat);
	/* SPE: no frequency; the period is caps/min_interval (or -c) */
	e->attr.sample_period = o->period ? o->period : (u64)interval;
	e->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_WEIGHT |
			      PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;
	e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	e->attr.inherit = 1;
	if (o->user_only)
		e->attr.exclude_kernel = 1;
	if (o->kernel_only)
		e->attr.exclude_user = 1;
	e->expect_precise = 0;
	snprintf(p->desc, sizeof(p->desc), "Arm SPE (%s, min_interval %d)", pmu, interval);
	{
		char buf[64];

		p->spe_min_interval = (u32)interval;
		if (!read_str(root, pmu, "caps/event_filter", buf, sizeof(buf)))
			p->spe_ev_filter = strtoull(buf, NULL, 0);
		/* /sys/devices/system/cpu/cpu0/regs/identification/midr_el1 */
		if (!read_str(root, "../../../devices/system/cpu/cpu0/regs/identification",
			      "midr_el1", buf, sizeof(buf)))
			p->spe_midr = strtoull(buf, NULL, 16);
		p->aux_bytes = 4u << 20;
	}
	finish(p, o, true, "dummy:u");
	return 0;
}

static int find_spe(const char *root, char *name, size_t n)
{
	char path[1024];
	DIR *d;
	struct dirent *de;
	int found = 0;

	snprintf(path, sizeof(path), "%s%s", root, DEVICES);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "arm_spe_", 8) &&
		    (!found || strcmp(de->d_name, name) < 0)) {
			snprintf(name, n, "%.60s", de->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

int hm_pmu__plan(const struct hm_pmu_plan_opts *o, struct hm_pmu_plan *p)
{
	const char *root = o->sysfs_root ? o->sysfs_root : "";
	char spe[64] = "", devs[1024];
	bool intel, ibs, have_spe;
	struct stat st;
	char pmus[4][32];

	memset(p, 0, sizeof(*p));
	if (o->mode == HM_MODE_CONTENTION) {
		p->mode = HM_MODE_CONTENTION;
		return 0;
	}
	if (o->user_only && o->kernel_only) {
		hm_err("-u and -k exclude each other; fix: give one");
		return -EINVAL;
	}
	snprintf(devs, sizeof(devs), "%s%s", root, DEVICES);
	if (stat(devs, &st)) {
		snprintf(p->why, sizeof(p->why), "%.200s does not exist (sysfs not mounted?)", devs);
		return 0;
	}
	intel = intel_core_pmus(root, pmus) > 0;
	ibs = exists(root, "ibs_op", NULL);
	have_spe = find_spe(root, spe, sizeof(spe));

	switch (o->mode) {
	case HM_MODE_PEBS:
		if (intel)
			return plan_intel(o, root, p);
		break;
	case HM_MODE_IBS:
		if (ibs)
			return plan_ibs(o, root, p);
		break;
	case HM_MODE_SPE:
		if (have_spe)
			return plan_spe(o, root, spe, p);
		break;
	default:
		if (intel)
			return plan_intel(o, root, p);
		if (ibs)
			return plan_ibs(o, root, p);
		if (have_spe)
			return plan_spe(o, root, spe, p);
	}
	p->nr = 0;
	snprintf(p->why, sizeof(p->why), "%s",
		 o->mode == HM_MODE_PEBS ? "no cpu/events/mem-loads: no PEBS (a VM without PEBS, or not Intel)" :
		 o->mode == HM_MODE_IBS ? "no ibs_op PMU (not AMD, or IBS hidden by the hypervisor)" :
		 o->mode == HM_MODE_SPE ? "no arm_spe_N PMU (not Arm, or SPE not in the device tree/ACPI)" :
		 "no cpu mem-loads (PEBS), no ibs_op (IBS), no arm_spe (SPE)");
	return 0;
}
