/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_TEST_SLURP_H
#define HITMAP_TEST_SLURP_H
/* A whole file into memory, for the writer tests that compare files. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hitmap/perf_data.h>

/* The bytes of @path (freed by the caller; one byte spare), *@len their count; NULL on failure. */
static inline u8 *slurp(const char *path, size_t *len)
{
	struct stat st;
	u8 *p = NULL;
	int fd = open(path, O_RDONLY);

	*len = 0;
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && (p = malloc(st.st_size + 1)) && read(fd, p, st.st_size) == st.st_size)
		*len = st.st_size;
	close(fd);
	return p;
}

#endif
