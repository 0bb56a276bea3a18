// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machine topology: CPU -> socket/die/node, physical address -> node.
 * From a perf.data header (NRCPUS, CPU_TOPOLOGY, NUMA_TOPOLOGY, MEM_TOPOLOGY)
 * or from this machine's sysfs.  Physical ranges are built like perf's
 * mem2node: one range per set bit of a node's memory-block bitmap, adjacent
 * blocks of the same node merged, looked up by binary search.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include <hitmap/topo.h>

#define HM_TOPO_MAX_RANGES	(1 << 20)

struct hm_topo_cpu {
	int socket, die, node;
};

struct hm_topo_range {
	u64 start, end;		/* [start, end) */
	int node;
};

struct hm_topo {
	int			nr_cpus;
	struct hm_topo_cpu	*cpu;
	int			nr_nodes;
	int			*node_id;	/* index -> id */
	char			**node_cpus;	/* cpulist per node index */
	u64			*node_mem_kb;
	int			nr_sockets;
	u64			block_size;
	int			nr_ranges;
	struct hm_topo_range	*ranges;
	/* node bitmaps, kept for fill_header */
	u64			nr_mem_nodes;
	struct hm_mem_node	*mem;
};

int hm_cpulist__read(const char *path, int *cpus, int n)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return -errno;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	return ok ? hm_cpulist__parse(buf, cpus, n) : -EIO;
}

int hm_cpulist__check_online(const char *root, const char *opt, const char *arg,
			     const int *cpus, int n)
{
	char path[512], list[4096] = "";
	bool *online = calloc(HM_MAX_CPUS, sizeof(*online));
	int *on = calloc(HM_MAX_CPUS, sizeof(*on)), nr_on = 0, i, err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online", root ? root : "");
	f = fopen(path, "r");
	if (f) {
		if (fgets(list, sizeof(list), f))
			list[strcspn(list, "\n")] = 0;
		fclose(f);
	}
	if (online && on && list[0])
		nr_on = hm_cpulist__parse(list, on, HM_MAX_CPUS);
	if (nr_on <= 0)
		goto out;	/* cannot tell: the kernel (or pthread) will say */
	for (i = 0; i < nr_on; i++)
		online[on[i]] = true;
	for (i = 0; i < n && cpus[i] >= 0 && cpus[i] < (int)HM_MAX_CPUS && online[cpus[i]]; i++)
		;
	if (i < n) {
		hm_err("%s '%s': CPU %d is not online; fix: give CPUs of %s", opt, arg, cpus[i], list);
		err = -EINVAL;
	}
out:
	free(online);
	free(on);
	return err;
}

int hm_cpulist__parse(const char *s, int *cpus, int n)
{
	int count = 0;
	const char *p = s;

	if (!s)
		return -EINVAL;
	while (*p) {
		char *end;
		long a, b;

		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			b = strtol(p, &end, 10);
			p = end;
			if (b < a)
				return -EINVAL;
		}
		/* no CPU id past the kernel's maximum: a corrupt "0-2000000000" */
		if (b >= (long)HM_MAX_CPUS || count + (b - a) >= (long)HM_MAX_CPUS)
			return -EINVAL;
		for (long c = a; c <= b; c++) {
			if (count < n && cpus)
				cpus[count] = (int)c;
			count++;
		}
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return count;
}

static struct hm_topo *topo_alloc(int nr_cpus)
{
	struct hm_topo *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (nr_cpus < 1)
		nr_cpus = 1;
	t->nr_cpus = nr_cpus;
	t->cpu = calloc(nr_cpus, sizeof(*t->cpu));
	if (!t->cpu) {
		free(t);
		return NULL;
	}
	for (int i = 0; i < nr_cpus; i++)
		t->cpu[i].socket = t->cpu[i].die = t->cpu[i].node = -1;
	return t;
}

void hm_topo__delete(struct hm_topo *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nr_nodes; i++)
		free(t->node_cpus ? t->node_cpus[i] : NULL);
	free(t->node_cpus);
	free(t->node_id);
	free(t->node_mem_kb);
	free(t->cpu);
	free(t->ranges);
	for (u64 i = 0; i < t->nr_mem_nodes; i++)
		free(t->mem[i].bitmap);
	free(t->mem);
	free(t);
}

static int range_cmp(const void *a, const void *b)
{
	const struct hm_topo_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Build the sorted phys ranges from the node bitmaps in t->mem. */
static int build_ranges(struct hm_topo *t)
{
	size_t cap = 16, n = 0;
	struct hm_topo_range *r = malloc(cap * sizeof(*r));

	if (!r)
		return -ENOMEM;
	for (u64 i = 0; i < t->nr_mem_nodes; i++) {
		const struct hm_mem_node *m = &t->mem[i];

		for (u64 b = 0; b < m->nbits; b++) {
			u64 start;

			if (!(b % 64) && !m->bitmap[b / 64]) {
				b += 63;	/* a word of free blocks */
				continue;
			}
			if (!((m->bitmap[b / 64] >> (b % 64)) & 1))
				continue;
			if (n >= HM_TOPO_MAX_RANGES) {
				hm_warn("memory topology has more than %d ranges; physical addresses "
					"past them get no node", HM_TOPO_MAX_RANGES);
				goto done;
			}
			start = b * t->block_size;
			if (n && r[n - 1].node == (int)m->node && r[n - 1].end == start) {
				r[n - 1].end += t->block_size;
				continue;
			}
			if (n == cap) {
				struct hm_topo_range *nr;

				cap *= 2;
				nr = realloc(r, cap * sizeof(*r));
				if (!nr) {
					free(r);
					return -ENOMEM;
				}
				r = nr;
			}
			r[n].start = start;
			r[n].end = start + t->block_size;
			r[n].node = (int)m->node;
			n++;
		}
	}
done:
	qsort(r, n, sizeof(*r), range_cmp);
	t->ranges = r;
	t->nr_ranges = (int)n;
	return 0;
}

static void count_sockets(struct hm_topo *t)
{
	int max = -1;

	for (int i = 0; i < t->nr_cpus; i++)
		if (t->cpu[i].socket > max)
			max = t->cpu[i].socket;
	t->nr_sockets = max + 1;
}

static int set_nodes(struct hm_topo *t, int nr)
{
	t->nr_nodes = nr;
	t->node_id = calloc(nr ? nr : 1, sizeof(int));
	t->node_cpus = calloc(nr ? nr : 1, sizeof(char *));
	t->node_mem_kb = calloc(nr ? nr : 1, sizeof(u64));
	return t->node_id && t->node_cpus && t->node_mem_kb ? 0 : -ENOMEM;
}

static void assign_node_cpus(struct hm_topo *t, int idx, const char *list)
{
	int n = hm_cpulist__parse(list, NULL, 0);
	int *cpus;

	if (n <= 0)
		return;
	cpus = calloc(n, sizeof(int));
	if (!cpus)
		return;
	hm_cpulist__parse(list, cpus, n);
	for (int k = 0; k < n; k++)
		if (cpus[k] >= 0 && cpus[k] < t->nr_cpus)
			t->cpu[cpus[k]].node = t->node_id[idx];
	free(cpus);
}

/* Highest CPU of cpulist @s, +1 (0: none or unparsable). */
static int cpulist_end(const char *s)
{
	int n = s ? hm_cpulist__parse(s, NULL, 0) : -1;
	int *cpus, max = 0;

	if (n <= 0)
		return 0;
	cpus = calloc(n, sizeof(int));
	if (!cpus)
		return 0;
	hm_cpulist__parse(s, cpus, n);
	for (int i = 0; i < n; i++)
		if (cpus[i] + 1 > max)
			max = cpus[i] + 1;
	free(cpus);
	return max;
}

/* NRCPUS absent or corrupt: enough CPUs for every one the lists name. */
static int cpus_named(const struct hm_header *h)
{
	int max = 0, n;

	for (u32 i = 0; h->package_cpus && i < h->nr_package_cpus; i++)
		if ((n = cpulist_end(h->package_cpus[i])) > max)
			max = n;
	for (u32 i = 0; h->numa && i < h->nr_numa_nodes; i++)
		if ((n = cpulist_end(h->numa[i].cpus)) > max)
			max = n;
	return max;
}

/* A socket or die id from a file: -1 unless it is one a machine can have. */
static int topo_id(int v)
{
	return v >= 0 && v < HM_MAX_SOCKETS ? v : -1;
}

struct hm_topo *hm_topo__new_from_header(const struct hm_header *h)
{
	struct hm_topo *t;
	int nr_cpus = h->nr_cpus_avail;

	if (!nr_cpus)
		nr_cpus = h->nr_cpus_online;
	if (!nr_cpus || nr_cpus > (int)HM_MAX_CPUS)
		nr_cpus = cpus_named(h);
	t = topo_alloc(nr_cpus);
	if (!t)
		goto enomem;
	if (h->cpu) {
		for (u32 i = 0; i < h->nr_cpus_avail && (int)i < t->nr_cpus; i++) {
			t->cpu[i].socket = topo_id(h->cpu[i].socket_id);
			t->cpu[i].die = topo_id(h->cpu[i].die_id);
		}
	} else if (h->package_cpus) {
		for (u32 p = 0; p < h->nr_package_cpus && p < HM_MAX_SOCKETS; p++) {
			int n = hm_cpulist__parse(h->package_cpus[p], NULL, 0);
			int *cpus = n > 0 ? calloc(n, sizeof(int)) : NULL;

			if (!cpus)
				continue;
			hm_cpulist__parse(h->package_cpus[p], cpus, n);
			for (int k = 0; k < n; k++)
				if (cpus[k] >= 0 && cpus[k] < t->nr_cpus)
					t->cpu[cpus[k]].socket = (int)p;
			free(cpus);
		}
	}
	if (set_nodes(t, h->numa ? (int)h->nr_numa_nodes : 0) < 0)
		goto enomem;
	for (int i = 0; i < t->nr_nodes; i++) {
		t->node_id[i] = (int)h->numa[i].node;
		t->node_mem_kb[i] = h->numa[i].mem_total_kb;
		t->node_cpus[i] = strdup(h->numa[i].cpus ? h->numa[i].cpus : "");
		if (!t->node_cpus[i])
			goto enomem;
		assign_node_cpus(t, i, h->numa[i].cpus);
	}
	if (h->mem && h->nr_mem_nodes && h->nr_mem_nodes <= HM_MAX_NODES && h->mem_block_size) {
		t->block_size = h->mem_block_size;
		t->mem = calloc(h->nr_mem_nodes, sizeof(*t->mem));
		if (!t->mem)
			goto enomem;
		t->nr_mem_nodes = h->nr_mem_nodes;
		for (u64 i = 0; i < h->nr_mem_nodes; i++) {
			u64 words = h->mem[i].nbits / 64 + !!(h->mem[i].nbits % 64);

			t->mem[i].node = h->mem[i].node;
			t->mem[i].nbits = h->mem[i].nbits;
			t->mem[i].bitmap = calloc(words ? words : 1, 8);
			if (!t->mem[i].bitmap)
				goto enomem;
			if (h->mem[i].bitmap)
				memcpy(t->mem[i].bitmap, h->mem[i].bitmap, words * 8);
		}
		if (build_ranges(t) < 0)
			goto enomem;
	}
	count_sockets(t);
	return t;
enomem:
	hm_topo__delete(t);
	errno = ENOMEM;
	return NULL;
}

static int read_str(const char *root, const char *path, char *buf, size_t size)
{
	char p[512];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s%s", root, path);
	f = fopen(p, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int read_int(const char *root, const char *path, int def)
{
	char buf[64];

	if (read_str(root, path, buf, sizeof(buf)) < 0)
		return def;
	return atoi(buf);
}

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

struct hm_topo *hm_topo__new_live(const char *sysfs_root)
{
	const char *root = sysfs_root ? sysfs_root : "";
	char buf[4096], path[256];
	struct hm_topo *t;
	int nr_cpus, nr = 0, cap = 8, *ids;
	DIR *d;
	struct dirent *de;

	if (read_str(root, "/sys/devices/system/cpu/possible", buf, sizeof(buf)) < 0) {
		hm_err("%s/sys/devices/system/cpu/possible: cannot read; is sysfs mounted?", root);
		errno = ENOENT;
		return NULL;
	}
	nr_cpus = 0;
	{
		int n = hm_cpulist__parse(buf, NULL, 0);
		int *c = n > 0 ? calloc(n, sizeof(int)) : NULL;

		if (c) {
			hm_cpulist__parse(buf, c, n);
			for (int i = 0; i < n; i++)
				if (c[i] + 1 > nr_cpus)
					nr_cpus = c[i] + 1;
			free(c);
		}
	}
	t = topo_alloc(nr_cpus);
	if (!t)
		goto enomem;
	for (int c = 0; c < t->nr_cpus; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		t->cpu[c].socket = read_int(root, path, -1);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/die_id", c);
		t->cpu[c].die = read_int(root, path, t->cpu[c].socket >= 0 ? 0 : -1);
	}

	ids = malloc(cap * sizeof(int));
	if (!ids)
		goto enomem;
	snprintf(path, sizeof(path), "%s/sys/devices/system/node", root);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "node", 4) || !isdigit((unsigned char)de->d_name[4]))
			continue;
		if (nr == cap) {
			int *n2 = realloc(ids, 2 * cap * sizeof(int));

			if (!n2)
				break;
			ids = n2;
			cap *= 2;
		}
		ids[nr++] = atoi(de->d_name + 4);
	}
	if (d)
		closedir(d);
	qsort(ids, nr, sizeof(int), int_cmp);
	if (!nr) {
		/* no NUMA in sysfs: one node 0 with every CPU */
		ids[nr++] = 0;
	}
	if (set_nodes(t, nr) < 0) {
		free(ids);
		goto enomem;
	}
	t->block_size = 0;
	{
		char bs[64];

		if (!read_str(root, "/sys/devices/system/memory/block_size_bytes", bs, sizeof(bs)))
			t->block_size = strtoull(bs, NULL, 16);
	}
	if (t->block_size) {
		t->mem = calloc(nr, sizeof(*t->mem));
		if (!t->mem) {
			free(ids);
			goto enomem;
		}
		t->nr_mem_nodes = nr;
	}
	for (int i = 0; i < nr; i++) {
		t->node_id[i] = ids[i];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", ids[i]);
		if (read_str(root, path, buf, sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "0-%d", t->nr_cpus - 1);
		t->node_cpus[i] = strdup(buf);
		if (!t->node_cpus[i]) {
			free(ids);
			goto enomem;
		}
		assign_node_cpus(t, i, buf);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", ids[i]);
		if (!read_str(root, path, buf, sizeof(buf))) {
			char *p = strstr(buf, "MemTotal:");

			if (p)
				t->node_mem_kb[i] = strtoull(p + 9, NULL, 10);
		}
		if (t->mem) {
			struct hm_mem_node *m = &t->mem[i];
			DIR *nd;
			u64 maxb = 0;

			m->node = ids[i];
			snprintf(path, sizeof(path), "%s/sys/devices/system/node/node%d", root, ids[i]);
			/* two passes: the highest block, then the bits */
			for (int pass = 0; pass < 2; pass++) {
				nd = opendir(path);
				while (nd && (de = readdir(nd))) {
					u64 b;

					if (strncmp(de->d_name, "memory", 6) ||
					    !isdigit((unsigned char)de->d_name[6]))
						continue;
					b = strtoull(de->d_name + 6, NULL, 10);
					if (!pass) {
						if (b + 1 > maxb)
							maxb = b + 1;
					} else {
						m->bitmap[b / 64] |= 1ULL << (b % 64);
					}
				}
				if (nd)
					closedir(nd);
				if (!pass) {
					m->nbits = maxb;
					m->bitmap = calloc(maxb / 64 + 1, 8);
					if (!m->bitmap) {
						free(ids);
						goto enomem;
					}
				}
			}
		}
	}
	free(ids);
	if (t->mem && build_ranges(t) < 0)
		goto enomem;
	count_sockets(t);
	return t;
enomem:
	hm_topo__delete(t);
	errno = ENOMEM;
	return NULL;
}

int hm_topo__nr_cpus(const struct hm_topo *t) { return t ? t->nr_cpus : 0; }
int hm_topo__nr_sockets(const struct hm_topo *t) { return t ? t->nr_sockets : 0; }
int hm_topo__nr_nodes(const struct hm_topo *t) { return t ? t->nr_nodes : 0; }

int hm_topo__cpu_socket(const struct hm_topo *t, int cpu)
{
	return t && cpu >= 0 && cpu < t->nr_cpus ? t->cpu[cpu].socket : -1;
}

int hm_topo__cpu_die(const struct hm_topo *t, int cpu)
{
	return t && cpu >= 0 && cpu < t->nr_cpus ? t->cpu[cpu].die : -1;
}

int hm_topo__cpu_node(const struct hm_topo *t, int cpu)
{
	return t && cpu >= 0 && cpu < t->nr_cpus ? t->cpu[cpu].node : -1;
}

int hm_topo__phys_node(const struct hm_topo *t, u64 phys_addr)
{
	int lo = 0, hi;

	if (!t || !t->nr_ranges)
		return -1;
	hi = t->nr_ranges - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		const struct hm_topo_range *r = &t->ranges[mid];

		if (phys_addr < r->start)
			hi = mid - 1;
		else if (phys_addr >= r->end)
			lo = mid + 1;
		else
			return r->node;
	}
	return -1;
}

int hm_topo__node_id(const struct hm_topo *t, int idx)
{
	return t && idx >= 0 && idx < t->nr_nodes ? t->node_id[idx] : -1;
}

int hm_topo__node_socket(const struct hm_topo *t, int node)
{
	if (!t)
		return -1;
	for (int c = 0; c < t->nr_cpus; c++)
		if (t->cpu[c].node == node && t->cpu[c].socket >= 0)
			return t->cpu[c].socket;
	return -1;
}

/* cpulist text of the CPUs for which @pick(cpu) == @val. */
static char *cpulist_of(const struct hm_topo *t, int val, int (*pick)(const struct hm_topo *, int))
{
	size_t cap = 64, len = 0;
	char *s = malloc(cap);
	int c = 0;

	if (!s)
		return NULL;
	s[0] = '\0';
	while (c < t->nr_cpus) {
		int a, b;
		char tmp[32];
		int n;

		if (pick(t, c) != val) {
			c++;
			continue;
		}
		a = c;
		while (c + 1 < t->nr_cpus && pick(t, c + 1) == val)
			c++;
		b = c++;
		n = a == b ? snprintf(tmp, sizeof(tmp), "%s%d", len ? "," : "", a)
			   : snprintf(tmp, sizeof(tmp), "%s%d-%d", len ? "," : "", a, b);
		if (len + n + 1 > cap) {
			char *ns;

			cap = (len + n + 1) * 2;
			ns = realloc(s, cap);
			if (!ns) {
				free(s);
				return NULL;
			}
			s = ns;
		}
		memcpy(s + len, tmp, n + 1);
		len += n;
	}
	return s;
}

int hm_topo__fill_header(const struct hm_topo *t, struct hm_header *h)
{
	int ns = t->nr_sockets > 0 ? t->nr_sockets : 0;

	h->nr_cpus_avail = t->nr_cpus;
	if (!h->nr_cpus_online)
		h->nr_cpus_online = t->nr_cpus;
	h->cpu = calloc(t->nr_cpus, sizeof(*h->cpu));
	if (!h->cpu)
		return -ENOMEM;
	for (int c = 0; c < t->nr_cpus; c++) {
		h->cpu[c].core_id = c;
		h->cpu[c].socket_id = t->cpu[c].socket;
		h->cpu[c].die_id = t->cpu[c].die < 0 ? 0 : t->cpu[c].die;
	}
	if (ns) {
		h->package_cpus = calloc(ns, sizeof(char *));
		h->die_cpus = calloc(ns, sizeof(char *));
		if (!h->package_cpus || !h->die_cpus)
			return -ENOMEM;
		h->nr_package_cpus = ns;
		h->nr_die_cpus = ns;
		for (int s = 0; s < ns; s++) {
			h->package_cpus[s] = cpulist_of(t, s, hm_topo__cpu_socket);
			h->die_cpus[s] = cpulist_of(t, s, hm_topo__cpu_socket);
			if (!h->package_cpus[s] || !h->die_cpus[s])
				return -ENOMEM;
		}
	}
	h->core_cpus = calloc(t->nr_cpus, sizeof(char *));
	if (!h->core_cpus)
		return -ENOMEM;
	h->nr_core_cpus = t->nr_cpus;
	for (int c = 0; c < t->nr_cpus; c++) {
		char tmp[16];

		snprintf(tmp, sizeof(tmp), "%d", c);
		h->core_cpus[c] = strdup(tmp);
		if (!h->core_cpus[c])
			return -ENOMEM;
	}
	h->numa = calloc(t->nr_nodes ? t->nr_nodes : 1, sizeof(*h->numa));
	if (!h->numa)
		return -ENOMEM;
	h->nr_numa_nodes = t->nr_nodes;
	for (int i = 0; i < t->nr_nodes; i++) {
		h->numa[i].node = t->node_id[i];
		h->numa[i].mem_total_kb = t->node_mem_kb[i];
		h->numa[i].mem_free_kb = t->node_mem_kb[i] / 2;
		h->numa[i].cpus = strdup(t->node_cpus[i]);
		if (!h->numa[i].cpus)
			return -ENOMEM;
	}
	if (t->mem && t->nr_mem_nodes) {
		h->mem = calloc(t->nr_mem_nodes, sizeof(*h->mem));
		if (!h->mem)
			return -ENOMEM;
		h->nr_mem_nodes = t->nr_mem_nodes;
		h->mem_block_size = t->block_size;
		for (u64 i = 0; i < t->nr_mem_nodes; i++) {
			u64 words = t->mem[i].nbits / 64 + !!(t->mem[i].nbits % 64);

			h->mem[i].node = t->mem[i].node;
			h->mem[i].nbits = t->mem[i].nbits;
			h->mem[i].bitmap = calloc(words ? words : 1, 8);
			if (!h->mem[i].bitmap)
				return -ENOMEM;
			memcpy(h->mem[i].bitmap, t->mem[i].bitmap, words * 8);
		}
	}
	h->feat_bits[HM_FEAT_NRCPUS / 64] |= 1ULL << (HM_FEAT_NRCPUS % 64);
	h->feat_bits[HM_FEAT_CPU_TOPOLOGY / 64] |= 1ULL << (HM_FEAT_CPU_TOPOLOGY % 64);
	h->feat_bits[HM_FEAT_NUMA_TOPOLOGY / 64] |= 1ULL << (HM_FEAT_NUMA_TOPOLOGY % 64);
	if (h->mem)
		h->feat_bits[HM_FEAT_MEM_TOPOLOGY / 64] |= 1ULL << (HM_FEAT_MEM_TOPOLOGY % 64);
	return 0;
}

int hm_pmu__each(const char *root, int (*cb)(const char *name, u32 type, void *arg), void *arg)
{
	char dir[PATH_MAX];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/sys/bus/event_source/devices", root ? root : "");
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		char path[PATH_MAX + 300];
		unsigned int type;
		FILE *f;
		int n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", dir, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		n = fscanf(f, "%u", &type);
		fclose(f);
		if (n == 1)
			ret = cb(de->d_name, type, arg);
	}
	closedir(d);
	return ret;
}
