// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data reader's shared state: its error report, its events (attrs,
 * ids, the id -> event map) and a scratch buffer.  Every other reader file
 * builds on this one; it calls none of them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <hitmap/log.h>
#include "reader-int.h"
#include "spe.h"

int hm_reader__fail(struct hm_reader *r, int err, u64 off, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	hm_err("%s: offset %" PRIu64 ": %s", r->where ? r->where : r->path, off, msg);
	r->err = err;
	r->done = true;
	return err;
}

const char *hm_reader__path_int(const struct hm_reader *r) { return r->path; }
bool hm_reader__swap(const struct hm_reader *r) { return r->h.needs_swap; }
struct hm_header *hm_reader__hdr(struct hm_reader *r) { return &r->h; }
int hm_reader__nr_evsel_int(const struct hm_reader *r) { return r->nr_ev; }
struct hm_evsel *hm_reader__evsel_int(struct hm_reader *r, int idx) { return r->ev[idx]; }

void *hm_reader__scratch(struct hm_reader *r, size_t n)
{
	if (n > r->scratch_cap) {
		size_t c = n < 65536 + 64 ? 65536 + 64 : n;
		u8 *p = realloc(r->scratch, c);

		if (!p)
			return NULL;
		r->scratch = p;
		r->scratch_cap = c;
	}
	return r->scratch;
}

/* ---------------------------------------------------------------- id map */

static u32 id_hash(u64 id, u32 cap)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (u32)id & (cap - 1);
}

int hm_idmap__add(struct hm_idmap *m, u64 id, int idx)
{
	u32 i;

	if ((m->nr + 1) * 2 > m->cap) {
		u32 ncap = m->cap ? m->cap * 2 : 64;
		u64 *k = calloc(ncap, sizeof(*k));
		int *v = malloc(ncap * sizeof(*v));

		if (!k || !v) {
			free(k);
			free(v);
			return -ENOMEM;
		}
		for (u32 j = 0; j < ncap; j++)
			v[j] = -1;
		for (u32 j = 0; j < m->cap; j++) {
			if (m->vals[j] < 0)
				continue;
			i = id_hash(m->keys[j], ncap);
			while (v[i] >= 0)
				i = (i + 1) & (ncap - 1);
			k[i] = m->keys[j];
			v[i] = m->vals[j];
		}
		free(m->keys);
		free(m->vals);
		m->keys = k;
		m->vals = v;
		m->cap = ncap;
	}
	i = id_hash(id, m->cap);
	while (m->vals[i] >= 0) {
		if (m->keys[i] == id) {
			m->vals[i] = idx;	/* last one wins, as in perf */
			return 0;
		}
		i = (i + 1) & (m->cap - 1);
	}
	m->keys[i] = id;
	m->vals[i] = idx;
	m->nr++;
	return 0;
}

int hm_idmap__find(const struct hm_idmap *m, u64 id)
{
	u32 i;

	if (!m->cap)
		return -1;
	i = id_hash(id, m->cap);
	while (m->vals[i] >= 0) {
		if (m->keys[i] == id)
			return m->vals[i];
		i = (i + 1) & (m->cap - 1);
	}
	return -1;
}

void hm_idmap__exit(struct hm_idmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

int hm_reader__add_id(struct hm_reader *r, u64 id, int idx)
{
	memset(r->last_idx, 0xff, sizeof(r->last_idx));
	r->ev_gen++;
	return hm_idmap__add(&r->ids, id, idx);
}

/* ----------------------------------------------------------------- attrs */

static u8 revbyte(u8 b)
{
	b = (b & 0xf0) >> 4 | (b & 0x0f) << 4;
	b = (b & 0xcc) >> 2 | (b & 0x33) << 2;
	b = (b & 0xaa) >> 1 | (b & 0x55) << 1;
	return b;
}

/* perf_event__attr_swap(): @n is how many bytes of the attr are present */
void hm_attr__swap(u8 *p, u32 n)
{
	static const struct { u16 off; u8 len; } f[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
		/* 40: the flags bitfield, bit-reversed per byte below */
		{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 },
		{ 88, 4 }, { 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 }, { 112, 4 },
		{ 120, 8 }, { 128, 8 }, { 136, 8 },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i].off + f[i].len > n)
			break;
		if (f[i].len == 8)
			hm_st64(p + f[i].off, bswap_64(hm_ld64(p + f[i].off)));
		else if (f[i].len == 4)
			hm_st32(p + f[i].off, bswap_32(hm_ld32(p + f[i].off)));
		else
			hm_st16(p + f[i].off, bswap_16(hm_ld16(p + f[i].off)));
	}
	if (n >= 48)
		for (int i = 40; i < 48; i++)
			p[i] = revbyte(p[i]);
}

void hm_attr__read(struct perf_event_attr *dst, const u8 *src, u32 avail, bool sw, u32 *file_size)
{
	u32 size = hm_sw32(hm_ld32(src + 4), sw), n;

	if (!size)
		size = 64;	/* PERF_ATTR_SIZE_VER0 */
	if (file_size)
		*file_size = size;
	/* known fields only: a newer perf's extra bytes are dropped */
	n = size < sizeof(*dst) ? size : sizeof(*dst);
	if (n > avail)
		n = avail;
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, n);
	if (sw)
		hm_attr__swap((u8 *)dst, n);
	dst->size = size;
}

static void update_id_hdr(struct hm_reader *r)
{
	u64 t;
	int n = 0;

	if (!r->nr_ev || !r->ev[0]->attr.sample_id_all) {
		r->id_hdr_size = 0;
		return;
	}
	t = r->ev[0]->attr.sample_type;
	n += !!(t & PERF_SAMPLE_TID);
	n += !!(t & PERF_SAMPLE_TIME);
	n += !!(t & PERF_SAMPLE_ID);
	n += !!(t & PERF_SAMPLE_STREAM_ID);
	n += !!(t & PERF_SAMPLE_CPU);
	n += !!(t & PERF_SAMPLE_IDENTIFIER);
	r->id_hdr_size = n * 8;
}

struct hm_evsel *hm_reader__add_evsel(struct hm_reader *r, const u8 *attr, u32 attr_bytes,
				      const u64 *ids, u32 nr_ids, bool ids_swap)
{
	struct hm_evsel *e;

	if (r->nr_ev >= 65536) {
		errno = E2BIG;
		return NULL;
	}
	if (r->nr_ev == r->cap_ev) {
		int ncap = r->cap_ev ? r->cap_ev * 2 : 8;
		struct hm_evsel **v = realloc(r->ev, ncap * sizeof(*v));

		if (!v)
			return NULL;
		r->ev = v;
		r->cap_ev = ncap;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->idx = r->nr_ev;
	memset(r->last_idx, 0xff, sizeof(r->last_idx));
	r->ev_gen++;
	hm_attr__read(&e->attr, attr, attr_bytes, r->h.needs_swap, &e->file_attr_size);
	e->needs_swap = r->h.needs_swap;
	e->id_pos = hm_sample__id_pos(e->attr.sample_type);
	e->is_pos = hm_sample__is_pos(e->attr.sample_type);
	if (nr_ids) {
		e->ids = malloc(nr_ids * sizeof(u64));
		if (!e->ids) {
			free(e);
			return NULL;
		}
		for (u32 i = 0; i < nr_ids; i++) {
			e->ids[i] = hm_sw64(hm_ld64(&ids[i]), ids_swap);
			if (hm_idmap__add(&r->ids, e->ids[i], e->idx)) {
				free(e->ids);
				free(e);
				return NULL;
			}
		}
		e->nr_ids = nr_ids;
	}
	r->ev[r->nr_ev++] = e;
	update_id_hdr(r);
	return e;
}

/*
 * An attr no kernel could have produced: perf cannot parse its samples
 * (evsel__parse_sample), so the file is refused, as perf does.
 */
int hm_reader__check_attr(struct hm_reader *r, const struct hm_evsel *e, u64 off)
{
	u64 st = e->attr.sample_type;

	if (st & ~(u64)(PERF_SAMPLE_MAX - 1))
		return hm_reader__fail(r, -EINVAL, off, "event %d's sample_type %#" PRIx64 " has "
				       "bits no kernel defines (%#" PRIx64 "); its samples cannot "
				       "be parsed (perf refuses the file too); the attr is corrupt",
				       r->nr_ev - 1, st, st & ~(u64)(PERF_SAMPLE_MAX - 1));
	return 0;
}

/* evsel of a record, as evlist__event2evsel(); NULL when the id is unknown */
struct hm_evsel *hm_reader__rec_evsel(struct hm_reader *r, u32 type, const u8 *rec, u32 size, bool sw)
{
	struct hm_evsel *first;
	u64 id;
	int idx;
	u32 slot;

	if (!r->nr_ev)
		return NULL;
	first = r->ev[0];
	if (r->spe && type == PERF_RECORD_SAMPLE && size >= 16 &&
	    hm_ld64(rec + 8) == HM_SPE_SYNTH_ID)
		return r->ev[r->nr_ev - 1 < r->spe_idx ? 0 : r->spe_idx];
	if (r->nr_ev == 1)
		return first;
	if (type == PERF_RECORD_SAMPLE) {
		if (first->id_pos < 0)
			return first;
		if (8 + (u64)first->id_pos * 8 + 8 > size)
			return NULL;
		id = hm_sw64(hm_ld64(rec + 8 + first->id_pos * 8), sw);
	} else {
		if (!first->attr.sample_id_all || first->is_pos < 0)
			return first;
		if ((u64)first->is_pos * 8 > size - 8)
			return NULL;
		id = hm_sw64(hm_ld64(rec + size - first->is_pos * 8), sw);
	}
	if (!id)
		return first;
	slot = hm_id_cache__slot(id);
	if (r->last_idx[slot] >= 0 && id == r->last_id[slot] && r->last_idx[slot] < r->nr_ev)
		return r->ev[r->last_idx[slot]];
	idx = hm_idmap__find(&r->ids, id);
	if (idx < 0 || idx >= r->nr_ev)
		return NULL;
	r->last_id[slot] = id;
	r->last_idx[slot] = idx;
	return r->ev[idx];
}

/* See reader-int.h. */
u64 hm_reader__rec_time(struct hm_reader *r, const u8 *rec, u32 size, u32 type, struct hm_evsel **ep)
{
	struct hm_evsel *e = hm_reader__rec_evsel(r, type, rec, size, false);
	u64 t, pos;

	if (ep)
		*ep = e;
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

/* The file, pipe or memory at @off (reader-input.c's window, reader-ahead.c's walk). */
ssize_t hm_reader__src_read(struct hm_reader *r, void *dst, size_t n, u64 off)
{
	ssize_t got, total = 0;

	if (r->mem) {
		if (off >= r->file_size)
			return 0;
		if (n > r->file_size - off)
			n = r->file_size - off;
		memcpy(dst, r->mem + off, n);
		return n;
	}
	while ((size_t)total < n) {
		if (r->seekable)
			got = pread(r->fd, (u8 *)dst + total, n - total, off + total);
		else
			got = read(r->fd, (u8 *)dst + total, n - total);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!got)
			break;
		total += got;
	}
	return total;
}
