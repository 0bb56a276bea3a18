// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer's pieces of perf's directory format: a bare writer writes its
 * records alone from offset 0 (plain, and with -z as one zstd stream of its
 * own, COMPRESSED records and nothing else); the "data" writer's header
 * has DIR_FORMAT version 1; hm_convert with .dir lays a file out as perf
 * record --threads does (samples of CPU c in data.(c % N), time-0 records
 * and perf's own in "data", no FINISHED_ROUND) and the reader hands out the
 * folder's records in the original's order.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "tap.h"
#include "slurp.h"
#include <hitmap/log.h>
#include <hitmap/perf_data.h>

#define NR_SAMPLES	3000
#define NR_CPUS		4

static char dir[64];

static const u64 ST = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;

static void attr_init(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->sample_period = 1000;
	a->sample_type = ST;
	a->sample_id_all = 1;
	a->comm = a->mmap = a->mmap2 = 1;
}

/* COMM with the trailer (TID, TIME, CPU, IDENTIFIER) of the event */
static int put_comm(struct hm_writer *w, u32 pid, const char *name, u64 time, u32 cpu)
{
	u64 rec[16] = { 0 };
	struct perf_event_header *h = (void *)rec;
	int k = 2;

	rec[1] = (u64)pid | (u64)pid << 32;
	strncpy((char *)&rec[2], name, 15);
	k += 2;
	rec[k++] = (u64)pid | (u64)pid << 32;
	rec[k++] = time;
	rec[k++] = cpu;
	rec[k++] = 7;
	h->type = PERF_RECORD_COMM;
	h->size = (u16)(k * 8);
	return hm_writer__write(w, rec, k * 8);
}

static int make_input(const char *path)
{
	struct perf_event_attr a;
	struct hm_header h = { 0 };
	u64 id = 7;
	struct hm_writer *w = hm_writer__new(path);
	int ret = 0;

	if (!w)
		return -errno;
	attr_init(&a);
	ret |= hm_writer__add_evsel(w, &a, "cpu-clock", &id, 1) < 0;
	h.hostname = "dir-host";
	h.nr_cpus_avail = h.nr_cpus_online = NR_CPUS;
	ret |= hm_writer__set_header(w, &h);
	ret |= put_comm(w, 1, "init", 0, 0);		/* synthesized: time 0 */
	ret |= put_comm(w, 2, "kthreadd", 0, 0);
	for (int i = 0; i < NR_SAMPLES && !ret; i++) {
		struct hm_sample s = { 0 };

		s.misc = PERF_RECORD_MISC_USER;
		s.id = 7;
		s.ip = 0x400000 + i;
		s.pid = s.tid = 100 + i % 5;
		s.time = 1000000ULL + i * 10ULL;
		s.cpu = (u32)(i * 7 % NR_CPUS);
		s.period = 1000;
		if (i == 1500)
			ret |= put_comm(w, 101, "renamed", s.time - 5, s.cpu);
		ret |= hm_writer__write_sample(w, 0, &s);
		if (i % 500 == 499)
			ret |= hm_writer__write_finished_round(w);
	}
	if (!ret)
		ret = hm_writer__close(w);
	hm_writer__delete(w);
	return ret;
}


/* The record types of @n bytes at @p (a bare stream): bit t set for type t < 128 */
static int walk(const u8 *p, size_t n, u64 seen[2], u32 *samples_bad_cpu, u32 file_cpu, u32 nr)
{
	size_t off = 0;
	int count = 0;

	while (off + 8 <= n) {
		const struct perf_event_header *h = (const void *)(p + off);

		if (h->size < 8 || off + h->size > n)
			return -1;
		if (h->type < 128)
			seen[h->type / 64] |= 1ULL << (h->type % 64);
		if (h->type == PERF_RECORD_SAMPLE && samples_bad_cpu) {
			/* IDENTIFIER, IP, TID, TIME, CPU */
			u32 cpu;

			memcpy(&cpu, p + off + 8 + 32, 4);
			*samples_bad_cpu += cpu % nr != file_cpu;
		}
		off += h->size;
		count++;
	}
	return off == n ? count : -1;
}

static void test_bare(void)
{
	struct perf_event_attr a;
	char path[128];
	u64 seen[2] = { 0 }, id = 7;
	struct hm_writer *w;
	size_t n;
	u8 *p;

	for (int z = 0; z < 2; z++) {
		snprintf(path, sizeof(path), "%s/bare%d", dir, z);
		w = hm_writer__new(path);
		attr_init(&a);
		hm_writer__set_bare(w, true);
		if (z)
			hm_writer__set_compression(w, 3, false);
		hm_writer__add_evsel(w, &a, "cpu-clock", &id, 1);
		for (int i = 0; i < 2000; i++) {
			struct hm_sample s = { .id = 7, .ip = 0x1000 + i, .pid = 1, .tid = 1,
					       .time = 100 + i, .cpu = 1, .period = 1 };

			hm_writer__write_sample(w, 0, &s);
		}
		CHECK_EQ(z ? "bare -z: close" : "bare: close", hm_writer__close(w), 0);
		hm_writer__delete(w);
		p = slurp(path, &n);
		if (!z) {
			/* IDENTIFIER IP TID TIME CPU PERIOD: 8 + 48 bytes a sample */
			CHECK_EQ("bare: the records alone, from offset 0", n, 2000 * 56);
			CHECK("bare: no PERFILE2 magic", p && n >= 8 && memcmp(p, "PERFILE2", 8));
			CHECK_EQ("bare: 2000 records walk to the end", walk(p, n, seen, NULL, 0, 1), 2000);
		} else {
			u64 zs[2] = { 0 };
			int nr = walk(p, n, zs, NULL, 0, 1);
			ZSTD_DCtx *dc = ZSTD_createDCtx();
			u8 *out = malloc(2000 * 56 + 64);
			size_t got = 0, off = 0;

			CHECK("bare -z: COMPRESSED records only", nr > 0 &&
			      zs[1] == 1ULL << (HM_RECORD_COMPRESSED - 64) && !zs[0]);
			/* one stream: the payloads in order decompress to the records */
			while (p && off + 8 <= n) {
				const struct perf_event_header *h = (const void *)(p + off);
				ZSTD_inBuffer in = { p + off + 8, h->size - 8, 0 };

				while (in.pos < in.size) {
					ZSTD_outBuffer o = { out + got, 2000 * 56 + 64 - got, 0 };

					if (ZSTD_isError(ZSTD_decompressStream(dc, &o, &in)))
						break;
					got += o.pos;
					if (!o.pos && in.pos < in.size)
						break;
				}
				off += h->size;
			}
			CHECK_EQ("bare -z: one zstd stream of the file's own, all records", got,
				 2000 * 56);
			ZSTD_freeDCtx(dc);
			free(out);
		}
		free(p);
	}
}

static void test_dir_format(void)
{
	struct perf_event_attr a;
	struct hm_reader_opts ro = { .quiet = true };
	struct hm_reader *r;
	char path[128];
	u64 id = 7;
	struct hm_writer *w;

	snprintf(path, sizeof(path), "%s/main", dir);
	w = hm_writer__new(path);
	attr_init(&a);
	hm_writer__add_evsel(w, &a, "cpu-clock", &id, 1);
	hm_writer__set_dir_format(w, 1);
	put_comm(w, 1, "init", 0, 0);
	CHECK_EQ("data: close", hm_writer__close(w), 0);
	hm_writer__delete(w);
	r = hm_reader__new(path, &ro);
	CHECK("data: reads", r != NULL);
	if (r) {
		const struct hm_header *h = hm_reader__header(r);
		u64 v = 0;

		if (h->feat_raw && h->feat_raw[HM_FEAT_DIR_FORMAT].size == 8)
			memcpy(&v, h->feat_raw[HM_FEAT_DIR_FORMAT].data, 8);
		CHECK("data: the DIR_FORMAT bit", hm_header__has_feat(h, HM_FEAT_DIR_FORMAT));
		CHECK_EQ("data: DIR_FORMAT version 1", v, 1);
		hm_reader__delete(r);
	}
}

/* every SAMPLE and COMM of @path in the reader's order: (type, time, cpu, ip) */
static u64 *read_all(const char *path, size_t *n)
{
	struct hm_reader_opts ro = { .ordered = true, .all_records = true, .quiet = true };
	struct hm_reader *r = hm_reader__new(path, &ro);
	struct hm_event ev;
	u64 *v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!r)
		return NULL;
	while (hm_reader__next(r, &ev) == 1) {
		if (ev.type != PERF_RECORD_SAMPLE && ev.type != PERF_RECORD_COMM)
			continue;
		if (*n + 4 > cap) {
			cap = cap ? cap * 2 : 1024;
			v = realloc(v, cap * sizeof(*v));
		}
		v[(*n)++] = ev.type;
		v[(*n)++] = ev.sample.time;
		v[(*n)++] = ev.sample.cpu;
		v[(*n)++] = ev.sample.ip;
	}
	hm_reader__delete(r);
	return v;
}

static void test_convert(void)
{
	struct hm_convert_opts o = { .out_fd = -1, .dir = true, .dir_files = 3 };
	struct hm_convert_stats st;
	char in[128], out[128], f[160];
	u32 bad = 0;
	u64 *a, *b;
	size_t na, nb;
	int ret;

	snprintf(in, sizeof(in), "%s/in.data", dir);
	snprintf(out, sizeof(out), "%s/out.dir", dir);
	CHECK_EQ("convert: input made", make_input(in), 0);
	ret = hm_convert(in, out, &o, &st);
	CHECK_EQ("convert --dir=3", ret, 0);
	CHECK_EQ("convert: 3 data.N files", st.dir_files, 3);
	CHECK_EQ("convert: every sample", st.samples, NR_SAMPLES);
	for (u32 i = 0; i < 3; i++) {
		u64 seen[2] = { 0 };
		size_t n;
		u8 *p;

		snprintf(f, sizeof(f), "%s/data.%u", out, i);
		p = slurp(f, &n);
		walk(p, n, seen, &bad, i, 3);
		if (i == 0) {
			CHECK("convert: no FINISHED_ROUND in data.0",
			      !(seen[1] & 1ULL << (HM_RECORD_FINISHED_ROUND - 64)));
			/* sample 1500's CPU: 1500 * 7 % 4 = 0 */
			CHECK("convert: the timed COMM in its CPU's data.N",
			      seen[0] & 1ULL << PERF_RECORD_COMM);
		}
		free(p);
	}
	CHECK_EQ("convert: every sample of CPU c in data.(c % 3)", bad, 0);
	a = read_all(in, &na);
	b = read_all(out, &nb);
	CHECK_EQ("convert: the folder holds the file's samples and COMMs", nb, na);
	CHECK("convert: in the same order", a && b && na == nb && !memcmp(a, b, na * sizeof(*a)));
	CHECK("convert: the time-0 COMMs first", b && nb >= 8 && b[0] == PERF_RECORD_COMM &&
	      b[4] == PERF_RECORD_COMM && !b[1]);
	free(a);
	free(b);
	/* an output folder that is not empty: refused, left as it was */
	ret = hm_convert(in, out, &o, &st);
	CHECK_EQ("convert: a folder that is not empty is refused", ret, -ENOTEMPTY);
	snprintf(f, sizeof(f), "%s/data.2", out);
	CHECK("convert: ... and left as it was", access(f, F_OK) == 0);
	o.pipe = true;
	CHECK_EQ("convert: .dir with .pipe is refused", hm_convert(in, out, &o, &st), -EINVAL);
}

int main(void)
{
	char cmd[96];
	int ret;

	hm_log__quiet(1);
	snprintf(dir, sizeof(dir), "/tmp/hm-wdir.XXXXXX");
	if (!mkdtemp(dir)) {
		FAILF("mkdtemp", "%s", strerror(errno));
		TAP_DONE();
	}
	test_bare();
	test_dir_format();
	test_convert();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ret = system(cmd);
	(void)ret;
	TAP_DONE();
}
