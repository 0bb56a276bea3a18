// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data streaming reader.
 *
 * Layers, bottom up (one file each, each calling only those below it):
 *   reader-state.c   errors, events and their ids, scratch;
 *   reader-input.c   a fixed window over the file, pipe or memory, and the
 *                    records of COMPRESSED payloads (zstd, compress.c);
 *   reader-dir.c     perf's directory format: its files by turns;
 *   reader-header.c  the file-mode header, features (features.c), metadata;
 *   reader-swap.c    records of the other byte order, swapped to native;
 *   reader-record.c  per record: stats, header side effects (HEADER_ATTR,
 *                    FEATURE, ID_INDEX, ...), and the decode of the sample or
 *                    sample_id_all trailer (sample.c);
 *   reader-ahead.c   the records ahead timed, for the queue's early hand-out;
 *   reader-order.c   optional: samples sorted by time within FINISHED_ROUND
 *                    rounds, exactly as perf's ordered_events;
 *   reader.c         opening, closing and hm_reader__next.
 *
 * Every error names the file and the offset; the record stream stops there.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "reader-int.h"
#include "spe.h"
#include "util/errhint.h"

/*
 * The read window: records (at most 64 KiB each) are read from it right
 * after the read copied them there, so it is kept small enough to stay in
 * the core's cache (1 MiB cost 10% more CPU in hitmap stat than 256 KiB).
 */
#define WINDOW		(256u << 10)

const struct hm_header *hm_reader__header(const struct hm_reader *r) { return &r->h; }
int hm_reader__nr_evsels(const struct hm_reader *r) { return r->nr_ev; }
const char *hm_reader__path(const struct hm_reader *r) { return r->path; }
const char *hm_reader__name_of(const char *path) { return path && !strcmp(path, "-") ? "<stdin>" : path; }
const struct hm_reader_stats *hm_reader__stats(const struct hm_reader *r) { return &r->st; }

const struct hm_evsel *hm_reader__evsel(const struct hm_reader *r, int idx)
{
	if (idx < 0 || idx >= r->nr_ev)
		return NULL;
	return r->ev[idx];
}

static int open_common(struct hm_reader *r)
{
	u8 hb[104];
	u64 magic, hsize;
	int ret;

	r->data_end = UINT64_MAX;
	r->next_flush = 0;
	if (!r->mem) {
		r->buf = malloc(WINDOW);
		if (!r->buf)
			return -ENOMEM;
		r->cap = WINDOW;
	}
	if (r->mem) {
		r->buf = (u8 *)r->mem;
		r->len = r->file_size;
	}
	ret = hm_reader__win_ensure(r, 16);
	if (ret < 0)
		return hm_reader__fail(r, ret, 0, "cannot read: %s", strerror(-ret));
	if (!ret)
		return hm_reader__fail(r, -EINVAL, 0, "too short for a perf.data header (%zu "
				       "bytes); not a perf.data file", r->len - r->head);
	if (!memcmp(r->buf + r->head, "PERFFILE", 8))
		return hm_reader__fail(r, -EPROTONOSUPPORT, 0, "old perf.data format v1 (PERFFILE, "
				       "perf < 3.x) is unsupported; convert it with a newer perf "
				       "(perf inject -i FILE -o NEW)");
	magic = hm_ld64(r->buf + r->head);
	if (magic == HM_PERF_MAGIC2)
		r->h.needs_swap = false;
	else if (magic == HM_PERF_MAGIC2_SW)
		r->h.needs_swap = true;
	else
		return hm_reader__fail(r, -EINVAL, 0, "bad magic %016" PRIx64 "; not a perf.data "
				       "file (expected PERFILE2)", magic);
	hsize = hm_sw64(hm_ld64(r->buf + r->head + 8), r->h.needs_swap);
	if (hsize == 16) {
		r->h.pipe = true;
		r->head += 16;
		return 0;
	}
	if (!r->mem && !r->seekable)
		return hm_reader__fail(r, -EINVAL, 0, "a file-mode perf.data cannot be streamed "
				       "from a pipe; pass it as -i FILE, or record with -o - for "
				       "pipe mode");
	ret = hm_reader__win_ensure(r, 72);
	if (ret <= 0)
		return hm_reader__fail(r, ret < 0 ? ret : -EINVAL, 0, "file ends inside the "
				       "perf.data header");
	memset(hb, 0, sizeof(hb));
	memcpy(hb, r->buf + r->head, r->len - r->head < 104 ? r->len - r->head : 104);
	ret = hm_reader__read_file_header(r, hb, hsize);
	if (ret)
		return ret;
	/* position the window at the data section */
	if (r->mem) {
		r->head = r->data_start;
		r->len = r->file_size < r->data_end ? r->file_size : r->data_end;
		if (r->head > r->len)
			r->head = r->len;
	} else {
		r->head = r->len = 0;
		r->buf_off = r->data_start;
		r->eof = false;
	}
	return 0;
}

static struct hm_reader *reader_alloc(const char *path, const struct hm_reader_opts *opts)
{
	struct hm_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->fd = -1;
	memset(r->last_idx, 0xff, sizeof(r->last_idx));
	r->path = strdup(path);
	if (!r->path) {
		free(r);
		return NULL;
	}
	if (opts) {
		r->opts = *opts;
	} else {
		r->opts.all_records = true;
	}
	r->ordered = r->opts.ordered;
	hm_order__init(r);
	return r;
}

/* open_common(), saying nothing with opts.quiet */
static int quiet_open(struct hm_reader *r)
{
	int err;

	if (!r->opts.quiet)
		return open_common(r);
	hm_log__quiet(1);
	err = open_common(r);
	hm_log__quiet(0);
	return err;
}

struct hm_reader *hm_reader__new(const char *path, const struct hm_reader_opts *opts)
{
	struct hm_reader *r;
	struct stat st;
	int err;

	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	r = reader_alloc(hm_reader__name_of(path), opts);
	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	if (!strcmp(path, "-")) {
		r->fd = 0;
	} else if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		/* perf record --threads: a folder of files (reader-dir.c) */
		err = hm_dir__open(r, path);
		if (err)
			goto fail;
		r->opts.zstd_ahead = false;	/* a stream a file, none ahead */
	} else {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			err = -errno;
			hm_err("%s: cannot open: %s%s", path, strerror(-err), hm_hint__open(-err));
			goto fail;
		}
		r->own_fd = true;
	}
	r->file_size = UINT64_MAX;
	if (!fstat(r->fd, &st) && S_ISREG(st.st_mode)) {
		off_t at = lseek(r->fd, 0, SEEK_CUR);

		r->seekable = true;
		r->file_size = st.st_size;
		if (at > 0) {
			/* stdin redirected into the middle of a file: read from there */
			r->seekable = false;
			r->file_size = UINT64_MAX;
		}
	}
	/*
	 * A file is read through the read window (WINDOW bytes a read);
	 * with HITMAP_MMAP set, a regular file is mapped read-only instead:
	 * records are decoded where they lie, neither copied into the window
	 * nor into the ordering queue, and the pages read are dropped behind
	 * the reader (hm_order__release).  The copies cost less than the
	 * mapping's page faults and drops where those are dear (measured on a
	 * 2-CPU VM, same binary, interleaved: stat of an 84 MB file 68-71 ms
	 * read, 118-122 ms mapped; report --threads 1 223-237 / 279-304 ms;
	 * the 20M-sample file 3.4-4.1 / 4.9-6.0 s, with two threads 1.9-2.8
	 * / 2.9-3.6 s; with threads each drop also flushes the other CPUs'
	 * TLBs).
	 * Where faults are cheap (bare metal) the two should come close; that
	 * is not measured here.  Like perf's own
	 * reader, a mapped file cut shorter while it is read ends the process
	 * (SIGBUS).
	 */
	if (r->seekable && !r->dir && r->file_size > 0 && r->file_size <= SIZE_MAX &&
	    getenv("HITMAP_MMAP")) {
		void *m = mmap(NULL, r->file_size, PROT_READ, MAP_PRIVATE, r->fd, 0);

		if (m != MAP_FAILED) {
			r->mem = m;
			r->mapped = true;
			hm_debug("reader: %s: mapped (%" PRIu64 " bytes)", r->path, r->file_size);
		}
	}
	err = quiet_open(r);
	if (err)
		goto fail;
	if (!r->dir && !r->opts.quiet && hm_header__has_feat(&r->h, HM_FEAT_DIR_FORMAT))
		hm_warn("%s: the header file of a perf.data folder (DIR_FORMAT, perf record "
			"--threads): the samples in the data.N files beside it are left out; "
			"pass the folder instead", r->path);
	return r;
fail:
	hm_reader__delete(r);
	errno = -err;
	return NULL;
}

struct hm_reader *hm_reader__new_mem(const void *buf, size_t size, const struct hm_reader_opts *opts)
{
	struct hm_reader *r = reader_alloc("<memory>", opts);
	int err;

	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->mem = buf ? buf : (const u8 *)"";
	r->file_size = size;
	r->seekable = true;
	err = quiet_open(r);
	if (err) {
		hm_reader__delete(r);
		errno = -err;
		return NULL;
	}
	return r;
}

void hm_reader__delete(struct hm_reader *r)
{
	if (!r)
		return;
	if (r->st.queue_peak)
		hm_debug("reader: %s: the ordering queue held %" PRIu64 " bytes at most "
			 "(in %" PRIu64 " bytes of chunks)", r->path, r->st.queue_peak,
			 r->st.queue_mem);
	hm_ahead__delete(r);
	hm_dir__delete(r);
	if (r->own_fd && r->fd >= 0)
		close(r->fd);
	if (r->mapped)
		munmap((void *)r->mem, r->file_size);
	else if (!r->mem)
		free(r->buf);
	for (int i = 0; i < r->nr_ev; i++) {
		free(r->ev[i]->name);
		free(r->ev[i]->ids);
		free(r->ev[i]);
	}
	free(r->ev);
	hm_reader__free_desc(r);
	hm_idmap__exit(&r->ids);
	hm_header__release(&r->h);
	hm_zstream__delete(r->z);
	free(r->scratch);
	free(r->tmp);
	hm_spe__delete(r->spe);
	hm_order__exit(r);
	free(r->path);
	free(r);
}

/* ------------------------------------------------------------------ next */

static int next_event(struct hm_reader *r, struct hm_event *ev);

int hm_reader__next(struct hm_reader *r, struct hm_event *ev)
{
	int ret;

	if (!r->opts.quiet)
		return next_event(r, ev);
	hm_log__quiet(1);
	ret = next_event(r, ev);
	hm_log__quiet(0);
	return ret;
}

static int next_event(struct hm_reader *r, struct hm_event *ev)
{
	for (;;) {
		const u8 *raw = NULL, *nat;
		u32 size = 0;
		u64 off = 0;
		bool compressed = false;
		int ret;

		if (r->ordered) {
			ret = hm_order__pop(r, ev);
			if (ret)
				return ret;
		}
		if (r->spe && hm_spe__next(r->spe, &nat, &size, &off))
			goto have;	/* a sample decoded from Arm SPE AUX data */
		if (r->done)
			return r->err;
		ret = hm_reader__next_raw(r, &raw, &size, &off, &compressed);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			r->done = true;
			if (r->ordered) {
				ret = hm_order__drain(r, off);
				if (ret < 0)
					return ret;
				if (ret)
					continue;
			}
			return 0;
		}
		/* native and aligned (most records): as is */
		nat = !r->h.needs_swap && !((uintptr_t)raw & 7) ? raw :
		      hm_reader__nativize(r, raw, size, off, &ret);
		if (!nat)
			return ret;
		/* a record that may change what the held ones mean comes after them */
		if (r->hold_on && hm_ld32(nat) != PERF_RECORD_SAMPLE &&
		    hm_ld32(nat) != HM_RECORD_FINISHED_ROUND && (ret = hm_order__unhold(r)) < 0)
			return ret;
		ret = hm_reader__ingest(r, raw, nat, size, off, compressed);
		if (ret)
			return ret;
have:
		/* ingest may have reused the scratch copy (never for kernel records) */
		if (r->ordered) {
			ret = hm_order__queue(r, nat, size, off, compressed);
			if (ret < 0)
				return ret;
			if (ret)
				continue;
		}
		if (!r->opts.all_records && hm_ld32(nat) != PERF_RECORD_SAMPLE)
			continue;
		ret = hm_reader__decode(r, nat, size, off, compressed, ev);
		if (ret)
			return ret;
		r->st.bytes += size;
		return 1;
	}
}
