// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer streams: writing 1M samples keeps the resident set flat (it
 * must not grow with the number of samples).
 */
#include <errno.h>
#include <unistd.h>

#include "tap.h"
#include <hitmap/perf_data.h>

static long rss_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int main(void)
{
	char dir[] = "/tmp/hitmap-wrss.XXXXXX", path[64];
	struct perf_event_attr a;
	struct hm_writer *w;
	struct hm_sample s;
	long r100k = 0, r1m = 0;
	int i, err = 0;

	if (!mkdtemp(dir)) {
		FAILF("mkdtemp", "%s", strerror(errno));
		TAP_DONE();
	}
	snprintf(path, sizeof(path), "%s/big.data", dir);
	w = hm_writer__new(path);
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT |
			PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;
	a.sample_id_all = 1;
	hm_writer__add_evsel(w, &a, "loads", NULL, 0);
	hm_writer__add_evsel(w, &a, "stores", NULL, 0);
	memset(&s, 0, sizeof(s));
	for (i = 0; i < 1000000 && !err; i++) {
		s.ip = 0x400000 + (i & 0xfff);
		s.time = i;
		s.addr = 0x7f0000000000ULL + (u64)i * 64;
		s.data_src = 0x629800842ULL;
		s.cpu = i & 7;
		err = hm_writer__write_sample(w, i & 1, &s);
		if (!err && i % 4096 == 4095)
			err = hm_writer__write_finished_round(w);
		if (i == 100000)
			r100k = rss_kb();
	}
	r1m = rss_kb();
	CHECK_EQ("1M samples written", err, 0);
	CHECK_EQ("close", hm_writer__close(w), 0);
	hm_writer__delete(w);
	CHECK("rss measured", r100k > 0 && r1m > 0);
	printf("# rss after 100k samples %ld kB, after 1M %ld kB\n", r100k, r1m);
	CHECK("rss flat from 100k to 1M samples (< 512 kB growth)", r1m - r100k < 512);
	unlink(path);
	rmdir(dir);
	TAP_DONE();
}
