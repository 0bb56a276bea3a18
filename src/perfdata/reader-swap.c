// SPDX-License-Identifier: GPL-2.0-only
/*
 * Records of the other byte order: the header and body swapped into a native
 * copy, as perf's perf_event__*_swap(); records are realigned here too.
 */
#include <errno.h>
#include <stdint.h>
#include "reader-int.h"

#define S16(o) do { if ((o) + 2 <= end) hm_st16(p + (o), bswap_16(hm_ld16(p + (o)))); } while (0)
#define S32(o) do { if ((o) + 4 <= end) hm_st32(p + (o), bswap_32(hm_ld32(p + (o)))); } while (0)
#define S64(o) do { if ((o) + 8 <= end) hm_st64(p + (o), bswap_64(hm_ld64(p + (o)))); } while (0)
#define S64R(from) do { for (u32 _o = (from); _o + 8 <= end; _o += 8) S64(_o); } while (0)

/*
 * struct perf_record_cpu_map_data at @o (packed: u16 type, then the union at
 * o + 2), as perf_event__cpu_map_swap: CPUS {u16 nr; u16 cpu[]}, MASK
 * {u16 nr; u16 long_size; u32 mask[] at o + 6 | pad[4]; u64 mask[] at
 * o + 10}, RANGE_CPUS {u8 any_cpu; u8 pad; u16 start_cpu; u16 end_cpu}.
 */
static void swap_cpu_map_data(u8 *p, u32 o, u32 end)
{
	u16 type, nr, long_size;

	if (o + 2 > end)
		return;
	S16(o);
	type = hm_ld16(p + o);
	switch (type) {
	case 0:	/* PERF_CPU_MAP__CPUS */
		if (o + 4 > end)
			return;
		S16(o + 2);
		nr = hm_ld16(p + o + 2);
		for (u32 i = 0; i < nr && o + 4 + 2 * i + 2 <= end; i++)
			S16(o + 4 + 2 * i);
		break;
	case 1:	/* PERF_CPU_MAP__MASK */
		if (o + 6 > end)
			return;
		S16(o + 2);
		S16(o + 4);
		nr = hm_ld16(p + o + 2);
		long_size = hm_ld16(p + o + 4);
		if (long_size == 4)
			for (u32 i = 0; i < nr && o + 6 + 4 * i + 4 <= end; i++)
				S32(o + 6 + 4 * i);
		else if (long_size == 8)
			for (u32 i = 0; i < nr && o + 10 + 8 * i + 8 <= end; i++)
				S64(o + 10 + 8 * i);
		break;
	case 2:	/* PERF_CPU_MAP__RANGE_CPUS */
		S16(o + 4);
		S16(o + 6);
		break;
	default:
		break;
	}
}

/* swap a record body in place (header already native) */
static void swap_body(struct hm_reader *r, u8 *p, u32 size)
{
	u32 t = hm_ld32(p);
	u32 tr = hm_record__is_kernel(t) && t != PERF_RECORD_SAMPLE ? r->id_hdr_size : 0;
	u32 end = size >= tr + 8 ? size - tr : 8;

	switch (t) {
	case PERF_RECORD_MMAP:
		S32(8); S32(12); S64(16); S64(24); S64(32);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_AUX:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		S64(8); S64(16); S64(24);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		S32(8); S32(12);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		S32(8); S32(12); S32(16); S32(20); S64(24);
		break;
	case PERF_RECORD_READ:
		S32(8); S32(12); S64R(16);
		break;
	case PERF_RECORD_MMAP2: {
		u16 misc = hm_ld16(p + 4);

		S32(8); S32(12); S64(16); S64(24); S64(32);
		if (!(misc & (1 << 14))) {
			S32(40); S32(44); S64(48); S64(56);
		}
		S32(64); S32(68);
		break;
	}
	case PERF_RECORD_LOST_SAMPLES:
	case 19: /* CGROUP */
	case 21: /* AUX_OUTPUT_HW_ID */
		S64(8);
		break;
	case PERF_RECORD_NAMESPACES:
		S32(8); S32(12); S64R(16);
		break;
	case PERF_RECORD_KSYMBOL:
		S64(8); S32(16);
		if (20 + 2 <= end)
			hm_st16(p + 20, bswap_16(hm_ld16(p + 20)));
		if (22 + 2 <= end)
			hm_st16(p + 22, bswap_16(hm_ld16(p + 22)));
		break;
	case 18: /* BPF_EVENT */
		if (10 <= end)
			hm_st16(p + 8, bswap_16(hm_ld16(p + 8)));
		if (12 <= end)
			hm_st16(p + 10, bswap_16(hm_ld16(p + 10)));
		S32(12);
		break;
	case 20: /* TEXT_POKE */
		S64(8);
		if (18 <= end)
			hm_st16(p + 16, bswap_16(hm_ld16(p + 16)));
		if (20 <= end)
			hm_st16(p + 18, bswap_16(hm_ld16(p + 18)));
		break;
	case HM_RECORD_HEADER_TRACING_DATA:
		S32(8);
		break;
	case HM_RECORD_HEADER_BUILD_ID:
		S32(8);
		break;
	case 22: /* CALLCHAIN_DEFERRED: cookie, nr, ips[] */
	case HM_RECORD_ID_INDEX:	/* nr, {id, idx, cpu, tid}[], {machine_pid, vcpu}[] */
	case HM_RECORD_STAT_CONFIG:	/* nr, {tag, val}[] */
	case HM_RECORD_STAT_ROUND:	/* type, time */
		S64R(8);
		break;
	case HM_RECORD_TIME_CONV:
		/* time_shift, time_mult, time_zero[, time_cycles, time_mask], then u8 caps */
		S64(8); S64(16); S64(24);
		if (size > 32) {
			S64(32); S64(40);
		}
		break;
	case HM_RECORD_HEADER_EVENT_TYPE:	/* event_id, name[] */
		S64(8);
		break;
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
			S64R(8 + asz);
		break;
	}
	case HM_RECORD_HEADER_FEATURE:	/* feat id, then the section as in a file */
		S64(8);
		if (size > 16)
			hm_feature__swap(r, hm_ld64(p + 8), p + 16, size - 16);
		break;
	case HM_RECORD_AUXTRACE_ERROR: {
		/* type, code, cpu, pid, tid, fmt, ip[, time], msg[64][, machine_pid, vcpu] */
		u32 fmt;

		S32(8); S32(12); S32(16); S32(20); S32(24); S32(28); S64(32);
		fmt = 32 <= end ? hm_ld32(p + 28) : 0;
		if (fmt)
			S64(40);
		if (fmt >= 2) {
			S32(112); S32(116);
		}
		break;
	}
	case HM_RECORD_CPU_MAP:
		swap_cpu_map_data(p, 8, end);
		break;
	case HM_RECORD_AUXTRACE_INFO:
		S32(8); S32(12); S64R(16);
		break;
	case HM_RECORD_AUXTRACE:
		S64(8); S64(16); S64(24); S32(32); S32(36); S32(40); S32(44);
		break;
	case HM_RECORD_THREAD_MAP:
		S64(8);
		for (u32 o = 16; o + 24 <= end; o += 24)
			S64(o);
		break;
	case HM_RECORD_STAT:
		S64(8); S32(16); S32(20); S64(24); S64(32); S64(40);
		break;
	case HM_RECORD_EVENT_UPDATE:
		/*
		 * type, id, then by type: UNIT (0) and NAME (2) strings, SCALE
		 * (1) a double, CPUS (3) a cpu_map_data.  perf 6.1 swaps only
		 * type and id; the scale and cpus are swapped here too.
		 */
		S64(8); S64(16);
		if (24 <= end && hm_ld64(p + 8) == 1)
			S64(24);
		else if (24 <= end && hm_ld64(p + 8) == 3)
			swap_cpu_map_data(p, 24, end);
		break;
	case HM_RECORD_COMPRESSED2:
		S64(8);
		break;
	default:
		break;	/* SAMPLE is swapped by the sample walker; others left as they are */
	}
}
#undef S16
#undef S32
#undef S64
#undef S64R

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
