// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap bench futex-hash: a faithful copy of perf bench futex hash
 * (tools/perf/bench/futex-hash.c), see futex_hash.h and notes/futex.md s3.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <hitmap/log.h>
#include <hitmap/topo.h>
#include "futex_hash.h"

#ifndef PR_FUTEX_HASH
#define PR_FUTEX_HASH			78
#define PR_FUTEX_HASH_SET_SLOTS		1
#define PR_FUTEX_HASH_GET_SLOTS		2
#endif

struct fh_priv {
	pthread_mutex_t	mutex;
	pthread_cond_t	parent, worker;
	int		starting;
	volatile int	done;
	int		flag;		/* FUTEX_PRIVATE_FLAG or 0 */
	int		nfutexes;
	int		*cpus;		/* chosen CPU order */
	int		nr_cpus;
	pthread_t	*tid;
};

struct fh_arg {
	struct hm_futex_hash	*fh;
	int			idx;
};

void hm_futex_hash_opts__init(struct hm_futex_hash_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->futexes = 1024;
	o->runtime = 10;
	o->buckets = -1;
	o->placement = HM_PLACE_PERF;
}

/* "0-3,8,10-11" -> cpus, in the order given (a CPU may repeat: threads pin in turn); the count, or -EINVAL */
static int parse_cpulist(const char *s, int *cpus, int n)
{
	int nr = 0;

	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -EINVAL;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -EINVAL;
			s = end;
		}
		for (; a <= b; a++) {
			if (nr >= n || a >= n)
				return -EINVAL;
			cpus[nr++] = (int)a;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return nr ? nr : -EINVAL;
}

static int read_package_id(const char *root, int cpu, int *val)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 root ? root : "", cpu);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fscanf(f, "%d", val) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

static int read_cpulist(const char *root, const char *rel, int *cpus, int n)
{
	char path[512], buf[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root ? root : "", rel);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EINVAL;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return parse_cpulist(buf, cpus, n);
}

/* Order @cpus by socket for spread (round-robin over sockets) or compact. */
static void place_cpus(const char *root, int *cpus, int n, enum hm_placement p)
{
	int *sock, *out, i, j, k, max_sock = 0;

	if (p == HM_PLACE_PERF || n < 2)
		return;
	sock = calloc(n, sizeof(*sock));
	out = calloc(n, sizeof(*out));
	if (!sock || !out)
		goto out;
	for (i = 0; i < n; i++) {
		if (read_package_id(root, cpus[i], &sock[i]) < 0 || sock[i] < 0)
			sock[i] = 0;
		if (sock[i] > max_sock)
			max_sock = sock[i];
	}
	k = 0;
	if (p == HM_PLACE_COMPACT) {
		for (j = 0; j <= max_sock; j++)
			for (i = 0; i < n; i++)
				if (sock[i] == j)
					out[k++] = cpus[i];
	} else {
		/* spread: the r-th CPU of each socket in turn */
		int *taken = calloc(n, sizeof(*taken));

		if (!taken)
			goto out;
		while (k < n) {
			for (j = 0; j <= max_sock && k < n; j++)
				for (i = 0; i < n; i++)
					if (!taken[i] && sock[i] == j) {
						taken[i] = 1;
						out[k++] = cpus[i];
						break;
					}
		}
		free(taken);
	}
	memcpy(cpus, out, n * sizeof(*cpus));
out:
	free(sock);
	free(out);
}

/* Half of physical memory in bytes; 0 when unknown (no limit). */
static double half_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	return pages > 0 && psz > 0 ? (double)pages * psz / 2 : 0;
}

struct hm_futex_hash *hm_futex_hash__new(const struct hm_futex_hash_opts *o)
{
	struct hm_futex_hash *fh;
	struct fh_priv *p;
	int max = CPU_SETSIZE, nr, i;
	double need;

	if (o->futexes <= 0 || o->futexes > HM_FUTEX_HASH_MAX_FUTEXES ||
	    o->runtime < 0 || o->threads < 0 || o->threads > HM_FUTEX_HASH_MAX_THREADS) {
		hm_err("futex-hash: threads 0..%d, futexes 1..%d, runtime >= 0; fix the option value",
		       HM_FUTEX_HASH_MAX_THREADS, HM_FUTEX_HASH_MAX_FUTEXES);
		errno = EINVAL;
		return NULL;
	}
	fh = calloc(1, sizeof(*fh));
	p = calloc(1, sizeof(*p));
	if (!fh || !p)
		goto nomem;
	fh->opts = *o;
	fh->priv = p;
	p->cpus = calloc(max, sizeof(int));
	if (!p->cpus)
		goto nomem;
	if (o->cpus) {
		nr = parse_cpulist(o->cpus, p->cpus, max);
		if (nr <= 0) {
			hm_err("--cpus '%s': not a CPU list; fix: give e.g. 0-3,8", o->cpus);
			errno = EINVAL;
			goto fail;
		}
		if (hm_cpulist__check_online(o->sysfs_root, "--cpus", o->cpus, p->cpus, nr) < 0) {
			errno = EINVAL;
			goto fail;
		}
	} else {
		nr = read_cpulist(o->sysfs_root, "/sys/devices/system/cpu/online", p->cpus, max);
		if (nr <= 0) {
			long n = sysconf(_SC_NPROCESSORS_ONLN);

			for (nr = 0; nr < n && nr < max; nr++)
				p->cpus[nr] = nr;
		}
	}
	p->nr_cpus = nr;
	place_cpus(o->sysfs_root, p->cpus, nr, o->placement);
	fh->nr_threads = o->threads ? o->threads : nr;
	need = (double)fh->nr_threads * o->futexes * sizeof(uint32_t);
	if (half_memory() && need > half_memory()) {
		hm_err("futex-hash: %d threads x %d futexes need %.1f GiB, more than half of this machine's memory; fix: fewer futexes (-f) or threads (-t)",
		       fh->nr_threads, o->futexes, need / (1 << 30));
		errno = ENOMEM;
		goto fail;
	}
	fh->thr = calloc(fh->nr_threads, sizeof(*fh->thr));
	p->tid = calloc(fh->nr_threads, sizeof(*p->tid));
	if (!fh->thr || !p->tid)
		goto nomem;
	for (i = 0; i < fh->nr_threads; i++)
		fh->thr[i].cpu = p->cpus[i % nr];
	p->nfutexes = o->futexes;
	p->flag = o->shared ? 0 : FUTEX_PRIVATE_FLAG;
	fh->pid = getpid();
	return fh;
nomem:
	errno = ENOMEM;
	hm_err("futex-hash: out of memory");
fail:
	hm_futex_hash__delete(fh);
	return NULL;
}

void hm_futex_hash__delete(struct hm_futex_hash *fh)
{
	struct fh_priv *p;
	int i;

	if (!fh)
		return;
	p = fh->priv;
	if (fh->thr)
		for (i = 0; i < fh->nr_threads; i++)
			free(fh->thr[i].futex);
	free(fh->thr);
	if (p) {
		free(p->cpus);
		free(p->tid);
		free(p);
	}
	free(fh);
}

static void *worker(void *arg)
{
	struct fh_arg *a = arg;
	struct hm_futex_hash *fh = a->fh;
	struct fh_priv *p = fh->priv;
	struct hm_futex_hash_thread *t = &fh->thr[a->idx];
	uint32_t *futex = t->futex;
	int n = p->nfutexes, op = FUTEX_WAIT | p->flag, i;
	unsigned long ops = 0;

	pthread_mutex_lock(&p->mutex);
	p->starting--;
	if (!p->starting)
		pthread_cond_signal(&p->parent);
	pthread_cond_wait(&p->worker, &p->mutex);
	pthread_mutex_unlock(&p->mutex);

	do {
		for (i = 0; i < n; i++, ops++)
			syscall(SYS_futex, &futex[i], op, 1234, NULL, NULL, 0);
	} while (!__atomic_load_n(&p->done, __ATOMIC_RELAXED));
	t->ops = ops;
	return NULL;
}

/* sleep(runtime), woken early by *stop */
static void wait_runtime(const struct hm_futex_hash *fh)
{
	struct timespec end, now;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += fh->opts.runtime;
	for (;;) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		if (fh->opts.stop && *fh->opts.stop)
			return;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			return;
		if (end.tv_sec - now.tv_sec < 1) {
			long ns = (end.tv_sec - now.tv_sec) * 1000000000L +
				  (end.tv_nsec - now.tv_nsec);
			if (ns < ts.tv_nsec)
				ts.tv_nsec = ns;
		}
		nanosleep(&ts, NULL);
	}
}

int hm_futex_hash__run(struct hm_futex_hash *fh)
{
	struct fh_priv *p = fh->priv;
	struct fh_arg *args;
	struct timeval start, end, d;
	struct rusage ru0, ru1;
	pthread_attr_t attr;
	double mean = 0, m2 = 0;
	int i, err = 0, created = 0;

	if (fh->opts.mlockall && mlockall(MCL_CURRENT | MCL_FUTURE)) {
		err = -errno;
		hm_err("futex-hash: mlockall: %s; fix: run as root or raise RLIMIT_MEMLOCK (ulimit -l)",
		       strerror(errno));
		return err;
	}
	fh->slots_before = prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_GET_SLOTS, 0, 0, 0);
	if (fh->opts.buckets >= 0 &&
	    prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_SET_SLOTS, fh->opts.buckets, 0, 0)) {
		err = -errno;
		hm_err("futex-hash: -b %ld: prctl(PR_FUTEX_HASH, SET_SLOTS): %s; fix: give 0 or a power of two >= 2 on a 6.17+ kernel with CONFIG_FUTEX_PRIVATE_HASH",
		       fh->opts.buckets, strerror(errno));
		return err;
	}
	args = calloc(fh->nr_threads, sizeof(*args));
	if (!args)
		return -ENOMEM;
	pthread_mutex_init(&p->mutex, NULL);
	pthread_cond_init(&p->parent, NULL);
	pthread_cond_init(&p->worker, NULL);
	p->starting = fh->nr_threads;
	p->done = 0;
	pthread_attr_init(&attr);
	getrusage(RUSAGE_SELF, &ru0);
	gettimeofday(&start, NULL);
	for (i = 0; i < fh->nr_threads; i++) {
		cpu_set_t set;

		args[i].fh = fh;
		args[i].idx = i;
		fh->thr[i].futex = calloc(p->nfutexes, sizeof(uint32_t));
		if (!fh->thr[i].futex) {
			err = -ENOMEM;
			break;
		}
		/* as perf 6.1: a cpu_set_t on the stack, no heap traffic between arrays */
		CPU_ZERO(&set);
		CPU_SET(fh->thr[i].cpu, &set);
		if (pthread_attr_setaffinity_np(&attr, sizeof(set), &set)) {
			err = -EINVAL;
			hm_err("futex-hash: cannot pin thread %d to CPU %d; fix: give online CPUs with --cpus",
			       i, fh->thr[i].cpu);
			break;
		}
		if (pthread_create(&p->tid[i], &attr, worker, &args[i])) {
			err = -EAGAIN;
			hm_err("futex-hash: pthread_create failed for thread %d; fix: fewer threads (-t)", i);
			break;
		}
		created++;
	}
	pthread_attr_destroy(&attr);

	pthread_mutex_lock(&p->mutex);
	if (created < fh->nr_threads)
		p->starting -= fh->nr_threads - created;
	while (p->starting > 0)
		pthread_cond_wait(&p->parent, &p->mutex);
	pthread_cond_broadcast(&p->worker);
	pthread_mutex_unlock(&p->mutex);

	if (!err)
		wait_runtime(fh);
	__atomic_store_n(&p->done, 1, __ATOMIC_RELAXED);
	gettimeofday(&end, NULL);
	timersub(&end, &start, &d);
	for (i = 0; i < created; i++)
		pthread_join(p->tid[i], NULL);
	getrusage(RUSAGE_SELF, &ru1);
	fh->cpu_secs = (ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) + (ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
		       ((ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) + (ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec)) / 1e6;
	pthread_cond_destroy(&p->parent);
	pthread_cond_destroy(&p->worker);
	pthread_mutex_destroy(&p->mutex);
	free(args);
	if (err)
		return err;

	fh->secs = (int)d.tv_sec;
	fh->elapsed = d.tv_sec + d.tv_usec / 1e6;
	fh->slots = prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_GET_SLOTS, 0, 0, 0);
	fh->total_ops = 0;
	/* update_stats(): Welford; stddev_stats(): standard error of the mean */
	for (i = 0; i < fh->nr_threads; i++) {
		double delta, v;

		/* perf: bench__runtime.tv_sec > 0 ? ops / tv_sec : 0 (-r 0, or a stop within 1 s) */
		fh->thr[i].ops_per_sec = fh->secs > 0 ? fh->thr[i].ops / fh->secs : 0;
		fh->total_ops += fh->thr[i].ops;
		v = (double)fh->thr[i].ops_per_sec;
		delta = v - mean;
		mean += delta / (i + 1);
		m2 += delta * (v - mean);
	}
	fh->avg = mean;
	fh->rel_stddev = 0;
	if (fh->nr_threads >= 2 && mean) {
		double var = m2 / (fh->nr_threads - 1);

		fh->rel_stddev = 100.0 * sqrt(var / fh->nr_threads) / mean;
	}
	fh->ran = true;
	return 0;
}

void hm_futex_hash__print_header(const struct hm_futex_hash *fh, FILE *f)
{
	fprintf(f, "# Running 'futex/hash' benchmark:\n");
	fprintf(f, "Run summary [PID %d]: %d threads, each operating on %d [%s] futexes for %d secs.\n\n",
		fh->pid, fh->nr_threads, fh->opts.futexes,
		fh->opts.shared ? "shared" : "private", fh->opts.runtime);
}

void hm_futex_hash__print_result(const struct hm_futex_hash *fh, FILE *f, bool silent)
{
	int i, n = fh->opts.futexes;

	if (!silent)
		for (i = 0; i < fh->nr_threads; i++) {
			const struct hm_futex_hash_thread *t = &fh->thr[i];

			if (n == 1)
				fprintf(f, "[thread %2d] futex: %p [ %lu ops/sec ]\n",
					i, (void *)t->futex, (unsigned long)t->ops_per_sec);
			else
				fprintf(f, "[thread %2d] futexes: %p ... %p [ %lu ops/sec ]\n",
					i, (void *)t->futex, (void *)&t->futex[n - 1],
					(unsigned long)t->ops_per_sec);
		}
	fprintf(f, "%sAveraged %ld operations/sec (+- %.2f%%), total secs = %d\n",
		!silent ? "\n" : "", (long)(unsigned long)fh->avg, fh->rel_stddev, fh->secs);
	/* futex_print_nbuckets() of perf 6.16+ */
	if (fh->opts.buckets >= 0) {
		if (fh->opts.buckets == 0)
			fprintf(f, "Futex hashing: global hash\n");
		else
			fprintf(f, "Futex hashing: %ld hash buckets\n", fh->opts.buckets);
	} else if (fh->slots <= 0) {
		fprintf(f, "Futex hashing: global hash\n");
	} else {
		fprintf(f, "Futex hashing: auto resized to %ld buckets\n", fh->slots);
	}
}

char *hm_futex_hash__json_string(const struct hm_futex_hash *fh)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	if (!f)
		return NULL;
	fprintf(f, "{\"workload\":\"futex-hash\",\"pid\":%d,\"threads\":%d,\"futexes\":%d,"
		   "\"runtime\":%d,\"shared\":%s,\"mlockall\":%s,\"buckets\":%ld,"
		   "\"slots\":%ld,\"secs\":%d,\"elapsed\":%.6f,\"avg_ops_per_sec\":%.0f,"
		   "\"rel_stddev_pct\":%.4f,\"total_ops\":%llu,\"cpu_secs\":%.6f,\"threads_detail\":[",
		fh->pid, fh->nr_threads, fh->opts.futexes, fh->opts.runtime,
		fh->opts.shared ? "true" : "false", fh->opts.mlockall ? "true" : "false",
		fh->opts.buckets, fh->slots, fh->secs, fh->elapsed, fh->avg,
		fh->rel_stddev, (unsigned long long)fh->total_ops, fh->cpu_secs);
	for (i = 0; i < fh->nr_threads; i++) {
		const struct hm_futex_hash_thread *t = &fh->thr[i];

		fprintf(f, "%s{\"thread\":%d,\"cpu\":%d,\"futex_first\":\"%p\",\"futex_last\":\"%p\","
			   "\"ops\":%llu,\"ops_per_sec\":%llu}",
			i ? "," : "", i, t->cpu, (void *)t->futex,
			t->futex ? (void *)&t->futex[fh->opts.futexes - 1] : NULL,
			(unsigned long long)t->ops, (unsigned long long)t->ops_per_sec);
	}
	fprintf(f, "]}");
	fclose(f);
	return buf;
}

void hm_futex_hash__print_json(const struct hm_futex_hash *fh, FILE *f)
{
	char *s = hm_futex_hash__json_string(fh);

	if (s) {
		fprintf(f, "%s\n", s);
		free(s);
	}
}
