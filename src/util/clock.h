/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_CLOCK_H
#define HITMAP_UTIL_CLOCK_H
/*
 * The calling thread's CPU seconds, for HITMAP_DEBUG's times: what a stage
 * costs on its thread whatever else the machine runs.
 */
#include <time.h>

static inline double hm_clock__thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
