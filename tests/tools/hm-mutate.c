// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-mutate: a deterministic mutation test of the perf.data reader and the
 * commands on top of it.
 *
 *   hm-mutate [-n CASES] [-s SEED] [-x HITMAP -e EVERY] FILE...
 *
 * For each case, one of the FILEs (file mode, pipe mode, compressed, other
 * byte order) is mutated: cut short, bytes flipped, or a header/record field
 * set to a boundary value (0, -1, 2^31, 2^40, ...), biased towards the file
 * header and the first records.  Each case runs in its own process, limited
 * to 20 s and 1 GB of address space, and reads every record through the
 * library.  Every EVERYth case also runs one hitmap command (report, diff,
 * script, stat, header, convert, report --html, report --stdio) on the
 * mutated file.
 *
 * Counted, and all must be 0: crashes (a signal), hangs (over 20 s), runs
 * over 500 MB of RSS, and silent losses: a run that succeeds without a
 * data-lost warning yet hands out fewer records (FINISHED_ROUND aside) than
 * the unmutated file (truncations and size/offset fields must be errors or
 * warnings).  A pipe-mode stream cut exactly between two records cannot be
 * told from a complete one (the format has no end marker); such a cut that
 * drops data records would count here.
 * Prints "cases N: crashes C, hangs H, rss>500MB R, silent-loss L" and
 * exits 1 when any count is not 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/perf_data.h>
#include "child-limits.h"

#define TIME_LIMIT	20
#define RSS_LIMIT_KB	(500 * 1024)

struct input {
	const char	*path;
	u8		*buf;
	size_t		size;
	u64		records;	/* what the unmutated file hands out */
};

static u64 rng_state;

static u64 rnd(void)
{
	u64 x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static u64 rnd_below(u64 n)
{
	return n ? rnd() % n : 0;
}

static void quiet(enum hm_log_level l, const char *m, void *c)
{
	(void)l; (void)m; (void)c;
}

/* Records the reader hands out; -1 on an error. */
static long long read_all(const u8 *buf, size_t size)
{
	struct hm_reader_opts ro = { .ordered = true, .all_records = true };
	struct hm_reader *r = hm_reader__new_mem(buf, size, &ro);
	struct hm_event ev;
	long long n = 0;
	int ret;

	if (!r)
		return -1;
	/* FINISHED_ROUND carries no data: a stream cut before the last one lost nothing */
	while ((ret = hm_reader__next(r, &ev)) > 0)
		n += ev.type != HM_RECORD_FINISHED_ROUND;
	hm_reader__delete(r);
	return ret < 0 ? -1 : n;
}

static const u64 boundary[] = {
	0, 1, 7, 8, 0xff, 0xffff, 0x7fffffff, 0x80000000ULL, 0xffffffffULL,
	1ULL << 40, 0x7fffffffffffffffULL, ~0ULL, 16, 104, 4096,
};

/* Mutate a copy of @in into @out; returns the new size and what was done. */
static size_t mutate(const struct input *in, u8 *out, char *what, size_t wlen)
{
	size_t size = in->size, off;
	unsigned kind = (unsigned)rnd_below(10);

	memcpy(out, in->buf, size);
	/* half the mutations hit the header and the first 4 KiB */
	off = rnd_below(2) ? rnd_below(size < 4096 ? size : 4096) : rnd_below(size);
	if (kind < 2) {				/* cut short */
		size_t cut = rnd_below(2) ? size - 1 - rnd_below(64 < size ? 64 : size - 1)
					  : rnd_below(size);

		snprintf(what, wlen, "cut at %zu of %zu", cut, size);
		return cut;
	}
	if (kind < 5) {				/* flip 1-4 bytes */
		int n = 1 + (int)rnd_below(4);

		snprintf(what, wlen, "%d byte flips from %zu", n, off);
		for (int i = 0; i < n; i++)
			out[(off + rnd_below(64)) % size] ^= (u8)(1 + rnd_below(255));
		return size;
	}
	{					/* a field set to a boundary value */
		int w = 1 << (1 + (int)rnd_below(3));	/* 2, 4 or 8 bytes */
		u64 v = boundary[rnd_below(sizeof(boundary) / sizeof(boundary[0]))];

		off &= ~(size_t)(w - 1);
		if (off + w > size)
			off = size - w;
		snprintf(what, wlen, "u%d at %zu = %#llx", w * 8, off, (unsigned long long)v);
		memcpy(out + off, &v, w);	/* little-endian hosts: the low bytes */
		return size;
	}
}

static int load(struct input *in)
{
	struct stat st;
	int fd = open(in->path, O_RDONLY);
	long long n;

	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		fprintf(stderr, "hm-mutate: %s: cannot read\n", in->path);
		return -1;
	}
	in->size = st.st_size;
	in->buf = malloc(in->size);
	if (!in->buf || read(fd, in->buf, in->size) != (ssize_t)in->size) {
		fprintf(stderr, "hm-mutate: %s: cannot read\n", in->path);
		return -1;
	}
	close(fd);
	n = read_all(in->buf, in->size);
	if (n < 0 || hm_log__nr_data_lost()) {
		fprintf(stderr, "hm-mutate: %s: the unmutated file does not read cleanly\n", in->path);
		return -1;
	}
	in->records = (u64)n;
	return 0;
}

/* The child of one library case: 0 ok, 1 error, 3 lost (warned), 4 silent loss. */
static int lib_case(const struct input *in, const u8 *buf, size_t size)
{
	long long n;

	hm_child_limits(TIME_LIMIT);
	n = read_all(buf, size);
	if (n < 0)
		return 1;
	if (hm_log__nr_data_lost())
		return 3;
	/* a cut file, or fewer records, without a word: data dropped silently */
	if ((u64)n < in->records)
		return 4;
	return 0;
}

static const char *const cmds[] = { "report", "diff", "script", "stat", "header", "convert",
				    "html", "stdio" };
#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static int cli_case(const char *hitmap, int which, const char *file, const char *tmp)
{
	char out[4200], page[4200];
	const char *cmd = cmds[which];
	int fd = open("/dev/null", O_WRONLY);

	snprintf(out, sizeof(out), "%s.conv", tmp);
	snprintf(page, sizeof(page), "%s.html", tmp);
	hm_child_limits(TIME_LIMIT);
	dup2(fd, 1);
	dup2(fd, 2);
	if (!strcmp(cmd, "diff"))
		execl(hitmap, "hitmap", "diff", file, file, (char *)NULL);
	else if (!strcmp(cmd, "convert"))
		execl(hitmap, "hitmap", "convert", "-i", file, "-o", out, (char *)NULL);
	else if (!strcmp(cmd, "html"))
		execl(hitmap, "hitmap", "report", "-i", file, "--html", page, (char *)NULL);
	else if (!strcmp(cmd, "stdio"))	/* perf's layout: the Pareto rows */
		execl(hitmap, "hitmap", "report", "--stdio", "-i", file, (char *)NULL);
	else
		execl(hitmap, "hitmap", cmd, "-i", file, (char *)NULL);
	_exit(126);
}

int main(int argc, char **argv)
{
	long cases = 3000, every = 0;
	const char *hitmap = NULL;
	struct input *in;
	int nin, c;
	u64 seed = 1;
	unsigned long crashes = 0, hangs = 0, fat = 0, silent = 0, errors = 0, warned = 0,
		      clean = 0, cli_runs = 0;
	char tmp[4096];
	u8 *buf;
	size_t maxsz = 0;
	time_t t0 = time(NULL);

	while ((c = getopt(argc, argv, "n:s:x:e:")) != -1) {
		switch (c) {
		case 'n': cases = atol(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'x': hitmap = optarg; break;
		case 'e': every = atol(optarg); break;
		default:
			fprintf(stderr, "usage: hm-mutate [-n CASES] [-s SEED] [-x HITMAP -e EVERY] FILE...\n");
			return 2;
		}
	}
	nin = argc - optind;
	if (nin < 1) {
		fprintf(stderr, "hm-mutate: give one or more perf.data files\n");
		return 2;
	}
	hm_log__set_sink(quiet, NULL, HM_LOG_WARN);
	in = calloc(nin, sizeof(*in));
	for (int i = 0; i < nin; i++) {
		in[i].path = argv[optind + i];
		if (load(&in[i]))
			return 2;
		if (in[i].size > maxsz)
			maxsz = in[i].size;
	}
	buf = malloc(maxsz);
	snprintf(tmp, sizeof(tmp), "%s/hm-mutate.%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	for (long k = 0; k < cases; k++) {
		const struct input *src = &in[k % nin];
		char what[128];
		size_t size = mutate(src, buf, what, sizeof(what));
		bool cli = hitmap && every > 0 && k % every == 0;
		struct rusage ru;
		int status, fd;
		pid_t pid;

		if (cli) {
			fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0 || write(fd, buf, size) != (ssize_t)size) {
				fprintf(stderr, "hm-mutate: %s: cannot write\n", tmp);
				return 2;
			}
			close(fd);
		}
		pid = fork();
		if (pid < 0)
			return 2;
		if (!pid) {
			if (cli)
				cli_case(hitmap, (int)((k / every) % NR_CMDS), tmp, tmp);
			_exit(lib_case(src, buf, size));
		}
		if (wait4(pid, &status, 0, &ru) < 0)
			return 2;
		cli_runs += cli;
		if (WIFSIGNALED(status)) {
			bool hang = WTERMSIG(status) == SIGALRM;

			hang ? hangs++ : crashes++;
			printf("# case %ld (%s%s%s): %s: %s\n", k, src->path, cli ? ", hitmap " : "",
			       cli ? cmds[(k / every) % NR_CMDS] : "", what,
			       hang ? "over 20 s" : strsignal(WTERMSIG(status)));
			continue;
		}
		if (ru.ru_maxrss > RSS_LIMIT_KB) {
			fat++;
			printf("# case %ld (%s): %s: %ld MB RSS\n", k, src->path, what,
			       ru.ru_maxrss / 1024);
		}
		switch (WEXITSTATUS(status)) {
		case 0: clean++; break;
		case 1: errors++; break;
		case 3: warned++; break;
		case 4:
			silent++;
			printf("# case %ld (%s): %s: read fewer records without a warning\n", k,
			       src->path, what);
			break;
		default:
			/* the CLI: 2 (usage) or >= 124 (timeout, exec failure) */
			if (WEXITSTATUS(status) >= 124) {
				crashes++;
				printf("# case %ld (%s, hitmap %s): %s: exit %d\n", k, src->path,
				       cmds[(k / every) % NR_CMDS], what, WEXITSTATUS(status));
			}
			break;
		}
	}
	unlink(tmp);
	{
		char t[4200];

		snprintf(t, sizeof(t), "%s.conv", tmp);
		unlink(t);
		snprintf(t, sizeof(t), "%s.html", tmp);
		unlink(t);
	}
	printf("cases %ld (%lu through hitmap commands) in %ld s: %lu clean, %lu errors, %lu data-lost "
	       "warnings\n", cases, cli_runs, (long)(time(NULL) - t0), clean, errors, warned);
	printf("crashes %lu, hangs %lu, rss>500MB %lu, silent-loss %lu\n", crashes, hangs, fat,
	       silent);
	for (int i = 0; i < nin; i++)
		free(in[i].buf);
	free(in);
	free(buf);
	return crashes || hangs || fat || silent;
}
