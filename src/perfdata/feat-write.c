// SPDX-License-Identifier: GPL-2.0-only
/*
 * Feature section encoders (perf's tools/perf/util/header.c write_* side):
 * strings are u32 len + NUL-padded bytes with len a multiple of 64, bitmaps
 * are u64 nbits + u64 words, everything native-endian.
 */
#include <byteswap.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/feat-write.h"
#include "perfdata/meta-int.h"
#include "perfdata/record-swap.h"

#define HM_NAME_ALIGN 64

void hm_fwbuf__init(struct hm_fwbuf *b)
{
	memset(b, 0, sizeof(*b));
}

void hm_fwbuf__release(struct hm_fwbuf *b)
{
	bool swap = b->swap;

	free(b->p);
	hm_fwbuf__init(b);
	b->swap = swap;
}

static int fwbuf_reserve(struct hm_fwbuf *b, size_t len)
{
	size_t cap;
	u8 *p;

	if (b->err)
		return b->err;
	if (len > ((size_t)1 << 40)) {
		b->err = -E2BIG;
		return b->err;
	}
	if (b->len + len <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + len)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->err = -ENOMEM;
		return b->err;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

int hm_fwbuf__put(struct hm_fwbuf *b, const void *data, size_t len)
{
	int err = fwbuf_reserve(b, len);

	if (err)
		return err;
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	return 0;
}

int hm_fwbuf__put_zero(struct hm_fwbuf *b, size_t len)
{
	int err = fwbuf_reserve(b, len);

	if (err)
		return err;
	memset(b->p + b->len, 0, len);
	b->len += len;
	return 0;
}

int hm_fwbuf__put_u16(struct hm_fwbuf *b, u16 v)
{
	if (b->swap)
		v = bswap_16(v);
	return hm_fwbuf__put(b, &v, sizeof(v));
}

int hm_fwbuf__put_u32(struct hm_fwbuf *b, u32 v)
{
	if (b->swap)
		v = bswap_32(v);
	return hm_fwbuf__put(b, &v, sizeof(v));
}

int hm_fwbuf__put_u64(struct hm_fwbuf *b, u64 v)
{
	if (b->swap)
		v = bswap_64(v);
	return hm_fwbuf__put(b, &v, sizeof(v));
}

int hm_fwbuf__put_u64s(struct hm_fwbuf *b, const u64 *v, size_t n)
{
	size_t i;

	if (!b->swap)
		return hm_fwbuf__put(b, v, n * sizeof(u64));
	for (i = 0; i < n; i++)
		hm_fwbuf__put_u64(b, v[i]);
	return b->err;
}

int hm_fwbuf__put_string(struct hm_fwbuf *b, const char *s)
{
	size_t n, len;

	if (!s)
		s = "";
	n = strlen(s) + 1;
	len = (n + HM_NAME_ALIGN - 1) / HM_NAME_ALIGN * HM_NAME_ALIGN;
	if (len > UINT32_MAX)
		return b->err = -E2BIG;
	hm_fwbuf__put_u32(b, (u32)len);
	hm_fwbuf__put(b, s, n);
	return hm_fwbuf__put_zero(b, len - n);
}

int hm_fwbuf__put_string_list(struct hm_fwbuf *b, u32 nr, char *const *s)
{
	u32 i;

	hm_fwbuf__put_u32(b, nr);
	for (i = 0; i < nr; i++)
		hm_fwbuf__put_string(b, s ? s[i] : NULL);
	return b->err;
}

static u8 revbyte(u8 b)
{
	b = (u8)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (u8)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (u8)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

#define SWAP_AT(p, off, bits) do { \
	u##bits _v; \
	memcpy(&_v, (p) + (off), sizeof(_v)); \
	_v = bswap_##bits(_v); \
	memcpy((p) + (off), &_v, sizeof(_v)); \
} while (0)

void hm_feat__attr_image(const struct perf_event_attr *attr, u8 out[HM_FILE_ATTR_SIZE], bool swap)
{
	struct perf_event_attr a;
	size_t n = sizeof(a) < HM_FILE_ATTR_SIZE ? sizeof(a) : HM_FILE_ATTR_SIZE;
	size_t i, flags = offsetof(struct perf_event_attr, read_format) + 8;

	memset(out, 0, HM_FILE_ATTR_SIZE);
	a = *attr;
	a.size = HM_FILE_ATTR_SIZE;
	memcpy(out, &a, n);
	if (!swap)
		return;
	/* PERF_ATTR_SIZE_VER7 layout */
	SWAP_AT(out, 0, 32);			/* type */
	SWAP_AT(out, 4, 32);			/* size */
	for (i = 8; i < flags; i += 8)		/* config .. read_format */
		SWAP_AT(out, i, 64);
	for (i = flags; i < flags + 8; i++)	/* the bitfield word */
		out[i] = revbyte(out[i]);
	SWAP_AT(out, 48, 32);			/* wakeup_events */
	SWAP_AT(out, 52, 32);			/* bp_type */
	SWAP_AT(out, 56, 64);			/* config1 */
	SWAP_AT(out, 64, 64);			/* config2 */
	SWAP_AT(out, 72, 64);			/* branch_sample_type */
	SWAP_AT(out, 80, 64);			/* sample_regs_user */
	SWAP_AT(out, 88, 32);			/* sample_stack_user */
	SWAP_AT(out, 92, 32);			/* clockid */
	SWAP_AT(out, 96, 64);			/* sample_regs_intr */
	SWAP_AT(out, 104, 32);			/* aux_watermark */
	SWAP_AT(out, 108, 16);			/* sample_max_stack */
	SWAP_AT(out, 110, 16);
	SWAP_AT(out, 112, 32);			/* aux_sample_size */
	SWAP_AT(out, 116, 32);
	SWAP_AT(out, 120, 64);			/* sig_data */
}

int hm_feat__encode_event_desc(struct hm_fwbuf *b, const struct hm_fw_evsel *ev, int nr)
{
	u8 img[HM_FILE_ATTR_SIZE];
	int i;

	hm_fwbuf__put_u32(b, (u32)nr);
	hm_fwbuf__put_u32(b, HM_FILE_ATTR_SIZE);
	for (i = 0; i < nr; i++) {
		hm_feat__attr_image(&ev[i].attr, img, b->swap);
		hm_fwbuf__put(b, img, sizeof(img));
		hm_fwbuf__put_u32(b, ev[i].nr_ids);
		hm_fwbuf__put_string(b, ev[i].name);
		hm_fwbuf__put_u64s(b, ev[i].ids, ev[i].nr_ids);
	}
	return b->err;
}

static int encode_cpu_topology(const struct hm_header *h, struct hm_fwbuf *b)
{
	u32 i, n = h->nr_cpus_avail;

	if (!h->nr_package_cpus && !h->nr_core_cpus)
		return 0;
	if (h->cpu && !n)
		return -EINVAL;		/* per-CPU ids need NRCPUS */
	hm_fwbuf__put_string_list(b, h->nr_package_cpus, h->package_cpus);
	hm_fwbuf__put_string_list(b, h->nr_core_cpus, h->core_cpus);
	if (!h->cpu)
		return b->err ? b->err : 1;
	for (i = 0; i < n; i++) {
		hm_fwbuf__put_u32(b, (u32)h->cpu[i].core_id);
		hm_fwbuf__put_u32(b, (u32)h->cpu[i].socket_id);
	}
	/* Like perf 6.1: the die part only where dies are known. */
	if (h->nr_die_cpus) {
		hm_fwbuf__put_string_list(b, h->nr_die_cpus, h->die_cpus);
		for (i = 0; i < n; i++)
			hm_fwbuf__put_u32(b, (u32)h->cpu[i].die_id);
	}
	return b->err ? b->err : 1;
}

static int encode_numa(const struct hm_header *h, struct hm_fwbuf *b)
{
	u32 i;

	if (!h->nr_numa_nodes || !h->numa)
		return 0;
	hm_fwbuf__put_u32(b, h->nr_numa_nodes);
	for (i = 0; i < h->nr_numa_nodes; i++) {
		const struct hm_numa_node *n = &h->numa[i];

		hm_fwbuf__put_u32(b, n->node);
		hm_fwbuf__put_u64(b, n->mem_total_kb);
		hm_fwbuf__put_u64(b, n->mem_free_kb);
		hm_fwbuf__put_string(b, n->cpus);
	}
	return b->err ? b->err : 1;
}

static int encode_mem_topology(const struct hm_header *h, struct hm_fwbuf *b)
{
	u64 i, w;

	if (!h->nr_mem_nodes || !h->mem)
		return 0;
	hm_fwbuf__put_u64(b, 1);		/* version */
	hm_fwbuf__put_u64(b, h->mem_block_size);
	hm_fwbuf__put_u64(b, h->nr_mem_nodes);
	for (i = 0; i < h->nr_mem_nodes; i++) {
		const struct hm_mem_node *n = &h->mem[i];
		u64 words = n->nbits / 64 + !!(n->nbits % 64);

		if (words && !n->bitmap)
			return -EINVAL;
		hm_fwbuf__put_u64(b, n->node);
		hm_fwbuf__put_u64(b, n->nbits);	/* memory_node.size */
		hm_fwbuf__put_u64(b, n->nbits);	/* do_write_bitmap: nbits */
		for (w = 0; w < words; w++)
			hm_fwbuf__put_u64(b, n->bitmap[w]);
	}
	return b->err ? b->err : 1;
}

static int encode_cache(const struct hm_header *h, struct hm_fwbuf *b)
{
	u32 i;

	if (!h->nr_caches || !h->caches)
		return 0;
	hm_fwbuf__put_u32(b, 1);		/* version */
	hm_fwbuf__put_u32(b, h->nr_caches);
	for (i = 0; i < h->nr_caches; i++) {
		const struct hm_cache_level *c = &h->caches[i];

		hm_fwbuf__put_u32(b, c->level);
		hm_fwbuf__put_u32(b, c->line_size);
		hm_fwbuf__put_u32(b, c->sets);
		hm_fwbuf__put_u32(b, c->ways);
		hm_fwbuf__put_string(b, c->type);
		hm_fwbuf__put_string(b, c->size);
		hm_fwbuf__put_string(b, c->map);
	}
	return b->err ? b->err : 1;
}

static int encode_build_id(const struct hm_header *h, struct hm_fwbuf *b)
{
	u32 i;

	if (!h->nr_build_ids || !h->build_ids)
		return 0;
	for (i = 0; i < h->nr_build_ids; i++) {
		const struct hm_build_id *bid = &h->build_ids[i];
		const char *name = bid->filename ? bid->filename : "";
		size_t n = strlen(name) + 1;
		size_t len = (n + HM_NAME_ALIGN - 1) / HM_NAME_ALIGN * HM_NAME_ALIGN;
		u8 id[24] = { 0 };
		u8 sz = bid->size && bid->size <= 20 ? bid->size : 20;

		/* perf_record_header_build_id: header, pid, data[20], size, pad */
		if (36 + len > 0xffff)
			return -E2BIG;
		hm_fwbuf__put_u32(b, 0);			/* header.type */
		hm_fwbuf__put_u16(b, bid->misc | (1 << 15));	/* MISC_BUILD_ID_SIZE */
		hm_fwbuf__put_u16(b, (u16)(36 + len));
		hm_fwbuf__put_u32(b, (u32)bid->pid);
		memcpy(id, bid->id, sz);
		id[20] = sz;
		hm_fwbuf__put(b, id, sizeof(id));
		hm_fwbuf__put(b, name, n);
		hm_fwbuf__put_zero(b, len - n);
	}
	return b->err ? b->err : 1;
}

/* The TLVs as they are, or with headers and known payloads swapped. */
static int encode_meta(const struct hm_header *h, struct hm_fwbuf *b)
{
	size_t start = b->len;
	u64 off = 0, size = h->hitmap_meta_size;

	hm_fwbuf__put(b, h->hitmap_meta, size);
	if (b->err || !b->swap)
		return b->err ? b->err : 1;
	while (size - off >= 8) {
		u8 *p = b->p + start + off;
		u32 tag, len;

		memcpy(&tag, p, 4);
		memcpy(&len, p + 4, 4);
		if (len > size - off - 8)
			return -EINVAL;		/* corrupt meta: refuse to guess */
		hm_meta__swap_payload(tag, p + 8, len);
		SWAP_AT(p, 0, 32);
		SWAP_AT(p, 4, 32);
		off += 8 + (((u64)len + 7) & ~7ULL);
	}
	return 1;
}

static int encode_strings_feat(const char *s, struct hm_fwbuf *b)
{
	if (!s)
		return 0;
	hm_fwbuf__put_string(b, s);
	return b->err ? b->err : 1;
}

/*
 * A section the reader kept (h->feat_raw), passed on as it was: what
 * describes the recording, the empty ones perf writes too.  Not what
 * describes the output, which the writer makes: COMPRESSED, AUXTRACE (the
 * index of this file's AUX data), DIR_FORMAT (the output is one file, not
 * a folder).
 * 0 where none was kept, or where its layout is unknown for the other byte
 * order (then the parsed fields make it, where an encoder below does).
 */
static int encode_raw(int feat, const struct hm_header *h, struct hm_fwbuf *b)
{
	const struct hm_feat_raw *k;
	size_t start = b->len;

	if (!h->feat_raw || feat <= 0 || feat >= HM_FEAT_BITS || feat == HM_FEAT_COMPRESSED ||
	    feat == HM_FEAT_AUXTRACE || feat == HM_FEAT_DIR_FORMAT)
		return 0;
	k = &h->feat_raw[feat];
	/*
	 * An empty section of a feature that has contents (perf 3.14 left
	 * CPUDESC so) is left out: perf 6.1 and 6.12 stop reading the header
	 * at it, perf 7.3 refuses the file.  BRANCH_STACK and STAT are empty
	 * by design.
	 */
	if (!k->present || (!k->size && feat != HM_FEAT_BRANCH_STACK && feat != HM_FEAT_STAT))
		return 0;
	if (hm_fwbuf__put(b, k->data, k->size))
		return b->err;
	if (b->swap && k->size &&
	    !hm_feat__swap(feat, b->p + start, k->size, h->nr_cpus_avail, false)) {
		b->len = start;
		return 0;
	}
	return 1;
}

int hm_feat__encode(int feat, const struct hm_header *h, struct hm_fwbuf *b)
{
	u32 i;
	int ret;

	if (!h)
		return 0;
	ret = encode_raw(feat, h, b);
	if (ret)
		return ret;
	switch (feat) {
	case HM_FEAT_HOSTNAME:	return encode_strings_feat(h->hostname, b);
	case HM_FEAT_OSRELEASE:	return encode_strings_feat(h->osrelease, b);
	case HM_FEAT_VERSION:	return encode_strings_feat(h->version, b);
	case HM_FEAT_ARCH:	return encode_strings_feat(h->arch, b);
	case HM_FEAT_CPUDESC:	return encode_strings_feat(h->cpudesc, b);
	case HM_FEAT_CPUID:	return encode_strings_feat(h->cpuid, b);
	case HM_FEAT_NRCPUS:
		if (!h->nr_cpus_avail)
			return 0;
		hm_fwbuf__put_u32(b, h->nr_cpus_avail);
		hm_fwbuf__put_u32(b, h->nr_cpus_online);
		break;
	case HM_FEAT_TOTAL_MEM:
		if (!h->total_mem_kb)
			return 0;
		hm_fwbuf__put_u64(b, h->total_mem_kb);
		break;
	case HM_FEAT_CMDLINE:
		if (!h->cmdline_argc || !h->cmdline_argv)
			return 0;
		hm_fwbuf__put_string_list(b, h->cmdline_argc, h->cmdline_argv);
		break;
	case HM_FEAT_CPU_TOPOLOGY:	return encode_cpu_topology(h, b);
	case HM_FEAT_NUMA_TOPOLOGY:	return encode_numa(h, b);
	case HM_FEAT_MEM_TOPOLOGY:	return encode_mem_topology(h, b);
	case HM_FEAT_CACHE:		return encode_cache(h, b);
	case HM_FEAT_BUILD_ID:		return encode_build_id(h, b);
	case HM_FEAT_SAMPLE_TIME:
		if (!h->sample_time_first && !h->sample_time_last)
			return 0;
		hm_fwbuf__put_u64(b, h->sample_time_first);
		hm_fwbuf__put_u64(b, h->sample_time_last);
		break;
	case HM_FEAT_CLOCKID:
		if (!h->clockid_res_ns)
			return 0;
		hm_fwbuf__put_u64(b, h->clockid_res_ns);
		break;
	case HM_FEAT_PMU_MAPPINGS:
		if (!h->nr_pmu_mappings || !h->pmu_types || !h->pmu_names)
			return 0;
		hm_fwbuf__put_u32(b, h->nr_pmu_mappings);
		for (i = 0; i < h->nr_pmu_mappings; i++) {
			hm_fwbuf__put_u32(b, h->pmu_types[i]);
			hm_fwbuf__put_string(b, h->pmu_names[i]);
		}
		break;
	case HM_FEAT_HYBRID_TOPOLOGY:
		if (!h->nr_hybrid || !h->hybrid_pmu || !h->hybrid_cpus)
			return 0;
		hm_fwbuf__put_u32(b, h->nr_hybrid);
		for (i = 0; i < h->nr_hybrid; i++) {
			hm_fwbuf__put_string(b, h->hybrid_pmu[i]);
			hm_fwbuf__put_string(b, h->hybrid_cpus[i]);
		}
		break;
	case HM_FEAT_HITMAP:
		if (!h->hitmap_meta_size || !h->hitmap_meta)
			return 0;
		return encode_meta(h, b);
	case HM_FEAT_TRACING_DATA:
		/* passed through raw: the blob carries its own byte order */
		if (!h->tracing_data_size || !h->tracing_data)
			return 0;
		hm_fwbuf__put(b, h->tracing_data, h->tracing_data_size);
		break;
	default:
		return 0;
	}
	return b->err ? b->err : 1;
}
