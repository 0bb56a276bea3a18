// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap record: open the events (PMU memory sampling or lock contention
 * tracepoints), run a command or the built-in futex workload, drain the
 * per-CPU ring buffers into a file-mode perf.data with full header features,
 * and attribute contended futex buckets to their table and index.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hitmap/futex.h>
#include "futex-tables.h"
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include <hitmap/topo.h>
#include "record/bpfpair.h"
#include "record/buildid.h"
#include "record/contention.h"
#include "record/evsel.h"
#include "record/mmap.h"
#include "record/aux-rec.h"
#include "record/record.h"
#include "record/record-int.h"
#include "util/errhint.h"

#define DEFAULT_PAGES	512

static volatile sig_atomic_t child_stop;

static void child_on_signal(int sig)
{
	child_stop = 1;
}

const char *hm_rec_mode__name(enum hm_rec_mode m)
{
	static const char *const n[] = { "auto", "pebs", "ibs", "spe", "contention" };

	return m <= HM_MODE_CONTENTION ? n[m] : "?";
}

int hm_rec_mode__parse(const char *s, enum hm_rec_mode *m)
{
	int i;

	for (i = HM_MODE_AUTO; i <= HM_MODE_CONTENTION; i++)
		if (!strcmp(s, hm_rec_mode__name(i))) {
			*m = i;
			return 0;
		}
	return -EINVAL;
}

/* The online CPUs, and their list as the kernel writes it in @text (for messages). */
static int online_cpus(int **cpus, char *text, size_t len)
{
	FILE *f;
	int n = 0, max = 8192;

	*cpus = calloc(max, sizeof(int));
	if (!*cpus)
		return -ENOMEM;
	f = fopen("/sys/devices/system/cpu/online", "r");
	if (f && fgets(text, (int)len, f))
		n = hm_cpulist__parse(text, *cpus, max);
	if (f)
		fclose(f);
	if (n <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		for (n = 0; n < c && n < max; n++)
			(*cpus)[n] = n;
		snprintf(text, len, "0-%d", n - 1);
	}
	text[strcspn(text, "\n")] = 0;
	return n;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* -C 3,0-3: each CPU once, in order, as perf's CPU map has them; returns the new count */
static int cpus__sort_unique(int *cpus, int n)
{
	int i, k = 0;

	qsort(cpus, n, sizeof(*cpus), cmp_int);
	for (i = 0; i < n; i++)
		if (!k || cpus[k - 1] != cpus[i])
			cpus[k++] = cpus[i];
	return k;
}

static int on_record(void *ctx, const struct perf_event_header *h, size_t size)
{
	struct hm_rec_session *s = ctx;

	if (h->type == PERF_RECORD_MMAP2 && size > 72 &&
	    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER &&
	    !(h->misc & PERF_RECORD_MISC_MMAP_DATA)) {
		char name[4096];
		size_t n = size - 72 < sizeof(name) - 1 ? size - 72 : sizeof(name) - 1;

		memcpy(name, (const char *)h + 72, n);
		name[n] = 0;
		hm_rec__add_dso(s, name);
	}
	hm_rec__account(s, h);
	hm_rec_aux__record(s->aux, h, size);
	s->wrote_since_round = true;
	return hm_writer__write(s->w, h, size);
}

static int drain_all(struct hm_rec_session *s)
{
	int i;

	for (i = 0; i < s->nr_cpus; i++) {
		long n;

		if (!s->ring[i].base)
			continue;
		n = hm_ring__drain(&s->ring[i], on_record, s);

		if (n < 0)
			return (int)n;
	}
	if (s->aux) {
		/* after the data rings, as perf: their AUX records announce it */
		long n = hm_rec_aux__drain(s->aux, s->w);

		if (n < 0)
			return (int)n;
		if (n)
			s->wrote_since_round = true;
	}
	if (s->wrote_since_round) {
		int err;

		s->wrote_since_round = false;
		err = hm_writer__write_finished_round(s->w);
		/* the header now covers this round: readable if we die from here */
		return err ? err : hm_writer__sync(s->w);
	}
	return 0;
}

/* ------------------------------------------------------------ synthesis from /proc */
/* ------------------------------------------------------------ events */

static void add_contention_events(struct hm_rec_session *s, bool system_wide, bool per_task_exec)
{
	u64 st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	int i;

	s->ev_begin = s->ev_end = s->ev_futex = -1;
	for (i = 0; i < s->ct.nr_tps; i++) {
		struct hm_pevsel *e = &s->ev[s->nr_ev];
		char name[96];

		snprintf(name, sizeof(name), "%s:%s", s->ct.tp[i].sys, s->ct.tp[i].name);
		hm_pevsel__init(e, PERF_TYPE_TRACEPOINT, s->ct.tp[i].id, name);
		e->attr.sample_period = 1;
		e->attr.sample_type = st;
		if (i == HM_TP_BEGIN) {
			/* the kernel call chain names who waits: futex_q_lock <- futex_wait_setup ... */
			e->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
			e->attr.exclude_callchain_user = 1;
			e->attr.sample_max_stack = 16;
		}
		e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		e->attr.inherit = !system_wide;
		e->attr.disabled = system_wide || per_task_exec;
		e->attr.enable_on_exec = per_task_exec;
		e->attr.exclude_guest = 1;
		if (i == HM_TP_BEGIN)
			s->ev_begin = s->nr_ev;
		else if (i == HM_TP_END)
			s->ev_end = s->nr_ev;
		else
			s->ev_futex = s->nr_ev;
		s->nr_ev++;
	}
	/* the tracking dummy, as perf record adds one */
	{
		struct hm_pevsel *e = &s->ev[s->nr_ev++];

		hm_pevsel__init(e, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, "dummy:HG");
		e->attr.sample_period = 1;
		e->attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				      PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
		e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		e->attr.inherit = !system_wide;
		e->attr.mmap = e->attr.comm = e->attr.task = e->attr.mmap2 = 1;
		e->attr.comm_exec = e->attr.ksymbol = e->attr.bpf_event = 1;
		e->attr.disabled = per_task_exec;
		e->attr.enable_on_exec = per_task_exec;
	}
}

static void add_plan_events(struct hm_rec_session *s, const struct hm_pmu_plan *p, bool no_exec)
{
	int i;

	for (i = 0; i < p->nr && s->nr_ev < MAX_EV; i++) {
		struct hm_pevsel *e = &s->ev[s->nr_ev++];

		hm_pevsel__init(e, p->ev[i].attr.type, p->ev[i].attr.config, p->ev[i].name);
		e->attr = p->ev[i].attr;
		e->attr.size = 128;
		e->leader = p->ev[i].leader;
		snprintf(e->pmu_cpus, sizeof(e->pmu_cpus), "%s", p->ev[i].cpus);
		if (no_exec && e->attr.enable_on_exec) {
			/* the built-in workload does not exec: start enabled */
			e->attr.enable_on_exec = 0;
			e->attr.disabled = 0;
		}
	}
	s->ev_begin = s->ev_end = s->ev_futex = -1;
}

static int open_events(struct hm_rec_session *s, pid_t pid, bool precise_fallback)
{
	int i, err;

	for (i = 0; i < s->nr_ev && !hm_rec__stopped(s); i++) {
		struct hm_pevsel *e = &s->ev[i];
		const struct hm_pevsel *leader = e->leader >= 0 ? &s->ev[e->leader] : NULL;

		for (;;) {
			err = hm_pevsel__open(e, s->cpus, s->nr_cpus, pid, leader);
			if (!err)
				break;
			if (precise_fallback && e->attr.precise_ip &&
			    (err == -EINVAL || err == -EOPNOTSUPP)) {
				e->attr.precise_ip--;
				hm_debug("%s: retrying with precise_ip=%u", e->name, e->attr.precise_ip);
				continue;
			}
			return err;
		}
	}
	return 0;
}

static int setup_rings(struct hm_rec_session *s)
{
	/* users are held to kernel.perf_event_mlock_kb (516 KiB per CPU): perf's 128 pages */
	int pages = s->o->mmap_pages > 0 ? s->o->mmap_pages : geteuid() ? 128 : DEFAULT_PAGES;
	long psz = sysconf(_SC_PAGESIZE);
	int c, i, err;

	s->ring = calloc(s->nr_cpus, sizeof(*s->ring));
	if (!s->ring)
		return -ENOMEM;
	for (c = 0; c < s->nr_cpus; c++)
		s->ring[c].fd = -1;
	(void)psz;
	for (c = 0; c < s->nr_cpus; c++) {
		int owner = -1;

		/* the ring belongs to the first event open on this CPU (hybrids skip some) */
		for (i = 0; i < s->nr_ev && owner < 0; i++)
			if (s->ev[i].fd[c] >= 0)
				owner = i;
		if (owner < 0)
			continue;
		err = hm_ring__mmap(&s->ring[c], s->ev[owner].fd[c], s->cpus[c], pages);
		if (err)
			return err;
		for (i = owner + 1; i < s->nr_ev; i++) {
			if (s->ev[i].fd[c] < 0)
				continue;
			err = hm_ring__set_output(&s->ring[c], s->ev[i].fd[c]);
			if (err) {
				hm_err("ioctl(PERF_EVENT_IOC_SET_OUTPUT) for %s on CPU %d: %s",
				       s->ev[i].name, s->cpus[c], strerror(-err));
				return err;
			}
		}
	}
	return 0;
}

/*
 * Tests only: HITMAP_RECORD_TEST_SLOW_SETUP=MS makes each set-up step last MS
 * ms more, a sleep that signals do not cut short (as a BTF parse on a busy
 * machine), so that a test sees a signal during set-up end the run promptly.
 * HITMAP_RECORD_TEST_CHILD_PAUSE=MS holds the command's child that long
 * after it is released and before it drops its handlers and runs the
 * command, so that a test sends the recorder's SIGTERM into that window.
 */
static void slow_setup_step(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------ target */

static int start_child(struct hm_rec_session *s)
{
	int go[2], ex[2];
	pid_t pid;

	sigset_t block, old;
	pid_t parent = getpid();
	const char *pause = getenv("HITMAP_RECORD_TEST_CHILD_PAUSE");
	int child_pause_ms = pause ? atoi(pause) : 0;	/* read before the fork */

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (s->o->workload) {
		struct hm_futex_hash_opts wo = s->o->wl;

		wo.stop = &child_stop;
		s->fh = hm_futex_hash__new(&wo);
		if (!s->fh) {
			close(go[0]);
			close(go[1]);
			return -errno;
		}
		s->wl_len = sizeof(*s->wl) + s->fh->nr_threads * sizeof(u64);
		s->wl = mmap(NULL, s->wl_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (s->wl == MAP_FAILED) {
			s->wl = NULL;
			close(go[0]);
			close(go[1]);
			return -ENOMEM;
		}
	}
	/* the command's exec errno comes back here; a successful exec closes it */
	if (pipe2(ex, O_CLOEXEC)) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		return err;
	}
	s->exec_fd = ex[0];
	fflush(NULL);
	/*
	 * The child must not run the recorder's handlers (its flag would be
	 * set in the child's copy and lost): signals wait until it has its own.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		sigprocmask(SIG_SETMASK, &old, NULL);
		close(go[0]);
		close(go[1]);
		close(ex[1]);	/* ex[0] is the session's, closed with it */
		return err;
	}
	if (pid == 0) {
		char c;
		struct sigaction sa;

		close(go[1]);
		close(ex[0]);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = child_on_signal;
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
		/* the recorder died (even by SIGKILL): so does its command */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(126);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (read(go[0], &c, 1) != 1)
			_exit(126);	/* the recorder gave up */
		close(go[0]);
		if (s->o->workload) {
			struct hm_futex_hash *fh = s->fh;
			int t;

			fh->pid = getpid();
			if (hm_futex_hash__run(fh)) {
				fprintf(stderr, "hitmap: %s\n", hm_log__last_error());
				_exit(1);
			}
			s->wl->pid = fh->pid;
			s->wl->slots = fh->slots;
			s->wl->avg = fh->avg;
			s->wl->rel_stddev = fh->rel_stddev;
			s->wl->cpu_secs = fh->cpu_secs;
			s->wl->total_ops = fh->total_ops;
			s->wl->nr_threads = fh->nr_threads;
			s->wl->futexes = fh->opts.futexes;
			for (t = 0; t < fh->nr_threads; t++)
				s->wl->base[t] = (u64)(uintptr_t)fh->thr[t].futex;
			__atomic_store_n(&s->wl->done, 1, __ATOMIC_RELEASE);
			if (s->o->workload_done)
				s->o->workload_done(fh, s->o->ctx);
			fflush(NULL);
			_exit(0);
		}
		/*
		 * The recorder's SIGTERM may have come between the go byte and
		 * here: its handler only set the flag, and the command must not
		 * start as if nothing had come. Reset the handlers with the
		 * signals held, then end by that signal, as the command would have.
		 */
		if (child_pause_ms > 0)
			slow_setup_step(child_pause_ms);
		sigprocmask(SIG_BLOCK, &block, NULL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		if (child_stop)
			raise(SIGTERM);		/* pending: delivered as the mask drops */
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(s->o->argv[0], s->o->argv);
		{
			int e = errno;
			ssize_t n = write(ex[1], &e, sizeof(e));	/* the recorder says it */

			(void)n;
		}
		_exit(127);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(ex[1]);
	close(go[0]);
	s->child = pid;
	s->go_fd = go[1];
	return 0;
}

static void release_child(struct hm_rec_session *s)
{
	if (s->go_fd >= 0) {
		if (write(s->go_fd, "g", 1) != 1)
			hm_warn("could not start the command");
		close(s->go_fd);
		s->go_fd = -1;
	}
}

static void reap(struct hm_rec_session *s, bool block)
{
	int status;
	pid_t p;

	if (s->child <= 0 || s->child_done)
		return;
	do
		p = waitpid(s->child, &status, block ? 0 : WNOHANG);
	while (p < 0 && errno == EINTR);	/* a second signal must not leave it unreaped */
	if (p == s->child) {
		int e;

		s->child_done = true;
		s->res->child_status = status;
		/* the write end is closed now: an errno, or EOF after exec or exit */
		if (s->exec_fd >= 0 && read(s->exec_fd, &e, sizeof(e)) == sizeof(e))
			s->res->exec_errno = e;
	}
}

/* ------------------------------------------------------------ main */

static int choose_mode(const struct hm_record_opts *o, struct hm_record_result *res,
		       struct hm_pmu_plan *plan)
{
	struct hm_pmu_plan_opts po = {
		.sysfs_root = o->sysfs_root, .mode = o->mode, .ldlat = o->ldlat,
		.period = o->period, .system_wide = o->all_cpus || o->cpus,
		.user_only = o->user_only, .kernel_only = o->kernel_only,
	};
	int err;

	memset(plan, 0, sizeof(*plan));
	if (o->mode == HM_MODE_CONTENTION) {
		res->mode = HM_MODE_CONTENTION;
		snprintf(res->mode_why, sizeof(res->mode_why), "requested");
		return 0;
	}
	if (getenv("HITMAP_RECORD_TEST_SWEVENT")) {
		/*
		 * Tests only: the PMU path (plan, open, ids, enable_on_exec,
		 * synthesis, header) with software events standing in for
		 * mem-loads and mem-stores, where no PMU is available.
		 */
		int i;

		for (i = 0; i < 2; i++) {
			struct hm_plan_event *e = &plan->ev[plan->nr++];

			memset(e, 0, sizeof(*e));
			e->leader = -1;
			e->attr.size = 128;
			e->attr.type = PERF_TYPE_SOFTWARE;
			e->attr.config = i ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
			e->attr.sample_period = o->period ? o->period : 100000;
			e->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					      PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
					      PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
					      PERF_SAMPLE_WEIGHT_STRUCT;
			e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
			e->attr.inherit = 1;
			e->attr.sample_id_all = 1;
			e->attr.disabled = 1;
			e->attr.enable_on_exec = !(o->all_cpus || o->cpus);
			e->attr.exclude_kernel = o->user_only;
			e->attr.exclude_user = o->kernel_only;
			if (!i) {
				e->attr.mmap = e->attr.comm = e->attr.task = e->attr.mmap_data = 1;
				e->attr.mmap2 = e->attr.comm_exec = 1;
			}
			snprintf(e->name, sizeof(e->name), i ? "task-clock" : "cpu-clock");
		}
		plan->mode = HM_MODE_PEBS;
		res->mode = HM_MODE_PEBS;
		snprintf(plan->desc, sizeof(plan->desc), "test: software clocks in place of PEBS");
		snprintf(res->mode_why, sizeof(res->mode_why), "%s", plan->desc);
		return 0;
	}
	err = hm_pmu__plan(&po, plan);
	if (err)
		return err;
	if (plan->nr) {
		res->mode = plan->mode;
		snprintf(res->mode_why, sizeof(res->mode_why), "%s", plan->desc);
		return 0;
	}
	if (o->mode != HM_MODE_AUTO) {
		hm_err("--mode %s: %s; remaining mode here: contention (--mode contention)",
		       hm_rec_mode__name(o->mode), plan->why);
		return -ENODEV;
	}
	res->mode = HM_MODE_CONTENTION;
	snprintf(res->mode_why, sizeof(res->mode_why),
		 "no PMU memory sampling here (%.150s); falling back to contention mode (lock:contention_begin/end)",
		 plan->why);
	return 0;
}

static double self_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int hm_record__run(const struct hm_record_opts *o, struct hm_record_result *res)
{
	struct hm_rec_session s;
	struct hm_pmu_plan plan;
	struct hm_header h;
	struct hm_meta *meta = NULL;
	bool system_wide = o->all_cpus || o->cpus;
	bool contention;
	pid_t pid;
	int err, i, c;
	struct pollfd *pfd = NULL;
	void *td = NULL;
	size_t td_size = 0;
	double cpu0;
	int lock_fd = -1;
	bool created = false;	/* the output did not exist: ours to remove if nothing is written */
	const char *slow = getenv("HITMAP_RECORD_TEST_SLOW_SETUP");
	int slow_ms = slow ? atoi(slow) : 0;

	memset(&s, 0, sizeof(s));
	memset(res, 0, sizeof(*res));
	memset(&h, 0, sizeof(h));
	s.o = o;
	s.res = res;
	s.go_fd = -1;
	s.exec_fd = -1;
	res->table_kind = -1;
	if (!o->workload && (!o->argv || !o->argv[0]) && !system_wide) {
		hm_err("record: nothing to record; fix: give a command after --, --workload futex-hash, or -a");
		return -EINVAL;
	}
	/*
	 * A SIGINT/SIGTERM while setting up (tracefs, BTF, BPF, opening the
	 * events: seconds on a busy machine) ends the run at the next step:
	 * before the output is started no file is written (an existing one is
	 * left as it was), after it the file is closed complete and readable,
	 * with whatever was recorded (nothing, the command never started).
	 */
#define STOP_POINT() do {				\
		slow_setup_step(slow_ms);		\
		if (hm_rec__stopped(&s))		\
			goto stopped;			\
	} while (0)
	STOP_POINT();
	err = choose_mode(o, res, &plan);
	if (err)
		return err;
	contention = res->mode == HM_MODE_CONTENTION;
	if (contention && o->user_only) {
		hm_err("-u: contention mode records kernel tracepoints, so user-only leaves nothing; fix: drop -u");
		return -EINVAL;
	}
	if (contention && (o->ldlat >= 0 || o->period))
		hm_warn("-l/-c apply to PMU sampling; contention mode records every contention event");
	if (!contention && (o->futex_syscalls))
		hm_warn("--futex-syscalls applies to contention mode; ignored in %s mode", hm_rec_mode__name(res->mode));
	if (contention) {
		err = hm_contention__init(&s.ct, o->futex_syscalls);
		if (err)
			return err;
	}
	STOP_POINT();

	if (o->cpus) {
		s.cpus = calloc(8192, sizeof(int));
		s.nr_cpus = s.cpus ? hm_cpulist__parse(o->cpus, s.cpus, 8192) : -ENOMEM;
		if (s.nr_cpus <= 0) {
			hm_err("-C '%s': not a CPU list; fix: e.g. -C 0-3", o->cpus);
			err = -EINVAL;
			goto out;
		}
		s.nr_cpus = cpus__sort_unique(s.cpus, s.nr_cpus);
		err = hm_cpulist__check_online(NULL, "-C", o->cpus, s.cpus, s.nr_cpus);
		if (err)
			goto out;
	} else {
		char list[4096];

		s.nr_cpus = online_cpus(&s.cpus, list, sizeof(list));
		if (s.nr_cpus <= 0) {
			err = s.nr_cpus ? s.nr_cpus : -ENODEV;
			goto out;
		}
	}
	res->nr_cpus = s.nr_cpus;
	{
		struct hm_topo *t = hm_topo__new_live(NULL);

		s.cpu_sock = calloc(8192, sizeof(int));
		res->nr_sockets = 1;
		if (t && s.cpu_sock) {
			for (c = 0; c < 8192 && c < hm_topo__nr_cpus(t); c++)
				s.cpu_sock[c] = hm_topo__cpu_socket(t, c);
			res->nr_sockets = hm_topo__nr_sockets(t) > 0 ? hm_topo__nr_sockets(t) : 1;
		}
		hm_topo__delete(t);
	}

	/*
	 * One recorder per output: the lock is taken on the file before it
	 * is truncated, so a second recorder cannot clobber a running one.
	 */
	STOP_POINT();
	lock_fd = open(o->output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	created = lock_fd >= 0;
	if (lock_fd < 0 && errno == EEXIST)
		lock_fd = open(o->output, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (lock_fd < 0) {
		err = -errno;
		hm_err("%s: cannot create: %s%s", o->output, strerror(-err), hm_hint__create(-err));
		goto out;
	}
	if (flock(lock_fd, LOCK_EX | LOCK_NB)) {
		err = errno == EWOULDBLOCK ? -EBUSY : -errno;
		hm_err("%s: another recording is writing this file; fix: give another -o, or "
		       "wait for it to finish", o->output);
		created = false;	/* another recorder's */
		goto out;
	}
	STOP_POINT();
	if (o->workload || (o->argv && o->argv[0])) {
		err = start_child(&s);
		if (err) {
			hm_err("record: cannot start the %s: %s", o->workload ? "workload" : "command",
			       strerror(-err));
			goto out;
		}
	}
	STOP_POINT();
	pid = system_wide ? -1 : s.child;
	if (o->futex_bpf) {
		char buf[4096];
		const char *obj = o->bpf_obj ? o->bpf_obj : hm_bpfpair__default_path(buf, sizeof(buf));

		s.bpf = hm_bpfpair__new(obj, system_wide ? 0 : s.child);
		if (!s.bpf) {
			err = -errno;
			goto out;
		}
	}
	STOP_POINT();
	/* the futex tables of the recorded processes, live (futex-tables.c) */
	s.ftab = hm_rec_futex__start(NULL, system_wide ? 0 : s.child, res->futex_tables_sum,
				     sizeof(res->futex_tables_sum));
	if (contention)
		add_contention_events(&s, system_wide, !system_wide && !o->workload);
	else
		add_plan_events(&s, &plan, o->workload);
	STOP_POINT();
	err = open_events(&s, pid, !contention);
	if (err)
		goto out;
	STOP_POINT();
	err = setup_rings(&s);
	if (err)
		goto out;
	STOP_POINT();
	if (res->mode == HM_MODE_SPE) {
		/* the AUX areas beside the rings the SPE event (the plan's first) owns */
		s.aux = hm_rec_aux__setup(&plan, s.cpus, s.nr_cpus, s.ring, s.ev[0].fd,
					  system_wide ? (u32)-1 : (u32)s.child);
		if (!s.aux) {
			err = -errno;
			goto out;
		}
	}

	STOP_POINT();
#undef STOP_POINT
	s.w = hm_writer__new(o->output);
	if (!s.w) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < s.nr_ev; i++) {
		u64 ids[8192];
		u32 n = 0;

		for (c = 0; c < s.ev[i].nr_cpus && n < 8192; c++)
			if (s.ev[i].fd[c] >= 0 && s.ev[i].id[c])
				ids[n++] = s.ev[i].id[c];
		err = hm_writer__add_evsel(s.w, &s.ev[i].attr, s.ev[i].name, n ? ids : NULL, n);
		if (err < 0)
			goto out;
	}
	if (s.aux) {
		/* TIME_CONV and AUXTRACE_INFO before any AUX data */
		err = hm_rec_aux__start(s.aux, s.w);
		if (err)
			goto out;
	}
	/* the kernel, and threads that already exist */
	hm_rec__synth_kernel(&s);
	if (hm_rec__stopped(&s))
		;	/* the file is closed at once, with nothing recorded */
	else if (system_wide)
		hm_rec__synth_all(&s, !contention);
	else if (o->workload && s.child > 0)
		hm_rec__synth_task(&s, s.child, !contention);
	if (system_wide && !hm_rec__stopped(&s))
		for (i = 0; i < s.nr_ev; i++)
			hm_pevsel__enable(&s.ev[i]);
	cpu0 = self_cpu();
	/* a valid header from the start: a killed recorder leaves a readable file */
	err = hm_writer__sync(s.w);
	if (err)
		goto out;
	if (hm_rec__stopped(&s)) {
		/* stopped before the command ran: it never starts (exits 126) */
		if (s.go_fd >= 0)
			close(s.go_fd);
		s.go_fd = -1;
		/* nothing ran: no futex table to look for (seconds of BTF on a busy machine) */
		hm_rec_futex__delete(s.ftab);
		s.ftab = NULL;
	} else {
		release_child(&s);
	}

	pfd = calloc(s.nr_cpus, sizeof(*pfd));
	if (!pfd) {
		err = -ENOMEM;
		goto out;
	}
	for (c = 0; c < s.nr_cpus; c++) {
		pfd[c].fd = s.ring[c].fd;
		pfd[c].events = POLLIN;
	}
	for (;;) {
		if (o->stop && *o->stop) {
			res->interrupted = true;
			if (s.child > 0 && !s.child_done)
				kill(s.child, SIGTERM);
			break;
		}
		reap(&s, false);
		if (s.child > 0 && s.child_done)
			break;
		poll(pfd, s.nr_cpus, 100);
		err = drain_all(&s);
		if (err)
			goto out;
	}
	reap(&s, true);
	for (i = 0; i < s.nr_ev; i++)
		hm_pevsel__disable(&s.ev[i]);
	res->rec_cpu_secs = self_cpu() - cpu0;
	err = drain_all(&s);
	if (err)
		goto out;
	if (s.bpf) {
		size_t q;

		if (!hm_bpfpair__collect(s.bpf, &s.bpf_pairs, &s.nr_bpf_pairs, &res->bpf_seen,
					 &res->bpf_in_futex)) {
			res->bpf_pairs = s.nr_bpf_pairs;
			for (q = 0; q < s.nr_bpf_pairs; q++)
				res->bpf_events += s.bpf_pairs[q].count;
		}
		hm_bpfpair__delete(s.bpf);
		s.bpf = NULL;
	}
	hm_rec_aux__finish(s.aux, &res->aux_records, &res->aux_bytes, &res->aux_lost);
	for (c = 0; c < s.nr_cpus; c++) {
		res->lost += s.ring[c].nr_lost;
		res->lost_samples += s.ring[c].nr_lost_samples;
		res->bytes += s.ring[c].bytes;
		res->nr_records += s.ring[c].nr_records;
	}

	meta = hm_meta__new();
	if (meta) {
		const char *mode = hm_rec_mode__name(res->mode);
		struct utsname u;

		hm_meta__add(meta, HM_META_RECORD_MODE, mode, strlen(mode));
		if (!uname(&u))
			hm_meta__add(meta, HM_META_KERNEL, u.release, strlen(u.release));
		if (s.wl && s.wl->done && s.fh) {
			char *js;

			/* the parent's copy lacks the child's results: take them from the shared page */
			s.fh->pid = s.wl->pid;
			s.fh->slots = s.wl->slots;
			s.fh->avg = s.wl->avg;
			s.fh->rel_stddev = s.wl->rel_stddev;
			js = hm_futex_hash__json_string(s.fh);
			if (js) {
				hm_meta__add(meta, HM_META_WORKLOAD, js, strlen(js));
				free(js);
			}
			res->wl_avg = s.wl->avg;
			res->wl_rel_stddev = s.wl->rel_stddev;
			res->wl_threads = s.wl->nr_threads;
			res->wl_cpu_secs = s.wl->cpu_secs;
			res->wl_total_ops = s.wl->total_ops;
			s.fh->cpu_secs = s.wl->cpu_secs;
			s.fh->total_ops = s.wl->total_ops;
		}
		if (contention && (s.wl ? s.wl->done : true))
			hm_rec__attribute(&s, meta);
		if (s.ftab)
			res->futex_tables = hm_rec_futex__finish(s.ftab, meta, res->futex_tables_sum,
								 sizeof(res->futex_tables_sum));
	}
	hm_rec_futex__delete(s.ftab);
	s.ftab = NULL;
	hm_rec__fill_header(&s, &h, meta);
	if (contention) {
		/* the tracepoint formats, so perf script decodes the events */
		err = hm_contention__tracing_data(&s.ct, &td, &td_size);
		if (err)
			goto out;
		h.tracing_data = td;		/* h owns it now */
		h.tracing_data_size = td_size;
		td = NULL;
	}
	err = hm_writer__set_header(s.w, &h);
	if (err)
		goto out;
	err = hm_writer__close(s.w);
	if (err)
		goto out;
	/* record writes, report analyses: the summary's buckets are the report's */
	if (contention && res->table_kind >= 0 && strcmp(o->output, "-"))
		hm_rec__summarize(o->output, res);
	goto out;
stopped:
	/* before the output was started: nothing recorded, no file written */
	res->interrupted = true;
	res->not_written = true;
	if (created)
		unlink(o->output);
	err = 0;
out:
	if (s.child > 0 && !s.child_done) {
		if (s.go_fd >= 0) {
			close(s.go_fd);		/* the child exits 126 */
			s.go_fd = -1;
		} else {
			kill(s.child, SIGTERM);
		}
		reap(&s, true);
	}
	if (s.go_fd >= 0)
		close(s.go_fd);
	if (s.exec_fd >= 0)
		close(s.exec_fd);
	if (err && s.w)
		hm_writer__close(s.w);	/* leave a readable file behind even so */
	hm_writer__delete(s.w);
	hm_rec_aux__delete(s.aux);	/* before the rings it is mapped beside */
	for (c = 0; s.ring && c < s.nr_cpus; c++)
		hm_ring__munmap(&s.ring[c]);
	free(s.ring);
	for (i = 0; i < s.nr_ev; i++)
		hm_pevsel__close(&s.ev[i]);
	free(s.cpus);
	free(s.cpu_sock);
	hm_bpfpair__delete(s.bpf);
	hm_rec_futex__delete(s.ftab);
	free(s.bpf_pairs);
	for (i = 0; i < s.nr_dsos; i++)
		free(s.dsos[i]);
	free(s.dsos);
	free(pfd);
	free(td);
	hm_header__release(&h);
	hm_meta__delete(meta);
	if (s.wl)
		munmap(s.wl, s.wl_len);
	hm_futex_hash__delete(s.fh);
	free(s.locks.e);
	free(s.pairs.e);
	free(s.tids.e);
	if (lock_fd >= 0)
		close(lock_fd);
	return err;
}

