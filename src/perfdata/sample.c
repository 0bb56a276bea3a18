// SPDX-License-Identifier: GPL-2.0-only
/*
 * PERF_RECORD_SAMPLE bodies and sample_id_all trailers, every sample_type bit
 * in kernel order (include/uapi/linux/perf_event.h).  One walker both checks
 * bounds and, for files of the other byte order, swaps the body in place so
 * that what the reader hands out is native.
 */
#include <errno.h>
#include "reader-int.h"

int hm_sample__id_pos(u64 t)
{
	int pos = 0;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	pos += !!(t & PERF_SAMPLE_IP);
	pos += !!(t & PERF_SAMPLE_TID);
	pos += !!(t & PERF_SAMPLE_TIME);
	pos += !!(t & PERF_SAMPLE_ADDR);
	return pos;
}

int hm_sample__is_pos(u64 t)
{
	int pos = 1;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	pos += !!(t & PERF_SAMPLE_CPU);
	pos += !!(t & PERF_SAMPLE_STREAM_ID);
	return pos;
}

/* 16-byte stores (GNU C vectors; may_alias: they store into the struct's fields). */
typedef u64 hm_v2 __attribute__((vector_size(16), may_alias, aligned(8)));

void hm_sample__init(const struct hm_evsel *e, struct hm_sample *s)
{
	hm_v2 *v = (hm_v2 *)s, z = { 0, 0 };
	size_t i = 0;

	/*
	 * Once per record: a memset of this size compiles to rep stos, whose
	 * start-up costs more than the stores (written four to a step so that
	 * the loop is not turned back into a memset).
	 */
	for (; i + 4 <= sizeof(*s) / sizeof(hm_v2); i += 4) {
		v[i] = z;
		v[i + 1] = z;
		v[i + 2] = z;
		v[i + 3] = z;
	}
	memset(v + i, 0, sizeof(*s) - i * sizeof(hm_v2));
	s->evsel = e;
	s->pid = s->tid = (u32)-1;
	s->cpu = (u32)-1;
	s->time = (u64)-1;
	s->data_src = HM_MEM_DATA_SRC_NONE;
	if (e) {
		s->period = e->attr.sample_period;
	}
}

/*
 * struct perf_branch_entry's flag bitfield, from a machine of the other byte
 * order, after the u64 byte swap: a big-endian compiler allocates the fields
 * from the most significant bit, so each sits at the mirrored position with
 * its value in natural order.  Move every field back (perf's
 * evsel__bitfield_swap_branch_flags, little-endian host branch).  The fields
 * are those of the uapi struct: mispred:1 predicted:1 in_tx:1 abort:1
 * cycles:16 type:4 spec:2 new_type:4 priv:3 reserved:31.  perf 6.1 moves
 * spec..reserved as one 40-bit field (fixed in later perf); bits 0-23
 * (mispred..type) come out the same either way.
 */
u64 hm_branch_flags__unmirror(u64 v)
{
	static const u8 field[][2] = {	/* little-endian pos, size */
		{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 },
		{ 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 },
	};
	u64 r = 0;

	for (size_t i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		unsigned pos = field[i][0], size = field[i][1];

		r |= ((v >> (64 - pos - size)) & ((1ULL << size) - 1)) << pos;
	}
	return r;
}

struct walk {
	u8	*p, *start, *end;
	bool	sw;
};

#define NEED(w, n) do { if ((u64)((w)->end - (w)->p) < (u64)(n)) goto out_bad; } while (0)

static inline u64 rd64(struct walk *w)
{
	u64 v = hm_ld64(w->p);

	if (w->sw) {
		v = bswap_64(v);
		hm_st64(w->p, v);
	}
	w->p += 8;
	return v;
}

/* two u32 in one u64 slot (TID, CPU) */
static inline void rd32x2(struct walk *w, u32 *a, u32 *b)
{
	u32 x = hm_ld32(w->p), y = hm_ld32(w->p + 4);

	if (w->sw) {
		x = bswap_32(x);
		y = bswap_32(y);
		hm_st32(w->p, x);
		hm_st32(w->p + 4, y);
	}
	*a = x;
	*b = y;
	w->p += 8;
}

static int walk_regs(struct walk *w, u64 mask, u64 *abi)
{
	u64 n;

	NEED(w, 8);
	*abi = rd64(w);
	if (*abi) {
		n = __builtin_popcountll(mask);
		NEED(w, n * 8);
		for (u64 i = 0; i < n; i++)
			rd64(w);
	}
	return 0;
out_bad:
	return -EINVAL;
}

static int walk_read(struct walk *w, u64 rf, struct hm_sample *s)
{
	if (rf & PERF_FORMAT_GROUP) {
		u64 nr, per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

		NEED(w, 8);
		s->read = (const u64 *)w->p;
		nr = rd64(w);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) {
			NEED(w, 8);
			rd64(w);
		}
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
			NEED(w, 8);
			rd64(w);
		}
		if (nr > (u64)(w->end - w->p) / (8 * per))
			goto out_bad;
		for (u64 i = 0; i < nr * per; i++)
			rd64(w);
		s->read_nr = nr;
	} else {
		u64 n = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			!!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
			!!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

		NEED(w, n * 8);
		s->read = (const u64 *)w->p;
		for (u64 i = 0; i < n; i++)
			rd64(w);
		s->read_nr = 1;
	}
	return 0;
out_bad:
	return -EINVAL;
}

/* The sample_type bits of one u64 each; the others have a size of their own. */
#define FIXED_BITS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
		    PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | \
		    PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR | \
		    PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

/*
 * Inline: without -mpopcnt, __builtin_popcountll is a call into libgcc
 * (a tenth of the walk's instructions, once per sample).
 */
static inline u32 popcount64(u64 x)
{
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (u32)((x * 0x0101010101010101ULL) >> 56);
}

/*
 * hm_sample__walk() of a native body whose sample_type has fixed-size
 * fields only (memory samples: ip, tid, time, addr, id, cpu, period,
 * weight, data_src, phys_addr): one bounds check, then the fields in
 * order.  Returns false when it does not apply (the walk checks each field).
 */
static bool walk_fixed(u64 t, const u8 *p, u32 size, struct hm_sample *s)
{
	u32 n;
	u64 v;

	if (t & ~(u64)FIXED_BITS)
		return false;
	n = popcount64(t) - ((t & PERF_SAMPLE_WEIGHT) && (t & PERF_SAMPLE_WEIGHT_STRUCT));
	if ((u64)n * 8 > size)
		return false;
	s->sample_type = t;
#define NEXT() (v = hm_ld64(p), p += 8, v)
	if (t & PERF_SAMPLE_IDENTIFIER)
		s->id = NEXT();
	if (t & PERF_SAMPLE_IP)
		s->ip = NEXT();
	if (t & PERF_SAMPLE_TID) {
		s->pid = hm_ld32(p);
		s->tid = hm_ld32(p + 4);
		p += 8;
	}
	if (t & PERF_SAMPLE_TIME)
		s->time = NEXT();
	if (t & PERF_SAMPLE_ADDR)
		s->addr = NEXT();
	if (t & PERF_SAMPLE_ID)
		s->id = NEXT();
	if (t & PERF_SAMPLE_STREAM_ID)
		s->stream_id = NEXT();
	if (t & PERF_SAMPLE_CPU) {
		s->cpu = hm_ld32(p);
		p += 8;
	}
	if (t & PERF_SAMPLE_PERIOD)
		s->period = NEXT();
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		v = hm_ld64(p);
		p += 8;
		if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->weight = (u32)v;
			s->ins_lat = (u16)(v >> 32);
			s->weight3 = (u16)(v >> 48);
		} else {
			s->weight = v;
		}
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		s->data_src = NEXT();
	if (t & PERF_SAMPLE_TRANSACTION)
		s->transaction = NEXT();
	if (t & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = NEXT();
	if (t & PERF_SAMPLE_CGROUP)
		s->cgroup = NEXT();
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = NEXT();
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = NEXT();
#undef NEXT
	return true;
}

/* hm_sample__walk() field by field (apart: the fixed walk needs no registers saved). */
static __attribute__((noinline)) int walk_all(const struct hm_evsel *e, void *body, u32 size,
					       bool swap, struct hm_sample *s, u32 *bad)
{
	const struct perf_event_attr *a = &e->attr;
	u64 t = a->sample_type;
	struct walk w = { .p = body, .start = body, .end = (u8 *)body + size, .sw = swap };
	u64 v;

	s->sample_type = t;
	if (t & PERF_SAMPLE_IDENTIFIER) {
		NEED(&w, 8);
		s->id = rd64(&w);
	}
	if (t & PERF_SAMPLE_IP) {
		NEED(&w, 8);
		s->ip = rd64(&w);
	}
	if (t & PERF_SAMPLE_TID) {
		NEED(&w, 8);
		rd32x2(&w, &s->pid, &s->tid);
	}
	if (t & PERF_SAMPLE_TIME) {
		NEED(&w, 8);
		s->time = rd64(&w);
	}
	if (t & PERF_SAMPLE_ADDR) {
		NEED(&w, 8);
		s->addr = rd64(&w);
	}
	if (t & PERF_SAMPLE_ID) {
		NEED(&w, 8);
		s->id = rd64(&w);
	}
	if (t & PERF_SAMPLE_STREAM_ID) {
		NEED(&w, 8);
		s->stream_id = rd64(&w);
	}
	if (t & PERF_SAMPLE_CPU) {
		u32 res;

		NEED(&w, 8);
		rd32x2(&w, &s->cpu, &res);
	}
	if (t & PERF_SAMPLE_PERIOD) {
		NEED(&w, 8);
		s->period = rd64(&w);
	}
	if (t & PERF_SAMPLE_READ) {
		if (walk_read(&w, a->read_format, s))
			goto out_bad;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		NEED(&w, 8);
		v = rd64(&w);
		if (v > (u64)(w.end - w.p) / 8)
			goto out_bad;
		s->callchain_nr = v;
		s->callchain = (const u64 *)w.p;
		for (u64 i = 0; i < v; i++)
			rd64(&w);
	}
	if (t & PERF_SAMPLE_RAW) {
		u32 rs;

		NEED(&w, 4);
		rs = hm_sw32(hm_ld32(w.p), swap);
		if (swap)
			hm_st32(w.p, rs);
		w.p += 4;
		NEED(&w, rs);
		s->raw_size = rs;
		s->raw = w.p;
		w.p += rs;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		u64 per = 3 + !!(a->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS);

		NEED(&w, 8);
		v = rd64(&w);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			NEED(&w, 8);
			s->branch_hw_idx = rd64(&w);
		} else {
			s->branch_hw_idx = (u64)-1;
		}
		if (v > (u64)(w.end - w.p) / (8 * per))
			goto out_bad;
		s->branch_nr = v;
		s->branch = (const struct hm_branch_entry *)w.p;
		for (u64 i = 0; i < v * per; i++) {
			u64 f = rd64(&w);

			/* entries first (from, to, flags), then the counters */
			if (swap && i < v * 3 && i % 3 == 2)
				hm_st64(w.p - 8, hm_branch_flags__unmirror(f));
		}
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		if (walk_regs(&w, a->sample_regs_user, &s->user_regs_abi))
			goto out_bad;
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		NEED(&w, 8);
		v = rd64(&w);
		NEED(&w, v);
		w.p += v;	/* raw stack bytes, never swapped */
		s->user_stack_size = v;
		if (v) {
			NEED(&w, 8);
			v = rd64(&w);	/* dyn_size */
			if (v < s->user_stack_size)
				s->user_stack_size = v;
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		NEED(&w, 8);
		v = rd64(&w);
		if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->weight = (u32)v;
			s->ins_lat = (u16)(v >> 32);
			s->weight3 = (u16)(v >> 48);
		} else {
			s->weight = v;
		}
	}
	if (t & PERF_SAMPLE_DATA_SRC) {
		NEED(&w, 8);
		s->data_src = rd64(&w);
	}
	if (t & PERF_SAMPLE_TRANSACTION) {
		NEED(&w, 8);
		s->transaction = rd64(&w);
	}
	if (t & PERF_SAMPLE_REGS_INTR) {
		if (walk_regs(&w, a->sample_regs_intr, &s->intr_regs_abi))
			goto out_bad;
	}
	if (t & PERF_SAMPLE_PHYS_ADDR) {
		NEED(&w, 8);
		s->phys_addr = rd64(&w);
	}
	if (t & PERF_SAMPLE_CGROUP) {
		NEED(&w, 8);
		s->cgroup = rd64(&w);
	}
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE) {
		NEED(&w, 8);
		s->data_page_size = rd64(&w);
	}
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE) {
		NEED(&w, 8);
		s->code_page_size = rd64(&w);
	}
	if (t & PERF_SAMPLE_AUX) {
		NEED(&w, 8);
		v = rd64(&w);
		NEED(&w, v);
		s->aux_size = v;
		w.p += v;
	}
	return 0;
out_bad:
	if (bad)
		*bad = (u32)(w.p - w.start);
	return -EINVAL;
}

int hm_sample__walk(const struct hm_evsel *e, void *body, u32 size, bool swap,
		    struct hm_sample *s, u32 *bad)
{
	if (!swap && walk_fixed(e->attr.sample_type, body, size, s))
		return 0;
	return walk_all(e, body, size, swap, s, bad);
}

int hm_sample__walk_id(const struct hm_evsel *e, void *body, u32 size, bool swap,
		       struct hm_sample *s)
{
	u64 t = e->attr.sample_type;
	u32 n = 0;
	struct walk w;

	n += !!(t & PERF_SAMPLE_TID);
	n += !!(t & PERF_SAMPLE_TIME);
	n += !!(t & PERF_SAMPLE_ID);
	n += !!(t & PERF_SAMPLE_STREAM_ID);
	n += !!(t & PERF_SAMPLE_CPU);
	n += !!(t & PERF_SAMPLE_IDENTIFIER);
	if ((u64)n * 8 > size)
		return -EINVAL;
	w.start = body;
	w.end = (u8 *)body + size;
	w.p = w.end - n * 8;
	w.sw = swap;
	s->sample_type = t & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	if (t & PERF_SAMPLE_TID)
		rd32x2(&w, &s->pid, &s->tid);
	if (t & PERF_SAMPLE_TIME)
		s->time = rd64(&w);
	if (t & PERF_SAMPLE_ID)
		s->id = rd64(&w);
	if (t & PERF_SAMPLE_STREAM_ID)
		s->stream_id = rd64(&w);
	if (t & PERF_SAMPLE_CPU) {
		u32 res;

		rd32x2(&w, &s->cpu, &res);
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		s->id = rd64(&w);
	return 0;
}

void hm_evsel__derive(struct hm_evsel *e)
{
	e->id_pos = hm_sample__id_pos(e->attr.sample_type);
	e->is_pos = hm_sample__is_pos(e->attr.sample_type);
}

int hm_sample__decode(const struct hm_evsel *e, const void *rec, u32 size, struct hm_sample *s)
{
	hm_sample__init(e, s);
	if (!rec || size < 8)
		return -EINVAL;
	s->misc = hm_ld16((const u8 *)rec + 4);
	return hm_sample__walk(e, (u8 *)rec + 8, size - 8, false, s, NULL);
}
