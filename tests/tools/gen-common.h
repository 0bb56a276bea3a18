/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_TESTS_GEN_COMMON_H
#define HITMAP_TESTS_GEN_COMMON_H

/*
 * What the perf.data generators (hm-cont-gen, hm-futex-gen, hm-diff-gen)
 * share: the random numbers, the simulated host in the header (4 CPUs on
 * 2 sockets, optionally 2 NUMA nodes of 1 GiB), the memory-sampling attr,
 * hitmap's metadata into the header, and the writer's set-up and close.
 * Each one reports its own failure on stderr, named after @tool.
 */
#include <stdbool.h>
#include <linux/perf_event.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>

#define GEN_NODE_MEM	(1ull << 30)
#define GEN_MEM_BLOCK	(128ull << 20)

/* xorshift state: set it for another sequence (never 0) */
extern u64 gen_rng;
/* A number in [0, @n) (0 for @n 0). */
u64 gen_rnd(u64 n);

/* The host a generator claims; lives as long as the header that points at it. */
struct gen_host {
	struct hm_cpu_topo	cpu[4];
	struct hm_numa_node	numa[2];
	struct hm_mem_node	mem[2];
	u64			bits[2];
	char			cpudesc[128];
};
/*
 * Fill @h (zeroed here) with @tool's host: hostname @tool, @osrelease,
 * perf 6.1.0, x86_64, a Xeon Gold 6148, 4 CPUs on 2 sockets; with @numa 2
 * nodes of GEN_NODE_MEM in GEN_MEM_BLOCK blocks and the total memory.
 */
void gen_host__header(struct gen_host *g, struct hm_header *h, const char *tool,
		      const char *osrelease, bool numa);

/* A PEBS-like raw memory event (IP TID TIME ADDR ID CPU PERIOD WEIGHT DATA_SRC PHYS_ADDR). */
struct perf_event_attr gen_mem_attr(u64 config, u64 config1, bool first);

/* Serialize @meta into h->hitmap_meta (*@raw: free it after the writer is done). */
int gen_meta__attach(struct hm_meta *meta, struct hm_header *h, void **raw, const char *tool);

/*
 * A writer on @out with two events of 4 ids each (@n0 and @n1 their names),
 * the header @h and the COMM of @pid; NULL after saying why.
 */
struct hm_writer *gen_writer__open(const char *tool, const char *out, const struct hm_header *h,
				   const struct perf_event_attr *a0, const char *n0, const u64 *ids0,
				   const struct perf_event_attr *a1, const char *n1, const u64 *ids1,
				   u32 pid, const char *comm);
/*
 * One record of @type: @body, then (when @str) the string, NUL and zeros
 * up to 8 bytes.  0, or a negative errno (-ENAMETOOLONG past 4 KiB).
 */
int gen_record(struct hm_writer *w, u32 type, u16 misc, const void *body, size_t blen, const char *str);
/*
 * A last FINISHED_ROUND (with @round), close and delete the writer; @err a
 * write error already met.  0, or 1 after saying why.
 */
int gen_writer__finish(struct hm_writer *w, int err, bool round, const char *tool, const char *out);

#endif
