// SPDX-License-Identifier: GPL-2.0-only
/*
 * PERF_RECORD_COMPRESSED (81) and COMPRESSED2 (83): the payloads of all
 * records form one zstd stream (perf flushes, it does not end frames), and
 * the decompressed bytes are ordinary records that may straddle chunks.  We
 * decompress lazily into a fixed window, so a small chunk that expands a lot
 * never needs more than the window.
 */
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>
#include "reader-int.h"

#define OUT_WINDOW	(1u << 20)

struct hm_zstream {
	ZSTD_DStream	*zs;
	u8		*in;
	size_t		in_len, in_pos, in_cap;
	u8		*out;
	size_t		out_cap, out_head, out_len;
	u64		pos;
	size_t		hint;	/* ZSTD_decompressStream's last return: input it wants */
	u64		since;	/* input bytes since the last output (a cut frame) */
	bool		full;	/* last call filled the window: zstd may hold more */
};

struct hm_zstream *hm_zstream__new(void)
{
	struct hm_zstream *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->zs = ZSTD_createDStream();
	if (!z->zs) {
		free(z);
		errno = ENOMEM;
		return NULL;
	}
	ZSTD_initDStream(z->zs);
	return z;
}

void hm_zstream__delete(struct hm_zstream *z)
{
	if (!z)
		return;
	ZSTD_freeDStream(z->zs);
	free(z->in);
	free(z->out);
	free(z);
}

int hm_zstream__feed(struct hm_zstream *z, const void *src, size_t n)
{
	size_t left = z->in_len - z->in_pos;

	if (!n)
		return 0;
	if (left)
		memmove(z->in, z->in + z->in_pos, left);
	z->in_len = left;
	z->in_pos = 0;
	if (left + n > z->in_cap) {
		size_t cap = left + n < 65536 ? 65536 : left + n;
		u8 *p = realloc(z->in, cap);

		if (!p)
			return -ENOMEM;
		z->in = p;
		z->in_cap = cap;
	}
	memcpy(z->in + z->in_len, src, n);
	z->in_len += n;
	return 0;
}

int hm_zstream__ensure(struct hm_zstream *z, size_t need, u8 **out, size_t *avail)
{
	while (z->out_len - z->out_head < need) {
		ZSTD_inBuffer ib;
		ZSTD_outBuffer ob;
		size_t r, cap;

		if (z->in_pos >= z->in_len && !z->full)
			break;
		if (z->out_head) {
			memmove(z->out, z->out + z->out_head, z->out_len - z->out_head);
			z->out_len -= z->out_head;
			z->out_head = 0;
		}
		cap = need > OUT_WINDOW ? need : OUT_WINDOW;
		if (cap > z->out_cap) {
			u8 *p = realloc(z->out, cap);

			if (!p)
				return -ENOMEM;
			z->out = p;
			z->out_cap = cap;
		}
		ib = (ZSTD_inBuffer){ z->in, z->in_len, z->in_pos };
		ob = (ZSTD_outBuffer){ z->out, z->out_cap, z->out_len };
		r = ZSTD_decompressStream(z->zs, &ob, &ib);
		if (ZSTD_isError(r))
			return -EBADMSG;
		z->hint = r;
		z->since = ob.pos != z->out_len ? 0 : z->since + (ib.pos - z->in_pos);
		z->full = ob.pos == ob.size;
		if (ib.pos == z->in_pos && ob.pos == z->out_len) {
			/* no progress: treat the chunk as used up */
			z->in_pos = z->in_len;
			z->full = false;
			break;
		}
		z->in_pos = ib.pos;
		z->out_len = ob.pos;
	}
	*out = z->out + z->out_head;
	*avail = z->out_len - z->out_head;
	return *avail >= need;
}

void hm_zstream__consume(struct hm_zstream *z, size_t n)
{
	if (n > z->out_len - z->out_head)
		n = z->out_len - z->out_head;
	z->out_head += n;
	z->pos += n;
}

u64 hm_zstream__pos(const struct hm_zstream *z)
{
	return z->pos;
}

size_t hm_zstream__pending(const struct hm_zstream *z)
{
	return z->out_len - z->out_head;
}

u64 hm_zstream__cut(const struct hm_zstream *z)
{
	/*
	 * Between blocks zstd wants a 3-byte block header (a flushed stream,
	 * as hitmap writes) and after a frame nothing (perf ends a frame per
	 * record); anything else is a block or frame header cut short.
	 */
	if (z->in_pos < z->in_len || z->full || !z->hint || z->hint == 3)
		return 0;
	return z->since ? z->since : 1;
}

bool hm_zstream__input_left(const struct hm_zstream *z)
{
	return z->in_pos < z->in_len || z->full;
}
