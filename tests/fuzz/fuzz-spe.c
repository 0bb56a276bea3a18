// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the Arm SPE decoder: any bytes as packets (record by
 * record, as a queue's buffers), as an AUX buffer behind metadata v1 and v2
 * (the synthesized samples must be whole records), and as AUXTRACE_INFO
 * metadata.  What the encoder writes decodes back to the same record.
 * Built and run by 'make fuzz'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "perfdata/reader-int.h"
#include "perfdata/spe.h"
#include "perfdata/spe-write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sink(enum hm_log_level l, const char *msg, void *arg) { (void)l; (void)msg; (void)arg; }

static void decode_all(const uint8_t *data, size_t size)
{
	struct hm_spe_rdec d;
	size_t pos = 0;

	hm_spe_rdec__reset(&d);
	while (pos < size) {
		size_t used = 0;
		int ret = hm_spe_rdec__feed(&d, data + pos, size - pos, &used);

		if (used > size - pos)
			abort();
		if (ret == HM_SPE_BAD_PACKET) {
			pos += used + 1;
			hm_spe_rdec__reset(&d);
			continue;
		}
		pos += used;
		if (ret == 0)
			break;
		for (int v = 0; v < 2; v++) {
			struct hm_spe_cpu_meta m = { .have_midr = true, .midr = v ? 0x480fd060 : 0x413fd0c1,
						     .have_filter = v, .ev_filter = ~0ULL };
			(void)hm_spe__data_src(&d.rec, &m);
		}
		{
			/* re-encode: the fields the encoder writes survive */
			u8 buf[128];
			struct hm_spe_rdec d2;
			size_t n = hm_spe__encode(&d.rec, true, buf), u2 = 0;

			if (n > 96)
				abort();
			hm_spe_rdec__reset(&d2);
			if (hm_spe_rdec__feed(&d2, buf, n, &u2) != 1 || u2 != n ||
			    d2.rec.timestamp != d.rec.timestamp ||
			    ((d.rec.op & HM_SPE_OP_LDST) &&
			     (d2.rec.virt_addr & ((1ULL << 56) - 1)) != (d.rec.virt_addr & ((1ULL << 56) - 1))))
				abort();
		}
		hm_spe_rdec__reset(&d);
	}
}

static void via_reader_side(const uint8_t *data, size_t size, int ver)
{
	u8 info[16 + (HM_SPE_V2_HDR + 2 * HM_SPE_V2_CPU) * 8] = { 0 };
	u8 aux[48] = { 0 };
	u32 isize = ver == 1 ? 16 + HM_SPE_V1_PRIV * 8 : sizeof(info);
	u64 *p = (u64 *)(info + 16);
	struct hm_spe *s;
	const u8 *rec;
	u32 rsize;
	u64 off, n = size;

	hm_st32(info, HM_RECORD_AUXTRACE_INFO);
	hm_st16(info + 6, (u16)isize);
	hm_st32(info + 8, HM_AUXTRACE_ARM_SPE);
	if (ver == 1) {
		p[0] = 9;
		p[1] = 1;
	} else {
		p[0] = 2; p[1] = HM_SPE_V2_HDR; p[2] = 9; p[3] = 2;
		for (int c = 0; c < 2; c++) {
			u64 *m = p + HM_SPE_V2_HDR + c * HM_SPE_V2_CPU;

			m[0] = HM_SPE_CPU_MAGIC; m[1] = c; m[2] = 4; m[3] = 0x413fd0c1; m[4] = 9;
			m[6] = 1ULL << 23;
		}
	}
	s = hm_spe__new(info, isize, "0x00000000410fd0c0", false, "fuzz", 0);
	if (!s)
		abort();
	hm_st32(aux, HM_RECORD_AUXTRACE);
	hm_st16(aux + 6, 48);
	memcpy(aux + 8, &n, 8);
	hm_st32(aux + 40, (u32)(size & 1));
	if (hm_spe__auxtrace(s, aux, 48, data, n, 0) == 0) {
		while (hm_spe__next(s, &rec, &rsize, &off) == 1)
			if (rsize != 88 || hm_ld32(rec) != PERF_RECORD_SAMPLE ||
			    hm_ld64(rec + 8) != HM_SPE_SYNTH_ID)
				abort();
	}
	hm_spe__delete(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hm_log__set_sink(sink, NULL, HM_LOG_DEBUG);
	decode_all(data, size);
	via_reader_side(data, size, 1);
	via_reader_side(data, size, 2);
	/* the bytes as AUXTRACE_INFO metadata */
	if (size >= 16 && size < 65536) {
		struct hm_spe *s = hm_spe__new(data, (u32)size, NULL, false, "fuzz", 0);

		hm_spe__delete(s);
	}
	return 0;
}
