// SPDX-License-Identifier: GPL-2.0-only
/* perf's stdio table layout; see render-cols.h. */
#include <stdlib.h>
#include <string.h>
#include "render-cols.h"

/*
 * perf's row buffer (hists__fprintf()): the columns' width + 3 + 1, plus
 * perf_hpp__color_overhead(), (COLOR_MAXLEN 24 + sizeof(PERF_COLOR_RESET) 4)
 * for each PERF_HPP__MAX_INDEX output field whether shown or not.  That
 * enum grew, and with it the room for a long -NN cpu list: 8 fields in perf
 * 6.1 (overhead, overhead_sys/us/guest_sys/guest_us, overhead_acc,
 * samples, period), 11 in 6.12 (+ weight1-3), 18 in 7.3 (+ latency,
 * latency_acc and mem_stat op/cache/memory/snoop/dtlb, both after 6.12).
 * Measured against the three perfs: rows end at 466, 550 and 746
 * characters on the same table (tests/sh/report-pareto.sh, sim-wide).
 */
static size_t row_slack(enum hm_perf_compat v)
{
	int fields = v == HM_PERF_6_1 ? 8 : v == HM_PERF_6_12 ? 11 : 18;

	return 3 + 1 + 28 * (size_t)fields;
}

/* bitmap_scnprintf(): "0-1,3" of the set bits below @nbits */
size_t hm_cols__bits_list(const u64 *v, int nbits, char *buf, size_t size)
{
	size_t len = 0;
	int b = 0;

	buf[0] = '\0';
	while (b < nbits) {
		int a;

		if (!((v[b / 64] >> (b % 64)) & 1)) {
			b++;
			continue;
		}
		a = b;
		while (b + 1 < nbits && ((v[(b + 1) / 64] >> ((b + 1) % 64)) & 1))
			b++;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, a == b ? "%s%d" : "%s%d-%d",
						len ? "," : "", a, b);
		b++;
	}
	return len < size ? len : size - 1;
}

/* perf's fill_line(): @text centred in dashes over @len */
void hm_cols__fill_line(const char *text, int len, char *buf, size_t size)
{
	int i, j, olen = (int)strlen(text);

	if ((size_t)len + 1 > size)
		len = (int)size - 1;
	memset(buf, 0, size);
	j = len / 2 - olen / 2;
	for (i = 0; i < j - 1; i++)
		buf[i] = '-';
	buf[i++] = ' ';
	memcpy(buf + i, text, (size_t)olen);
	i += olen;
	buf[i++] = ' ';
	for (; i < len; i++)
		buf[i] = '-';
}

void hm_cols__add(struct hm_cols *l, int id, int width, const char *h0, int span, const char *h1)
{
	if (l->n < HM_COLS_MAX)
		l->c[l->n++] = (struct hm_col){ id, width, h0, span, h1 };
}

void hm_cols__print_header(const struct hm_cols *l, FILE *f)
{
	for (int line = 0; line < 2; line++) {
		int span = 0;

		fputs("# ", f);
		for (int i = 0; i < l->n; i++) {
			const char *t = line ? l->c[i].h1 : l->c[i].h0;

			/* a spanned column prints neither separator nor title */
			if (span) {
				span--;
				continue;
			}
			if (i)
				fputs("  ", f);
			fprintf(f, "%*s", l->c[i].width, t ? t : "");
			if (!line)
				span = l->c[i].span;
		}
		fputs("\n", f);
	}
	fputs("# ", f);
	for (int i = 0; i < l->n; i++) {
		if (i)
			fputs("  ", f);
		for (int k = 0; k < l->c[i].width; k++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
}

void hm_row__cell(struct hm_row *rb, const struct hm_col *c, bool last, const char *text)
{
	size_t n = strlen(text);

	if (rb->err)
		return;
	if (rb->len + 2 + n + (size_t)c->width + 1 > rb->cap) {
		size_t nc = (rb->cap ? rb->cap : 256) * 2 + n + (size_t)c->width;
		char *nb = realloc(rb->b, nc);

		if (!nb) {
			rb->err = true;
			return;
		}
		rb->b = nb;
		rb->cap = nc;
	}
	memcpy(rb->b + rb->len, "  ", 2);
	rb->len += 2;
	memcpy(rb->b + rb->len, text, n);
	rb->len += n;
	if (!last && (int)n < c->width) {
		memset(rb->b + rb->len, ' ', (size_t)c->width - n);
		rb->len += (size_t)c->width - n;
	}
	rb->b[rb->len] = '\0';
}

void hm_row__flush(struct hm_row *rb, const struct hm_cols *l, enum hm_perf_compat v, FILE *f)
{
	size_t max = row_slack(v) - 1;

	for (int i = 0; i < l->n; i++)
		max += (size_t)l->c[i].width + (i ? 2 : 0);
	if (rb->b && !rb->err)
		fprintf(f, "%.*s\n", (int)(rb->len < max ? rb->len : max), rb->b);
	rb->len = 0;
	if (rb->b)
		rb->b[0] = '\0';
}

void hm_row__release(struct hm_row *rb)
{
	free(rb->b);
	memset(rb, 0, sizeof(*rb));
}
