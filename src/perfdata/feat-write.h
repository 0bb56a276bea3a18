/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_FEAT_WRITE_H
#define HITMAP_PERFDATA_FEAT_WRITE_H

/*
 * Feature section encoders for the perf.data writer (private).  Each encoder
 * produces exactly the bytes perf's header.c write_<feat>() produces, in the
 * writer's (native) byte order.
 */
#include <hitmap/perf_data.h>

/* A growable byte buffer; the first failure sticks in @err. */
struct hm_fwbuf {
	u8	*p;
	size_t	len, cap;
	int	err;		/* 0 or a negative errno */
	bool	swap;		/* numbers in the other byte order */
};

void hm_fwbuf__init(struct hm_fwbuf *b);
void hm_fwbuf__release(struct hm_fwbuf *b);
int hm_fwbuf__put(struct hm_fwbuf *b, const void *data, size_t len);
int hm_fwbuf__put_zero(struct hm_fwbuf *b, size_t len);
int hm_fwbuf__put_u16(struct hm_fwbuf *b, u16 v);
int hm_fwbuf__put_u32(struct hm_fwbuf *b, u32 v);
int hm_fwbuf__put_u64(struct hm_fwbuf *b, u64 v);
int hm_fwbuf__put_u64s(struct hm_fwbuf *b, const u64 *v, size_t n);
/* perf_header_string: u32 len (with NUL, padded to 64) + bytes + zeros. */
int hm_fwbuf__put_string(struct hm_fwbuf *b, const char *s);
/* perf_header_string_list: u32 nr + strings. */
int hm_fwbuf__put_string_list(struct hm_fwbuf *b, u32 nr, char *const *s);

/* What the writer keeps per event. */
struct hm_fw_evsel {
	struct perf_event_attr	attr;	/* attr.size forced to HM_FILE_ATTR_SIZE */
	char			*name;
	u64			*ids;
	u32			nr_ids;
};

/* The size of the attr we write (PERF_ATTR_SIZE_VER7): perf 6.1 reads it. */
#define HM_FILE_ATTR_SIZE 128

/*
 * Encode feature @feat from @h into @b: the section the reader kept
 * (h->feat_raw) where there is one, else from the parsed fields.  Returns
 * 1 when encoded (an empty section too), 0 when @h does not carry that
 * feature (nothing appended), or a negative errno (-EINVAL: inconsistent
 * input, e.g. CPU_TOPOLOGY without NRCPUS).  EVENT_DESC is not handled
 * here (see hm_feat__encode_event_desc).
 */
int hm_feat__encode(int feat, const struct hm_header *h, struct hm_fwbuf *b);

/* EVENT_DESC from the writer's evsels. */
int hm_feat__encode_event_desc(struct hm_fwbuf *b, const struct hm_fw_evsel *ev, int nr);

/*
 * The 128-byte on-file image of @attr (size field set to 128); @swap: as a
 * machine of the other byte order writes it (numbers swapped, the flag
 * bitfield bit-reversed within each byte, the inverse of perf's
 * perf_event__attr_swap).
 */
void hm_feat__attr_image(const struct perf_event_attr *attr, u8 out[HM_FILE_ATTR_SIZE], bool swap);

#endif
