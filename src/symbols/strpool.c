// SPDX-License-Identifier: GPL-2.0-only
/*
 * String pool: interned copies in an open-addressing hash set; strings are
 * carved from large chunks so there is one allocation per 64 KiB, not per
 * string.  Pointers stay valid until hm_strpool__delete.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "symbols-priv.h"
#include "util/htab.h"

#define CHUNK (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct hm_strpool {
	const char **slot;
	size_t nr, cap;		/* cap: power of two */
	struct chunk *chunks;
};

struct hm_strpool *hm_strpool__new(void)
{
	struct hm_strpool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cap = 256;
	p->slot = calloc(p->cap, sizeof(*p->slot));
	if (!p->slot) {
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	return p;
}

void hm_strpool__delete(struct hm_strpool *p)
{
	if (!p)
		return;
	for (struct chunk *c = p->chunks, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(p->slot);
	free(p);
}

static char *pool_alloc(struct hm_strpool *p, size_t n)
{
	struct chunk *c = p->chunks;

	if (!c || c->size - c->used < n) {
		size_t sz = n > CHUNK / 4 ? n : CHUNK;

		c = malloc(sizeof(*c) + sz);
		if (!c)
			return NULL;
		c->size = sz;
		c->used = 0;
		if (n > CHUNK / 4 && p->chunks) {	/* big one: keep the current chunk on top */
			c->next = p->chunks->next;
			p->chunks->next = c;
		} else {
			c->next = p->chunks;
			p->chunks = c;
		}
	}
	c->used += n;
	return c->data + c->used - n;
}

static int grow(struct hm_strpool *p)
{
	size_t ncap = p->cap * 2;
	const char **ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < p->cap; i++) {
		const char *s = p->slot[i];
		size_t j;

		if (!s)
			continue;
		j = hm_hash_str(s) & (ncap - 1);
		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = s;
	}
	free(p->slot);
	p->slot = ns;
	p->cap = ncap;
	return 0;
}

const char *hm_strpool__intern_len(struct hm_strpool *p, const char *s, size_t len)
{
	size_t j;
	char *copy;

	if ((p->nr + 1) * 2 > p->cap && grow(p) < 0)
		return NULL;
	j = hm_hash_bytes(s, len) & (p->cap - 1);
	while (p->slot[j]) {
		const char *t = p->slot[j];

		if (!strncmp(t, s, len) && t[len] == '\0')
			return t;
		j = (j + 1) & (p->cap - 1);
	}
	copy = pool_alloc(p, len + 1);
	if (!copy) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(copy, s, len);
	copy[len] = '\0';
	p->slot[j] = copy;
	p->nr++;
	return copy;
}

const char *hm_strpool__intern(struct hm_strpool *p, const char *s)
{
	return hm_strpool__intern_len(p, s, strlen(s));
}
