/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_FUTEX_PRCTL_HASH_H
#define HITMAP_FUTEX_PRCTL_HASH_H
/*
 * prctl(PR_FUTEX_HASH) (6.16+), spelled here for C libraries whose
 * headers predate it: a process's private futex hash, set and read.
 */
#define PR_FUTEX_HASH_	78
#define SET_SLOTS	1
#define GET_SLOTS	2

#endif
