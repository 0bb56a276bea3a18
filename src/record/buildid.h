/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_RECORD_BUILDID_H
#define HITMAP_RECORD_BUILDID_H

/* NT_GNU_BUILD_ID of an ELF file / of the running kernel (/sys/kernel/notes). 0 or -errno. */
int hm_buildid__read_file(const char *path, unsigned char id[20], unsigned char *size);
int hm_buildid__read_kernel(unsigned char id[20], unsigned char *size);

#endif
