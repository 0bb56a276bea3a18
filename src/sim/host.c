// SPDX-License-Identifier: GPL-2.0-only
/*
 * --preset host: the machine this runs on.
 *
 * Topology from sysfs (/sys/devices/system/cpu/online, each CPU's
 * topology/physical_package_id and core_id; LLC domains from
 * cache/index3/shared_cpu_list where the kernel exposes it), the vendor and
 * clock from /proc/cpuinfo.  The cache and coherence latencies are those of
 * the vendor's preset (published figures, the same for every experiment).
 * The one figure measured here is the cost of a system call's entry and
 * exit (getppid, timed in CPU time): on a VM or with speculation
 * mitigations it is several times a bare-metal figure, and it dominates an
 * uncontended futex operation.  Because it is measured, two host runs can
 * differ; give --latency syscall=N to pin it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <hitmap/log.h>
#include <hitmap/topo.h>
#include "sim/sim.h"
#include "util/clock.h"

#define MAX_HOST_CPUS 4096

static int read_int(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

/* A sysfs cpulist into @set; returns the count or -errno. */
static int read_list(const char *path, unsigned char *set, int max)
{
	static int cpus[MAX_HOST_CPUS];
	int n = hm_cpulist__read(path, cpus, MAX_HOST_CPUS), i, k = 0;

	for (i = 0; i < n; i++)
		if (cpus[i] >= 0 && cpus[i] < max && !set[cpus[i]]) {
			set[cpus[i]] = 1;
			k++;
		}
	return n < 0 ? n : k;
}

static enum hm_vendor host_vendor(double *mhz)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	enum hm_vendor v = HM_VENDOR_UNKNOWN;

	*mhz = 0;
	if (!f)
		return v;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "vendor_id", 9)) {
			if (strstr(line, "GenuineIntel"))
				v = HM_VENDOR_INTEL;
			else if (strstr(line, "AuthenticAMD") || strstr(line, "HygonGenuine"))
				v = HM_VENDOR_AMD;
		} else if (!strncmp(line, "CPU implementer", 15)) {
			v = HM_VENDOR_ARM;
		} else if (!strncmp(line, "cpu MHz", 7) && *mhz == 0) {
			char *c = strchr(line, ':');

			if (c)
				*mhz = strtod(c + 1, NULL);
		}
	}
	fclose(f);
	return v;
}

/* Median CPU-time cost of one getppid() round trip, in ns. */
static double syscall_ns(void)
{
	double best[5];
	int r, i, j;

	for (r = 0; r < 5; r++) {
		const int n = 20000;
		double a = hm_clock__thread_cpu();

		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		best[r] = (hm_clock__thread_cpu() - a) * 1e9 / n;
	}
	for (i = 1; i < 5; i++)
		for (j = i; j > 0 && best[j] < best[j - 1]; j--) {
			double t = best[j];

			best[j] = best[j - 1];
			best[j - 1] = t;
		}
	return best[2];
}

int hm_host__probe(struct hm_host *h)
{
	static unsigned char online[MAX_HOST_CPUS];
	static long pkg[MAX_HOST_CPUS], core[MAX_HOST_CPUS];
	char path[256];
	long pkgs[64];
	int nr_pkgs = 0, nr_cpus, nr_cores = 0, i, j;
	enum hm_vendor v;

	memset(online, 0, sizeof(online));
	nr_cpus = read_list("/sys/devices/system/cpu/online", online, MAX_HOST_CPUS);
	if (nr_cpus <= 0) {
		hm_err("--preset host: cannot read /sys/devices/system/cpu/online; use a named preset");
		return nr_cpus < 0 ? nr_cpus : -ENOENT;
	}
	for (i = 0; i < MAX_HOST_CPUS; i++) {
		if (!online[i])
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", i);
		if (read_int(path, &pkg[i]))
			pkg[i] = 0;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", i);
		if (read_int(path, &core[i]))
			core[i] = i;
		for (j = 0; j < nr_pkgs && pkgs[j] != pkg[i]; j++)
			;
		if (j == nr_pkgs && nr_pkgs < 64)
			pkgs[nr_pkgs++] = pkg[i];
		/* a new (package, core) pair: one more physical core */
		for (j = 0; j < i; j++)
			if (online[j] && pkg[j] == pkg[i] && core[j] == core[i])
				break;
		nr_cores += j == i;
	}
	v = host_vendor(&h->mhz);
	h->base = v == HM_VENDOR_AMD ? "zen4" : v == HM_VENDOR_ARM ? "altra" : "skx";
	h->nr_pkgs = nr_pkgs;
	h->nr_cores = nr_cores;
	h->nr_cpus = nr_cpus;
	return 0;
}

void hm_machine__host(struct hm_machine *m, const struct hm_host *h)
{
	int nr_pkgs = h->nr_pkgs, nr_cores = h->nr_cores, nr_cpus = h->nr_cpus, llc_cpus = 0;
	double ns;

	snprintf(m->name, sizeof(m->name), "host");
	m->sockets = nr_pkgs ? (u32)nr_pkgs : 1;
	m->cores = (u32)((nr_cores + nr_pkgs - 1) / (nr_pkgs ? nr_pkgs : 1));
	if (!m->cores)
		m->cores = 1;
	m->smt = (u32)(nr_cpus / (int)(m->cores * m->sockets));
	if (!m->smt)
		m->smt = 1;
	/* LLC domains per socket */
	{
		static unsigned char llc[MAX_HOST_CPUS];

		memset(llc, 0, sizeof(llc));
		llc_cpus = read_list("/sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list", llc,
				     MAX_HOST_CPUS);
		if (llc_cpus > 0 && (u32)llc_cpus < m->cores * m->smt)
			m->llcs = (m->cores * m->smt + (u32)llc_cpus - 1) / (u32)llc_cpus;
		else
			m->llcs = 1;
	}
	if (h->mhz > 100)
		m->ghz = h->mhz / 1000.0;
	ns = syscall_ns();
	if (ns > 1) {
		m->lat[HM_LAT_SYSCALL] = (u32)(ns * m->ghz + 0.5);
		m->lat_source[HM_LAT_SYSCALL] = "measured here: getppid() round trip in CPU time (host.c)";
	}
	snprintf(m->desc, sizeof(m->desc),
		 "this machine: %u socket(s) x %u cores x %u SMT, %.2f GHz, %s latencies, syscall %u cycles (measured)",
		 m->sockets, m->cores, m->smt, m->ghz, h->base, m->lat[HM_LAT_SYSCALL]);
}
