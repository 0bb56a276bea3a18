// SPDX-License-Identifier: GPL-2.0-only
/*
 * Optional ordering: samples sorted by time within FINISHED_ROUND rounds,
 * exactly as perf's ordered_events (flush up to the previous round's max
 * timestamp; everything at the end).  perf's queue has no size limit:
 * past ORDER_MAX_BYTES this one hands out early what perf hands out in the
 * same place anyway (reader-ahead.c).  Queued records are copies, so the
 * window may move on.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "reader-int.h"
#include "../util/bigalloc.h"

/* hm_qent.arena: the record's bytes in the queue's chunks, or left where they are in the input */
#define QENT_CHUNKS	0
#define QENT_IN_PLACE	2	/* a file mapped, memory */

/*
 * A record held by counts_order's delay line (struct hm_hold): its bytes
 * follow it, or, in_window, stay in the read window at file offset off.
 */
struct hm_hrec {
	u64		off, ts;
	struct hm_evsel	*ev;	/* NULL: the round's FINISHED_ROUND */
	u32		len;
	bool		compressed, in_window;
};

/* Its bytes; NULL where the window no longer holds them (a broken hold_keep). */
static const u8 *hrec_bytes(const struct hm_reader *r, const struct hm_hrec *x)
{
	if (!x->in_window)
		return (const u8 *)(x + 1);
	if (x->off < r->buf_off || x->off + x->len > r->buf_off + r->len)
		return NULL;
	return r->buf + (x->off - r->buf_off);
}

static int hrec_lost(struct hm_reader *r, const struct hm_hrec *x)
{
	return hm_reader__fail(r, -EIO, x->off, "a held record left the read window "
			       "(internal error; HITMAP_ALL_ORDERED=1 reads without holding)");
}

static size_t hrec_size(const struct hm_hrec *x)
{
	return sizeof(*x) + (x->in_window ? 0 : ((x->len + 7) & ~7u));
}


/*
 * Ties: perf's queue puts a record after the queued ones of the same time
 * (arrival order).  Here, among records of one time, the array order is
 * always their arrival order (new records are appended; a flush keeps the
 * order of those it leaves), so a stable sort by time alone gives perf's
 * order.
 */

/* Merge the sorted runs @a[lo, mid) and @a[mid, hi) into @d[lo, hi), stably. */
static void merge_runs(const struct hm_qent *a, struct hm_qent *d, size_t lo, size_t mid, size_t hi)
{
	size_t l = lo, rr = mid, o = lo;

	if (mid > lo && mid < hi && a[mid - 1].time <= a[mid].time) {
		memcpy(d + lo, a + lo, (hi - lo) * sizeof(*a));	/* already in order */
		return;
	}
	while (l < mid && rr < hi)
		d[o++] = a[rr].time < a[l].time ? a[rr++] : a[l++];
	memcpy(d + o, a + l, (mid - l) * sizeof(*a));
	o += mid - l;
	memcpy(d + o, a + rr, (hi - rr) * sizeof(*a));
}

/*
 * Stable sort of @a[0..n) by time.  Rounds hold one run per CPU ring
 * buffer, each already in time order: the runs found (those shorter than
 * 16 records extended by insertion sort) are merged pairwise, bottom-up.
 * (Four at a time measured 4% fewer instructions on rounds of 16 runs
 * and 3% slower in the profiled build: tests/bench/README.md.)
 */
static int sort_ents(struct hm_reader *r, struct hm_qent *a, size_t n)
{
	struct hm_qent *src = a, *dst, *t;
	size_t nr = 0, i, j;

	if (n > r->qtmp_cap) {
		size_t c = n > r->qtmp_cap * 2 ? n : r->qtmp_cap * 2;

		/* huge pages past 2 MB: the merges stream through it; grown, its pages reused */
		t = hm_big__realloc(r->qtmp, r->qtmp_cap * sizeof(*t), c * sizeof(*t));
		if (!t)
			return -ENOMEM;
		r->qtmp = t;
		r->qtmp_cap = c;
	}
	if (n / 16 + 2 > r->qruns_cap) {
		size_t *p = realloc(r->qruns, (n / 16 + 2) * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->qruns = p;
		r->qruns_cap = n / 16 + 2;
	}
	for (i = 0; i < n;) {
		size_t end = i + 1;

		while (end < n && a[end].time >= a[end - 1].time)
			end++;
		if (end - i < 16 && end < n) {
			size_t stop = i + 16 < n ? i + 16 : n;

			for (j = end; j < stop; j++) {
				struct hm_qent x = a[j];
				size_t k = j;

				while (k > i && x.time < a[k - 1].time) {
					a[k] = a[k - 1];
					k--;
				}
				a[k] = x;
			}
			end = stop;
		}
		r->qruns[nr++] = end;
		i = end;
	}
	dst = r->qtmp;
	while (nr > 1) {
		size_t lo = 0, w = 0;

		for (i = 0; i < nr; i += 2) {
			if (i + 1 < nr) {
				merge_runs(src, dst, lo, r->qruns[i], r->qruns[i + 1]);
				lo = r->qruns[i + 1];
			} else {
				memcpy(dst + lo, src + lo, (r->qruns[i] - lo) * sizeof(*src));
				lo = r->qruns[i];
			}
			r->qruns[w++] = lo;
		}
		nr = w;
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	return 0;
}

/* Room for one more entry: the handed-out ones dropped, or the array grown. */
static int ents_room(struct hm_oq *q)
{
	if (q->n < q->cap)
		return 0;
	if (q->rpos) {
		memmove(q->ents, q->ents + q->rpos, (q->n - q->rpos) * sizeof(*q->ents));
		q->n -= q->rpos;
		q->rend -= q->rpos;
		q->rpos = 0;
	}
	if (q->n * 2 > q->cap || !q->cap) {
		size_t c = q->cap ? q->cap * 2 : 1024;
		struct hm_qent *e = hm_big__realloc(q->ents, q->cap * sizeof(*e), c * sizeof(*e));

		if (!e)
			return -ENOMEM;
		q->ents = e;
		q->cap = c;
	}
	return 0;
}

_Static_assert(sizeof(struct hm_qent) == 32, "hm_qent: 32 bytes, the sort moves them");

/*
 * Fill @e with the record @rec, its bytes copied into the queue's chunks.
 * @len comes from a record header's u16 size (file, zstd stream, SPE's
 * synthesized samples alike), so it fits hm_qent.len.
 */
static int ent_set(struct hm_reader *r, struct hm_qent *e, const void *rec, u32 len, u64 time,
		   u64 off, bool compressed, const struct hm_evsel *ev)
{
	*e = (struct hm_qent){ .time = time, .file_offset = off, .len = len,
			       .arena = QENT_CHUNKS, .compressed = compressed,
			       .evidx = ev ? ev->idx : -1, .evgen = r->ev_gen };
	if (r->mem && !compressed && (const u8 *)rec == r->mem + off) {
		e->arena = QENT_IN_PLACE;	/* the input holds it until handed out */
		return 0;
	}
	return hm_ochunks__put(&r->oc, rec, len, &e->off);
}

/* @e handed out, or dropped: its chunk's share of it is free. */
static void ent_done(struct hm_reader *r, const struct hm_qent *e)
{
	if (e->arena == QENT_CHUNKS)
		hm_ochunks__drop(&r->oc, e->off, e->len);
}

/*
 * Make everything queued with time <= @limit ready, sorted.  The records
 * left queued keep their bytes where they are, but for those in a chunk
 * they hold less than a quarter of (hm_ochunks__sparse): those move to the
 * chunk being filled, so a few records left from each round cannot keep
 * chunks in use without bound.  @tail (FINISHED_ROUND) follows the ready
 * ones.
 */
static int oq_flush(struct hm_reader *r, u64 limit, const u8 *tail, u32 tail_len, u64 tail_off,
		    bool tail_compressed)
{
	struct hm_oq *q = &r->q;
	/* nothing queued yet: no array (NULL + 0 is undefined in C) */
	struct hm_qent *a = q->ents ? q->ents + q->rend : NULL;
	size_t m = q->n - q->rend, lo = 0, hi, i;
	int err;

	if (!q->sorted) {
		err = sort_ents(r, a, m);
		if (err)
			return err;
		q->sorted = true;
	}
	/* the first record past @limit */
	hi = m;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid].time <= limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	r->qbytes = 0;
	for (i = lo; i < m; i++) {
		struct hm_qent *e = &a[i];

		if (e->arena == QENT_CHUNKS && hm_ochunks__sparse(&r->oc, e->off)) {
			u32 from = e->off;

			err = hm_ochunks__put(&r->oc, hm_ochunks__bytes(&r->oc, from), e->len, &e->off);
			if (err)
				return err;
			hm_ochunks__drop(&r->oc, from, e->len);
		}
		r->qbytes += (e->len + 7) & ~7u;
	}
	/* ready records not yet handed out (counts_order's replay) stay first */
	q->rend += lo;
	if (tail) {
		if (q->has_tail)
			ent_done(r, &q->tail);	/* replaced: its chunk's share freed */
		err = ent_set(r, &q->tail, tail, tail_len, 0, tail_off, tail_compressed, NULL);
		if (err)
			return err;
		q->has_tail = true;
	}
	r->st.queue_mem = hm_ochunks__bytes_held(&r->oc);
	return 0;
}

static int pop_one(struct hm_reader *r, const struct hm_qent *e, struct hm_event *ev)
{
	int ret;

	/* the evsel found when it was queued, unless ids changed since (pipe headers) */
	r->dec_ev_set = e->evidx >= 0 && e->evgen == r->ev_gen && e->evidx < r->nr_ev && !r->spe;
	r->dec_ev = r->dec_ev_set ? r->ev[e->evidx] : NULL;
	ret = hm_reader__decode(r, e->arena == QENT_IN_PLACE ? r->mem + e->file_offset :
				hm_ochunks__bytes(&r->oc, e->off), e->len, e->file_offset,
				e->compressed, ev);
	r->dec_ev_set = false;
	/* its bytes stay until the next record is queued, after this call */
	ent_done(r, e);
	if (ret)
		return ret;
	r->st.bytes += e->len;
	return 1;
}

/* The next SAMPLE of the round handed out without the queue (hold_through). */
static int pop_unqueued(struct hm_reader *r, struct hm_hold *h, struct hm_event *ev)
{
	const struct hm_hrec *x = (const struct hm_hrec *)(h->p + h->pos);
	const u8 *rec = hrec_bytes(r, x);
	int ret;

	if (!rec)
		return hrec_lost(r, x);
	h->pos += hrec_size(x);
	if (h->pos >= h->end)
		r->h_out = -1;	/* read no further before: the window keeps its bytes */
	/* its evsel, found when it was held: no record changed the events since */
	r->dec_ev_set = true;
	r->dec_ev = x->ev;
	ret = hm_reader__decode(r, rec, x->len, x->off, x->compressed, ev);
	r->dec_ev_set = false;
	if (ret)
		return ret;
	r->st.bytes += x->len;
	r->st.nr_unqueued++;
	return 1;
}

int hm_order__pop(struct hm_reader *r, struct hm_event *ev)
{
	struct hm_oq *q = &r->q;

	if (r->h_out >= 0)
		return pop_unqueued(r, &r->hold[r->h_out], ev);
	if (q->rpos < q->rend)
		return pop_one(r, &q->ents[q->rpos++], ev);
	if (q->has_tail) {
		q->has_tail = false;
		return pop_one(r, &q->tail, ev);
	}
	return 0;
}

/* A FINISHED_ROUND: flush to the round before's last time. */
static int queue_round_end(struct hm_reader *r, const u8 *nat, u32 size, u64 off, bool compressed)
{
	u64 limit = r->next_flush;
	int ret = oq_flush(r, limit, r->opts.all_records ? nat : NULL, size, off, compressed);

	if (ret)
		return hm_reader__fail(r, ret, off, "out of memory");
	r->next_flush = r->max_ts;
	/* the walk ahead ended at this FINISHED_ROUND: the next round has its own */
	hm_ahead__delete(r);
	r->ahead_next = 0;
	return 1;
}

/*
 * Whether an early hand-out up to @limit frees enough to pay: it sorts
 * the queue, so it goes ahead only when a quarter of the queued records
 * or more would go out.  Only
 * memory depends on it, never the order.
 */
static bool early_worth(const struct hm_oq *q, u64 limit)
{
	size_t m = q->n - q->rend, out = 0;

	for (size_t i = q->rend; i < q->n; i++)
		out += q->ents[i].time <= limit;
	return out * 4 >= m && out;
}

/* A record of time @ts (its evsel @ev) into the queue. */
static int queue_timed(struct hm_reader *r, const u8 *nat, u32 size, u64 off, bool compressed,
		       u64 ts, struct hm_evsel *ev)
{
	struct hm_oq *q = &r->q;
	struct hm_qent *e;
	int ret;

	if (ts > r->max_ts)
		r->max_ts = ts;
	if (ents_room(q) < 0)
		return hm_reader__fail(r, -ENOMEM, off, "out of memory");
	if (q->n == q->rend)
		q->sorted = true;
	else if (ts < q->ents[q->n - 1].time)
		q->sorted = false;
	e = &q->ents[q->n];
	ret = ent_set(r, e, nat, size, ts, off, compressed, ev);
	if (ret)
		return hm_reader__fail(r, ret, off, "out of memory");
	q->n++;
	r->qbytes += (size + 7) & ~7u;
	if (r->qbytes > (r->opts.queue_bytes ? r->opts.queue_bytes : ORDER_MAX_BYTES) &&
	    r->qbytes > r->ahead_next) {
		/* what perf hands out in the same place anyway goes now (reader-ahead.c) */
		u64 limit;

		if (r->qbytes > r->st.queue_peak)
			r->st.queue_peak = r->qbytes;
		ret = r->hold_on || r->replaying ? 0 : hm_ahead__limit(r, &limit);
		if (ret < 0)
			return hm_reader__fail(r, ret, off, "reading ahead: %s", strerror(-ret));
		if (ret && early_worth(q, limit) && (ret = oq_flush(r, limit, NULL, 0, 0, false)))
			return hm_reader__fail(r, ret, off, "out of memory");
		/* next look when the queue has grown by a quarter (at least 1 MiB, or the threshold) */
		{
			u64 step = r->opts.queue_bytes && r->opts.queue_bytes < (1u << 20) ?
				   r->opts.queue_bytes : (1u << 20);

			r->ahead_next = r->qbytes + (r->qbytes / 4 > step ? r->qbytes / 4 : step);
		}
	}
	return 1;
}

static int queue_now(struct hm_reader *r, const u8 *nat, u32 size, u64 off, bool compressed)
{
	u32 t = hm_ld32(nat);

	if (r->nr_ev && !r->ev[0]->attr.sample_id_all) {
		r->ordered = false;	/* perf falls back to unordered too */
		return 0;
	}
	if (t == HM_RECORD_FINISHED_ROUND)
		return queue_round_end(r, nat, size, off, compressed);
	if (hm_record__is_kernel(t) && (r->opts.all_records || t == PERF_RECORD_SAMPLE)) {
		struct hm_evsel *ev;
		u64 ts = hm_reader__rec_time(r, nat, size, t, &ev);

		if (ts == (u64)-1)
			return 0;	/* no time: handed out as it comes */
		return queue_timed(r, nat, size, off, compressed, ts, ev);
	}
	return 0;
}

/*
 * counts_order's delay line.  perf's queue flushes, at the end of round
 * k, what is not later than round k-1's last time: every record of round
 * k-2 is out before a record of round k is read, every record of round k
 * before one of round k+2 is.  So when rounds k-1, k and k+1 hold SAMPLEs
 * alone, round k's samples are handed out after every other record of
 * rounds up to k-2 and before any of rounds from k+2 on, whatever their
 * order among themselves: the same records before each of them as in
 * perf's order.  The queue then holds at most rounds k-1 and k while k
 * is read, k and k+1 while k+1 is.  Held records are not in the file
 * ahead of the read position, so while rounds are held the queue hands
 * nothing out early (reader-ahead.c cannot time them): k skips the queue
 * only while k and k+1 stay under ORDER_MAX_BYTES together, which bounds
 * what is held (hold_put replays round a as soon as they do not).  Round k's last time still counts in the limit
 * of the flush at the end of round k+1.
 *
 * Round b is held until its FINISHED_ROUND; then round a, read before it,
 * is either handed out so (hold_through) or replayed into the queue with
 * its FINISHED_ROUND (hold_replay), as if read only now: the queue sees
 * the records in the order they came.  A record other than a SAMPLE with
 * a time replays both rounds first and reads the rest of its round
 * through the queue; the round after is held again, not handed out
 * unqueued (its neighbour held more than samples).
 */
void hm_order__init(struct hm_reader *r)
{
	r->h_a = r->h_out = -1;
	r->h_b = 0;
	r->hold_on = r->opts.counts_order && r->opts.ordered;
	r->prev_pure = true;	/* no round before the first */
	r->hold_keep = UINT64_MAX;
	for (int i = 0; i < 3; i++)
		r->hold[i].first_in_window = UINT64_MAX;
}

/* The read window keeps what the held rounds point to (hm_reader__win_ensure). */
static void hold_keep(struct hm_reader *r)
{
	u64 k = r->hold[r->h_b].first_in_window;

	if (r->h_a >= 0 && r->hold[r->h_a].first_in_window < k)
		k = r->hold[r->h_a].first_in_window;
	r->hold_keep = k;
}

static void hold_reset(struct hm_hold *h)
{
	h->len = h->qbytes = h->pos = h->end = 0;
	h->max_ts = 0;
	h->first_in_window = UINT64_MAX;
}

/* Round @h into the queue, record by record, as they came. */
static int hold_replay(struct hm_reader *r, struct hm_hold *h)
{
	size_t p = 0;
	int ret = 0;

	/* records behind the read position go to the queue: no early hand-out meanwhile */
	r->replaying = true;
	while (p < h->len) {
		const struct hm_hrec *x = (const struct hm_hrec *)(h->p + p);
		const u8 *rec = hrec_bytes(r, x);

		if (!rec)
			return hrec_lost(r, x);
		ret = x->ev ? queue_timed(r, rec, x->len, x->off, x->compressed, x->ts, x->ev) :
			      queue_round_end(r, rec, x->len, x->off, x->compressed);
		if (ret < 0)
			return ret;
		p += hrec_size(x);
	}
	r->replaying = false;
	hold_reset(h);
	return 0;
}

/* Round a goes to the queue now (it cannot be handed out unqueued): b's previous is a. */
static int hold_replay_a(struct hm_reader *r)
{
	int ret = hold_replay(r, &r->hold[r->h_a]);

	r->h_a = -1;
	r->prev_pure = true;
	hold_keep(r);
	return ret;
}

int hm_order__unhold(struct hm_reader *r)
{
	int ret = 0;

	if (!r->hold_on)
		return 0;
	r->hold_on = false;
	if (r->h_a >= 0)
		ret = hold_replay(r, &r->hold[r->h_a]);
	if (ret >= 0)
		ret = hold_replay(r, &r->hold[r->h_b]);
	r->h_a = -1;
	r->hold_keep = UINT64_MAX;
	return ret < 0 ? ret : 0;
}

/*
 * Hold a record of round b: where it lies in the read window (a file read
 * as it is), its place there; else a copy.  Round a goes to the queue as
 * soon as a and b outgrow ORDER_MAX_BYTES together, and b itself when it
 * does alone: the window keeps at most that.
 */
static int hold_put(struct hm_reader *r, const u8 *nat, u32 size, u64 off, bool compressed,
		    u64 ts, struct hm_evsel *ev)
{
	struct hm_hold *h = &r->hold[r->h_b];
	bool in_window = !r->mem && !compressed && r->buf && nat >= r->buf &&
			 nat + size <= r->buf + r->len && r->buf_off + (u64)(nat - r->buf) == off;
	size_t need = h->len + sizeof(struct hm_hrec) + (in_window ? 0 : ((size + 7) & ~7u));
	struct hm_hrec *x;
	int ret;

	if (need > h->cap) {
		size_t c = h->cap ? h->cap : 65536;
		u8 *p;

		while (c < need)
			c *= 2;
		p = realloc(h->p, c);
		if (!p)
			return hm_reader__fail(r, -ENOMEM, off, "out of memory");
		h->p = p;
		h->cap = c;
	}
	x = (struct hm_hrec *)(h->p + h->len);
	*x = (struct hm_hrec){ .off = off, .ts = ts, .ev = ev, .len = size,
			       .compressed = compressed, .in_window = in_window };
	if (!in_window)
		memcpy(x + 1, nat, size);
	else if (h->first_in_window == UINT64_MAX) {
		h->first_in_window = off;
		hold_keep(r);
	}
	if (!ev) {
		h->end = h->len;	/* the FINISHED_ROUND, last: the SAMPLEs end there */
		h->len = need;
		return 1;
	}
	h->len = need;
	h->qbytes += (size + 7) & ~7u;
	if (ts > h->max_ts)
		h->max_ts = ts;
	if (r->h_a >= 0 && r->hold[r->h_a].qbytes + h->qbytes > ORDER_MAX_BYTES &&
	    (ret = hold_replay_a(r)) < 0)
		return ret;
	if (h->qbytes > ORDER_MAX_BYTES && (ret = hm_order__unhold(r)) < 0)
		return ret;
	{
		u64 held = (r->h_a >= 0 ? r->hold[r->h_a].qbytes : 0) + (r->h_b >= 0 ? r->hold[r->h_b].qbytes : 0);

		if (held > r->st.hold_peak)
			r->st.hold_peak = held;
	}
	return 1;
}

/* Round @idx's SAMPLEs handed out unqueued, its FINISHED_ROUND (last) into the queue. */
static int hold_through(struct hm_reader *r, int idx)
{
	struct hm_hold *h = &r->hold[idx];
	const struct hm_hrec *x = (const struct hm_hrec *)(h->p + h->end);
	const u8 *rec = hrec_bytes(r, x);

	if (!rec)
		return hrec_lost(r, x);
	if (h->max_ts > r->max_ts)
		r->max_ts = h->max_ts;
	h->pos = 0;
	if (h->end)
		r->h_out = idx;
	return queue_round_end(r, rec, x->len, x->off, x->compressed);
}

/* Round b read to its FINISHED_ROUND: round a goes on, b becomes a. */
static int hold_round_end(struct hm_reader *r, const u8 *nat, u32 size, u64 off, bool compressed)
{
	int ret = hold_put(r, nat, size, off, compressed, 0, NULL);
	int next = 0;

	while (next == r->h_a || next == r->h_b)
		next++;	/* the third: out, if any, is handed out before a record is read */
	if (ret < 0)
		return ret;
	if (r->h_a >= 0) {
		/* a and b under ORDER_MAX_BYTES together: hold_put() */
		ret = r->prev_pure ? hold_through(r, r->h_a) : hold_replay(r, &r->hold[r->h_a]);
		if (ret < 0)
			return ret;
		r->prev_pure = true;
	}
	r->h_a = r->h_b;
	r->h_b = next;
	hold_reset(&r->hold[next]);
	hold_keep(r);
	return 1;
}

int hm_order__queue(struct hm_reader *r, const u8 *nat, u32 size, u64 off, bool compressed)
{
	u32 t = hm_ld32(nat);
	int ret;

	if (!r->opts.counts_order || r->spe) {
		if (r->hold_on && (ret = hm_order__unhold(r)) < 0)
			return ret;
		return queue_now(r, nat, size, off, compressed);
	}
	if (!r->hold_on) {
		ret = queue_now(r, nat, size, off, compressed);
		if (ret > 0 && t == HM_RECORD_FINISHED_ROUND) {
			/* the round read through the queue ends: hold the next */
			r->hold_on = true;
			r->prev_pure = false;
			hold_reset(&r->hold[r->h_b]);
			hold_keep(r);
		}
		return ret;
	}
	if (t == HM_RECORD_FINISHED_ROUND)
		return hold_round_end(r, nat, size, off, compressed);
	if (t == PERF_RECORD_SAMPLE && r->nr_ev && r->ev[0]->attr.sample_id_all) {
		struct hm_evsel *ev;
		u64 ts = hm_reader__rec_time(r, nat, size, t, &ev);

		if (ts != (u64)-1 && ev)
			return hold_put(r, nat, size, off, compressed, ts, ev);
	}
	ret = hm_order__unhold(r);
	return ret < 0 ? ret : queue_now(r, nat, size, off, compressed);
}

int hm_order__drain(struct hm_reader *r, u64 off)
{
	const struct hm_oq *q = &r->q;
	int ret = hm_order__unhold(r);

	if (ret < 0)
		return ret;
	if (q->n != q->rend) {
		ret = oq_flush(r, UINT64_MAX, NULL, 0, 0, false);
		if (ret)
			return hm_reader__fail(r, ret, off, "out of memory");
	}
	return q->rpos < q->rend || q->has_tail || r->h_out >= 0;
}

void hm_order__release(struct hm_reader *r)
{
	const struct hm_oq *q = &r->q;
	u64 keep = r->head;

	/*
	 * The scan walks the whole queue: a record queued early in a big
	 * round holds keep back, so try again only a step further on (else
	 * one scan per record read: quadratic in the round's records).
	 */
	r->release_next = r->head + HM_RELEASE_STEP;
	for (size_t i = q->rpos; i < q->n; i++)
		if (q->ents[i].arena == QENT_IN_PLACE && q->ents[i].file_offset < keep)
			keep = q->ents[i].file_offset;
	if (q->has_tail && q->tail.arena == QENT_IN_PLACE && q->tail.file_offset < keep)
		keep = q->tail.file_offset;
	keep = hm_page_floor(keep);
	if (keep <= r->released)
		return;
	/* a read-only private mapping: a page dropped is read again if touched */
	madvise((void *)(r->mem + r->released), keep - r->released, MADV_DONTNEED);
	r->released = keep;
}

void hm_order__exit(struct hm_reader *r)
{
	hm_ochunks__exit(&r->oc);
	hm_big__free(r->q.ents, r->q.cap * sizeof(*r->q.ents));
	hm_big__free(r->qtmp, r->qtmp_cap * sizeof(*r->qtmp));
	free(r->qruns);
	for (int i = 0; i < 3; i++)
		free(r->hold[i].p);
}
