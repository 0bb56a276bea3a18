/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_SPE_WRITE_H
#define HITMAP_PERFDATA_SPE_WRITE_H

/* Writing Arm SPE AUX data through hitmap's writer (spe-write.c). */
#include "perfdata/spe.h"

/* The packets of one record (at most 96 bytes); returns their length. */
size_t hm_spe__encode(const struct hm_spe_record *r, bool context, u8 *out);

struct hm_spe_wopts {
	int	version;		/* AUXTRACE_INFO metadata: 1 or 2 */
	u32	pmu_type;		/* the arm_spe PMU's type (the event's attr.type) */
	u32	nr_cpus;
	const int *cpus;		/* their numbers (v2 metadata); NULL: 0 .. nr_cpus - 1 */
	u64	midr;			/* every CPU's, unless midr_of */
	u64	(*midr_of)(void *arg, u32 cpu);
	void	*midr_arg;
	u64	min_interval;		/* caps/min_interval */
	u64	ev_filter;		/* caps/event_filter */
	size_t	buf_size;		/* AUX bytes per CPU per AUXTRACE record (64 KiB) */
	bool	context;		/* CONTEXT packets carry the tid */
	/* the SPE event: its id and sample_id_all layout, for AUX/ITRACE_START trailers */
	u64	id;
	u64	sample_type;
	bool	sample_id_all;
};

/* The AUXTRACE_INFO record of Arm SPE (metadata v1 or v2), as perf record writes it. */
int hm_spe__write_info(struct hm_writer *w, const struct hm_spe_wopts *o);

struct hm_spe_writer;
/* Writes AUXTRACE_INFO and TIME_CONV at once.  NULL with errno. */
struct hm_spe_writer *hm_spe_writer__new(struct hm_writer *w, const struct hm_spe_wopts *o);
void hm_spe_writer__delete(struct hm_spe_writer *sw);
/* One SPE record of @cpu (timestamp in perf time); buffers are written when full. */
int hm_spe_writer__add(struct hm_spe_writer *sw, u32 cpu, u32 pid, u32 tid,
		       const struct hm_spe_record *r);
/* Write what every CPU's buffer holds. */
int hm_spe_writer__flush(struct hm_spe_writer *sw);
void hm_spe_writer__counts(const struct hm_spe_writer *sw, u64 *records, u64 *bytes);

#endif
