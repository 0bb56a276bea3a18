// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the ELF symbol reader (src/symbols/elf.c, plt.c,
 * symtree.c, demangle.c) on any bytes.  The input is written to a file of
 * its own and opened as a map's binary would be, with perf 6.1's PLT rules
 * and with perf 6.3+'s, each with a demangling style; then every 16th byte
 * of the file's first 32 KiB (through the PT_LOADs: the PLT and the text of
 * small binaries) is looked up, with the edges of each symbol met, a name,
 * and the source lines of the symbols met first (64 look-ups, libdw).  HOME
 * is an empty folder and no build-id is given, so no file of this machine
 * is read in place of the input (a build-id that names a debug file here is
 * the one way to reach one; the seeds' ids name none).
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/symbols-priv.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];
static int fd = -1;
static unsigned long nr_opened;	/* opens that gave symbols (hm-elf-mutate counts them) */
static volatile size_t sink;	/* what the names read add up to: the reads stay */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* a HOME without a build-id cache; the input in memory, opened by its /proc path */
	setenv("HOME", "/nonexistent/hm-fuzz-elf", 1);
	fd = memfd_create("hm-fuzz-elf", 0);
	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return 0;
}

static void probe(const struct hm_elf *e, u64 a)
{
	const struct hm_elf_sym *s = hm_elf__find(e, a);

	/* a symbol found starts at or before the address (perf's symbols__find) */
	if (s && a < s->start)
		abort();
	if (s && s->name)
		sink += strlen(s->name);	/* reads the name to its end */
}

/*
 * The symbol at @a and the addresses around its edges (the tree replay and
 * the binary search); its source lines (dwarf.c, libdw) while @dw and
 * *@nl < 64, every string read to its end.
 */
static void around(const struct hm_elf *e, u64 a, struct hm_dwarf *dw, int *nl)
{
	const struct hm_elf_sym *s = hm_elf__find(e, a);
	struct hm_srcline sl;

	if (!s)
		return;
	probe(e, s->start);
	probe(e, s->start - 1);
	probe(e, s->start + s->size);
	probe(e, s->start + (s->size ? s->size - 1 : 0));
	for (int k = 0; dw && *nl < 64 && k < 2; k++, ++*nl) {
		if (hm_dwarf__srcline(dw, s->start + (k ? s->size / 2 : 0), &sl) < 0)
			continue;
		sink += sl.file ? strlen(sl.file) : 0;
		sink += sl.inline_func ? strlen(sl.inline_func) : 0;
		sink += sl.caller ? strlen(sl.caller) : 0;
		sink += sl.call_file ? strlen(sl.call_file) : 0;
	}
}

static void walk(const struct hm_elf *e)
{
	const char *p = hm_elf__debug_path(e);
	struct hm_dwarf *dw = p ? hm_dwarf__open(p) : NULL;
	int nl = 0;
	u64 v;

	/* every 16th byte of the file's first 32 KiB, through the PT_LOADs */
	for (u64 off = 0; off < 0x8000; off += 0x10)
		if (hm_elf__off_to_vaddr(e, off, &v) == 0)
			around(e, v, dw, &nl);
	probe(e, 0);
	probe(e, ~0ULL);
	hm_elf__by_name(e, "main");
	hm_elf__by_name(e, ".plt");
	(void)hm_elf__path(e);
	hm_dwarf__delete(dw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the last byte picks the demangling style (the first ones hold the ELF magic); all of it is the file */
	static const enum hm_demangle styles[] = {
		HM_DEMANGLE_NONE, HM_DEMANGLE_NAMES, HM_DEMANGLE_FULL, HM_DEMANGLE_FULL_RUST,
	};
	enum hm_demangle style = styles[size ? data[size - 1] % 4 : 0];

	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	for (int modern = 0; modern < 2; modern++) {
		struct hm_elf *e = hm_elf__open(path, NULL, 0, NULL, modern, style);

		if (!e)
			continue;
		nr_opened += hm_elf__nr_syms(e) > 0;
		walk(e);
		hm_elf__delete(e);
	}
	return 0;
}
