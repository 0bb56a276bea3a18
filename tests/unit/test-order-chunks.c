// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ordering queue's chunks (src/perfdata/order-chunks.c): records keep
 * their bytes until dropped, a chunk is reused once all its records are
 * dropped (the one being filled starts over), records never straddle two
 * chunks, the biggest record a perf header can size fits, a bigger one is
 * refused, and a chunk left holding little is reported sparse.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "perfdata/order-chunks.h"
#include "tap.h"

#define N	20000

static uint8_t rec[65536];
static uint32_t at[N], len[N];

static void fill(uint32_t i, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		rec[k] = (uint8_t)(i * 31 + k);
}

static int same(const struct hm_ochunks *c, uint32_t i)
{
	const uint8_t *p = hm_ochunks__bytes(c, at[i]);

	for (uint32_t k = 0; k < len[i]; k++)
		if (p[k] != (uint8_t)(i * 31 + k))
			return 0;
	return 1;
}

int main(void)
{
	struct hm_ochunks c = { 0 };
	uint32_t bad = 0, straddle = 0, i, held;
	int err = 0;

	/* 20000 records of 8 to 1000 bytes: each readable until dropped */
	for (i = 0; i < N && !err; i++) {
		len[i] = 8 + (i * 7919) % 993;
		fill(i, len[i]);
		err = hm_ochunks__put(&c, rec, len[i], &at[i]);
		if ((at[i] & (HM_OCHUNK - 1)) + len[i] > HM_OCHUNK)
			straddle++;
	}
	CHECK_EQ("ochunks.put", err, 0);
	CHECK_EQ("ochunks.no_straddle", straddle, 0);
	for (i = 0; i < N; i++)
		bad += !same(&c, i);
	CHECK_EQ("ochunks.bytes_kept", bad, 0);
	held = (uint32_t)hm_ochunks__bytes_held(&c);
	CHECK("ochunks.held_covers", held >= 20000u * 8 && held % HM_OCHUNK == 0);

	/* drop the even ones: the odd ones stay as they were */
	for (i = 0; i < N; i += 2)
		hm_ochunks__drop(&c, at[i], len[i]);
	bad = 0;
	for (i = 1; i < N; i += 2)
		bad += !same(&c, i);
	CHECK_EQ("ochunks.others_kept", bad, 0);
	/* a chunk with half its records dropped is not sparse, one with a record left is */
	CHECK("ochunks.half_not_sparse", !hm_ochunks__sparse(&c, at[1]));

	/* drop all: refilling takes no new chunk */
	for (i = 1; i < N; i += 2)
		hm_ochunks__drop(&c, at[i], len[i]);
	for (i = 0; i < N && !err; i++) {
		fill(i, len[i]);
		err = hm_ochunks__put(&c, rec, len[i], &at[i]);
	}
	CHECK_EQ("ochunks.reput", err, 0);
	CHECK_EQ("ochunks.reused", hm_ochunks__bytes_held(&c), held);
	bad = 0;
	for (i = 0; i < N; i++)
		bad += !same(&c, i);
	CHECK_EQ("ochunks.reput_bytes", bad, 0);

	/* one record left in a full chunk that is not the one being filled: sparse */
	for (i = 1; i < N; i++)
		hm_ochunks__drop(&c, at[i], len[i]);
	CHECK("ochunks.last_sparse", (at[0] >> HM_OCHUNK_SHIFT) == c.cur ||
	      hm_ochunks__sparse(&c, at[0]));
	hm_ochunks__drop(&c, at[0], len[0]);

	/* the chunk being filled starts over once emptied */
	fill(1, 64);
	err = hm_ochunks__put(&c, rec, 64, &at[0]);
	CHECK_EQ("ochunks.one", err, 0);
	hm_ochunks__drop(&c, at[0], 64);
	err = hm_ochunks__put(&c, rec, 64, &at[1]);
	CHECK("ochunks.starts_over", !err && at[1] == at[0] && !(at[1] & (HM_OCHUNK - 1)));
	CHECK("ochunks.current_not_sparse", !hm_ochunks__sparse(&c, at[1]));
	hm_ochunks__drop(&c, at[1], 64);

	/* the biggest record a u16 size can give fits; one past a chunk does not */
	fill(3, 65535);
	CHECK_EQ("ochunks.max_record", hm_ochunks__put(&c, rec, 65535, &at[2]), 0);
	len[3] = 65535;
	at[3] = at[2];
	CHECK("ochunks.max_record_bytes", same(&c, 3));
	CHECK_EQ("ochunks.too_big", hm_ochunks__put(&c, rec, HM_OCHUNK + 1, &at[4]), -EINVAL);
	CHECK_EQ("ochunks.empty", hm_ochunks__put(&c, rec, 0, &at[4]), -EINVAL);

	hm_ochunks__exit(&c);
	hm_ochunks__exit(&c);	/* twice: cleared */
	hm_ochunks__exit(NULL);
	TAP_DONE();
}
