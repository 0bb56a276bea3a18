/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_ORDER_CHUNKS_H
#define HITMAP_PERFDATA_ORDER_CHUNKS_H

/*
 * The ordering queue's record bytes (reader-order.c): fixed chunks, past
 * the first few handed out by an hm_arena over huge pages.  A record is copied in once, when it is queued,
 * and stays where it is until it is handed out; a chunk whose records are
 * all handed out goes back on the free list (the chunk being filled starts
 * over instead).  A record's place is one u32: its chunk's slot and its
 * offset in it, so the queue holds at most 4 GB of records, as one arena
 * indexed by u32 did.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "../util/bigalloc.h"

#define HM_OCHUNK_SHIFT	18			/* 256 KiB chunks */
#define HM_OCHUNK	(1u << HM_OCHUNK_SHIFT)

struct hm_ochunks {
	uint8_t		**p;		/* slot -> its HM_OCHUNK bytes */
	uint32_t	*live;		/* per slot: bytes of records not yet handed out */
	uint32_t	*free;		/* slots free, the last freed on top */
	struct hm_arena	big;		/* where the chunks past the first few come from */
	uint32_t	nr, cap, nr_free;
	uint32_t	cur, used;	/* the slot being filled, and the bytes used in it */
	bool		has_cur;
};

/* hm_ochunks__put() where the chunk being filled has no room: the next chunk's first record. */
int hm_ochunks__put_next(struct hm_ochunks *c, const void *rec, uint32_t len, uint32_t *at);

/* Copy @len bytes (1 to HM_OCHUNK) of @rec in; its place in *@at.  0, -EINVAL or -ENOMEM. */
static inline int hm_ochunks__put(struct hm_ochunks *c, const void *rec, uint32_t len, uint32_t *at)
{
	uint32_t a8 = (len + 7) & ~7u;

	if (!c->has_cur || c->used + a8 > HM_OCHUNK || !len)
		return hm_ochunks__put_next(c, rec, len, at);
	memcpy(c->p[c->cur] + c->used, rec, len);
	*at = c->cur << HM_OCHUNK_SHIFT | c->used;
	c->used += a8;
	c->live[c->cur] += a8;
	return 0;
}

/* The bytes at place @at. */
static inline const uint8_t *hm_ochunks__bytes(const struct hm_ochunks *c, uint32_t at)
{
	return c->p[at >> HM_OCHUNK_SHIFT] + (at & (HM_OCHUNK - 1));
}

/*
 * The record of @len bytes at @at is handed out (or moved): its chunk is
 * free once nothing in it is left.  Its bytes stay as they are until the
 * next hm_ochunks__put().
 */
void hm_ochunks__emptied(struct hm_ochunks *c, uint32_t slot);

static inline void hm_ochunks__drop(struct hm_ochunks *c, uint32_t at, uint32_t len)
{
	uint32_t slot = at >> HM_OCHUNK_SHIFT;

	c->live[slot] -= (len + 7) & ~7u;
	if (!c->live[slot])
		hm_ochunks__emptied(c, slot);
}

/*
 * Whether the record at @at lies in a chunk, other than the one being
 * filled, that holds less than a quarter of a chunk of records not yet
 * handed out: moving such records on keeps the chunks in use within four
 * times the bytes queued (plus the chunk being filled), however the
 * records left queued are spread.
 */
static inline bool hm_ochunks__sparse(const struct hm_ochunks *c, uint32_t at)
{
	uint32_t slot = at >> HM_OCHUNK_SHIFT;

	return !(c->has_cur && slot == c->cur) && c->live[slot] < HM_OCHUNK / 4;
}

/* Bytes of the chunks carved so far (what the queue's records have had at most). */
static inline size_t hm_ochunks__bytes_held(const struct hm_ochunks *c)
{
	return (size_t)c->nr * HM_OCHUNK;
}

void hm_ochunks__exit(struct hm_ochunks *c);

#endif
