// SPDX-License-Identifier: GPL-2.0-only
/*
 * One record, native: its side effects on the reader (stats, HEADER_ATTR,
 * HEADER_FEATURE, TRACING_DATA, EVENT_UPDATE, COMPRESSED, Arm SPE set-up)
 * and its decode into a struct hm_event (the sample or the sample_id_all
 * trailer, by sample.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <hitmap/log.h>
#include "reader-int.h"
#include "spe.h"

static bool bad_cpu(const struct hm_reader *r, u32 cpu)
{
	return cpu >= HM_MAX_CPUS || (r->h.nr_cpus_avail && cpu >= r->h.nr_cpus_avail);
}

/*
 * Decompressing ahead: the COMPRESSED records after the one just read that
 * the window holds already, fed to the zstd stream before their turn.
 */
static int zstd_prefeed(struct hm_reader *r)
{
	bool sw = r->h.needs_swap;
	size_t at = r->head;

	/* what the window holds now: no read, nothing it hands out moves */
	while (r->len - at >= 8) {
		const u8 *p = r->buf + at;
		u32 t = hm_sw32(hm_ld32(p), sw);
		u16 sz = hm_sw16(hm_ld16(p + 6), sw);
		u64 roff = r->buf_off + at;
		const u8 *d = p + 8;
		u64 n = sz - 8u;
		int ret;

		/* a payload follows these two: the next record is not at +sz */
		if (sz < 8 || r->len - at < sz || t == HM_RECORD_AUXTRACE ||
		    t == HM_RECORD_HEADER_TRACING_DATA)
			break;
		at += sz;
		if ((t != HM_RECORD_COMPRESSED && t != HM_RECORD_COMPRESSED2) || roff <= r->zpre_off)
			continue;
		if (t == HM_RECORD_COMPRESSED2) {
			/* checked and reported when the reader reaches it */
			if (sz < 16 || (n = hm_sw64(hm_ld64(p + 8), sw)) > sz - 16u)
				break;
			d = p + 16;
		}
		ret = hm_zstream__prefeed(r->z, d, n);
		if (ret <= 0)
			return ret;
		r->zpre_off = roff;
	}
	return 0;
}

/* Decode @rec (native) into @ev. */
int hm_reader__decode(struct hm_reader *r, const u8 *rec, u32 size, u64 off, bool compressed,
		  struct hm_event *ev)
{
	u32 type = hm_ld32(rec);
	struct hm_evsel *e;

	ev->type = type;
	ev->misc = hm_ld16(rec + 4);
	ev->size = size;
	ev->file_offset = off;
	ev->compressed = compressed;
	ev->data = rec;
	ev->has_sample = false;
	ev->aux = NULL;
	ev->aux_size = 0;
	if (type == HM_RECORD_AUXTRACE && r->opts.aux_payload && size >= 16) {
		ev->aux = r->tmp;
		ev->aux_size = hm_ld64(rec + 8);
	}
	if (type == PERF_RECORD_SAMPLE) {
		u32 bad = 0;

		/* the ordering queue looked it up already */
		e = r->dec_ev_set ? r->dec_ev : hm_reader__rec_evsel(r, type, rec, size, false);
		hm_sample__init(e, &ev->sample);
		ev->sample.misc = ev->misc;
		if (!e) {
			r->st.nr_unknown_id++;
			return 0;
		}
		if (hm_sample__walk(e, (u8 *)rec + 8, size - 8, false, &ev->sample, &bad))
			return hm_reader__fail(r, -EINVAL, off, "%sSAMPLE of '%s' ends after %u of "
					       "the bytes its sample_type %#" PRIx64 " needs "
					       "(record size %u); the file is corrupt",
					       compressed ? "(decompressed stream) " : "",
					       e->name ? e->name : "event", bad,
					       (u64)e->attr.sample_type, size);
		ev->has_sample = true;
		if ((e->attr.sample_type & PERF_SAMPLE_CPU) && bad_cpu(r, ev->sample.cpu) &&
		    !r->nr_bad_cpu++)
			hm_warn_lost("%s: offset %" PRIu64 ": SAMPLE on cpu %u, which the file's %u "
				     "CPUs do not have (corrupt?); its socket and node are unknown",
				     r->path, off, ev->sample.cpu, r->h.nr_cpus_avail ?
				     r->h.nr_cpus_avail : HM_MAX_CPUS);
		return 0;
	}
	if (hm_record__is_kernel(type)) {
		e = r->dec_ev_set ? r->dec_ev : hm_reader__rec_evsel(r, type, rec, size, false);
		hm_sample__init(e, &ev->sample);
		ev->sample.misc = ev->misc;
		if (e && e->attr.sample_id_all &&
		    !hm_sample__walk_id(e, (u8 *)rec + 8, size - 8, false, &ev->sample))
			ev->has_sample = true;
	} else {
		hm_sample__init(NULL, &ev->sample);
	}
	return 0;
}

static int ingest_attr(struct hm_reader *r, const u8 *rec, u32 size, u64 off)
{
	struct hm_evsel *e;
	u32 asz;
	u64 nids;

	if (size < 8 + 64)
		return hm_reader__fail(r, -EINVAL, off, "HEADER_ATTR of %u bytes is smaller than "
				       "the smallest attr (64 bytes)", size);
	asz = hm_sw32(hm_ld32(rec + 12), r->h.needs_swap);
	if (!asz)
		asz = 64;
	if (asz < 64 || asz > size - 8)
		return hm_reader__fail(r, -EINVAL, off, "HEADER_ATTR says its attr is %u bytes, "
				       "more than the record's %u", asz, size - 8);
	nids = (size - 8 - asz) / 8;
	e = hm_reader__add_evsel(r, rec + 8, asz, (const u64 *)(rec + 8 + asz), nids,
				 r->h.needs_swap);
	if (!e)
		return hm_reader__fail(r, -ENOMEM, off, "out of memory adding an event");
	if (hm_reader__check_attr(r, e, off))
		return r->err;
	hm_reader__name_evsel(r, e);
	hm_tracing__attach(r);
	return 0;
}

static int ingest_id_index(struct hm_reader *r, const u8 *rec, u32 size, u64 off)
{
	bool sw = r->h.needs_swap;
	u64 nr;

	if (size < 16)
		return hm_reader__fail(r, -EINVAL, off, "ID_INDEX of %u bytes has no count", size);
	nr = hm_sw64(hm_ld64(rec + 8), sw);
	if (nr > (size - 16) / 32)
		return hm_reader__fail(r, -EINVAL, off, "ID_INDEX claims %" PRIu64 " entries but "
				       "holds %u", nr, (size - 16) / 32);
	/*
	 * Entries are { id, idx (the mmap index), cpu, tid }: they tell where an
	 * id was read from, not which event it is (perf's
	 * perf_event__process_id_index only annotates ids it already knows).
	 */
	return 0;
}

static int ingest_tracing_data(struct hm_reader *r, const u8 *nat, u32 size, u64 off)
{
	u32 tsz = hm_ld32(nat + 8);
	int ret;

	if (!r->tmp)
		return 0;
	ret = hm_tracing__parse(&r->h, r->tmp, tsz, NULL);
	if (ret)
		hm_warn("%s: offset %" PRIu64 ": tracing data (%u bytes) does not parse; "
			"tracepoint fields will not be decoded", r->path, off + size, tsz);
	else {
		r->h.feat_bits[0] |= 1ULL << HM_FEAT_TRACING_DATA;
		hm_tracing__attach(r);
		/* keep the raw blob (h->tracing_data) for writers that pass it on */
		free(r->h.tracing_data);
		r->h.tracing_data = r->tmp;
		r->h.tracing_data_size = tsz;
		r->tmp = NULL;
	}
	free(r->tmp);
	r->tmp = NULL;
	return 0;
}

static int ingest_event_update(struct hm_reader *r, const u8 *rec, u32 size)
{
	u64 type, id;
	int idx;

	if (size < 24)
		return 0;
	type = hm_ld64(rec + 8);
	id = hm_ld64(rec + 16);
	if (type != 2)	/* PERF_EVENT_UPDATE__NAME */
		return 0;
	idx = hm_idmap__find(&r->ids, id);
	if (idx >= 0 && idx < r->nr_ev && !r->ev[idx]->name)
		r->ev[idx]->name = strndup((const char *)rec + 24, size - 24);
	return 0;
}
/* AUXTRACE_INFO of Arm SPE: set up the decoder and its synthesized "memory" event. */
static int spe_start(struct hm_reader *r, const u8 *nat, u32 size, u64 off)
{
	bool timeless = true;
	u64 id = HM_SPE_SYNTH_ID;
	const struct perf_event_attr *a;
	struct hm_evsel *e;

	if (r->spe || r->opts.aux_payload || size < 16 || hm_ld32(nat + 8) != HM_AUXTRACE_ARM_SPE)
		return 0;
	for (int i = 0; i < r->nr_ev; i++)
		if (r->ev[i]->attr.sample_type & PERF_SAMPLE_TIME)
			timeless = false;
	r->spe = hm_spe__new(nat, size, r->h.cpuid, timeless, r->path, off);
	if (!r->spe) {
		r->err = errno == ENOMEM ? -ENOMEM : -EINVAL;
		r->done = true;
		return r->err;
	}
	a = hm_spe__attr(r->spe);
	e = hm_reader__add_evsel(r, (const u8 *)a, a->size, &id, 1, false);
	if (!e)
		return hm_reader__fail(r, -ENOMEM, off, "out of memory");
	e->attr = *a;	/* native, whatever the file's byte order */
	e->needs_swap = false;
	e->id_pos = hm_sample__id_pos(a->sample_type);
	e->is_pos = hm_sample__is_pos(a->sample_type);
	e->name = strdup("memory");
	r->spe_idx = e->idx;
	hm_spe__sideband(r->spe, r->time_conv, hm_ld16(r->time_conv + 6));
	return 0;
}

/*
 * The smallest size perf 7.3 takes for each record type
 * (perf_event__min_size; each value checked against perf 7.3 with records
 * of every type 8 bytes shorter); 0: no minimum beyond the header.
 */
static const u16 min_size_7_3[] = {
	[PERF_RECORD_MMAP] = 41,	[PERF_RECORD_LOST] = 24,
	[PERF_RECORD_COMM] = 17,	[PERF_RECORD_EXIT] = 32,
	[PERF_RECORD_THROTTLE] = 32,	[PERF_RECORD_UNTHROTTLE] = 32,
	[PERF_RECORD_FORK] = 32,	[PERF_RECORD_READ] = 24,
	[PERF_RECORD_MMAP2] = 73,	[PERF_RECORD_AUX] = 32,
	[PERF_RECORD_ITRACE_START] = 16, [PERF_RECORD_LOST_SAMPLES] = 16,
	[PERF_RECORD_SWITCH_CPU_WIDE] = 16, [PERF_RECORD_NAMESPACES] = 24,
	[PERF_RECORD_KSYMBOL] = 25,	[PERF_RECORD_BPF_EVENT] = 24,
	[PERF_RECORD_CGROUP] = 17,	[PERF_RECORD_TEXT_POKE] = 24,
	[21] = 16,			/* AUX_OUTPUT_HW_ID */
	[22] = 16,			/* CALLCHAIN_DEFERRED */
	[HM_RECORD_HEADER_ATTR] = 72,	[65] = 80,	/* HEADER_EVENT_TYPE */
	[66] = 12,			/* HEADER_TRACING_DATA */
	[67] = 36,			/* HEADER_BUILD_ID */
	[69] = 16, [HM_RECORD_AUXTRACE_INFO] = 16, [HM_RECORD_AUXTRACE] = 48,
	[HM_RECORD_AUXTRACE_ERROR] = 49, [73] = 16, [74] = 16, [75] = 16,
	[76] = 48, [77] = 24, [78] = 24, [HM_RECORD_TIME_CONV] = 32,
	[HM_RECORD_HEADER_FEATURE] = 16, [83] = 16,
	[84] = 528,			/* BPF_METADATA */
	[85] = 24, [86] = 24,		/* SCHEDSTAT_CPU, _DOMAIN */
};

/* Side effects of one record.  @raw in file byte order, @nat native. */
int hm_reader__ingest(struct hm_reader *r, const u8 *raw, const u8 *nat, u32 size, u64 off,
		  bool compressed)
{
	u32 type = hm_ld32(nat);
	int err;

	if (type < HM_RECORD_MAX)
		r->st.nr[type]++;
	/* most records: a sample has no side effect but on the Arm SPE decoder */
	if (type == PERF_RECORD_SAMPLE && !r->spe)
		return 0;
	if (type < sizeof(min_size_7_3) / sizeof(min_size_7_3[0]) && size < min_size_7_3[type])
		r->st.nr_short[type]++;
	if (!hm_record__name(type)) {
		/* perf stops with "failed to process type: N" */
		r->st.nr_unknown++;
		if (++r->nr_bad_type <= 5)
			hm_warn_lost("%s: offset %" PRIu64 ": %s%u-byte record of type %u, which no "
				     "perf defines (perf: \"failed to process type: %u\"); skipped, "
				     "what it held is lost", r->path, off,
				     compressed ? "(decompressed stream) " : "", size, type, type);
	}
	if (r->spe)
		hm_spe__sideband(r->spe, nat, size);
	else if (type == HM_RECORD_TIME_CONV && size <= sizeof(r->time_conv))
		memcpy(r->time_conv, nat, size);
	switch (type) {
	case HM_RECORD_AUXTRACE_INFO:
		return spe_start(r, nat, size, off);
	case HM_RECORD_AUXTRACE:
		if (r->spe && size >= 16 &&
		    hm_spe__auxtrace(r->spe, nat, size, r->tmp, hm_ld64(nat + 8), off + size))
			return hm_reader__fail(r, -EINVAL, off, "the Arm SPE data of this AUXTRACE "
					       "record cannot be decoded");
		break;
	case PERF_RECORD_LOST:
		if (size >= 24)
			r->st.lost += hm_ld64(nat + 16);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (size >= 16)
			r->st.lost_samples += hm_ld64(nat + 8);
		break;
	case HM_RECORD_HEADER_ATTR:
		return ingest_attr(r, raw, size, off);
	case HM_RECORD_HEADER_FEATURE: {
		u64 feat;

		if (size < 16)
			return hm_reader__fail(r, -EINVAL, off, "HEADER_FEATURE of %u bytes has no "
					       "feature id", size);
		feat = hm_ld64(nat + 8);
		if (feat >= HM_FEAT_BITS || !feat)
			break;		/* the end marker (HEADER_LAST_FEATURE) or junk */
		if (!hm_feature__name((int)feat) && feat != HM_FEAT_HITMAP) {
			r->h.feat_bits[feat / 64] |= 1ULL << (feat % 64);
			break;
		}
		err = hm_feature__parse(r, (int)feat, raw + 16, size - 16, off + 16);
		if (err == -ENOMEM)
			return hm_reader__fail(r, err, off, "out of memory");
		if (err)
			hm_warn("%s: offset %" PRIu64 ": feature %s is corrupt; ignored", r->path,
				off, hm_feature__name((int)feat));
		break;
	}
	case HM_RECORD_HEADER_BUILD_ID:
		err = hm_feature__parse(r, HM_FEAT_BUILD_ID, raw, size, off);
		if (err == -ENOMEM)
			return hm_reader__fail(r, err, off, "out of memory");
		break;
	case HM_RECORD_ID_INDEX:
		return ingest_id_index(r, raw, size, off);
	case HM_RECORD_HEADER_TRACING_DATA:
		return ingest_tracing_data(r, nat, size, off);
	case HM_RECORD_EVENT_UPDATE:
		return ingest_event_update(r, nat, size);
	case HM_RECORD_COMPRESSED:
	case HM_RECORD_COMPRESSED2: {
		const u8 *p = nat + 8;
		u64 n = size - 8;

		if (compressed)
			return hm_reader__fail(r, -EINVAL, off, "compressed record inside "
					       "compressed data; the stream is corrupt");
		if (type == HM_RECORD_COMPRESSED2) {
			if (size < 16)
				return hm_reader__fail(r, -EINVAL, off, "COMPRESSED2 of %u bytes "
						       "has no data size", size);
			n = hm_ld64(nat + 8);
			p = nat + 16;
			if (n > size - 16u)
				return hm_reader__fail(r, -EINVAL, off, "COMPRESSED2 claims %"
						       PRIu64 " bytes of data in a %u-byte record",
						       n, size);
		}
		if (!r->z) {
			r->z = hm_zstream__new(r->opts.zstd_ahead);
			if (!r->z)
				return hm_reader__fail(r, -ENOMEM, off, "cannot set up zstd");
			if (r->opts.zstd_ahead)
				hm_debug("reader: %s: zstd stream decompressed %s", r->path,
					 hm_zstream__ahead(r->z) ? "ahead, on a thread of its own" :
					 "lazily (no thread or ring for it)");
		}
		if (r->zpre_off && off <= r->zpre_off)
			hm_zstream__release(r->z);	/* fed ahead */
		else if (hm_zstream__feed(r->z, p, n))
			return hm_reader__fail(r, -ENOMEM, off, "out of memory");
		r->zlast_off = off;
		r->st.compressed_bytes += n;
		if (r->opts.zstd_ahead && zstd_prefeed(r) < 0)
			return hm_reader__fail(r, -ENOMEM, off, "out of memory");
		break;
	}
	default:
		break;
	}
	return 0;
}
