// SPDX-License-Identifier: GPL-2.0-only
/* hitmap report --tui: the CLI side (when it opens, errors). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "report/tui.h"
#include "report-tui.h"
#include "util/clock.h"

bool hm_cli__tui_possible(void)
{
	const char *term = getenv("TERM");

	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term && strcmp(term, "dumb");
}

int hm_cli__report_tui(struct hm_report *r, const struct hm_render_opts *rd, const char *symfs)
{
	struct hm_tui_opts o = { .sort = rd->sort, .show_all = rd->show_all, .symfs = symfs };
	int err;

	o.t_ready = hm_clock__mono();
	o.t_ready_cpu = hm_clock__thread_cpu();
	err = hm_tui__run(r, &o);
	if (err < 0)
		hm_cli__error("report --tui: %s; fix: run it in a terminal, or use --stdio", strerror(-err));
	return err;
}
