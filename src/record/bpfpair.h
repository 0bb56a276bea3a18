/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_BPFPAIR_H
#define HITMAP_RECORD_BPFPAIR_H

/*
 * --futex-bpf: pair futex addresses with contended bucket locks in the kernel
 * (pair.bpf.c on lock:contention_begin), without syscall tracepoints.
 */
#include <stddef.h>
#include <sys/types.h>
#include <hitmap/perf_data.h>

struct hm_bpfpair;

struct hm_bpf_pair {
	u64	uaddr, lock;
	u32	tgid, nr;
	u64	count;
};

/* The object: $HITMAP_RECORD_BPF, else record-pair.bpf.o beside the binary. */
const char *hm_bpfpair__default_path(char *buf, size_t size);
/* Load and attach; @tgid 0 watches every process.  NULL with errno and a message. */
struct hm_bpfpair *hm_bpfpair__new(const char *obj, pid_t tgid);
/* Read the pairs (malloc'ed) and the counters (begin events seen, of which in a futex call). */
int hm_bpfpair__collect(struct hm_bpfpair *p, struct hm_bpf_pair **pairs, size_t *nr,
			u64 *seen, u64 *in_futex);
void hm_bpfpair__delete(struct hm_bpfpair *p);

#endif
