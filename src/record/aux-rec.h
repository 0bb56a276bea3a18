/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_AUX_REC_H
#define HITMAP_RECORD_AUX_REC_H

/*
 * Arm SPE in a recording (aux-rec.c): one AUX area per CPU ring, the
 * TIME_CONV and AUXTRACE_INFO records perf record writes for arm_spe, the
 * AUX data as AUXTRACE records, and what PERF_RECORD_AUX said was lost.
 */
#include <hitmap/perf_data.h>
#include "record/aux.h"
#include "record/mmap.h"
#include "record/pmu.h"

struct hm_rec_aux;

/* For @nr_cpus CPUs (numbers @cpus) of @plan (HM_MODE_SPE); @aux_bytes 0: the plan's. NULL + errno. */
struct hm_rec_aux *hm_rec_aux__new(const struct hm_pmu_plan *plan, const int *cpus, int nr_cpus,
				   size_t aux_bytes, u32 tid);
void hm_rec_aux__delete(struct hm_rec_aux *ra);
/*
 * new, then map every CPU index whose ring @rings[c] is owned by @spe_fds[c]
 * (the SPE event's fd on that CPU); 4 MiB areas as root, 128 KiB otherwise
 * (perf's defaults, held to kernel.perf_event_mlock_kb).  NULL + errno.
 */
struct hm_rec_aux *hm_rec_aux__setup(const struct hm_pmu_plan *plan, const int *cpus, int nr_cpus,
				     const struct hm_ring *rings, const int *spe_fds, u32 tid);
/* Map CPU index @c's AUX area on its ring (the SPE event must own the ring). */
int hm_rec_aux__map(struct hm_rec_aux *ra, int c, const struct hm_ring *ring);
/* The same over memory: @pc a control page, @base @len bytes of AUX area (tests). */
int hm_rec_aux__attach(struct hm_rec_aux *ra, int c, struct perf_event_mmap_page *pc, void *base,
		       size_t len);
/* TIME_CONV (from the first ring's control page) and AUXTRACE_INFO (metadata v2). */
int hm_rec_aux__start(struct hm_rec_aux *ra, struct hm_writer *w);
/* Write every CPU's new AUX data as AUXTRACE records.  Bytes written or -errno. */
long hm_rec_aux__drain(struct hm_rec_aux *ra, struct hm_writer *w);
/* A record from the data ring: PERF_RECORD_AUX flags are counted. */
void hm_rec_aux__record(struct hm_rec_aux *ra, const struct perf_event_header *h, size_t size);
/* At the end: warn what was lost (hm_warn_lost); the counts for the result. */
void hm_rec_aux__finish(struct hm_rec_aux *ra, u64 *aux_records, u64 *aux_bytes, u64 *aux_lost);

#endif
