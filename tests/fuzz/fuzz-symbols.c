// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the input is cut into records ({u16 type, u16 misc,
 * u16 size} + body, the size clamped to what is left) fed to hm_maps, with
 * lookups in between; the whole input is also parsed as kallsyms text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/symbols.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct hm_ksyms *loader(void *ctx)
{
	return ctx;	/* the input's own kallsyms, when it parsed */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_maps *m = hm_maps__new();
	struct hm_ksyms *k = hm_ksyms__parse((const char *)data, size);
	struct hm_symbols *s = hm_symbols__new(&(struct hm_symbols_opts){ .kallsyms = "", .no_source = true });
	size_t off = 0;

	if (k) {
		hm_ksyms__find(k, 0xffffffff81000000ULL);
		hm_ksyms__by_name(k, "_text");
	}
	if (m)
		hm_maps__set_kernel_loader(m, loader, k);
	while (m && off + 6 <= size) {
		struct hm_event ev = { 0 };
		u16 type, misc, len;
		uint8_t *rec;

		memcpy(&type, data + off, 2);
		memcpy(&misc, data + off + 2, 2);
		memcpy(&len, data + off + 4, 2);
		off += 6;
		if (len > size - off)
			len = (u16)(size - off);
		rec = malloc(len + 8 > 8 ? len + 8 : 8);	/* header included, like the reader's */
		if (!rec)
			break;
		memset(rec, 0, 8);
		memcpy(rec + 8, data + off, len);
		ev.type = type % 24;
		ev.misc = misc;
		ev.size = len + 8;
		ev.data = rec;
		hm_maps__process(m, &ev);
		if (len >= 16) {
			u64 a, pid;
			struct hm_symbol_info info;

			memcpy(&a, rec + 8, 8);
			memcpy(&pid, rec + 16, 8);
			hm_maps__mapped_thread(m, (u32)pid, (u32)(pid >> 32), misc & 7, a, a ^ pid);
			hm_symbols__resolve(s, m, (u32)pid, misc & 7, a, &info);
		}
		free(rec);
		off += len;
	}
	hm_symbols__delete(s);
	hm_maps__delete(m);
	hm_ksyms__delete(k);
	return 0;
}
