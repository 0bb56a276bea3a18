// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_convert round trip: a file made with the writer (two events, samples
 * with callchains, COMM/MMAP2/FORK/EXIT/LOST/THROTTLE records, rounds, the
 * header features, hitmap metadata) converted to every form (file, pipe,
 * -z, COMPRESSED2, swapped, and combinations, and back) reads back through
 * the reader with every record byte-identical, the same events, ids and
 * names, and the header; pipe output also through a non-seekable pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>

#define NR_SAMPLES 5000

static char dir[64];
static u64 rng = 777;

static u64 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const u64 ST = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
	PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_WEIGHT |
	PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;

/* A kernel record with a body and the sample_id_all trailer of event 0. */
static int put_rec(struct hm_writer *w, u32 type, const u64 *body, int n, u32 pid, u64 time)
{
	u64 rec[16];
	struct perf_event_header *h = (void *)rec;
	int k = 1, i;

	for (i = 0; i < n; i++)
		rec[k++] = body[i];
	/* trailer: TID, TIME, ID, CPU, IDENTIFIER */
	rec[k++] = (u64)pid | (u64)(pid + 1) << 32;
	rec[k++] = time;
	rec[k++] = 11;
	rec[k++] = 3;
	rec[k++] = 11;
	h->type = type;
	h->misc = 0;
	h->size = (u16)(k * 8);
	return hm_writer__write(w, rec, k * 8);
}

static int make_input(const char *path)
{
	struct perf_event_attr a = { 0 };
	struct hm_header h = { 0 };
	struct hm_meta *m;
	void *meta = NULL;
	u64 meta_size = 0, ids0[2] = { 11, 12 }, ids1[1] = { 21 };
	struct hm_writer *w = hm_writer__new(path);
	int i, ret = 0;

	if (!w)
		return -errno;
	a.type = PERF_TYPE_RAW;
	a.size = sizeof(a);
	a.config = 0x1cd;
	a.sample_period = 4000;
	a.sample_type = ST;
	a.sample_id_all = 1;
	a.mmap = a.comm = a.mmap2 = 1;
	a.precise_ip = 3;
	ret |= hm_writer__add_evsel(w, &a, "cpu/mem-loads,ldlat=30/P", ids0, 2) < 0;
	a.config = 0x82d0;
	a.mmap = a.comm = a.mmap2 = 0;
	ret |= hm_writer__add_evsel(w, &a, "cpu/mem-stores/P", ids1, 1) < 0;
	m = hm_meta__new();
	if (m) {
		hm_meta__add(m, HM_META_RECORD_MODE, "simulate", 8);
		hm_meta__add(m, HM_META_KERNEL, "6.16.0", 6);
		hm_meta__serialize(m, &meta, &meta_size);
		hm_meta__delete(m);
	}
	h.hostname = "convert-host";
	h.osrelease = "6.16.0";
	h.arch = "x86_64";
	h.nr_cpus_avail = h.nr_cpus_online = 8;
	h.total_mem_kb = 16 << 20;
	h.hitmap_meta = meta;
	h.hitmap_meta_size = meta_size;
	ret |= hm_writer__set_header(w, &h);
	ret |= hm_writer__write_comm(w, 100, 101, "worker");
	ret |= hm_writer__write_mmap2(w, 100, 101, 0x400000, 0x10000, 0, 5, 2, "/usr/bin/worker", PERF_RECORD_MISC_USER);
	{
		u64 fork[] = { 100 | (u64)99 << 32, 101 | (u64)99 << 32, 5 };
		u64 lost[] = { 11, 42 };
		u64 thr[] = { 7, 11, 0 };

		ret |= put_rec(w, PERF_RECORD_FORK, fork, 3, 100, 5);
		ret |= put_rec(w, PERF_RECORD_LOST, lost, 2, 100, 6);
		ret |= put_rec(w, PERF_RECORD_THROTTLE, thr, 3, 100, 7);
	}
	for (i = 0; i < NR_SAMPLES && !ret; i++) {
		struct hm_sample s = { 0 };
		u64 chain[4] = { (u64)-512, 0x400100 + rnd() % 64, 0x400200, 0x400300 };

		s.misc = PERF_RECORD_MISC_USER;
		s.ip = 0x400000 + rnd() % 0x10000;
		s.pid = 100 + i % 3;
		s.tid = s.pid + 1;
		s.time = 1000000000ULL + i * 997ULL;
		s.addr = 0x7f0000000000ULL + (rnd() % 4096) * 64;
		s.id = i % 2 ? 11 : 12;
		s.cpu = i % 8;
		s.period = 4000;
		s.callchain_nr = 1 + i % 4;
		s.callchain = chain;
		s.weight = rnd() % 500;
		s.data_src = rnd() & 0xffffffffff;
		s.phys_addr = rnd() & 0xfffffffff000ULL;
		if (i % 5 == 4) {
			s.id = 21;
			ret |= hm_writer__write_sample(w, 1, &s);
		} else {
			ret |= hm_writer__write_sample(w, 0, &s);
		}
		if (i % 1000 == 999)
			ret |= hm_writer__write_finished_round(w);
	}
	{
		u64 ex[] = { 100 | (u64)99 << 32, 101 | (u64)99 << 32, 99999 };

		ret |= put_rec(w, PERF_RECORD_EXIT, ex, 3, 100, 99999);
	}
	if (!ret)
		ret = hm_writer__close(w);
	hm_writer__delete(w);
	free(meta);
	return ret;
}

static bool header_rec(u32 t)
{
	return t == HM_RECORD_COMPRESSED || t == HM_RECORD_COMPRESSED2 ||
	       t == HM_RECORD_HEADER_ATTR || t == HM_RECORD_HEADER_FEATURE ||
	       t == HM_RECORD_HEADER_TRACING_DATA || t == HM_RECORD_EVENT_UPDATE ||
	       t == HM_RECORD_HEADER_BUILD_ID;
}

static int next_data(struct hm_reader *r, struct hm_event *ev)
{
	int ret;

	while ((ret = hm_reader__next(r, ev)) == 1 && header_rec(ev->type))
		;
	return ret;
}

static bool no_meta;	/* the converted file came from a pipe-mode one */

/* The metadata entries of both, parsed in their byte order, are the same. */
static bool same_meta(const struct hm_header *x, const struct hm_header *y)
{
	struct hm_meta *a = hm_meta__parse(x->hitmap_meta, x->hitmap_meta_size, x->needs_swap);
	struct hm_meta *b = y->hitmap_meta ? hm_meta__parse(y->hitmap_meta, y->hitmap_meta_size, y->needs_swap) : NULL;
	bool same = a && b;
	int i;

	for (i = 0; same; i++) {
		u32 ta, tb, la, lb;
		const void *da, *db;
		int ra = hm_meta__get(a, i, &ta, &da, &la), rb = hm_meta__get(b, i, &tb, &db, &lb);

		if (ra != rb || (ra == 1 && (ta != tb || la != lb || memcmp(da, db, la))))
			same = false;
		if (ra != 1)
			break;
	}
	hm_meta__delete(a);
	hm_meta__delete(b);
	return same;
}

struct form {
	const char *name;
	struct hm_convert_opts o;
	bool want_pipe, want_swap;
	u32 want_comp;		/* record type of the compressed records, 0 none */
};

/* Compare @path against the original, record by record. */
static void compare(const char *name, const char *orig, const char *path, const struct form *f,
		    const void *mem, size_t memlen)
{
	struct hm_reader_opts ro = { .all_records = true };
	struct hm_reader *a = hm_reader__new(orig, &ro);
	struct hm_reader *b = mem ? hm_reader__new_mem(mem, memlen, &ro) : hm_reader__new(path, &ro);
	struct hm_event ea, eb;
	char t[160];
	u64 n = 0, bad = 0, first_bad = 0, misplaced = 0;
	int ra, rb, i;
	bool names = true, ids = true, attrs = true;

	if (!a || !b) {
		snprintf(t, sizeof(t), "%s: reads back", name);
		FAILF(t, "%s", hm_log__last_error());
		hm_reader__delete(a);
		hm_reader__delete(b);
		return;
	}
	for (;;) {
		ra = next_data(a, &ea);
		rb = next_data(b, &eb);
		if (ra != 1 || rb != 1)
			break;
		n++;
		/* -z: records inside the stream, FINISHED_ROUND plain as perf has it */
		if (f->want_comp && eb.compressed != (eb.type != HM_RECORD_FINISHED_ROUND))
			misplaced++;
		if (ea.type != eb.type || ea.size != eb.size || memcmp(ea.data, eb.data, ea.size)) {
			if (!bad++)
				first_bad = n;
		}
	}
	snprintf(t, sizeof(t), "%s: reader ends cleanly on both", name);
	CHECK(t, ra == 0 && rb == 0);
	snprintf(t, sizeof(t), "%s: every record identical (%llu records)", name, (unsigned long long)n);
	if (bad)
		FAILF(t, "%llu differ, first: record %llu", (unsigned long long)bad,
		      (unsigned long long)first_bad);
	else
		CHECK(t, n == NR_SAMPLES + 6 + NR_SAMPLES / 1000);
	if (f->want_comp) {
		snprintf(t, sizeof(t), "%s: records compressed, FINISHED_ROUND plain", name);
		CHECK_EQ(t, misplaced, 0);
	}
	snprintf(t, sizeof(t), "%s: mode (pipe %d, swapped %d)", name, f->want_pipe, f->want_swap);
	CHECK(t, hm_reader__header(b)->pipe == f->want_pipe &&
		 hm_reader__header(b)->needs_swap == f->want_swap);
	snprintf(t, sizeof(t), "%s: compressed records", name);
	if (f->want_comp)
		CHECK(t, hm_reader__stats(b)->nr[f->want_comp] > 0 &&
			 hm_reader__stats(b)->nr[f->want_comp == HM_RECORD_COMPRESSED ?
						HM_RECORD_COMPRESSED2 : HM_RECORD_COMPRESSED] == 0 &&
			 hm_header__has_feat(hm_reader__header(b), HM_FEAT_COMPRESSED) &&
			 hm_reader__header(b)->comp_type == 1 &&
			 hm_reader__header(b)->comp_level == (u32)f->o.comp_level);
	else
		CHECK(t, !hm_reader__stats(b)->nr[HM_RECORD_COMPRESSED] &&
			 !hm_reader__stats(b)->nr[HM_RECORD_COMPRESSED2] &&
			 !hm_header__has_feat(hm_reader__header(b), HM_FEAT_COMPRESSED));
	snprintf(t, sizeof(t), "%s: events", name);
	CHECK_EQ(t, hm_reader__nr_evsels(b), hm_reader__nr_evsels(a));
	for (i = 0; i < hm_reader__nr_evsels(a) && i < hm_reader__nr_evsels(b); i++) {
		const struct hm_evsel *x = hm_reader__evsel(a, i), *y = hm_reader__evsel(b, i);

		names &= x->name && y->name && !strcmp(x->name, y->name);
		ids &= x->nr_ids == y->nr_ids && !memcmp(x->ids, y->ids, x->nr_ids * 8);
		attrs &= x->attr.sample_type == y->attr.sample_type && x->attr.config == y->attr.config &&
			 x->attr.sample_id_all == y->attr.sample_id_all &&
			 x->attr.precise_ip == y->attr.precise_ip && y->file_attr_size == 128;
	}
	snprintf(t, sizeof(t), "%s: event names", name);
	CHECK(t, names);
	snprintf(t, sizeof(t), "%s: event ids", name);
	CHECK(t, ids);
	snprintf(t, sizeof(t), "%s: attrs (size 128)", name);
	CHECK(t, attrs);
	snprintf(t, sizeof(t), "%s: hostname and nrcpus", name);
	CHECK(t, hm_reader__header(b)->hostname &&
		 !strcmp(hm_reader__header(b)->hostname, "convert-host") &&
		 hm_reader__header(b)->nr_cpus_avail == 8);
	snprintf(t, sizeof(t), "%s: hitmap metadata (file mode only)", name);
	if (f->want_pipe || no_meta)
		CHECK(t, !hm_reader__header(b)->hitmap_meta);
	else
		CHECK(t, same_meta(hm_reader__header(a), hm_reader__header(b)));
	hm_reader__delete(a);
	hm_reader__delete(b);
}

static void through_pipe(const char *orig, const struct form *f)
{
	int fds[2];
	pid_t pid;
	u8 *buf = NULL;
	size_t len = 0, cap = 0;
	int status = 0;
	char t[160];

	if (pipe(fds)) {
		SKIP("pipe to a non-seekable fd", "pipe(): %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct hm_convert_opts o = f->o;

		close(fds[0]);
		o.out_fd = fds[1];
		_exit(hm_convert(orig, "<pipe>", &o, NULL) ? 1 : 0);
	}
	close(fds[1]);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			u8 *nb = realloc(buf, cap = cap ? cap * 2 : 1 << 20);

			if (!nb)
				break;
			buf = nb;
		}
		n = read(fds[0], buf + len, cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
	snprintf(t, sizeof(t), "%s through a pipe: convert exits 0", f->name);
	CHECK(t, WIFEXITED(status) && WEXITSTATUS(status) == 0);
	snprintf(t, sizeof(t), "%s through a pipe", f->name);
	compare(t, orig, NULL, f, buf, len);
	free(buf);
}

int main(void)
{
	static const struct form forms[] = {
		{ "file", { .out_fd = -1 }, false, false, 0 },
		{ "pipe", { .pipe = true, .out_fd = -1 }, true, false, 0 },
		{ "zstd", { .comp_level = 1, .out_fd = -1 }, false, false, HM_RECORD_COMPRESSED },
		{ "zstd-19", { .comp_level = 19, .out_fd = -1 }, false, false, HM_RECORD_COMPRESSED },
		{ "compressed2", { .comp_level = 3, .compressed2 = true, .out_fd = -1 }, false, false, HM_RECORD_COMPRESSED2 },
		{ "swapped", { .swap = true, .out_fd = -1 }, false, true, 0 },
		{ "pipe-zstd", { .pipe = true, .comp_level = 1, .out_fd = -1 }, true, false, HM_RECORD_COMPRESSED },
		{ "pipe-swapped", { .pipe = true, .swap = true, .out_fd = -1 }, true, true, 0 },
		{ "swapped-compressed2", { .swap = true, .comp_level = 2, .compressed2 = true, .out_fd = -1 }, false, true, HM_RECORD_COMPRESSED2 },
	};
	struct hm_convert_stats st;
	char in[96], out[96], back[96], t[160];
	size_t i;
	int ret;

	hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);
	snprintf(dir, sizeof(dir), "/tmp/hm-convert.XXXXXX");
	if (!mkdtemp(dir)) {
		FAILF("temp dir", "%s", strerror(errno));
		TAP_DONE();
	}
	snprintf(in, sizeof(in), "%s/in.data", dir);
	snprintf(out, sizeof(out), "%s/out.data", dir);
	snprintf(back, sizeof(back), "%s/back.data", dir);
	CHECK_EQ("input written", make_input(in), 0);
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		const struct form *f = &forms[i];
		static const struct form plain = { "plain", { .out_fd = -1 }, false, false, 0 };

		ret = hm_convert(in, out, &f->o, &st);
		snprintf(t, sizeof(t), "%s: convert", f->name);
		if (ret) {
			FAILF(t, "%d: %s", ret, hm_log__last_error());
			continue;
		}
		PASS(t);
		snprintf(t, sizeof(t), "%s: counts", f->name);
		CHECK(t, st.records == NR_SAMPLES + 6 + NR_SAMPLES / 1000 &&
			 st.samples == NR_SAMPLES && !st.dropped);
		compare(f->name, in, out, f, NULL, 0);
		/* and back to a plain file */
		snprintf(t, sizeof(t), "%s -> file", f->name);
		ret = hm_convert(out, back, &plain.o, NULL);
		if (ret)
			FAILF(t, "%d: %s", ret, hm_log__last_error());
		else {
			no_meta = f->want_pipe;
			compare(t, in, back, &plain, NULL, 0);
			no_meta = false;
		}
	}
	through_pipe(in, &forms[1]);
	through_pipe(in, &forms[6]);

	/* bad input: refused with a message, nothing left behind */
	{
		struct hm_convert_opts o = { .out_fd = -1 };
		int fd = open(back, O_WRONLY | O_TRUNC);

		if (fd >= 0) {
			(void)!write(fd, "PERFILE2garbage", 15);
			close(fd);
		}
		unlink(out);
		ret = hm_convert(back, out, &o, NULL);
		CHECK("truncated input refused", ret < 0 && *hm_log__last_error());
		CHECK("no output left for refused input", access(out, F_OK) != 0);
		o.comp_level = 99;
		CHECK("bad zstd level refused", hm_convert(in, out, &o, NULL) == -EINVAL);
		CHECK("no output left for a bad level", access(out, F_OK) != 0);
	}
	unlink(in);
	unlink(out);
	unlink(back);
	rmdir(dir);
	TAP_DONE();
}
