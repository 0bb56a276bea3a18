// SPDX-License-Identifier: GPL-2.0-only
/*
 * Feature section encoders: each one produces the bytes perf's header.c
 * write_<feat>() produces (layouts in notes/perf-c2c.md section 3.4).
 */
#include <errno.h>
#include <stdint.h>

#include "tap.h"
#include "perfdata/feat-write.h"

static u32 rd32(const struct hm_fwbuf *b, size_t off)
{
	u32 v = 0;

	if (off + 4 <= b->len)
		memcpy(&v, b->p + off, 4);
	return v;
}

static u64 rd64(const struct hm_fwbuf *b, size_t off)
{
	u64 v = 0;

	if (off + 8 <= b->len)
		memcpy(&v, b->p + off, 8);
	return v;
}

static const char *str_at(const struct hm_fwbuf *b, size_t off)
{
	return off + 4 < b->len ? (const char *)b->p + off + 4 : "";
}

static int enc(int feat, const struct hm_header *h, struct hm_fwbuf *b)
{
	hm_fwbuf__release(b);
	return hm_feat__encode(feat, h, b);
}

int main(void)
{
	struct hm_header h;
	struct hm_fwbuf b;
	int ret;

	hm_fwbuf__init(&b);
	memset(&h, 0, sizeof(h));

	/* Strings: u32 len padded to 64 including the NUL. */
	h.hostname = "vm";
	ret = enc(HM_FEAT_HOSTNAME, &h, &b);
	CHECK_EQ("hostname encoded", ret, 1);
	CHECK_EQ("hostname size 4+64", b.len, 68);
	CHECK_EQ("hostname len field 64", rd32(&b, 0), 64);
	CHECK_STR("hostname text", str_at(&b, 0), "vm");
	CHECK("hostname zero padded", b.p[4 + 2] == 0 && b.p[67] == 0);
	{
		char long_str[65];

		memset(long_str, 'x', 64);
		long_str[64] = 0;
		h.osrelease = long_str;
		enc(HM_FEAT_OSRELEASE, &h, &b);
		CHECK_EQ("64-char string pads to 128", rd32(&b, 0), 128);
		CHECK_EQ("64-char string size", b.len, 132);
		h.osrelease = NULL;
	}
	CHECK_EQ("absent string feature not encoded", enc(HM_FEAT_OSRELEASE, &h, &b), 0);
	CHECK_EQ("absent feature writes nothing", b.len, 0);
	h.version = "6.1.0";
	h.arch = "x86_64";
	h.cpudesc = "Some CPU";
	h.cpuid = "GenuineIntel,6,85,4";
	CHECK_EQ("version", enc(HM_FEAT_VERSION, &h, &b) == 1 && b.len == 68, 1);
	CHECK_STR("arch", (enc(HM_FEAT_ARCH, &h, &b), str_at(&b, 0)), "x86_64");
	CHECK_STR("cpudesc", (enc(HM_FEAT_CPUDESC, &h, &b), str_at(&b, 0)), "Some CPU");
	CHECK_STR("cpuid", (enc(HM_FEAT_CPUID, &h, &b), str_at(&b, 0)), "GenuineIntel,6,85,4");

	/* NRCPUS: u32 avail, u32 online. */
	h.nr_cpus_avail = 4;
	h.nr_cpus_online = 3;
	ret = enc(HM_FEAT_NRCPUS, &h, &b);
	CHECK("nrcpus 8 bytes avail,online", ret == 1 && b.len == 8 && rd32(&b, 0) == 4 && rd32(&b, 4) == 3);

	/* TOTAL_MEM: u64 kB. */
	h.total_mem_kb = 123456789;
	ret = enc(HM_FEAT_TOTAL_MEM, &h, &b);
	CHECK("total_mem u64", ret == 1 && b.len == 8 && rd64(&b, 0) == 123456789);

	/* CMDLINE: u32 nr + strings. */
	{
		char *argv[] = { "/usr/bin/perf", "record" };

		h.cmdline_argc = 2;
		h.cmdline_argv = argv;
		ret = enc(HM_FEAT_CMDLINE, &h, &b);
		CHECK("cmdline nr + 2 strings", ret == 1 && rd32(&b, 0) == 2 && b.len == 4 + 68 + 68);
		CHECK_STR("cmdline argv0", str_at(&b, 4), "/usr/bin/perf");
		CHECK_STR("cmdline argv1", str_at(&b, 72), "record");
		h.cmdline_argv = NULL;
		h.cmdline_argc = 0;
	}

	/* CPU_TOPOLOGY: pkg list, core list, {core,socket}[n], die list, die[n]. */
	{
		char *pkg[] = { "0-1", "2-3" };
		char *core[] = { "0", "1", "2", "3" };
		struct hm_cpu_topo cpu[4] = {
			{ 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 },
		};
		size_t lists = 4 + 2 * 68 + 4 + 4 * 68;

		h.nr_package_cpus = 2;
		h.package_cpus = pkg;
		h.nr_core_cpus = 4;
		h.core_cpus = core;
		h.cpu = cpu;
		ret = enc(HM_FEAT_CPU_TOPOLOGY, &h, &b);
		CHECK_EQ("cpu topology no dies: lists + ids", b.len, lists + 4 * 8);
		CHECK_STR("cpu topology pkg[1]", str_at(&b, 4 + 68), "2-3");
		CHECK_STR("cpu topology core[3]", str_at(&b, 4 + 2 * 68 + 4 + 3 * 68), "3");
		CHECK("cpu 2 core 0 socket 1", rd32(&b, lists + 16) == 0 && rd32(&b, lists + 20) == 1);
		h.nr_die_cpus = 2;
		h.die_cpus = pkg;
		cpu[3].die_id = 1;
		ret = enc(HM_FEAT_CPU_TOPOLOGY, &h, &b);
		CHECK_EQ("cpu topology with dies", b.len, lists + 32 + 4 + 2 * 68 + 4 * 4);
		CHECK_EQ("die list count", rd32(&b, lists + 32), 2);
		CHECK_EQ("die id of cpu 3", rd32(&b, lists + 32 + 4 + 2 * 68 + 12), 1);
		h.cpu = NULL;
		ret = enc(HM_FEAT_CPU_TOPOLOGY, &h, &b);
		CHECK_EQ("cpu topology without per-cpu ids: lists only", b.len, lists);
		h.cpu = cpu;
		h.nr_cpus_avail = 0;
		CHECK_EQ("per-cpu ids without NRCPUS rejected", enc(HM_FEAT_CPU_TOPOLOGY, &h, &b), -EINVAL);
		h.nr_cpus_avail = 4;
		h.nr_package_cpus = h.nr_core_cpus = h.nr_die_cpus = 0;
		CHECK_EQ("no topology lists: absent", enc(HM_FEAT_CPU_TOPOLOGY, &h, &b), 0);
		h.cpu = NULL;
	}

	/* NUMA_TOPOLOGY: u32 nr; {u32 node; u64 total; u64 free; string cpus}. */
	{
		struct hm_numa_node numa[2] = {
			{ 0, 1000, 500, "0-1" }, { 1, 2000, 700, "2-3" },
		};
		size_t per = 4 + 8 + 8 + 68;

		h.nr_numa_nodes = 2;
		h.numa = numa;
		ret = enc(HM_FEAT_NUMA_TOPOLOGY, &h, &b);
		CHECK("numa size", ret == 1 && b.len == 4 + 2 * per);
		CHECK("numa node 1 fields", rd32(&b, 4 + per) == 1 && rd64(&b, 4 + per + 4) == 2000 &&
		      rd64(&b, 4 + per + 12) == 700);
		CHECK_STR("numa node 1 cpus", str_at(&b, 4 + per + 20), "2-3");
		h.nr_numa_nodes = 0;
		h.numa = NULL;
	}

	/* MEM_TOPOLOGY: 1 node with 200 blocks is 80 bytes (checked on perf 6.1 output). */
	{
		u64 bits[4] = { ~0ULL, ~0ULL, ~0ULL, (1ULL << 8) - 1 };
		struct hm_mem_node mem = { 0, 200, bits };

		h.mem_block_size = 0x8000000;
		h.nr_mem_nodes = 1;
		h.mem = &mem;
		ret = enc(HM_FEAT_MEM_TOPOLOGY, &h, &b);
		CHECK_EQ("mem topology 1 node 200 blocks = 80 bytes", b.len, 80);
		CHECK("mem topology version, bsize, nr", rd64(&b, 0) == 1 && rd64(&b, 8) == 0x8000000 &&
		      rd64(&b, 16) == 1);
		CHECK("mem node: node, size, nbits", rd64(&b, 24) == 0 && rd64(&b, 32) == 200 && rd64(&b, 40) == 200);
		CHECK("mem bitmap words", rd64(&b, 48) == ~0ULL && rd64(&b, 72) == 0xff);
		mem.nbits = 128;
		enc(HM_FEAT_MEM_TOPOLOGY, &h, &b);
		CHECK_EQ("nbits multiple of 64: exactly nbits/64 words", b.len, 24 + 24 + 16);
		h.nr_mem_nodes = 0;
		h.mem = NULL;
	}

	/* CACHE: u32 version 1; u32 n; {level, line, sets, ways, type, size, map}. */
	{
		struct hm_cache_level c = { 2, 64, 1024, 16, "Unified", "1024K", "0-1" };

		h.nr_caches = 1;
		h.caches = &c;
		ret = enc(HM_FEAT_CACHE, &h, &b);
		CHECK("cache size", ret == 1 && b.len == 8 + 16 + 3 * 68);
		CHECK("cache version 1, nr 1", rd32(&b, 0) == 1 && rd32(&b, 4) == 1);
		CHECK("cache level fields", rd32(&b, 8) == 2 && rd32(&b, 12) == 64 && rd32(&b, 16) == 1024 &&
		      rd32(&b, 20) == 16);
		CHECK_STR("cache map", str_at(&b, 24 + 2 * 68), "0-1");
		h.nr_caches = 0;
		h.caches = NULL;
	}

	/* SAMPLE_TIME, CLOCKID. */
	h.sample_time_first = 11;
	h.sample_time_last = 22;
	ret = enc(HM_FEAT_SAMPLE_TIME, &h, &b);
	CHECK("sample_time first,last", ret == 1 && b.len == 16 && rd64(&b, 0) == 11 && rd64(&b, 8) == 22);
	h.clockid_res_ns = 1;
	ret = enc(HM_FEAT_CLOCKID, &h, &b);
	CHECK("clockid res", ret == 1 && b.len == 8 && rd64(&b, 0) == 1);

	/* BUILD_ID: perf_record_header_build_id records, name padded to 64. */
	{
		struct hm_build_id bid = { -1, 1, 20, { 0 }, "/usr/bin/true" };
		int i;

		for (i = 0; i < 20; i++)
			bid.id[i] = (u8)(0xa0 + i);
		h.nr_build_ids = 1;
		h.build_ids = &bid;
		ret = enc(HM_FEAT_BUILD_ID, &h, &b);
		CHECK_EQ("build id record size 36+64", b.len, 100);
		CHECK_EQ("build id header.type 0", rd32(&b, 0), 0);
		CHECK_EQ("build id misc has MISC_BUILD_ID_SIZE", b.p[4] | b.p[5] << 8, 0x8001);
		CHECK_EQ("build id header.size", b.p[6] | b.p[7] << 8, 100);
		CHECK_EQ("build id pid -1", rd32(&b, 8), 0xffffffff);
		CHECK("build id bytes", b.p[12] == 0xa0 && b.p[31] == 0xb3);
		CHECK_EQ("build id size byte", b.p[32], 20);
		CHECK_STR("build id filename", (const char *)b.p + 36, "/usr/bin/true");
		h.nr_build_ids = 0;
		h.build_ids = NULL;
	}

	/* PMU_MAPPINGS. */
	{
		u32 types[2] = { 4, 1 };
		char *names[2] = { "cpu", "software" };

		h.nr_pmu_mappings = 2;
		h.pmu_types = types;
		h.pmu_names = names;
		ret = enc(HM_FEAT_PMU_MAPPINGS, &h, &b);
		CHECK("pmu mappings", ret == 1 && b.len == 4 + 2 * 72 && rd32(&b, 0) == 2 &&
		      rd32(&b, 4) == 4 && rd32(&b, 76) == 1);
		CHECK_STR("pmu mapping name", str_at(&b, 80), "software");
		h.nr_pmu_mappings = 0;
	}

	/* HITMAP: the raw meta bytes as given. */
	{
		u8 meta[16] = { 5, 0, 0, 0, 3, 0, 0, 0, 'i', 'b', 's', 0, 0, 0, 0, 0 };

		h.hitmap_meta = meta;
		h.hitmap_meta_size = sizeof(meta);
		ret = enc(HM_FEAT_HITMAP, &h, &b);
		CHECK("hitmap raw section", ret == 1 && b.len == 16 && !memcmp(b.p, meta, 16));
		h.hitmap_meta = NULL;
		h.hitmap_meta_size = 0;
	}

	/* EVENT_DESC: u32 nr; u32 attr_size 128; {attr; u32 nr_ids; string; ids}. */
	{
		struct hm_fw_evsel ev[2];
		u64 ids0[2] = { 7, 8 }, ids1[1] = { 9 };
		struct perf_event_attr a0;
		size_t e0 = 128 + 4 + 68 + 16;

		memset(ev, 0, sizeof(ev));
		ev[0].attr.type = 4;
		ev[0].attr.config = 0x1cd;
		ev[0].attr.size = 72;		/* rewritten to 128 */
		ev[0].name = "cpu/mem-loads,ldlat=30/P";
		ev[0].ids = ids0;
		ev[0].nr_ids = 2;
		ev[1].attr.config = 0x82d0;
		ev[1].name = "cpu/mem-stores/P";
		ev[1].ids = ids1;
		ev[1].nr_ids = 1;
		hm_fwbuf__release(&b);
		ret = hm_feat__encode_event_desc(&b, ev, 2);
		CHECK("event_desc nr 2, attr_size 128", ret == 0 && rd32(&b, 0) == 2 && rd32(&b, 4) == 128);
		memcpy(&a0, b.p + 8, sizeof(a0) < 128 ? sizeof(a0) : 128);
		CHECK("event_desc attr image", a0.type == 4 && a0.config == 0x1cd && a0.size == 128);
		CHECK_EQ("event_desc nr_ids", rd32(&b, 8 + 128), 2);
		CHECK_STR("event_desc name", str_at(&b, 8 + 132), "cpu/mem-loads,ldlat=30/P");
		CHECK("event_desc ids", rd64(&b, 8 + 132 + 68) == 7 && rd64(&b, 8 + 132 + 76) == 8);
		CHECK_EQ("event_desc total", b.len, 8 + e0 + 128 + 4 + 68 + 8);
		CHECK_EQ("event_desc 2nd ids", rd64(&b, 8 + e0 + 128 + 4 + 68), 9);
		CHECK_STR("event_desc 2nd name", str_at(&b, 8 + e0 + 128 + 4), "cpu/mem-stores/P");
	}

	CHECK_EQ("unknown feature bit: not encoded", enc(150, &h, &b), 0);
	hm_fwbuf__release(&b);
	TAP_DONE();
}
