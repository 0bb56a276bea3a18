// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the perf.data reader: any bytes, file or pipe format,
 * either byte order, plain or zstd (lazily or ahead), ordered with a small
 * queue (the walk over the records ahead), read through hm_reader__new_mem() to the
 * end (every record type, feature sections, hitmap's metadata), every decoded
 * pointer touched, the BPF programs' functions named, then the header's
 * topology and metadata as the report uses them.
 * Built and run by 'make fuzz' (seeds: $(B)/fuzz/seeds/reader from
 * tests/fuzz/make-seeds.sh, and tests/fuzz/seeds/reader-*, made by
 * tests/fuzz/make-reader-seeds.sh).
 */
#include <stdint.h>
#include <string.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include <hitmap/topo.h>

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

/*
 * The header's topology (NRCPUS, CPU/NUMA/MEM_TOPOLOGY) through the lookups
 * the report does per sample, with CPU ids and addresses from anywhere; and
 * hitmap's metadata TLVs.
 */
static void topo_and_meta(const struct hm_header *h)
{
	struct hm_topo *t = hm_topo__new_from_header(h);
	static const int cpus[] = { -1, 0, 1, 63, 64, 4095, 32767, 32768, 0x7fffffff };
	static const u64 phys[] = { 0, 4096, 1ULL << 30, 1ULL << 40, ~0ULL };

	if (t) {
		for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
			sink += hm_topo__cpu_socket(t, cpus[i]) + hm_topo__cpu_node(t, cpus[i]) +
				hm_topo__cpu_die(t, cpus[i]);
		for (size_t i = 0; i < sizeof(phys) / sizeof(phys[0]); i++)
			sink += hm_topo__phys_node(t, phys[i]);
		for (int i = -1; i <= hm_topo__nr_nodes(t); i++)
			sink += hm_topo__node_id(t, i) + hm_topo__node_socket(t, i);
		hm_topo__delete(t);
	}
	if (h->hitmap_meta) {
		struct hm_meta *m = hm_meta__parse(h->hitmap_meta, h->hitmap_meta_size,
						   h->needs_swap);
		u32 tag, len;
		const void *d;

		/* hm_meta__get: 1 while entry i is there */
		for (int i = 0; m && hm_meta__get(m, i, &tag, &d, &len); i++)
			touch(d, len);
		hm_meta__delete(m);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/*
	 * zstd decompressed lazily or ahead, on the stream's own thread
	 * (compress.c); ordered, or ordered for counts (rounds of samples
	 * unqueued, reader-order.c)
	 */
	struct hm_reader_opts o = { .ordered = size & 1, .all_records = true,
				    .zstd_ahead = (size & 2) != 0, .counts_order = (size & 4) != 0,
				    /* the early hand-out's walk over the records ahead (reader-ahead.c) */
				    .queue_bytes = (size & 8) ? 256 : 0 };
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
		/* BPF_PROG_INFO's functions named from BPF_BTF (libbpf parses the BTF) */
		for (u32 i = 0; i < h->nr_bpf_progs && i < 64; i++) {
			const struct hm_bpf_prog *p = &h->bpf_progs[i];
			char nb[512];

			for (u32 k = 0; k < p->nr_funcs && k < 16; k++)
				sink += hm_header__bpf_func_name(h, p, k, nb, sizeof(nb)) + p->funcs[k].addr;
		}
		for (u32 i = 0; i < h->nr_btf; i++)
			touch(h->btf[i].data, h->btf[i].size);
		/* what the report builds from the header: topology and metadata */
		topo_and_meta(h);
	}
	hm_reader__delete(r);
	return 0;
}
