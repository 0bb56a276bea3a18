// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-symres FILE [--kallsyms F] [--perf-compat V] [--lines] [--bench]: read a perf.data with
 * hitmap's reader, track maps, and print one line per sample:
 *     IP SYMBOL          (like perf script -F ip,sym; [unknown] when none)
 * --dso adds " (DSO)" like perf script -F ip,sym,dso; --lines adds "DSO FILE:LINE".  --bench prints resolve timings instead.
 * --nomap prints only the number of samples perf c2c would count as "No Page
 * Map Rejects" (hm_maps__mapped false), reading in file order.
 * --perf-compat V names symbols as perf V does (the PLT: 6.1 differs from
 * 6.12 and 7.3); without it, as perf 6.1.
 * A test helper for tests/sh/symbols-*.sh.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>
#include <hitmap/symbols.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *path = NULL, *kallsyms = NULL;
	bool lines = false, bench = false, dso = false, count_nomap = false;
	enum hm_perf_compat compat = HM_PERF_6_1;
	struct hm_reader_opts ro = { .ordered = true, .all_records = true };
	struct hm_reader *r;
	struct hm_maps *maps;
	struct hm_symbols *syms;
	struct hm_event ev;
	u64 n = 0, nomap = 0;
	double t_res = 0;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--kallsyms") && i + 1 < argc)
			kallsyms = argv[++i];
		else if (!strcmp(argv[i], "--perf-compat") && i + 1 < argc) {
			if (hm_perf_compat__parse(argv[++i], &compat) < 0) {
				fprintf(stderr, "hm-symres: --perf-compat %s: use one of " HM_PERF_COMPAT_LIST "\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--lines"))
			lines = true;
		else if (!strcmp(argv[i], "--nomap"))
			count_nomap = true;
		else if (!strcmp(argv[i], "--dso"))
			dso = true;
		else if (!strcmp(argv[i], "--bench"))
			bench = true;
		else
			path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "usage: hm-symres FILE [--kallsyms F] [--perf-compat V] [--dso] [--lines] [--bench]\n");
		return 2;
	}
	if (count_nomap)
		ro.ordered = false;
	r = hm_reader__new(path, &ro);
	if (!r) {
		fprintf(stderr, "hm-symres: %s: %s\n", path, strerror(errno));
		return 1;
	}
	maps = hm_maps__new();
	struct hm_symbols_opts so = { .kallsyms = kallsyms, .no_source = !lines && !bench };

	hm_symbols_opts__set_perf(&so, compat);
	syms = hm_symbols__new(&so);
	hm_symbols__attach_maps(syms, maps);
	hm_maps__set_build_ids(maps, hm_reader__header(r));
	while ((rc = hm_reader__next(r, &ev)) > 0) {
		struct hm_symbol_info info;
		const struct hm_sample *s = &ev.sample;
		double t0;
		int err;

		if (ev.type != PERF_RECORD_SAMPLE) {
			hm_maps__process(maps, &ev);
			continue;
		}
		n++;
		if (count_nomap) {
			if (!hm_maps__mapped_thread(maps, s->pid, s->tid, s->misc & PERF_RECORD_MISC_CPUMODE_MASK, s->ip, s->addr))
				nomap++;
			continue;
		}
		if (!hm_maps__find_ip(maps, s->pid, s->ip))
			nomap++;
		t0 = bench ? now_ns() : 0;
		err = hm_symbols__resolve(syms, maps, s->pid, s->misc & PERF_RECORD_MISC_CPUMODE_MASK, s->ip, &info);
		if (bench) {
			t_res += now_ns() - t0;
			continue;
		}
		printf("%" PRIx64 " %s", s->ip, !err && info.name ? info.name : "[unknown]");
		if (dso)
			printf(" (%s)", !err && info.dso ? info.dso : "unknown");
		if (lines)
			printf(" %s %s:%d", !err && info.dso ? info.dso : "[unknown]",
			       !err && info.file ? info.file : "??", err ? 0 : info.line);
		printf("\n");
	}
	if (count_nomap)
		printf("%" PRIu64 "\n", nomap);
	if (bench) {
		struct hm_symbols_stats st;

		hm_symbols__stats(syms, &st);
		printf("samples %" PRIu64 " distinct %" PRIu64 " hits %" PRIu64 " total_ns %.0f ns_per_sample %.1f nomap_ip %" PRIu64 "\n",
		       n, st.resolved, st.cache_hits, t_res, n ? t_res / n : 0, nomap);
	}
	hm_symbols__delete(syms);
	hm_maps__delete(maps);
	hm_reader__delete(r);
	if (rc < 0) {
		fprintf(stderr, "hm-symres: %s: read error %d\n", path, rc);
		return 1;
	}
	return 0;
}
