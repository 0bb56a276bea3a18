// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files of the other byte order: every record type whose body the reader
 * swaps field by field (perf's session.c perf_event__*_swap), built here
 * byte by byte in both byte orders into a pipe-mode stream.  The reader must
 * hand out the same native record (ev.data, byte for byte) for both, and
 * the fields read from the swapped one must be the values written:
 * HEADER_ATTR (attr and ids), HEADER_FEATURE sections, CPU_MAP (cpus,
 * mask 32/64, range), AUXTRACE_ERROR, THREAD_MAP, EVENT_UPDATE (unit, scale,
 * name, cpus), STAT_CONFIG, STAT, STAT_ROUND, TIME_CONV (old and new size),
 * ID_INDEX, and the kernel records KSYMBOL, NAMESPACES, SWITCH_CPU_WIDE,
 * LOST_SAMPLES, TEXT_POKE, BPF_EVENT, CGROUP with their sample_id_all
 * trailers; and the BRANCH_STACK flag bitfield as a big-endian machine lays
 * it out.
 */
#include <byteswap.h>
#include <errno.h>
#include <unistd.h>
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
		if (!b->p)
			abort();
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
static void p8(struct bld *b, u8 v) { put(b, &v, 1); }
static void set16(struct bld *b, size_t at, u16 v) { if (b->sw) v = bswap_16(v); memcpy(b->p + at, &v, 2); }
static void pad8(struct bld *b) { while (b->len % 8) p8(b, 0); }

static size_t rec_begin(struct bld *b, u32 type, u16 misc)
{
	size_t at = b->len;

	p32(b, type); p16(b, misc); p16(b, 0);
	return at;
}
static void rec_end(struct bld *b, size_t at)
{
	pad8(b);
	set16(b, at + 6, (u16)(b->len - at));
}

/* perf_header_string: u32 len (NUL included, padded to 8), the bytes */
static void pstr(struct bld *b, const char *s)
{
	u32 n = (u32)((strlen(s) + 1 + 7) & ~7ul);

	p32(b, n);
	put(b, s, strlen(s));
	put(b, NULL, n - strlen(s));
}

static u8 revbyte(u8 x)
{
	u8 r = 0;

	for (int i = 0; i < 8; i++)
		if (x & (1 << i))
			r |= 0x80 >> i;
	return r;
}

#define ASZ 128
/* the first 128 bytes of an attr in the builder's byte order */
static void put_attr(struct bld *b, const struct perf_event_attr *a)
{
	u64 flags;
	size_t at;

	memcpy(&flags, (const u8 *)a + 40, 8);
	p32(b, a->type); p32(b, ASZ); p64(b, a->config); p64(b, a->sample_period);
	p64(b, a->sample_type); p64(b, a->read_format);
	at = b->len;
	put(b, &flags, 8);
	if (b->sw)
		for (int i = 0; i < 8; i++)
			b->p[at + i] = revbyte(b->p[at + i]);
	p32(b, a->wakeup_events); p32(b, a->bp_type); p64(b, a->config1); p64(b, a->config2);
	p64(b, a->branch_sample_type); p64(b, a->sample_regs_user);
	p32(b, a->sample_stack_user); p32(b, (u32)a->clockid); p64(b, a->sample_regs_intr);
	p32(b, a->aux_watermark); p16(b, a->sample_max_stack); p16(b, 0);
	p32(b, a->aux_sample_size); p32(b, 0); p64(b, a->sig_data);
}

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK)
#define ID0 101

static void attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_RAW;
	a->config = 0x1cd;
	a->sample_period = 1000;
	a->sample_type = ST;
	a->sample_id_all = 1;
	a->precise_ip = 2;
	a->exclude_kernel = 1;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
}

/* sample_id_all trailer: TID, TIME, CPU, IDENTIFIER */
static void trailer(struct bld *b)
{
	p32(b, 42); p32(b, 43);
	p64(b, 5000);
	p32(b, 3); p32(b, 0);
	p64(b, ID0);
}

/* A branch flags value laid out as a compiler of the file's order does. */
static u64 flags_value(bool sw, u64 v)
{
	static const u8 field[][2] = {
		{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 },
		{ 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 },
	};
	u64 r = 0;

	if (!sw)
		return v;
	for (size_t i = 0; i < sizeof(field) / sizeof(field[0]); i++)
		r |= ((v >> field[i][0]) & ((1ULL << field[i][1]) - 1)) <<
		     (64 - field[i][0] - field[i][1]);
	return r;
}

/* mispred, cycles 0x1234, type 5, spec 2, new_type 9, priv 3 */
#define BR_FLAGS (1ULL | 0x1234ULL << 4 | 5ULL << 20 | 2ULL << 24 | 9ULL << 26 | 3ULL << 30)

static void feature(struct bld *b, u64 feat, void (*body)(struct bld *))
{
	size_t at = rec_begin(b, HM_RECORD_HEADER_FEATURE, 0);

	p64(b, feat);
	body(b);
	rec_end(b, at);
}

static void f_hostname(struct bld *b) { pstr(b, "swap-host"); }
static void f_nrcpus(struct bld *b) { p32(b, 2); p32(b, 2); }
static void f_total_mem(struct bld *b) { p64(b, 123456789); }
static void f_cmdline(struct bld *b) { p32(b, 2); pstr(b, "perf"); pstr(b, "record"); }
static void f_event_desc(struct bld *b)
{
	struct perf_event_attr a;

	attr(&a);
	p32(b, 1); p32(b, ASZ);
	put_attr(b, &a);
	p32(b, 2); pstr(b, "swapev");
	p64(b, ID0); p64(b, ID0 + 1);
}
static void f_cpu_topology(struct bld *b)
{
	p32(b, 1); pstr(b, "0-1");
	p32(b, 2); pstr(b, "0"); pstr(b, "1");
	p32(b, 0); p32(b, 0); p32(b, 0); p32(b, 1);	/* core, socket per cpu */
	p32(b, 1); pstr(b, "0-1");
	p32(b, 0); p32(b, 0);				/* die per cpu */
}
static void f_numa(struct bld *b)
{
	p32(b, 1); p32(b, 0); p64(b, 4000000); p64(b, 3000000); pstr(b, "0-1");
}
static void f_mem_topology(struct bld *b)
{
	p64(b, 1); p64(b, 128 << 20); p64(b, 1);
	p64(b, 0); p64(b, 64); p64(b, 64); p64(b, 0xffff0000ffffULL);
}
static void f_cache(struct bld *b)
{
	p32(b, 1); p32(b, 1);
	p32(b, 1); p32(b, 64); p32(b, 64); p32(b, 8);
	pstr(b, "Data"); pstr(b, "32K"); pstr(b, "0-1");
}
static void f_pmu_mappings(struct bld *b) { p32(b, 2); p32(b, 4); pstr(b, "cpu"); p32(b, 1); pstr(b, "software"); }
static void f_group_desc(struct bld *b) { p32(b, 1); pstr(b, "{a,b}"); p32(b, 0); p32(b, 2); }
static void f_hybrid(struct bld *b) { p32(b, 1); pstr(b, "cpu_core"); pstr(b, "0-1"); }
static void f_cpu_pmu_caps(struct bld *b) { p32(b, 1); pstr(b, "branches"); pstr(b, "32"); }
static void f_pmu_caps(struct bld *b)
{
	p32(b, 1); p32(b, 2); pstr(b, "max_precise"); pstr(b, "3"); pstr(b, "branches"); pstr(b, "16");
	pstr(b, "cpu");
}
static void f_clockid(struct bld *b) { p64(b, 1000000); }
static void f_sample_time(struct bld *b) { p64(b, 1111); p64(b, 9999); }
static void f_clock_data(struct bld *b) { p32(b, 1); p32(b, 1); p64(b, 1700000000000000000ULL); p64(b, 5000); }
static void f_build_id(struct bld *b)
{
	size_t at = rec_begin(b, 0, PERF_RECORD_MISC_USER | (1 << 15));
	u8 id[20];

	for (int i = 0; i < 20; i++)
		id[i] = (u8)(0xa0 + i);
	p32(b, (u32)-1);
	put(b, id, 20); p8(b, 20); p8(b, 0); p16(b, 0);
	put(b, "/usr/bin/swap", 14);
	rec_end(b, at);
}

static void cpu_map_cpus(struct bld *b, size_t *at)
{
	p16(b, 0); p16(b, 3); p16(b, 0); p16(b, 5); p16(b, 7);
	(void)at;
}

static void build(struct bld *b, bool sw)
{
	struct perf_event_attr a;
	size_t at;

	b->len = 0;
	b->sw = sw;
	p64(b, 0x32454c4946524550ULL);	/* PERFILE2 */
	p64(b, 16);

	attr(&a);
	at = rec_begin(b, HM_RECORD_HEADER_ATTR, 0);
	put_attr(b, &a);
	p64(b, ID0); p64(b, ID0 + 1);
	rec_end(b, at);

	feature(b, HM_FEAT_HOSTNAME, f_hostname);
	feature(b, HM_FEAT_NRCPUS, f_nrcpus);
	feature(b, HM_FEAT_TOTAL_MEM, f_total_mem);
	feature(b, HM_FEAT_CMDLINE, f_cmdline);
	feature(b, HM_FEAT_EVENT_DESC, f_event_desc);
	feature(b, HM_FEAT_CPU_TOPOLOGY, f_cpu_topology);
	feature(b, HM_FEAT_NUMA_TOPOLOGY, f_numa);
	feature(b, HM_FEAT_MEM_TOPOLOGY, f_mem_topology);
	feature(b, HM_FEAT_CACHE, f_cache);
	feature(b, HM_FEAT_PMU_MAPPINGS, f_pmu_mappings);
	feature(b, HM_FEAT_GROUP_DESC, f_group_desc);
	feature(b, HM_FEAT_HYBRID_TOPOLOGY, f_hybrid);
	feature(b, HM_FEAT_CPU_PMU_CAPS, f_cpu_pmu_caps);
	feature(b, HM_FEAT_PMU_CAPS, f_pmu_caps);
	feature(b, HM_FEAT_CLOCKID, f_clockid);
	feature(b, HM_FEAT_SAMPLE_TIME, f_sample_time);
	feature(b, HM_FEAT_CLOCK_DATA, f_clock_data);
	feature(b, HM_FEAT_BUILD_ID, f_build_id);

	/* kernel records, each with the sample_id_all trailer */
	at = rec_begin(b, PERF_RECORD_KSYMBOL, 0);
	p64(b, 0xffffffffc0001000ULL); p32(b, 0x200); p16(b, 1); p16(b, 1);
	put(b, "bpf_prog_swap", 14); pad8(b);
	trailer(b);
	rec_end(b, at);

	at = rec_begin(b, PERF_RECORD_NAMESPACES, 0);
	p32(b, 42); p32(b, 43); p64(b, 2);
	p64(b, 0x11); p64(b, 0xf0000001ULL); p64(b, 0x22); p64(b, 0xf0000002ULL);
	trailer(b);
	rec_end(b, at);

	at = rec_begin(b, PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT);
	p32(b, 1234); p32(b, 1235);
	trailer(b);
	rec_end(b, at);

	at = rec_begin(b, PERF_RECORD_LOST_SAMPLES, 0);
	p64(b, 77);
	trailer(b);
	rec_end(b, at);

	at = rec_begin(b, PERF_RECORD_TEXT_POKE, 0);
	p64(b, 0xffffffff81001000ULL); p16(b, 3); p16(b, 3);
	put(b, "\x0f\x1f\x00\xe9\x10\x20", 6); pad8(b);
	trailer(b);
	rec_end(b, at);

	at = rec_begin(b, PERF_RECORD_BPF_EVENT, 0);
	p16(b, 1); p16(b, 0); p32(b, 4242);
	put(b, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	trailer(b);
	rec_end(b, at);

	at = rec_begin(b, PERF_RECORD_CGROUP, 0);
	p64(b, 0x1234567890ULL);
	put(b, "/sys/fs/cgroup/a", 17); pad8(b);
	trailer(b);
	rec_end(b, at);

	/* a sample with one branch entry */
	at = rec_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	p64(b, ID0); p64(b, 0x401000); p32(b, 42); p32(b, 43); p64(b, 6000);
	p32(b, 1); p32(b, 0); p64(b, 1000);
	p64(b, 1); p64(b, 0x401000); p64(b, 0x402000); p64(b, flags_value(sw, BR_FLAGS));
	rec_end(b, at);

	/* user records */
	at = rec_begin(b, HM_RECORD_AUXTRACE_ERROR, 0);
	p32(b, 1); p32(b, 2); p32(b, 3); p32(b, 44); p32(b, 45); p32(b, 2);
	p64(b, 0x401234); p64(b, 7000);
	{
		char msg[64] = "decoder error";

		put(b, msg, 64);
	}
	p32(b, 99); p32(b, 7);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_THREAD_MAP, 0);
	p64(b, 2);
	p64(b, 42); put(b, "worker\0\0\0\0\0\0\0\0\0\0", 16);
	p64(b, 43); put(b, "helper\0\0\0\0\0\0\0\0\0\0", 16);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_CPU_MAP, 0);
	cpu_map_cpus(b, NULL);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_CPU_MAP, 0);	/* mask, 32-bit longs */
	p16(b, 1); p16(b, 2); p16(b, 4); p32(b, 0x80000005); p32(b, 0x3);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_CPU_MAP, 0);	/* mask, 64-bit longs */
	p16(b, 1); p16(b, 1); p16(b, 8); p32(b, 0); p64(b, 0x8000000000000021ULL);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_CPU_MAP, 0);	/* range */
	p16(b, 2); p8(b, 1); p8(b, 0); p16(b, 2); p16(b, 9);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_EVENT_UPDATE, 0);	/* UNIT */
	p64(b, 0); p64(b, ID0); put(b, "ms", 3);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_EVENT_UPDATE, 0);	/* SCALE */
	{
		double d = 0.25;
		u64 v;

		memcpy(&v, &d, 8);
		p64(b, 1); p64(b, ID0); p64(b, v);
	}
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_EVENT_UPDATE, 0);	/* NAME */
	p64(b, 2); p64(b, ID0); put(b, "renamed", 8);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_EVENT_UPDATE, 0);	/* CPUS */
	p64(b, 3); p64(b, ID0);
	cpu_map_cpus(b, NULL);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_STAT_CONFIG, 0);
	p64(b, 2); p64(b, 0); p64(b, 1); p64(b, 1); p64(b, 1000);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_STAT, 0);
	p64(b, ID0); p32(b, 3); p32(b, 4); p64(b, 111); p64(b, 222); p64(b, 333);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_STAT_ROUND, 0);
	p64(b, 1); p64(b, 8000);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_TIME_CONV, 0);	/* perf < 5.11: 32 bytes */
	p64(b, 10); p64(b, 20); p64(b, 30);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_TIME_CONV, 0);	/* with cycles, mask and the u8 caps */
	p64(b, 10); p64(b, 20); p64(b, 30); p64(b, 40); p64(b, 0xffffffffffULL);
	p8(b, 1); p8(b, 0); put(b, NULL, 6);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_ID_INDEX, 0);
	p64(b, 2);
	p64(b, ID0); p64(b, 0); p64(b, 0); p64(b, 42);
	p64(b, ID0 + 1); p64(b, 1); p64(b, 1); p64(b, 43);
	rec_end(b, at);

	at = rec_begin(b, HM_RECORD_FINISHED_ROUND, 0);
	rec_end(b, at);
}

#define MAXREC 128

struct got {
	int	n;
	u32	type[MAXREC], size[MAXREC];
	u8	*data[MAXREC];
	struct hm_sample sample[MAXREC];
	bool	has_sample[MAXREC];
	struct hm_branch_entry br[MAXREC];
	int	ret;
	char	hostname[64];
	u32	nr_cpus, nr_caches, nr_pmu_caps, nr_build_ids;
	u64	total_mem, mem_block;
	int	socket1;
	char	evname[32];
	struct perf_event_attr attr;
	u64	ids[2];
};

static void read_all(const struct bld *b, struct got *g)
{
	struct hm_reader *r = hm_reader__new_mem(b->p, b->len, NULL);
	struct hm_event ev;
	const struct hm_header *h;
	const struct hm_evsel *e;

	memset(g, 0, sizeof(*g));
	if (!r) {
		g->ret = -errno;
		return;
	}
	while ((g->ret = hm_reader__next(r, &ev)) == 1 && g->n < MAXREC) {
		g->type[g->n] = ev.type;
		g->size[g->n] = ev.size;
		g->data[g->n] = malloc(ev.size);
		memcpy(g->data[g->n], ev.data, ev.size);
		g->sample[g->n] = ev.sample;
		g->has_sample[g->n] = ev.has_sample;
		if (ev.has_sample && ev.sample.branch_nr)
			g->br[g->n] = ev.sample.branch[0];
		g->sample[g->n].branch = NULL;
		g->sample[g->n].read = NULL;
		g->sample[g->n].callchain = NULL;
		g->sample[g->n].raw = NULL;
		g->n++;
	}
	h = hm_reader__header(r);
	snprintf(g->hostname, sizeof(g->hostname), "%s", h->hostname ? h->hostname : "");
	g->nr_cpus = h->nr_cpus_avail;
	g->nr_caches = h->nr_caches;
	g->nr_pmu_caps = h->nr_pmu_caps;
	g->nr_build_ids = h->nr_build_ids;
	g->total_mem = h->total_mem_kb;
	g->mem_block = h->mem_block_size;
	g->socket1 = h->cpu && h->nr_cpus_avail > 1 ? h->cpu[1].socket_id : -1;
	e = hm_reader__evsel(r, 0);
	if (e) {
		snprintf(g->evname, sizeof(g->evname), "%s", e->name ? e->name : "");
		g->attr = e->attr;
		for (u32 i = 0; i < 2 && i < e->nr_ids; i++)
			g->ids[i] = e->ids[i];
	}
	hm_reader__delete(r);
}

static void got_free(struct got *g)
{
	for (int i = 0; i < g->n; i++)
		free(g->data[i]);
}

static u64 ld64(const u8 *p, u32 o) { u64 v; memcpy(&v, p + o, 8); return v; }
static u32 ld32(const u8 *p, u32 o) { u32 v; memcpy(&v, p + o, 4); return v; }
static u16 ld16(const u8 *p, u32 o) { u16 v; memcpy(&v, p + o, 2); return v; }

/* index of the @nth record of @type, -1 */
static int find(const struct got *g, u32 type, int nth)
{
	for (int i = 0; i < g->n; i++)
		if (g->type[i] == type && !nth--)
			return i;
	return -1;
}

static const char *feat_of(const struct got *g, int i)
{
	static char buf[32];
	const char *n;

	if (g->type[i] != HM_RECORD_HEADER_FEATURE || g->size[i] < 16)
		return hm_record__name(g->type[i]) ? hm_record__name(g->type[i]) : "?";
	n = hm_feature__name((int)ld64(g->data[i], 8));
	snprintf(buf, sizeof(buf), "FEATURE %s", n ? n : "?");
	return buf;
}

/* the trailer of a kernel record, decoded */
static bool trailer_ok(const struct got *g, int i)
{
	const struct hm_sample *s = &g->sample[i];

	return g->has_sample[i] && s->pid == 42 && s->tid == 43 && s->time == 5000 && s->cpu == 3 &&
	       s->id == ID0;
}

static int nr_warn;

/*
 * The writer's other-byte-order mode on the same native records: what it
 * takes (hm_writer__swappable) must read back as the same native bytes.
 */
static void writer_swap_roundtrip(const struct got *n)
{
	char path[] = "/tmp/hm-swap-XXXXXX";
	int fd = mkstemp(path), wrote[MAXREC], nw = 0, bad = 0, k = 0, ret;
	struct hm_writer *w;
	struct hm_reader *r;
	struct hm_event ev;
	char name[128];

	if (fd < 0) {
		SKIP("swap writer: records read back native", "mkstemp: %s", strerror(errno));
		return;
	}
	close(fd);
	w = hm_writer__new(path);
	ret = w ? hm_writer__set_swap(w, true) : -1;
	if (!ret)
		ret = hm_writer__add_evsel(w, &n->attr, NULL, n->ids, 2) < 0;
	for (int i = 0; !ret && i < n->n; i++) {
		if (n->type[i] == PERF_RECORD_SAMPLE || n->type[i] == HM_RECORD_HEADER_ATTR ||
		    n->type[i] == HM_RECORD_HEADER_FEATURE ||
		    !hm_writer__swappable(w, n->data[i], n->size[i]))
			continue;
		ret = hm_writer__write(w, n->data[i], n->size[i]);
		wrote[nw++] = i;
	}
	if (!ret)
		ret = hm_writer__close(w);
	hm_writer__delete(w);
	CHECK_EQ("swap writer: writes the records it takes", ret, 0);
	r = hm_reader__new(path, NULL);
	CHECK("swap writer: file reads", r && hm_reader__header(r)->needs_swap);
	while (r && k < nw && hm_reader__next(r, &ev) == 1) {
		int i = wrote[k];

		if (ev.type != n->type[i])
			continue;
		snprintf(name, sizeof(name), "swap writer: %s reads back native", feat_of(n, i));
		if (ev.size == n->size[i] && !memcmp(ev.data, n->data[i], ev.size))
			PASS(name);
		else {
			bad++;
			FAILF(name, "size %u/%u or bytes differ", ev.size, n->size[i]);
		}
		k++;
	}
	CHECK_EQ("swap writer: every record taken read back", k, nw);
	CHECK("swap writer: takes TIME_CONV, THREAD_MAP, KSYMBOL, NAMESPACES, CGROUP", nw >= 5);
	(void)bad;
	hm_reader__delete(r);
	unlink(path);
}

static void log_sink(enum hm_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	nr_warn += level <= HM_LOG_WARN;
	fprintf(stderr, "# %s\n", msg);
}

int main(void)
{
	struct bld le = { 0 }, be = { 0 };
	struct got *n = calloc(1, sizeof(*n)), *s = calloc(1, sizeof(*s));
	char name[128];
	int i, same = 0, diff = 0;
	const u8 *d;

	hm_log__set_sink(log_sink, NULL, HM_LOG_WARN);
	build(&le, false);
	build(&be, true);
	CHECK("swap: the two builds differ in bytes", le.len == be.len && memcmp(le.p, be.p, le.len));
	read_all(&le, n);
	read_all(&be, s);
	CHECK_EQ("swap: native stream reads to its end", n->ret, 0);
	CHECK_EQ("swap: other-order stream reads to its end", s->ret, 0);
	CHECK_EQ("swap: same record count", s->n, n->n);
	CHECK_EQ("swap: record count", n->n, 1 + 18 + 7 + 1 + 1 + 1 + 4 + 4 + 3 + 2 + 1 + 1);

	/* ev.data: the same native record for both byte orders */
	for (i = 0; i < n->n && i < s->n; i++) {
		snprintf(name, sizeof(name), "swap: ev.data native, record %d (%s)", i, feat_of(n, i));
		if (n->type[i] == s->type[i] && n->size[i] == s->size[i] &&
		    !memcmp(n->data[i], s->data[i], n->size[i])) {
			same++;
			PASS(name);
		} else {
			u32 k = 0;

			while (k < n->size[i] && k < s->size[i] && n->data[i][k] == s->data[i][k])
				k++;
			diff++;
			FAILF(name, "type %u/%u size %u/%u, first differing byte at %u", n->type[i],
			      s->type[i], n->size[i], s->size[i], k);
		}
	}
	CHECK_EQ("swap: every record native", same, n->n);

	/* parsed header and event agree */
	CHECK_STR("swap: HOSTNAME", s->hostname, "swap-host");
	CHECK_EQ("swap: NRCPUS", s->nr_cpus, 2);
	CHECK_EQ("swap: TOTAL_MEM", s->total_mem, 123456789);
	CHECK_EQ("swap: MEM_TOPOLOGY block size", s->mem_block, 128 << 20);
	CHECK_EQ("swap: CPU_TOPOLOGY socket of cpu 1", s->socket1, 1);
	CHECK_EQ("swap: CACHE", s->nr_caches, 1);
	CHECK_EQ("swap: PMU_CAPS (cpu + 1 pmu)", s->nr_pmu_caps, 2);
	CHECK_EQ("swap: BUILD_ID", s->nr_build_ids, 1);
	CHECK_STR("swap: EVENT_DESC name", s->evname, "swapev");
	CHECK("swap: attr identical", !memcmp(&s->attr, &n->attr, sizeof(s->attr)));
	CHECK_EQ("swap: attr sample_type", s->attr.sample_type, ST);
	CHECK_EQ("swap: attr precise_ip (bitfield)", s->attr.precise_ip, 2);
	CHECK_EQ("swap: attr exclude_kernel (bitfield)", s->attr.exclude_kernel, 1);
	CHECK_EQ("swap: attr ids", s->ids[1], ID0 + 1);

	/* fields read from the other-order file's native records */
#define AT(type, nth) (i = find(s, type, nth), d = i >= 0 ? s->data[i] : NULL, i >= 0)
	if (AT(HM_RECORD_HEADER_ATTR, 0)) {
		CHECK_EQ("swap HEADER_ATTR: attr.size", ld32(d, 12), ASZ);
		CHECK_EQ("swap HEADER_ATTR: attr.sample_type", ld64(d, 8 + 24), ST);
		CHECK_EQ("swap HEADER_ATTR: id[0]", ld64(d, 8 + ASZ), ID0);
		CHECK_EQ("swap HEADER_ATTR: id[1]", ld64(d, 8 + ASZ + 8), ID0 + 1);
	} else {
		FAILF("swap HEADER_ATTR", "not handed out");
	}
	if (AT(HM_RECORD_HEADER_FEATURE, 1)) {
		CHECK_EQ("swap HEADER_FEATURE: feat id", ld64(d, 8), HM_FEAT_NRCPUS);
		CHECK_EQ("swap HEADER_FEATURE NRCPUS: payload native", ld32(d, 16), 2);
	}
	if (AT(HM_RECORD_HEADER_FEATURE, 0))
		CHECK_EQ("swap HEADER_FEATURE HOSTNAME: string length native", ld32(d, 16), 16);

	if (AT(PERF_RECORD_KSYMBOL, 0)) {
		CHECK_EQ("swap KSYMBOL: addr", ld64(d, 8), 0xffffffffc0001000ULL);
		CHECK_EQ("swap KSYMBOL: len", ld32(d, 16), 0x200);
		CHECK_EQ("swap KSYMBOL: ksym_type", ld16(d, 20), 1);
		CHECK_EQ("swap KSYMBOL: flags", ld16(d, 22), 1);
		CHECK_STR("swap KSYMBOL: name", (const char *)d + 24, "bpf_prog_swap");
		CHECK("swap KSYMBOL: trailer", trailer_ok(s, i));
	}
	if (AT(PERF_RECORD_NAMESPACES, 0)) {
		CHECK_EQ("swap NAMESPACES: pid", ld32(d, 8), 42);
		CHECK_EQ("swap NAMESPACES: tid", ld32(d, 12), 43);
		CHECK_EQ("swap NAMESPACES: nr", ld64(d, 16), 2);
		CHECK_EQ("swap NAMESPACES: link[1].dev", ld64(d, 40), 0x22);
		CHECK_EQ("swap NAMESPACES: link[1].ino", ld64(d, 48), 0xf0000002ULL);
		CHECK("swap NAMESPACES: trailer", trailer_ok(s, i));
	}
	if (AT(PERF_RECORD_SWITCH_CPU_WIDE, 0)) {
		CHECK_EQ("swap SWITCH_CPU_WIDE: next_prev_pid", ld32(d, 8), 1234);
		CHECK_EQ("swap SWITCH_CPU_WIDE: next_prev_tid", ld32(d, 12), 1235);
		CHECK_EQ("swap SWITCH_CPU_WIDE: misc", ld16(d, 4), PERF_RECORD_MISC_SWITCH_OUT);
		CHECK("swap SWITCH_CPU_WIDE: trailer", trailer_ok(s, i));
	}
	if (AT(PERF_RECORD_LOST_SAMPLES, 0)) {
		CHECK_EQ("swap LOST_SAMPLES: lost", ld64(d, 8), 77);
		CHECK("swap LOST_SAMPLES: trailer", trailer_ok(s, i));
	}
	if (AT(PERF_RECORD_TEXT_POKE, 0)) {
		CHECK_EQ("swap TEXT_POKE: addr", ld64(d, 8), 0xffffffff81001000ULL);
		CHECK_EQ("swap TEXT_POKE: old_len", ld16(d, 16), 3);
		CHECK_EQ("swap TEXT_POKE: new_len", ld16(d, 18), 3);
		CHECK("swap TEXT_POKE: bytes kept", !memcmp(d + 20, "\x0f\x1f\x00\xe9\x10\x20", 6));
		CHECK("swap TEXT_POKE: trailer", trailer_ok(s, i));
	}
	if (AT(PERF_RECORD_BPF_EVENT, 0)) {
		CHECK_EQ("swap BPF_EVENT: type", ld16(d, 8), 1);
		CHECK_EQ("swap BPF_EVENT: id", ld32(d, 12), 4242);
		CHECK("swap BPF_EVENT: tag kept", !memcmp(d + 16, "\x01\x02\x03\x04\x05\x06\x07\x08", 8));
		CHECK("swap BPF_EVENT: trailer", trailer_ok(s, i));
	}
	if (AT(PERF_RECORD_CGROUP, 0)) {
		CHECK_EQ("swap CGROUP: id", ld64(d, 8), 0x1234567890ULL);
		CHECK_STR("swap CGROUP: path", (const char *)d + 16, "/sys/fs/cgroup/a");
		CHECK("swap CGROUP: trailer", trailer_ok(s, i));
	}
	if (AT(PERF_RECORD_SAMPLE, 0)) {
		CHECK_EQ("swap SAMPLE: branch from", s->br[i].from, 0x401000);
		CHECK_EQ("swap SAMPLE: branch flags (bitfield mirrored back)", s->br[i].flags, BR_FLAGS);
		CHECK_EQ("swap SAMPLE: branch flags, native file", n->br[i].flags, BR_FLAGS);
	}
	if (AT(HM_RECORD_AUXTRACE_ERROR, 0)) {
		CHECK_EQ("swap AUXTRACE_ERROR: type", ld32(d, 8), 1);
		CHECK_EQ("swap AUXTRACE_ERROR: code", ld32(d, 12), 2);
		CHECK_EQ("swap AUXTRACE_ERROR: cpu", ld32(d, 16), 3);
		CHECK_EQ("swap AUXTRACE_ERROR: pid", ld32(d, 20), 44);
		CHECK_EQ("swap AUXTRACE_ERROR: tid", ld32(d, 24), 45);
		CHECK_EQ("swap AUXTRACE_ERROR: fmt", ld32(d, 28), 2);
		CHECK_EQ("swap AUXTRACE_ERROR: ip", ld64(d, 32), 0x401234);
		CHECK_EQ("swap AUXTRACE_ERROR: time (fmt >= 1)", ld64(d, 40), 7000);
		CHECK_STR("swap AUXTRACE_ERROR: msg", (const char *)d + 48, "decoder error");
		CHECK_EQ("swap AUXTRACE_ERROR: machine_pid (fmt >= 2)", ld32(d, 112), 99);
		CHECK_EQ("swap AUXTRACE_ERROR: vcpu (fmt >= 2)", ld32(d, 116), 7);
	}
	if (AT(HM_RECORD_THREAD_MAP, 0)) {
		CHECK_EQ("swap THREAD_MAP: nr", ld64(d, 8), 2);
		CHECK_EQ("swap THREAD_MAP: [1].pid", ld64(d, 16 + 24), 43);
		CHECK_STR("swap THREAD_MAP: [1].comm", (const char *)d + 16 + 24 + 8, "helper");
	}
	if (AT(HM_RECORD_CPU_MAP, 0)) {
		CHECK_EQ("swap CPU_MAP cpus: type", ld16(d, 8), 0);
		CHECK_EQ("swap CPU_MAP cpus: nr", ld16(d, 10), 3);
		CHECK_EQ("swap CPU_MAP cpus: cpu[2]", ld16(d, 16), 7);
	}
	if (AT(HM_RECORD_CPU_MAP, 1)) {
		CHECK_EQ("swap CPU_MAP mask32: type", ld16(d, 8), 1);
		CHECK_EQ("swap CPU_MAP mask32: nr", ld16(d, 10), 2);
		CHECK_EQ("swap CPU_MAP mask32: long_size", ld16(d, 12), 4);
		CHECK_EQ("swap CPU_MAP mask32: mask[0]", ld32(d, 14), 0x80000005);
		CHECK_EQ("swap CPU_MAP mask32: mask[1]", ld32(d, 18), 3);
	}
	if (AT(HM_RECORD_CPU_MAP, 2)) {
		CHECK_EQ("swap CPU_MAP mask64: nr", ld16(d, 10), 1);
		CHECK_EQ("swap CPU_MAP mask64: long_size", ld16(d, 12), 8);
		CHECK_EQ("swap CPU_MAP mask64: mask[0]", ld64(d, 18), 0x8000000000000021ULL);
	}
	if (AT(HM_RECORD_CPU_MAP, 3)) {
		CHECK_EQ("swap CPU_MAP range: type", ld16(d, 8), 2);
		CHECK_EQ("swap CPU_MAP range: any_cpu", d[10], 1);
		CHECK_EQ("swap CPU_MAP range: start_cpu", ld16(d, 12), 2);
		CHECK_EQ("swap CPU_MAP range: end_cpu", ld16(d, 14), 9);
	}
	if (AT(HM_RECORD_EVENT_UPDATE, 0)) {
		CHECK_EQ("swap EVENT_UPDATE unit: type", ld64(d, 8), 0);
		CHECK_EQ("swap EVENT_UPDATE unit: id", ld64(d, 16), ID0);
		CHECK_STR("swap EVENT_UPDATE unit: unit", (const char *)d + 24, "ms");
	}
	if (AT(HM_RECORD_EVENT_UPDATE, 1)) {
		double v;

		memcpy(&v, d + 24, 8);
		CHECK_EQ("swap EVENT_UPDATE scale: type", ld64(d, 8), 1);
		CHECK("swap EVENT_UPDATE scale: scale", v == 0.25);
	}
	if (AT(HM_RECORD_EVENT_UPDATE, 2)) {
		CHECK_EQ("swap EVENT_UPDATE name: type", ld64(d, 8), 2);
		CHECK_STR("swap EVENT_UPDATE name: name", (const char *)d + 24, "renamed");
	}
	if (AT(HM_RECORD_EVENT_UPDATE, 3)) {
		CHECK_EQ("swap EVENT_UPDATE cpus: type", ld64(d, 8), 3);
		CHECK_EQ("swap EVENT_UPDATE cpus: map type", ld16(d, 24), 0);
		CHECK_EQ("swap EVENT_UPDATE cpus: nr", ld16(d, 26), 3);
		CHECK_EQ("swap EVENT_UPDATE cpus: cpu[1]", ld16(d, 30), 5);
	}
	if (AT(HM_RECORD_STAT_CONFIG, 0)) {
		CHECK_EQ("swap STAT_CONFIG: nr", ld64(d, 8), 2);
		CHECK_EQ("swap STAT_CONFIG: [1].tag", ld64(d, 32), 1);
		CHECK_EQ("swap STAT_CONFIG: [1].val", ld64(d, 40), 1000);
	}
	if (AT(HM_RECORD_STAT, 0)) {
		CHECK_EQ("swap STAT: id", ld64(d, 8), ID0);
		CHECK_EQ("swap STAT: cpu", ld32(d, 16), 3);
		CHECK_EQ("swap STAT: thread", ld32(d, 20), 4);
		CHECK_EQ("swap STAT: val", ld64(d, 24), 111);
		CHECK_EQ("swap STAT: ena", ld64(d, 32), 222);
		CHECK_EQ("swap STAT: run", ld64(d, 40), 333);
	}
	if (AT(HM_RECORD_STAT_ROUND, 0)) {
		CHECK_EQ("swap STAT_ROUND: type", ld64(d, 8), 1);
		CHECK_EQ("swap STAT_ROUND: time", ld64(d, 16), 8000);
	}
	if (AT(HM_RECORD_TIME_CONV, 0)) {
		CHECK_EQ("swap TIME_CONV (32 bytes): time_shift", ld64(d, 8), 10);
		CHECK_EQ("swap TIME_CONV (32 bytes): time_zero", ld64(d, 24), 30);
	}
	if (AT(HM_RECORD_TIME_CONV, 1)) {
		CHECK_EQ("swap TIME_CONV: time_mult", ld64(d, 16), 20);
		CHECK_EQ("swap TIME_CONV: time_cycles", ld64(d, 32), 40);
		CHECK_EQ("swap TIME_CONV: time_mask", ld64(d, 40), 0xffffffffffULL);
		CHECK_EQ("swap TIME_CONV: cap_user_time_zero (u8, not swapped)", d[48], 1);
		CHECK_EQ("swap TIME_CONV: cap_user_time_short (u8)", d[49], 0);
	}
	if (AT(HM_RECORD_ID_INDEX, 0)) {
		CHECK_EQ("swap ID_INDEX: nr", ld64(d, 8), 2);
		CHECK_EQ("swap ID_INDEX: [1].id", ld64(d, 16 + 32), ID0 + 1);
		CHECK_EQ("swap ID_INDEX: [1].tid", ld64(d, 16 + 32 + 24), 43);
	}
#undef AT
	writer_swap_roundtrip(n);
	CHECK_EQ("swap: no warnings or errors while reading", nr_warn, 0);
	(void)diff;
	got_free(n);
	got_free(s);
	free(n);
	free(s);
	free(le.p);
	free(be.p);
	TAP_DONE();
}
