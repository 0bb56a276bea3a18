/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_REPORT_TUI_FUTEX_H
#define HITMAP_REPORT_TUI_FUTEX_H

/*
 * The futex views (--by bucket, --by field, --by socket) as TUI tables:
 * the same rows, columns and numbers as their --stdio text, in its order,
 * columns the file's mode cannot fill left out.  Bucket rows (and the
 * other futex objects after them) carry their memory: key = address,
 * key2 = size, so that Enter can open their cache lines.
 * NULL with errno: no futex views in this report (ENOENT), or ENOMEM.
 */
#include "report.h"
#include "tui-table.h"

struct hm_tui_table *hm_tui_futex__buckets(const struct hm_report *r);
struct hm_tui_table *hm_tui_futex__fields(const struct hm_report *r);
struct hm_tui_table *hm_tui_futex__sockets(const struct hm_report *r);
/* Whether the file has memory samples (false: lock contention alone, or no futex views). */
bool hm_tui_futex__memory_mode(const struct hm_report *r);

#endif
