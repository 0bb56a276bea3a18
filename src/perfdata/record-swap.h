/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_RECORD_SWAP_H
#define HITMAP_PERFDATA_RECORD_SWAP_H

/* Private to src/perfdata: record body layouts shared by the reader and the writer. */
#include <hitmap/perf_data.h>

/*
 * Byte-swap the body of the record at @p (its 8-byte header excluded) in
 * place, the fields below @end (a sample_id_all trailer starts there; @size
 * is the whole record); @misc is the header's, native.  @to_native: the
 * record is in the other byte order and becomes native (the reader), else
 * it is native and becomes the other byte order (the writer).  SAMPLE,
 * HEADER_ATTR and HEADER_FEATURE are not done here.  Returns false, having
 * done nothing, for a type whose layout is not known here.
 */
bool hm_record__swap_body(u8 *p, u32 type, u16 misc, u32 size, u32 end, bool to_native);

#endif
