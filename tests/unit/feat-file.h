/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_TEST_FEAT_FILE_H
#define HITMAP_TEST_FEAT_FILE_H
/*
 * For the feature section tests: a small file with the sections a test
 * made (hm_header.feat_raw), written by hitmap's writer, then read back to
 * its end.
 */
#include <errno.h>
#include <string.h>
#include <hitmap/perf_data.h>

/*
 * Write @path (pipe mode with @pipe, the other byte order with @swap):
 * @nr_evsels software events (1 or 2: cpu-clock, task-clock, ids 1 and 2),
 * one sample, host @host, two CPUs, the sections of @raw.  0 or nonzero.
 */
static inline int feat_file__write(const char *path, struct hm_feat_raw *raw, const char *host,
				   int nr_evsels, bool pipe, bool swap)
{
	static const char *const names[] = { "cpu-clock", "task-clock" };
	struct perf_event_attr a = { 0 };
	struct hm_header h = { 0 };
	u64 ids[2] = { 1, 2 };
	struct hm_writer *w = hm_writer__new(path);
	struct hm_sample s = { 0 };
	int ret = 0;

	if (!w)
		return -errno;
	h.hostname = (char *)host;
	h.nr_cpus_avail = h.nr_cpus_online = 2;
	h.feat_raw = raw;
	if (swap)
		ret |= hm_writer__set_swap(w, true);
	ret |= hm_writer__set_pipe(w, pipe);
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID;
	for (int i = 0; i < nr_evsels && i < 2; i++)
		ret |= hm_writer__add_evsel(w, &a, names[i], ids + i, 1) < 0;
	ret |= hm_writer__set_header(w, &h);
	s.ip = 0x400000;
	s.pid = s.tid = 7;
	s.id = 1;
	ret |= hm_writer__write_sample(w, 0, &s);
	if (!ret)
		ret = hm_writer__close(w);
	hm_writer__delete(w);
	return ret;
}

/* @path opened and read to its end: the reader (NULL if it would not open), *@ret the last read's result. */
static inline struct hm_reader *feat_file__read(const char *path, int *ret)
{
	struct hm_reader *r = hm_reader__new(path, NULL);
	struct hm_event ev;

	*ret = -1;
	if (r)
		while ((*ret = hm_reader__next(r, &ev)) == 1)
			;
	return r;
}

#endif
