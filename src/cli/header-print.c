// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data header as perf prints it (header-print.h): perf report
 * --header-only [-I] for hitmap header, perf script --header [-I] for
 * hitmap script.  Printed with stdio to stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>
#include <hitmap/topo.h>
#include "header-print.h"

const char *const hm_header_print_rformat[5] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};
static const char *const flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat",
	"enable_on_exec", "task", "watermark", "precise_ip", "precise_ip2",
	"mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
	"exclude_callchain_kernel", "exclude_callchain_user", "mmap2", "comm_exec",
	"use_clockid", "context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
	"inherit_thread", "remove_on_exec", "sigtrap",
};

void hm_header_print__bits(char *buf, size_t size, u64 v, const char *const *names, int n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < 64; i++) {
		if (!(v >> i & 1))
			continue;
		if (i < n)
			len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
					len ? "|" : "", names[i]);
		else
			len += snprintf(buf + len, len < size ? size - len : 0, "%s(1<<%d)",
					len ? "|" : "", i);
		if (len >= size)
			break;
	}
}

static u64 attr_flags(const struct perf_event_attr *a)
{
	u64 f;

	memcpy(&f, (const char *)a + 40, sizeof(f));
	return f;
}

struct bit_name {
	int bit;
	const char *name;
};

/* perf's __p_sample_type(): its own order, TRANSACTION not named */
static const struct bit_name perf_stype[] = {
	{ 0, "IP" }, { 1, "TID" }, { 2, "TIME" }, { 3, "ADDR" }, { 4, "READ" },
	{ 5, "CALLCHAIN" }, { 6, "ID" }, { 7, "CPU" }, { 8, "PERIOD" },
	{ 9, "STREAM_ID" }, { 10, "RAW" }, { 11, "BRANCH_STACK" }, { 12, "REGS_USER" },
	{ 13, "STACK_USER" }, { 16, "IDENTIFIER" }, { 18, "REGS_INTR" }, { 15, "DATA_SRC" },
	{ 14, "WEIGHT" }, { 19, "PHYS_ADDR" }, { 20, "AUX" }, { 21, "CGROUP" },
	{ 22, "DATA_PAGE_SIZE" }, { 23, "CODE_PAGE_SIZE" }, { 24, "WEIGHT_STRUCT" }, { -1, NULL },
};
static const struct bit_name perf_branch[] = {
	{ 0, "USER" }, { 1, "KERNEL" }, { 2, "HV" }, { 3, "ANY" }, { 4, "ANY_CALL" },
	{ 5, "ANY_RETURN" }, { 6, "IND_CALL" }, { 7, "ABORT_TX" }, { 8, "IN_TX" },
	{ 9, "NO_TX" }, { 10, "COND" }, { 11, "CALL_STACK" }, { 12, "IND_JUMP" },
	{ 13, "CALL" }, { 14, "NO_FLAGS" }, { 15, "NO_CYCLES" }, { 16, "TYPE_SAVE" },
	{ 17, "HW_INDEX" }, { -1, NULL },
};

static void perf_bits(char *buf, size_t size, u64 v, const struct bit_name *b)
{
	size_t len = 0;

	buf[0] = 0;
	for (; b->name && len < size; b++)
		if (v >> b->bit & 1)
			len += snprintf(buf + len, size - len, "%s%s", len ? "|" : "", b->name);
}

struct pmu_find {
	u32	type;
	char	*buf;
	size_t	size;
};

static int pmu_match(const char *name, u32 type, void *arg)
{
	struct pmu_find *f = arg;

	if (type != f->type)
		return 0;
	snprintf(f->buf, f->size, "%s", name);
	return 1;
}

/*
 * The running machine's PMU of @type (sysfs), as perf finds it: a machine
 * without a core PMU in sysfs (a VM) gets perf's own "cpu" of type RAW.
 */
static const char *pmu_name(u32 type, char *buf, size_t size)
{
	struct pmu_find f = { type, buf, size };

	if (hm_pmu__each(NULL, pmu_match, &f) > 0)
		return buf;
	return type == PERF_TYPE_RAW ? "cpu" : NULL;
}

/*
 * perf 6.12 names the type by the running machine's PMU, else by the ABI;
 * 7.3 by the ABI (PERF_TYPE_*) except RAW and dynamic types, by the PMU.
 */
static const char *type_name(u32 type, enum hm_perf_compat compat, char *buf, size_t size)
{
	static const char *const abi[] = {
		"PERF_TYPE_HARDWARE", "PERF_TYPE_SOFTWARE", "PERF_TYPE_TRACEPOINT",
		"PERF_TYPE_HW_CACHE", "PERF_TYPE_RAW", "PERF_TYPE_BREAKPOINT",
	};
	const char *s;

	if (compat >= HM_PERF_7_3 && type < 6 && type != PERF_TYPE_RAW)
		return abi[type];
	if (type != PERF_TYPE_HARDWARE && type != PERF_TYPE_HW_CACHE &&
	    (s = pmu_name(type, buf, size)))
		return s;
	return type < 6 ? abi[type] : NULL;
}

/*
 * perf 6.12 and later name hardware and software configs; 7.3 also those
 * with a PMU type in the high 32 bits (hybrid): "cpu_core/NAME/" when the
 * running machine has that PMU
 */
static const char *config_name(u32 type, u64 config, enum hm_perf_compat compat,
			       char *buf, size_t size)
{
	static const char *const hw[] = {
		"PERF_COUNT_HW_CPU_CYCLES", "PERF_COUNT_HW_INSTRUCTIONS",
		"PERF_COUNT_HW_CACHE_REFERENCES", "PERF_COUNT_HW_CACHE_MISSES",
		"PERF_COUNT_HW_BRANCH_INSTRUCTIONS", "PERF_COUNT_HW_BRANCH_MISSES",
		"PERF_COUNT_HW_BUS_CYCLES", "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND",
		"PERF_COUNT_HW_STALLED_CYCLES_BACKEND", "PERF_COUNT_HW_REF_CPU_CYCLES",
	};
	static const char *const sw[] = {
		"PERF_COUNT_SW_CPU_CLOCK", "PERF_COUNT_SW_TASK_CLOCK",
		"PERF_COUNT_SW_PAGE_FAULTS", "PERF_COUNT_SW_CONTEXT_SWITCHES",
		"PERF_COUNT_SW_CPU_MIGRATIONS", "PERF_COUNT_SW_PAGE_FAULTS_MIN",
		"PERF_COUNT_SW_PAGE_FAULTS_MAJ", "PERF_COUNT_SW_ALIGNMENT_FAULTS",
		"PERF_COUNT_SW_EMULATION_FAULTS", "PERF_COUNT_SW_DUMMY",
		"PERF_COUNT_SW_BPF_OUTPUT", "PERF_COUNT_SW_CGROUP_SWITCHES",
	};

	if (type == PERF_TYPE_HARDWARE && config >> 32 && compat >= HM_PERF_7_3) {
		u64 low = config & 0xffffffffULL;
		char pb[128];
		const char *pmu = pmu_name((u32)(config >> 32), pb, sizeof(pb));

		if (low >= sizeof(hw) / sizeof(hw[0]))
			return NULL;
		if (!pmu)
			return hw[low];
		snprintf(buf, size, "%s/%s/", pmu, hw[low]);
		return buf;
	}
	if (type == PERF_TYPE_HARDWARE && config < sizeof(hw) / sizeof(hw[0]))
		return hw[config];
	if (type == PERF_TYPE_SOFTWARE && config < sizeof(sw) / sizeof(sw[0]))
		return sw[config];
	return NULL;
}

/* perf's print_event_desc() line: perf_event_attr__fprintf()'s fields, in its order */
/* @attr_name: perf read no EVENT_DESC, names made from the attr */
static void print_event(const struct hm_evsel *e, enum hm_perf_compat compat, bool attr_name)
{
	const struct perf_event_attr *a = &e->attr;
	bool named = compat != HM_PERF_6_1;
	char nb[128], buf[512];
	const char *s;
	u64 fl = attr_flags(a);

	printf("# event : name = %s, ", attr_name ? hm_evsel__attr_name(e, compat, nb, sizeof(nb)) :
	       hm_evsel__name(e, nb, sizeof(nb)));
	if (e->nr_ids) {
		printf(", id = {");
		for (u32 i = 0; i < e->nr_ids; i++)
			printf("%s %llu", i ? "," : "", (unsigned long long)e->ids[i]);
		printf(" }");
	}
	if (named) {
		s = type_name(a->type, compat, buf, sizeof(buf));
		if (s)
			printf(", type = %u (%s)", a->type, s);
		else
			printf(", type = %u", a->type);
	} else if (a->type) {
		printf(", type = %u", a->type);
	}
	if (e->file_attr_size)
		printf(", size = %u", e->file_attr_size);
	s = named ? config_name(a->type, a->config, compat, buf, sizeof(buf)) : NULL;
	if (s)
		printf(", config = %#llx (%s)", (unsigned long long)a->config, s);
	else if (named || a->config)
		printf(", config = %#llx", (unsigned long long)a->config);
	if (a->sample_period)
		printf(", { sample_period, sample_freq } = %llu", (unsigned long long)a->sample_period);
	perf_bits(buf, sizeof(buf), a->sample_type, perf_stype);
	if (a->sample_type)
		printf(", sample_type = %s", buf);
	hm_header_print__bits(buf, sizeof(buf), a->read_format, hm_header_print_rformat, 5);
	if (a->read_format)
		printf(", read_format = %s", buf);
	for (int i = 0; i < 38; i++) {
		if (i == 15 && a->precise_ip)
			printf(", precise_ip = %u", a->precise_ip);
		if (i == 15 || i == 16)
			continue;
		if (fl >> i & 1)
			printf(", %s = 1", flag_names[i]);
	}
	if (a->wakeup_events)
		printf(", { wakeup_events, wakeup_watermark } = %u", a->wakeup_events);
	if (a->bp_type)
		printf(", bp_type = %u", a->bp_type);
	if (a->config1)
		printf(", { bp_addr, config1 } = %#llx", (unsigned long long)a->config1);
	if (a->config2)
		printf(", { bp_len, config2 } = %#llx", (unsigned long long)a->config2);
	perf_bits(buf, sizeof(buf), a->branch_sample_type, perf_branch);
	if (a->branch_sample_type)
		printf(", branch_sample_type = %s", buf);
	if (a->sample_regs_user)
		printf(", sample_regs_user = %#llx", (unsigned long long)a->sample_regs_user);
	if (a->sample_stack_user)
		printf(", sample_stack_user = %u", a->sample_stack_user);
	if (a->clockid)
		printf(", clockid = %d", (int)a->clockid);
	if (a->sample_regs_intr)
		printf(", sample_regs_intr = %#llx", (unsigned long long)a->sample_regs_intr);
	if (a->aux_watermark)
		printf(", aux_watermark = %u", a->aux_watermark);
	if (a->sample_max_stack)
		printf(", sample_max_stack = %u", a->sample_max_stack);
	if (a->aux_sample_size)
		printf(", aux_sample_size = %u", a->aux_sample_size);
	if (a->sig_data)
		printf(", sig_data = %llu", (unsigned long long)a->sig_data);
	printf("\n");
}

/* perf's clockid_name(): the first name of the clock in its table */
static const char *clockid_name(u32 id)
{
	switch (id) {
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 0: return "realtime";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

/* perf's unit_number__scnprintf(): B, K, M or G, divided while n / 1024 > 1 */
static void unit_number(char *buf, size_t size, u64 n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%llu%c", (unsigned long long)n, unit[i]);
}

/* perf's bitmap_scnprintf() into its 100-byte buffer: "0-17,32-269" */
static void bitmap_ranges(char *buf, size_t size, const u64 *map, u64 nbits)
{
	size_t len = 0;
	u64 b = 0;

	buf[0] = 0;
	while (b < nbits && len + 1 < size) {
		u64 top;

		if (!(map[b / 64] >> (b % 64) & 1)) {
			b++;
			continue;
		}
		top = b;
		while (top + 1 < nbits && (map[(top + 1) / 64] >> ((top + 1) % 64) & 1))
			top++;
		if (top > b)
			len += snprintf(buf + len, size - len, "%s%llu-%llu", len ? "," : "",
					(unsigned long long)b, (unsigned long long)top);
		else
			len += snprintf(buf + len, size - len, "%s%llu", len ? "," : "",
					(unsigned long long)b);
		b = top + 1;
	}
}

static void print_cpu_topology(const struct hm_header *h)
{
	/* perf stops before the die lists when it skips the per-CPU ids */
	bool dies = h->nr_die_cpus && h->cpu && !h->cpu_ids_hidden;

	for (u32 i = 0; i < h->nr_package_cpus; i++)
		printf("# sibling sockets : %s\n", h->package_cpus[i]);
	for (u32 i = 0; dies && i < h->nr_die_cpus; i++)
		printf("# sibling dies    : %s\n", h->die_cpus[i]);
	for (u32 i = 0; i < h->nr_core_cpus; i++)
		printf("# sibling threads : %s\n", h->core_cpus[i]);
	if (!h->cpu || h->cpu_ids_hidden) {
		printf("# Core ID%s and Socket ID information is not available\n",
		       dies ? ", Die ID" : "");
		return;
	}
	for (u32 i = 0; i < h->nr_cpus_avail; i++)
		if (dies)
			printf("# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
			       h->cpu[i].core_id, h->cpu[i].die_id, h->cpu[i].socket_id);
		else
			printf("# CPU %u: Core ID %d, Socket ID %d\n", i, h->cpu[i].core_id,
			       h->cpu[i].socket_id);
}

/*
 * perf's print_group_desc(): "# group: NAME{leader,member,...}", the name
 * left out for {anon_group}, members named as the events are.
 */
static void print_group_desc(struct hm_reader *r, const struct hm_header *h)
{
	int nr = hm_reader__nr_evsels(r);
	char nb[128];

	for (u32 g = 0; g < h->nr_groups; g++) {
		u32 lead = h->group_leader[g], n = h->group_members[g];
		const char *name = h->group_names[g] ? h->group_names[g] : "";

		if (n < 2 || lead >= (u32)nr || n > (u32)nr - lead)
			continue;
		printf("# group: %s{", strcmp(name, "{anon_group}") ? name : "");
		for (u32 k = 0; k < n; k++)
			printf("%s%s", k ? "," : "",
			       hm_evsel__name(hm_reader__evsel(r, (int)(lead + k)), nb, sizeof(nb)));
		printf("}\n");
	}
}

/*
 * BPF_PROG_INFO as perf's print_bpf_prog_info prints it (6.1 to 7.3 alike):
 * each program in id order, its functions named as perf names them
 * (hm_header__bpf_func_name: from the BTF saved with them, unless a
 * stream brought it later); one of several functions a line; a program
 * whose saved counts disagree not at all.  From perf 7.3 on, a section
 * with no program says so.
 */
static void print_bpf_progs(const struct hm_header *h, enum hm_perf_compat compat)
{
	char name[512];

	if (!h->nr_bpf_progs && compat >= HM_PERF_7_3)
		printf("# bpf_prog_info empty\n");
	for (u32 i = 0; i < h->nr_bpf_progs; i++) {
		const struct hm_bpf_prog *p = &h->bpf_progs[i];

		if (!p->printable)
			continue;
		if (p->nr_funcs == 1) {
			hm_header__bpf_func_name(h, p, 0, name, sizeof(name));
			printf("# bpf_prog_info %u: %s addr 0x%llx size %u\n", p->id, name,
			       (unsigned long long)p->funcs[0].addr, p->funcs[0].size);
			continue;
		}
		printf("# bpf_prog_info %u:\n", p->id);
		for (u32 k = 0; k < p->nr_funcs; k++) {
			hm_header__bpf_func_name(h, p, k, name, sizeof(name));
			printf("# \tsub_prog %u: %s addr 0x%llx size %u\n", k, name,
			       (unsigned long long)p->funcs[k].addr, p->funcs[k].size);
		}
	}
}

static void print_mem_topology(const struct hm_header *h)
{
	printf("# memory nodes (nr %llu, block size %#llx):\n",
	       (unsigned long long)h->nr_mem_nodes, (unsigned long long)h->mem_block_size);
	for (u64 i = 0; i < h->nr_mem_nodes; i++) {
		char size[50], map[100];
		u64 set = 0;

		for (u64 b = 0; b < h->mem[i].nbits; b++)
			set += h->mem[i].bitmap[b / 64] >> (b % 64) & 1;
		unit_number(size, sizeof(size), set * h->mem_block_size);
		bitmap_ranges(map, sizeof(map), h->mem[i].bitmap, h->mem[i].nbits);
		printf("#  %3llu [%s]: %s\n", (unsigned long long)h->mem[i].node, size, map);
	}
}

static void print_clock_data(const struct hm_header *h)
{
	time_t sec = (time_t)(h->clock_tod_ns / 1000000000ULL);
	unsigned usec = (unsigned)(h->clock_tod_ns % 1000000000ULL / 1000);
	char date[64];
	struct tm tm;

	if (localtime_r(&sec, &tm))
		strftime(date, sizeof(date), "%F %T", &tm);
	else
		snprintf(date, sizeof(date), "<error>");
	printf("# clockid: %s (%u)\n", clockid_name(h->clock_id), h->clock_id);
	printf("# reference time: %s%s%06u = %lld.%06u (TOD) = %llu.%09llu (%s)\n", date,
	       strcmp(date, "<error>") ? "." : "", usec, (long long)sec, usec,
	       (unsigned long long)(h->clock_ref_ns / 1000000000ULL),
	       (unsigned long long)(h->clock_ref_ns % 1000000000ULL),
	       clockid_name(h->clock_id));
}

static const char *pmu_cap(const struct hm_pmu_caps *c, const char *name)
{
	for (u32 k = 0; k < c->nr; k++)
		if (c->names[k] && !strcmp(c->names[k], name))
			return c->values[k];
	return NULL;
}

/* CPU_PMU_CAPS (@cpu) or PMU_CAPS, as perf's __print_pmu_caps() */
static void print_pmu_caps(const struct hm_header *h, bool cpu)
{
	const char *max_precise = NULL;
	bool ibs = false;

	for (u32 i = 0; i < h->nr_pmu_caps; i++) {
		const struct hm_pmu_caps *c = &h->pmu_caps[i];

		if (cpu != !c->pmu_name)
			continue;
		printf("# %s pmu capabilities: ", c->pmu_name ? c->pmu_name : "cpu");
		if (!c->nr)
			printf("not available");
		for (u32 k = 0; k < c->nr; k++)
			printf("%s%s=%s", k ? ", " : "", c->names[k] ? c->names[k] : "",
			       c->values[k] ? c->values[k] : "");
		printf("\n");
	}
	if (cpu)
		return;
	/* perf's note for AMD: x86 with an ibs_op PMU and max_precise=0 */
	for (u32 i = 0; i < h->nr_pmu_mappings; i++)
		ibs |= h->pmu_names[i] && !strcmp(h->pmu_names[i], "ibs_op");
	for (u32 i = 0; i < h->nr_pmu_caps && !max_precise; i++)
		if (!h->pmu_caps[i].pmu_name)
			max_precise = pmu_cap(&h->pmu_caps[i], "max_precise");
	if (ibs && max_precise && atoi(max_precise) == 0 && h->arch &&
	    (!strcmp(h->arch, "x86_64") || !strcmp(h->arch, "i386") || !strcmp(h->arch, "i686")))
		printf("# AMD systems uses ibs_op// PMU for some precise events, e.g.: cycles:p, "
		       "see the 'perf list' man page for further details.\n");
}

/* a string feature; glibc's "(null)" as perf prints one it could not read */
static void print_str(const char *what, const char *v)
{
	printf("# %s : %s\n", what, v ? v : "(null)");
}

/* The @n-byte number at @off of section @f as the reader kept it (native); 0 if none. */
static u64 raw_num(const struct hm_header *h, int f, u64 off, unsigned n)
{
	const struct hm_feat_raw *k = h->feat_raw ? &h->feat_raw[f] : NULL;
	u64 v64 = 0;
	u32 v32 = 0;

	if (!k || !k->present || k->size < off + n)
		return 0;
	if (n == 8) {
		memcpy(&v64, (const u8 *)k->data + off, 8);
		return v64;
	}
	memcpy(&v32, (const u8 *)k->data + off, 4);
	return v32;
}

/* A perf_header_string at *@off of section @f (advanced past it); NULL at the end. */
static const char *raw_str(const struct hm_header *h, int f, u64 *off, char *buf, size_t size)
{
	const struct hm_feat_raw *k = &h->feat_raw[f];
	u64 len = raw_num(h, f, *off, 4);

	if (k->size < *off + 4 || len > k->size - *off - 4)
		return NULL;
	snprintf(buf, size, "%.*s", (int)len, (const char *)k->data + *off + 4);
	*off += 4 + len;
	return buf;
}

/*
 * CPU_DOMAIN_INFO as perf 7.3's print_cpu_domain_info(): u32 schedstat
 * version, u32 max domains, then per CPU {u32 cpu, u32 nr_domains,
 * {u32 domain, [name (version >= 17)], cpumask, cpulist}[]}.
 */
static void print_cpu_domain_info(const struct hm_header *h)
{
	const int f = HM_FEAT_CPU_DOMAIN_INFO;
	u32 version = (u32)raw_num(h, f, 0, 4);
	u64 off = 8, size = h->feat_raw ? h->feat_raw[f].size : 0;
	char name[256], mask[1024], list[1024];

	printf("# schedstat version\t: %u\n", version);
	printf("# Maximum sched domains\t: %u\n", (u32)raw_num(h, f, 4, 4));
	while (off + 8 <= size) {
		u32 nr = (u32)raw_num(h, f, off + 4, 4);

		printf("# cpu\t\t: %u\n", (u32)raw_num(h, f, off, 4));
		printf("# nr_domains\t: %u\n", nr);
		off += 8;
		for (u32 i = 0; i < nr; i++) {
			u32 dom = (u32)raw_num(h, f, off, 4);

			off += 4;
			if ((version >= 17 && !raw_str(h, f, &off, name, sizeof(name))) ||
			    !raw_str(h, f, &off, mask, sizeof(mask)) ||
			    !raw_str(h, f, &off, list, sizeof(list)))
				return;
			printf("# Domain\t\t: %u\n", dom);
			if (version >= 17)
				printf("# Domain name      : %s\n", name);
			printf("# Domain cpu map   : %s\n", mask);
			printf("# Domain cpu list  : %s\n", list);
		}
	}
}

/*
 * One feature section, as perf's print_* function for it prints it;
 * @unread: perf stopped reading the sections before this one, and prints
 * it from what it knows then (nothing: @h is an empty header).
 */
/*
 * perf's feat_ops[].full_only: what it prints only with -I (perf report
 * --header-only -I, perf script --header -I), else a line that says so
 */
static bool full_only(int f, enum hm_perf_compat compat)
{
	switch (f) {
	case HM_FEAT_CPU_TOPOLOGY:
	case HM_FEAT_NUMA_TOPOLOGY:
	case HM_FEAT_CACHE:
	case HM_FEAT_MEM_TOPOLOGY:
	case HM_FEAT_HYBRID_TOPOLOGY:
		return true;
	case HM_FEAT_CPU_DOMAIN_INFO:
		return compat >= HM_PERF_7_3;
	default:
		return false;
	}
}

static void print_feature(struct hm_reader *r, const struct hm_header *h, int f,
			  enum hm_perf_compat compat, bool unread, bool full)
{
	if (!full && full_only(f, compat)) {
		printf("# %s info available, use -I to display\n", hm_feature__name(f));
		return;
	}
	switch (f) {
	case HM_FEAT_HOSTNAME:	print_str("hostname", h->hostname); break;
	case HM_FEAT_OSRELEASE:	print_str("os release", h->osrelease); break;
	case HM_FEAT_VERSION:	print_str("perf version", h->version); break;
	case HM_FEAT_ARCH:	print_str("arch", h->arch); break;
	case HM_FEAT_NRCPUS:
		printf("# nrcpus online : %u\n", h->nr_cpus_online);
		printf("# nrcpus avail : %u\n", h->nr_cpus_avail);
		break;
	case HM_FEAT_CPUDESC:	print_str("cpudesc", h->cpudesc); break;
	case HM_FEAT_CPUID:	print_str("cpuid", h->cpuid); break;
	case HM_FEAT_TOTAL_MEM:
		printf("# total memory : %llu kB\n", (unsigned long long)h->total_mem_kb);
		break;
	case HM_FEAT_CMDLINE:
		printf("# cmdline : ");
		for (u32 i = 0; i < h->cmdline_argc; i++) {
			/* perf writes a quote as \' */
			for (const char *p = h->cmdline_argv[i]; *p; p++)
				if (*p == '\'')
					fputs("\\'", stdout);
				else
					putchar(*p);
			putchar(' ');
		}
		printf("\n");
		break;
	case HM_FEAT_EVENT_DESC:
		for (int i = 0; i < hm_reader__nr_evsels(r); i++)
			print_event(hm_reader__evsel(r, i), compat, unread);
		break;
	case HM_FEAT_CPU_TOPOLOGY: print_cpu_topology(h); break;
	case HM_FEAT_NUMA_TOPOLOGY:
		for (u32 i = 0; i < h->nr_numa_nodes; i++) {
			printf("# node%u meminfo  : total = %llu kB, free = %llu kB\n",
			       h->numa[i].node, (unsigned long long)h->numa[i].mem_total_kb,
			       (unsigned long long)h->numa[i].mem_free_kb);
			printf("# node%u cpu list : %s\n", h->numa[i].node,
			       h->numa[i].cpus ? h->numa[i].cpus : "");
		}
		break;
	case HM_FEAT_BRANCH_STACK: printf("# contains samples with branch stack\n"); break;
	case HM_FEAT_PMU_MAPPINGS:
		if (!h->nr_pmu_mappings)
			printf("# pmu mappings: not available");
		for (u32 i = 0; i < h->nr_pmu_mappings; i++)
			printf("%s%s = %u", i ? ", " : "# pmu mappings: ",
			       h->pmu_names[i] ? h->pmu_names[i] : "", h->pmu_types[i]);
		printf("\n");
		break;
	case HM_FEAT_GROUP_DESC: print_group_desc(r, h); break;
	case HM_FEAT_AUXTRACE:	printf("# contains AUX area data (e.g. instruction trace)\n"); break;
	case HM_FEAT_STAT:	printf("# contains stat data\n"); break;
	case HM_FEAT_CACHE:
		printf("# CPU cache info:\n");
		for (u32 i = 0; i < h->nr_caches; i++) {
			const struct hm_cache_level *c = &h->caches[i];

			printf("#  L%u %-15s %8s [%s]\n", c->level, c->type ? c->type : "",
			       c->size ? c->size : "", c->map ? c->map : "");
		}
		break;
	case HM_FEAT_SAMPLE_TIME:
		printf("# time of first sample : %llu.%06llu\n",
		       (unsigned long long)(h->sample_time_first / 1000000000ULL),
		       (unsigned long long)(h->sample_time_first % 1000000000ULL / 1000));
		printf("# time of last sample : %llu.%06llu\n",
		       (unsigned long long)(h->sample_time_last / 1000000000ULL),
		       (unsigned long long)(h->sample_time_last % 1000000000ULL / 1000));
		printf("# sample duration : %10.3f ms\n",
		       (double)(h->sample_time_last - h->sample_time_first) / 1e6);
		break;
	case HM_FEAT_MEM_TOPOLOGY: print_mem_topology(h); break;
	case HM_FEAT_CLOCKID:
		/* perf's print_clockid: the resolution in ns times 1000, as "MHz" */
		printf("# clockid frequency: %llu MHz\n", (unsigned long long)h->clockid_res_ns * 1000);
		break;
	case HM_FEAT_BPF_PROG_INFO: print_bpf_progs(h, compat); break;
	case HM_FEAT_BPF_BTF:
		if (!h->nr_btf && compat >= HM_PERF_7_3)
			printf("# btf info empty\n");
		for (u32 i = 0; i < h->nr_btf; i++)
			printf("# btf info of id %u\n", h->btf[i].id);
		break;
	case HM_FEAT_COMPRESSED:
		printf("# compressed : %s, level = %u, ratio = %u\n",
		       h->comp_type == 1 ? "Zstd" : "Unknown", h->comp_level, h->comp_ratio);
		break;
	case HM_FEAT_CPU_PMU_CAPS: {
		bool any = false;

		for (u32 i = 0; i < h->nr_pmu_caps; i++)
			any |= !h->pmu_caps[i].pmu_name;
		if (any)
			print_pmu_caps(h, true);
		else	/* perf read none */
			printf("# cpu pmu capabilities: not available\n");
		break;
	}
	case HM_FEAT_CLOCK_DATA: print_clock_data(h); break;
	case HM_FEAT_HYBRID_TOPOLOGY:
		printf("# hybrid cpu system:\n");
		for (u32 i = 0; i < h->nr_hybrid; i++)
			printf("# %s cpu list : %s\n", h->hybrid_pmu[i] ? h->hybrid_pmu[i] : "",
			       h->hybrid_cpus[i] ? h->hybrid_cpus[i] : "");
		break;
	case HM_FEAT_PMU_CAPS: print_pmu_caps(h, false); break;
	case HM_FEAT_DIR_FORMAT:
		printf("# directory data version : %llu\n",
		       (unsigned long long)raw_num(h, HM_FEAT_DIR_FORMAT, 0, 8));
		break;
	/* perf 7.3's features; perf 6.1 and 6.12 print nothing of them */
	case HM_FEAT_CPU_DOMAIN_INFO:
		if (compat >= HM_PERF_7_3)
			print_cpu_domain_info(h);
		break;
	case HM_FEAT_E_MACHINE:
		if (compat >= HM_PERF_7_3) {
			printf("# e_machine : %u\n", (u32)raw_num(h, HM_FEAT_E_MACHINE, 0, 4));
			printf("#   e_flags : %u\n", (u32)raw_num(h, HM_FEAT_E_MACHINE, 4, 4));
		}
		break;
	case HM_FEAT_CLN_SIZE:
		if (compat >= HM_PERF_7_3)
			printf("# cacheline size: %u\n", (u32)raw_num(h, HM_FEAT_CLN_SIZE, 0, 4));
		break;
	default:
		break;	/* TRACING_DATA, BUILD_ID: perf prints nothing; others: not parsed */
	}
}

/*
 * The feature perf stops reading sections at, in file mode: it reads them
 * in bit order and gives up on the rest at the first it cannot read
 * (perf_header__process_sections): an empty section of a feature that has
 * contents (perf 3.14 left CPUDESC empty; BRANCH_STACK and STAT are empty
 * by design), DIR_FORMAT in a file that is not a folder.  HM_FEAT_BITS:
 * none.  perf 7.3 refuses such a file.
 */
static int perf_stops_at(const struct hm_header *h, bool dir)
{
	if (h->pipe || !h->feat_raw)
		return HM_FEAT_BITS;
	for (int f = 1; f < HM_FEAT_BITS; f++) {
		if (!hm_header__has_feat(h, f))
			continue;
		if (f == HM_FEAT_DIR_FORMAT && !dir)
			return f;
		if (h->feat_raw[f].present && !h->feat_raw[f].size &&
		    f != HM_FEAT_BRANCH_STACK && f != HM_FEAT_STAT)
			return f;
	}
	return HM_FEAT_BITS;
}

/* HEADER_LAST_FEATURE of perf @v: the features its "missing features" line knows */
static int perf_last_feature(enum hm_perf_compat v)
{
	return v == HM_PERF_6_1 || v == HM_PERF_6_12 ? HM_FEAT_PMU_CAPS + 1 : HM_FEAT_CLN_SIZE + 1;
}

void hm_header_print__feature(struct hm_reader *r, int feat, const struct hm_header_print *o)
{
	enum hm_perf_compat compat = o->compat == HM_PERF_NEWEST ? HM_PERF_7_3 : o->compat;

	if (feat > 0 && feat < HM_FEAT_BITS)
		print_feature(r, hm_reader__header(r), feat, compat, false, o->full);
}

/*
 * perf_session__fprintf_info(): the file header, then the feature sections
 * in feature-bit order (in pipe mode as the stream brings them, after the
 * closing "# ========"), then in file mode the features the file lacks.
 * hitmap's own lines (mode, build ids, tracing data, its metadata, the
 * features present) come after perf's.
 */
void hm_header_print__text(struct hm_reader *r, const char *input, const struct hm_header_print *o)
{
	const struct hm_header *h = hm_reader__header(r);
	const struct hm_header none = { .pipe = h->pipe };
	enum hm_perf_compat compat = o->compat == HM_PERF_NEWEST ? HM_PERF_7_3 : o->compat;
	bool pipe_in = !strcmp(input, "-");
	struct stat sb;
	bool dir = !pipe_in && !stat(input, &sb) && S_ISDIR(sb.st_mode), timed;
	int stop = perf_stops_at(h, dir);

	printf("# ========\n");
	if (dir) {	/* perf's time is that of the folder's header file */
		char path[4200];

		snprintf(path, sizeof(path), "%s/data", input);
		timed = !stat(path, &sb);
	} else if (pipe_in) {	/* perf fstat()s its input: a file on stdin, a pipe */
		timed = o->stdin_time && !fstat(STDIN_FILENO, &sb);
	} else {
		timed = !stat(input, &sb);
	}
	if (timed) {
		char tb[64];

		strftime(tb, sizeof(tb), "%a %b %e %H:%M:%S %Y", localtime(&sb.st_mtime));
		printf("# captured on    : %s\n", tb);
	}
	printf("# header version : 1\n");
	if (o->hitmap_lines)
		printf("# mode           : %s%s\n", h->pipe ? "pipe" : "file",
		       h->needs_swap ? ", other byte order (swapped)" : "");
	printf("# data offset    : %llu\n", (unsigned long long)(h->pipe ? 0 : h->data_offset));
	printf("# data size      : %llu\n", (unsigned long long)(h->pipe ? 0 : h->data_size));
	printf("# feat offset    : %llu\n",
	       (unsigned long long)(h->pipe ? 0 : h->data_offset + h->data_size));
	if (h->pipe)
		printf("# ========\n#\n");
	for (int f = 1; f < HM_FEAT_BITS && !(h->pipe && o->features_later); f++)
		if (hm_header__has_feat(h, f))
			print_feature(r, f < stop ? h : &none, f, compat, f > stop, o->full);
	if (!h->pipe) {
		printf("# missing features: ");
		for (int f = 1; f < perf_last_feature(compat); f++)
			if (!hm_header__has_feat(h, f))
				printf("%s ", hm_feature__name(f));
		printf("\n");
	}
	if (o->hitmap_lines) {
		if (h->nr_build_ids)
			printf("# build ids : %u\n", h->nr_build_ids);
		if (h->tep)
			printf("# tracing data : parsed\n");
		if (h->hitmap_meta)
			printf("# hitmap metadata : %llu bytes\n",
			       (unsigned long long)h->hitmap_meta_size);
		printf("# features:");
		for (int f = 0; f < HM_FEAT_BITS; f++)
			if (hm_header__has_feat(h, f)) {
				const char *n = hm_feature__name(f);

				if (n)
					printf(" %s", n);
				else
					printf(" unknown(%d)", f);
			}
		printf("\n");
	}
	if (!h->pipe)
		printf("# ========\n#\n");
}
