/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_WRITER_INT_H
#define HITMAP_PERFDATA_WRITER_INT_H

/*
 * Private to the perf.data writer: src/perfdata/writer*.c.  Nothing here is
 * API.  Files, bottom up: writer-out.c (buffer, compression, plain writes),
 * writer-layout.c (ids and attrs, or the pipe-mode header records),
 * writer-records.c (records), writer.c (set-up, features, header, close).
 */
#include <zstd.h>
#include <hitmap/perf_data.h>
#include "perfdata/feat-write.h"

#define HM_PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define HM_FILE_HEADER_SIZE	104
#define HM_FILE_ATTR_STRIDE	(HM_FILE_ATTR_SIZE + 16)
#define WBUF_SIZE		(256 * 1024)
#define REC_MAX			0xffff
/*
 * Compression: the records of one chunk (at most WBUF_SIZE bytes, whole
 * records) are fed to one continuous zstd stream and flushed, as perf
 * record does per mmap read; the output is cut into records of at most
 * 64 KiB.  perf decompresses each record into comp_mmap_len (+ the partial
 * record left over) bytes, so a chunk never exceeds it.
 */
#define Z_MMAP_LEN		(129 * 4096)
#define Z_MAX1			(65536 - 8 - 1)	/* perf's max_record_size */
#define Z_MAX2			(65528 - 16)	/* COMPRESSED2: 16-byte head, 8-aligned */
#define HM_FEAT_LAST_61		32		/* perf 6.1's HEADER_LAST_FEATURE */

struct perf_file_section_le {
	u64 offset, size;
};

struct hm_writer {
	int			fd;
	char			*path;
	struct hm_fw_evsel	*ev;
	int			nr_ev;
	bool			laid_out;
	bool			closed;
	bool			swap;		/* other byte order */
	int			err;		/* sticky write error */
	u64			data_offset, data_size;
	u64			attrs_offset;
	u8			*buf;
	size_t			buf_len;
	struct hm_fwbuf		*feat[HM_FEAT_BITS];
	bool			time_seen;
	u64			time_first, time_last;
	u64			next_auto_id;
	/* output options (hm_writer__set_pipe, __set_compression) */
	bool			own_fd;		/* false: hm_writer__new_fd */
	bool			pipe;
	int			comp_level;	/* 0: off */
	bool			comp2;		/* COMPRESSED2 records */
	ZSTD_CCtx		*zc;		/* set at layout when comp_level */
	u8			*zbuf;
	bool			data_phase;	/* buf holds records (compressed on flush) */
	u64			raw_bytes, comp_bytes;
	/*
	 * hm_writer__features_as_given: no HOSTNAME of this machine where the
	 * header has none; an empty one in file mode where the bitmap needs
	 * it (writer.c write_features).
	 */
	bool			as_given;
	/*
	 * hm_writer__set_bare: records from offset 0, no header, ids, attrs or
	 * features (a data.N file of a perf.data folder); dir_format: the
	 * DIR_FORMAT feature of the folder's "data" file (its version, 0: none).
	 */
	bool			bare;
	u64			dir_format;
};

/* ---- writer-out.c */
/* Log a failed write of @w's output (once) and keep @err as its sticky error. */
int hm_writer__write_failed(struct hm_writer *w, int err);
int hm_writer__write_full(int fd, const void *p, size_t len);
/* Write out the buffer (compressed while w->data_phase). */
int hm_writer__flush(struct hm_writer *w);
/* Reserve @len contiguous bytes in the buffer; NULL on a write error. */
u8 *hm_writer__reserve(struct hm_writer *w, size_t len);
int hm_writer__put(struct hm_writer *w, const void *p, size_t len);
/*
 * One record's bytes into the data section: with @plain, beside the
 * compressed stream (FINISHED_ROUND, AUX data, as perf writes them), else
 * through the buffer (compressed when compression is on).
 */
int hm_writer__put_data(struct hm_writer *w, const void *p, size_t len, bool plain);
/* A perf_event_header in the output's byte order at @dst. */
void hm_writer__rec_head(const struct hm_writer *w, void *dst, u32 type, u16 misc, u16 size);
u64 hm_writer__sw64(const struct hm_writer *w, u64 v);

/* ---- writer-layout.c */
/* Check the writer can take records; lays down the ids and attrs once. */
int hm_writer__begin(struct hm_writer *w);
/* HOSTNAME of this machine into @b (initialized here); with as_given an empty one. */
int hm_writer__hostname(struct hm_writer *w, struct hm_fwbuf *b);

/* ---- writer.c */
/*
 * Write the features the header given to hm_writer__set_header has, and
 * those that describe the output itself (COMPRESSED, the AUXTRACE index,
 * EVENT_DESC of named events), inventing none (convert): no HOSTNAME of
 * this machine, no SAMPLE_TIME from the samples written.
 */
void hm_writer__features_as_given(struct hm_writer *w);
/* Every event has a name (EVENT_DESC is written only then). */
bool hm_writer__all_named(const struct hm_writer *w);
/* The COMPRESSED feature into @b (initialized here). */
void hm_writer__encode_compressed(struct hm_writer *w, struct hm_fwbuf *b);

#endif
