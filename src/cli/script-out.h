/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_SCRIPT_OUT_H
#define HITMAP_CLI_SCRIPT_OUT_H

/*
 * hitmap script's output: one big buffer written with write(2) when full
 * and hand-rolled number formatting, so that a sample costs no allocation
 * and no printf.  Shared by cmd-script.c (the sample line) and
 * script-sym.c (ip, symbols, call chains); header-only.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/perf_data.h>

#define OBUF_SIZE (1u << 20)

struct obuf {
	char	*p;
	size_t	len;
	int	fd;
	int	err;
};

static inline void ob_flush(struct obuf *o)
{
	size_t done = 0;

	while (done < o->len && !o->err) {
		ssize_t n = write(o->fd, o->p + done, o->len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			o->err = errno;
			break;
		}
		done += n;
	}
	o->len = 0;
}

static inline char *ob_room(struct obuf *o, size_t n)
{
	if (o->len + n > OBUF_SIZE)
		ob_flush(o);
	return o->p + o->len;
}

static inline void ob_str(struct obuf *o, const char *s, size_t n)
{
	if (n > OBUF_SIZE / 2)
		n = OBUF_SIZE / 2;
	memcpy(ob_room(o, n), s, n);
	o->len += n;
}

static inline void ob_cstr(struct obuf *o, const char *s)
{
	ob_str(o, s, strlen(s));
}

static inline void ob_ch(struct obuf *o, char c)
{
	*ob_room(o, 1) = c;
	o->len++;
}

/* right-aligned in @width (left-aligned when @left) */
static inline void ob_pad(struct obuf *o, const char *s, size_t n, int width, bool left)
{
	char *d = ob_room(o, n + (width > 0 ? width : 0));
	size_t pad = width > (int)n ? width - n : 0;

	if (!left) {
		memset(d, ' ', pad);
		memcpy(d + pad, s, n);
	} else {
		memcpy(d, s, n);
		memset(d + n, ' ', pad);
	}
	o->len += n + pad;
}

static inline int fmt_u64(char *end, u64 v)
{
	char *p = end;

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	return (int)(end - p);
}

static inline int fmt_hex(char *end, u64 v)
{
	static const char hex[] = "0123456789abcdef";
	char *p = end;

	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	return (int)(end - p);
}

static inline int ndigits(u64 v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* decimal straight into the buffer, right- or left-aligned in @width */
static inline void ob_udec(struct obuf *o, u64 v, int width, bool left, bool neg)
{
	int n = ndigits(v) + neg, pad = width > n ? width - n : 0;
	char *d = ob_room(o, n + pad), *p;

	if (!left)
		for (int i = 0; i < pad; i++)
			*d++ = ' ';
	p = d + n;
	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	if (neg)
		*--p = '-';
	d += n;
	if (left)
		for (int i = 0; i < pad; i++)
			*d++ = ' ';
	o->len = d - o->p;
}

static inline void ob_u64(struct obuf *o, u64 v, int width, bool left)
{
	ob_udec(o, v, width, left, false);
}

static inline void ob_s32(struct obuf *o, s32 v, int width, bool left)
{
	if (v >= 0)
		ob_udec(o, (u64)v, width, left, false);
	else
		ob_udec(o, (u64)-(s64)v, width, left, true);
}

/* "%*lx": hex right-aligned in @width */
static inline void ob_hex(struct obuf *o, u64 v, int width)
{
	static const char hex[] = "0123456789abcdef";
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1, pad = width > n ? width - n : 0;
	char *d = ob_room(o, n + pad), *p;

	for (int i = 0; i < pad; i++)
		*d++ = ' ';
	p = d + n;
	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	o->len = d + n - o->p;
}

#endif
