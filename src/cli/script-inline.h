/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_SCRIPT_INLINE_H
#define HITMAP_CLI_SCRIPT_INLINE_H

/*
 * hitmap script's inlined frames (script-inline.c): the functions DWARF
 * nests at a call chain frame's address, as perf 7.3 adds them to the
 * chain (append_inlines()), looked up once per file and address.
 */
#include <hitmap/mem.h>
#include <hitmap/symbols.h>

struct hm_script_inline;

/* NULL with errno (ENOMEM). */
struct hm_script_inline *hm_script_inline__new(void);
void hm_script_inline__delete(struct hm_script_inline *si);
/*
 * The frames of @ip in the user map @map, innermost first, in *@out
 * (valid until the next call): 0 when there are none (the frame prints
 * as it is), else how many; -ENOMEM.
 */
int hm_script_inline__frames(struct hm_script_inline *si, struct hm_symbols *syms,
			     const struct hm_map *map, u64 ip, const struct hm_inline_frame **out);

#endif
