/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_SIM_PRIV_H
#define HITMAP_SIM_PRIV_H

/*
 * hitmap simulate: a multi-socket cache-coherence model that runs the futex
 * hash workload through the kernel's memory accesses per futex operation and
 * writes a perf.data plus a ground-truth JSON.
 *
 *   machine.c    sockets, cores, SMT, LLC domains, latency table, presets
 *   coherence.c  per-line directory (open addressing) + private L1/L2 slots
 *                (coherence.h: its types and the inline L1-hit fast path)
 *   kpath.c      the modelled kernels and their accesses per futex operation
 *   setup.c      options, machine, kernel model, what-if layouts, placement
 *   layout.c     where every object lives; the futexes' buckets
 *   workload.c   the run loop, the bucket lock's queued spinlock, sampling
 *   sample.c     sampling (ldlat, period) and the vendor's data_src encoding
 *   truth.c      ground truth: counts per line, bucket, field, socket, category
 *
 * Assumptions and their sources: man/hitmap-simulate.1.
 */
#include <stdbool.h>
#include <stdio.h>
#include <hitmap/perf_data.h>
#include <hitmap/mem.h>
#include <hitmap/futex.h>
#include <hitmap/meta.h>

/* ------------------------------------------------------------ machine */

enum hm_sim_proto { HM_PROTO_MESIF, HM_PROTO_MOESI, HM_PROTO_MESI };

/* How the machine's PMU and kernel (or perf, for SPE) encode data_src. */
enum hm_sim_pmu {
	HM_PMU_INTEL_SKL,	/* Skylake-SP: pebs_data_source + skl overrides, stores precise_datala_hsw */
	HM_PMU_INTEL_CMT,	/* Crestmont (Sierra Forest): cmt table via __grt_latency_data */
	HM_PMU_AMD_ZEN4,	/* IBS op, g_zen4_data_src */
	HM_PMU_ARM_SPE,		/* perf's arm_spe__synth_data_source_common (Neoverse) */
};

/* True source of the data of a load (or of the load part of an RMW). */
#define HM_SRCS(X) \
	X(L1,          "l1")          \
	X(LFB,         "lfb")         \
	X(L2,          "l2")          \
	X(LLC,         "llc")         \
	X(HITM_LOCAL,  "hitm_local")  /* modified in another core of the same LLC */ \
	X(HITM_XDIE,   "hitm_xdie")   /* modified in another LLC (CCX) of the same socket */ \
	X(HITM_REMOTE, "hitm_remote") /* modified in a core of another socket */ \
	X(HIT_XDIE,    "hit_xdie")    /* clean/owned copy forwarded from another LLC, same socket */ \
	X(HIT_REMOTE,  "hit_remote")  /* clean/owned copy forwarded from another socket */ \
	X(DRAM_LOCAL,  "dram_local")  \
	X(DRAM_REMOTE, "dram_remote")

enum hm_src {
#define HM_SRC_ENUM(e, s) HM_SRC_##e,
	HM_SRCS(HM_SRC_ENUM)
#undef HM_SRC_ENUM
	HM_SRC__MAX
};
const char *hm_src__name(enum hm_src s);

/* Latency table: one entry per source, plus the fixed costs. */
enum hm_lat {
	HM_LAT_SYSCALL = HM_SRC__MAX,	/* non-memory work of one futex syscall */
	HM_LAT_STORE,			/* a store that hits an owned line */
	HM_LAT_SPIN,			/* one spin iteration (pause) */
	HM_LAT_OCCUPANCY,		/* percent of a transfer's latency the line stays busy */
	HM_LAT__MAX
};

struct hm_machine {
	char		name[32];
	char		desc[192];
	enum hm_vendor	vendor;
	enum hm_sim_proto proto;
	enum hm_sim_pmu	pmu;
	u32		sockets, cores, smt, llcs;	/* cores and LLC domains per socket */
	u32		nr_cpus, nr_cores, nr_llcs;
	u32		l1_lines, l2_lines;		/* per core, direct-mapped, powers of two */
	double		ghz;
	u32		lat[HM_LAT__MAX];		/* cycles */
	const char	*lat_source[HM_LAT__MAX];
	u64		node_mem;			/* bytes of memory per node */
	bool		read_migrates;			/* what-if: a load of a line modified elsewhere takes it (M), the owner invalidates */
	char		cpuid[64], cpudesc[96], arch[16];
	u32		pmu_type;			/* attr.type of the memory PMU */
	u32		host_op;			/* --preset host: the benchmark's futex op measured, cycles (0: not measured) */
	/* derived by hm_machine__finish */
	u32		*cpu_core, *cpu_socket, *cpu_llc;	/* per CPU */
	u32		*core_llc, *core_socket;		/* per core */
};

/* Fill @m with preset @name ("srf", "skx", "zen4", "n1", "1s-srf"...); -EINVAL when unknown. */
int  hm_machine__preset(struct hm_machine *m, const char *name);
/*
 * "host" (host.c): hm_host__probe reads this machine's topology and vendor
 * (-errno with the reason in the log); hm_machine__preset fills @m with
 * the vendor's preset @h->base and hm_machine__host reshapes it to this
 * machine (LLC domains from sysfs, the futex operation timed into
 * @m->host_op); once the kernel's template is known, hm_sim__new calls
 * hm_machine__host_calibrate, which sets the syscall latency to that time
 * less the template's one-thread memory cost (unless --latency pinned it).
 */
struct hm_host {
	const char	*base;				/* the vendor's preset: "skx", "zen4", "altra" */
	int		nr_pkgs, nr_cores, nr_cpus;	/* online: packages, physical cores, CPUs */
	double		mhz;				/* /proc/cpuinfo's first "cpu MHz", 0 when none */
	int		xfer_cpu[2];			/* two CPUs of one package, different cores; -1: none */
};
int  hm_host__probe(struct hm_host *h);
void hm_machine__host(struct hm_machine *m, const struct hm_host *h);
/* Names of the presets, NULL-terminated. */
extern const char *const hm_machine_presets[];
const char *hm_machine__preset_desc(const char *name);
/* "NAME=CYCLES": override a latency; -EINVAL with the reason in the log. */
int  hm_machine__set_latency(struct hm_machine *m, const char *spec);
/* Reshape (0 keeps the preset's value), then validate and compute the maps. */
int  hm_machine__finish(struct hm_machine *m, u32 sockets, u32 cores, u32 smt);
void hm_machine__release(struct hm_machine *m);
const char *hm_lat__name(int i);
/* CPU number of thread @t (SMT sibling index) of core @core (global). */
static inline u32 hm_machine__cpu(const struct hm_machine *m, u32 core, u32 t)
{
	return t * m->nr_cores + core;
}

/* ---------------------------------------------------------- coherence */

enum hm_acc { HM_ACC_LOAD, HM_ACC_STORE, HM_ACC_RMW };

/* The directory and private caches: coherence.h. */
struct hm_coh;
struct hm_coh_result;

/* ------------------------------------------------------------ truth */

/* What one access touched, for the ground truth. */
enum hm_obj {
	HM_OBJ_BUCKET, HM_OBJ_FPH, HM_OBJ_MM, HM_OBJ_PCPU, HM_OBJ_UWORD, HM_OBJ_PAGE,
	HM_OBJ_GLOBAL,
	HM_OBJ_FOLIO,	/* the folio's head struct page (refcount, mapping); PAGE for a 4 KiB page */
	HM_OBJ_PT,	/* the page-table entry GUP-fast reads (PTE, or PMD of a THP) */
	HM_OBJ_QNODE,	/* a CPU's qspinlock MCS node (per-CPU qnodes[0]); step.line: that CPU */
	HM_OBJ__MAX
};
const char *hm_obj__name(enum hm_obj o);

struct hm_truth;
struct hm_sim;

#define HM_SIM_MAX_STEPS 32

/* Population: every simulated access, by true source (loads and RMW load parts). */
struct hm_pop {
	u64	load[HM_SRC__MAX];
	/* per template step; [HM_SIM_MAX_STEPS]: the lock slowpath's spins */
	u64	step[HM_SIM_MAX_STEPS + 1][HM_SRC__MAX];
	u64	obj[HM_OBJ__MAX][HM_SRC__MAX];
	u64	field[HM_FUTEX_FIELD__MAX + 1][HM_SRC__MAX];	/* [MAX]: not a bucket */
	u64	store, rmw;
};

static inline void hm_pop__count(struct hm_pop *p, u8 src, u8 acc, u8 obj, u8 field, u32 step,
				 bool steps)
{
	if (acc == 1 /* HM_ACC_STORE */) {
		p->store++;
		return;
	}
	p->rmw += acc == 2;
	if (steps)
		p->step[step][src]++;
	p->load[src]++;
	p->obj[obj][src]++;
	p->field[field][src]++;
}

/* hm_pop__count @n times. */
static inline void hm_pop__add(struct hm_pop *p, u8 src, u8 acc, u8 obj, u8 field, u32 step,
			       bool steps, u64 n)
{
	if (acc == 1 /* HM_ACC_STORE */) {
		p->store += n;
		return;
	}
	if (acc == 2)
		p->rmw += n;
	if (steps)
		p->step[step][src] += n;
	p->load[src] += n;
	p->obj[obj][src] += n;
	p->field[field][src] += n;
}

struct hm_truth *hm_truth__new(const struct hm_sim *s);
/*
 * Sample counts: perf c2c's counters (from the data_src written, decoded as
 * perf does) and hitmap's precise categories, for object @obj (-1: all).
 */
void hm_truth__counts(const struct hm_truth *t, int obj, struct hm_c2c_stats *c2c,
		      u32 cat[HM_CAT__MAX]);
void hm_truth__delete(struct hm_truth *t);
/* Population counts: loads (and RMW load parts) by object/field and source. */
u64  hm_truth__pop(const struct hm_truth *t, int obj, int field, enum hm_src src);
u64  hm_truth__samples(const struct hm_truth *t);
/* Count one sample: its precise category, line, futex location, CPU socket. */
void hm_truth__sample(struct hm_truth *t, const struct hm_sample *s, enum hm_mem_cat cat,
		      u64 data_src, bool mapped, int socket, u32 line, enum hm_obj obj,
		      s32 table, u64 index, enum hm_futex_field field);
int  hm_truth__write_json(const struct hm_truth *t, FILE *f);

/* ------------------------------------------------------------ sampler */

struct hm_sampler;

struct hm_sample_in {
	u32	cpu, tid;
	u64	time;		/* ns */
	u64	ip;
	u64	addr, phys;
	enum hm_acc acc;
	bool	store_part;	/* the store half of an RMW, or a store */
	const struct hm_coh_result *r;
	bool	locked;
	bool	kernel;		/* ip in the kernel */
};

/* The file: header, events, records; owns the writer. */
struct hm_sampler *hm_sampler__new(struct hm_sim *s, const char *path);
void hm_sampler__delete(struct hm_sampler *sp);
/*
 * Write the sample of an access whose counter overflowed (the caller counts:
 * see sample_due() in workload.c).  Returns 1 when a sample was written (then
 * *data_src, *cat are set), 0 when the PMU drops it, or a negative errno.
 */
int  hm_sampler__write(struct hm_sampler *sp, const struct hm_sample_in *in,
		       u64 *data_src, enum hm_mem_cat *cat);
int  hm_sampler__close(struct hm_sampler *sp);
/* data_src exactly as @pmu encodes an access with source @src (exposed for tests). */
u64  hm_sim__data_src(enum hm_sim_pmu pmu, enum hm_acc a, bool store_part, u8 src,
		      bool l1_hit, bool locked);
/* The precise category a faithful decoder assigns to that encoding. */
enum hm_mem_cat hm_sim__category(enum hm_sim_pmu pmu, bool store_part, u8 src, bool l1_hit);

/* ------------------------------------------------------------ kernels */

enum hm_sim_ref { HM_SIM_REF_NONE, HM_SIM_REF_RCUREF, HM_SIM_REF_PERCPU };

/* One modelled kernel: the code paths of its futex hash (kpath.c). */
struct hm_sim_kernel {
	const char	*name;		/* --kernel NAME */
	const char	*release;	/* utsname release written to the file */
	const char	*what;
	enum hm_futex_era era;		/* bucket/fph/mm layouts */
	bool		private_hash;	/* CONFIG_FUTEX_PRIVATE_HASH compiled in */
	bool		priv_loads;	/* futex_hash/futex_hash_put read hb->priv */
	enum hm_sim_ref	ref;		/* private hash reference counting */
	bool		unlock_first;	/* futex_q_unlock: unlock, then waiters dec (6.12) */
	bool		per_node;	/* one global table per node */
	bool		runtime_const;	/* hash mask/shift/queues as runtime constants */
	bool		mm_seq;		/* MMSHARED keys: mm->futex.unique_id */
};
extern const struct hm_sim_kernel hm_sim_kernels[];
extern const u32 hm_sim_nr_kernels;
/* NULL when @name is not a modelled kernel. */
const struct hm_sim_kernel *hm_sim_kernel__find(const char *name);
/* "6.12, 6.16-rc4, ..." */
void hm_sim_kernel__names(char *buf, size_t n);
s32 hm_sim__mm_unique_id(const struct hm_sim_kernel *k);
/* The mm's futex fields of kernel @k (offsets and sizes from mmlines.c; -1: absent). */
void hm_sim__mm_layout(const struct hm_sim_kernel *k, struct hm_futex_mm_layout *l);
#define HM_SIM_MM_PGD	120	/* offsetof(struct mm_struct, pgd), 6.18.44 BTF; assumed for all */

/* mmlines.c: a field of mm_struct or futex_private_hash and its writer during the benchmark. */
struct hm_sim_mmfield {
	const char	*name;
	u32		off, size;
	const char	*writer;	/* NULL: nobody writes it after setup */
};
#define HM_SIM_MM_FIELDS_MAX	48
/* The mm_struct fields of kernel @k up to the end of its futex block's lines; returns the count. */
u32  hm_sim__mm_fields(const struct hm_sim_kernel *k, struct hm_sim_mmfield *f, u32 cap);
/* Offset of mm_struct field @name in kernel @k, -1 when it has none. */
s32  hm_sim__mm_field_off(const struct hm_sim_kernel *k, const char *name);
/* The futex_private_hash header fields (the line before queues[]); 0 without a private hash. */
u32  hm_sim__fph_fields(const struct hm_sim_kernel *k, struct hm_sim_mmfield *f, u32 cap);
/* "a b c": the names of the fields of @f that share the 64-byte line of offset @off. */
void hm_sim__line_fields(const struct hm_sim_mmfield *f, u32 n, u32 off, char *buf, size_t len);

enum hm_sim_ksym {
	HM_K_DO_FUTEX, HM_K_FUTEX_WAIT, HM_K___FUTEX_WAIT, HM_K_FUTEX_WAIT_SETUP, HM_K_GET_FUTEX_KEY,
	HM_K_FUTEX_HASH, HM_K___FUTEX_HASH, HM_K_FUTEX_PRIVATE_HASH_GET, HM_K_FUTEX_PRIVATE_HASH_PUT,
	HM_K_FUTEX_REF_GET, HM_K_FUTEX_REF_PUT, HM_K_FUTEX_HASH_PUT, HM_K_FUTEX_Q_LOCK,
	HM_K_FUTEX_Q_UNLOCK, HM_K_RAW_SPIN_LOCK, HM_K_QSPIN_SLOWPATH, HM_K_TRY_GRAB_FOLIO_FAST,
	HM_K_GUP_FAST_PTE_RANGE, HM_K_GUP_FAST_PMD_LEAF, HM_K_FUTEX_WAKE, HM_K__MAX
};
#define HM_SIM_KTEXT		0xffffffff81000000ULL
#define HM_SIM_KMAP_LEN		0x7e000000ULL		/* length of the kernel MMAP2 (sample.c) */
#define HM_SIM_KDATA_FUTEX	0xffffffff83260900ULL	/* __futex_data, as on the 6.18 build (futex.md 2.10) */
const char *hm_sim_ksym__name(int k);
u64 hm_sim_ksym__addr(int k);
const char *hm_sim_ksym__at(u64 ip);
int hm_sim__ksyms_text(char **out, size_t *out_len);
const char *hm_sim_acc__name(int a);

enum hm_sim_step_kind { HM_STEP_PLAIN, HM_STEP_LOCK, HM_STEP_UNLOCK };
enum hm_sim_op { HM_SIM_OP_WAIT, HM_SIM_OP_WAKE };

/* One memory access of the kernel's code path. */
struct hm_sim_step {
	u8		obj;		/* enum hm_obj */
	u8		acc;		/* enum hm_acc */
	u8		kind;		/* enum hm_sim_step_kind */
	u8		locked;
	u16		off;		/* in the object */
	u8		ksym;		/* enum hm_sim_ksym: the function */
	u8		field;		/* bucket field, HM_FUTEX_FIELD__MAX otherwise */
	u16		ipoff;
	u32		line;		/* singleton objects */
	const char	*what;		/* "hb->priv", "fph->users", "folio->_refcount", ... */
};

struct hm_sim_tmpl {
	struct hm_sim_step	st[HM_SIM_MAX_STEPS];
	u32			n;
};
void hm_machine__host_calibrate(struct hm_machine *m, const struct hm_sim_tmpl *tp);

/* What decides the accesses: the kernel, the layouts, the futex kind. */
struct hm_sim_tctx {
	const struct hm_sim_kernel	*k;
	const struct hm_futex_layout	*bl;
	const struct hm_futex_fph_layout *fl;
	const struct hm_futex_mm_layout	*ml;
	bool				shared;
	bool				private_hash;	/* the futexes hash into a private hash */
	bool				thp;		/* the futex words sit in a THP */
	s32				mm_unique_id;	/* offset, -1 */
};
struct hm_sim_layouts {
	struct hm_futex_layout		bl;
	struct hm_futex_fph_layout	fl;
	struct hm_futex_mm_layout	ml;
};
void hm_sim__build_template(const struct hm_sim_tctx *c, enum hm_sim_op op, struct hm_sim_tmpl *t);
/* Context of kernel @name with the era's default layouts; -EINVAL for an unknown name. */
int  hm_sim_tctx__defaults(struct hm_sim_tctx *c, struct hm_sim_layouts *l, const char *name,
			   bool shared, bool private_hash_used);

/* ------------------------------------------------------------ workload */

/*
 * The same three meanings as hitmap bench --placement: perf (thread i on CPU
 * i, perf bench's), compact (fill one socket, SMT siblings included, before
 * the next), spread (sockets in turn).
 */
enum hm_sim_placement { HM_PLACE_COMPACT, HM_PLACE_SPREAD, HM_PLACE_PERF };

struct hm_sim_opts {
	const char	*preset;
	u32		sockets, cores, smt;	/* 0: the preset's */
	const char	*kernel;		/* a name of hm_sim_kernels[] */
	u32		threads;		/* 0: one per CPU */
	u32		futexes;		/* per thread (1024) */
	bool		shared;
	bool		thp;			/* the heap of futex words is a THP */
	bool		read_migrates;		/* what-if: --read-migrates (struct hm_machine) */
	bool		slots_set;		/* --slots given (0: the global hash, like -b 0) */
	u64		slots;			/* private hash slots, 0: the kernel's default */
	u64		global_slots;		/* what-if: global table size (per node), 0: the kernel's */
	int		pad_field;		/* what-if: field on its own cache line, -1 none */
	int		drop_field;		/* what-if: field (and its accesses) removed, -1 none */
	enum hm_sim_placement placement;
	u64		ops;			/* total futex ops, 0: use seconds */
	double		seconds;		/* simulated time */
	u64		seed;
	u32		ldlat;
	bool		spe_samples;		/* Arm: SAMPLE records, not SPE AUX data */
	u32		period;
	int		nr_latency;
	const char	**latency;		/* "name=cycles" */
	const char	*output;		/* perf.data; NULL: no file (statistics only) */
	const char	*truth;			/* JSON; NULL: none */
	const char	*cmdline;		/* stored in the header */
	bool		want_truth;		/* keep the truth in memory without a file */
	bool		count_steps;		/* population per template step (--compare) */
	/* teaching: describe the first @trace accesses, one line each, to @trace_fn */
	u64		trace;
	void		(*trace_fn)(void *ctx, const char *line);
	void		*trace_ctx;
};
void hm_sim_opts__init(struct hm_sim_opts *o);

struct hm_sim_thread {
	u32	tid, cpu, core, socket;
	u64	time;		/* cycles */
	u32	step, j;	/* template step, futex index */
	u32	spins;
	u8	lk;		/* qspinlock slowpath phase (workload.c) */
	u16	qnext;		/* MCS successor (thread + 1), 0 none */
	u64	lk_since;	/* cycle its fast path failed */
	u64	ops;
	u64	arr;		/* user address of futex[0] */
};

struct hm_sim_fut {
	u32	bucket_line, uword_line;
};

/* Where each object lives. */
struct hm_sim_layout {
	u64	mm, mm_phys;
	u64	fph, fph_phys;
	u64	fph_slots;
	u64	futex_data;		/* __futex_data */
	u64	pcpu_base, pcpu_stride, pcpu_off;
	u64	heap, heap_phys;	/* user heap and its physical base (node 0) */
	u64	heap_len;
	u64	vmemmap;
	u64	pt_phys;		/* page-table pages of the heap */
	u32	nr_tables;
	u64	table_base[8], table_phys[8], table_slots;
	bool	table_vmalloc;		/* pre-6.16 hashdist: pages interleaved */
};

struct hm_sim_results {
	u64	ops, accesses, samples;
	u64	cycles_max;		/* simulated time */
	double	ops_per_sec_thread;	/* mean per thread, like perf bench */
	u64	src[HM_SRC__MAX];	/* loads by true source */
	u64	stores, rmws, spins;
	u64	contended;		/* bucket lock acquisitions that took the slowpath */
	u64	lock_wait;		/* cycles from the failed fast path to the lock taken, summed */
	double	wall_s;		/* CPU seconds of the run (process CPU time) */
};

struct hm_sim {
	struct hm_sim_opts	o;
	struct hm_machine	m;
	struct hm_futex_model	fm;
	bool			fm_init;
	struct hm_futex_kernel	kern;
	enum hm_futex_era	era;
	const struct hm_sim_kernel *kmod;
	const char		*release;
	struct hm_sim_tmpl	tp;		/* the wait template of the run */
	u32			pid;
	u32			nr_threads;
	struct hm_sim_thread	*th;
	struct hm_sim_layout	lay;
	/* per futex (thread * futexes + j) */
	struct hm_sim_fut	*fut;		/* hot: line ids */
	u64			*bucket;	/* bucket address */
	int16_t			*bucket_table;
	u64			*bucket_index;
	u32			*page_line;
	u32			*folio_line;
	u32			*pt_line;
	u32			*bucket_line2;	/* bucket_size > 64: the second line */
	/* per CPU */
	u32			*pcpu_line;
	u32			*qnode_line;	/* qnodes[0] of the CPU's qspinlock MCS nodes */
	u32			*ld_left, *st_left;	/* sampling counters */
	struct hm_coh		*coh;
	struct hm_sampler	*sp;
	struct hm_truth		*truth;
	struct hm_sim_results	res;
	struct hm_pop		pop;
	char			*ksyms;		/* HM_META_KSYMS text */
	size_t			ksyms_len;
};

/* splitmix64: the seeded streams of a run */
static inline u64 hm_sim__splitmix(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct hm_sim *hm_sim__new(const struct hm_sim_opts *o);
int  hm_sim__run(struct hm_sim *s);
void hm_sim__delete(struct hm_sim *s);

/* Kernel symbols the model uses, for the HM_META_KSYMS text and code addresses. */
u64 hm_sim__ksym(const char *name);
/* Address of the physical memory of node @node at @off (for MEM_TOPOLOGY). */
u64 hm_sim__phys(const struct hm_sim *s, u32 node, u64 off);
/* Physical address the model gives virtual address @va. */
u64 hm_sim__paddr(const struct hm_sim *s, u64 va);
/* layout.c: where objects live, and every futex's bucket and lines */
u32 hm_sim__node_of(const struct hm_sim *s, u64 phys);
int hm_sim__make_layout(struct hm_sim *s);
int hm_sim__hash_futexes(struct hm_sim *s);
/* Address of bucket @index of table @table (the global tables', then the private one); 0 if none. */
u64 hm_sim__bucket_addr(const struct hm_sim *s, s32 table, u64 index);
int hm_sim__register_tables(struct hm_sim *s);
u64 hm_sim__pt_addr(const struct hm_sim *s, u64 va);
u64 hm_sim__page_addr(const struct hm_sim *s, u64 pa, bool head);
u64 hm_sim__pcpu_addr(const struct hm_sim *s, u32 cpu);
u64 hm_sim__qnode_addr(const struct hm_sim *s, u32 cpu);
/*
 * --compare: A and B side by side in LKP's layout (perf-c2c.* and precise
 * counts), the accesses that account for the change, and why; written to @f.
 * Both runs need their truth (sample counts) and population.
 */
/* One run's LKP metrics as rates per simulated ms (ops: per-thread ops/s). */
#define HM_SIM_LKP_METRICS 6
struct hm_sim_rates {
	double	ms, ops;
	double	c2c[HM_SIM_LKP_METRICS];	/* perf c2c sample counts per ms ([0] unused) */
	double	pop[HM_SIM_LKP_METRICS];	/* every access by true source, per ms */
};
void hm_sim__rates(const struct hm_sim *s, struct hm_sim_rates *r);
/*
 * @ra/@rb: the rates of @na/@nb runs per side (other seeds), for LKP's mean
 * and %stddev; NULL/0: @a and @b alone.  The rest comes from @a and @b.
 */
void hm_sim__compare(FILE *f, const struct hm_sim *a, const struct hm_sim *b, const char *sa,
		     const char *sb, const struct hm_sim_rates *ra, u32 na,
		     const struct hm_sim_rates *rb, u32 nb);
/*
 * summary.c: what `hitmap simulate` prints after a run, to @f: text, or
 * one JSON object with @json; for --accesses (a run made, not run) the
 * kernel path of one wait and one wake and the lines of mm_struct and
 * futex_private_hash it reads; the kallsyms text of the modelled kernel
 * (HM_META_KSYMS, for --kallsyms), *@len bytes.
 */
void hm_sim__print_summary(const struct hm_sim *s, bool json, FILE *f);
void hm_sim__print_accesses(const struct hm_sim *s, FILE *f);
const char *hm_sim__ksyms(const struct hm_sim *s, size_t *len);
/* The accesses of one operation @op of this run's kernel, layout and futexes. */
void hm_sim__template(const struct hm_sim *s, enum hm_sim_op op, struct hm_sim_tmpl *t);
#define HM_SIM_PAGE_OFFSET	0xffff888000000000ULL
#define HM_SIM_VMALLOC		0xffffc90000000000ULL
#define HM_SIM_VMEMMAP		0xffffea0000000000ULL
#define HM_SIM_MEM_BLOCK	(128ULL << 20)
#define HM_SIM_QNODES_OFF	0x2d000ULL	/* qnodes in a CPU's per-CPU unit (64-byte aligned) */

#endif
