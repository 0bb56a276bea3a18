// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-time -o FILE CMD [ARG...]: run CMD and write one line to FILE,
 *
 *	WALL_S MAXRSS_KB USER_S SYS_S
 *
 * with microseconds (GNU time's %e %M %U %S give hundredths of a second,
 * too coarse for a 30 ms read of the bench's futex file).  The wall time
 * runs from just before the fork to the child's exit, so this tool's own
 * start is not in it.  Exits with CMD's status, 128 + N when signal N
 * ended it, 127 when it could not be run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double secs(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	const char *out;
	FILE *f;
	pid_t pid;
	int st;

	if (argc < 4 || strcmp(argv[1], "-o")) {
		fprintf(stderr, "usage: hm-time -o FILE CMD [ARG...]\n");
		return 2;
	}
	out = argv[2];
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "hm-time: fork: %s\n", strerror(errno));
		return 127;
	}
	if (pid == 0) {
		execvp(argv[3], argv + 3);
		fprintf(stderr, "hm-time: %s: %s\n", argv[3], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "hm-time: wait4: %s\n", strerror(errno));
			return 127;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "hm-time: %s: %s\n", out, strerror(errno));
		return 127;
	}
	fprintf(f, "%.6f %ld %.6f %.6f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
		ru.ru_maxrss, secs(ru.ru_utime), secs(ru.ru_stime));
	if (fclose(f)) {
		fprintf(stderr, "hm-time: %s: %s\n", out, strerror(errno));
		return 127;
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
