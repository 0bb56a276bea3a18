// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <hitmap/json.h>
#include "util/utf8.h"

#define HM_JSON_DEPTH 64

struct hm_json {
	FILE	*f;
	bool	pretty;
	int	depth;
	bool	first[HM_JSON_DEPTH];
	char	close[HM_JSON_DEPTH];
};

struct hm_json *hm_json__new(FILE *f, bool pretty)
{
	struct hm_json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->f = f;
	j->pretty = pretty;
	j->first[0] = true;
	return j;
}

void hm_json__write_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		int n;

		switch (*p) {
		case '"':  fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20) {
				fprintf(f, "\\u%04x", *p);
				break;
			}
			/* JSON text is UTF-8: each byte that starts no valid sequence becomes U+FFFD */
			n = hm_utf8__len(p);
			if (!n) {
				fputs("\\ufffd", f);
				break;
			}
			fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		}
		p++;
	}
	fputc('"', f);
}

static void indent(struct hm_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* separator, indentation and key before a value */
static void prefix(struct hm_json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->depth)
		indent(j);
	if (key) {
		hm_json__write_string(j->f, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
}

static void open(struct hm_json *j, const char *key, char o, char c)
{
	prefix(j, key);
	fputc(o, j->f);
	if (j->depth + 1 < HM_JSON_DEPTH) {
		j->depth++;
		j->first[j->depth] = true;
		j->close[j->depth] = c;
	}
}

static void close_one(struct hm_json *j)
{
	bool empty;

	if (!j->depth)
		return;
	empty = j->first[j->depth];
	j->depth--;
	if (!empty)
		indent(j);
	fputc(j->close[j->depth + 1], j->f);
}

void hm_json__obj_begin(struct hm_json *j, const char *key) { open(j, key, '{', '}'); }
void hm_json__obj_end(struct hm_json *j) { close_one(j); }
void hm_json__arr_begin(struct hm_json *j, const char *key) { open(j, key, '[', ']'); }
void hm_json__arr_end(struct hm_json *j) { close_one(j); }

void hm_json__str(struct hm_json *j, const char *key, const char *val)
{
	prefix(j, key);
	if (val)
		hm_json__write_string(j->f, val);
	else
		fputs("null", j->f);
}

void hm_json__u64(struct hm_json *j, const char *key, uint64_t val)
{
	prefix(j, key);
	fprintf(j->f, "%" PRIu64, val);
}

void hm_json__s64(struct hm_json *j, const char *key, int64_t val)
{
	prefix(j, key);
	fprintf(j->f, "%" PRId64, val);
}

/*
 * The shortest of %.15g and %.17g that reads back as @val (17 significant
 * digits always do); integral values within 2^53 as integers, without an
 * exponent.  A locale's decimal comma becomes a point.
 */
static void format_double(char *buf, size_t size, double val)
{
	if (val == 0) {
		snprintf(buf, size, "0");
		return;
	}
	if (fabs(val) <= 9007199254740992.0 && val == trunc(val)) {
		snprintf(buf, size, "%.0f", val);
		return;
	}
	snprintf(buf, size, "%.15g", val);
	if (strtod(buf, NULL) != val)
		snprintf(buf, size, "%.17g", val);
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
}

void hm_json__double(struct hm_json *j, const char *key, double val)
{
	char buf[40];

	prefix(j, key);
	if (!isfinite(val)) {
		fputs("null", j->f);	/* JSON has no NaN or infinity */
		return;
	}
	format_double(buf, sizeof(buf), val);
	fputs(buf, j->f);
}

void hm_json__bool(struct hm_json *j, const char *key, bool val)
{
	prefix(j, key);
	fputs(val ? "true" : "false", j->f);
}

void hm_json__hex(struct hm_json *j, const char *key, uint64_t val)
{
	prefix(j, key);
	fprintf(j->f, "\"0x%" PRIx64 "\"", val);
}

void hm_json__delete(struct hm_json *j)
{
	if (!j)
		return;
	while (j->depth)
		close_one(j);
	fputc('\n', j->f);
	free(j);
}
