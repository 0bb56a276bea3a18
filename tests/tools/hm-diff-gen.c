// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-diff-gen: writes a perf.data (hitmap's writer) for hitmap diff tests:
 * a futex-heavy workload on a 2-socket, 2-node machine, either hashing its
 * contended futexes into the global table (--mode global) or into a private
 * hash (--mode private), with every address that a real rerun would move
 * moved by --seed (table bases, the kernel image, the data symbol), and
 * multinomial (Poisson-like) noise in the counts.  Also: extra shared user
 * lines and touched buckets, for size tests, and workload ops/s.
 *
 *   hm-diff-gen -o FILE [--mode global|private] [--seed S] [-n SAMPLES]
 *               [--lines N] [--line-share PCT] [--buckets N] [--ops OPS]
 *
 * --line-share: percent of the samples that go to the --lines lines (15);
 * 100 with -n equal to --lines gives each line exactly one local HITM
 * (linear-time tests with a million distinct lines).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <hitmap/futex.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include "gen-common.h"

#define PID		4242
#define NODE_MEM	GEN_NODE_MEM
#define GSLOTS		32768
#define PSLOTS		64

enum kind { K_LHITM, K_RHITM, K_LDRAM, K_RDRAM, K_STORE, K_L1, K__MAX };

#define P(a, b) PERF_MEM_S(a, b)
static const u64 kind_src[K__MAX] = {
	[K_LHITM] = P(OP, LOAD) | P(LVL, HIT) | P(LVL, L3) | P(SNOOP, HITM) | P(LVLNUM, L3),
	[K_RHITM] = P(OP, LOAD) | P(LVL, HIT) | P(LVL, REM_CCE1) | P(SNOOP, HITM),
	[K_LDRAM] = P(OP, LOAD) | P(LVL, HIT) | P(LVL, LOC_RAM) | P(SNOOP, MISS) | P(LVLNUM, RAM),
	[K_RDRAM] = P(OP, LOAD) | P(LVL, HIT) | P(LVL, REM_RAM1) | P(SNOOP, MISS),
	[K_STORE] = P(OP, STORE) | P(LVL, HIT) | P(LVL, L1),
	[K_L1]	  = P(OP, LOAD) | P(LVL, HIT) | P(LVL, L1) | P(SNOOP, NONE) | P(LVLNUM, L1),
};

/* A kind drawn from weights (per mille). */
static enum kind pick(const unsigned *w)
{
	unsigned r = gen_rnd(1000), acc = 0, k;

	for (k = 0; k < K__MAX; k++) {
		acc += w[k];
		if (r < acc)
			return k;
	}
	return K_L1;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "mode", required_argument, NULL, 'm' }, { "seed", required_argument, NULL, 's' },
		{ "lines", required_argument, NULL, 'l' }, { "buckets", required_argument, NULL, 'b' },
		{ "ops", required_argument, NULL, 'O' }, { "line-share", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	/* contended futex buckets: global (node, index) or private index */
	static const struct { int node; u64 index; unsigned weight; } gbuck[] = {
		{ 0, 37, 40 }, { 1, 201, 25 }, { 0, 4002, 20 }, { 1, 77, 15 },
	};
	static const u64 pbuck[] = { 3, 9, 12, 5 };
	/* per mille: lhitm rhitm ldram rdram store l1 */
	static const unsigned w_global[K__MAX] = { 200, 350, 30, 60, 260, 100 };
	static const unsigned w_private[K__MAX] = { 300, 80, 30, 20, 270, 300 };
	static const unsigned w_counter[K__MAX] = { 300, 200, 0, 0, 400, 100 };
	static const unsigned w_other[K__MAX] = { 0, 0, 300, 200, 200, 300 };
	const char *out = NULL, *mode = "global";
	unsigned long n = 20000, nlines = 0, nbuckets = 0, i, seed = 1, lcount = 0, bcount = 0;
	unsigned long line_share = 15;
	double ops = 0;
	bool priv;
	struct hm_header h;
	struct gen_host host;
	struct perf_event_attr a0 = gen_mem_attr(0x1cd, 30, true), a1 = gen_mem_attr(0x82d0, 0, false);
	u64 ids0[4] = { 101, 102, 103, 104 }, ids1[4] = { 201, 202, 203, 204 };
	struct hm_futex_model m;
	struct hm_futex_table t;
	struct hm_meta *meta;
	void *raw = NULL;
	u64 time = 1000000000ull, g[2], pbase, kaslr, counter;
	char ksyms[1024], wl[128];
	struct hm_writer *w;
	int c, err = 0;

	while ((c = getopt_long(argc, argv, "o:n:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'n': n = strtoul(optarg, NULL, 10); break;
		case 'm': mode = optarg; break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'l': nlines = strtoul(optarg, NULL, 10); break;
		case 'b': nbuckets = strtoul(optarg, NULL, 10); break;
		case 'O': ops = strtod(optarg, NULL); break;
		case 'L': line_share = strtoul(optarg, NULL, 10); break;
		default: return 2;
		}
	}
	if (!out || (strcmp(mode, "global") && strcmp(mode, "private")) || line_share > 100) {
		fprintf(stderr, "usage: hm-diff-gen -o FILE [--mode global|private] [--seed S] [-n SAMPLES] "
			"[--lines N] [--line-share PCT] [--buckets N] [--ops OPS]\n");
		return 2;
	}
	priv = !strcmp(mode, "private");
	gen_rng = 88172645463325252ull ^ (seed * 0x9e3779b97f4a7c15ull);
	gen_rnd(1);
	/* what moves from run to run: table bases, KASLR, the private hash allocation */
	g[0] = 0xffff888100000000ull + (seed % 61) * (GSLOTS * 64ull);
	g[1] = 0xffff888200000000ull + (seed % 53) * (GSLOTS * 64ull);
	pbase = 0xffff888150000000ull + (seed % 97) * 0x10000 + 0x40;
	kaslr = (seed % 37) * 0x200000ull;
	counter = 0xffffffff82a01000ull + kaslr;

	gen_host__header(&host, &h, "hm-diff-gen", "6.17.0-hm-diff-gen", true);

	hm_futex_model__init(&m, HM_FUTEX_ERA_6_17);
	hm_futex_model__set_machine(&m, 4, 2);
	for (c = 0; c < 2; c++) {
		memset(&t, 0, sizeof(t));
		t.kind = 0;
		t.node = c;
		t.pid = -1;
		t.base = g[c];
		t.slots = GSLOTS;
		snprintf(t.provenance, sizeof(t.provenance), "hm-diff-gen");
		hm_futex_model__add_table(&m, &t);
	}
	if (priv) {
		memset(&t, 0, sizeof(t));
		t.kind = 1;
		t.node = -1;
		t.pid = PID + seed;
		t.base = pbase;
		t.slots = PSLOTS;
		snprintf(t.provenance, sizeof(t.provenance), "hm-diff-gen");
		hm_futex_model__add_table(&m, &t);
	}
	meta = hm_meta__new();
	if (!meta)
		return 1;
	snprintf(ksyms, sizeof(ksyms),
		 "%016llx T _text\n%016llx T futex_wait\n%016llx T futex_wake\n"
		 "%016llx T futex_hash\n%016llx T _etext\n%016llx D hm_counter\n"
		 "%016llx D hm_after\n",
		 0xffffffff81000000ull + kaslr, 0xffffffff81100000ull + kaslr,
		 0xffffffff81100400ull + kaslr, 0xffffffff81100800ull + kaslr,
		 0xffffffff81200000ull + kaslr, (unsigned long long)counter,
		 (unsigned long long)counter + 0x1000);
	err = hm_futex_model__to_meta(&m, meta);
	if (!err)
		err = hm_meta__add(meta, HM_META_KERNEL, "6.17.0", 7);
	if (!err)
		err = hm_meta__add(meta, HM_META_KSYMS, ksyms, strlen(ksyms));
	if (!err && ops > 0) {
		/* ops/s with ±1% noise */
		snprintf(wl, sizeof(wl), "{\"benchmark\": \"futex-hash\", \"ops_per_sec\": %.1f, \"threads\": 4}",
			 ops * (0.99 + gen_rnd(2001) / 100000.0));
		err = hm_meta__add(meta, HM_META_WORKLOAD, wl, strlen(wl));
	}
	if (err) {
		fprintf(stderr, "hm-diff-gen: metadata: %s\n", strerror(-err));
		return 1;
	}
	if (gen_meta__attach(meta, &h, &raw, "hm-diff-gen"))
		return 1;
	w = gen_writer__open("hm-diff-gen", out, &h, &a0, "cpu/mem-loads,ldlat=30/P", ids0,
			     &a1, "cpu/mem-stores/P", ids1, PID, "futex-worker");
	if (!w)
		return 1;
	if (hm_writer__write_mmap2(w, (u32)-1, 0, 0xffffffff81000000ull + kaslr, 0x1000000, 0, 5, 2,
				   "[kernel.kallsyms]_text", PERF_RECORD_MISC_KERNEL) ||
	    hm_writer__write_mmap2(w, PID, PID, 0x555555554000ull, 0x100000, 0, 5, 2, "/usr/bin/futex-worker",
				   PERF_RECORD_MISC_USER) ||
	    hm_writer__write_mmap2(w, PID, PID, 0x7f0000000000ull, 0x10000000, 0, 3, 0x22, "//anon",
				   PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA)) {
		fprintf(stderr, "hm-diff-gen: %s: writer setup failed\n", out);
		return 1;
	}
	for (i = 0; i < n && !err; i++) {
		struct hm_sample s;
		u64 r = gen_rnd(100);
		enum kind k;

		/* --line-share: this share of the samples goes to the many lines */
		if (nlines && line_share != 15)
			r = gen_rnd(100) < line_share ? 80 : 95 + gen_rnd(5);
		int cpu_ = gen_rnd(4), node;

		memset(&s, 0, sizeof(s));
		s.misc = PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_EXACT_IP;
		s.cpu = cpu_;
		s.pid = PID;
		s.tid = PID + cpu_;
		s.time = time += 1000;
		s.period = 1000;
		if (r < 60) {
			/* the contended futexes */
			unsigned b = gen_rnd(100), acc = 0, j;

			for (j = 0; j < 3; j++) {
				acc += gbuck[j].weight;
				if (b < acc)
					break;
			}
			k = pick(priv ? w_private : w_global);
			if (priv) {
				s.addr = pbase + pbuck[j] * 64 + (k == K_STORE ? 4 : gen_rnd(2) * 4);
				node = 1;
			} else {
				node = gbuck[j].node;
				s.addr = g[node] + gbuck[j].index * 64 + (k == K_STORE ? 4 : gen_rnd(2) * 4);
			}
			s.ip = 0xffffffff81100000ull + kaslr + (k == K_STORE ? 0x40c : 0x12);
			s.phys_addr = node * NODE_MEM + 0x1000000 + (s.addr & 0xfffff);
		} else if (r < 75) {
			/* a kernel counter, the same in every configuration */
			k = pick(w_counter);
			s.addr = counter + 0x40 + gen_rnd(8);
			s.ip = 0xffffffff81100800ull + kaslr + 0x30;
			s.phys_addr = 0x2a01040ull;
		} else if (r < 80 && nbuckets) {
			/* many touched buckets (size tests) */
			u64 idx = bcount++ % (nbuckets < GSLOTS ? nbuckets : GSLOTS);

			k = pick(w_global);
			node = 0;
			s.addr = g[0] + idx * 64 + 4;
			s.ip = 0xffffffff81100000ull + kaslr + 0x12;
			s.phys_addr = 0x1000000 + (s.addr & 0xfffff);
		} else if (r < 95 && nlines) {
			/* many shared user lines (size tests): every line gets a HITM first */
			u64 li = lcount % nlines;

			k = (lcount++ / nlines) % 2 ? K_STORE : K_LHITM;
			s.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP;
			s.addr = 0x7f0000000000ull + li * 64 + 8 * gen_rnd(8);
			s.ip = 0x555555555000ull + 16 * (li % 256);
			s.phys_addr = NODE_MEM * (li & 1) + 0x4000000 + (li * 64 & 0x3ffffff);
		} else {
			/* everything else: DRAM traffic on both nodes */
			k = pick(w_other);
			s.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP;
			s.addr = 0x7f0008000000ull + 64 * gen_rnd(4096);
			s.ip = 0x555555556000ull + 16 * gen_rnd(64);
			s.phys_addr = NODE_MEM * (s.addr >> 6 & 1) + 0x8000000 + (s.addr & 0xfffff);
		}
		s.data_src = kind_src[k];
		s.weight = k == K_STORE ? 0 : 30 + gen_rnd(500);
		s.id = k == K_STORE ? ids1[s.cpu] : ids0[s.cpu];
		err = hm_writer__write_sample(w, k == K_STORE, &s);
		if (!err && i % 4096 == 4095)
			err = hm_writer__write_finished_round(w);
	}
	err = gen_writer__finish(w, err, true, "hm-diff-gen", out);
	hm_meta__delete(meta);
	free(raw);
	hm_futex_model__release(&m);
	return err;
}
