// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader's input: a fixed window over the file, pipe or memory (records
 * are handed out from it, so memory does not grow with the file), and the
 * records of COMPRESSED/COMPRESSED2 payloads from the zstd stream
 * (compress.c).  AUXTRACE and HEADER_TRACING_DATA payloads that follow their
 * record are skipped or read out here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "reader-int.h"

/* Free room in the window for a read, while counts_order keeps records in it. */
#define WIN_READ_MIN	(128u << 10)

/* 1: @n bytes at head; 0: the stream ends first; <0: I/O error */
int hm_reader__win_ensure(struct hm_reader *r, size_t n)
{
	size_t c;

	if (r->len - r->head >= n)
		return 1;
	if (r->mem)
		return 0;
	if (r->eof)
		return 0;
	if (r->head) {
		/* the records counts_order holds in the window stay (reader-order.c) */
		size_t from = r->head;

		if (r->hold_keep < r->buf_off + from)
			from = r->hold_keep > r->buf_off ? (size_t)(r->hold_keep - r->buf_off) : 0;
		memmove(r->buf, r->buf + from, r->len - from);
		r->buf_off += from;
		r->len -= from;
		r->head -= from;
	}
	/* head > 0 only with records kept: then room for a read of WIN_READ_MIN, grown by doubling */
	c = r->head + n;
	if (r->head && c < r->len + WIN_READ_MIN)
		c = r->len + WIN_READ_MIN;
	if (c > r->cap) {
		u8 *p;

		if (r->head && c < r->cap * 2)
			c = r->cap * 2;
		p = realloc(r->buf, c);
		if (!p)
			return -ENOMEM;
		r->buf = p;
		r->cap = c;
	}
	while (r->len - r->head < n) {
		u64 at = r->buf_off + r->len;
		size_t want = r->cap - r->len;
		ssize_t got;

		if (at >= r->data_end) {
			r->eof = true;
			return 0;
		}
		if (want > r->data_end - at)
			want = r->data_end - at;
		got = hm_reader__src_read(r, r->buf + r->len, want, at);
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

/* hm_reader__win_ensure with its first test inline (twice a record) */
static inline int win_have(struct hm_reader *r, size_t n)
{
	return r->len - r->head >= n ? 1 : hm_reader__win_ensure(r, n);
}

static u64 win_off(const struct hm_reader *r)
{
	return r->buf_off + r->head;
}

/* Skip @n bytes (AUXTRACE payloads).  1 done, 0 stream ended, <0 error. */
static int win_skip(struct hm_reader *r, u64 n)
{
	size_t have = r->len - r->head;
	int err = hm_order__unhold(r);	/* the window moves on */

	if (err < 0)
		return err;

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

		ret = hm_reader__win_ensure(r, step);
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
	int err = hm_order__unhold(r);	/* the window moves on */

	if (err < 0)
		return err;
	free(r->tmp);
	r->tmp = malloc(n ? n : 1);
	if (!r->tmp)
		return -ENOMEM;
	while (done < n) {
		size_t step = n - done > r->cap / 2 ? r->cap / 2 : n - done;
		int ret;

		if (r->mem)
			step = n - done;
		ret = hm_reader__win_ensure(r, step);
		if (ret <= 0)
			return ret < 0 ? ret : -ENODATA;
		memcpy(r->tmp + done, r->buf + r->head, step);
		r->head += step;
		done += step;
	}
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
		return hm_reader__fail(r, -EINVAL, off, "AUXTRACE payload of %" PRIu64 " bytes is "
				       "larger than %llu MiB; the file is corrupt", n,
				       HM_MAX_SECTION >> 20);
	free(r->tmp);
	r->tmp = malloc(n ? n : 1);
	if (!r->tmp)
		return hm_reader__fail(r, -ENOMEM, off, "out of memory");
	return 0;
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
 * The zstd stream failed: named by the COMPRESSED record last reached, the
 * one whose payload zstd was decompressing (decompressed lazily or ahead).
 */
static int zstd_fail(struct hm_reader *r, int err)
{
	if (err != -EBADMSG)
		return hm_reader__fail(r, err, r->zlast_off, "zstd: %s", strerror(-err));
	return hm_reader__fail(r, err, r->zlast_off, "zstd error in the payload of the COMPRESSED "
			       "record at this offset (or one before it): the compressed data is "
			       "corrupt (perf: \"Couldn't decompress data\"); the file is corrupt");
}

/*
 * Next raw record from the decompressed stream or the window.
 * 1: rec, size, off set; 0: end; <0: error.
 */
int hm_reader__next_raw(struct hm_reader *r, const u8 **rec, u32 *size, u64 *off, bool *compressed)
{
	bool sw = r->h.needs_swap;
	int ret;

	if (r->z && (hm_zstream__input_left(r->z) || hm_zstream__pending(r->z))) {
		u8 *p;
		size_t avail;
		u64 zoff = hm_zstream__pos(r->z);

		ret = hm_zstream__ensure(r->z, 8, &p, &avail);
		if (ret < 0)
			return zstd_fail(r, ret);
		if (ret > 0) {
			u16 sz = hm_sw16(hm_ld16(p + 6), sw);

			if (sz < 8)
				return hm_reader__fail(r, -EINVAL, zoff, "(decompressed stream) "
						       "record size %u is smaller than its 8-byte "
						       "header; the file is corrupt", sz);
			ret = hm_zstream__ensure(r->z, sz, &p, &avail);
			if (ret < 0)
				return zstd_fail(r, ret);
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
					u8 *c = hm_reader__scratch(r, sz);

					if (!c)
						return hm_reader__fail(r, -ENOMEM, zoff, "out of "
								       "memory");
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
								return zstd_fail(r, ret);
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
						return hm_reader__fail(r, -EINVAL, zoff,
								       "(decompressed stream) "
								       "AUXTRACE payload cut off %"
								       PRIu64 " bytes short; the "
								       "file is truncated", n);
				}
				return 1;
			}
		}
		/* the rest of this record comes with the next compressed chunk */
	}

	/* a folder (perf record --threads): the next file's turn */
	if (r->dir && hm_dir__due(r) &&
	    ((ret = hm_order__unhold(r)) < 0 || (ret = hm_dir__switch(r, false)) < 0))
		return hm_reader__fail(r, ret, win_off(r), "%s", strerror(-ret));
next_file:
	if (r->mapped && r->head - r->released >= HM_RELEASE_STEP && r->head >= r->release_next)
		hm_order__release(r);
	ret = win_have(r, 8);
	if (ret < 0)
		return hm_reader__fail(r, ret, win_off(r), "read error: %s", strerror(-ret));
	if (!ret) {
		size_t left = r->len - r->head;

		if (left)
			return hm_reader__fail(r, -EINVAL, win_off(r), "file ends inside a record "
					       "header (%zu bytes left); the file is truncated",
					       left);
		if (r->data_end_known && r->data_end != UINT64_MAX && win_off(r) < r->data_end)
			return hm_reader__fail(r, -EINVAL, win_off(r), "file ends before the end "
					       "of the data section (%" PRIu64 "); the file is "
					       "truncated", r->data_end);
		if (r->z && hm_zstream__cut(r->z))
			return hm_reader__fail(r, -EBADMSG, r->zlast_off, "the zstd stream ends "
					       "inside a frame: %" PRIu64 " compressed bytes up to "
					       "the COMPRESSED record at this offset do not "
					       "decompress (perf: \"Couldn't decompress data\"); "
					       "the records they hold are lost; the file is "
					       "truncated or corrupt", hm_zstream__cut(r->z));
		if (r->z && hm_zstream__pending(r->z))
			hm_warn_lost("%s: %zu bytes of a decompressed record left over at the end; "
				     "last record dropped", r->where ? r->where : r->path,
				     hm_zstream__pending(r->z));
		if (r->dir) {
			ret = hm_order__unhold(r);
			if (ret >= 0)
				ret = hm_dir__switch(r, true);
			if (ret < 0)
				return hm_reader__fail(r, ret, win_off(r), "%s", strerror(-ret));
			if (ret)
				goto next_file;
		}
		if (r->nr_bad_cpu > 1)
			hm_warn("%s: %" PRIu64 " SAMPLEs in all on a CPU the file does not have",
				r->path, r->nr_bad_cpu);
		if (r->nr_bad_type > 5)
			hm_warn("%s: %" PRIu64 " more records of no perf type skipped", r->path,
				r->nr_bad_type - 5);
		/*
		 * A feature section cut off by the end of the file was said
		 * (and counted as data lost) when the header was read: every
		 * record is here, so the stream ends normally.
		 */
		return 0;
	}
	{
		const u8 *p = r->buf + r->head;
		u32 t = hm_sw32(hm_ld32(p), sw);
		u16 sz = hm_sw16(hm_ld16(p + 6), sw);
		u64 roff = win_off(r);

		if (sz < 8)
			return hm_reader__fail(r, -EINVAL, roff, "record size %u is smaller than "
					       "its 8-byte header (type %u); the file is corrupt",
					       sz, t);
		ret = win_have(r, sz);
		if (ret < 0)
			return hm_reader__fail(r, ret, roff, "read error: %s", strerror(-ret));
		if (!ret && !hm_record__name(t) && r->h.pipe && looks_like_text(p, r->len - r->head)) {
			hm_warn("%s: offset %" PRIu64 ": the stream ends with %zu bytes of text, not "
				"perf records (stderr captured into the file?); ignored", r->path, roff,
				r->len - r->head);
			return 0;
		}
		if (!ret && !hm_record__name(t))
			return hm_reader__fail(r, -EINVAL, roff, "bytes that are not a perf "
					       "record: unknown type %u claiming %u bytes, only "
					       "%zu left; trailing junk (text appended to the "
					       "stream?) or a truncated file", t, sz,
					       r->len - r->head);
		if (!ret)
			return hm_reader__fail(r, -EINVAL, roff, "%s record of %u bytes is cut off "
					       "by the end of the %s; the file is truncated",
					       hm_record__name(t), sz,
					       r->data_end_known && r->data_end <= r->file_size ? "data section" : "file");
		p = r->buf + r->head;
		r->head += sz;
		*rec = p;
		*size = sz;
		*off = roff;
		*compressed = false;
		if (t == HM_RECORD_AUXTRACE) {
			u64 n;

			if (sz < 16)
				return hm_reader__fail(r, -EINVAL, roff, "AUXTRACE of %u bytes has "
						       "no size", sz);
			n = hm_sw64(hm_ld64(p + 8), sw);
			/* copy the record out before the payload skip moves the window */
			{
				u8 *c = hm_reader__scratch(r, sz);

				if (!c)
					return hm_reader__fail(r, -ENOMEM, roff, "out of memory");
				memcpy(c, p, sz);
				*rec = c;
			}
			if (aux_kept(r)) {
				if (aux_keep(r, n, roff))
					return r->err;
				ret = win_read_payload(r, n);
				if (ret == -ENOMEM)
					return hm_reader__fail(r, ret, roff, "out of memory");
				ret = ret ? 0 : 1;
			} else {
				ret = win_skip(r, n);
			}
			if (ret < 0)
				return hm_reader__fail(r, ret, roff, "read error: %s",
						       strerror(-ret));
			if (!ret)
				return hm_reader__fail(r, -EINVAL, roff, "AUXTRACE payload of %"
						       PRIu64 " bytes runs past the end of the "
						       "data; the file is truncated", n);
			if (r->dir)
				hm_dir__account(r, n);	/* perf's reader counts the payload it skips */
		} else if (t == HM_RECORD_HEADER_TRACING_DATA) {
			u64 n;
			u8 *c;

			if (sz < 12)
				return hm_reader__fail(r, -EINVAL, roff, "HEADER_TRACING_DATA of "
						       "%u bytes has no size", sz);
			n = (hm_sw32(hm_ld32(p + 8), sw) + 7ULL) & ~7ULL;
			if (n > HM_MAX_SECTION)
				return hm_reader__fail(r, -EINVAL, roff, "HEADER_TRACING_DATA "
						       "claims %" PRIu64 " bytes; the file is "
						       "corrupt", n);
			c = hm_reader__scratch(r, sz);
			if (!c)
				return hm_reader__fail(r, -ENOMEM, roff, "out of memory");
			memcpy(c, p, sz);
			*rec = c;
			ret = win_read_payload(r, n);
			if (ret == -ENOMEM)
				return hm_reader__fail(r, ret, roff, "out of memory");
			if (ret)
				return hm_reader__fail(r, -EINVAL, roff, "file ends inside the %"
						       PRIu64 "-byte tracing data that follows "
						       "HEADER_TRACING_DATA; the file is truncated",
						       n);
			if (r->dir)
				hm_dir__account(r, n);
		}
		if (r->dir)
			hm_dir__account(r, sz);
		return 1;
	}
}
