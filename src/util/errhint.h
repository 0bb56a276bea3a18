/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_ERRHINT_H
#define HITMAP_UTIL_ERRHINT_H

/*
 * The fix to say after "FILE: cannot open: ERR" (an input) and "FILE:
 * cannot create: ERR" (an output): "; ..." or "" where there is nothing
 * better to say than the error itself.
 */
#include <errno.h>

static inline const char *hm_hint__open(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return "; check its permissions (perf record writes files only their owner "
		       "can read: read it as the owner or root)";
	case ENOENT:
	case ENOTDIR:
		return "; check the path";
	default:
		return "";
	}
}

static inline const char *hm_hint__create(int err)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR:
		return "; check the folder exists";
	case EACCES:
	case EPERM:
	case EROFS:
		return "; check the folder is writable";
	case ENOSPC:
	case EDQUOT:
		return "; free some space";
	case EISDIR:
		return "; give a file name, not a folder";
	default:
		return "";
	}
}

#endif
