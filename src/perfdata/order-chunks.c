// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ordering queue's record bytes: chunks freed record by record
 * (order-chunks.h).  Each record is copied once.  The two arenas used by
 * turns before copied every record a flush left queued a second time, and
 * a big round's arena grew by doubling, each size a fresh mapping to fault
 * in: on 2M samples in rounds of 17 MB, `report --lkp` took 0.61 s with
 * them and 0.35 s with the chunks (tests/bench/README.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "order-chunks.h"
#include "../util/bigalloc.h"

/*
 * Chunks carved from one huge page; the first few blocks are one chunk
 * each, on small pages: a queue of small rounds stays in a chunk or two,
 * and a huge page would only add its 2 MB to the resident size.
 */
#define OCH_BLOCK	HM_BIG_HUGE
#define OCH_PER_BLOCK	((uint32_t)(OCH_BLOCK / HM_OCHUNK))
#define OCH_SMALL	4u

static uint32_t block_chunks(uint32_t block)
{
	return block < OCH_SMALL ? 1 : OCH_PER_BLOCK;
}

/* a u32 place: slot and offset */
#define OCH_MAX_SLOTS	(1u << (32 - HM_OCHUNK_SHIFT))

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t c = *cap ? *cap : 16;
	void *n;

	while (c < need)
		c *= 2;
	if (c == *cap)
		return 0;
	n = realloc(*p, (size_t)c * elem);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = c;
	return 0;
}

/*
 * Room for @need slots in the three per-slot arrays; the capacity is set
 * once all three have grown (a failure leaves the bigger ones bigger).
 */
static int slots_room(struct hm_ochunks *c, uint32_t need)
{
	uint32_t n = c->cap ? c->cap : 16;
	void *p;

	if (need <= c->cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(c->p, (size_t)n * sizeof(*c->p));
	if (!p)
		return -ENOMEM;
	c->p = p;
	p = realloc(c->live, (size_t)n * sizeof(*c->live));
	if (!p)
		return -ENOMEM;
	c->live = p;
	p = realloc(c->free, (size_t)n * sizeof(*c->free));
	if (!p)
		return -ENOMEM;
	c->free = p;
	c->cap = n;
	return 0;
}

/* A free slot: the last one freed (its bytes likely still cached), or a new block's. */
static int slot_get(struct hm_ochunks *c, uint32_t *slot)
{
	uint32_t per = block_chunks(c->nr_blocks);
	uint8_t *b;

	if (c->nr_free) {
		*slot = c->free[--c->nr_free];
		return 0;
	}
	if (c->nr + per > OCH_MAX_SLOTS)
		return -ENOMEM;
	if (slots_room(c, c->nr + per) ||
	    grow((void **)&c->blocks, &c->cap_blocks, c->nr_blocks + 1, sizeof(*c->blocks)))
		return -ENOMEM;
	b = hm_big__alloc((size_t)per * HM_OCHUNK);
	if (!b)
		return -ENOMEM;
	c->blocks[c->nr_blocks++] = b;
	for (uint32_t i = 0; i < per; i++) {
		c->p[c->nr + i] = b + (size_t)i * HM_OCHUNK;
		c->live[c->nr + i] = 0;
	}
	/* the block's first chunk now, the others next, in order */
	for (uint32_t i = per - 1; i > 0; i--)
		c->free[c->nr_free++] = c->nr + i;
	*slot = c->nr;
	c->nr += per;
	return 0;
}

int hm_ochunks__put_next(struct hm_ochunks *c, const void *rec, uint32_t len, uint32_t *at)
{
	uint32_t a8 = (len + 7) & ~7u;

	if (a8 > HM_OCHUNK || !len)
		return -EINVAL;
	if (!c->has_cur || c->used + a8 > HM_OCHUNK) {
		if (c->has_cur && !c->live[c->cur]) {
			c->used = 0;	/* everything in it handed out: start it over */
		} else {
			uint32_t s;
			int err = slot_get(c, &s);

			if (err)
				return err;
			/* the full one is freed by its last record's drop */
			c->cur = s;
			c->has_cur = true;
			c->used = 0;
		}
	}
	return hm_ochunks__put(c, rec, len, at);
}

/* Nothing left in @slot: free, or, the chunk being filled, started over. */
void hm_ochunks__emptied(struct hm_ochunks *c, uint32_t slot)
{
	if (c->has_cur && slot == c->cur)
		c->used = 0;
	else
		c->free[c->nr_free++] = slot;
}

void hm_ochunks__exit(struct hm_ochunks *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->nr_blocks; i++)
		hm_big__free(c->blocks[i], (size_t)block_chunks(i) * HM_OCHUNK);
	free(c->blocks);
	free(c->p);
	free(c->live);
	free(c->free);
	memset(c, 0, sizeof(*c));
}
