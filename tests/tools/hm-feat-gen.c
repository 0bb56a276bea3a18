// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-feat-gen: write a small perf.data whose header has the feature
 * sections hitmap passes on without parsing them, as perf 7.3 writes them:
 * CPU_DOMAIN_INFO (perf sched stats record; schedstat version 17, with
 * domain names, or --v16 without), E_MACHINE and CLN_SIZE, with GROUP_DESC,
 * CLOCK_DATA and the empty BRANCH_STACK beside them.  For header tests
 * against perf, which prints them all.
 *
 *   hm-feat-gen [--v16] [--swap] -o FILE
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/perf_data.h>

struct buf {
	u8	p[2048];
	u32	n;
};

static void put32(struct buf *b, u32 v)
{
	memcpy(b->p + b->n, &v, 4);
	b->n += 4;
}

static void put64(struct buf *b, u64 v)
{
	memcpy(b->p + b->n, &v, 8);
	b->n += 8;
}

/* perf_header_string: u32 len (with the NUL, padded to 64), bytes */
static void putstr(struct buf *b, const char *s)
{
	u32 n = (u32)strlen(s) + 1, len = (n + 63) / 64 * 64;

	put32(b, len);
	memset(b->p + b->n, 0, len);
	memcpy(b->p + b->n, s, n);
	b->n += len;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "v16", 0, NULL, '6' }, { "swap", 0, NULL, 's' }, { "output", 1, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	static struct buf sec[HM_FEAT_BITS];
	static struct hm_feat_raw raw[HM_FEAT_BITS];
	static const int feats[] = {
		HM_FEAT_GROUP_DESC, HM_FEAT_CLOCK_DATA, HM_FEAT_CPU_DOMAIN_INFO,
		HM_FEAT_E_MACHINE, HM_FEAT_CLN_SIZE, HM_FEAT_BRANCH_STACK,
	};
	const char *out = NULL;
	bool swap = false;
	u32 version = 17;
	struct perf_event_attr a = { 0 };
	struct hm_header h = { 0 };
	struct hm_sample s = { 0 };
	struct hm_writer *w;
	u64 ids[2] = { 1, 2 };
	struct buf *b;
	int c, ret = 0;

	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		switch (c) {
		case '6': version = 16; break;
		case 's': swap = true; break;
		case 'o': out = optarg; break;
		default: return 2;
		}
	}
	if (!out) {
		fprintf(stderr, "usage: hm-feat-gen [--v16] [--swap] -o FILE\n");
		return 2;
	}
	b = &sec[HM_FEAT_GROUP_DESC];
	put32(b, 1);
	putstr(b, "{anon_group}");
	put32(b, 0);
	put32(b, 2);
	b = &sec[HM_FEAT_CLOCK_DATA];
	put32(b, 1);
	put32(b, 1);
	put64(b, 1762878703344339000ULL);
	put64(b, 1642884550397ULL);
	b = &sec[HM_FEAT_CPU_DOMAIN_INFO];
	put32(b, version);
	put32(b, 2);		/* max sched domains */
	for (u32 cpu = 0; cpu < 2; cpu++) {
		put32(b, cpu);
		put32(b, 2);
		for (u32 d = 0; d < 2; d++) {
			put32(b, d);
			if (version >= 17)
				putstr(b, d ? "MC" : "SMT");
			putstr(b, d ? "00000003" : cpu ? "00000002" : "00000001");
			putstr(b, d ? "0-1" : cpu ? "1" : "0");
		}
	}
	put32(&sec[HM_FEAT_E_MACHINE], 62);	/* EM_X86_64 */
	put32(&sec[HM_FEAT_E_MACHINE], 0);
	put32(&sec[HM_FEAT_CLN_SIZE], 64);
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		raw[feats[i]].data = sec[feats[i]].n ? sec[feats[i]].p : NULL;
		raw[feats[i]].size = sec[feats[i]].n;
		raw[feats[i]].present = true;
	}
	h.hostname = "feat-gen";
	h.osrelease = "7.3.0";
	h.arch = "x86_64";
	h.nr_cpus_avail = h.nr_cpus_online = 2;
	h.feat_raw = raw;
	w = hm_writer__new(out);
	if (!w)
		return 1;
	if (swap)
		ret |= hm_writer__set_swap(w, true);
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.sample_period = 4000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	ret |= hm_writer__add_evsel(w, &a, "cpu-clock", ids, 1) < 0;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	ret |= hm_writer__add_evsel(w, &a, "task-clock", ids + 1, 1) < 0;
	ret |= hm_writer__set_header(w, &h);
	s.ip = 0x400000;
	s.pid = s.tid = 7;
	s.id = 1;
	ret |= hm_writer__write_sample(w, 0, &s);
	if (!ret)
		ret = hm_writer__close(w);
	hm_writer__delete(w);
	if (ret)
		fprintf(stderr, "hm-feat-gen: %s: cannot write\n", out);
	return ret ? 1 : 0;
}
