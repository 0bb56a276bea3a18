// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing perf's directory format (perf record --threads, perf >= 5.17),
 * for hm_convert with hm_convert_opts.dir: a folder that holds "data", a
 * file-mode perf.data with the header, the events, the DIR_FORMAT feature
 * (version 1) and the records perf itself writes there, and data.0 ..
 * data.(N-1), bare record streams with no header (reader-dir.c reads them).
 *
 * Where perf puts a record (perf 6.1, 6.12 and 7.3, --threads with its
 * default of one thread per CPU, measured): each recording thread writes
 * what its CPU's ring buffer holds, samples and the kernel's side-band
 * records (COMM, FORK, EXIT, MMAP2 ...) with their time, to its data.N;
 * perf's own records, the user types (ID_INDEX, EVENT_UPDATE, THREAD_MAP,
 * CPU_MAP, FINISHED_INIT) and the records it synthesizes before the
 * workload starts (the kernel MMAP, the COMM, FORK and MMAP2 of running
 * tasks, whose sample_id trailer is zeros: time 0), go to "data".  No
 * file holds FINISHED_ROUND: perf reads a folder through one ordering
 * queue, so the order is the records' times (records of time 0 and user
 * records are delivered as they are read, "data" first).
 *
 * Here: a SAMPLE goes to data.(cpu % N), or data.0 without PERF_SAMPLE_CPU;
 * a kernel record with a time in its sample_id trailer to data.(cpu % N)
 * (data.0 without a CPU); a kernel record without a time (time 0, or no
 * sample_id_all) and every user record to "data"; AUXTRACE to the file of
 * the CPU it names (data.0 for a per-thread trace); FINISHED_ROUND to
 * none.  Each file has its own zstd stream with compression, as perf's
 * per-thread compressors (perf leaves "data" plain; here it is compressed
 * too, which every reader takes).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "perfdata/convert-dir.h"
#include "util/errhint.h"

/* perf's PERF_DIR_VERSION: data.N files hold records only */
#define DIR_VERSION	1
/* the offset of the CPU in an AUXTRACE record */
#define AUXTRACE_CPU	40

struct hm_dirout {
	char		*path;
	bool		created;	/* the folder is ours: removed on failure */
	bool		done;		/* closed without error */
	u32		nr;		/* data.N files */
	struct hm_writer **w;		/* nr + 1: "data", data.0 .. */
	char		**file;		/* their paths */
};

/* 0 where @path is a folder with nothing in it, else -ENOTEMPTY (logged) */
static int check_empty(const char *path)
{
	DIR *dp = opendir(path);
	struct dirent *de;
	int err = 0;

	if (!dp) {
		err = -errno;
		hm_err("%s: cannot list the output folder: %s", path, strerror(-err));
		return err;
	}
	while ((de = readdir(dp)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			hm_err("%s: the output folder is not empty (it holds %s); name a new "
			       "folder or an empty one", path, de->d_name);
			err = -ENOTEMPTY;
			break;
		}
	closedir(dp);
	return err;
}

static int make_dir(struct hm_dirout *d)
{
	struct stat st;
	int err;

	if (!mkdir(d->path, 0755)) {
		d->created = true;
		return 0;
	}
	err = errno;
	if (err != EEXIST) {
		hm_err("%s: cannot create the output folder: %s%s", d->path, strerror(err),
		       hm_hint__create(err));
		return -err;
	}
	if (stat(d->path, &st) || !S_ISDIR(st.st_mode)) {
		hm_err("%s: exists and is not a folder; a perf.data folder needs a new or "
		       "empty folder (name another, or drop --dir for one file)", d->path);
		return -EEXIST;
	}
	return check_empty(d->path);
}

static char *file_name(const char *dir, long i)
{
	size_t n = strlen(dir) + 32;
	char *p = malloc(n);

	if (!p)
		return NULL;
	if (i < 0)
		snprintf(p, n, "%s/data", dir);
	else
		snprintf(p, n, "%s/data.%ld", dir, i);
	return p;
}

void hm_dirout__delete(struct hm_dirout *d)
{
	if (!d)
		return;
	for (u32 i = 0; d->w && i <= d->nr; i++) {
		/* an unclosed writer removes its own file */
		hm_writer__delete(d->w[i]);
		if (!d->done && d->file && d->file[i])
			unlink(d->file[i]);
	}
	if (!d->done && d->created)
		rmdir(d->path);
	for (u32 i = 0; d->file && i <= d->nr; i++)
		free(d->file[i]);
	free(d->file);
	free(d->w);
	free(d->path);
	free(d);
}

struct hm_dirout *hm_dirout__new(const char *path, u32 nr)
{
	struct hm_dirout *d;
	int err = -ENOMEM;

	if (!path || !*path || !nr) {
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		goto fail;
	d->nr = nr;
	d->path = strdup(path);
	d->w = calloc((size_t)nr + 1, sizeof(*d->w));
	d->file = calloc((size_t)nr + 1, sizeof(*d->file));
	if (!d->path || !d->w || !d->file)
		goto fail;
	err = make_dir(d);
	if (err)
		goto fail;
	for (u32 i = 0; i <= nr; i++) {
		d->file[i] = file_name(path, (long)i - 1);
		if (!d->file[i]) {
			err = -ENOMEM;
			goto fail;
		}
		d->w[i] = hm_writer__new(d->file[i]);	/* says why it cannot */
		if (!d->w[i]) {
			err = errno ? -errno : -EIO;
			goto fail;
		}
		err = i ? hm_writer__set_bare(d->w[i], true) :
			  hm_writer__set_dir_format(d->w[i], DIR_VERSION);
		if (err)
			goto fail;
	}
	hm_debug("convert: %s: a perf.data folder of data and %u data.N files", path, nr);
	return d;
fail:
	hm_dirout__delete(d);
	errno = -err;
	return NULL;
}

u32 hm_dirout__nr_writers(const struct hm_dirout *d)
{
	return d ? d->nr + 1 : 0;
}

struct hm_writer *hm_dirout__writer(const struct hm_dirout *d, u32 i)
{
	return d && i <= d->nr ? d->w[i] : NULL;
}

static struct hm_writer *cpu_file(struct hm_dirout *d, u32 cpu)
{
	return d->w[1 + cpu % d->nr];
}

struct hm_writer *hm_dirout__route(struct hm_dirout *d, const struct hm_event *ev)
{
	const struct hm_evsel *e = ev->has_sample ? ev->sample.evsel : NULL;
	u64 st = e ? e->attr.sample_type : 0;
	u32 cpu;

	switch (ev->type) {
	case HM_RECORD_FINISHED_ROUND:
		return NULL;
	case HM_RECORD_AUXTRACE:
		if (ev->size < AUXTRACE_CPU + 4)
			return d->w[1];
		memcpy(&cpu, (const u8 *)ev->data + AUXTRACE_CPU, 4);
		return cpu == (u32)-1 ? d->w[1] : cpu_file(d, cpu);
	case PERF_RECORD_SAMPLE:
		return st & PERF_SAMPLE_CPU ? cpu_file(d, ev->sample.cpu) : d->w[1];
	default:
		break;
	}
	if (ev->type >= HM_RECORD_HEADER_ATTR || !(st & PERF_SAMPLE_TIME) || !ev->sample.time)
		return d->w[0];		/* perf's own, or synthesized before the run */
	return st & PERF_SAMPLE_CPU ? cpu_file(d, ev->sample.cpu) : d->w[1];
}

int hm_dirout__close(struct hm_dirout *d)
{
	int err = 0, ret;

	if (!d)
		return -EINVAL;
	for (u32 i = 1; i <= d->nr; i++) {
		ret = hm_writer__close(d->w[i]);
		if (ret && !err)
			err = ret;
	}
	/* "data" last: its header says the folder is whole */
	ret = hm_writer__close(d->w[0]);
	if (ret && !err)
		err = ret;
	d->done = !err;
	return err;
}
