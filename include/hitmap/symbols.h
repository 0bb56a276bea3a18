/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_SYMBOLS_H
#define HITMAP_SYMBOLS_H

/*
 * Processes, maps and symbols.  hm_maps follows COMM/MMAP/MMAP2/FORK/EXIT
 * records like perf's machine/thread code; hm_symbols resolves a code or
 * data address to symbol, offset and source:line (libdw for user ELFs by
 * build-id or path, kallsyms for the kernel), lazily, caching per distinct
 * address so the cost grows with addresses, not samples.
 */
#include <hitmap/perf_data.h>

struct hm_map {
	u64	start, end, pgoff;
	u32	prot, flags;
	u16	misc;		/* cpumode, MMAP_DATA bit */
	bool	kernel;
	u8	build_id[20];
	u8	build_id_size;
	char	*filename;
};

struct hm_maps;

struct hm_maps *hm_maps__new(void);
void hm_maps__delete(struct hm_maps *m);
/* Feed every non-sample record (COMM, MMAP, MMAP2, FORK, EXIT, KSYMBOL...). */
int hm_maps__process(struct hm_maps *m, const struct hm_event *ev);
/* Apply build-ids from the header (BUILD_ID feature, HEADER_BUILD_ID records). */
int hm_maps__set_build_ids(struct hm_maps *m, const struct hm_header *h);
/* The map of @addr in @pid as seen with cpumode @cpumode (misc & 7); NULL when none. */
const struct hm_map *hm_maps__find(const struct hm_maps *m, u32 pid, u8 cpumode, u64 addr);
/* Thread name, or NULL. */
const char *hm_maps__comm(const struct hm_maps *m, u32 tid);

struct hm_symbols;

struct hm_symbols_opts {
	const char *kallsyms;	/* file; NULL: the running system's, when the file was recorded here */
	const char *symfs;	/* prefix for user ELF paths, like perf --symfs */
	const void *ksyms_text;	/* HM_META_KSYMS text embedded in the file, or NULL */
	u32	   ksyms_len;
	bool	   no_source;	/* skip source:line */
};

struct hm_symbols *hm_symbols__new(const struct hm_symbols_opts *opts);
void hm_symbols__delete(struct hm_symbols *s);

struct hm_symbol_info {
	const char *dso;	/* map filename or "[kernel.kallsyms]" */
	const char *name;	/* symbol, or NULL (shown as [unknown]) */
	u64	   offset;	/* addr - symbol start */
	const char *file;	/* source file, or NULL */
	int	   line;	/* 0 when unknown */
	const char *inlined_by;	/* outer function when the address is in an inlined frame */
};
/*
 * Resolve @addr (code or data) of @pid/@cpumode using @maps.  Returns 0 and
 * fills @info (strings owned by @s, valid until hm_symbols__delete), or
 * -ENOENT when nothing is known.
 */
int hm_symbols__resolve(struct hm_symbols *s, const struct hm_maps *maps, u32 pid,
			u8 cpumode, u64 addr, struct hm_symbol_info *info);

#endif
