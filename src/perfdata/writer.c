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
 *        feature bodies (8-byte aligned)
 * The ids and attrs are laid down when the first record is written, so all
 * evsels must be added before that.  Memory does not grow with records.
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zstd.h>

#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include <hitmap/meta.h>
#include "perfdata/feat-write.h"

#define HM_PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define HM_FILE_HEADER_SIZE	104
#define HM_FILE_ATTR_STRIDE	(HM_FILE_ATTR_SIZE + 16)
#define WBUF_SIZE		(256 * 1024)
#define REC_MAX			0xffff
/*
 * Compression: the records of one chunk (at most WBUF_SIZE bytes, whole
 * records) are fed to one continuous zstd stream and flushed, as perf
 * record does per mmap read; the output is cut into records of at most
 * 64 KiB.  perf decompresses each record into comp_mmap_len (+ the partial
 * record left over) bytes, so a chunk never exceeds it.
 */
#define Z_MMAP_LEN		(129 * 4096)
#define Z_MAX1			(65536 - 8 - 1)	/* perf's max_record_size */
#define Z_MAX2			(65528 - 16)	/* COMPRESSED2: 16-byte head, 8-aligned */
#define HM_FEAT_LAST_61		32		/* perf 6.1's HEADER_LAST_FEATURE */

struct hm_writer {
	int			fd;
	char			*path;
	struct hm_fw_evsel	*ev;
	int			nr_ev;
	bool			laid_out;
	bool			closed;
	bool			swap;		/* other byte order */
	int			err;		/* sticky write error */
	u64			data_offset, data_size;
	u64			attrs_offset;
	u8			*buf;
	size_t			buf_len;
	struct hm_fwbuf		*feat[HM_FEAT_BITS];
	bool			time_seen;
	u64			time_first, time_last;
	u64			next_auto_id;
	/* output options (hm_writer__set_pipe, __set_compression) */
	bool			own_fd;		/* false: hm_writer__new_fd */
	bool			pipe;
	int			comp_level;	/* 0: off */
	bool			comp2;		/* COMPRESSED2 records */
	ZSTD_CCtx		*zc;		/* set at layout when comp_level */
	u8			*zbuf;
	bool			data_phase;	/* buf holds records (compressed on flush) */
	u64			raw_bytes, comp_bytes;
};

struct perf_file_section_le {
	u64 offset, size;
};

struct perf_file_header_le {
	u64				magic, size, attr_size;
	struct perf_file_section_le	attrs, data, event_types;
	u64				features[HM_FEAT_BITS / 64];
};

static int write_full(int fd, const void *p, size_t len)
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

static int zflush(struct hm_writer *w);

static int wflush(struct hm_writer *w)
{
	int err;

	if (w->err)
		return w->err;
	if (!w->buf_len)
		return 0;
	if (w->zc && w->data_phase)
		return zflush(w);
	err = write_full(w->fd, w->buf, w->buf_len);
	w->buf_len = 0;
	if (err) {
		hm_err("%s: write failed: %s; check free space and permissions",
		       w->path, strerror(-err));
		w->err = err;
	}
	return err;
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
			struct perf_event_header h = {
				.type = w->comp2 ? HM_RECORD_COMPRESSED2 : HM_RECORD_COMPRESSED,
			};
			size_t size = head + out.pos;
			u64 dsz = out.pos;

			if (w->comp2) {
				size_t padded = (size + 7) & ~(size_t)7;

				memset(w->zbuf + size, 0, padded - size);
				size = padded;
				if (w->swap)
					dsz = bswap_64(dsz);
				memcpy(w->zbuf + 8, &dsz, 8);
			}
			h.size = (u16)size;
			if (w->swap) {
				h.type = bswap_32(h.type);
				h.size = bswap_16(h.size);
			}
			memcpy(w->zbuf, &h, sizeof(h));
			err = write_full(w->fd, w->zbuf, size);
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
		if (err != -EIO)
			hm_err("%s: write failed: %s; check free space and permissions",
			       w->path, strerror(-err));
		w->err = err;
	}
	return err;
}

/* Reserve @len contiguous bytes in the buffer. */
static u8 *wreserve(struct hm_writer *w, size_t len)
{
	if (w->buf_len + len > WBUF_SIZE && wflush(w))
		return NULL;
	return w->buf + w->buf_len;
}

static int wput(struct hm_writer *w, const void *p, size_t len)
{
	while (len) {
		size_t room, n;

		if (w->buf_len == WBUF_SIZE && wflush(w))
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

struct hm_writer *hm_writer__new(const char *path)
{
	struct hm_writer *w;
	int saved;

	if (!path || !*path) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		goto err;
	w->fd = -1;
	w->path = strdup(path);
	w->buf = malloc(WBUF_SIZE);
	if (!w->path || !w->buf) {
		errno = ENOMEM;
		goto err_free;
	}
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		saved = errno;
		hm_err("%s: cannot create: %s; check the folder exists and is writable",
		       path, strerror(saved));
		errno = saved;
		goto err_free;
	}
	w->next_auto_id = 1;
	w->own_fd = true;
	return w;

err_free:
	saved = errno;
	free(w->buf);
	free(w->path);
	free(w);
	errno = saved;
err:
	return NULL;
}

struct hm_writer *hm_writer__new_fd(int fd, const char *name)
{
	struct hm_writer *w;

	if (fd < 0) {
		errno = EBADF;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->path = strdup(name && *name ? name : "<output>");
	w->buf = malloc(WBUF_SIZE);
	if (!w->path || !w->buf) {
		free(w->buf);
		free(w->path);
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->fd = fd;
	w->next_auto_id = 1;
	return w;
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

void hm_writer__comp_stats(const struct hm_writer *w, u64 *raw, u64 *compressed)
{
	if (raw)
		*raw = w ? w->raw_bytes : 0;
	if (compressed)
		*compressed = w ? w->comp_bytes : 0;
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

static u64 sw64(const struct hm_writer *w, u64 v)
{
	return w->swap ? bswap_64(v) : v;
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

static int id_ok(u64 st)
{
	return (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) != 0;
}

static int ensure_hostname(struct hm_writer *w, struct hm_fwbuf *b)
{
	struct utsname u;

	hm_fwbuf__init(b);
	b->swap = w->swap;
	hm_fwbuf__put_string(b, uname(&u) ? "unknown" : u.nodename);
	return b->err;
}

static bool all_named(const struct hm_writer *w)
{
	int i;

	for (i = 0; i < w->nr_ev && w->ev[i].name; i++)
		;
	return w->nr_ev && i == w->nr_ev;
}

/* COMPRESSED: { version 0, type 1 (zstd), level, ratio, mmap_len } */
static void encode_compressed(struct hm_writer *w, struct hm_fwbuf *b)
{
	u64 ratio = w->comp_bytes ? w->raw_bytes / w->comp_bytes : 0;

	hm_fwbuf__init(b);
	b->swap = w->swap;
	hm_fwbuf__put_u32(b, 0);
	hm_fwbuf__put_u32(b, 1);
	hm_fwbuf__put_u32(b, (u32)w->comp_level);
	hm_fwbuf__put_u32(b, ratio > 0xffffffffu ? 0xffffffffu : (u32)ratio);
	hm_fwbuf__put_u32(b, Z_MMAP_LEN);
}

static void put_rec_head(struct hm_writer *w, u32 type, u16 misc, u16 size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };

	if (w->swap) {
		h.type = bswap_32(h.type);
		h.misc = bswap_16(h.misc);
		h.size = bswap_16(h.size);
	}
	wput(w, &h, sizeof(h));
}

/*
 * Features perf 6.1 synthesizes in pipe mode (FEAT_OPR entries below its
 * HEADER_LAST_FEATURE; perf report 6.1 fails on higher feature ids).
 */
static bool pipe_feat(int feat)
{
	switch (feat) {
	case HM_FEAT_HOSTNAME: case HM_FEAT_OSRELEASE: case HM_FEAT_VERSION:
	case HM_FEAT_ARCH: case HM_FEAT_NRCPUS: case HM_FEAT_CPUDESC:
	case HM_FEAT_CPUID: case HM_FEAT_TOTAL_MEM: case HM_FEAT_EVENT_DESC:
	case HM_FEAT_CMDLINE: case HM_FEAT_CPU_TOPOLOGY: case HM_FEAT_NUMA_TOPOLOGY:
	case HM_FEAT_PMU_MAPPINGS: case HM_FEAT_GROUP_DESC: case HM_FEAT_SAMPLE_TIME:
	case HM_FEAT_MEM_TOPOLOGY: case HM_FEAT_CLOCKID: case HM_FEAT_BPF_PROG_INFO:
	case HM_FEAT_BPF_BTF: case HM_FEAT_COMPRESSED: case HM_FEAT_CPU_PMU_CAPS:
	case HM_FEAT_CLOCK_DATA: case HM_FEAT_PMU_CAPS:
		return true;
	default:
		return false;
	}
}

/*
 * Not padded to 8 bytes, as perf 6.1 writes them: its process_cpu_topology
 * takes bytes past the topology for die ids, so padding fails the record.
 */
static void put_feature_rec(struct hm_writer *w, int feat, const struct hm_fwbuf *b)
{
	static const u8 zeros[8];
	size_t len = b ? b->len : 0, pad = 0;

	if (16 + len + pad > REC_MAX) {
		hm_warn("%s: feature %s of %zu bytes does not fit a pipe-mode record; left out",
			w->path, hm_feature__name(feat) ? hm_feature__name(feat) : "?", len);
		return;
	}
	put_rec_head(w, HM_RECORD_HEADER_FEATURE, 0, (u16)(16 + len + pad));
	{
		u64 id = sw64(w, (u64)feat);

		wput(w, &id, sizeof(id));
	}
	if (len)
		wput(w, b->p, len);
	wput(w, zeros, pad);
}

/*
 * Pipe mode: the 16-byte pipe header, HEADER_ATTR per event, HEADER_FEATURE
 * per feature perf synthesizes and the end mark, HEADER_TRACING_DATA and
 * HEADER_BUILD_ID records, as perf record -o - writes them.
 */
static int pipe_layout(struct hm_writer *w)
{
	static const u8 zeros[8];
	struct hm_fwbuf extra;
	u64 v;
	int i, feat;

	v = sw64(w, HM_PERF_MAGIC2);
	wput(w, &v, sizeof(v));
	v = sw64(w, 16);
	wput(w, &v, sizeof(v));
	for (i = 0; i < w->nr_ev; i++) {
		u8 img[HM_FILE_ATTR_SIZE];
		size_t sz = 8 + HM_FILE_ATTR_SIZE + 8 * (size_t)w->ev[i].nr_ids;
		u32 k;

		if (sz > REC_MAX) {
			hm_err("%s: event %d has %u ids, too many for a pipe-mode HEADER_ATTR; write a file-mode file",
			       w->path, i, w->ev[i].nr_ids);
			w->err = -E2BIG;
			return w->err;
		}
		put_rec_head(w, HM_RECORD_HEADER_ATTR, 0, (u16)sz);
		hm_feat__attr_image(&w->ev[i].attr, img, w->swap);
		wput(w, img, sizeof(img));
		for (k = 0; k < w->ev[i].nr_ids; k++) {
			v = sw64(w, w->ev[i].ids[k]);
			wput(w, &v, sizeof(v));
		}
	}
	for (feat = 1; feat < HM_FEAT_LAST_61; feat++) {
		if (!pipe_feat(feat))
			continue;
		if (feat == HM_FEAT_HOSTNAME && !w->feat[feat]) {
			if (!ensure_hostname(w, &extra))
				put_feature_rec(w, feat, &extra);
			hm_fwbuf__release(&extra);
		} else if (feat == HM_FEAT_EVENT_DESC && all_named(w)) {
			hm_fwbuf__init(&extra);
			extra.swap = w->swap;
			hm_feat__encode_event_desc(&extra, w->ev, w->nr_ev);
			if (!extra.err)
				put_feature_rec(w, feat, &extra);
			hm_fwbuf__release(&extra);
		} else if (feat == HM_FEAT_COMPRESSED && w->comp_level) {
			encode_compressed(w, &extra);
			if (!extra.err)
				put_feature_rec(w, feat, &extra);
			hm_fwbuf__release(&extra);
		} else if (feat != HM_FEAT_COMPRESSED && w->feat[feat] && !w->feat[feat]->err) {
			put_feature_rec(w, feat, w->feat[feat]);
		}
	}
	put_feature_rec(w, HM_FEAT_LAST_61, NULL);
	/*
	 * Names also as EVENT_UPDATE (NAME) records, as perf record does in
	 * pipe mode: perf 6.1 script names an event it has already named from
	 * its attr only through these.
	 */
	for (i = 0; i < w->nr_ev; i++) {
		size_t n, len;

		if (!w->ev[i].name)
			continue;
		n = strlen(w->ev[i].name) + 1;
		len = (n + 7) & ~(size_t)7;
		if (24 + len > REC_MAX)
			continue;
		put_rec_head(w, HM_RECORD_EVENT_UPDATE, 0, (u16)(24 + len));
		v = sw64(w, 2);		/* PERF_EVENT_UPDATE__NAME */
		wput(w, &v, sizeof(v));
		v = sw64(w, w->ev[i].ids[0]);
		wput(w, &v, sizeof(v));
		wput(w, w->ev[i].name, n);
		wput(w, zeros, len - n);
	}
	if (w->feat[HM_FEAT_TRACING_DATA] && w->feat[HM_FEAT_TRACING_DATA]->len) {
		const struct hm_fwbuf *b = w->feat[HM_FEAT_TRACING_DATA];
		size_t len = b->len, pad = ((len + 7) & ~(size_t)7) - len;
		u32 sz[2] = { (u32)(len + pad), 0 };

		if (w->swap)
			sz[0] = bswap_32(sz[0]);
		put_rec_head(w, HM_RECORD_HEADER_TRACING_DATA, 0, 16);
		wput(w, sz, sizeof(sz));
		wput(w, b->p, len);
		wput(w, zeros, pad);
	}
	if (w->feat[HM_FEAT_BUILD_ID]) {
		/* the file-mode section is these records with type 0 */
		const struct hm_fwbuf *b = w->feat[HM_FEAT_BUILD_ID];
		size_t off = 0;

		while (off + 8 <= b->len) {
			u8 rec[REC_MAX];
			u16 size;
			u32 type = HM_RECORD_HEADER_BUILD_ID;

			memcpy(&size, b->p + off + 6, 2);
			if (w->swap)
				size = bswap_16(size);
			if (size < 8 || off + size > b->len)
				break;
			memcpy(rec, b->p + off, size);
			if (w->swap)
				type = bswap_32(type);
			memcpy(rec, &type, 4);
			/*
			 * A record's size is a multiple of 8 in a pipe (perf 7.x
			 * aborts otherwise); the section's entries are 36 + 64*n
			 * bytes: pad the name with zeros, as perf's own pipe mode does.
			 */
			u16 asize = size <= REC_MAX - 7 ? (u16)((size + 7) & ~7u) : size, hsize = asize;

			memset(rec + size, 0, asize - size);
			if (w->swap)
				hsize = bswap_16(hsize);
			memcpy(rec + 6, &hsize, 2);
			wput(w, rec, asize);
			off += size;
		}
	}
	w->data_offset = 0;
	return w->err;
}

static int start_data(struct hm_writer *w)
{
	if (w->err)
		return w->err;
	if (w->comp_level) {
		w->zc = ZSTD_createCCtx();
		w->zbuf = malloc(REC_MAX + 16);
		if (!w->zc || !w->zbuf ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, w->comp_level))) {
			hm_err("%s: cannot set up zstd compression; out of memory", w->path);
			w->err = -ENOMEM;
			return w->err;
		}
		/* the header goes out plain; records from here on are compressed */
		if (wflush(w))
			return w->err;
	}
	w->data_phase = true;
	return 0;
}

/* Lay down the ids and attrs at 104; data follows. */
static int layout(struct hm_writer *w)
{
	u8 hdr[HM_FILE_HEADER_SIZE] = { 0 };
	u64 off;
	int i;

	if (w->laid_out)
		return w->err;
	if (w->nr_ev > 1) {
		for (i = 0; i < w->nr_ev; i++) {
			if (!id_ok(w->ev[i].attr.sample_type)) {
				hm_err("%s: event %d lacks PERF_SAMPLE_ID or IDENTIFIER; with several events every sample_type needs one",
				       w->path, i);
				return -EINVAL;
			}
		}
	}
	w->laid_out = true;
	if (w->pipe) {
		if (pipe_layout(w))
			return w->err;
		return start_data(w);
	}
	wput(w, hdr, sizeof(hdr));
	for (i = 0; i < w->nr_ev; i++) {
		u32 k;

		for (k = 0; k < w->ev[i].nr_ids; k++) {
			u64 id = sw64(w, w->ev[i].ids[k]);

			wput(w, &id, sizeof(id));
		}
	}
	off = HM_FILE_HEADER_SIZE;
	for (i = 0; i < w->nr_ev; i++)
		off += w->ev[i].nr_ids * sizeof(u64);
	w->attrs_offset = off;
	{
		u64 id_off = HM_FILE_HEADER_SIZE;

		for (i = 0; i < w->nr_ev; i++) {
			u8 img[HM_FILE_ATTR_SIZE];
			struct perf_file_section_le ids = {
				.offset = sw64(w, id_off),
				.size = sw64(w, w->ev[i].nr_ids * sizeof(u64)),
			};

			hm_feat__attr_image(&w->ev[i].attr, img, w->swap);
			wput(w, img, sizeof(img));
			wput(w, &ids, sizeof(ids));
			id_off += w->ev[i].nr_ids * sizeof(u64);
		}
	}
	w->data_offset = off + (u64)w->nr_ev * HM_FILE_ATTR_STRIDE;
	return start_data(w);
}

static int begin(struct hm_writer *w)
{
	if (!w)
		return -EINVAL;
	if (w->closed)
		return -EBUSY;
	if (w->err)
		return w->err;
	return layout(w);
}

/* id_hdr_size of the sample_id_all trailer of the first event (0: none) */
static u32 trailer_size(const struct hm_writer *w)
{
	u64 st;

	if (!w->nr_ev || !w->ev[0].attr.sample_id_all)
		return 0;
	st = w->ev[0].attr.sample_type;
	return 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
		    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
		    !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
}

static void sw32_at(u8 *p, u32 o, u32 end)
{
	u32 v;

	if (o + 4 > end)
		return;
	memcpy(&v, p + o, 4);
	v = bswap_32(v);
	memcpy(p + o, &v, 4);
}

static void sw16_at(u8 *p, u32 o, u32 end)
{
	u16 v;

	if (o + 2 > end)
		return;
	memcpy(&v, p + o, 2);
	v = bswap_16(v);
	memcpy(p + o, &v, 2);
}

static void sw64_at(u8 *p, u32 o, u32 end)
{
	u64 v;

	if (o + 8 > end)
		return;
	memcpy(&v, p + o, 8);
	v = bswap_64(v);
	memcpy(p + o, &v, 8);
}

/*
 * Byte-swap a native record of a type whose layout is known (the inverse of
 * what readers do with a foreign file); the sample_id_all trailer of kernel
 * records laid out from the first event.  Returns false for unknown types.
 */
static bool swap_known(const struct hm_writer *w, u8 *p, u32 size)
{
	u32 type, tr, end, o;
	u16 misc;
	u64 v;

	memcpy(&type, p, 4);
	memcpy(&misc, p + 4, 2);
	tr = type < PERF_RECORD_MAX && type != PERF_RECORD_SAMPLE ? trailer_size(w) : 0;
	if (tr > size - 8)
		return false;
	end = size - tr;
	{
		/* the fixed part each known layout needs; shorter ones are refused */
		u32 min = 8;

		switch (type) {
		case PERF_RECORD_MMAP:		min = 48; break;
		case PERF_RECORD_MMAP2:		min = 80; break;
		case PERF_RECORD_COMM:		min = 24; break;
		case PERF_RECORD_LOST:		min = 24; break;
		case PERF_RECORD_FORK: case PERF_RECORD_EXIT:
		case PERF_RECORD_AUX:
		case PERF_RECORD_THROTTLE: case PERF_RECORD_UNTHROTTLE:
			min = 32; break;
		case PERF_RECORD_ITRACE_START: case PERF_RECORD_SWITCH_CPU_WIDE:
		case PERF_RECORD_LOST_SAMPLES: case PERF_RECORD_CGROUP:
			min = 16; break;
		case PERF_RECORD_KSYMBOL:	min = 32; break;
		case PERF_RECORD_NAMESPACES: case PERF_RECORD_BPF_EVENT:
		case PERF_RECORD_TEXT_POKE:
			min = 24; break;
		default: break;
		}
		if (end < min)
			return false;
	}
	switch (type) {
	case PERF_RECORD_MMAP:
		sw32_at(p, 8, end); sw32_at(p, 12, end);
		sw64_at(p, 16, end); sw64_at(p, 24, end); sw64_at(p, 32, end);
		break;
	case PERF_RECORD_LOST: case PERF_RECORD_AUX:
	case PERF_RECORD_THROTTLE: case PERF_RECORD_UNTHROTTLE:
		sw64_at(p, 8, end); sw64_at(p, 16, end); sw64_at(p, 24, end);
		break;
	case PERF_RECORD_COMM: case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		sw32_at(p, 8, end); sw32_at(p, 12, end);
		break;
	case PERF_RECORD_FORK: case PERF_RECORD_EXIT:
		sw32_at(p, 8, end); sw32_at(p, 12, end); sw32_at(p, 16, end);
		sw32_at(p, 20, end); sw64_at(p, 24, end);
		break;
	case PERF_RECORD_MMAP2:
		sw32_at(p, 8, end); sw32_at(p, 12, end);
		sw64_at(p, 16, end); sw64_at(p, 24, end); sw64_at(p, 32, end);
		if (!(misc & (1 << 14))) {	/* not MMAP_BUILD_ID */
			sw32_at(p, 40, end); sw32_at(p, 44, end);
			sw64_at(p, 48, end); sw64_at(p, 56, end);
		}
		sw32_at(p, 64, end); sw32_at(p, 68, end);
		break;
	case PERF_RECORD_LOST_SAMPLES: case PERF_RECORD_CGROUP:
		sw64_at(p, 8, end);
		break;
	case PERF_RECORD_SWITCH:
	case HM_RECORD_FINISHED_ROUND: case HM_RECORD_FINISHED_INIT:
		break;
	case PERF_RECORD_KSYMBOL:
		sw64_at(p, 8, end); sw32_at(p, 16, end);
		sw16_at(p, 20, end); sw16_at(p, 22, end);
		break;
	case PERF_RECORD_NAMESPACES:	/* pid, tid, u64 nr, { dev, ino }[nr] */
		sw32_at(p, 8, end); sw32_at(p, 12, end);
		for (o = 16; o + 8 <= end; o += 8)
			sw64_at(p, o, end);
		break;
	case PERF_RECORD_BPF_EVENT:	/* u16 type, u16 flags, u32 id, tag[8] */
		sw16_at(p, 8, end); sw16_at(p, 10, end); sw32_at(p, 12, end);
		break;
	case PERF_RECORD_TEXT_POKE:	/* u64 addr, u16 old_len, u16 new_len, bytes */
		sw64_at(p, 8, end); sw16_at(p, 16, end); sw16_at(p, 18, end);
		break;
	case 21:			/* AUX_OUTPUT_HW_ID: u64 hw_id */
		sw64_at(p, 8, end);
		break;
	case HM_RECORD_EVENT_UPDATE:	/* u64 type, u64 id, then UNIT/NAME text or SCALE double */
		if (end < 24)
			return false;
		memcpy(&v, p + 8, 8);
		if (v > 2)		/* CPUS: a cpu map, layout by perf version */
			return false;
		sw64_at(p, 8, end); sw64_at(p, 16, end);
		if (v == 1)
			sw64_at(p, 24, end);
		break;
	case HM_RECORD_THREAD_MAP:	/* u64 nr; { u64 pid; char comm[16]; }[nr] */
		sw64_at(p, 8, end);
		for (o = 16; o + 24 <= end; o += 24)
			sw64_at(p, o, end);
		break;
	case HM_RECORD_ID_INDEX: case HM_RECORD_STAT_ROUND:
	case HM_RECORD_STAT_CONFIG:
		for (o = 8; o + 8 <= end; o += 8)
			sw64_at(p, o, end);
		break;
	case HM_RECORD_AUXTRACE_INFO:	/* u32 type, reserved; u64 priv[] */
		sw32_at(p, 8, end);
		sw32_at(p, 12, end);
		for (o = 16; o + 8 <= end; o += 8)
			sw64_at(p, o, end);
		break;
	case HM_RECORD_AUXTRACE:	/* size, offset, reference; u32 idx, tid, cpu, reserved */
		for (o = 8; o < 32; o += 8)
			sw64_at(p, o, end);
		for (o = 32; o < 48; o += 4)
			sw32_at(p, o, end);
		break;
	case HM_RECORD_TIME_CONV:
		/* shift, mult, zero[, cycles, mask]; the u8 caps after them stay */
		for (o = 8; o + 8 <= end && o < 48; o += 8)
			sw64_at(p, o, end);
		break;
	default:
		if (size == 8)	/* header-only: nothing to swap */
			break;
		return false;
	}
	if (tr) {
		u64 st = w->ev[0].attr.sample_type;

		o = end;
		if (st & PERF_SAMPLE_TID) {
			sw32_at(p, o, size); sw32_at(p, o + 4, size); o += 8;
		}
		if (st & PERF_SAMPLE_TIME) {
			sw64_at(p, o, size); o += 8;
		}
		if (st & PERF_SAMPLE_ID) {
			sw64_at(p, o, size); o += 8;
		}
		if (st & PERF_SAMPLE_STREAM_ID) {
			sw64_at(p, o, size); o += 8;
		}
		if (st & PERF_SAMPLE_CPU) {
			sw32_at(p, o, size); sw32_at(p, o + 4, size); o += 8;
		}
		if (st & PERF_SAMPLE_IDENTIFIER)
			sw64_at(p, o, size);
	}
	sw32_at(p, 0, 8);
	sw16_at(p, 4, 8);
	sw16_at(p, 6, 8);
	return true;
}

bool hm_writer__swappable(const struct hm_writer *w, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	u8 tmp[REC_MAX];

	if (!w || !rec || size < sizeof(*h) || h->size != size || size > REC_MAX)
		return false;
	if (!w->swap)
		return true;
	memcpy(tmp, rec, size);
	return swap_known(w, tmp, (u32)size);
}

/* A record that stays out of the compressed stream (FINISHED_ROUND). */
static int write_plain(struct hm_writer *w, const void *rec, size_t size)
{
	int err = wflush(w);

	if (!err)
		err = write_full(w->fd, rec, size);
	if (err) {
		if (!w->err)
			hm_err("%s: write failed: %s; check free space and permissions",
			       w->path, strerror(-err));
		w->err = err;
		return err;
	}
	w->data_size += size;
	return 0;
}

int hm_writer__write(struct hm_writer *w, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	int err = begin(w);

	if (err)
		return err;
	if (!rec || size < sizeof(*h) || h->size < sizeof(*h) || size < h->size) {
		hm_err("%s: record of %zu bytes with header size %u; a record is at least 8 bytes and holds its header size",
		       w->path, size, rec && size >= sizeof(*h) ? h->size : 0);
		return -EINVAL;
	}
	if (w->swap) {
		/* Only records whose layout we know can be swapped. */
		u8 *p;

		if (h->size != size || !(p = wreserve(w, size)))
			goto noswap;
		memcpy(p, rec, size);
		if (!swap_known(w, p, (u32)size))
			goto noswap;
		if (w->zc && h->type == HM_RECORD_FINISHED_ROUND)
			return write_plain(w, p, size);
		w->buf_len += size;
		if (!w->zc)
			w->data_size += size;
		return 0;
noswap:
		if (w->err)
			return w->err;
		hm_err("%s: raw record of type %u cannot be byte-swapped; write it with the typed calls",
		       w->path, h->type);
		return -EOPNOTSUPP;
	}
	if (w->zc) {
		if (h->type == HM_RECORD_FINISHED_ROUND)
			return write_plain(w, rec, size);
		/* whole records only in a compressed chunk */
		if (!wreserve(w, size))
			return w->err ? w->err : -EIO;
	}
	err = wput(w, rec, size);
	if (!err && !w->zc)
		w->data_size += size;
	return err;
}

int hm_writer__write_auxtrace(struct hm_writer *w, const void *rec, size_t size,
			      const void *payload, u64 n)
{
	const struct perf_event_header *h = rec;
	u8 tmp[64];
	int err = begin(w);

	if (err)
		return err;
	if (!rec || size != 48 || h->size != 48 || h->type != HM_RECORD_AUXTRACE ||
	    (n && !payload)) {
		hm_err("%s: an AUXTRACE record is 48 bytes followed by its payload", w->path);
		return -EINVAL;
	}
	if (w->swap) {
		memcpy(tmp, rec, size);
		swap_known(w, tmp, (u32)size);
		rec = tmp;
	}
	if (!w->pipe) {
		/* the AUXTRACE feature: u64 nr, then {file offset, record size} per record */
		struct hm_fwbuf *b = w->feat[HM_FEAT_AUXTRACE];
		u64 nr;

		if (w->zc && wflush(w))
			return w->err;
		if (!b) {
			b = calloc(1, sizeof(*b));
			if (!b)
				return -ENOMEM;
			hm_fwbuf__init(b);
			b->swap = w->swap;
			hm_fwbuf__put_u64(b, 0);
			w->feat[HM_FEAT_AUXTRACE] = b;
		}
		hm_fwbuf__put_u64(b, w->data_offset + w->data_size);
		hm_fwbuf__put_u64(b, size);	/* the record header's size, as perf */
		if (b->err)
			return b->err;
		nr = (b->len - 8) / 16;
		if (w->swap)
			nr = bswap_64(nr);
		memcpy(b->p, &nr, 8);
	}
	/* perf writes AUX data beside the compressed stream, never into it */
	if (w->zc) {
		err = write_plain(w, rec, size);
		return err || !n ? err : write_plain(w, payload, n);
	}
	err = wput(w, rec, size);
	if (!err && n)
		err = wput(w, payload, n);
	if (!err)
		w->data_size += size + n;
	return err;
}

/* A bounded cursor over the staging area of one record. */
struct rec {
	u8	*p;
	size_t	len;
	bool	overflow;
	bool	swap;
};

static void rput(struct rec *r, const void *d, size_t n)
{
	if (r->overflow || r->len + n > REC_MAX) {
		r->overflow = true;
		return;
	}
	if (d)
		memcpy(r->p + r->len, d, n);
	else
		memset(r->p + r->len, 0, n);
	r->len += n;
}

static void rput64(struct rec *r, u64 v)
{
	if (r->swap)
		v = bswap_64(v);
	rput(r, &v, sizeof(v));
}

static void rput32(struct rec *r, u32 v)
{
	if (r->swap)
		v = bswap_32(v);
	rput(r, &v, sizeof(v));
}

static void rput32x2(struct rec *r, u32 a, u32 b)
{
	rput32(r, a);
	rput32(r, b);
}

static void rput64s(struct rec *r, const u64 *v, u64 n)
{
	u64 i;

	if (!r->swap) {
		if (n > REC_MAX / 8)
			r->overflow = true;
		else
			rput(r, v, (size_t)n * 8);
		return;
	}
	for (i = 0; i < n && !r->overflow; i++)
		rput64(r, v[i]);
}

static void rzero(struct rec *r, u64 n)
{
	if (n > REC_MAX) {
		r->overflow = true;
		return;
	}
	rput(r, NULL, (size_t)n);
}

/*
 * struct perf_branch_entry's flag bitfield as a big-endian compiler lays it
 * out: every field at the mirrored position, its value in natural order
 * (perf undoes it with evsel__bitfield_swap_branch_flags).
 */
static u64 be_branch_flags(u64 v)
{
	static const u8 field[][2] = {	/* LE pos, size */
		{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 },
		{ 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 },
	};
	u64 r = 0;
	size_t i;

	for (i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		unsigned pos = field[i][0], size = field[i][1];
		u64 val = (v >> pos) & ((1ULL << size) - 1);

		r |= val << (64 - pos - size);
	}
	return r;
}

static int commit(struct hm_writer *w, struct rec *r, u32 type, u16 misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };

	if (r->overflow) {
		hm_err("%s: record of type %u larger than 64 KiB; shorten its callchain, raw or stack data",
		       w->path, type);
		return -E2BIG;
	}
	h.size = (u16)r->len;
	if (r->swap) {
		h.type = bswap_32(h.type);
		h.misc = bswap_16(h.misc);
		h.size = bswap_16(h.size);
	}
	memcpy(r->p, &h, sizeof(h));
	w->buf_len += r->len;
	if (!w->zc)
		w->data_size += r->len;
	return 0;
}

static int stage(struct hm_writer *w, struct rec *r)
{
	u8 *p = wreserve(w, REC_MAX);

	if (!p)
		return w->err ? w->err : -EIO;
	r->p = p;
	r->len = sizeof(struct perf_event_header);
	r->overflow = false;
	r->swap = w->swap;
	return 0;
}

static u64 evsel_id(const struct hm_fw_evsel *e, u64 id)
{
	return id ? id : e->ids[0];
}

int hm_writer__write_sample(struct hm_writer *w, int idx, const struct hm_sample *s)
{
	const struct hm_fw_evsel *e;
	const struct perf_event_attr *a;
	struct rec r = { 0 };
	u64 st, n;
	int err = begin(w);

	if (err)
		return err;
	if (idx < 0 || idx >= w->nr_ev || !s)
		return -EINVAL;
	e = &w->ev[idx];
	a = &e->attr;
	st = a->sample_type;
	err = stage(w, &r);
	if (err)
		return err;

	if (st & PERF_SAMPLE_IDENTIFIER)
		rput64(&r, evsel_id(e, s->id));
	if (st & PERF_SAMPLE_IP)
		rput64(&r, s->ip);
	if (st & PERF_SAMPLE_TID)
		rput32x2(&r, s->pid, s->tid);
	if (st & PERF_SAMPLE_TIME) {
		rput64(&r, s->time);
		if (!w->time_seen || s->time < w->time_first)
			w->time_first = s->time;
		if (!w->time_seen || s->time > w->time_last)
			w->time_last = s->time;
		w->time_seen = true;
	}
	if (st & PERF_SAMPLE_ADDR)
		rput64(&r, s->addr);
	if (st & PERF_SAMPLE_ID)
		rput64(&r, evsel_id(e, s->id));
	if (st & PERF_SAMPLE_STREAM_ID)
		rput64(&r, s->stream_id);
	if (st & PERF_SAMPLE_CPU)
		rput32x2(&r, s->cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		rput64(&r, s->period);
	if (st & PERF_SAMPLE_READ) {
		/* s->read: the raw read block (group: starting with nr). */
		u64 rf = a->read_format, per;

		n = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		if (rf & PERF_FORMAT_GROUP) {
			u64 nr = s->read ? s->read[0] : s->read_nr;

			if (nr > REC_MAX / 8)
				r.overflow = true;
			else
				n += 1 + nr * per;
		} else {
			n += per;
		}
		if (!r.overflow) {
			if (s->read)
				rput64s(&r, s->read, n);
			else if (rf & PERF_FORMAT_GROUP) {
				rput64(&r, s->read_nr);
				rzero(&r, (n - 1) * 8);
			} else
				rzero(&r, n * 8);
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (s->callchain_nr > REC_MAX / 8)
			r.overflow = true;
		rput64(&r, s->callchain_nr);
		if (!r.overflow) {
			if (s->callchain)
				rput64s(&r, s->callchain, s->callchain_nr);
			else
				rzero(&r, s->callchain_nr * 8);
		}
	}
	if (st & PERF_SAMPLE_RAW) {
		/* The kernel pads raw data so that u32 size + data is 8-aligned. */
		u64 sz = s->raw_size;
		u64 padded = ((sz + 4 + 7) & ~7ULL) - 4;
		if (padded > REC_MAX)
			r.overflow = true;
		rput32(&r, (u32)padded);
		if (s->raw && !r.overflow)
			rput(&r, s->raw, sz);
		else
			rzero(&r, sz);
		rzero(&r, padded - sz);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (s->branch_nr > REC_MAX / 24)
			r.overflow = true;
		rput64(&r, s->branch_nr);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			rput64(&r, s->branch_hw_idx);
		if (!r.overflow) {
			if (s->branch && !r.swap)
				rput64s(&r, &s->branch[0].from, s->branch_nr * 3);
			else if (s->branch)
				for (n = 0; n < s->branch_nr; n++) {
					rput64(&r, s->branch[n].from);
					rput64(&r, s->branch[n].to);
					rput64(&r, be_branch_flags(s->branch[n].flags));
				}
			else
				rzero(&r, s->branch_nr * sizeof(struct hm_branch_entry));
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		rput64(&r, s->user_regs_abi);
		if (s->user_regs_abi)
			rzero(&r, (u64)__builtin_popcountll(a->sample_regs_user) * 8);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		u64 sz = (s->user_stack_size + 7) & ~7ULL;

		rput64(&r, sz);
		if (sz) {
			rzero(&r, sz);
			rput64(&r, s->user_stack_size);	/* dyn_size */
		}
	}
	if (st & PERF_SAMPLE_WEIGHT)
		rput64(&r, s->weight);
	else if (st & PERF_SAMPLE_WEIGHT_STRUCT)
		/* union perf_sample_weight: var1_dw | var2_w << 32 | var3_w << 48 */
		rput64(&r, (u64)(u32)s->weight | (u64)s->ins_lat << 32 | (u64)s->weight3 << 48);
	if (st & PERF_SAMPLE_DATA_SRC)
		rput64(&r, s->data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		rput64(&r, s->transaction);
	if (st & PERF_SAMPLE_REGS_INTR) {
		rput64(&r, s->intr_regs_abi);
		if (s->intr_regs_abi)
			rzero(&r, (u64)__builtin_popcountll(a->sample_regs_intr) * 8);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		rput64(&r, s->phys_addr);
	if (st & PERF_SAMPLE_CGROUP)
		rput64(&r, s->cgroup);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		rput64(&r, s->data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		rput64(&r, s->code_page_size);
	if (st & PERF_SAMPLE_AUX) {
		u64 sz = (s->aux_size + 7) & ~7ULL;

		rput64(&r, sz);
		rzero(&r, sz);
	}
	return commit(w, &r, PERF_RECORD_SAMPLE, s->misc);
}

/* sample_id_all trailer of a synthesized record, from the first evsel. */
static void trailer(struct hm_writer *w, struct rec *r, u32 pid, u32 tid)
{
	const struct hm_fw_evsel *e;
	u64 st;

	if (!w->nr_ev || !w->ev[0].attr.sample_id_all)
		return;
	e = &w->ev[0];
	st = e->attr.sample_type;
	if (st & PERF_SAMPLE_TID)
		rput32x2(r, pid, tid);
	if (st & PERF_SAMPLE_TIME)
		rput64(r, 0);
	if (st & PERF_SAMPLE_ID)
		rput64(r, e->ids[0]);
	if (st & PERF_SAMPLE_STREAM_ID)
		rput64(r, 0);
	if (st & PERF_SAMPLE_CPU)
		rput32x2(r, 0, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		rput64(r, e->ids[0]);
}

static void put_name(struct rec *r, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t len = (n + 7) & ~(size_t)7;

	rput(r, s, n);
	rzero(r, len - n);
}

int hm_writer__write_comm(struct hm_writer *w, u32 pid, u32 tid, const char *comm)
{
	struct rec r = { 0 };
	int err = begin(w);

	if (err)
		return err;
	if (!comm)
		return -EINVAL;
	err = stage(w, &r);
	if (err)
		return err;
	rput32x2(&r, pid, tid);
	put_name(&r, comm);
	trailer(w, &r, pid, tid);
	return commit(w, &r, PERF_RECORD_COMM, 0);
}

int hm_writer__write_mmap2(struct hm_writer *w, u32 pid, u32 tid, u64 start,
			   u64 len, u64 pgoff, u32 prot, u32 flags,
			   const char *filename, u16 misc)
{
	struct rec r = { 0 };
	int err = begin(w);

	if (err)
		return err;
	if (!filename)
		return -EINVAL;
	err = stage(w, &r);
	if (err)
		return err;
	rput32x2(&r, pid, tid);
	rput64(&r, start);
	rput64(&r, len);
	rput64(&r, pgoff);
	rput32x2(&r, 0, 0);	/* maj, min */
	rput64(&r, 0);		/* ino */
	rput64(&r, 0);		/* ino_generation */
	rput32x2(&r, prot, flags);
	put_name(&r, filename);
	trailer(w, &r, pid, tid);
	return commit(w, &r, PERF_RECORD_MMAP2, misc);
}

int hm_writer__write_finished_round(struct hm_writer *w)
{
	struct perf_event_header h = {
		.type = HM_RECORD_FINISHED_ROUND,
		.size = sizeof(h),
	};

	return hm_writer__write(w, &h, sizeof(h));
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
	struct perf_file_header_le fh;
	struct stat st;
	int err = begin(w);

	if (err)
		return err;
	if (w->pipe || fstat(w->fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	err = wflush(w);
	if (err)
		return err;
	memset(&fh, 0, sizeof(fh));
	fh.magic = HM_PERF_MAGIC2;
	fh.size = HM_FILE_HEADER_SIZE;
	fh.attr_size = HM_FILE_ATTR_STRIDE;
	fh.attrs.offset = w->attrs_offset;
	fh.attrs.size = (u64)w->nr_ev * HM_FILE_ATTR_STRIDE;
	fh.data.offset = w->data_offset;
	fh.data.size = w->data_size;
	if (w->swap) {
		u64 *q = (u64 *)&fh;

		for (size_t k = 0; k < sizeof(fh) / 8; k++)
			q[k] = bswap_64(q[k]);
	}
	if (pwrite(w->fd, &fh, sizeof(fh), 0) != (ssize_t)sizeof(fh)) {
		err = -errno;
		hm_err("%s: offset 0: cannot write the file header: %s; check free space",
		       w->path, strerror(errno));
		w->err = err;
	}
	return err;
}

static int write_features(struct hm_writer *w, u64 feat_offset, u64 *bits)
{
	struct hm_fwbuf extra[4];
	struct hm_fwbuf *body[HM_FEAT_BITS], *meta;
	struct perf_file_section_le sec;
	static const u8 zeros[8];
	int feat, nr = 0, nextra = 0, ret = 0;
	u64 off;

	memset(body, 0, sizeof(body));
	for (feat = 0; feat < HM_FEAT_BITS; feat++)
		body[feat] = w->feat[feat];

	/* HOSTNAME always: perf's byte-order check of the bitmap needs it. */
	if (!body[HM_FEAT_HOSTNAME]) {
		struct utsname u;

		hm_fwbuf__init(&extra[nextra]);
		extra[nextra].swap = w->swap;
		hm_fwbuf__put_string(&extra[nextra], uname(&u) ? "unknown" : u.nodename);
		body[HM_FEAT_HOSTNAME] = &extra[nextra++];
	}
	/*
	 * EVENT_DESC only when every event has a name: perf would show an
	 * empty name for a nameless entry, where without the section it
	 * makes one from the attr ("cycles", "raw 0x1cd", ...).
	 */
	for (feat = 0; feat < w->nr_ev && w->ev[feat].name; feat++)
		;
	if (w->nr_ev && feat == w->nr_ev) {
		hm_fwbuf__init(&extra[nextra]);
		extra[nextra].swap = w->swap;
		hm_feat__encode_event_desc(&extra[nextra], w->ev, w->nr_ev);
		body[HM_FEAT_EVENT_DESC] = &extra[nextra++];
	}
	if (!body[HM_FEAT_SAMPLE_TIME] && w->time_seen) {
		hm_fwbuf__init(&extra[nextra]);
		extra[nextra].swap = w->swap;
		hm_fwbuf__put_u64(&extra[nextra], w->time_first);
		hm_fwbuf__put_u64(&extra[nextra], w->time_last);
		body[HM_FEAT_SAMPLE_TIME] = &extra[nextra++];
	}
	/* COMPRESSED exactly when the records are */
	if (w->zc) {
		encode_compressed(w, &extra[nextra]);
		body[HM_FEAT_COMPRESSED] = &extra[nextra++];
	} else {
		body[HM_FEAT_COMPRESSED] = NULL;
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

	/* Index in ascending bit order, then the bodies, each 8-aligned. */
	off = feat_offset + (u64)nr * sizeof(sec);
	for (feat = 0; feat < HM_FEAT_BITS; feat++) {
		if (!body[feat])
			continue;
		sec.offset = sw64(w, off);
		sec.size = sw64(w, body[feat]->len);
		wput(w, &sec, sizeof(sec));
		off += (body[feat]->len + 7) & ~(u64)7;
		bits[feat / 64] |= 1ULL << (feat % 64);
	}
	for (feat = 0; feat < HM_FEAT_BITS; feat++) {
		size_t pad;

		if (!body[feat])
			continue;
		wput(w, body[feat]->p, body[feat]->len);
		pad = ((body[feat]->len + 7) & ~(size_t)7) - body[feat]->len;
		wput(w, zeros, pad);
	}
	if (meta && meta->len) {
		struct hm_meta_trailer t;
		size_t pad = ((meta->len + 7) & ~(size_t)7) - meta->len;

		t.magic = sw64(w, HM_META_TRAILER_MAGIC);
		t.offset = sw64(w, off);
		t.size = sw64(w, meta->len);
		wput(w, meta->p, meta->len);
		wput(w, zeros, pad);
		wput(w, &t, sizeof(t));
	}
	ret = wflush(w);
out:
	while (nextra--)
		hm_fwbuf__release(&extra[nextra]);
	return ret;
}

int hm_writer__close(struct hm_writer *w)
{
	struct perf_file_header_le fh;
	int err;

	if (!w)
		return -EINVAL;
	if (w->closed)
		return w->err;
	err = begin(w);
	if (err)
		goto out;
	if (w->data_phase) {
		/* the last chunk; the features after it go out plain */
		err = wflush(w);
		w->data_phase = false;
		if (err)
			goto out;
	}
	if (w->pipe) {
		/* pipe mode: no sections, nothing to rewrite */
		err = wflush(w);
		goto out;
	}
	memset(&fh, 0, sizeof(fh));
	err = write_features(w, w->data_offset + w->data_size, fh.features);
	if (err)
		goto out;
	fh.magic = HM_PERF_MAGIC2;
	fh.size = HM_FILE_HEADER_SIZE;
	fh.attr_size = HM_FILE_ATTR_STRIDE;
	fh.attrs.offset = w->attrs_offset;
	fh.attrs.size = (u64)w->nr_ev * HM_FILE_ATTR_STRIDE;
	fh.data.offset = w->data_offset;
	fh.data.size = w->data_size;
	if (w->swap) {
		u64 *q = (u64 *)&fh;
		size_t k;

		for (k = 0; k < sizeof(fh) / 8; k++)
			q[k] = bswap_64(q[k]);
	}
	for (;;) {
		ssize_t n = pwrite(w->fd, &fh, sizeof(fh), 0);

		if (n == (ssize_t)sizeof(fh))
			break;
		if (n < 0 && errno == EINTR)
			continue;
		err = n < 0 ? -errno : -EIO;
		hm_err("%s: offset 0: cannot write the file header: %s; check free space",
		       w->path, strerror(-err));
		goto out;
	}
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
