/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_CLOCK_H
#define HITMAP_UTIL_CLOCK_H
/*
 * Clock readings as seconds in a double, for the times HITMAP_DEBUG and the
 * status lines print.
 */
#include <time.h>

/* The calling thread's CPU seconds: a stage's cost on its thread, whatever else the machine runs. */
static inline double hm_clock__thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CLOCK_MONOTONIC seconds: elapsed time across threads, untouched by changes to the wall clock. */
static inline double hm_clock__mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
