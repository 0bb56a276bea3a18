/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_SYMBOLS_H
#define HITMAP_SYMBOLS_H

/*
 * Processes, maps and symbols.  hm_maps follows COMM/MMAP/MMAP2/FORK/EXIT
 * records like perf's machine/thread code; hm_symbols resolves a code or
 * data address to symbol, offset and source:line (libdw for user ELFs by
 * build-id or path, kallsyms for the kernel), lazily, caching per distinct
 * address so the cost grows with addresses, not samples.
 *
 * perf c2c's "No Page Map Rejects", exactly (tests/sh/symbols-nomap.sh):
 *	m = hm_maps__new(); hm_maps__set_kallsyms(m, &symbols_opts);
 *	hm_maps__set_build_ids(m, header);
 *	every non-sample record: hm_maps__process(m, ev);
 *	every sample: nomap = !hm_maps__mapped_thread(m, pid, tid, misc & 7, ip, addr);
 * (by tid and ip first: the order of perf's lookups matters, see below.)
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
	u8	type;		/* enum hm_map_type (additive) */
	u32	pid;		/* additive: the pid of the user MMAP/MMAP2 record that made it */
};

/* What a map is (struct hm_map.type). */
enum hm_map_type {
	HM_MAP_USER = 0,	/* user MMAP/MMAP2 (anon maps too) */
	HM_MAP_VMLINUX,		/* [kernel.kallsyms]_text (filename "[kernel.kallsyms]") */
	HM_MAP_MODULE,		/* kernel MMAP of a module path or other [name] */
	HM_MAP_KSYMBOL,		/* KSYMBOL register (bpf programs...); filename = symbol */
	HM_MAP_KEXTRA,		/* x86 entry trampoline */
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
/*
 * additive: as perf 6.12 and later, an EXIT record removes its thread
 * (perf 6.1 and hm_maps' default keep it, marked dead): a later sample of
 * that tid is a new thread, and when the thread led its process, a new
 * process without maps.
 */
void hm_maps__set_exit_removes(struct hm_maps *m, bool on);
/* Thread name, or NULL. */
const char *hm_maps__comm(const struct hm_maps *m, u32 tid);
/*
 * Notes on hm_maps__find: like perf's thread__find_map(), cpumode KERNEL
 * looks in the kernel maps, USER in the process maps of @pid (threads share
 * their process's maps), any other cpumode (guest, hypervisor) finds nothing
 * (perf_guest is off in perf report/c2c).  Map pointers stay valid until
 * hm_maps__delete (maps split by a later overlapping MMAP are kept).
 */
/* perf's iaddr rule (thread__find_cpumode_addr_location): user maps of @pid, then kernel maps. */
const struct hm_map *hm_maps__find_ip(const struct hm_maps *m, u32 pid, u64 ip);
/*
 * perf c2c's nomap rule (c2c_decode_stats): true when the data address is in a
 * map for the sample's cpumode and the ip is in a map (user, then kernel).
 */
bool hm_maps__mapped(const struct hm_maps *m, u32 pid, u8 cpumode, u64 ip, u64 addr);
/*
 * perf loads the kernel map's symbols the first time a kernel lookup hits it
 * and then moves the map to the kallsyms range of the kernel's own symbols
 * (map__fixup_start/end in dso__load_kernel_sym), so later lookups of kernel
 * data past _etext find a map.  hm_maps does the same when given a loader:
 * @fn is called once, at the first hit, and returns the kallsyms perf would
 * use (or NULL: the map stays as recorded).  hm_symbols__attach_maps()
 * installs hm_symbols' own.  Not emulated: perf's /proc/kcore path (root,
 * matching /proc/modules), which replaces the kernel maps with kcore's.
 */
struct hm_ksyms;
typedef const struct hm_ksyms *(*hm_maps_ksyms_fn)(void *ctx);
void hm_maps__set_kernel_loader(struct hm_maps *m, hm_maps_ksyms_fn fn, void *ctx);
/* The same, and @m owns @ctx: @free_ctx(@ctx) when replaced by another or at hm_maps__delete. */
void hm_maps__own_kernel_loader(struct hm_maps *m, hm_maps_ksyms_fn fn, void *ctx,
				void (*free_ctx)(void *ctx));
struct hm_symbols_opts;
/*
 * The same without an hm_symbols at hand: @m owns a loader that picks
 * kallsyms from @opts by hm_symbols' rules (see hm_symbols__attach_maps).
 * 0 or -ENOMEM.
 */
int hm_maps__set_kallsyms(struct hm_maps *m, const struct hm_symbols_opts *opts);
/*
 * The kernel map's load (above) for a reader that starts in the middle of a
 * file, after lookups it did not see: hm_maps__load_kernel does it now, as a
 * hit would (1; 0 without a kernel map or when done already), and
 * hm_maps__kernel_loaded says when it happened: after how many side-band
 * records hm_maps__process took (MMAP, MMAP2, COMM, FORK, EXIT, KSYMBOL),
 * UINT64_MAX while not yet; *@given (may be NULL): by hm_maps__load_kernel.
 */
int hm_maps__load_kernel(struct hm_maps *m);
u64 hm_maps__kernel_loaded(const struct hm_maps *m, bool *given);
/* hm_maps__find without perf's load side effect (hm_symbols__resolve uses it). */
const struct hm_map *hm_maps__peek(const struct hm_maps *m, u32 pid, u8 cpumode, u64 addr);
/* The [kernel.kallsyms] map, or NULL before the kernel MMAP. */
const struct hm_map *hm_maps__kernel_map(const struct hm_maps *m);
/*
 * additive: the symbol the kernel MMAP relocates by ("_text", "_stext": the
 * name after "[kernel.kallsyms]" when its pgoff is set), "" when none.
 */
const char *hm_maps__kernel_ref(const struct hm_maps *m);
/*
 * By thread, as perf's machine__findnew_thread(pid, tid) does: a known @tid
 * uses its own process's maps even when the sample says another @pid (and
 * a pid that is a known thread uses that thread's process).  Use these for
 * perf-exact counts; hm_maps__find(m, pid, ...) is hm_maps__find_thread(m, pid, pid, ...).
 */
const struct hm_map *hm_maps__find_thread(const struct hm_maps *m, u32 pid, u32 tid, u8 cpumode, u64 addr);
const struct hm_map *hm_maps__find_ip_thread(const struct hm_maps *m, u32 pid, u32 tid, u64 ip);
bool hm_maps__mapped_thread(const struct hm_maps *m, u32 pid, u32 tid, u8 cpumode, u64 ip, u64 addr);
/* Process id of thread @tid, or -1 when unknown. */
int hm_maps__pid(const struct hm_maps *m, u32 tid);
/*
 * Changes with every record hm_maps__process takes and with the kernel
 * map's first load: a lookup's answer may be cached while it stays the same.
 */
u64 hm_maps__gen(const struct hm_maps *m);
/* Counters, for tests and --debug. */
struct hm_maps_stats {
	u64	nr_threads, nr_procs, nr_maps;	/* maps: objects ever created */
	u64	nr_kmaps;
};
void hm_maps__stats(const struct hm_maps *m, struct hm_maps_stats *st);

/*
 * Kernel symbol table (kallsyms text: "addr type name [module]" lines).
 * Sorted by address; a symbol ends where the next one starts, except the
 * last one before a kernel/module change, which ends at the next page
 * boundary after start + 4096 (perf's symbols__fixup_end).  Only the types
 * perf 6.1 keeps: T, W, D, B in either case.  Of aliases, the last one in
 * the file is the name (perf's choice).
 */
struct hm_ksym {
	u64	start, end;
	char	type;		/* as in kallsyms: T t D d B b W w */
	const char *name;
	const char *module;	/* NULL for the kernel image */
};
struct hm_ksyms;
/* Parse @len bytes of kallsyms text.  NULL with errno (EINVAL: the message names the line). */
struct hm_ksyms *hm_ksyms__parse(const char *text, size_t len);
/* Read and parse a file (/proc/kallsyms).  NULL with errno. */
struct hm_ksyms *hm_ksyms__load(const char *path);
void hm_ksyms__delete(struct hm_ksyms *k);
size_t hm_ksyms__nr(const struct hm_ksyms *k);
/* True when every address is 0 (kptr_restrict): the table is useless. */
bool hm_ksyms__all_zero(const struct hm_ksyms *k);
/* The symbol containing @addr, or NULL. */
const struct hm_ksym *hm_ksyms__find(const struct hm_ksyms *k, u64 addr);
/* First symbol named @name (any module), or NULL. */
const struct hm_ksym *hm_ksyms__by_name(const struct hm_ksyms *k, const char *name);
/* [start, end) of the kernel image's own symbols (no module); -ENOENT when none. */
int hm_ksyms__kernel_range(const struct hm_ksyms *k, u64 *start, u64 *end);

/*
 * Why the ELF file @path (a --vmlinux) gives no symbols, in a few words
 * written to @buf ("not an ELF file (no ELF magic)", "no symbol table
 * (.symtab or .dynsym): a stripped file", "cannot open: ..."); NULL when
 * it has a symbol table.
 */
const char *hm_elf__unusable(const char *path, char *buf, size_t size);

struct hm_symbols;

/* How names read from user ELF files are shown (hm_symbols_opts.demangle). */
enum hm_demangle {
	HM_DEMANGLE_NONE = 0,	/* as the file has them */
	HM_DEMANGLE_NAMES,	/* perf 6.1 (libiberty, no parameters): "ns::f" */
	HM_DEMANGLE_FULL,	/* perf 6.12 (__cxa_demangle): "ns::f(int) const" */
	HM_DEMANGLE_FULL_RUST,	/* perf 7.3: Rust's names first ("core::fmt::write"), then as 6.12 */
};

struct hm_symbols_opts {
	const char *kallsyms;	/* file; NULL: the running system's, when the file was recorded here */
	const char *symfs;	/* prefix for user ELF paths, like perf --symfs */
	const void *ksyms_text;	/* HM_META_KSYMS text embedded in the file, or NULL */
	u32	   ksyms_len;
	bool	   no_source;	/* skip source:line */
	/*
	 * perf 7.x: without kallsyms of the file's kernel, the kernel map
	 * still takes the running kernel's /proc/kallsyms range (symbols stay
	 * [unknown]); perf 6.1 and 6.12 keep the recorded range.
	 */
	bool	   running_kallsyms_range;
	/*
	 * additive: perf 6.3 and later (6.12, 7.3) name the PLT their way:
	 * ".plt" for the header, the symbol before .plt cut at its start,
	 * .plt.got and .plt.sec entries named, entries in GOT-slot order,
	 * nameless IRELATIVE entries after their resolver ("offset_OFF@plt"
	 * when none); perf 6.1 (false) names only .plt's entries, and where a
	 * zero-size symbol before .plt reaches over them, its tree walk meets
	 * that symbol, an entry or nothing (hitmap replays the tree there).
	 */
	bool	   modern_plt;
	u8	   demangle;	/* additive: enum hm_demangle; kernel names never are */
	/*
	 * additive: a vmlinux ELF (perf's -k/--vmlinux): kernel image
	 * addresses take its symbols (and source lines, with DWARF) before
	 * kallsyms; modules keep kallsyms.  KASLR: the slide is the kernel
	 * MMAP's pgoff less the ELF's _text.  A kernel build-id in the file
	 * that differs from the ELF's draws a warning.
	 */
	const char *vmlinux;
	/*
	 * additive, hm_symbols__resolve_map only: perf script's [vdso] map
	 * takes its symbols from the build-id cache, else, with own_vdso (the
	 * file's header names no [vdso] build-id), from this process's own
	 * vdso image when the map's build-id is that image's or it has none.
	 */
	bool	   own_vdso;
};

struct hm_symbols *hm_symbols__new(const struct hm_symbols_opts *opts);
/*
 * What depends on the perf version (enum hm_perf_compat: 601, 612, 703; 0
 * the newest) in one place: running_kallsyms_range, modern_plt, demangle.
 */
void hm_symbols_opts__set_perf(struct hm_symbols_opts *o, unsigned perf_compat);
void hm_symbols__delete(struct hm_symbols *s);

struct hm_symbol_info {
	const char *dso;	/* map filename or "[kernel.kallsyms]" */
	const char *name;	/* symbol, or NULL (shown as [unknown]) */
	u64	   offset;	/* addr - symbol start */
	const char *file;	/* source file, or NULL */
	int	   line;	/* 0 when unknown */
	const char *inlined_by;	/* outer function when the address is in an inlined frame */
	/* additive: */
	const char *inline_func;	/* innermost inlined function at @addr (addr2line -f -i line 1), or NULL */
	const char *call_file;	/* call site of inline_func in inlined_by, or NULL */
	int	   call_line;
	const struct hm_map *map;	/* the map used, or NULL (kernel fallback without a map) */
	/*
	 * additive: the address in the file that was read as perf's
	 * map__rip_2objdump() gives it (the file offset moved by .text's
	 * sh_addr - sh_offset: the ELF vaddr in the text segment)
	 */
	u64	   obj_addr;
	bool	   have_obj;	/* a file was read: obj_addr is set */
	/* additive: @file is the name of the unit holding @addr, whose line table has no row for it */
	bool	   file_no_row;
	/* additive: the debug information has units, but none whose ranges hold @addr */
	bool	   file_no_unit;
	bool	   file_from_sym;	/* additive: @file is the symbol's STT_FILE (no DWARF line) */
};
/*
 * Resolve @addr (code or data) of @pid/@cpumode using @maps.  Returns 0 and
 * fills @info (strings owned by @s, valid until hm_symbols__delete), or
 * -ENOENT when nothing is known.
 */
int hm_symbols__resolve(struct hm_symbols *s, const struct hm_maps *maps, u32 pid,
			u8 cpumode, u64 addr, struct hm_symbol_info *info);
/*
 * Notes on hm_symbols__resolve: USER cpumode falls back to the kernel maps
 * (perf's iaddr rule); a kernel address without any kernel map is still
 * looked up in kallsyms (dso "[kernel.kallsyms]", info->map NULL).  A known
 * map without a symbol (//anon, [heap], stripped) returns 0 with name NULL.
 * opts->kallsyms "" disables kallsyms; precedence: kallsyms file, then
 * ksyms_text, then /proc/kallsyms.  With opts->vmlinux, its symbols come
 * first for the kernel image.
 */
/*
 * additive: @addr in @map (from hm_maps__find_thread) as perf script's
 * map__find_symbol() gives it: no fallback to other maps; the kernel
 * image's kallsyms symbols are moved by the kernel MMAP's relocation
 * (kallsyms' _text less the recorded one) and none load when kallsyms
 * lacks that symbol; a module map takes only kallsyms symbols of its own
 * module.  0 and @info (name NULL when no symbol), -ENOENT when @map is NULL.
 */
int hm_symbols__resolve_map(struct hm_symbols *s, const struct hm_maps *maps,
			    const struct hm_map *map, u64 addr, struct hm_symbol_info *info);
/*
 * additive: one function of the inline chain at an address
 * (hm_symbols__inlines): its name (DWARF's, "??" when it has none) and
 * the source line it is at; file NULL when DWARF gives no call site.
 */
struct hm_inline_frame {
	const char *name;
	const char *file;	/* as DWARF names it (a path) */
	int	   line;
};
/*
 * additive: the functions DWARF nests at @addr in the user map @map (as
 * perf 7.3's inline unwinding finds them), innermost first, at most @max
 * in @out; strings owned by @s.  The outermost is the function holding
 * the address, under its DWARF name.  Returns how many (0: no debug
 * information, no line row or no function there; a kernel map), or
 * -ENOMEM.
 */
int hm_symbols__inlines(struct hm_symbols *s, const struct hm_map *map, u64 addr,
			struct hm_inline_frame *out, int max);
struct hm_symbols_stats {
	u64	lookups, cache_hits, resolved;	/* resolved: distinct (dso, address) entries */
	u64	nr_dsos;
};
void hm_symbols__stats(const struct hm_symbols *s, struct hm_symbols_stats *st);
/*
 * Let @m load kernel symbols the way perf does (see hm_maps__set_kernel_loader)
 * from @s's kallsyms: --kallsyms FILE, else HM_META_KSYMS, else the running
 * kernel's /proc/kallsyms when the file's kernel build-id is absent or
 * matches /sys/kernel/notes, else perf's cache
 * ~/.debug/[kernel.kallsyms]/BUILDID/kallsyms.  Call it once after creating
 * both, before feeding records, for perf-exact nomap counts.  @s must
 * outlive the lookups on @m.
 */
void hm_symbols__attach_maps(struct hm_symbols *s, struct hm_maps *m);
/*
 * @s takes @from's kernel tables (kallsyms, the running kernel's for the
 * kernel map's range, the vmlinux ELF) instead of loading its own: they load
 * once, with their warnings, at the first of them to ask, and are read by
 * several threads (each with its own hm_symbols and maps).  @from must
 * outlive @s and is not used by its own thread while they run; NULL: its own again.
 */
void hm_symbols__share_kernel(struct hm_symbols *s, struct hm_symbols *from);
/* The kallsyms table @s uses (loaded on first call), or NULL. */
const struct hm_ksyms *hm_symbols__ksyms(struct hm_symbols *s);

#endif
