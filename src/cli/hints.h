/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_HINTS_H
#define HITMAP_CLI_HINTS_H

#include "report/report.h"

/*
 * After a text report: the next commands worth running for what was found,
 * on stderr, when stderr is a terminal (HITMAP_HINTS=1 forces, =0 turns
 * off), so pipes, files and tests see the same output as before.
 * @view: -1 for the cache-line table, else the --by view.
 */
void hm_cli__report_hints(const struct hm_report *r, const char *input, int view);

#endif
