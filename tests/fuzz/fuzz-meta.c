// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for hitmap's metadata section (HM_FEAT_HITMAP TLVs):
 * any bytes parsed in both byte orders; what parses serializes and parses
 * back to the same entries.  Built and run by 'make fuzz'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int swap = 0; swap < 2; swap++) {
		struct hm_meta *m = hm_meta__parse(data, size, swap), *m2;
		const void *d, *d2;
		u32 tag, len, tag2, len2;
		void *buf = NULL;
		u64 bsize = 0;

		if (!m)
			continue;
		if (hm_meta__serialize(m, &buf, &bsize) == 0) {
			m2 = hm_meta__parse(buf, bsize, false);
			if (!m2)
				abort();
			for (int i = 0; hm_meta__get(m, i, &tag, &d, &len) == 1; i++) {
				if (hm_meta__get(m2, i, &tag2, &d2, &len2) != 1 || tag != tag2 ||
				    len != len2 || memcmp(d, d2, len))
					abort();
			}
			hm_meta__delete(m2);
			free(buf);
		}
		hm_meta__find(m, HM_META_FUTEX_TABLE, &len);
		hm_meta__delete(m);
	}
	return 0;
}
