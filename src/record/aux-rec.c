// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arm SPE in a recording, as perf record does it for arm_spe
 * (tools/perf/arch/arm64/util/arm-spe.c, util/auxtrace.c, util/tsc.c):
 * TIME_CONV from the first ring's control page (SPE timestamps are
 * generic-timer ticks), AUXTRACE_INFO with metadata v2 (per CPU: its
 * number, MIDR, the PMU type, caps/min_interval, caps/event_filter), then
 * each CPU's AUX area drained as AUXTRACE records after its data ring.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <hitmap/log.h>
#include "perfdata/spe-write.h"
#include "record/aux-rec.h"
#include "util/num.h"

struct hm_rec_aux {
	struct hm_aux		*aux;		/* [nr_cpus] */
	const int		*cpus;
	int			nr_cpus;
	size_t			aux_bytes;
	u32			tid;
	struct hm_spe_wopts	info;
	struct hm_aux_stats	st;
	struct perf_event_mmap_page *pc0;	/* the first mapped ring: TIME_CONV */
	u8			*scratch;	/* a wrapped or padded AUX chunk */
	size_t			scratch_len;
	struct hm_writer	*w;		/* during drain */
};

struct hm_rec_aux *hm_rec_aux__new(const struct hm_pmu_plan *plan, const int *cpus, int nr_cpus,
				   size_t aux_bytes, u32 tid)
{
	struct hm_rec_aux *ra;

	if (!plan || plan->mode != HM_MODE_SPE || !plan->nr || !cpus || nr_cpus <= 0) {
		errno = EINVAL;
		return NULL;
	}
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return NULL;
	ra->aux = calloc((size_t)nr_cpus, sizeof(*ra->aux));
	if (!ra->aux) {
		free(ra);
		errno = ENOMEM;
		return NULL;
	}
	ra->cpus = cpus;
	ra->nr_cpus = nr_cpus;
	ra->aux_bytes = aux_bytes ? aux_bytes : plan->aux_bytes;
	ra->tid = tid;
	ra->info.version = 2;
	ra->info.pmu_type = plan->ev[0].attr.type;
	ra->info.nr_cpus = (u32)nr_cpus;
	ra->info.cpus = cpus;
	ra->info.midr = plan->spe_midr;
	ra->info.min_interval = plan->spe_min_interval;
	ra->info.ev_filter = plan->spe_ev_filter;
	return ra;
}

void hm_rec_aux__delete(struct hm_rec_aux *ra)
{
	if (!ra)
		return;
	for (int c = 0; c < ra->nr_cpus; c++)
		hm_aux__munmap(&ra->aux[c]);
	free(ra->aux);
	free(ra->scratch);
	free(ra);
}

int hm_rec_aux__map(struct hm_rec_aux *ra, int c, const struct hm_ring *ring)
{
	struct perf_event_mmap_page *pc = ring->base;
	int err;

	if (c < 0 || c >= ra->nr_cpus || !pc)
		return -EINVAL;
	err = hm_aux__mmap(&ra->aux[c], pc, ring->len, ring->fd, ra->aux_bytes, ra->cpus[c],
			   (u32)c, ra->tid);
	if (!err && !ra->pc0)
		ra->pc0 = pc;
	return err;
}

struct hm_rec_aux *hm_rec_aux__setup(const struct hm_pmu_plan *plan, const int *cpus, int nr_cpus,
				     const struct hm_ring *rings, const int *spe_fds, u32 tid)
{
	size_t bytes = geteuid() ? 128 * 1024 : plan->aux_bytes;
	struct hm_rec_aux *ra = hm_rec_aux__new(plan, cpus, nr_cpus, bytes, tid);
	int err;

	if (!ra)
		return NULL;
	for (int c = 0; c < nr_cpus; c++) {
		if (!rings[c].base || spe_fds[c] < 0 || spe_fds[c] != rings[c].fd)
			continue;
		err = hm_rec_aux__map(ra, c, &rings[c]);
		if (err) {
			hm_rec_aux__delete(ra);
			errno = -err;
			return NULL;
		}
	}
	return ra;
}

int hm_rec_aux__attach(struct hm_rec_aux *ra, int c, struct perf_event_mmap_page *pc, void *base,
		       size_t len)
{
	int err;

	if (c < 0 || c >= ra->nr_cpus)
		return -EINVAL;
	err = hm_aux__attach(&ra->aux[c], pc, base, len, ra->cpus[c], (u32)c, ra->tid);
	if (!err && !ra->pc0)
		ra->pc0 = pc;
	return err;
}

/* this CPU's MIDR_EL1 from sysfs; the plan's (cpu0's) when unreadable */
static u64 midr_of(void *arg, u32 cpu)
{
	const struct hm_rec_aux *ra = arg;
	char path[128];
	u64 v = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/regs/identification/midr_el1", cpu);
	return hm_num__read_file(path, 16, &v) ? ra->info.midr : v;
}

/* perf_read_tsc_conversion: the clock fields under the page's seqlock */
static int write_time_conv(struct hm_rec_aux *ra, struct hm_writer *w)
{
	volatile struct perf_event_mmap_page *pc = ra->pc0;
	u64 tc[7] = { 0 };
	struct perf_event_header h = { .type = HM_RECORD_TIME_CONV, .size = 56 };
	bool zero = false, short_ = false;
	u8 caps[8] = { 0 };
	int i;

	if (!pc)
		return 0;
	for (i = 0;; i++) {
		u32 seq = pc->lock;

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		tc[1] = pc->time_shift;
		tc[2] = pc->time_mult;
		tc[3] = pc->time_zero;
		tc[4] = pc->time_cycles;
		tc[5] = pc->time_mask;
		zero = pc->cap_user_time_zero;
		short_ = pc->cap_user_time_short;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (pc->lock == seq && !(seq & 1))
			break;
		if (i > 10000) {
			hm_warn("the perf clock of the ring's control page never settled; "
				"no TIME_CONV: SPE timestamps stay in timer ticks");
			return 0;
		}
	}
	if (!zero) {
		/* perf writes none either; the samples keep the timer's ticks */
		hm_warn("this kernel gives no cap_user_time_zero; no TIME_CONV: SPE timestamps stay "
			"in timer ticks, not perf time");
		return 0;
	}
	memcpy(tc, &h, 8);
	caps[0] = zero;
	caps[1] = short_;
	memcpy(&tc[6], caps, 8);
	return hm_writer__write(w, tc, sizeof(tc));
}

int hm_rec_aux__start(struct hm_rec_aux *ra, struct hm_writer *w)
{
	int err = write_time_conv(ra, w);

	if (err)
		return err;
	ra->info.midr_of = midr_of;
	ra->info.midr_arg = ra;
	return hm_spe__write_info(w, &ra->info);
}

static int put(void *ctx, const void *rec, const void *d1, size_t l1, const void *d2, size_t l2,
	       size_t pad)
{
	struct hm_rec_aux *ra = ctx;
	size_t n = l1 + l2 + pad;

	if (!l2 && !pad)
		return hm_writer__write_auxtrace(ra->w, rec, 48, d1, n);
	if (n > ra->scratch_len) {
		u8 *p = realloc(ra->scratch, n);

		if (!p)
			return -ENOMEM;
		ra->scratch = p;
		ra->scratch_len = n;
	}
	memcpy(ra->scratch, d1, l1);
	if (l2)
		memcpy(ra->scratch + l1, d2, l2);
	memset(ra->scratch + l1 + l2, 0, pad);
	return hm_writer__write_auxtrace(ra->w, rec, 48, ra->scratch, n);
}

long hm_rec_aux__drain(struct hm_rec_aux *ra, struct hm_writer *w)
{
	struct timespec ts;
	long total = 0;

	/* arm_spe_reference(): CLOCK_MONOTONIC_RAW seconds ^ nanoseconds */
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	ra->w = w;
	for (int c = 0; c < ra->nr_cpus; c++) {
		long n = hm_aux__read(&ra->aux[c], (u64)ts.tv_sec ^ (u64)ts.tv_nsec, put, ra);

		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

void hm_rec_aux__record(struct hm_rec_aux *ra, const struct perf_event_header *h, size_t size)
{
	if (ra)
		hm_aux_stats__add(&ra->st, h, size);
}

void hm_rec_aux__finish(struct hm_rec_aux *ra, u64 *aux_records, u64 *aux_bytes, u64 *aux_lost)
{
	u64 recs = 0, bytes = 0;

	if (!ra)
		return;
	for (int c = 0; c < ra->nr_cpus; c++) {
		recs += ra->aux[c].nr_records;
		bytes += ra->aux[c].bytes;
	}
	hm_aux_stats__warn(&ra->st, "Arm SPE");
	if (aux_records)
		*aux_records = recs;
	if (aux_bytes)
		*aux_bytes = bytes;
	if (aux_lost)
		*aux_lost = ra->st.truncated + ra->st.partial;
}
