// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machine model: sockets, cores per socket, SMT, LLC domains (one per socket
 * on Intel and Arm, one per CCX on AMD), private L1/L2, one NUMA node per
 * socket, and a latency table with sourced defaults.
 *
 * CPU numbering follows Linux on these boxes: first every core's first
 * thread, socket by socket, then the SMT siblings (cpu = t * cores + core).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "sim/sim.h"
#include "util/num.h"

static const char *const src_names[] = {
#define HM_SRC_NAME(e, s) s,
	HM_SRCS(HM_SRC_NAME)
#undef HM_SRC_NAME
};

const char *hm_src__name(enum hm_src s)
{
	return (unsigned)s < HM_SRC__MAX ? src_names[s] : "?";
}

const char *hm_lat__name(int i)
{
	if (i >= 0 && i < HM_SRC__MAX)
		return src_names[i];
	switch (i) {
	case HM_LAT_SYSCALL:	return "syscall";
	case HM_LAT_STORE:	return "store";
	case HM_LAT_SPIN:	return "spin";
	case HM_LAT_OCCUPANCY:	return "occupancy";
	}
	return NULL;
}

struct preset {
	const char	*name;
	const char	*desc;
	enum hm_vendor	vendor;
	enum hm_sim_proto proto;
	enum hm_sim_pmu	pmu;
	u32		sockets, cores, smt, llcs;
	double		ghz;
	u32		lat[HM_LAT__MAX];
	const char	*src[HM_LAT__MAX];
	const char	*cpuid, *cpudesc, *arch;
	u32		pmu_type;
	u64		node_gb;
};

/* Sources, short; the man page has the long form. */
#define S_MLC	"Intel MLC on Xeon E5-2660 v4: modified-line intervention 40.3-42.3 ns (peers.md 5)"
#define S_QDPMA	"qdpma.com: 2S Skylake-SP DRAM 89 ns local, 139 ns remote (peers.md 5)"
#define S_C2C	"chipsandcheese/techreport Zen 4: 15-19 ns in CCX, up to 79.5 ns cross-CCD (peers.md 5)"
#define S_ROME	"AnandTech EPYC Rome: 122 ns DRAM, NPS1 (peers.md 5)"
#define S_LKP	"calibrated: LKP lkp-srf-2sp2 6.12 perf bench futex hash 2,667,058 ops/s/thread (futex.md 4.3)"
#define S_GUESS	"assumption: no public figure found; override with --latency"
#define S_ARCH	"vendor optimization manual, load-to-use"
#define S_PAUSE	"Intel optimization manual (Skylake): PAUSE latency extended to as many as 140 cycles"
#define S_OCC	"calibrated: LKP lkp-srf-2sp2 6.16-rc private hash 144,593 ops/s/thread (futex.md 4.3)"
#define OCC	12

static const struct preset presets[] = {
	{
		.name = "srf", .desc = "2-socket Intel Xeon 6740E Sierra Forest, 2x96 cores, 192 CPUs (LKP lkp-srf-2sp2)",
		.vendor = HM_VENDOR_INTEL, .proto = HM_PROTO_MESIF, .pmu = HM_PMU_INTEL_CMT,
		.sockets = 2, .cores = 96, .smt = 1, .llcs = 1, .ghz = 2.4,
		.lat = { [HM_SRC_L1] = 4, [HM_SRC_LFB] = 9, [HM_SRC_L2] = 19, [HM_SRC_LLC] = 90,
			 [HM_SRC_HITM_LOCAL] = 130, [HM_SRC_HITM_XDIE] = 180, [HM_SRC_HITM_REMOTE] = 420,
			 [HM_SRC_HIT_XDIE] = 160, [HM_SRC_HIT_REMOTE] = 380,
			 [HM_SRC_DRAM_LOCAL] = 260, [HM_SRC_DRAM_REMOTE] = 400,
			 [HM_LAT_SYSCALL] = 780, [HM_LAT_STORE] = 1, [HM_LAT_SPIN] = 40, [HM_LAT_OCCUPANCY] = OCC },
		.src = { [HM_SRC_L1] = S_ARCH, [HM_SRC_L2] = S_ARCH, [HM_SRC_LLC] = S_GUESS,
			 [HM_SRC_HITM_LOCAL] = S_MLC, [HM_SRC_HITM_REMOTE] = S_GUESS,
			 [HM_SRC_DRAM_LOCAL] = S_QDPMA, [HM_SRC_DRAM_REMOTE] = S_QDPMA,
			 [HM_LAT_SYSCALL] = S_LKP, [HM_LAT_OCCUPANCY] = S_OCC },
		.cpuid = "GenuineIntel,6,175,3", .cpudesc = "Intel(R) Xeon(R) 6740E",
		.arch = "x86_64", .pmu_type = 4, .node_gb = 128,
	},
	{
		.name = "skx", .desc = "2-socket Intel Xeon Platinum 8180 Skylake-SP, 2x28 cores, SMT2, 112 CPUs",
		.vendor = HM_VENDOR_INTEL, .proto = HM_PROTO_MESIF, .pmu = HM_PMU_INTEL_SKL,
		.sockets = 2, .cores = 28, .smt = 2, .llcs = 1, .ghz = 2.5,
		.lat = { [HM_SRC_L1] = 4, [HM_SRC_LFB] = 9, [HM_SRC_L2] = 14, [HM_SRC_LLC] = 70,
			 [HM_SRC_HITM_LOCAL] = 105, [HM_SRC_HITM_XDIE] = 150, [HM_SRC_HITM_REMOTE] = 310,
			 [HM_SRC_HIT_XDIE] = 140, [HM_SRC_HIT_REMOTE] = 290,
			 [HM_SRC_DRAM_LOCAL] = 223, [HM_SRC_DRAM_REMOTE] = 348,
			 [HM_LAT_SYSCALL] = 820, [HM_LAT_STORE] = 1, [HM_LAT_SPIN] = 140, [HM_LAT_OCCUPANCY] = OCC },
		.src = { [HM_SRC_L1] = S_ARCH, [HM_SRC_L2] = S_ARCH, [HM_SRC_LLC] = S_ARCH,
			 [HM_SRC_HITM_LOCAL] = S_MLC, [HM_SRC_HITM_REMOTE] = S_GUESS,
			 [HM_SRC_DRAM_LOCAL] = S_QDPMA, [HM_SRC_DRAM_REMOTE] = S_QDPMA,
			 [HM_LAT_SYSCALL] = S_LKP, [HM_LAT_SPIN] = S_PAUSE, [HM_LAT_OCCUPANCY] = S_OCC },
		.cpuid = "GenuineIntel,6,85,4", .cpudesc = "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz",
		.arch = "x86_64", .pmu_type = 4, .node_gb = 96,
	},
	{
		.name = "zen4", .desc = "2-socket AMD EPYC 9654 Genoa (Zen 4), 2x96 cores in 12 CCX each, SMT2, 384 CPUs",
		.vendor = HM_VENDOR_AMD, .proto = HM_PROTO_MOESI, .pmu = HM_PMU_AMD_ZEN4,
		.sockets = 2, .cores = 96, .smt = 2, .llcs = 12, .ghz = 3.0,
		.lat = { [HM_SRC_L1] = 4, [HM_SRC_LFB] = 9, [HM_SRC_L2] = 14, [HM_SRC_LLC] = 50,
			 [HM_SRC_HITM_LOCAL] = 57, [HM_SRC_HITM_XDIE] = 240, [HM_SRC_HITM_REMOTE] = 450,
			 [HM_SRC_HIT_XDIE] = 230, [HM_SRC_HIT_REMOTE] = 430,
			 [HM_SRC_DRAM_LOCAL] = 366, [HM_SRC_DRAM_REMOTE] = 560,
			 [HM_LAT_SYSCALL] = 900, [HM_LAT_STORE] = 1, [HM_LAT_SPIN] = 40, [HM_LAT_OCCUPANCY] = OCC },
		.src = { [HM_SRC_L1] = S_ARCH, [HM_SRC_L2] = S_ARCH, [HM_SRC_LLC] = S_ARCH,
			 [HM_SRC_HITM_LOCAL] = S_C2C, [HM_SRC_HITM_XDIE] = S_C2C,
			 [HM_SRC_HITM_REMOTE] = S_GUESS, [HM_SRC_DRAM_LOCAL] = S_ROME,
			 [HM_SRC_DRAM_REMOTE] = S_GUESS, [HM_LAT_SYSCALL] = S_GUESS },
		.cpuid = "AuthenticAMD,25,17,1", .cpudesc = "AMD EPYC 9654 96-Core Processor",
		.arch = "x86_64", .pmu_type = 11, .node_gb = 384,
	},
	{
		.name = "altra", .desc = "2-socket Ampere Altra Q80-30 (Arm Neoverse N1), 2x80 cores, 160 CPUs",
		.vendor = HM_VENDOR_ARM, .proto = HM_PROTO_MESI, .pmu = HM_PMU_ARM_SPE,
		.sockets = 2, .cores = 80, .smt = 1, .llcs = 1, .ghz = 3.0,
		.lat = { [HM_SRC_L1] = 4, [HM_SRC_LFB] = 9, [HM_SRC_L2] = 11, [HM_SRC_LLC] = 95,
			 [HM_SRC_HITM_LOCAL] = 120, [HM_SRC_HITM_XDIE] = 160, [HM_SRC_HITM_REMOTE] = 700,
			 [HM_SRC_HIT_XDIE] = 150, [HM_SRC_HIT_REMOTE] = 650,
			 [HM_SRC_DRAM_LOCAL] = 330, [HM_SRC_DRAM_REMOTE] = 720,
			 [HM_LAT_SYSCALL] = 800, [HM_LAT_STORE] = 1, [HM_LAT_SPIN] = 40, [HM_LAT_OCCUPANCY] = OCC },
		.src = { [HM_SRC_L1] = S_ARCH, [HM_SRC_L2] = S_ARCH, [HM_SRC_LLC] = S_GUESS,
			 [HM_SRC_HITM_LOCAL] = S_GUESS, [HM_SRC_HITM_REMOTE] = S_GUESS,
			 [HM_SRC_DRAM_LOCAL] = S_GUESS, [HM_SRC_DRAM_REMOTE] = S_GUESS,
			 [HM_LAT_SYSCALL] = S_GUESS },
		.cpuid = "0x00000000413fd0c1", .cpudesc = "Neoverse-N1",
		.arch = "aarch64", .pmu_type = 9, .node_gb = 256,
	},
};

const char *const hm_machine_presets[] = { "srf", "skx", "zen4", "altra", "host", NULL };

const char *hm_machine__preset_desc(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name))
			return presets[i].desc;
	if (!strcmp(name, "host"))
		return "this machine: topology from sysfs, the vendor's latencies, the core-to-core transfer and the syscall cost measured";
	return NULL;
}

int hm_machine__preset(struct hm_machine *m, const char *name)
{
	const struct preset *p = NULL;
	size_t i;

	if (!strcmp(name, "host")) {
		struct hm_host h;
		int err = hm_host__probe(&h);

		if (!err)
			err = hm_machine__preset(m, h.base);
		if (!err)
			hm_machine__host(m, &h);
		return err;
	}
	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name))
			p = &presets[i];
	if (!p) {
		hm_err("--preset %s: unknown machine; use one of srf, skx, zen4, altra, host", name);
		return -EINVAL;
	}
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", p->name);
	snprintf(m->desc, sizeof(m->desc), "%s", p->desc);
	m->vendor = p->vendor;
	m->proto = p->proto;
	m->pmu = p->pmu;
	m->sockets = p->sockets;
	m->cores = p->cores;
	m->smt = p->smt;
	m->llcs = p->llcs;
	m->ghz = p->ghz;
	memcpy(m->lat, p->lat, sizeof(m->lat));
	for (i = 0; i < HM_LAT__MAX; i++)
		m->lat_source[i] = p->src[i] ? p->src[i] : "assumption, scaled from the sourced entries";
	m->l1_lines = 512;	/* 32 KiB */
	m->l2_lines = 4096;	/* direct-mapped stand-in for a 1 MiB set-associative L2 */
	m->node_mem = p->node_gb << 30;
	snprintf(m->cpuid, sizeof(m->cpuid), "%s", p->cpuid);
	snprintf(m->cpudesc, sizeof(m->cpudesc), "%s", p->cpudesc);
	snprintf(m->arch, sizeof(m->arch), "%s", p->arch);
	m->pmu_type = p->pmu_type;
	return 0;
}

int hm_machine__set_latency(struct hm_machine *m, const char *spec)
{
	const char *eq = strchr(spec, '=');
	u64 v;
	int i;

	if (!eq) {
		hm_err("--latency %s: expected NAME=CYCLES, e.g. hitm_remote=400", spec);
		return -EINVAL;
	}
	if (hm_num__parse_u64(eq + 1, 10, 100000, &v) || v == 0 ||
	    (!strncmp(spec, "occupancy=", 10) && v > 100)) {
		hm_err("--latency %s: cycles must be an integer 1..100000 (occupancy: percent 1..100)", spec);
		return -EINVAL;
	}
	for (i = 0; i < HM_LAT__MAX; i++) {
		const char *n = hm_lat__name(i);

		if (n && strlen(n) == (size_t)(eq - spec) && !strncmp(n, spec, eq - spec)) {
			m->lat[i] = (u32)v;
			m->lat_source[i] = "--latency";
			return 0;
		}
	}
	hm_err("--latency %s: unknown name; use l1 lfb l2 llc hitm_local hitm_xdie hitm_remote "
	       "hit_xdie hit_remote dram_local dram_remote syscall store spin occupancy", spec);
	return -EINVAL;
}

static bool pow2(u32 v)
{
	return v && !(v & (v - 1));
}

int hm_machine__finish(struct hm_machine *m, u32 sockets, u32 cores, u32 smt)
{
	u32 c, t;

	if (sockets)
		m->sockets = sockets;
	if (cores) {
		m->cores = cores;
		if (m->llcs > 1 && cores % m->llcs)
			m->llcs = (cores + 7) / 8;	/* CCX of 8 cores */
	}
	if (smt)
		m->smt = smt;
	if (m->sockets < 1 || m->sockets > 16) {
		hm_err("--sockets %u: must be 1..16", m->sockets);
		return -EINVAL;
	}
	if (m->cores < 1 || m->cores > 1024) {
		hm_err("--cores %u: must be 1..1024 cores per socket", m->cores);
		return -EINVAL;
	}
	if (m->smt < 1 || m->smt > 8) {
		hm_err("--smt %u: must be 1..8 threads per core", m->smt);
		return -EINVAL;
	}
	if (m->llcs < 1 || m->llcs > m->cores)
		m->llcs = 1;
	if (m->sockets * m->llcs > 64) {
		hm_err("--sockets %u with %u LLC domains each: at most 64 LLC domains in all; use fewer sockets or cores",
		       m->sockets, m->llcs);
		return -EINVAL;
	}
	if (!pow2(m->l1_lines) || !pow2(m->l2_lines))
		return -EINVAL;
	m->nr_cores = m->sockets * m->cores;
	m->nr_cpus = m->nr_cores * m->smt;
	m->nr_llcs = m->sockets * m->llcs;
	if (m->nr_cpus > 4096) {
		hm_err("%u CPUs: the model handles at most 4096; use fewer sockets, cores or SMT threads",
		       m->nr_cpus);
		return -EINVAL;
	}
	free(m->cpu_core);
	free(m->cpu_socket);
	free(m->cpu_llc);
	free(m->core_llc);
	free(m->core_socket);
	m->cpu_core = calloc(m->nr_cpus, sizeof(u32));
	m->cpu_socket = calloc(m->nr_cpus, sizeof(u32));
	m->cpu_llc = calloc(m->nr_cpus, sizeof(u32));
	m->core_llc = calloc(m->nr_cores, sizeof(u32));
	m->core_socket = calloc(m->nr_cores, sizeof(u32));
	if (!m->cpu_core || !m->cpu_socket || !m->cpu_llc || !m->core_llc || !m->core_socket)
		return -ENOMEM;
	for (c = 0; c < m->nr_cores; c++) {
		u32 s = c / m->cores, in = c % m->cores;
		u32 per = (m->cores + m->llcs - 1) / m->llcs;

		m->core_socket[c] = s;
		m->core_llc[c] = s * m->llcs + in / per;
		for (t = 0; t < m->smt; t++) {
			u32 cpu = hm_machine__cpu(m, c, t);

			m->cpu_core[cpu] = c;
			m->cpu_socket[cpu] = s;
			m->cpu_llc[cpu] = m->core_llc[c];
		}
	}
	return 0;
}

void hm_machine__release(struct hm_machine *m)
{
	if (!m)
		return;
	free(m->cpu_core);
	free(m->cpu_socket);
	free(m->cpu_llc);
	free(m->core_llc);
	free(m->core_socket);
	m->cpu_core = m->cpu_socket = m->cpu_llc = m->core_llc = m->core_socket = NULL;
}
