// SPDX-License-Identifier: GPL-2.0-only
/* hitmap report --tui: the CLI side (when it opens, errors). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "report/tui.h"
#include "report-tui.h"

bool hm_cli__tui_possible(void)
{
	const char *term = getenv("TERM");

	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term && strcmp(term, "dumb");
}

int hm_cli__report_tui(struct hm_report *r, const struct hm_render_opts *rd, const char *symfs)
{
	struct hm_tui_opts o = { .sort = rd->sort, .show_all = rd->show_all, .symfs = symfs };
	struct timespec ts;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	o.t_ready = ts.tv_sec + ts.tv_nsec / 1e9;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	o.t_ready_cpu = ts.tv_sec + ts.tv_nsec / 1e9;
	err = hm_tui__run(r, &o);
	if (err < 0)
		hm_cli__error("report --tui: %s; fix: run it in a terminal, or use --stdio", strerror(-err));
	return err;
}
