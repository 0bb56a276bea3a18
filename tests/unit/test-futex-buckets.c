// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_buckets (report --by bucket/field/socket) on hand-made samples with
 * known buckets, fields and sockets: exact counts in every view.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <hitmap/futex.h>
#include <hitmap/mem.h>
#include <hitmap/topo.h>
#include "report/report.h"
#include "report/buckets.h"
#include "report/waits.h"
#include "tap.h"

#define G0	0xffff888100998000ull
#define G1	0xffff888200998000ull
#define P	0xffff88815ece9040ull

#define LD_LHITM (PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L3) | PERF_MEM_S(SNOOP, HITM))
#define LD_RHITM (PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, REM_CCE1) | PERF_MEM_S(SNOOP, HITM))
#define LD_LDRAM (PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, LOC_RAM) | PERF_MEM_S(SNOOP, NONE))
#define LD_RDRAM (PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, REM_RAM1) | PERF_MEM_S(SNOOP, NONE))
#define ST_L1    (PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L1))
#define LOCKED   PERF_MEM_S(LOCK, LOCKED)

static u64 cur_ip = 0xffffffff81000000ull;

static int add(struct hm_buckets *b, struct hm_report *r, int n, u64 addr, u64 dsrc, int socket, u64 weight)
{
	struct hm_sample s;
	struct hm_mem_sample ms;
	struct hm_c2c_stats one;
	int i, err = 0;

	for (i = 0; i < n && !err; i++) {
		memset(&s, 0, sizeof(s));
		memset(&ms, 0, sizeof(ms));
		s.addr = addr;
		s.data_src = dsrc;
		s.weight = weight;
		s.cpu = socket * 2;
		s.ip = cur_ip;
		s.misc = PERF_RECORD_MISC_KERNEL;
		ms.s = &s;
		hm_mem__classify(HM_VENDOR_INTEL, dsrc, addr, &ms.cls);
		memset(&one, 0, sizeof(one));
		hm_c2c_stats__add(&one, dsrc, addr, true);
		ms.perf = &one;
		ms.mapped = true;
		ms.cpu_socket = socket;
		ms.cpu_node = socket;
		ms.data_node = -1;
		ms.line = addr & ~63ull;
		hm_futex_model__resolve(&r->futex, addr, &ms.futex);
		err = hm_buckets__add(b, r, &ms);
	}
	return err;
}

static char *render(struct hm_buckets *b, struct hm_report *r, enum hm_bucket_view v, enum hm_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (hm_buckets__render(b, r, v, fmt, false, f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

#define HAS(name, text, line) do { if ((text) && strstr((text), (line))) PASS(name); \
	else FAILF(name, "no line '%s' in:\n%s", (line), (text) ? (text) : "(null)"); } while (0)

int main(void)
{
	struct hm_cpu_topo cpu[4] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 } };
	struct hm_numa_node numa[2] = { { 0, 1000, 500, (char *)"0-1" }, { 1, 1000, 500, (char *)"2-3" } };
	struct hm_header h;
	struct hm_report r;
	struct hm_futex_table t;
	struct hm_buckets *b;
	char *out;

	memset(&h, 0, sizeof(h));
	h.nr_cpus_avail = h.nr_cpus_online = 4;
	h.cpu = cpu;
	h.nr_numa_nodes = 2;
	h.numa = numa;
	memset(&r, 0, sizeof(r));
	{
		/* a kallsyms of our own, so the functions are known and fixed */
		static char ks[] = "/tmp/hitmap-futex-ksyms.XXXXXX";
		int fd = mkstemp(ks);
		FILE *kf = fd >= 0 ? fdopen(fd, "w") : NULL;

		if (kf) {
			fputs("ffffffff80ffff00 T _stext\nffffffff81000000 T futex_q_lock\nffffffff81000100 T futex_q_unlock\nffffffff81000180 T memcpy_orig\nffffffff81000200 T _etext\n", kf);
			fclose(kf);
			r.opts.kallsyms = ks;
		}
	}
	{
		/* the report owns the resolver that every view uses */
		struct hm_symbols_opts so = { .kallsyms = r.opts.kallsyms, .no_source = true };

		r.syms = hm_symbols__new(&so);
		CHECK("symbols", r.syms != NULL);
	}
	r.topo = hm_topo__new_from_header(&h);
	CHECK("topo 2 sockets", r.topo && hm_topo__nr_sockets(r.topo) == 2);
	hm_futex_model__init(&r.futex, HM_FUTEX_ERA_6_17);
	hm_futex_table__parse("global:0:ffff888100998000:512", &t);
	hm_futex_model__add_table(&r.futex, &t);
	hm_futex_table__parse("global:1:ffff888200998000:512", &t);
	hm_futex_model__add_table(&r.futex, &t);
	hm_futex_table__parse("private:100:ffff88815ece9040:16", &t);
	hm_futex_model__add_table(&r.futex, &t);

	b = hm_buckets__new(&r);
	CHECK("new", b != NULL);
	if (!b)
		TAP_DONE();
	/* global node 0 bucket 3: waiters loads (5 local HITM s0, 2 remote HITM s1), lock atomics s0 */
	add(b, &r, 5, G0 + 3 * 64 + 0, LD_LHITM, 0, 100);
	add(b, &r, 2, G0 + 3 * 64 + 0, LD_RHITM, 1, 300);
	add(b, &r, 4, G0 + 3 * 64 + 4, ST_L1 | LOCKED, 0, 0);
	/* global node 1 bucket 7: priv loads, 3 remote DRAM s0... node 1 memory */
	add(b, &r, 3, G1 + 7 * 64 + 24, LD_RDRAM, 0, 200);
	add(b, &r, 1, G1 + 7 * 64 + 24, LD_LDRAM, 1, 150);
	/* private bucket 2 chain: 2 stores s1 */
	add(b, &r, 2, P + 2 * 64 + 8, ST_L1, 1, 0);
	/* private hash header fph.state: 6 local HITM loads s0 (not a bucket, named) */
	add(b, &r, 6, P - 64, LD_LHITM, 0, 50);
	/* not futex memory, touched by other code: ignored */
	cur_ip = 0xffffffff81000180ull;
	add(b, &r, 10, 0xffff888300000000ull, LD_LHITM, 0, 10);
	/* a line in no known table touched by futex code: by address, index unknown */
	cur_ip = 0xffffffff81000010ull;
	add(b, &r, 3, 0xffff888400000044ull, LD_RHITM, 1, 10);

	out = render(b, &r, HM_BY_BUCKET, HM_FMT_CSV);
	HAS("csv header", out, "table,node,pid,index,addr,samples,loads,hitm_local,hitm_xdie,hitm_remote,dram_local,dram_remote,stores,cost,s0_loads");
	HAS("bucket global/0/3", out, "global,0,,3,0xffff8881009980c0,11,7,5,0,2,0,0,4,1100,5,5,0,0,4,2,0,0,2,0,waiters,\"futex_q_lock(7)\"");
	HAS("bucket global/1/7", out, "global,1,,7,0xffff8882009981c0,4,4,0,0,0,1,3,0,750,3,0,0,0,0,1,0,0,0,0,priv,");
	HAS("bucket private/100/2", out, "private,,100,2,0xffff88815ece90c0,2,0,0,0,0,0,0,2,0,0,0,0,0,0,0,0,0,0,2,chain,");
	HAS("fph header object", out, "object:fph.state,,100,,0xffff88815ece9000,6,6,6,0,0,0,0,0,300");
	CHECK("no row for non-futex memory", out && !strstr(out, "0xffff888300000000"));
	HAS("unknown index row", out, "unknown,,,,0xffff888400000040,3,3,0,0,3,0,0,0,30,0,0,0,0,0,3,0,0,3,0,lock,\"futex_q_lock(3)\"");
	/* hottest first: the HITM bucket leads */
	CHECK("sorted by HITM", out && strstr(out, "global,0,,3,") < strstr(out, "global,1,,7,"));
	free(out);

	out = render(b, &r, HM_BY_FIELD, HM_FMT_CSV);
	HAS("field waiters load", out, "global,waiters,load,\"futex_q_lock\",7,7,5,0,2,0,0,0,1100");
	HAS("field lock atomic", out, "global,lock,atomic,\"futex_q_lock\",4,0,0,0,0,0,0,4,0");
	HAS("field priv load", out, "global,priv,load,\"futex_q_lock\",4,4,0,0,0,1,3,0,750");
	HAS("field chain store", out, "private,chain,store,\"futex_q_lock\",2,0,0,0,0,0,0,2,0");
	free(out);

	out = render(b, &r, HM_BY_SOCKET, HM_FMT_CSV);
	HAS("socket 0 node 0", out, "0,0,9,5,5,0,0,0,0,4");
	HAS("socket 1 node 0", out, "1,0,2,2,0,0,2,0,0,0");
	HAS("socket 0 node 1", out, "0,1,3,3,0,0,0,0,3,0");
	HAS("socket 1 node 1", out, "1,1,1,1,0,0,0,1,0,0");
	HAS("socket 1 private and unknown: node unknown", out, "1,,5,3,0,0,3,0,0,2");
	HAS("hitm matrix holder 0", out, "\n0,5,5\n");
	HAS("hitm matrix holder 1", out, "\n1,0,0\n");
	free(out);

	out = render(b, &r, HM_BY_BUCKET, HM_FMT_JSON);
	HAS("json resolved", out, "\"resolved\": 17");
	HAS("json futex samples", out, "\"futex_samples\": 26");
	HAS("json hottest field", out, "\"hottest_field\": \"waiters\"");
	free(out);
	out = render(b, &r, HM_BY_BUCKET, HM_FMT_TEXT);
	HAS("text header", out, "Futex hash buckets: 4 buckets, 26 samples in futex memory, 17 resolved");
	HAS("text object", out, "fph.state");
	free(out);
	out = render(b, &r, HM_BY_SOCKET, HM_FMT_TEXT);
	HAS("text matrix", out, "HITM: socket holding the modified line");
	free(out);
	CHECK("render rejects html", render(b, &r, HM_BY_BUCKET, HM_FMT_HTML) == NULL);

	/* what the readers outside buckets*.c copy out: the same numbers as the views */
	{
		struct hm_buckets_totals tot;
		struct hm_bucket_info bi;
		struct hm_bucket_object ob;
		struct hm_bucket_field_row fr;
		struct hm_bucket_cell c;
		u32 *o, n, i;
		int found = 0;

		hm_buckets__totals(b, &tot);
		CHECK("totals: 4 buckets, 1 object, 2 sockets, 2 nodes",
		      tot.nr == 4 && tot.nr_objs == 1 && tot.nr_sockets == 2 && tot.nr_nodes == 2);
		CHECK("totals: 26 futex samples, 17 resolved, 3 of an unknown index, 6 on objects",
		      tot.futex_samples == 26 && tot.resolved == 17 && tot.unknown_index == 3 && tot.objects == 6);
		CHECK("totals: no contention", tot.contentions == 0 && tot.contentions_resolved == 0);
		o = hm_buckets__order(b, HM_BY_BUCKET, &n);
		CHECK("order: 4 buckets", o && n == 4);
		if (o) {
			hm_buckets__bucket(b, o[0], &bi);
			CHECK("hottest bucket: global node 0 index 3, cost 1100",
			      bi.table == 0 && bi.index == 3 && bi.cost == 1100 && !bi.contended && !bi.waits);
		}
		free(o);
		hm_buckets__object(b, 0, &ob);
		CHECK("object: fph.state of pid 100, 6 local HITM, cost 300",
		      ob.name && !strcmp(ob.name, "fph.state") && ob.pid == 100 && ob.addr == P - 64 &&
		      ob.st.samples == 6 && ob.st.cat[HM_CAT_HITM_LOCAL] == 6 && ob.cost == 300);
		o = hm_buckets__order(b, HM_BY_FIELD, &n);
		for (i = 0; o && i < n; i++) {
			hm_buckets__field_row(b, o[i], &fr);
			if (fr.kind == 0 && fr.field == HM_FUTEX_FIELD_LOCK && !strcmp(fr.access, "atomic"))
				found = fr.st.samples == 4 && fr.st.locked == 4 && fr.func &&
					!strcmp(fr.func, "futex_q_lock");
		}
		free(o);
		CHECK("field row: global lock atomic, 4 locked samples in futex_q_lock", found);
		hm_buckets__cell(b, 0, 1, &c);
		CHECK("cell socket 0 x node 0: 9 samples, 5 local HITM", c.st.samples == 9 &&
		      c.st.cat[HM_CAT_HITM_LOCAL] == 5 && c.contentions == 0);
		hm_buckets__cell(b, 1, 0, &c);
		CHECK("cell socket 1 x node unknown: 5 samples", c.st.samples == 5);
		hm_buckets__cell(b, 2, 0, &c);
		CHECK("cell past the sockets: zero", c.st.samples == 0 && c.contentions == 0);
		hm_buckets__cell(b, 0, 3, &c);
		CHECK("cell past the nodes: zero", c.st.samples == 0);
		CHECK("contended socket past the sockets: 0", hm_buckets__contended_socket(b, 0, 2) == 0);
		{
			unsigned nw = 1;
			struct hm_waits_row *w = hm_waits__rows(hm_buckets__callers(b), &nw);

			CHECK("callers: no waits from memory samples", w && nw == 0);
			free(w);
		}
	}

	hm_buckets__delete(b);
	hm_buckets__delete(NULL);
	hm_futex_model__release(&r.futex);
	hm_topo__delete(r.topo);
	hm_symbols__delete(r.syms);
	if (r.opts.kallsyms)
		unlink(r.opts.kallsyms);
	TAP_DONE();
}
