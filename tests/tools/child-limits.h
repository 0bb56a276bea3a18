/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HM_TOOLS_CHILD_LIMITS_H
#define HM_TOOLS_CHILD_LIMITS_H
/*
 * The limits of a mutation test's child process (hm-mutate, hm-elf-mutate):
 * 1 GB of address space, no core file, SIGALRM after @seconds.
 */
#include <sys/resource.h>
#include <unistd.h>

/* ASan maps terabytes of shadow memory: no RLIMIT_AS under it (the tests bound its allocator instead) */
#if defined(__SANITIZE_ADDRESS__)
#define HM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HM_ASAN 1
#endif
#endif

static inline void hm_child_limits(unsigned int seconds)
{
	struct rlimit as = { 1UL << 30, 1UL << 30 }, core = { 0, 0 };

#ifndef HM_ASAN
	setrlimit(RLIMIT_AS, &as);
#else
	(void)as;
#endif
	setrlimit(RLIMIT_CORE, &core);
	alarm(seconds);
}

#endif
