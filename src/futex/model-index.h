/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_FUTEX_MODEL_INDEX_H
#define HITMAP_FUTEX_MODEL_INDEX_H
/*
 * The model's tables by base and its mms by address (hm_futex_model__index),
 * so that a sample's lookup is a binary search, not a walk of every table
 * (a system-wide recording on 6.17+ has a private table per process).  Each
 * lookup answers with the one element that can hold the address (its index;
 * the caller checks it as the walk would), HM_FX_NONE when none can, or
 * HM_FX_WALK when the index cannot say: none built, built before the model
 * last changed (a table, mm or region added; another bucket size, header
 * size or mm layout), or elements that overlap, where the walk's order
 * decides and the index does not try to.
 */
#include <hitmap/futex.h>

/* Bytes of mm field @f in @l (8 where the layout gives no size). */
static inline u32 hm_futex_mm__field_size(const struct hm_futex_mm_layout *l, int f)
{
	return l->size[f] ? l->size[f] : 8;
}

#define HM_FX_WALK	(-1)
#define HM_FX_NONE	(-2)

/* The table whose buckets (of @bs bytes) may hold @addr. */
int  hm_futex_index__table(const struct hm_futex_model *m, u64 addr, u32 bs);
/* The private table whose header (the fph.queues bytes below its base) may hold @addr. */
int  hm_futex_index__fph(const struct hm_futex_model *m, u64 addr);
/* The mm whose futex fields may hold @addr. */
int  hm_futex_index__mm(const struct hm_futex_model *m, u64 addr);
void hm_futex_index__delete(struct hm_futex_index *x);

#endif
