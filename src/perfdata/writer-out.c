// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer's output: a fixed buffer flushed to the descriptor, in the data
 * section through one continuous zstd stream cut into COMPRESSED or
 * COMPRESSED2 records when compression is on.
 */
#include <byteswap.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "perfdata/writer-int.h"

int hm_writer__write_failed(struct hm_writer *w, int err)
{
	if (!w->err)
		hm_err("%s: write failed: %s; check free space and permissions",
		       w->path, strerror(-err));
	w->err = err;
	return err;
}

int hm_writer__write_full(int fd, const void *p, size_t len)
{
	const u8 *c = p;

	while (len) {
		ssize_t n = write(fd, c, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

u64 hm_writer__sw64(const struct hm_writer *w, u64 v)
{
	return w->swap ? bswap_64(v) : v;
}

void hm_writer__rec_head(const struct hm_writer *w, void *dst, u32 type, u16 misc, u16 size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };

	if (w->swap) {
		h.type = bswap_32(h.type);
		h.misc = bswap_16(h.misc);
		h.size = bswap_16(h.size);
	}
	memcpy(dst, &h, sizeof(h));
}

/* Compress the records in buf into COMPRESSED/COMPRESSED2 records. */
static int zflush(struct hm_writer *w)
{
	ZSTD_inBuffer in = { w->buf, w->buf_len, 0 };
	size_t head = w->comp2 ? 16 : 8, max = w->comp2 ? Z_MAX2 : Z_MAX1;
	int err = 0;

	for (;;) {
		ZSTD_outBuffer out = { w->zbuf + head, max, 0 };
		size_t rem = ZSTD_compressStream2(w->zc, &out, &in, ZSTD_e_flush);

		if (ZSTD_isError(rem)) {
			hm_err("%s: zstd compression failed: %s; write without -z",
			       w->path, ZSTD_getErrorName(rem));
			err = -EIO;
			break;
		}
		if (out.pos) {
			size_t size = head + out.pos;

			if (w->comp2) {
				size_t padded = (size + 7) & ~(size_t)7;
				u64 dsz = hm_writer__sw64(w, out.pos);

				memset(w->zbuf + size, 0, padded - size);
				size = padded;
				memcpy(w->zbuf + 8, &dsz, 8);
			}
			hm_writer__rec_head(w, w->zbuf, w->comp2 ? HM_RECORD_COMPRESSED2 :
					    HM_RECORD_COMPRESSED, 0, (u16)size);
			err = hm_writer__write_full(w->fd, w->zbuf, size);
			if (err)
				break;
			w->data_size += size;
			w->comp_bytes += size;
		}
		if (!rem && in.pos == in.size)
			break;
	}
	w->raw_bytes += w->buf_len;
	w->buf_len = 0;
	if (err && !w->err) {
		if (err == -EIO)
			w->err = err;	/* said above */
		else
			hm_writer__write_failed(w, err);
	}
	return err;
}

int hm_writer__flush(struct hm_writer *w)
{
	int err;

	if (w->err)
		return w->err;
	if (!w->buf_len)
		return 0;
	if (w->zc && w->data_phase)
		return zflush(w);
	err = hm_writer__write_full(w->fd, w->buf, w->buf_len);
	w->buf_len = 0;
	if (err)
		hm_writer__write_failed(w, err);
	return err;
}

u8 *hm_writer__reserve(struct hm_writer *w, size_t len)
{
	if (w->buf_len + len > WBUF_SIZE && hm_writer__flush(w))
		return NULL;
	return w->buf + w->buf_len;
}

int hm_writer__put(struct hm_writer *w, const void *p, size_t len)
{
	while (len) {
		size_t room, n;

		if (w->buf_len == WBUF_SIZE && hm_writer__flush(w))
			return w->err;
		room = WBUF_SIZE - w->buf_len;
		n = len < room ? len : room;
		memcpy(w->buf + w->buf_len, p, n);
		w->buf_len += n;
		p = (const u8 *)p + n;
		len -= n;
	}
	return w->err;
}

/* A record that stays out of the compressed stream (FINISHED_ROUND, AUX data). */
static int write_plain(struct hm_writer *w, const void *rec, size_t size)
{
	int err = hm_writer__flush(w);

	if (!err)
		err = hm_writer__write_full(w->fd, rec, size);
	if (err)
		return hm_writer__write_failed(w, err);
	w->data_size += size;
	return 0;
}

int hm_writer__put_data(struct hm_writer *w, const void *p, size_t len, bool plain)
{
	int err;

	if (w->zc && plain)
		return write_plain(w, p, len);
	err = hm_writer__put(w, p, len);
	if (!err && !w->zc)
		w->data_size += len;
	return err;
}
