// SPDX-License-Identifier: GPL-2.0-only
/*
 * The AUX ring consumer (src/record/aux.c, aux-rec.c) over an in-memory
 * control page and AUX area, the kernel's side played by the test: the
 * AUXTRACE record's fields and padding, a chunk that wraps at the end of
 * the area, a refused chunk that stays for the next read, a head that ran
 * past the tail (overwrite), PERF_RECORD_AUX flags (truncated and partial
 * are data lost, collision a warning), TIME_CONV from the control page,
 * and a whole recording of SPE packets through a 4 KiB area that wraps many
 * times, read back by hitmap's reader as the same samples.
 * The live path (mmap of a real arm_spe AUX area) is tests/sh/spe-record-live.sh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include "record/aux.h"
#include "record/aux-rec.h"
#include "perfdata/spe-write.h"
#include "tap.h"

#define AREA 4096

/* the kernel: stream byte i lands at base[i % len] */
static u8 val(u64 i)
{
	return (u8)(i * 7 + (i >> 8) + 1);
}

static void kwrite(struct perf_event_mmap_page *pc, u8 *base, size_t len, const u8 *src, size_t n)
{
	u64 head = pc->aux_head;

	for (size_t i = 0; i < n; i++)
		base[(head + i) & (len - 1)] = src ? src[i] : val(head + i);
	__atomic_store_n(&pc->aux_head, head + n, __ATOMIC_RELEASE);
}

struct got {
	int	calls;
	u64	hdr_type, hdr_size, size, offset, ref;
	u32	idx, tid, cpu;
	u8	data[2 * AREA];
	size_t	len1, len2, pad;
	int	fail;		/* return this */
};

static int take(void *ctx, const void *rec, const void *d1, size_t l1, const void *d2, size_t l2,
		size_t pad)
{
	struct got *g = ctx;
	struct perf_event_header h;

	g->calls++;
	if (g->fail)
		return g->fail;
	memcpy(&h, rec, 8);
	g->hdr_type = h.type;
	g->hdr_size = h.size;
	memcpy(&g->size, (const u8 *)rec + 8, 8);
	memcpy(&g->offset, (const u8 *)rec + 16, 8);
	memcpy(&g->ref, (const u8 *)rec + 24, 8);
	memcpy(&g->idx, (const u8 *)rec + 32, 4);
	memcpy(&g->tid, (const u8 *)rec + 36, 4);
	memcpy(&g->cpu, (const u8 *)rec + 40, 4);
	memcpy(g->data, d1, l1);
	if (l2)
		memcpy(g->data + l1, d2, l2);
	g->len1 = l1;
	g->len2 = l2;
	g->pad = pad;
	return 0;
}

/* data equals stream bytes [from, from + n) */
static bool stream_eq(const u8 *d, u64 from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (d[i] != val(from + i))
			return false;
	return true;
}

static void ring_protocol(void)
{
	struct perf_event_mmap_page *pc = calloc(1, 4096);
	u8 *base = calloc(1, AREA);
	struct hm_aux a;
	struct got g;
	unsigned long lost0;
	long n;

	CHECK_EQ("attach: a size that is no power of two is refused",
		 hm_aux__attach(&a, pc, base, 3000, 0, 0, 0), -EINVAL);
	CHECK_EQ("attach over memory", hm_aux__attach(&a, pc, base, AREA, 5, 3, (u32)-1), 0);

	memset(&g, 0, sizeof(g));
	CHECK_EQ("nothing written: nothing handed out", hm_aux__read(&a, 1, take, &g), 0);
	CHECK_EQ("nothing written: no callback", g.calls, 0);

	kwrite(pc, base, AREA, NULL, 100);
	memset(&g, 0, sizeof(g));
	n = hm_aux__read(&a, 0x1234, take, &g);
	CHECK_EQ("100 bytes handed out", n, 100);
	CHECK("AUXTRACE record: type 71, 48 bytes", g.hdr_type == HM_RECORD_AUXTRACE && g.hdr_size == 48);
	CHECK_EQ("size padded to 8 (104)", g.size, 104);
	CHECK_EQ("padding 4", g.pad, 4);
	CHECK_EQ("offset: where the chunk starts in the area's stream", g.offset, 0);
	CHECK("reference, idx, tid, cpu", g.ref == 0x1234 && g.idx == 3 && g.tid == (u32)-1 && g.cpu == 5);
	CHECK("the bytes the kernel wrote", g.len2 == 0 && stream_eq(g.data, 0, 100));
	CHECK_EQ("aux_tail released to the head", pc->aux_tail, 100);

	/* up to exactly one full area past the tail, wrapping at its end */
	kwrite(pc, base, AREA, NULL, AREA);
	memset(&g, 0, sizeof(g));
	n = hm_aux__read(&a, 0, take, &g);
	CHECK_EQ("a full area handed out", n, AREA);
	CHECK("wrapped: end of the area, then its start",
	      g.len1 == AREA - 100 && g.len2 == 100 && g.pad == 0);
	CHECK("wrapped chunk is the stream in order", stream_eq(g.data, 100, AREA));
	CHECK_EQ("wrapped chunk offset", g.offset, 100);
	CHECK_EQ("size of a full area", g.size, AREA);
	CHECK_EQ("tail after the wrap", pc->aux_tail, 100 + AREA);

	/* the consumer refuses: the tail stays, the same data comes again */
	kwrite(pc, base, AREA, NULL, 333);
	memset(&g, 0, sizeof(g));
	g.fail = -ENOSPC;
	CHECK_EQ("a refused chunk: the error comes back", hm_aux__read(&a, 0, take, &g), -ENOSPC);
	CHECK_EQ("a refused chunk: tail not moved", pc->aux_tail, 100 + AREA);
	g.fail = 0;
	n = hm_aux__read(&a, 0, take, &g);
	CHECK("a refused chunk comes again whole", n == 333 && stream_eq(g.data, 100 + AREA, 333) &&
	      g.size == 336 && g.pad == 3);

	/* overwrite: the head ran 1000 bytes past the area */
	lost0 = hm_log__nr_data_lost();
	kwrite(pc, base, AREA, NULL, AREA + 1000);
	memset(&g, 0, sizeof(g));
	n = hm_aux__read(&a, 0, take, &g);
	CHECK_EQ("overrun: the area's bytes handed out", n, AREA);
	CHECK("overrun: the newest bytes, in order",
	      stream_eq(g.data, 100 + AREA + 333 + 1000, AREA));
	CHECK("overrun: counted and data lost",
	      a.nr_overrun == 1 && a.overrun_bytes == 1000 && hm_log__nr_data_lost() == lost0 + 1);
	CHECK("records and bytes counted", a.nr_records == 4 && a.bytes == 100 + AREA + 333 + AREA);
	free(pc);
	free(base);
}

static void aux_record(struct hm_aux_stats *st, u64 off, u64 size, u64 flags)
{
	u64 rec[4 + 3] = { 0 };
	struct perf_event_header h = { .type = PERF_RECORD_AUX, .size = sizeof(rec) };

	memcpy(rec, &h, 8);
	rec[1] = off;
	rec[2] = size;
	rec[3] = flags;
	hm_aux_stats__add(st, (const struct perf_event_header *)rec, sizeof(rec));
}

static void aux_flags(void)
{
	struct hm_aux_stats st = { 0 };
	unsigned long lost0;
	struct perf_event_header other = { .type = PERF_RECORD_LOST, .size = 32 };
	u64 buf[4] = { 0 };

	aux_record(&st, 0, 4096, 0);
	aux_record(&st, 4096, 4096, PERF_AUX_FLAG_COLLISION);
	memcpy(buf, &other, 8);
	hm_aux_stats__add(&st, (const struct perf_event_header *)buf, sizeof(buf));
	CHECK("AUX records counted, other types not", st.nr_aux == 2 && st.aux_bytes == 8192);
	lost0 = hm_log__nr_data_lost();
	CHECK_EQ("collision only: a warning, no data lost", hm_aux_stats__warn(&st, "t"), 0);
	CHECK_EQ("collision only: data-lost count unchanged", hm_log__nr_data_lost(), lost0);
	aux_record(&st, 8192, 0, PERF_AUX_FLAG_TRUNCATED);
	aux_record(&st, 8192, 100, PERF_AUX_FLAG_PARTIAL | PERF_AUX_FLAG_TRUNCATED);
	CHECK("truncated and partial counted", st.truncated == 2 && st.partial == 1 && st.collision == 1);
	CHECK_EQ("truncated: data lost", hm_aux_stats__warn(&st, "t"), 1);
	CHECK("truncated: the data-lost status is set (exit 3)", hm_log__nr_data_lost() > lost0);
}

/* ------------------------------------------------------ a whole recording */

#define NCPU	2
#define NREC	1200

static int cpus[NCPU] = { 0, 3 };

static void recording(void)
{
	char path[] = "/tmp/hitmap-aux-ring-XXXXXX";
	struct perf_event_mmap_page *pc[NCPU];
	u8 *base[NCPU];
	struct hm_pmu_plan plan;
	struct hm_rec_aux *ra;
	struct hm_writer *w = NULL;
	struct hm_reader *rd;
	struct hm_event ev;
	struct perf_event_attr *at;
	u64 id = 1, want_sum = 0, got_sum = 0, got = 0, recs = 0, bytes = 0, lost = 9;
	u64 nat_records = 0;
	int fd, err = 0, c, i, bad = 0, drains = 0, rc = -1;

	memset(&plan, 0, sizeof(plan));
	plan.mode = HM_MODE_SPE;
	plan.nr = 1;
	at = &plan.ev[0].attr;
	at->size = sizeof(*at);
	at->type = 12;
	at->config = (1ULL << 0) | (1ULL << 1) | (1ULL << 33) | (1ULL << 34);
	at->sample_period = 1024;
	at->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			  PERF_SAMPLE_CPU | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			  PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_IDENTIFIER;
	at->sample_id_all = 1;
	snprintf(plan.ev[0].name, sizeof(plan.ev[0].name), "arm_spe_0//");
	plan.spe_midr = 0x413fd0c1;	/* Neoverse N1 */
	plan.spe_min_interval = 1024;
	plan.aux_bytes = AREA;

	ra = hm_rec_aux__new(&plan, cpus, NCPU, AREA, (u32)-1);
	CHECK("session: made for SPE", ra != NULL);
	if (!ra)
		return;
	for (c = 0; c < NCPU; c++) {
		pc[c] = calloc(1, 4096);
		base[c] = calloc(1, AREA);
		/* the clock as the kernel publishes it: identity (ticks are ns) */
		pc[c]->time_mult = 1;
		pc[c]->time_shift = 0;
		pc[c]->cap_user_time_zero = 1;
		err |= hm_rec_aux__attach(ra, c, pc[c], base[c], AREA);
	}
	fd = mkstemp(path);
	if (fd >= 0) {
		close(fd);
		w = hm_writer__new(path);
	}
	if (!w || err || hm_writer__add_evsel(w, at, plan.ev[0].name, &id, 1) < 0) {
		FAILF("recording: set up", "writer %p err %d", (void *)w, err);
		goto out;
	}
	err = hm_rec_aux__start(ra, w);
	CHECK_EQ("TIME_CONV and AUXTRACE_INFO written", err, 0);

	/* each CPU's SPE records go into its 4 KiB area; drained every ~3 KiB */
	for (i = 0; i < NREC && !err; i++) {
		for (c = 0; c < NCPU; c++) {
			struct hm_spe_record r = { 0 };
			u8 pk[128];
			size_t n;

			r.op = HM_SPE_OP_LDST | (i % 3 ? HM_SPE_OP_LD : HM_SPE_OP_ST);
			r.source = HM_SPE_DS_PEER_CORE;
			r.events = HM_SPE_EV(L1D_ACCESS) | HM_SPE_EV(L1D_REFILL);
			r.virt_addr = 0x10000 + (u64)c * 0x100000 + (u64)i * 64;
			r.from_ip = 0x400000 + (u64)i * 4;
			r.context_id = (u64)-1;
			r.latency = 40;
			r.timestamp = 1000000 + (u64)i * 1000 + (u64)c;
			n = hm_spe__encode(&r, false, pk);
			kwrite(pc[c], base[c], AREA, pk, n);
			want_sum += r.virt_addr ^ r.timestamp;
			nat_records++;
		}
		if (pc[0]->aux_head - pc[0]->aux_tail > 3000) {
			long got_n = hm_rec_aux__drain(ra, w);

			err = got_n < 0 ? (int)got_n : 0;
			drains++;
		}
	}
	if (!err) {
		long got_n = hm_rec_aux__drain(ra, w);

		err = got_n < 0 ? (int)got_n : 0;
	}
	CHECK("AUX areas drained, wrapping many times", !err && drains >= 10 &&
	      pc[0]->aux_head > 10 * AREA && pc[0]->aux_tail == pc[0]->aux_head);
	hm_rec_aux__finish(ra, &recs, &bytes, &lost);
	CHECK("AUXTRACE records and bytes counted, nothing lost",
	      recs >= 20 && bytes == pc[0]->aux_head + pc[1]->aux_head && lost == 0);
	err = err ? err : hm_writer__close(w);
	CHECK_EQ("file closed", err, 0);
	hm_writer__delete(w);
	w = NULL;
	rd = err ? NULL : hm_reader__new(path, NULL);
	while (rd && (rc = hm_reader__next(rd, &ev)) == 1) {
		if (ev.type != PERF_RECORD_SAMPLE || !ev.has_sample)
			continue;
		got++;
		got_sum += ev.sample.addr ^ ev.sample.time;
		if (ev.sample.cpu != (u32)cpus[0] && ev.sample.cpu != (u32)cpus[1])
			bad++;
	}
	CHECK("reader: read to the end without an error", rd && rc == 0);
	hm_reader__delete(rd);
	CHECK_EQ("every SPE record read back as a sample", got, nat_records);
	CHECK("samples: addresses and times as written, on the CPUs recorded",
	      got_sum == want_sum && !bad);
	if (getenv("HM_AUX_RING_KEEP")) {
		printf("# file kept: %s\n", path);
		goto out_keep;
	}
out:
	unlink(path);
out_keep:
	hm_writer__delete(w);
	hm_rec_aux__delete(ra);
	for (c = 0; c < NCPU; c++) {
		free(pc[c]);
		free(base[c]);
	}
}

int main(void)
{
	hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);
	ring_protocol();
	aux_flags();
	recording();
	TAP_DONE();
}
