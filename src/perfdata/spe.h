/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_SPE_H
#define HITMAP_PERFDATA_SPE_H

/*
 * Arm Statistical Profiling Extension (SPE): perf's AUXTRACE_INFO layout
 * for arm_spe and the reader that turns AUX data into SAMPLE records
 * (spe.c); the packets, records and data_src are spe-decode.h's.  Private
 * to src/perfdata and src/sim.
 */
#include <stdbool.h>
#include <stddef.h>
#include <hitmap/perf_data.h>
#include "perfdata/spe-decode.h"

/* perf's enum auxtrace_type */
#define HM_AUXTRACE_ARM_SPE	4

/* ---- AUXTRACE_INFO private area (u64 words) */
#define HM_SPE_V1_PRIV		2	/* pmu_type, per_cpu_mmaps */
#define HM_SPE_V2_HDR		4	/* version, header size, pmu_type, nr_cpus */
#define HM_SPE_V2_CPU		7	/* magic, cpu, nr_params, midr, pmu_type, min_ival, ev_filter */
#define HM_SPE_CPU_MAGIC	0x1010101010101010ULL
#define HM_SPE_CPU_NR_PARAMS	4

/* ---- reader side (spe.c): AUX data -> synthesized SAMPLE records */
struct hm_spe;

/*
 * From a native AUXTRACE_INFO record of type arm_spe.  @cpuid: the header's
 * CPUID (metadata v1 takes the MIDR from it); @timeless: no event samples
 * TIME (then CONTEXT packets are not used, as in perf).  NULL with errno
 * (EINVAL: the metadata is malformed; the reason is logged with @off).
 */
struct hm_spe *hm_spe__new(const u8 *info, u32 size, const char *cpuid, bool timeless,
			   const char *path, u64 off);
void hm_spe__delete(struct hm_spe *s);
/* The attr of the synthesized "memory" event and its id. */
const struct perf_event_attr *hm_spe__attr(const struct hm_spe *s);
u64 hm_spe__id(const struct hm_spe *s);
/* Side-band records (native): COMM, FORK, MMAP2 give pids; TIME_CONV the clock. */
void hm_spe__sideband(struct hm_spe *s, const u8 *rec, u32 size);
/*
 * One AUXTRACE record (native) and its @n-byte payload at file offset
 * @payload_off: decoded into SAMPLE records that hm_spe__next hands out.
 * Bad packets are skipped as perf does and reported with their offset.
 */
int hm_spe__auxtrace(struct hm_spe *s, const u8 *rec, u32 size, const u8 *payload, u64 n,
		     u64 payload_off);
/* Next synthesized SAMPLE record (native, valid until the next call): 1, or 0. */
int hm_spe__next(struct hm_spe *s, const u8 **rec, u32 *size, u64 *off);
/* Records decoded, memory samples made, bad packets skipped. */
void hm_spe__counts(const struct hm_spe *s, u64 *records, u64 *samples, u64 *bad);

/* sample_type of the synthesized samples (IDENTIFIER first) */
#define HM_SPE_SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | \
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
			    PERF_SAMPLE_PHYS_ADDR)
/* id of the synthesized event: non-canonical, so never a sample's first word (an IP) */
#define HM_SPE_SYNTH_ID		0x8000535045000001ULL

#endif
