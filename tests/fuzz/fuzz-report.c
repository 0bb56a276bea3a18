// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the report past the reader: any bytes as a perf.data
 * file, through hm_report__run (classify, maps and symbols, the futex model
 * and its inference, the line table, perf's entries, the Pareto rows, the
 * futex views) and every renderer that reads the aggregation: perf's stats
 * block, the line table as text, JSON, CSV and LKP lines, the Pareto
 * sections, the three futex views.  Twice an input: one thread with the
 * offsets built in the pass, then two threads (the line table's workers:
 * a range needs 32 MB) with the offsets read again for the lines shown.
 * Between them the counts alone (report --lkp), which must equal the first
 * pass's counts wherever both succeed: a difference aborts.  For one input
 * in four the second pass instead reads the file in ranges of any size
 * (HITMAP_RANGE_BYTES=1) with the ordering queue's early hand-out from
 * 256 bytes on, with the first pass's version and line size: everything
 * it renders must be the first pass's bytes (the output does not depend
 * on the threads, the cut or the queue's threshold), or it aborts.
 * The reader's own target (fuzz-reader.c) covers the records and the header;
 * this one what the report does with what the reader let through.
 *
 * The input is a memfd named by /proc/self/fd/N (the report opens a path
 * and may read it twice).  No kernel symbols of the running machine
 * (/proc/kallsyms: 5 MB a run) and no ELF files from the machine (symfs is a
 * folder that does not exist): an input names whatever maps it likes.
 * Built and run by 'make fuzz' (FUZZ=report), seeded with the reader's seeds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/report.h>
#include "report/html-contention.h"
#include "report/metrics.h"
#include "report/pareto.h"
#include "report/render-c2c.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int input_fd = -1, ksyms_fd = -1;
static char input_path[64], ksyms_path[64];
static FILE *sink;

static int setup(void)
{
	static const char ksyms[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 T do_futex\n"
		"ffffffff81000200 t futex_wait\n"
		"ffffffff81001000 D futex_queues\n"
		"ffffffff82000000 T _etext\n";

	hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);	/* no sink: nothing printed */
	input_fd = memfd_create("fuzz-report-input", 0);
	ksyms_fd = memfd_create("fuzz-report-kallsyms", 0);
	sink = fopen("/dev/null", "w");
	if (input_fd < 0 || ksyms_fd < 0 || !sink)
		return -1;
	if (write(ksyms_fd, ksyms, sizeof(ksyms) - 1) != (ssize_t)(sizeof(ksyms) - 1))
		return -1;
	snprintf(input_path, sizeof(input_path), "/proc/self/fd/%d", input_fd);
	snprintf(ksyms_path, sizeof(ksyms_path), "/proc/self/fd/%d", ksyms_fd);
	return 0;
}

/* The options every pass shares: the input, the 5-line kallsyms, no ELF files, no source. */
static void base_opts(struct hm_report_opts *ro, int threads, enum hm_perf_compat compat)
{
	memset(ro, 0, sizeof(*ro));
	ro->input = input_path;
	ro->kallsyms = ksyms_path;
	ro->symfs = "/nonexistent-fuzz-symfs";
	ro->no_source = true;
	ro->perf_compat = compat;
	ro->threads = threads;
}

/*
 * The counts alone (counts_only, report --lkp): where the full pass
 * succeeded (@full, NULL where it did not) and this one does, their counts
 * must be the same, every counter; a difference aborts (the fuzzer keeps
 * the input).
 */
static void counts_report(const struct hm_c2c_stats *full)
{
	struct hm_report_opts ro;
	struct hm_report *r;

	base_opts(&ro, 1, HM_PERF_7_3);
	ro.counts_only = true;
	r = hm_report__new(&ro);
	if (!r)
		return;
	if (hm_report__run(r) == 0) {
		hm_render__lkp(r, sink);
		if (full && memcmp(hm_report__c2c(r), full, sizeof(*full))) {
			fprintf(stderr, "fuzz-report: the counts alone differ from the full pass's\n");
			abort();
		}
	}
	hm_report__delete(r);
	fflush(sink);
}

/*
 * One pass over the input and the renderers of what it built; true when
 * the pass succeeded, its counts then in *@c2c (NULL: not wanted).
 */
static bool one_report(int threads, bool defer, enum hm_perf_compat compat, u32 cls,
		       struct hm_c2c_stats *c2c, FILE *out, u32 qbytes)
{
	struct hm_pareto_opts popts;
	struct hm_pareto_render prd = { .sort = HM_SORT_TOT, .node_info = 2, .show_all = true,
					.no_source = true };
	struct hm_render_opts rd = { .sort = HM_SORT_TOT, .node_info = 2, .show_all = true,
				     .max_lines = 50 };
	struct hm_report_opts ro;
	struct hm_report *r;
	char bad[64];
	bool ok;

	memset(&popts, 0, sizeof(popts));
	if (hm_pareto_opts__parse(&popts, "tid,iaddr,dso", bad, sizeof(bad)) < 0)
		return false;
	base_opts(&ro, threads, compat);
	ro.cacheline_size = cls;
	ro.want_lines = true;
	ro.want_buckets = true;
	ro.pareto = &popts;
	ro.defer_details = defer;
	ro.queue_bytes = qbytes;
	r = hm_report__new(&ro);
	if (!r)
		return false;
	ok = hm_report__run(r) == 0;
	if (ok) {
		if (c2c)
			*c2c = *hm_report__c2c(r);
		hm_render__stats(r, &rd, out);
		hm_render__lines_text(r, &rd, out);
		hm_render__json(r, &rd, out);
		hm_render__csv(r, &rd, out);
		hm_render__lkp(r, out);
		hm_pareto__render(hm_report__pareto(r), r, &prd, out);
		for (int v = HM_BY_BUCKET; v <= HM_BY_SOCKET; v++) {
			hm_report__render_futex(r, v, HM_FMT_TEXT, false, out);
			hm_report__render_futex(r, v, HM_FMT_JSON, true, out);
		}
		if (threads == 1) {
			/* the page reads the same pass (report --html) */
			struct hm_metrics *m = hm_metrics__from_report(r, 0);
			char *extra = m ? hm_html_contention__page_section(r, m, &ro) : NULL;

			if (m && extra)
				hm_html__render_metrics_extra(m, extra, sink);
			free(extra);
			hm_metrics__delete(m);
		}
	}
	hm_report__delete(r);
	fflush(sink);
	fflush(out);
	return ok;
}

/* The first pass's renders again, in ranges with a 256-byte queue threshold: the same bytes. */
static void same_in_ranges(bool full_ok, const char *want, size_t want_len)
{
	char *got = NULL;
	size_t got_len = 0;
	FILE *f = open_memstream(&got, &got_len);
	bool ok;

	if (!f)
		return;
	setenv("HITMAP_RANGE_BYTES", "1", 1);
	ok = one_report(2, false, HM_PERF_7_3, 64, NULL, f, 256);
	unsetenv("HITMAP_RANGE_BYTES");
	fclose(f);
	if (full_ok && ok && (got_len != want_len || memcmp(got, want, want_len))) {
		size_t i = 0, line = 0;

		while (i < want_len && i < got_len && want[i] == got[i])
			line += want[i++] == '\n';
		while (i && want[i - 1] != '\n')
			i--;
		fprintf(stderr, "fuzz-report: in ranges with the early hand-out the output differs "
			"at line %zu:\n  one thread: %.*s\n  in ranges:  %.*s\n", line + 1,
			(int)strcspn(want + i, "\n"), want + i, (int)strcspn(got + i, "\n"), got + i);
		abort();
	}
	free(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	u32 h = 2166136261u;
	struct hm_c2c_stats full;
	bool full_ok;

	if (!ready)
		ready = setup() == 0 ? 1 : -1;
	if (ready < 0)
		return 0;
	if (ftruncate(input_fd, 0) < 0 || pwrite(input_fd, data, size, 0) != (ssize_t)size)
		return 0;
	for (size_t i = 0; i < size; i += 61)
		h = (h ^ data[i]) * 16777619u;
	if (h & 12) {
		full_ok = one_report(1, false, HM_PERF_7_3, 64, &full, sink, 0);
		counts_report(full_ok ? &full : NULL);
		one_report(2, true, h & 1 ? HM_PERF_6_1 : HM_PERF_6_12, h & 2 ? 128 : 64, NULL,
			   sink, 0);
	} else {
		char *want = NULL;
		size_t want_len = 0;
		FILE *f = open_memstream(&want, &want_len);

		if (!f)
			return 0;
		full_ok = one_report(1, false, HM_PERF_7_3, 64, &full, f, 0);
		fclose(f);
		counts_report(full_ok ? &full : NULL);
		same_in_ranges(full_ok, want, want_len);
		free(want);
	}
	return 0;
}
