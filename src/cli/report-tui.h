/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_REPORT_TUI_H
#define HITMAP_CLI_REPORT_TUI_H

#include <stdbool.h>
#include "report/report.h"
#include "report/render-c2c.h"

/* Whether --tui can open: standard input and output are terminals. */
bool hm_cli__tui_possible(void);
/* Run the browser over @r (the pass has ended); 0 or a negative errno, after printing it. */
int hm_cli__report_tui(struct hm_report *r, const struct hm_render_opts *rd, const char *symfs);

#endif
