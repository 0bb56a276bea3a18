// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files of every command (see output.h).  Each output is a stdio
 * stream over a cookie that remembers the first write error's errno, so the
 * message at the end names the real cause (ENOSPC, EIO, EDQUOT), not a
 * later EBADF or nothing at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include "cli.h"
#include "output.h"
#include "util/errhint.h"

#define MAX_INPUTS	16
#define MAX_OUTPUTS	16

/*
 * A temporary file that replaces @target when finished (see output.h).
 * The signal handler reads @tmp and @live, so the names are fixed arrays
 * and @live is set around their use with the signals in mind.
 */
struct tmpfile {
	char			tmp[PATH_MAX + 64];	/* the temporary file */
	char			target[PATH_MAX];	/* what it replaces (a link's target) */
	char			name[PATH_MAX];		/* the file as given, for messages */
	const char		*opt;
	volatile sig_atomic_t	live;			/* tmp exists and is ours */
	bool			used;
};

struct ostream {
	FILE	*f;
	int	fd;
	int	err;		/* first errno of a write or close */
	char	*name;
	struct tmpfile *tmp;	/* written to a temporary file (else NULL) */
	bool	used;
	bool	reported;	/* err has been said (once: hm_out__close, then hm_out__finish) */
};

struct input {
	dev_t	dev;
	ino_t	ino;
	char	*name;
};

static struct ostream outs[MAX_OUTPUTS];
static struct tmpfile tmps[MAX_OUTPUTS];
static pid_t tmp_owner;		/* the process that made them (not a forked child) */
static struct ostream out_stdout = { .fd = STDOUT_FILENO, .name = "<stdout>" };
static struct input ins[MAX_INPUTS];
static int nr_ins;
/* outputs already checked, so two options cannot name one file */
static struct { const char *path, *opt; } chk[MAX_OUTPUTS];
static int nr_chk;

static ssize_t ck_write(void *c, const char *buf, size_t n)
{
	struct ostream *o = c;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(o->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!o->err)
				o->err = w < 0 ? errno : EIO;
			return -1;
		}
		done += w;
	}
	return n;
}

static int ck_close(void *c)
{
	struct ostream *o = c;

	if (close(o->fd) && !o->err && errno != EINTR)
		o->err = errno;
	return o->err ? -1 : 0;
}

static FILE *wrap(struct ostream *o)
{
	cookie_io_functions_t io = { .write = ck_write, .close = ck_close };

	o->f = fopencookie(o, "w", io);
	return o->f;
}

void hm_out__init(void)
{
	FILE *f;

	fflush(stdout);
	f = wrap(&out_stdout);
	if (!f)
		return;		/* keep the plain stream: still checked at the end */
	if (isatty(STDOUT_FILENO))
		setvbuf(f, NULL, _IOLBF, 0);
	else
		setvbuf(f, NULL, _IOFBF, 1 << 16);
	stdout = f;
}

static int report(struct ostream *o, int err)
{
	/* EPIPE: the reader went away, quiet like SIGPIPE; else said once */
	if (err == EPIPE || o->reported)
		return 1;
	o->reported = true;
	return hm_cli__error("%s: cannot write: %s", o->name, strerror(err));
}

int hm_out__finish(int rc)
{
	int err;

	if (fflush(stdout) && !out_stdout.err)
		out_stdout.err = errno ? errno : EIO;
	if (ferror(stdout) && !out_stdout.err)
		out_stdout.err = EIO;
	if (stdout == out_stdout.f) {
		if (fclose(stdout) && !out_stdout.err)
			out_stdout.err = errno ? errno : EIO;
	} else if (fclose(stdout) && !out_stdout.err) {
		out_stdout.err = errno ? errno : EIO;
	}
	err = out_stdout.err;
	if (!err)
		return rc;
	report(&out_stdout, err);
	return rc && rc != HM_EXIT_DATA_LOST ? rc : 1;
}

static bool same_file(const struct stat *st, const char **which)
{
	for (int i = 0; i < nr_ins; i++)
		if (ins[i].dev == st->st_dev && ins[i].ino == st->st_ino) {
			*which = ins[i].name;
			return true;
		}
	return false;
}

void hm_out__input(const char *path)
{
	struct stat st;
	int ret;

	if (!path || nr_ins == MAX_INPUTS)
		return;
	ret = !strcmp(path, "-") ? fstat(STDIN_FILENO, &st) : stat(path, &st);
	/* only regular files can be overwritten by mistake (not /dev/null, pipes) */
	if (ret || !S_ISREG(st.st_mode))
		return;
	ins[nr_ins].dev = st.st_dev;
	ins[nr_ins].ino = st.st_ino;
	ins[nr_ins].name = strdup(hm_reader__name_of(path));
	if (ins[nr_ins].name)
		nr_ins++;
}

int hm_out__check(const char *path, const char *opt, bool dash_ok)
{
	struct stat st;
	const char *which;
	int ret;

	if (!path || !*path)
		return hm_cli__error("%s: empty file name", opt);
	if (!strcmp(path, "-") && !dash_ok)
		return hm_cli__error("%s -: this output cannot go to standard output; give a "
				     "file name", opt);
	ret = !strcmp(path, "-") ? fstat(STDOUT_FILENO, &st) : stat(path, &st);
	if (!ret && S_ISREG(st.st_mode) && same_file(&st, &which))
		return hm_cli__error("%s %s: the same file as the input %s; refusing to overwrite it "
				     "(choose another output file)", opt, path, which);
	for (int i = 0; i < nr_chk; i++) {
		struct stat st2;

		if (strcmp(chk[i].opt, opt) && (!strcmp(chk[i].path, path) ||
		    (!ret && !stat(chk[i].path, &st2) && st2.st_dev == st.st_dev &&
		     st2.st_ino == st.st_ino)) && strcmp(path, "-"))
			return hm_cli__error("%s %s: %s writes that file too; give each output its "
					     "own file", opt, path, chk[i].opt);
	}
	if (nr_chk < MAX_OUTPUTS) {
		chk[nr_chk].path = path;
		chk[nr_chk++].opt = opt;
	}
	return 0;
}

/* ------------------------------------------------ replacing a file whole */

static void tmp_unlink_all(void)
{
	if (getpid() != tmp_owner)
		return;		/* a forked child: the temporary files are its parent's */
	for (int i = 0; i < MAX_OUTPUTS; i++)
		if (tmps[i].live) {
			unlink(tmps[i].tmp);
			tmps[i].live = 0;
		}
}

static void tmp_on_signal(int sig)
{
	int saved = errno;

	tmp_unlink_all();
	errno = saved;
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Once, with the first temporary file: SIGINT, SIGTERM and SIGHUP (even
 * where they were ignored, as for a background job: the command ends on
 * them while it writes, as convert always did) and SIGPIPE (where it is
 * not ignored) remove the temporary files and end the process as the
 * default action would.  A signal the command catches itself (record's
 * SIGINT and SIGTERM) is left to it.  Exit paths that skip hm_out__close
 * or hm_out__drop remove them too.
 */
static void tmp_arm(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	static bool armed;
	struct sigaction sa, old;

	if (armed)
		return;
	armed = true;
	tmp_owner = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tmp_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) && !(old.sa_flags & SA_SIGINFO) &&
		    (old.sa_handler == SIG_DFL || (old.sa_handler == SIG_IGN && sigs[i] != SIGPIPE)))
			sigaction(sigs[i], &sa, NULL);
	atexit(tmp_unlink_all);
}

/*
 * Make the temporary file for @path in a free slot: its descriptor, or -1
 * where @path is written directly (not a regular file, a dangling link,
 * a folder that takes no new file, ...).
 */
static int tmp_create(const char *path, const char *opt, mode_t new_mode, bool new_in_place,
		      struct tmpfile **out)
{
	struct tmpfile *t = NULL;
	struct stat st, lst;
	const char *slash, *base;
	bool exists;
	mode_t mode;
	int dlen;

	*out = NULL;
	if (!strcmp(path, "-") || strlen(path) >= PATH_MAX)
		return -1;
	exists = !stat(path, &st);
	if (exists ? !S_ISREG(st.st_mode) : errno != ENOENT || new_in_place)
		return -1;
	/* a file this user may not write is not replaced either: the open says why */
	if (exists && access(path, W_OK))
		return -1;
	for (int i = 0; i < MAX_OUTPUTS && !t; i++)
		if (!tmps[i].used)
			t = &tmps[i];
	if (!t)
		return -1;
	if (!lstat(path, &lst) && S_ISLNK(lst.st_mode)) {
		if (!exists || !realpath(path, t->target))
			return -1;	/* a dangling link: written through it, in place */
	} else {
		snprintf(t->target, sizeof(t->target), "%s", path);
	}
	snprintf(t->name, sizeof(t->name), "%s", path);
	t->opt = opt;
	slash = strrchr(t->target, '/');
	base = slash ? slash + 1 : t->target;
	dlen = slash ? (int)(slash - t->target + 1) : 0;
	mode = exists ? st.st_mode & 07777 : new_mode;
	tmp_arm();
	for (int n = 0; n < 100; n++) {
		sigset_t all, old;
		int fd, e;

		if (snprintf(t->tmp, sizeof(t->tmp), "%.*s.%s.hitmap-%ld-%d", dlen, t->target, base,
			     (long)getpid(), n) >= (int)sizeof(t->tmp))
			return -1;
		/* live from the moment it may exist */
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		fd = open(t->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		e = errno;
		t->live = fd >= 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (fd >= 0) {
			if (exists) {
				/* the file it replaces: its mode and owner (open applied the umask) */
				if ((st.st_uid != geteuid() || st.st_gid != getegid()) &&
				    fchown(fd, st.st_uid, st.st_gid))
					(void)fchown(fd, (uid_t)-1, st.st_gid);
				(void)fchmod(fd, mode);
			}
			t->used = true;
			*out = t;
			return fd;
		}
		if (e != EEXIST)
			return -1;
	}
	return -1;
}

static struct tmpfile *tmp_find(const char *wpath)
{
	for (int i = 0; wpath && i < MAX_OUTPUTS; i++)
		if (tmps[i].used && wpath == tmps[i].tmp)
			return &tmps[i];
	return NULL;
}

/* Done with @t: its string reads as the file's name again. */
static void tmp_release(struct tmpfile *t)
{
	snprintf(t->tmp, sizeof(t->tmp), "%s", t->name);
	t->used = false;
}

static void tmp_drop(struct tmpfile *t)
{
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (t->live)
		unlink(t->tmp);
	t->live = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	tmp_release(t);
}

static int tmp_commit(struct tmpfile *t)
{
	sigset_t all, old;
	int e = 0;

	/* no signal between the rename and forgetting the name */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (rename(t->tmp, t->target)) {
		e = errno;
		unlink(t->tmp);
	}
	t->live = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (e) {
		hm_cli__error("%s %s: cannot put the finished file in its place: %s; %s is left as "
			      "it was", t->opt, t->name, strerror(e), t->name);
		tmp_release(t);
		return 1;
	}
	tmp_release(t);
	return 0;
}

const char *hm_out__begin(const char *path, const char *opt, mode_t mode, unsigned flags)
{
	struct tmpfile *t;
	int fd = tmp_create(path, opt, mode, flags & HM_OUT_NEW_IN_PLACE, &t);

	if (fd < 0)
		return path;
	close(fd);	/* the library opens it again by name */
	return t->tmp;
}

int hm_out__commit(const char *wpath)
{
	struct tmpfile *t = tmp_find(wpath);

	return t ? tmp_commit(t) : 0;
}

void hm_out__drop(const char *wpath)
{
	struct tmpfile *t = tmp_find(wpath);

	if (t)
		tmp_drop(t);
}

const char *hm_out__unalias(const char *msg, char *buf, size_t size)
{
	size_t n = 0;

	if (!size)
		return msg;
	while (*msg && n + 1 < size) {
		const struct tmpfile *hit = NULL;

		for (int i = 0; i < MAX_OUTPUTS && !hit; i++)
			if (tmps[i].used && !strncmp(msg, tmps[i].tmp, strlen(tmps[i].tmp)))
				hit = &tmps[i];
		if (hit) {
			n += snprintf(buf + n, size - n, "%s", hit->name);
			if (n >= size)
				n = size - 1;
			msg += strlen(hit->tmp);
		} else {
			buf[n++] = *msg++;
		}
	}
	buf[n] = 0;
	return buf;
}

int hm_out__lib_error(int err, const char *what)
{
	const char *msg = hm_log__last_error();
	char buf[1024];

	if (!msg || !*msg)
		return hm_cli__lib_error(err, what);
	return hm_cli__error("%s", hm_out__unalias(msg, buf, sizeof(buf)));
}

FILE *hm_out__open(const char *path, const char *opt)
{
	struct ostream *o = NULL;

	if (hm_out__check(path, opt, true))
		return NULL;
	if (!strcmp(path, "-"))
		return stdout;
	for (int i = 0; i < MAX_OUTPUTS && !o; i++)
		if (!outs[i].used)
			o = &outs[i];
	if (!o) {
		hm_cli__error("%s %s: too many output files", opt, path);
		return NULL;
	}
	memset(o, 0, sizeof(*o));
	o->name = strdup(path);
	if (!o->name) {
		hm_cli__error("%s %s: out of memory", opt, path);
		return NULL;
	}
	o->fd = tmp_create(path, opt, 0666, false, &o->tmp);
	if (o->fd < 0)
		o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (o->fd < 0) {
		hm_cli__error("%s %s: cannot create: %s%s", opt, path, strerror(errno), hm_hint__create(errno));
		free(o->name);
		return NULL;
	}
	if (!wrap(o)) {
		hm_cli__error("%s %s: %s", opt, path, strerror(errno));
		close(o->fd);
		if (o->tmp)
			tmp_drop(o->tmp);
		free(o->name);
		return NULL;
	}
	o->used = true;
	return o->f;
}

static struct ostream *find(FILE *f)
{
	for (int i = 0; i < MAX_OUTPUTS; i++)
		if (outs[i].used && outs[i].f == f)
			return &outs[i];
	return NULL;
}

const char *hm_out__name(FILE *f)
{
	struct ostream *o = find(f);

	return o ? o->name : "<stdout>";
}

static int out_close(FILE *f, bool keep)
{
	struct ostream *o;
	int err = 0, rc = 0;

	if (!f)
		return 0;
	if (f == stdout) {
		if (fflush(stdout) && !out_stdout.err)
			out_stdout.err = errno ? errno : EIO;
		if (ferror(stdout) && !out_stdout.err)
			out_stdout.err = EIO;
		return out_stdout.err ? report(&out_stdout, out_stdout.err) : 0;
	}
	o = find(f);
	if (!o)
		return fclose(f) ? hm_cli__error("cannot write: %s", strerror(errno)) : 0;
	if (fflush(f) && !o->err)
		o->err = errno ? errno : EIO;
	if (ferror(f) && !o->err)
		o->err = EIO;
	if (fclose(f) && !o->err)
		o->err = errno ? errno : EIO;
	err = o->err;
	if (err)
		rc = report(o, err);
	if (o->tmp && (err || !keep))
		tmp_drop(o->tmp);
	else if (o->tmp)
		rc = tmp_commit(o->tmp);
	free(o->name);
	memset(o, 0, sizeof(*o));
	return rc;
}

int hm_out__close(FILE *f)
{
	return out_close(f, true);
}

int hm_out__abandon(FILE *f)
{
	return out_close(f, false);
}

int hm_out__conflict(const char *a, const char *b)
{
	hm_cli__error("%s and %s cannot be used together; choose one", a, b);
	return 2;
}

bool hm_out__is_stdout(const char *path)
{
	struct stat st, so;

	if (!strcmp(path, "-"))
		return true;
	return !stat(path, &st) && !fstat(STDOUT_FILENO, &so) &&
	       st.st_dev == so.st_dev && st.st_ino == so.st_ino;
}

int hm_in__check(const char *path, const char *opt)
{
	/* an input too: no output may overwrite it (--html k with --kallsyms k) */
	hm_out__input(path);
	if (!access(path, R_OK))
		return 0;
	return hm_cli__error("%s %s: cannot open: %s%s", opt, path, strerror(errno), hm_hint__open(errno));
}

struct hm_reader *hm_in__reader(const char *path, const struct hm_reader_opts *ro)
{
	struct hm_reader *r;

	hm_out__input(path);
	r = hm_reader__new(path, ro);
	if (!r)
		hm_cli__lib_error(errno, path);
	return r;
}

int hm_in__spool_stdin(const char *why)
{
	const char *dir = getenv("TMPDIR");
	struct stat st;
	char path[4096];
	static char buf[1 << 20];
	int fd;

	if (!fstat(STDIN_FILENO, &st) && S_ISREG(st.st_mode))
		return 0;	/* a file already (read from where it stands) */
	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/hitmap-stdin.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return hm_cli__error("standard input: cannot create a temporary file in %s for %s: %s; "
				     "set TMPDIR to a writable directory", dir, why, strerror(errno));
	unlink(path);
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf)), w = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			hm_cli__error("standard input: read failed: %s", strerror(errno));
			close(fd);
			return 1;
		}
		if (!n)
			break;
		while (w < n) {
			ssize_t k = write(fd, buf + w, n - w);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				hm_cli__error("standard input: copying it to %s for %s failed: %s; "
					      "set TMPDIR to a file system with room", dir, why,
					      k < 0 ? strerror(errno) : "short write");
				close(fd);
				return 1;
			}
			w += k;
		}
	}
	if (lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, STDIN_FILENO) < 0) {
		hm_cli__error("standard input: cannot read back its copy in %s: %s", dir, strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
