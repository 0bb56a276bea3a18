// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer's records: raw ones as they come (byte-swapped when the output
 * is of the other byte order, for the layouts known in record-swap.c),
 * AUXTRACE with its payload, and the typed ones (SAMPLE, COMM, MMAP2,
 * FINISHED_ROUND) laid out from the event's attr.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "perfdata/record-swap.h"
#include "perfdata/writer-int.h"

/* id_hdr_size of the sample_id_all trailer of the first event (0: none) */
static u32 trailer_size(const struct hm_writer *w)
{
	u64 st;

	if (!w->nr_ev || !w->ev[0].attr.sample_id_all)
		return 0;
	st = w->ev[0].attr.sample_type;
	return 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
		    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
		    !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
}

/*
 * The records the writer takes in the other byte order, by the fixed part
 * each needs (shorter ones are refused); 0: a type it does not take (but
 * for a header-only record).
 */
static u32 swap_min(u32 type)
{
	switch (type) {
	case PERF_RECORD_MMAP:		return 48;
	case PERF_RECORD_MMAP2:		return 80;
	case PERF_RECORD_COMM:
	case PERF_RECORD_LOST:
		return 24;
	case PERF_RECORD_FORK: case PERF_RECORD_EXIT:
	case PERF_RECORD_AUX:
	case PERF_RECORD_THROTTLE: case PERF_RECORD_UNTHROTTLE:
		return 32;
	case PERF_RECORD_ITRACE_START: case PERF_RECORD_SWITCH_CPU_WIDE:
	case PERF_RECORD_LOST_SAMPLES: case PERF_RECORD_CGROUP:
		return 16;
	case PERF_RECORD_KSYMBOL:	return 32;
	case PERF_RECORD_NAMESPACES: case PERF_RECORD_BPF_EVENT:
	case PERF_RECORD_TEXT_POKE:
		return 24;
	case HM_RECORD_EVENT_UPDATE:	return 24;
	case HM_RECORD_CPU_MAP:		return 10;	/* the map's type */
	case PERF_RECORD_SWITCH:
	case HM_RECORD_FINISHED_ROUND: case HM_RECORD_FINISHED_INIT:
	case 21:			/* AUX_OUTPUT_HW_ID */
	case HM_RECORD_THREAD_MAP:
	case HM_RECORD_ID_INDEX: case HM_RECORD_STAT_ROUND: case HM_RECORD_STAT_CONFIG:
	case HM_RECORD_AUXTRACE_INFO: case HM_RECORD_AUXTRACE:
	case HM_RECORD_AUXTRACE_ERROR:
	case HM_RECORD_TIME_CONV:
		return 8;
	default:
		return 0;
	}
}

static void sw_at(u8 *p, u32 o, u32 end, unsigned n)
{
	if (o + n > end)
		return;
	if (n == 8) {
		u64 v;

		memcpy(&v, p + o, 8);
		v = bswap_64(v);
		memcpy(p + o, &v, 8);
	} else {
		u32 v;

		memcpy(&v, p + o, 4);
		v = bswap_32(v);
		memcpy(p + o, &v, 4);
	}
}

/*
 * Byte-swap a native record of a type the writer takes (the inverse of what
 * readers do with a foreign file); the sample_id_all trailer of kernel
 * records laid out from the first event.  Returns false for other types.
 */
static bool swap_known(const struct hm_writer *w, u8 *p, u32 size)
{
	u32 type, tr, end, min, o;
	u16 misc, h16;

	memcpy(&type, p, 4);
	memcpy(&misc, p + 4, 2);
	tr = type < PERF_RECORD_MAX && type != PERF_RECORD_SAMPLE ? trailer_size(w) : 0;
	if (tr > size - 8)
		return false;
	end = size - tr;
	min = swap_min(type);
	if (!min && size != 8)
		return false;
	if (end < min)
		return false;
	hm_record__swap_body(p, type, misc, size, end, false);
	if (tr) {
		u64 st = w->ev[0].attr.sample_type;

		o = end;
		if (st & PERF_SAMPLE_TID) {
			sw_at(p, o, size, 4); sw_at(p, o + 4, size, 4); o += 8;
		}
		if (st & PERF_SAMPLE_TIME) {
			sw_at(p, o, size, 8); o += 8;
		}
		if (st & PERF_SAMPLE_ID) {
			sw_at(p, o, size, 8); o += 8;
		}
		if (st & PERF_SAMPLE_STREAM_ID) {
			sw_at(p, o, size, 8); o += 8;
		}
		if (st & PERF_SAMPLE_CPU) {
			sw_at(p, o, size, 4); sw_at(p, o + 4, size, 4); o += 8;
		}
		if (st & PERF_SAMPLE_IDENTIFIER)
			sw_at(p, o, size, 8);
	}
	memcpy(&h16, p + 6, 2);
	hm_writer__rec_head(w, p, type, misc, h16);
	return true;
}

bool hm_writer__swappable(const struct hm_writer *w, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	u8 tmp[REC_MAX];

	if (!w || !rec || size < sizeof(*h) || h->size != size || size > REC_MAX)
		return false;
	if (!w->swap)
		return true;
	memcpy(tmp, rec, size);
	return swap_known(w, tmp, (u32)size);
}

/*
 * perf's own records (user types) whose size is not a multiple of 8, such as
 * the 20-byte CPU_MAP of perf 4.16's pipe mode: perf 7.x refuses them ("not
 * 8-byte aligned"), so they go out padded with zeros, as perf >= 4.x writes
 * them itself (their contents say their own length; the tail is unread).
 */
static int write_padded(struct hm_writer *w, const void *rec, size_t size)
{
	size_t asize = (size + 7) & ~(size_t)7;
	u8 *p = calloc(1, asize);
	u16 hsize = (u16)asize;
	int ret;

	if (!p)
		return -ENOMEM;
	memcpy(p, rec, size);
	memcpy(p + 6, &hsize, sizeof(hsize));
	ret = hm_writer__write(w, p, asize);
	free(p);
	return ret;
}

int hm_writer__write(struct hm_writer *w, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	bool round = h && size >= sizeof(*h) && h->type == HM_RECORD_FINISHED_ROUND;
	int err = hm_writer__begin(w);

	if (err)
		return err;
	if (!rec || size < sizeof(*h) || h->size < sizeof(*h) || size < h->size) {
		hm_err("%s: record of %zu bytes with header size %u; a record is at least 8 bytes and holds its header size",
		       w->path, size, rec && size >= sizeof(*h) ? h->size : 0);
		return -EINVAL;
	}
	if (h->size % 8 && h->type >= HM_RECORD_HEADER_ATTR && h->size == size &&
	    size <= REC_MAX - 7)
		return write_padded(w, rec, size);
	if (w->swap) {
		/* Only records whose layout we know can be swapped. */
		u8 *p;

		if (h->size != size || !(p = hm_writer__reserve(w, size)))
			goto noswap;
		memcpy(p, rec, size);
		if (!swap_known(w, p, (u32)size))
			goto noswap;
		if (w->zc && round)
			return hm_writer__put_data(w, p, size, true);
		w->buf_len += size;
		if (!w->zc)
			w->data_size += size;
		return 0;
noswap:
		if (w->err)
			return w->err;
		hm_err("%s: raw record of type %u cannot be byte-swapped; write it with the typed calls",
		       w->path, h->type);
		return -EOPNOTSUPP;
	}
	/* whole records only in a compressed chunk; FINISHED_ROUND stays out of it */
	if (w->zc && !round && !hm_writer__reserve(w, size))
		return w->err ? w->err : -EIO;
	return hm_writer__put_data(w, rec, size, round);
}

int hm_writer__write_auxtrace(struct hm_writer *w, const void *rec, size_t size,
			      const void *payload, u64 n)
{
	const struct perf_event_header *h = rec;
	u8 tmp[64];
	int err = hm_writer__begin(w);

	if (err)
		return err;
	if (!rec || size != 48 || h->size != 48 || h->type != HM_RECORD_AUXTRACE ||
	    (n && !payload)) {
		hm_err("%s: an AUXTRACE record is 48 bytes followed by its payload", w->path);
		return -EINVAL;
	}
	if (w->swap) {
		memcpy(tmp, rec, size);
		swap_known(w, tmp, (u32)size);
		rec = tmp;
	}
	if (!w->pipe && !w->bare) {
		/* the AUXTRACE feature: u64 nr, then {file offset, record size} per record */
		struct hm_fwbuf *b = w->feat[HM_FEAT_AUXTRACE];
		u64 nr;

		if (w->zc && hm_writer__flush(w))
			return w->err;
		if (!b) {
			b = calloc(1, sizeof(*b));
			if (!b)
				return -ENOMEM;
			hm_fwbuf__init(b);
			b->swap = w->swap;
			hm_fwbuf__put_u64(b, 0);
			w->feat[HM_FEAT_AUXTRACE] = b;
		}
		hm_fwbuf__put_u64(b, w->data_offset + w->data_size);
		hm_fwbuf__put_u64(b, size);	/* the record header's size, as perf */
		if (b->err)
			return b->err;
		nr = (b->len - 8) / 16;
		if (w->swap)
			nr = bswap_64(nr);
		memcpy(b->p, &nr, 8);
	}
	/* perf writes AUX data beside the compressed stream, never into it */
	err = hm_writer__put_data(w, rec, size, true);
	if (!err && n)
		err = hm_writer__put_data(w, payload, n, true);
	return err;
}

/* A bounded cursor over the staging area of one record. */
struct rec {
	u8	*p;
	size_t	len;
	bool	overflow;
	bool	swap;
};

static void rput(struct rec *r, const void *d, size_t n)
{
	if (r->overflow || r->len + n > REC_MAX) {
		r->overflow = true;
		return;
	}
	if (d)
		memcpy(r->p + r->len, d, n);
	else
		memset(r->p + r->len, 0, n);
	r->len += n;
}

static void rput64(struct rec *r, u64 v)
{
	if (r->swap)
		v = bswap_64(v);
	rput(r, &v, sizeof(v));
}

static void rput32(struct rec *r, u32 v)
{
	if (r->swap)
		v = bswap_32(v);
	rput(r, &v, sizeof(v));
}

static void rput32x2(struct rec *r, u32 a, u32 b)
{
	rput32(r, a);
	rput32(r, b);
}

static void rput64s(struct rec *r, const u64 *v, u64 n)
{
	u64 i;

	if (!r->swap) {
		if (n > REC_MAX / 8)
			r->overflow = true;
		else
			rput(r, v, (size_t)n * 8);
		return;
	}
	for (i = 0; i < n && !r->overflow; i++)
		rput64(r, v[i]);
}

static void rzero(struct rec *r, u64 n)
{
	if (n > REC_MAX) {
		r->overflow = true;
		return;
	}
	rput(r, NULL, (size_t)n);
}

/*
 * struct perf_branch_entry's flag bitfield as a big-endian compiler lays it
 * out: every field at the mirrored position, its value in natural order
 * (perf undoes it with evsel__bitfield_swap_branch_flags).
 */
static u64 be_branch_flags(u64 v)
{
	static const u8 field[][2] = {	/* LE pos, size */
		{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 },
		{ 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 },
	};
	u64 r = 0;
	size_t i;

	for (i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		unsigned pos = field[i][0], size = field[i][1];
		u64 val = (v >> pos) & ((1ULL << size) - 1);

		r |= val << (64 - pos - size);
	}
	return r;
}

static int commit(struct hm_writer *w, struct rec *r, u32 type, u16 misc)
{
	if (r->overflow) {
		hm_err("%s: record of type %u larger than 64 KiB; shorten its callchain, raw or stack data",
		       w->path, type);
		return -E2BIG;
	}
	hm_writer__rec_head(w, r->p, type, misc, (u16)r->len);
	w->buf_len += r->len;
	if (!w->zc)
		w->data_size += r->len;
	return 0;
}

static int stage(struct hm_writer *w, struct rec *r)
{
	u8 *p = hm_writer__reserve(w, REC_MAX);

	if (!p)
		return w->err ? w->err : -EIO;
	r->p = p;
	r->len = sizeof(struct perf_event_header);
	r->overflow = false;
	r->swap = w->swap;
	return 0;
}

static u64 evsel_id(const struct hm_fw_evsel *e, u64 id)
{
	return id ? id : e->ids[0];
}

int hm_writer__write_sample(struct hm_writer *w, int idx, const struct hm_sample *s)
{
	const struct hm_fw_evsel *e;
	const struct perf_event_attr *a;
	struct rec r = { 0 };
	u64 st, n;
	int err = hm_writer__begin(w);

	if (err)
		return err;
	if (idx < 0 || idx >= w->nr_ev || !s)
		return -EINVAL;
	e = &w->ev[idx];
	a = &e->attr;
	st = a->sample_type;
	err = stage(w, &r);
	if (err)
		return err;

	if (st & PERF_SAMPLE_IDENTIFIER)
		rput64(&r, evsel_id(e, s->id));
	if (st & PERF_SAMPLE_IP)
		rput64(&r, s->ip);
	if (st & PERF_SAMPLE_TID)
		rput32x2(&r, s->pid, s->tid);
	if (st & PERF_SAMPLE_TIME) {
		rput64(&r, s->time);
		if (!w->time_seen || s->time < w->time_first)
			w->time_first = s->time;
		if (!w->time_seen || s->time > w->time_last)
			w->time_last = s->time;
		w->time_seen = true;
	}
	if (st & PERF_SAMPLE_ADDR)
		rput64(&r, s->addr);
	if (st & PERF_SAMPLE_ID)
		rput64(&r, evsel_id(e, s->id));
	if (st & PERF_SAMPLE_STREAM_ID)
		rput64(&r, s->stream_id);
	if (st & PERF_SAMPLE_CPU)
		rput32x2(&r, s->cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		rput64(&r, s->period);
	if (st & PERF_SAMPLE_READ) {
		/* s->read: the raw read block (group: starting with nr). */
		u64 rf = a->read_format, per;

		n = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		if (rf & PERF_FORMAT_GROUP) {
			u64 nr = s->read ? s->read[0] : s->read_nr;

			if (nr > REC_MAX / 8)
				r.overflow = true;
			else
				n += 1 + nr * per;
		} else {
			n += per;
		}
		if (!r.overflow) {
			if (s->read)
				rput64s(&r, s->read, n);
			else if (rf & PERF_FORMAT_GROUP) {
				rput64(&r, s->read_nr);
				rzero(&r, (n - 1) * 8);
			} else
				rzero(&r, n * 8);
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (s->callchain_nr > REC_MAX / 8)
			r.overflow = true;
		rput64(&r, s->callchain_nr);
		if (!r.overflow) {
			if (s->callchain)
				rput64s(&r, s->callchain, s->callchain_nr);
			else
				rzero(&r, s->callchain_nr * 8);
		}
	}
	if (st & PERF_SAMPLE_RAW) {
		/* The kernel pads raw data so that u32 size + data is 8-aligned. */
		u64 sz = s->raw_size;
		u64 padded = ((sz + 4 + 7) & ~7ULL) - 4;
		if (padded > REC_MAX)
			r.overflow = true;
		rput32(&r, (u32)padded);
		if (s->raw && !r.overflow)
			rput(&r, s->raw, sz);
		else
			rzero(&r, sz);
		rzero(&r, padded - sz);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (s->branch_nr > REC_MAX / 24)
			r.overflow = true;
		rput64(&r, s->branch_nr);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			rput64(&r, s->branch_hw_idx);
		if (!r.overflow) {
			if (s->branch && !r.swap)
				rput64s(&r, &s->branch[0].from, s->branch_nr * 3);
			else if (s->branch)
				for (n = 0; n < s->branch_nr; n++) {
					rput64(&r, s->branch[n].from);
					rput64(&r, s->branch[n].to);
					rput64(&r, be_branch_flags(s->branch[n].flags));
				}
			else
				rzero(&r, s->branch_nr * sizeof(struct hm_branch_entry));
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		rput64(&r, s->user_regs_abi);
		if (s->user_regs_abi)
			rzero(&r, (u64)__builtin_popcountll(a->sample_regs_user) * 8);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		u64 sz = (s->user_stack_size + 7) & ~7ULL;

		rput64(&r, sz);
		if (sz) {
			rzero(&r, sz);
			rput64(&r, s->user_stack_size);	/* dyn_size */
		}
	}
	if (st & PERF_SAMPLE_WEIGHT)
		rput64(&r, s->weight);
	else if (st & PERF_SAMPLE_WEIGHT_STRUCT)
		/* union perf_sample_weight: var1_dw | var2_w << 32 | var3_w << 48 */
		rput64(&r, (u64)(u32)s->weight | (u64)s->ins_lat << 32 | (u64)s->weight3 << 48);
	if (st & PERF_SAMPLE_DATA_SRC)
		rput64(&r, s->data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		rput64(&r, s->transaction);
	if (st & PERF_SAMPLE_REGS_INTR) {
		rput64(&r, s->intr_regs_abi);
		if (s->intr_regs_abi)
			rzero(&r, (u64)__builtin_popcountll(a->sample_regs_intr) * 8);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		rput64(&r, s->phys_addr);
	if (st & PERF_SAMPLE_CGROUP)
		rput64(&r, s->cgroup);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		rput64(&r, s->data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		rput64(&r, s->code_page_size);
	if (st & PERF_SAMPLE_AUX) {
		u64 sz = (s->aux_size + 7) & ~7ULL;

		rput64(&r, sz);
		rzero(&r, sz);
	}
	return commit(w, &r, PERF_RECORD_SAMPLE, s->misc);
}

/* sample_id_all trailer of a synthesized record, from the first evsel. */
static void trailer(struct hm_writer *w, struct rec *r, u32 pid, u32 tid)
{
	const struct hm_fw_evsel *e;
	u64 st;

	if (!w->nr_ev || !w->ev[0].attr.sample_id_all)
		return;
	e = &w->ev[0];
	st = e->attr.sample_type;
	if (st & PERF_SAMPLE_TID)
		rput32x2(r, pid, tid);
	if (st & PERF_SAMPLE_TIME)
		rput64(r, 0);
	if (st & PERF_SAMPLE_ID)
		rput64(r, e->ids[0]);
	if (st & PERF_SAMPLE_STREAM_ID)
		rput64(r, 0);
	if (st & PERF_SAMPLE_CPU)
		rput32x2(r, 0, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		rput64(r, e->ids[0]);
}

static void put_name(struct rec *r, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t len = (n + 7) & ~(size_t)7;

	rput(r, s, n);
	rzero(r, len - n);
}

int hm_writer__write_comm(struct hm_writer *w, u32 pid, u32 tid, const char *comm)
{
	struct rec r = { 0 };
	int err = hm_writer__begin(w);

	if (err)
		return err;
	if (!comm)
		return -EINVAL;
	err = stage(w, &r);
	if (err)
		return err;
	rput32x2(&r, pid, tid);
	put_name(&r, comm);
	trailer(w, &r, pid, tid);
	return commit(w, &r, PERF_RECORD_COMM, 0);
}

int hm_writer__write_mmap2(struct hm_writer *w, u32 pid, u32 tid, u64 start,
			   u64 len, u64 pgoff, u32 prot, u32 flags,
			   const char *filename, u16 misc)
{
	return hm_writer__write_mmap2_id(w, pid, tid, start, len, pgoff, prot, flags, filename,
					 misc, NULL);
}

int hm_writer__write_mmap2_id(struct hm_writer *w, u32 pid, u32 tid, u64 start,
			      u64 len, u64 pgoff, u32 prot, u32 flags,
			      const char *filename, u16 misc, const struct hm_file_id *id)
{
	static const struct hm_file_id none;
	struct rec r = { 0 };
	int err = hm_writer__begin(w);

	if (err)
		return err;
	if (!filename)
		return -EINVAL;
	err = stage(w, &r);
	if (err)
		return err;
	rput32x2(&r, pid, tid);
	rput64(&r, start);
	rput64(&r, len);
	rput64(&r, pgoff);
	if (!id)
		id = &none;
	rput32x2(&r, id->maj, id->min);
	rput64(&r, id->ino);
	rput64(&r, id->ino_generation);
	rput32x2(&r, prot, flags);
	put_name(&r, filename);
	trailer(w, &r, pid, tid);
	return commit(w, &r, PERF_RECORD_MMAP2, misc);
}

int hm_writer__write_finished_round(struct hm_writer *w)
{
	struct perf_event_header h = {
		.type = HM_RECORD_FINISHED_ROUND,
		.size = sizeof(h),
	};

	return hm_writer__write(w, &h, sizeof(h));
}
