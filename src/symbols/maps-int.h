/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_SYMBOLS_MAPS_INT_H
#define HITMAP_SYMBOLS_MAPS_INT_H

/*
 * Private to the maps: src/symbols/maps.c (records and lookups) over
 * maps-kernel.c (kernel and module maps) and maps-store.c (tables, sorted
 * mapsets, threads and processes).
 */
#include "symbols-priv.h"
#include "util/htab.h"

#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#endif
#ifndef PERF_RECORD_MISC_FORK_EXEC
#define PERF_RECORD_MISC_FORK_EXEC (1 << 13)
#endif
#define KSYM_UNREGISTER 1

#define KERNEL_MMAP_NAME "[kernel.kallsyms]"
#define ENTRY_TRAMPOLINE_NAME "__entry_SYSCALL_64_trampoline"

/* Sorted, non-overlapping maps of one process. */
struct hm_mapset {
	struct hm_map **v;
	u32 nr, alloc;
	/* maps found last (a sample asks for its code's and its data's), valid while hint_gen is hm_maps' gen */
	u64 hint_gen;
	const struct hm_map *hint[2];
	u32 hint_next;
};

struct hm_proc {
	u32 pid;
	struct hm_mapset ms;
};

struct hm_thread {
	u32 tid;
	s32 pid;
	bool dead;
	const char *comm;	/* pooled */
	struct hm_proc *own;	/* exit_removes: the maps it kept when its leader went */
};

struct hm_kseg {
	u64 start, end;
	const struct hm_map *map;
};

/* The first flat kernel segment ending above @addr (@nr: none). */
static inline u32 hm_kflat__index(const struct hm_kseg *kflat, u32 nr, u64 addr)
{
	u32 lo = 0, hi = nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (kflat[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}


struct hm_build_id_ent {
	const char *filename;	/* pooled */
	u8 id[20];
	u8 size;
};

struct hm_maps {
	struct hm_htab threads;	/* tid -> struct hm_thread * */
	struct hm_htab procs;	/* pid -> struct hm_proc * */
	/* kernel maps in insertion order; flat view built on demand */
	struct hm_map **kmaps;
	u32 nr_kmaps, alloc_kmaps;
	struct hm_kseg *kflat;
	u32 nr_kflat, alloc_kflat;
	bool kdirty;
	struct hm_map *vmlinux;
	char ref_name[64];	/* ref_reloc_sym of the kernel MMAP ("_text") */
	hm_maps_ksyms_fn ksyms_fn;
	void *ksyms_ctx;
	void *own_ctx;			/* hm_maps__own_kernel_loader */
	void (*own_free)(void *ctx);
	bool vmlinux_loaded;
	/* side-band records (MMAP, MMAP2, COMM, FORK, EXIT, KSYMBOL) processed */
	u64 nr_side;
	/* nr_side when vmlinux_loaded was set, plus 1 (0: not yet); given: by hm_maps__load_kernel */
	u64 loaded_at1;
	bool load_given;
	/* every map object, for freeing */
	struct hm_map **all;
	u64 nr_all, alloc_all;
	struct hm_build_id_ent *bids;
	u32 nr_bids, alloc_bids;
	struct hm_strpool *pool;
	/* sample_proc()'s answers by tid (direct-mapped); valid while .gen is gen + 1 */
	struct { u32 pid, tid; u64 gen; const struct hm_proc *p; } last[256];
	/* kernel lookups' last flat segments; valid while khint_gen is gen + 1, the view clean */
	struct hm_kseg khint[2];
	u64 khint_gen;
	u32 khint_next;
	u64 gen;	/* bumped by every record processed: drops the mapsets' hints */
	/* past the end of every user map ever inserted: no process has a map there */
	u64 user_end;
	/* hm_maps__set_exit_removes: EXIT removes the thread; leaders' maps kept here */
	bool exit_removes;
	struct hm_proc **retired;
	u32 nr_retired, alloc_retired;
};

/* ---- maps-store.c */
int hm_maps__grow32(void **v, u32 *alloc, u32 need, size_t elem);
/* Free every object of a table of pointers, then the table. */
void hm_maps__table_free(struct hm_htab *t, void (*fn)(void *));
void hm_maps__proc_free(void *o);
struct hm_map *hm_maps__map_new(struct hm_maps *m);
struct hm_map *hm_maps__map_clone(struct hm_maps *m, const struct hm_map *src);
/* Set @map's build id from the BUILD_ID feature when it has none. */
void hm_maps__apply_build_id(struct hm_maps *m, struct hm_map *map);
const struct hm_map *hm_mapset__find(const struct hm_mapset *ms, u64 addr);
/* Insert @map, splitting the maps it overlaps (maps__fixup_overlappings). */
int hm_mapset__insert(struct hm_maps *m, struct hm_mapset *ms, struct hm_map *map);
int hm_mapset__clone(struct hm_mapset *dst, const struct hm_mapset *src);
struct hm_proc *hm_maps__proc_findnew(struct hm_maps *m, u32 pid);
struct hm_thread *hm_maps__thread_findnew(struct hm_maps *m, s32 pid, u32 tid);
struct hm_proc *hm_maps__proc_of(struct hm_maps *m, s32 pid, u32 tid);

/* ---- maps-kernel.c */
int hm_kmaps__add(struct hm_maps *m, struct hm_map *map);
void hm_kmaps__remove(struct hm_maps *m, const struct hm_map *map);
const struct hm_map *hm_kmaps__find(const struct hm_maps *cm, u64 addr);
const struct hm_map *hm_kmaps__find_any(const struct hm_maps *m, u64 addr);
/* A kernel-cpumode MMAP (machine__process_kernel_mmap_event). */
int hm_maps__kernel_mmap(struct hm_maps *m, u64 start, u64 len, u64 pgoff, const char *name,
			 const u8 *bid, u8 bid_size, u16 misc, u32 prot, u32 flags);
/* The kernel map of @addr, kallsyms loaded into the kernel map at its first hit. */
const struct hm_map *hm_maps__kfind(const struct hm_maps *cm, u64 addr);

#endif
