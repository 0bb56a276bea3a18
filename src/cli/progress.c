// SPDX-License-Identifier: GPL-2.0-only
/*
 * Progress on stderr when it is a terminal: one line, redrawn at most ten
 * times a second, erased at the end.  The one place the library writes to a
 * stream itself: only to a terminal, never into a pipe or file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "progress.h"

struct hm_progress {
	char		label[96];
	uint64_t	total;
	uint64_t	last_ns;
	int		last_pct;
	int		drawn;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int enabled(void)
{
	const char *e = getenv("HITMAP_PROGRESS");

	if (e && *e)
		return strcmp(e, "0") != 0;
	return isatty(STDERR_FILENO);
}

struct hm_progress *hm_progress__new(const char *label, uint64_t total)
{
	struct hm_progress *p;

	if (!enabled())
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	snprintf(p->label, sizeof(p->label), "%s", label ? label : "working");
	p->total = total;
	p->last_pct = -1;
	return p;
}

static void draw(struct hm_progress *p, uint64_t done)
{
	if (p->total) {
		int pct = done >= p->total ? 100 : (int)(done * 100 / p->total);

		if (pct == p->last_pct)
			return;
		p->last_pct = pct;
		fprintf(stderr, "\r%s: %3d%%\033[K", p->label, pct);
	} else {
		fprintf(stderr, "\r%s: %llu\033[K", p->label, (unsigned long long)done);
	}
	fflush(stderr);
	p->drawn = 1;
}

void hm_progress__update(struct hm_progress *p, uint64_t done)
{
	uint64_t t;

	if (!p)
		return;
	t = now_ns();
	/* the first update draws at once; then at most every 100 ms */
	if (p->drawn && t - p->last_ns < 100000000ull && !(p->total && done >= p->total))
		return;
	p->last_ns = t;
	draw(p, done);
}

void hm_progress__delete(struct hm_progress *p)
{
	if (!p)
		return;
	if (p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	free(p);
}

void hm_progress__report_cb(void *priv, uint64_t done, uint64_t total)
{
	struct hm_report_progress *rp = priv;

	if (!rp->p) {
		rp->p = hm_progress__new(rp->label, total);
		if (!rp->p)
			return;
	}
	hm_progress__update(rp->p, done);
}
