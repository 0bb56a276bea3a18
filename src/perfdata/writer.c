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

#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include <hitmap/meta.h>
#include "perfdata/feat-write.h"

#define HM_PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define HM_FILE_HEADER_SIZE	104
#define HM_FILE_ATTR_STRIDE	(HM_FILE_ATTR_SIZE + 16)
#define WBUF_SIZE		(256 * 1024)
#define REC_MAX			0xffff

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

static int wflush(struct hm_writer *w)
{
	int err;

	if (w->err)
		return w->err;
	if (!w->buf_len)
		return 0;
	err = write_full(w->fd, w->buf, w->buf_len);
	w->buf_len = 0;
	if (err) {
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
	return w->err;
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
		/* Only header-only records have a layout we know here. */
		struct perf_event_header sh;

		if (size != sizeof(sh) || h->size != sizeof(sh)) {
			hm_err("%s: raw record of type %u cannot be byte-swapped; write it with the typed calls",
			       w->path, h->type);
			return -EOPNOTSUPP;
		}
		sh.type = bswap_32(h->type);
		sh.misc = bswap_16(h->misc);
		sh.size = bswap_16(h->size);
		err = wput(w, &sh, sizeof(sh));
		if (!err)
			w->data_size += sizeof(sh);
		return err;
	}
	err = wput(w, rec, size);
	if (!err)
		w->data_size += size;
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

static int write_features(struct hm_writer *w, u64 feat_offset, u64 *bits)
{
	struct hm_fwbuf extra[3];
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
	if (err && w->fd >= 0) {
		/* No valid header: do not leave a file perf would refuse. */
		struct stat st;

		if (!fstat(w->fd, &st) && S_ISREG(st.st_mode))
			unlink(w->path);
	}
	if (w->fd >= 0 && close(w->fd) && !err)
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
	if (!w->closed && w->fd >= 0) {
		/* Abandoned: the file would have no header; remove it. */
		struct stat st;

		if (!fstat(w->fd, &st) && S_ISREG(st.st_mode))
			unlink(w->path);
		close(w->fd);
	}
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
