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
#include "reader-int.h"

#define ORDER_MAX_BYTES	(4u << 20)


static inline bool qent_lt(const struct hm_qent *x, const struct hm_qent *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/* Sort @a[0..n) by (time, seq): insertion-sorted runs of 16, then merged bottom-up. */
static int sort_ents(struct hm_reader *r, struct hm_qent *a, size_t n)
{
	struct hm_qent *src = a, *dst, *t;
	size_t w, i, j;

	if (n > r->qtmp_cap) {
		t = realloc(r->qtmp, n * sizeof(*t));
		if (!t)
			return -ENOMEM;
		r->qtmp = t;
		r->qtmp_cap = n;
	}
	dst = r->qtmp;
	for (i = 0; i < n; i += 16) {
		size_t end = i + 16 < n ? i + 16 : n;

		for (j = i + 1; j < end; j++) {
			struct hm_qent x = a[j];
			size_t k = j;

			while (k > i && qent_lt(&x, &a[k - 1])) {
				a[k] = a[k - 1];
				k--;
			}
			a[k] = x;
		}
	}
	for (w = 16; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t l = i, m = i + w < n ? i + w : n, e = i + 2 * w < n ? i + 2 * w : n, rr = m, o = i;

			while (l < m && rr < e)
				dst[o++] = qent_lt(&src[rr], &src[l]) ? src[rr++] : src[l++];
			while (l < m)
				dst[o++] = src[l++];
			while (rr < e)
				dst[o++] = src[rr++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	return 0;
}

static int ents_reserve(struct hm_oq *q, size_t n)
{
	if (n > q->cap) {
		size_t c = q->cap ? q->cap : 1024;
		struct hm_qent *e;

		while (c < n)
			c *= 2;
		e = realloc(q->ents, c * sizeof(*e));
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

static int oq_push(struct hm_reader *r, struct hm_oq *q, const void *rec, u32 len, u64 time,
		   u64 seq, u64 off, bool compressed, const struct hm_evsel *ev)
{
	u32 at;
	int err;

	if (q->n == q->cap && ents_reserve(q, q->n + 1) < 0)
		return -ENOMEM;
	err = arena_put(r, rec, len, &at);
	if (err)
		return err;
	q->ents[q->n++] = (struct hm_qent){ .time = time, .seq = seq, .file_offset = off,
					 .off = at, .len = len, .arena = (u8)r->acur,
					 .compressed = compressed, .evidx = ev ? ev->idx : -1,
					 .evgen = r->ev_gen };
	return 0;
}

/*
 * Move everything with time <= @limit to the ready queue, sorted.  The
 * records left queued keep their bytes where they are (only their entries
 * move): when all of them are in the current arena, the other one (whose
 * records are all handed out before the next record is queued) takes the
 * next records; else the few in the other arena are copied over first.
 */
static int oq_flush(struct hm_reader *r, u64 limit, const u8 *tail, u32 tail_len, u64 tail_off,
		    bool tail_compressed)
{
	struct hm_oq *cur = &r->q[r->qcur], *nxt = &r->q[!r->qcur];
	size_t k = 0, i;
	int err;

	for (i = 1; i < cur->n; i++)
		if (qent_lt(&cur->ents[i], &cur->ents[i - 1])) {
			err = sort_ents(r, cur->ents, cur->n);
			if (err)
				return err;
			break;
		}
	while (k < cur->n && cur->ents[k].time <= limit)
		k++;
	if (ents_reserve(nxt, cur->n - k) < 0)
		return -ENOMEM;
	nxt->n = 0;
	r->qbytes = 0;
	for (i = k; i < cur->n; i++) {
		struct hm_qent *e = &nxt->ents[nxt->n++];

		*e = cur->ents[i];
		if (e->arena != r->acur) {
			const struct hm_oarena *o = &r->ar[e->arena];

			err = arena_put(r, o->p + e->off, e->len, &e->off);
			if (err)
				return err;
			e->arena = (u8)r->acur;
		}
		r->qbytes += (e->len + 7) & ~7u;
	}
	cur->n = k;
	if (tail) {
		err = oq_push(r, cur, tail, tail_len, 0, 0, tail_off, tail_compressed, NULL);
		if (err)
			return err;
	}
	r->aswitch = true;
	/* cur becomes the ready queue, nxt accumulates */
	r->qcur = !r->qcur;
	r->ready_pos = 0;
	return 0;
}

static struct hm_oq *ready_q(struct hm_reader *r)
{
	return &r->q[!r->qcur];
}

int hm_order__pop(struct hm_reader *r, struct hm_event *ev)
{
	struct hm_oq *rq = ready_q(r);
	int ret;

	if (r->ready_pos < rq->n) {
		struct hm_qent *e = &rq->ents[r->ready_pos++];

		/* the evsel found when it was queued, unless ids changed since (pipe headers) */
		r->dec_ev_set = e->evidx >= 0 && e->evgen == r->ev_gen && e->evidx < r->nr_ev &&
				!r->spe;
		r->dec_ev = r->dec_ev_set ? r->ev[e->evidx] : NULL;
		ret = hm_reader__decode(r, r->ar[e->arena].p + e->off, e->len, e->file_offset,
					e->compressed, ev);
		r->dec_ev_set = false;
		if (ret)
			return ret;
		r->st.bytes += e->len;
		return 1;
	}
	if (rq->n) {
		rq->n = 0;
		r->ready_pos = 0;
	}
	return 0;
}

int hm_order__drain(struct hm_reader *r, u64 off)
{
	int ret;

	if (!r->q[r->qcur].n)
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
		struct hm_oq *q = &r->q[r->qcur];

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
		ret = oq_push(r, q, nat, size, ts, r->seq++, off, compressed, ev);
		if (ret)
			return hm_reader__fail(r, ret, off, "out of memory");
		r->qbytes += (size + 7) & ~7u;
		if (r->qbytes > ORDER_MAX_BYTES) {
			/* like perf's OE_FLUSH__HALF */
			u64 lo = UINT64_MAX, hi = 0;

			for (size_t i = 0; i < q->n; i++) {
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

void hm_order__exit(struct hm_reader *r)
{
	for (int i = 0; i < 2; i++) {
		free(r->ar[i].p);
		free(r->q[i].ents);
	}
	free(r->qtmp);
}
