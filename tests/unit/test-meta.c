// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_meta TLV list: serialize/parse round trip, unknown tags skipped,
 * corrupt lengths rejected, byte-swapped input, padding.
 */
#include <byteswap.h>
#include <errno.h>

#include "tap.h"
#include <hitmap/log.h>
#include <hitmap/meta.h>

static u32 rd32(const u8 *p, size_t off)
{
	u32 v;

	memcpy(&v, p + off, 4);
	return v;
}

int main(void)
{
	struct hm_meta_futex_table ft = {
		.kind = 0, .node = 1, .pid = -1, .bucket_size = 64,
		.base = 0xffff888100000000ULL, .slots = 8192, .provenance = "kallsyms",
	};
	u64 pairs[4] = { 0x7f0000001000, 0xffff888100000040, 0x7f0000002000, 0xffff888100000080 };
	const char *text = "pebs";
	struct hm_meta *m, *p;
	const void *data;
	void *buf = NULL;
	u64 size = 0;
	u32 tag, len;
	int i;

	m = hm_meta__new();
	CHECK("new", m != NULL);
	if (!m)
		TAP_DONE();
	CHECK_EQ("add futex table", hm_meta__add(m, HM_META_FUTEX_TABLE, &ft, sizeof(ft)), 0);
	CHECK_EQ("add record mode (5 bytes, padded)", hm_meta__add(m, HM_META_RECORD_MODE, text, 5), 0);
	CHECK_EQ("add an unknown tag", hm_meta__add(m, 9999, "zz", 2), 0);
	CHECK_EQ("add empty entry", hm_meta__add(m, HM_META_KERNEL, NULL, 0), 0);
	CHECK_EQ("add futex addrs", hm_meta__add(m, HM_META_FUTEX_ADDRS, pairs, sizeof(pairs)), 0);
	CHECK_EQ("add NULL data with len: EINVAL", hm_meta__add(m, 1, NULL, 4), -EINVAL);
	CHECK_EQ("serialize", hm_meta__serialize(m, &buf, &size), 0);
	CHECK_EQ("serialized size: entries padded to 8",
		 size, (8 + 96) + (8 + 8) + (8 + 8) + 8 + (8 + 32));
	CHECK("first TLV header", buf && rd32(buf, 0) == HM_META_FUTEX_TABLE && rd32(buf, 4) == sizeof(ft));
	CHECK("padding is zero", buf && ((u8 *)buf)[8 + 96 + 8 + 5] == 0 && ((u8 *)buf)[8 + 96 + 8 + 7] == 0);

	p = hm_meta__parse(buf, size, false);
	CHECK("parse", p != NULL);
	for (i = 0; p && hm_meta__get(p, i, &tag, &data, &len) == 1; i++) {
		const void *od;
		u32 ot, ol;

		hm_meta__get(m, i, &ot, &od, &ol);
		if (tag != ot || len != ol || memcmp(data, od, len))
			break;
	}
	CHECK_EQ("round trip: every entry identical, in order", i, 5);
	CHECK_EQ("get past the end: 0", hm_meta__get(p, 5, &tag, &data, &len), 0);
	data = hm_meta__find(p, HM_META_FUTEX_ADDRS, &len);
	CHECK("find futex addrs after the unknown tag", data && len == 32 && !memcmp(data, pairs, 32));
	data = hm_meta__find(p, HM_META_FUTEX_TABLE, &len);
	CHECK("futex table fields", data && len == sizeof(ft) &&
	      ((const struct hm_meta_futex_table *)data)->slots == 8192 &&
	      !strcmp(((const struct hm_meta_futex_table *)data)->provenance, "kallsyms"));
	CHECK("find absent tag: NULL", hm_meta__find(p, HM_META_WORKLOAD, &len) == NULL);
	hm_meta__delete(p);

	/* An old reader skipping unknown tags: a stream of an unknown tag, then a known one. */
	{
		u8 s[40] = { 0 };
		u32 v;

		v = 4242; memcpy(s, &v, 4);
		v = 13; memcpy(s + 4, &v, 4);		/* 13 bytes, padded to 16 */
		memset(s + 8, 0xee, 13);
		v = HM_META_KERNEL; memcpy(s + 24, &v, 4);
		v = 4; memcpy(s + 28, &v, 4);
		memcpy(s + 32, "6.1", 4);
		p = hm_meta__parse(s, 40, false);
		data = hm_meta__find(p, HM_META_KERNEL, &len);
		CHECK("unknown 13-byte tag skipped by its padded length", data && len == 4 && !strcmp(data, "6.1"));
		hm_meta__delete(p);
		/* last entry without its padding (section cut to the data) */
		p = hm_meta__parse(s, 8 + 13, false);
		CHECK("last entry without padding accepted", p && hm_meta__get(p, 0, &tag, &data, &len) == 1 &&
		      tag == 4242 && len == 13 && hm_meta__get(p, 1, &tag, &data, &len) == 0);
		hm_meta__delete(p);
	}

	/* Corrupt lengths. */
	errno = 0;
	p = hm_meta__parse(buf, size - 1, false);
	CHECK("truncated last entry: NULL, EINVAL", !p && errno == EINVAL);
	CHECK("error names the offset", strstr(hm_log__last_error(), "offset 144") != NULL);
	{
		u8 bad[16] = { 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };

		errno = 0;
		p = hm_meta__parse(bad, sizeof(bad), false);
		CHECK("length 0xffffffff: NULL, EINVAL", !p && errno == EINVAL);
		bad[4] = 9; bad[5] = bad[6] = bad[7] = 0;
		p = hm_meta__parse(bad, sizeof(bad), false);
		CHECK("length 9 with 8 left: NULL", !p);
	}
	p = hm_meta__parse(NULL, 0, false);
	CHECK("empty section: empty list", p && hm_meta__get(p, 0, &tag, &data, &len) == 0);
	hm_meta__delete(p);

	/* Byte-swapped section: headers and known numeric payloads swapped. */
	{
		u8 *sw = malloc(size);
		u64 off = 0;

		memcpy(sw, buf, size);
		while (off + 8 <= size) {
			u32 t0 = rd32(sw, off), l0 = rd32(sw, off + 4), k;

			if (t0 == HM_META_FUTEX_TABLE) {
				for (k = 0; k < 16; k += 4) {
					u32 x = bswap_32(rd32(sw, off + 8 + k));

					memcpy(sw + off + 8 + k, &x, 4);
				}
				for (k = 16; k < 32; k += 8) {
					u64 x;

					memcpy(&x, sw + off + 8 + k, 8);
					x = bswap_64(x);
					memcpy(sw + off + 8 + k, &x, 8);
				}
			}
			if (t0 == HM_META_FUTEX_ADDRS) {
				for (k = 0; k < l0; k += 8) {
					u64 x;

					memcpy(&x, sw + off + 8 + k, 8);
					x = bswap_64(x);
					memcpy(sw + off + 8 + k, &x, 8);
				}
			}
			t0 = bswap_32(t0);
			memcpy(sw + off, &t0, 4);
			k = bswap_32(l0);
			memcpy(sw + off + 4, &k, 4);
			off += 8 + ((l0 + 7) & ~7U);
		}
		p = hm_meta__parse(sw, size, true);
		data = hm_meta__find(p, HM_META_FUTEX_TABLE, &len);
		CHECK("swapped: futex table decoded", data && !memcmp(data, &ft, sizeof(ft)));
		data = hm_meta__find(p, HM_META_FUTEX_ADDRS, &len);
		CHECK("swapped: futex addrs decoded", data && !memcmp(data, pairs, sizeof(pairs)));
		data = hm_meta__find(p, HM_META_RECORD_MODE, &len);
		CHECK("swapped: text untouched", data && len == 5 && !strcmp(data, "pebs"));
		hm_meta__delete(p);
		free(sw);
	}

	free(buf);
	hm_meta__delete(m);
	hm_meta__delete(NULL);
	PASS("delete(NULL)");
	TAP_DONE();
}
