/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_SYMBOLS_PRIV_H
#define HITMAP_SYMBOLS_PRIV_H
/*
 * Private to src/symbols: the string pool, the ELF symbol tables (elf.c) and
 * the DWARF line/inline lookups (dwarf.c) that symbols.c stitches together.
 */
#include <hitmap/symbols.h>

/* ------------------------------------------------------------ strpool.c */
/* Interned strings: one copy per distinct string, freed with the pool. */
struct hm_strpool;
struct hm_strpool *hm_strpool__new(void);
void hm_strpool__delete(struct hm_strpool *p);
/* The pooled copy of @s (first @len bytes, then NUL), or NULL on ENOMEM. */
const char *hm_strpool__intern_len(struct hm_strpool *p, const char *s, size_t len);
const char *hm_strpool__intern(struct hm_strpool *p, const char *s);

/* ----------------------------------------------------------- demangle.c */
/* @name demangled in @style (malloc'd), or NULL when it is not a name that style reads. */
char *hm_demangle(const char *name, enum hm_demangle style);

/* ---------------------------------------------------------------- elf.c */
struct hm_elf_sym {
	u64	start, size;	/* ELF virtual address */
	const char *name;	/* owned by the hm_elf */
	const char *file;	/* .symtab STT_FILE it sits under, as binutils' elf_find_function, or NULL */
	u8	type, bind;	/* STT_*, STB_* */
	u32	idx;		/* order in the table: perf keeps the first of equals */
};

struct hm_elf;
/*
 * Open the ELF for a map: by build-id under ~/.debug/.build-id and
 * /usr/lib/debug/.build-id, else @symfs + @filename (a file whose build-id
 * differs from a known @build_id is refused).  The PLT gets perf's synthesized
 * symbols, by perf 6.3+'s rules with @modern_plt, else perf 6.1's (plt.c);
 * names are demangled as @demangle says (demangle.c).
 * NULL with errno.
 */
struct hm_elf *hm_elf__open(const char *filename, const u8 *build_id, u8 build_id_size,
			    const char *symfs, bool modern_plt, enum hm_demangle demangle);
void hm_elf__delete(struct hm_elf *e);
/* Path of the file opened for symbols (may be a .debug file). */
const char *hm_elf__path(const struct hm_elf *e);
/* Path of a file with DWARF (the .debug file when there is one), or NULL. */
const char *hm_elf__debug_path(const struct hm_elf *e);
/* .text's sh_addr - sh_offset (perf's dso->text_offset); -ENOENT without a .text. */
int hm_elf__text_offset(const struct hm_elf *e, u64 *off);
/* File offset -> ELF virtual address through the PT_LOAD headers. */
int hm_elf__off_to_vaddr(const struct hm_elf *e, u64 off, u64 *vaddr);
/*
 * The function or object symbol containing @vaddr, or NULL; where symbols
 * overlap, the one perf's tree walk meets (or NULL where it meets none).
 */
const struct hm_elf_sym *hm_elf__find(const struct hm_elf *e, u64 vaddr);
size_t hm_elf__nr_syms(const struct hm_elf *e);
/* The first symbol named @name (a linear search: for a few look-ups), or NULL. */
const struct hm_elf_sym *hm_elf__by_name(const struct hm_elf *e, const char *name);
/* Read the GNU build-id note of an open file path into @id (20 bytes); returns its size or <0. */
int hm_elf__read_build_id(const char *path, u8 *id, size_t size);

/* ---------------------------------------------------------------- plt.c */
/* A PLT entry perf gives a symbol of its own (plt.c says which perf does what). */
struct hm_plt_ent {
	u64	start, size;	/* ELF virtual address */
	u64	ifunc;		/* a nameless IRELATIVE entry's resolver (vaddr), else 0 */
	const char *name;	/* "NAME@plt", ".plt", or perf's "offset_OFF@plt" (pooled) */
	bool	header;		/* the ".plt" symbol */
	bool	got;		/* a .plt.got entry (perf adds them before a dropped header goes) */
	bool	dropped;	/* header of a .plt without one: not a symbol */
};
struct hm_plt {
	struct hm_plt_ent *ents;
	size_t	nr;
	u64	clip;		/* has_clip: a symbol reaching over .plt from before ends here */
	bool	has_clip;
};
/*
 * The entries of the binary @path by perf 6.1's rules, or by perf 6.3+'s
 * (@modern); names interned in @pool.  0 (perhaps no entries), or a
 * negative errno; hm_plt__release frees the entries (NULL-safe).
 */
int hm_plt__read(const char *path, bool modern, enum hm_demangle demangle, struct hm_strpool *pool,
		 struct hm_plt *out);
void hm_plt__release(struct hm_plt *p);

/* ------------------------------------------------------------- symtree.c */
/*
 * perf's symbol rbtree, replayed for its shape (symtree.c): insert returns
 * a node handle (or -ENOMEM), erase takes it, find walks down as perf's
 * symbols__find() and returns the id of the node it meets, or -1.
 */
struct hm_symtree;
struct hm_symtree *hm_symtree__new(void);
void hm_symtree__delete(struct hm_symtree *t);
int hm_symtree__insert(struct hm_symtree *t, u64 start, u64 end, u32 id);
void hm_symtree__erase(struct hm_symtree *t, int node);
int64_t hm_symtree__find(const struct hm_symtree *t, u64 ip);

/* -------------------------------------------------------------- dwarf.c */
struct hm_srcline {
	const char *file;	/* innermost location of the address */
	int	   line;
	const char *inline_func;	/* innermost inlined function, or NULL */
	const char *caller;	/* the function it is inlined into */
	const char *call_file;
	int	   call_line;
	bool	   no_row;	/* @file is the unit's name: its line table has no row here */
	bool	   no_unit;	/* -ENOENT: no unit's ranges hold the address (libdwfl gave the one before) */
};
struct hm_dwarf;
/* Open DWARF for @path (cached per DSO by the caller).  NULL with errno. */
struct hm_dwarf *hm_dwarf__open(const char *path);
void hm_dwarf__delete(struct hm_dwarf *d);
/*
 * Source line and inline frame of ELF virtual address @vaddr.  Strings are
 * libdw's, valid until hm_dwarf__delete: copy them.  0, or -ENOENT.
 */
int hm_dwarf__srcline(struct hm_dwarf *d, u64 vaddr, struct hm_srcline *out);
/*
 * The functions at ELF virtual address @vaddr as perf 7.3's libdw
 * inline unwinding walks them (dwarf-inline.c): innermost first in
 * @out (at most @max), each with the line it is at (the address's line
 * for the innermost, the call site of the next inner one for the
 * others; file NULL: no call site).  Strings are libdw's, as above.
 * The number of frames, 0 when the address has no line row or lies in
 * no function of its unit.
 */
int hm_dwarf__inlines(struct hm_dwarf *d, u64 vaddr, struct hm_inline_frame *out, int max);

#endif
