// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arm SPE AUX data in perf.data -> memory samples.
 *
 * AUXTRACE_INFO (type arm_spe) gives the metadata: v1 {pmu_type,
 * per_cpu_mmaps} with the MIDR taken from the header's CPUID, or v2 {version,
 * header size, pmu_type, nr_cpus} then per CPU {magic, cpu, nr_params, midr,
 * pmu_type, min_interval, event_filter}.  Each AUXTRACE record carries one
 * buffer of one queue (its idx; cpu in per-CPU mode); a queue's records may
 * run from one buffer into the next.  Every record that is a memory
 * operation becomes one SAMPLE of a synthesized event "memory", with the
 * fields perf 7.3 gives it (ip, pid/tid, time, addr, cpu, period 1, weight =
 * total latency, data_src, phys_addr), so the reader can hand it out like a
 * recorded sample.  Memory grows with one AUX buffer and the threads seen.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hitmap/log.h>
#include "perfdata/reader-int.h"
#include "perfdata/spe-decode.h"
#include "perfdata/spe.h"

#define SPE_MAX_QUEUES	65536
#define SPE_SAMPLE_U64	10	/* IDENTIFIER IP TID TIME ADDR CPU PERIOD WEIGHT DATA_SRC PHYS */
#define SPE_SAMPLE_SIZE	(8 + SPE_SAMPLE_U64 * 8)

struct spe_queue {
	bool			used;
	struct hm_spe_rdec	dec;
	s32			cpu;
	s32			pid, tid;	/* -1: unknown */
};

struct tid_ent {
	u32	tid;
	s32	pid;
	bool	used;
};

struct hm_spe {
	char			*path;
	struct perf_event_attr	attr;
	u64			ver;		/* 1 or 2 */
	u64			pmu_type;
	bool			have_cpuid_midr;
	u64			cpuid_midr;
	u64			nr_cpu, per_cpu;	/* v2 */
	u64			*meta;		/* nr_cpu * per_cpu words */
	bool			homogeneous;
	bool			timeless;
	/* TIME_CONV */
	u64			time_shift, time_mult, time_zero, time_cycles, time_mask;
	bool			cap_short;
	/* queues by AUXTRACE idx */
	struct spe_queue	*q;
	u32			nr_q;
	/* tid -> pid */
	struct tid_ent		*tids;
	u32			tid_cap, tid_nr;
	/* synthesized samples of the current buffer */
	u8			*out;
	size_t			out_len, out_cap, out_pos;
	u64			out_off;
	/* counts */
	u64			nr_records, nr_samples, nr_bad;
	bool			warned_bad;
};

/* ------------------------------------------------------------- threads */

static struct tid_ent *tid_slot(struct hm_spe *s, u32 tid, bool create)
{
	u32 i;

	if (create && (s->tid_nr + 1) * 2 > s->tid_cap) {
		u32 ncap = s->tid_cap ? s->tid_cap * 2 : 256;
		struct tid_ent *n = calloc(ncap, sizeof(*n));

		if (!n)
			return NULL;
		for (u32 j = 0; j < s->tid_cap; j++) {
			if (!s->tids[j].used)
				continue;
			i = (s->tids[j].tid * 2654435761u) & (ncap - 1);
			while (n[i].used)
				i = (i + 1) & (ncap - 1);
			n[i] = s->tids[j];
		}
		free(s->tids);
		s->tids = n;
		s->tid_cap = ncap;
	}
	if (!s->tid_cap)
		return NULL;
	i = (tid * 2654435761u) & (s->tid_cap - 1);
	while (s->tids[i].used) {
		if (s->tids[i].tid == tid)
			return &s->tids[i];
		i = (i + 1) & (s->tid_cap - 1);
	}
	if (!create)
		return NULL;
	s->tids[i].used = true;
	s->tids[i].tid = tid;
	s->tids[i].pid = -1;
	s->tid_nr++;
	return &s->tids[i];
}

static void set_pid(struct hm_spe *s, u32 pid, u32 tid)
{
	struct tid_ent *t;

	if (tid == (u32)-1)
		return;
	t = tid_slot(s, tid, true);
	if (t)
		t->pid = (s32)pid;
}

void hm_spe__sideband(struct hm_spe *s, const u8 *rec, u32 size)
{
	u32 type;

	if (!s || size < 8)
		return;
	type = hm_ld32(rec);
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (size >= 16)
			set_pid(s, hm_ld32(rec + 8), hm_ld32(rec + 12));
		break;
	case PERF_RECORD_FORK:
		if (size >= 24)
			set_pid(s, hm_ld32(rec + 8), hm_ld32(rec + 16));
		break;
	case HM_RECORD_TIME_CONV:
		if (size < 32)
			break;
		s->time_shift = hm_ld64(rec + 8);
		s->time_mult = hm_ld64(rec + 16);
		s->time_zero = hm_ld64(rec + 24);
		if (size >= 50) {
			s->time_cycles = hm_ld64(rec + 32);
			s->time_mask = hm_ld64(rec + 40);
			s->cap_short = rec[49] != 0;
		}
		break;
	default:
		break;
	}
}

/* perf's tsc_to_perf_time */
static u64 to_perf_time(const struct hm_spe *s, u64 cyc)
{
	u64 quot, rem;

	if (s->cap_short)
		cyc = s->time_cycles + ((cyc - s->time_cycles) & s->time_mask);
	if (s->time_shift >= 64)
		return s->time_zero;
	quot = cyc >> s->time_shift;
	rem = cyc & ((1ULL << s->time_shift) - 1);
	return s->time_zero + quot * s->time_mult + ((rem * s->time_mult) >> s->time_shift);
}

/* ------------------------------------------------------------ metadata */

static const u64 *cpu_meta(const struct hm_spe *s, s32 cpu)
{
	if (!s->meta)
		return NULL;
	if (cpu < 0)
		return s->homogeneous ? s->meta : NULL;
	for (u64 i = 0; i < s->nr_cpu; i++)
		if (s->meta[i * s->per_cpu + 1] == (u64)cpu)
			return s->meta + i * s->per_cpu;
	return NULL;
}

static void meta_for(const struct hm_spe *s, s32 cpu, struct hm_spe_cpu_meta *m)
{
	const u64 *cm;

	memset(m, 0, sizeof(*m));
	if (s->ver == 1) {
		m->have_midr = s->have_cpuid_midr;
		m->midr = s->cpuid_midr;
		return;
	}
	cm = cpu_meta(s, cpu);
	if (!cm)
		return;
	if (s->per_cpu > 3) {
		m->have_midr = true;
		m->midr = cm[3];
	}
	if (s->per_cpu > 6) {
		m->have_filter = true;
		m->ev_filter = cm[6];
	}
}

struct hm_spe *hm_spe__new(const u8 *info, u32 size, const char *cpuid, bool timeless,
			   const char *path, u64 off)
{
	struct hm_spe *s;
	u64 nwords;
	const u8 *priv = info + 16;

	if (size < 16 + HM_SPE_V1_PRIV * 8) {
		hm_err("%s: offset %" PRIu64 ": AUXTRACE_INFO for Arm SPE of %u bytes is too small "
		       "for its metadata (%u bytes at least); the file is corrupt", path, off, size,
		       16 + HM_SPE_V1_PRIV * 8);
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->path = strdup(path ? path : "perf.data");
	if (!s->path)
		goto nomem;
	s->timeless = timeless;
	nwords = (size - 16) / 8;
	if (nwords == HM_SPE_V1_PRIV) {
		s->ver = 1;
		s->pmu_type = hm_ld64(priv);
		if (cpuid && *cpuid) {
			s->cpuid_midr = strtoull(cpuid, NULL, 16);
			s->have_cpuid_midr = true;
		}
	} else {
		u64 hdr = 0, nr = 0;

		s->ver = hm_ld64(priv);
		if (nwords >= HM_SPE_V2_HDR) {
			hdr = hm_ld64(priv + 8);
			s->pmu_type = hm_ld64(priv + 16);
			nr = hm_ld64(priv + 24);
		}
		/* a CPU's words: its magic, its number and its parameter count at least */
		if (nwords < HM_SPE_V2_HDR || hdr < HM_SPE_V2_HDR || hdr > nwords || !nr ||
		    nr > 1u << 20 || (nwords - hdr) / nr < 3) {
			hm_err("%s: offset %" PRIu64 ": Arm SPE metadata (version %" PRIu64 ", "
			       "header %" PRIu64 " words, %" PRIu64 " CPUs) does not fit its %" PRIu64
			       " words; the AUXTRACE_INFO record is corrupt", path, off, s->ver,
			       hdr, nr, nwords);
			hm_spe__delete(s);
			errno = EINVAL;
			return NULL;
		}
		s->nr_cpu = nr;
		s->per_cpu = (nwords - hdr) / nr;
		s->meta = malloc(nr * s->per_cpu * 8);
		if (!s->meta)
			goto nomem;
		for (u64 i = 0; i < nr * s->per_cpu; i++)
			s->meta[i] = hm_ld64(priv + (hdr + i) * 8);
		s->homogeneous = true;
		for (u64 i = 1; i < nr && s->per_cpu > 3; i++)
			if (s->meta[i * s->per_cpu + 3] != s->meta[3])
				s->homogeneous = false;
		if (s->per_cpu <= 3)
			s->homogeneous = false;
	}
	s->attr.type = PERF_TYPE_HARDWARE;
	s->attr.size = sizeof(s->attr) < 128 ? sizeof(s->attr) : 128;
	s->attr.config = PERF_COUNT_HW_CPU_CYCLES;
	s->attr.sample_period = 1;
	s->attr.sample_type = HM_SPE_SAMPLE_TYPE;
	s->attr.sample_id_all = 1;
	return s;
nomem:
	hm_spe__delete(s);
	errno = ENOMEM;
	return NULL;
}

void hm_spe__delete(struct hm_spe *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->meta);
	free(s->q);
	free(s->tids);
	free(s->out);
	free(s);
}

const struct perf_event_attr *hm_spe__attr(const struct hm_spe *s) { return &s->attr; }
u64 hm_spe__id(const struct hm_spe *s) { return HM_SPE_SYNTH_ID; }

void hm_spe__counts(const struct hm_spe *s, u64 *records, u64 *samples, u64 *bad)
{
	*records = s ? s->nr_records : 0;
	*samples = s ? s->nr_samples : 0;
	*bad = s ? s->nr_bad : 0;
}

/* ------------------------------------------------------------- decoding */

static struct spe_queue *queue(struct hm_spe *s, u32 idx)
{
	if (idx >= SPE_MAX_QUEUES)
		return NULL;
	if (idx >= s->nr_q) {
		u32 n = idx + 1 > s->nr_q * 2 ? idx + 1 : s->nr_q * 2;
		struct spe_queue *q = realloc(s->q, (size_t)n * sizeof(*q));

		if (!q)
			return NULL;
		memset(q + s->nr_q, 0, (size_t)(n - s->nr_q) * sizeof(*q));
		s->q = q;
		s->nr_q = n;
	}
	return &s->q[idx];
}

static int emit(struct hm_spe *s, struct spe_queue *q)
{
	const struct hm_spe_record *r = &q->dec.rec;
	struct hm_spe_cpu_meta m;
	u64 v[SPE_SAMPLE_U64], ds;
	u8 *p;

	s->nr_records++;
	if (!s->timeless && r->context_id != (u64)-1) {
		struct tid_ent *t = tid_slot(s, (u32)r->context_id, false);

		q->tid = (s32)r->context_id;
		if (t && t->pid != -1)
			q->pid = t->pid;
	}
	if (!hm_spe__is_mem_op(r->op))
		return 0;
	meta_for(s, q->cpu, &m);
	ds = hm_spe__data_src(r, &m);
	if (s->out_len + SPE_SAMPLE_SIZE > s->out_cap) {
		size_t ncap = s->out_cap ? s->out_cap * 2 : 64 * SPE_SAMPLE_SIZE;
		u8 *n = realloc(s->out, ncap);

		if (!n)
			return -ENOMEM;
		s->out = n;
		s->out_cap = ncap;
	}
	p = s->out + s->out_len;
	hm_st32(p, PERF_RECORD_SAMPLE);
	hm_st16(p + 4, r->from_ip >= 0xffff000000000000ULL ? PERF_RECORD_MISC_KERNEL
							     : PERF_RECORD_MISC_USER);
	hm_st16(p + 6, SPE_SAMPLE_SIZE);
	v[0] = HM_SPE_SYNTH_ID;
	v[1] = r->from_ip;
	v[2] = 0;
	v[3] = s->timeless ? 0 : to_perf_time(s, r->timestamp);
	v[4] = r->virt_addr;
	v[5] = 0;
	v[6] = 1;
	v[7] = r->latency;
	v[8] = ds;
	v[9] = r->phys_addr;
	memcpy(p + 8, v, sizeof(v));
	hm_st32(p + 8 + 2 * 8, (u32)q->pid);
	hm_st32(p + 8 + 2 * 8 + 4, (u32)q->tid);
	hm_st32(p + 8 + 5 * 8, (u32)q->cpu);
	s->out_len += SPE_SAMPLE_SIZE;
	s->nr_samples++;
	return 0;
}

int hm_spe__auxtrace(struct hm_spe *s, const u8 *rec, u32 size, const u8 *payload, u64 n,
		     u64 payload_off)
{
	struct spe_queue *q;
	u32 idx, tid;
	s32 cpu;
	size_t pos = 0;
	int ret;

	if (size < 48)
		return 0;
	idx = hm_ld32(rec + 32);
	tid = hm_ld32(rec + 36);
	cpu = (s32)hm_ld32(rec + 40);
	q = queue(s, idx);
	if (!q) {
		hm_err("%s: offset %" PRIu64 ": AUXTRACE buffer of queue %u: %s", s->path,
		       payload_off, idx, idx >= SPE_MAX_QUEUES ? "queue index out of range; the "
		       "file is corrupt" : "out of memory");
		return idx >= SPE_MAX_QUEUES ? -EINVAL : -ENOMEM;
	}
	if (!q->used) {
		q->used = true;
		hm_spe_rdec__reset(&q->dec);
		q->cpu = cpu;
		q->pid = -1;
		q->tid = (s32)tid;
		if (tid != (u32)-1) {
			struct tid_ent *t = tid_slot(s, tid, false);

			if (t)
				q->pid = t->pid;
		}
	}
	/* the previous buffer's samples have all been handed out */
	s->out_len = s->out_pos = 0;
	s->out_off = payload_off;
	while (pos < n) {
		size_t used = 0;

		ret = hm_spe_rdec__feed(&q->dec, payload + pos, n - pos, &used);
		if (ret == HM_SPE_BAD_PACKET) {
			u64 at = pos + used;

			if (!s->warned_bad)
				hm_warn("%s: offset %" PRIu64 ": bad Arm SPE packet header 0x%02x "
					"(byte %" PRIu64 " of a %" PRIu64 "-byte AUX buffer of CPU %d); "
					"the AUX data is corrupt: skipping bytes as perf does",
					s->path, payload_off + at, payload[at], at, n, (int)q->cpu);
			s->warned_bad = true;
			s->nr_bad++;
			hm_spe_rdec__reset(&q->dec);
			pos = at + 1;
			continue;
		}
		pos += used;
		if (ret == 0)
			break;
		ret = emit(s, q);
		if (ret)
			return ret;
		hm_spe_rdec__reset(&q->dec);
	}
	return 0;
}

int hm_spe__next(struct hm_spe *s, const u8 **rec, u32 *size, u64 *off)
{
	u16 sz;

	if (!s || s->out_pos >= s->out_len)
		return 0;
	*rec = s->out + s->out_pos;
	sz = hm_ld16(*rec + 6);
	*size = sz;
	*off = s->out_off;
	s->out_pos += sz;
	return 1;
}
