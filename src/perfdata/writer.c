// SPDX-License-Identifier: GPL-2.0-only
/*
 * File-mode perf.data writer.
 *
 * Layout (the same as perf record's):
 *   0    struct perf_file_header (104 bytes), rewritten at close
 *   104  the ids of every evsel (u64 each)
 *        the attrs section: per evsel a 128-byte attr + {ids offset, size}
 *        data: records, streamed through a fixed buffer as they come
 *        feature index: {offset, size} per set feature bit, ascending
 *        feature bodies (each at an 8-byte boundary of the file)
 * The ids and attrs are laid down when the first record is written, so all
 * evsels must be added before that.  Memory does not grow with records.
 * A bare writer (hm_writer__set_bare) writes the records alone, from
 * offset 0: a data.N file of a perf.data folder (convert-dir.c).
 *
 * This file: set-up, the feature sections, the file header and close; the
 * rest in writer-out.c (buffer, zstd), writer-layout.c (ids and attrs, or
 * pipe mode's header records) and writer-records.c (records).
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hitmap/log.h>
#include <hitmap/meta.h>
#include "perfdata/writer-int.h"
#include "util/errhint.h"

struct perf_file_header_le {
	u64				magic, size, attr_size;
	struct perf_file_section_le	attrs, data, event_types;
	u64				features[HM_FEAT_BITS / 64];
};

/* A writer on @fd (-1: opened by the caller) named @name; NULL: out of memory. */
static struct hm_writer *writer_alloc(int fd, const char *name)
{
	struct hm_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fd = fd;
	w->path = strdup(name);
	w->buf = malloc(WBUF_SIZE);
	if (!w->path || !w->buf) {
		free(w->buf);
		free(w->path);
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->next_auto_id = 1;
	return w;
}

struct hm_writer *hm_writer__new(const char *path)
{
	struct hm_writer *w;
	int saved;

	if (!path || !*path) {
		errno = EINVAL;
		return NULL;
	}
	w = writer_alloc(-1, path);
	if (!w)
		return NULL;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		saved = errno;
		hm_err("%s: cannot create: %s%s", path, strerror(saved), hm_hint__create(saved));
		free(w->buf);
		free(w->path);
		free(w);
		errno = saved;
		return NULL;
	}
	w->own_fd = true;
	return w;
}

struct hm_writer *hm_writer__new_fd(int fd, const char *name)
{
	if (fd < 0) {
		errno = EBADF;
		return NULL;
	}
	return writer_alloc(fd, name && *name ? name : "<output>");
}

int hm_writer__set_pipe(struct hm_writer *w, bool pipe)
{
	if (!w)
		return -EINVAL;
	if (w->laid_out || w->closed) {
		hm_err("%s: pipe mode set after the first record; set it before writing records",
		       w->path);
		return -EBUSY;
	}
	w->pipe = pipe;
	return 0;
}

int hm_writer__set_compression(struct hm_writer *w, int level, bool compressed2)
{
	if (!w)
		return -EINVAL;
	if (w->laid_out || w->closed) {
		hm_err("%s: compression set after the first record; set it before writing records",
		       w->path);
		return -EBUSY;
	}
	if (level < 0 || level > ZSTD_maxCLevel()) {
		hm_err("%s: zstd level %d out of range; use 1..%d (0: no compression)",
		       w->path, level, ZSTD_maxCLevel());
		return -EINVAL;
	}
	w->comp_level = level;
	w->comp2 = compressed2;
	return 0;
}

int hm_writer__set_bare(struct hm_writer *w, bool bare)
{
	if (!w)
		return -EINVAL;
	if (w->laid_out || w->closed) {
		hm_err("%s: bare mode set after the first record; set it before writing records",
		       w->path);
		return -EBUSY;
	}
	w->bare = bare;
	return 0;
}

int hm_writer__set_dir_format(struct hm_writer *w, u64 version)
{
	if (!w)
		return -EINVAL;
	if (w->closed)
		return -EBUSY;
	w->dir_format = version;
	return 0;
}

void hm_writer__comp_stats(const struct hm_writer *w, u64 *raw, u64 *compressed)
{
	if (raw)
		*raw = w ? w->raw_bytes : 0;
	if (compressed)
		*compressed = w ? w->comp_bytes : 0;
}

void hm_writer__features_as_given(struct hm_writer *w)
{
	if (w)
		w->as_given = true;
}

int hm_writer__set_swap(struct hm_writer *w, bool swap)
{
	int i;

	if (!w)
		return -EINVAL;
	for (i = 0; i < HM_FEAT_BITS; i++)
		if (w->feat[i])
			break;
	if (w->laid_out || w->closed || w->nr_ev || i < HM_FEAT_BITS) {
		hm_err("%s: byte order set after events or header; set it right after creating the writer",
		       w->path);
		return -EBUSY;
	}
	w->swap = swap;
	return 0;
}

int hm_writer__add_evsel(struct hm_writer *w, const struct perf_event_attr *attr,
			 const char *name, const u64 *ids, u32 nr_ids)
{
	struct hm_fw_evsel *ev, *e;
	u32 i;

	if (!w || !attr || (nr_ids && !ids))
		return -EINVAL;
	if (w->laid_out || w->closed) {
		hm_err("%s: event added after the first record; add every event before writing records",
		       w->path);
		return -EBUSY;
	}
	ev = realloc(w->ev, (w->nr_ev + 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	w->ev = ev;
	e = &ev[w->nr_ev];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->attr.size = HM_FILE_ATTR_SIZE;
	if (name) {
		e->name = strdup(name);
		if (!e->name)
			return -ENOMEM;
	}
	/*
	 * Every event gets at least one id: perf matches EVENT_DESC names
	 * to events by id, and samples to events by id when there are
	 * several.
	 */
	e->nr_ids = nr_ids ? nr_ids : 1;
	e->ids = calloc(e->nr_ids, sizeof(u64));
	if (!e->ids) {
		free(e->name);
		return -ENOMEM;
	}
	if (nr_ids) {
		memcpy(e->ids, ids, nr_ids * sizeof(u64));
		for (i = 0; i < nr_ids; i++)
			if (ids[i] >= w->next_auto_id)
				w->next_auto_id = ids[i] + 1;
	} else {
		e->ids[0] = w->next_auto_id++;
	}
	return w->nr_ev++;
}

static void fwbuf_free(struct hm_fwbuf *b)
{
	if (b) {
		hm_fwbuf__release(b);
		free(b);
	}
}

int hm_writer__set_header(struct hm_writer *w, const struct hm_header *h)
{
	struct hm_fwbuf *nb[HM_FEAT_BITS] = { NULL };
	int feat, ret = 0;

	if (!w || !h)
		return -EINVAL;
	if (w->closed)
		return -EBUSY;
	for (feat = 1; feat < HM_FEAT_BITS; feat++) {
		struct hm_fwbuf *b;

		if (feat == HM_FEAT_EVENT_DESC)
			continue;
		b = malloc(sizeof(*b));
		if (!b) {
			ret = -ENOMEM;
			goto fail;
		}
		hm_fwbuf__init(b);
		b->swap = w->swap;
		ret = hm_feat__encode(feat, h, b);
		if (ret < 0) {
			hm_err("%s: cannot encode feature bit %d: %s; check the header fields",
			       w->path, feat, strerror(-ret));
			fwbuf_free(b);
			goto fail;
		}
		if (ret == 0) {
			fwbuf_free(b);
			continue;
		}
		nb[feat] = b;
	}
	for (feat = 0; feat < HM_FEAT_BITS; feat++) {
		if (feat == HM_FEAT_AUXTRACE && !nb[feat])
			continue;	/* the index the AUXTRACE records made */
		fwbuf_free(w->feat[feat]);
		w->feat[feat] = nb[feat];
	}
	return 0;
fail:
	for (feat = 0; feat < HM_FEAT_BITS; feat++)
		fwbuf_free(nb[feat]);
	return ret;
}

/*
 * The file header at offset 0: the attrs, the data written so far and
 * @features (NULL: none, a provisional header).
 */
static int put_file_header(struct hm_writer *w, const u64 *features)
{
	struct perf_file_header_le fh;

	memset(&fh, 0, sizeof(fh));
	fh.magic = HM_PERF_MAGIC2;
	fh.size = HM_FILE_HEADER_SIZE;
	fh.attr_size = HM_FILE_ATTR_STRIDE;
	fh.attrs.offset = w->attrs_offset;
	fh.attrs.size = (u64)w->nr_ev * HM_FILE_ATTR_STRIDE;
	fh.data.offset = w->data_offset;
	fh.data.size = w->data_size;
	if (features)
		memcpy(fh.features, features, sizeof(fh.features));
	if (w->swap) {
		u64 *q = (u64 *)&fh;

		for (size_t k = 0; k < sizeof(fh) / 8; k++)
			q[k] = bswap_64(q[k]);
	}
	for (;;) {
		ssize_t n = pwrite(w->fd, &fh, sizeof(fh), 0);
		int err;

		if (n == (ssize_t)sizeof(fh))
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		err = n < 0 ? -errno : -EIO;
		hm_err("%s: offset 0: cannot write the file header: %s; check free space",
		       w->path, strerror(-err));
		return err;
	}
}

/*
 * A provisional file header: the attrs and the data written so far, no
 * features.  A recorder calls it after each round, so a file that is still
 * being written, or whose writer was killed, reads up to its last complete
 * round (readers take "no features" for "incomplete").  hm_writer__close
 * replaces it with the final header.
 */
int hm_writer__sync(struct hm_writer *w)
{
	struct stat st;
	int err = hm_writer__begin(w);

	if (err)
		return err;
	if (w->pipe || w->bare || fstat(w->fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	err = hm_writer__flush(w);
	if (err)
		return err;
	err = put_file_header(w, NULL);
	if (err)
		w->err = err;
	return err;
}

/* A feature section among @body (hitmap's metadata is none). */
static bool any_feature(struct hm_fwbuf *const *body)
{
	for (int feat = 0; feat < HM_FEAT_BITS; feat++)
		if (body[feat] && feat != HM_FEAT_HITMAP)
			return true;
	return false;
}

static int write_features(struct hm_writer *w, u64 feat_offset, u64 *bits)
{
	struct hm_fwbuf extra[5];
	struct hm_fwbuf *body[HM_FEAT_BITS], *meta;
	struct perf_file_section_le sec;
	static const u8 zeros[8];
	int feat, nr = 0, nextra = 0, ret = 0;
	size_t lead;
	u64 off;

	memset(body, 0, sizeof(body));
	for (feat = 0; feat < HM_FEAT_BITS; feat++)
		body[feat] = w->feat[feat];

	/*
	 * EVENT_DESC only when every event has a name: perf would show an
	 * empty name for a nameless entry, where without the section it
	 * makes one from the attr ("cycles", "raw 0x1cd", ...).
	 */
	if (hm_writer__all_named(w)) {
		hm_fwbuf__init(&extra[nextra]);
		extra[nextra].swap = w->swap;
		hm_feat__encode_event_desc(&extra[nextra], w->ev, w->nr_ev);
		body[HM_FEAT_EVENT_DESC] = &extra[nextra++];
	}
	/* the samples' times where the header has none (as_given: none made up) */
	if (!body[HM_FEAT_SAMPLE_TIME] && w->time_seen && !w->as_given) {
		hm_fwbuf__init(&extra[nextra]);
		extra[nextra].swap = w->swap;
		hm_fwbuf__put_u64(&extra[nextra], w->time_first);
		hm_fwbuf__put_u64(&extra[nextra], w->time_last);
		body[HM_FEAT_SAMPLE_TIME] = &extra[nextra++];
	}
	/* COMPRESSED exactly when the records are */
	if (w->zc) {
		hm_writer__encode_compressed(w, &extra[nextra]);
		body[HM_FEAT_COMPRESSED] = &extra[nextra++];
	} else {
		body[HM_FEAT_COMPRESSED] = NULL;
	}
	/* DIR_FORMAT: the "data" file of a folder (encode_raw passes none on) */
	if (w->dir_format) {
		hm_fwbuf__init(&extra[nextra]);
		extra[nextra].swap = w->swap;
		hm_fwbuf__put_u64(&extra[nextra], w->dir_format);
		body[HM_FEAT_DIR_FORMAT] = &extra[nextra++];
	}
	/*
	 * HOSTNAME always, this machine's: perf's byte-order check of the
	 * bitmap needs it.  With as_given (convert), where the header has
	 * none, an empty one only where the bitmap needs a bit: a swapped
	 * file (perf and hitmap tell a 64-bit from a 32-bit writer's bitmap
	 * by it), or one with no other feature (readers take a file without
	 * features for an unfinished recording: hm_writer__sync's header).
	 */
	if (!body[HM_FEAT_HOSTNAME] && (!w->as_given || w->swap || !any_feature(body))) {
		hm_writer__hostname(w, &extra[nextra]);
		body[HM_FEAT_HOSTNAME] = &extra[nextra++];
	}
	/*
	 * hitmap's metadata is not a feature section: perf 6.1's inject
	 * indexes its feature table with every set bit and crashes on bits
	 * it does not know.  It goes after the last feature body instead,
	 * found through a trailer at the end of the file (perf ignores bytes
	 * past the sections it indexes).
	 */
	meta = body[HM_FEAT_HITMAP];
	body[HM_FEAT_HITMAP] = NULL;
	if (meta && meta->err) {
		ret = meta->err;
		goto out;
	}
	for (feat = 0; feat < HM_FEAT_BITS; feat++) {
		if (!body[feat])
			continue;
		if (body[feat]->err) {
			ret = body[feat]->err;
			goto out;
		}
		nr++;
	}

	/*
	 * Index in ascending bit order, then the bodies, each at an 8-byte
	 * boundary of the file.  The index starts where the data ends, which
	 * COMPRESSED records (not padded, as perf writes them) leave at any
	 * offset: zeros up to the boundary go between the index and the
	 * first body (perf finds each body through the index).
	 */
	off = feat_offset + (u64)nr * sizeof(sec);
	lead = (size_t)(-off & 7);
	off += lead;
	for (feat = 0; feat < HM_FEAT_BITS; feat++) {
		if (!body[feat])
			continue;
		sec.offset = hm_writer__sw64(w, off);
		sec.size = hm_writer__sw64(w, body[feat]->len);
		hm_writer__put(w, &sec, sizeof(sec));
		off += (body[feat]->len + 7) & ~(u64)7;
		bits[feat / 64] |= 1ULL << (feat % 64);
	}
	hm_writer__put(w, zeros, lead);
	for (feat = 0; feat < HM_FEAT_BITS; feat++) {
		size_t pad;

		if (!body[feat])
			continue;
		hm_writer__put(w, body[feat]->p, body[feat]->len);
		pad = ((body[feat]->len + 7) & ~(size_t)7) - body[feat]->len;
		hm_writer__put(w, zeros, pad);
	}
	if (meta && meta->len) {
		struct hm_meta_trailer t;
		size_t pad = ((meta->len + 7) & ~(size_t)7) - meta->len;

		t.magic = hm_writer__sw64(w, HM_META_TRAILER_MAGIC);
		t.offset = hm_writer__sw64(w, off);
		t.size = hm_writer__sw64(w, meta->len);
		hm_writer__put(w, meta->p, meta->len);
		hm_writer__put(w, zeros, pad);
		hm_writer__put(w, &t, sizeof(t));
	}
	ret = hm_writer__flush(w);
out:
	while (nextra--)
		hm_fwbuf__release(&extra[nextra]);
	return ret;
}

int hm_writer__close(struct hm_writer *w)
{
	u64 features[HM_FEAT_BITS / 64] = { 0 };
	int err;

	if (!w)
		return -EINVAL;
	if (w->closed)
		return w->err;
	err = hm_writer__begin(w);
	if (err)
		goto out;
	if (w->data_phase) {
		/* the last chunk; the features after it go out plain */
		err = hm_writer__flush(w);
		w->data_phase = false;
		if (err)
			goto out;
	}
	if (w->pipe || w->bare) {
		/* pipe mode, a bare stream: no sections, nothing to rewrite */
		err = hm_writer__flush(w);
		goto out;
	}
	err = write_features(w, w->data_offset + w->data_size, features);
	if (err)
		goto out;
	err = put_file_header(w, features);
out:
	if (err && w->fd >= 0 && w->own_fd) {
		/* No valid header: do not leave a file perf would refuse. */
		struct stat st;

		if (!fstat(w->fd, &st) && S_ISREG(st.st_mode))
			unlink(w->path);
	}
	if (w->fd >= 0 && w->own_fd && close(w->fd) && !err)
		err = -errno;
	w->fd = -1;
	w->closed = true;
	if (err && !w->err)
		w->err = err;
	return err;
}

void hm_writer__delete(struct hm_writer *w)
{
	int i;

	if (!w)
		return;
	if (!w->closed && w->fd >= 0 && w->own_fd) {
		/* Abandoned: the file would have no header; remove it. */
		struct stat st;

		if (!fstat(w->fd, &st) && S_ISREG(st.st_mode))
			unlink(w->path);
		close(w->fd);
	}
	ZSTD_freeCCtx(w->zc);
	free(w->zbuf);
	for (i = 0; i < w->nr_ev; i++) {
		free(w->ev[i].name);
		free(w->ev[i].ids);
	}
	free(w->ev);
	for (i = 0; i < HM_FEAT_BITS; i++)
		fwbuf_free(w->feat[i]);
	free(w->buf);
	free(w->path);
	free(w);
}
