// SPDX-License-Identifier: GPL-2.0-only
/* perf_event_open on the UAPI header: open, group, enable, explain errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "evsel.h"

int hm_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

void hm_pevsel__init(struct hm_pevsel *e, u32 type, u64 config, const char *name)
{
	memset(e, 0, sizeof(*e));
	e->attr.size = sizeof(e->attr) < 128 ? sizeof(e->attr) : 128;
	e->attr.type = type;
	e->attr.config = config;
	e->attr.sample_id_all = 1;
	e->attr.read_format = PERF_FORMAT_ID;
	e->leader = -1;
	snprintf(e->name, sizeof(e->name), "%s", name ? name : "");
}

int hm_perf__paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

const char *hm_pevsel__strerror(int err, const struct perf_event_attr *attr, char *buf, size_t size)
{
	int paranoid = hm_perf__paranoid();
	bool root = geteuid() == 0;

	if (err < 0)
		err = -err;
	switch (err) {
	case EACCES:
	case EPERM:
		if (!root && paranoid > -1)
			snprintf(buf, size, "%s; perf_event_paranoid is %d: fix: run as root, give the binary CAP_PERFMON (setcap cap_perfmon,cap_sys_ptrace+ep), or 'sysctl kernel.perf_event_paranoid=%d'",
				 strerror(err), paranoid,
				 attr && attr->type == PERF_TYPE_TRACEPOINT ? -1 : 0);
		else
			snprintf(buf, size, "%s: fix: a security module or lockdown refuses perf_event_open; check 'dmesg' and kernel.perf_event_paranoid (now %d)",
				 strerror(err), paranoid);
		break;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		snprintf(buf, size, "%s: this machine has no such event or PMU (a VM or container hides the PMU); fix: --mode contention works without one",
			 strerror(err));
		break;
	case EMFILE:
		snprintf(buf, size, "%s: too many open files; fix: 'ulimit -n 65536' or fewer CPUs (-C)",
			 strerror(err));
		break;
	case EBUSY:
		snprintf(buf, size, "%s: the PMU is in use by another tool (perf, a hypervisor); fix: stop it and retry",
			 strerror(err));
		break;
	case EINVAL:
		snprintf(buf, size, "%s: the kernel refused the attr (type %u, config 0x%llx); fix: try another --mode or a larger -c period",
			 strerror(err), attr ? attr->type : 0,
			 attr ? (unsigned long long)attr->config : 0ULL);
		break;
	default:
		snprintf(buf, size, "%s", strerror(err));
	}
	return buf;
}

/* @cpu in the cpulist @list ("" or unparsable: every CPU) */
static bool cpu_in(const char *list, int cpu)
{
	const char *p = list;

	if (!list || !*list)
		return true;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p)
			return true;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			p = end;
		}
		if (cpu >= a && cpu <= b)
			return true;
		if (*p != ',')
			break;
		p++;
	}
	return false;
}

int hm_pevsel__open(struct hm_pevsel *e, const int *cpus, int nr_cpus, pid_t pid,
		    const struct hm_pevsel *leader)
{
	int i, err;

	e->fd = malloc(nr_cpus * sizeof(*e->fd));
	e->id = calloc(nr_cpus, sizeof(*e->id));
	if (!e->fd || !e->id) {
		free(e->fd);
		free(e->id);
		e->fd = NULL;
		e->id = NULL;
		return -ENOMEM;
	}
	e->nr_cpus = nr_cpus;
	for (i = 0; i < nr_cpus; i++)
		e->fd[i] = -1;
	for (i = 0; i < nr_cpus; i++) {
		int gfd = leader ? leader->fd[i] : -1;

		if (!cpu_in(e->pmu_cpus, cpus[i]))
			continue;	/* a hybrid PMU that does not count on this CPU */

		e->fd[i] = hm_perf_event_open(&e->attr, pid, cpus[i], gfd, PERF_FLAG_FD_CLOEXEC);
		if (e->fd[i] < 0) {
			char why[400];

			err = -errno;
			hm_err("perf_event_open %s on CPU %d: %s", e->name, cpus[i],
			       hm_pevsel__strerror(err, &e->attr, why, sizeof(why)));
			hm_pevsel__close(e);
			return err;
		}
		if (ioctl(e->fd[i], PERF_EVENT_IOC_ID, &e->id[i]) < 0)
			e->id[i] = 0;
	}
	return 0;
}

void hm_pevsel__close(struct hm_pevsel *e)
{
	int i;

	if (!e || !e->fd)
		return;
	for (i = 0; i < e->nr_cpus; i++)
		if (e->fd[i] >= 0)
			close(e->fd[i]);
	free(e->fd);
	free(e->id);
	e->fd = NULL;
	e->id = NULL;
	e->nr_cpus = 0;
}

static int ioctl_all(struct hm_pevsel *e, unsigned long req)
{
	int i;

	for (i = 0; i < e->nr_cpus; i++)
		if (e->fd[i] >= 0 && ioctl(e->fd[i], req, 0) < 0)
			return -errno;
	return 0;
}

int hm_pevsel__enable(struct hm_pevsel *e)
{
	return ioctl_all(e, PERF_EVENT_IOC_ENABLE);
}

int hm_pevsel__disable(struct hm_pevsel *e)
{
	return ioctl_all(e, PERF_EVENT_IOC_DISABLE);
}
