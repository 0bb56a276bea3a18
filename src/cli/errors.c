// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CLI's error messages (see cli.h): "hitmap: <msg>" on stderr and the
 * exit status to use.  Below main.c and output.c, which both report through
 * these.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <hitmap/futex.h>
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

int hm_cli__lib_usage_error(int err, const char *what)
{
	hm_cli__lib_error(err, what);
	return 2;
}

int hm_cli__check_futex_table(const char *spec)
{
	struct hm_futex_table t;

	if (hm_futex_table__parse(spec, &t) < 0)
		return hm_cli__lib_usage_error(-EINVAL, "--futex-table");
	return 0;
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

/*
 * The long option @arg ("--name" or "--name=value") names: its entry in
 * @lo (an exact name, else the one option it abbreviates), NULL when none;
 * *@ambiguous when it abbreviates several.
 */
static const struct option *long_match(const struct option *lo, const char *arg, bool *ambiguous)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	const struct option *hit = NULL;
	int n = 0;

	*ambiguous = false;
	for (; lo && lo->name; lo++) {
		if (strncmp(lo->name, name, len))
			continue;
		if (strlen(lo->name) == len)
			return lo;
		hit = lo;
		n++;
	}
	*ambiguous = n > 1;
	return n == 1 ? hit : NULL;
}

int hm_cli__bad_option(const char *cmd, const struct option *lo, char **argv, int c)
{
	/* glibc: past a long option, optind is past it; in a run of short ones it may not be */
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	const char *space = strchr(cmd, ' ');
	int top = space ? (int)(space - cmd) : (int)strlen(cmd);
	const struct option *o;
	bool amb;

	if (arg && arg[0] == '-' && arg[1] == '-' && arg[2]) {
		int len = (int)strcspn(arg, "=");

		o = long_match(lo, arg, &amb);
		if (amb)
			return hm_cli__usage_error("%s: option '%.*s' is ambiguous (it begins several); "
						   "see 'hitmap %.*s --help'", cmd, len, arg, top, cmd);
		if (!o)
			return hm_cli__usage_error("%s: unknown option '%.*s'; see 'hitmap %.*s --help'",
						   cmd, len, arg, top, cmd);
		if (c == ':')
			return hm_cli__usage_error("%s: option '--%s' needs a value; see 'hitmap %.*s --help'",
						   cmd, o->name, top, cmd);
		if (o->has_arg == no_argument && arg[len])
			return hm_cli__usage_error("%s: option '--%s' takes no value; see 'hitmap %.*s --help'",
						   cmd, o->name, top, cmd);
		/* a valid long option: the error is a short one after it */
	}
	if (c == ':')
		return hm_cli__usage_error("%s: option '-%c' needs a value; see 'hitmap %.*s --help'",
					   cmd, optopt, top, cmd);
	if (optopt > ' ' && optopt < 127)
		return hm_cli__usage_error("%s: unknown option '-%c'; see 'hitmap %.*s --help'",
					   cmd, optopt, top, cmd);
	return hm_cli__usage_error("%s: unknown option '%s'; see 'hitmap %.*s --help'",
				   cmd, arg ? arg : "?", top, cmd);
}
