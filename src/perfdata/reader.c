// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data streaming reader.
 *
 * Layers, bottom up:
 *   window   a fixed buffer over the file, pipe or memory; records are handed
 *            out from it, so memory does not grow with the file;
 *   zstream  COMPRESSED/COMPRESSED2 payloads, one zstd stream (compress.c);
 *   ingest   per record: stats, header side effects (HEADER_ATTR, FEATURE,
 *            ID_INDEX, ...), byte swap into a native copy;
 *   decode   the sample or sample_id_all trailer (sample.c);
 *   order    optional: samples sorted by time within FINISHED_ROUND rounds,
 *            exactly as perf's ordered_events (flush up to the previous
 *            round's max timestamp).
 *
 * Every error names the file and the offset; the record stream stops there.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include "reader-int.h"
#include "spe.h"

#define WINDOW		(1u << 20)
#define ORDER_MAX_BYTES	(4u << 20)

struct qent {
	u64	time, seq, file_offset;
	u32	off, len;
	bool	compressed;
};

struct oq {
	u8		*arena;
	size_t		alen, acap;
	struct qent	*ents;
	size_t		n, cap;
};

struct hm_reader {
	char			*path;
	struct hm_reader_opts	opts;
	int			fd;
	bool			own_fd, seekable;
	const u8		*mem;
	u64			file_size;	/* UINT64_MAX when unknown (pipe) */
	/* window */
	u8			*buf;
	size_t			cap, head, len;
	u64			buf_off;	/* file offset of buf[0] */
	u64			data_start, data_end;
	bool			data_end_known;	/* file mode: a size was declared */
	bool			eof;
	/* state */
	struct hm_header	h;
	struct hm_evsel		**ev;
	int			nr_ev, cap_ev;
	struct hm_idmap		ids;
	u64			last_id;	/* one-entry cache in front of ids */
	int			last_idx;	/* -1: empty */
	struct hm_reader_stats	st;
	struct hm_zstream	*z;
	u8			*scratch;
	size_t			scratch_cap;
	u8			*tmp;		/* big pipe payloads (TRACING_DATA) */
	bool			done;
	int			err;
	int			id_hdr_size;	/* sample_id_all trailer bytes of evsel 0 */
	u64			trunc_off;	/* a feature lies past EOF: reported at the end */
	u64			feat_end;	/* end of the last feature body (file mode) */
	u64			nr_bad_type;	/* records of no perf type, skipped */
	u64			zlast_off;	/* the last COMPRESSED record */
	u64			nr_bad_cpu;	/* SAMPLEs on a CPU the file does not have */
	char			trunc_what[64];
	/* ordering */
	bool			ordered;
	struct oq		q[2];
	int			qcur;		/* accumulating queue; the other is ready */
	size_t			ready_pos;
	u64			next_flush, max_ts, seq;
	struct hm_spe		*spe;		/* Arm SPE AUX data: decoded into samples */
	int			spe_idx;	/* its synthesized evsel */
	u8			time_conv[64];	/* the last TIME_CONV, for SPE set up later */
};

/* ------------------------------------------------------------------ util */

static int fail(struct hm_reader *r, int err, u64 off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct hm_reader *r, int err, u64 off, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	hm_err("%s: offset %" PRIu64 ": %s", r->path, off, msg);
	r->err = err;
	r->done = true;
	return err;
}

const char *hm_reader__path_int(const struct hm_reader *r) { return r->path; }
bool hm_reader__swap(const struct hm_reader *r) { return r->h.needs_swap; }
struct hm_header *hm_reader__hdr(struct hm_reader *r) { return &r->h; }
int hm_reader__nr_evsel_int(const struct hm_reader *r) { return r->nr_ev; }
struct hm_evsel *hm_reader__evsel_int(struct hm_reader *r, int idx) { return r->ev[idx]; }

const struct hm_header *hm_reader__header(const struct hm_reader *r) { return &r->h; }
int hm_reader__nr_evsels(const struct hm_reader *r) { return r->nr_ev; }
const char *hm_reader__path(const struct hm_reader *r) { return r->path; }
const struct hm_reader_stats *hm_reader__stats(const struct hm_reader *r) { return &r->st; }

const struct hm_evsel *hm_reader__evsel(const struct hm_reader *r, int idx)
{
	if (idx < 0 || idx >= r->nr_ev)
		return NULL;
	return r->ev[idx];
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
	r->last_idx = -1;
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
	r->last_idx = -1;
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

/* ---------------------------------------------------------------- window */

static ssize_t src_read(struct hm_reader *r, void *dst, size_t n, u64 off)
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

/* 1: @n bytes at head; 0: the stream ends first; <0: I/O error */
static int win_ensure(struct hm_reader *r, size_t n)
{
	if (r->len - r->head >= n)
		return 1;
	if (r->mem)
		return 0;
	if (r->eof)
		return 0;
	if (r->head) {
		memmove(r->buf, r->buf + r->head, r->len - r->head);
		r->buf_off += r->head;
		r->len -= r->head;
		r->head = 0;
	}
	if (n > r->cap) {
		u8 *p = realloc(r->buf, n);

		if (!p)
			return -ENOMEM;
		r->buf = p;
		r->cap = n;
	}
	while (r->len < n) {
		u64 at = r->buf_off + r->len;
		size_t want = r->cap - r->len;
		ssize_t got;

		if (at >= r->data_end) {
			r->eof = true;
			return 0;
		}
		if (want > r->data_end - at)
			want = r->data_end - at;
		got = src_read(r, r->buf + r->len, want, at);
		if (got < 0)
			return (int)got;
		if (!got) {
			r->eof = true;
			return 0;
		}
		r->len += got;
	}
	return 1;
}

static u64 win_off(const struct hm_reader *r)
{
	return r->buf_off + r->head;
}

/* Skip @n bytes (AUXTRACE payloads).  1 done, 0 stream ended, <0 error. */
static int win_skip(struct hm_reader *r, u64 n)
{
	size_t have = r->len - r->head;

	if (n <= have) {
		r->head += n;
		return 1;
	}
	if (r->mem)
		return 0;
	n -= have;
	r->head = r->len;
	if (r->seekable) {
		u64 to = r->buf_off + r->len + n;

		if (to > r->data_end || to > r->file_size)
			return 0;
		r->buf_off = to;
		r->head = r->len = 0;
		return 1;
	}
	while (n) {
		int ret;
		size_t step = n > r->cap ? r->cap : n;

		ret = win_ensure(r, step);
		if (ret <= 0)
			return ret;
		r->head += step;
		n -= step;
	}
	return 1;
}

/* Read @n bytes following the current record into r->tmp. */
static int win_read_payload(struct hm_reader *r, u64 n)
{
	u64 done = 0;

	free(r->tmp);
	r->tmp = malloc(n ? n : 1);
	if (!r->tmp)
		return -ENOMEM;
	while (done < n) {
		size_t step = n - done > r->cap / 2 ? r->cap / 2 : n - done;
		int ret;

		if (r->mem)
			step = n - done;
		ret = win_ensure(r, step);
		if (ret <= 0)
			return ret < 0 ? ret : -ENODATA;
		memcpy(r->tmp + done, r->buf + r->head, step);
		r->head += step;
		done += step;
	}
	return 0;
}

static void *scratch(struct hm_reader *r, size_t n)
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

/* ---------------------------------------------------------------- header */

static int read_at(struct hm_reader *r, void *dst, u64 n, u64 off, const char *what)
{
	ssize_t got;

	if (r->file_size != UINT64_MAX && (off > r->file_size || n > r->file_size - off))
		return fail(r, -EINVAL, off, "%s (%" PRIu64 " bytes) lies past the end of the "
			    "%" PRIu64 "-byte file; the file is truncated or corrupt",
			    what, n, r->file_size);
	got = src_read(r, dst, n, off);
	if (got < 0)
		return fail(r, (int)got, off, "cannot read %s: %s", what, strerror((int)-got));
	if ((u64)got != n)
		return fail(r, -EINVAL, off + got, "file ends inside %s; the file is truncated", what);
	return 0;
}

/*
 * hitmap's metadata sits past the feature bodies and is found through the
 * trailer at the very end of the file (see hitmap/meta.h).  A file without
 * one, or with one that does not add up, simply has no metadata.
 */
static void read_meta_trailer(struct hm_reader *r, u64 feat_off)
{
	u8 t[24];
	u64 magic, off, size;
	void *buf;
	bool sw = r->h.needs_swap;

	if (r->file_size == UINT64_MAX)
		return;
	if (r->feat_end < feat_off)
		r->feat_end = feat_off;
	if (r->file_size < sizeof(t) || r->file_size - sizeof(t) < feat_off ||
	    src_read(r, t, sizeof(t), r->file_size - sizeof(t)) != (ssize_t)sizeof(t))
		magic = 0;
	else
		magic = hm_sw64(hm_ld64(t), sw);
	if (magic != HM_META_TRAILER_MAGIC) {
		/*
		 * perf's files end with the last feature body; bytes past it
		 * are hitmap's metadata whose trailer was cut off.
		 */
		if (r->file_size > r->feat_end)
			hm_warn_lost("%s: offset %" PRIu64 ": %" PRIu64 " bytes after the last "
				     "feature section but no hitmap metadata trailer at the end "
				     "(the file was cut short?); hitmap metadata (futex tables, "
				     "kernel symbols, workload) is absent or truncated and not used",
				     r->path, r->feat_end, r->file_size - r->feat_end);
		return;
	}
	off = hm_sw64(hm_ld64(t + 8), sw);
	size = hm_sw64(hm_ld64(t + 16), sw);
	if (off < feat_off || off > r->file_size - sizeof(t) ||
	    size > r->file_size - sizeof(t) - off || size > HM_MAX_SECTION) {
		hm_warn_lost("%s: offset %" PRIu64 ": hitmap metadata trailer points outside the "
			     "file; hitmap metadata (futex tables, kernel symbols) not used",
			     r->path, r->file_size - sizeof(t));
		return;
	}
	buf = malloc(size ? size : 1);
	if (!buf)
		return;
	if (src_read(r, buf, size, off) != (ssize_t)size ||
	    hm_feature__parse(r, HM_FEAT_HITMAP, buf, size, off) < 0)
		hm_warn_lost("%s: offset %" PRIu64 ": hitmap metadata (%" PRIu64 " bytes) is "
			     "unreadable; not used", r->path, off, size);
	free(buf);
}

static int read_features(struct hm_reader *r, u64 feat_off)
{
	int nr = 0, k = 0;
	u8 *tab = NULL;

	for (int f = 0; f < HM_FEAT_BITS; f++)
		nr += hm_header__has_feat(&r->h, f);
	if (!nr)
		return 0;
	if (r->file_size != UINT64_MAX &&
	    (feat_off > r->file_size || (u64)nr * 16 > r->file_size - feat_off)) {
		hm_warn_lost("%s: offset %" PRIu64 ": feature table (%d entries) lies past the end "
			     "of the file; header features ignored (file truncated?)", r->path,
			     feat_off, nr);
		memset(r->h.feat_bits, 0, sizeof(r->h.feat_bits));
		r->trunc_off = feat_off;
		snprintf(r->trunc_what, sizeof(r->trunc_what), "the feature table");
		return 0;
	}
	r->feat_end = feat_off + (u64)nr * 16;
	tab = malloc(nr * 16);
	if (!tab)
		return -ENOMEM;
	if (src_read(r, tab, nr * 16, feat_off) != nr * 16) {
		free(tab);
		memset(r->h.feat_bits, 0, sizeof(r->h.feat_bits));
		hm_warn_lost("%s: offset %" PRIu64 ": cannot read the feature table; features "
			     "ignored", r->path, feat_off);
		return 0;
	}
	for (int f = 0; f < HM_FEAT_BITS; f++) {
		u64 off, size;
		u8 *sec;
		int err;

		if (!hm_header__has_feat(&r->h, f))
			continue;
		off = hm_sw64(hm_ld64(tab + k * 16), r->h.needs_swap);
		size = hm_sw64(hm_ld64(tab + k * 16 + 8), r->h.needs_swap);
		k++;
		if (off <= r->file_size && size <= r->file_size - off &&
		    ((off + size + 7) & ~7ULL) > r->feat_end)
			r->feat_end = (off + size + 7) & ~7ULL;
		/* keep the bit only if the section parses */
		r->h.feat_bits[f / 64] &= ~(1ULL << (f % 64));
		if (!hm_feature__name(f) && f != HM_FEAT_HITMAP) {
			r->h.feat_bits[f / 64] |= 1ULL << (f % 64);	/* unknown: skipped */
			continue;
		}
		if (size > HM_MAX_SECTION || off > r->file_size || size > r->file_size - off) {
			hm_warn_lost("%s: offset %" PRIu64 ": feature %s (%" PRIu64 " bytes) lies past "
				     "the end of the file; ignored", r->path, off,
				     hm_feature__name(f), size);
			if (!r->trunc_off) {
				r->trunc_off = off;
				snprintf(r->trunc_what, sizeof(r->trunc_what), "feature %s",
					 hm_feature__name(f));
			}
			continue;
		}
		if (!size)
			continue;	/* an empty section (old perfs): the feature is absent */
		sec = malloc(size);
		if (!sec) {
			free(tab);
			return -ENOMEM;
		}
		if ((u64)src_read(r, sec, size, off) != size) {
			hm_warn_lost("%s: offset %" PRIu64 ": cannot read feature %s; ignored",
				     r->path, off, hm_feature__name(f));
			free(sec);
			continue;
		}
		err = hm_feature__parse(r, f, sec, size, off);
		if (err == -ENOMEM) {
			free(sec);
			free(tab);
			return err;
		}
		if (err)
			hm_warn_lost("%s: offset %" PRIu64 ": feature %s is corrupt (%" PRIu64 " bytes); "
				     "ignored", r->path, off, hm_feature__name(f), size);
		else if (!hm_header__has_feat(&r->h, f))
			r->h.feat_bits[f / 64] |= 1ULL << (f % 64);
		free(sec);
	}
	free(tab);
	hm_tracing__attach(r);
	return 0;
}

/*
 * An attr no kernel could have produced: perf cannot parse its samples
 * (evsel__parse_sample), so the file is refused, as perf does.
 */
static int check_attr(struct hm_reader *r, const struct hm_evsel *e, u64 off)
{
	u64 st = e->attr.sample_type;

	if (st & ~(u64)(PERF_SAMPLE_MAX - 1))
		return fail(r, -EINVAL, off, "event %d's sample_type %#" PRIx64 " has bits no "
			    "kernel defines (%#" PRIx64 "); its samples cannot be parsed (perf "
			    "refuses the file too); the attr is corrupt", r->nr_ev - 1, st,
			    st & ~(u64)(PERF_SAMPLE_MAX - 1));
	return 0;
}

static int read_file_header(struct hm_reader *r, const u8 *hb, u64 hsize)
{
	bool sw = r->h.needs_swap;
	u64 attr_size, attrs_off, attrs_size, data_off, data_size, nr_attrs;
	u8 *ent = NULL;
	int err;

	if (hsize != 104 && hsize != 72 && hsize < 104)
		return fail(r, -EINVAL, 8, "file header size %" PRIu64 " is neither 104 nor 72; "
			    "not a perf.data file perf wrote", hsize);
	attr_size = hm_sw64(hm_ld64(hb + 16), sw);
	attrs_off = hm_sw64(hm_ld64(hb + 24), sw);
	attrs_size = hm_sw64(hm_ld64(hb + 32), sw);
	data_off = hm_sw64(hm_ld64(hb + 40), sw);
	data_size = hm_sw64(hm_ld64(hb + 48), sw);
	if (hsize >= 104) {
		for (int i = 0; i < 4; i++)
			r->h.feat_bits[i] = hm_sw64(hm_ld64(hb + 72 + 8 * i), sw);
		if (sw && !hm_header__has_feat(&r->h, HM_FEAT_HOSTNAME)) {
			/* written by a 32-bit perf: bitmap of u32 words */
			for (int i = 0; i < 4; i++) {
				u64 v = hm_ld64(hb + 72 + 8 * i);
				u32 lo = bswap_32((u32)v), hi = bswap_32((u32)(v >> 32));

				r->h.feat_bits[i] = lo | (u64)hi << 32;
			}
			if (!hm_header__has_feat(&r->h, HM_FEAT_HOSTNAME)) {
				memset(r->h.feat_bits, 0, sizeof(r->h.feat_bits));
				r->h.feat_bits[0] = 1ULL << HM_FEAT_BUILD_ID;
			}
		}
	}
	if (attr_size < 64 + 16 || attr_size > 65536)
		return fail(r, -EINVAL, 16, "attr entry size %" PRIu64 " is out of range "
			    "(80..65536); the header is corrupt", attr_size);
	nr_attrs = attrs_size / attr_size;
	if (attrs_size % attr_size || nr_attrs > 65536)
		return fail(r, -EINVAL, 32, "attrs section of %" PRIu64 " bytes is not a multiple "
			    "of the %" PRIu64 "-byte attr entry", attrs_size, attr_size);
	if (!nr_attrs)
		return fail(r, -EINVAL, 32, "the attrs section is empty (size %" PRIu64 "): the file "
			    "names no event, so no sample can be parsed (perf: \"Can't parse "
			    "sample\"); the header is corrupt", attrs_size);
	if (attrs_off < hsize)
		return fail(r, -EINVAL, 24, "the attrs section at offset %" PRIu64 " overlaps the "
			    "%" PRIu64 "-byte file header; the header is corrupt", attrs_off, hsize);
	if (r->file_size != UINT64_MAX && data_off > r->file_size)
		return fail(r, -EINVAL, 40, "data section starts at %" PRIu64 ", past the end "
			    "of the %" PRIu64 "-byte file; the file is truncated", data_off,
			    r->file_size);
	if (data_off < hsize)
		return fail(r, -EINVAL, 40, "data section at %" PRIu64 " overlaps the file "
			    "header; the header is corrupt", data_off);
	ent = malloc(attr_size);
	if (!ent)
		return -ENOMEM;
	for (u64 i = 0; i < nr_attrs; i++) {
		u64 off = attrs_off + i * attr_size, ids_off, ids_size;
		u32 asz;
		u64 *ids = NULL;
		struct hm_evsel *e;

		err = read_at(r, ent, attr_size, off, "an attr entry");
		if (err)
			goto out;
		asz = hm_sw32(hm_ld32(ent + 4), sw);
		if (!asz)
			asz = 64;
		if (asz < 64 || (u64)asz + 16 > attr_size) {
			err = fail(r, -EINVAL, off + 4, "attr %" PRIu64 " says it is %u bytes, which "
				   "does not fit its %" PRIu64 "-byte entry", i, asz, attr_size);
			goto out;
		}
		ids_off = hm_sw64(hm_ld64(ent + asz), sw);
		ids_size = hm_sw64(hm_ld64(ent + asz + 8), sw);
		if (ids_size / 8 > (1u << 24)) {
			err = fail(r, -EINVAL, off + asz + 8, "attr %" PRIu64 " claims %" PRIu64
				   " ids; the header is corrupt", i, ids_size / 8);
			goto out;
		}
		if (ids_size >= 8) {
			ids = malloc(ids_size);
			if (!ids) {
				err = -ENOMEM;
				goto out;
			}
			err = read_at(r, ids, ids_size & ~7ULL, ids_off, "an attr's id list");
			if (err) {
				free(ids);
				goto out;
			}
		}
		e = hm_reader__add_evsel(r, ent, asz, ids, ids_size / 8, sw);
		free(ids);
		if (!e) {
			err = -ENOMEM;
			goto out;
		}
		err = check_attr(r, e, off);
		if (err)
			goto out;
	}
	r->data_start = data_off;
	r->h.data_offset = data_off;
	r->h.data_size = data_size;
	if (!data_size) {
		hm_warn_lost("%s: data size in the header is 0: the recording is incomplete (still "
			     "running, killed, or not properly terminated); reading records to "
			     "the end of the file, header features (topology, event names) are "
			     "not there", r->path);
		memset(r->h.feat_bits, 0, sizeof(r->h.feat_bits));
		r->data_end = UINT64_MAX;
	} else {
		bool none = true;

		r->data_end = data_off + data_size < data_off ? UINT64_MAX : data_off + data_size;
		r->data_end_known = true;
		for (int i = 0; i < HM_FEAT_BITS / 64; i++)
			none &= !r->h.feat_bits[i];
		if (none && r->file_size != UINT64_MAX) {
			/* every perf and hitmap writes features: this is a provisional header */
			hm_warn_lost("%s: the header lists no features: the recording is incomplete "
				     "(still running, or its recorder was killed); reading the %" PRIu64
				     " bytes of records up to its last complete round, without the "
				     "topology and event names", r->path, data_size);
			goto done;
		}
		err = read_features(r, r->data_end);
		if (err)
			goto out;
		read_meta_trailer(r, r->data_end);
	}
done:
	err = 0;
out:
	free(ent);
	return err;
}

static int open_common(struct hm_reader *r)
{
	u8 hb[104];
	u64 magic, hsize;
	int ret;

	r->data_end = UINT64_MAX;
	r->next_flush = 0;
	if (!r->mem) {
		r->buf = malloc(WINDOW);
		if (!r->buf)
			return -ENOMEM;
		r->cap = WINDOW;
	}
	if (r->mem) {
		r->buf = (u8 *)r->mem;
		r->len = r->file_size;
	}
	ret = win_ensure(r, 16);
	if (ret < 0)
		return fail(r, ret, 0, "cannot read: %s", strerror(-ret));
	if (!ret)
		return fail(r, -EINVAL, 0, "too short for a perf.data header (%zu bytes); "
			    "not a perf.data file", r->len - r->head);
	if (!memcmp(r->buf + r->head, "PERFFILE", 8))
		return fail(r, -EPROTONOSUPPORT, 0, "old perf.data format v1 (PERFFILE, perf < 3.x) "
			    "is unsupported; convert it with a newer perf (perf inject -i FILE -o NEW)");
	magic = hm_ld64(r->buf + r->head);
	if (magic == HM_PERF_MAGIC2)
		r->h.needs_swap = false;
	else if (magic == HM_PERF_MAGIC2_SW)
		r->h.needs_swap = true;
	else
		return fail(r, -EINVAL, 0, "bad magic %016" PRIx64 "; not a perf.data file "
			    "(expected PERFILE2)", magic);
	hsize = hm_sw64(hm_ld64(r->buf + r->head + 8), r->h.needs_swap);
	if (hsize == 16) {
		r->h.pipe = true;
		r->head += 16;
		return 0;
	}
	if (!r->mem && !r->seekable)
		return fail(r, -EINVAL, 0, "a file-mode perf.data cannot be streamed from a pipe; "
			    "pass it as -i FILE, or record with -o - for pipe mode");
	ret = win_ensure(r, 72);
	if (ret <= 0)
		return fail(r, ret < 0 ? ret : -EINVAL, 0, "file ends inside the perf.data header");
	memset(hb, 0, sizeof(hb));
	memcpy(hb, r->buf + r->head, r->len - r->head < 104 ? r->len - r->head : 104);
	ret = read_file_header(r, hb, hsize);
	if (ret)
		return ret;
	/* position the window at the data section */
	if (r->mem) {
		r->head = r->data_start;
		r->len = r->file_size < r->data_end ? r->file_size : r->data_end;
		if (r->head > r->len)
			r->head = r->len;
	} else {
		r->head = r->len = 0;
		r->buf_off = r->data_start;
		r->eof = false;
	}
	return 0;
}

static struct hm_reader *reader_alloc(const char *path, const struct hm_reader_opts *opts)
{
	struct hm_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->fd = -1;
	r->last_idx = -1;
	r->path = strdup(path);
	if (!r->path) {
		free(r);
		return NULL;
	}
	if (opts) {
		r->opts = *opts;
	} else {
		r->opts.all_records = true;
	}
	r->ordered = r->opts.ordered;
	return r;
}

struct hm_reader *hm_reader__new(const char *path, const struct hm_reader_opts *opts)
{
	struct hm_reader *r;
	struct stat st;
	int err;

	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	r = reader_alloc(!strcmp(path, "-") ? "<stdin>" : path, opts);
	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	if (!strcmp(path, "-")) {
		r->fd = 0;
	} else {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			err = -errno;
			hm_err("%s: cannot open: %s", path, strerror(errno));
			goto fail;
		}
		r->own_fd = true;
	}
	r->file_size = UINT64_MAX;
	if (!fstat(r->fd, &st) && S_ISREG(st.st_mode)) {
		off_t at = lseek(r->fd, 0, SEEK_CUR);

		r->seekable = true;
		r->file_size = st.st_size;
		if (at > 0) {
			/* stdin redirected into the middle of a file: read from there */
			r->seekable = false;
			r->file_size = UINT64_MAX;
		}
	}
	err = open_common(r);
	if (err)
		goto fail;
	return r;
fail:
	hm_reader__delete(r);
	errno = -err;
	return NULL;
}

struct hm_reader *hm_reader__new_mem(const void *buf, size_t size, const struct hm_reader_opts *opts)
{
	struct hm_reader *r = reader_alloc("<memory>", opts);
	int err;

	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->mem = buf ? buf : (const u8 *)"";
	r->file_size = size;
	r->seekable = true;
	err = open_common(r);
	if (err) {
		hm_reader__delete(r);
		errno = -err;
		return NULL;
	}
	return r;
}

void hm_reader__delete(struct hm_reader *r)
{
	if (!r)
		return;
	if (r->own_fd && r->fd >= 0)
		close(r->fd);
	if (!r->mem)
		free(r->buf);
	for (int i = 0; i < r->nr_ev; i++) {
		free(r->ev[i]->name);
		free(r->ev[i]->ids);
		free(r->ev[i]);
	}
	free(r->ev);
	hm_idmap__exit(&r->ids);
	hm_header__release(&r->h);
	hm_zstream__delete(r->z);
	free(r->scratch);
	free(r->tmp);
	hm_spe__delete(r->spe);
	for (int i = 0; i < 2; i++) {
		free(r->q[i].arena);
		free(r->q[i].ents);
	}
	free(r->path);
	free(r);
}

/* --------------------------------------------------------------- records */

static bool is_kernel_type(u32 t)
{
	return t >= 1 && t < 64;
}

/* evsel of a record, as evlist__event2evsel(); NULL when the id is unknown */
static struct hm_evsel *rec_evsel(struct hm_reader *r, u32 type, const u8 *rec, u32 size, bool sw)
{
	struct hm_evsel *first;
	u64 id;
	int idx;

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
	if (r->last_idx >= 0 && id == r->last_id && r->last_idx < r->nr_ev)
		return r->ev[r->last_idx];
	idx = hm_idmap__find(&r->ids, id);
	if (idx < 0 || idx >= r->nr_ev)
		return NULL;
	r->last_id = id;
	r->last_idx = idx;
	return r->ev[idx];
}

#define S16(o) do { if ((o) + 2 <= end) hm_st16(p + (o), bswap_16(hm_ld16(p + (o)))); } while (0)
#define S32(o) do { if ((o) + 4 <= end) hm_st32(p + (o), bswap_32(hm_ld32(p + (o)))); } while (0)
#define S64(o) do { if ((o) + 8 <= end) hm_st64(p + (o), bswap_64(hm_ld64(p + (o)))); } while (0)
#define S64R(from) do { for (u32 _o = (from); _o + 8 <= end; _o += 8) S64(_o); } while (0)

/*
 * struct perf_record_cpu_map_data at @o (packed: u16 type, then the union at
 * o + 2), as perf_event__cpu_map_swap: CPUS {u16 nr; u16 cpu[]}, MASK
 * {u16 nr; u16 long_size; u32 mask[] at o + 6 | pad[4]; u64 mask[] at
 * o + 10}, RANGE_CPUS {u8 any_cpu; u8 pad; u16 start_cpu; u16 end_cpu}.
 */
static void swap_cpu_map_data(u8 *p, u32 o, u32 end)
{
	u16 type, nr, long_size;

	if (o + 2 > end)
		return;
	S16(o);
	type = hm_ld16(p + o);
	switch (type) {
	case 0:	/* PERF_CPU_MAP__CPUS */
		if (o + 4 > end)
			return;
		S16(o + 2);
		nr = hm_ld16(p + o + 2);
		for (u32 i = 0; i < nr && o + 4 + 2 * i + 2 <= end; i++)
			S16(o + 4 + 2 * i);
		break;
	case 1:	/* PERF_CPU_MAP__MASK */
		if (o + 6 > end)
			return;
		S16(o + 2);
		S16(o + 4);
		nr = hm_ld16(p + o + 2);
		long_size = hm_ld16(p + o + 4);
		if (long_size == 4)
			for (u32 i = 0; i < nr && o + 6 + 4 * i + 4 <= end; i++)
				S32(o + 6 + 4 * i);
		else if (long_size == 8)
			for (u32 i = 0; i < nr && o + 10 + 8 * i + 8 <= end; i++)
				S64(o + 10 + 8 * i);
		break;
	case 2:	/* PERF_CPU_MAP__RANGE_CPUS */
		S16(o + 4);
		S16(o + 6);
		break;
	default:
		break;
	}
}

/* swap a record body in place (header already native) */
static void swap_body(struct hm_reader *r, u8 *p, u32 size)
{
	u32 t = hm_ld32(p);
	u32 tr = is_kernel_type(t) && t != PERF_RECORD_SAMPLE ? r->id_hdr_size : 0;
	u32 end = size >= tr + 8 ? size - tr : 8;

	switch (t) {
	case PERF_RECORD_MMAP:
		S32(8); S32(12); S64(16); S64(24); S64(32);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_AUX:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		S64(8); S64(16); S64(24);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		S32(8); S32(12);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		S32(8); S32(12); S32(16); S32(20); S64(24);
		break;
	case PERF_RECORD_READ:
		S32(8); S32(12); S64R(16);
		break;
	case PERF_RECORD_MMAP2: {
		u16 misc = hm_ld16(p + 4);

		S32(8); S32(12); S64(16); S64(24); S64(32);
		if (!(misc & (1 << 14))) {
			S32(40); S32(44); S64(48); S64(56);
		}
		S32(64); S32(68);
		break;
	}
	case PERF_RECORD_LOST_SAMPLES:
	case 19: /* CGROUP */
	case 21: /* AUX_OUTPUT_HW_ID */
		S64(8);
		break;
	case PERF_RECORD_NAMESPACES:
		S32(8); S32(12); S64R(16);
		break;
	case PERF_RECORD_KSYMBOL:
		S64(8); S32(16);
		if (20 + 2 <= end)
			hm_st16(p + 20, bswap_16(hm_ld16(p + 20)));
		if (22 + 2 <= end)
			hm_st16(p + 22, bswap_16(hm_ld16(p + 22)));
		break;
	case 18: /* BPF_EVENT */
		if (10 <= end)
			hm_st16(p + 8, bswap_16(hm_ld16(p + 8)));
		if (12 <= end)
			hm_st16(p + 10, bswap_16(hm_ld16(p + 10)));
		S32(12);
		break;
	case 20: /* TEXT_POKE */
		S64(8);
		if (18 <= end)
			hm_st16(p + 16, bswap_16(hm_ld16(p + 16)));
		if (20 <= end)
			hm_st16(p + 18, bswap_16(hm_ld16(p + 18)));
		break;
	case HM_RECORD_HEADER_TRACING_DATA:
		S32(8);
		break;
	case HM_RECORD_HEADER_BUILD_ID:
		S32(8);
		break;
	case 22: /* CALLCHAIN_DEFERRED: cookie, nr, ips[] */
	case HM_RECORD_ID_INDEX:	/* nr, {id, idx, cpu, tid}[], {machine_pid, vcpu}[] */
	case HM_RECORD_STAT_CONFIG:	/* nr, {tag, val}[] */
	case HM_RECORD_STAT_ROUND:	/* type, time */
		S64R(8);
		break;
	case HM_RECORD_TIME_CONV:
		/* time_shift, time_mult, time_zero[, time_cycles, time_mask], then u8 caps */
		S64(8); S64(16); S64(24);
		if (size > 32) {
			S64(32); S64(40);
		}
		break;
	case HM_RECORD_HEADER_EVENT_TYPE:	/* event_id, name[] */
		S64(8);
		break;
	case HM_RECORD_HEADER_ATTR: {
		/* perf_event__hdr_attr_swap: the attr (its own size), then u64 ids */
		u32 asz;

		if (size < 16)
			break;
		asz = bswap_32(hm_ld32(p + 12));
		if (!asz)
			asz = 64;
		hm_attr__swap(p + 8, asz < size - 8 ? asz : size - 8);
		if (asz <= size - 8)
			S64R(8 + asz);
		break;
	}
	case HM_RECORD_HEADER_FEATURE:	/* feat id, then the section as in a file */
		S64(8);
		if (size > 16)
			hm_feature__swap(r, hm_ld64(p + 8), p + 16, size - 16);
		break;
	case HM_RECORD_AUXTRACE_ERROR: {
		/* type, code, cpu, pid, tid, fmt, ip[, time], msg[64][, machine_pid, vcpu] */
		u32 fmt;

		S32(8); S32(12); S32(16); S32(20); S32(24); S32(28); S64(32);
		fmt = 32 <= end ? hm_ld32(p + 28) : 0;
		if (fmt)
			S64(40);
		if (fmt >= 2) {
			S32(112); S32(116);
		}
		break;
	}
	case HM_RECORD_CPU_MAP:
		swap_cpu_map_data(p, 8, end);
		break;
	case HM_RECORD_AUXTRACE_INFO:
		S32(8); S32(12); S64R(16);
		break;
	case HM_RECORD_AUXTRACE:
		S64(8); S64(16); S64(24); S32(32); S32(36); S32(40); S32(44);
		break;
	case HM_RECORD_THREAD_MAP:
		S64(8);
		for (u32 o = 16; o + 24 <= end; o += 24)
			S64(o);
		break;
	case HM_RECORD_STAT:
		S64(8); S32(16); S32(20); S64(24); S64(32); S64(40);
		break;
	case HM_RECORD_EVENT_UPDATE:
		/*
		 * type, id, then by type: UNIT (0) and NAME (2) strings, SCALE
		 * (1) a double, CPUS (3) a cpu_map_data.  perf 6.1 swaps only
		 * type and id; the scale and cpus are swapped here too.
		 */
		S64(8); S64(16);
		if (24 <= end && hm_ld64(p + 8) == 1)
			S64(24);
		else if (24 <= end && hm_ld64(p + 8) == 3)
			swap_cpu_map_data(p, 24, end);
		break;
	case HM_RECORD_COMPRESSED2:
		S64(8);
		break;
	default:
		break;	/* SAMPLE is swapped by the sample walker; others left as they are */
	}
}
#undef S16
#undef S32
#undef S64
#undef S64R

static bool bad_cpu(const struct hm_reader *r, u32 cpu)
{
	return cpu >= HM_MAX_CPUS || (r->h.nr_cpus_avail && cpu >= r->h.nr_cpus_avail);
}

/* Decode @rec (native) into @ev. */
static int decode(struct hm_reader *r, const u8 *rec, u32 size, u64 off, bool compressed,
		  struct hm_event *ev)
{
	u32 type = hm_ld32(rec);
	struct hm_evsel *e;

	ev->type = type;
	ev->misc = hm_ld16(rec + 4);
	ev->size = size;
	ev->file_offset = off;
	ev->compressed = compressed;
	ev->data = rec;
	ev->has_sample = false;
	ev->aux = NULL;
	ev->aux_size = 0;
	if (type == HM_RECORD_AUXTRACE && r->opts.aux_payload && size >= 16) {
		ev->aux = r->tmp;
		ev->aux_size = hm_ld64(rec + 8);
	}
	if (type == PERF_RECORD_SAMPLE) {
		u32 bad = 0;

		e = rec_evsel(r, type, rec, size, false);
		hm_sample__init(e, &ev->sample);
		ev->sample.misc = ev->misc;
		if (!e) {
			r->st.nr_unknown_id++;
			return 0;
		}
		if (hm_sample__walk(e, (u8 *)rec + 8, size - 8, false, &ev->sample, &bad))
			return fail(r, -EINVAL, off, "%sSAMPLE of '%s' ends after %u of the bytes its "
				    "sample_type %#" PRIx64 " needs (record size %u); the file is corrupt",
				    compressed ? "(decompressed stream) " : "",
				    e->name ? e->name : "event", bad, (u64)e->attr.sample_type, size);
		ev->has_sample = true;
		if ((e->attr.sample_type & PERF_SAMPLE_CPU) && bad_cpu(r, ev->sample.cpu) &&
		    !r->nr_bad_cpu++)
			hm_warn_lost("%s: offset %" PRIu64 ": SAMPLE on cpu %u, which the file's %u "
				     "CPUs do not have (corrupt?); its socket and node are unknown",
				     r->path, off, ev->sample.cpu, r->h.nr_cpus_avail ?
				     r->h.nr_cpus_avail : HM_MAX_CPUS);
		return 0;
	}
	if (is_kernel_type(type)) {
		e = rec_evsel(r, type, rec, size, false);
		hm_sample__init(e, &ev->sample);
		ev->sample.misc = ev->misc;
		if (e && e->attr.sample_id_all &&
		    !hm_sample__walk_id(e, (u8 *)rec + 8, size - 8, false, &ev->sample))
			ev->has_sample = true;
	} else {
		hm_sample__init(NULL, &ev->sample);
	}
	return 0;
}

static int ingest_attr(struct hm_reader *r, const u8 *rec, u32 size, u64 off)
{
	struct hm_evsel *e;
	u32 asz;
	u64 nids;

	if (size < 8 + 64)
		return fail(r, -EINVAL, off, "HEADER_ATTR of %u bytes is smaller than the "
			    "smallest attr (64 bytes)", size);
	asz = hm_sw32(hm_ld32(rec + 12), r->h.needs_swap);
	if (!asz)
		asz = 64;
	if (asz < 64 || asz > size - 8)
		return fail(r, -EINVAL, off, "HEADER_ATTR says its attr is %u bytes, more than "
			    "the record's %u", asz, size - 8);
	nids = (size - 8 - asz) / 8;
	e = hm_reader__add_evsel(r, rec + 8, asz, (const u64 *)(rec + 8 + asz), nids,
				 r->h.needs_swap);
	if (!e)
		return fail(r, -ENOMEM, off, "out of memory adding an event");
	if (check_attr(r, e, off))
		return r->err;
	hm_tracing__attach(r);
	return 0;
}

static int ingest_id_index(struct hm_reader *r, const u8 *rec, u32 size, u64 off)
{
	bool sw = r->h.needs_swap;
	u64 nr;

	if (size < 16)
		return fail(r, -EINVAL, off, "ID_INDEX of %u bytes has no count", size);
	nr = hm_sw64(hm_ld64(rec + 8), sw);
	if (nr > (size - 16) / 32)
		return fail(r, -EINVAL, off, "ID_INDEX claims %" PRIu64 " entries but holds %u",
			    nr, (size - 16) / 32);
	/*
	 * Entries are { id, idx (the mmap index), cpu, tid }: they tell where an
	 * id was read from, not which event it is (perf's
	 * perf_event__process_id_index only annotates ids it already knows).
	 */
	return 0;
}

static int ingest_tracing_data(struct hm_reader *r, const u8 *nat, u32 size, u64 off)
{
	u32 tsz = hm_ld32(nat + 8);
	int ret;

	if (!r->tmp)
		return 0;
	ret = hm_tracing__parse(&r->h, r->tmp, tsz, NULL);
	if (ret)
		hm_warn("%s: offset %" PRIu64 ": tracing data (%u bytes) does not parse; "
			"tracepoint fields will not be decoded", r->path, off + size, tsz);
	else {
		r->h.feat_bits[0] |= 1ULL << HM_FEAT_TRACING_DATA;
		hm_tracing__attach(r);
		/* keep the raw blob (h->tracing_data) for writers that pass it on */
		free(r->h.tracing_data);
		r->h.tracing_data = r->tmp;
		r->h.tracing_data_size = tsz;
		r->tmp = NULL;
	}
	free(r->tmp);
	r->tmp = NULL;
	return 0;
}

static int ingest_event_update(struct hm_reader *r, const u8 *rec, u32 size)
{
	u64 type, id;
	int idx;

	if (size < 24)
		return 0;
	type = hm_ld64(rec + 8);
	id = hm_ld64(rec + 16);
	if (type != 2)	/* PERF_EVENT_UPDATE__NAME */
		return 0;
	idx = hm_idmap__find(&r->ids, id);
	if (idx >= 0 && idx < r->nr_ev && !r->ev[idx]->name)
		r->ev[idx]->name = strndup((const char *)rec + 24, size - 24);
	return 0;
}

/* Whether AUXTRACE payloads are read into r->tmp (Arm SPE decoding, or handed out). */
static bool aux_kept(const struct hm_reader *r)
{
	return r->spe || r->opts.aux_payload;
}

/* An AUXTRACE payload of @n bytes is about to be kept in r->tmp (Arm SPE). */
static int aux_keep(struct hm_reader *r, u64 n, u64 off)
{
	if (n > HM_MAX_SECTION)
		return fail(r, -EINVAL, off, "AUXTRACE payload of %" PRIu64 " bytes is larger than "
			    "%llu MiB; the file is corrupt", n, HM_MAX_SECTION >> 20);
	free(r->tmp);
	r->tmp = malloc(n ? n : 1);
	if (!r->tmp)
		return fail(r, -ENOMEM, off, "out of memory");
	return 0;
}

/* AUXTRACE_INFO of Arm SPE: set up the decoder and its synthesized "memory" event. */
static int spe_start(struct hm_reader *r, const u8 *nat, u32 size, u64 off)
{
	bool timeless = true;
	u64 id = HM_SPE_SYNTH_ID;
	const struct perf_event_attr *a;
	struct hm_evsel *e;

	if (r->spe || r->opts.aux_payload || size < 16 || hm_ld32(nat + 8) != HM_AUXTRACE_ARM_SPE)
		return 0;
	for (int i = 0; i < r->nr_ev; i++)
		if (r->ev[i]->attr.sample_type & PERF_SAMPLE_TIME)
			timeless = false;
	r->spe = hm_spe__new(nat, size, r->h.cpuid, timeless, r->path, off);
	if (!r->spe) {
		r->err = errno == ENOMEM ? -ENOMEM : -EINVAL;
		r->done = true;
		return r->err;
	}
	a = hm_spe__attr(r->spe);
	e = hm_reader__add_evsel(r, (const u8 *)a, a->size, &id, 1, false);
	if (!e)
		return fail(r, -ENOMEM, off, "out of memory");
	e->attr = *a;	/* native, whatever the file's byte order */
	e->needs_swap = false;
	e->id_pos = hm_sample__id_pos(a->sample_type);
	e->is_pos = hm_sample__is_pos(a->sample_type);
	e->name = strdup("memory");
	r->spe_idx = e->idx;
	hm_spe__sideband(r->spe, r->time_conv, hm_ld16(r->time_conv + 6));
	return 0;
}

/* Side effects of one record.  @raw in file byte order, @nat native. */
static int ingest(struct hm_reader *r, const u8 *raw, const u8 *nat, u32 size, u64 off,
		  bool compressed)
{
	u32 type = hm_ld32(nat);
	int err;

	if (type < HM_RECORD_MAX)
		r->st.nr[type]++;
	if (!hm_record__name(type)) {
		/* perf stops with "failed to process type: N" */
		r->st.nr_unknown++;
		if (++r->nr_bad_type <= 5)
			hm_warn_lost("%s: offset %" PRIu64 ": %s%u-byte record of type %u, which no "
				     "perf defines (perf: \"failed to process type: %u\"); skipped, "
				     "what it held is lost", r->path, off,
				     compressed ? "(decompressed stream) " : "", size, type, type);
	}
	if (r->spe)
		hm_spe__sideband(r->spe, nat, size);
	else if (type == HM_RECORD_TIME_CONV && size <= sizeof(r->time_conv))
		memcpy(r->time_conv, nat, size);
	switch (type) {
	case HM_RECORD_AUXTRACE_INFO:
		return spe_start(r, nat, size, off);
	case HM_RECORD_AUXTRACE:
		if (r->spe && size >= 16 &&
		    hm_spe__auxtrace(r->spe, nat, size, r->tmp, hm_ld64(nat + 8), off + size))
			return fail(r, -EINVAL, off, "the Arm SPE data of this AUXTRACE record "
				    "cannot be decoded");
		break;
	case PERF_RECORD_LOST:
		if (size >= 24)
			r->st.lost += hm_ld64(nat + 16);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (size >= 16)
			r->st.lost_samples += hm_ld64(nat + 8);
		break;
	case HM_RECORD_HEADER_ATTR:
		return ingest_attr(r, raw, size, off);
	case HM_RECORD_HEADER_FEATURE: {
		u64 feat;

		if (size < 16)
			return fail(r, -EINVAL, off, "HEADER_FEATURE of %u bytes has no feature id",
				    size);
		feat = hm_ld64(nat + 8);
		if (feat >= HM_FEAT_BITS || !feat)
			break;		/* the end marker (HEADER_LAST_FEATURE) or junk */
		if (!hm_feature__name((int)feat) && feat != HM_FEAT_HITMAP) {
			r->h.feat_bits[feat / 64] |= 1ULL << (feat % 64);
			break;
		}
		err = hm_feature__parse(r, (int)feat, raw + 16, size - 16, off + 16);
		if (err == -ENOMEM)
			return fail(r, err, off, "out of memory");
		if (err)
			hm_warn("%s: offset %" PRIu64 ": feature %s is corrupt; ignored", r->path,
				off, hm_feature__name((int)feat));
		break;
	}
	case HM_RECORD_HEADER_BUILD_ID:
		err = hm_feature__parse(r, HM_FEAT_BUILD_ID, raw, size, off);
		if (err == -ENOMEM)
			return fail(r, err, off, "out of memory");
		break;
	case HM_RECORD_ID_INDEX:
		return ingest_id_index(r, raw, size, off);
	case HM_RECORD_HEADER_TRACING_DATA:
		return ingest_tracing_data(r, nat, size, off);
	case HM_RECORD_EVENT_UPDATE:
		return ingest_event_update(r, nat, size);
	case HM_RECORD_COMPRESSED:
	case HM_RECORD_COMPRESSED2: {
		const u8 *p = nat + 8;
		u64 n = size - 8;

		if (compressed)
			return fail(r, -EINVAL, off, "compressed record inside compressed data; "
				    "the stream is corrupt");
		if (type == HM_RECORD_COMPRESSED2) {
			if (size < 16)
				return fail(r, -EINVAL, off, "COMPRESSED2 of %u bytes has no data size",
					    size);
			n = hm_ld64(nat + 8);
			p = nat + 16;
			if (n > size - 16u)
				return fail(r, -EINVAL, off, "COMPRESSED2 claims %" PRIu64 " bytes of "
					    "data in a %u-byte record", n, size);
		}
		if (!r->z) {
			r->z = hm_zstream__new();
			if (!r->z)
				return fail(r, -ENOMEM, off, "cannot set up zstd");
		}
		if (hm_zstream__feed(r->z, p, n))
			return fail(r, -ENOMEM, off, "out of memory");
		r->zlast_off = off;
		r->st.compressed_bytes += n;
		break;
	}
	default:
		break;
	}
	return 0;
}

/* Native copy of a record: swapped (other byte order) or realigned. */
static const u8 *nativize(struct hm_reader *r, const u8 *rec, u32 size, u64 off, int *err)
{
	u8 *p;

	*err = 0;
	if (!r->h.needs_swap && !((uintptr_t)rec & 7))
		return rec;
	p = scratch(r, size);
	if (!p) {
		*err = fail(r, -ENOMEM, off, "out of memory");
		return NULL;
	}
	if (p != rec)
		memcpy(p, rec, size);
	if (!r->h.needs_swap)
		return p;
	hm_st32(p, bswap_32(hm_ld32(p)));
	hm_st16(p + 4, bswap_16(hm_ld16(p + 4)));
	hm_st16(p + 6, bswap_16(hm_ld16(p + 6)));
	swap_body(r, p, size);
	if (is_kernel_type(hm_ld32(p))) {
		struct hm_evsel *e = rec_evsel(r, hm_ld32(p), rec, size, true);
		struct hm_sample s;

		if (!e)
			return p;
		hm_sample__init(e, &s);
		if (hm_ld32(p) == PERF_RECORD_SAMPLE)
			hm_sample__walk(e, p + 8, size - 8, true, &s, NULL);
		else if (e->attr.sample_id_all)
			hm_sample__walk_id(e, p + 8, size - 8, true, &s);
	}
	return p;
}

static bool looks_like_text(const u8 *p, size_t n)
{
	if (n < 8)
		return false;
	for (size_t i = 0; i < 8; i++)
		if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\t')
			return false;
		else if (p[i] > 0x7e)
			return false;
	return true;
}

/*
 * Next raw record from the decompressed stream or the window.
 * 1: rec, size, off set; 0: end; <0: error.
 */
static int next_raw(struct hm_reader *r, const u8 **rec, u32 *size, u64 *off, bool *compressed)
{
	bool sw = r->h.needs_swap;
	int ret;

	if (r->z && (hm_zstream__input_left(r->z) || hm_zstream__pending(r->z))) {
		u8 *p;
		size_t avail;
		u64 zoff = hm_zstream__pos(r->z);

		ret = hm_zstream__ensure(r->z, 8, &p, &avail);
		if (ret < 0)
			return fail(r, ret, zoff, "(decompressed stream) zstd error: the compressed "
				    "data is corrupt");
		if (ret > 0) {
			u16 sz = hm_sw16(hm_ld16(p + 6), sw);

			if (sz < 8)
				return fail(r, -EINVAL, zoff, "(decompressed stream) record size %u "
					    "is smaller than its 8-byte header; the file is corrupt", sz);
			ret = hm_zstream__ensure(r->z, sz, &p, &avail);
			if (ret < 0)
				return fail(r, ret, zoff, "(decompressed stream) zstd error: the "
					    "compressed data is corrupt");
			if (ret > 0) {
				u32 t = hm_sw32(hm_ld32(p), sw);

				*rec = p;
				*size = sz;
				*off = zoff;
				*compressed = true;
				hm_zstream__consume(r->z, sz);
				if (t == HM_RECORD_AUXTRACE && sz >= 16) {
					u64 n = hm_sw64(hm_ld64(p + 8), sw);

					/* copy out: skipping moves the window */
					u8 *c = scratch(r, sz);

					if (!c)
						return fail(r, -ENOMEM, zoff, "out of memory");
					if (c != p)
						memcpy(c, p, sz);
					*rec = c;
					if (aux_kept(r) && aux_keep(r, n, zoff))
						return r->err;
					for (u64 done = 0; n;) {
						size_t step = n > 65536 ? 65536 : n;

						ret = hm_zstream__ensure(r->z, step, &p, &avail);
						if (ret <= 0) {
							if (ret < 0)
								return fail(r, ret, zoff, "zstd error");
							step = avail;
							if (!step)
								break;
						}
						if (aux_kept(r))
							memcpy(r->tmp + done, p, step);
						done += step;
						hm_zstream__consume(r->z, step);
						n -= step;
					}
					if (aux_kept(r) && n)
						return fail(r, -EINVAL, zoff, "(decompressed stream) AUXTRACE "
							    "payload cut off %" PRIu64 " bytes short; the file "
							    "is truncated", n);
				}
				return 1;
			}
		}
		/* the rest of this record comes with the next compressed chunk */
	}

	ret = win_ensure(r, 8);
	if (ret < 0)
		return fail(r, ret, win_off(r), "read error: %s", strerror(-ret));
	if (!ret) {
		size_t left = r->len - r->head;

		if (left)
			return fail(r, -EINVAL, win_off(r), "file ends inside a record header "
				    "(%zu bytes left); the file is truncated", left);
		if (r->data_end_known && r->data_end != UINT64_MAX && win_off(r) < r->data_end)
			return fail(r, -EINVAL, win_off(r), "file ends before the end of the data "
				    "section (%" PRIu64 "); the file is truncated", r->data_end);
		if (r->nr_bad_cpu > 1)
			hm_warn("%s: %" PRIu64 " SAMPLEs in all on a CPU the file does not have",
				r->path, r->nr_bad_cpu);
		if (r->nr_bad_type > 5)
			hm_warn("%s: %" PRIu64 " more records of no perf type skipped", r->path,
				r->nr_bad_type - 5);
		if (r->z && hm_zstream__cut(r->z))
			return fail(r, -EBADMSG, r->zlast_off, "the zstd stream ends inside a frame: "
				    "%" PRIu64 " compressed bytes up to the COMPRESSED record at this "
				    "offset do not decompress (perf: \"Couldn't decompress data\"); "
				    "the records they hold are lost; the file is truncated or corrupt",
				    hm_zstream__cut(r->z));
		if (r->z && hm_zstream__pending(r->z))
			hm_warn_lost("%s: %zu bytes of a decompressed record left over at the end; "
				     "last record dropped", r->path, hm_zstream__pending(r->z));
		if (r->trunc_off)
			return fail(r, -EINVAL, r->trunc_off, "%s lies past the end of the %" PRIu64
				    "-byte file; the file is truncated (all records were read)",
				    r->trunc_what, r->file_size);
		return 0;
	}
	{
		const u8 *p = r->buf + r->head;
		u32 t = hm_sw32(hm_ld32(p), sw);
		u16 sz = hm_sw16(hm_ld16(p + 6), sw);
		u64 roff = win_off(r);

		if (sz < 8)
			return fail(r, -EINVAL, roff, "record size %u is smaller than its 8-byte "
				    "header (type %u); the file is corrupt", sz, t);
		ret = win_ensure(r, sz);
		if (ret < 0)
			return fail(r, ret, roff, "read error: %s", strerror(-ret));
		if (!ret && !hm_record__name(t) && r->h.pipe && looks_like_text(p, r->len - r->head)) {
			hm_warn("%s: offset %" PRIu64 ": the stream ends with %zu bytes of text, not "
				"perf records (stderr captured into the file?); ignored", r->path, roff,
				r->len - r->head);
			return 0;
		}
		if (!ret && !hm_record__name(t))
			return fail(r, -EINVAL, roff, "bytes that are not a perf record: unknown "
				    "type %u claiming %u bytes, only %zu left; trailing junk (text "
				    "appended to the stream?) or a truncated file", t, sz,
				    r->len - r->head);
		if (!ret)
			return fail(r, -EINVAL, roff, "%s record of %u bytes is cut off by the end "
				    "of the %s; the file is truncated", hm_record__name(t), sz,
				    r->data_end_known && r->data_end <= r->file_size ?
				    "data section" : "file");
		p = r->buf + r->head;
		r->head += sz;
		*rec = p;
		*size = sz;
		*off = roff;
		*compressed = false;
		if (t == HM_RECORD_AUXTRACE) {
			u64 n;

			if (sz < 16)
				return fail(r, -EINVAL, roff, "AUXTRACE of %u bytes has no size", sz);
			n = hm_sw64(hm_ld64(p + 8), sw);
			/* copy the record out before the payload skip moves the window */
			{
				u8 *c = scratch(r, sz);

				if (!c)
					return fail(r, -ENOMEM, roff, "out of memory");
				memcpy(c, p, sz);
				*rec = c;
			}
			if (aux_kept(r)) {
				if (aux_keep(r, n, roff))
					return r->err;
				ret = win_read_payload(r, n);
				if (ret == -ENOMEM)
					return fail(r, ret, roff, "out of memory");
				ret = ret ? 0 : 1;
			} else {
				ret = win_skip(r, n);
			}
			if (ret < 0)
				return fail(r, ret, roff, "read error: %s", strerror(-ret));
			if (!ret)
				return fail(r, -EINVAL, roff, "AUXTRACE payload of %" PRIu64 " bytes "
					    "runs past the end of the data; the file is truncated", n);
		} else if (t == HM_RECORD_HEADER_TRACING_DATA) {
			u64 n;
			u8 *c;

			if (sz < 12)
				return fail(r, -EINVAL, roff, "HEADER_TRACING_DATA of %u bytes has "
					    "no size", sz);
			n = (hm_sw32(hm_ld32(p + 8), sw) + 7ULL) & ~7ULL;
			if (n > HM_MAX_SECTION)
				return fail(r, -EINVAL, roff, "HEADER_TRACING_DATA claims %" PRIu64
					    " bytes; the file is corrupt", n);
			c = scratch(r, sz);
			if (!c)
				return fail(r, -ENOMEM, roff, "out of memory");
			memcpy(c, p, sz);
			*rec = c;
			ret = win_read_payload(r, n);
			if (ret == -ENOMEM)
				return fail(r, ret, roff, "out of memory");
			if (ret)
				return fail(r, -EINVAL, roff, "file ends inside the %" PRIu64 "-byte "
					    "tracing data that follows HEADER_TRACING_DATA; the file "
					    "is truncated", n);
		}
		return 1;
	}
}

/* The timestamp of a native kernel record without a full decode; -1: none. */
static u64 rec_time(struct hm_reader *r, const u8 *rec, u32 size, u32 type)
{
	struct hm_evsel *e = rec_evsel(r, type, rec, size, false);
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

/* ---------------------------------------------------------------- ordering */

static int qent_cmp(const void *a, const void *b)
{
	const struct qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int oq_push(struct oq *q, const void *rec, u32 len, u64 time, u64 seq, u64 off,
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
		struct qent *e = realloc(q->ents, c * sizeof(*e));

		if (!e)
			return -ENOMEM;
		q->ents = e;
		q->cap = c;
	}
	memcpy(q->arena + q->alen, rec, len);
	q->ents[q->n++] = (struct qent){ .time = time, .seq = seq, .file_offset = off,
					 .off = (u32)q->alen, .len = len,
					 .compressed = compressed };
	q->alen = need;
	return 0;
}

/* Move everything with time <= @limit to the ready queue, sorted. */
static int oq_flush(struct hm_reader *r, u64 limit, const u8 *tail, u32 tail_len, u64 tail_off,
		    bool tail_compressed)
{
	struct oq *cur = &r->q[r->qcur], *nxt = &r->q[!r->qcur];
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
		struct qent *e = &cur->ents[i];

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

static struct oq *ready_q(struct hm_reader *r)
{
	return &r->q[!r->qcur];
}

/* ------------------------------------------------------------------ next */

int hm_reader__next(struct hm_reader *r, struct hm_event *ev)
{
	for (;;) {
		struct oq *rq = ready_q(r);
		const u8 *raw = NULL, *nat;
		u32 size = 0;
		u64 off = 0;
		bool compressed = false;
		int ret;

		if (r->ordered && r->ready_pos < rq->n) {
			struct qent *e = &rq->ents[r->ready_pos++];

			ret = decode(r, rq->arena + e->off, e->len, e->file_offset,
				     e->compressed, ev);
			if (ret)
				return ret;
			r->st.bytes += e->len;
			return 1;
		}
		if (r->ordered && rq->n) {
			rq->n = rq->alen = 0;
			r->ready_pos = 0;
		}
		if (r->spe && hm_spe__next(r->spe, &nat, &size, &off))
			goto have;	/* a sample decoded from Arm SPE AUX data */
		if (r->done)
			return r->err;
		ret = next_raw(r, &raw, &size, &off, &compressed);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			r->done = true;
			if (r->ordered && r->q[r->qcur].n) {
				ret = oq_flush(r, UINT64_MAX, NULL, 0, 0, false);
				if (ret)
					return fail(r, ret, off, "out of memory");
				continue;
			}
			return 0;
		}
		nat = nativize(r, raw, size, off, &ret);
		if (!nat)
			return ret;
		ret = ingest(r, raw, nat, size, off, compressed);
		if (ret)
			return ret;
have:
		/* ingest may have reused the scratch copy (never for kernel records) */
		if (r->ordered && r->nr_ev && !r->ev[0]->attr.sample_id_all)
			r->ordered = false;	/* perf falls back to unordered too */
		if (r->ordered) {
			u32 t = hm_ld32(nat);

			if (t == HM_RECORD_FINISHED_ROUND) {
				u64 limit = r->next_flush;

				ret = oq_flush(r, limit, r->opts.all_records ? nat : NULL, size,
					       off, compressed);
				if (ret)
					return fail(r, ret, off, "out of memory");
				r->next_flush = r->max_ts;
				continue;
			}
			if (is_kernel_type(t) && (r->opts.all_records || t == PERF_RECORD_SAMPLE)) {
				u64 ts = rec_time(r, nat, size, t);

				if (ts != (u64)-1) {
					struct oq *q = &r->q[r->qcur];

					if (ts > r->max_ts)
						r->max_ts = ts;
					ret = oq_push(q, nat, size, ts, r->seq++, off, compressed);
					if (ret)
						return fail(r, ret, off, "out of memory");
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
							return fail(r, ret, off, "out of memory");
					}
					continue;
				}
				ret = decode(r, nat, size, off, compressed, ev);
				if (ret)
					return ret;
				r->st.bytes += size;
				return 1;
			}
		}
		if (!r->opts.all_records && hm_ld32(nat) != PERF_RECORD_SAMPLE)
			continue;
		ret = decode(r, nat, size, off, compressed, ev);
		if (ret)
			return ret;
		r->st.bytes += size;
		return 1;
	}
}
