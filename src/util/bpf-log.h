/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_BPF_LOG_H
#define HITMAP_UTIL_BPF_LOG_H

/*
 * Route libbpf's messages to hm_log at debug level, one line each (its
 * LIBBPF_DEBUG chatter dropped).  Call before opening a BPF object.
 */
void hm_bpf_log__install(void);

#endif
