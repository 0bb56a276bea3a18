// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-elf-mutate: a deterministic mutation test of the ELF symbol reader
 * (src/symbols: elf.c, plt.c, symtree.c, demangle.c), the fuzz target
 * tests/fuzz/fuzz-elf.c run on mutated copies of real ELF files.
 *
 *   hm-elf-mutate [-n CASES] [-s SEED] FILE...
 *
 * Each case mutates one FILE: cut short, bytes flipped, or a field of the
 * ELF header, a program header or a section header set to a boundary value
 * (0, 1, -1, 2^31, 2^32 + small, the file's size ...) or its machine set to
 * another architecture's (the PLT's sizes are per architecture), biased towards the
 * section headers of the sections the PLT reader uses (.plt*, .rela*,
 * .dynsym, .symtab and their string tables).  The case runs in its own
 * process, limited to 20 s and 1 GB of address space, which opens the file
 * with perf 6.1's and perf 6.3+'s PLT rules and looks symbols up all over
 * it (fuzz-elf.c).  Counted, and both must be 0: crashes (a signal, or a
 * sanitizer's exit) and hangs (over 20 s).  Prints "cases N: opened O,
 * crashes C, hangs H" (O: the cases whose file still gave symbols) and
 * exits 1 when C or H is not 0; the first of each is named with its file
 * and case.
 */
#include <errno.h>
#include <stddef.h>
#include <gelf.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <hitmap/log.h>
#include "child-limits.h"
#include "../fuzz/fuzz-elf.c"

/* a child's exit status when neither open succeeded */
#define NOT_OPENED	99

static u64 rng;

static u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Offsets of the section headers the PLT and symbol readers use; their count. */
static size_t hot_shdrs(const u8 *d, size_t n, u64 *at, size_t max)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, ss;
	size_t k = 0;

	if (n < sizeof(eh) || memcmp(d, ELFMAG, SELFMAG) || d[EI_CLASS] != ELFCLASS64)
		return 0;
	memcpy(&eh, d, sizeof(eh));	/* copies: a mutated offset need not be aligned */
	if (eh.e_shoff > n || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shnum > (n - eh.e_shoff) / sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum)
		return 0;
	memcpy(&ss, d + eh.e_shoff + eh.e_shstrndx * sizeof(ss), sizeof(ss));
	for (size_t i = 0; i < eh.e_shnum && k < max; i++) {
		const char *nm;

		memcpy(&sh, d + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (ss.sh_offset > n || sh.sh_name >= ss.sh_size || sh.sh_name >= n - ss.sh_offset)
			continue;
		nm = (const char *)d + ss.sh_offset + sh.sh_name;
		if (!strncmp(nm, ".plt", 4) || !strncmp(nm, ".rela", 5) || !strcmp(nm, ".dynsym") ||
		    !strcmp(nm, ".symtab") || !strcmp(nm, ".dynstr") || !strcmp(nm, ".strtab") ||
		    !strcmp(nm, ".init") || !strcmp(nm, ".got") || !strcmp(nm, ".dynamic") ||
		    !strcmp(nm, ".note.gnu.build-id") || !strncmp(nm, ".debug_", 7))
			at[k++] = eh.e_shoff + i * sizeof(sh);
	}
	return k;
}

static u64 boundary(size_t n)
{
	static const u64 v[] = { 0, 1, 2, 7, 8, 16, 0x7fffffff, 0x80000000u, 0xffffffffu,
				 0x100000010ULL, ~0ULL, 1ULL << 62 };
	u64 i = next() % (sizeof(v) / sizeof(v[0]) + 3);

	if (i < sizeof(v) / sizeof(v[0]))
		return v[i];
	return i == sizeof(v) / sizeof(v[0]) ? n : next() % (n + 64);
}

/* One mutation of @d (@n bytes) in place; the new length. */
static size_t mutate(u8 *d, size_t n)
{
	u64 hot[64];
	size_t nh = hot_shdrs(d, n, hot, 64), at, w;
	u64 val;
	int kind = (int)(next() % 9);

	if (kind == 8 && n >= 20) {
		/* another machine: the PLT reader's per-architecture sizes */
		static const u16 m[] = { EM_386, EM_X86_64, EM_ARM, EM_AARCH64, EM_PPC64, EM_S390,
					 EM_RISCV, EM_SPARCV9, EM_LOONGARCH, 0, 0xffff };
		u16 v = m[next() % (sizeof(m) / sizeof(m[0]))];

		memcpy(d + 18, &v, 2);
		return n;
	}
	if (kind == 0)
		return n ? next() % n : 0;	/* cut short */
	if (kind <= 2) {	/* bytes flipped, anywhere */
		for (int i = 0, k = 1 + (int)(next() % 8); i < k && n; i++)
			d[next() % n] ^= (u8)(1 + next() % 255);
		return n;
	}
	if (kind <= 5 && nh) {
		/* a field of a hot section header: its type another (NOBITS: no bytes), or a boundary value */
		static const struct { u8 off, w; } f[] = {
			{ offsetof(Elf64_Shdr, sh_type), 4 }, { offsetof(Elf64_Shdr, sh_offset), 8 },
			{ offsetof(Elf64_Shdr, sh_size), 8 }, { offsetof(Elf64_Shdr, sh_link), 4 },
			{ offsetof(Elf64_Shdr, sh_info), 4 }, { offsetof(Elf64_Shdr, sh_entsize), 8 },
			{ offsetof(Elf64_Shdr, sh_addr), 8 }, { offsetof(Elf64_Shdr, sh_name), 4 },
		};
		static const u32 types[] = { SHT_NULL, SHT_PROGBITS, SHT_NOBITS, SHT_SYMTAB, SHT_DYNSYM,
					     SHT_RELA, SHT_REL, SHT_STRTAB, SHT_DYNAMIC };
		int fi = (int)(next() % (sizeof(f) / sizeof(f[0])));

		at = hot[next() % nh] + f[fi].off;
		val = fi == 0 ? types[next() % (sizeof(types) / sizeof(types[0]))] : boundary(n);
		if (at + f[fi].w <= n)
			memcpy(d + at, &val, f[fi].w);
		return n;
	}
	/* a field of the ELF or program headers set to a boundary value */
	w = (size_t)1 << (next() % 4);	/* 1, 2, 4 or 8 bytes */
	if (kind == 6 || n < 64 + sizeof(Elf64_Phdr))
		at = (next() % (64 / w)) * w;
	else
		at = 64 + next() % (n - 64 < 0x400 ? n - 64 : 0x400);
	if (at + w > n)
		return n;
	val = boundary(n);
	memcpy(d + at, &val, w);	/* little-endian: the low bytes */
	return n;
}

int main(int argc, char **argv)
{
	long cases = 500, seed = 1, crashes = 0, hangs = 0, opened = 0;
	int opt, nf;
	u8 **files;
	size_t *sizes;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			cases = atol(optarg);
		else if (opt == 's')
			seed = atol(optarg);
		else
			return 2;
	}
	nf = argc - optind;
	if (nf <= 0 || cases < 0) {
		fprintf(stderr, "usage: hm-elf-mutate [-n CASES] [-s SEED] FILE...\n");
		return 2;
	}
	files = calloc(nf, sizeof(*files));
	sizes = calloc(nf, sizeof(*sizes));
	if (!files || !sizes)
		return 2;
	for (int i = 0; i < nf; i++) {
		FILE *f = fopen(argv[optind + i], "rb");
		struct stat st;

		if (!f || fstat(fileno(f), &st) < 0 || !(files[i] = malloc(st.st_size + 1)) ||
		    fread(files[i], 1, st.st_size, f) != (size_t)st.st_size) {
			fprintf(stderr, "hm-elf-mutate: %s: cannot read it\n", argv[optind + i]);
			return 2;
		}
		sizes[i] = st.st_size;
		fclose(f);
	}
	LLVMFuzzerInitialize(&argc, &argv);
	rng = 0x9e3779b97f4a7c15ULL ^ (u64)seed * 0x2545f4914f6cdd1dULL;
	for (long c = 0; c < cases; c++) {
		int fi = (int)(next() % nf), status;
		size_t n = sizes[fi];
		u8 *d = malloc(n + 1);
		pid_t pid;

		if (!d)
			return 2;
		memcpy(d, files[fi], n);
		d[n] = 0;	/* a name read past a cut ends at the copy's end */
		for (int m = 0, k = 1 + (int)(next() % 3); m < k; m++)
			n = mutate(d, n);
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			return 2;
		if (pid == 0) {
			hm_child_limits(20);
			hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);
			LLVMFuzzerTestOneInput(d, n);
			_exit(nr_opened ? 0 : NOT_OPENED);
		}
		free(d);
		if (waitpid(pid, &status, 0) < 0)
			return 2;
		if (WIFSIGNALED(status)) {
			if (WTERMSIG(status) == SIGALRM) {
				if (!hangs++)
					fprintf(stderr, "hm-elf-mutate: hang: %s, case %ld (-s %ld)\n",
						argv[optind + fi], c, seed);
			} else if (!crashes++) {
				fprintf(stderr, "hm-elf-mutate: crash (signal %d): %s, case %ld (-s %ld)\n",
					WTERMSIG(status), argv[optind + fi], c, seed);
			}
		} else if (WEXITSTATUS(status) == 0) {
			opened++;
		} else if (WEXITSTATUS(status) != NOT_OPENED && !crashes++) {
			/* a sanitizer's report exits non-zero */
			fprintf(stderr, "hm-elf-mutate: exit %d: %s, case %ld (-s %ld)\n",
				WEXITSTATUS(status), argv[optind + fi], c, seed);
		}
	}
	printf("cases %ld: opened %ld, crashes %ld, hangs %ld\n", cases, opened, crashes, hangs);
	for (int i = 0; i < nf; i++)
		free(files[i]);
	free(files);
	free(sizes);
	return crashes || hangs ? 1 : 0;
}
