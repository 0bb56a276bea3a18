// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the writer lays down before the first record: in file mode the ids
 * and the attrs after the 104-byte header (rewritten at close); in pipe mode
 * the 16-byte pipe header, HEADER_ATTR, HEADER_FEATURE, EVENT_UPDATE,
 * HEADER_TRACING_DATA and HEADER_BUILD_ID records, as perf record -o -
 * writes them.  Then the data phase starts (compressed when asked).
 */
#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <hitmap/log.h>
#include "perfdata/writer-int.h"

static int id_ok(u64 st)
{
	return (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) != 0;
}

int hm_writer__hostname(struct hm_writer *w, struct hm_fwbuf *b)
{
	struct utsname u;

	hm_fwbuf__init(b);
	b->swap = w->swap;
	if (w->as_given)
		hm_fwbuf__put_string(b, "");
	else
		hm_fwbuf__put_string(b, uname(&u) ? "unknown" : u.nodename);
	return b->err;
}

bool hm_writer__all_named(const struct hm_writer *w)
{
	int i;

	for (i = 0; i < w->nr_ev && w->ev[i].name; i++)
		;
	return w->nr_ev && i == w->nr_ev;
}

/* COMPRESSED: { version 0, type 1 (zstd), level, ratio, mmap_len } */
void hm_writer__encode_compressed(struct hm_writer *w, struct hm_fwbuf *b)
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
	u8 h[8];

	hm_writer__rec_head(w, h, type, misc, size);
	hm_writer__put(w, h, sizeof(h));
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
		u64 id = hm_writer__sw64(w, (u64)feat);

		hm_writer__put(w, &id, sizeof(id));
	}
	if (len)
		hm_writer__put(w, b->p, len);
	hm_writer__put(w, zeros, pad);
}

/*
 * Pipe mode: the 16-byte pipe header, HEADER_ATTR per event, HEADER_FEATURE
 * per feature perf synthesizes (no end mark), HEADER_TRACING_DATA and
 * HEADER_BUILD_ID records, as perf record -o - writes them.
 */
static int pipe_layout(struct hm_writer *w)
{
	static const u8 zeros[8];
	struct hm_fwbuf extra;
	u64 v;
	int i, feat;

	v = hm_writer__sw64(w, HM_PERF_MAGIC2);
	hm_writer__put(w, &v, sizeof(v));
	v = hm_writer__sw64(w, 16);
	hm_writer__put(w, &v, sizeof(v));
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
		hm_writer__put(w, img, sizeof(img));
		for (k = 0; k < w->ev[i].nr_ids; k++) {
			v = hm_writer__sw64(w, w->ev[i].ids[k]);
			hm_writer__put(w, &v, sizeof(v));
		}
	}
	if (w->feat[HM_FEAT_HITMAP])
		hm_warn("%s: pipe mode carries no hitmap metadata (futex tables, kernel symbols): "
			"perf 6.1 and 6.12 refuse a feature record they do not know; the report "
			"infers the tables from the samples (--kallsyms FILE for another kernel's), "
			"or write file mode", w->path);
	for (feat = 1; feat < HM_FEAT_LAST_61; feat++) {
		if (!pipe_feat(feat))
			continue;
		if (feat == HM_FEAT_HOSTNAME && !w->feat[feat] && w->as_given) {
			continue;	/* pipe mode has no bitmap to tell the byte order of */
		} else if (feat == HM_FEAT_HOSTNAME && !w->feat[feat]) {
			if (!hm_writer__hostname(w, &extra))
				put_feature_rec(w, feat, &extra);
			hm_fwbuf__release(&extra);
		} else if (feat == HM_FEAT_EVENT_DESC && hm_writer__all_named(w)) {
			hm_fwbuf__init(&extra);
			extra.swap = w->swap;
			hm_feat__encode_event_desc(&extra, w->ev, w->nr_ev);
			if (!extra.err)
				put_feature_rec(w, feat, &extra);
			hm_fwbuf__release(&extra);
		} else if (feat == HM_FEAT_COMPRESSED && w->comp_level) {
			hm_writer__encode_compressed(w, &extra);
			if (!extra.err)
				put_feature_rec(w, feat, &extra);
			hm_fwbuf__release(&extra);
		} else if (feat != HM_FEAT_COMPRESSED && w->feat[feat] && !w->feat[feat]->err) {
			put_feature_rec(w, feat, w->feat[feat]);
		}
	}
	/*
	 * No end mark: perf writes HEADER_LAST_FEATURE there, 32 in perf 6.1 and
	 * 6.12, but perf 7.3 reads 32 as HEADER_CPU_DOMAIN_INFO ("Invalid
	 * HEADER_CPU_DOMAIN_INFO") and perf 6.1 refuses 7.3's 33 ("wrong feature
	 * ID").  Every version reads the stream the same without it; only
	 * perf report --header-only reads on to the end instead of stopping.
	 */
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
		v = hm_writer__sw64(w, 2);		/* PERF_EVENT_UPDATE__NAME */
		hm_writer__put(w, &v, sizeof(v));
		v = hm_writer__sw64(w, w->ev[i].ids[0]);
		hm_writer__put(w, &v, sizeof(v));
		hm_writer__put(w, w->ev[i].name, n);
		hm_writer__put(w, zeros, len - n);
	}
	if (w->feat[HM_FEAT_TRACING_DATA] && w->feat[HM_FEAT_TRACING_DATA]->len) {
		const struct hm_fwbuf *b = w->feat[HM_FEAT_TRACING_DATA];
		size_t len = b->len, pad = ((len + 7) & ~(size_t)7) - len;
		u32 sz[2] = { (u32)(len + pad), 0 };

		if (w->swap)
			sz[0] = bswap_32(sz[0]);
		put_rec_head(w, HM_RECORD_HEADER_TRACING_DATA, 0, 16);
		hm_writer__put(w, sz, sizeof(sz));
		hm_writer__put(w, b->p, len);
		hm_writer__put(w, zeros, pad);
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
			hm_writer__put(w, rec, asize);
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
		if (hm_writer__flush(w))
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
	if (w->bare) {
		/* a data.N file: the records alone, from offset 0 */
		w->data_offset = 0;
		return start_data(w);
	}
	if (w->pipe) {
		if (pipe_layout(w))
			return w->err;
		return start_data(w);
	}
	hm_writer__put(w, hdr, sizeof(hdr));
	for (i = 0; i < w->nr_ev; i++) {
		u32 k;

		for (k = 0; k < w->ev[i].nr_ids; k++) {
			u64 id = hm_writer__sw64(w, w->ev[i].ids[k]);

			hm_writer__put(w, &id, sizeof(id));
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
				.offset = hm_writer__sw64(w, id_off),
				.size = hm_writer__sw64(w, w->ev[i].nr_ids * sizeof(u64)),
			};

			hm_feat__attr_image(&w->ev[i].attr, img, w->swap);
			hm_writer__put(w, img, sizeof(img));
			hm_writer__put(w, &ids, sizeof(ids));
			id_off += w->ev[i].nr_ids * sizeof(u64);
		}
	}
	w->data_offset = off + (u64)w->nr_ev * HM_FILE_ATTR_STRIDE;
	return start_data(w);
}

int hm_writer__begin(struct hm_writer *w)
{
	if (!w)
		return -EINVAL;
	if (w->closed)
		return -EBUSY;
	if (w->err)
		return w->err;
	return layout(w);
}
