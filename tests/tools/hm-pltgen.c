// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-pltgen -o FILE ELF...: a perf.data (via hitmap's writer) with one
 * cpu-clock sample on every byte of each ELF's PLT neighbourhood, from the
 * first of .init, .plt, .plt.got and .plt.sec to 32 bytes past the last of
 * them (gaps included), and of its .text when that is at most 64 KiB (a
 * test program's functions), for comparing symbol names with perf script where
 * a live recording lands on them only by chance.  Each ELF gets a process
 * of its own whose MMAP2 maps its executable PT_LOAD as the loader would
 * (page-aligned, pgoff the segment's offset), so perf and hitmap resolve
 * the same file by path.  sample_id_all is 0: records are taken in file order.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include "gen-common.h"

#define BASE	0x555500000000ULL
#define STRIDE	0x10000000ULL

static struct hm_writer *w;
static int err;

static void put(u32 type, u16 misc, const void *body, size_t blen, const char *str)
{
	if (!err)
		err = gen_record(w, type, misc, body, blen, str);
}

/* The span to sample and the executable segment's mapping; 0, 1 (nothing to sample), or -1; a message for both. */
static int elf_span(const char *path, u64 *lo, u64 *hi, u64 *mstart, u64 *mlen, u64 *pgoff,
		    bool *exec, u64 *tlo, u64 *thi)
{
	static const char *const want[] = { ".init", ".plt", ".plt.got", ".plt.sec" };
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	Elf *e = NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx, nph;
	GElf_Shdr sh;
	GElf_Phdr ph;
	GElf_Ehdr eh;

	*lo = UINT64_MAX;
	*hi = 0;
	*tlo = *thi = 0;
	*mlen = 0;
	if (fd < 0) {
		fprintf(stderr, "hm-pltgen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx) || elf_getphdrnum(e, &nph)) {
		fprintf(stderr, "hm-pltgen: %s: not an ELF file\n", path);
		goto out;
	}
	*exec = gelf_getehdr(e, &eh) && eh.e_type == ET_EXEC;
	while ((scn = elf_nextscn(e, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || !(n = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(n, ".text") && sh.sh_size <= 65536) {
			*tlo = sh.sh_addr;
			*thi = sh.sh_addr + sh.sh_size;
		}
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			if (!strcmp(n, want[i]) && sh.sh_size) {
				if (sh.sh_addr < *lo)
					*lo = sh.sh_addr;
				if (sh.sh_addr + sh.sh_size > *hi)
					*hi = sh.sh_addr + sh.sh_size;
			}
	}
	for (size_t i = 0; i < nph; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			*mstart = ph.p_vaddr & ~0xfffULL;
			*mlen = ((ph.p_vaddr + ph.p_memsz + 0xfff) & ~0xfffULL) - *mstart;
			*pgoff = ph.p_offset & ~0xfffULL;
			break;
		}
	ret = 0;
	if (*lo >= *hi || !*mlen) {	/* some have none (Debian 13's ld.so): skipped, not an error */
		fprintf(stderr, "hm-pltgen: %s: no .init/.plt section or no executable segment; skipped\n", path);
		ret = 1;
		goto out;
	}
	*hi += 32;
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	struct perf_event_attr a;
	struct hm_header h;
	struct gen_host host;
	u64 t = 1000;
	int first = 0, ret, nr = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else {
			first = i;
			break;
		}
	}
	if (!out || !first) {
		fprintf(stderr, "usage: hm-pltgen -o FILE ELF...\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	w = hm_writer__new(out);
	if (!w) {
		fprintf(stderr, "hm-pltgen: %s: %s\n", out, hm_log__last_error());
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	a.mmap = a.comm = a.mmap2 = a.task = 1;
	err = hm_writer__add_evsel(w, &a, "cpu-clock", NULL, 0) < 0;
	gen_host__header(&host, &h, "hm-pltgen", "6.1.0", false);
	if (!err)
		err = hm_writer__set_header(w, &h);
	for (int i = first; i < argc && !err; i++) {
		u64 lo, hi, ms, ml, pg, tlo, thi, base = BASE + (u64)(i - first) * STRIDE;
		bool exec;
		u32 pid = 1000 + (u32)(i - first);
		struct { u32 pid, tid; } c = { pid, pid };
		struct { u32 pid, tid; u64 start, len, pgoff; u32 maj, min; u64 ino, gen; u32 prot, flags; } m;

		ret = elf_span(argv[i], &lo, &hi, &ms, &ml, &pg, &exec, &tlo, &thi);
		if (ret < 0) {
			err = 1;
			break;
		}
		if (ret)
			continue;
		nr++;
		if (exec)	/* ET_EXEC: loaded where it was linked */
			base = 0;
		put(PERF_RECORD_COMM, 0, &c, sizeof(c), "pltgen");
		m = (typeof(m)){ pid, pid, base + ms, ml, pg, 8, 1, 1000 + (u64)i, 0, 5, 2 };
		put(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &m, sizeof(m), argv[i]);
		u64 span[2][2] = { { lo, hi }, { tlo, thi } };

		if (tlo < hi && thi > lo) {	/* overlapping: one span */
			span[0][0] = lo < tlo ? lo : tlo;
			span[0][1] = hi > thi ? hi : thi;
			span[1][0] = span[1][1] = 0;
		}
		for (int k = 0; k < 2; k++)
			for (u64 v = span[k][0]; v < span[k][1] && !err; v++) {
				struct hm_sample s;

				memset(&s, 0, sizeof(s));
				s.misc = PERF_RECORD_MISC_USER;
				s.ip = base + v;
				s.pid = s.tid = pid;
				s.time = t++;
				s.period = 1;
				err = hm_writer__write_sample(w, 0, &s);
			}
	}
	if (!err && !nr) {
		fprintf(stderr, "hm-pltgen: none of the ELF files has a PLT to sample\n");
		err = 1;
	}
	if (!err)
		err = hm_writer__close(w);
	hm_writer__delete(w);
	if (err) {
		fprintf(stderr, "hm-pltgen: %s: %s\n", out, err == 1 ? "see above" : hm_log__last_error());
		return 1;
	}
	return 0;
}
