/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_BIGALLOC_H
#define HITMAP_UTIL_BIGALLOC_H

/*
 * Large tables of the report (hash slots, line arrays) are touched at
 * random, one sample at a time: on 4 KiB pages nearly every access is a TLB
 * miss, which in a VM costs a two-dimensional page walk.  These helpers map
 * them anonymously and ask for transparent huge pages (MADV_HUGEPAGE) once
 * they are large, and hand out small fixed blocks from huge-page chunks.
 * Large buffers filled once (kallsyms' text and symbols) take them too: in
 * this 2-CPU VM a 4 KiB page's first touch cost 10 us (64 MB touched page
 * by page), the same 64 MB on huge pages 0.2-3.6 us a 4 KiB page.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HM_BIG_HUGE	(2UL << 20)	/* advise huge pages from this size */
#define HM_ARENA_CHUNK	(8UL << 20)

/* The size mapped for @bytes: whole pages; whole huge pages from HM_BIG_HUGE on. */
static inline size_t hm_big__round(size_t bytes)
{
	if (bytes >= HM_BIG_HUGE)
		return (bytes + HM_BIG_HUGE - 1) & ~(size_t)(HM_BIG_HUGE - 1);
	return (bytes + 4095) & ~(size_t)4095;
}

/*
 * Zeroed memory of @bytes; NULL on failure.  From HM_BIG_HUGE on, the
 * mapping starts at a huge-page boundary, so that (transparent huge pages
 * allowed) its whole huge pages fault in as such, not its unaligned start.
 * Huge pages are asked for the whole huge pages of @bytes only: a table of
 * 2.5 MB (8192 lines of 320 bytes) touches 2.5 MB, not 4.
 */
static inline void *hm_big__alloc(size_t bytes)
{
	size_t n = hm_big__round(bytes ? bytes : 1), extra = n >= HM_BIG_HUGE ? HM_BIG_HUGE : 0;
	char *p = mmap(NULL, n + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (extra) {
		size_t head = (HM_BIG_HUGE - ((uintptr_t)p & (HM_BIG_HUGE - 1))) & (HM_BIG_HUGE - 1);

		if (head)
			munmap(p, head);
		if (extra - head)
			munmap(p + head + n, extra - head);
		p += head;
	}
#ifdef MADV_HUGEPAGE
	if (n >= HM_BIG_HUGE)
		madvise(p, bytes & ~(HM_BIG_HUGE - 1), MADV_HUGEPAGE);
#endif
	return p;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23	/* Linux 5.14 */
#endif

/*
 * Fault in the pages of [@p, @p + @bytes) (@p page-aligned) in one call,
 * where the caller is about to write them all: a hash table's slots, the
 * next stretch of lines.  In this 2-CPU VM a first touch page by page cost
 * 11 us a page (4 MB in 320-byte steps: 11.4 ms), populated first 6.4 us
 * (6.5 ms with the writes).  Best effort: a kernel before 5.14 answers
 * EINVAL and the pages fault in as they are touched.
 */
static inline void hm_big__populate(void *p, size_t bytes)
{
	if (p && bytes)
		(void)madvise(p, bytes, MADV_POPULATE_WRITE);
}

/* hm_big__alloc with its pages faulted in at once: memory written all over soon. */
static inline void *hm_big__alloc_now(size_t bytes)
{
	void *p = hm_big__alloc(bytes);

	hm_big__populate(p, bytes);
	return p;
}

/* ThreadSanitizer's build (hm_big__realloc copies there) */
#if defined(__SANITIZE_THREAD__)
#define HM_BIG_TSAN	1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HM_BIG_TSAN	1
#endif
#endif
#ifndef HM_BIG_TSAN
#define HM_BIG_TSAN	0
#endif

/*
 * Grow @p from @old to @new bytes, keeping the contents; the tail is zeroed.
 * A table that reaches HM_BIG_HUGE moves to a new aligned mapping, a copy
 * (remapping would keep its small pages).  One already that large that
 * grows keeps its whole huge pages: they move over the new mapping's start
 * as they are, and only the part past them (under 2 MB) is copied.  They
 * are the part hm_big__alloc() advised, a mapping of its own (mremap moves
 * within one).  Each doubling used to fault in the whole new size and copy
 * the old half; fresh memory cost this VM about 1.5 ms a MB after idle.
 */
static inline void *hm_big__realloc(void *p, size_t old, size_t new_)
{
	void *q;

	if (!p)
		return hm_big__alloc(new_);
	/*
	 * ThreadSanitizer does not see mremap: the shadow of a mapping moved
	 * away keeps one thread's writes for the next thread's table there
	 * (false races between two parts of report --threads); copy instead.
	 */
	if (hm_big__round(new_) >= HM_BIG_HUGE || HM_BIG_TSAN) {
		size_t whole = old & ~(HM_BIG_HUGE - 1), on = hm_big__round(old ? old : 1), moved = 0;

		q = hm_big__alloc(new_);
		if (!q)
			return NULL;
		/* refused (nothing moved): the whole table is copied, as before */
		if (whole && new_ > old && !HM_BIG_TSAN &&
		    mremap(p, whole, whole, MREMAP_MAYMOVE | MREMAP_FIXED, q) != MAP_FAILED)
			moved = whole;
		memcpy((char *)q + moved, (char *)p + moved, (old < new_ ? old : new_) - moved);
		if (on > moved)
			munmap((char *)p + moved, on - moved);
		return q;
	}
	q = mremap(p, hm_big__round(old ? old : 1), hm_big__round(new_), MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		return NULL;
	return q;
}

static inline void hm_big__free(void *p, size_t bytes)
{
	if (p)
		munmap(p, hm_big__round(bytes ? bytes : 1));
}

/* A bump allocator over huge-page chunks; freed all at once. */
struct hm_arena {
	char	*cur;
	size_t	left;
	size_t	bytes;		/* handed out */
	void	**chunks;
	size_t	nr_chunks, alloc_chunks;
};

/* Zeroed, 8-byte aligned @bytes (at most HM_ARENA_CHUNK); NULL on failure. */
static inline void *hm_arena__alloc(struct hm_arena *a, size_t bytes)
{
	void *p;

	bytes = (bytes + 7) & ~(size_t)7;
	if (bytes > HM_ARENA_CHUNK)
		return NULL;
	if (bytes > a->left) {
		void *c;

		if (a->nr_chunks == a->alloc_chunks) {
			size_t na = a->alloc_chunks ? a->alloc_chunks * 2 : 16;
			void **nc = realloc(a->chunks, na * sizeof(*nc));

			if (!nc)
				return NULL;
			a->chunks = nc;
			a->alloc_chunks = na;
		}
		c = hm_big__alloc(HM_ARENA_CHUNK);
		if (!c)
			return NULL;
		a->chunks[a->nr_chunks++] = c;
		a->cur = c;
		a->left = HM_ARENA_CHUNK;
	}
	p = a->cur;
	a->cur += bytes;
	a->left -= bytes;
	a->bytes += bytes;
	return p;
}

static inline void hm_arena__release(struct hm_arena *a)
{
	for (size_t i = 0; i < a->nr_chunks; i++)
		hm_big__free(a->chunks[i], HM_ARENA_CHUNK);
	free(a->chunks);
	memset(a, 0, sizeof(*a));
}

#endif
