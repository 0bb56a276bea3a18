// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap's own metadata (feature section HM_FEAT_HITMAP): a list of
 *     { u32 tag; u32 len; u8 data[len]; zeros to the next 8 }
 * Unknown tags are kept as they are (and skipped by whoever does not know
 * them); a length that runs past the section is corrupt.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hitmap/log.h>
#include <hitmap/meta.h>
#include "perfdata/meta-int.h"

struct hm_meta_entry {
	u32	tag;
	u32	len;
	void	*data;
};

struct hm_meta {
	struct hm_meta_entry	*e;
	int			nr, cap;
};

struct hm_meta *hm_meta__new(void)
{
	struct hm_meta *m = calloc(1, sizeof(*m));

	if (!m)
		errno = ENOMEM;
	return m;
}

void hm_meta__delete(struct hm_meta *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++)
		free(m->e[i].data);
	free(m->e);
	free(m);
}

int hm_meta__add(struct hm_meta *m, u32 tag, const void *data, u32 len)
{
	struct hm_meta_entry *e;
	void *copy;

	if (!m || (len && !data))
		return -EINVAL;
	if (len > UINT32_MAX - 8)
		return -E2BIG;
	if (m->nr == m->cap) {
		int cap = m->cap ? m->cap * 2 : 8;

		e = realloc(m->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		m->e = e;
		m->cap = cap;
	}
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	if (len)
		memcpy(copy, data, len);
	m->e[m->nr].tag = tag;
	m->e[m->nr].len = len;
	m->e[m->nr].data = copy;
	m->nr++;
	return 0;
}

int hm_meta__get(const struct hm_meta *m, int i, u32 *tag, const void **data, u32 *len)
{
	if (!m || i < 0 || i >= m->nr)
		return 0;
	if (tag)
		*tag = m->e[i].tag;
	if (data)
		*data = m->e[i].data;
	if (len)
		*len = m->e[i].len;
	return 1;
}

const void *hm_meta__find(const struct hm_meta *m, u32 tag, u32 *len)
{
	int i;

	if (!m)
		return NULL;
	for (i = 0; i < m->nr; i++) {
		if (m->e[i].tag == tag) {
			if (len)
				*len = m->e[i].len;
			return m->e[i].data;
		}
	}
	return NULL;
}

int hm_meta__serialize(const struct hm_meta *m, void **buf, u64 *size)
{
	u64 total = 0, off = 0;
	u8 *p;
	int i;

	if (!m || !buf || !size)
		return -EINVAL;
	for (i = 0; i < m->nr; i++)
		total += 8 + (((u64)m->e[i].len + 7) & ~7ULL);
	p = calloc(1, total ? total : 1);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < m->nr; i++) {
		memcpy(p + off, &m->e[i].tag, 4);
		memcpy(p + off + 4, &m->e[i].len, 4);
		memcpy(p + off + 8, m->e[i].data, m->e[i].len);
		off += 8 + (((u64)m->e[i].len + 7) & ~7ULL);
	}
	*buf = p;
	*size = total;
	return 0;
}

/* Swap the fields of the tags whose layout we know; text stays as is. */
void hm_meta__swap_payload(u32 tag, void *data, u32 len)
{
	u8 *p = data;
	u32 i;

	switch (tag) {
	case HM_META_FUTEX_TABLE:
		if (len >= 32) {
			for (i = 0; i < 16; i += 4) {
				u32 v;

				memcpy(&v, p + i, 4);
				v = bswap_32(v);
				memcpy(p + i, &v, 4);
			}
			for (i = 16; i < 32; i += 8) {
				u64 v;

				memcpy(&v, p + i, 8);
				v = bswap_64(v);
				memcpy(p + i, &v, 8);
			}
		}
		break;
	case HM_META_FUTEX_LAYOUT: {
		struct hm_meta_futex_layout l;
		u32 f;

		if (len < sizeof(l))
			break;
		memcpy(&l, p, sizeof(l));
		l.bucket_size = bswap_32(l.bucket_size);
		l.nr_fields = bswap_32(l.nr_fields);
		for (f = 0; f < 8; f++) {
			l.field[f].offset = bswap_32(l.field[f].offset);
			l.field[f].size = bswap_32(l.field[f].size);
		}
		memcpy(p, &l, sizeof(l));
		break;
	}
	case HM_META_FUTEX_ADDRS:
	case HM_META_FUTEX_MMS:
		for (i = 0; i + 8 <= len; i += 8) {
			u64 v;

			memcpy(&v, p + i, 8);
			v = bswap_64(v);
			memcpy(p + i, &v, 8);
		}
		break;
	default:
		break;
	}
}

struct hm_meta *hm_meta__parse(const void *buf, u64 size, bool needs_swap)
{
	const u8 *p = buf;
	struct hm_meta *m;
	u64 off = 0;
	int err;

	if (!buf && size) {
		errno = EINVAL;
		return NULL;
	}
	m = hm_meta__new();
	if (!m)
		return NULL;
	while (size - off >= 8) {
		u32 tag, len;
		u64 padded;

		memcpy(&tag, p + off, 4);
		memcpy(&len, p + off + 4, 4);
		if (needs_swap) {
			tag = bswap_32(tag);
			len = bswap_32(len);
		}
		if (len > size - off - 8) {
			hm_err("hitmap metadata: offset %llu: entry tag %u claims %u bytes but %llu remain; the section is corrupt, re-record or rewrite the file",
			       (unsigned long long)off, tag, len,
			       (unsigned long long)(size - off - 8));
			err = EINVAL;
			goto fail;
		}
		err = hm_meta__add(m, tag, p + off + 8, len);
		if (err) {
			err = -err;
			goto fail;
		}
		if (needs_swap)
			hm_meta__swap_payload(tag, m->e[m->nr - 1].data, len);
		padded = ((u64)len + 7) & ~7ULL;
		off += 8 + padded;
		if (off > size)		/* last entry's padding cut off */
			off = size;
	}
	return m;
fail:
	hm_meta__delete(m);
	errno = err;
	return NULL;
}
