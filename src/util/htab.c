// SPDX-License-Identifier: GPL-2.0-only
/* The hash table's slow paths: growing, deleting (see htab.h). */
#include <errno.h>
#include <stdlib.h>
#include "util/htab.h"

void hm_htab__fini(struct hm_htab *t)
{
	if (!t)
		return;
	free(t->slot);
	hm_htab__init(t);
}

static int rehash(struct hm_htab *t, uint64_t nslots)
{
	struct hm_htab_slot *ns;
	uint32_t nmask;

	if (nslots > (1ULL << 31))
		return -ENOMEM;
	ns = calloc(nslots, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	nmask = (uint32_t)(nslots - 1);
	for (uint64_t j = 0; t->slot && j <= t->mask; j++) {
		const struct hm_htab_slot *s = &t->slot[j];
		uint32_t i;

		if (!s->key)
			continue;
		for (i = (uint32_t)hm_hash_u64(s->key) & nmask; ns[i].key; i = (i + 1) & nmask)
			;
		ns[i] = *s;
	}
	free(t->slot);
	t->slot = ns;
	t->mask = nmask;
	return 0;
}

int hm_htab__grow_(struct hm_htab *t)
{
	return rehash(t, t->slot ? 2 * ((uint64_t)t->mask + 1) : 16);
}

int hm_htab__reserve(struct hm_htab *t, uint32_t n)
{
	uint64_t want = 16;

	while (want < 2 * ((uint64_t)n + 1))
		want *= 2;
	if (t->slot && want <= (uint64_t)t->mask + 1)
		return 0;
	return rehash(t, want);
}

void hm_htab__clear(struct hm_htab *t)
{
	if (t->slot)
		for (uint64_t j = 0; j <= t->mask; j++)
			t->slot[j].key = 0;
	t->nr = 0;
	t->has_zero = false;
}

bool hm_htab__del(struct hm_htab *t, uint64_t key)
{
	uint32_t i, j;

	if (!key) {
		if (!t->has_zero)
			return false;
		t->has_zero = false;
		t->nr--;
		return true;
	}
	if (!t->slot)
		return false;
	for (i = (uint32_t)hm_hash_u64(key) & t->mask; t->slot[i].key != key; i = (i + 1) & t->mask)
		if (!t->slot[i].key)
			return false;
	/* Shift back every later entry of the run that may sit in the hole. */
	for (j = (i + 1) & t->mask; t->slot[j].key; j = (j + 1) & t->mask) {
		uint32_t home = (uint32_t)hm_hash_u64(t->slot[j].key) & t->mask;

		/* keep it where it is when its home lies cyclically in (i, j] */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		t->slot[i] = t->slot[j];
		i = j;
	}
	t->slot[i].key = 0;
	t->nr--;
	return true;
}

size_t hm_htab__bytes(const struct hm_htab *t)
{
	return t->slot ? ((size_t)t->mask + 1) * sizeof(*t->slot) : 0;
}
