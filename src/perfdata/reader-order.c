// SPDX-License-Identifier: GPL-2.0-only
/*
 * Optional ordering: samples sorted by time within FINISHED_ROUND rounds,
 * exactly as perf's ordered_events (flush up to the previous round's max
 * timestamp; half of the queue when it grows past ORDER_MAX_BYTES, like
 * OE_FLUSH__HALF).  Queued records are copies, so the window may move on.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "reader-int.h"

#define ORDER_MAX_BYTES	(4u << 20)
/* hm_qent.arena of a record left where it is in the input (a file mapped, memory) */
#define QENT_IN_PLACE	2


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
 */
static int sort_ents(struct hm_reader *r, struct hm_qent *a, size_t n)
{
	struct hm_qent *src = a, *dst, *t;
	size_t nr = 0, i, j;

	if (n > r->qtmp_cap) {
		t = realloc(r->qtmp, n * sizeof(*t));
		if (!t)
			return -ENOMEM;
		r->qtmp = t;
		r->qtmp_cap = n;
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
		struct hm_qent *e = realloc(q->ents, c * sizeof(*e));

		if (!e)
			return -ENOMEM;
		q->ents = e;
		q->cap = c;
	}
	return 0;
}

/* Copy @len bytes of @rec into the current arena; its offset in *@off. */
static int arena_put(struct hm_reader *r, const void *rec, u32 len, u32 *off)
{
	struct hm_oarena *a = &r->ar[r->acur];
	size_t need = a->len + ((len + 7) & ~7u);

	if (need > a->cap) {
		size_t c = a->cap ? a->cap : 65536;
		u8 *p;

		while (c < need)
			c *= 2;
		if (c > UINT32_MAX)
			return -ENOMEM;
		p = realloc(a->p, c);
		if (!p)
			return -ENOMEM;
		a->p = p;
		a->cap = c;
	}
	memcpy(a->p + a->len, rec, len);
	*off = (u32)a->len;
	a->len = need;
	return 0;
}

/* Fill @e with the record @rec, its bytes copied into the current arena. */
static int ent_set(struct hm_reader *r, struct hm_qent *e, const void *rec, u32 len, u64 time,
		   u64 off, bool compressed, const struct hm_evsel *ev)
{
	*e = (struct hm_qent){ .time = time, .file_offset = off, .len = len,
			       .arena = (u8)r->acur, .compressed = compressed,
			       .evidx = ev ? ev->idx : -1, .evgen = r->ev_gen };
	if (r->mem && !compressed && (const u8 *)rec == r->mem + off) {
		e->arena = QENT_IN_PLACE;	/* the input holds it until handed out */
		return 0;
	}
	return arena_put(r, rec, len, &e->off);
}

/*
 * Make everything queued with time <= @limit ready, sorted.  The records
 * left queued keep their bytes where they are: when all of them are in the
 * current arena, the other one (whose records are all handed out before the
 * next record is queued) takes the next records; else the few in the other
 * arena are copied over first.  @tail (FINISHED_ROUND) follows the ready ones.
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

		if (e->arena != r->acur && e->arena != QENT_IN_PLACE) {
			const struct hm_oarena *o = &r->ar[e->arena];

			err = arena_put(r, o->p + e->off, e->len, &e->off);
			if (err)
				return err;
			e->arena = (u8)r->acur;
		}
		r->qbytes += (e->len + 7) & ~7u;
	}
	q->rpos = q->rend;
	q->rend += lo;
	if (tail) {
		err = ent_set(r, &q->tail, tail, tail_len, 0, tail_off, tail_compressed, NULL);
		if (err)
			return err;
		q->has_tail = true;
	}
	r->aswitch = true;
	return 0;
}

static int pop_one(struct hm_reader *r, const struct hm_qent *e, struct hm_event *ev)
{
	int ret;

	/* the evsel found when it was queued, unless ids changed since (pipe headers) */
	r->dec_ev_set = e->evidx >= 0 && e->evgen == r->ev_gen && e->evidx < r->nr_ev && !r->spe;
	r->dec_ev = r->dec_ev_set ? r->ev[e->evidx] : NULL;
	ret = hm_reader__decode(r, e->arena == QENT_IN_PLACE ? r->mem + e->file_offset :
				r->ar[e->arena].p + e->off, e->len, e->file_offset, e->compressed, ev);
	r->dec_ev_set = false;
	if (ret)
		return ret;
	r->st.bytes += e->len;
	return 1;
}

int hm_order__pop(struct hm_reader *r, struct hm_event *ev)
{
	struct hm_oq *q = &r->q;

	if (q->rpos < q->rend)
		return pop_one(r, &q->ents[q->rpos++], ev);
	if (q->has_tail) {
		q->has_tail = false;
		return pop_one(r, &q->tail, ev);
	}
	return 0;
}

int hm_order__drain(struct hm_reader *r, u64 off)
{
	int ret;

	if (r->q.n == r->q.rend)
		return 0;
	ret = oq_flush(r, UINT64_MAX, NULL, 0, 0, false);
	if (ret)
		return hm_reader__fail(r, ret, off, "out of memory");
	return 1;
}

int hm_order__queue(struct hm_reader *r, const u8 *nat, u32 size, u64 off, bool compressed)
{
	u32 t = hm_ld32(nat);
	int ret;

	if (r->nr_ev && !r->ev[0]->attr.sample_id_all) {
		r->ordered = false;	/* perf falls back to unordered too */
		return 0;
	}
	if (t == HM_RECORD_FINISHED_ROUND) {
		u64 limit = r->next_flush;

		ret = oq_flush(r, limit, r->opts.all_records ? nat : NULL, size, off, compressed);
		if (ret)
			return hm_reader__fail(r, ret, off, "out of memory");
		r->next_flush = r->max_ts;
		return 1;
	}
	if (hm_record__is_kernel(t) && (r->opts.all_records || t == PERF_RECORD_SAMPLE)) {
		struct hm_evsel *ev;
		u64 ts = hm_reader__rec_time(r, nat, size, t, &ev);
		struct hm_oq *q = &r->q;
		struct hm_qent *e;

		if (ts == (u64)-1)
			return 0;	/* no time: handed out as it comes */
		if (ts > r->max_ts)
			r->max_ts = ts;
		if (r->aswitch) {
			/* the ready records are all handed out: the other arena is free */
			r->acur = !r->acur;
			r->ar[r->acur].len = 0;
			r->aswitch = false;
		}
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
		if (r->qbytes > ORDER_MAX_BYTES) {
			/* like perf's OE_FLUSH__HALF */
			u64 lo = UINT64_MAX, hi = 0;

			for (size_t i = q->rend; i < q->n; i++) {
				if (q->ents[i].time < lo)
					lo = q->ents[i].time;
				if (q->ents[i].time > hi)
					hi = q->ents[i].time;
			}
			ret = oq_flush(r, lo + (hi - lo) / 2, NULL, 0, 0, false);
			if (ret)
				return hm_reader__fail(r, ret, off, "out of memory");
		}
		return 1;
	}
	return 0;
}

void hm_order__release(struct hm_reader *r)
{
	const struct hm_oq *q = &r->q;
	u64 keep = r->head;

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
	for (int i = 0; i < 2; i++)
		free(r->ar[i].p);
	free(r->q.ents);
	free(r->qtmp);
	free(r->qruns);
}
