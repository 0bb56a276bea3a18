/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_FUTEX_INFER_H
#define HITMAP_FUTEX_INFER_H

/*
 * Futex table geometry from memory samples alone, for files that carry no
 * table (perf c2c record, perf mem record, a stripped hitmap file).
 *
 * Evidence: samples whose IP is in futex code (the class below, from the
 * symbol), their data address, the process, the data's node (PHYS_ADDR +
 * MEM_TOPOLOGY) and a count.  Memory grows with distinct lines and threads,
 * never with samples.  Finishing places:
 *   - private hashes (6.16-rc, 6.17+): per process, struct futex_private_hash
 *     is one allocation naturally aligned to 128 x slots (kmalloc size class
 *     or page order of 64 + 64 x slots), bucket 0 at +64.  The slot count is
 *     the kernel's default size for the threads seen (roundup_pow_of_two(4 x
 *     min(threads, online CPUs)), clamped to [16, global]) when the lines fit
 *     it, else the smallest size that holds at least 90% of the process's
 *     lines.  The index depends only on the base, which is exact once the
 *     allocation is placed.
 *   - global tables: the size from the era's rule for the file's CPU and node
 *     counts; alignment from the allocator (alloc_pages_exact[_nid]: the size;
 *     vmalloc_huge: 2 MiB; vmalloc: a page); the base is the one aligned
 *     address that holds every line of a cluster; node: the majority of the
 *     lines' physical nodes.
 * A cluster that no rule places uniquely stays unplaced: its lines keep an
 * unknown index.  Never a guessed index.
 */
#include <hitmap/futex.h>
#include <hitmap/perf_data.h>
#include <hitmap/symbols.h>
#include <hitmap/topo.h>

/* What a function on the futex path touches (the class of a sample's IP). */
enum hm_futex_code {
	HM_FUTEX_CODE_NONE,
	HM_FUTEX_CODE_Q_LOCK,		/* futex_q_lock: hb->waiters (inc) */
	HM_FUTEX_CODE_Q_UNLOCK,		/* futex_q_unlock: hb->waiters (dec), hb->lock (release) */
	HM_FUTEX_CODE_HASH,		/* futex_hash: hb->priv */
	HM_FUTEX_CODE_HASH_INNER,	/* __futex_hash: fph->hash_mask, mm->futex_phash, __futex_data */
	HM_FUTEX_CODE_HASH_PUT,		/* futex_hash_put: hb->priv */
	HM_FUTEX_CODE_SPIN,		/* _raw_spin_lock / slowpath with a futex caller in the call chain */
	HM_FUTEX_CODE_REF,		/* futex_private_hash_get/put, futex_ref_get/put: fph header, mm->futex_ref */
	HM_FUTEX_CODE_QUEUE,		/* futex_wake, __futex_queue, __futex_unqueue, ...: bucket fields */
	HM_FUTEX_CODE_LOCK_ANY,		/* _raw_spin_lock & co. without a call chain: not evidence */
	HM_FUTEX_CODE__MAX
};
/* Class of a kernel function name (NULL: NONE). */
enum hm_futex_code hm_futex_code__from_symbol(const char *name);
const char *hm_futex_code__name(enum hm_futex_code c);

struct hm_futex_infer;

/*
 * An inference for a model whose era and layout are set: @nr_cpus possible
 * CPUs, @nr_online online CPUs and @nr_nodes nodes of the recording machine
 * (0: unknown, 1 assumed).
 */
struct hm_futex_infer *hm_futex_infer__new(const struct hm_futex_model *m, const struct hm_futex_kernel *k,
					   u32 nr_cpus, u32 nr_online, u32 nr_nodes);
void hm_futex_infer__delete(struct hm_futex_infer *inf);

/* @src's observations added to @dst's (both of the same model); 0 or -ENOMEM. */
int hm_futex_infer__merge(struct hm_futex_infer *dst, const struct hm_futex_infer *src);
/* One sample (or @count of them): @node of the data, -1 unknown.  0 or -ENOMEM. */
int hm_futex_infer__add(struct hm_futex_infer *inf, enum hm_futex_code code, u64 addr,
			s32 pid, u32 tid, s32 node, u64 count);

/*
 * Prefetch for a coming hm_futex_infer__add of @addr: stage 0 its line's
 * slot (the observations live in it); other stages do nothing.
 */
void hm_futex_infer__prefetch(const struct hm_futex_infer *inf, u64 addr, int stage);

struct hm_futex_infer_result {
	u64	samples;		/* futex-code samples added */
	u64	lines;			/* distinct lines among them */
	u64	bucket_lines;		/* lines with bucket evidence */
	u32	tables;			/* tables placed */
	u32	unplaced;		/* clusters left unknown */
	u32	mms;			/* mm_structs placed */
	char	why[256];		/* when nothing is placed: why, and what to pass */
};

/*
 * Place the tables and add them to @m (provenance "inferred:...": lines and
 * samples that support each); also registers the mm_structs seen.  Returns
 * the number of tables added.
 */
int hm_futex_infer__finish(struct hm_futex_infer *inf, struct hm_futex_model *m,
			   struct hm_futex_infer_result *res);

/*
 * The samples inference reads, one at a time (infer-scan.c): a sample
 * counts when kernel code touched kernel data and its IP is in futex code
 * (@syms' kernel symbols; a spin-lock function only with a futex function
 * in the call chain).  The machine comes from @h (CPUs) and @topo (nodes,
 * physical addresses); @release: the kernel (NULL: the header's); @m: the
 * model whose era and layout are set.  Pre-scan and report pass use the
 * same observer, so both infer the same tables from the same file.
 */
struct hm_futex_observer;
struct hm_futex_observer *hm_futex_observer__new(const struct hm_header *h, const char *release,
						 struct hm_symbols *syms, const struct hm_topo *topo,
						 const struct hm_futex_model *m);
void hm_futex_observer__delete(struct hm_futex_observer *o);
/* One sample (its call chain still valid).  0 or -ENOMEM. */
int hm_futex_observer__add(struct hm_futex_observer *o, const struct hm_sample *s);
/*
 * Add what @src observed (samples that all come after @dst's: report
 * --threads over parts of the file) to @dst, as one observer of both
 * would hold it.  0 or -ENOMEM.
 */
int hm_futex_observer__merge(struct hm_futex_observer *dst, struct hm_futex_observer *src);
/* Place the tables into @m (hm_futex_infer__finish); @res->why when none.  Tables added or -errno. */
int hm_futex_observer__finish(struct hm_futex_observer *o, struct hm_futex_model *m,
			      struct hm_futex_infer_result *res);
/*
 * When @m has no table: the tables of what @o observed, and m->geometry
 * (as hm_futex_model__infer_file; @what names the input in warnings).
 */
int hm_futex_model__infer_observed(struct hm_futex_model *m, struct hm_futex_observer *o, const char *what);

/*
 * Pre-scan of a seekable perf.data: feed every sample whose IP resolves (in
 * @syms) to futex code, then finish into @m.  The era and layout of @m must
 * be set; the machine comes from the header (@topo for nodes and physical
 * addresses); @release: the kernel (NULL: the header's); @maps (NULL:
 * none) takes the file's non-sample records (hm_maps__process).  Returns
 * tables added (>= 0) or a negative errno; @res->why says what happened
 * when nothing was placed.
 */
int hm_futex_infer__scan_file(const char *path, const char *release, struct hm_symbols *syms,
			      struct hm_maps *maps, const struct hm_topo *topo, struct hm_futex_model *m,
			      struct hm_futex_infer_result *res);

#endif
