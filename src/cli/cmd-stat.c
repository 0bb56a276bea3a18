// SPDX-License-Identifier: GPL-2.0-only
/* hitmap stat: record counts by type and lost events, like perf report --stats. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>
#include "cli.h"
#include "output.h"

static const char usage_text[] =
"usage: hitmap stat -i FILE [--perf-compat V] [--json]\n"
"\n"
"Count the records of a perf.data file by type, and the lost events, like\n"
"'perf report --stats'.  FILE may be '-' for a pipe-mode stream on stdin.\n"
"\n"
"  -i, --input FILE   perf.data (a file or a perf record --threads folder) to read\n"
"                     (default: perf.data)\n"
"      --perf-compat V  count and print as perf V's report --stats: 6.1, 6.12\n"
"                     or 7.3 (default, the newest)\n"
"      --json         every record read, as JSON (no perf version applies)\n"
"  -h, --help         show this help\n";

struct ev_stat {
	u64 samples, lost_samples;
};

static int cmd_stat(int argc, char **argv)
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
	int w;	/* the name column: 16 in perf 6.1, 20 from 6.12 on */
	struct hm_reader_opts ro = { .all_records = true };
	struct hm_reader *r;
	const struct hm_reader_stats *st;
	struct hm_event ev;
	struct ev_stat *es = NULL;
	int nes = 0, c, ret, rc = 0;
	u64 total = 0, nosample = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i': input = optarg; break;
		case 'j': json = true; break;
		case 'P':
			if (hm_perf_compat__parse(optarg, &compat) < 0)
				return hm_cli__usage_error("--perf-compat %s: unknown perf version; "
							   "use one of " HM_PERF_COMPAT_LIST, optarg);
			break;
		case 'h': hm_cli__usage(usage_text); return 0;
		default: return hm_cli__bad_option("stat", opts, argv, c);
		}
	}
	if (optind < argc)
		return hm_cli__usage_error("stat: unexpected argument '%s'; see 'hitmap stat --help'",
				     argv[optind]);
	r = hm_in__reader(input, &ro);
	if (!r)
		return 1;
	while ((ret = hm_reader__next(r, &ev)) > 0) {
		const struct hm_evsel *e = ev.sample.evsel;

		if (ev.type != PERF_RECORD_SAMPLE && ev.type != PERF_RECORD_LOST_SAMPLES)
			continue;
		if (!e) {
			nosample++;
			continue;
		}
		if (e->idx >= nes) {
			struct ev_stat *n = realloc(es, (e->idx + 1) * sizeof(*n));

			if (!n) {
				ret = -ENOMEM;
				break;
			}
			memset(n + nes, 0, (e->idx + 1 - nes) * sizeof(*n));
			es = n;
			nes = e->idx + 1;
		}
		if (ev.type == PERF_RECORD_SAMPLE)
			es[e->idx].samples++;
		else if (ev.size >= 16)
			es[e->idx].lost_samples += ((const u64 *)ev.data)[1];
	}
	if (ret < 0) {
		rc = hm_cli__lib_error(ret, input);
		goto out;
	}
	st = hm_reader__stats(r);
	for (int i = 0; i < HM_RECORD_MAX; i++)
		total += st->nr[i];
	if (json) {
		struct hm_json *j = hm_json__new(stdout, true);
		char nb[64];

		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "file", input);
		hm_json__u64(j, "total", total);
		hm_json__obj_begin(j, "records");
		for (int i = 0; i < HM_RECORD_MAX; i++) {
			const char *n = hm_record__name(i);

			if (!st->nr[i])
				continue;
			if (!n) {
				snprintf(nb, sizeof(nb), "type_%d", i);
				n = nb;
			}
			hm_json__u64(j, n, st->nr[i]);
		}
		hm_json__obj_end(j);
		hm_json__u64(j, "unknown_types", st->nr_unknown);
		hm_json__u64(j, "unknown_ids", st->nr_unknown_id);
		hm_json__u64(j, "lost", st->lost);
		hm_json__u64(j, "lost_samples", st->lost_samples);
		hm_json__u64(j, "compressed_bytes", st->compressed_bytes);
		hm_json__arr_begin(j, "events");
		for (int i = 0; i < hm_reader__nr_evsels(r); i++) {
			const struct hm_evsel *e = hm_reader__evsel(r, i);

			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "name", hm_evsel__name(e, nb, sizeof(nb)));
			hm_json__u64(j, "samples", i < nes ? es[i].samples : 0);
			hm_json__u64(j, "lost_samples", i < nes ? es[i].lost_samples : 0);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
		hm_json__obj_end(j);
		hm_json__delete(j);
		goto out;
	}
	/*
	 * perf_session__fprintf_nr_events() and events_stats__fprintf(): a
	 * blank line first, a note on files with AUX data, the name column 16
	 * wide in 6.1 and 20 from 6.12; perf 7.3 skips, uncounted, records
	 * shorter than their type's minimum (perf 3.x's EVENT_TYPE).
	 */
	if (compat == HM_PERF_NEWEST)
		compat = HM_PERF_7_3;
	w = compat == HM_PERF_6_1 ? 16 : 20;
	if (compat >= HM_PERF_7_3)
		for (int i = 0; i < HM_RECORD_MAX; i++)
			total -= st->nr_short[i];
	printf("\nAggregated stats:%s\n",
	       hm_header__has_feat(hm_reader__header(r), HM_FEAT_AUXTRACE) ?
	       " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	if (total)	/* perf's skip_empty leaves out every zero, TOTAL too */
		printf("%*s events: %10llu\n", w, "TOTAL", (unsigned long long)total);
	for (int i = 1; i < HM_RECORD_MAX; i++) {
		char nb[32];
		const char *n = hm_record__name(i);
		u64 nr = st->nr[i] - (compat >= HM_PERF_7_3 ? st->nr_short[i] : 0);

		if (!nr)
			continue;
		if (!n) {
			snprintf(nb, sizeof(nb), "type %d", i);
			n = nb;
		}
		printf("%*s events: %10llu  (%4.1f%%)\n", w, n, (unsigned long long)nr,
		       total ? 100.0 * nr / total : 0.0);
	}
	for (int i = 0; i < hm_reader__nr_evsels(r); i++) {
		const struct hm_evsel *e = hm_reader__evsel(r, i);
		char nb[64];

		if (i >= nes || (!es[i].samples && !es[i].lost_samples))
			continue;
		/*
		 * perf 6.1's --stats reads no FEATURE or EVENT_UPDATE record:
		 * a pipe's events keep the names their attrs make
		 */
		printf("%s stats:\n", compat == HM_PERF_6_1 && hm_reader__header(r)->pipe ?
		       hm_evsel__attr_name(e, compat, nb, sizeof(nb)) :
		       hm_evsel__name_v(e, compat, nb, sizeof(nb)));
		/* skip_empty: an event with lost samples alone shows no SAMPLE line */
		if (es[i].samples)
			printf("%*s events: %10llu\n", w, "SAMPLE", (unsigned long long)es[i].samples);
		if (es[i].lost_samples)
			printf("%*s events: %10llu\n", w, "LOST_SAMPLES",
			       (unsigned long long)es[i].lost_samples);
	}
	if (st->lost || st->lost_samples || st->nr_unknown || st->nr_unknown_id) {
		printf("hitmap:\n");
		printf("%16s: %10llu\n", "LOST.lost sum", (unsigned long long)st->lost);
		printf("%16s: %10llu\n", "LOST_SAMPLES sum", (unsigned long long)st->lost_samples);
		if (st->nr_unknown)
			printf("%16s: %10llu (skipped by size)\n", "unknown types",
			       (unsigned long long)st->nr_unknown);
		if (st->nr_unknown_id)
			printf("%16s: %10llu (samples naming no event)\n", "unknown ids",
			       (unsigned long long)st->nr_unknown_id);
	}
out:
	free(es);
	hm_reader__delete(r);
	return rc;
}

HM_COMMAND("stat", "count records by type and lost events (like perf report --stats)", cmd_stat)
