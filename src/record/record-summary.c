// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap record's summary of contended futex buckets, read back from the
 * file it wrote by the report's own pass and futex aggregation
 * (src/report/buckets.c pairs each thread's contention_begin with its
 * contention_end and counts per bucket and socket), so that the summary
 * shows the numbers of 'hitmap report --by bucket' on the same file.
 * Record writes; its own accounting (record-futex.c) only finds the table
 * that the file then names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "record/record.h"
#include "record/record-int.h"
#include "report/report.h"
#include "report/buckets.h"

static int row_cmp(const void *a, const void *b)
{
	const struct hm_record_bucket *x = a, *y = b;

	if (x->events != y->events)
		return x->events < y->events ? 1 : -1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Was bucket @index checked against the workload's hash by the attribution? */
static bool checked(const struct hm_record_result *res, u64 index)
{
	int i;

	for (i = 0; i < res->nr_rows; i++)
		if (res->buckets[i].index == index)
			return res->buckets[i].predicted;
	return res->table_kind != 1;	/* the global table: nothing to check against */
}

int hm_rec__summarize(const char *path, struct hm_record_result *res)
{
	const struct hm_futex_model *fm;
	const struct hm_buckets *b;
	struct hm_buckets_totals tot = { 0 };
	struct hm_record_bucket *rows = NULL;
	struct hm_report_opts o;
	struct hm_report *r;
	u64 events = 0;
	u32 i, s;
	int n = 0, err;

	memset(&o, 0, sizeof(o));
	o.input = path;
	o.want_buckets = true;
	o.no_source = true;
	o.threads = 1;
	r = hm_report__new(&o);
	if (!r)
		return -errno;
	err = hm_report__run(r);
	if (err < 0)
		goto out;
	b = hm_report__buckets(r);
	fm = hm_report__futex(r);
	if (b)
		hm_buckets__totals(b, &tot);
	rows = calloc(tot.nr ? tot.nr : 1, sizeof(*rows));
	if (!rows) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < tot.nr; i++) {
		struct hm_bucket_info e;
		struct hm_record_bucket *row;

		hm_buckets__bucket(b, i, &e);
		if (!e.contended || e.table < 0 || (u32)e.table >= fm->nr_tables)
			continue;
		row = &rows[n++];
		row->index = e.index;
		row->addr = fm->tables[e.table].base + e.index * fm->layout.bucket_size;
		row->events = e.contended;
		row->wait_ns = e.wait_ns;
		row->predicted = checked(res, e.index);
		for (s = 0; s < HM_REC_MAX_SOCK; s++)
			row->sock[s] = hm_buckets__contended_socket(b, i, s);
		events += e.contended;
	}
	qsort(rows, n, sizeof(*rows), row_cmp);
	free(res->buckets);
	res->buckets = rows;
	res->nr_rows = n;
	res->bucket_events = events;
	rows = NULL;
out:
	if (err < 0)
		hm_warn("%s: reading the recording back for its summary: %s", path, strerror(-err));
	free(rows);
	hm_report__delete(r);
	return err;
}
