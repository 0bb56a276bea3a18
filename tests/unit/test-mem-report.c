// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_report on a hand-written file whose maps exercise perf's cache-line
 * grouping (sort__dcacheline_cmp): a private file mapping with a device and
 * inode in two processes at different addresses is one perf entry (map-
 * relative address, no pid split); private anonymous memory is split by pid;
 * another inode is another entry; unmapped and kernel-mode addresses group by
 * address.  Checked against perf c2c report --stats when perf is installed.
 * The counts alone (counts_only, report --lkp) are the full pass's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "tap.h"
#include "test-mem-encodings.h"
#include "report/report.h"
#include "report/lines.h"
#include <hitmap/log.h>

static int mmap2(struct hm_writer *w, u32 pid, u64 addr, u64 len, u32 maj, u32 min, u64 ino,
		 u32 flags, const char *name)
{
	struct {
		struct perf_event_header h;
		u32 pid, tid;
		u64 addr, len, pgoff;
		u32 maj, min;
		u64 ino, ino_generation;
		u32 prot, flags;
		char filename[64];
	} r;

	memset(&r, 0, sizeof(r));
	r.h.type = PERF_RECORD_MMAP2;
	r.h.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA;
	r.h.size = sizeof(r);
	r.pid = r.tid = pid;
	r.addr = addr;
	r.len = len;
	r.maj = maj;
	r.min = min;
	r.ino = ino;
	r.prot = PROT_READ | PROT_WRITE;
	r.flags = flags;
	snprintf(r.filename, sizeof(r.filename), "%s", name);
	return hm_writer__write(w, &r, sizeof(r));
}

static u64 T = 1000;

static int sample(struct hm_writer *w, u32 pid, u64 addr, u16 cpumode, u64 ds)
{
	struct hm_sample s;

	memset(&s, 0, sizeof(s));
	s.misc = cpumode;
	s.ip = cpumode == PERF_RECORD_MISC_KERNEL ? 0xffffffff81000000ULL : 0x400000;
	s.pid = s.tid = pid;
	s.time = T += 10;
	s.addr = addr;
	s.cpu = pid == 100 ? 0 : 1;
	s.data_src = ds;
	s.weight = 100;
	return hm_writer__write_sample(w, 0, &s);
}

int main(void)
{
	const u64 hitm = E_LH | E_L(L3) | E_LN(L3) | E_SNP(HITM);
	const u64 st = HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(HIT);
	char path[] = "/tmp/hm-report-test-XXXXXX";
	struct perf_event_attr a;
	struct hm_header h;
	struct hm_numa_node numa = { .node = 0, .cpus = "0-3" };
	struct hm_report_opts ro;
	struct hm_report *r;
	struct hm_writer *w;
	int fd, err = 0, perf_lines = -1, perf_load = -1, perf_store = -1, perf_nomap = -1;
	int hm_load = -2, hm_store = -2, hm_nomap = -2;
	struct hm_c2c_stats full = { 0 };
	FILE *p;
	char cmd[256], line[256];

	fd = mkstemp(path);
	if (fd < 0) {
		SKIP("report file", "mkstemp: %s", strerror(errno));
		TAP_DONE();
	}
	close(fd);
	w = hm_writer__new(path);
	CHECK("writer", w != NULL);
	if (!w)
		TAP_DONE();
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.size = sizeof(a);
	a.config = 0x1cd;
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_CPU | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	a.mmap = a.mmap2 = a.mmap_data = a.comm = 1;
	err |= hm_writer__add_evsel(w, &a, "cpu/mem-loads,ldlat=30/P", NULL, 0) < 0;
	memset(&h, 0, sizeof(h));
	h.hostname = "test";
	h.arch = "x86_64";
	h.cpuid = "GenuineIntel,6,85,4";
	h.nr_cpus_avail = h.nr_cpus_online = 4;
	h.nr_numa_nodes = 1;
	h.numa = &numa;
	err |= hm_writer__set_header(w, &h);
	err |= hm_writer__write_comm(w, 100, 100, "a");
	err |= hm_writer__write_comm(w, 200, 200, "b");
	err |= hm_writer__write_mmap2(w, 100, 100, 0x400000, 0x1000, 0, 5, 2, "/usr/bin/true", PERF_RECORD_MISC_USER);
	err |= hm_writer__write_mmap2(w, 200, 200, 0x400000, 0x1000, 0, 5, 2, "/usr/bin/true", PERF_RECORD_MISC_USER);
	/* the same file, private, in both processes at different addresses */
	err |= mmap2(w, 100, 0x10000000, 0x10000, 8, 1, 1234, MAP_PRIVATE, "/tmp/hm-test-shared.dat");
	err |= mmap2(w, 200, 0x20000000, 0x10000, 8, 1, 1234, MAP_PRIVATE, "/tmp/hm-test-shared.dat");
	/* private anonymous memory at the same address in both */
	err |= mmap2(w, 100, 0x30000000, 0x10000, 0, 0, 0, MAP_PRIVATE | MAP_ANONYMOUS, "//anon");
	err |= mmap2(w, 200, 0x30000000, 0x10000, 0, 0, 0, MAP_PRIVATE | MAP_ANONYMOUS, "//anon");
	/* another inode, same map-relative offsets */
	err |= mmap2(w, 100, 0x40000000, 0x10000, 8, 1, 99, MAP_PRIVATE, "/tmp/hm-test-other.dat");
	/* A: one perf entry, two hitmap lines */
	err |= sample(w, 100, 0x10000040, PERF_RECORD_MISC_USER, hitm);
	err |= sample(w, 200, 0x20000048, PERF_RECORD_MISC_USER, hitm);
	err |= sample(w, 200, 0x20000050, PERF_RECORD_MISC_USER, st);
	/* B: two perf entries (pid), one hitmap line */
	err |= sample(w, 100, 0x30000080, PERF_RECORD_MISC_USER, hitm);
	err |= sample(w, 200, 0x30000088, PERF_RECORD_MISC_USER, hitm);
	/* C: another inode: its own entry */
	err |= sample(w, 100, 0x40000040, PERF_RECORD_MISC_USER, hitm);
	/* D: unmapped, both pids: one entry */
	err |= sample(w, 100, 0x50000000, PERF_RECORD_MISC_USER, hitm);
	err |= sample(w, 200, 0x50000008, PERF_RECORD_MISC_USER, st);
	/* E: kernel mode, no kernel map: one entry */
	err |= sample(w, 100, 0xffff888000001000ULL, PERF_RECORD_MISC_KERNEL, hitm);
	err |= sample(w, 200, 0xffff888000001010ULL, PERF_RECORD_MISC_KERNEL, hitm);
	err |= hm_writer__close(w);
	hm_writer__delete(w);
	CHECK_EQ("file written", err, 0);

	memset(&ro, 0, sizeof(ro));
	ro.input = path;
	ro.want_lines = true;
	r = hm_report__new(&ro);
	CHECK("report new", r != NULL);
	err = r ? hm_report__run(r) : -1;
	if (err)
		printf("# %s\n", hm_log__last_error() ? hm_log__last_error() : "");
	CHECK_EQ("report run", err, 0);
	if (r) {
		CHECK_EQ("records", r->c2c.nr_entries, 10);
		CHECK_EQ("local hitm", r->c2c.lcl_hitm, 8);
		CHECK_EQ("stores", r->c2c.store, 2);
		CHECK_EQ("perf's shared entries: A 1 + B 2 + C 1 + D 1 + E 1", r->nr_shared, 6);
		CHECK_EQ("perf's shared stores", r->shared.store, 2);
		CHECK_EQ("hitmap virtual lines: A 2 + B 1 + C 1 + D 1 + E 1", hm_lines__count(r->lines), 6);
		CHECK_EQ("data map and code map found for user samples", r->c2c.nomap, 4);
		hm_load = (int)r->shared.load;
		hm_store = (int)r->shared.store;
		hm_nomap = (int)r->c2c.nomap;
		full = r->c2c;
	}
	hm_report__delete(r);

	/* the counts alone (report --lkp): the same counts, nothing else built */
	ro.want_lines = false;
	ro.counts_only = true;
	r = hm_report__new(&ro);
	err = r ? hm_report__run(r) : -1;
	CHECK_EQ("counts only: run", err, 0);
	if (r) {
		CHECK("counts only: every Trace Event counter as the full pass's (no page map rejects too)",
		      !memcmp(&r->c2c, &full, sizeof(full)));
		CHECK_EQ("counts only: the nomap count", (int)r->c2c.nomap, hm_nomap);
		CHECK_EQ("counts only: perf's shared entries not built", r->nr_shared, 0);
	}
	hm_report__delete(r);
	/* a view that reads more turns it off */
	ro.want_lines = true;
	r = hm_report__new(&ro);
	err = r ? hm_report__run(r) : -1;
	CHECK_EQ("counts only with the line table: run", err, 0);
	if (r)
		CHECK_EQ("counts only with the line table: perf's shared entries built", r->nr_shared, 6);
	hm_report__delete(r);
	ro.counts_only = false;

	if (system("perf version >/dev/null 2>&1") != 0) {
		SKIP("perf agrees on shared entries", "perf is not installed");
	} else {
		snprintf(cmd, sizeof(cmd), "perf c2c report --stats --stdio --no-source -i %s 2>/dev/null", path);
		p = popen(cmd, "r");
		while (p && fgets(line, sizeof(line), p))
			if (!strncmp(line, "  Total Shared Cache Lines", 26))
				perf_lines = atoi(strchr(line, ':') + 1);
			else if (!strncmp(line, "  Load HITs on shared lines", 27))
				perf_load = atoi(strchr(line, ':') + 1);
			else if (!strncmp(line, "  Store HITs on shared lines", 28))
				perf_store = atoi(strchr(line, ':') + 1);
			else if (!strncmp(line, "  No Page Map Rejects", 21))
				perf_nomap = atoi(strchr(line, ':') + 1);
		if (p)
			pclose(p);
		CHECK_EQ("perf c2c counts the same shared entries", perf_lines, 6);
		CHECK_EQ("perf: loads on shared lines", perf_load, hm_load);
		CHECK_EQ("perf: stores on shared lines", perf_store, hm_store);
		CHECK_EQ("perf: no page map rejects", perf_nomap, hm_nomap);
	}
	unlink(path);
	TAP_DONE();
}
