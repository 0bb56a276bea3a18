// SPDX-License-Identifier: GPL-2.0-only
/*
 * Records of the other byte order: the header and body swapped into a native
 * copy, as perf's perf_event__*_swap(); records are realigned here too.
 */
#include <errno.h>
#include <stdint.h>
#include "reader-int.h"
#include "record-swap.h"

/* swap a record body in place (header already native) */
static void swap_body(struct hm_reader *r, u8 *p, u32 size)
{
	u32 t = hm_ld32(p);
	u32 tr = hm_record__is_kernel(t) && t != PERF_RECORD_SAMPLE ? r->id_hdr_size : 0;
	u32 end = size >= tr + 8 ? size - tr : 8;

	switch (t) {
	case HM_RECORD_HEADER_ATTR: {
		/* perf_event__hdr_attr_swap: the attr (its own size), then u64 ids */
		u32 asz;

		if (size < 16)
			break;
		asz = bswap_32(hm_ld32(p + 12));
		if (!asz)
			asz = 64;
		hm_attr__swap(p + 8, asz < size - 8 ? asz : size - 8);
		if (asz <= size - 8)
			hm_swap64_mem(p + 8 + asz, size - 8 - asz);
		break;
	}
	case HM_RECORD_HEADER_FEATURE:	/* feat id, then the section as in a file */
		if (16 <= end)
			hm_st64(p + 8, bswap_64(hm_ld64(p + 8)));
		if (size > 16)
			hm_feature__swap(r, hm_ld64(p + 8), p + 16, size - 16);
		break;
	default:
		/* SAMPLE is swapped by the sample walker; unknown types left as they are */
		hm_record__swap_body(p, t, hm_ld16(p + 4), size, end, true);
		break;
	}
}

/* Native copy of a record: swapped (other byte order) or realigned. */
const u8 *hm_reader__nativize(struct hm_reader *r, const u8 *rec, u32 size, u64 off, int *err)
{
	u8 *p;

	*err = 0;
	if (!r->h.needs_swap && !((uintptr_t)rec & 7))
		return rec;
	p = hm_reader__scratch(r, size);
	if (!p) {
		*err = hm_reader__fail(r, -ENOMEM, off, "out of memory");
		return NULL;
	}
	if (p != rec)
		memcpy(p, rec, size);
	if (!r->h.needs_swap)
		return p;
	hm_st32(p, bswap_32(hm_ld32(p)));
	hm_st16(p + 4, bswap_16(hm_ld16(p + 4)));
	hm_st16(p + 6, bswap_16(hm_ld16(p + 6)));
	swap_body(r, p, size);
	if (hm_record__is_kernel(hm_ld32(p))) {
		struct hm_evsel *e = hm_reader__rec_evsel(r, hm_ld32(p), rec, size, true);
		struct hm_sample s;

		if (!e)
			return p;
		hm_sample__init(e, &s);
		if (hm_ld32(p) == PERF_RECORD_SAMPLE)
			hm_sample__walk(e, p + 8, size - 8, true, &s, NULL);
		else if (e->attr.sample_id_all)
			hm_sample__walk_id(e, p + 8, size - 8, true, &s);
	}
	return p;
}
