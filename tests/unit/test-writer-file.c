// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer's file layout, byte by byte, without the reader: header, ids,
 * 128-byte attrs, streamed records with every sample_type field in kernel
 * order, sample_id_all trailers, feature index in ascending bit order with
 * HOSTNAME always present and HM_FEAT_HITMAP last; and its error paths.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "slurp.h"
#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include <hitmap/meta.h>

static char dir[64];


static u64 g64(const u8 *p, size_t off)
{
	u64 v;

	memcpy(&v, p + off, 8);
	return v;
}

static u32 g32(const u8 *p, size_t off)
{
	u32 v;

	memcpy(&v, p + off, 4);
	return v;
}

static u16 g16(const u8 *p, size_t off)
{
	u16 v;

	memcpy(&v, p + off, 2);
	return v;
}

static void test_layout(void)
{
	char path[128];
	struct perf_event_attr a;
	struct hm_writer *w;
	struct hm_sample s;
	struct hm_header h;
	u64 ids0[2] = { 11, 12 };
	u64 callchain[3] = { 0x1111, 0x2222, 0x3333 };
	u8 raw[5] = { 1, 2, 3, 4, 5 };
	u64 readv[3] = { 77, 88, 99 };		/* value, id, lost */
	u8 meta[8] = { 4, 0, 0, 0, 0, 0, 0, 0 };
	size_t len, off, data_end;
	u8 *f;
	int idx0, idx1;

	snprintf(path, sizeof(path), "%s/layout.data", dir);
	w = hm_writer__new(path);
	CHECK("writer new", w != NULL);
	if (!w)
		return;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.config = 0x1cd;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |
			PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |
			PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
			PERF_SAMPLE_CODE_PAGE_SIZE;
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a.sample_id_all = 1;
	idx0 = hm_writer__add_evsel(w, &a, "ev0", ids0, 2);
	a.config = 0x82d0;
	idx1 = hm_writer__add_evsel(w, &a, "ev1", NULL, 0);
	CHECK("evsel indexes 0, 1", idx0 == 0 && idx1 == 1);

	memset(&h, 0, sizeof(h));
	h.nr_cpus_avail = h.nr_cpus_online = 2;
	h.arch = "x86_64";
	h.hitmap_meta = meta;
	h.hitmap_meta_size = sizeof(meta);
	CHECK_EQ("set_header", hm_writer__set_header(w, &h), 0);

	CHECK_EQ("comm", hm_writer__write_comm(w, 10, 11, "worker"), 0);
	CHECK_EQ("add_evsel after a record: EBUSY", hm_writer__add_evsel(w, &a, "late", NULL, 0), -EBUSY);

	memset(&s, 0, sizeof(s));
	s.misc = PERF_RECORD_MISC_USER;
	s.ip = 0x401000;
	s.pid = 10;
	s.tid = 11;
	s.time = 5000;
	s.addr = 0x7f0000001040;
	s.id = 12;
	s.stream_id = 0x5151;
	s.cpu = 1;
	s.period = 1234;
	s.read = readv;
	s.read_nr = 1;
	s.callchain_nr = 3;
	s.callchain = callchain;
	s.raw_size = 5;
	s.raw = raw;
	s.weight = 321;
	s.ins_lat = 7;
	s.weight3 = 9;
	s.data_src = 0x629800842ULL;
	s.transaction = 0x42;
	s.phys_addr = 0x40001040;
	s.cgroup = 0xc0;
	s.data_page_size = 4096;
	s.code_page_size = 2 << 20;
	CHECK_EQ("write_sample all fields", hm_writer__write_sample(w, 0, &s), 0);
	s.id = 0;
	s.time = 4000;
	CHECK_EQ("write_sample id 0 -> evsel id", hm_writer__write_sample(w, 1, &s), 0);
	CHECK_EQ("write_sample bad idx", hm_writer__write_sample(w, 2, &s), -EINVAL);
	s.callchain_nr = 100000;
	s.callchain = NULL;
	CHECK_EQ("write_sample over 64 KiB: E2BIG", hm_writer__write_sample(w, 0, &s), -E2BIG);
	CHECK_EQ("mmap2", hm_writer__write_mmap2(w, 10, 10, 0x400000, 0x1000, 0, 5, 2,
						  "/usr/bin/true", PERF_RECORD_MISC_USER), 0);
	CHECK_EQ("finished round", hm_writer__write_finished_round(w), 0);
	{
		u8 tiny[4] = { 0 };

		CHECK_EQ("raw record under 8 bytes: EINVAL", hm_writer__write(w, tiny, sizeof(tiny)), -EINVAL);
	}
	CHECK_EQ("close", hm_writer__close(w), 0);
	CHECK_EQ("close twice is harmless", hm_writer__close(w), 0);
	CHECK_EQ("write after close: EBUSY", hm_writer__write_finished_round(w), -EBUSY);
	hm_writer__delete(w);

	f = slurp(path, &len);
	CHECK("file read back", f && len > 104);
	if (!f || len <= 104) {
		free(f);
		return;
	}
	CHECK("magic PERFILE2", !memcmp(f, "PERFILE2", 8));
	CHECK_EQ("header size 104", g64(f, 8), 104);
	CHECK_EQ("attr_size 144 (128 + ids section)", g64(f, 16), 144);
	/* ids at 104: 11, 12 then the auto id of ev1 (13) */
	CHECK("ids at 104", g64(f, 104) == 11 && g64(f, 112) == 12 && g64(f, 120) == 13);
	CHECK_EQ("attrs offset after the ids", g64(f, 24), 128);
	CHECK_EQ("attrs size 2 * 144", g64(f, 32), 288);
	CHECK_EQ("attr.size 128", g32(f, 128 + 4), 128);
	CHECK("attr 0 ids section", g64(f, 128 + 128) == 104 && g64(f, 128 + 136) == 16);
	CHECK("attr 1 ids section", g64(f, 272 + 128) == 120 && g64(f, 272 + 136) == 8);
	CHECK_EQ("data offset after attrs", g64(f, 40), 128 + 288);
	data_end = g64(f, 40) + g64(f, 48);
	CHECK("data within file", data_end < len);

	off = g64(f, 40);
	/* COMM: pid, tid, "worker\0" padded to 8, trailer (TID TIME ID STREAM CPU IDENT) */
	CHECK_EQ("comm type", g32(f, off), PERF_RECORD_COMM);
	CHECK_EQ("comm size", g16(f, off + 6), 8 + 8 + 8 + 8 + 8 + 8 + 8 + 8 + 8);
	CHECK_STR("comm name", (const char *)f + off + 16, "worker");
	CHECK("comm trailer pid/tid + id", g32(f, off + 24) == 10 && g32(f, off + 28) == 11 &&
	      g64(f, off + 40) == 11 && g64(f, off + 64) == 11);
	off += g16(f, off + 6);

	/* SAMPLE, kernel order */
	{
		size_t p = off + 8;
		u16 sz = g16(f, off + 6);

		CHECK_EQ("sample type", g32(f, off), PERF_RECORD_SAMPLE);
		CHECK_EQ("sample misc", g16(f, off + 4), PERF_RECORD_MISC_USER);
		CHECK_EQ("sample size multiple of 8", sz % 8, 0);
		CHECK_EQ("IDENTIFIER", g64(f, p), 12); p += 8;
		CHECK_EQ("IP", g64(f, p), 0x401000); p += 8;
		CHECK("TID", g32(f, p) == 10 && g32(f, p + 4) == 11); p += 8;
		CHECK_EQ("TIME", g64(f, p), 5000); p += 8;
		CHECK_EQ("ADDR", g64(f, p), 0x7f0000001040); p += 8;
		CHECK_EQ("ID", g64(f, p), 12); p += 8;
		CHECK_EQ("STREAM_ID", g64(f, p), 0x5151); p += 8;
		CHECK("CPU", g32(f, p) == 1 && g32(f, p + 4) == 0); p += 8;
		CHECK_EQ("PERIOD", g64(f, p), 1234); p += 8;
		CHECK("READ value,id,lost", g64(f, p) == 77 && g64(f, p + 8) == 88 && g64(f, p + 16) == 99); p += 24;
		CHECK("CALLCHAIN", g64(f, p) == 3 && g64(f, p + 8) == 0x1111 && g64(f, p + 24) == 0x3333); p += 32;
		CHECK_EQ("RAW size padded so 4+size is 8-aligned", g32(f, p), 12);
		CHECK("RAW bytes then zeros", f[p + 4] == 1 && f[p + 8] == 5 && f[p + 9] == 0 && f[p + 15] == 0);
		p += 16;
		CHECK("WEIGHT_STRUCT", g32(f, p) == 321 && g16(f, p + 4) == 7 && g16(f, p + 6) == 9); p += 8;
		CHECK_EQ("DATA_SRC", g64(f, p), 0x629800842ULL); p += 8;
		CHECK_EQ("TRANSACTION", g64(f, p), 0x42); p += 8;
		CHECK_EQ("PHYS_ADDR", g64(f, p), 0x40001040); p += 8;
		CHECK_EQ("CGROUP", g64(f, p), 0xc0); p += 8;
		CHECK_EQ("DATA_PAGE_SIZE", g64(f, p), 4096); p += 8;
		CHECK_EQ("CODE_PAGE_SIZE", g64(f, p), 2 << 20); p += 8;
		CHECK_EQ("sample ends where its size says", p, off + sz);
		off += sz;
		CHECK("2nd sample: id 0 becomes the evsel's id", g64(f, off + 8) == 13 && g64(f, off + 48) == 13);
		off += g16(f, off + 6);
	}
	CHECK_EQ("mmap2 type", g32(f, off), PERF_RECORD_MMAP2);
	CHECK_EQ("mmap2 misc", g16(f, off + 4), PERF_RECORD_MISC_USER);
	CHECK("mmap2 start/len", g64(f, off + 16) == 0x400000 && g64(f, off + 24) == 0x1000);
	CHECK("mmap2 prot/flags", g32(f, off + 64) == 5 && g32(f, off + 68) == 2);
	CHECK_STR("mmap2 filename", (const char *)f + off + 72, "/usr/bin/true");
	off += g16(f, off + 6);
	CHECK("finished round", g32(f, off) == HM_RECORD_FINISHED_ROUND && g16(f, off + 6) == 8);
	off += 8;
	CHECK_EQ("data size covers exactly the records", off, data_end);

	/*
	 * features: bits HOSTNAME, ARCH, NRCPUS, EVENT_DESC, SAMPLE_TIME; the
	 * hitmap metadata follows the last body, outside the index, located
	 * by the 24-byte trailer that ends the file.
	 */
	{
		u64 b0 = g64(f, 72);
		u64 want0 = (1ULL << HM_FEAT_HOSTNAME) | (1ULL << HM_FEAT_ARCH) |
			    (1ULL << HM_FEAT_NRCPUS) | (1ULL << HM_FEAT_EVENT_DESC) |
			    (1ULL << HM_FEAT_SAMPLE_TIME);
		size_t idx = data_end, prev = 0;
		u64 last_end;
		int i, ok = 1;

		CHECK_EQ("feature bits 0-63", b0, want0);
		CHECK("feature bits 64-255 clear",
		      g64(f, 80) == 0 && g64(f, 88) == 0 && g64(f, 96) == 0);
		for (i = 0; i < 5; i++) {
			u64 o = g64(f, idx + i * 16), sz = g64(f, idx + i * 16 + 8);

			if (o < idx + 5 * 16 || o + sz > len || o < prev || o % 8)
				ok = 0;
			prev = o + sz;
		}
		CHECK("feature index: 5 ascending, 8-aligned, in-file sections", ok);
		CHECK("HOSTNAME non-empty", g32(f, g64(f, idx)) >= 64 && f[g64(f, idx) + 4] != 0);
		CHECK("SAMPLE_TIME from samples: first 4000 last 5000",
		      g64(f, g64(f, idx + 64)) == 4000 && g64(f, g64(f, idx + 64) + 8) == 5000);
		last_end = (g64(f, idx + 64) + g64(f, idx + 72) + 7) & ~7ULL;
		CHECK_EQ("meta trailer magic", g64(f, len - 24), HM_META_TRAILER_MAGIC);
		CHECK_EQ("meta payload right after the last feature body", g64(f, len - 16), last_end);
		CHECK("meta payload is the meta bytes", g64(f, len - 8) == 8 &&
		      !memcmp(f + g64(f, len - 16), meta, 8));
		CHECK_EQ("file ends with the trailer", (u64)len, last_end + 8 + 24);
	}
	free(f);
}

static void test_errors(void)
{
	char path[128];
	struct perf_event_attr a;
	struct hm_writer *w;
	struct stat st;

	w = hm_writer__new("/nonexistent-dir/x.data");
	CHECK("new in a missing folder: NULL, ENOENT", !w && errno == ENOENT);
	CHECK("new(NULL): EINVAL", !hm_writer__new(NULL) && errno == EINVAL);
	hm_writer__delete(NULL);
	PASS("delete(NULL)");

	snprintf(path, sizeof(path), "%s/noid.data", dir);
	w = hm_writer__new(path);
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
	hm_writer__add_evsel(w, &a, NULL, NULL, 0);
	hm_writer__add_evsel(w, &a, NULL, NULL, 0);
	CHECK_EQ("two evsels without ID: EINVAL at the first record",
		 hm_writer__write_finished_round(w), -EINVAL);
	CHECK_EQ("add_evsel NULL attr", hm_writer__add_evsel(w, NULL, NULL, NULL, 0), -EINVAL);
	hm_writer__delete(w);
	CHECK("abandoned writer removes its file", stat(path, &st) != 0);

	w = hm_writer__new(path);
	hm_writer__add_evsel(w, &a, NULL, NULL, 0);
	hm_writer__add_evsel(w, &a, NULL, NULL, 0);
	CHECK_EQ("close of an invalid file fails", hm_writer__close(w), -EINVAL);
	CHECK("failed close removes the file", stat(path, &st) != 0);
	hm_writer__delete(w);

	/* A full disk: the error comes back (sticky), nothing is printed. */
	w = hm_writer__new("/dev/full");
	if (w) {
		struct hm_sample s;
		int i, err = 0;

		memset(&s, 0, sizeof(s));
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
		hm_writer__add_evsel(w, &a, NULL, NULL, 0);
		for (i = 0; i < 20000 && !err; i++)
			err = hm_writer__write_sample(w, 0, &s);
		CHECK_EQ("disk full: write_sample returns -ENOSPC", err, -ENOSPC);
		CHECK_EQ("disk full: later writes keep failing", hm_writer__write_finished_round(w), -ENOSPC);
		CHECK_EQ("disk full: close fails", hm_writer__close(w), -ENOSPC);
		CHECK("disk full: message names the file", strstr(hm_log__last_error(), "/dev/full") != NULL);
		hm_writer__delete(w);
		CHECK("device not unlinked", stat("/dev/full", &st) == 0);
	} else {
		SKIP("disk full", "/dev/full not writable here");
	}

	snprintf(path, sizeof(path), "%s/empty.data", dir);
	w = hm_writer__new(path);
	a.sample_type = PERF_SAMPLE_IP;
	hm_writer__add_evsel(w, &a, NULL, NULL, 0);
	CHECK_EQ("close with no records", hm_writer__close(w), 0);
	hm_writer__delete(w);
	CHECK("empty file kept after close", stat(path, &st) == 0 && st.st_size > 104);
}

static u64 b64(const u8 *p, size_t off)
{
	return __builtin_bswap64(g64(p, off));
}

static u32 b32(const u8 *p, size_t off)
{
	return __builtin_bswap32(g32(p, off));
}

/* The other byte order: every number big-endian, as a BE machine writes. */
static void test_swap(void)
{
	char path[128];
	struct perf_event_attr a;
	struct hm_writer *w;
	struct hm_sample s;
	struct hm_header h;
	size_t len, off, idx;
	u8 *f;

	snprintf(path, sizeof(path), "%s/swap.data", dir);
	w = hm_writer__new(path);
	CHECK_EQ("set_swap", hm_writer__set_swap(w, true), 0);
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.config = 0x1cd;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_WEIGHT_STRUCT;
	a.disabled = 1;			/* bitfield bit 0 */
	a.sample_id_all = 1;		/* bitfield bit 18 */
	hm_writer__add_evsel(w, &a, "ev", NULL, 0);
	CHECK_EQ("set_swap after add_evsel: EBUSY", hm_writer__set_swap(w, false), -EBUSY);
	memset(&h, 0, sizeof(h));
	h.hostname = "be";
	h.nr_cpus_avail = 2;
	h.nr_cpus_online = 1;
	hm_writer__set_header(w, &h);
	memset(&s, 0, sizeof(s));
	s.misc = PERF_RECORD_MISC_USER;
	s.ip = 0x1122334455667788ULL;
	s.pid = 7;
	s.tid = 8;
	s.weight = 0x11223344;
	s.ins_lat = 0x5566;
	s.weight3 = 0x7788;
	CHECK_EQ("swapped sample", hm_writer__write_sample(w, 0, &s), 0);
	CHECK_EQ("swapped finished round", hm_writer__write_finished_round(w), 0);
	{
		u8 rec[16] = { 1, 0, 0, 0, 0, 0, 16, 0 };

		CHECK_EQ("swapped: raw record with a body refused", hm_writer__write(w, rec, 16), -EOPNOTSUPP);
	}
	CHECK_EQ("swapped close", hm_writer__close(w), 0);
	hm_writer__delete(w);
	f = slurp(path, &len);
	if (!f || len < 200) {
		FAILF("swapped file read back", "%zu bytes", len);
		free(f);
		return;
	}
	CHECK("magic 2ELIFREP", !memcmp(f, "2ELIFREP", 8));
	CHECK("header size/attr_size big-endian", b64(f, 8) == 104 && b64(f, 16) == 144);
	CHECK_EQ("id big-endian", b64(f, 104), 1);
	CHECK("attr type/size big-endian", b32(f, 112) == PERF_TYPE_RAW && b32(f, 116) == 128);
	CHECK_EQ("attr config big-endian", b64(f, 120), 0x1cd);
	CHECK("attr bitfield: bits reversed within each byte", f[112 + 40] == 0x80 && f[112 + 42] == 0x20);
	off = b64(f, 40);
	CHECK("sample header big-endian", b32(f, off) == PERF_RECORD_SAMPLE && f[off + 5] == 2 &&
	      f[off + 7] == 32);
	CHECK_EQ("sample ip big-endian", b64(f, off + 8), 0x1122334455667788ULL);
	CHECK("sample pid/tid big-endian u32s", b32(f, off + 16) == 7 && b32(f, off + 20) == 8);
	CHECK_EQ("weight struct as a big-endian u64", b64(f, off + 24), 0x7788556611223344ULL);
	CHECK("finished round header big-endian", b32(f, off + 32) == HM_RECORD_FINISHED_ROUND && f[off + 39] == 8);
	CHECK("feature bits big-endian u64", b64(f, 72) == ((1ULL << HM_FEAT_HOSTNAME) | (1ULL << HM_FEAT_NRCPUS) |
							   (1ULL << HM_FEAT_EVENT_DESC)));
	idx = b64(f, 40) + b64(f, 48);
	CHECK("HOSTNAME string len big-endian", b32(f, b64(f, idx)) == 64 && !strcmp((char *)f + b64(f, idx) + 4, "be"));
	CHECK("NRCPUS big-endian", b32(f, b64(f, idx + 16)) == 2 && b32(f, b64(f, idx + 16) + 4) == 1);
	CHECK("EVENT_DESC nr, attr_size big-endian", b32(f, b64(f, idx + 32)) == 1 &&
	      b32(f, b64(f, idx + 32) + 4) == 128);
	free(f);
}

/*
 * A user record whose size is not a multiple of 8 (perf 4.16's 20-byte pipe
 * CPU_MAP, which perf 7.3 refuses) goes out padded with zeros to 24 bytes.
 */
static void test_pad(void)
{
	char path[128];
	struct perf_event_attr a;
	struct hm_writer *w;
	/* header (type 74, size 20), type 0 (cpus), nr 4, cpus 0 1 2 3 */
	u8 rec[20] = { 74, 0, 0, 0, 0, 0, 20, 0, 0, 0, 4, 0, 0, 0, 1, 0, 2, 0, 3, 0 };
	u8 *f;
	size_t len;
	u64 off;

	snprintf(path, sizeof(path), "%s/pad.data", dir);
	w = hm_writer__new(path);
	if (!w) {
		FAILF("pad: writer new", "%s", strerror(errno));
		return;
	}
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP;
	hm_writer__add_evsel(w, &a, NULL, NULL, 0);
	CHECK_EQ("pad: 20-byte CPU_MAP written", hm_writer__write(w, rec, sizeof(rec)), 0);
	CHECK_EQ("pad: close", hm_writer__close(w), 0);
	hm_writer__delete(w);
	f = slurp(path, &len);
	off = f && len > 104 ? g64(f, 40) : 0;
	if (!off || off + 24 > len) {
		FAILF("pad: file read back", "%zu bytes", len);
		free(f);
		return;
	}
	CHECK("pad: the record is 24 bytes, its cpus kept, the tail zero",
	      g32(f, off) == HM_RECORD_CPU_MAP && g16(f, off + 6) == 24 && g16(f, off + 10) == 4 &&
	      g16(f, off + 18) == 3 && g32(f, off + 20) == 0);
	free(f);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/hitmap-writer.XXXXXX");
	if (!mkdtemp(dir)) {
		FAILF("mkdtemp", "%s", strerror(errno));
		TAP_DONE();
	}
	test_layout();
	test_errors();
	test_swap();
	test_pad();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			FAILF("cleanup", "%s", cmd);
	}
	TAP_DONE();
}
