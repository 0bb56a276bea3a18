// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap header: the file header, events and features, like perf report
 * --header-only -I (the text: header-print.c, shared with hitmap script
 * --header), or as JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>
#include <hitmap/topo.h>
#include "cli.h"
#include "header-print.h"
#include "output.h"

static const char usage_text[] =
"usage: hitmap header -i FILE [--json] [--perf-compat V]\n"
"\n"
"Show the header of a perf.data file: events (attrs and ids) and every\n"
"feature section hitmap parses, like 'perf report --header-only -I'.\n"
"In pipe mode the header is spread over the stream: the whole file is read.\n"
"\n"
"  -i, --input FILE   perf.data to read (default: perf.data)\n"
"      --json         print the header as JSON\n"
"      --perf-compat V the lines perf V prints differently, as it prints them:\n"
"                     6.1, 6.12 or 7.3 (default: the newest)\n"
"  -h, --help         show this help\n";

static const char *const stype_names[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD",
	"STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT",
	"DATA_SRC", "IDENTIFIER", "TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX",
	"CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};
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
		hm_header_print__bits(st, sizeof(st), e->attr.sample_type, stype_names, 25);
		hm_json__str(j, "sample_type", st);
		hm_header_print__bits(st, sizeof(st), e->attr.read_format, hm_header_print_rformat, 5);
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
	if (h->nr_bpf_progs) {
		char name[512];

		hm_json__arr_begin(j, "bpf_progs");
		for (u32 i = 0; i < h->nr_bpf_progs; i++) {
			const struct hm_bpf_prog *p = &h->bpf_progs[i];

			hm_json__obj_begin(j, NULL);
			hm_json__u64(j, "id", p->id);
			hm_json__u64(j, "btf_id", p->btf_id);
			hm_json__bool(j, "printed", p->printable);
			hm_json__arr_begin(j, "functions");
			for (u32 k = 0; k < p->nr_funcs; k++) {
				hm_header__bpf_func_name(h, p, k, name, sizeof(name));
				hm_json__obj_begin(j, NULL);
				hm_json__str(j, "name", name);
				hm_json__hex(j, "addr", p->funcs[k].addr);
				hm_json__u64(j, "size", p->funcs[k].size);
				hm_json__obj_end(j);
			}
			hm_json__arr_end(j);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
	}
	if (h->nr_btf) {
		hm_json__arr_begin(j, "btf_ids");
		for (u32 i = 0; i < h->nr_btf; i++)
			hm_json__u64(j, NULL, h->btf[i].id);
		hm_json__arr_end(j);
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
		{ "perf-compat", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *input = "perf.data";
	bool json = false;
	enum hm_perf_compat compat = HM_PERF_NEWEST;
	struct hm_reader_opts ro = { .all_records = true };
	struct hm_reader *r;
	int c, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i': input = optarg; break;
		case 'j': json = true; break;
		case 'P':
			if (hm_perf_compat__parse(optarg, &compat) < 0) {
				hm_cli__error("--perf-compat %s: unknown perf version; use one of "
					      HM_PERF_COMPAT_LIST, optarg);
				return 2;
			}
			break;
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
		hm_header_print__text(r, input, &(struct hm_header_print){
			.compat = compat, .full = true, .hitmap_lines = true });
	hm_reader__delete(r);
	return rc;
}

HM_COMMAND("header", "show a perf.data header and its features (like perf report --header-only)", cmd_header)
