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
/* From a release string ("6.18.44-..."); 6.12.115+ stable keeps its era. */
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

/* Geometry of the tables, as known for one recording or one model run. */
struct hm_futex_table {
	u32	kind;		/* 0 global, 1 private */
	s32	node;		/* global: node index */
	s32	pid;		/* private: owner */
	u64	base;		/* address of bucket 0; 0 when unknown */
	u64	slots;
	char	provenance[64];
};

struct hm_futex_model {
	enum hm_futex_era	era;
	struct hm_futex_layout	layout;
	u32			nr_nodes;	/* possible nodes (global tables) */
	u64			global_slots;	/* per node from 6.16, whole table before */
	u32			nr_tables;
	struct hm_futex_table	*tables;
};

/* Global slots for @nr_cpus possible CPUs and @nr_nodes nodes in era @e. */
u64 hm_futex__global_slots(enum hm_futex_era e, u32 nr_cpus, u32 nr_nodes);
/* Default private-hash slots for @threads threads, @online CPUs (0 when single-threaded). */
u64 hm_futex__private_slots(enum hm_futex_era e, u32 threads, u32 online, u64 global_slots);

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
/* Load tables and layout from a file's hitmap metadata; 0 with no tables when absent. */
int  hm_futex_model__from_meta(struct hm_futex_model *m, const struct hm_meta *meta);
/* Store tables and layout as HM_META_FUTEX_TABLE/LAYOUT entries. */
int  hm_futex_model__to_meta(const struct hm_futex_model *m, struct hm_meta *meta);
void hm_futex_model__release(struct hm_futex_model *m);

#endif
