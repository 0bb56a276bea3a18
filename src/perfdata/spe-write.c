// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing Arm SPE AUX data as an Arm machine's perf record does: one
 * AUXTRACE_INFO (metadata v2 with per-CPU MIDR, or v1), TIME_CONV, and per
 * CPU an ITRACE_START, then for each filled AUX buffer a PERF_RECORD_AUX
 * and an AUXTRACE record followed by the packets, padded to 8 bytes.
 * Packets per record, in the order Neoverse N1 writes them: PC, CONTEXT,
 * OP-TYPE, EVENTS, DATA-SOURCE (loads), total and issue latency, virtual
 * address, translation latency, physical address, TIMESTAMP.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <hitmap/log.h>
#include "perfdata/spe-write.h"

#define SPE_REC_MAX	96

static u8 *put_le(u8 *p, u64 v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		*p++ = (u8)(v >> (8 * i));
	return p;
}

size_t hm_spe__encode(const struct hm_spe_record *r, bool context, u8 *out)
{
	u8 *p = out;
	u64 pc = r->from_ip & ((1ULL << 56) - 1);
	bool kernel = r->from_ip >= 0xffff000000000000ULL;
	bool store = r->op & HM_SPE_OP_ST;
	u64 op = store ? 1 : 0;

	/* PC: NS=1, EL1 for kernel addresses, EL0 otherwise */
	*p++ = HM_SPE_HDR_ADDRESS | HM_SPE_ADDR_INS;
	p = put_le(p, pc | 1ULL << 63 | (kernel ? 1ULL << 61 : 0), 8);
	if (context && r->context_id != (u64)-1) {
		*p++ = HM_SPE_HDR_CONTEXT | 1;	/* CONTEXTIDR_EL2 (VHE) */
		p = put_le(p, r->context_id, 4);
	}
	if (r->op & HM_SPE_OP_ATOMIC)
		op |= 0x06;	/* extended: atomic */
	else if (r->op & HM_SPE_OP_EXCL)
		op |= 0x0a;	/* extended: exclusive */
	if (r->op & HM_SPE_OP_LDST) {
		*p++ = HM_SPE_HDR_OP_TYPE | HM_SPE_OP_CLASS_LDST;
		*p++ = (u8)op;
	} else {
		*p++ = HM_SPE_HDR_OP_TYPE | (r->op & HM_SPE_OP_BRANCH ? HM_SPE_OP_CLASS_BRANCH
								 : HM_SPE_OP_CLASS_OTHER);
		*p++ = 0;
	}
	if (r->events >> 16) {
		*p++ = HM_SPE_HDR_EVENTS | 2 << 4;	/* 4 bytes */
		p = put_le(p, r->events, 4);
	} else {
		*p++ = HM_SPE_HDR_EVENTS | 1 << 4;	/* 2 bytes */
		p = put_le(p, r->events, 2);
	}
	if ((r->op & HM_SPE_OP_LDST) && !store) {
		*p++ = HM_SPE_HDR_SOURCE | 1 << 4;
		p = put_le(p, r->source, 2);
	}
	*p++ = HM_SPE_HDR_COUNTER | HM_SPE_CNT_TOTAL_LAT;
	p = put_le(p, r->latency > 0xffff ? 0xffff : r->latency, 2);
	*p++ = HM_SPE_HDR_COUNTER | HM_SPE_CNT_ISSUE_LAT;
	p = put_le(p, r->issue_lat > 0xffff ? 0xffff : r->issue_lat, 2);
	if (r->op & HM_SPE_OP_LDST) {
		*p++ = HM_SPE_HDR_ADDRESS | HM_SPE_ADDR_DATA_VIRT;
		p = put_le(p, r->virt_addr & ((1ULL << 56) - 1), 8);
		*p++ = HM_SPE_HDR_COUNTER | HM_SPE_CNT_TRANS_LAT;
		p = put_le(p, r->trans_lat > 0xffff ? 0xffff : r->trans_lat, 2);
		if (r->phys_addr) {
			*p++ = HM_SPE_HDR_ADDRESS | HM_SPE_ADDR_DATA_PHYS;
			p = put_le(p, (r->phys_addr & ((1ULL << 56) - 1)) | 1ULL << 63, 8);
		}
	}
	*p++ = HM_SPE_HDR_TIMESTAMP;
	p = put_le(p, r->timestamp, 8);
	return (size_t)(p - out);
}

/* ---------------------------------------------------------------- writer */

struct spe_cpu {
	u8	*buf;
	size_t	len;
	u64	aux_off;	/* bytes of this CPU's AUX area written so far */
	u64	last_ts;
	bool	started;
};

struct hm_spe_writer {
	struct hm_writer	*w;
	struct hm_spe_wopts	o;
	struct spe_cpu		*cpu;
	u64			nr_records, nr_bytes;
};

/* the sample_id_all trailer of the SPE event */
static size_t trailer(const struct hm_spe_writer *sw, u8 *p, u32 pid, u32 tid, u64 time, u32 cpu)
{
	u64 st = sw->o.sample_type;
	u8 *s = p;

	if (!sw->o.sample_id_all)
		return 0;
	if (st & PERF_SAMPLE_TID) {
		memcpy(p, &pid, 4);
		memcpy(p + 4, &tid, 4);
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		memcpy(p, &time, 8);
		p += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		memcpy(p, &sw->o.id, 8);
		p += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		memcpy(p, &sw->o.id, 8);
		p += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		u32 z = 0;

		memcpy(p, &cpu, 4);
		memcpy(p + 4, &z, 4);
		p += 8;
	}
	if (st & PERF_SAMPLE_IDENTIFIER) {
		memcpy(p, &sw->o.id, 8);
		p += 8;
	}
	return (size_t)(p - s);
}

int hm_spe__write_info(struct hm_writer *w, const struct hm_spe_wopts *o)
{
	u64 nwords = o->version == 1 ? HM_SPE_V1_PRIV : HM_SPE_V2_HDR + (u64)o->nr_cpus * HM_SPE_V2_CPU;
	size_t size = 16 + nwords * 8;
	u8 *rec;
	u64 *priv;
	struct perf_event_header h = { .type = HM_RECORD_AUXTRACE_INFO };
	u32 type = HM_AUXTRACE_ARM_SPE, zero = 0;
	int err;

	if (size > 65528) {
		hm_err("Arm SPE metadata for %u CPUs does not fit one record; use metadata v1",
		       o->nr_cpus);
		return -E2BIG;
	}
	rec = calloc(1, size);
	if (!rec)
		return -ENOMEM;
	h.size = (u16)size;
	memcpy(rec, &h, 8);
	memcpy(rec + 8, &type, 4);
	memcpy(rec + 12, &zero, 4);
	priv = (u64 *)(rec + 16);
	if (o->version == 1) {
		priv[0] = o->pmu_type;
		priv[1] = 1;		/* per-CPU mmaps */
	} else {
		priv[0] = 2;
		priv[1] = HM_SPE_V2_HDR;
		priv[2] = o->pmu_type;
		priv[3] = o->nr_cpus;
		for (u32 c = 0; c < o->nr_cpus; c++) {
			u64 *m = priv + HM_SPE_V2_HDR + (u64)c * HM_SPE_V2_CPU;
			u32 cpu = o->cpus ? (u32)o->cpus[c] : c;

			m[0] = HM_SPE_CPU_MAGIC;
			m[1] = cpu;
			m[2] = HM_SPE_CPU_NR_PARAMS;
			m[3] = o->midr_of ? o->midr_of(o->midr_arg, cpu) : o->midr;
			m[4] = o->pmu_type;
			m[5] = o->min_interval;
			m[6] = o->ev_filter;
		}
	}
	err = hm_writer__write(w, rec, size);
	free(rec);
	return err;
}

static int write_info(struct hm_spe_writer *sw)
{
	/* TIME_CONV first: perf takes the clock when it sees AUXTRACE_INFO */
	u8 tc[56] = { 0 };
	u64 one = 1;
	struct perf_event_header th = { .type = HM_RECORD_TIME_CONV, .size = sizeof(tc) };
	int err;

	memcpy(tc, &th, 8);
	memcpy(tc + 16, &one, 8);	/* time_mult: SPE timestamps are perf time */
	tc[48] = 1;			/* cap_user_time_zero */
	err = hm_writer__write(sw->w, tc, sizeof(tc));
	return err ? err : hm_spe__write_info(sw->w, &sw->o);
}

struct hm_spe_writer *hm_spe_writer__new(struct hm_writer *w, const struct hm_spe_wopts *o)
{
	struct hm_spe_writer *sw;
	int err;

	if (!w || !o || !o->nr_cpus || (o->version != 1 && o->version != 2)) {
		errno = EINVAL;
		return NULL;
	}
	sw = calloc(1, sizeof(*sw));
	if (!sw)
		return NULL;
	sw->w = w;
	sw->o = *o;
	if (!sw->o.buf_size)
		sw->o.buf_size = 64 * 1024;
	sw->cpu = calloc(o->nr_cpus, sizeof(*sw->cpu));
	if (!sw->cpu)
		goto nomem;
	err = write_info(sw);
	if (err) {
		hm_spe_writer__delete(sw);
		errno = -err;
		return NULL;
	}
	return sw;
nomem:
	hm_spe_writer__delete(sw);
	errno = ENOMEM;
	return NULL;
}

void hm_spe_writer__delete(struct hm_spe_writer *sw)
{
	if (!sw)
		return;
	if (sw->cpu)
		for (u32 c = 0; c < sw->o.nr_cpus; c++)
			free(sw->cpu[c].buf);
	free(sw->cpu);
	free(sw);
}

static int flush_cpu(struct hm_spe_writer *sw, u32 c)
{
	struct spe_cpu *sc = &sw->cpu[c];
	u8 rec[128];
	struct perf_event_header h;
	u64 n, v;
	u32 u;
	size_t tl;
	int err;

	if (!sc->len)
		return 0;
	n = (sc->len + 7) & ~7ULL;
	memset(sc->buf + sc->len, 0, n - sc->len);	/* PAD packets */
	/* PERF_RECORD_AUX: aux_offset, aux_size, flags */
	memset(rec, 0, sizeof(rec));
	h.type = PERF_RECORD_AUX;
	h.misc = 0;
	memcpy(rec + 8, &sc->aux_off, 8);
	v = sc->len;
	memcpy(rec + 16, &v, 8);
	tl = trailer(sw, rec + 32, (u32)-1, (u32)-1, sc->last_ts, c);
	h.size = (u16)(32 + tl);
	memcpy(rec, &h, 8);
	err = hm_writer__write(sw->w, rec, h.size);
	if (err)
		return err;
	/* AUXTRACE: size, offset, reference, idx, tid, cpu */
	memset(rec, 0, 48);
	h.type = HM_RECORD_AUXTRACE;
	h.size = 48;
	memcpy(rec, &h, 8);
	memcpy(rec + 8, &n, 8);
	memcpy(rec + 16, &sc->aux_off, 8);
	memcpy(rec + 24, &sc->last_ts, 8);
	memcpy(rec + 32, &c, 4);		/* idx: the CPU's mmap */
	u = (u32)-1;
	memcpy(rec + 36, &u, 4);		/* tid: per-CPU mode */
	memcpy(rec + 40, &c, 4);
	err = hm_writer__write_auxtrace(sw->w, rec, 48, sc->buf, n);
	if (err)
		return err;
	sc->aux_off += n;
	sw->nr_bytes += n;
	sc->len = 0;
	return 0;
}

int hm_spe_writer__add(struct hm_spe_writer *sw, u32 cpu, u32 pid, u32 tid,
		       const struct hm_spe_record *r)
{
	struct spe_cpu *sc;
	int err;

	if (cpu >= sw->o.nr_cpus)
		return -EINVAL;
	sc = &sw->cpu[cpu];
	if (!sc->buf) {
		sc->buf = malloc(sw->o.buf_size + SPE_REC_MAX + 8);
		if (!sc->buf)
			return -ENOMEM;
	}
	if (!sc->started) {
		/* ITRACE_START: the task running when tracing began on this CPU */
		u8 rec[96] = { 0 };
		struct perf_event_header h = { .type = PERF_RECORD_ITRACE_START };
		size_t tl;

		memcpy(rec + 8, &pid, 4);
		memcpy(rec + 12, &tid, 4);
		tl = trailer(sw, rec + 16, pid, tid, r->timestamp, cpu);
		h.size = (u16)(16 + tl);
		memcpy(rec, &h, 8);
		err = hm_writer__write(sw->w, rec, h.size);
		if (err)
			return err;
		sc->started = true;
	}
	if (sc->len + SPE_REC_MAX > sw->o.buf_size) {
		err = flush_cpu(sw, cpu);
		if (err)
			return err;
	}
	sc->len += hm_spe__encode(r, sw->o.context, sc->buf + sc->len);
	sc->last_ts = r->timestamp;
	sw->nr_records++;
	return 0;
}

int hm_spe_writer__flush(struct hm_spe_writer *sw)
{
	for (u32 c = 0; c < sw->o.nr_cpus; c++) {
		int err = flush_cpu(sw, c);

		if (err)
			return err;
	}
	return 0;
}

void hm_spe_writer__counts(const struct hm_spe_writer *sw, u64 *records, u64 *bytes)
{
	*records = sw ? sw->nr_records : 0;
	*bytes = sw ? sw->nr_bytes : 0;
}
