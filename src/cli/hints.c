// SPDX-License-Identifier: GPL-2.0-only
/* "next:" lines after a text report: what to run for what was found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hints.h"
#include "report/lines.h"

static bool hints_on(void)
{
	const char *e = getenv("HITMAP_HINTS");

	if (e && *e)
		return strcmp(e, "0") != 0;
	return isatty(STDERR_FILENO);
}

void hm_cli__report_hints(const struct hm_report *r, const char *input, int view)
{
	const char *in = input ? input : "perf.data";
	char html[512];
	const char *dot;
	size_t lines = hm_report__lines(r) ? hm_lines__count(hm_report__lines(r)) : 0;
	bool mem = hm_report__has_memory_samples(r);	/* else contention mode or empty */

	if (!hints_on())
		return;
	dot = strrchr(in, '.');
	snprintf(html, sizeof(html), "%.*s.html", dot && dot != in && !strchr(dot, '/') ? (int)(dot - in) : (int)strlen(in), in);
	fprintf(stderr, "\nnext:\n");
	if (view < 0 && !lines)
		fprintf(stderr, "  hitmap report -i %s --by bucket    # no shared cache lines here%s\n", in,
			mem ? "" : " (contention mode): the buckets and their waiters");
	if (view < 0 && lines)
		fprintf(stderr, "  hitmap report -i %s --tui          # browse: lines -> offsets -> code -> source\n"
			"  hitmap report -i %s --by bucket    # which futex hash buckets these lines are\n", in, in);
	if (view == HM_BY_BUCKET)
		fprintf(stderr, "  hitmap report -i %s --by socket    # who pulls the hottest buckets across sockets\n"
			"%s", in, mem ? "" : "  (contention mode: the CALLERS column names who waits; record on a machine with\n"
			"   PEBS, IBS or SPE for the fields, HITM and sockets of each bucket)\n");
	if (view == HM_BY_SOCKET || view == HM_BY_FIELD)
		fprintf(stderr, "  hitmap report -i %s --by bucket    # the buckets behind these numbers\n", in);
	if (mem)
		fprintf(stderr, "  hitmap report -i %s --html %s   # heat map of buckets x sockets, fields to scale\n",
			in, html);
	fprintf(stderr, "  hitmap diff %s OTHER.data          # compare with another run (kernel, placement, hash size)\n"
		"  hitmap help report                   # every column and view\n", in);
}
