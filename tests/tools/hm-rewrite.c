// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-rewrite: read a perf.data (file or pipe mode) with hitmap's reader and
 * write it again as a file-mode perf.data with hitmap's writer (attrs, ids,
 * the features the writer knows, every record as it is, decompressed; the
 * pipe-mode header records left out), for interop tests with real files:
 *
 *   hm-rewrite [--swap] IN OUT
 *
 * --swap writes the other byte order; only SAMPLE (re-encoded from the
 * decoded fields) and FINISHED_ROUND records are kept then, as the writer
 * swaps only what it encodes itself.
 *
 * Prints "samples N records M" on success.  Exit 0 on success, 1 on error
 * (message on stderr), 3 when the input is a kind the writer does not
 * reproduce (tracepoints, AUX trace).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <hitmap/log.h>
#include <hitmap/perf_data.h>

static int unsupported(const char *in, const char *why)
{
	fprintf(stderr, "hm-rewrite: %s: %s; not rewritten\n", in, why);
	return 3;
}

int main(int argc, char **argv)
{
	struct hm_reader_opts ro = { .ordered = false, .all_records = true };
	const struct hm_header *h;
	struct hm_reader *r, *pipe_header = NULL, *meta;
	struct hm_writer *w;
	struct hm_event ev;
	bool swap = false;
	const char *in, *out;
	unsigned long long nr_samples = 0, nr_records = 0;
	int i, ret = 0, argi = 1;

	if (argc > 1 && !strcmp(argv[1], "--swap")) {
		swap = true;
		argi++;
	}
	if (argc - argi != 2) {
		fprintf(stderr, "usage: hm-rewrite [--swap] IN OUT\n");
		return 2;
	}
	in = argv[argi];
	out = argv[argi + 1];
	r = hm_reader__new(in, &ro);
	if (!r) {
		fprintf(stderr, "hm-rewrite: %s\n", hm_log__last_error());
		return 1;
	}
	h = hm_reader__header(r);
	if (h->pipe) {
		/*
		 * Pipe mode: attrs and features come as records.  Read to the
		 * end once to learn them, then copy from a second reader,
		 * leaving those header records out (pipe to file mode).
		 */
		while ((ret = hm_reader__next(r, &ev)) == 1)
			;
		if (ret < 0) {
			fprintf(stderr, "hm-rewrite: %s\n", hm_log__last_error());
			hm_reader__delete(r);
			return 1;
		}
		pipe_header = r;
		r = hm_reader__new(in, &ro);
		if (!r) {
			fprintf(stderr, "hm-rewrite: %s\n", hm_log__last_error());
			hm_reader__delete(pipe_header);
			return 1;
		}
		h = hm_reader__header(pipe_header);
	}
	meta = pipe_header ? pipe_header : r;
	if (hm_header__has_feat(h, HM_FEAT_TRACING_DATA) || h->tep) {
		hm_reader__delete(r);
		hm_reader__delete(pipe_header);
		return unsupported(in, "tracepoint formats (TRACING_DATA) are not written");
	}
	if (hm_header__has_feat(h, HM_FEAT_AUXTRACE) || hm_reader__stats(meta)->nr[HM_RECORD_AUXTRACE_INFO]) {
		hm_reader__delete(r);
		hm_reader__delete(pipe_header);
		return unsupported(in, "AUX trace data is not written");
	}
	w = hm_writer__new(out);
	if (!w) {
		fprintf(stderr, "hm-rewrite: %s\n", hm_log__last_error());
		hm_reader__delete(r);
		hm_reader__delete(pipe_header);
		return 1;
	}
	if (swap)
		ret = hm_writer__set_swap(w, true);
	ret = 0;
	for (i = 0; !ret && i < hm_reader__nr_evsels(meta); i++) {
		const struct hm_evsel *e = hm_reader__evsel(meta, i);

		ret = hm_writer__add_evsel(w, &e->attr, e->name, e->ids, e->nr_ids);
		if (ret > 0)
			ret = 0;
	}
	if (!ret)
		ret = hm_writer__set_header(w, h);
	while (!ret && (ret = hm_reader__next(r, &ev)) == 1) {
		/* the reader hands out the records inside; write those plain */
		if (ev.type == HM_RECORD_COMPRESSED || ev.type == HM_RECORD_COMPRESSED2 ||
		    ev.type == HM_RECORD_HEADER_ATTR || ev.type == HM_RECORD_HEADER_EVENT_TYPE ||
		    ev.type == HM_RECORD_HEADER_TRACING_DATA || ev.type == HM_RECORD_HEADER_BUILD_ID ||
		    ev.type == HM_RECORD_HEADER_FEATURE) {
			ret = 0;
			continue;
		}
		nr_records++;
		nr_samples += ev.type == PERF_RECORD_SAMPLE;
		if (swap && ev.type == PERF_RECORD_SAMPLE && ev.has_sample) {
			int idx = ev.sample.evsel ? ev.sample.evsel->idx : 0;

			ret = hm_writer__write_sample(w, idx, &ev.sample);
		} else if (swap && ev.type != HM_RECORD_FINISHED_ROUND) {
			ret = 0;	/* only typed records can be swapped */
		} else {
			ret = hm_writer__write(w, ev.data, ev.size);
		}
	}
	if (!ret)
		ret = hm_writer__close(w);
	if (!ret)
		printf("samples %llu records %llu\n", nr_samples, nr_records);
	if (ret)
		fprintf(stderr, "hm-rewrite: %s\n", *hm_log__last_error() ? hm_log__last_error() : strerror(-ret));
	hm_writer__delete(w);
	hm_reader__delete(r);
	hm_reader__delete(pipe_header);
	return ret ? 1 : 0;
}
