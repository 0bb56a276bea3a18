// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Pareto aggregation (src/report/pareto.c): -c parsing, perf's level-1
 * and level-2 keys, per-node counters, the running means, PA changes, and
 * memory that grows with distinct rows, not samples.
 */
#include <errno.h>
#include "tap.h"
#include "report/pareto.h"

static struct hm_sample smp(u32 pid, u32 tid, u32 cpu, u64 ip, u64 addr, u64 weight, u64 phys)
{
	struct hm_sample s;

	memset(&s, 0, sizeof(s));
	s.sample_type = PERF_SAMPLE_CPU;
	s.misc = PERF_RECORD_MISC_USER;
	s.pid = pid;
	s.tid = tid;
	s.cpu = cpu;
	s.ip = ip;
	s.addr = addr;
	s.weight = weight;
	s.phys_addr = phys;
	return s;
}

static int add_map(struct hm_pareto *pa, const struct hm_sample *s, bool hitm, bool store,
		   int data_node, const struct hm_map *imap)
{
	struct hm_pareto_key k = { .line = s->addr & ~63ULL, .cpumode = PERF_RECORD_MISC_USER };
	struct hm_mem_sample ms = { .s = s, .data_node = data_node };
	struct hm_c2c_stats one;

	memset(&one, 0, sizeof(one));
	one.nr_entries = 1;
	if (store) {
		one.store = one.st_l1hit = 1;
	} else {
		one.load = 1;
		if (hitm)
			one.rmt_hitm = one.tot_hitm = 1;
		else
			one.ld_l1hit = 1;
	}
	return hm_pareto__add(pa, &k, &ms, &one, imap);
}

static int add(struct hm_pareto *pa, const struct hm_sample *s, bool hitm, bool store, int data_node)
{
	return add_map(pa, s, hitm, store, data_node, NULL);
}

int main(void)
{
	struct hm_pareto_opts o;
	char bad[32], buf[64];
	int cpu_node[4] = { 0, 0, 1, 1 };
	struct hm_pareto *pa;
	const struct hm_pareto_row *w;
	struct hm_sample s;
	size_t bytes;
	int err = 0;

	CHECK_EQ("parse tid,pid,iaddr,dso", hm_pareto_opts__parse(&o, "tid,pid,iaddr,dso", bad, sizeof(bad)), 0);
	CHECK_EQ("parse keeps 4 fields", o.nr_fields, 4);
	hm_pareto_opts__grouping(&o, buf, sizeof(buf));
	CHECK_STR("grouping text", buf, "offset,tid,pid,iaddr,dso");
	CHECK_EQ("parse rejects foo", hm_pareto_opts__parse(&o, "pid,foo", bad, sizeof(bad)), -EINVAL);
	CHECK_STR("parse names the token", bad, "foo");
	CHECK_EQ("parse accepts offset", hm_pareto_opts__parse(&o, "offset,iaddr", bad, sizeof(bad)), 0);
	CHECK("offset,iaddr: iaddr only", o.nr_fields == 1 && o.field[0] == HM_PARETO_IADDR);

	pa = hm_pareto__new(&o, 64, 4, 2, cpu_node);
	if (!pa) {
		FAILF("new", "NULL");
		TAP_DONE();
	}
	/* one line, offsets 0 and 8; offset 0 from two code addresses */
	s = smp(10, 11, 0, 0x1000, 0x7000, 100, 0x100000);
	err |= add(pa, &s, true, false, 0);
	s = smp(10, 12, 2, 0x1000, 0x7000, 200, 0x100000);
	err |= add(pa, &s, true, false, 0);
	s = smp(10, 12, 3, 0x1000, 0x7000, 0, 0x100040);
	err |= add(pa, &s, false, true, 0);
	s = smp(20, 21, 1, 0x2000, 0x7000, 50, 0);
	err |= add(pa, &s, false, false, -1);
	s = smp(20, 21, 1, 0x2000, 0x7008, 7, 0x100008);
	err |= add(pa, &s, false, false, 1);
	CHECK_EQ("adds succeed", err, 0);
	CHECK_EQ("one line", hm_pareto__nr_lines(pa), 1);
	CHECK_EQ("three rows: (0, 0x1000), (0, 0x2000), (8, 0x2000)", hm_pareto__nr_rows(pa), 3);
	w = hm_pareto__row(pa, 0);
	CHECK("row 0 is offset 0, ip 0x1000", w && w->off == 0 && w->ip == 0x1000);
	CHECK_EQ("row 0 rmt hitm", w->st.rmt_hitm, 2);
	CHECK_EQ("row 0 stores", w->st.store, 1);
	CHECK_EQ("row 0 cpu set", w->cpus[0], 0xd);
	CHECK_EQ("row 0 node 0 hitm", w->node[0].rmt_hitm, 1);
	CHECK_EQ("row 0 node 1 hitm", w->node[1].rmt_hitm, 1);
	CHECK_EQ("row 0 node 1 stores", w->node[1].store, 1);
	CHECK("row 0 mean rmt hitm 150 over 2", w->mean[HM_PM_RMT_HITM].n == 2 &&
	      w->mean[HM_PM_RMT_HITM].mean == 150.0);
	CHECK_EQ("row 0 PA changes", w->paddr_cnt, 2);
	CHECK_EQ("row 0 first tid", w->tid, 11);
	CHECK_EQ("line PA changes (phys 0 is not one)", hm_pareto__line(pa, 0)->paddr_cnt, 3);
	CHECK_EQ("line data nodes", hm_pareto__line(pa, 0)->nodes, 3);
	CHECK_EQ("line address", hm_pareto__line(pa, 0)->addr, 0x7000);

	/* memory grows with distinct rows, never with samples */
	bytes = hm_pareto__bytes(pa);
	s = smp(10, 11, 0, 0x1000, 0x7000, 100, 0x100000);
	for (int i = 0; i < 100000; i++)
		err |= add(pa, &s, true, false, 0);
	CHECK("100000 more samples of a known row: no growth",
	      !err && hm_pareto__bytes(pa) == bytes && hm_pareto__nr_rows(pa) == 3);
	hm_pareto__delete(pa);

	/* -c pid: rows per offset and process, whatever the code address */
	hm_pareto_opts__parse(&o, "pid", bad, sizeof(bad));
	pa = hm_pareto__new(&o, 64, 4, 2, cpu_node);
	s = smp(10, 11, 0, 0x1000, 0x7000, 1, 0);
	err |= add(pa, &s, true, false, -1);
	s = smp(10, 12, 0, 0x3000, 0x7000, 1, 0);
	err |= add(pa, &s, true, false, -1);
	s = smp(30, 31, 0, 0x1000, 0x7000, 1, 0);
	err |= add(pa, &s, true, false, -1);
	CHECK("-c pid: two rows", !err && hm_pareto__nr_rows(pa) == 2);
	hm_pareto__delete(pa);

	/*
	 * A CPU the file's CPUs do not have (the reader warns and hands the
	 * sample on): counted in the row, no CPU bit, no node.  CPUs from 2^31
	 * on were negative in a signed compare: the bitmap was written and the
	 * CPU-to-node table read 256 MB and 8 GB past their ends (found by
	 * tests/fuzz/fuzz-report.c).
	 */
	hm_pareto_opts__parse(&o, "iaddr", bad, sizeof(bad));
	pa = hm_pareto__new(&o, 64, 4, 2, cpu_node);
	{
		static const u32 bad_cpus[] = { 4, 0x7fffffffu, 0x80000000u, 0xffffffffu };

		for (int i = 0; i < 4; i++) {
			s = smp(10, 11, bad_cpus[i], 0x1000, 0x7000, 1, 0);
			err |= add(pa, &s, true, false, -1);
		}
	}
	w = pa ? hm_pareto__row(pa, 0) : NULL;
	CHECK("CPUs past the file's: one row, four samples", !err && w && hm_pareto__nr_rows(pa) == 1 &&
	      w->st.rmt_hitm == 4);
	CHECK("CPUs past the file's: no CPU bit, no node counted", w && w->cpus[0] == 0 &&
	      w->node[0].rmt_hitm == 0 && w->node[1].rmt_hitm == 0);
	hm_pareto__delete(pa);

	/* -c dso: perf's short names of code objects */
	{
		static const struct { const char *file; u8 type; const char *name; } dsos[] = {
			{ "/usr/lib/x86_64-linux-gnu/libc.so.6", HM_MAP_USER, "libc.so.6" },
			{ "/lib/modules/6.1.0/kernel/fs/xfs-ext.ko.xz", HM_MAP_MODULE, "[xfs_ext]" },
			{ "[kernel.kallsyms]", HM_MAP_VMLINUX, "[kernel.kallsyms]" },
			{ "/tmp/perf-4242.map", HM_MAP_USER, "[JIT] tid 4242" },
			{ "//anon", HM_MAP_USER, "anon" },
		};
		struct hm_map maps[5];

		hm_pareto_opts__parse(&o, "dso", bad, sizeof(bad));
		pa = hm_pareto__new(&o, 64, 4, 2, cpu_node);
		for (int i = 0; i < 5; i++) {
			memset(&maps[i], 0, sizeof(maps[i]));
			maps[i].filename = (char *)dsos[i].file;
			maps[i].type = dsos[i].type;
			s = smp(10, 11, 0, 0x1000 + i, 0x7000, 1, 0);
			err |= add_map(pa, &s, true, false, -1, &maps[i]);
		}
		CHECK("-c dso: five rows", !err && pa && hm_pareto__nr_rows(pa) == 5);
		for (int i = 0; pa && i < 5 && i < (int)hm_pareto__nr_rows(pa); i++)
			CHECK_STR(dsos[i].file, hm_pareto__row(pa, i)->dso, dsos[i].name);
		hm_pareto__delete(pa);
	}
	hm_pareto__delete(NULL);
	TAP_DONE();
}
