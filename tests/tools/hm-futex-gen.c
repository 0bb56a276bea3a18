// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-futex-gen: writes a perf.data (hitmap's writer) with kernel memory
 * samples on known futex buckets and fields across 2 sockets / 2 nodes, the
 * futex table geometry in the hitmap metadata, plus noise (other kernel
 * lines, the private hash header, user lines); and the expected counts.
 *
 *   hm-futex-gen -o FILE -e EXPECTED.json [-n SAMPLES] [--seed S] [--no-meta] [--drift]
 *
 * --drift: the bucket samples' code moves through 8 futex functions as the
 * file goes on (3 at a time), so that a field's first functions differ from
 * one part of the file to the next (report --threads' merge of the futex
 * views: a field names its first 4 functions of the whole file).
 *
 * Expected counts are tallied here from the plan (which encoding was
 * written), not with hitmap's classifier.
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

#define G0	0xffff888100998000ull
#define G1	0xffff888200998000ull
#define PRIV	0xffff88815ece9040ull
#define PID	4242
#define NODE_MEM GEN_NODE_MEM

enum kind { K_LHITM, K_RHITM, K_LDRAM, K_RDRAM, K_STORE, K_L1, K__MAX };
enum stat { S_SAMPLES, S_LOADS, S_LHITM, S_RHITM, S_LDRAM, S_RDRAM, S_STORES, S__MAX };
static const char *const stat_names[S__MAX] = { "samples", "loads", "lcl_hitm", "rmt_hitm", "lcl_dram", "rmt_dram", "stores" };

#define P(a, b) PERF_MEM_S(a, b)
static const u64 kind_src[K__MAX] = {
	[K_LHITM] = P(OP, LOAD) | P(LVL, HIT) | P(LVL, L3) | P(SNOOP, HITM) | P(LVLNUM, L3),
	[K_RHITM] = P(OP, LOAD) | P(LVL, HIT) | P(LVL, REM_CCE1) | P(SNOOP, HITM),
	[K_LDRAM] = P(OP, LOAD) | P(LVL, HIT) | P(LVL, LOC_RAM) | P(SNOOP, MISS) | P(LVLNUM, RAM),
	[K_RDRAM] = P(OP, LOAD) | P(LVL, HIT) | P(LVL, REM_RAM1) | P(SNOOP, MISS),
	[K_STORE] = P(OP, STORE) | P(LVL, HIT) | P(LVL, L1),
	[K_L1]	  = P(OP, LOAD) | P(LVL, HIT) | P(LVL, L1) | P(SNOOP, NONE) | P(LVLNUM, L1),
};
/* stat each kind adds, besides samples (and loads for loads) */
static const int kind_stat[K__MAX] = { S_LHITM, S_RHITM, S_LDRAM, S_RDRAM, S_STORES, -1 };

static const struct { int table; u64 index; } buckets[] = {
	{ 0, 3 }, { 0, 100 }, { 0, 511 }, { 1, 0 }, { 1, 7 }, { 1, 300 },
	{ 2, 0 }, { 2, 2 }, { 2, 9 }, { 2, 15 }, { 0, 42 }, { 1, 42 },
};
#define NB (sizeof(buckets) / sizeof(buckets[0]))
static const u64 bases[3] = { G0, G1, PRIV };
static const struct { u32 off; int field; } fields[] = {
	{ 0, HM_FUTEX_FIELD_WAITERS }, { 4, HM_FUTEX_FIELD_LOCK }, { 8, HM_FUTEX_FIELD_CHAIN },
	{ 16, HM_FUTEX_FIELD_CHAIN }, { 24, HM_FUTEX_FIELD_PRIV }, { 40, HM_FUTEX_FIELD_PAD },
};
#define NF (sizeof(fields) / sizeof(fields[0]))

static u64 exp_b[NB][S__MAX], exp_f[2][HM_FUTEX_FIELD__MAX][S__MAX], exp_sock[NB][2][S__MAX];
static u64 exp_fph[S__MAX];

static void tally(u64 *st, int k)
{
	st[S_SAMPLES]++;
	if (k != K_STORE)
		st[S_LOADS]++;
	if (kind_stat[k] >= 0)
		st[kind_stat[k]]++;
}

static void put_stats(FILE *f, const u64 *st)
{
	int s;

	for (s = 0; s < S__MAX; s++)
		fprintf(f, "%s\"%s\": %" PRIu64, s ? ", " : "", stat_names[s], st[s]);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' }, { "no-meta", no_argument, NULL, 'M' },
		{ "drift", no_argument, NULL, 'D' }, { NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *expf = NULL;
	unsigned long n = 6000, i;
	bool meta_on = true, drift = false;
	struct hm_header h;
	struct gen_host host;
	struct perf_event_attr a0 = gen_mem_attr(0x1cd, 30, true), a1 = gen_mem_attr(0x82d0, 0, false);
	u64 ids0[4] = { 101, 102, 103, 104 }, ids1[4] = { 201, 202, 203, 204 };
	struct hm_futex_model m;
	struct hm_futex_table t;
	struct hm_meta *meta = NULL;
	void *raw = NULL;
	u64 time = 1000000000ull;
	struct hm_writer *w;
	FILE *f;
	int c, err = 0;
	unsigned b, k;

	while ((c = getopt_long(argc, argv, "o:e:n:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'e': expf = optarg; break;
		case 'n': n = strtoul(optarg, NULL, 10); break;
		case 's': gen_rng = strtoull(optarg, NULL, 0) | 1; break;
		case 'M': meta_on = false; break;
		case 'D': drift = true; break;
		default: return 2;
		}
	}
	if (!out || !expf) {
		fprintf(stderr, "usage: hm-futex-gen -o FILE -e EXPECTED.json [-n SAMPLES] [--seed S] [--no-meta] "
			"[--drift]\n");
		return 2;
	}
	gen_host__header(&host, &h, "hm-futex-gen", "6.18.44-hm-futex-gen", true);

	hm_futex_model__init(&m, HM_FUTEX_ERA_6_17);
	hm_futex_model__set_machine(&m, 4, 2);
	hm_futex_table__parse("global:0:ffff888100998000:512", &t);
	snprintf(t.provenance, sizeof(t.provenance), "hm-futex-gen");
	hm_futex_model__add_table(&m, &t);
	hm_futex_table__parse("global:1:ffff888200998000:512", &t);
	snprintf(t.provenance, sizeof(t.provenance), "hm-futex-gen");
	hm_futex_model__add_table(&m, &t);
	hm_futex_table__parse("private:4242:ffff88815ece9040:16", &t);
	snprintf(t.provenance, sizeof(t.provenance), "hm-futex-gen");
	hm_futex_model__add_table(&m, &t);
	meta = hm_meta__new();
	if (!meta)
		return 1;
	if (meta_on)
		err = hm_futex_model__to_meta(&m, meta);
	if (!err)
		err = hm_meta__add(meta, HM_META_KERNEL, "6.18.44", 8);
	if (!err) {
		/* futex code at the sampled IPs, other code for the noise */
		static const char ksyms[] =
			"ffffffff81000000 T _stext\n"
			"ffffffff81100000 T futex_q_lock\n"
			"ffffffff81100100 T futex_q_unlock\n"
			"ffffffff81100200 T futex_hash\n"
			"ffffffff81100300 t __futex_hash\n"
			"ffffffff81100400 T memcpy_orig\n"
			"ffffffff81100800 T _etext\n";
		/* --drift: 8 futex functions, 0x100 each, then the other code */
		static const char ksyms_drift[] =
			"ffffffff81000000 T _stext\n"
			"ffffffff81100000 T futex_q_lock\n"
			"ffffffff81100100 T futex_q_unlock\n"
			"ffffffff81100200 T futex_hash\n"
			"ffffffff81100300 t __futex_hash\n"
			"ffffffff81100400 T futex_wake\n"
			"ffffffff81100500 T futex_wait_setup\n"
			"ffffffff81100600 T __futex_queue\n"
			"ffffffff81100700 T __futex_unqueue\n"
			"ffffffff81100800 T memcpy_orig\n"
			"ffffffff81100c00 T _etext\n";

		err = drift ? hm_meta__add(meta, HM_META_KSYMS, ksyms_drift, sizeof(ksyms_drift) - 1) :
			      hm_meta__add(meta, HM_META_KSYMS, ksyms, sizeof(ksyms) - 1);
	}
	if (err) {
		fprintf(stderr, "hm-futex-gen: metadata: %s\n", strerror(-err));
		return 1;
	}
	if (gen_meta__attach(meta, &h, &raw, "hm-futex-gen"))
		return 1;
	w = gen_writer__open("hm-futex-gen", out, &h, &a0, "cpu/mem-loads,ldlat=30/P", ids0,
			     &a1, "cpu/mem-stores/P", ids1, PID, "futex-worker");
	if (!w)
		return 1;
	for (i = 0; i < n + n / 10 + n / 6 && !err; i++) {
		struct hm_sample s;
		u64 r = gen_rnd(NB * (NB + 1) / 2), acc = 0;
		unsigned fi = gen_rnd(NF);

		memset(&s, 0, sizeof(s));
		k = gen_rnd(K__MAX);
		s.misc = PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_EXACT_IP;
		s.cpu = gen_rnd(4);
		s.pid = PID;
		s.tid = PID + gen_rnd(4);
		s.time = time += 1000;
		s.ip = 0xffffffff81100000ull + 16 * gen_rnd(64);
		s.period = 1000;
		s.data_src = kind_src[k];
		s.weight = k == K_STORE ? 0 : 30 + gen_rnd(500);
		if (i < n) {
			/* bucket b with weight b+1: distinct counts per bucket */
			for (b = 0; b < NB; b++) {
				acc += b + 1;
				if (r < acc)
					break;
			}
			s.addr = bases[buckets[b].table] + buckets[b].index * 64 + fields[fi].off;
			if (drift)	/* functions (i * 8 / n .. + 2) % 8 */
				s.ip = 0xffffffff81100000ull + 0x100 * ((i * 8 / n + gen_rnd(3)) % 8) + 16 * gen_rnd(16);
			tally(exp_b[b], k);
			tally(exp_sock[b][s.cpu / 2], k);
			tally(exp_f[buckets[b].table == 2][fields[fi].field], k);
		} else if (i < n + n / 10) {
			s.addr = PRIV - 64 + 4 * gen_rnd(16);	/* fph header line */
			tally(exp_fph, k);
		} else if (gen_rnd(2)) {
			s.addr = 0xffff888300000000ull + 64 * gen_rnd(32) + 8 * gen_rnd(8);	/* other kernel memory */
			s.ip = (drift ? 0xffffffff81100800ull : 0xffffffff81100400ull) +
			       16 * gen_rnd(32);						/* ... from other code */
		} else {
			s.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP;
			s.ip = 0x555555555000ull + 16 * gen_rnd(64);
			s.addr = 0x7f0000000000ull + 64 * gen_rnd(32) + 8 * gen_rnd(8);
		}
		/* physical addresses: global table n on node n, the private hash on node 1 */
		if (s.addr >= G0 && s.addr < G0 + 512 * 64)
			s.phys_addr = 0x998000ull + (s.addr - G0);
		else if (s.addr >= G1 && s.addr < G1 + 512 * 64)
			s.phys_addr = NODE_MEM + 0x998000ull + (s.addr - G1);
		else if (s.addr >= PRIV - 64 && s.addr < PRIV + 16 * 64)
			s.phys_addr = NODE_MEM + 0xece9000ull + (s.addr - (PRIV - 64));
		else if (s.addr >= 0xffff888000000000ull)
			s.phys_addr = 0x3000000ull + (s.addr & 0xffff);
		s.id = k == K_STORE ? ids1[s.cpu] : ids0[s.cpu];
		err = hm_writer__write_sample(w, k == K_STORE, &s);
		if (!err && i % 4096 == 4095)
			err = hm_writer__write_finished_round(w);
	}
	if (gen_writer__finish(w, err, true, "hm-futex-gen", out))
		return 1;
	f = fopen(expf, "w");
	if (!f)
		return 1;
	fprintf(f, "{\n  \"bucket_samples\": %lu,\n  \"fph\": {", n);
	put_stats(f, exp_fph);
	fprintf(f, "},\n  \"buckets\": [\n");
	for (b = 0; b < NB; b++) {
		int tb = buckets[b].table;

		fprintf(f, "    {\"table\": \"%s\", \"node\": %s, \"pid\": %s, \"index\": %" PRIu64 ", \"line\": \"0x%" PRIx64 "\", ",
			tb == 2 ? "private" : "global", tb == 2 ? "null" : tb ? "1" : "0", tb == 2 ? "4242" : "null",
			buckets[b].index, bases[tb] + buckets[b].index * 64);
		put_stats(f, exp_b[b]);
		fprintf(f, ", \"sockets\": [{");
		put_stats(f, exp_sock[b][0]);
		fprintf(f, "}, {");
		put_stats(f, exp_sock[b][1]);
		fprintf(f, "}]}%s\n", b + 1 < NB ? "," : "");
	}
	fprintf(f, "  ],\n  \"fields\": [\n");
	for (c = 0; c < 2; c++)
		for (k = 0; k < HM_FUTEX_FIELD__MAX; k++) {
			fprintf(f, "    {\"table\": \"%s\", \"field\": \"%s\", ", c ? "private" : "global", hm_futex_field__name(k));
			put_stats(f, exp_f[c][k]);
			fprintf(f, "}%s\n", c == 1 && k == HM_FUTEX_FIELD__MAX - 1 ? "" : ",");
		}
	fprintf(f, "  ]\n}\n");
	fclose(f);
	hm_meta__delete(meta);
	free(raw);
	hm_futex_model__release(&m);
	return 0;
}
