// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ordered reader against perf's ordered_events, which has no size
 * limit: at each FINISHED_ROUND it hands out, by time (ties in arrival
 * order), what is not later than the previous round's last time, and the
 * rest at the end.  Streams built here hold many MiB in rounds past the
 * reader's 4 MiB look-ahead threshold, or in no round at all, with
 * samples in interleaved runs (as CPU ring buffers give them), ties, COMM
 * records among them, and records that arrive later than a flush of their
 * time.  The reader must give the model's order exactly, from memory and
 * from a file, while queueing far less than the stream (its early
 * hand-out must happen, else nothing is tested).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <hitmap/perf_data.h>
#include "tap.h"

#include "stream-build.h"

/* the model's view of one timed record: its time and tag, in arrival order */
struct mrec {
	u64	t;
	u32	tag;
};

struct model {
	struct mrec	*q, *out;
	size_t		nq, nout, cap;
	u64		next_flush, max_ts;
};

static void m_grow(struct model *m)
{
	if (m->nq + 1 > m->cap || m->nout + 1 > m->cap) {
		m->cap = m->cap ? m->cap * 2 : 4096;
		m->q = realloc(m->q, m->cap * sizeof(*m->q));
		m->out = realloc(m->out, m->cap * sizeof(*m->out));
	}
}

/* perf's queue_event: after the queued ones of the same time */
static void m_queue(struct model *m, u64 t, u32 tag)
{
	size_t i;

	m_grow(m);
	i = m->nq;
	while (i > 0 && m->q[i - 1].t > t) {
		m->q[i] = m->q[i - 1];
		i--;
	}
	m->q[i] = (struct mrec){ t, tag };
	m->nq++;
	if (t > m->max_ts)
		m->max_ts = t;
}

static void m_flush(struct model *m, u64 limit)
{
	size_t k = 0;

	while (k < m->nq && m->q[k].t <= limit) {
		m_grow(m);
		m->out[m->nout++] = m->q[k++];
	}
	memmove(m->q, m->q + k, (m->nq - k) * sizeof(*m->q));
	m->nq -= k;
}

static void sample(struct bld *b, struct model *m, u64 t, u32 tag)
{
	size_t at = rec_begin(b, PERF_RECORD_SAMPLE);

	p64(b, ID); p64(b, 0xffffffff81000000ULL + t); p32(b, 7); p32(b, tag);
	p64(b, t); p32(b, 1); p32(b, 0); p64(b, 4000);
	rec_end(b, at);
	m_queue(m, t, tag);
}

/* a COMM tagged @tag (tid), time @t in its sample_id_all trailer */
static void comm(struct bld *b, struct model *m, u64 t, u32 tag)
{
	size_t at = rec_begin(b, PERF_RECORD_COMM);
	char c[16] = "task";

	p32(b, 7); p32(b, tag);
	put(b, c, 16);
	p32(b, 7); p32(b, tag); p64(b, t); p32(b, 1); p32(b, 0); p64(b, ID);
	rec_end(b, at);
	m_queue(m, t, tag);
}

static void round_end(struct bld *b, struct model *m)
{
	rec_end(b, rec_begin(b, HM_RECORD_FINISHED_ROUND));
	m_flush(m, m->next_flush);
	m->next_flush = m->max_ts;
}

static u32 seed = 77;
#define RND() (seed = seed * 1103515245u + 12345u, (seed >> 8) & 0xffff)

/* one sample in @laggard (0: none) far later than the stream: queued to the end */
static u32 laggard;

/*
 * @rounds rounds (0: none, one stream to the end) of @per records each:
 * @cpus runs per round, each in time order, read in chunks of @chunk
 * records in turn (as a pass over the ring buffers writes them), a run's
 * times spread over the round's span and a little into the round before
 * (records later than a flush of their time); ties every so often; one
 * COMM in about 200 records.
 */
static u32 build(struct bld *b, struct model *m, int rounds, u32 per, u32 cpus, u32 chunk)
{
	u32 tag = 0, nr = rounds ? (u32)rounds : 1;
	u64 base = 1000000;

	header(b);
	for (u32 k = 0; k < nr; k++) {
		u64 *next = calloc(cpus, sizeof(u64));
		u32 *left = calloc(cpus, sizeof(u32));
		u32 remain = per;

		for (u32 c = 0; c < cpus; c++) {
			next[c] = base - (RND() % 50000);	/* overlaps the round before */
			left[c] = per / cpus;
		}
		while (remain) {
			for (u32 c = 0; c < cpus && remain; c++) {
				for (u32 i = 0; i < chunk && left[c] && remain; i++) {
					u64 t = next[c];

					next[c] += RND() % 7 ? 1 + RND() % 40 : 0;	/* ties */
					left[c]--;
					remain--;
					if (RND() % 200 == 0)
						comm(b, m, t, 2000000000u + tag);
					sample(b, m, laggard && RND() % laggard == 0 ? t + (1ull << 40) : t,
					       tag++);
				}
			}
			if (remain && !left[0]) {
				for (u32 c = 0; c < cpus; c++)
					left[c] += remain / cpus + 1;
			}
		}
		for (u32 c = 0; c < cpus; c++)
			if (next[c] > base)
				base = next[c];
		base += 1000;
		free(next);
		free(left);
		if (rounds)
			round_end(b, m);
	}
	m_flush(m, UINT64_MAX);		/* the end: everything */
	return tag;
}

static void check(const char *name, int rounds, u32 per, u32 cpus, u32 chunk, u32 qbytes)
{
	struct bld b = { 0 };
	struct model m = { 0 };
	u32 nr = build(&b, &m, rounds, per, cpus, chunk);
	int fd = memfd_create("hm-test-reader-ahead", 0);
	bool file = fd >= 0 && write(fd, b.p, b.len) == (ssize_t)b.len;
	char path[64], t[160];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (int pass = 0; pass < 2; pass++) {
		struct hm_reader_opts o = { .ordered = true, .all_records = true,
					    .queue_bytes = qbytes };
		u64 qmax = qbytes ? qbytes : 4u << 20;
		const char *how = pass ? "file" : "memory";
		struct hm_reader *r;
		struct hm_event ev;
		size_t at = 0, differ = 0, first = SIZE_MAX;
		u64 peak, mem;
		int ret;

		if (pass && !file) {
			snprintf(t, sizeof(t), "reader.ahead.%s.%s", name, how);
			SKIP(t, "memfd_create or its write failed");
			break;
		}
		r = pass ? hm_reader__new(path, &o) : hm_reader__new_mem(b.p, b.len, &o);
		snprintf(t, sizeof(t), "reader.ahead.%s.%s.opens", name, how);
		CHECK(t, r != NULL);
		if (!r)
			continue;
		while ((ret = hm_reader__next(r, &ev)) > 0) {
			u32 tag;

			if (ev.type != PERF_RECORD_SAMPLE && ev.type != PERF_RECORD_COMM)
				continue;
			tag = ev.sample.tid;
			if (at >= m.nout || m.out[at].tag != tag || m.out[at].t != ev.sample.time) {
				if (first == SIZE_MAX)
					first = at;
				differ++;
			}
			at++;
		}
		peak = hm_reader__stats(r)->queue_peak;
		mem = hm_reader__stats(r)->queue_mem;
		snprintf(t, sizeof(t), "reader.ahead.%s.%s.ends", name, how);
		CHECK_EQ(t, ret, 0);
		snprintf(t, sizeof(t), "reader.ahead.%s.%s.perf_order (%zu records, first differing at %zu)",
			 name, how, m.nout, first == SIZE_MAX ? (size_t)0 : first);
		CHECK(t, at == m.nout && !differ);
		/* the early hand-out happened, and kept the queue far below the stream */
		snprintf(t, sizeof(t), "reader.ahead.%s.%s.queue_bounded (peak %llu of %zu bytes)",
			 name, how, (unsigned long long)peak, b.len);
		CHECK(t, peak > qmax && peak < b.len / 2);
		/*
		 * and the chunks the queued records lie in stay within four
		 * times what is queued, plus the chunks being filled and freed
		 * (laggards left behind in every chunk are moved on)
		 */
		snprintf(t, sizeof(t), "reader.ahead.%s.%s.chunks_bounded (%llu bytes of chunks, queue peak %llu)",
			 name, how, (unsigned long long)mem, (unsigned long long)peak);
		/* from memory the records stay where they are: no chunks */
		CHECK(t, pass ? mem > 0 && mem <= 4 * peak + (2u << 20) : mem == 0);
		printf("# %s, %s: %u samples, %zu bytes, queue peak %llu in %llu bytes of chunks\n",
		       name, how, nr, b.len, (unsigned long long)peak, (unsigned long long)mem);
		hm_reader__delete(r);
	}
	if (fd >= 0)
		close(fd);
	free(b.p);
	free(m.q);
	free(m.out);
}

int main(void)
{
	/* no FINISHED_ROUND (perf's directory format, other writers): one final flush */
	check("no_rounds", 0, 400000, 8, 300, 0);
	/* rounds of about 7 MiB each, past the look-ahead threshold */
	check("rounds_past_4mib", 6, 130000, 16, 500, 0);
	/* a small threshold (opts.queue_bytes): many looks ahead, rounds past it */
	check("small_queue_no_rounds", 0, 20000, 4, 50, 16384);
	check("small_queue_rounds", 40, 2000, 4, 60, 16384);
	/*
	 * Rounds of 3, 6 and 7 runs (a small threshold: looks ahead too): an
	 * odd run left over at a merge pass, and odd pass counts (the result
	 * copied back).  A tie sent to the later run fails them.
	 */
	check("rounds_three_runs", 30, 3000, 3, 1000, 16384);
	check("rounds_six_runs", 30, 6000, 6, 1000, 16384);
	check("rounds_seven_runs", 30, 7000, 7, 1000, 16384);
	/* a sample in 64 queued to the end: every chunk would keep some */
	laggard = 64;
	check("no_rounds_laggards", 0, 800000, 8, 300, 0);
	check("rounds_laggards", 6, 130000, 16, 500, 0);
	laggard = 0;
	TAP_DONE();
}
