// SPDX-License-Identifier: GPL-2.0-only
/* hitmap header: the file header, events and features, like perf report --header-only -I. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <hitmap/json.h>
#include <hitmap/perf_data.h>
#include "cli.h"
#include "output.h"

static const char usage_text[] =
"usage: hitmap header -i FILE [--json]\n"
"\n"
"Show the header of a perf.data file: events (attrs and ids) and every\n"
"feature section hitmap parses, like 'perf report --header-only -I'.\n"
"In pipe mode the header is spread over the stream: the whole file is read.\n"
"\n"
"  -i, --input FILE   perf.data to read (default: perf.data)\n"
"      --json         print the header as JSON\n"
"  -h, --help         show this help\n";

static const char *const stype_names[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD",
	"STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT",
	"DATA_SRC", "IDENTIFIER", "TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX",
	"CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};
static const char *const rformat_names[] = {
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

static void bits_str(char *buf, size_t size, u64 v, const char *const *names, int n)
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

static void print_event(const struct hm_evsel *e)
{
	const struct perf_event_attr *a = &e->attr;
	char nb[128], st[512], rf[256];
	u64 fl = attr_flags(a);

	bits_str(st, sizeof(st), a->sample_type, stype_names, 25);
	bits_str(rf, sizeof(rf), a->read_format, rformat_names, 5);
	printf("# event : name = %s, , id = {", hm_evsel__name(e, nb, sizeof(nb)));
	for (u32 i = 0; i < e->nr_ids; i++)
		printf("%s %llu", i ? "," : "", (unsigned long long)e->ids[i]);
	printf(" }, type = %u, size = %u", a->type, e->file_attr_size);
	if (a->config)
		printf(", config = %#llx", (unsigned long long)a->config);
	printf(", { sample_period, sample_freq } = %llu, sample_type = %s",
	       (unsigned long long)a->sample_period, st);
	if (a->read_format)
		printf(", read_format = %s", rf);
	for (int i = 0; i < 38; i++) {
		if (i == 15 || i == 16)
			continue;
		if (fl >> i & 1)
			printf(", %s = 1", flag_names[i]);
	}
	if (a->precise_ip)
		printf(", precise_ip = %u", a->precise_ip);
	if (a->config1)
		printf(", config1 = %#llx", (unsigned long long)a->config1);
	if (a->config2)
		printf(", config2 = %#llx", (unsigned long long)a->config2);
	if (a->branch_sample_type)
		printf(", branch_sample_type = %#llx", (unsigned long long)a->branch_sample_type);
	if (a->sample_regs_user)
		printf(", sample_regs_user = %#llx", (unsigned long long)a->sample_regs_user);
	if (a->sample_stack_user)
		printf(", sample_stack_user = %u", a->sample_stack_user);
	/* perf prints the clock after the stack size, signed */
	if (a->clockid)
		printf(", clockid = %d", (int)a->clockid);
	if (a->sample_regs_intr)
		printf(", sample_regs_intr = %#llx", (unsigned long long)a->sample_regs_intr);
	printf("\n");
}

static void print_text(struct hm_reader *r, const char *input)
{
	const struct hm_header *h = hm_reader__header(r);
	struct stat sb;

	printf("# ========\n");
	if (strcmp(input, "-") && !stat(input, &sb)) {
		char tb[64];

		strftime(tb, sizeof(tb), "%a %b %e %H:%M:%S %Y", localtime(&sb.st_mtime));
		printf("# captured on    : %s\n", tb);
	}
	printf("# header version : 1\n");
	printf("# mode           : %s%s\n", h->pipe ? "pipe" : "file",
	       h->needs_swap ? ", other byte order (swapped)" : "");
	if (!h->pipe) {
		printf("# data offset    : %llu\n", (unsigned long long)h->data_offset);
		printf("# data size      : %llu\n", (unsigned long long)h->data_size);
		printf("# feat offset    : %llu\n",
		       (unsigned long long)(h->data_offset + h->data_size));
	}
	if (h->hostname)
		printf("# hostname : %s\n", h->hostname);
	if (h->osrelease)
		printf("# os release : %s\n", h->osrelease);
	if (h->version)
		printf("# perf version : %s\n", h->version);
	if (h->arch)
		printf("# arch : %s\n", h->arch);
	if (hm_header__has_feat(h, HM_FEAT_NRCPUS)) {
		printf("# nrcpus online : %u\n", h->nr_cpus_online);
		printf("# nrcpus avail : %u\n", h->nr_cpus_avail);
	}
	if (h->cpudesc)
		printf("# cpudesc : %s\n", h->cpudesc);
	if (h->cpuid)
		printf("# cpuid : %s\n", h->cpuid);
	if (hm_header__has_feat(h, HM_FEAT_TOTAL_MEM))
		printf("# total memory : %llu kB\n", (unsigned long long)h->total_mem_kb);
	if (h->cmdline_argv) {
		printf("# cmdline : ");
		for (u32 i = 0; i < h->cmdline_argc; i++)
			printf("%s ", h->cmdline_argv[i]);
		printf("\n");
	}
	for (int i = 0; i < hm_reader__nr_evsels(r); i++)
		print_event(hm_reader__evsel(r, i));
	for (u32 i = 0; i < h->nr_package_cpus; i++)
		printf("# sibling sockets : %s\n", h->package_cpus[i]);
	for (u32 i = 0; i < h->nr_die_cpus; i++)
		printf("# sibling dies    : %s\n", h->die_cpus[i]);
	for (u32 i = 0; i < h->nr_core_cpus; i++)
		printf("# sibling threads : %s\n", h->core_cpus[i]);
	if (h->cpu)
		for (u32 i = 0; i < h->nr_cpus_avail; i++) {
			if (h->cpu[i].core_id == -1 && h->cpu[i].socket_id == -1)
				printf("# CPU %u: not online\n", i);
			else if (h->nr_die_cpus)
				printf("# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				       h->cpu[i].core_id, h->cpu[i].die_id, h->cpu[i].socket_id);
			else
				printf("# CPU %u: Core ID %d, Socket ID %d\n", i, h->cpu[i].core_id,
				       h->cpu[i].socket_id);
		}
	for (u32 i = 0; i < h->nr_numa_nodes; i++) {
		printf("# node%u meminfo  : total = %llu kB, free = %llu kB\n", h->numa[i].node,
		       (unsigned long long)h->numa[i].mem_total_kb,
		       (unsigned long long)h->numa[i].mem_free_kb);
		printf("# node%u cpu list : %s\n", h->numa[i].node,
		       h->numa[i].cpus ? h->numa[i].cpus : "");
	}
	if (h->nr_pmu_mappings) {
		printf("# pmu mappings:");
		for (u32 i = 0; i < h->nr_pmu_mappings; i++)
			printf("%s %s = %u", i ? "," : "", h->pmu_names[i] ? h->pmu_names[i] : "",
			       h->pmu_types[i]);
		printf("\n");
	}
	for (u32 i = 0; i < h->nr_groups; i++)
		printf("# group: %s (leader %u, %u members)\n",
		       h->group_names[i] ? h->group_names[i] : "", h->group_leader[i],
		       h->group_members[i]);
	if (h->nr_caches) {
		printf("# CPU cache info:\n");
		for (u32 i = 0; i < h->nr_caches; i++) {
			const struct hm_cache_level *c = &h->caches[i];
			char t[64];

			snprintf(t, sizeof(t), "L%u %s", c->level, c->type ? c->type : "");
			printf("#  %-15s %8s [%s]\n", t, c->size ? c->size : "", c->map ? c->map : "");
		}
	}
	if (hm_header__has_feat(h, HM_FEAT_SAMPLE_TIME)) {
		printf("# time of first sample : %llu.%06llu\n",
		       (unsigned long long)(h->sample_time_first / 1000000000ULL),
		       (unsigned long long)(h->sample_time_first % 1000000000ULL / 1000));
		printf("# time of last sample : %llu.%06llu\n",
		       (unsigned long long)(h->sample_time_last / 1000000000ULL),
		       (unsigned long long)(h->sample_time_last % 1000000000ULL / 1000));
		printf("# sample duration : %10.3f ms\n",
		       (h->sample_time_last - h->sample_time_first) / 1e6);
	}
	if (h->nr_mem_nodes) {
		printf("# memory nodes (nr %llu, block size %#llx):\n",
		       (unsigned long long)h->nr_mem_nodes, (unsigned long long)h->mem_block_size);
		for (u64 i = 0; i < h->nr_mem_nodes; i++) {
			u64 set = 0;

			for (u64 b = 0; b < h->mem[i].nbits; b++)
				set += h->mem[i].bitmap[b / 64] >> (b % 64) & 1;
			printf("#  node %llu: %llu of %llu blocks\n", (unsigned long long)h->mem[i].node,
			       (unsigned long long)set, (unsigned long long)h->mem[i].nbits);
		}
	}
	if (hm_header__has_feat(h, HM_FEAT_CLOCKID))
		/* perf's print_clockid: the resolution in ns times 1000, as "MHz" */
		printf("# clockid frequency: %llu MHz\n",
		       (unsigned long long)h->clockid_res_ns * 1000);
	if (hm_header__has_feat(h, HM_FEAT_COMPRESSED))
		printf("# compressed : %s, level = %u, ratio = %u\n",
		       h->comp_type == 1 ? "Zstd" : "Unknown", h->comp_level, h->comp_ratio);
	for (u32 i = 0; i < h->nr_hybrid; i++)
		printf("# hybrid cpu system: %s cpu list : %s\n", h->hybrid_pmu[i] ? h->hybrid_pmu[i] : "",
		       h->hybrid_cpus[i] ? h->hybrid_cpus[i] : "");
	for (u32 i = 0; i < h->nr_pmu_caps; i++) {
		const struct hm_pmu_caps *c = &h->pmu_caps[i];

		printf("# %s pmu capabilities: ", c->pmu_name ? c->pmu_name : "cpu");
		for (u32 k = 0; k < c->nr; k++)
			printf("%s%s=%s", k ? ", " : "", c->names[k] ? c->names[k] : "",
			       c->values[k] ? c->values[k] : "");
		printf("\n");
	}
	if (h->nr_build_ids)
		printf("# build ids : %u\n", h->nr_build_ids);
	if (h->tep)
		printf("# tracing data : parsed\n");
	if (h->hitmap_meta)
		printf("# hitmap metadata : %llu bytes\n", (unsigned long long)h->hitmap_meta_size);
	printf("# features:");
	for (int f = 0; f < HM_FEAT_BITS; f++)
		if (hm_header__has_feat(h, f)) {
			const char *n = hm_feature__name(f);

			if (n)
				printf(" %s", n);
			else
				printf(" unknown(%d)", f);
		}
	printf("\n# ========\n#\n");
}

static void json_strv(struct hm_json *j, const char *key, char **v, u32 n)
{
	if (!v)
		return;
	hm_json__arr_begin(j, key);
	for (u32 i = 0; i < n; i++)
		hm_json__str(j, NULL, v[i]);
	hm_json__arr_end(j);
}

static void print_json(struct hm_reader *r)
{
	const struct hm_header *h = hm_reader__header(r);
	struct hm_json *j = hm_json__new(stdout, true);
	char nb[128], st[512];

	hm_json__obj_begin(j, NULL);
	hm_json__str(j, "file", hm_reader__path(r));
	hm_json__str(j, "mode", h->pipe ? "pipe" : "file");
	hm_json__bool(j, "swapped", h->needs_swap);
	if (!h->pipe) {
		hm_json__u64(j, "data_offset", h->data_offset);
		hm_json__u64(j, "data_size", h->data_size);
	}
	hm_json__str(j, "hostname", h->hostname);
	hm_json__str(j, "osrelease", h->osrelease);
	hm_json__str(j, "version", h->version);
	hm_json__str(j, "arch", h->arch);
	hm_json__str(j, "cpudesc", h->cpudesc);
	hm_json__str(j, "cpuid", h->cpuid);
	if (hm_header__has_feat(h, HM_FEAT_NRCPUS)) {
		hm_json__u64(j, "nr_cpus_online", h->nr_cpus_online);
		hm_json__u64(j, "nr_cpus_avail", h->nr_cpus_avail);
	}
	if (hm_header__has_feat(h, HM_FEAT_TOTAL_MEM))
		hm_json__u64(j, "total_mem_kb", h->total_mem_kb);
	json_strv(j, "cmdline", h->cmdline_argv, h->cmdline_argc);
	hm_json__arr_begin(j, "events");
	for (int i = 0; i < hm_reader__nr_evsels(r); i++) {
		const struct hm_evsel *e = hm_reader__evsel(r, i);

		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "name", hm_evsel__name(e, nb, sizeof(nb)));
		hm_json__u64(j, "type", e->attr.type);
		hm_json__hex(j, "config", e->attr.config);
		hm_json__u64(j, "attr_size", e->file_attr_size);
		hm_json__u64(j, "sample_period", e->attr.sample_period);
		bits_str(st, sizeof(st), e->attr.sample_type, stype_names, 25);
		hm_json__str(j, "sample_type", st);
		bits_str(st, sizeof(st), e->attr.read_format, rformat_names, 5);
		hm_json__str(j, "read_format", st);
		hm_json__bool(j, "sample_id_all", e->attr.sample_id_all);
		hm_json__u64(j, "precise_ip", e->attr.precise_ip);
		hm_json__arr_begin(j, "ids");
		for (u32 k = 0; k < e->nr_ids; k++)
			hm_json__u64(j, NULL, e->ids[k]);
		hm_json__arr_end(j);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);
	if (h->cpu) {
		hm_json__arr_begin(j, "cpus");
		for (u32 i = 0; i < h->nr_cpus_avail; i++) {
			hm_json__obj_begin(j, NULL);
			hm_json__u64(j, "cpu", i);
			hm_json__s64(j, "core", h->cpu[i].core_id);
			hm_json__s64(j, "die", h->cpu[i].die_id);
			hm_json__s64(j, "socket", h->cpu[i].socket_id);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
	}
	json_strv(j, "package_cpus", h->package_cpus, h->nr_package_cpus);
	json_strv(j, "die_cpus", h->die_cpus, h->nr_die_cpus);
	json_strv(j, "core_cpus", h->core_cpus, h->nr_core_cpus);
	if (h->numa) {
		hm_json__arr_begin(j, "numa_nodes");
		for (u32 i = 0; i < h->nr_numa_nodes; i++) {
			hm_json__obj_begin(j, NULL);
			hm_json__u64(j, "node", h->numa[i].node);
			hm_json__u64(j, "mem_total_kb", h->numa[i].mem_total_kb);
			hm_json__u64(j, "mem_free_kb", h->numa[i].mem_free_kb);
			hm_json__str(j, "cpus", h->numa[i].cpus);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
	}
	if (h->mem) {
		hm_json__u64(j, "mem_block_size", h->mem_block_size);
		hm_json__arr_begin(j, "mem_nodes");
		for (u64 i = 0; i < h->nr_mem_nodes; i++) {
			u64 set = 0;

			for (u64 b = 0; b < h->mem[i].nbits; b++)
				set += h->mem[i].bitmap[b / 64] >> (b % 64) & 1;
			hm_json__obj_begin(j, NULL);
			hm_json__u64(j, "node", h->mem[i].node);
			hm_json__u64(j, "blocks", h->mem[i].nbits);
			hm_json__u64(j, "blocks_set", set);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
	}
	if (h->caches) {
		hm_json__arr_begin(j, "caches");
		for (u32 i = 0; i < h->nr_caches; i++) {
			hm_json__obj_begin(j, NULL);
			hm_json__u64(j, "level", h->caches[i].level);
			hm_json__str(j, "type", h->caches[i].type);
			hm_json__str(j, "size", h->caches[i].size);
			hm_json__str(j, "map", h->caches[i].map);
			hm_json__u64(j, "line_size", h->caches[i].line_size);
			hm_json__u64(j, "sets", h->caches[i].sets);
			hm_json__u64(j, "ways", h->caches[i].ways);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
	}
	if (h->nr_pmu_mappings) {
		hm_json__obj_begin(j, "pmu_mappings");
		for (u32 i = 0; i < h->nr_pmu_mappings; i++)
			hm_json__u64(j, h->pmu_names[i] ? h->pmu_names[i] : "", h->pmu_types[i]);
		hm_json__obj_end(j);
	}
	if (hm_header__has_feat(h, HM_FEAT_SAMPLE_TIME)) {
		hm_json__u64(j, "sample_time_first", h->sample_time_first);
		hm_json__u64(j, "sample_time_last", h->sample_time_last);
	}
	if (hm_header__has_feat(h, HM_FEAT_COMPRESSED)) {
		hm_json__u64(j, "comp_type", h->comp_type);
		hm_json__u64(j, "comp_level", h->comp_level);
	}
	hm_json__u64(j, "nr_build_ids", h->nr_build_ids);
	hm_json__bool(j, "tracing_data", h->tep != NULL);
	hm_json__u64(j, "hitmap_meta_size", h->hitmap_meta_size);
	hm_json__arr_begin(j, "features");
	for (int f = 0; f < HM_FEAT_BITS; f++)
		if (hm_header__has_feat(h, f)) {
			const char *n = hm_feature__name(f);

			if (n) {
				hm_json__str(j, NULL, n);
			} else {
				snprintf(nb, sizeof(nb), "unknown(%d)", f);
				hm_json__str(j, NULL, nb);
			}
		}
	hm_json__arr_end(j);
	hm_json__obj_end(j);
	hm_json__delete(j);
}

static int cmd_header(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *input = "perf.data";
	bool json = false;
	struct hm_reader_opts ro = { .all_records = true };
	struct hm_reader *r;
	int c, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i': input = optarg; break;
		case 'j': json = true; break;
		case 'h': hm_cli__usage(usage_text); return 0;
		default: return hm_cli__bad_option("header", opts, argv, c);
		}
	}
	if (optind < argc)
		return hm_cli__usage_error("header: unexpected argument '%s'; see 'hitmap header --help'",
				     argv[optind]);
	r = hm_in__reader(input, &ro);
	if (!r)
		return 1;
	if (hm_reader__header(r)->pipe) {
		/* the header comes as HEADER_* records: read the stream through */
		struct hm_event ev;
		int ret;

		while ((ret = hm_reader__next(r, &ev)) > 0)
			;
		if (ret < 0) {
			rc = hm_cli__lib_error(ret, input);
			hm_reader__delete(r);
			return rc;
		}
	}
	if (json)
		print_json(r);
	else
		print_text(r, input);
	hm_reader__delete(r);
	return rc;
}

HM_COMMAND("header", "show a perf.data header and its features (like perf report --header-only)", cmd_header)
