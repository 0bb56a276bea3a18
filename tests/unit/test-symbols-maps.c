// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_maps with hand-built COMM/MMAP/MMAP2/FORK/EXIT/KSYMBOL records: lookup
 * edges, overlap splitting (perf's maps__fixup_overlappings), fork
 * inheritance and FORK_EXEC, threads sharing their process's maps, EXIT
 * keeping maps, kernel and module maps by cpumode, perf's nomap rule, and
 * build-ids from the header.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <hitmap/symbols.h>
#include "tap.h"

#define KTEXT 0xffffffff81000000ULL
#define KMOD  0xffffffffc0000000ULL
#define U PERF_RECORD_MISC_USER
#define K PERF_RECORD_MISC_KERNEL

static unsigned char buf[1024];

static int feed(struct hm_maps *m, u32 type, u16 misc, const void *rec, size_t len, const char *str)
{
	size_t n = len, sl = str ? strlen(str) + 1 : 0;
	struct perf_event_header *h = (void *)buf;
	struct hm_event ev = { 0 };

	memset(buf, 0, sizeof(buf));
	memcpy(buf, rec, len);
	if (str) {
		memcpy(buf + len, str, sl);
		n += (sl + 7) & ~7UL;
	}
	h->type = type;
	h->misc = misc;
	h->size = n;
	ev.type = type;
	ev.misc = misc;
	ev.size = n;
	ev.data = buf;
	return hm_maps__process(m, &ev);
}

struct mmap2 {
	struct perf_event_header h;
	u32 pid, tid;
	u64 start, len, pgoff;
	union {
		struct { u32 maj, min; u64 ino, ino_gen; };
		struct { u8 bid_size, r1; u16 r2; u8 bid[20]; };
	};
	u32 prot, flags;
};

static int mmap2(struct hm_maps *m, u16 misc, u32 pid, u32 tid, u64 start, u64 len, u64 pgoff,
		 const char *file)
{
	struct mmap2 r = { .pid = pid, .tid = tid, .start = start, .len = len, .pgoff = pgoff,
			   .prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE };

	return feed(m, PERF_RECORD_MMAP2, misc, &r, sizeof(r), file);
}

static int mmap1(struct hm_maps *m, u16 misc, u32 pid, u64 start, u64 len, u64 pgoff, const char *file)
{
	struct { struct perf_event_header h; u32 pid, tid; u64 start, len, pgoff; } r =
		{ .pid = pid, .tid = pid, .start = start, .len = len, .pgoff = pgoff };

	return feed(m, PERF_RECORD_MMAP, misc, &r, sizeof(r), file);
}

static int comm(struct hm_maps *m, u32 pid, u32 tid, const char *name)
{
	struct { struct perf_event_header h; u32 pid, tid; } r = { .pid = pid, .tid = tid };

	return feed(m, PERF_RECORD_COMM, 0, &r, sizeof(r), name);
}

static int task(struct hm_maps *m, u32 type, u16 misc, u32 pid, u32 ppid, u32 tid, u32 ptid)
{
	struct { struct perf_event_header h; u32 pid, ppid, tid, ptid; u64 time; } r =
		{ .pid = pid, .ppid = ppid, .tid = tid, .ptid = ptid };

	return feed(m, type, misc, &r, sizeof(r), NULL);
}

static int ksymbol(struct hm_maps *m, u64 addr, u32 len, u16 flags, const char *name)
{
	struct { struct perf_event_header h; u64 addr; u32 len; u16 type, flags; } r =
		{ .addr = addr, .len = len, .type = 1, .flags = flags };

	return feed(m, PERF_RECORD_KSYMBOL, K, &r, sizeof(r), name);
}

static const char *fname(const struct hm_map *mp)
{
	return mp ? mp->filename : "(none)";
}

/*
 * both_get_bid: feeds maps of "/bin/child" at 0x1000 for pid and pid + 1
 * with the two (ino, generation) identities; true when both are found,
 * apart, with the build-id table's entry (0xab...)
 */
static int both_get_bid(struct hm_maps *m, u32 pid, u64 ino1, u64 gen1, u64 ino2, u64 gen2)
{
	struct mmap2 f = { .pid = pid, .tid = pid, .start = 0x1000, .len = 0x1000, .maj = 254,
			   .ino = ino1, .ino_gen = gen1, .prot = PROT_READ | PROT_EXEC,
			   .flags = MAP_PRIVATE };
	const struct hm_map *m1, *m2;

	feed(m, PERF_RECORD_MMAP2, U, &f, sizeof(f), "/bin/child");
	f.pid = f.tid = pid + 1;
	f.ino = ino2;
	f.ino_gen = gen2;
	feed(m, PERF_RECORD_MMAP2, U, &f, sizeof(f), "/bin/child");
	m1 = hm_maps__find(m, pid, U, 0x1000);
	m2 = hm_maps__find(m, pid + 1, U, 0x1000);
	return m1 && m2 && m1 != m2 && m1->build_id_size == 20 && m2->build_id_size == 20 &&
	       m1->build_id[7] == 0xab && m2->build_id[7] == 0xab;
}

int main(void)
{
	struct hm_maps *m = hm_maps__new();
	const struct hm_map *mp;
	struct hm_maps_stats st;

	/* ---- lookups and edges */
	CHECK_EQ("maps comm", comm(m, 100, 100, "app"), 0);
	CHECK_EQ("maps mmap2", mmap2(m, U, 100, 100, 0x10000, 0x40000, 0, "/bin/a"), 0);
	CHECK("maps find: first byte", hm_maps__find(m, 100, U, 0x10000) != NULL);
	CHECK("maps find: last byte", hm_maps__find(m, 100, U, 0x4ffff) != NULL);
	CHECK("maps find: end is exclusive", hm_maps__find(m, 100, U, 0x50000) == NULL);
	CHECK("maps find: before start", hm_maps__find(m, 100, U, 0xffff) == NULL);
	CHECK("maps find: other pid", hm_maps__find(m, 101, U, 0x10000) == NULL);
	CHECK("maps find: user map not seen with kernel cpumode", hm_maps__find(m, 100, K, 0x10000) == NULL);
	CHECK("maps find: guest cpumode finds nothing",
	      hm_maps__find(m, 100, PERF_RECORD_MISC_GUEST_USER, 0x10000) == NULL);
	CHECK_STR("maps comm of tid", hm_maps__comm(m, 100), "app");
	CHECK("maps comm of unknown tid is NULL", hm_maps__comm(m, 999) == NULL);

	/* ---- overlap splitting */
	mmap2(m, U, 100, 100, 0x20000, 0x10000, 0x100000, "/bin/b");
	mp = hm_maps__find(m, 100, U, 0x1ffff);
	CHECK("maps overlap: before part keeps /bin/a",
	      mp && !strcmp(mp->filename, "/bin/a") && mp->start == 0x10000 && mp->end == 0x20000 && mp->pgoff == 0);
	mp = hm_maps__find(m, 100, U, 0x20000);
	CHECK("maps overlap: new map in the middle", mp && !strcmp(mp->filename, "/bin/b") && mp->pgoff == 0x100000);
	mp = hm_maps__find(m, 100, U, 0x30000);
	CHECK("maps overlap: after part of /bin/a, pgoff moved",
	      mp && !strcmp(mp->filename, "/bin/a") && mp->start == 0x30000 && mp->end == 0x50000 &&
	      mp->pgoff == 0x20000);
	/* a map covering several: they disappear */
	mmap2(m, U, 100, 100, 0x18000, 0x20000, 0, "/bin/c");
	CHECK_STR("maps overlap: covering map replaces /bin/b", fname(hm_maps__find(m, 100, U, 0x25000)), "/bin/c");
	mp = hm_maps__find(m, 100, U, 0x17fff);
	CHECK("maps overlap: head of /bin/a trimmed", mp && mp->end == 0x18000 && !strcmp(mp->filename, "/bin/a"));
	mp = hm_maps__find(m, 100, U, 0x38000);
	CHECK("maps overlap: tail of /bin/a trimmed", mp && mp->start == 0x38000 && mp->pgoff == 0x28000);
	/* exact replacement */
	mmap2(m, U, 100, 100, 0x18000, 0x20000, 0, "/bin/d");
	CHECK_STR("maps overlap: same range replaced", fname(hm_maps__find(m, 100, U, 0x18000)), "/bin/d");

	/* ---- MMAP (v1): PROT_EXEC unless MMAP_DATA */
	mmap1(m, U, 100, 0x60000, 0x1000, 0, "/bin/e");
	mmap1(m, U | PERF_RECORD_MISC_MMAP_DATA, 100, 0x70000, 0x1000, 0, "//anon");
	mp = hm_maps__find(m, 100, U, 0x60000);
	CHECK("maps MMAP: exec by default", mp && mp->prot == PROT_EXEC);
	mp = hm_maps__find(m, 100, U, 0x70000);
	CHECK("maps MMAP: MMAP_DATA is not exec", mp && mp->prot == 0 && (mp->misc & PERF_RECORD_MISC_MMAP_DATA));

	/* ---- threads share their process's maps */
	comm(m, 100, 101, "worker");
	CHECK_EQ("maps thread: pid of tid", hm_maps__pid(m, 101), 100);
	CHECK_STR("maps thread: comm", hm_maps__comm(m, 101), "worker");
	mmap2(m, U, 100, 101, 0x80000, 0x1000, 0, "/lib/t.so");	/* a thread maps: the process sees it */
	CHECK_STR("maps thread: thread's MMAP goes to the process", fname(hm_maps__find(m, 100, U, 0x80000)), "/lib/t.so");

	/* ---- FORK: a new process copies the parent's maps */
	task(m, PERF_RECORD_FORK, 0, 200, 100, 200, 100);
	CHECK_STR("maps fork: child inherits the parent's maps", fname(hm_maps__find(m, 200, U, 0x20000)), "/bin/d");
	CHECK_STR("maps fork: child inherits the comm", hm_maps__comm(m, 200), "app");
	mmap2(m, U, 200, 200, 0x20000, 0x1000, 0, "/bin/child");
	CHECK_STR("maps fork: child's MMAP stays in the child", fname(hm_maps__find(m, 200, U, 0x20000)), "/bin/child");
	CHECK_STR("maps fork: parent unchanged", fname(hm_maps__find(m, 100, U, 0x20000)), "/bin/d");
	/* a thread fork shares */
	task(m, PERF_RECORD_FORK, 0, 100, 100, 102, 101);
	CHECK_EQ("maps fork thread: pid", hm_maps__pid(m, 102), 100);
	CHECK_STR("maps fork thread: comm from the parent thread", hm_maps__comm(m, 102), "worker");
	mmap2(m, U, 100, 102, 0x90000, 0x1000, 0, "/lib/u.so");
	CHECK_STR("maps fork thread: shares maps", fname(hm_maps__find(m, 100, U, 0x90000)), "/lib/u.so");
	/* synthesized fork (FORK_EXEC): no copy */
	task(m, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, 300, 100, 300, 100);
	CHECK("maps fork: synthesized FORK copies nothing", hm_maps__find(m, 300, U, 0x20000) == NULL);
	/* pid reuse: a new leader starts fresh, then copies */
	mmap2(m, U, 300, 300, 0xa0000, 0x1000, 0, "/bin/old");
	task(m, PERF_RECORD_FORK, 0, 300, 200, 300, 200);
	CHECK("maps fork: reused pid drops the old maps", hm_maps__find(m, 300, U, 0xa0000) == NULL);
	CHECK_STR("maps fork: reused pid copies the new parent", fname(hm_maps__find(m, 300, U, 0x20000)), "/bin/child");

	/* ---- by thread, like perf's machine__findnew_thread(pid, tid) */
	CHECK_STR("maps thread lookup: a known tid uses its own process",
		  fname(hm_maps__find_thread(m, 4000, 101, U, 0x80000)), "/lib/t.so");
	CHECK("maps thread lookup: by pid alone nothing", hm_maps__find(m, 4000, U, 0x80000) == NULL);
	CHECK_STR("maps thread lookup: tid of another process wins over the sample's pid",
		  fname(hm_maps__find_thread(m, 100, 200, U, 0x20000)), "/bin/child");
	CHECK_STR("maps thread lookup: unknown tid uses the pid's maps",
		  fname(hm_maps__find_thread(m, 200, 299, U, 0x20000)), "/bin/child");
	CHECK("maps thread lookup: mapped_thread", hm_maps__mapped_thread(m, 4000, 101, U, 0x80000, 0x80010) &&
	      !hm_maps__mapped(m, 4000, U, 0x80000, 0x80010));

	/* ---- EXIT keeps the maps (late samples still resolve) */
	task(m, PERF_RECORD_EXIT, 0, 200, 100, 200, 100);
	CHECK_STR("maps exit: maps kept", fname(hm_maps__find(m, 200, U, 0x20000)), "/bin/child");

	/* ---- kernel */
	CHECK("maps kernel: nothing before the kernel MMAP", hm_maps__find(m, 100, K, KTEXT + 0x100) == NULL);
	mmap1(m, K, (u32)-1, KTEXT, 0x1200000, KTEXT, "[kernel.kallsyms]_text");
	mp = hm_maps__find(m, 100, K, KTEXT + 0x100);
	CHECK("maps kernel: vmlinux map", mp && mp->kernel && mp->type == HM_MAP_VMLINUX &&
	      !strcmp(mp->filename, "[kernel.kallsyms]"));
	CHECK("maps kernel: any pid", hm_maps__find(m, 12345, K, KTEXT + 0x100) == mp);
	CHECK("maps kernel: not with user cpumode", hm_maps__find(m, 100, U, KTEXT + 0x100) == NULL);
	CHECK("maps kernel: end exclusive", hm_maps__find(m, 100, K, KTEXT + 0x1200000) == NULL);
	mmap1(m, K, (u32)-1, KMOD, 0x20000, 0, "/lib/modules/6.1/kernel/fs/xfs/xfs.ko");
	mp = hm_maps__find(m, 1, K, KMOD + 0x10);
	CHECK("maps kernel: module map", mp && mp->type == HM_MAP_MODULE);
	/* a second kernel MMAP moves the same map; an open end covers modules too */
	mmap1(m, K, (u32)-1, KTEXT, ~0ULL - KTEXT, KTEXT, "[kernel.kallsyms]_text");
	CHECK("maps kernel: the module wins inside an open-ended kernel map",
	      (mp = hm_maps__find(m, 1, K, KMOD + 0x10)) && mp->type == HM_MAP_MODULE);
	CHECK("maps kernel: vmlinux elsewhere",
	      (mp = hm_maps__find(m, 1, K, KMOD + 0x30000)) && mp->type == HM_MAP_VMLINUX);
	mmap1(m, K, (u32)-1, KTEXT - 0x1000, 0x100, 0, "some_other_name");
	CHECK("maps kernel: other names are ignored", hm_maps__find(m, 1, K, KTEXT - 0x1000) == NULL);
	/* ksymbol outside vmlinux */
	mmap1(m, K, (u32)-1, KTEXT, 0x1200000, KTEXT, "[kernel.kallsyms]_text");
	ksymbol(m, 0xffffffffa0001000ULL, 0x100, 0, "bpf_prog_6deef7357e7b4530");
	mp = hm_maps__find(m, 1, K, 0xffffffffa0001010ULL);
	CHECK("maps ksymbol: register adds a map", mp && mp->type == HM_MAP_KSYMBOL &&
	      !strcmp(mp->filename, "bpf_prog_6deef7357e7b4530"));
	ksymbol(m, 0xffffffffa0001000ULL, 0x100, 1, "bpf_prog_6deef7357e7b4530");
	CHECK("maps ksymbol: unregister removes it", hm_maps__find(m, 1, K, 0xffffffffa0001010ULL) == NULL);
	ksymbol(m, KTEXT + 0x5000, 0x100, 1, "x");
	CHECK("maps ksymbol: unregister never removes vmlinux", hm_maps__find(m, 1, K, KTEXT + 0x5000) != NULL);

	/* ---- perf's nomap rule and iaddr rule */
	CHECK("maps ip: user map", hm_maps__find_ip(m, 100, 0x20000) != NULL);
	CHECK("maps ip: kernel ip found with the user-then-kernel rule", hm_maps__find_ip(m, 100, KTEXT + 0x10) != NULL);
	CHECK("maps mapped: user data + kernel ip", hm_maps__mapped(m, 100, U, KTEXT + 0x10, 0x20000));
	CHECK("maps mapped: kernel-mode sample, user data address is nomap",
	      !hm_maps__mapped(m, 100, K, KTEXT + 0x10, 0x20000));
	CHECK("maps mapped: unmapped data", !hm_maps__mapped(m, 100, U, 0x20000, 0xdead0000));
	CHECK("maps mapped: unmapped ip", !hm_maps__mapped(m, 100, U, 0xdead0000, 0x20000));

	/* ---- build-ids */
	{
		struct hm_build_id b = { .pid = -1, .size = 20, .filename = "/bin/child" };
		struct hm_header h = { 0 };
		struct mmap2 r = { .pid = 100, .tid = 100, .start = 0xb0000, .len = 0x1000, .bid_size = 20 };

		memset(b.id, 0xab, 20);
		h.nr_build_ids = 1;
		h.build_ids = &b;
		CHECK_EQ("maps build-id: set", hm_maps__set_build_ids(m, &h), 0);
		mp = hm_maps__find(m, 200, U, 0x20000);
		CHECK("maps build-id: existing map updated", mp && mp->build_id_size == 20 && mp->build_id[19] == 0xab);
		mmap2(m, U, 400, 400, 0x1000, 0x1000, 0, "/bin/child");
		mp = hm_maps__find(m, 400, U, 0x1000);
		CHECK("maps build-id: later maps get it", mp && mp->build_id_size == 20 && mp->build_id[0] == 0xab);
		/*
		 * One path under two identities, both given the table's
		 * build-id, which perf's map__new lookup is written to give
		 * (man hitmap-script, BUGS): two files (another inode: a
		 * chroot beside the host), or one file whose map perf record
		 * read from /proc/PID/maps (generation 0) and whose kernel
		 * MMAP2 has the inode's generation (perf's dso_id tells them
		 * apart)
		 */
		CHECK("maps build-id: a path's two files both get it", both_get_bid(m, 401, 111, 0, 222, 0));
		CHECK("maps build-id: a file's two inode generations both get it",
		      both_get_bid(m, 403, 111, 0, 111, 3542996130u));
		memset(r.bid, 0x11, 20);
		feed(m, PERF_RECORD_MMAP2, U | (1 << 14), &r, sizeof(r), "/bin/bid");
		mp = hm_maps__find(m, 100, U, 0xb0000);
		CHECK("maps build-id: MMAP2 with MMAP_BUILD_ID", mp && mp->build_id_size == 20 && mp->build_id[5] == 0x11);
	}

	/* ---- bad input */
	{
		struct hm_event ev = { .type = PERF_RECORD_MMAP2, .size = 16, .data = buf };

		CHECK_EQ("maps bad: short MMAP2 is -EINVAL", hm_maps__process(m, &ev), -EINVAL);
		ev.type = PERF_RECORD_SAMPLE;
		CHECK_EQ("maps bad: other records ignored", hm_maps__process(m, &ev), 0);
	}
	/* ---- symbols for kernel maps without kallsyms, and ksymbols */
	{
		struct hm_symbols *s = hm_symbols__new(&(struct hm_symbols_opts){ .kallsyms = "" });
		struct hm_symbol_info info;

		ksymbol(m, 0xffffffffa0002000ULL, 0x100, 0, "bpf_prog_x");
		CHECK("symbols ksymbol: name and offset",
		      !hm_symbols__resolve(s, m, 1, K, 0xffffffffa0002010ULL, &info) &&
		      info.name && !strcmp(info.name, "bpf_prog_x") && info.offset == 0x10);
		CHECK("symbols anon map: dso, no name",
		      !hm_symbols__resolve(s, m, 100, U, 0x70010, &info) && !info.name &&
		      !strcmp(info.dso, "//anon"));
		CHECK("symbols module map without kallsyms: dso [xfs]",
		      !hm_symbols__resolve(s, m, 1, K, KMOD + 0x10, &info) && !strcmp(info.dso, "[xfs]"));
		hm_symbols__delete(s);
	}
	/* ---- perf's kernel map load: the map moves to the kallsyms range at its first hit */
	{
		static const char ktext[] =
			"ffffffff81000000 T _text\n"
			"ffffffff81000100 T func\n"
			"ffffffff81005000 D data_sym\n"
			"ffffffff81005100 R rodata_sym\n"
			"ffffffffc0001000 t mod_fn\t[mod]\n";
		/* the same kernel booted 16 MiB higher (KASLR) */
		static const char kshift[] =
			"ffffffff82000000 T _text\n"
			"ffffffff82005000 D data_sym\n";
		struct hm_ksyms *k = hm_ksyms__parse(ktext, strlen(ktext));
		struct hm_ksyms *k2 = hm_ksyms__parse(kshift, strlen(kshift));
		struct hm_maps *km = hm_maps__new(), *km2 = hm_maps__new(), *km3 = hm_maps__new();
		u64 ks, ke;

		CHECK("kallsyms range: kernel symbols only",
		      !hm_ksyms__kernel_range(k, &ks, &ke) && ks == KTEXT && ke == KTEXT + 0x6000);
		hm_maps__set_kernel_loader(km, NULL, NULL);
		mmap1(km, K, (u32)-1, KTEXT, 0x1000, KTEXT, "[kernel.kallsyms]_text");
		CHECK("kernel load: no loader, recorded range", hm_maps__find(km, 1, K, KTEXT + 0x2000) == NULL);
		hm_maps__delete(km);
		km = hm_maps__new();
		mmap1(km, K, (u32)-1, KTEXT, 0x1000, KTEXT, "[kernel.kallsyms]_text");
		{
			struct hm_symbols *sy = hm_symbols__new(&(struct hm_symbols_opts){ .ksyms_text = ktext, .ksyms_len = sizeof(ktext) - 1 });

			hm_symbols__attach_maps(sy, km);
			CHECK("kernel load: a miss does not load", hm_maps__find(km, 1, K, KTEXT + 0x2000) == NULL);
			CHECK("kernel load: first hit", hm_maps__find(km, 1, K, KTEXT + 0x10) != NULL);
			CHECK("kernel load: kernel data past the recorded end is mapped now",
			      hm_maps__find(km, 1, K, KTEXT + 0x5fff) != NULL);
			CHECK("kernel load: the new end is the last kernel symbol's", hm_maps__find(km, 1, K, KTEXT + 0x6000) == NULL);
			CHECK_EQ("kernel load: map start", hm_maps__kernel_map(km)->start, KTEXT);
			hm_symbols__delete(sy);
		}
		/* relocation: symbols move by kallsyms(_text) - pgoff */
		hm_maps__set_kallsyms(km2, &(struct hm_symbols_opts){ .ksyms_text = kshift, .ksyms_len = sizeof(kshift) - 1 });
		mmap1(km2, K, (u32)-1, KTEXT, 0x1000, KTEXT, "[kernel.kallsyms]_text");
		CHECK("kernel load relocated: hit", hm_maps__find(km2, 1, K, KTEXT) != NULL);
		CHECK("kernel load relocated: range moved back by the delta",
		      hm_maps__kernel_map(km2)->start == KTEXT && hm_maps__kernel_map(km2)->end == KTEXT + 0x6000);
		/* hm_maps__mapped resolves the ip first, as perf does */
		hm_maps__set_kallsyms(km3, &(struct hm_symbols_opts){ .ksyms_text = ktext, .ksyms_len = sizeof(ktext) - 1 });
		mmap1(km3, K, (u32)-1, KTEXT, 0x1000, KTEXT, "[kernel.kallsyms]_text");
		CHECK("kernel load: ip first, so the first sample's data is mapped",
		      hm_maps__mapped(km3, 1, K, KTEXT + 0x100, KTEXT + 0x5000));
		hm_maps__delete(km);
		hm_maps__delete(km2);
		hm_maps__delete(km3);
		hm_ksyms__delete(k);
		hm_ksyms__delete(k2);
	}
	hm_maps__stats(m, &st);
	CHECK("maps stats: threads and processes counted", st.nr_threads >= 5 && st.nr_procs >= 4);
	hm_maps__delete(m);
	hm_maps__delete(NULL);
	TAP_DONE();
}
