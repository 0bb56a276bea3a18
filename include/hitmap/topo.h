/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_TOPO_H
#define HITMAP_TOPO_H

/* CPU -> socket/die/node, physical address -> node; from a file's header or this machine. */
#include <hitmap/perf_data.h>

struct hm_topo;

struct hm_topo *hm_topo__new_from_header(const struct hm_header *h);
/* This machine, from /sys/devices/system/{cpu,node} (under @sysfs_root, NULL: "/"). */
struct hm_topo *hm_topo__new_live(const char *sysfs_root);
void hm_topo__delete(struct hm_topo *t);

int hm_topo__nr_cpus(const struct hm_topo *t);
int hm_topo__nr_sockets(const struct hm_topo *t);
int hm_topo__nr_nodes(const struct hm_topo *t);
/* -1 when unknown */
int hm_topo__cpu_socket(const struct hm_topo *t, int cpu);
int hm_topo__cpu_die(const struct hm_topo *t, int cpu);
int hm_topo__cpu_node(const struct hm_topo *t, int cpu);
int hm_topo__phys_node(const struct hm_topo *t, u64 phys_addr);
/* Node index (0..nr_nodes-1) to node id, and socket of a node (-1). */
int hm_topo__node_id(const struct hm_topo *t, int idx);
int hm_topo__node_socket(const struct hm_topo *t, int node);

/*
 * Fill the topology parts of @h (NRCPUS, CPU_TOPOLOGY, NUMA_TOPOLOGY,
 * MEM_TOPOLOGY) from @t, for the writer; allocations belong to @h.
 */
int hm_topo__fill_header(const struct hm_topo *t, struct hm_header *h);

/* Parse a cpulist ("0-3,8,10-11") into @cpus (max @n); returns the count or -EINVAL. */
int hm_cpulist__parse(const char *s, int *cpus, int n);
/*
 * -C / --cpus: every one of @cpus (@n, given as @opt '@arg') is in
 * @root/sys/devices/system/cpu/online (@root NULL: this machine), else one
 * error naming the first that is not and the online list, and -EINVAL.
 * 0 also where the online list cannot be read.
 */
int hm_cpulist__check_online(const char *root, const char *opt, const char *arg,
			     const int *cpus, int n);
/* The same, from the first line of a file (sysfs cpu and node lists); -errno. */
int hm_cpulist__read(const char *path, int *cpus, int n);

/*
 * Each PMU of the machine under @root (NULL: this one):
 * /sys/bus/event_source/devices/NAME/type, in directory order.  @cb returns
 * non-zero to stop; that value is returned, else 0 (also without the folder).
 */
int hm_pmu__each(const char *root, int (*cb)(const char *name, u32 type, void *arg), void *arg);

#endif
