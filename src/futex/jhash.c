// SPDX-License-Identifier: GPL-2.0-only
/*
 * jhash2, exactly as include/linux/jhash.h (Bob Jenkins' lookup3 hashword):
 * the futex hash of every kernel era uses it.
 */
#include <hitmap/futex.h>

#define JHASH_INITVAL	0xdeadbeefu

static inline u32 rol32(u32 w, unsigned int s)
{
	return (w << s) | (w >> ((-s) & 31));
}

#define jhash_mix(a, b, c) do {				\
	a -= c; a ^= rol32(c, 4);  c += b;		\
	b -= a; b ^= rol32(a, 6);  a += c;		\
	c -= b; c ^= rol32(b, 8);  b += a;		\
	a -= c; a ^= rol32(c, 16); c += b;		\
	b -= a; b ^= rol32(a, 19); a += c;		\
	c -= b; c ^= rol32(b, 4);  b += a;		\
} while (0)

#define jhash_final(a, b, c) do {			\
	c ^= b; c -= rol32(b, 14);			\
	a ^= c; a -= rol32(c, 11);			\
	b ^= a; b -= rol32(a, 25);			\
	c ^= b; c -= rol32(b, 16);			\
	a ^= c; a -= rol32(c, 4);			\
	b ^= a; b -= rol32(a, 14);			\
	c ^= b; c -= rol32(b, 24);			\
} while (0)

u32 hm_jhash2(const u32 *k, u32 length, u32 initval)
{
	u32 a, b, c;

	a = b = c = JHASH_INITVAL + (length << 2) + initval;
	while (length > 3) {
		a += k[0];
		b += k[1];
		c += k[2];
		jhash_mix(a, b, c);
		length -= 3;
		k += 3;
	}
	switch (length) {
	case 3: c += k[2];	/* fall through */
	case 2: b += k[1];	/* fall through */
	case 1: a += k[0];
		jhash_final(a, b, c);
		break;
	case 0:
		break;
	}
	return c;
}
