// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's directory format (perf record --threads, perf >= 5.17): a folder
 * that holds "data", an ordinary file-mode perf.data with the header, the
 * events and the side-band records, and "data.N", one per recording
 * thread, whose records follow one another with no header of their own.
 *
 * perf reads it as one stream of readers (session.c,
 * __perf_session__process_dir_events): "data"'s data section first, then
 * each non-empty data.N in the order readdir gives them, by turns of
 * READER_MAX_SIZE (2 MiB) of records each: a reader's turn ends after the
 * record that takes it past 2 MiB, or at its end.  There is no
 * FINISHED_ROUND in these files, so everything goes through the ordering
 * queue (perf's has no size limit; hitmap's hands out early only what
 * perf's end flush gives out first anyway: reader-ahead.c); the order of
 * the turns decides the order of equal times, and it is kept exactly
 * here.  Each file has its own zstd stream (perf's per-reader
 * decompressor): a record cut between two COMPRESSED records of one file
 * is completed by that file's next one.
 *
 * The window (reader-input.c) holds the current file: a turn that ends
 * leaves it at its file offset, and the next turn of that file reads from
 * there again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <hitmap/log.h>
#include "reader-int.h"

/* perf's READER_MAX_SIZE: the bytes of records a reader hands out a turn */
#define TURN_BYTES	(2u << 20)

struct hm_dseg {
	char			*path;
	int			fd;
	bool			done;
	u64			pos, end, size;	/* read position, data end, file size */
	struct hm_zstream	*z;
	u64			zlast_off, zpre_off;
};

struct hm_rdir {
	struct hm_dseg	*seg;
	u32		nr, cur;
	u64		turn;		/* bytes of the current turn */
};

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static int add_seg(struct hm_rdir *d, char *path, int fd, u64 size)
{
	struct hm_dseg *s = realloc(d->seg, (d->nr + 1) * sizeof(*s));

	if (!s)
		return -ENOMEM;
	d->seg = s;
	s[d->nr++] = (struct hm_dseg){ .path = path, .fd = fd, .end = size, .size = size };
	return 0;
}

void hm_dir__delete(struct hm_reader *r)
{
	struct hm_rdir *d = r->dir;

	if (!d)
		return;
	/* the current file's stream is the reader's (r->z): it deletes that one */
	for (u32 i = 0; i < d->nr; i++) {
		if (d->seg[i].fd >= 0)
			close(d->seg[i].fd);
		if (d->seg[i].z != r->z)
			hm_zstream__delete(d->seg[i].z);
		free(d->seg[i].path);
	}
	free(d->seg);
	free(d);
	r->dir = NULL;
	r->fd = -1;
	r->where = NULL;
}

int hm_dir__open(struct hm_reader *r, const char *dir)
{
	struct hm_rdir *d = calloc(1, sizeof(*d));
	struct dirent *de;
	DIR *dp = NULL;
	char *p;
	int fd, err;

	if (!d)
		return -ENOMEM;
	r->dir = d;
	p = join(dir, "data");
	if (!p)
		return -ENOMEM;
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		hm_err("%s: a folder without a \"data\" file (%s): not a perf.data directory "
		       "(perf record --threads writes one); pass a perf.data file or such a "
		       "folder", dir, strerror(-err));
		free(p);
		return err;
	}
	/* segment 0: the data section of "data", set up when its header is read */
	err = add_seg(d, p, fd, 0);
	if (err) {
		close(fd);
		free(p);
		return err;
	}
	r->fd = fd;		/* closed with the segments, not as own_fd */
	r->where = p;
	dp = opendir(dir);
	if (!dp) {
		err = -errno;
		hm_err("%s: cannot list the folder: %s", dir, strerror(-err));
		return err;
	}
	/* in readdir's order, as perf_data__open_dir takes them */
	while ((de = readdir(dp))) {
		struct stat st;

		if (strncmp(de->d_name, "data.", 5))
			continue;
		p = join(dir, de->d_name);
		if (!p) {
			err = -ENOMEM;
			goto out;
		}
		if (stat(p, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
			free(p);	/* perf opens it and skips an empty one */
			continue;
		}
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			hm_err("%s: cannot open: %s", p, strerror(-err));
			free(p);
			goto out;
		}
		err = add_seg(d, p, fd, st.st_size);
		if (err) {
			close(fd);
			free(p);
			goto out;
		}
	}
	err = 0;
	hm_debug("reader: %s: a perf.data folder of %u files", dir, d->nr);
out:
	closedir(dp);
	return err;
}

u32 hm_dir__nr_files(const struct hm_reader *r)
{
	return r->dir ? r->dir->nr : 0;
}

void hm_dir__account(struct hm_reader *r, u64 n)
{
	r->dir->turn += n;
}

bool hm_dir__due(const struct hm_reader *r)
{
	return r->dir->turn >= TURN_BYTES;
}

/* Keep the reader's state of the current file in its segment. */
static void seg_save(struct hm_reader *r, struct hm_dseg *s)
{
	s->pos = r->buf_off + r->head;
	s->end = r->data_end;
	s->size = r->file_size;
	s->z = r->z;
	s->zlast_off = r->zlast_off;
	s->zpre_off = r->zpre_off;
}

static void seg_load(struct hm_reader *r, struct hm_dseg *s)
{
	r->fd = s->fd;
	r->file_size = s->size;
	r->data_end = s->end;
	r->data_end_known = true;
	r->buf_off = s->pos;
	r->head = r->len = 0;
	r->eof = false;
	r->z = s->z;
	r->zlast_off = s->zlast_off;
	r->zpre_off = s->zpre_off;
	r->where = s->path;
}

bool hm_dir__file(const struct hm_reader *r, u32 i, int *fd, u64 *pos, u64 *end)
{
	const struct hm_rdir *d = r->dir;

	if (i >= d->nr || d->seg[i].done)
		return false;
	if (i == d->cur) {
		*fd = r->fd;
		*pos = r->buf_off + r->head;
		*end = r->data_end;
	} else {
		*fd = d->seg[i].fd;
		*pos = d->seg[i].pos;
		*end = d->seg[i].end;
	}
	return true;
}

bool hm_dir__zlast(const struct hm_reader *r, u32 i, u64 *off)
{
	const struct hm_rdir *d = r->dir;
	bool cur = i == d->cur;

	if (i >= d->nr || !(cur ? r->z : d->seg[i].z))
		return false;
	*off = cur ? r->zlast_off : d->seg[i].zlast_off;
	return true;
}

int hm_dir__switch(struct hm_reader *r, bool done)
{
	struct hm_rdir *d = r->dir;
	struct hm_dseg *s = &d->seg[d->cur];
	u32 i;

	seg_save(r, s);
	d->turn = 0;
	if (done) {
		/* its stream ended at a frame's end (the caller checked): freed now */
		s->done = true;
		close(s->fd);
		s->fd = -1;
		hm_zstream__delete(s->z);
		s->z = r->z = NULL;
	}
	for (i = 1; i <= d->nr; i++) {
		u32 k = (d->cur + i) % d->nr;

		if (!d->seg[k].done) {
			d->cur = k;
			seg_load(r, &d->seg[k]);
			return 1;
		}
	}
	/* every file read: the reader keeps the last one's state */
	seg_load(r, s);
	r->eof = true;
	return 0;
}
