/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_PREFETCH_H
#define HITMAP_UTIL_PREFETCH_H

/*
 * A prefetch the compiler keeps.  GCC 12 at -O3 deletes some
 * __builtin_prefetch calls together with the loads that compute their
 * address (tree DCE): the report's prefetches of perf's entries, a few
 * samples ahead of their lookup, were missing from the binary depending on
 * the code around them (and on the profile of a profile-guided build).  A
 * volatile asm is never deleted; it reads nothing the compiler tracks, so
 * it orders no other access.  On x86-64 and arm64 it is that asm;
 * elsewhere, the builtin.
 */
#if defined(__x86_64__)
static inline void hm_prefetch(const void *p)
{
	__asm__ volatile("prefetcht0 (%0)" : : "r"(p));
}

/* for a write: the same, as GCC emits for one without -mprfchw */
static inline void hm_prefetch_w(const void *p)
{
	hm_prefetch(p);
}
#elif defined(__aarch64__)
static inline void hm_prefetch(const void *p)
{
	__asm__ volatile("prfm pldl1keep, [%0]" : : "r"(p));
}

static inline void hm_prefetch_w(const void *p)
{
	__asm__ volatile("prfm pstl1keep, [%0]" : : "r"(p));
}
#else
static inline void hm_prefetch(const void *p)
{
	__builtin_prefetch(p);
}

static inline void hm_prefetch_w(const void *p)
{
	__builtin_prefetch(p, 1);
}
#endif

#endif
