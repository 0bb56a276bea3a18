// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reader on perf.data files built here byte by byte, in both byte orders:
 * every sample_type bit, every read_format, attr sizes 64..200, id lookup by
 * ID and IDENTIFIER, sample_id_all trailers, unknown and AUXTRACE records,
 * pipe mode, COMPRESSED/COMPRESSED2 with records straddling chunks, ordering
 * by rounds, and the errors (truncation, zero size, v1, bad attr size).
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <zstd.h>
#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include "tap.h"

struct bld {
	u8	*p;
	size_t	len, cap;
	bool	sw;
};

static void put(struct bld *b, const void *d, size_t n)
{
	if (!n)
		return;
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
	}
	if (d)
		memcpy(b->p + b->len, d, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
}
static void p64(struct bld *b, u64 v) { if (b->sw) v = bswap_64(v); put(b, &v, 8); }
static void p32(struct bld *b, u32 v) { if (b->sw) v = bswap_32(v); put(b, &v, 4); }
static void p16(struct bld *b, u16 v) { if (b->sw) v = bswap_16(v); put(b, &v, 2); }
static void set64(struct bld *b, size_t at, u64 v) { if (b->sw) v = bswap_64(v); memcpy(b->p + at, &v, 8); }
static void set16(struct bld *b, size_t at, u16 v) { if (b->sw) v = bswap_16(v); memcpy(b->p + at, &v, 2); }

static u8 revbyte(u8 x)
{
	u8 r = 0;

	for (int i = 0; i < 8; i++)
		if (x & (1 << i))
			r |= 0x80 >> i;
	return r;
}

/* an attr of @size bytes in the builder's byte order */
static void put_attr(struct bld *b, const struct perf_event_attr *a, u32 size)
{
	u8 raw[256] = { 0 };
	struct bld t = { .sw = b->sw };
	u64 flags;

	memcpy(&flags, (const u8 *)a + 40, 8);
	p32(&t, a->type); p32(&t, size); p64(&t, a->config); p64(&t, a->sample_period);
	p64(&t, a->sample_type); p64(&t, a->read_format);
	put(&t, &flags, 8);
	if (b->sw)
		for (int i = 0; i < 8; i++)
			t.p[40 + i] = revbyte(t.p[40 + i]);
	p32(&t, a->wakeup_events); p32(&t, a->bp_type); p64(&t, a->config1); p64(&t, a->config2);
	p64(&t, a->branch_sample_type); p64(&t, a->sample_regs_user);
	p32(&t, a->sample_stack_user); p32(&t, (u32)a->clockid); p64(&t, a->sample_regs_intr);
	p32(&t, a->aux_watermark); p16(&t, a->sample_max_stack); p16(&t, 0);
	p32(&t, a->aux_sample_size); p32(&t, 0); p64(&t, a->sig_data);
	memcpy(raw, t.p, t.len < sizeof(raw) ? t.len : sizeof(raw));
	if (size > 136)
		memset(raw + 136, 0xab, size - 136);	/* newer fields we do not know */
	put(b, raw, size);
	free(t.p);
}

#define FULL_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
	PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | \
	PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | \
	PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | \
	PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_AUX | PERF_SAMPLE_CGROUP | \
	PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)
#define FULL_RF (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
	PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST)
#define SIMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static void attr_full(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_RAW;
	a->config = 0x1cd;
	a->sample_period = 1000;
	a->sample_type = FULL_TYPE;
	a->read_format = FULL_RF;
	a->sample_id_all = 1;
	a->precise_ip = 2;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_ANY;
	a->sample_regs_user = 0x7;
	a->sample_regs_intr = 0x3;
	a->sample_stack_user = 64;
}

static void attr_simple(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = 4000;
	a->sample_type = SIMPLE_TYPE;
	a->sample_id_all = 1;
	a->disabled = 1;
}

/* record header; returns the offset to patch the size */
static size_t rec_begin(struct bld *b, u32 type, u16 misc)
{
	size_t at = b->len;

	p32(b, type); p16(b, misc); p16(b, 0);
	return at;
}
static void rec_end(struct bld *b, size_t at)
{
	set16(b, at + 6, (u16)(b->len - at));
}

static const u8 raw_bytes[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

/* the full sample, identifier @id, time @t */
static void put_full_sample(struct bld *b, u64 id, u64 t)
{
	size_t at = rec_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

	p64(b, id);			/* IDENTIFIER */
	p64(b, 0x401000);		/* IP */
	p32(b, 42); p32(b, 43);		/* TID */
	p64(b, t);			/* TIME */
	p64(b, 0x7f0000001040);		/* ADDR */
	p64(b, id);			/* ID */
	p64(b, 77);			/* STREAM_ID */
	p32(b, 3); p32(b, 0);		/* CPU */
	p64(b, 1000);			/* PERIOD */
	/* READ, GROUP: nr, enabled, running, { value, id, lost } x2 */
	p64(b, 2); p64(b, 11); p64(b, 12);
	p64(b, 100); p64(b, id); p64(b, 0);
	p64(b, 200); p64(b, id + 1); p64(b, 1);
	p64(b, 3); p64(b, 0x401000); p64(b, 0x401100); p64(b, 0x401200);	/* CALLCHAIN */
	p32(b, sizeof(raw_bytes)); put(b, raw_bytes, sizeof(raw_bytes));	/* RAW: 4+12 = 16 */
	p64(b, 1); p64(b, 5);		/* BRANCH_STACK nr, hw_idx */
	p64(b, 0x401000); p64(b, 0x402000); p64(b, 0x3);
	p64(b, 1); p64(b, 10); p64(b, 20); p64(b, 30);	/* REGS_USER abi, 3 regs */
	p64(b, 16); put(b, "stackstackstack!", 16); p64(b, 8);	/* STACK_USER size, data, dyn */
	p64(b, 300 | (u64)7 << 32 | (u64)9 << 48);	/* WEIGHT_STRUCT */
	p64(b, 0x629800842ULL);		/* DATA_SRC */
	p64(b, 0x55);			/* TRANSACTION */
	p64(b, 2); p64(b, 1); p64(b, 2);	/* REGS_INTR abi, 2 regs */
	p64(b, 0x12345000);		/* PHYS_ADDR */
	p64(b, 0x99);			/* CGROUP */
	p64(b, 4096);			/* DATA_PAGE_SIZE */
	p64(b, 2 << 20);		/* CODE_PAGE_SIZE */
	p64(b, 8); put(b, "auxdata!", 8);	/* AUX */
	rec_end(b, at);
}

static void put_simple_sample(struct bld *b, u64 id, u64 t, u32 tid)
{
	size_t at = rec_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);

	p64(b, id); p64(b, 0xffffffff81000000ULL + t); p32(b, tid); p32(b, tid);
	p64(b, t); p32(b, 1); p32(b, 0); p64(b, 4000);
	rec_end(b, at);
}

/* COMM with the full evsel's sample_id_all trailer */
static void put_comm(struct bld *b, const char *comm, u64 id, u64 t)
{
	size_t at = rec_begin(b, PERF_RECORD_COMM, 0);
	char c[16] = { 0 };

	p32(b, 42); p32(b, 43);
	strncpy(c, comm, 15);
	put(b, c, 16);
	p32(b, 42); p32(b, 43); p64(b, t); p64(b, id); p64(b, 77); p32(b, 3); p32(b, 0); p64(b, id);
	rec_end(b, at);
}

static void put_comm_simple(struct bld *b, const char *comm, u64 id, u64 t)
{
	size_t at = rec_begin(b, PERF_RECORD_COMM, 0);
	char c[16] = { 0 };

	p32(b, 7); p32(b, 7);
	strncpy(c, comm, 15);
	put(b, c, 16);
	p32(b, 7); p32(b, 7); p64(b, t); p32(b, 1); p32(b, 0); p64(b, id);
	rec_end(b, at);
}

static void put_string(struct bld *b, const char *s)
{
	u32 len = (u32)strlen(s) + 1, padded = (len + 63) & ~63u;

	p32(b, padded);
	put(b, s, len);
	put(b, NULL, padded - len);
}

/*
 * File mode: evsel 0 full (ids 100, 101), evsel 1 simple (id 200), both
 * with IDENTIFIER so the sample types can differ.
 */
static struct bld make_file(bool sw, u32 attr_size)
{
	struct bld b = { .sw = sw };
	struct perf_event_attr a0, a1;
	size_t attrs_at, data_at, ids_at, feat_at, at;
	u32 ent = attr_size + 16;

	attr_full(&a0);
	attr_simple(&a1);
	put(&b, NULL, 104);
	ids_at = b.len;
	p64(&b, 100); p64(&b, 101); p64(&b, 200);
	attrs_at = b.len;
	put_attr(&b, &a0, attr_size); p64(&b, ids_at); p64(&b, 16);
	put_attr(&b, &a1, attr_size); p64(&b, ids_at + 16); p64(&b, 8);
	data_at = b.len;
	put_comm(&b, "worker", 100, 5);
	put_full_sample(&b, 101, 10);
	put_simple_sample(&b, 200, 11, 7);
	at = rec_begin(&b, 50, 0); p64(&b, 1); rec_end(&b, at);		/* unknown kernel type */
	at = rec_begin(&b, 99, 0); p64(&b, 2); p64(&b, 3); rec_end(&b, at);	/* unknown user type */
	at = rec_begin(&b, HM_RECORD_AUXTRACE, 0);
	p64(&b, 24); p64(&b, 0); p64(&b, 0); p32(&b, 0); p32(&b, 0); p32(&b, 0); p32(&b, 0);
	rec_end(&b, at);
	put(&b, "AUX PAYLOAD, 24 bytes...", 24);
	at = rec_begin(&b, PERF_RECORD_LOST, 0);
	p64(&b, 100); p64(&b, 17);
	p32(&b, 42); p32(&b, 43); p64(&b, 12); p64(&b, 100); p64(&b, 77); p32(&b, 3); p32(&b, 0); p64(&b, 100);
	rec_end(&b, at);
	at = rec_begin(&b, HM_RECORD_FINISHED_ROUND, 0); rec_end(&b, at);
	put_simple_sample(&b, 200, 13, 7);
	feat_at = b.len;
	/* features: HOSTNAME, NRCPUS, EVENT_DESC */
	{
		size_t tab = b.len, s0, s1, s2;

		put(&b, NULL, 3 * 16);
		s0 = b.len; put_string(&b, "synth-host");
		s1 = b.len; p32(&b, 4); p32(&b, 2);
		s2 = b.len;
		p32(&b, 2); p32(&b, attr_size);
		put_attr(&b, &a0, attr_size); p32(&b, 2); put_string(&b, "full-event"); p64(&b, 100); p64(&b, 101);
		put_attr(&b, &a1, attr_size); p32(&b, 1); put_string(&b, "simple-event"); p64(&b, 200);
		set64(&b, tab, s0); set64(&b, tab + 8, s1 - s0);
		set64(&b, tab + 16, s1); set64(&b, tab + 24, s2 - s1);
		set64(&b, tab + 32, s2); set64(&b, tab + 40, b.len - s2);
	}
	/* header */
	memcpy(b.p, "PERFILE2", 8);
	if (sw)
		for (int i = 0; i < 4; i++) {
			u8 t = b.p[i];

			b.p[i] = b.p[7 - i];
			b.p[7 - i] = t;
		}
	set64(&b, 8, 104);
	set64(&b, 16, ent);
	set64(&b, 24, attrs_at); set64(&b, 32, 2 * (u64)ent);
	set64(&b, 40, data_at); set64(&b, 48, feat_at - data_at);
	set64(&b, 72, 1ULL << HM_FEAT_HOSTNAME | 1ULL << HM_FEAT_NRCPUS | 1ULL << HM_FEAT_EVENT_DESC);
	return b;
}

static const char *tag(char *buf, const char *what, bool sw, u32 asz)
{
	sprintf(buf, "reader.%s.%s.attr%u", sw ? "be" : "le", what, asz);
	return buf;
}

static void check_file(bool sw, u32 asz)
{
	struct bld b = make_file(sw, asz);
	struct hm_reader *r = hm_reader__new_mem(b.p, b.len, NULL);
	struct hm_event ev;
	const struct hm_sample *s;
	char t[96];
	int n = 0, ret;
	u64 types[16];

	CHECK(tag(t, "open", sw, asz), r != NULL);
	if (!r) {
		printf("# %s\n", hm_log__last_error());
		free(b.p);
		return;
	}
	CHECK_EQ(tag(t, "swapped", sw, asz), hm_reader__header(r)->needs_swap, sw);
	CHECK_EQ(tag(t, "nr_evsels", sw, asz), hm_reader__nr_evsels(r), 2);
	CHECK_STR(tag(t, "hostname", sw, asz), hm_reader__header(r)->hostname, "synth-host");
	CHECK_EQ(tag(t, "nrcpus", sw, asz), hm_reader__header(r)->nr_cpus_avail, 4);
	CHECK_STR(tag(t, "evname0", sw, asz), hm_reader__evsel(r, 0)->name, "full-event");
	CHECK_STR(tag(t, "evname1", sw, asz), hm_reader__evsel(r, 1)->name, "simple-event");
	CHECK_EQ(tag(t, "sample_type", sw, asz), hm_reader__evsel(r, 0)->attr.sample_type, FULL_TYPE);
	CHECK_EQ(tag(t, "sample_id_all", sw, asz), hm_reader__evsel(r, 0)->attr.sample_id_all, 1);
	CHECK_EQ(tag(t, "precise_ip", sw, asz), hm_reader__evsel(r, 0)->attr.precise_ip, 2);
	CHECK_EQ(tag(t, "disabled", sw, asz), hm_reader__evsel(r, 1)->attr.disabled, 1);
	CHECK_EQ(tag(t, "file_attr_size", sw, asz), hm_reader__evsel(r, 0)->file_attr_size, asz);
	CHECK_EQ(tag(t, "regs_intr", sw, asz), hm_reader__evsel(r, 0)->attr.sample_regs_intr, 0x3);
	while ((ret = hm_reader__next(r, &ev)) > 0 && n < 16) {
		types[n] = ev.type;
		s = &ev.sample;
		if (n == 0) {
			CHECK_EQ(tag(t, "comm.type", sw, asz), ev.type, PERF_RECORD_COMM);
			CHECK(tag(t, "comm.trailer", sw, asz), ev.has_sample);
			CHECK_EQ(tag(t, "comm.tid", sw, asz), s->tid, 43);
			CHECK_EQ(tag(t, "comm.time", sw, asz), s->time, 5);
			CHECK_EQ(tag(t, "comm.cpu", sw, asz), s->cpu, 3);
			CHECK_STR(tag(t, "comm.name", sw, asz), (const char *)ev.data + 16, "worker");
			CHECK_EQ(tag(t, "comm.pid_native", sw, asz), ((const u32 *)ev.data)[2], 42);
		}
		if (n == 1) {
			CHECK(tag(t, "full.has_sample", sw, asz), ev.has_sample);
			CHECK(tag(t, "full.evsel", sw, asz), s->evsel == hm_reader__evsel(r, 0));
			CHECK_EQ(tag(t, "full.ip", sw, asz), s->ip, 0x401000);
			CHECK_EQ(tag(t, "full.pid", sw, asz), s->pid, 42);
			CHECK_EQ(tag(t, "full.tid", sw, asz), s->tid, 43);
			CHECK_EQ(tag(t, "full.time", sw, asz), s->time, 10);
			CHECK_EQ(tag(t, "full.addr", sw, asz), s->addr, 0x7f0000001040);
			CHECK_EQ(tag(t, "full.id", sw, asz), s->id, 101);
			CHECK_EQ(tag(t, "full.stream_id", sw, asz), s->stream_id, 77);
			CHECK_EQ(tag(t, "full.cpu", sw, asz), s->cpu, 3);
			CHECK_EQ(tag(t, "full.period", sw, asz), s->period, 1000);
			CHECK_EQ(tag(t, "full.read_nr", sw, asz), s->read_nr, 2);
			CHECK_EQ(tag(t, "full.read_value1", sw, asz), s->read ? s->read[6] : 0, 200);
			CHECK_EQ(tag(t, "full.callchain_nr", sw, asz), s->callchain_nr, 3);
			CHECK_EQ(tag(t, "full.callchain2", sw, asz), s->callchain ? s->callchain[2] : 0, 0x401200);
			CHECK_EQ(tag(t, "full.raw_size", sw, asz), s->raw_size, 12);
			CHECK(tag(t, "full.raw_bytes", sw, asz), s->raw && !memcmp(s->raw, raw_bytes, 12));
			CHECK_EQ(tag(t, "full.branch_nr", sw, asz), s->branch_nr, 1);
			CHECK_EQ(tag(t, "full.branch_hw_idx", sw, asz), s->branch_hw_idx, 5);
			CHECK_EQ(tag(t, "full.branch_to", sw, asz), s->branch ? s->branch[0].to : 0, 0x402000);
			CHECK_EQ(tag(t, "full.user_abi", sw, asz), s->user_regs_abi, 1);
			CHECK_EQ(tag(t, "full.stack_size", sw, asz), s->user_stack_size, 8);
			CHECK_EQ(tag(t, "full.weight", sw, asz), s->weight, 300);
			CHECK_EQ(tag(t, "full.ins_lat", sw, asz), s->ins_lat, 7);
			CHECK_EQ(tag(t, "full.weight3", sw, asz), s->weight3, 9);
			CHECK_EQ(tag(t, "full.data_src", sw, asz), s->data_src, 0x629800842ULL);
			CHECK_EQ(tag(t, "full.transaction", sw, asz), s->transaction, 0x55);
			CHECK_EQ(tag(t, "full.intr_abi", sw, asz), s->intr_regs_abi, 2);
			CHECK_EQ(tag(t, "full.phys_addr", sw, asz), s->phys_addr, 0x12345000);
			CHECK_EQ(tag(t, "full.cgroup", sw, asz), s->cgroup, 0x99);
			CHECK_EQ(tag(t, "full.data_page_size", sw, asz), s->data_page_size, 4096);
			CHECK_EQ(tag(t, "full.code_page_size", sw, asz), s->code_page_size, 2 << 20);
			CHECK_EQ(tag(t, "full.aux_size", sw, asz), s->aux_size, 8);
		}
		if (n == 2) {
			CHECK(tag(t, "simple.by_identifier", sw, asz), s->evsel == hm_reader__evsel(r, 1));
			CHECK_EQ(tag(t, "simple.ip", sw, asz), s->ip, 0xffffffff81000000ULL + 11);
			CHECK_EQ(tag(t, "simple.cpu", sw, asz), s->cpu, 1);
			CHECK_EQ(tag(t, "simple.period", sw, asz), s->period, 4000);
			CHECK_EQ(tag(t, "simple.data_src_default", sw, asz), s->data_src, 0x5080021);
		}
		if (n == 5) {
			CHECK_EQ(tag(t, "auxtrace.size", sw, asz), ev.size, 48);
		}
		n++;
	}
	CHECK_EQ(tag(t, "end", sw, asz), ret, 0);
	/* COMM SAMPLE SAMPLE 50 99 AUXTRACE LOST ROUND SAMPLE */
	CHECK_EQ(tag(t, "nr_records", sw, asz), n, 9);
	CHECK_EQ(tag(t, "after_aux", sw, asz), n > 6 ? types[6] : 0, PERF_RECORD_LOST);
	CHECK_EQ(tag(t, "stats.unknown", sw, asz), hm_reader__stats(r)->nr_unknown, 2);
	CHECK_EQ(tag(t, "stats.lost", sw, asz), hm_reader__stats(r)->lost, 17);
	CHECK_EQ(tag(t, "stats.samples", sw, asz), hm_reader__stats(r)->nr[PERF_RECORD_SAMPLE], 3);
	hm_reader__delete(r);
	free(b.p);
}

/* ------------------------------------------------------------- pipe mode */

static void pipe_header(struct bld *b, u32 attr_size, bool full)
{
	struct perf_event_attr a;
	size_t at;

	put(b, "PERFILE2", 8);
	if (b->sw)
		for (int i = 0; i < 4; i++) {
			u8 t = b->p[i];

			b->p[i] = b->p[7 - i];
			b->p[7 - i] = t;
		}
	p64(b, 16);
	attr_simple(&a);
	if (full)
		attr_full(&a);
	at = rec_begin(b, HM_RECORD_HEADER_ATTR, 0);
	put_attr(b, &a, attr_size);
	p64(b, 300);
	rec_end(b, at);
	at = rec_begin(b, HM_RECORD_HEADER_FEATURE, 0);
	p64(b, HM_FEAT_HOSTNAME);
	put_string(b, "pipe-host");
	rec_end(b, at);
	at = rec_begin(b, HM_RECORD_HEADER_FEATURE, 0);
	p64(b, HM_FEAT_NRCPUS); p32(b, 8); p32(b, 8);
	rec_end(b, at);
	at = rec_begin(b, HM_RECORD_HEADER_FEATURE, 0);
	p64(b, 32);	/* HEADER_LAST_FEATURE of perf 6.1: the end marker */
	rec_end(b, at);
}

static void check_pipe(bool sw)
{
	struct bld b = { .sw = sw };
	struct hm_reader *r;
	struct hm_event ev;
	char t[96];
	int ns = 0, ret;
	u64 last_t = 0;

	pipe_header(&b, 128, false);
	put_comm_simple(&b, "piped", 300, 1);
	for (int i = 0; i < 5; i++)
		put_simple_sample(&b, 300, 100 + i, 9);
	r = hm_reader__new_mem(b.p, b.len, NULL);
	sprintf(t, "reader.pipe.%s.open", sw ? "be" : "le");
	CHECK(t, r != NULL);
	if (!r) {
		free(b.p);
		return;
	}
	sprintf(t, "reader.pipe.%s.is_pipe", sw ? "be" : "le");
	CHECK(t, hm_reader__header(r)->pipe);
	while ((ret = hm_reader__next(r, &ev)) > 0)
		if (ev.type == PERF_RECORD_SAMPLE && ev.has_sample) {
			ns++;
			last_t = ev.sample.time;
		}
	sprintf(t, "reader.pipe.%s.end", sw ? "be" : "le");
	CHECK_EQ(t, ret, 0);
	sprintf(t, "reader.pipe.%s.samples", sw ? "be" : "le");
	CHECK_EQ(t, ns, 5);
	sprintf(t, "reader.pipe.%s.last_time", sw ? "be" : "le");
	CHECK_EQ(t, last_t, 104);
	sprintf(t, "reader.pipe.%s.hostname", sw ? "be" : "le");
	CHECK_STR(t, hm_reader__header(r)->hostname, "pipe-host");
	sprintf(t, "reader.pipe.%s.nrcpus", sw ? "be" : "le");
	CHECK_EQ(t, hm_reader__header(r)->nr_cpus_online, 8);
	hm_reader__delete(r);
	free(b.p);
}

/* ------------------------------------------------------------ compression */

static void check_compressed(bool v2, bool sw)
{
	struct bld inner = { .sw = sw }, b = { .sw = sw };
	ZSTD_CStream *zs = ZSTD_createCStream();
	struct hm_reader *r;
	struct hm_event ev;
	char t[96], out[256];
	int ns = 0, nc = 0, ret = -1, bad = 0;
	const int N = 400;

	for (int i = 0; i < N; i++)
		put_simple_sample(&inner, 300, 1000 + i, 9);
	pipe_header(&b, 128, false);
	ZSTD_initCStream(zs, 3);
	/* 100-byte input chunks: 56-byte records straddle every chunk */
	for (size_t off = 0; off < inner.len; off += 100) {
		ZSTD_inBuffer ib = { inner.p + off, inner.len - off < 100 ? inner.len - off : 100, 0 };
		ZSTD_outBuffer ob = { out, sizeof(out), 0 };
		size_t at;

		while (ib.pos < ib.size)
			ZSTD_compressStream(zs, &ob, &ib);
		while (ZSTD_flushStream(zs, &ob) > 0)
			;
		at = rec_begin(&b, v2 ? HM_RECORD_COMPRESSED2 : HM_RECORD_COMPRESSED, 0);
		if (v2)
			p64(&b, ob.pos);
		put(&b, out, ob.pos);
		if (v2)
			put(&b, NULL, (8 - ob.pos % 8) % 8);
		rec_end(&b, at);
		nc++;
	}
	ZSTD_freeCStream(zs);
	r = hm_reader__new_mem(b.p, b.len, NULL);
	while (r && (ret = hm_reader__next(r, &ev)) > 0)
		if (ev.type == PERF_RECORD_SAMPLE) {
			if (!ev.compressed || ev.sample.time != 1000 + (u64)ns)
				bad++;
			ns++;
		}
	snprintf(t, sizeof(t), "reader.%s.%s.end", v2 ? "compressed2" : "compressed", sw ? "be" : "le");
	CHECK_EQ(t, r ? ret : -1, 0);
	snprintf(t, sizeof(t), "reader.%s.%s.samples", v2 ? "compressed2" : "compressed", sw ? "be" : "le");
	CHECK_EQ(t, ns, N);
	snprintf(t, sizeof(t), "reader.%s.%s.in_order", v2 ? "compressed2" : "compressed", sw ? "be" : "le");
	CHECK_EQ(t, bad, 0);
	snprintf(t, sizeof(t), "reader.%s.%s.chunks", v2 ? "compressed2" : "compressed", sw ? "be" : "le");
	CHECK_EQ(t, r ? hm_reader__stats(r)->nr[v2 ? 83 : 81] : 0, nc);
	hm_reader__delete(r);
	free(b.p);
	free(inner.p);
}

/* --------------------------------------------------------------- ordering */

static void check_ordered(void)
{
	struct bld b = { 0 };
	struct hm_reader_opts o = { .ordered = true, .all_records = true };
	struct hm_reader *r;
	struct hm_event ev;
	static const u64 t1[] = { 5, 3 }, t2[] = { 4, 1, 8 };
	u64 got[16];
	int n = 0, ret;
	char seq[128] = "";

	pipe_header(&b, 128, false);
	for (int i = 0; i < 2; i++)
		put_simple_sample(&b, 300, t1[i], 9);
	{ size_t at = rec_begin(&b, HM_RECORD_FINISHED_ROUND, 0); rec_end(&b, at); }
	for (int i = 0; i < 3; i++)
		put_simple_sample(&b, 300, t2[i], 9);
	{ size_t at = rec_begin(&b, HM_RECORD_FINISHED_ROUND, 0); rec_end(&b, at); }
	r = hm_reader__new_mem(b.p, b.len, &o);
	while (r && (ret = hm_reader__next(r, &ev)) > 0 && n < 16) {
		if (ev.type == PERF_RECORD_SAMPLE)
			got[n++] = ev.sample.time;
		else if (ev.type == HM_RECORD_FINISHED_ROUND)
			got[n++] = 0;
	}
	for (int i = 0; i < n; i++)
		sprintf(seq + strlen(seq), "%s%llu", i ? "," : "", (unsigned long long)got[i]);
	/* perf: a round flushes up to the previous round's max timestamp */
	CHECK_STR("reader.ordered.sequence", seq, "0,1,3,4,5,0,8");
	hm_reader__delete(r);
	free(b.p);
}

/*
 * One round (no FINISHED_ROUND) of about 9 MiB, past the queue's 4 MiB:
 * perf's queue has no size limit, so it comes out wholly in time order.
 */
static void check_ordered_big(void)
{
	struct bld b = { 0 };
	struct hm_reader_opts o = { .ordered = true, .all_records = false };
	struct hm_reader *r;
	struct hm_event ev;
	const int N = 120000;
	int n = 0, ret = -1, inversions = 0;
	u64 last = 0;

	pipe_header(&b, 128, false);
	/* two interleaved streams, like two CPUs' buffers: odd times, then even */
	for (int i = 0; i < N / 2; i++)
		put_simple_sample(&b, 300, 2 * i + 1, 9);
	for (int i = 0; i < N / 2; i++)
		put_simple_sample(&b, 300, 2 * i + 2, 9);
	r = hm_reader__new_mem(b.p, b.len, &o);
	while (r && (ret = hm_reader__next(r, &ev)) > 0) {
		if (ev.sample.time < last)
			inversions++;
		last = ev.sample.time;
		n++;
	}
	CHECK_EQ("reader.ordered_big.end", ret, 0);
	CHECK_EQ("reader.ordered_big.all_samples", n, N);
	CHECK_EQ("reader.ordered_big.sorted", inversions, 0);
	hm_reader__delete(r);
	free(b.p);
}

struct oref { u64 t; u32 tag; };

static int oref_cmp(const void *a, const void *b)
{
	const struct oref *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;	/* tags count up: arrival order */
}

/*
 * Rounds of interleaved sorted runs (one per "CPU" buffer), of shuffled
 * records and of sorted ones, times with many ties, some FINISHED_ROUNDs
 * missing: the order must be perf's (a round flushes up to the previous
 * round's max time; ties in arrival order), here computed by a plain model.
 */
static void check_ordered_runs(void)
{
	struct bld b = { 0 };
	struct hm_reader_opts o = { .ordered = true, .all_records = false };
	struct hm_reader *r;
	struct hm_event ev;
	enum { MAXN = 40000 };
	struct oref *q = calloc(MAXN, sizeof(*q)), *exp = calloc(MAXN, sizeof(*exp));
	u32 *got = calloc(MAXN, sizeof(*got));
	size_t nq = 0, ne = 0, ng = 0, bad = MAXN;
	u64 next_flush = 0, max_ts = 0, base = 1000;
	u32 tag = 0, seed = 12345;
	int ret = -1;

#define RND() (seed = seed * 1103515245u + 12345u, (seed >> 8) & 0xffff)
	pipe_header(&b, 128, false);
	for (int round = 0; round < 60 && tag + 1000 < MAXN; round++) {
		int kind = round % 4, nrun = 1 + RND() % 12;
		u64 t[12];

		for (int k = 0; k < nrun; k++)
			t[k] = base + RND() % 50;
		for (int i = 0; i < 200 + (int)(RND() % 400); i++) {
			int k = kind == 1 ? i % nrun : (int)((i * nrun) / 600);
			u64 ts;

			if (kind == 2)	/* shuffled */
				ts = base + RND() % 400;
			else		/* per-run ascending, steps of 0..2: ties */
				ts = (t[k < nrun ? k : nrun - 1] += RND() % 3);
			put_simple_sample(&b, 300, ts, tag);
			q[nq++] = (struct oref){ ts, tag++ };
			if (ts > max_ts)
				max_ts = ts;
		}
		base += 150 + RND() % 200;
		if (kind == 3 && RND() % 2)
			continue;	/* no FINISHED_ROUND here */
		{ size_t at = rec_begin(&b, HM_RECORD_FINISHED_ROUND, 0); rec_end(&b, at); }
		/* the model: out go the queued records up to next_flush, stably sorted */
		qsort(q, nq, sizeof(*q), oref_cmp);
		{
			size_t k = 0, j = 0;

			while (k < nq && q[k].t <= next_flush)
				exp[ne++] = q[k++];
			for (size_t i = k; i < nq; i++)
				q[j++] = q[i];
			nq = j;
		}
		next_flush = max_ts;
	}
	qsort(q, nq, sizeof(*q), oref_cmp);
	for (size_t i = 0; i < nq; i++)
		exp[ne++] = q[i];
#undef RND
	r = hm_reader__new_mem(b.p, b.len, &o);
	while (r && (ret = hm_reader__next(r, &ev)) > 0 && ng < MAXN)
		got[ng++] = ev.sample.tid;
	CHECK_EQ("reader.ordered_runs.end", ret, 0);
	CHECK_EQ("reader.ordered_runs.all_samples", ng, ne);
	for (size_t i = 0; i < ng && i < ne; i++)
		if (got[i] != exp[i].tag) {
			bad = i;
			break;
		}
	CHECK_EQ("reader.ordered_runs.perf_order_first_difference", bad, (size_t)MAXN);
	hm_reader__delete(r);
	free(b.p);
	free(q);
	free(exp);
	free(got);
}

/* ----------------------------------------------------------------- errors */

static void expect_fail(const char *name, struct bld *b, const char *needle)
{
	struct hm_reader *r = hm_reader__new_mem(b->p, b->len, NULL);
	struct hm_event ev;
	int ret = r ? 1 : -errno;

	while (r && (ret = hm_reader__next(r, &ev)) > 0)
		;
	if (ret < 0 && strstr(hm_log__last_error(), needle))
		PASS(name);
	else
		FAILF(name, "ret %d, message '%s', wanted '%s'", ret, hm_log__last_error(), needle);
	hm_reader__delete(r);
}

static void check_errors(void)
{
	struct bld b = make_file(false, 128);
	struct bld c = { 0 };
	u64 data_at, v;

	/* truncation inside the data section, at every 8 bytes of it */
	memcpy(&data_at, b.p + 40, 8);
	{
		int bad = 0, tried = 0;
		u64 data_size;

		memcpy(&data_size, b.p + 48, 8);
		for (u64 cut = data_at + 1; cut < data_at + data_size; cut += 8) {
			struct bld t = { .p = b.p, .len = cut };
			struct hm_reader *r = hm_reader__new_mem(t.p, t.len, NULL);
			struct hm_event ev;
			int ret = r ? 0 : -1;

			while (r && (ret = hm_reader__next(r, &ev)) > 0)
				;
			tried++;
			if (ret >= 0 || !strstr(hm_log__last_error(), "offset"))
				bad++;
			hm_reader__delete(r);
		}
		CHECK_EQ("reader.error.truncated_everywhere", bad, 0);
		CHECK("reader.error.truncated_tried", tried > 10);
	}
	/* zero-size record */
	c.p = malloc(b.len);
	memcpy(c.p, b.p, b.len);
	c.len = b.len;
	memset(c.p + data_at + 6, 0, 2);
	{
		char needle[64];

		sprintf(needle, "offset %llu: record size 0", (unsigned long long)data_at);
		expect_fail("reader.error.zero_size", &c, needle);
	}
	/* oversized record size (claims more than is left) */
	memcpy(c.p, b.p, b.len);
	c.len = data_at + 40;
	expect_fail("reader.error.cut_record", &c, "truncated");
	/* attr bigger than its entry */
	memcpy(c.p, b.p, b.len);
	c.len = b.len;
	{
		u64 attrs;
		u32 big = 4000;

		memcpy(&attrs, c.p + 24, 8);
		memcpy(c.p + attrs + 4, &big, 4);
	}
	expect_fail("reader.error.attr_size", &c, "does not fit");
	/* v1 */
	memcpy(c.p, "PERFFILE", 8);
	expect_fail("reader.error.v1", &c, "unsupported");
	/* not perf.data */
	memcpy(c.p, "NOTPERF!", 8);
	expect_fail("reader.error.magic", &c, "not a perf.data");
	/* data offset past the end */
	memcpy(c.p, b.p, b.len);
	v = b.len + 100;
	memcpy(c.p + 40, &v, 8);
	expect_fail("reader.error.data_offset", &c, "past the end");
	/* sample shorter than its sample_type */
	memcpy(c.p, b.p, b.len);
	c.len = b.len;
	{
		/* 2nd record is the full sample: shrink it to 24 bytes, pad with a fake header */
		u16 csz;

		memcpy(&csz, c.p + data_at + 6, 2);
		{
			u64 s2 = data_at + csz;
			u16 ssz, small = 24;

			memcpy(&ssz, c.p + s2 + 6, 2);
			memcpy(c.p + s2 + 6, &small, 2);
			/* the rest of the old sample becomes one unknown record */
			{
				u32 ty = 60;
				u16 rest = ssz - 24;

				memcpy(c.p + s2 + 24, &ty, 4);
				memcpy(c.p + s2 + 30, &rest, 2);
			}
		}
	}
	expect_fail("reader.error.short_sample", &c, "sample_type");
	free(c.p);
	free(b.p);
}

/* a real pipe (FIFO) and a file on disk, through hm_reader__new */
struct wr { int fd; struct bld *b; };

static void *writer(void *arg)
{
	struct wr *w = arg;
	size_t off = 0;

	while (off < w->b->len) {
		ssize_t n = write(w->fd, w->b->p + off, w->b->len - off > 1000 ? 1000 : w->b->len - off);

		if (n <= 0)
			break;
		off += n;
	}
	close(w->fd);
	return NULL;
}

static int count_samples(const char *path)
{
	struct hm_reader *r = hm_reader__new(path, NULL);
	struct hm_event ev;
	int n = 0, ret;

	if (!r)
		return -1;
	while ((ret = hm_reader__next(r, &ev)) > 0)
		n += ev.type == PERF_RECORD_SAMPLE;
	hm_reader__delete(r);
	return ret < 0 ? ret : n;
}

static void check_fd_modes(void)
{
	struct bld b = make_file(false, 128), p = { 0 };
	char path[] = "/tmp/hitmap-reader-XXXXXX", fdpath[64];
	int fd = mkstemp(path), pfd[2];
	pthread_t th;
	struct wr w;

	if (fd < 0) {
		SKIP("reader.fd.file", "mkstemp failed");
		return;
	}
	if (write(fd, b.p, b.len) != (ssize_t)b.len)
		FAILF("reader.fd.write", "short write");
	close(fd);
	CHECK_EQ("reader.fd.file_samples", count_samples(path), 3);
	unlink(path);
	/* pipe-mode stream through a FIFO, 1000 bytes at a time */
	pipe_header(&p, 128, false);
	for (int i = 0; i < 3000; i++)
		put_simple_sample(&p, 300, i, 9);
	if (pipe(pfd)) {
		SKIP("reader.fd.pipe", "pipe() failed");
		free(b.p);
		free(p.p);
		return;
	}
	w.fd = pfd[1];
	w.b = &p;
	pthread_create(&th, NULL, writer, &w);
	snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", pfd[0]);
	CHECK_EQ("reader.fd.pipe_samples", count_samples(fdpath), 3000);
	pthread_join(th, NULL);
	close(pfd[0]);
	free(b.p);
	free(p.p);
}

int main(void)
{
	static const u32 sizes[] = { 128, 136, 200 };

	for (int sw = 0; sw < 2; sw++)
		for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			check_file(sw, sizes[i]);
	/* attr size 64 (VER0): a simple event only */
	{
		struct bld b = { 0 };
		struct perf_event_attr a;
		size_t data_at;
		struct hm_reader *r;
		struct hm_event ev;
		int n = 0, ret = -1;

		attr_simple(&a);
		put(&b, NULL, 104);
		put_attr(&b, &a, 64); p64(&b, 0); p64(&b, 0);
		data_at = b.len;
		put_simple_sample(&b, 0, 1, 1);
		put_simple_sample(&b, 0, 2, 1);
		memcpy(b.p, "PERFILE2", 8);
		set64(&b, 8, 104); set64(&b, 16, 80); set64(&b, 24, 104); set64(&b, 32, 80);
		set64(&b, 40, data_at); set64(&b, 48, b.len - data_at);
		r = hm_reader__new_mem(b.p, b.len, NULL);
		while (r && (ret = hm_reader__next(r, &ev)) > 0)
			n += ev.has_sample;
		CHECK_EQ("reader.attr64.samples", n, 2);
		CHECK_EQ("reader.attr64.end", ret, 0);
		CHECK_EQ("reader.attr64.size", r ? hm_reader__evsel(r, 0)->file_attr_size : 0, 64);
		hm_reader__delete(r);
		free(b.p);
	}
	check_pipe(false);
	check_pipe(true);
	check_compressed(false, false);
	check_compressed(true, false);
	check_compressed(false, true);
	check_ordered();
	check_ordered_big();
	check_ordered_runs();
	check_errors();
	check_fd_modes();
	CHECK_STR("reader.names.record", hm_record__name(10), "MMAP2");
	CHECK_STR("reader.names.record83", hm_record__name(83), "COMPRESSED2");
	CHECK_STR("reader.names.feature", hm_feature__name(HM_FEAT_MEM_TOPOLOGY), "MEM_TOPOLOGY");
	TAP_DONE();
}
