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

/*
 * The first few chunks are mappings of their own, on small pages: a queue
 * of small rounds stays in a chunk or two, and a huge page would only add
 * its 2 MB to the resident size.  The others come from the bump allocator
 * over huge-page chunks (hm_arena), freed all at once.
 */
#define OCH_SMALL	4u
/* a u32 place: slot and offset */
#define OCH_MAX_SLOTS	(1u << (32 - HM_OCHUNK_SHIFT))

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

/* A free slot: the last one freed (its bytes likely still cached), or a new chunk's. */
static int slot_get(struct hm_ochunks *c, uint32_t *slot)
{
	uint8_t *b;

	if (c->nr_free) {
		*slot = c->free[--c->nr_free];
		return 0;
	}
	if (c->nr + 1 > OCH_MAX_SLOTS || slots_room(c, c->nr + 1))
		return -ENOMEM;
	b = c->nr < OCH_SMALL ? hm_big__alloc(HM_OCHUNK) : hm_arena__alloc(&c->big, HM_OCHUNK);
	if (!b)
		return -ENOMEM;
	c->p[c->nr] = b;
	c->live[c->nr] = 0;
	*slot = c->nr++;
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
	for (uint32_t i = 0; i < c->nr && i < OCH_SMALL; i++)
		hm_big__free(c->p[i], HM_OCHUNK);
	hm_arena__release(&c->big);
	free(c->p);
	free(c->live);
	free(c->free);
	memset(c, 0, sizeof(*c));
}
