/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_UTIL_NUM_H
#define HITMAP_UTIL_NUM_H
/*
 * One number parser for options, sysfs files and header strings.  Each takes
 * the whole string (no leading blank or sign for the unsigned ones, no
 * trailing text) and returns 0, -EINVAL (not a number) or -ERANGE (outside
 * the range given, or past the type); errno is left as it was on success and
 * set to the error otherwise.  The caller words the message: it knows the option.
 */
#include <stdint.h>

/* @base as strtoull: 0 takes 0x/0 prefixes.  At most @max. */
int hm_num__parse_u64(const char *s, int base, uint64_t max, uint64_t *out);
/* Signed, @min..@max; leading blanks and a sign allowed as strtoll does. */
int hm_num__parse_s64(const char *s, int base, int64_t min, int64_t max, int64_t *out);
/* A finite double in @min..@max (NaN is out of every range). */
int hm_num__parse_double(const char *s, double min, double max, double *out);
/* The unsigned number that starts *@p (a digit first), *@p moved past it. */
int hm_num__parse_prefix(const char **p, int base, uint64_t max, uint64_t *out);
/* A file that holds one number (sysfs): its first line, blanks around it allowed. */
int hm_num__read_file(const char *path, int base, uint64_t *out);

#endif
