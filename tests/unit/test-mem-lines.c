// SPDX-License-Identifier: GPL-2.0-only
/* Per cache line aggregation (src/report/lines.c): hashing, offsets, caps, the shared filter. */
#include "tap.h"
#include "test-mem-encodings.h"
#include "report/lines.h"

static struct hm_lines *L;

static void add(u64 addr, u64 ip, u32 pid, u64 ds, u32 cpu, int node, u64 weight);

static int no_fill(void *priv, struct hm_lines *l)
{
	return 0;
}

/*
 * The CPU bitmap and node counters in a 320-byte line (@cpus <= 64, @nodes
 * <= 2), in a 384-byte line (up to 12 words of them) or in a block of
 * their own, and after merging a second part: a line in both and a line
 * only in the second.
 */
static void ext_case(int cpus, int nodes)
{
	const u64 hitm = E_LH | E_L(L3) | E_LN(L3) | E_SNP(HITM);
	const u64 st = HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(HIT);
	struct hm_lines *a = hm_lines__new(64, cpus, nodes), *b = hm_lines__new(64, cpus, nodes);
	u32 top = (u32)cpus - 1;
	int last = nodes - 1;
	const struct hm_line *x, *y;
	const struct hm_line_first *fx, *fy;

	CHECK("ext: new", a && b);
	if (!a || !b)
		goto out;
	hm_lines__defer_details(a, no_fill, NULL);
	hm_lines__defer_details(b, no_fill, NULL);
	L = a;
	add(0x9000, 0x401000, 1, hitm, 0, 0, 10);
	add(0x9000, 0x401000, 1, st, top, last, 10);
	L = b;
	add(0xa000, 0x401000, 1, hitm, top, last, 10);
	add(0x9000, 0x401000, 1, hitm, 3, last, 10);
	CHECK_EQ("ext: merge", hm_lines__merge_after(a, b, 2), 0);
	CHECK_EQ("ext: the second part left empty", hm_lines__count(b), 0);
	CHECK_EQ("ext: nothing found there", hm_lines__lookup(b, 0x9000), 0);
	x = hm_lines__at(a, hm_lines__lookup(a, 0x9000));
	y = hm_lines__at(a, hm_lines__lookup(a, 0xa000));
	CHECK("ext: lines", x && y && hm_lines__count(a) == 2);
	if (!x || !y)
		goto out;
	CHECK("ext: cpus of both parts", (hm_line__cpus(x)[0] & 9) == 9 &&
	      ((hm_line__cpus(x)[top / 64] >> (top % 64)) & 1));
	/* HITMs on node 0 (first part) and the last node (second), a store on the last */
	CHECK("ext: node counters of both parts", hm_line__node(x)[0] == (last ? 1u : 2u) &&
	      hm_line__node(x)[last * 3] == (last ? 1u : 2u) && hm_line__node(x)[last * 3 + 2] == 1);
	CHECK("ext: a line of the second part", ((hm_line__cpus(y)[top / 64] >> (top % 64)) & 1) &&
	      hm_line__node(y)[last * 3] == 1);
	/*
	 * the first samples (in the line or beside the lines: lines.h): the
	 * second part's line numbered after the first part's 2 samples, its
	 * first phys address (the sample's address here) kept
	 */
	fx = hm_lines__first(a, x);
	fy = hm_lines__first(a, y);
	CHECK("ext: first sample of a line in both parts", fx && fx->addr == 0x9000 && fx->ip == 0x401000 &&
	      fx->seq == 0 && fx->phys == 0x9000 && x->first_pid == 1);
	CHECK("ext: first sample of the second part's line", fy && fy->addr == 0xa000 && fy->seq == 2 &&
	      fy->phys == 0xa000);
	CHECK("ext: one pa change a line (the same phys address)", x->pa_cnt == 1 && y->pa_cnt == 1);
out:
	hm_lines__delete(a);
	hm_lines__delete(b);
	L = NULL;
}

static void add(u64 addr, u64 ip, u32 pid, u64 ds, u32 cpu, int node, u64 weight)
{
	struct hm_sample s;
	struct hm_mem_sample ms;
	struct hm_c2c_stats one;

	memset(&s, 0, sizeof(s));
	s.sample_type = PERF_SAMPLE_CPU;
	s.addr = addr;
	s.ip = ip;
	s.pid = s.tid = pid;
	s.cpu = cpu;
	s.data_src = ds;
	s.weight = weight;
	s.phys_addr = addr;
	s.misc = PERF_RECORD_MISC_USER;
	memset(&ms, 0, sizeof(ms));
	ms.s = &s;
	ms.line = addr & ~63ULL;
	ms.cpu_socket = node;
	ms.data_node = node;
	hm_mem__classify(HM_VENDOR_INTEL, ds, addr, &ms.cls);
	memset(&one, 0, sizeof(one));
	hm_c2c_stats__add(&one, ds, addr, true);
	if (hm_lines__add(L, &ms, &one, node) < 0)
		FAILF("add", "hm_lines__add failed");
}

int main(void)
{
	const u64 hitm = E_LH | E_L(L3) | E_LN(L3) | E_SNP(HITM);
	const u64 rhitm = E_LH | E_LN(ANY_CACHE) | E_REM | E_SNP(HITM);
	const u64 l1 = E_LH | E_L(L1) | E_LN(L1);
	const u64 st = HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(HIT);
	struct hm_line **v, *ln;
	size_t n, i;
	int found = 0;

	L = hm_lines__new(64, 8, 2);
	CHECK("new", L != NULL);
	/* 200000 distinct lines: the table grows, every line is found again */
	for (i = 0; i < 200000; i++)
		add(0x10000000 + i * 64, 0x400000, 1, l1, 0, 0, 10);
	for (i = 0; i < 200000; i += 1000)
		add(0x10000000 + i * 64 + 8, 0x400000, 1, l1, 0, 0, 10);
	CHECK_EQ("distinct lines", hm_lines__count(L), 200000);
	for (i = 0; i < hm_lines__count(L); i++) {
		ln = hm_lines__get(L, i);
		if (ln->addr == 0x10000000 + 1000 * 64 && ln->st.load == 2 && ln->nr_offs == 2)
			found++;
	}
	CHECK_EQ("line with two offsets", found, 1);
	/* five pairs of these lines share their slots' 32-bit hash: the lookup checks the line */
	found = 0;
	for (i = 0; i < 200000; i++) {
		ln = hm_lines__at(L, hm_lines__lookup(L, 0x10000000 + i * 64));
		found += ln && ln->addr == 0x10000000 + i * 64;
	}
	CHECK_EQ("every line looked up", found, 200000);
	CHECK_EQ("no line looked up", hm_lines__lookup(L, 0x10000000 + 200000 * 64), 0);

	/* one contended line: offsets sorted, HITM kinds, stores, cost, sockets */
	add(0x7000, 0x401000, 7, hitm, 1, 0, 100);
	add(0x7000 + 48, 0x401010, 7, rhitm, 5, 1, 300);
	add(0x7000 + 8, 0x401020, 8, st, 5, 1, 0);
	add(0x7000 + 48, 0x401010, 7, rhitm, 6, 1, 300);
	for (i = 0; i < 20; i++)	/* more code addresses than kept */
		add(0x7000 + 16, 0x402000 + i * 4, 9, l1, 2, 0, 5);
	v = hm_lines__shared(L, HM_SORT_TOT, false, &n);
	CHECK("shared lines", v && n == 1);
	ln = n ? v[0] : NULL;
	CHECK("shared line address", ln && ln->addr == 0x7000);
	CHECK("line counts", ln && ln->st.tot_hitm == 3 && ln->st.lcl_hitm == 1 && ln->st.rmt_hitm == 2 &&
	      ln->st.store == 1 && hm_line__cat(ln, HM_CAT_HITM_REMOTE) == 2 &&
	      hm_line__cat(ln, HM_CAT_HITM_LOCAL) == 1);
	CHECK("cost", ln && ln->cost == 100 + 300 + 300 + 20 * 5);
	CHECK("sockets and data nodes", ln && ln->sockets == 3 && ln->data_nodes == 3);
	CHECK("pids", ln && ln->nr_pids == 3);
	CHECK("offsets sorted", ln && ln->nr_offs == 4 && ln->offs[0].off == 0 && ln->offs[1].off == 8 &&
	      ln->offs[2].off == 16 && ln->offs[3].off == 48);
	CHECK("offset 48 two rmt hitm one ip", ln && ln->offs[3].rmt_hitm == 2 && ln->offs[3].nr_ips == 1 &&
	      ln->offs[3].ip[0].nr == 2 && ln->offs[3].ip[0].hitm == 2);
	CHECK("code addresses capped", ln && ln->offs[2].nr_ips == HM_LINE_MAX_IPS &&
	      ln->offs[2].ips_dropped == 20 - HM_LINE_MAX_IPS);
	CHECK("per node hitm/store", ln && hm_line__node(ln)[0 * 3] == 1 &&
	      hm_line__node(ln)[1 * 3] == 2 && hm_line__node(ln)[1 * 3 + 2] == 1);
	CHECK("cpus", ln && hm_line__cpus(ln)[0] == ((1 << 1) | (1 << 5) | (1 << 6) | (1 << 2)));
	free(v);
	/* -d rmt and cost see the same line; -d peer none */
	v = hm_lines__shared(L, HM_SORT_PEER, false, &n);
	CHECK_EQ("no peer lines", n, 0);
	free(v);
	/* -d cost weighs every line, HITM or not: the contended line ranks first */
	v = hm_lines__shared(L, HM_SORT_COST, true, &n);
	CHECK("cost sort", n == 200001 && v[0]->addr == 0x7000 && v[1]->cost == 20);
	free(v);
	/* ... and below 0.1% of the total cost (900 of 2000900) a line is left out */
	v = hm_lines__shared(L, HM_SORT_COST, false, &n);
	CHECK_EQ("cost sort threshold", n, 0);
	free(v);
	CHECK("bytes grow with lines", hm_lines__bytes(L) > 200000 * sizeof(struct hm_line));
	hm_lines__delete(L);
	hm_lines__delete(NULL);
	ext_case(16, 2);	/* in the line */
	ext_case(130, 3);	/* in a 320-byte line: 3 words of bitmap, 5 of counters */
	ext_case(192, 2);	/* LKP's srf: in a 320-byte line, the first samples beside the lines */
	ext_case(320, 2);	/* 5 + 3 words: the most a 320-byte line holds */
	ext_case(512, 2);	/* 8 + 3 words: in a 384-byte line with its first sample */
	ext_case(832, 2);	/* 13 + 3 words: the most a 384-byte line holds */
	ext_case(900, 2);	/* 15 + 3 words: a block of their own */
	ext_case(1024, 8);	/* a block of their own */
	ext_case(64, 1);
	TAP_DONE();
}
