/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_READER_INT_H
#define HITMAP_PERFDATA_READER_INT_H

/*
 * Private to the reader: src/perfdata/{reader,reader-*,sample,features,
 * compress,tracepoint,names,header}.c.  Nothing here is API.
 */
#include <byteswap.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <hitmap/perf_data.h>
#include "order-chunks.h"

#define HM_PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define HM_PERF_MAGIC2_SW	0x50455246494c4532ULL

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS	(1U << 19)
#endif
#define HM_MEM_DATA_SRC_NONE	0x5080021ULL

/* Largest feature section or pipe record payload we accept (sanity). */
#define HM_MAX_SECTION		(256ULL << 20)

static inline u16 hm_sw16(u16 v, bool sw) { return sw ? bswap_16(v) : v; }
static inline u32 hm_sw32(u32 v, bool sw) { return sw ? bswap_32(v) : v; }
static inline u64 hm_sw64(u64 v, bool sw) { return sw ? bswap_64(v) : v; }

static inline u64 hm_ld64(const void *p) { u64 v; memcpy(&v, p, 8); return v; }
static inline u32 hm_ld32(const void *p) { u32 v; memcpy(&v, p, 4); return v; }
static inline u16 hm_ld16(const void *p) { u16 v; memcpy(&v, p, 2); return v; }
static inline void hm_st64(void *p, u64 v) { memcpy(p, &v, 8); }
static inline void hm_st32(void *p, u32 v) { memcpy(p, &v, 4); }
static inline void hm_st16(void *p, u16 v) { memcpy(p, &v, 2); }

/* Swap @n bytes of u64 words in place (n rounded down to 8). */
static inline void hm_swap64_mem(void *p, size_t n)
{
	u8 *b = p;
	for (size_t i = 0; i + 8 <= n; i += 8)
		hm_st64(b + i, bswap_64(hm_ld64(b + i)));
}
static inline void hm_swap32_mem(void *p, size_t n)
{
	u8 *b = p;
	for (size_t i = 0; i + 4 <= n; i += 4)
		hm_st32(b + i, bswap_32(hm_ld32(b + i)));
}

/* ---- bounded cursor for feature sections and user records */
struct hm_cur {
	const u8	*p, *end;
	bool		sw;
	bool		err;
};

static inline bool hm_cur__has(struct hm_cur *c, u64 n)
{
	if (c->err || (u64)(c->end - c->p) < n) {
		c->err = true;
		return false;
	}
	return true;
}
static inline u32 hm_cur__u32(struct hm_cur *c)
{
	u32 v;
	if (!hm_cur__has(c, 4))
		return 0;
	v = hm_sw32(hm_ld32(c->p), c->sw);
	c->p += 4;
	return v;
}
static inline u64 hm_cur__u64(struct hm_cur *c)
{
	u64 v;
	if (!hm_cur__has(c, 8))
		return 0;
	v = hm_sw64(hm_ld64(c->p), c->sw);
	c->p += 8;
	return v;
}
static inline const u8 *hm_cur__bytes(struct hm_cur *c, u64 n)
{
	const u8 *p = c->p;
	if (!hm_cur__has(c, n))
		return NULL;
	c->p += n;
	return p;
}
static inline u64 hm_cur__left(const struct hm_cur *c)
{
	return c->err ? 0 : (u64)(c->end - c->p);
}
/* perf_header_string: u32 len; char str[len] (NUL padded).  malloc'ed copy. */
char *hm_cur__str(struct hm_cur *c);

/* ---- id -> evsel index hash */
struct hm_idmap {
	u64	*keys;
	int	*vals;		/* -1: empty */
	u32	cap, nr;
};
int hm_idmap__add(struct hm_idmap *m, u64 id, int idx);
int hm_idmap__find(const struct hm_idmap *m, u64 id);	/* -1 when absent */
void hm_idmap__exit(struct hm_idmap *m);

/* ---- sample.c */
int hm_sample__id_pos(u64 sample_type);
int hm_sample__is_pos(u64 sample_type);
/*
 * Walk a SAMPLE body (after the 8-byte header) of @size bytes; with @swap,
 * byte-swap it in place to native first.  Fills @s.  Returns 0 or -EINVAL
 * with *@bad set to the body offset where it ran out.
 */
int hm_sample__walk(const struct hm_evsel *e, void *body, u32 size, bool swap,
		    struct hm_sample *s, u32 *bad);
/* The sample_id_all trailer at the end of a non-sample record body. */
int hm_sample__walk_id(const struct hm_evsel *e, void *body, u32 size, bool swap,
		       struct hm_sample *s);
void hm_sample__init(const struct hm_evsel *e, struct hm_sample *s);
/* Branch flags of an other-byte-order file, after the u64 swap, back to native. */
u64 hm_branch_flags__unmirror(u64 v);

/*
 * ---- compress.c: one zstd stream for the whole session, decompressed
 * lazily or, with @ahead, by a thread of its own ahead of the reader
 */
struct hm_zstream;
struct hm_zstream *hm_zstream__new(bool ahead);
void hm_zstream__delete(struct hm_zstream *z);
/* Whether a thread decompresses ahead (asked for, and its ring mapped). */
bool hm_zstream__ahead(const struct hm_zstream *z);
/* Queue one compressed chunk (copied): the record the reader has reached. */
int hm_zstream__feed(struct hm_zstream *z, const void *src, size_t n);
/*
 * Ahead: queue the chunk of a record the reader has not reached yet; its
 * bytes are handed out only after hm_zstream__release (one per chunk, in
 * order, when the reader reaches its record).  1 queued, 0 not (not ahead,
 * or enough queued), negative errno.
 */
int hm_zstream__prefeed(struct hm_zstream *z, const void *src, size_t n);
void hm_zstream__release(struct hm_zstream *z);
/*
 * Make @need bytes of decompressed output available at *@out.  Returns 1 when
 * there, 0 when the chunk input ran dry first (remainder kept for the next
 * chunk), negative errno on a zstd error.  *@avail is what is there.
 */
int hm_zstream__ensure(struct hm_zstream *z, size_t need, u8 **out, size_t *avail);
void hm_zstream__consume(struct hm_zstream *z, size_t n);
/* Bytes decompressed and consumed so far (offsets in the inner stream). */
u64 hm_zstream__pos(const struct hm_zstream *z);
/* Bytes of decompressed output there now (a record straddling chunks, or ahead). */
size_t hm_zstream__pending(const struct hm_zstream *z);
bool hm_zstream__input_left(const struct hm_zstream *z);
/*
 * All input used: 0 when the stream stopped at a frame or block boundary,
 * else the compressed bytes zstd holds for a frame that never completes.
 */
u64 hm_zstream__cut(const struct hm_zstream *z);

/* ---- features.c */
struct hm_reader;
/* Parse one feature payload into the reader's header (and evsel names). */
int hm_feature__parse(struct hm_reader *r, int feat, const u8 *buf, u64 size, u64 file_off);

/* ---- tracepoint.c */
struct hm_reader;
/* Parse a TRACING_DATA blob into h->tep (replacing it).  Returns 0 or -errno. */
int hm_tracing__parse(struct hm_header *h, const u8 *buf, u64 size, u64 *used);
/* feat-bpf.c: BPF_PROG_INFO and BPF_BTF into @h (what they replace freed first) */
int hm_feat__bpf_prog_info(struct hm_header *h, struct hm_cur *c);
int hm_feat__bpf_btf(struct hm_header *h, struct hm_cur *c);
void hm_feat__bpf_progs_free(struct hm_header *h);
void hm_feat__btf_free(struct hm_header *h);
/* Attach tp_event to tracepoint evsels. */
void hm_tracing__attach(struct hm_reader *r);

/* ---- the reader's state (reader.c and reader-*.c) */
struct hm_spe;

#define HM_ID_CACHE	64
static inline u32 hm_id_cache__slot(u64 id)
{
	return (u32)((id * 0x9e3779b97f4a7c15ULL) >> 58);
}

/* One queued record of the ordering queue (reader-order.c). */
struct hm_qent {
	u64	time, file_offset;
	u32	off;		/* the record's place in the queue's chunks (unless in place) */
	int	evidx;		/* its evsel when queued (-1: none), valid while evgen is ev_gen */
	u32	evgen;
	u16	len;		/* a record's size is a u16 */
	u8	arena;
	bool	compressed;
};	/* 32 bytes: the sort moves them */

/*
 * Queued records (entries only: their bytes are in the arenas), in one
 * array: ents[rpos, rend) are ready (sorted, handed out next), ents[rend, n)
 * accumulate in arrival order after the records a flush left queued.
 */
struct hm_oq {
	struct hm_qent	*ents;
	size_t		n, cap, rpos, rend;
	bool		sorted;		/* ents[rend, n) is in time order */
	bool		has_tail;	/* a FINISHED_ROUND follows the ready records */
	struct hm_qent	tail;
};

/*
 * One round held by counts_order's delay line (reader-order.c): its
 * records, each after a struct hm_hrec, in arrival order.
 */
struct hm_hold {
	u8		*p;
	size_t		len, cap;
	size_t		qbytes;		/* its SAMPLEs' bytes as the queue counts them */
	u64		max_ts;
	u64		first_in_window;	/* its first record left in the read window */
	size_t		pos, end;	/* its SAMPLEs [pos, end), its FINISHED_ROUND at end */
};

/*
 * Past this many record bytes the ordered reader hands out early what perf
 * hands out in the same place anyway (reader-ahead.c; perf's own queue has
 * no limit); the range scan's cuts (reader-range.c) and counts_order's
 * holds stay under it.
 */
#define ORDER_MAX_BYTES	(4u << 20)


/*
 * A pipe-mode EVENT_DESC entry that came before its event: perf 4.14..4.16
 * send the HEADER_FEATURE records first, then HEADER_ATTR.  Its name goes
 * to the event that HEADER_ATTR adds later (hm_reader__name_evsel).
 */
struct hm_evdesc {
	char	*name;
	u64	id0;		/* its first id (nids 0: none, matched by position) */
	u32	nids;
};

struct hm_rdir;

struct hm_reader {
	char			*path;
	/* perf's directory format: its files (reader-dir.c); NULL: one file */
	struct hm_rdir		*dir;
	const char		*where;		/* the file errors name (NULL: path) */
	struct hm_reader_opts	opts;
	int			fd;
	bool			own_fd, seekable;
	const u8		*mem;
	u64			file_size;	/* UINT64_MAX when unknown (pipe) */
	/*
	 * mem is the file, mapped read-only (hm_reader__new): its pages below
	 * released are dropped from this process (hm_order__release), so what
	 * it holds resident stays the records not yet handed out.
	 */
	bool			mapped;
	u64			released;
	u64			release_next;	/* the head at which to try again */
	/* window */
	u8			*buf;
	size_t			cap, head, len;
	u64			buf_off;	/* file offset of buf[0] */
	u64			data_start, data_end;
	bool			data_end_known;	/* file mode: a size was declared */
	bool			eof;
	/* state */
	struct hm_header	h;
	struct hm_evsel		**ev;
	int			nr_ev, cap_ev;
	struct hm_idmap		ids;
	/* a direct-mapped cache in front of ids (an id per event and CPU) */
	u64			last_id[HM_ID_CACHE];
	int			last_idx[HM_ID_CACHE];	/* -1: empty */
	struct hm_reader_stats	st;
	struct hm_zstream	*z;
	u8			*scratch;
	size_t			scratch_cap;
	u8			*tmp;		/* big pipe payloads (TRACING_DATA) */
	bool			done;
	int			err;
	int			id_hdr_size;	/* sample_id_all trailer bytes of evsel 0 */
	u64			feat_end;	/* end of the last feature body (file mode) */
	u64			nr_bad_type;	/* records of no perf type, skipped */
	u64			zlast_off;	/* the last COMPRESSED record */
	u64			zpre_off;	/* the last one fed ahead (reader-record.c zstd_prefeed) */
	u64			nr_bad_cpu;	/* SAMPLEs on a CPU the file does not have */
	/* ordering */
	bool			ordered;
	struct hm_oq		q;
	struct hm_ochunks	oc;		/* the queued records' bytes */
	size_t			qbytes;		/* bytes of the accumulating queue's records */
	u32			ev_gen;		/* bumped when ids or evsels change */
	struct hm_evsel		*dec_ev;	/* hm_reader__decode's evsel, when dec_ev_set */
	bool			dec_ev_set;
	struct hm_qent		*qtmp;		/* merge sort scratch */
	size_t			qtmp_cap;
	size_t			*qruns;		/* the merge sort's run ends */
	size_t			qruns_cap;
	u64			next_flush, max_ts;
	/*
	 * counts_order: round a (read to its FINISHED_ROUND) and round b (being
	 * read) are held while hold_on; out is a round handed out unqueued
	 * (indexes into hold, -1: none).  prev_pure: the round before a held
	 * SAMPLEs alone.
	 */
	struct hm_hold		hold[3];
	int			h_a, h_b, h_out;
	bool			hold_on, prev_pure;
	u64			hold_keep;	/* the window keeps the file from here (UINT64_MAX: no) */
	struct hm_spe		*spe;		/* Arm SPE AUX data: decoded into samples */
	int			spe_idx;	/* its synthesized evsel */
	u8			time_conv[64];	/* the last TIME_CONV, for SPE set up later */
	struct hm_evdesc	*desc;		/* pipe EVENT_DESC names not yet given */
	struct hm_ahead		*ahead;		/* the records ahead, timed (reader-ahead.c) */
	u64			ahead_next;	/* queue bytes at the next look ahead */
	bool			replaying;	/* held records go to the queue */
	u32			nr_desc;
};

/* A record type the kernel writes (not one of perf's user records). */
static inline bool hm_record__is_kernel(u32 t)
{
	return t >= 1 && t < 64;
}

/* ---- reader-state.c */
/* Log "PATH: offset OFF: MSG", stop the stream with @err; returns @err. */
int hm_reader__fail(struct hm_reader *r, int err, u64 off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *hm_reader__path_int(const struct hm_reader *r);
bool hm_reader__swap(const struct hm_reader *r);
struct hm_header *hm_reader__hdr(struct hm_reader *r);
int hm_reader__nr_evsel_int(const struct hm_reader *r);
struct hm_evsel *hm_reader__evsel_int(struct hm_reader *r, int idx);
/* Read up to @n bytes at @off of the file, pipe or memory; bytes read or -errno. */
ssize_t hm_reader__src_read(struct hm_reader *r, void *dst, size_t n, u64 off);
/* The reader's scratch buffer, at least @n bytes (NULL: out of memory). */
void *hm_reader__scratch(struct hm_reader *r, size_t n);
/* Add an evsel from raw attr bytes (file endianness) and ids. */
struct hm_evsel *hm_reader__add_evsel(struct hm_reader *r, const u8 *attr, u32 attr_bytes,
				      const u64 *ids, u32 nr_ids, bool ids_swap);
int hm_reader__add_id(struct hm_reader *r, u64 id, int idx);
void hm_attr__read(struct perf_event_attr *dst, const u8 *src, u32 avail, bool sw, u32 *file_size);
/* perf_event__attr_swap in place; @n: bytes of the attr present. */
void hm_attr__swap(u8 *p, u32 n);
/* Refuse an attr whose samples cannot be parsed (as perf does). */
int hm_reader__check_attr(struct hm_reader *r, const struct hm_evsel *e, u64 off);
/* evsel of a record (@sw: still in file byte order); NULL when the id is unknown. */
struct hm_evsel *hm_reader__rec_evsel(struct hm_reader *r, u32 type, const u8 *rec, u32 size,
				      bool sw);
/*
 * The timestamp of a native record without a full decode (the ordering
 * queue's and the range scan's); -1: none.  *@ep (may be NULL): its evsel.
 */
u64 hm_reader__rec_time(struct hm_reader *r, const u8 *rec, u32 size, u32 type, struct hm_evsel **ep);

/* ---- features.c */
/* Name @e from an EVENT_DESC that came before it (pipe mode), if one fits. */
void hm_reader__name_evsel(struct hm_reader *r, struct hm_evsel *e);
void hm_reader__free_desc(struct hm_reader *r);

/* ---- reader-input.c */
/* 1: @n bytes at the window's head; 0: the stream ends first; <0: I/O error. */
int hm_reader__win_ensure(struct hm_reader *r, size_t n);
/*
 * Next raw record (file byte order) from the decompressed stream or the
 * window.  1: rec, size, off set; 0: end; <0: error (reported).
 */
int hm_reader__next_raw(struct hm_reader *r, const u8 **rec, u32 *size, u64 *off,
			bool *compressed);

/* ---- reader-ahead.c: the ordering queue's early hand-out */
/*
 * The time up to which the queue may hand records out now, as perf would
 * in the same place: 1 with *@limit set, 0 when the records ahead cannot
 * be timed (keep them all), <0 errno.
 */
int hm_ahead__limit(struct hm_reader *r, u64 *limit);
/* Forget the walk ahead (a round ended; the reader closes). */
void hm_ahead__delete(struct hm_reader *r);

/* ---- reader-dir.c: perf's directory format (perf record --threads) */
/* Open DIR/data as r->fd and list DIR/data.*; negative errno (logged). */
int hm_dir__open(struct hm_reader *r, const char *dir);
void hm_dir__delete(struct hm_reader *r);
/* Files of the folder (data and the non-empty data.N); 0: not a folder. */
u32 hm_dir__nr_files(const struct hm_reader *r);
/* @n bytes of records read from the current file (the turn's count). */
void hm_dir__account(struct hm_reader *r, u64 n);
/* The current file's turn is over (perf's READER_MAX_SIZE). */
bool hm_dir__due(const struct hm_reader *r);
/*
 * File @i of the folder: false when read to its end; else its descriptor,
 * read position and end (the current file's as the reader has them).
 */
bool hm_dir__file(const struct hm_reader *r, u32 i, int *fd, u64 *pos, u64 *end);
/* File @i's last COMPRESSED record read (false: none, or no stream). */
bool hm_dir__zlast(const struct hm_reader *r, u32 i, u64 *off);
/*
 * On to the next file whose records are left, in turn (@done: the current
 * one has ended; records held in the window go to the queue first).
 * 1: r reads that one now; 0: every file read; <0 error.
 */
int hm_dir__switch(struct hm_reader *r, bool done);

/* ---- reader-header.c */
/* The file header @hb of @hsize bytes: attrs, features, metadata. */
int hm_reader__read_file_header(struct hm_reader *r, const u8 *hb, u64 hsize);

/* ---- reader-swap.c */
/* Native copy of @rec: swapped (other byte order) or realigned; NULL: *@err. */
const u8 *hm_reader__nativize(struct hm_reader *r, const u8 *rec, u32 size, u64 off, int *err);
/*
 * Byte-swap one feature section (file layout) in place to native, walking
 * its layout; sections of layouts not known here (TRACING_DATA, which has
 * its own byte order, hitmap's metadata, BPF_*, ...) are left as they are.
 * (features.c)
 */
void hm_feature__swap(struct hm_reader *r, u64 feat, u8 *buf, u64 size);

/* ---- reader-record.c */
/* Side effects of one record.  @raw in file byte order, @nat native. */
int hm_reader__ingest(struct hm_reader *r, const u8 *raw, const u8 *nat, u32 size, u64 off,
		      bool compressed);
/* Decode the native record @rec into @ev. */
int hm_reader__decode(struct hm_reader *r, const u8 *rec, u32 size, u64 off, bool compressed,
		      struct hm_event *ev);

/* ---- reader-order.c (only while r->ordered) */
/* The ready queue's next event: 1 with @ev set, 0 when empty, <0 error. */
int hm_order__pop(struct hm_reader *r, struct hm_event *ev);
/* Queue @nat by its time: 1 queued (or a round flushed), 0 hand it out now, <0 error. */
int hm_order__queue(struct hm_reader *r, const u8 *nat, u32 size, u64 off, bool compressed);
/* End of the stream: 1 when records wait to be handed out (hm_order__pop), 0 none, <0 error. */
int hm_order__drain(struct hm_reader *r, u64 off);
/* counts_order: hand the held rounds to the queue (before a record that is no SAMPLE). */
int hm_order__unhold(struct hm_reader *r);
/* Set up counts_order's delay line, when asked (hm_reader__new). */
void hm_order__init(struct hm_reader *r);
void hm_order__exit(struct hm_reader *r);
/*
 * A mapped file: drop the pages below both the read position and every
 * record queued in place (any reader, ordered or not).
 */
void hm_order__release(struct hm_reader *r);
/* How far the read position moves between two hm_order__release() calls. */
#define HM_RELEASE_STEP	(2u << 20)
/* @off rounded down to its page (what a mapping is dropped by). */
static inline u64 hm_page_floor(u64 off)
{
	return off & ~((u64)sysconf(_SC_PAGESIZE) - 1);
}

#endif
