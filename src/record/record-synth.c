// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap record's synthesized records: the kernel map, and the MMAP2 and
 * COMM records of tasks that were running before the events were opened,
 * from /proc.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hitmap/futex.h>
#include "futex-tables.h"
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include <hitmap/topo.h>
#include "record/bpfpair.h"
#include "record/buildid.h"
#include "record/contention.h"
#include "record/evsel.h"
#include "record/mmap.h"
#include "record/record.h"
#include "record/record-int.h"

static int synth_maps(struct hm_rec_session *s, pid_t pid, bool data_maps)
{
	char path[64], line[4096];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;	/* gone */
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino = 0;
		unsigned int maj = 0, min = 0;
		char perms[8], name[4096] = "";
		u32 prot = 0, flags;
		u16 misc = PERF_RECORD_MISC_USER;
		int n = sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095[^\n]",
			       &start, &end, perms, &pgoff, &maj, &min, &ino, name);
		struct hm_file_id id;
		char *nm = name;

		if (n < 7)
			continue;
		/* the device and inode, as perf writes them; /proc has no generation */
		id = (struct hm_file_id){ .maj = maj, .min = min, .ino = ino };
		while (*nm == ' ')
			nm++;
		if (perms[2] != 'x') {
			if (!data_maps)
				continue;
			misc |= PERF_RECORD_MISC_MMAP_DATA;
		} else {
			hm_rec__add_dso(s, nm);
		}
		if (!*nm)
			nm = "//anon";
		if (perms[0] == 'r')
			prot |= PROT_READ;
		if (perms[1] == 'w')
			prot |= PROT_WRITE;
		if (perms[2] == 'x')
			prot |= PROT_EXEC;
		flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		if (hm_writer__write_mmap2_id(s->w, pid, pid, start, end - start, pgoff, prot,
					      flags, nm, misc, &id) < 0)
			break;
	}
	fclose(f);
	return 0;
}

/* The kernel map perf synthesizes: [kernel.kallsyms]_text from _text to the end. */
void hm_rec__synth_kernel(struct hm_rec_session *s)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	unsigned long long start = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 && !strcmp(name, "_text")) {
			start = a;
			break;
		}
	}
	fclose(f);
	if (start)
		hm_writer__write_mmap2(s->w, (u32)-1, 0, start, ~0ULL - start, start,
				       PROT_READ | PROT_EXEC, MAP_PRIVATE, "[kernel.kallsyms]_text",
				       PERF_RECORD_MISC_KERNEL);
}

static void read_comm(const char *path, char *comm, size_t n)
{
	FILE *f = fopen(path, "r");

	comm[0] = 0;
	if (f) {
		if (fgets(comm, n, f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	if (!comm[0])
		snprintf(comm, n, ":unknown");
}

void hm_rec__synth_task(struct hm_rec_session *s, pid_t pid, bool data_maps)
{
	char path[96], comm[64];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int tid = atoi(de->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
		read_comm(path, comm, sizeof(comm));
		hm_writer__write_comm(s->w, pid, tid, comm);
	}
	closedir(d);
	synth_maps(s, pid, data_maps);
}

void hm_rec__synth_all(struct hm_rec_session *s, bool data_maps)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) && !hm_rec__stopped(s)) {
		int pid = atoi(de->d_name);

		if (pid > 0 && isdigit((unsigned char)de->d_name[0]))
			hm_rec__synth_task(s, pid, data_maps);
	}
	closedir(d);
}
