/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_SCRIPT_HEADER_H
#define HITMAP_CLI_SCRIPT_HEADER_H

/*
 * hitmap script --header, --header-only and -I (script-header.c), as perf
 * script prints them: perf_session__fprintf_info() before the samples
 * (full with -I, else "# X info available, use -I to display"), and in
 * pipe mode each feature as its HEADER_FEATURE record comes (with
 * --header or -I).
 */
#include <stdbool.h>
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>
#include "script-out.h"

struct hm_script_header {
	enum hm_perf_compat compat;
	bool	header;		/* --header or --header-only */
	bool	show_info;	/* -I, --show-info */
};

/* The header before the samples (nothing without --header). */
void hm_script_header__begin(const struct hm_script_header *sh, struct hm_reader *r,
			     const char *input);
/* A pipe-mode HEADER_FEATURE record @ev: its feature, after what @o holds. */
void hm_script_header__feature(const struct hm_script_header *sh, struct hm_reader *r,
			       const struct hm_event *ev, struct obuf *o);

#endif
