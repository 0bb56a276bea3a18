// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap script: inlined frames (script-inline.h).  A chain repeats its
 * addresses sample after sample, and a DWARF walk costs a unit's scan:
 * the frames are kept per (file, offset in the file).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "script-inline.h"
#include "util/htab.h"

#define MAX_FRAMES 64

struct cached {
	const char	*filename;	/* hm_maps' pooled pointer */
	u64		off;
	u32		first, nr;	/* frames[first .. first + nr) */
};

struct hm_script_inline {
	struct hm_htab		index;	/* key -> entries index + 1 */
	struct cached		*entries;
	size_t			nr_entries, alloc_entries;
	struct hm_inline_frame	*frames;
	size_t			nr_frames, alloc_frames;
	struct hm_inline_frame	tmp[MAX_FRAMES];
};

struct hm_script_inline *hm_script_inline__new(void)
{
	struct hm_script_inline *si = calloc(1, sizeof(*si));

	if (!si) {
		errno = ENOMEM;
		return NULL;
	}
	hm_htab__init(&si->index);
	return si;
}

void hm_script_inline__delete(struct hm_script_inline *si)
{
	if (!si)
		return;
	hm_htab__fini(&si->index);
	free(si->entries);
	free(si->frames);
	free(si);
}

static int grow(void **p, size_t *alloc, size_t need, size_t size)
{
	size_t na = *alloc ? *alloc : 64;
	void *nv;

	if (need <= *alloc)
		return 0;
	while (na < need)
		na *= 2;
	nv = realloc(*p, na * size);
	if (!nv)
		return -ENOMEM;
	*p = nv;
	*alloc = na;
	return 0;
}

int hm_script_inline__frames(struct hm_script_inline *si, struct hm_symbols *syms,
			     const struct hm_map *map, u64 ip, const struct hm_inline_frame **out)
{
	u64 off = ip - map->start + map->pgoff;
	u64 key = hm_hash_u64((u64)(uintptr_t)map->filename) ^ off, *slot;
	struct cached *c;
	bool added;
	int n;

	slot = hm_htab__find(&si->index, key);
	if (slot) {
		c = &si->entries[*slot - 1];
		if (c->filename == map->filename && c->off == off) {
			*out = si->frames + c->first;
			return (int)c->nr;
		}
	}
	n = hm_symbols__inlines(syms, map, ip, si->tmp, MAX_FRAMES);
	if (n < 0)
		return n;
	*out = si->tmp;
	if (slot)	/* another address has the key: not kept */
		return n;
	if (grow((void **)&si->entries, &si->alloc_entries, si->nr_entries + 1, sizeof(*c)) < 0 ||
	    grow((void **)&si->frames, &si->alloc_frames, si->nr_frames + n, sizeof(*si->frames)) < 0)
		return -ENOMEM;
	slot = hm_htab__insert(&si->index, key, &added);
	if (!slot)
		return -ENOMEM;
	c = &si->entries[si->nr_entries++];
	*slot = si->nr_entries;
	c->filename = map->filename;
	c->off = off;
	c->first = (u32)si->nr_frames;
	c->nr = (u32)n;
	for (int i = 0; i < n; i++)
		si->frames[si->nr_frames++] = si->tmp[i];
	return n;
}
