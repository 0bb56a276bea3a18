// SPDX-License-Identifier: GPL-2.0-only
/* hitmap: find cache-line contention, down to the futex hash bucket. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "cli.h"
#include "output.h"

#ifndef HITMAP_VERSION
#define HITMAP_VERSION "0.1"
#endif

static struct hm_command *commands;

void hm_command__register(struct hm_command *cmd)
{
	struct hm_command **p = &commands;

	/* keep the list sorted by name for --help */
	while (*p && strcmp((*p)->name, cmd->name) < 0)
		p = &(*p)->next;
	cmd->next = *p;
	*p = cmd;
}

void hm_cli__usage(const char *usage)
{
	fputs(usage, stdout);
}

static void log_to_stderr(enum hm_log_level level, const char *msg, void *ctx)
{
	static const char *const tag[] = { "error", "warning", "info", "debug" };
	char buf[1024];

	/* errors are printed once, by the command that gives up */
	if (level == HM_LOG_ERROR)
		return;
	/* a file being written is named as the user named it, not its temporary file */
	fprintf(stderr, "hitmap: %s: %s\n", tag[level], hm_out__unalias(msg, buf, sizeof(buf)));
}

void hm_cli__verbose(void)
{
	hm_log__set_sink(log_to_stderr, NULL, HM_LOG_DEBUG);
}

static void usage(FILE *f)
{
	struct hm_command *c;

	fprintf(f, "usage: hitmap <command> [options]\n\n"
		   "Find cache-line contention the way perf c2c does, down to the futex\n"
		   "hash bucket, its field, the socket and the instruction.\n\ncommands:\n");
	for (c = commands; c; c = c->next)
		fprintf(f, "  %-12s %s\n", c->name, c->summary);
	fprintf(f, "\n'hitmap <command> --help' and 'hitmap help <command>' (its man page) tell more.\n");
}

/*
 * The man page of @cmd ("" for hitmap(1)) from the build tree or the install
 * tree, located relative to the binary: <bindir>/../man/hitmap-CMD.1 (build/),
 * <bindir>/../share/man/man1/hitmap-CMD.1 (make install).  Falls back to
 * man(1)'s own search.  Does not return on success.
 */
static int show_man(const char *cmd)
{
	static const char *const rel[] = { "/../man/", "/../share/man/man1/", "/man/" };
	char exe[4096], path[4352], page[128];
	ssize_t n;
	size_t i;

	snprintf(page, sizeof(page), "hitmap%s%s", *cmd ? "-" : "", cmd);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			snprintf(path, sizeof(path), "%s%s%s.1", exe, rel[i], page);
			if (access(path, R_OK) == 0) {
				fflush(stdout);
				execlp("man", "man", "-l", path, (char *)NULL);
				hm_cli__error("man -l %s: %s; install man-db or read the file", path,
					      strerror(errno));
				return 1;
			}
		}
	}
	fflush(stdout);
	execlp("man", "man", page, (char *)NULL);
	hm_cli__error("no man page %s.1 beside the binary and man(1) failed: %s", page, strerror(errno));
	return 1;
}

static struct hm_command *find_command(const char *name)
{
	struct hm_command *c;

	for (c = commands; c; c = c->next)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int main(int argc, char **argv)
{
	struct hm_command *c;
	const char *v = getenv("HITMAP_DEBUG");

	hm_log__set_sink(log_to_stderr, NULL, v ? HM_LOG_DEBUG : HM_LOG_WARN);
	hm_out__init();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		if (!find_command(argv[2]))
			return hm_cli__usage_error("help %s: not a hitmap command; 'hitmap --help' lists them",
						   argv[2]);
		return show_man(argv[2]);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return hm_out__finish(0);
	}
	if (!strcmp(argv[1], "--man"))
		return show_man("");
	if (!strcmp(argv[1], "--version")) {
		printf("hitmap %s\n", HITMAP_VERSION);
		return hm_out__finish(0);
	}
	c = find_command(argv[1]);
	if (c && argc > 2 && !strcmp(argv[2], "--man"))
		return show_man(c->name);
	if (c) {
		int rc;

		opterr = 0;	/* the commands say what is wrong: hm_cli__bad_option() */
		rc = c->run(argc - 1, argv + 1);

		/* a record, chunk or section was skipped: say so in the status */
		if (!rc && hm_log__nr_data_lost())
			rc = HM_EXIT_DATA_LOST;
		return hm_out__finish(rc);
	}
	hm_cli__error("'%s' is not a hitmap command; 'hitmap --help' lists them", argv[1]);
	return 2;
}
