/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_FUTEX_TABLES_H
#define HITMAP_RECORD_FUTEX_TABLES_H

/*
 * Live discovery of the futex tables of the processes a recording follows
 * (futex-tables.c), with the BPF probe of `hitmap hash --probe`: each
 * process's private hash (and every resized one) exactly from
 * mm->futex_phash at its futex calls, the global tables from contended
 * bucket locks paired with the futex address through the hash model.
 */
#include <hitmap/meta.h>

struct hm_rec_futex;

/*
 * Start watching process @pid (0: every process).  NULL when this machine
 * cannot (no BPF object, not root, no BTF): the reason is logged at debug
 * level and in *why, and the recording goes on without tables.
 */
struct hm_rec_futex *hm_rec_futex__start(const char *bpf_obj, int pid, char *why, size_t why_size);
/*
 * Stop and add the tables not already in @meta (HM_META_FUTEX_TABLE, the
 * mm_structs, HM_META_FUTEX_VALID); returns the number of tables added and
 * a one-line summary in @sum.
 */
int hm_rec_futex__finish(struct hm_rec_futex *f, struct hm_meta *meta, char *sum, size_t sum_size);
void hm_rec_futex__delete(struct hm_rec_futex *f);

#endif
