// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-spe-gen: write a perf.data with Arm SPE AUX data, as an Arm machine's
 * perf c2c record would, from random records: loads with every data source
 * of the MIDR's table, stores, non-memory ops, user and kernel addresses,
 * SNOOPED/HITM and REMOTE_ACCESS events (FEAT_SPEv1p4) with --hitm.
 *
 *   hm-spe-gen [--seed N] [--records N] [--sockets 1|2] [--cpus N] [--meta 1|2]
 *              [--pipe] [--zstd] [--hitm] [--midr HEX] [--no-context]
 *              [--buf-size BYTES] [--swap] -o FILE
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/perf_data.h>
#include "perfdata/spe-write.h"

static u64 rng_state;
static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static char *cpus_of(u32 first, u32 n)
{
	char *b = malloc(32);

	if (b)
		snprintf(b, 32, "%u-%u", first, first + n - 1);
	return b;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", 1, NULL, 's' }, { "records", 1, NULL, 'n' }, { "sockets", 1, NULL, 'S' },
		{ "cpus", 1, NULL, 'c' }, { "meta", 1, NULL, 'm' }, { "pipe", 0, NULL, 'p' },
		{ "zstd", 0, NULL, 'z' }, { "hitm", 0, NULL, 'H' }, { "midr", 1, NULL, 'M' },
		{ "no-context", 0, NULL, 'C' }, { "buf-size", 1, NULL, 'B' }, { "swap", 0, NULL, 'W' },
		{ NULL, 0, NULL, 0 },
	};
	u64 seed = 1, n = 2000, midr = 0x413fd0c1;
	u32 sockets = 2, ncpu = 8, meta = 2, pmu_type = 9, pid = 4242;
	bool swap = false, pipe = false, zstd = false, hitm = false, context = true;
	const char *out = NULL;
	struct hm_writer *w;
	struct hm_spe_writer *sw;
	struct perf_event_attr a;
	struct hm_header h;
	u64 heap = 0x7f0000000000ULL, base_t = 1000000000000ULL;
	size_t buf_size = 4096;
	int c, err;

	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		switch (c) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 'S': sockets = (u32)atoi(optarg); break;
		case 'c': ncpu = (u32)atoi(optarg); break;
		case 'm': meta = (u32)atoi(optarg); break;
		case 'p': pipe = true; break;
		case 'z': zstd = true; break;
		case 'H': hitm = true; break;
		case 'M': midr = strtoull(optarg, NULL, 16); break;
		case 'C': context = false; break;
		case 'B': buf_size = strtoull(optarg, NULL, 0); break;
		case 'W': swap = true; break;
		case 'o': out = optarg; break;
		default: return 2;
		}
	}
	if (!out || !sockets || sockets > 2 || ncpu % sockets) {
		fprintf(stderr, "usage: hm-spe-gen [options] -o FILE\n");
		return 2;
	}
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	w = hm_writer__new(out);
	if (!w)
		return 1;
	if (swap && hm_writer__set_swap(w, true))
		return 1;
	if ((pipe && hm_writer__set_pipe(w, true)) || (zstd && hm_writer__set_compression(w, 1, false)))
		return 1;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = pmu_type;
	a.config = (1ULL << 0) | (1ULL << 1) | (1ULL << 32) | (1ULL << 33) | (1ULL << 34);
	a.config2 = 30;
	a.sample_period = 4096;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_WEIGHT;
	a.sample_id_all = 1;
	a.mmap = a.comm = a.task = a.mmap2 = a.mmap_data = a.comm_exec = 1;
	a.exclude_guest = 1;
	u64 id = 1;
	if (hm_writer__add_evsel(w, &a, "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=30/", &id, 1) < 0)
		return 1;
	memset(&h, 0, sizeof(h));
	h.hostname = strdup("spe-gen");
	h.osrelease = strdup("6.18.0");
	h.version = strdup("7.3.4");
	h.arch = strdup("aarch64");
	h.cpudesc = strdup("Neoverse-N1");
	{
		char cid[32];

		snprintf(cid, sizeof(cid), "0x%016llx", (unsigned long long)midr);
		h.cpuid = strdup(cid);
	}
	h.nr_cpus_avail = h.nr_cpus_online = ncpu;
	h.nr_package_cpus = h.nr_die_cpus = sockets;
	h.package_cpus = calloc(sockets, sizeof(char *));
	h.die_cpus = calloc(sockets, sizeof(char *));
	h.nr_core_cpus = ncpu;
	h.core_cpus = calloc(ncpu, sizeof(char *));
	h.cpu = calloc(ncpu, sizeof(*h.cpu));
	h.nr_numa_nodes = sockets;
	h.numa = calloc(sockets, sizeof(*h.numa));
	for (u32 s = 0; s < sockets; s++) {
		h.package_cpus[s] = cpus_of(s * (ncpu / sockets), ncpu / sockets);
		h.die_cpus[s] = cpus_of(s * (ncpu / sockets), ncpu / sockets);
		h.numa[s].node = s;
		h.numa[s].mem_total_kb = 1 << 20;
		h.numa[s].mem_free_kb = 1 << 19;
		h.numa[s].cpus = cpus_of(s * (ncpu / sockets), ncpu / sockets);
	}
	for (u32 i = 0; i < ncpu; i++) {
		h.core_cpus[i] = cpus_of(i, 1);
		h.cpu[i].core_id = (int)i;
		h.cpu[i].socket_id = h.cpu[i].die_id = (int)(i / (ncpu / sockets));
	}
	if (hm_writer__set_header(w, &h))
		return 1;
	{
		struct hm_spe_wopts o = {
			.version = (int)meta, .pmu_type = pmu_type, .nr_cpus = ncpu, .midr = midr,
			.min_interval = 1024, .ev_filter = hitm ? 0xaaa | (1ULL << 23) : 0xaaa,
			.buf_size = buf_size, .context = context, .id = 1, .sample_type = a.sample_type,
			.sample_id_all = true,
		};

		sw = hm_spe_writer__new(w, &o);
		if (!sw)
			return 1;
	}
	err = hm_writer__write_comm(w, pid, pid, "spe-gen");
	for (u32 t = 1; t < 8 && !err; t++)
		err = hm_writer__write_comm(w, pid, pid + t, "spe-gen");
	if (!err)
		err = hm_writer__write_mmap2(w, pid, pid, heap, 1 << 20, 0, 3, 2, "[heap]",
					     PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	if (!err)
		err = hm_writer__write_mmap2(w, pid, pid, 0x400000, 1 << 20, 0, 5, 2, "/usr/bin/spe-gen",
					     PERF_RECORD_MISC_USER);
	for (u64 i = 0; i < n && !err; i++) {
		static const u16 srcs[] = { 0x0, 0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0xe, 0x3 };
		struct hm_spe_record r;
		u64 x = rnd();
		u32 cpu = (u32)(x % ncpu), tid = pid + (u32)((x >> 8) % 8);
		unsigned kind = (unsigned)((x >> 16) % 10);

		memset(&r, 0, sizeof(r));
		r.context_id = tid;
		r.timestamp = base_t + i * 1000;
		r.from_ip = (x >> 20) & 1 ? 0x400000 + ((x >> 24) & 0xffff) * 4
					  : 0xffff800008010000ULL + ((x >> 24) & 0xffff) * 4;
		r.virt_addr = (x >> 40) % 64 == 0 ? 0x12345000 : heap + ((x >> 28) % 4096) * 8;
		r.phys_addr = 0x80000000ULL + (r.virt_addr & 0xfffff);
		r.latency = (u32)(10 + (x >> 44) % 800);
		r.issue_lat = 2;
		r.trans_lat = 3;
		r.events = 1ULL << 1;
		if (kind == 9) {
			r.op = HM_SPE_OP_BRANCH;
		} else {
			bool st = kind >= 6;
			u64 y = rnd();

			r.op = HM_SPE_OP_LDST | (st ? HM_SPE_OP_ST : HM_SPE_OP_LD);
			if (y % 7 == 0)
				r.op |= HM_SPE_OP_ATOMIC;
			r.source = srcs[(y >> 4) % 9];
			if ((y >> 8) & 1)
				r.events |= HM_SPE_EV(L1D_ACCESS);
			if ((y >> 9) & 1)
				r.events |= HM_SPE_EV(L1D_REFILL);
			if ((y >> 10) & 1)
				r.events |= HM_SPE_EV(LLC_ACCESS);
			if ((y >> 11) % 4 == 0)
				r.events |= HM_SPE_EV(LLC_MISS);
			if ((y >> 13) & 1)
				r.events |= HM_SPE_EV(TLB_ACCESS);
			if ((y >> 14) % 8 == 0)
				r.events |= HM_SPE_EV(TLB_WALK);
			if ((y >> 17) % 6 == 0)
				r.events |= HM_SPE_EV(REMOTE_ACCESS);
			if ((y >> 20) & 1)
				r.events |= HM_SPE_EV(L2D_ACCESS);
			if ((y >> 21) % 3 == 0)
				r.events |= HM_SPE_EV(L2D_MISS);
			if ((y >> 23) % 9 == 0)
				r.events |= HM_SPE_EV(RECENTLY_FETCHED);
			if (hitm && (y >> 27) % 3 == 0)
				r.events |= HM_SPE_EV(DATA_SNOOPED) |
					    ((y >> 30) & 1 ? HM_SPE_EV(HITM) : 0);
		}
		err = hm_spe_writer__add(sw, cpu, pid, tid, &r);
		if (!err && i % 512 == 511)
			err = hm_writer__write_finished_round(w);
	}
	if (!err)
		err = hm_spe_writer__flush(sw);
	if (!err)
		err = hm_writer__write_finished_round(w);
	if (!err)
		err = hm_writer__close(w);
	hm_spe_writer__delete(sw);
	hm_writer__delete(w);
	hm_header__release(&h);
	if (err)
		fprintf(stderr, "hm-spe-gen: %s\n", strerror(-err));
	return err ? 1 : 0;
}
