// SPDX-License-Identifier: GPL-2.0-only
/* A file-mode perf.data read in ranges cut at FINISHED_ROUND; see hitmap/reader_range.h. */
#include <errno.h>
#include <stdlib.h>
#include <hitmap/log.h>
#include <hitmap/reader_range.h>
#include "reader-int.h"
#include "util/prefetch.h"

#define SB_BLOCK	(256u << 10)
#define ID_SLOTS	256u

/* Side-band records in the order the ordered reader gives them: blocks that never move. */
struct sb_block {
	struct sb_block	*next;
	size_t		used, cap;
	u8		data[];		/* entries: u32 size, u32 0, u64 off, record (8-aligned) */
};

struct sb_q {	/* a queued side-band record of the simulated ordering queue */
	u64	time, seq, off;
	u32	size;
	u8	*rec;
};

struct hm_range_scan {
	struct hm_reader	*r;
	struct sb_block		*first, *last;
	size_t			nr_sb;
	struct sb_q		*q;
	size_t			nr_q, cap_q;
	u64			seq, max_ts, next_flush;
	u64			round_start;
	bool			done;
	/* the kernel map (hm_range_cut.kload) */
	u64			*krel;		/* side-band indices of kernel MMAPs and KSYMBOLs */
	size_t			nr_krel, cap_krel;
	u64			vml_at1;	/* side-band index + 1 of the kernel image's MMAP */
	bool			vml_seen;	/* one read (perhaps still queued) */
	u64			vml_pgoff;
	u8			vml_bid[21];	/* its build-id's size, then the id (MMAP2) */
	bool			ksample;	/* a kernel sample read */
	bool			kt_set;		/* kt: the first kernel sample's time, after vml_seen */
	u64			kt, kguess;	/* kguess: the side-band records before kt */
	/* every event's samples laid out alike: their fields at fixed offsets */
	bool			fast, fast_first;	/* fast_first: no id to look up */
	u32			id_at, time_at, cpu_at, ip_at;	/* 0: not in the sample */
	struct { u64 id; u8 st; } idc[ID_SLOTS];	/* st: 0 empty, 1 known, 2 unknown */
};

static bool side_band(u32 t)
{
	return t == PERF_RECORD_MMAP || t == PERF_RECORD_MMAP2 || t == PERF_RECORD_COMM ||
	       t == PERF_RECORD_FORK || t == PERF_RECORD_EXIT || t == PERF_RECORD_KSYMBOL;
}


/* Kernel code (a lookup in the kernel maps): a kernel-mode sample or an ip in the kernel half. */
static bool kernel_sample(const struct hm_evsel *e, const u8 *rec, u32 size)
{
	u64 pos;

	if ((hm_ld32(rec + 4) & 7) == PERF_RECORD_MISC_KERNEL)
		return true;
	if (!e || !(e->attr.sample_type & PERF_SAMPLE_IP))
		return false;
	pos = 8 + 8 * !!(e->attr.sample_type & PERF_SAMPLE_IDENTIFIER);
	return pos + 8 <= size && hm_ld64(rec + pos) >= 0xffff800000000000ull;
}

/* A SAMPLE on a CPU the file does not have: the reader warns at the first one of each reader. */
static bool bad_cpu(const struct hm_reader *r, const struct hm_evsel *e, const u8 *rec, u32 size)
{
	u64 t, pos;
	u32 cpu;

	if (!e || !(e->attr.sample_type & PERF_SAMPLE_CPU))
		return false;
	t = e->attr.sample_type;
	pos = 8 + 8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
		       !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR) +
		       !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID));
	if (pos + 4 > size)
		return true;
	cpu = hm_ld32(rec + pos);
	return cpu >= HM_MAX_CPUS || (r->h.nr_cpus_avail && cpu >= r->h.nr_cpus_avail);
}

static bool kernel_mmap(const u8 *rec)
{
	u32 t = hm_ld32(rec);
	u16 mode = hm_ld32(rec + 4) & 7;

	return (t == PERF_RECORD_MMAP || t == PERF_RECORD_MMAP2) &&
	       (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL);
}

/* A kernel MMAP of the kernel image ("[kernel.kallsyms]...", the maps' vmlinux). */
static bool image_mmap(const u8 *rec, u32 size)
{
	static const char name[] = "[kernel.kallsyms";
	u32 at = hm_ld32(rec) == PERF_RECORD_MMAP ? 40 : 72;

	return kernel_mmap(rec) && size >= at + sizeof(name) - 1 &&
	       !memcmp(rec + at, name, sizeof(name) - 1);
}

static int sb_append(struct hm_range_scan *s, const u8 *rec, u32 size, u64 off, u64 time)
{
	size_t need = 16 + (((size_t)size + 7) & ~(size_t)7);
	struct sb_block *b = s->last;
	u8 *p;

	/* where the first kernel sample comes among them, about (hm_range_cut.kload) */
	if (s->kt_set && s->kguess == UINT64_MAX && time != (u64)-1 && time > s->kt)
		s->kguess = s->nr_sb;
	if (kernel_mmap(rec) || hm_ld32(rec) == PERF_RECORD_KSYMBOL) {
		if (s->nr_krel == s->cap_krel) {
			size_t c = s->cap_krel ? 2 * s->cap_krel : 16;
			u64 *n = realloc(s->krel, c * sizeof(*n));

			if (!n)
				return -ENOMEM;
			s->krel = n;
			s->cap_krel = c;
		}
		s->krel[s->nr_krel++] = s->nr_sb;
		if (!s->vml_at1 && image_mmap(rec, size))
			s->vml_at1 = s->nr_sb + 1;
	}

	if (!b || b->used + need > b->cap) {
		size_t cap = need > SB_BLOCK ? need : SB_BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return -ENOMEM;
		b->next = NULL;
		b->used = 0;
		b->cap = cap;
		if (s->last)
			s->last->next = b;
		else
			s->first = b;
		s->last = b;
	}
	p = b->data + b->used;
	memcpy(p, &size, 4);
	memset(p + 4, 0, 4);
	memcpy(p + 8, &off, 8);
	memcpy(p + 16, rec, size);
	b->used += need;
	s->nr_sb++;
	return 0;
}

static int sbq_cmp(const void *a, const void *b)
{
	const struct sb_q *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The simulated queue's records with time <= @limit, in the reader's order, to the list. */
static int sb_flush(struct hm_range_scan *s, u64 limit)
{
	size_t k = 0, j = 0;
	int err = 0;

	qsort(s->q, s->nr_q, sizeof(*s->q), sbq_cmp);
	while (k < s->nr_q && s->q[k].time <= limit) {
		if (!err)
			err = sb_append(s, s->q[k].rec, s->q[k].size, s->q[k].off, s->q[k].time);
		free(s->q[k].rec);
		k++;
	}
	for (size_t i = k; i < s->nr_q; i++)
		s->q[j++] = s->q[i];
	s->nr_q = j;
	return err;
}

static int sb_queue(struct hm_range_scan *s, const u8 *rec, u32 size, u64 off, u64 time)
{
	struct sb_q *e;

	if (s->nr_q == s->cap_q) {
		size_t c = s->cap_q ? s->cap_q * 2 : 64;
		struct sb_q *n = realloc(s->q, c * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->q = n;
		s->cap_q = c;
	}
	e = &s->q[s->nr_q];
	e->rec = malloc(size);
	if (!e->rec)
		return -ENOMEM;
	memcpy(e->rec, rec, size);
	e->time = time;
	e->seq = s->seq++;
	e->off = off;
	e->size = size;
	s->nr_q++;
	return 0;
}

/*
 * When every event has the same sample_type, a sample's time, CPU and ip
 * lie at the same offsets whatever its event: the walk then only needs to
 * know whether the event is known (hm_reader__rec_evsel() not NULL), not
 * which one.  The file's events do not change during the walk: a record
 * that would add one stops it (-EAGAIN).
 */
static void fast_init(struct hm_range_scan *s)
{
	const struct hm_reader *r = s->r;
	u64 t = r->ev[0]->attr.sample_type;
	u32 n;

	for (int i = 1; i < r->nr_ev; i++)
		if (r->ev[i]->attr.sample_type != t)
			return;
	s->fast = true;
	s->fast_first = r->nr_ev == 1 || r->ev[0]->id_pos < 0;
	s->id_at = s->fast_first ? 0 : 8 + 8 * (u32)r->ev[0]->id_pos;
	n = !!(t & PERF_SAMPLE_IDENTIFIER);
	s->ip_at = t & PERF_SAMPLE_IP ? 8 + 8 * n : 0;
	n += !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID);
	s->time_at = t & PERF_SAMPLE_TIME ? 8 + 8 * n : 0;
	n += !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR) + !!(t & PERF_SAMPLE_ID) +
	     !!(t & PERF_SAMPLE_STREAM_ID);
	s->cpu_at = t & PERF_SAMPLE_CPU ? 8 + 8 * n : 0;
}

/*
 * hm_reader__rec_evsel(r, PERF_RECORD_SAMPLE, ...) != NULL: whether an id is
 * known does not change during the walk, so a cache of the answers.
 */
static bool fast_known(struct hm_range_scan *s, const u8 *rec, u32 size)
{
	u64 id;
	u32 slot;
	bool known;

	if (s->fast_first)
		return true;
	if (s->id_at + 8 > size)
		return false;
	id = hm_ld64(rec + s->id_at);
	if (!id)
		return true;
	slot = (u32)((id * 0x9e3779b97f4a7c15ULL) >> 56);
	if (s->idc[slot].st && s->idc[slot].id == id)
		return s->idc[slot].st == 1;
	known = hm_reader__rec_evsel(s->r, PERF_RECORD_SAMPLE, rec, size, false) != NULL;
	s->idc[slot].id = id;
	s->idc[slot].st = known ? 1 : 2;
	return known;
}

/*
 * The whole SAMPLEs next in the reader's window of an uncompressed file,
 * read as hm_reader__next_raw() would give them, without the calls: each
 * one's time, CPU and ip at their fixed offsets (fast_init()), as
 * hm_reader__rec_time(), bad_cpu() and kernel_sample() say with its event
 * (none when its event is unknown).  0: stopped at another record or the
 * window's end, -EAGAIN: a SAMPLE on a CPU the file does not have.
 */
static int fast_samples(struct hm_range_scan *s)
{
	struct hm_reader *r = s->r;
	const u8 *buf = r->buf;
	size_t head = r->head, len = r->len;
	u64 max_ts = s->max_ts;
	u32 ncpu = r->h.nr_cpus_avail;
	bool kdone = s->ksample && s->kt_set;	/* nothing left to learn from kernel samples */
	int ret = 0;

	while (len - head >= 8) {
		const u8 *rec = buf + head;
		u32 size = hm_ld16(rec + 6);
		u64 ts = (u64)-1;
		bool kernel;

		if (hm_ld32(rec) != PERF_RECORD_SAMPLE || size < 8 || len - head < size)
			break;
		/* the walk outruns the hardware's prefetch: 0.15-0.17 s -> 0.12-0.14 s to the 20M file's cut */
		hm_prefetch(rec + 4096);
		head += size;
		kernel = !kdone && (hm_ld32(rec + 4) & 7) == PERF_RECORD_MISC_KERNEL;
		if (fast_known(s, rec, size)) {
			if (s->cpu_at) {
				u32 cpu;

				if (s->cpu_at + 4 > size) {
					ret = -EAGAIN;
					break;
				}
				cpu = hm_ld32(rec + s->cpu_at);
				if (cpu >= HM_MAX_CPUS || (ncpu && cpu >= ncpu)) {
					ret = -EAGAIN;
					break;
				}
			}
			if (s->time_at && s->time_at + 8 <= size)
				ts = hm_ld64(rec + s->time_at);
			if (!kdone && !kernel && s->ip_at && s->ip_at + 8 <= size)
				kernel = hm_ld64(rec + s->ip_at) >= 0xffff800000000000ull;
		}
		if (kernel) {
			s->ksample = true;
			if (s->vml_seen && !s->kt_set) {
				s->kt_set = true;
				s->kt = ts == (u64)-1 ? 0 : ts;
			}
			kdone = s->kt_set;
		}
		if (ts != (u64)-1 && ts > max_ts)	/* round_note() */
			max_ts = ts;
	}
	r->head = head;
	s->max_ts = max_ts;
	return ret;
}

struct hm_range_scan *hm_range_scan__new(const char *path)
{
	struct hm_reader_opts ro = { .ordered = false, .all_records = true };
	struct hm_range_scan *s = calloc(1, sizeof(*s));
	int err = -EAGAIN;

	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	hm_log__quiet(1);	/* the report's reader says what is wrong with the file */
	s->r = hm_reader__new(path, &ro);
	hm_log__quiet(0);
	if (!s->r) {
		err = -errno;
		goto fail;
	}
	/* a folder (perf record --threads) has no FINISHED_ROUND to cut at */
	if (s->r->dir || s->r->h.pipe || !s->r->seekable || (s->r->mem && !s->r->mapped) || s->r->h.needs_swap || !s->r->nr_ev ||
	    !s->r->ev[0]->attr.sample_id_all)
		goto fail;
	s->round_start = s->r->data_start;
	s->kguess = UINT64_MAX;
	fast_init(s);
	return s;
fail:
	hm_range_scan__delete(s);
	errno = -err;
	return NULL;
}

void hm_range_scan__delete(struct hm_range_scan *s)
{
	if (!s)
		return;
	while (s->first) {
		struct sb_block *b = s->first;

		s->first = b->next;
		free(b);
	}
	for (size_t i = 0; i < s->nr_q; i++)
		free(s->q[i].rec);
	free(s->q);
	free(s->krel);
	hm_reader__delete(s->r);
	free(s);
}

void hm_range_scan__data(const struct hm_range_scan *s, u64 *start, u64 *end)
{
	*start = s->r->data_start;
	*end = s->r->data_end != UINT64_MAX ? s->r->data_end : s->r->file_size;
	if (*end > s->r->file_size)
		*end = s->r->file_size;
}

static int scan_next(struct hm_range_scan *s, u64 target, struct hm_range_cut *cut);

int hm_range_scan__next(struct hm_range_scan *s, u64 target, struct hm_range_cut *cut)
{
	int ret;

	hm_log__quiet(1);
	ret = scan_next(s, target, cut);
	hm_log__quiet(0);
	return ret;
}

/* A timed record the ordering queue would hold: the round's latest time. */
static void round_note(struct hm_range_scan *s, u64 ts)
{
	if (ts != (u64)-1 && ts > s->max_ts)
		s->max_ts = ts;
}

/*
 * A kernel image MMAP: the kernel's symbols load once, for the whole file,
 * picked by its build-id and placed by its pgoff as the maps hold them at
 * the first lookup: ranges need the same in every range, so one before any
 * kernel sample, and any later one the same.
 */
static int image_check(struct hm_range_scan *s, const u8 *rec, u32 size)
{
	u8 bid[21] = { 0 };
	u64 pgoff = hm_ld64(rec + 32);

	if (hm_ld32(rec) == PERF_RECORD_MMAP2 && (hm_ld32(rec + 4) & (1u << 14)) && size >= 64) {
		bid[0] = rec[40] > 20 ? 20 : rec[40];
		memcpy(bid + 1, rec + 44, bid[0]);
	}
	if (!s->vml_seen) {
		if (s->ksample)
			return -EAGAIN;
		s->vml_seen = true;
		s->vml_pgoff = pgoff;
		memcpy(s->vml_bid, bid, sizeof(bid));
		return 0;
	}
	return pgoff == s->vml_pgoff && !memcmp(bid, s->vml_bid, sizeof(bid)) ? 0 : -EAGAIN;
}

/*
 * The scan's guess of the kernel map's state after @cut: loaded where the
 * first kernel sample comes among the side-band records, when it comes
 * before the cut's flush (its time at most the flush's limit) after the
 * kernel image's MMAP.  Only a guess: the parts check it (report-range.c).
 */
static void cut_kload(const struct hm_range_scan *s, struct hm_range_cut *cut)
{
	u64 w = s->kguess < s->nr_sb ? s->kguess : s->nr_sb;

	cut->kload = HM_RANGE_KNONE;
	if (!s->kt_set || s->kt > cut->limit || !s->vml_at1)
		return;
	cut->kload = w < s->vml_at1 ? s->vml_at1 : w;
}

bool hm_range_scan__kernel_same(const struct hm_range_scan *s, u64 a, u64 b, u64 n)
{
	u64 lo = a < b ? a : b, hi = a < b ? b : a;

	if (a == HM_RANGE_KNONE || b == HM_RANGE_KNONE)
		return a == b;
	if (hi > n)
		hi = n;
	/* the kernel maps change only at these: the same between lo and hi */
	for (size_t i = 0; i < s->nr_krel && s->krel[i] < hi; i++)
		if (s->krel[i] >= lo)
			return false;
	return true;
}

static int scan_next(struct hm_range_scan *s, u64 target, struct hm_range_cut *cut)
{
	struct hm_reader *r = s->r;

	while (!s->done) {
		const u8 *rec;
		u32 size, t;
		u64 off, ts;
		bool compressed;
		int ret;

		if (s->fast && !r->z && !r->spe && fast_samples(s) < 0)
			return -EAGAIN;
		ret = hm_reader__next_raw(r, &rec, &size, &off, &compressed);
		if (ret < 0)
			return ret;
		if (!ret) {
			s->done = true;
			break;
		}
		if (compressed || size < 8)
			return -EAGAIN;
		t = hm_ld32(rec);
		if (t == PERF_RECORD_SAMPLE) {
			struct hm_evsel *e = NULL;

			/* one look-up of the sample's event for its time, CPU and ip */
			ts = hm_reader__rec_time(r, rec, size, t, &e);
			if (bad_cpu(r, e, rec, size))
				return -EAGAIN;
			if ((!s->ksample || !s->kt_set) && kernel_sample(e, rec, size)) {
				s->ksample = true;
				if (s->vml_seen && !s->kt_set) {
					s->kt_set = true;
					s->kt = ts == (u64)-1 ? 0 : ts;
				}
			}
			round_note(s, ts);
			continue;
		}
		if (hm_record__is_kernel(t)) {
			if (t == PERF_RECORD_AUX)
				return -EAGAIN;
			if (image_mmap(rec, size) && (ret = image_check(s, rec, size)) < 0)
				return ret;
			ts = hm_reader__rec_time(r, rec, size, t, NULL);
			round_note(s, ts);
			if (side_band(t)) {
				ret = ts == (u64)-1 ? sb_append(s, rec, size, off, ts) :
						      sb_queue(s, rec, size, off, ts);
				if (ret < 0)
					return ret;
			}
			continue;
		}
		if (t == HM_RECORD_FINISHED_ROUND) {
			u64 limit = s->next_flush;

			/*
			 * A round of any size: the ordered reader hands out early,
			 * past ORDER_MAX_BYTES, only records its flush at this
			 * FINISHED_ROUND gives out anyway (reader-ahead.c), so the
			 * records it holds after that flush are the same.
			 */
			ret = sb_flush(s, limit);
			if (ret < 0)
				return ret;
			s->next_flush = s->max_ts;
			cut->off = off;
			cut->from = s->round_start;
			cut->limit = limit;
			cut->nr_sb = s->nr_sb;
			cut_kload(s, cut);
			s->round_start = off + size;
			if (off >= target)
				return 1;
			continue;
		}
		if (t == HM_RECORD_FINISHED_INIT || t == HM_RECORD_TIME_CONV)
			continue;
		return -EAGAIN;		/* header records in the data: not cut here */
	}
	return 0;
}

/* ---------------------------------------------------------------- ranges */

enum { RG_REPLAY, RG_SKIP, RG_RUN, RG_DONE };

struct hm_range {
	struct hm_reader	*r;
	struct hm_range_scan	*s;
	struct hm_range_cut	from, to;
	bool			has_to;
	int			phase;
	const struct sb_block	*b;
	size_t			pos, i;
	bool			kdone;
};

struct hm_range *hm_range__new(const char *path, struct hm_range_scan *s,
			       const struct hm_range_cut *from, const struct hm_range_cut *to,
			       u32 queue_bytes)
{
	struct hm_reader_opts ro = { .ordered = true, .all_records = true,
				     .queue_bytes = queue_bytes };
	struct hm_range *rg = calloc(1, sizeof(*rg));

	if (!rg) {
		errno = ENOMEM;
		return NULL;
	}
	hm_log__quiet(1);	/* the report's own reader said it all */
	rg->r = hm_reader__new(path, &ro);
	hm_log__quiet(0);
	if (!rg->r) {
		free(rg);
		return NULL;
	}
	rg->s = s;
	rg->phase = RG_RUN;
	if (from) {
		struct hm_reader *r = rg->r;

		rg->from = *from;
		rg->phase = RG_REPLAY;
		rg->b = s->first;
		/* as the ordered reader stood just past the FINISHED_ROUND before */
		if (r->mapped) {
			r->head = from->from;	/* the whole file is there */
			r->released = hm_page_floor(from->from);	/* never touched here */
		} else {
			r->head = r->len = 0;
			r->buf_off = from->from;
		}
		r->eof = false;
		r->next_flush = r->max_ts = from->limit;
	}
	if (to) {
		rg->to = *to;
		rg->has_to = true;
	}
	return rg;
}

void hm_range__delete(struct hm_range *rg)
{
	if (!rg)
		return;
	hm_reader__delete(rg->r);
	free(rg);
}

struct hm_reader *hm_range__reader(struct hm_range *rg)
{
	return rg->r;
}

bool hm_range__kernel_due(struct hm_range *rg)
{
	if (rg->kdone || rg->phase != RG_REPLAY || rg->from.kload != rg->i)
		return false;
	rg->kdone = true;
	return true;
}

int hm_range__next(struct hm_range *rg, struct hm_event *ev)
{
	int ret;

	while (rg->phase == RG_REPLAY) {
		if (rg->i < rg->from.nr_sb && rg->b) {
			const u8 *p;
			u32 size;
			u64 off;

			if (rg->pos >= rg->b->used) {
				rg->b = rg->b->next;
				rg->pos = 0;
				continue;
			}
			p = rg->b->data + rg->pos;
			memcpy(&size, p, 4);
			memcpy(&off, p + 8, 8);
			rg->pos += 16 + (((size_t)size + 7) & ~(size_t)7);
			rg->i++;
			hm_log__quiet(1);	/* the range that reads it says what is wrong */
			ret = hm_reader__decode(rg->r, p + 16, size, off, false, ev);
			hm_log__quiet(0);
			return ret ? ret : 1;
		}
		rg->phase = RG_SKIP;
	}
	while (rg->phase == RG_SKIP) {
		hm_log__quiet(1);	/* the range before says what is wrong in these */
		ret = hm_reader__next(rg->r, ev);
		hm_log__quiet(0);
		if (ret <= 0)
			return ret;
		if (ev->type == HM_RECORD_FINISHED_ROUND && ev->file_offset == rg->from.off)
			rg->phase = RG_RUN;
	}
	if (rg->phase == RG_DONE)
		return 0;
	ret = hm_reader__next(rg->r, ev);
	if (ret > 0 && rg->has_to && ev->type == HM_RECORD_FINISHED_ROUND &&
	    ev->file_offset == rg->to.off)
		rg->phase = RG_DONE;
	return ret;
}
