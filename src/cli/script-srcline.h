/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_SCRIPT_SRCLINE_H
#define HITMAP_CLI_SCRIPT_SRCLINE_H

/*
 * hitmap script's srcline field: "\n  FILE:LINE" after an ip, as perf
 * script's map__fprintf_srcline() prints it.
 */
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>
#include <hitmap/symbols.h>
#include "script-out.h"

struct hm_script_srcline;

struct hm_script_srcline *hm_script_srcline__new(enum hm_perf_compat compat);
void hm_script_srcline__delete(struct hm_script_srcline *s);
/*
 * The srcline of @ip in @map (NULL: none): @info is what the symbols
 * library found there (file, line, the address in the file), @dso the
 * short name perf gives the map's dso ("[kernel.kallsyms]", "[module]",
 * a file's base name).
 */
void hm_script_srcline__print(struct hm_script_srcline *s, struct obuf *o, const struct hm_map *map,
			      u64 ip, const struct hm_symbol_info *info, const char *dso);

#endif
