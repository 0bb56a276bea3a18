// SPDX-License-Identifier: GPL-2.0-only
/*
 * The file-mode perf.data header: the attrs and their ids, the feature
 * sections (parsed by features.c) and hitmap's metadata trailer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include "reader-int.h"

static int read_at(struct hm_reader *r, void *dst, u64 n, u64 off, const char *what)
{
	ssize_t got;

	if (r->file_size != UINT64_MAX && (off > r->file_size || n > r->file_size - off))
		return hm_reader__fail(r, -EINVAL, off, "%s (%" PRIu64 " bytes) lies past the end "
				       "of the %" PRIu64 "-byte file; the file is truncated or "
				       "corrupt", what, n, r->file_size);
	got = hm_reader__src_read(r, dst, n, off);
	if (got < 0)
		return hm_reader__fail(r, (int)got, off, "cannot read %s: %s", what,
				       strerror((int)-got));
	if ((u64)got != n)
		return hm_reader__fail(r, -EINVAL, off + got, "file ends inside %s; the file is "
				       "truncated", what);
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
	    hm_reader__src_read(r, t, sizeof(t), r->file_size - sizeof(t)) != (ssize_t)sizeof(t))
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
	if (hm_reader__src_read(r, buf, size, off) != (ssize_t)size ||
	    hm_feature__parse(r, HM_FEAT_HITMAP, buf, size, off) < 0)
		hm_warn_lost("%s: offset %" PRIu64 ": hitmap metadata (%" PRIu64 " bytes) is "
			     "unreadable; not used", r->path, off, size);
	free(buf);
}

/*
 * Move r->feat_end past a feature body at @off of @size bytes and its
 * padding.  hitmap pads each body to an 8-byte boundary of the file; older
 * hitmaps padded each body's length to 8 from an odd start (after the
 * COMPRESSED records of -z, which are not padded); perf pads nothing.
 * The furthest of the first two is taken, so that no writer's padding reads
 * as bytes past the sections.  A body that lies past the end of the file
 * counts too: it is reported as cut off, not again as bytes after the
 * sections.
 */
static void note_feat_end(struct hm_reader *r, u64 off, u64 size)
{
	u64 end, abs_pad, len_pad;

	if (off > UINT64_MAX - 16 || size > UINT64_MAX - 16 - off) {
		end = UINT64_MAX;
	} else {
		end = off + size;
		abs_pad = (end + 7) & ~7ULL;
		len_pad = off + ((size + 7) & ~7ULL);
		end = abs_pad > len_pad ? abs_pad : len_pad;
	}
	if (end > r->feat_end)
		r->feat_end = end;
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
		r->feat_end = UINT64_MAX;	/* said: not again as bytes past the sections */
		return 0;
	}
	r->feat_end = feat_off + (u64)nr * 16;
	tab = malloc(nr * 16);
	if (!tab)
		return -ENOMEM;
	if (hm_reader__src_read(r, tab, nr * 16, feat_off) != nr * 16) {
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
		note_feat_end(r, off, size);
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
			continue;
		}
		sec = malloc(size ? size : 1);	/* empty (BRANCH_STACK): the bit stays, as in perf */
		if (!sec) {
			free(tab);
			return -ENOMEM;
		}
		if (size && (u64)hm_reader__src_read(r, sec, size, off) != size) {
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

int hm_reader__read_file_header(struct hm_reader *r, const u8 *hb, u64 hsize)
{
	bool sw = r->h.needs_swap;
	u64 attr_size, attrs_off, attrs_size, data_off, data_size, nr_attrs;
	u8 *ent = NULL;
	int err;

	if (hsize != 104 && hsize != 72 && hsize < 104)
		return hm_reader__fail(r, -EINVAL, 8, "file header size %" PRIu64 " is neither 104 "
				       "nor 72; not a perf.data file perf wrote", hsize);
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
		return hm_reader__fail(r, -EINVAL, 16, "attr entry size %" PRIu64 " is out of "
				       "range (80..65536); the header is corrupt", attr_size);
	nr_attrs = attrs_size / attr_size;
	if (attrs_size % attr_size || nr_attrs > 65536)
		return hm_reader__fail(r, -EINVAL, 32, "attrs section of %" PRIu64 " bytes is not "
				       "a multiple of the %" PRIu64 "-byte attr entry", attrs_size,
				       attr_size);
	if (!nr_attrs)
		return hm_reader__fail(r, -EINVAL, 32, "the attrs section is empty (size %" PRIu64
				       "): the file names no event, so no sample can be parsed "
				       "(perf: \"Can't parse sample\"); the header is corrupt",
				       attrs_size);
	if (attrs_off < hsize)
		return hm_reader__fail(r, -EINVAL, 24, "the attrs section at offset %" PRIu64 " "
				       "overlaps the %" PRIu64 "-byte file header; the header is "
				       "corrupt", attrs_off, hsize);
	if (r->file_size != UINT64_MAX && data_off > r->file_size)
		return hm_reader__fail(r, -EINVAL, 40, "data section starts at %" PRIu64 ", past "
				       "the end of the %" PRIu64 "-byte file; the file is "
				       "truncated", data_off, r->file_size);
	if (data_off < hsize)
		return hm_reader__fail(r, -EINVAL, 40, "data section at %" PRIu64 " overlaps the "
				       "file header; the header is corrupt", data_off);
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
			err = hm_reader__fail(r, -EINVAL, off + 4, "attr %" PRIu64 " says it is %u "
					      "bytes, which does not fit its %" PRIu64 "-byte "
					      "entry", i, asz, attr_size);
			goto out;
		}
		ids_off = hm_sw64(hm_ld64(ent + asz), sw);
		ids_size = hm_sw64(hm_ld64(ent + asz + 8), sw);
		if (ids_size / 8 > (1u << 24)) {
			err = hm_reader__fail(r, -EINVAL, off + asz + 8, "attr %" PRIu64 " claims %"
					      PRIu64 " ids; the header is corrupt", i,
					      ids_size / 8);
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
		err = hm_reader__check_attr(r, e, off);
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
