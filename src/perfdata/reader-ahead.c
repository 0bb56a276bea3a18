// SPDX-License-Identifier: GPL-2.0-only
/*
 * How early the ordering queue may hand a record out without changing
 * perf's order.
 *
 * perf's ordered_events keeps every timed record until a FINISHED_ROUND
 * flushes those not later than the round before's last time, or until the
 * end flushes the rest: it has no size limit (max_alloc_size is unlimited
 * unless `perf report --queue-size` sets one; perf c2c and perf script set
 * none).  A round can be large (a pass over every CPU's ring buffer), and
 * a file without FINISHED_ROUND (perf's directory format, other writers)
 * is one round.  To keep memory bounded, a queue past ORDER_MAX_BYTES
 * hands out early what perf would hand out in the same place anyway: the
 * queued records of the coming flush whose time is not later than any
 * record still to be read before that flush.  A later one of the same time
 * goes after them in perf's queue too.
 *
 * The records still to be read are walked once (headers and times, a
 * block of 64 KiB at a time, from the read position to the next
 * FINISHED_ROUND, or to the end of every file of a folder) and each block
 * keeps the least time from it to that end.  The bound at a read position
 * is its block's: records of the block already read count too, which only
 * makes it smaller.  In a folder each file's COMPRESSED payloads are
 * decompressed by the walk too (each file is one zstd stream, walked from
 * its start), their records noted at their COMPRESSED record's block.
 * What the walk cannot see makes the bound 0 (nothing handed out early,
 * the queue grows as perf's does): records inside COMPRESSED payloads of
 * a single file (its one zstd stream cannot be entered midway), a stream that is not a file (stdin from a pipe), a
 * pipe-mode record of an event not known yet, a file of the other byte
 * order, Arm SPE.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <hitmap/log.h>
#include "reader-int.h"

#define BLOCK_SHIFT	16
#define SCAN_CHUNK	(1u << 20)

/* One file's stretch still to be read: the least time from each block on. */
struct hm_astream {
	u64	from, to;	/* file offsets: the walk's start and end */
	u64	*min;		/* per block of 64 KiB from @from: least time from it to @to */
	u64	nr;
};

struct hm_ahead {
	struct hm_astream	*s;	/* one per file (a folder: per file of it) */
	u32			nr;
	bool			final;	/* no FINISHED_ROUND before the end */
	bool			blind;	/* the walk met what it cannot time: no limit */
};

void hm_ahead__delete(struct hm_reader *r)
{
	struct hm_ahead *a = r->ahead;

	if (!a)
		return;
	for (u32 i = 0; i < a->nr; i++)
		free(a->s[i].min);
	free(a->s);
	free(a);
	r->ahead = NULL;
}

/*
 * Walk @fd from @from to @to (or the first FINISHED_ROUND: *@round set).
 * 1: @st filled; 0: a record the walk cannot time (COMPRESSED, a
 * FINISHED_ROUND in a folder); <0 errno.
 */
/* Note @ts for the block of file offset @at. */
static void note(struct hm_astream *st, u64 at, u64 ts)
{
	u64 b = (at - st->from) >> BLOCK_SHIFT;

	if (ts != UINT64_MAX && b < st->nr && ts < st->min[b])
		st->min[b] = ts;
}

/*
 * The time of one record of the file (or of a COMPRESSED payload): 0 when
 * it may be queued at a time not seen here, UINT64_MAX when never queued.
 */
static u64 rec_ts(struct hm_reader *r, const u8 *p, u32 t, u32 sz)
{
	struct hm_evsel *e;
	u64 ts;

	if (!hm_record__is_kernel(t))
		return UINT64_MAX;	/* no time: not queued */
	ts = hm_reader__rec_time(r, p, sz, t, &e);
	/* a pipe's event not known yet may come before the record: unseen */
	if (!e && r->h.pipe)
		return 0;
	return ts == (u64)-1 ? UINT64_MAX : ts;
}

/*
 * The records of one COMPRESSED payload (@z: the file's own stream, from
 * its first COMPRESSED record on), noted at the block of @at.  1, 0: a
 * record that cannot be timed, <0 errno.
 */
static int walk_payload(struct hm_reader *r, struct hm_zstream *z, const u8 *d, u64 n,
			struct hm_astream *st, u64 at)
{
	int ret = hm_zstream__feed(z, d, n);

	if (ret)
		return ret;
	for (;;) {
		u8 *p;
		size_t avail;
		u32 t, sz;

		ret = hm_zstream__ensure(z, 8, &p, &avail);
		if (ret <= 0)
			return ret < 0 ? 0 : 1;		/* corrupt: the reader says so */
		sz = hm_ld16(p + 6);
		if (sz < 8)
			return 0;
		ret = hm_zstream__ensure(z, sz, &p, &avail);
		if (ret <= 0)
			return ret < 0 ? 0 : 1;		/* the rest comes with the next one */
		t = hm_ld32(p);
		if (t == HM_RECORD_AUXTRACE || t == HM_RECORD_FINISHED_ROUND ||
		    t == HM_RECORD_COMPRESSED || t == HM_RECORD_COMPRESSED2)
			return 0;
		note(st, at, rec_ts(r, p, t, sz));
		hm_zstream__consume(z, sz);
	}
}

static int walk(struct hm_reader *r, int fd, u64 from, u64 to, bool stop_at_round,
		struct hm_astream *st, bool *round)
{
	struct hm_zstream *z = NULL;	/* a folder's file: its COMPRESSED payloads read too */
	u64 nblk = to > from ? ((to - from) >> BLOCK_SHIFT) + 1 : 0, at = from, i;
	u8 *buf = malloc(SCAN_CHUNK + 65536);
	size_t have = 0, pos = 0;
	u64 base = from;	/* file offset of buf[0] */
	int ret = 1;

	st->min = malloc((nblk ? nblk : 1) * sizeof(*st->min));
	if (!buf || !st->min) {
		free(buf);
		return -ENOMEM;
	}
	for (i = 0; i < nblk; i++)
		st->min[i] = UINT64_MAX;
	st->from = from;
	st->nr = nblk;
	while (at < to) {
		u32 t, sz;
		u64 ts;

		if (have - pos < 8 || have - pos < hm_ld16(buf + pos + 6)) {
			ssize_t got;
			size_t want;

			memmove(buf, buf + pos, have - pos);
			have -= pos;
			base += pos;
			pos = 0;
			want = SCAN_CHUNK + 65536 - have;
			if (want > to - (base + have))
				want = to - (base + have);
			got = fd >= 0 ? pread(fd, buf + have, want, base + have) :
			      hm_reader__src_read(r, buf + have, want, base + have);
			if (got < 0) {
				ret = -errno;
				break;
			}
			have += got;
			if (have - pos < 8 || have - pos < hm_ld16(buf + pos + 6)) {
				ret = 0;	/* cut short: the reader says so when it gets there */
				break;
			}
		}
		t = hm_ld32(buf + pos);
		sz = hm_ld16(buf + pos + 6);
		if (sz < 8) {
			ret = 0;
			break;
		}
		if (t == HM_RECORD_FINISHED_ROUND) {
			if (!stop_at_round) {
				ret = 0;
				break;
			}
			*round = true;
			to = at;
			break;
		}
		if ((t == HM_RECORD_COMPRESSED || t == HM_RECORD_COMPRESSED2) && !r->dir) {
			/*
			 * One zstd stream runs through a file's COMPRESSED records:
			 * a walk from the middle cannot decompress them (times unseen)
			 */
			ts = 0;
		} else if (t == HM_RECORD_COMPRESSED || t == HM_RECORD_COMPRESSED2) {
			const u8 *d = buf + pos + 8;
			u64 n = sz - 8u;

			if (t == HM_RECORD_COMPRESSED2) {
				if (sz < 16 || (n = hm_ld64(buf + pos + 8)) > sz - 16u) {
					ret = 0;
					break;
				}
				d += 8;
			}
			if (!z && !(z = hm_zstream__new(false))) {
				ret = -ENOMEM;
				break;
			}
			ret = walk_payload(r, z, d, n, st, at);
			if (ret <= 0)
				break;
			ts = UINT64_MAX;
		} else {
			ts = rec_ts(r, buf + pos, t, sz);
		}
		note(st, at, ts);
		pos += sz;
		at += sz;
		if (t == HM_RECORD_AUXTRACE && sz >= 16) {
			u64 n = hm_ld64(buf + pos - sz + 8);

			/* its payload follows: skipped */
			if (n > to - at) {
				ret = 0;
				break;
			}
			at += n;
			base = at;
			have = pos = 0;
		} else if (t == HM_RECORD_HEADER_TRACING_DATA) {
			ret = 0;
			break;
		}
	}
	free(buf);
	hm_zstream__delete(z);
	st->to = to;
	if (ret <= 0)
		return ret;
	if (!nblk)
		return 1;
	/* least time from each block to the end */
	for (i = nblk - 1; i > 0; i--)
		if (st->min[i] < st->min[i - 1])
			st->min[i - 1] = st->min[i];
	return 1;
}

/* The least time of what is left of @st at file offset @pos. */
static u64 stream_min(const struct hm_astream *st, u64 pos)
{
	u64 b;

	if (pos >= st->to)
		return UINT64_MAX;
	if (pos < st->from)
		return 0;
	b = (pos - st->from) >> BLOCK_SHIFT;
	return b < st->nr ? st->min[b] : UINT64_MAX;
}

/* The walk from the read position on: 1 done, 0 cannot, <0 errno. */
static int ahead_build(struct hm_reader *r)
{
	struct hm_ahead *a = calloc(1, sizeof(*a));
	u32 n = r->dir ? hm_dir__nr_files(r) : 1;
	bool round = false;
	int ret = 1;

	if (!a)
		return -ENOMEM;
	r->ahead = a;
	a->s = calloc(n, sizeof(*a->s));
	if (!a->s)
		return -ENOMEM;
	a->nr = n;
	for (u32 i = 0; i < n && ret > 0; i++) {
		int fd = -1;
		u64 from = r->buf_off + r->head, to = r->data_end;

		if (r->dir && !hm_dir__file(r, i, &fd, &from, &to)) {
			a->s[i].from = a->s[i].to = 0;	/* read already */
			continue;
		}
		/* a folder's file from its start: its zstd stream starts there */
		if (r->dir)
			from = i ? 0 : r->data_start;
		/* no further than the file goes (a corrupt size is the reader's to report) */
		if (fd >= 0) {
			struct stat sb;

			if (!fstat(fd, &sb) && (u64)sb.st_size < to)
				to = sb.st_size;
		} else if (to > r->file_size) {
			to = r->file_size;
		}
		ret = walk(r, fd, from, to, !r->dir, &a->s[i], &round);
	}
	a->final = !round;
	return ret;
}

int hm_ahead__limit(struct hm_reader *r, u64 *limit)
{
	struct hm_ahead *a;
	u64 m = UINT64_MAX;
	int ret;

	/* what the walk cannot see: records not in the file as such */
	if (r->h.needs_swap || !r->seekable || r->spe ||
	    (!r->dir && r->z && (hm_zstream__input_left(r->z) || hm_zstream__pending(r->z))))
		return 0;
	if (!r->ahead) {
		ret = ahead_build(r);
		if (ret <= 0) {
			hm_debug("reader: %s: the records ahead cannot be timed (%d): the ordering "
				 "queue holds what perf's holds", r->path, ret);
			if (r->ahead)
				r->ahead->blind = true;
			return ret;
		}
	}
	a = r->ahead;
	if (a->blind)
		return 0;
	for (u32 i = 0; i < a->nr; i++) {
		u64 pos = r->buf_off + r->head, v;

		if (r->dir) {
			int fd;
			u64 to, zoff;

			if (!hm_dir__file(r, i, &fd, &pos, &to))
				continue;
			/* records of the last COMPRESSED record read may still be handed out */
			if (hm_dir__zlast(r, i, &zoff) && zoff < pos)
				pos = zoff;
		}
		v = stream_min(&a->s[i], pos);
		if (v < m)
			m = v;
	}
	if (!a->final && r->next_flush < m)
		m = r->next_flush;
	*limit = m;
	return 1;
}
