// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-symmaps-gen -o FILE [-n RANDOM_SAMPLES] [--seed S]: a perf.data (via
 * hitmap's writer) that exercises perf's map tracking for c2c's "No Page
 * Map Rejects": kernel and module MMAPs, a KSYMBOL, user MMAP and MMAP2
 * (an overlapping one), threads, FORK (copied maps), synthesized FORK
 * (FORK_EXEC: nothing copied), EXIT, then L1-hit loads from every pid and
 * cpumode (user, kernel, hypervisor, guest) at map edges.  Every sample is
 * a load with an address, so perf c2c counts exactly the unmapped ones as
 * nomap.  The code map is this tool's own ELF, so perf finds the file.
 * sample_id_all is 0: perf and hitmap both process records in file order.
 * --probe-kernel-data adds, first, a kernel hit and then kernel-mode loads
 * past the recorded kernel map (after that hit perf moves the map to the
 * host's kallsyms range).  --only/--only-addr keep one group, for bisecting.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include "gen-common.h"

#define KTEXT	0xffffffff81000000ULL
#define KMOD	0xffffffffc0000000ULL
#define KBPF	0xffffffffa0000000ULL
#define CODE	0x555555554000ULL
#define DATA	0x7f0000000000ULL

static struct hm_writer *w;
static u64 rng = 88172645463325252ULL;
static int err;

static u64 rnd(u64 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : 0;
}

static void put(u32 type, u16 misc, const void *body, size_t blen, const char *str)
{
	if (!err)
		err = gen_record(w, type, misc, body, blen, str);
}

static void mmap1(u16 misc, u32 pid, u64 start, u64 len, u64 pgoff, const char *f)
{
	struct { u32 pid, tid; u64 start, len, pgoff; } b = { pid, pid, start, len, pgoff };

	put(PERF_RECORD_MMAP, misc, &b, sizeof(b), f);
}

static void mmap2(u16 misc, u32 pid, u32 tid, u64 start, u64 len, u64 pgoff, u32 prot, const char *f)
{
	struct { u32 pid, tid; u64 start, len, pgoff; u32 maj, min; u64 ino, gen; u32 prot, flags; } b =
		{ pid, tid, start, len, pgoff, 8, 1, 1234, 0, prot, 2 };

	put(PERF_RECORD_MMAP2, misc, &b, sizeof(b), f);
}

static void comm(u32 pid, u32 tid, const char *name)
{
	struct { u32 pid, tid; } b = { pid, tid };

	put(PERF_RECORD_COMM, 0, &b, sizeof(b), name);
}

static void task(u32 type, u16 misc, u32 pid, u32 ppid, u32 tid, u32 ptid)
{
	struct { u32 pid, ppid, tid, ptid; u64 time; } b = { pid, ppid, tid, ptid, 0 };

	put(type, misc, &b, sizeof(b), NULL);
}

static void ksym(u64 addr, u32 len, const char *name)
{
	struct { u64 addr; u32 len; u16 type, flags; } b = { addr, len, 1, 0 };

	put(PERF_RECORD_KSYMBOL, PERF_RECORD_MISC_KERNEL, &b, sizeof(b), name);
}

static u64 t = 1000;

static void sample(u8 cpumode, u32 pid, u32 tid, u64 ip, u64 addr)
{
	struct hm_sample s;

	memset(&s, 0, sizeof(s));
	s.misc = cpumode;
	s.ip = ip;
	s.pid = pid;
	s.tid = tid;
	s.time = t++;
	s.addr = addr;
	s.cpu = (u32)rnd(2);
	s.period = 1;
	s.data_src = PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L1) |
		     PERF_MEM_S(SNOOP, NONE) | PERF_MEM_S(TLB, NA) | PERF_MEM_S(LOCK, NA);
	s.weight = 30;
	if (!err)
		err = hm_writer__write_sample(w, 0, &s);
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	unsigned long nrand = 2000;
	long only_p = -1, only_m = -1, only_a = -1;
	bool probe = false;
	char exe[4096];
	struct perf_event_attr a;
	struct hm_header h;
	struct hm_numa_node numa = { 0, 1 << 20, 1 << 19, "0-1" };
	u64 bits = 0xff;
	struct hm_mem_node mem = { 0, 8, &bits };
	struct stat st;
	ssize_t n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			nrand = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--only") && i + 2 < argc) {	/* one fixed group, for bisecting */
			only_p = strtol(argv[++i], NULL, 0);
			only_m = strtol(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--probe-kernel-data")) {
			probe = true;
		} else if (!strcmp(argv[i], "--only-addr") && i + 1 < argc) {
			only_a = strtol(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			rng = strtoull(argv[++i], NULL, 0) | 1;
		else {
			fprintf(stderr, "usage: hm-symmaps-gen -o FILE [-n RANDOM_SAMPLES] [--seed S] [--only PID_INDEX MODE_INDEX] [--only-addr I] [--probe-kernel-data]\n");
			return 2;
		}
	}
	if (!out) {
		fprintf(stderr, "hm-symmaps-gen: no output file; pass -o FILE\n");
		return 2;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || stat((exe[n] = 0, exe), &st)) {
		fprintf(stderr, "hm-symmaps-gen: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	w = hm_writer__new(out);
	if (!w) {
		fprintf(stderr, "hm-symmaps-gen: %s: %s\n", out, hm_log__last_error());
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.size = sizeof(a);
	a.config = 0x1cd;
	a.config1 = 30;
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	a.precise_ip = 3;
	a.mmap = a.comm = a.mmap_data = a.mmap2 = a.task = 1;
	err = hm_writer__add_evsel(w, &a, "cpu/mem-loads,ldlat=30/P", NULL, 0) < 0;
	memset(&h, 0, sizeof(h));
	h.hostname = "hm-symmaps-gen";
	h.osrelease = "6.1.0";
	h.arch = "x86_64";
	h.cpuid = "GenuineIntel,6,85,4";
	h.nr_cpus_avail = h.nr_cpus_online = 2;
	h.nr_numa_nodes = 1;
	h.numa = &numa;
	h.mem_block_size = 128 << 20;
	h.nr_mem_nodes = 1;
	h.mem = &mem;
	if (!err)
		err = hm_writer__set_header(w, &h);

	/* kernel */
	mmap1(PERF_RECORD_MISC_KERNEL, (u32)-1, KTEXT, 0x1000000, KTEXT, "[kernel.kallsyms]_text");
	mmap1(PERF_RECORD_MISC_KERNEL, (u32)-1, KMOD, 0x10000, 0, "/lib/modules/6.1.0/kernel/fs/foo.ko");
	mmap1(PERF_RECORD_MISC_KERNEL, (u32)-1, KMOD + 0x40000, 0x10000, 0, "[bar]");
	mmap1(PERF_RECORD_MISC_KERNEL, (u32)-1, KMOD + 0x80000, 0x10000, 0, "not_a_kernel_map");
	ksym(KBPF, 0x1000, "bpf_prog_0123456789abcdef_f");
	/* process A: code, data, an overlapping map, threads */
	comm(1000, 1000, "proc-a");
	comm(1000, 1001, "proc-a-t1");
	mmap2(PERF_RECORD_MISC_USER, 1000, 1000, CODE, (u64)st.st_size & ~4095ULL, 0, 5, exe);
	mmap2(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, 1000, 1000, DATA, 0x100000, 0, 3, "//anon");
	mmap2(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, 1000, 1001, DATA + 0x40000, 0x2000, 0, 3, exe);
	/* B: forked (copies A), C: synthesized fork (copies nothing), A's third thread */
	task(PERF_RECORD_FORK, 0, 2000, 1000, 2000, 1000);
	task(PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, 3000, 1000, 3000, 1000);
	task(PERF_RECORD_FORK, 0, 1000, 1000, 1002, 1001);
	/* E: old-style MMAP, exec and data */
	comm(5000, 5000, "proc-e");
	mmap1(PERF_RECORD_MISC_USER, 5000, CODE, 0x2000, 0, exe);
	mmap1(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, 5000, DATA, 0x1000, 0, "//anon");
	/* B maps more after the fork; A must not see it */
	mmap2(PERF_RECORD_MISC_USER, 2000, 2000, DATA + 0x200000, 0x1000, 0, 3, "//anon");
	task(PERF_RECORD_EXIT, 0, 1000, 1000, 1001, 1001);

	/* fixed cases */
	static const u32 pids[][2] = { { 1000, 1000 }, { 1000, 1001 }, { 1000, 1002 }, { 1000, 1999 },
				       { 2000, 2000 }, { 3000, 3000 }, { 4000, 4000 }, { 5000, 5000 },
				       { 1000, 2000 }, { 4000, 1001 } };
	static const u64 addrs[] = {
		DATA, DATA + 0x10, DATA + 0xfffff, DATA + 0x100000, DATA - 1, DATA + 0x40000,
		DATA + 0x200000, DATA + 0x200fff, DATA + 0x201000, DATA + 0xfff, DATA + 0x1000,
		CODE, CODE + 0x100, CODE + 0x1fff, CODE + 0x2000, CODE - 1,
		KTEXT, KTEXT + 0x100, KTEXT + 0xffffff, KTEXT + 0x1000000, KTEXT - 1,
		KMOD, KMOD + 0xffff, KMOD + 0x10000, KMOD + 0x40010, KMOD + 0x80010,
		KBPF, KBPF + 0xfff, KBPF + 0x1000, 0x1, 0xffffffffffffffffULL,
	};
	static const u64 probe_addrs[] = { 0xffffffff82000001ULL, 0xffffffff82100000ULL, 0xffffffff8220bb07ULL,
				     0xffffffff8220bb08ULL, 0xffffffff83000000ULL, 0xffff888000100000ULL,
				     0xffffffff84000000ULL, 0xffffffff8f000000ULL };
	if (probe)	/* a kernel hit first: perf then loads kallsyms and moves the map */
		sample(PERF_RECORD_MISC_KERNEL, 1000, 1000, CODE + 0x100, KTEXT + 0x100);
	if (probe)
		for (size_t i = 0; i < sizeof(probe_addrs) / sizeof(probe_addrs[0]); i++)
			sample(PERF_RECORD_MISC_KERNEL, 1000, 1000, CODE + 0x100, probe_addrs[i]);
	static const u8 modes[] = { 1, 2, 2, 2, 3, 4, 5, 0 };
	size_t na = sizeof(addrs) / sizeof(addrs[0]), np = sizeof(pids) / sizeof(pids[0]);

	for (size_t p = 0; p < np; p++)
		for (size_t m = 0; m < 3; m++)
			for (size_t i = 0; i < na; i++)
				if ((only_p < 0 || (size_t)only_p == p) && (only_m < 0 || (size_t)only_m == m) &&
				    (only_a < 0 || (size_t)only_a == i))
					sample(m == 0 ? PERF_RECORD_MISC_USER : m == 1 ? PERF_RECORD_MISC_KERNEL :
				       PERF_RECORD_MISC_USER, pids[p][0], pids[p][1],
				       m == 2 ? addrs[i] : CODE + 0x100, m == 2 ? DATA + 0x10 : addrs[i]);
	for (unsigned long i = 0; i < nrand; i++) {
		size_t p = rnd(np);

		sample(modes[rnd(sizeof(modes))], pids[p][0], pids[p][1], addrs[rnd(na)], addrs[rnd(na)]);
	}
	if (!err)
		err = hm_writer__close(w);
	hm_writer__delete(w);
	if (err) {
		fprintf(stderr, "hm-symmaps-gen: %s: %s\n", out, hm_log__last_error());
		return 1;
	}
	return 0;
}
