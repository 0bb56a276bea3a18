/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_OUTPUT_H
#define HITMAP_CLI_OUTPUT_H

/*
 * Every file a command writes goes through here, so that output errors are
 * errors: a full disk, a closed pipe's EIO or a failed close makes the
 * command fail with the file's name and the real errno, never exit 0.
 *
 *   hm_out__input(path)         declare an input (before opening outputs);
 *   hm_out__open(path, opt)     open an output: '-' is standard output,
 *                               an output that is one of the inputs (same
 *                               device and inode) is refused before anything
 *                               is written;
 *   hm_out__check(path, opt)    the same checks for an output some library
 *                               code opens itself (perf.data writers);
 *   hm_out__close(f)            flush and close, reporting any error.
 *
 * Standard output itself is wrapped by main() (hm_out__init), which checks
 * its final flush and close (hm_out__finish) for every command.
 */
#include <stdbool.h>
#include <stdio.h>

void hm_out__init(void);
/* Status for main(): @rc, or 1 when standard output could not be written. */
int hm_out__finish(int rc);

/* Remember @path ('-': standard input) as an input of this command. */
void hm_out__input(const char *path);
/*
 * 0 when @path may be written as the output of option @opt; else prints
 * why (naming the option and the file) and returns 1.  @dash_ok: '-' means
 * standard output (else '-' is refused).
 */
int hm_out__check(const char *path, const char *opt, bool dash_ok);
/* Open @path for writing ('-': standard output); NULL after an error message. */
FILE *hm_out__open(const char *path, const char *opt);
/* Flush and close @f (standard output: flush only); 0, or 1 after a message. */
int hm_out__close(FILE *f);
/* Name of the file behind @f, for messages ("<stdout>" for standard output). */
const char *hm_out__name(FILE *f);

/* @path is standard output: '-', or the file behind it (/dev/stdout, /dev/fd/1, ...) */
bool hm_out__is_stdout(const char *path);

/* Two options that cannot go together: a usage error (returns 2). */
int hm_out__conflict(const char *a, const char *b);

/*
 * Inputs.  hm_in__check: 0 when the file @path that option @opt names can be
 * read, else "OPT PATH: cannot open: ERR" and 1; either way @path is an input
 * (hm_out__input), which no output may overwrite.  hm_in__reader: declare
 * @path ('-': standard input) an input and open it as a perf.data; NULL
 * after the library's message.
 */
struct hm_reader;
struct hm_reader_opts;
int hm_in__check(const char *path, const char *opt);
struct hm_reader *hm_in__reader(const char *path, const struct hm_reader_opts *ro);
/*
 * Standard input that is not a regular file (a pipe), copied to an unlinked
 * temporary file in $TMPDIR (default /tmp) that then becomes standard
 * input, for a view that has to read its input twice (@why names it).
 * Memory stays bounded; the disk holds the stream.  0, or 1 after a
 * one-line error.
 */
int hm_in__spool_stdin(const char *why);

#endif
