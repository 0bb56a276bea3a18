// SPDX-License-Identifier: GPL-2.0-only
/*
 * The byte layout of perf.data record bodies, one description for both
 * directions: the reader swaps a record of the other byte order to native,
 * the writer swaps a native record to the other byte order (byte swapping
 * is its own inverse; only the fields a layout depends on are read on the
 * native side of their swap).  As perf's perf_event__*_swap().
 */
#include <byteswap.h>
#include <string.h>
#include "record-swap.h"

struct sw {
	u8	*p;
	u32	end;
	bool	to_native;
};

/* Swap the field at @o when it lies below the end; return its native value. */
static u64 sw_n(struct sw *s, u32 o, unsigned n)
{
	u64 before = 0, after = 0;

	if (o + n > s->end)
		return 0;
	if (n == 8) {
		u64 v;

		memcpy(&v, s->p + o, 8);
		before = v;
		after = v = bswap_64(v);
		memcpy(s->p + o, &v, 8);
	} else if (n == 4) {
		u32 v;

		memcpy(&v, s->p + o, 4);
		before = v;
		after = v = bswap_32(v);
		memcpy(s->p + o, &v, 4);
	} else {
		u16 v;

		memcpy(&v, s->p + o, 2);
		before = v;
		after = v = bswap_16(v);
		memcpy(s->p + o, &v, 2);
	}
	return s->to_native ? after : before;
}

#define S16(o)	sw_n(s, (o), 2)
#define S32(o)	sw_n(s, (o), 4)
#define S64(o)	sw_n(s, (o), 8)
#define S64R(from) do { for (u32 _o = (from); _o + 8 <= s->end; _o += 8) S64(_o); } while (0)

/*
 * struct perf_record_cpu_map_data at @o (packed: u16 type, then the union at
 * o + 2), as perf_event__cpu_map_swap: CPUS {u16 nr; u16 cpu[]}, MASK
 * {u16 nr; u16 long_size; u32 mask[] at o + 6 | pad[4]; u64 mask[] at
 * o + 10}, RANGE_CPUS {u8 any_cpu; u8 pad; u16 start_cpu; u16 end_cpu}.
 */
static void swap_cpu_map_data(struct sw *s, u32 o)
{
	u16 type, nr, long_size;
	u32 end = s->end;

	if (o + 2 > end)
		return;
	type = S16(o);
	switch (type) {
	case 0:	/* PERF_CPU_MAP__CPUS */
		if (o + 4 > end)
			return;
		nr = S16(o + 2);
		for (u32 i = 0; i < nr && o + 4 + 2 * i + 2 <= end; i++)
			S16(o + 4 + 2 * i);
		break;
	case 1:	/* PERF_CPU_MAP__MASK */
		if (o + 6 > end)
			return;
		nr = S16(o + 2);
		long_size = S16(o + 4);
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

bool hm_record__swap_body(u8 *p, u32 type, u16 misc, u32 size, u32 end, bool to_native)
{
	struct sw sv = { .p = p, .end = end, .to_native = to_native }, *s = &sv;

	switch (type) {
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
	case PERF_RECORD_MMAP2:
		S32(8); S32(12); S64(16); S64(24); S64(32);
		if (!(misc & (1 << 14))) {	/* not MMAP_BUILD_ID */
			S32(40); S32(44); S64(48); S64(56);
		}
		S32(64); S32(68);
		break;
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_CGROUP:
	case 21: /* AUX_OUTPUT_HW_ID */
		S64(8);
		break;
	case PERF_RECORD_NAMESPACES:	/* pid, tid, u64 nr, { dev, ino }[nr] */
		S32(8); S32(12); S64R(16);
		break;
	case PERF_RECORD_KSYMBOL:
		S64(8); S32(16); S16(20); S16(22);
		break;
	case PERF_RECORD_BPF_EVENT:	/* u16 type, u16 flags, u32 id, tag[8] */
		S16(8); S16(10); S32(12);
		break;
	case PERF_RECORD_TEXT_POKE:	/* u64 addr, u16 old_len, u16 new_len, bytes */
		S64(8); S16(16); S16(18);
		break;
	case PERF_RECORD_SWITCH:
	case HM_RECORD_FINISHED_ROUND:
	case HM_RECORD_FINISHED_INIT:
		break;
	case HM_RECORD_HEADER_TRACING_DATA:
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
	case HM_RECORD_AUXTRACE_ERROR: {
		/* type, code, cpu, pid, tid, fmt, ip[, time], msg[64][, machine_pid, vcpu] */
		u32 fmt;

		S32(8); S32(12); S32(16); S32(20); S32(24);
		fmt = S32(28);
		S64(32);
		if (fmt)
			S64(40);
		if (fmt >= 2) {
			S32(112); S32(116);
		}
		break;
	}
	case HM_RECORD_CPU_MAP:
		swap_cpu_map_data(s, 8);
		break;
	case HM_RECORD_AUXTRACE_INFO:	/* u32 type, reserved; u64 priv[] */
		S32(8); S32(12); S64R(16);
		break;
	case HM_RECORD_AUXTRACE:	/* size, offset, reference; u32 idx, tid, cpu, reserved */
		S64(8); S64(16); S64(24); S32(32); S32(36); S32(40); S32(44);
		break;
	case HM_RECORD_THREAD_MAP:	/* u64 nr; { u64 pid; char comm[16]; }[nr] */
		S64(8);
		for (u32 o = 16; o + 24 <= end; o += 24)
			S64(o);
		break;
	case HM_RECORD_STAT:
		S64(8); S32(16); S32(20); S64(24); S64(32); S64(40);
		break;
	case HM_RECORD_EVENT_UPDATE: {
		/*
		 * type, id, then by type: UNIT (0) and NAME (2) strings, SCALE
		 * (1) a double, CPUS (3) a cpu_map_data.  perf 6.1 swaps only
		 * type and id; the scale and cpus are swapped here too.
		 */
		u64 t = S64(8);

		S64(16);
		if (24 <= end && t == 1)
			S64(24);
		else if (24 <= end && t == 3)
			swap_cpu_map_data(s, 24);
		break;
	}
	case HM_RECORD_COMPRESSED2:
		S64(8);
		break;
	default:
		return false;
	}
	return true;
}
