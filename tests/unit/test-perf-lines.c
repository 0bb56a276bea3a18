// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's level-1 entries of a report cut in ranges (src/report/perf-lines.c):
 * two parts' (line, key) counters merged before their line tables give
 * the Global Shared Cache Line block of one pass over both, where a line's
 * first key differs between the parts and where a line is new to the first;
 * and so do 1500 lines of 5 keys each (every seventh of one), interleaved,
 * in 2 and in 4 parts.
 */
#include "tap.h"
#include "test-mem-encodings.h"
#include "report/perf-lines.h"

struct part {
	struct hm_lines		*l;
	struct hm_perf_lines	*p;
	u64			nr;	/* samples */
};

static int no_fill(void *priv, struct hm_lines *l)
{
	return 0;
}

static int part_new(struct part *t, bool deferred)
{
	t->l = hm_lines__new(64, 8, 2);
	t->p = hm_perf_lines__new();
	t->nr = 0;
	if (t->l && deferred)
		hm_lines__defer_details(t->l, no_fill, NULL);
	return t->l && t->p ? 0 : -1;
}

static void part_delete(struct part *t)
{
	hm_lines__delete(t->l);
	hm_perf_lines__delete(t->p);
}

/* One sample of line @line (offset 8) under the key of @pid, as report.c adds it. */
static void add(struct part *t, u64 line, u32 pid, u64 ds)
{
	struct perf_key k = { .line = line, .pid = pid, .cpumode = PERF_RECORD_MISC_USER, .mapped = 1 };
	struct hm_sample s;
	struct hm_mem_sample ms;
	struct hm_c2c_stats one;
	u32 id;
	int err;

	memset(&s, 0, sizeof(s));
	s.addr = line + 8;
	s.ip = 0x400000;
	s.pid = s.tid = pid;
	s.data_src = ds;
	s.misc = PERF_RECORD_MISC_USER;
	memset(&ms, 0, sizeof(ms));
	ms.s = &s;
	ms.line = line;
	ms.cpu_socket = ms.data_node = -1;
	hm_mem__classify(HM_VENDOR_INTEL, ds, s.addr, &ms.cls);
	memset(&one, 0, sizeof(one));
	hm_c2c_stats__add(&one, ds, s.addr, true);
	id = hm_perf_lines__key_id(t->p, &k, line);
	err = id ? hm_lines__add_key(t->l, &ms, &one, -1, t->nr++, 0, id) : -1;
	if (err > 0)
		err = hm_perf_lines__add_other(t->p, line, id, &one);
	if (err < 0)
		FAILF("add", "sample of line %#llx not added", (unsigned long long)line);
}

/* Part A's samples (@a) or part B's: X, Y in both, Z and W in B only. */
static void feed(struct part *t, bool a)
{
	const u64 hitm = E_LH | E_L(L3) | E_LN(L3) | E_SNP(HITM);
	const u64 st = HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(HIT);
	const u64 X = 0x10000, Y = 0x10040, Z = 0x20000, W = 0x20040;

	if (a) {
		add(t, X, 1, hitm);	/* X's first key: pid 1 */
		add(t, X, 2, st);
		add(t, Y, 1, st);
		add(t, Y, 2, hitm);
		return;
	}
	add(t, X, 2, st);	/* B's first key of X is pid 2: A's is pid 1 */
	add(t, X, 1, hitm);
	add(t, Y, 2, st);
	add(t, Y, 2, st);
	add(t, Z, 2, hitm);
	add(t, Z, 1, st);
	add(t, W, 1, st);
}

/*
 * Many lines with several keys each, in an order that interleaves them:
 * @n samples from sample @from of one deterministic sequence.
 */
/* The sequence's sample @i: line index, key (pid) and kind (0 HITM, 1 store, 2 L1 load). */
static void many_sample(u32 i, u32 *line, u32 *pid, u32 *kind)
{
	u64 x = (i + 1) * 0x9e3779b97f4a7c15ULL;

	x ^= x >> 29;
	*line = x % 1500;
	/* every seventh line has one key: no other keys to group */
	*pid = *line % 7 ? 1 + (u32)(x >> 20) % 5 : 1;
	*kind = (x >> 40) % 3;
}

static void feed_many(struct part *t, u32 from, u32 n)
{
	const u64 ds[3] = { E_LH | E_L(L3) | E_LN(L3) | E_SNP(HITM),
			    HM_DS(OP, HM_OP_STORE) | E_L(L1) | E_L(HIT),
			    HM_DS(OP, HM_OP_LOAD) | E_L(L1) | E_L(HIT) };

	for (u32 i = from; i < from + n; i++) {
		u32 line, pid, kind;

		many_sample(i, &line, &pid, &kind);
		add(t, 0x100000 + (u64)line * 64, pid, ds[kind]);
	}
}

/* The shared block's entry count, stores and HITM + stores, counted per (line, key). */
static void many_expect(u32 total, u32 *nr, u32 *store, u32 *merged)
{
	static u32 hitm[1500][6], st[1500][6];

	memset(hitm, 0, sizeof(hitm));
	memset(st, 0, sizeof(st));
	for (u32 i = 0; i < total; i++) {
		u32 line, pid, kind;

		many_sample(i, &line, &pid, &kind);
		hitm[line][pid] += kind == 0;
		st[line][pid] += kind == 1;
	}
	*nr = *store = *merged = 0;
	for (u32 l = 0; l < 1500; l++)
		for (u32 k = 0; k < 6; k++)
			if (hitm[l][k]) {
				++*nr;
				*store += st[l][k];
				*merged += hitm[l][k] + st[l][k];
			}
}

/* feed_many's samples in one pass and in parts cut at @cut[]: the same shared block. */
static void check_many(const u32 *cut, int nr)
{
	struct part one, p[4], top;
	struct hm_perf_shared g1, g2;
	u32 n1, n2, total = 30000, at = 0;
	bool ok = true;

	if (part_new(&one, false) || part_new(&top, true)) {
		FAILF("many: new", "out of memory");
		return;
	}
	feed_many(&one, 0, total);
	CHECK_EQ("many: one pass finish", hm_perf_lines__finish(one.p, one.l), 0);
	n1 = hm_perf_lines__shared(one.p, &g1);
	{
		u32 en, es, em;

		many_expect(total, &en, &es, &em);
		CHECK_EQ("many: one pass's shared entries, counted", n1, en);
		CHECK_EQ("many: one pass's shared stores, counted", g1.store, es);
		CHECK_EQ("many: one pass's HITM + stores, counted", g1.merged, em);
	}
	for (int i = 0; i <= nr; i++) {
		u32 end = i < nr ? cut[i] : total;

		if (part_new(&p[i], true)) {
			FAILF("many: new", "out of memory");
			return;
		}
		feed_many(&p[i], at, end - at);
		at = end;
	}
	/* each part into the first, in file order */
	for (int i = 1; i <= nr; i++) {
		ok &= !hm_perf_lines__merge_after(p[0].p, p[0].l, p[i].p, p[i].l);
		ok &= !hm_lines__merge_after(p[0].l, p[i].l, p[0].nr);
		p[0].nr += p[i].nr;
	}
	ok &= !hm_perf_lines__merge_after(top.p, top.l, p[0].p, p[0].l);
	ok &= !hm_lines__merge_after(top.l, p[0].l, 0);
	CHECK("many: merges", ok);
	CHECK_EQ("many: lines", hm_lines__count(top.l), hm_lines__count(one.l));
	CHECK_EQ("many: finish", hm_perf_lines__finish(top.p, top.l), 0);
	n2 = hm_perf_lines__shared(top.p, &g2);
	CHECK_EQ("many: shared entries as one pass", n2, n1);
	CHECK("many: shared block as one pass", !memcmp(&g1, &g2, sizeof(g1)));
	part_delete(&one);
	part_delete(&top);
	for (int i = 0; i <= nr; i++)
		part_delete(&p[i]);
}

int main(void)
{
	struct part one, a, b, top;
	struct hm_perf_shared g1, g2;
	u32 n1, n2;

	if (part_new(&one, false) || part_new(&a, true) || part_new(&b, true) || part_new(&top, true)) {
		FAILF("new", "out of memory");
		TAP_DONE();
	}
	/* one pass over both */
	feed(&one, true);
	feed(&one, false);
	CHECK_EQ("one pass: finish", hm_perf_lines__finish(one.p, one.l), 0);
	n1 = hm_perf_lines__shared(one.p, &g1);
	/* (X, pid 1): 2 HITMs; (Y, pid 2): a HITM and 2 stores; (Z, pid 2): a HITM */
	CHECK_EQ("one pass: shared entries", n1, 3);
	CHECK_EQ("one pass: stores of shared entries", g1.store, 2);
	CHECK_EQ("one pass: HITM + stores", g1.merged, 6);

	/* the parts, merged as report-chunks.c does: B into A, then A into an empty report */
	feed(&a, true);
	feed(&b, false);
	CHECK_EQ("parts: keys merged", hm_perf_lines__merge_after(a.p, a.l, b.p, b.l), 0);
	CHECK_EQ("parts: lines merged", hm_lines__merge_after(a.l, b.l, a.nr), 0);
	CHECK_EQ("into an empty report: keys", hm_perf_lines__merge_after(top.p, top.l, a.p, a.l), 0);
	CHECK_EQ("into an empty report: lines", hm_lines__merge_after(top.l, a.l, 0), 0);
	CHECK_EQ("merged: lines", hm_lines__count(top.l), 4);
	CHECK_EQ("merged: finish", hm_perf_lines__finish(top.p, top.l), 0);
	CHECK_EQ("merged: finish again is nothing", hm_perf_lines__finish(top.p, top.l), 0);
	n2 = hm_perf_lines__shared(top.p, &g2);
	CHECK_EQ("merged: shared entries as one pass", n2, n1);
	CHECK("merged: shared block as one pass", !memcmp(&g1, &g2, sizeof(g1)));
	part_delete(&one);
	part_delete(&a);
	part_delete(&b);
	part_delete(&top);
	{
		const u32 two[] = { 13001 }, four[] = { 700, 9000, 21000 };

		check_many(two, 1);
		check_many(four, 3);
	}
	TAP_DONE();
}
