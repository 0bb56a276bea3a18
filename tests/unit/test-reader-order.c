// SPDX-License-Identifier: GPL-2.0-only
/*
 * counts_order against ordered: streams of rounds built here (samples in
 * interleaved runs with ties, COMM records at random places and times,
 * rounds past the queue's 4 MiB, FINISHED_ROUNDs left out), read
 * once in perf's order and once with counts_order.  Every sample must come
 * once, after the same COMM records, and the COMMs in the same order; some
 * samples must have skipped the queue (else nothing is tested).  From
 * memory (held records copied) and from a file (held in the read window).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <hitmap/perf_data.h>
#include "tap.h"

#include "stream-build.h"

/* a sample tagged @tag (its tid) */
static void sample(struct bld *b, u64 t, u32 tag)
{
	size_t at = rec_begin(b, PERF_RECORD_SAMPLE);

	p64(b, ID); p64(b, 0xffffffff81000000ULL + t); p32(b, 7); p32(b, tag);
	p64(b, t); p32(b, 1); p32(b, 0); p64(b, 4000);
	rec_end(b, at);
}

/* a COMM tagged @tag (its tid), time @t in its sample_id_all trailer */
static void comm(struct bld *b, u64 t, u32 tag)
{
	size_t at = rec_begin(b, PERF_RECORD_COMM);
	char c[16] = "task";

	p32(b, 7); p32(b, tag);
	put(b, c, 16);
	p32(b, 7); p32(b, tag); p64(b, t); p32(b, 1); p32(b, 0); p64(b, ID);
	rec_end(b, at);
}

static void round_end(struct bld *b)
{
	rec_end(b, rec_begin(b, HM_RECORD_FINISHED_ROUND));
}

enum shape { RANDOM, CYCLE, HUGE };

static u32 seed = 2024;
#define RND() (seed = seed * 1103515245u + 12345u, (seed >> 8) & 0xffff)

/*
 * Round @c of a cycle of eight, times from *@base (COMMs tagged from 1000000):
 *   0-3  a round, round a later than it and round b before a's last time,
 *        all samples: a goes unqueued; then a COMM earlier than most of b.
 *        perf's flush at b's end reaches a's last time, so b comes first:
 *        it must count a's times in that flush.
 *   4-7  a round, then rounds k and k+1 of 2.5 MB each, all later: the
 *        queue holds both (past its 4 MiB) while k+1 is read; then a COMM
 *        earlier than those.  Neither k nor k+1 may skip the queue.
 */
static int cycle(struct bld *b, int c, u64 *base, u32 *tag, u32 *nc)
{
	u64 t = *base;
	int i;

	switch (c) {
	case 0: case 4:
		for (i = 0; i < 100; i++)
			sample(b, t + (c ? 7000 : 0) + i, (*tag)++);
		break;
	case 1:
		for (i = 0; i < 200; i++)
			sample(b, t + 5000 + i, (*tag)++);
		break;
	case 2:
		for (i = 0; i < 400; i++)
			sample(b, t + 200 + (u64)i * 12, (*tag)++);
		break;
	case 5:
		for (i = 0; i < 45000; i++)
			sample(b, t + 10000 + (u64)i / 45, (*tag)++);
		break;
	case 6:
		for (i = 0; i < 45000; i++)
			sample(b, t + 10000 + (u64)i, (*tag)++);
		break;
	default:	/* 3, 7 */
		comm(b, t + (c == 3 ? 300 : 10500), 1000000 + (*nc)++);
		for (i = 0; i < 100; i++)	/* before round 4's, after round 6's */
			sample(b, t + (c == 3 ? 6000 : 60000) + i, (*tag)++);
		if (c == 7)
			*base += 100000;
	}
	round_end(b);
	return 0;
}

/*
 * @rounds rounds; round i holds samples in runs, a COMM in one round of
 * @comm_every; CYCLE: the rounds of cycle() instead; HUGE: some rounds
 * larger than the queue's 4 MiB (their samples in *@nr_huge).
 */
static u32 build(struct bld *b, int rounds, int comm_every, enum shape shape, u32 *nr_comm, u32 *nr_huge)
{
	u64 base = 1000;
	u32 tag = 0, nc = 0;

	*nr_huge = 0;

	header(b);
	for (int r = 0; r < rounds; r++) {
		/* HUGE: one round in four past the 4 MiB alone (read through the queue) */
		int n = shape == HUGE && r % 4 == 2 ? 80000 : 100 + (int)(RND() % 900);
		int nrun = 1 + RND() % 8, at_comm = comm_every && !(RND() % comm_every) ? (int)(RND() % n) : -1;
		u64 t[8];

		if (n == 80000)
			*nr_huge += n;
		if (shape == CYCLE) {
			if (cycle(b, r % 8, &base, &tag, &nc) < 0)
				break;
			continue;
		}
		for (int k = 0; k < nrun; k++)
			t[k] = base + RND() % 50;
		for (int i = 0; i < n; i++) {
			int k = r % 3 == 1 ? (int)(RND() % 400) : (int)((u64)i * nrun / n);

			if (i == at_comm)	/* its time anywhere in the round, or just before it */
				comm(b, base - 60 + RND() % 500, 1000000 + nc++);
			if (r % 3 == 1)
				sample(b, base + (u64)k, tag++);	/* shuffled */
			else
				sample(b, t[k] += RND() % 3, tag++);	/* runs, with ties */
		}
		base += 150 + RND() % 200;
		if (r % 5 == 4 && RND() % 2)
			continue;	/* no FINISHED_ROUND here */
		round_end(b);
	}
	*nr_comm = nc;
	return tag;
}

struct seen {
	u32	*comms_before;	/* per sample tag: COMMs handed out before it, +1 (0: not seen) */
	u32	*comm_seq;	/* COMM tags in the order handed out */
	u32	nr_comm, dup, bad;
	u64	unqueued, hold_peak;
	int	end;
};

static void drain(struct hm_reader *r, u32 nr, u32 max_comm, struct seen *s)
{
	struct hm_event ev;
	int ret;

	s->comms_before = calloc(nr, sizeof(u32));
	s->comm_seq = calloc(max_comm + 1, sizeof(u32));
	while (r && (ret = hm_reader__next(r, &ev)) > 0) {
		if (ev.type == PERF_RECORD_COMM) {
			if (s->nr_comm <= max_comm)
				s->comm_seq[s->nr_comm] = ev.sample.tid;	/* the trailer's */
			s->nr_comm++;
		} else if (ev.type == PERF_RECORD_SAMPLE) {
			u32 t = ev.sample.tid;

			if (t >= nr)
				s->bad++;
			else if (s->comms_before[t])
				s->dup++;
			else
				s->comms_before[t] = s->nr_comm + 1;
		}
	}
	s->end = r ? ret : -1;
	s->unqueued = r ? hm_reader__stats(r)->nr_unqueued : 0;
	s->hold_peak = r ? hm_reader__stats(r)->hold_peak : 0;
}

static struct hm_reader *open_it(const struct bld *b, const char *path, bool counts)
{
	struct hm_reader_opts o = { .ordered = true, .all_records = true, .counts_order = counts };

	return path ? hm_reader__new(path, &o) : hm_reader__new_mem(b->p, b->len, &o);
}

static void compare(const char *name, int rounds, int comm_every, enum shape shape)
{
	struct bld b = { 0 };
	struct seen a = { 0 }, c = { 0 };
	char path[64], t[128];
	u32 nc, huge, nr = build(&b, rounds, comm_every, shape, &nc, &huge);
	/* the file: in memory, opened by its /proc path (nothing left behind) */
	int fd = memfd_create("hm-test-reader-order", 0);
	bool file = fd >= 0 && write(fd, b.p, b.len) == (ssize_t)b.len;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	for (int pass = 0; pass < 2; pass++) {
		const char *how = pass ? "file" : "memory";
		struct hm_reader *ra, *rc;
		u32 missing = 0, differ = 0;

		if (pass && !file) {
			snprintf(t, sizeof(t), "reader.counts_order.%s.%s", name, how);
			SKIP(t, "memfd_create or its write failed");
			break;
		}
		ra = open_it(&b, pass ? path : NULL, false);
		rc = open_it(&b, pass ? path : NULL, true);
		memset(&a, 0, sizeof(a));
		memset(&c, 0, sizeof(c));
		drain(ra, nr, nc, &a);
		drain(rc, nr, nc, &c);
		for (u32 i = 0; i < nr; i++) {
			missing += !a.comms_before[i] || !c.comms_before[i];
			differ += a.comms_before[i] != c.comms_before[i];
		}
		snprintf(t, sizeof(t), "reader.counts_order.%s.%s.ends", name, how);
		CHECK(t, a.end == 0 && c.end == 0);
		snprintf(t, sizeof(t), "reader.counts_order.%s.%s.every_sample_once", name, how);
		CHECK(t, !missing && !a.dup && !c.dup && !a.bad && !c.bad);
		snprintf(t, sizeof(t), "reader.counts_order.%s.%s.comms_in_order", name, how);
		CHECK(t, a.nr_comm == nc && c.nr_comm == nc &&
			 !memcmp(a.comm_seq, c.comm_seq, nc * sizeof(u32)));
		snprintf(t, sizeof(t), "reader.counts_order.%s.%s.same_comms_before_each_sample", name, how);
		CHECK_EQ(t, differ, 0);
		snprintf(t, sizeof(t), "reader.counts_order.%s.%s.some_unqueued", name, how);
		CHECK(t, c.unqueued > 0 && c.unqueued < nr && a.unqueued == 0);
		/* what it holds stays within the queue's 4 MiB, also where a round alone is larger */
		snprintf(t, sizeof(t), "reader.counts_order.%s.%s.hold_within_4mib", name, how);
		CHECK(t, c.hold_peak > 0 && c.hold_peak <= (4u << 20) && a.hold_peak == 0);
		if (shape == HUGE) {
			/* a round past the queue's 4 MiB alone goes through the queue: never unqueued */
			snprintf(t, sizeof(t), "reader.counts_order.%s.%s.rounds_past_4mib_queued", name, how);
			CHECK(t, huge > 0 && c.unqueued <= nr - huge);
		}
		printf("# %s, %s: %u samples, %u COMMs, %llu unqueued\n", name, how, nr, nc,
		       (unsigned long long)c.unqueued);
		free(a.comms_before);
		free(a.comm_seq);
		free(c.comms_before);
		free(c.comm_seq);
		hm_reader__delete(ra);
		hm_reader__delete(rc);
	}
	if (fd >= 0)
		close(fd);
	free(b.p);
}

int main(void)
{
	compare("comm_in_one_round_of_3", 400, 3, RANDOM);
	compare("comm_in_one_round_of_12", 400, 12, RANDOM);
	compare("round_pairs_past_4mib", 60, 0, CYCLE);
	compare("rounds_past_4mib", 40, 4, HUGE);
	TAP_DONE();
}
