// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_convert: read a perf.data with the reader, write it again with the
 * writer in another form (file or pipe mode, plain or zstd, either byte
 * order).  One pass, streaming: memory does not grow with records.  In pipe
 * input the events and features come as records before the first kernel
 * record; the writer starts there, and for file output the header is set
 * again at the end so that late HEADER_BUILD_ID records are kept.  AUX
 * trace data (AUXTRACE_INFO, AUXTRACE with its payload, AUXTRACE_ERROR) is
 * copied as it is; decoding it is the reader's business, not the copy's.
 * A perf.data folder as output (hm_convert_opts.dir): convert-dir.c makes
 * its files and says which one each record goes to; the events go to every
 * file, the header to "data".
 */
#include <errno.h>
#include <string.h>

#include <stdlib.h>

#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include "perfdata/convert-dir.h"
#include "perfdata/writer-int.h"

struct conv {
	struct hm_reader	*r;
	struct hm_writer	*w;		/* the file, or a folder's "data" */
	struct hm_dirout	*dir;		/* a folder: its files */
	const struct hm_convert_opts *o;
	struct hm_convert_stats	*st;
	const char		*in, *out;
	bool			started;
};

/*
 * The header for the writer.  hitmap's metadata is kept raw in the input's
 * byte order and the writer takes it native: re-serialize it from a
 * swapped input.  The copy is shallow (set_header copies what it keeps).
 */
static int set_header(struct conv *c)
{
	const struct hm_header *h = hm_reader__header(c->r);
	struct hm_header copy;
	struct hm_meta *m;
	void *buf = NULL;
	u64 size = 0;
	int ret;

	if (!h->needs_swap || !h->hitmap_meta || !h->hitmap_meta_size)
		return hm_writer__set_header(c->w, h);
	copy = *h;
	m = hm_meta__parse(h->hitmap_meta, h->hitmap_meta_size, true);
	if (!m || hm_meta__serialize(m, &buf, &size)) {
		hm_warn("%s: hitmap metadata does not parse; left out", c->in);
		buf = NULL;
		size = 0;
	}
	hm_meta__delete(m);
	copy.hitmap_meta = buf;
	copy.hitmap_meta_size = size;
	ret = hm_writer__set_header(c->w, &copy);
	free(buf);
	return ret;
}

/* The files written: one, or a folder's "data" and data.N */
static u32 nr_writers(const struct conv *c)
{
	return c->dir ? hm_dirout__nr_writers(c->dir) : 1;
}

static struct hm_writer *writer(const struct conv *c, u32 i)
{
	return c->dir ? hm_dirout__writer(c->dir, i) : c->w;
}

/* The output options on one of the writers. */
static int setup(struct conv *c, struct hm_writer *w)
{
	int ret;

	hm_writer__features_as_given(w);
	ret = c->o->swap ? hm_writer__set_swap(w, true) : 0;
	if (!ret)
		ret = hm_writer__set_pipe(w, c->o->pipe);
	if (!ret)
		ret = hm_writer__set_compression(w, c->o->comp_level, c->o->compressed2);
	return ret;
}

/*
 * A folder: made when the header is known (a pipe's NRCPUS comes as a
 * record), so that data.N can default to one per CPU, as perf --threads.
 */
static int open_dir(struct conv *c)
{
	const struct hm_header *h = hm_reader__header(c->r);
	u32 n = c->o->dir_files;
	int ret = 0;

	if (!n)
		n = h->nr_cpus_online ? h->nr_cpus_online : h->nr_cpus_avail ? h->nr_cpus_avail : 1;
	if (n > HM_CONVERT_DIR_MAX) {
		hm_warn("%s: %u CPUs; the folder gets %u data.N files (CPU c in data.(c %% %u))",
			c->in, n, HM_CONVERT_DIR_MAX, HM_CONVERT_DIR_MAX);
		n = HM_CONVERT_DIR_MAX;
	}
	c->dir = hm_dirout__new(c->out, n);
	if (!c->dir)
		return errno ? -errno : -EIO;
	c->w = hm_dirout__writer(c->dir, 0);
	c->st->dir_files = n;
	for (u32 i = 0; !ret && i < nr_writers(c); i++)
		ret = setup(c, writer(c, i));
	return ret;
}

static int start(struct conv *c)
{
	const struct hm_header *h = hm_reader__header(c->r);
	int i, n = hm_reader__nr_evsels(c->r), ret;

	if (!n) {
		hm_err("%s: no events (attrs) before the first record; the input is not a perf.data with samples",
		       c->in);
		return -EINVAL;
	}
	if (c->o->dir && !c->dir) {
		ret = open_dir(c);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		const struct hm_evsel *e = hm_reader__evsel(c->r, i);

		if (!i)
			c->st->in_attr_size = e->file_attr_size;
		for (u32 k = 0; k < nr_writers(c); k++) {
			ret = hm_writer__add_evsel(writer(c, k), &e->attr, e->name, e->ids,
						   e->nr_ids);
			if (ret < 0)
				return ret;
		}
	}
	ret = set_header(c);
	if (ret)
		return ret;
	c->st->tracing_data = h->tracing_data && h->tracing_data_size;
	c->started = true;
	return 0;
}

/*
 * AUXTRACE and the AUX data after it (Intel PT, Arm SPE ...): the bytes as
 * they came (the trace's own format), the record in the output's byte
 * order; the writer indexes it (the AUXTRACE feature) in file mode.
 */
static int copy_auxtrace(struct conv *c, struct hm_writer *w, const struct hm_event *ev)
{
	int ret;

	if (ev->size != 48 || !ev->aux) {
		hm_err("%s: offset %llu: AUXTRACE record of %u bytes (perf writes 48); the file is corrupt",
		       c->in, (unsigned long long)ev->file_offset, ev->size);
		return -EINVAL;
	}
	ret = hm_writer__write_auxtrace(w, ev->data, ev->size, ev->aux, ev->aux_size);
	if (ret)
		return ret;
	c->st->records++;
	c->st->aux_records++;
	c->st->aux_bytes += ev->aux_size;
	return 0;
}

static int copy(struct conv *c, const struct hm_event *ev)
{
	struct hm_writer *w = c->w;
	int ret;

	switch (ev->type) {
	case HM_RECORD_COMPRESSED:
	case HM_RECORD_COMPRESSED2:
		c->st->in_compressed = true;	/* the records inside come next */
		return 0;
	case HM_RECORD_HEADER_ATTR:
	case HM_RECORD_HEADER_EVENT_TYPE:
	case HM_RECORD_HEADER_TRACING_DATA:
	case HM_RECORD_HEADER_FEATURE:
		return 0;	/* pipe-mode header: becomes the output's header */
	case HM_RECORD_EVENT_UPDATE:
		/* NAME: the name is the event's; the writer names events itself */
		if (ev->size >= 24 && ((const u64 *)ev->data)[1] == 2)
			return 0;
		break;
	case HM_RECORD_HEADER_BUILD_ID:
		/*
		 * Before the data: part of the header.  Later (perf inject -b):
		 * file output takes them at close from the header; pipe output
		 * passes them on.
		 */
		if (!c->started || !c->o->pipe)
			return 0;
		break;
	default:
		break;
	}
	if (!c->started) {
		ret = start(c);
		if (ret)
			return ret;
	}
	if (c->dir && !(w = hm_dirout__route(c->dir, ev)))
		return 0;	/* FINISHED_ROUND: a folder has none */
	if (ev->type == HM_RECORD_AUXTRACE)
		return copy_auxtrace(c, w, ev);
	if (ev->type == PERF_RECORD_SAMPLE && c->o->swap) {
		if (!ev->has_sample || !ev->sample.evsel) {
			c->st->dropped++;
			return 0;
		}
		ret = hm_writer__write_sample(w, ev->sample.evsel->idx, &ev->sample);
	} else {
		if (!hm_writer__swappable(w, ev->data, ev->size)) {
			c->st->dropped++;
			return 0;
		}
		ret = hm_writer__write(w, ev->data, ev->size);
	}
	if (ret)
		return ret;
	c->st->records++;
	c->st->dir_main_records += c->dir && w == c->w;
	c->st->samples += ev->type == PERF_RECORD_SAMPLE;
	return 0;
}

int hm_convert(const char *in, const char *out, const struct hm_convert_opts *o,
	       struct hm_convert_stats *st)
{
	struct hm_reader_opts ro = { .ordered = false, .all_records = true, .aux_payload = true };
	struct hm_convert_stats dummy;
	struct conv c = { .o = o, .in = in, .out = out };
	const struct hm_header *h;
	struct hm_event ev;
	int ret;

	if (!in || !out || !o || (o->dir && (o->pipe || o->out_fd >= 0)))
		return -EINVAL;
	c.st = st ? st : &dummy;
	memset(c.st, 0, sizeof(*c.st));
	c.r = hm_reader__new(in, &ro);
	if (!c.r)
		return errno ? -errno : -EINVAL;
	h = hm_reader__header(c.r);
	c.st->in_pipe = h->pipe;
	c.st->in_swap = h->needs_swap;
	if (!o->dir) {
		c.w = o->out_fd >= 0 ? hm_writer__new_fd(o->out_fd, out) : hm_writer__new(out);
		if (!c.w) {
			ret = errno ? -errno : -EIO;
			goto out_reader;
		}
		ret = setup(&c, c.w);
	} else {
		ret = h->pipe ? 0 : open_dir(&c);
	}
	if (!ret && !h->pipe)
		ret = start(&c);
	while (!ret && (ret = hm_reader__next(c.r, &ev)) == 1)
		ret = copy(&c, &ev);
	if (!ret && !hm_reader__nr_evsels(c.r)) {
		/* a pipe stream without HEADER_ATTR: the output would name no event */
		hm_err("%s: the input names no event (no HEADER_ATTR record before its end); "
		       "there is nothing perf could read, so %s is not written", in, out);
		ret = -EINVAL;
	}
	if (!ret && !c.started)
		ret = start(&c);
	if (!ret && !o->pipe)
		ret = set_header(&c);	/* late build ids, pipe input */
	if (!ret)
		ret = c.dir ? hm_dirout__close(c.dir) : hm_writer__close(c.w);
	for (u32 i = 0; i < (c.w ? nr_writers(&c) : 0); i++) {
		u64 raw, comp;

		hm_writer__comp_stats(writer(&c, i), &raw, &comp);
		c.st->raw_bytes += raw;
		c.st->comp_bytes += comp;
	}
	if (c.dir)
		hm_dirout__delete(c.dir);
	else
		hm_writer__delete(c.w);
out_reader:
	hm_reader__delete(c.r);
	return ret;
}
