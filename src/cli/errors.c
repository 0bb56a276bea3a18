// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CLI's error messages (see cli.h): "hitmap: <msg>" on stderr and the
 * exit status to use.  Below main.c and output.c, which both report through
 * these.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <hitmap/log.h>
#include "cli.h"

static void verror(const char *fmt, va_list ap)
{
	fputs("hitmap: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int hm_cli__error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return 1;
}

/* A usage error (bad option or value): exit status 2, as the man pages say. */
int hm_cli__usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return 2;
}

int hm_cli__lib_error(int err, const char *what)
{
	const char *msg = hm_log__last_error();

	if (err > 0)
		err = -err;
	if (msg && *msg)
		return hm_cli__error("%s", msg);
	return hm_cli__error("%s: %s", what, strerror(-err));
}
