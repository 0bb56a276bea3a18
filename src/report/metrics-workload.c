// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workload results (HM_META_WORKLOAD, a JSON object) flattened into the
 * metric set as workload.a.b numbers (hm_metrics__add_workload).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "metrics.h"

struct jscan {
	const char *p, *end;
	struct hm_metrics *m;
	int n;
	int depth;
};

static void js_ws(struct jscan *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

/* A JSON string into @buf (escapes kept simple: \x -> x); -1 on error. */
static int js_string(struct jscan *j, char *buf, size_t size)
{
	size_t n = 0;

	if (j->p >= j->end || *j->p != '"')
		return -1;
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;

		if (c == '\\' && j->p < j->end) {
			c = *j->p++;
			if (c == 'u') {
				j->p += 4;
				c = '?';
			}
		}
		if (n + 1 < size)
			buf[n++] = c;
	}
	if (j->p >= j->end)
		return -1;
	j->p++;
	buf[n] = 0;
	return 0;
}

static int js_value(struct jscan *j, const char *prefix);

static int js_object(struct jscan *j, const char *prefix)
{
	char key[128], path[256];

	j->p++;	/* { */
	js_ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		js_ws(j);
		if (js_string(j, key, sizeof(key)))
			return -1;
		for (char *c = key; *c; c++)
			if (*c == ' ' || *c == '\t')
				*c = '_';
		js_ws(j);
		if (j->p >= j->end || *j->p != ':')
			return -1;
		j->p++;
		js_ws(j);
		snprintf(path, sizeof(path), "%s.%s", prefix, key);
		if (js_value(j, path))
			return -1;
		js_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			return 0;
		}
		return -1;
	}
}

static int js_skip_array(struct jscan *j)
{
	int depth = 0;
	bool str = false;

	for (; j->p < j->end; j->p++) {
		char c = *j->p;

		if (str) {
			if (c == '\\')
				j->p++;
			else if (c == '"')
				str = false;
			continue;
		}
		if (c == '"')
			str = true;
		else if (c == '[' || c == '{')
			depth++;
		else if (c == ']' || c == '}') {
			if (--depth == 0) {
				j->p++;
				return 0;
			}
		}
	}
	return -1;
}

static int js_value(struct jscan *j, const char *prefix)
{
	char tmp[128];

	if (++j->depth > 16)
		return -1;
	js_ws(j);
	if (j->p >= j->end)
		return -1;
	if (*j->p == '{') {
		int r = js_object(j, prefix);

		j->depth--;
		return r;
	}
	j->depth--;
	if (*j->p == '[')
		return js_skip_array(j);
	if (*j->p == '"')
		return js_string(j, tmp, sizeof(tmp));
	if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9')) {
		size_t n = 0;
		double v;
		char *e;

		while (j->p + n < j->end && n + 1 < sizeof(tmp) &&
		       strchr("+-.eE0123456789", j->p[n])) {
			tmp[n] = j->p[n];
			n++;
		}
		tmp[n] = 0;
		j->p += n;
		v = strtod(tmp, &e);
		if (e == tmp)
			return -1;
		/* "...samples", "...lost": counts, tested like hitmap.samples */
		size_t pl = strlen(prefix);
		bool count = (pl >= 7 && !strcmp(prefix + pl - 7, "samples")) ||
			     (pl >= 4 && !strcmp(prefix + pl - 4, "lost"));

		if (hm_metrics__set(j->m, prefix, v, HM_MG_WORKLOAD, HM_MATCH_WORKLOAD, count) < 0)
			return -1;
		j->n++;
		return 0;
	}
	/* true / false / null */
	while (j->p < j->end && *j->p >= 'a' && *j->p <= 'z')
		j->p++;
	return 0;
}

int hm_metrics__add_workload(struct hm_metrics *m, const char *json, size_t len)
{
	struct jscan j = { .p = json, .end = json + len, .m = m };

	js_ws(&j);
	if (j.p >= j.end || *j.p != '{')
		return -EINVAL;
	if (js_object(&j, "workload")) {
		hm_warn("workload results (HM_META_WORKLOAD): not a JSON object near byte %td; ignored",
			j.p - json);
		return -EINVAL;
	}
	return j.n;
}
