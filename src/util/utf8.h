/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HM_UTIL_UTF8_H
#define HM_UTIL_UTF8_H
/* UTF-8 checks for the writers of text formats (JSON, HTML). */

/*
 * The length of the well-formed UTF-8 sequence at @p (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), 0 if there is none.
 */
static inline int hm_utf8__len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;	/* a continuation byte, C0/C1 (overlong) or F5-FF */
	if (p[0] == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (p[0] == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (p[0] == 0xf0)
		lo = 0x90;	/* overlong */
	else if (p[0] == 0xf4)
		hi = 0x8f;	/* past U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	/* the terminating NUL is no continuation byte: never read past it */
	for (int i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

#endif
