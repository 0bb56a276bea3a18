// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap diff: metric sets from synthetic samples, matched across runs by
 * what they are (bucket index, field, data symbol) although every run puts
 * them at other addresses; same configuration -> nothing significant;
 * global hash -> private hash -> the expected metrics move.  The samples go
 * into the report's aggregates (totals, places.c, buckets.c, lines.c) as
 * the report's pass adds them; the metric set reads those.
 */
#include <errno.h>
#include <math.h>
#include <hitmap/mem.h>
#include <hitmap/symbols.h>
#include "tap.h"
#include "report/metrics.h"
#include "report/lines.h"
#include "report/buckets.h"
#include "report/places.h"
#include "mem/data_src.h"

enum acc { LCL_HITM, RMT_HITM, LCL_DRAM, RMT_DRAM, STORE };

static u64 ds(enum acc a)
{
	struct hm_data_src d = { 0 };

	d.op = a == STORE ? HM_OP_STORE : HM_OP_LOAD;
	d.lock = HM_LOCK_NA;
	d.dtlb = HM_TLB_NA;
	switch (a) {
	case LCL_HITM: d.lvl = HM_LVL_HIT | HM_LVL_L3; d.snoop = HM_SNOOP_HITM; break;
	case RMT_HITM: d.lvl = HM_LVL_MISS | HM_LVL_REM_CCE1; d.snoop = HM_SNOOP_HITM; break;
	case LCL_DRAM: d.lvl = HM_LVL_HIT | HM_LVL_LOC_RAM; d.snoop = HM_SNOOP_NONE; break;
	case RMT_DRAM: d.lvl = HM_LVL_HIT | HM_LVL_REM_RAM1; d.snoop = HM_SNOOP_NONE; break;
	case STORE: d.lvl = HM_LVL_HIT | HM_LVL_L1; d.snoop = HM_SNOOP_NA; break;
	}
	return hm_data_src__encode(&d);
}

static u32 rng = 1;
static double urand(void)
{
	rng = rng * 1103515245u + 12345u;
	return ((rng >> 8) & 0xffff) / 65535.0;
}

/* A fake symbol table: "counter" lives at @sym_base in this run. */
static u64 sym_base;
static int fake_resolve(void *priv, u32 pid, u8 cpumode, u64 addr, struct hm_symbol_info *info)
{
	memset(info, 0, sizeof(*info));
	if (addr >= sym_base && addr < sym_base + 128) {
		info->name = "counter";
		info->offset = addr - sym_base;
		info->dso = "prog";
		return 0;
	}
	if (addr >= 0x401000 && addr < 0x402000) {
		info->name = "worker";
		info->offset = addr - 0x401000;
		info->file = "/src/prog.c";
		info->line = 42;
		return 0;
	}
	return -2;
}

/* The run's aggregates, as the report keeps them. */
static struct hm_report rep;

static void feed(const struct hm_futex_model *fm, u64 addr, enum acc k, int socket, double n)
{
	struct hm_sample s = { 0 };
	struct hm_mem_sample ms = { 0 };
	struct hm_c2c_stats one;
	long i, cnt = lround(n);

	s.addr = addr;
	s.data_src = ds(k);
	s.ip = 0x401000 + (k == STORE ? 0x20 : 0x10);
	s.pid = 100;
	s.misc = 2;
	ms.s = &s;
	ms.mapped = true;
	hm_mem__classify(HM_VENDOR_INTEL, s.data_src, addr, &ms.cls);
	ms.cpu_socket = socket;
	ms.cpu_node = socket;
	ms.data_node = 0;
	ms.line = addr & ~63ull;
	ms.futex.table = NULL;
	if (fm)
		hm_futex_model__resolve(fm, addr, &ms.futex);
	memset(&one, 0, sizeof(one));
	hm_c2c_stats__add_v(&one, ms.compat, s.data_src, s.addr, ms.mapped);
	ms.perf = &one;
	for (i = 0; i < cnt; i++) {
		hm_c2c_stats__sum(&rep.c2c, &one);
		rep.cats.nr[ms.cls.cat]++;
		rep.nr_samples++;
		hm_places__add(rep.places, &ms);
		hm_lines__add(rep.lines, &ms, &one, -1);
		hm_buckets__add(rep.buckets, &rep, &ms);
	}
}

/*
 * One run.  @private_hash: the contended futexes hash into a private table
 * (6.17's default for a threaded process) instead of the global one.
 * Addresses change every run (@run), counts get ±@noise relative noise.
 */
static struct hm_metrics *make_run(int run, bool private_hash, double noise)
{
	struct hm_cpu_topo cpu[4] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 } };
	struct hm_numa_node numa[2] = { { 0, 1000, 500, (char *)"0-1" }, { 1, 1000, 500, (char *)"2-3" } };
	struct hm_futex_model *fm = &rep.futex;
	struct hm_futex_table g = { .kind = 0, .node = 0, .pid = -1, .slots = 256 };
	struct hm_futex_table p = { .kind = 1, .node = -1, .pid = 1000 + run, .slots = 16 };
	struct hm_metrics_ctx ctx = { 0 };
	struct hm_magg agg = { 0 };
	struct hm_header h = { 0 };
	struct hm_metrics *m;
	char label[64];
	int s;
	u64 lock_off, waiters_off;

#define N(x) ((x) * (1 + noise * (2 * urand() - 1)))
	memset(&rep, 0, sizeof(rep));
	h.nr_cpus_avail = h.nr_cpus_online = 4;
	h.cpu = cpu;
	h.nr_numa_nodes = 2;
	h.numa = numa;
	rep.topo = hm_topo__new_from_header(&h);
	hm_futex_model__init(fm, HM_FUTEX_ERA_6_17);
	g.base = 0xffff888100000000ull + (u64)run * 0x1000000;
	p.base = 0xffff888300000000ull + (u64)run * 0x40000;
	hm_futex_model__add_table(fm, &g);
	hm_futex_model__add_table(fm, &p);
	rep.places = hm_places__new(rep.topo);
	rep.lines = hm_lines__new(64, 4, 2);
	rep.buckets = hm_buckets__new(&rep);
	sym_base = 0x601000 + run * 0x10000;
	snprintf(label, sizeof(label), "%s-%d.data", private_hash ? "private" : "global", run);
	ctx.label = label;
	ctx.futex = fm;
	ctx.resolve = fake_resolve;
	lock_off = fm->layout.offset[HM_FUTEX_FIELD_LOCK];
	waiters_off = fm->layout.offset[HM_FUTEX_FIELD_WAITERS];
	for (s = 0; s < 2; s++) {
		u64 tb = private_hash ? p.base : g.base;
		u64 b1 = tb + (private_hash ? 3 : 7) * 64, b2 = tb + (private_hash ? 9 : 100) * 64;

		/* the hot bucket: lock and waiters bounce between sockets */
		feed(fm, b1 + lock_off, LCL_HITM, s, N(private_hash ? 300 : 800));
		feed(fm, b1 + lock_off, RMT_HITM, s, N(private_hash ? 100 : 2000));
		feed(fm, b1 + waiters_off, RMT_HITM, s, N(private_hash ? 50 : 600));
		feed(fm, b1 + lock_off, STORE, s, N(private_hash ? 500 : 1500));
		/* a second, cooler bucket */
		feed(fm, b2 + lock_off, LCL_HITM, s, N(200));
		feed(fm, b2 + lock_off, STORE, s, N(300));
		/* a user counter, the same in both configurations */
		feed(fm, sym_base + 0x40, LCL_HITM, s, N(400));
		feed(fm, sym_base + 0x40, STORE, s, N(400));
		/* DRAM traffic */
		feed(fm, 0x7f0000000000ull + run * 0x100000 + s * 4096, LCL_DRAM, s, N(1000));
		feed(fm, 0x7f0000000000ull + run * 0x100000 + s * 4096 + 64, RMT_DRAM, s, N(private_hash ? 600 : 900));
	}
	hm_buckets__finish(rep.buckets);	/* after the last add, as the report's pass does */
	agg.nr_samples = rep.nr_samples;
	agg.c2c = rep.c2c;
	agg.cats = rep.cats;
	agg.places = rep.places;
	agg.buckets = rep.buckets;
	agg.lines = rep.lines;
	m = hm_metrics__build(&ctx, &agg);
	hm_buckets__delete(rep.buckets);
	hm_lines__delete(rep.lines);
	hm_places__delete(rep.places);
	hm_topo__delete(rep.topo);
	hm_futex_model__release(fm);
	return m;
#undef N
}

static const struct hm_diff_row *row(const struct hm_diff *d, const char *key)
{
	const struct hm_diff_row *r = hm_diff__find(d, key);

	if (!r)
		printf("# no row %s\n", key);
	return r;
}

int main(void)
{
	struct hm_metrics *g[3], *g2[3], *p[3], *one;
	struct hm_diff_opts o = { .alpha = 0.05, .top_lines = 20 };
	const struct hm_diff_row *r;
	struct hm_diff *d;
	const struct hm_metric *mt;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	for (i = 0; i < 3; i++) {
		g[i] = make_run(i, false, 0.03);
		g2[i] = make_run(10 + i, false, 0.03);
		p[i] = make_run(20 + i, true, 0.03);
	}
	one = make_run(30, false, 0);

	/* the metric set itself */
	mt = hm_metrics__find(one, "perf-c2c.HITM.remote");
	CHECK("metric-lkp-hitm-remote", mt && mt->value == 2 * (2000 + 600));
	mt = hm_metrics__find(one, "perf-c2c.HITM.total");
	CHECK("metric-lkp-hitm-total", mt && mt->value == 2 * (2000 + 600 + 800 + 200 + 400));
	mt = hm_metrics__find(one, "perf-c2c.DRAM.local");
	CHECK("metric-lkp-dram-local", mt && mt->value == 2000);
	mt = hm_metrics__find(one, "futex.global.node0.bucket.7.socket.1.hitm_remote");
	CHECK("metric-bucket-socket", mt && mt->value == 2600 && mt->match == HM_MATCH_BUCKET);
	mt = hm_metrics__find(one, "futex.global.node0.bucket.7.lock.hitm");
	CHECK("metric-bucket-field", mt && mt->value == 2 * 2800 && mt->match == HM_MATCH_FIELD);
	mt = hm_metrics__find(one, "futex.global.field.waiters.hitm_remote");
	CHECK("metric-field", mt && mt->value == 1200);
	mt = hm_metrics__find(one, "futex.global.hottest.1.hitm");
	CHECK("metric-rank", mt && mt->value == 2 * 3400 && mt->match == HM_MATCH_RANK);
	mt = hm_metrics__find(one, "line.data:counter+0x40.lcl_hitm");
	CHECK("metric-line-data-symbol", mt && mt->value == 800 && mt->match == HM_MATCH_DATA_SYMBOL);
	mt = hm_metrics__find(one, "line.futex.global.node0.bucket.7.rmt_hitm");
	CHECK("metric-line-bucket", mt && mt->match == HM_MATCH_BUCKET && mt->rank == 1);
	mt = hm_metrics__find(one, "socket.1.hitm_local");
	CHECK("metric-socket", mt && mt->value == 800 + 200 + 400);
	mt = hm_metrics__find(one, "xfer.socket1.node0");
	CHECK("metric-xfer", mt && mt->value == 3400 + 200 + 400 + 1000 + 900);
	CHECK("metric-lines-code", one->nr_lines == 3 && one->lines[0].nr_code == 2 &&
	      strstr(one->lines[0].code[0].where, "worker+0x") &&
	      strstr(one->lines[0].code[0].where, "prog.c:42"));
	CHECK_EQ("metric-buckets", one->nr_buckets, 2);
	{
		static const char w[] = "{\"ops_per_sec\": 1234.5, \"threads\": 8, \"name\": \"x\", "
					"\"per\": {\"a\": 1, \"b\": [1,2]}, \"ok\": true}";

		CHECK_EQ("workload-numbers", hm_metrics__add_workload(one, w, sizeof(w) - 1), 3);
		mt = hm_metrics__find(one, "workload.ops_per_sec");
		CHECK("workload-ops", mt && mt->value == 1234.5 && !mt->count);
		CHECK("workload-nested", hm_metrics__find(one, "workload.per.a") != NULL);
		CHECK("workload-bad", hm_metrics__add_workload(one, "{\"a\":", 5) < 0);
	}

	/* same configuration, other addresses, 3 runs each: nothing significant */
	d = hm_diff__new(g, 3, g2, 3, &o);
	CHECK("same-config-diff", d != NULL);
	{
		u32 n = 0, k;

		for (k = 0; k < hm_diff__nr_rows(d); k++)
			n += hm_diff__row(d, k)->significant;
		CHECK_EQ("same-config-no-significant-change", n, 0);
	}
	r = row(d, "futex.global.node0.bucket.7.hitm_remote");
	CHECK("same-config-bucket-matched", r && r->a->n == 3 && r->b->n == 3 && fabs(r->change) < 5 &&
	      r->test == HM_TEST_WELCH);
	r = row(d, "line.data:counter+0x40.tot_hitm");
	CHECK("same-config-line-matched-by-symbol", r && r->match == HM_MATCH_DATA_SYMBOL &&
	      r->a->mean > 700 && r->b->mean > 700);
	hm_diff__delete(d);

	/* global hash -> private hash */
	d = hm_diff__new(g, 3, p, 3, &o);
	r = row(d, "perf-c2c.HITM.remote");
	CHECK("gp-hitm-remote-down", r && r->significant && r->change < -50);
	r = row(d, "futex.global.node0.bucket.7.hitm_remote");
	CHECK("gp-global-bucket-gone", r && r->significant && r->b->mean == 0 && r->match == HM_MATCH_BUCKET);
	r = row(d, "futex.private.bucket.3.hitm_remote");
	CHECK("gp-private-bucket-appears", r && r->significant && r->a->mean == 0 && r->b->mean > 0);
	r = row(d, "futex.global.field.lock.hitm");
	CHECK("gp-field-lock-down", r && r->significant && r->match == HM_MATCH_FIELD);
	r = row(d, "futex.private.field.lock.hitm");
	CHECK("gp-private-field-up", r && r->significant && r->change > 0);
	r = row(d, "line.data:counter+0x40.tot_hitm");
	CHECK("gp-counter-unchanged", r && !r->significant);
	r = row(d, "perf-c2c.DRAM.local");
	CHECK("gp-dram-local-unchanged", r && !r->significant && r->shown);
	/* sorted: significant rows first */
	{
		u32 k, n = hm_diff__nr_rows(d);
		bool ok = true, seen_ns = false;

		for (k = 0; k < n; k++) {
			const struct hm_diff_row *x = hm_diff__row(d, k);

			if (!x->significant)
				seen_ns = true;
			else if (seen_ns)
				ok = false;
		}
		CHECK("gp-sorted-significant-first", ok && hm_diff__row(d, 0)->significant);
	}
	f = open_memstream(&buf, &len);
	hm_diff__render(d, HM_FMT_TEXT, f);
	fclose(f);
	CHECK("gp-text-header", strstr(buf, "         %stddev     %change         %stddev\n") != NULL);
	CHECK("gp-text-row", strstr(buf, "  perf-c2c.HITM.remote\n") != NULL);
	CHECK("gp-text-ns", strstr(buf, "  perf-c2c.DRAM.local  (n.s.)\n") != NULL);
	if (getenv("SHOW"))
		fputs(buf, stdout);
	CHECK("gp-text-footer", strstr(buf, "Welch's t-test") && strstr(buf, "futex table kind+node+bucket index ("));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	hm_diff__render(d, HM_FMT_JSON, f);
	fclose(f);
	CHECK("gp-json", strstr(buf, "\"metric\": \"perf-c2c.HITM.remote\"") && strstr(buf, "\"significant\": true"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	hm_diff__render(d, HM_FMT_CSV, f);
	fclose(f);
	CHECK("gp-csv", !strncmp(buf, "metric,group,match,", 19) && strstr(buf, "\nperf-c2c.HITM.remote,c2c,name,3,"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK_EQ("gp-html", hm_html__render_diff(d, f), 0);
	CHECK_EQ("gp-render-html-einval", hm_diff__render(d, HM_FMT_HTML, stderr), -EINVAL);
	fclose(f);
	CHECK("gp-html-self-contained", strstr(buf, "<!DOCTYPE html>") && !strstr(buf, "src=\"") &&
	      !strstr(buf, "href=") && !strstr(buf, "url(") && !strstr(buf, "fetch(") &&
	      !strstr(buf, "XMLHttpRequest") && !strstr(buf, "@import"));
	free(buf);
	hm_diff__delete(d);

	/* one run per side: Poisson for counts, rows without ± */
	d = hm_diff__new(&g[0], 1, &p[0], 1, &o);
	r = row(d, "perf-c2c.HITM.remote");
	CHECK("single-run-poisson", r && r->test == HM_TEST_POISSON && r->significant);
	hm_diff__delete(d);

	/* HTML of one run */
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK_EQ("report-html", hm_html__render_metrics(one, f), 0);
	fclose(f);
	/* bucket ids as table + index, line ids as prefix + hex digits (the page spells them) */
	CHECK("report-html-data", strstr(buf, "\"mode\":\"report\"") &&
	      strstr(buf, "\"buckets\":{\"tables\":[\"global.node0\"") &&
	      strstr(buf, "\"futex.global.node0.bucket.\""));
	free(buf);

	for (i = 0; i < 3; i++) {
		hm_metrics__delete(g[i]);
		hm_metrics__delete(g2[i]);
		hm_metrics__delete(p[i]);
	}
	hm_metrics__delete(one);
	TAP_DONE();
}
