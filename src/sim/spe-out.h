/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_SIM_SPE_OUT_H
#define HITMAP_SIM_SPE_OUT_H

/* The simulator's Arm samples written as SPE AUX data (spe-out.c). */
#include "sim/sim.h"

struct hm_sim_spe;
/* Writes AUXTRACE_INFO and TIME_CONV; @evsel_id/@sample_type: the arm_spe event's. */
struct hm_sim_spe *hm_sim_spe__new(struct hm_writer *w, const struct hm_machine *m,
				   u64 evsel_id, u64 sample_type);
void hm_sim_spe__delete(struct hm_sim_spe *ss);
/* One sampled access; *@data_src: what perf synthesises from the record written. */
int hm_sim_spe__write(struct hm_sim_spe *ss, const struct hm_sample_in *in, u32 pid, u64 time,
		      u64 phys, u32 weight, u64 *data_src);
int hm_sim_spe__flush(struct hm_sim_spe *ss);

#endif
