/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_FUTEX_H
#define HITMAP_FUTEX_H

/*
 * The kernel's futex hash, per kernel era: keys, jhash2, table geometry,
 * bucket layout, and resolution of a data address to table/bucket/field.
 * Facts: shared/docs/notes/futex.md.
 */
#include <hitmap/perf_data.h>
#include <hitmap/meta.h>

enum hm_futex_era {
	HM_FUTEX_ERA_PRE_6_16,	/* one global table, bucket {waiters, lock, chain} */
	HM_FUTEX_ERA_6_16,	/* per-node tables, private hash with rcuref users, bucket + priv */
	HM_FUTEX_ERA_6_17,	/* 6.17/6.18: per-CPU references, bucket + priv */
	HM_FUTEX_ERA_7,		/* 7.x: no priv */
	HM_FUTEX_ERA__MAX
};
/* From a release string ("6.18.44-..."); 6.12.115+ stable keeps its era; HM_FUTEX_ERA__MAX when not a release. */
enum hm_futex_era hm_futex_era__from_release(const char *release);
const char *hm_futex_era__name(enum hm_futex_era e);

u32 hm_jhash2(const u32 *k, u32 length, u32 initval);

/* Bucket fields. */
enum hm_futex_field {
	HM_FUTEX_FIELD_WAITERS, HM_FUTEX_FIELD_LOCK, HM_FUTEX_FIELD_CHAIN,
	HM_FUTEX_FIELD_PRIV, HM_FUTEX_FIELD_PAD, HM_FUTEX_FIELD__MAX
};
const char *hm_futex_field__name(enum hm_futex_field f);

struct hm_futex_layout {
	u32	bucket_size;				/* 64 */
	s32	offset[HM_FUTEX_FIELD__MAX];		/* -1: field absent */
	u32	size[HM_FUTEX_FIELD__MAX];
	char	source[32];				/* "model:6.16", "btf", "dwarf:PATH" */
};
int hm_futex_layout__for_era(enum hm_futex_era e, struct hm_futex_layout *l);
/* Field at byte @off of a bucket (PAD for padding). */
enum hm_futex_field hm_futex_layout__field(const struct hm_futex_layout *l, u32 off);

/* union futex_key, in the words jhash2 sees. */
struct hm_futex_key {
	u64	ptr;		/* private: mm; shared-anon: mm (or mm seq); shared-file: inode seq */
	u64	word;		/* private/shared-anon: page-aligned address; file: pgoff */
	u32	offset;		/* offset in page | FUT_OFF_* flags */
	bool	private_key;
};
/* Key of a private futex at user address @uaddr in the process whose mm is @mm. */
void hm_futex_key__private(struct hm_futex_key *k, u64 mm, u64 uaddr);

/* struct futex_private_hash and the futex fields of mm_struct, per era (BTF overrides). */
struct hm_futex_fph_layout {
	u32	queues;		/* offset of queues[] (64) */
	s32	users;		/* 6.16 rcuref users / 6.17+ state at +0 */
	s32	hash_mask;	/* +4 */
	s32	rcu;		/* +8 */
	s32	mm;		/* +24 */
	s32	custom;		/* +32 */
	s32	immutable;	/* 6.16 +33, else -1 */
};
int hm_futex_fph_layout__for_era(enum hm_futex_era e, struct hm_futex_fph_layout *l);

#define HM_FUTEX_MM_FIELDS(X) \
	X(futex_hash_lock) X(futex_phash) X(futex_phash_new) X(futex_batches) \
	X(futex_rcu) X(futex_atomic) X(futex_ref)
enum hm_futex_mm_field {
#define HM_FUTEX_MM_ENUM(n) HM_FUTEX_MM_##n,
	HM_FUTEX_MM_FIELDS(HM_FUTEX_MM_ENUM)
#undef HM_FUTEX_MM_ENUM
	HM_FUTEX_MM__MAX
};
struct hm_futex_mm_ref { s32 pid; u64 addr; };
struct hm_futex_mm_layout {
	s32	offset[HM_FUTEX_MM__MAX];	/* -1: absent or unknown */
	u32	size[HM_FUTEX_MM__MAX];
	s32	task_mm;			/* offsetof(task_struct, mm), -1 */
	s32	unique_id;			/* mm_struct.futex_unique_id (MMSHARED keys hash it), -1 */
};
/* Geometry of the tables, as known for one recording or one model run. */
struct hm_futex_table {
	u32	kind;		/* 0 global, 1 private */
	s32	node;		/* global: node index */
	s32	pid;		/* private: owner */
	u64	base;		/* address of bucket 0; 0 when unknown */
	u64	slots;
	char	provenance[64];
};

/* A range of futex-path memory other than the tables (hm_futex_model.regions). */
enum hm_futex_region_kind {
	HM_FUTEX_REGION_MM,	/* an mm_struct (fields: hm_futex_model.mm_names) */
	HM_FUTEX_REGION_WORDS,	/* user memory holding futex words */
	HM_FUTEX_REGION_PT,	/* page-table entries GUP-fast reads (name: "pte", "pmd") */
	HM_FUTEX_REGION_GLOBAL,	/* the global hash's data (name: "__futex_data", "__futex_queues") */
	HM_FUTEX_REGION_PCPU,	/* one CPU's futex reference counter (6.17+) */
	HM_FUTEX_REGION_QNODE,	/* one CPU's qspinlock MCS nodes (the bucket lock's slow path) */
	HM_FUTEX_REGION__MAX
};
struct hm_futex_region {
	u64	base, size;
	s32	pid;		/* owner; -1 */
	u32	kind;		/* enum hm_futex_region_kind */
	char	name[24];
};
/* One field of struct mm_struct as the file's kernel lays it out; name "mm.FIELD". */
struct hm_futex_mm_name {
	u32	off, size;
	char	name[40];
};

struct hm_futex_index;

struct hm_futex_model {
	enum hm_futex_era	era;
	struct hm_futex_layout	layout;
	u32			nr_nodes;	/* possible nodes (global tables) */
	u64			global_slots;	/* per node from 6.16, whole table before */
	u32			nr_tables;
	struct hm_futex_table	*tables;
	/* additions: layouts of the non-bucket futex objects, registered mms */
	struct hm_futex_fph_layout fph;
	struct hm_futex_mm_layout mm;
	bool			mm_seq;		/* MMSHARED keys hash an mm sequence number */
	bool			word_first;	/* pre-2020 key order: hm_futex_kernel.word_first */
	u32			nr_mms;
	struct hm_futex_mm_ref	*mms;
	/*
	 * What the file's metadata says about other memory of the futex path
	 * (HM_META_FUTEX_OBJECTS, written by the simulator): address ranges
	 * (mm_struct, futex words, page-table entries, __futex_data, per-CPU
	 * counters and qspinlock nodes) and every mm_struct field the kernel
	 * has there, so that each is named exactly, not guessed from code.
	 */
	u32			nr_regions;
	struct hm_futex_region	*regions;
	u32			nr_mm_names;
	struct hm_futex_mm_name	*mm_names;
	/*
	 * Possible nodes as a bit mask (nodes < 64); 0: all of 0..nr_nodes-1.
	 * With a sparse set nr_nodes is nr_node_ids (highest + 1) and the
	 * node from the hash moves to the next possible one, as the kernel's
	 * find_next_bit_wrap().
	 */
	u64			possible_nodes;
	/*
	 * How the tables were found, for the report's "tables:" line:
	 * "metadata ...", "given ...", "inferred ..." or "none: why; what to
	 * pass" (hm_futex_model__note_geometry, hm_futex_model__infer_file).
	 */
	char			geometry[384];
	/*
	 * The tables and mms for a binary search per sample
	 * (hm_futex_model__index); gen counts the changes that stale it.
	 */
	u32			gen;
	struct hm_futex_index	*index;
};

/* Global slots for @nr_cpus possible CPUs and @nr_nodes nodes in era @e. */
u64 hm_futex__global_slots(enum hm_futex_era e, u32 nr_cpus, u32 nr_nodes);
/* Default private-hash slots for @threads threads, @online CPUs (0 when single-threaded). */
u64 hm_futex__private_slots(enum hm_futex_era e, u32 threads, u32 online, u64 global_slots);

/*
 * A process's private hash over its life (notes 2.6, 2.9): created at the
 * first pthread_create with the default size, grown (never shrunk) as
 * threads appear unless set by prctl(PR_FUTEX_HASH, SET_SLOTS); SET_SLOTS 0
 * switches to the global hash for good.
 */
struct hm_futex_phash_state {
	u64	slots;		/* 0: no private hash (single-threaded, or global) */
	bool	custom;		/* set by prctl: never auto-resized */
	bool	global;		/* SET_SLOTS 0 happened: later SET_SLOTS give -EBUSY */
};
/* A thread was created: @threads now in the process, @online CPUs. */
void hm_futex_phash__on_thread(enum hm_futex_era e, bool private_hash, struct hm_futex_phash_state *st,
			       u32 threads, u32 online, u64 global_slots);
/* prctl(PR_FUTEX_HASH, SET_SLOTS, arg3, arg4): 0 or the kernel's -errno. */
int hm_futex_phash__set_slots(enum hm_futex_era e, bool private_hash, struct hm_futex_phash_state *st,
			      u64 arg3, u64 arg4);
/* prctl(PR_FUTEX_HASH, GET_SLOTS) */
u64 hm_futex_phash__get_slots(const struct hm_futex_phash_state *st);

/* Hash a key: global table node and index, or private index (slots: private hash size). */
void hm_futex__hash_global(const struct hm_futex_model *m, const struct hm_futex_key *k,
			   u32 *node, u64 *index);
u64  hm_futex__hash_private(const struct hm_futex_key *k, u64 slots);

/* Where a data address falls. */
struct hm_futex_loc {
	const struct hm_futex_table *table;	/* NULL: not in a known table */
	u64			index;
	enum hm_futex_field	field;
	u32			offset;		/* in the bucket */
};
/* 1 and @loc filled when @addr lies in a known table, 0 otherwise. */
int hm_futex_model__resolve(const struct hm_futex_model *m, u64 addr, struct hm_futex_loc *loc);

int  hm_futex_model__init(struct hm_futex_model *m, enum hm_futex_era e);
int  hm_futex_model__add_table(struct hm_futex_model *m, const struct hm_futex_table *t);
/*
 * Index the tables and mms as they are now, for the lookups of
 * hm_futex_model__resolve and __locate (which walk them without one, or
 * once the model has changed since); -ENOMEM.  Released with the model.
 */
int  hm_futex_model__index(struct hm_futex_model *m);
/* Load tables and layout from a file's hitmap metadata; 0 with no tables when absent. */
int  hm_futex_model__from_meta(struct hm_futex_model *m, const struct hm_meta *meta);
/* Store tables and layout as HM_META_FUTEX_TABLE/LAYOUT entries. */
int  hm_futex_model__to_meta(const struct hm_futex_model *m, struct hm_meta *meta);
void hm_futex_model__release(struct hm_futex_model *m);

/* ------------------------------------------------------------------
 * Additions (futex engineer).  Everything below is additive.
 */

/* Era details beyond the enum, from a release string. */
struct hm_futex_kernel {
	enum hm_futex_era era;
	u32	major, minor, patch;
	bool	mm_seq;		/* MMSHARED keys hash an mm sequence number (7.x, 6.12.115+) */
	bool	private_hash;	/* a private hash can exist (6.16-rc with it, 6.17+; not 6.16 final) */
	bool	per_node;	/* one global table per node (6.16+) */
	/*
	 * Before "futex: Fix inode life-time issue" + "futex: Unbreak futex
	 * hashing" (v5.6, stable March/April 2020) the key was {word, ptr} and
	 * the hash ran over the address (or pgoff) first.  Set for 4.20-5.3
	 * (end of life before the fix), 5.4 < 5.4.28, 5.5 < 5.5.13 and 4.14 <
	 * 4.14.175; older LTS branches are assumed updated.
	 */
	bool	word_first;
};
/* Parse "6.18.44-fc-v595", "6.16", "7.3.4-1"; -EINVAL when not a release. */
int hm_futex_kernel__parse(const char *release, struct hm_futex_kernel *k);

#define HM_FUT_OFF_INODE	1u
#define HM_FUT_OFF_MMSHARED	2u
#define HM_FUTEX_PAGE_SIZE	4096u

enum hm_futex_key_kind { HM_FUTEX_KEY_PRIVATE, HM_FUTEX_KEY_SHARED_ANON, HM_FUTEX_KEY_SHARED_FILE };
/* Shared futex on anonymous memory: @mm_or_seq is the mm pointer, or the mm sequence number where used. */
void hm_futex_key__shared_anon(struct hm_futex_key *k, u64 mm_or_seq, u64 uaddr);
/* Shared futex on a file or shmem page: inode sequence number and page index. */
void hm_futex_key__shared_file(struct hm_futex_key *k, u64 i_seq, u64 pgoff, u64 uaddr);
/* 32-bit hash the global table uses (jhash2 over 4 words, initval = offset). */
u32 hm_futex_key__hash(const struct hm_futex_key *k);
/* The same with the pre-2020 word order {word, ptr}. */
u32 hm_futex_key__hash_word_first(const struct hm_futex_key *k);
/* 32-bit hash the private hash uses (jhash2 over the 2 address words). */
u32 hm_futex_key__hash_private(const struct hm_futex_key *k);

/* log2 of the global table size (per node from 6.16). */
u32 hm_futex_model__hashshift(const struct hm_futex_model *m);
/* Configure the model's global geometry: @nr_cpus possible CPUs, @nr_nodes nodes; 0 or -EINVAL. */
int hm_futex_model__set_machine(struct hm_futex_model *m, u32 nr_cpus, u32 nr_nodes);
/* The same with a sparse set of possible nodes (bit n: node n possible; nodes < 64). */
int hm_futex_model__set_machine_nodes(struct hm_futex_model *m, u32 nr_cpus, u64 node_mask);

/*
 * Where an address falls, with more than the bucket: hot lines on the futex
 * path that are not buckets.  hm_futex_model__locate fills @loc->table and
 * friends for buckets exactly like __resolve, and also names the private
 * hash header (fph+0 users/state, hash_mask, mm) and registered mm fields.
 */
enum hm_futex_where {
	HM_FUTEX_WHERE_NONE,		/* not futex memory known to the model */
	HM_FUTEX_WHERE_BUCKET,		/* a bucket of a table */
	HM_FUTEX_WHERE_FPH_HEADER,	/* struct futex_private_hash before queues[] */
	HM_FUTEX_WHERE_MM,		/* a field of a registered mm_struct (futex ones, or all from metadata) */
};
struct hm_futex_site {
	enum hm_futex_where	where;
	struct hm_futex_loc	loc;		/* BUCKET: as __resolve; FPH_HEADER: table of that fph */
	s32			pid;		/* FPH_HEADER / MM: owner, -1 */
	u32			offset;		/* in the object */
	const char		*name;		/* "waiters", "fph.state", "mm.futex_phash", ... */
};
int hm_futex_model__locate(const struct hm_futex_model *m, u64 addr, struct hm_futex_site *site);
/* Name of what @loc points at ("lock", "chain", ...). */
const char *hm_futex_loc__name(const struct hm_futex_loc *loc);

const char *hm_futex_mm_field__name(enum hm_futex_mm_field f);

/*
 * Layout overrides.  BTF: /sys/kernel/btf/vmlinux (NULL path) or a raw BTF
 * or ELF file with .BTF; DWARF: any ELF with struct futex_hash_bucket in its
 * debug info (vmlinux, or a test object).  -ENOENT when the struct is absent.
 */
int hm_futex_layout__from_btf(const char *path, struct hm_futex_layout *l);
int hm_futex_layout__from_dwarf(const char *elf, struct hm_futex_layout *l);
int hm_futex_fph_layout__from_btf(const char *path, struct hm_futex_fph_layout *l);
int hm_futex_mm_layout__from_btf(const char *path, struct hm_futex_mm_layout *l);
/* Default mm layout (the 6.18 build of notes 4.1), -1 for everything before 6.16. */
void hm_futex_mm_layout__for_era(enum hm_futex_era e, struct hm_futex_mm_layout *l);

/* Register an mm_struct (its futex fields are then named by __locate). */
int hm_futex_model__add_mm(struct hm_futex_model *m, s32 pid, u64 mm);
/* Add a region (an mm_struct region also registers the mm); -EINVAL for an empty or unknown one. */
int hm_futex_model__add_region(struct hm_futex_model *m, const struct hm_futex_region *r);
/* Add field @name ("pgd") of struct mm_struct at @off; a futex field also moves m->mm's offset. */
int hm_futex_model__add_mm_name(struct hm_futex_model *m, const char *name, u32 off, u32 size);
/* The region holding @addr, or NULL. */
const struct hm_futex_region *hm_futex_model__region(const struct hm_futex_model *m, u64 addr);
/* "mm", "words", "pt", "global", "pcpu", "qnode"; NULL for others. */
const char *hm_futex_region_kind__name(u32 kind);

/*
 * Describe the tables now in @m in m->geometry: @how is "metadata" or
 * "given"; tables already described keep their word.
 */
void hm_futex_model__note_geometry(struct hm_futex_model *m, const char *how);
/*
 * When @m has no table: infer them from the samples of the perf.data at
 * @path (NULL: a pipe, which cannot be read twice), symbols from @syms,
 * nodes from @topo (hitmap/futex_infer.h); @maps (NULL: none) takes the
 * file's map records first, so that @syms, attached to them, picks the
 * recorded kernel's symbols as the report's pass will.  Sets m->geometry either way;
 * returns the tables added or a negative errno.  The file's reader logs
 * nothing here: the pass that follows reads it again and says what is wrong.
 */
struct hm_symbols;
struct hm_topo;
struct hm_maps;
int hm_futex_model__infer_file(struct hm_futex_model *m, const char *path, const char *release,
			       struct hm_symbols *syms, struct hm_maps *maps, const struct hm_topo *topo);

/* ---- geometry (geometry.c) */
/*
 * Parse "global:NODE:ADDR:SLOTS" or "private:PID:ADDR:SLOTS" (ADDR hex with
 * or without 0x, SLOTS a power of two).  -EINVAL with the reason in the log.
 */
int hm_futex_table__parse(const char *spec, struct hm_futex_table *t);
/* Format a table as the spec above; returns length. */
int hm_futex_table__format(const struct hm_futex_table *t, char *buf, size_t size);
/*
 * Base of a table (address of bucket 0) from one observed bucket address,
 * for an allocation that is naturally aligned to its power-of-two size:
 * global 6.16+ tables (alloc_pages_exact_nid), private hashes (kmalloc size
 * class / page order of 64 + 64*slots bytes, bucket 0 at +queues).
 * 0 or -EINVAL.
 */
int hm_futex_geometry__global_base(u64 bucket_addr, u64 slots, u32 bucket_size, u64 *base);
int hm_futex_geometry__private_base(u64 bucket_addr, u64 slots, u32 bucket_size,
				    u32 queues_off, u64 *base);
/* Parse the boot line "futex hash table entries: N (...)"; 0, -ENOENT. */
int hm_futex_geometry__parse_bootlog(const char *line, u64 *slots, u32 *nodes, bool *linear);
/* Geometry of this machine's global hash without reading memory (formula, possible CPUs/nodes). */
int hm_futex_geometry__this_machine(struct hm_futex_model *m);

/* ---- live check (verify.c) */
struct hm_futex_verify_opts {
	const char	*bpf_obj;	/* compiled src/futex/verify.bpf.c; NULL: next to the binary / $HITMAP_VERIFY_BPF */
	u32		nr_addrs;	/* futex addresses to try (1000) */
	u64		slots;		/* private hash slots to set (16) */
	bool		do_private;
	bool		do_shared;	/* shared-anon futexes in the global hash */
	u64		seed;
	/*
	 * Observation: false, the waiters word of a parked waiter (default);
	 * true, lock:contention_begin's &hb->lock while 2 threads hammer the
	 * address (a second, independent channel).
	 */
	bool		by_contention;
};
struct hm_futex_verify_result {
	u32	tried, observed, agreed;	/* observed: exactly one bucket changed */
	u64	slots;
	u64	table_base;
	char	how[96];
};
/*
 * Live check of the private hash size rules (no BPF needed): a child process
 * creates threads and calls prctl(PR_FUTEX_HASH) SET/GET_SLOTS in a fixed
 * sequence, and each result is compared with hm_futex_phash__*.  @r->tried:
 * steps, @r->agreed: steps that match.  -ENOSYS when the kernel has no
 * PR_FUTEX_HASH.
 */
int hm_futex__verify_prctl(struct hm_futex_verify_result *r);

/* Run the live check; -EPERM/-ENOENT/-ENOSYS when this machine cannot (message in the log). */
int hm_futex__verify(const struct hm_futex_verify_opts *o, struct hm_futex_verify_result *priv,
		     struct hm_futex_verify_result *shared);

/*
 * Record-time geometry probe (verify.c, same BPF object): watches the futex
 * syscalls of @tgid (0: every process) and records each process's mm and
 * private hash (mm->futex_phash, hash_mask), and contended bucket locks
 * (lock:contention_begin) paired with the futex address.  Collect adds the
 * tables to @m: private ones exactly ("bpf:mm->futex_phash"), global ones
 * from the pairs by the model or by alignment ("bpf:contention+model");
 * returns the number of tables added.
 */
struct hm_futex_probe;
/* Path of the compiled verify.bpf.c: @bpf_obj, else $HITMAP_VERIFY_BPF, else beside the binary. */
const char *hm_futex_verify__bpf_path(const char *bpf_obj, char *buf, size_t size);
struct hm_futex_probe *hm_futex_probe__new(const char *bpf_obj, s32 tgid);
int  hm_futex_probe__collect(struct hm_futex_probe *p, struct hm_futex_model *m);
void hm_futex_probe__delete(struct hm_futex_probe *p);
/*
 * Every private hash the probe saw (a resize makes a new one) with the
 * first and last futex call that used it, CLOCK_MONOTONIC ns; @queues:
 * offsetof(futex_private_hash, queues).  *out is malloc'ed; -ENOENT with an
 * older BPF object.
 */
struct hm_futex_probe_seen { s32 pid; u64 base, slots, first_ns, last_ns; };
int hm_futex_probe__seen(struct hm_futex_probe *p, u32 queues, struct hm_futex_probe_seen **out, size_t *n);

#endif
