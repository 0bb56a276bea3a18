/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_HEADER_PRINT_H
#define HITMAP_CLI_HEADER_PRINT_H

/*
 * The perf.data header as perf prints it, shared by hitmap header (perf
 * report --header-only -I) and hitmap script --header (perf script
 * --header): the opening lines, the features, "# missing features".
 */
#include <stdbool.h>
#include <stddef.h>
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>

struct hm_header_print {
	enum hm_perf_compat compat;	/* the perf whose lines to print */
	bool	full;		/* -I: every feature; else "# X info available, use -I to display" */
	bool	hitmap_lines;	/* hitmap's own: mode, build ids, its metadata, the features */
	bool	stdin_time;	/* input "-": "captured on" from stdin's fstat(), as perf */
	bool	features_later;	/* pipe mode: the features print as their records come */
};

/* perf_session__fprintf_info(): "# ========" ... "# ========\n#\n" to stdout. */
void hm_header_print__text(struct hm_reader *r, const char *input, const struct hm_header_print *o);
/* One feature, as perf prints it when its HEADER_FEATURE record comes (pipe mode). */
void hm_header_print__feature(struct hm_reader *r, int feat, const struct hm_header_print *o);
/* "A|B|(1<<n)": the set bits of @v, named by @names[0..@n). */
void hm_header_print__bits(char *buf, size_t size, u64 v, const char *const *names, int n);
/* perf_event_attr.read_format's bit names */
extern const char *const hm_header_print_rformat[5];

#endif
