// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-gen: writes synthetic memory-sample perf.data files (like perf c2c
 * record on Intel) through hitmap's writer, for oracle tests and benchmarks.
 *
 *   hm-gen -o FILE [-n SAMPLES] [-l DISTINCT_LINES] [--nodes N] [--cpus N]
 *          [--seed S] [--mix intel-snb|intel-skl|amd-zen2|amd-zen4|arm|random|all]
 *          [--stores PCT] [--noaddr PCT] [--locked PCT] [--blocked PCT]
 *          [--phys|--no-phys] [--mmap|--no-mmap] [--no-meta] [--swap]
 *
 * The output is a function of the options and the hm-gen binary only (the
 * code map is the hm-gen ELF itself at a fixed base, so perf resolves its
 * symbols).
 *
 * Defaults: --phys and --mmap are on.  --phys fills PHYS_ADDR with addresses
 * inside the memory blocks of the data line's node (line index % nodes), so
 * c2c -N shows nodes; --no-phys leaves it 0.  --mmap writes COMM for every
 * thread and per process an MMAP2 of this ELF (code) and an //anon data map
 * (misc MMAP_DATA|USER) covering every line; --no-mmap leaves them out, so
 * perf counts samples as "No Page Map Rejects".  --locked/--blocked (3%
 * each) set LOCK_LOCKED and BLK_DATA/BLK_ADDR on vendor encodings.
 * --no-meta leaves out the HM_FEAT_HITMAP section (perf 6.1 inject crashes
 * on feature bits >= 32).  --swap writes the other byte order (big-endian
 * on x86) for readers' swap paths; perf reads it the same.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>

#define P(a, b)		PERF_MEM_S(a, b)
#define LN(x)		P(LVLNUM, x)
#define OP_LH		(P(OP, LOAD) | P(LVL, HIT))
#define REM		P(REMOTE, REMOTE)
#define SNOOP_NONE_MISS	(P(SNOOP, NONE) | P(SNOOP, MISS))
#define HOPS(x)		P(HOPS, x)

#define CODE_BASE	0x555555554000ULL
#define DATA_BASE	0x7f0000000000ULL
#define NODE_MEM	(1ULL << 30)		/* 1 GiB per node */
#define MEM_BLOCK	(128ULL << 20)		/* memory block size */
#define NR_PROCS	2
#define NR_THREADS	4
#define ROUND_EVERY	4096

enum mix { MIX_SNB, MIX_SKL, MIX_ZEN2, MIX_ZEN4, MIX_ARM, MIX_RANDOM, MIX_ALL, MIX_NR = MIX_ALL };

static const char *const mix_names[] = {
	"intel-snb", "intel-skl", "amd-zen2", "amd-zen4", "arm", "random", "all",
};

struct opts {
	const char	*out;
	unsigned long	samples, lines;
	unsigned	nodes, cpus;
	unsigned long	seed;
	int		mix;
	unsigned	stores, noaddr, locked, blocked;
	bool		phys, mmap, meta, swap;
	unsigned long	round;		/* samples a FINISHED_ROUND (0: none but the last) */
	bool		drain;		/* rounds as perf's per-CPU ring drains write them */
};

/* ---------------------------------------------------------------- rng */

static u64 rng_state;

static u64 rnd(void)
{
	/* splitmix64 */
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u64 rnd_below(u64 n)
{
	return n ? rnd() % n : 0;
}

static bool pct(unsigned p)
{
	return rnd_below(100) < p;
}

/* ------------------------------------------------------- data_src tables */

/* Intel PEBS load latency, SNB+ (arch/x86/events/intel/ds.c). */
static const u64 intel_snb[16] = {
	P(OP, LOAD) | P(LVL, MISS) | LN(L3) | P(SNOOP, NA),		/* 0x00 unknown L3 */
	OP_LH | P(LVL, L1) | LN(L1) | P(SNOOP, NONE),			/* 0x01 L1 */
	OP_LH | P(LVL, LFB) | LN(LFB) | P(SNOOP, NONE),			/* 0x02 LFB */
	OP_LH | P(LVL, L2) | LN(L2) | P(SNOOP, NONE),			/* 0x03 L2 */
	OP_LH | P(LVL, L3) | LN(L3) | P(SNOOP, NONE),			/* 0x04 L3 */
	OP_LH | P(LVL, L3) | LN(L3) | P(SNOOP, MISS),			/* 0x05 */
	OP_LH | P(LVL, L3) | LN(L3) | P(SNOOP, HIT),			/* 0x06 */
	OP_LH | P(LVL, L3) | LN(L3) | P(SNOOP, HITM),			/* 0x07 local HITM */
	OP_LH | P(LVL, REM_CCE1) | REM | LN(L3) | P(SNOOP, HIT),	/* 0x08 remote hit */
	OP_LH | P(LVL, REM_CCE1) | REM | LN(L3) | P(SNOOP, HITM),	/* 0x09 remote HITM */
	OP_LH | P(LVL, LOC_RAM) | LN(RAM) | P(SNOOP, HIT),		/* 0x0a local DRAM shared */
	OP_LH | P(LVL, REM_RAM1) | REM | LN(L3) | P(SNOOP, HIT),	/* 0x0b remote DRAM shared */
	OP_LH | P(LVL, LOC_RAM) | LN(RAM) | SNOOP_NONE_MISS,		/* 0x0c local DRAM excl */
	OP_LH | P(LVL, REM_RAM1) | LN(RAM) | REM | SNOOP_NONE_MISS,	/* 0x0d remote DRAM excl */
	OP_LH | P(LVL, IO) | LN(NA) | P(SNOOP, NONE),			/* 0x0e IO */
	OP_LH | P(LVL, UNC) | LN(NA) | P(SNOOP, NONE),			/* 0x0f uncached */
};

/* Skylake+ overrides of 0x08, 0x09, 0x0b, 0x0c, 0x0d (__intel_pmu_pebs_data_source_skl). */
static const u64 intel_skl_over[5][2] = {
	{ 0x08, OP_LH | LN(L4) | P(SNOOP, HIT) },
	{ 0x09, OP_LH | LN(L4) | REM | P(SNOOP, HIT) },
	{ 0x0b, OP_LH | LN(RAM) | REM | P(SNOOP, NONE) },
	{ 0x0c, OP_LH | LN(ANY_CACHE) | REM | P(SNOOPX, FWD) },
	{ 0x0d, OP_LH | LN(ANY_CACHE) | REM | P(SNOOP, HITM) },
};

/* AMD IBS before Zen 4 (arch/x86/events/amd/ibs.c). */
static const u64 amd_zen2[] = {
	OP_LH | P(LVL, L1) | LN(L1) | P(SNOOP, NA),
	OP_LH | P(LVL, L2) | LN(L2) | P(SNOOP, NA),
	OP_LH | P(LVL, LFB) | LN(LFB) | P(SNOOP, NA),			/* MAB hit */
	/* "local cache": L3 or another CCX of this node; counted local AND remote HITM */
	OP_LH | P(LVL, L3) | P(LVL, REM_CCE1) | LN(ANY_CACHE) | HOPS(0) | P(SNOOP, HITM),
	OP_LH | P(LVL, L3) | P(LVL, REM_CCE1) | LN(ANY_CACHE) | HOPS(0) | P(SNOOP, HIT),
	OP_LH | P(LVL, REM_CCE2) | LN(ANY_CACHE) | REM | HOPS(1) | P(SNOOP, HITM),
	OP_LH | P(LVL, LOC_RAM) | LN(RAM) | P(SNOOP, NA),
	OP_LH | P(LVL, REM_RAM1) | LN(RAM) | REM | HOPS(1) | P(SNOOP, NA),
	OP_LH | P(LVL, UNC) | LN(NA) | P(SNOOP, NA),
	OP_LH | P(LVL, IO) | LN(IO) | P(SNOOP, NA),
	P(OP, NA) | P(LVL, NA) | LN(NA) | P(SNOOP, NA),			/* not a load/store op */
};

/* AMD IBS, Zen 4 data sources. */
static const u64 amd_zen4[] = {
	OP_LH | P(LVL, L1) | LN(L1) | P(SNOOP, NA),
	OP_LH | P(LVL, L2) | LN(L2) | P(SNOOP, NA),
	OP_LH | P(LVL, LFB) | LN(LFB) | P(SNOOP, NA),
	OP_LH | P(LVL, L3) | LN(L3) | P(SNOOP, HITM),
	OP_LH | P(LVL, L3) | LN(L3) | P(SNOOP, HIT),
	OP_LH | P(LVL, REM_CCE1) | LN(ANY_CACHE) | REM | HOPS(0) | P(SNOOP, HITM),	/* near CCX */
	OP_LH | P(LVL, REM_CCE1) | LN(ANY_CACHE) | REM | HOPS(0) | P(SNOOP, HIT),
	OP_LH | P(LVL, REM_CCE2) | LN(ANY_CACHE) | REM | HOPS(1) | P(SNOOP, HITM),	/* far CCX */
	OP_LH | P(LVL, LOC_RAM) | LN(RAM) | P(SNOOP, NA),
	OP_LH | P(LVL, REM_RAM1) | LN(RAM) | REM | HOPS(1) | P(SNOOP, NA),
	OP_LH | P(LVL, NA) | LN(CXL) | P(SNOOP, NA),
	OP_LH | P(LVL, IO) | LN(IO) | P(SNOOP, NA),
	P(OP, NA) | P(LVL, NA) | LN(NA) | P(SNOOP, NA),
};

/* Arm SPE, Neoverse common data source (tools/perf/util/arm-spe.c). */
static const u64 arm_neoverse[] = {
	OP_LH | P(LVL, L1) | LN(L1) | P(SNOOP, NONE),
	OP_LH | P(LVL, L2) | LN(L2) | P(SNOOP, NONE),
	OP_LH | P(LVL, L2) | LN(L2) | P(SNOOPX, PEER),		/* peer core */
	OP_LH | P(LVL, L3) | LN(L3) | P(SNOOPX, PEER),		/* local / peer cluster */
	OP_LH | P(LVL, L3) | LN(L3) | P(SNOOP, HIT),		/* system cache */
	OP_LH | P(LVL, LOC_RAM) | LN(RAM) | P(SNOOP, NONE),	/* DRAM */
	P(OP, LOAD) | P(LVL, NA) | LN(NA) | REM | P(SNOOPX, PEER),	/* remote */
};

static u64 tlb_bits(void)
{
	switch (rnd_below(8)) {
	case 0:
		return P(TLB, MISS) | P(TLB, L2);
	case 1:
		return P(TLB, MISS) | P(TLB, WK);
	case 2:
		return P(TLB, NA);
	default:
		return P(TLB, HIT) | P(TLB, L1);
	}
}

static u64 lock_blk(const struct opts *o, u64 src)
{
	src |= pct(o->locked) ? P(LOCK, LOCKED) : P(LOCK, NA);
	if (pct(o->blocked))
		src |= rnd_below(2) ? P(BLK, DATA) : P(BLK, ADDR);
	return src;
}

static u64 load_src(const struct opts *o, int mix)
{
	u64 s;

	switch (mix) {
	case MIX_SNB:
		s = intel_snb[rnd_below(16)];
		break;
	case MIX_SKL: {
		unsigned dse = (unsigned)rnd_below(16), i;

		s = intel_snb[dse];
		for (i = 0; i < 5; i++)
			if (intel_skl_over[i][0] == dse)
				s = intel_skl_over[i][1];
		break;
	}
	case MIX_ZEN2:
		s = amd_zen2[rnd_below(sizeof(amd_zen2) / sizeof(amd_zen2[0]))];
		break;
	case MIX_ZEN4:
		s = amd_zen4[rnd_below(sizeof(amd_zen4) / sizeof(amd_zen4[0]))];
		break;
	case MIX_ARM:
		s = arm_neoverse[rnd_below(sizeof(arm_neoverse) / sizeof(arm_neoverse[0]))];
		break;
	default:
		/* Random bit patterns: mostly within the 6.1 fields (bits 0-45). */
		s = rnd_below(4) ? rnd() & ((1ULL << 46) - 1) : rnd();
		if (rnd_below(2))
			s = (s & ~0x1fULL) | P(OP, LOAD);
		return s;
	}
	return lock_blk(o, s | tlb_bits());
}

static u64 store_src(const struct opts *o, int mix)
{
	u64 s;

	switch (mix) {
	case MIX_ARM:
		s = P(OP, STORE) | P(LVL, NA) | LN(NA) | P(SNOOP, NA);
		break;
	case MIX_RANDOM:
		return (rnd() & ((1ULL << 46) - 1) & ~0x1fULL) | P(OP, STORE);
	case MIX_ZEN2:
	case MIX_ZEN4:
		s = P(OP, STORE) | P(SNOOP, NA) | (rnd_below(4) ?
			P(LVL, HIT) | P(LVL, L1) | LN(L1) : P(LVL, MISS) | P(LVL, L1) | LN(L1));
		break;
	default:
		/* precise_store_data: L1 hit or miss */
		s = P(OP, STORE) | P(SNOOP, NA) | P(LVL, L1) |
		    (rnd_below(4) ? P(LVL, HIT) : P(LVL, MISS));
		if (!rnd_below(10))
			s = P(OP, STORE) | P(LVL, NA) | P(SNOOP, NA);
		break;
	}
	return lock_blk(o, s | tlb_bits());
}

static u64 weight_of(u64 src)
{
	u64 lvl = (src >> PERF_MEM_LVL_SHIFT) & 0x3fff;
	u64 snoop = (src >> PERF_MEM_SNOOP_SHIFT) & 0x1f;
	u64 base;

	if (snoop & PERF_MEM_SNOOP_HITM)
		base = 180;
	else if (lvl & (PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2))
		base = 320;
	else if (lvl & PERF_MEM_LVL_LOC_RAM)
		base = 220;
	else if (lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2))
		base = 150;
	else if (lvl & PERF_MEM_LVL_L3)
		base = 60;
	else if (lvl & PERF_MEM_LVL_L2)
		base = 40;
	else
		base = 30;
	return base + rnd_below(base);
}

/* ------------------------------------------------------ code addresses */

/* Functions whose addresses become sample IPs (real symbols of this ELF). */
static void *const code_points[] = {
	(void *)rnd, (void *)rnd_below, (void *)pct, (void *)tlb_bits,
	(void *)lock_blk, (void *)load_src, (void *)store_src, (void *)weight_of,
};

struct code_map {
	char	path[PATH_MAX];
	u64	start, len, pgoff;	/* rebased to CODE_BASE */
	u64	ip[sizeof(code_points) / sizeof(code_points[0])];
	bool	ok;
};

/* The executable mapping of this binary, from /proc/self/maps. */
static void find_code_map(struct code_map *cm)
{
	char line[PATH_MAX + 128];
	u64 base = 0;
	bool have_base = false;
	ssize_t n;
	FILE *f;
	size_t i;

	memset(cm, 0, sizeof(*cm));
	n = readlink("/proc/self/exe", cm->path, sizeof(cm->path) - 1);
	if (n <= 0)
		return;
	cm->path[n] = 0;
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perm[8], path[PATH_MAX];

		path[0] = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perm, &off, path) < 4)
			continue;
		if (strcmp(path, cm->path))
			continue;
		if (!have_base) {
			base = s - off;
			have_base = true;
		}
		if (perm[2] == 'x') {
			cm->start = CODE_BASE + (s - base);
			cm->len = e - s;
			cm->pgoff = off;
			cm->ok = true;
			for (i = 0; i < sizeof(code_points) / sizeof(code_points[0]); i++)
				cm->ip[i] = CODE_BASE + ((u64)(unsigned long)code_points[i] - base);
			break;
		}
	}
	fclose(f);
}

/* ------------------------------------------------------------- header */

struct topo {
	struct hm_header	h;
	char			*pkg[64];
	char			**core;
	struct hm_cpu_topo	*cpu;
	struct hm_numa_node	*numa;
	struct hm_mem_node	*mem;
	u64			*bits;
	struct hm_cache_level	caches[4];
	char			*argv_copy[64];
	void			*meta;
};

static char *cpulist(unsigned a, unsigned b)	/* [a, b) */
{
	char *s = NULL;

	if (b - a == 1) {
		if (asprintf(&s, "%u", a) < 0)
			s = NULL;
	} else if (asprintf(&s, "%u-%u", a, b - 1) < 0) {
		s = NULL;
	}
	return s;
}

static unsigned node_first_cpu(const struct opts *o, unsigned n)
{
	return (unsigned)((u64)n * o->cpus / o->nodes);
}

static int build_header(const struct opts *o, int argc, char **argv, struct topo *t)
{
	struct hm_header *h = &t->h;
	unsigned n, c, nbits = o->nodes * (unsigned)(NODE_MEM / MEM_BLOCK);
	unsigned words = (nbits + 63) / 64;
	struct hm_meta *m;
	u64 size;
	int i, err;

	memset(t, 0, sizeof(*t));
	h->hostname = "hm-gen";
	h->osrelease = "6.1.0-hm-gen";
	h->version = "6.1.0 (hm-gen)";
	h->arch = "x86_64";
	switch (o->mix) {
	case MIX_ZEN2:
		h->cpudesc = "AMD EPYC 7742 64-Core Processor (hm-gen)";
		h->cpuid = "AuthenticAMD,23,49,0";
		break;
	case MIX_ZEN4:
		h->cpudesc = "AMD EPYC 9654 96-Core Processor (hm-gen)";
		h->cpuid = "AuthenticAMD,25,17,1";
		break;
	case MIX_ARM:
		h->cpudesc = "Neoverse-N1 (hm-gen)";
		h->cpuid = "0x00000000413fd0c1";
		break;
	case MIX_SNB:
		h->cpudesc = "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz (hm-gen)";
		h->cpuid = "GenuineIntel,6,45,7";
		break;
	default:
		h->cpudesc = "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz (hm-gen)";
		h->cpuid = "GenuineIntel,6,85,4";
		break;
	}
	h->nr_cpus_avail = h->nr_cpus_online = o->cpus;
	h->total_mem_kb = o->nodes * (NODE_MEM >> 10);
	h->cmdline_argc = (u32)(argc < 64 ? argc : 64);
	for (i = 0; i < (int)h->cmdline_argc; i++)
		t->argv_copy[i] = argv[i];
	h->cmdline_argv = t->argv_copy;

	/* One socket and one die per node; one thread per core. */
	t->core = calloc(o->cpus, sizeof(*t->core));
	t->cpu = calloc(o->cpus, sizeof(*t->cpu));
	t->numa = calloc(o->nodes, sizeof(*t->numa));
	t->mem = calloc(o->nodes, sizeof(*t->mem));
	t->bits = calloc((size_t)o->nodes * words, sizeof(u64));
	if (!t->core || !t->cpu || !t->numa || !t->mem || !t->bits)
		return -ENOMEM;
	for (n = 0; n < o->nodes; n++) {
		unsigned a = node_first_cpu(o, n), b = node_first_cpu(o, n + 1);

		t->pkg[n] = cpulist(a, b);
		if (!t->pkg[n])
			return -ENOMEM;
		for (c = a; c < b; c++) {
			t->core[c] = cpulist(c, c + 1);
			if (!t->core[c])
				return -ENOMEM;
			t->cpu[c].core_id = (int)(c - a);
			t->cpu[c].socket_id = (int)n;
			t->cpu[c].die_id = 0;
		}
		t->numa[n].node = n;
		t->numa[n].mem_total_kb = NODE_MEM >> 10;
		t->numa[n].mem_free_kb = NODE_MEM >> 11;
		t->numa[n].cpus = t->pkg[n];
		t->mem[n].node = n;
		t->mem[n].nbits = nbits;
		t->mem[n].bitmap = t->bits + (size_t)n * words;
		for (c = 0; c < NODE_MEM / MEM_BLOCK; c++) {
			unsigned bit = n * (unsigned)(NODE_MEM / MEM_BLOCK) + c;

			t->mem[n].bitmap[bit / 64] |= 1ULL << (bit % 64);
		}
	}
	h->nr_package_cpus = o->nodes;
	h->package_cpus = t->pkg;
	h->nr_core_cpus = o->cpus;
	h->core_cpus = t->core;
	h->nr_die_cpus = o->nodes;
	h->die_cpus = t->pkg;
	h->cpu = t->cpu;
	h->nr_numa_nodes = o->nodes;
	h->numa = t->numa;
	h->mem_block_size = MEM_BLOCK;
	h->nr_mem_nodes = o->nodes;
	h->mem = t->mem;

	t->caches[0] = (struct hm_cache_level){ 1, 64, 64, 8, "Data", "32K", NULL };
	t->caches[1] = (struct hm_cache_level){ 1, 64, 64, 8, "Instruction", "32K", NULL };
	t->caches[2] = (struct hm_cache_level){ 2, 64, 1024, 16, "Unified", "1024K", NULL };
	t->caches[3] = (struct hm_cache_level){ 3, 64, 32768, 11, "Unified", "22528K", t->pkg[0] };
	for (i = 0; i < 3; i++)
		t->caches[i].map = t->core[0];
	h->nr_caches = 4;
	h->caches = t->caches;

	/*
	 * hitmap's own section, so tests see perf skip it.  (--no-meta: perf
	 * 6.1 inject crashes on feature bits >= 32, so leave it out there.)
	 */
	if (!o->meta)
		return 0;
	m = hm_meta__new();
	if (!m)
		return -ENOMEM;
	err = hm_meta__add(m, HM_META_RECORD_MODE, "simulate", 9);
	if (!err)
		err = hm_meta__serialize(m, &t->meta, &size);
	hm_meta__delete(m);
	if (err)
		return err;
	h->hitmap_meta = t->meta;
	h->hitmap_meta_size = size;
	return 0;
}

static void release_topo(struct topo *t, const struct opts *o)
{
	unsigned i;

	for (i = 0; i < 64; i++)
		free(t->pkg[i]);
	if (t->core)
		for (i = 0; i < o->cpus; i++)
			free(t->core[i]);
	free(t->core);
	free(t->cpu);
	free(t->numa);
	free(t->mem);
	free(t->bits);
	free(t->meta);
}

/* ------------------------------------------------------------- --drain */

/*
 * perf record drains each CPU's ring buffer in turn and writes a
 * FINISHED_ROUND after each pass over them: a round's records come CPU by
 * CPU, each CPU's in time order, and a CPU drained late in one pass holds
 * records older than the last of the pass before.  Here sample i of CPU c
 * belongs to round (i + lag(c)) / R, lag(c) = c * R / (2 * cpus): the
 * round now being filled or the next.
 */
struct drain_ent {
	struct hm_sample	s;
	unsigned		e;
};

struct drain {
	struct drain_ent	*buf[2], *tmp;
	size_t			n[2], cap;
	size_t			*count;
	unsigned long		round;
	unsigned		cpus, cur;
};

static int drain_init(struct drain *d, const struct opts *o)
{
	d->round = o->round ? o->round : o->samples + 1;
	d->cpus = o->cpus;
	d->cap = d->round * 2 + 1;
	if (o->samples + 1 < d->cap)
		d->cap = o->samples + 1;
	d->buf[0] = calloc(d->cap, sizeof(struct drain_ent));
	d->buf[1] = calloc(d->cap, sizeof(struct drain_ent));
	d->tmp = calloc(d->cap, sizeof(struct drain_ent));
	d->count = calloc(o->cpus + 1, sizeof(size_t));
	return d->buf[0] && d->buf[1] && d->tmp && d->count ? 0 : -ENOMEM;
}

static void drain_free(struct drain *d)
{
	free(d->buf[0]);
	free(d->buf[1]);
	free(d->tmp);
	free(d->count);
}

/* One round, CPU by CPU (a stable counting sort), then its FINISHED_ROUND. */
static int drain_flush(struct drain *d, struct hm_writer *w, unsigned b)
{
	size_t n = d->n[b];
	int err;

	memset(d->count, 0, (d->cpus + 1) * sizeof(size_t));
	for (size_t i = 0; i < n; i++)
		d->count[d->buf[b][i].s.cpu + 1]++;
	for (unsigned c = 0; c < d->cpus; c++)
		d->count[c + 1] += d->count[c];
	for (size_t i = 0; i < n; i++)
		d->tmp[d->count[d->buf[b][i].s.cpu]++] = d->buf[b][i];
	for (size_t i = 0; i < n; i++) {
		err = hm_writer__write_sample(w, (int)d->tmp[i].e, &d->tmp[i].s);
		if (err)
			return err;
	}
	d->n[b] = 0;
	return n ? hm_writer__write_finished_round(w) : 0;
}

static int drain_add(struct drain *d, struct hm_writer *w, const struct hm_sample *s,
		     unsigned e, unsigned long i)
{
	unsigned long lag = (unsigned long)((u64)s->cpu * d->round / (2 * d->cpus));
	unsigned b = (i + lag) / d->round > i / d->round ? !d->cur : d->cur;

	if (d->n[b] == d->cap)
		return -EOVERFLOW;
	d->buf[b][d->n[b]].s = *s;
	d->buf[b][d->n[b]++].e = e;
	if ((i + 1) % d->round)
		return 0;
	/* every later sample belongs to a later round */
	d->cur = !d->cur;
	return drain_flush(d, w, !d->cur);
}

static int drain_end(struct drain *d, struct hm_writer *w)
{
	int err = drain_flush(d, w, d->cur);

	return err ? err : drain_flush(d, w, !d->cur);
}

/* ------------------------------------------------------------- main */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hm-gen -o FILE [-n SAMPLES (10000)] [-l DISTINCT_LINES (1000)]\n"
		"              [--nodes N (2)] [--cpus N (8)] [--seed S (1)]\n"
		"              [--mix intel-snb|intel-skl|amd-zen2|amd-zen4|arm|random|all (all)]\n"
		"              [--stores PCT (20)] [--noaddr PCT (1)] [--locked PCT (3)]\n"
		"              [--blocked PCT (3)] [--phys|--no-phys] [--mmap|--no-mmap]\n"
		"              [--no-meta] [--swap] [--round N (4096)] [--drain]\n"
		"Writes a synthetic perf c2c-like memory-sample perf.data file.\n"
		"--round N: a FINISHED_ROUND every N samples (0: one at the end).\n"
		"--drain: each round written CPU by CPU, as perf drains its per-CPU\n"
		"rings, with CPU c's rounds ending c/(2*cpus) of a round late: the\n"
		"records of a round are out of time order and overlap the next.\n");
}

static int parse_ul(const char *opt, const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || !*s || *end || *v > max || s[0] == '-') {
		fprintf(stderr, "hm-gen: %s: bad value '%s'; expected a number up to %lu\n",
			opt, s, max);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_NODES = 256, O_CPUS, O_SEED, O_MIX, O_STORES, O_NOADDR, O_LOCKED,
	       O_BLOCKED, O_PHYS, O_NOPHYS, O_MMAP, O_NOMMAP, O_NOMETA, O_SWAP, O_ROUND,
	       O_DRAIN };
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "samples", required_argument, NULL, 'n' },
		{ "lines", required_argument, NULL, 'l' },
		{ "nodes", required_argument, NULL, O_NODES },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "seed", required_argument, NULL, O_SEED },
		{ "mix", required_argument, NULL, O_MIX },
		{ "stores", required_argument, NULL, O_STORES },
		{ "noaddr", required_argument, NULL, O_NOADDR },
		{ "locked", required_argument, NULL, O_LOCKED },
		{ "blocked", required_argument, NULL, O_BLOCKED },
		{ "phys", no_argument, NULL, O_PHYS },
		{ "no-phys", no_argument, NULL, O_NOPHYS },
		{ "mmap", no_argument, NULL, O_MMAP },
		{ "no-mmap", no_argument, NULL, O_NOMMAP },
		{ "no-meta", no_argument, NULL, O_NOMETA },
		{ "swap", no_argument, NULL, O_SWAP },
		{ "round", required_argument, NULL, O_ROUND },
		{ "drain", no_argument, NULL, O_DRAIN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int c, i;

	*o = (struct opts){
		.samples = 10000, .lines = 1000, .nodes = 2, .cpus = 8, .seed = 1,
		.mix = MIX_ALL, .stores = 20, .noaddr = 1, .locked = 3, .blocked = 3,
		.phys = true, .mmap = true, .meta = true, .round = ROUND_EVERY,
	};
	while ((c = getopt_long(argc, argv, "o:n:l:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o': o->out = optarg; break;
		case 'n':
			if (parse_ul("-n", optarg, 1UL << 32, &o->samples))
				return -1;
			break;
		case 'l':
			if (parse_ul("-l", optarg, 1UL << 26, &v) || !v) {
				if (!v)
					fprintf(stderr, "hm-gen: -l: need at least 1 line\n");
				return -1;
			}
			o->lines = v;
			break;
		case O_NODES:
			if (parse_ul("--nodes", optarg, 64, &v) || !v) {
				if (!v)
					fprintf(stderr, "hm-gen: --nodes: need 1 to 64\n");
				return -1;
			}
			o->nodes = (unsigned)v;
			break;
		case O_CPUS:
			if (parse_ul("--cpus", optarg, 4096, &v) || !v) {
				if (!v)
					fprintf(stderr, "hm-gen: --cpus: need 1 to 4096\n");
				return -1;
			}
			o->cpus = (unsigned)v;
			break;
		case O_SEED:
			if (parse_ul("--seed", optarg, ULONG_MAX, &o->seed))
				return -1;
			break;
		case O_MIX:
			for (i = 0; i <= MIX_ALL; i++)
				if (!strcmp(optarg, mix_names[i]))
					break;
			if (i > MIX_ALL) {
				fprintf(stderr, "hm-gen: --mix: unknown '%s'; use intel-snb, intel-skl, amd-zen2, amd-zen4, arm, random or all\n",
					optarg);
				return -1;
			}
			o->mix = i;
			break;
		case O_STORES: case O_NOADDR: case O_LOCKED: case O_BLOCKED: {
			static const char *const nm[] = { "--stores", "--noaddr", "--locked", "--blocked" };
			unsigned *dst[] = { &o->stores, &o->noaddr, &o->locked, &o->blocked };

			if (parse_ul(nm[c - O_STORES], optarg, 100, &v))
				return -1;
			*dst[c - O_STORES] = (unsigned)v;
			break;
		}
		case O_PHYS: o->phys = true; break;
		case O_NOPHYS: o->phys = false; break;
		case O_MMAP: o->mmap = true; break;
		case O_NOMMAP: o->mmap = false; break;
		case O_NOMETA: o->meta = false; break;
		case O_SWAP: o->swap = true; break;
		case O_ROUND:
			if (parse_ul("--round", optarg, 1UL << 32, &o->round))
				return -1;
			break;
		case O_DRAIN: o->drain = true; break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hm-gen: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (!o->out) {
		fprintf(stderr, "hm-gen: no output file; pass -o FILE\n");
		return -1;
	}
	if (o->cpus < o->nodes) {
		fprintf(stderr, "hm-gen: --cpus %u is below --nodes %u; every node needs a CPU\n",
			o->cpus, o->nodes);
		return -1;
	}
	return 0;
}

static struct perf_event_attr mem_attr(u64 config, u64 config1, bool first)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.size = sizeof(a);
	a.config = config;
	a.config1 = config1;
	a.sample_freq = 4000;
	a.freq = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			PERF_SAMPLE_PHYS_ADDR;
	a.read_format = PERF_FORMAT_ID;
	a.disabled = 1;
	a.inherit = 1;
	a.precise_ip = 3;
	a.sample_id_all = 1;
	a.exclude_guest = 1;
	if (first) {
		a.mmap = 1;
		a.comm = 1;
		a.mmap_data = 1;
		a.mmap2 = 1;
		a.comm_exec = 1;
		a.task = 1;
	}
	return a;
}

static int fail(const char *path, int err)
{
	const char *why = hm_log__last_error();

	if (why && *why)
		fprintf(stderr, "hm-gen: %s\n", why);
	else
		fprintf(stderr, "hm-gen: %s: %s\n", path, strerror(-err));
	return 1;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr[2];
	struct code_map cm;
	struct hm_writer *w;
	struct topo topo;
	struct opts o;
	u64 *ids[2] = { NULL, NULL };
	struct drain dr = { 0 };
	u64 t = 1000000000ULL, data_len, hot;
	unsigned long i;
	unsigned p, j, e;
	int err = 0, ev;

	if (parse_args(argc, argv, &o))
		return 2;
	rng_state = o.seed;
	find_code_map(&cm);
	if (o.drain && drain_init(&dr, &o)) {
		fprintf(stderr, "hm-gen: %s: out of memory for --drain's rounds\n", o.out);
		return 1;
	}

	err = build_header(&o, argc, argv, &topo);
	if (err) {
		release_topo(&topo, &o);
		return fail(o.out, err);
	}
	w = hm_writer__new(o.out);
	if (!w) {
		release_topo(&topo, &o);
		return fail(o.out, -errno);
	}
	if (o.swap) {
		err = hm_writer__set_swap(w, true);
		if (err)
			goto out;
	}
	attr[0] = mem_attr(0x1cd, 30, true);
	attr[1] = mem_attr(0x82d0, 0, false);
	for (e = 0; e < 2; e++) {
		ids[e] = calloc(o.cpus, sizeof(u64));
		if (!ids[e]) {
			err = -ENOMEM;
			goto out;
		}
		for (j = 0; j < o.cpus; j++)
			ids[e][j] = ((u64)(e + 1) << 20) + j;
	}
	ev = hm_writer__add_evsel(w, &attr[0], "cpu/mem-loads,ldlat=30/P", ids[0], o.cpus);
	if (ev < 0) {
		err = ev;
		goto out;
	}
	ev = hm_writer__add_evsel(w, &attr[1], "cpu/mem-stores/P", ids[1], o.cpus);
	if (ev < 0) {
		err = ev;
		goto out;
	}
	err = hm_writer__set_header(w, &topo.h);
	if (err)
		goto out;

	data_len = ((o.lines * 64 + 4095) / 4096) * 4096;
	hot = o.lines / 10 ? o.lines / 10 : 1;
	if (o.mmap) {
		for (p = 0; p < NR_PROCS && !err; p++) {
			u32 pid = 1000 + p * 100;

			for (j = 0; j < NR_THREADS && !err; j++)
				err = hm_writer__write_comm(w, pid, pid + j, "hm-gen-work");
			if (!err && cm.ok)
				err = hm_writer__write_mmap2(w, pid, pid, cm.start, cm.len,
							     cm.pgoff, 5, 2, cm.path, PERF_RECORD_MISC_USER);
			if (!err)
				err = hm_writer__write_mmap2(w, pid, pid, DATA_BASE, data_len, 0,
							     3, 0x22, "//anon",
							     PERF_RECORD_MISC_MMAP_DATA | PERF_RECORD_MISC_USER);
		}
		if (err)
			goto out;
	}

	for (i = 0; i < o.samples; i++) {
		struct hm_sample s;
		bool store = pct(o.stores);
		int mix = o.mix == MIX_ALL ? (int)rnd_below(MIX_NR) : o.mix;
		u64 line = rnd_below(2) ? rnd_below(hot) : rnd_below(o.lines);
		unsigned node = (unsigned)(line % o.nodes);
		u32 pid = 1000 + (u32)rnd_below(NR_PROCS) * 100;

		memset(&s, 0, sizeof(s));
		s.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP;
		s.cpu = (u32)rnd_below(o.cpus);
		s.pid = pid;
		s.tid = pid + (u32)rnd_below(NR_THREADS);
		t += 500 + rnd_below(1000);
		s.time = t;
		s.ip = cm.ok ? cm.ip[rnd_below(sizeof(cm.ip) / sizeof(cm.ip[0]))] + 4 * rnd_below(8)
			     : CODE_BASE + 0x1000 + 16 * rnd_below(64);
		s.addr = DATA_BASE + line * 64 + 8 * rnd_below(8);
		s.period = 1000 + rnd_below(1000);
		s.data_src = store ? store_src(&o, mix) : load_src(&o, mix);
		s.weight = store ? 0 : weight_of(s.data_src);
		if (pct(o.noaddr))
			s.addr = 0;
		if (o.phys && s.addr)
			s.phys_addr = (u64)node * NODE_MEM +
				      ((line * 64) & (NODE_MEM - 1)) + (s.addr & 63);
		e = store ? 1 : 0;
		s.id = ids[e][s.cpu];
		if (o.drain) {
			err = drain_add(&dr, w, &s, e, i);
			if (err)
				goto out;
			continue;
		}
		err = hm_writer__write_sample(w, (int)e, &s);
		if (err)
			goto out;
		if (o.round && (i + 1) % o.round == 0) {
			err = hm_writer__write_finished_round(w);
			if (err)
				goto out;
		}
	}
	if (o.drain && (err = drain_end(&dr, w)))
		goto out;
	err = hm_writer__write_finished_round(w);
	if (!err)
		err = hm_writer__close(w);
out:
	if (err)
		fail(o.out, err);
	hm_writer__delete(w);
	free(ids[0]);
	free(ids[1]);
	drain_free(&dr);
	release_topo(&topo, &o);
	return err ? 1 : 0;
}
