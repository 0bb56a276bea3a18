/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HM_REPORT_HTML_ESC_H
#define HM_REPORT_HTML_ESC_H
#include <stdio.h>

/* @s as HTML text or attribute value: < > & " escaped. */
static inline void hm_html__escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

#endif
