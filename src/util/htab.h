/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_HTAB_H
#define HITMAP_UTIL_HTAB_H
/*
 * One hash table: u64 key -> u64 value (an index, a count or a pointer cast
 * through uintptr_t), open addressing with linear probing over a power-of-two
 * array kept at most half full.  Key 0 lives beside the array (0 marks a free
 * slot), so every u64 is a key.  Lookups and inserts are inline; growing and
 * deleting are out of line (htab.c).  Deleting shifts later entries back, no
 * tombstones.  Iteration is in slot order, which depends on the keys and the
 * table's history: a caller that prints in iteration order must sort first.
 *
 *	struct hm_htab t = HM_HTAB_INIT;
 *	u64 *v = hm_htab__insert(&t, key, &added);	// NULL: ENOMEM
 *	for (u32 it = 0; hm_htab__next(&t, &it, &k, &v); ) ...
 *	hm_htab__fini(&t);
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hm_htab_slot {
	uint64_t	key;		/* 0: free */
	uint64_t	val;
};

struct hm_htab {
	struct hm_htab_slot	*slot;
	uint32_t		nr;		/* entries, key 0 included */
	uint32_t		mask;		/* slots - 1; 0 with no array */
	bool			has_zero;
	uint64_t		zero_val;
};

#define HM_HTAB_INIT { 0 }

/* 64-bit finaliser (MurmurHash3 fmix64): every key bit moves every slot bit. */
static inline uint64_t hm_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* FNV-1a of @len bytes, for tables keyed by strings. */
static inline uint64_t hm_hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ s[i]) * 1099511628211ULL;
	return h;
}

/* FNV-1a of a NUL-terminated string (same value as hm_hash_bytes of its bytes). */
static inline uint64_t hm_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static inline void hm_htab__init(struct hm_htab *t)
{
	*t = (struct hm_htab)HM_HTAB_INIT;
}

void hm_htab__fini(struct hm_htab *t);
/* Room for @n entries without growing; 0 or -ENOMEM. */
int  hm_htab__reserve(struct hm_htab *t, uint32_t n);
/* Forget every entry, keep the array. */
void hm_htab__clear(struct hm_htab *t);
/* Remove @key; true when it was there. */
bool hm_htab__del(struct hm_htab *t, uint64_t key);
/* Double the array (out of line: the inserts' slow path); 0 or -ENOMEM. */
int  hm_htab__grow_(struct hm_htab *t);
/* Bytes held by the array. */
size_t hm_htab__bytes(const struct hm_htab *t);

static inline uint32_t hm_htab__nr(const struct hm_htab *t)
{
	return t->nr;
}

/* The value of @key, NULL when absent; valid until the next insert or delete. */
static inline uint64_t *hm_htab__find(const struct hm_htab *t, uint64_t key)
{
	if (!key)
		return t->has_zero ? (uint64_t *)&t->zero_val : NULL;
	if (!t->slot)
		return NULL;
	for (uint32_t i = (uint32_t)hm_hash_u64(key) & t->mask;; i = (i + 1) & t->mask) {
		struct hm_htab_slot *s = &t->slot[i];

		if (s->key == key)
			return &s->val;
		if (!s->key)
			return NULL;
	}
}

/*
 * The value of @key, added as 0 when absent (*@added says which); NULL with
 * errno ENOMEM.  Valid until the next insert or delete.
 */
static inline uint64_t *hm_htab__insert(struct hm_htab *t, uint64_t key, bool *added)
{
	if (added)
		*added = false;
	if (!key) {
		if (!t->has_zero) {
			t->has_zero = true;
			t->zero_val = 0;
			t->nr++;
			if (added)
				*added = true;
		}
		return &t->zero_val;
	}
	if ((!t->slot || 2 * ((uint64_t)t->nr + 1) > (uint64_t)t->mask + 1) && hm_htab__grow_(t) < 0)
		return NULL;
	for (uint32_t i = (uint32_t)hm_hash_u64(key) & t->mask;; i = (i + 1) & t->mask) {
		struct hm_htab_slot *s = &t->slot[i];

		if (s->key == key)
			return &s->val;
		if (!s->key) {
			s->key = key;
			s->val = 0;
			t->nr++;
			if (added)
				*added = true;
			return &s->val;
		}
	}
}

/* Set @key to @val; 0 or -ENOMEM. */
static inline int hm_htab__put(struct hm_htab *t, uint64_t key, uint64_t val)
{
	uint64_t *v = hm_htab__insert(t, key, NULL);

	if (!v)
		return -ENOMEM;
	*v = val;
	return 0;
}

/* Pointer values. */
static inline void *hm_htab__find_ptr(const struct hm_htab *t, uint64_t key)
{
	uint64_t *v = hm_htab__find(t, key);

	return v ? (void *)(uintptr_t)*v : NULL;
}

static inline int hm_htab__put_ptr(struct hm_htab *t, uint64_t key, const void *p)
{
	return hm_htab__put(t, key, (uintptr_t)p);
}

/*
 * Iterate: start with *@it = 0; true with the next entry's key and value
 * (either may be NULL).  Key 0 comes first.  No inserts or deletes meanwhile.
 */
static inline bool hm_htab__next(const struct hm_htab *t, uint32_t *it, uint64_t *key, uint64_t *val)
{
	if (*it == 0) {
		*it = 1;
		if (t->has_zero) {
			if (key)
				*key = 0;
			if (val)
				*val = t->zero_val;
			return true;
		}
	}
	if (!t->slot)
		return false;
	while (*it <= t->mask + 1) {
		const struct hm_htab_slot *s = &t->slot[*it - 1];

		++*it;
		if (s->key) {
			if (key)
				*key = s->key;
			if (val)
				*val = s->val;
			return true;
		}
	}
	return false;
}

#endif
