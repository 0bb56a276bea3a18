// SPDX-License-Identifier: GPL-2.0-only
/* Names of record types and header features, spelled as perf spells them. */
#include <stdio.h>
#include <string.h>
#include <hitmap/perf_data.h>

static const char *const kernel_names[] = {
	[1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT",
	[5] = "THROTTLE", [6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ",
	[9] = "SAMPLE", [10] = "MMAP2", [11] = "AUX", [12] = "ITRACE_START",
	[13] = "LOST_SAMPLES", [14] = "SWITCH", [15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES", [17] = "KSYMBOL", [18] = "BPF_EVENT",
	[19] = "CGROUP", [20] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[22] = "CALLCHAIN_DEFERRED",
};

static const char *const user_names[] = {
	"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND",
	"ID_INDEX", "AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP",
	"CPU_MAP", "STAT_CONFIG", "STAT", "STAT_ROUND", "EVENT_UPDATE",
	"TIME_CONV", "FEATURE", "COMPRESSED", "FINISHED_INIT", "COMPRESSED2",
	"BPF_METADATA", "SCHEDSTAT_CPU", "SCHEDSTAT_DOMAIN",
};

const char *hm_record__name(u32 type)
{
	if (type < sizeof(kernel_names) / sizeof(kernel_names[0]))
		return kernel_names[type];
	if (type >= 64 && type - 64 < sizeof(user_names) / sizeof(user_names[0]))
		return user_names[type - 64];
	return NULL;
}

static const char *const feat_names[] = {
	[HM_FEAT_TRACING_DATA] = "TRACING_DATA", [HM_FEAT_BUILD_ID] = "BUILD_ID",
	[HM_FEAT_HOSTNAME] = "HOSTNAME", [HM_FEAT_OSRELEASE] = "OSRELEASE",
	[HM_FEAT_VERSION] = "VERSION", [HM_FEAT_ARCH] = "ARCH",
	[HM_FEAT_NRCPUS] = "NRCPUS", [HM_FEAT_CPUDESC] = "CPUDESC",
	[HM_FEAT_CPUID] = "CPUID", [HM_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[HM_FEAT_CMDLINE] = "CMDLINE", [HM_FEAT_EVENT_DESC] = "EVENT_DESC",
	[HM_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [HM_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[HM_FEAT_BRANCH_STACK] = "BRANCH_STACK", [HM_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[HM_FEAT_GROUP_DESC] = "GROUP_DESC", [HM_FEAT_AUXTRACE] = "AUXTRACE",
	[HM_FEAT_STAT] = "STAT", [HM_FEAT_CACHE] = "CACHE",
	[HM_FEAT_SAMPLE_TIME] = "SAMPLE_TIME", [HM_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[HM_FEAT_CLOCKID] = "CLOCKID", [HM_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[HM_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO", [HM_FEAT_BPF_BTF] = "BPF_BTF",
	[HM_FEAT_COMPRESSED] = "COMPRESSED", [HM_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[HM_FEAT_CLOCK_DATA] = "CLOCK_DATA", [HM_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[HM_FEAT_PMU_CAPS] = "PMU_CAPS", [HM_FEAT_CPU_DOMAIN_INFO] = "CPU_DOMAIN_INFO",
	[HM_FEAT_E_MACHINE] = "E_MACHINE", [HM_FEAT_CLN_SIZE] = "CLN_SIZE",
};

const char *hm_feature__name(int feat)
{
	if (feat == HM_FEAT_HITMAP)
		return "HITMAP";
	if (feat > 0 && feat < (int)(sizeof(feat_names) / sizeof(feat_names[0])))
		return feat_names[feat];
	return NULL;
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

/*
 * evsel__add_modifiers().  Up to perf 6.12 :H and :G show where
 * exclude_guest differs from what perf then set by default (1 with a
 * privilege or precise modifier, else 0); from 6.13 on wherever
 * exclude_host or exclude_guest is set (cycles with exclude_guest, as
 * perf 3.x-4.x recorded it: "cycles" in 6.12, "cycles:H" in 7.3).
 */
static void add_modifiers(const struct perf_event_attr *a, bool gh_default, char *buf,
			  size_t size)
{
	size_t r = strlen(buf), colon = 0;
	bool excl_guest_default = false;

#define MOD(ctx, ch) do { if (!a->exclude_##ctx && r + 2 < size) { if (!colon) colon = ++r; \
		buf[r++] = ch; buf[r] = 0; } } while (0)
	if (r + 1 >= size)
		return;
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD(kernel, 'k');
		MOD(user, 'u');
		MOD(hv, 'h');
		excl_guest_default = true;
	}
	if (a->precise_ip && r + 5 < size) {
		if (!colon)
			colon = ++r;
		for (unsigned i = 0; i < a->precise_ip && i < 3; i++)
			buf[r++] = 'p';
		buf[r] = 0;
		excl_guest_default = true;
	}
	if (a->exclude_host || (gh_default ? a->exclude_guest == excl_guest_default : a->exclude_guest)) {
		MOD(host, 'H');
		MOD(guest, 'G');
	}
#undef MOD
	if (colon)
		buf[colon - 1] = ':';
}

/* A name made from the attr, as evsel__name() does for an unnamed event. */
static const char *attr_name(const struct perf_event_attr *a, bool gh_default, char *buf,
			     size_t size)
{
	if (a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw_names) / sizeof(hw_names[0]))
		snprintf(buf, size, "%s", hw_names[a->config]);
	else if (a->type == PERF_TYPE_SOFTWARE && a->config < sizeof(sw_names) / sizeof(sw_names[0]))
		snprintf(buf, size, "%s", sw_names[a->config]);
	else if (a->type == PERF_TYPE_RAW)
		snprintf(buf, size, "raw 0x%llx", (unsigned long long)a->config);
	else if (a->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, size, "tracepoint %llu", (unsigned long long)a->config);
	else
		snprintf(buf, size, "unknown %u:0x%llx", a->type, (unsigned long long)a->config);
	if (a->type != PERF_TYPE_TRACEPOINT)
		add_modifiers(a, gh_default, buf, size);
	return buf;
}

const char *hm_evsel__name(const struct hm_evsel *e, char *buf, size_t size)
{
	if (!e) {
		snprintf(buf, size, "[unknown]");
		return buf;
	}
	return e->name ? e->name : attr_name(&e->attr, false, buf, size);
}

const char *hm_evsel__attr_name(const struct hm_evsel *e, unsigned perf_compat, char *buf,
				size_t size)
{
	if (!e)
		return hm_evsel__name(e, buf, size);
	return attr_name(&e->attr, perf_compat && perf_compat < 613, buf, size);
}

const char *hm_evsel__name_v(const struct hm_evsel *e, unsigned perf_compat, char *buf,
			     size_t size)
{
	/* perf 6.1 names the event by it all the same */
	if (!e || (e->name && (!e->name_late || (perf_compat && perf_compat < 612))))
		return hm_evsel__name(e, buf, size);
	return hm_evsel__attr_name(e, perf_compat, buf, size);
}
