/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_NAMES_H
#define HITMAP_REPORT_NAMES_H

/*
 * What a cache line, or a byte of it, is: one vocabulary for the text
 * table and its details, JSON, CSV, the HTML page and the diff's keys.
 *
 *   line    futex.global.node0.bucket.7   a futex hash bucket
 *           futex.private.fph             a private hash header
 *           futex.mm                      futex fields of mm_struct
 *           futex.page.0xPFN              struct page/folio in vmemmap (futex.page:
 *                                         a page that futex-path code touched elsewhere)
 *           futex.pcpu.futex_ref          per-CPU futex reference counter (6.17+)
 *           futex.__futex_data            the global hash's mask, shift, queues
 *           futex.word                    a futex word in user memory (no data symbol)
 *           futex.pagetable               page-table entries GUP-fast reads (shared futexes)
 *           futex.qnode                   a CPU's qspinlock MCS nodes (bucket lock slow path)
 *           data:SYMBOL+0xOFF             a kernel or user data symbol
 *           code:FUNCTION+0xOFF           no data symbol: the code touching it
 *           addr:0x...                    nothing better
 *   offset  the bucket field (waiters, lock, chain, priv), the header or mm
 *           field (fph.users, mm.futex_phash), the struct page field
 *           (_refcount, flags, mapping), or SYMBOL+0xOFF
 * Futex-path lines other than buckets, fph headers and mm fields are named
 * when the file's metadata lays them out (HM_META_FUTEX_OBJECTS: the mm_struct
 * with all its fields, futex words, page tables, __futex_data, per-CPU
 * counters and qspinlock nodes), else only when futex-path code touched them
 * (hm_futex__path_function).
 */
#include <hitmap/futex.h>
#include <hitmap/symbols.h>

typedef int (*hm_name_resolve_fn)(void *priv, u32 pid, u8 cpumode, u64 addr,
				  struct hm_symbol_info *info);

struct hm_namer {
	const struct hm_futex_model	*futex;		/* may be NULL */
	hm_name_resolve_fn		resolve;	/* may be NULL */
	void				*priv;
};

/* A line as the namer needs it: a data address in it and the code that touched it. */
struct hm_line_ref {
	u64	line, first_addr;
	u32	pid;
	bool	has_code;
	u32	code_pid;
	u8	code_cpumode;
	u64	code_ip;
};

/* How a line's name matches across runs (the diff's enum hm_metric_match). */
enum hm_name_kind {
	HM_NAME_BUCKET = 1, HM_NAME_FUTEX_OBJECT = 4, HM_NAME_DATA_SYMBOL = 5,
	HM_NAME_CODE = 6, HM_NAME_ADDRESS = 7,
};

/* "global.node0", "private" or "private.N" (private tables by order: pids change). */
void hm_name__futex_table(const struct hm_futex_model *fm, const struct hm_futex_table *t,
			  char *buf, size_t size);
/*
 * The line name of a futex object that hm_futex_model__locate (site.name:
 * "fph.users", "mm.futex_phash") or hm_futex__name_addr ("page pfn 0x12.flags",
 * "pcpu futex_ref", ...) named @obj; @pid its owner, @line its address.
 */
void hm_name__futex_object(const struct hm_futex_model *fm, const char *obj, s32 pid, u64 line,
			   char *buf, size_t size);
/* "sym+0x1f", with @with_src " (file.c:12)". */
void hm_name__symbol(const struct hm_symbol_info *info, u64 off, bool with_src, char *buf, size_t size);
/* The line's name; returns its kind. */
enum hm_name_kind hm_name__line(const struct hm_namer *n, const struct hm_line_ref *l,
				char *buf, size_t size);
/* The name of the byte at @addr (pid @pid): field or symbol+offset; "" when unknown. */
void hm_name__offset(const struct hm_namer *n, u64 addr, u32 pid, char *buf, size_t size);

#endif
