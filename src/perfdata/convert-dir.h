/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_CONVERT_DIR_H
#define HITMAP_PERFDATA_CONVERT_DIR_H

/*
 * A perf.data folder being written (convert-dir.c): "data" and the bare
 * data.N files, and which one each record goes to.  Private to convert.c.
 */
#include <hitmap/perf_data.h>

struct hm_dirout;

/*
 * Create the folder @path (or take it when it is an empty folder) and its
 * "data" and data.0 .. data.(@nr - 1) writers.  NULL with errno set, the
 * reason logged.
 */
struct hm_dirout *hm_dirout__new(const char *path, u32 nr);
/* The writers: 0 is "data", i > 0 is data.(i - 1); nr + 1 of them. */
u32 hm_dirout__nr_writers(const struct hm_dirout *d);
struct hm_writer *hm_dirout__writer(const struct hm_dirout *d, u32 i);
/*
 * The writer @ev goes to, as perf record --threads lays records out; NULL:
 * left out (FINISHED_ROUND: a folder holds none).
 */
struct hm_writer *hm_dirout__route(struct hm_dirout *d, const struct hm_event *ev);
/* Close every file; 0 or the first error (then delete removes the folder). */
int hm_dirout__close(struct hm_dirout *d);
/* Free; a folder not closed without error is removed with what was written.  NULL ok. */
void hm_dirout__delete(struct hm_dirout *d);

#endif
