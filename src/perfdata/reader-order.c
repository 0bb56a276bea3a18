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

/* The timestamp of a native kernel record without a full decode; -1: none. */
static u64 rec_time(struct hm_reader *r, const u8 *rec, u32 size, u32 type)
{
	struct hm_evsel *e = hm_reader__rec_evsel(r, type, rec, size, false);
	u64 t, pos;

	if (!e)
		return (u64)-1;
	t = e->attr.sample_type;
	if (!(t & PERF_SAMPLE_TIME))
		return (u64)-1;
	if (type == PERF_RECORD_SAMPLE) {
		pos = 8 + 8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
			       !!(t & PERF_SAMPLE_TID));
	} else {
		u32 n;

		if (!e->attr.sample_id_all)
			return (u64)-1;
		n = !!(t & PERF_SAMPLE_TID) + 1 + !!(t & PERF_SAMPLE_ID) +
		    !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
		    !!(t & PERF_SAMPLE_IDENTIFIER);
		if ((u64)n * 8 + 8 > size)
			return (u64)-1;
		pos = size - n * 8 + 8 * !!(t & PERF_SAMPLE_TID);
	}
	if (pos + 8 > size)
		return (u64)-1;
	return hm_ld64(rec + pos);
}

static int qent_cmp(const void *a, const void *b)
{
	const struct hm_qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int oq_push(struct hm_oq *q, const void *rec, u32 len, u64 time, u64 seq, u64 off,
		   bool compressed)
{
	size_t need = q->alen + ((len + 7) & ~7u);

	if (need > q->acap) {
		size_t c = q->acap ? q->acap : 65536;
		u8 *p;

		while (c < need)
			c *= 2;
		p = realloc(q->arena, c);
		if (!p)
			return -ENOMEM;
		q->arena = p;
		q->acap = c;
	}
	if (q->n == q->cap) {
		size_t c = q->cap ? q->cap * 2 : 1024;
		struct hm_qent *e = realloc(q->ents, c * sizeof(*e));

		if (!e)
			return -ENOMEM;
		q->ents = e;
		q->cap = c;
	}
	memcpy(q->arena + q->alen, rec, len);
	q->ents[q->n++] = (struct hm_qent){ .time = time, .seq = seq, .file_offset = off,
					 .off = (u32)q->alen, .len = len,
					 .compressed = compressed };
	q->alen = need;
	return 0;
}

/* Move everything with time <= @limit to the ready queue, sorted. */
static int oq_flush(struct hm_reader *r, u64 limit, const u8 *tail, u32 tail_len, u64 tail_off,
		    bool tail_compressed)
{
	struct hm_oq *cur = &r->q[r->qcur], *nxt = &r->q[!r->qcur];
	size_t k = 0;
	int err;

	for (size_t i = 1; i < cur->n; i++)
		if (qent_cmp(&cur->ents[i - 1], &cur->ents[i]) > 0) {
			qsort(cur->ents, cur->n, sizeof(*cur->ents), qent_cmp);
			break;
		}
	while (k < cur->n && cur->ents[k].time <= limit)
		k++;
	nxt->n = nxt->alen = 0;
	for (size_t i = k; i < cur->n; i++) {
		struct hm_qent *e = &cur->ents[i];

		err = oq_push(nxt, cur->arena + e->off, e->len, e->time, e->seq,
			      e->file_offset, e->compressed);
		if (err)
			return err;
	}
	cur->n = k;
	if (tail) {
		err = oq_push(cur, tail, tail_len, 0, 0, tail_off, tail_compressed);
		if (err)
			return err;
	}
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

		ret = hm_reader__decode(r, rq->arena + e->off, e->len, e->file_offset,
					e->compressed, ev);
		if (ret)
			return ret;
		r->st.bytes += e->len;
		return 1;
	}
	if (rq->n) {
		rq->n = rq->alen = 0;
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
		u64 ts = rec_time(r, nat, size, t);
		struct hm_oq *q = &r->q[r->qcur];

		if (ts == (u64)-1)
			return 0;	/* no time: handed out as it comes */
		if (ts > r->max_ts)
			r->max_ts = ts;
		ret = oq_push(q, nat, size, ts, r->seq++, off, compressed);
		if (ret)
			return hm_reader__fail(r, ret, off, "out of memory");
		if (q->alen > ORDER_MAX_BYTES) {
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
		free(r->q[i].arena);
		free(r->q[i].ents);
	}
}
