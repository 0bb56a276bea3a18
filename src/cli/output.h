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
 *
 * A failed write never destroys the previous output file.  A regular file
 * (or one that does not exist yet) is written to a temporary file beside
 * it, DIR/.NAME.hitmap-PID-N, created with the mode the file would get (an
 * existing file's own mode and owner), and renamed over it only when
 * everything was written: a full disk, a write error or a failed command
 * leaves the old file as it was and no temporary file.  A symbolic link is
 * followed (the file it points to is replaced, the link stays).  Standard
 * output, character devices (/dev/null), FIFOs and other files that are
 * not regular are written directly, as is a file whose folder takes no new
 * file or that this user may not write (the open then says why).  SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE remove the temporary files and end the
 * process as the default action does, unless the command catches the
 * signal itself (hitmap record ends a recording on SIGINT and commits it).
 *
 *   hm_out__open/hm_out__close  do that for the stdio outputs;
 *   hm_out__begin(path, ...)    for an output some library code writes by
 *                               name: the path to give it;
 *   hm_out__commit(wpath)       after the library finished it: the rename;
 *   hm_out__drop(wpath)         after a failure: the temporary file goes;
 *   hm_out__lib_error(err, w)   the library's message, with the names of
 *                               temporary files replaced by the files they
 *                               stand for (call it before hm_out__drop).
 */
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

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
/*
 * Flush and close @f (standard output: flush only), and put the file in
 * place of the old one; 0, or 1 after a message (the old file is kept).
 */
int hm_out__close(FILE *f);
/*
 * Close @f without putting it in place: the command failed after opening
 * it.  The old file is kept.  1 after a message when a write had failed
 * (the real cause), else 0.
 */
int hm_out__abandon(FILE *f);
/* Name of the file behind @f, for messages ("<stdout>" for standard output). */
const char *hm_out__name(FILE *f);

/* hm_out__begin @flags: a file that does not exist yet is written in place */
#define HM_OUT_NEW_IN_PLACE	1u
/*
 * The path library code should write @path (checked with hm_out__check)
 * to: a temporary file beside it (created empty with @mode, less the
 * umask, for a new file), or @path itself where it is written directly.
 * Never fails: where no temporary file can be made there, @path itself.
 * After hm_out__commit or hm_out__drop the returned string reads as @path
 * again, so that library code which kept it names the file in later
 * messages (until the next hm_out__begin or hm_out__open).
 */
const char *hm_out__begin(const char *path, const char *opt, mode_t mode, unsigned flags);
/* Rename the finished temporary @wpath over its file; 0, or 1 after a message. */
int hm_out__commit(const char *wpath);
/* Remove the temporary @wpath: the old file stays as it was. */
void hm_out__drop(const char *wpath);
/* hm_cli__lib_error with temporary file names replaced by their files' names. */
int hm_out__lib_error(int err, const char *what);
/* @msg with temporary file names replaced by their files' names, in @buf. */
const char *hm_out__unalias(const char *msg, char *buf, size_t size);

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
