// SPDX-License-Identifier: GPL-2.0-only
/*
 * The byte layout of header feature sections, one description for both
 * directions (as record-swap.c for records): the reader turns a section of
 * the other byte order native, the writer a native one into the other byte
 * order.  Byte swapping is its own inverse; a count or length is read on
 * the native side of its swap.  Strings, byte arrays, TRACING_DATA and the
 * BTF blobs of BPF_BTF (each carries its own byte order, which its magic
 * says) stay as they are.  As a machine of the other byte order writes
 * them (tools/perf/util/header.c write_*).
 */
#include <byteswap.h>
#include <stddef.h>
#include <string.h>
#include <linux/bpf.h>
#include "record-swap.h"

struct fsw {
	u8	*p, *end;
	bool	err;
	bool	to_native;
};

static bool fsw_has(struct fsw *c, u64 n)
{
	if (c->err || (u64)(c->end - c->p) < n) {
		c->err = true;
		return false;
	}
	return true;
}

/* Swap the @n-byte number at the cursor, step over it; its native value. */
static u64 fsw_num(struct fsw *c, unsigned n)
{
	u64 before, after;

	if (!fsw_has(c, n))
		return 0;
	if (n == 8) {
		u64 v;

		memcpy(&v, c->p, 8);
		before = v;
		after = v = bswap_64(v);
		memcpy(c->p, &v, 8);
	} else if (n == 4) {
		u32 v;

		memcpy(&v, c->p, 4);
		before = v;
		after = v = bswap_32(v);
		memcpy(c->p, &v, 4);
	} else {
		u16 v;

		memcpy(&v, c->p, 2);
		before = v;
		after = v = bswap_16(v);
		memcpy(c->p, &v, 2);
	}
	c->p += n;
	return c->to_native ? after : before;
}

static u16 F16(struct fsw *c) { return (u16)fsw_num(c, 2); }
static u32 F32(struct fsw *c) { return (u32)fsw_num(c, 4); }
static u64 F64(struct fsw *c) { return fsw_num(c, 8); }

static void fsw_skip(struct fsw *c, u64 n)
{
	if (fsw_has(c, n))
		c->p += n;
}

/* perf_header_string: u32 len, then the bytes */
static void fsw_str(struct fsw *c)
{
	fsw_skip(c, F32(c));
}

/* u32 nr, string[nr] */
static void fsw_strlist(struct fsw *c)
{
	u32 n = F32(c);

	for (u32 i = 0; i < n && !c->err; i++)
		fsw_str(c);
}

/* u32 nr, {string name, string value}[nr] (CPU_PMU_CAPS, one PMU of PMU_CAPS) */
static void fsw_caps(struct fsw *c)
{
	u32 n = F32(c);

	for (u32 i = 0; i < n && !c->err; i++) {
		fsw_str(c);
		fsw_str(c);
	}
}

/* The native value of the u32 or u64 at @off of the (still unswapped or swapped) @p. */
static u64 nat_at(const u8 *p, u32 off, unsigned n, bool to_native)
{
	if (n == 8) {
		u64 v;

		memcpy(&v, p + off, 8);
		return to_native ? bswap_64(v) : v;
	} else {
		u32 v;

		memcpy(&v, p + off, 4);
		return to_native ? bswap_32(v) : v;
	}
}

static void swap_at(u8 *p, u32 off, unsigned n)
{
	struct fsw c = { .p = p + off, .end = p + off + n };

	fsw_num(&c, n);
}

#define INFO_OFF(f)	((u32)offsetof(struct bpf_prog_info, f))
#define INFO_SZ(f)	((u32)sizeof(((struct bpf_prog_info *)0)->f))

/*
 * The arrays after a struct bpf_prog_info in perf's struct perf_bpil, in
 * the bit order of its arrays mask (tools/perf/util/bpf-utils.c
 * bpil_array_desc): which field holds the array's offset in the data,
 * which its count, and its elements: @elem bytes wide, or a record of the
 * size in field @rec_size; swapped in @unit-byte words (0: bytes, 1:
 * struct bpf_insn).
 */
static const struct bpil_array {
	u32	ptr, count, rec_size;
	u8	elem, unit;
} bpil_arrays[] = {
	{ INFO_OFF(jited_prog_insns), INFO_OFF(jited_prog_len), 0, 1, 0 },
	{ INFO_OFF(xlated_prog_insns), INFO_OFF(xlated_prog_len), 0, 1, 1 },
	{ INFO_OFF(map_ids), INFO_OFF(nr_map_ids), 0, 4, 4 },
	{ INFO_OFF(jited_ksyms), INFO_OFF(nr_jited_ksyms), 0, 8, 8 },
	{ INFO_OFF(jited_func_lens), INFO_OFF(nr_jited_func_lens), 0, 4, 4 },
	{ INFO_OFF(func_info), INFO_OFF(nr_func_info), INFO_OFF(func_info_rec_size), 0, 4 },
	{ INFO_OFF(line_info), INFO_OFF(nr_line_info), INFO_OFF(line_info_rec_size), 0, 4 },
	{ INFO_OFF(jited_line_info), INFO_OFF(nr_jited_line_info),
	  INFO_OFF(jited_line_info_rec_size), 0, 8 },
	{ INFO_OFF(prog_tags), INFO_OFF(nr_prog_tags), 0, BPF_TAG_SIZE, 0 },
};

/* One array of @info's data: its bounds from the native fields, then its words. */
static void swap_bpil_array(const struct bpil_array *a, const u8 *info, u32 info_len,
			    u8 *data, u32 data_len, bool to_native)
{
	u64 off, count, size, bytes;

	if (a->ptr + 8 > info_len || a->count + 4 > info_len || !a->unit ||
	    (a->rec_size && a->rec_size + 4 > info_len))
		return;
	off = nat_at(info, a->ptr, 8, to_native);
	count = nat_at(info, a->count, 4, to_native);
	size = a->rec_size ? nat_at(info, a->rec_size, 4, to_native) : a->elem;
	bytes = count * size;
	if (!size || count > data_len / size || off > data_len || bytes > data_len - off)
		return;
	if (a->unit == 1) {
		/* struct bpf_insn: u8 code, u8 dst_reg:4 src_reg:4, s16 off, s32 imm */
		for (u64 i = 0; i + 8 <= bytes; i += 8) {
			u8 *insn = data + off + i;

			insn[1] = (u8)(insn[1] >> 4 | insn[1] << 4);
			swap_at(insn, 2, 2);
			swap_at(insn, 4, 4);
		}
		return;
	}
	for (u64 i = 0; i + a->unit <= bytes; i += a->unit)
		swap_at(data + off, (u32)i, a->unit);
}

static u8 revbyte(u8 b)
{
	b = (u8)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (u8)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (u8)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

/*
 * struct bpf_prog_info (@info_len bytes of it, as the recording perf knew
 * it) and its arrays: every number, the gpl_compatible bit field by bit
 * order (as the attr's flags), tag and name as they are.
 */
static void swap_bpil(u8 *info, u32 info_len, u8 *data, u32 data_len, u64 arrays,
		      bool to_native)
{
	static const u32 fields[][2] = {
		{ INFO_OFF(type), 4 }, { INFO_OFF(id), 4 },
		{ INFO_OFF(jited_prog_len), 4 }, { INFO_OFF(xlated_prog_len), 4 },
		{ INFO_OFF(jited_prog_insns), 8 }, { INFO_OFF(xlated_prog_insns), 8 },
		{ INFO_OFF(load_time), 8 }, { INFO_OFF(created_by_uid), 4 },
		{ INFO_OFF(nr_map_ids), 4 }, { INFO_OFF(map_ids), 8 },
		{ INFO_OFF(ifindex), 4 },
		{ INFO_OFF(netns_dev), 8 }, { INFO_OFF(netns_ino), 8 },
		{ INFO_OFF(nr_jited_ksyms), 4 }, { INFO_OFF(nr_jited_func_lens), 4 },
		{ INFO_OFF(jited_ksyms), 8 }, { INFO_OFF(jited_func_lens), 8 },
		{ INFO_OFF(btf_id), 4 }, { INFO_OFF(func_info_rec_size), 4 },
		{ INFO_OFF(func_info), 8 }, { INFO_OFF(nr_func_info), 4 },
		{ INFO_OFF(nr_line_info), 4 }, { INFO_OFF(line_info), 8 },
		{ INFO_OFF(jited_line_info), 8 }, { INFO_OFF(nr_jited_line_info), 4 },
		{ INFO_OFF(line_info_rec_size), 4 }, { INFO_OFF(jited_line_info_rec_size), 4 },
		{ INFO_OFF(nr_prog_tags), 4 }, { INFO_OFF(prog_tags), 8 },
		{ INFO_OFF(run_time_ns), 8 }, { INFO_OFF(run_cnt), 8 },
		{ INFO_OFF(recursion_misses), 8 }, { INFO_OFF(verified_insns), 4 },
		{ INFO_OFF(attach_btf_obj_id), 4 }, { INFO_OFF(attach_btf_id), 4 },
	};
	u32 bits = INFO_OFF(ifindex) + INFO_SZ(ifindex);

	/* the arrays perf saved (@arrays): the counts of the others are the kernel's */
	for (size_t i = 0; i < sizeof(bpil_arrays) / sizeof(bpil_arrays[0]); i++)
		if (arrays >> i & 1)
			swap_bpil_array(&bpil_arrays[i], info, info_len, data, data_len, to_native);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (fields[i][0] + fields[i][1] <= info_len)
			swap_at(info, fields[i][0], fields[i][1]);
	if (bits + 4 <= info_len)
		for (u32 i = bits; i < bits + 4; i++)
			info[i] = revbyte(info[i]);
}

/* u32 count; {u32 info_len, u32 data_len, u64 arrays, info, data}[count] */
static void fsw_bpf_prog_info(struct fsw *c)
{
	u32 n = F32(c);

	for (u32 i = 0; i < n && !c->err; i++) {
		u32 info_len = F32(c), data_len = F32(c);
		u64 arrays = F64(c);

		if (!fsw_has(c, (u64)info_len + data_len))
			return;
		swap_bpil(c->p, info_len, c->p + info_len, data_len, arrays, c->to_native);
		c->p += (u64)info_len + data_len;
	}
}

/* u32 count; {u32 id, u32 size, BTF[size]}[count] */
static void fsw_bpf_btf(struct fsw *c)
{
	u32 n = F32(c);

	for (u32 i = 0; i < n && !c->err; i++) {
		F32(c);
		fsw_skip(c, F32(c));
	}
}

/*
 * u32 schedstat_version, u32 max_sched_domains, then per CPU with domains
 * {u32 cpu, u32 nr_domains, {u32 domain, [string name (version >= 17)],
 * string cpumask, string cpulist}[nr_domains]} to the end of the section
 */
static void fsw_cpu_domain_info(struct fsw *c)
{
	u32 version = F32(c);

	F32(c);
	while (!c->err && c->p < c->end) {
		u32 nr;

		F32(c);
		nr = F32(c);
		for (u32 i = 0; i < nr && !c->err; i++) {
			F32(c);
			if (version >= 17)
				fsw_str(c);
			fsw_str(c);
			fsw_str(c);
		}
	}
}

/* perf_record_header_build_id records of type 0: header, pid, build id, filename */
static void fsw_build_id(struct fsw *c)
{
	while (!c->err && c->end - c->p >= 8) {
		u8 *rec = c->p;
		u16 sz;

		F32(c);		/* type */
		F16(c);		/* misc */
		sz = F16(c);
		if (sz < 12 || sz > c->end - rec) {
			c->err = true;
			return;
		}
		F32(c);		/* pid */
		c->p = rec + sz;
	}
}

static void fsw_cpu_topology(struct fsw *c, u32 cpus)
{
	fsw_strlist(c);		/* package (core siblings) */
	fsw_strlist(c);		/* core (thread siblings) */
	if (c->err || c->p == c->end || !cpus)
		return;
	for (u32 i = 0; i < 2 * cpus && !c->err; i++)
		F32(c);		/* core_id, socket_id */
	if (c->err || c->p == c->end)
		return;
	fsw_strlist(c);		/* die siblings */
	for (u32 i = 0; i < cpus && !c->err; i++)
		F32(c);		/* die_id */
}

bool hm_feat__swap(int feat, u8 *buf, u64 size, u32 nr_cpus, bool to_native)
{
	struct fsw c = { .p = buf, .end = buf + size, .to_native = to_native };
	u32 n;

	if (!size)
		return true;
	switch (feat) {
	case HM_FEAT_HOSTNAME: case HM_FEAT_OSRELEASE: case HM_FEAT_VERSION:
	case HM_FEAT_ARCH: case HM_FEAT_CPUDESC: case HM_FEAT_CPUID:
		fsw_str(&c);
		break;
	case HM_FEAT_NRCPUS:
	case HM_FEAT_E_MACHINE:		/* u32 e_machine, u32 e_flags */
		F32(&c);
		F32(&c);
		break;
	case HM_FEAT_CLN_SIZE:		/* u32 cache line size */
		F32(&c);
		break;
	case HM_FEAT_CMDLINE:
		fsw_strlist(&c);
		break;
	case HM_FEAT_CPU_TOPOLOGY:
		fsw_cpu_topology(&c, nr_cpus);
		break;
	case HM_FEAT_NUMA_TOPOLOGY:	/* nr, {u32 node, u64 total, u64 free, cpus}[] */
		n = F32(&c);
		for (u32 i = 0; i < n && !c.err; i++) {
			F32(&c);
			F64(&c);
			F64(&c);
			fsw_str(&c);
		}
		break;
	case HM_FEAT_TOTAL_MEM:
	case HM_FEAT_CLOCKID:
	case HM_FEAT_SAMPLE_TIME:
	case HM_FEAT_DIR_FORMAT:
	case HM_FEAT_MEM_TOPOLOGY:	/* version, block size, nr, {node, size, bitmap}[] */
	case HM_FEAT_AUXTRACE:		/* nr, {offset, size}[] */
		while (!c.err && c.end - c.p >= 8)
			F64(&c);
		break;
	case HM_FEAT_CACHE:		/* version, nr, {level, line, sets, ways, 3 strings}[] */
		F32(&c);
		n = F32(&c);
		for (u32 i = 0; i < n && !c.err; i++) {
			for (int k = 0; k < 4; k++)
				F32(&c);
			fsw_str(&c);
			fsw_str(&c);
			fsw_str(&c);
		}
		break;
	case HM_FEAT_PMU_MAPPINGS:	/* nr, {u32 type, name}[] */
		n = F32(&c);
		for (u32 i = 0; i < n && !c.err; i++) {
			F32(&c);
			fsw_str(&c);
		}
		break;
	case HM_FEAT_GROUP_DESC:	/* nr, {name, u32 leader_idx, u32 nr_members}[] */
		n = F32(&c);
		for (u32 i = 0; i < n && !c.err; i++) {
			fsw_str(&c);
			F32(&c);
			F32(&c);
		}
		break;
	case HM_FEAT_HYBRID_TOPOLOGY:	/* nr, {pmu name, cpus}[] */
	case HM_FEAT_CPU_PMU_CAPS:
		fsw_caps(&c);
		break;
	case HM_FEAT_PMU_CAPS:		/* nr, {caps, pmu name}[] */
		n = F32(&c);
		for (u32 i = 0; i < n && !c.err; i++) {
			fsw_caps(&c);
			fsw_str(&c);
		}
		break;
	case HM_FEAT_COMPRESSED:	/* version, type, level, ratio, mmap_len */
		for (int k = 0; k < 5 && !c.err; k++)
			F32(&c);
		break;
	case HM_FEAT_CLOCK_DATA:	/* u32 version, u32 clockid, u64 tod_ns, u64 clockid_ns */
		F32(&c);
		F32(&c);
		F64(&c);
		F64(&c);
		break;
	case HM_FEAT_BUILD_ID:
		fsw_build_id(&c);
		break;
	case HM_FEAT_BPF_PROG_INFO:
		fsw_bpf_prog_info(&c);
		break;
	case HM_FEAT_BPF_BTF:
		fsw_bpf_btf(&c);
		break;
	case HM_FEAT_CPU_DOMAIN_INFO:
		fsw_cpu_domain_info(&c);
		break;
	case HM_FEAT_TRACING_DATA:	/* its own byte order */
	case HM_FEAT_BRANCH_STACK:	/* empty */
	case HM_FEAT_STAT:		/* empty */
		break;
	default:
		return false;		/* EVENT_DESC (the reader's), unknown */
	}
	return !c.err;
}
