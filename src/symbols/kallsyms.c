// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel symbols from kallsyms text ("ffffffff81000000 T _text [module]").
 * One sorted array, binary search.  Sizes come from the next symbol, as in
 * perf's symbols__fixup_end(): the last symbol of the kernel image or of a
 * module (the next one changes between kernel and module) ends at the next
 * page boundary plus 4096, capped at the next symbol.  Aliases at one
 * address collapse to one name (global before weak before local, then the
 * fewest leading underscores, then the first seen).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <hitmap/log.h>
#include "symbols-priv.h"
#include "util/bigalloc.h"

#define HM_KSYMS_MAX_BYTES	(256u << 20)

struct hm_ksyms {
	struct hm_ksym *v;	/* all symbols, by address, best alias first */
	size_t nr, alloc;	/* v: hm_big__alloc'ed, room for every line of the text */
	bool unsorted, aliases;	/* an address below, or equal to, the one before it */
	u32 *uniq;		/* index of the first symbol of each address */
	size_t nr_uniq, uniq_alloc;	/* uniq: hm_big__alloc'ed for uniq_alloc */
	bool all_zero;
	char *text;		/* our copy of the input: names point into it */
	size_t text_size;	/* its mapping's size (hm_big__alloc) */
	struct hm_strpool *pool;	/* module names */
};

static bool keep_type(char t)
{
	switch (t & ~0x20) {	/* ASCII upper case */
	case 'T': case 'W': case 'D': case 'B':	/* perf's symbol_type__filter() */
		return true;
	default:
		return false;
	}
}

/*
 * Aliases: perf 6.1 runs symbols__fixup_end() before symbols__fixup_duplicate()
 * on kallsyms, so only the last alias of an address has a size and
 * choose_best_symbol() keeps it: the last one in file order wins.
 */
static int cmp_addr(const void *a, const void *b)
{
	const struct hm_ksym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;	/* end holds the input order here */
}

/*
 * kallsyms lists the kernel's symbols by address (a 121k-symbol
 * /proc/kallsyms: no address goes down): then cmp_addr's order is the
 * input's with each run of aliases reversed, without qsort's n log n
 * compares.
 */
static void reverse_runs(struct hm_ksym *v, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j].start == v[i].start; j++)
			;
		for (size_t a = i, b = j - 1; a < b; a++, b--) {
			struct hm_ksym t = v[a];

			v[a] = v[b];
			v[b] = t;
		}
	}
}

/* perf's fixup_end only tells the kernel from modules (a '[' in the name). */
static bool same_image(const struct hm_ksym *a, const struct hm_ksym *b)
{
	return !a->module == !b->module;
}

static u64 roundup_page(u64 a)
{
	u64 r = (a + 4095) & ~4095ULL;

	return r < a ? ~0ULL : r;
}

/*
 * @v's first @p symbols are in address order (aliases in input order),
 * the rest in any order: all of them in cmp_addr's order, the short tail
 * sorted alone and merged from the back.  A running kernel's kallsyms is
 * such a file: the BPF programs' symbols ("[bpf]") come last, below the
 * modules.  -ENOMEM (then @v is as it was).
 */
static int sort_tail(struct hm_ksym *v, size_t p, size_t n)
{
	size_t t = n - p, o = n;
	struct hm_ksym *tail = malloc(t * sizeof(*tail));

	if (!tail)
		return -ENOMEM;
	reverse_runs(v, p);
	memcpy(tail, v + p, t * sizeof(*tail));
	qsort(tail, t, sizeof(*tail), cmp_addr);
	while (t) {
		if (p && cmp_addr(&v[p - 1], &tail[t - 1]) > 0)
			v[--o] = v[--p];
		else
			v[--o] = tail[--t];
	}
	free(tail);
	return 0;
}

static int fixup(struct hm_ksyms *k)
{
	size_t n = 0;

	if (k->unsorted) {
		size_t p = 1;

		while (p < k->nr && k->v[p].start >= k->v[p - 1].start)
			p++;
		/* a sorted prefix and a short tail: no n log n compares over the whole table */
		if (k->nr - p > k->nr / 16 || sort_tail(k->v, p, k->nr) < 0)
			qsort(k->v, k->nr, sizeof(*k->v), cmp_addr);
	} else if (k->aliases) {
		reverse_runs(k->v, k->nr);
	}
	k->uniq_alloc = k->nr ? k->nr : 1;
	k->uniq = hm_big__alloc_now(k->uniq_alloc * sizeof(*k->uniq));
	if (!k->uniq)
		return -ENOMEM;
	for (size_t i = 0; i < k->nr; i++)
		if (!n || k->v[k->uniq[n - 1]].start != k->v[i].start)
			k->uniq[n++] = i;
	k->nr_uniq = n;
	for (size_t u = 0; u < n; u++) {
		struct hm_ksym *s = &k->v[k->uniq[u]];
		const struct hm_ksym *next = u + 1 < n ? &k->v[k->uniq[u + 1]] : NULL;
		size_t last = u + 1 < n ? k->uniq[u + 1] : k->nr;
		u64 end;

		if (next && same_image(s, next)) {
			end = next->start;
		} else if (next) {	/* last of the kernel or of a module */
			end = roundup_page(s->start + 4096);
			if (end > next->start)
				end = next->start;
		} else {
			end = roundup_page(s->start) + 4096;
			if (end < s->start)
				end = ~0ULL;
		}
		for (size_t i = k->uniq[u]; i < last; i++)
			k->v[i].end = end;
	}
	return 0;
}

/* A hex digit's value + 1; 0: not a hex digit. */
static const u8 hex_plus1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ONES	0x0101010101010101ULL
/*
 * 8 characters at @q as hex digits (q[0] the most significant) to *@v, 8
 * at once: each byte's value is its low nibble, plus 9 for a letter (bit
 * 6); the check writes those values back as lower-case hex and wants the
 * input to be that, or its upper case where a letter is: so exactly the 22
 * hex digits pass.  false: one is not a hex digit.
 */
static bool hex8(const char *q, u32 *v)
{
	u64 x, nib, ten, enc;

	memcpy(&x, q, 8);				/* q[0] in the low byte */
	nib = (x & 0x0f * ONES) + ((x >> 6) & ONES) * 9;	/* 0..24 a byte */
	ten = ((nib + 0x76 * ONES) >> 7) & ONES;	/* 1 where the value is 10 or more */
	enc = nib + 0x30 * ONES + ten * 0x27;		/* '0'-'9', 'a'-'f' (for values < 16) */
	if (((nib + 0x70 * ONES) & 0x80 * ONES) || ((x ^ enc) & ~(ten * 0x20)))
		return false;
	/* the bytes' nibbles in order: pairs, then quads, then all 8 */
	nib = (nib & 0x00ff00ff00ff00ffULL) << 4 | ((nib >> 8) & 0x00ff00ff00ff00ffULL);
	nib = (nib & 0x0000ffff0000ffffULL) << 8 | ((nib >> 16) & 0x0000ffff0000ffffULL);
	*v = (u32)((nib & 0xffff) << 16 | ((nib >> 32) & 0xffff));
	return true;
}

/*
 * @q's first 16 characters as hex digits followed by a blank (a kernel's
 * address as kallsyms prints it), to *@v; false when they are not, and
 * the caller parses them digit by digit.
 */
static bool hex16(const char *q, u64 *v)
{
	u32 hi, lo;

	if ((q[16] != ' ' && q[16] != '\t') || !hex8(q, &hi) || !hex8(q + 8, &lo))
		return false;
	*v = (u64)hi << 32 | lo;
	return true;
}

/*
 * The first byte of @q .. @eol (a '\n' or the NUL after the text) below
 * '!', 8 at once: every byte that can end a name is one, and the caller's
 * scan to the next blank or CR goes on from there past any other.
 */
static char *name_scan(char *q, const char *eol)
{
	for (; q + 8 <= eol; q += 8) {
		u64 x, m;

		memcpy(&x, q, 8);
		m = (x - 0x21 * ONES) & ~x & 0x80 * ONES;	/* bytes below '!': exact for the first */
		if (m)
			return q + __builtin_ctzll(m) / 8;
	}
	while (q < eol && (unsigned char)*q > ' ')
		q++;
	return q;
}
#else
/*
 * @q's first 16 characters as hex digits followed by a blank (a kernel's
 * address as kallsyms prints it), to *@v; false when they are not, and
 * the caller parses them digit by digit.  No branch a digit.
 */
static bool hex16(const char *q, u64 *v)
{
	u64 a = 0;
	unsigned int ok = q[16] == ' ' || q[16] == '\t';

	for (int i = 0; i < 16; i++) {
		unsigned int t = hex_plus1[(unsigned char)q[i]];

		ok &= t != 0;
		a = a << 4 | ((t - 1) & 15);
	}
	*v = a;
	return ok;
}

static char *name_scan(char *q, const char *eol)
{
	while (q < eol && (unsigned char)*q > ' ')
		q++;
	return q;
}
#endif

/* Lines in @len bytes of @text: at most that many symbols. */
static size_t count_lines(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	size_t n = 1;

	while (p < end && (p = memchr(p, '\n', end - p))) {
		n++;
		p++;
	}
	return n;
}

/*
 * Parse @owned (@len bytes, one spare byte after them, hm_big__alloc'ed
 * with @size bytes), taking ownership.
 */
static struct hm_ksyms *parse_owned(char *owned, size_t len, size_t size)
{
	struct hm_ksyms *k = calloc(1, sizeof(*k));
	char *text = owned;
	char *p = text, *end = text + len;
	size_t lineno = 0, order = 0;

	if (!k) {
		hm_big__free(owned, size);
		return NULL;
	}
	owned[len] = '\0';	/* the spare byte: where the scans below stop */
	k->text = owned;
	k->text_size = size;
	k->pool = hm_strpool__new();
	if (!k->pool)
		goto nomem;
	/* one mapping for every line's symbol: no copies as it grows, huge pages */
	k->alloc = count_lines(text, len);
	k->v = hm_big__alloc_now(k->alloc * sizeof(*k->v));	/* written in order */
	if (!k->v)
		goto nomem;
	k->all_zero = true;
	while (p < end) {
		char *eol = memchr(p, '\n', end - p);
		char *q, *name, *nend, *mod = NULL, *mend = NULL;
		bool ovf;
		u64 addr;
		char type;
		size_t n;

		if (!eol)
			eol = end;
		lineno++;
		q = p;
		p = eol + 1;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q == eol || *q == '\0')
			continue;	/* blank line (or NUL padding) */
		/* at most 31 hex digits; past 64 bits the address saturates (as strtoull) */
		n = 0;
		addr = 0;
		ovf = false;
		if (eol - q > 16 && hex16(q, &addr)) {
			n = 16;		/* what the kernel prints */
		} else {
			unsigned int t;

			addr = 0;	/* *eol is a '\n' or the NUL after the text: not a digit */
			while (n < 31 && (t = hex_plus1[(unsigned char)q[n]])) {
				ovf |= addr >> 60 != 0;
				addr = addr << 4 | (t - 1);
				n++;
			}
		}
		if (ovf)
			addr = ~0ULL;
		if (!n || q + n >= eol || (q[n] != ' ' && q[n] != '\t'))
			goto bad;
		q += n;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= eol)
			goto bad;
		type = *q++;
		if (q >= eol || (*q != ' ' && *q != '\t'))
			goto bad;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		name = q;
		q = name_scan(q, eol);
		while (q < eol && *q != ' ' && *q != '\t' && *q != '\r')
			q++;	/* past a NUL or another control character inside the name */
		nend = q;
		if (nend == name)
			goto bad;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q < eol && *q == '[') {
			mod = q + 1;
			mend = memchr(mod, ']', eol - mod);
			if (!mend)
				mend = eol;
		}
		if (addr)
			k->all_zero = false;
		if (!keep_type(type))
			continue;
		struct hm_ksym *s = &k->v[k->nr];

		if (k->nr) {
			k->unsorted |= addr < s[-1].start;
			k->aliases |= addr == s[-1].start;
		}

		s->start = addr;
		s->end = order++;	/* input order, for stable alias choice */
		s->type = type;
		*nend = '\0';	/* the byte after a name is a separator (or the spare one) */
		s->name = name;
		s->module = mod ? hm_strpool__intern_len(k->pool, mod, mend - mod) : NULL;
		if (mod && !s->module)
			goto nomem;
		k->nr++;
		continue;
bad:
		hm_err("kallsyms: line %zu: expected \"ADDRESS TYPE NAME [MODULE]\"; fix or regenerate the file (cat /proc/kallsyms)",
		       lineno);
		hm_ksyms__delete(k);
		errno = EINVAL;
		return NULL;
	}
	if (fixup(k) < 0)
		goto nomem;
	return k;
nomem:
	hm_ksyms__delete(k);
	errno = ENOMEM;
	return NULL;
}

struct hm_ksyms *hm_ksyms__load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	/* /proc/kallsyms has no size: 4.6 MB on a 121k-symbol kernel */
	size_t len = 0, alloc = 8u << 20;
	struct stat st;
	char *buf;
	struct hm_ksyms *k;
	bool sized;
	int err;

	if (fd < 0) {
		err = errno;
		hm_err("%s: %s; pass a readable file with --kallsyms", path, strerror(err));
		errno = err;
		return NULL;
	}
	sized = !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
		(u64)st.st_size < HM_KSYMS_MAX_BYTES;
	if (sized)
		alloc = (size_t)st.st_size + 2;	/* the spare byte, and one to see the end */
	/* its size known, all of it is read into: faulted in at once */
	buf = sized ? hm_big__alloc_now(alloc) : hm_big__alloc(alloc);
	if (!buf)
		goto nomem;
	for (;;) {
		ssize_t n;

		if (len + 1 >= alloc) {	/* keep a spare byte for the parser */
			char *nb = hm_big__realloc(buf, alloc, alloc * 2);

			if (!nb)
				goto nomem;
			buf = nb;
			alloc *= 2;
		}
		n = read(fd, buf + len, alloc - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			hm_err("%s: offset %zu: read: %s", path, len, strerror(err));
			hm_big__free(buf, alloc);
			close(fd);
			errno = err;
			return NULL;
		}
		if (n == 0)
			break;
		/* kallsyms is text, and far smaller: not /dev/zero or a binary */
		if (memchr(buf + len, 0, n) || len + n > HM_KSYMS_MAX_BYTES) {
			hm_err("%s: offset %zu: %s; pass /proc/kallsyms or a copy of it with "
			       "--kallsyms", path, len, len + n > HM_KSYMS_MAX_BYTES ?
			       "larger than any kallsyms (256 MiB)" : "a NUL byte: not a kallsyms text");
			hm_big__free(buf, alloc);
			close(fd);
			errno = EINVAL;
			return NULL;
		}
		len += n;
	}
	close(fd);
	k = parse_owned(buf, len, alloc);
	err = errno;
	if (!k && err == EINVAL)
		hm_err("%s: %s", path, hm_log__last_error());
	errno = err;
	return k;
nomem:
	hm_big__free(buf, alloc);
	close(fd);
	errno = ENOMEM;
	return NULL;
}

void hm_ksyms__delete(struct hm_ksyms *k)
{
	if (!k)
		return;
	hm_big__free(k->v, k->alloc * sizeof(*k->v));
	hm_big__free(k->text, k->text_size);
	hm_big__free(k->uniq, k->uniq_alloc * sizeof(*k->uniq));
	hm_strpool__delete(k->pool);
	free(k);
}

size_t hm_ksyms__nr(const struct hm_ksyms *k)
{
	return k ? k->nr : 0;
}

bool hm_ksyms__all_zero(const struct hm_ksyms *k)
{
	return !k || k->all_zero;
}

const struct hm_ksym *hm_ksyms__find(const struct hm_ksyms *k, u64 addr)
{
	size_t lo = 0, hi;
	const struct hm_ksym *s;

	if (!k || k->all_zero)
		return NULL;
	hi = k->nr_uniq;
	while (lo < hi) {	/* first address > addr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[k->uniq[mid]].start > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (!lo)
		return NULL;
	s = &k->v[k->uniq[lo - 1]];
	return addr < s->end ? s : NULL;
}

/*
 * By name: the first symbol of that name in v's order (the lowest address,
 * the best alias first).  A walk over the names, which lie in the text in
 * about v's order: callers ask a name or two a load (the relocation's
 * reference symbol, a diagnostic), and a hash index of 121k names cost
 * about 9 ms to build where the walk takes well under one.
 */
const struct hm_ksym *hm_ksyms__by_name(const struct hm_ksyms *k, const char *name)
{
	if (!k || !name)
		return NULL;
	for (size_t i = 0; i < k->nr; i++) {
		const char *n = k->v[i].name;

		if (n[0] == name[0] && !strcmp(n, name))
			return &k->v[i];
	}
	return NULL;
}

struct hm_ksyms *hm_ksyms__parse(const char *text, size_t len)
{
	char *buf = hm_big__alloc_now(len + 1);

	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(buf, text, len);
	return parse_owned(buf, len, len + 1);
}

int hm_ksyms__kernel_range(const struct hm_ksyms *k, u64 *start, u64 *end)
{
	bool found = false;

	if (!k || k->all_zero)
		return -ENOENT;
	for (size_t i = 0; i < k->nr; i++) {
		const struct hm_ksym *s = &k->v[i];

		if (s->module)
			continue;
		if (!found || s->start < *start)
			*start = s->start;
		if (!found || s->end > *end)
			*end = s->end;
		found = true;
	}
	return found ? 0 : -ENOENT;
}
