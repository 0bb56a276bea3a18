/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HM_REPORT_HTML_ESC_H
#define HM_REPORT_HTML_ESC_H
#include <stdio.h>
#include "util/utf8.h"

/*
 * @s as HTML text or attribute value: < > & " escaped, and a byte that is
 * not well-formed UTF-8 (a file name's) as U+FFFD: the page says UTF-8.
 */
static inline void hm_html__escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n;

		switch (*p) {
		case '<': fputs("&lt;", f); p++; continue;
		case '>': fputs("&gt;", f); p++; continue;
		case '&': fputs("&amp;", f); p++; continue;
		case '"': fputs("&quot;", f); p++; continue;
		}
		n = hm_utf8__len(p);
		if (!n) {
			fputs("&#xfffd;", f);
			p++;
			continue;
		}
		fwrite(p, 1, (size_t)n, f);
		p += n;
	}
}

#endif
