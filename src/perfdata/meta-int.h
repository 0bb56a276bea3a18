/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_META_INT_H
#define HITMAP_PERFDATA_META_INT_H
#include <hitmap/meta.h>

/* Byte-swap the numeric fields of a payload whose tag we know (in place). */
void hm_meta__swap_payload(u32 tag, void *data, u32 len);

#endif
