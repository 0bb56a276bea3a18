// SPDX-License-Identifier: GPL-2.0-only
/* Topology from a header (perf's mem2node test vectors) and from sysfs. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include <hitmap/topo.h>

static void put(const char *root, const char *path, const char *text)
{
	char p[512], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, path);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * Physical addresses to nodes on many ranges: 5 nodes over 256 blocks of
 * 0x1000, each block given to one node or none in a shuffled pattern, every
 * block's start, middle and last byte against the bitmaps themselves; then
 * a block claimed by two nodes (a corrupt file's), where either is right.
 */
static void phys_many(void)
{
	enum { NODES = 5, BLOCKS = 256, BS = 0x1000 };
	u64 bits[NODES][BLOCKS / 64];
	struct hm_mem_node mem[NODES];
	struct hm_header h;
	struct hm_topo *t;
	int owner[BLOCKS], bad = 0, n, d;

	memset(bits, 0, sizeof(bits));
	for (int b = 0; b < BLOCKS; b++) {
		int o = (b * 7 + b / 9) % (NODES + 1) - 1;	/* -1: free */

		if (b >= 100 && b < 140)
			o = 2;		/* a long run of one node */
		owner[b] = o;
		if (o >= 0)
			bits[o][b / 64] |= 1ULL << (b % 64);
	}
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < NODES; i++)
		mem[i] = (struct hm_mem_node){ .node = (u64)i, .nbits = BLOCKS, .bitmap = bits[i] };
	h.mem = mem;
	h.nr_mem_nodes = NODES;
	h.mem_block_size = BS;
	t = hm_topo__new_from_header(&h);
	for (int b = 0; t && b < BLOCKS; b++) {
		u64 a = (u64)b * BS;

		bad += hm_topo__phys_node(t, a) != owner[b];
		bad += hm_topo__phys_node(t, a + BS / 2) != owner[b];
		bad += hm_topo__phys_node(t, a + BS - 1) != owner[b];
	}
	CHECK("phys to node, 256 blocks of 5 nodes: every block's first, middle and last byte",
	      t && !bad && hm_topo__phys_node(t, (u64)BLOCKS * BS) == -1 &&
	      hm_topo__phys_node(t, ~0ULL) == -1);
	hm_topo__delete(t);

	/* the first block of another node than 4 claimed by node 4 as well */
	for (d = 0; d < BLOCKS && (owner[d] < 0 || owner[d] == 4); d++)
		;
	n = owner[d];
	bits[4][d / 64] |= 1ULL << d % 64;
	t = hm_topo__new_from_header(&h);
	bad = 0;
	for (int b = 0; t && b < BLOCKS; b++)
		if (b != d)
			bad += hm_topo__phys_node(t, (u64)b * BS + 5) != owner[b];
	CHECK("phys to node, a block of two nodes: the others unchanged, it one of its two",
	      t && d < BLOCKS && !bad && (hm_topo__phys_node(t, (u64)d * BS) == n ||
					  hm_topo__phys_node(t, (u64)d * BS) == 4));
	hm_topo__delete(t);
}

int main(void)
{
	struct hm_header h;
	struct hm_cpu_topo cpu[8];
	struct hm_numa_node numa[3];
	struct hm_mem_node mem[3];
	u64 b0 = 0x1, b1 = 0x6, b3 = 0x2e0;	/* "0", "1-2", "5-7,9" */
	struct hm_topo *t;
	int cpus[16];
	char root[] = "/tmp/hm-topo-XXXXXX";

	CHECK_EQ("cpulist 0-3,8,10-11", hm_cpulist__parse("0-3,8,10-11", cpus, 16), 7);
	CHECK("cpulist values", cpus[3] == 3 && cpus[4] == 8 && cpus[6] == 11);
	CHECK_EQ("cpulist empty", hm_cpulist__parse("", cpus, 16), 0);
	CHECK_EQ("cpulist newline", hm_cpulist__parse("0-1\n", cpus, 16), 2);
	CHECK_EQ("cpulist bad", hm_cpulist__parse("0-x", cpus, 16), -EINVAL);
	CHECK_EQ("cpulist reversed", hm_cpulist__parse("3-1", cpus, 16), -EINVAL);

	memset(&h, 0, sizeof(h));
	h.nr_cpus_avail = h.nr_cpus_online = 8;
	for (int i = 0; i < 8; i++)
		cpu[i] = (struct hm_cpu_topo){ .core_id = i, .socket_id = i / 4, .die_id = (i / 2) % 2 };
	h.cpu = cpu;
	numa[0] = (struct hm_numa_node){ .node = 0, .cpus = "0-1" };
	numa[1] = (struct hm_numa_node){ .node = 1, .cpus = "2-3" };
	numa[2] = (struct hm_numa_node){ .node = 3, .cpus = "4-7" };
	h.numa = numa;
	h.nr_numa_nodes = 3;
	mem[0] = (struct hm_mem_node){ .node = 0, .nbits = 1, .bitmap = &b0 };
	mem[1] = (struct hm_mem_node){ .node = 1, .nbits = 3, .bitmap = &b1 };
	mem[2] = (struct hm_mem_node){ .node = 3, .nbits = 10, .bitmap = &b3 };
	h.mem = mem;
	h.nr_mem_nodes = 3;
	h.mem_block_size = 0x100;

	t = hm_topo__new_from_header(&h);
	CHECK("from header", t != NULL);
	CHECK_EQ("nr cpus", hm_topo__nr_cpus(t), 8);
	CHECK_EQ("nr sockets", hm_topo__nr_sockets(t), 2);
	CHECK_EQ("nr nodes", hm_topo__nr_nodes(t), 3);
	CHECK_EQ("cpu 5 socket", hm_topo__cpu_socket(t, 5), 1);
	CHECK_EQ("cpu 2 die", hm_topo__cpu_die(t, 2), 1);
	CHECK_EQ("cpu 3 node", hm_topo__cpu_node(t, 3), 1);
	CHECK_EQ("cpu 6 node id 3", hm_topo__cpu_node(t, 6), 3);
	CHECK_EQ("cpu 99 unknown", hm_topo__cpu_node(t, 99), -1);
	CHECK_EQ("cpu -1 unknown", hm_topo__cpu_socket(t, -1), -1);
	CHECK_EQ("node idx 2 id", hm_topo__node_id(t, 2), 3);
	CHECK_EQ("node 3 socket", hm_topo__node_socket(t, 3), 1);
	/* tools/perf/tests/mem2node.c */
	CHECK_EQ("mem2node 0x50", hm_topo__phys_node(t, 0x50), 0);
	CHECK_EQ("mem2node 0x100", hm_topo__phys_node(t, 0x100), 1);
	CHECK_EQ("mem2node 0x250", hm_topo__phys_node(t, 0x250), 1);
	CHECK_EQ("mem2node 0x500", hm_topo__phys_node(t, 0x500), 3);
	CHECK_EQ("mem2node 0x650", hm_topo__phys_node(t, 0x650), 3);
	CHECK_EQ("mem2node 0x450", hm_topo__phys_node(t, 0x450), -1);
	CHECK_EQ("mem2node 0x1050", hm_topo__phys_node(t, 0x1050), -1);

	{
		struct hm_header out;

		memset(&out, 0, sizeof(out));
		CHECK_EQ("fill header", hm_topo__fill_header(t, &out), 0);
		CHECK("filled numa", out.nr_numa_nodes == 3 && !strcmp(out.numa[2].cpus, "4-7") &&
		      out.nr_cpus_avail == 8 && out.cpu[5].socket_id == 1 && out.nr_mem_nodes == 3);
		CHECK("filled packages", out.nr_package_cpus == 2 && !strcmp(out.package_cpus[1], "4-7"));
		{
			struct hm_topo *t2 = hm_topo__new_from_header(&out);

			CHECK("round trip", t2 && hm_topo__phys_node(t2, 0x650) == 3 &&
			      hm_topo__cpu_node(t2, 6) == 3 && hm_topo__cpu_socket(t2, 4) == 1);
			hm_topo__delete(t2);
		}
		hm_header__release(&out);
	}
	hm_topo__delete(t);

	/* no MEM_TOPOLOGY, no CPU_TOPOLOGY */
	h.mem = NULL;
	h.nr_mem_nodes = 0;
	h.cpu = NULL;
	t = hm_topo__new_from_header(&h);
	CHECK("header without mem/cpu topology", t && hm_topo__phys_node(t, 0x50) == -1 &&
	      hm_topo__cpu_socket(t, 1) == -1 && hm_topo__cpu_node(t, 1) == 0);
	hm_topo__delete(t);
	hm_topo__delete(NULL);

	/* a fake sysfs: 4 CPUs, 2 nodes, 2 sockets, 128 MiB blocks */
	if (!mkdtemp(root)) {
		SKIP("live fake sysfs", "mkdtemp failed");
	} else {
		put(root, "/sys/devices/system/cpu/possible", "0-3\n");
		for (int c = 0; c < 4; c++) {
			char p[128], v[8];

			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
			snprintf(v, sizeof(v), "%d\n", c / 2);
			put(root, p, v);
		}
		put(root, "/sys/devices/system/node/node0/cpulist", "0-1\n");
		put(root, "/sys/devices/system/node/node1/cpulist", "2-3\n");
		put(root, "/sys/devices/system/node/node0/memory0/x", "");
		put(root, "/sys/devices/system/node/node0/memory1/x", "");
		put(root, "/sys/devices/system/node/node1/memory2/x", "");
		put(root, "/sys/devices/system/memory/block_size_bytes", "8000000\n");
		t = hm_topo__new_live(root);
		CHECK("live fake sysfs", t != NULL);
		CHECK("live fake cpus/nodes", t && hm_topo__nr_cpus(t) == 4 && hm_topo__nr_nodes(t) == 2 &&
		      hm_topo__nr_sockets(t) == 2 && hm_topo__cpu_node(t, 3) == 1 &&
		      hm_topo__cpu_socket(t, 2) == 1);
		CHECK("live fake phys", t && hm_topo__phys_node(t, 0x8000000 + 5) == 0 &&
		      hm_topo__phys_node(t, 0x10000000) == 1 && hm_topo__phys_node(t, 0x18000000) == -1);
		hm_topo__delete(t);
		{
			char cmd[600];

			snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
			if (system(cmd) != 0)
				printf("# could not remove %s\n", root);
		}
	}

	phys_many();
	t = hm_topo__new_live(NULL);
	CHECK("live this machine", t && hm_topo__nr_cpus(t) >= 1 && hm_topo__nr_nodes(t) >= 1 &&
	      hm_topo__cpu_node(t, 0) >= 0);
	hm_topo__delete(t);
	TAP_DONE();
}
