/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_H
#define HITMAP_CLI_H

#include <stdbool.h>

/*
 * Each command lives in its own src/cli/cmd-NAME.c and registers itself with
 * HM_COMMAND(); main.c dispatches.  Only the CLI prints or exits.
 */
struct hm_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
	struct hm_command *next;
};

void hm_command__register(struct hm_command *cmd);

#define HM_COMMAND(cname, csummary, fn)					\
	static struct hm_command hm_cmd_##fn = {			\
		.name = cname, .summary = csummary, .run = fn };	\
	__attribute__((constructor)) static void hm_cmd_reg_##fn(void)	\
	{ hm_command__register(&hm_cmd_##fn); }

/*
 * Exit statuses: 0 success, 1 error, 2 usage error, 3 the command finished
 * but data was lost on the way (a warning said what and where).
 */
#define HM_EXIT_DATA_LOST	3

/* errors.c: print "hitmap: <msg>" to stderr; returns 1 (the exit status to use). */
int hm_cli__error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a usage error (bad option or value); returns 2. */
int hm_cli__usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * getopt_long()'s '?' or ':' for command @cmd ("report", "bench futex-hash"):
 * one line that names the option and what is wrong with it (unknown,
 * ambiguous, needs a value, takes none) and where the options are listed;
 * returns 2.  The commands' option strings start with ':' (after a '+'),
 * and main.c turns getopt's own messages off (opterr).
 */
struct option;
int hm_cli__bad_option(const char *cmd, const struct option *longopts, char **argv, int c);
/* Report a library failure: the library's last message, else strerror(-err). */
int hm_cli__lib_error(int err, const char *what);
/* The same for a value the library refused (a usage error): returns 2. */
int hm_cli__lib_usage_error(int err, const char *what);
/*
 * A --futex-table SPEC of report or diff, checked before any file is read:
 * 0, or 2 (a usage error) after the parser's one line.
 */
int hm_cli__check_futex_table(const char *spec);
/* Print a man-style --help text for @cmd from its man page name. */
void hm_cli__usage(const char *usage);
/*
 * The futex-hash workload's options (bench futex-hash, record --workload),
 * @cmd naming them in errors.  Returns 0, 1 for --help, or -1 after printing
 * an error.  @json may be NULL.
 */
struct hm_futex_hash_opts;
int hm_cli__parse_futex_hash(const char *cmd, int argc, char **argv,
			     struct hm_futex_hash_opts *o, bool *silent, bool *json);
/* -v: the library's debug messages on stderr as well (HITMAP_DEBUG does the same) */
void hm_cli__verbose(void);

#endif
