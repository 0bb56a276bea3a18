/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_FUTEX_NAMES_H
#define HITMAP_FUTEX_NAMES_H

/*
 * Names of every line on the futex path, for the report's data naming:
 *   futex bucket global:0[123].lock / private:PID[7].waiters
 *   futex_private_hash(pid P).hash_mask            (users, state, mm, ...)
 *   mm_struct(pid P).futex_phash                   (any mm field with BTF)
 *   page pfn 0x1234._refcount                      (struct page/folio: flags, mapping, ...)
 *   pcpu futex_ref                                 (per-CPU reference counter, 6.17+)
 *   __futex_data                                   (hash mask, shift, queues[])
 *   futex word 0x7f..  (user page 0x7f..000)
 * Buckets, fph headers and mms come from the model's tables (metadata,
 * --futex-table or inferred); struct page lines from the vmemmap region
 * (x86_64 without memory randomization) or from the function that touched
 * them (GUP-fast, folio_put, get_futex_key); per-CPU counters and the futex
 * word from the function (@func, the sample's symbol; NULL when unknown).
 * Names other than buckets fit in 32 bytes (the report's object column).
 */
#include <hitmap/futex.h>

struct hm_futex_names;

/*
 * Field names from BTF: @btf_path a raw BTF or an ELF with .BTF; NULL:
 * /sys/kernel/btf/vmlinux (use it only when the file was recorded on the
 * running kernel); "": none, the era's layouts.  Never fails for a missing
 * BTF (it falls back); NULL only without memory.
 */
struct hm_futex_names *hm_futex_names__new(const char *btf_path);
void hm_futex_names__delete(struct hm_futex_names *n);
bool hm_futex_names__has_btf(const struct hm_futex_names *n);

/*
 * Name the line or field at @addr into @buf: 1 named, 0 not futex-path
 * memory as far as known, -EINVAL.  @n may be NULL (no BTF), @m may be
 * NULL (no tables).  Cheap: no allocation; call it per distinct line.
 */
int hm_futex_names__name(const struct hm_futex_names *n, const struct hm_futex_model *m, u64 addr,
			 const char *func, char *buf, size_t size);
/* The same without BTF. */
int hm_futex__name_addr(const struct hm_futex_model *m, u64 addr, const char *func, char *buf, size_t size);

/*
 * A function on the futex path: futex code, or the GUP-fast / folio
 * reference functions get_futex_key calls for shared futexes.  A view of
 * futex memory counts a page line only when such a function touched it.
 */
bool hm_futex__path_function(const char *func);

/* vmemmap_base for @addr when it lies in x86_64's fixed vmemmap region (4- or 5-level), else 0. */
u64 hm_futex__vmemmap_base(u64 addr);

#endif
