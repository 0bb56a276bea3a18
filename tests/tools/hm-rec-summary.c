// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-rec-summary: the contended-bucket summary hitmap record prints at its
 * end (hm_rec__summarize), of an existing recording: one line per bucket,
 * "index events wait_ns socket_events...", in the summary's order.
 *
 *   hm-rec-summary FILE
 */
#include <stdio.h>
#include <string.h>
#include "record/record.h"
#include "record/record-int.h"

int main(int argc, char **argv)
{
	struct hm_record_result res;
	int i, k, err;

	if (argc != 2) {
		fprintf(stderr, "usage: hm-rec-summary FILE\n");
		return 2;
	}
	memset(&res, 0, sizeof(res));
	res.table_kind = 0;
	err = hm_rec__summarize(argv[1], &res);
	if (err < 0) {
		fprintf(stderr, "hm-rec-summary: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	printf("# %llu contention events\n", (unsigned long long)res.bucket_events);
	for (i = 0; i < res.nr_rows; i++) {
		printf("%llu %llu %llu", (unsigned long long)res.buckets[i].index,
		       (unsigned long long)res.buckets[i].events, (unsigned long long)res.buckets[i].wait_ns);
		for (k = 0; k < HM_REC_MAX_SOCK; k++)
			printf(" %llu", (unsigned long long)res.buckets[i].sock[k]);
		printf("\n");
	}
	hm_record_result__release(&res);
	return 0;
}
