/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERFDATA_RECORD_SWAP_H
#define HITMAP_PERFDATA_RECORD_SWAP_H

/*
 * Private to src/perfdata: record body and feature section layouts shared
 * by the reader and the writer.
 */
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

/*
 * Byte-swap feature section @feat of @size bytes at @buf in place
 * (feat-swap.c), as a machine of the other byte order writes it; @nr_cpus:
 * HEADER_NRCPUS's CPU count (CPU_TOPOLOGY's per-CPU part); @to_native as
 * above.  Strings, byte arrays, TRACING_DATA and BTF blobs stay.  Returns
 * false for EVENT_DESC and features whose layout is not known here (having
 * done nothing), and for a section its layout does not fit (swapped as far
 * as it goes).
 */
bool hm_feat__swap(int feat, u8 *buf, u64 size, u32 nr_cpus, bool to_native);

#endif
