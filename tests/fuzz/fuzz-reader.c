// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the perf.data reader: any bytes, file or pipe format,
 * read through hm_reader__new_mem() to the end, every decoded pointer touched.
 * Built and run by 'make fuzz' (seeds: tests/fuzz/seeds/reader-*, made by
 * tests/fuzz/make-reader-seeds.sh).
 */
#include <stdint.h>
#include <string.h>
#include <hitmap/log.h>
#include <hitmap/perf_data.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile u64 sink;

static void touch(const void *p, size_t n)
{
	const u8 *b = p;
	u64 acc = 0;

	for (size_t i = 0; i < n; i++)
		acc += b[i];
	sink += acc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_reader_opts o = { .ordered = size & 1, .all_records = true };
	struct hm_reader *r;
	struct hm_event ev;
	long n = 0;

	hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);
	r = hm_reader__new_mem(data, size, &o);
	if (!r)
		return 0;
	while (n++ < 200000 && hm_reader__next(r, &ev) > 0) {
		const struct hm_sample *s = &ev.sample;

		touch(ev.data, ev.size < 65536 ? ev.size : 65536);
		if (!ev.has_sample)
			continue;
		if (s->callchain)
			touch(s->callchain, s->callchain_nr * 8);
		if (s->raw)
			touch(s->raw, s->raw_size);
		if (s->branch)
			touch(s->branch, s->branch_nr * sizeof(*s->branch));
		if (s->read)
			touch(s->read, 8);
	}
	{
		const struct hm_header *h = hm_reader__header(r);

		if (h->hostname)
			touch(h->hostname, strlen(h->hostname));
		for (u32 i = 0; i < h->nr_numa_nodes; i++)
			if (h->numa[i].cpus)
				touch(h->numa[i].cpus, strlen(h->numa[i].cpus));
		for (int i = 0; i < hm_reader__nr_evsels(r); i++) {
			char nb[64];

			touch(hm_evsel__name(hm_reader__evsel(r, i), nb, sizeof(nb)), 1);
		}
	}
	hm_reader__delete(r);
	return 0;
}
