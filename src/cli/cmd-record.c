// SPDX-License-Identifier: GPL-2.0-only
/* hitmap record: PEBS/IBS memory sampling, or lock contention tracepoints. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include <hitmap/topo.h>
#include "cli.h"
#include "output.h"
#include "record/pmu.h"
#include "record/record.h"
#include "workload/futex_hash.h"
#include <limits.h>
#include "util/num.h"

static const char record_usage[] =
"usage: hitmap record [options] -- COMMAND [ARGS]\n"
"       hitmap record [options] --workload futex-hash [workload options]\n"
"\n"
"Record memory accesses (Intel PEBS, AMD IBS, Arm SPE) the way 'perf c2c record' does,\n"
"or, where there is no PMU (VMs, containers), lock contention through the\n"
"lock:contention_begin/end tracepoints.  Writes a perf.data that perf reads.\n"
"\n"
"  -o, --output FILE     output file (default perf.data)\n"
"      --mode MODE       auto (default), pebs, ibs, spe or contention; auto takes\n"
"                        the best PMU and falls back to contention (and says so)\n"
"  -l, --ldlat N         load latency threshold (default 30 cycles)\n"
"  -c, --count N         sample period instead of 4000 samples/s\n"
"  -a, --all-cpus        system wide\n"
"  -C, --cpu LIST        these CPUs only (system wide)\n"
"  -u, --all-user        user space only\n"
"  -k, --all-kernel      kernel only\n"
"      --futex-syscalls  contention mode: add syscalls:sys_enter_futex to pair\n"
"                        futex addresses with buckets (costly: see hitmap-record(1))\n"
"      --futex-bpf       pair futex addresses with buckets in the kernel instead: BPF on\n"
"                        lock:contention_begin reads the futex syscall's argument\n"
"                        (cheap: no syscall tracepoint)\n"
"      --bpf-obj FILE    the compiled src/record/pair.bpf.c (default: $HITMAP_RECORD_BPF,\n"
"                        else record-pair.bpf.o beside the hitmap binary)\n"
"  -m, --mmap-pages N    ring buffer pages per CPU (power of two, default 512)\n"
"      --workload futex-hash\n"
"                        run the built-in futex hash workload; its options\n"
"                        (-t -f -r -S -m -b --cpus --placement, as in\n"
"                        'hitmap bench futex-hash') follow it\n"
"      --plan            print the events planned for this machine and exit\n"
"      --sysfs-root DIR  plan against a sysfs tree under DIR (with --plan)\n"
"  -q, --quiet           no summary lines\n"
"      --json            the summary (and the workload's results) as one JSON object\n"
"  -h, --help            this text\n"
"\n"
"See hitmap-record(1).\n";

static volatile sig_atomic_t record_stop;

static void on_signal(int sig)
{
	record_stop = 1;
}

static bool record_json;

static void workload_done(const struct hm_futex_hash *fh, void *ctx)
{
	bool silent = *(bool *)ctx;

	if (record_json)
		return;
	hm_futex_hash__print_header(fh, stdout);
	hm_futex_hash__print_result(fh, stdout, silent);
}

/* What contention mode opens (record.c's add_contention_events). */
static void print_contention_plan(bool futex_syscalls)
{
	static const char *const tps[] = { "lock:contention_begin", "lock:contention_end",
					   "syscalls:sys_enter_futex" };
	int i;

	for (i = 0; i < (futex_syscalls ? 3 : 2); i++)
		printf("%-48s type %u (tracepoint) period 1 sample_type IDENTIFIER|IP|TID|TIME|CPU|PERIOD|%sRAW%s\n",
		       tps[i], PERF_TYPE_TRACEPOINT, i ? "" : "CALLCHAIN|",
		       i ? "" : " exclude_callchain_user sample_max_stack 16");
	printf("%-48s type %u config 0x%x period 1 sample_type IDENTIFIER|IP|TID|TIME|CPU tracking\n",
	       "dummy:HG", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
}

static void print_plan(const struct hm_pmu_plan *p, bool futex_syscalls)
{
	int i;

	if (!p->nr) {
		if (p->mode == HM_MODE_CONTENTION && !p->why[0])
			printf("mode: contention (lock tracepoints, every event)\n");
		else
			printf("no memory-sampling PMU: %s\nmode: contention\n", p->why);
		print_contention_plan(futex_syscalls);
		return;
	}
	printf("mode: %s (%s)\n", hm_rec_mode__name(p->mode), p->desc);
	for (i = 0; i < p->nr; i++) {
		const struct perf_event_attr *a = &p->ev[i].attr;

		printf("%-48s type %u config 0x%llx config1 0x%llx config2 0x%llx precise_ip %u (expect %d) "
		       "%s %llu sample_type 0x%llx read_format 0x%llx%s%s%s%s%s\n",
		       p->ev[i].name, a->type, (unsigned long long)a->config,
		       (unsigned long long)a->config1, (unsigned long long)a->config2,
		       a->precise_ip, p->ev[i].expect_precise, a->freq ? "freq" : "period",
		       (unsigned long long)a->sample_period, (unsigned long long)a->sample_type,
		       (unsigned long long)a->read_format,
		       p->ev[i].leader >= 0 ? " group-member" : "",
		       p->ev[i].tracking ? " tracking" : "",
		       a->disabled ? " disabled" : "", a->enable_on_exec ? " enable_on_exec" : "",
		       a->exclude_guest ? " exclude_guest" : "");
	}
}

static void print_json(const struct hm_record_opts *o, const struct hm_record_result *r)
{
	struct hm_json *j = hm_json__new(stdout, false);
	int i, k;

	hm_json__obj_begin(j, NULL);
	hm_json__str(j, "mode", hm_rec_mode__name(r->mode));
	hm_json__str(j, "mode_why", r->mode_why);
	hm_json__str(j, "output", o->output);
	hm_json__u64(j, "cpus", r->nr_cpus);
	hm_json__u64(j, "samples", r->nr_samples);
	hm_json__u64(j, "records", r->nr_records);
	hm_json__u64(j, "bytes", r->bytes);
	hm_json__u64(j, "lost", r->lost);
	hm_json__u64(j, "lost_samples", r->lost_samples);
	if (r->mode == HM_MODE_SPE) {
		hm_json__u64(j, "aux_records", r->aux_records);
		hm_json__u64(j, "aux_bytes", r->aux_bytes);
		hm_json__u64(j, "aux_lost", r->aux_lost);
	}
	hm_json__bool(j, "interrupted", r->interrupted);
	hm_json__bool(j, "written", !r->not_written);
	hm_json__double(j, "recorder_cpu_secs", r->rec_cpu_secs);
	if (r->mode == HM_MODE_CONTENTION) {
		hm_json__obj_begin(j, "contention");
		hm_json__u64(j, "begin", r->nr_begin);
		hm_json__u64(j, "end", r->nr_end);
		hm_json__u64(j, "sys_enter_futex", r->nr_futex_sys);
		hm_json__u64(j, "pairs", r->nr_pairs);
		hm_json__obj_end(j);
	}
	if (o->futex_bpf) {
		hm_json__obj_begin(j, "bpf");
		hm_json__u64(j, "seen", r->bpf_seen);
		hm_json__u64(j, "in_futex", r->bpf_in_futex);
		hm_json__u64(j, "pairs", r->bpf_pairs);
		hm_json__u64(j, "events", r->bpf_events);
		hm_json__u64(j, "checked", r->bpf_checked);
		hm_json__u64(j, "agree", r->bpf_agree);
		hm_json__u64(j, "other_locks", r->bpf_not_bucket);
		hm_json__obj_end(j);
	}
	if (o->workload) {
		hm_json__obj_begin(j, "workload");
		hm_json__u64(j, "threads", r->wl_threads);
		hm_json__double(j, "avg_ops_per_sec", r->wl_avg);
		hm_json__double(j, "rel_stddev_pct", r->wl_rel_stddev);
		hm_json__u64(j, "total_ops", r->wl_total_ops);
		hm_json__double(j, "cpu_secs", r->wl_cpu_secs);
		hm_json__obj_end(j);
	}
	if (r->table_kind >= 0) {
		hm_json__obj_begin(j, "table");
		hm_json__str(j, "kind", r->table_kind ? "private" : "global");
		hm_json__s64(j, "pid", r->table_pid);
		hm_json__hex(j, "base", r->table_base);
		hm_json__u64(j, "slots", r->table_slots);
		hm_json__u64(j, "contended_locks", r->nr_locks);
		hm_json__u64(j, "buckets", r->nr_buckets);
		hm_json__u64(j, "attributed", r->nr_buckets_attributed);
		hm_json__u64(j, "events", r->bucket_events);
		hm_json__obj_end(j);
	}
	hm_json__arr_begin(j, "buckets");
	for (i = 0; i < r->nr_rows; i++) {
		const struct hm_record_bucket *b = &r->buckets[i];

		hm_json__obj_begin(j, NULL);
		hm_json__u64(j, "index", b->index);
		hm_json__hex(j, "addr", b->addr);
		hm_json__u64(j, "events", b->events);
		hm_json__u64(j, "wait_ns", b->wait_ns);
		hm_json__bool(j, "index_checked", b->predicted);
		hm_json__arr_begin(j, "socket_events");
		for (k = 0; k < r->nr_sockets && k < HM_REC_MAX_SOCK; k++)
			hm_json__u64(j, NULL, b->sock[k]);
		hm_json__arr_end(j);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);
	hm_json__obj_end(j);
	hm_json__delete(j);
}

/*
 * An existing output is recorded beside it and replaced when the recording
 * is finished (output.h); the library locks the file it writes, so the
 * one recorder per output rule is kept here by a lock on the existing file
 * (a new file is written in place and locked by the library).  The
 * descriptor holding the lock, -1 where there is no regular file to lock,
 * -2 after a message when another recorder holds it.
 */
static int lock_existing(const char *path)
{
	struct stat st;
	int fd, e;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;	/* the library says what is wrong with it */
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	e = errno;
	close(fd);
	if (e != EWOULDBLOCK)
		return -1;
	hm_cli__error("%s: another recording is writing this file; fix: give another -o, or "
		      "wait for it to finish", path);
	return -2;
}

static long parse_num(const char *opt, const char *arg, long min, int *bad)
{
	int64_t v = min;

	if (hm_num__parse_s64(arg, 0, min, LONG_MAX, &v)) {
		hm_cli__error("%s '%s': not a number >= %ld; fix the value", opt, arg, min);
		*bad = 1;
	}
	return (long)v;
}

static int cmd_record(int argc, char **argv)
{
	enum { OPT_MODE = 256, OPT_FUTEX_SYS, OPT_WORKLOAD, OPT_PLAN, OPT_SYSFS, OPT_FUTEX_BPF, OPT_BPF_OBJ,
	       OPT_JSON };
	static const struct option longopts[] = {
		{ "output",         required_argument, NULL, 'o' },
		{ "mode",           required_argument, NULL, OPT_MODE },
		{ "ldlat",          required_argument, NULL, 'l' },
		{ "count",          required_argument, NULL, 'c' },
		{ "all-cpus",       no_argument,       NULL, 'a' },
		{ "cpu",            required_argument, NULL, 'C' },
		{ "all-user",       no_argument,       NULL, 'u' },
		{ "all-kernel",     no_argument,       NULL, 'k' },
		{ "futex-syscalls", no_argument,       NULL, OPT_FUTEX_SYS },
		{ "futex-bpf",      no_argument,       NULL, OPT_FUTEX_BPF },
		{ "bpf-obj",        required_argument, NULL, OPT_BPF_OBJ },
		{ "mmap-pages",     required_argument, NULL, 'm' },
		{ "workload",       required_argument, NULL, OPT_WORKLOAD },
		{ "plan",           no_argument,       NULL, OPT_PLAN },
		{ "sysfs-root",     required_argument, NULL, OPT_SYSFS },
		{ "quiet",          no_argument,       NULL, 'q' },
		{ "json",           no_argument,       NULL, OPT_JSON },
		{ "help",           no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct hm_record_opts o;
	struct hm_record_result r;
	struct sigaction sa;
	bool plan_only = false, quiet = false, wl_silent = false;
	int c, bad = 0, err, rec_argc = argc, i, lock_fd;

	/*
	 * From the first moment on, SIGINT/SIGTERM end the run cleanly;
	 * SIGTERM's handler first, so that one caught SIGINT (what a caller
	 * can see in /proc/PID/status) means both are.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	memset(&o, 0, sizeof(o));
	o.output = "perf.data";
	o.ldlat = -1;
	o.argc_cmdline = argc;
	o.argv_cmdline = argv;
	hm_futex_hash_opts__init(&o.wl);
	o.wl.runtime = 10;

	/* workload options follow --workload NAME: split them off */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--workload") || !strncmp(argv[i], "--workload=", 11)) {
			const char *name = argv[i][10] == '=' ? argv[i] + 11 : (i + 1 < argc ? argv[i + 1] : "");

			if (strcmp(name, "futex-hash"))
				return hm_cli__usage_error("--workload '%s': unknown; fix: --workload futex-hash", name);
			o.workload = true;
			rec_argc = i;
			i += argv[i][10] == '=' ? 1 : 2;
			/* "hitmap record --help" in its errors: record's own options go before --workload */
			err = hm_cli__parse_futex_hash("record --workload futex-hash", argc - i + 1,
						       argv + i - 1, &o.wl, &wl_silent, NULL);
			if (err == 1) {
				hm_cli__usage(record_usage);
				return 0;
			}
			if (err < 0)
				return 2;
			break;
		}
	}

	optind = 1;
	while ((c = getopt_long(rec_argc, argv, "+:o:l:c:aC:ukm:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.output = optarg;
			break;
		case OPT_MODE:
			if (hm_rec_mode__parse(optarg, &o.mode))
				return hm_cli__usage_error("--mode '%s': unknown; fix: auto, pebs, ibs, spe or contention", optarg);
			break;
		case 'l':
			o.ldlat = (int)parse_num("-l", optarg, 0, &bad);
			break;
		case 'c':
			o.period = (u64)parse_num("-c", optarg, 1, &bad);
			break;
		case 'a':
			o.all_cpus = true;
			break;
		case 'C':
			/* the syntax here (a usage error); whether they are online, the library */
			if (hm_cpulist__parse(optarg, NULL, 0) <= 0)
				return hm_cli__usage_error("-C '%s': not a CPU list; fix: e.g. -C 0-3 "
							   "or -C 0,2", optarg);
			o.cpus = optarg;
			break;
		case 'u':
			o.user_only = true;
			break;
		case 'k':
			o.kernel_only = true;
			break;
		case OPT_FUTEX_SYS:
			o.futex_syscalls = true;
			break;
		case OPT_FUTEX_BPF:
			o.futex_bpf = true;
			break;
		case OPT_BPF_OBJ:
			o.bpf_obj = optarg;
			o.futex_bpf = true;
			break;
		case 'm':
			o.mmap_pages = (int)parse_num("-m", optarg, 1, &bad);
			if (!bad && (o.mmap_pages & (o.mmap_pages - 1)))
				return hm_cli__usage_error("-m %d: not a power of two; fix: -m 256, 512, 1024 ...", o.mmap_pages);
			break;
		case OPT_PLAN:
			plan_only = true;
			break;
		case OPT_SYSFS:
			o.sysfs_root = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case OPT_JSON:
			record_json = true;
			quiet = true;
			break;
		case 'h':
			hm_cli__usage(record_usage);
			return 0;
		default:
			return hm_cli__bad_option("record", longopts, argv, c);
		}
		if (bad)
			return 2;
	}
	if (optind < rec_argc) {
		if (o.workload)
			return hm_cli__usage_error("record: a command and --workload exclude each other; fix: give one");
		o.argv = argv + optind;
	}
	if (o.user_only && o.kernel_only)
		return hm_cli__usage_error("-u and -k exclude each other; fix: give one");

	if (plan_only) {
		struct hm_pmu_plan plan;
		struct hm_pmu_plan_opts po = {
			.sysfs_root = o.sysfs_root, .mode = o.mode, .ldlat = o.ldlat,
			.period = o.period, .system_wide = o.all_cpus || o.cpus,
			.user_only = o.user_only, .kernel_only = o.kernel_only,
		};

		err = hm_pmu__plan(&po, &plan);
		if (err)
			return hm_cli__lib_error(err, "record --plan");
		print_plan(&plan, o.futex_syscalls);
		return 0;
	}
	if (o.sysfs_root)
		return hm_cli__usage_error("--sysfs-root only plans (--plan); fix: add --plan");
	/* the library says the same; said here, it is a usage error */
	if (!o.workload && !o.argv && !o.all_cpus && !o.cpus)
		return hm_cli__usage_error("record: nothing to record; fix: give a command after --, "
					   "--workload futex-hash, or -a");
	if (hm_out__check(o.output, "-o", false))
		return 1;
	lock_fd = lock_existing(o.output);
	if (lock_fd == -2)
		return 1;
	/*
	 * A new file is written in place (a recorder killed outright leaves
	 * what it recorded); an existing one through a temporary file that
	 * replaces it once the recording is finished, SIGINT/SIGTERM included.
	 */
	o.output = hm_out__begin(o.output, "-o", 0644, HM_OUT_NEW_IN_PLACE);

	o.stop = &record_stop;
	o.workload_done = workload_done;
	o.ctx = &wl_silent;

	err = hm_record__run(&o, &r);
	if (err) {
		err = hm_out__lib_error(err, "record");
		hm_out__drop(o.output);
		goto unlock;
	}
	if (r.exec_errno) {
		/* nothing was recorded: an existing file stays */
		hm_out__drop(o.output);
		/* one line, as perf record: no summary (nor JSON) of a recording of nothing */
		hm_cli__error("%s: cannot run: %s; fix: check the command and PATH",
			      o.argv[0], strerror(r.exec_errno));
		hm_record_result__release(&r);
		err = r.exec_errno == ENOENT ? 127 : 126;	/* as a shell */
		goto unlock;
	}
	if (r.not_written)
		hm_out__drop(o.output);		/* an existing file is left as it was */
	else if (hm_out__commit(o.output)) {
		hm_record_result__release(&r);
		err = 1;
		goto unlock;
	}
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
	if (record_json)
		print_json(&o, &r);
	if (r.not_written) {
		/* stopped while setting up: the command never ran, as a signal during recording: exit 0 */
		if (!quiet)
			fprintf(stderr, "[ hitmap record: interrupted while setting up: nothing recorded, %s not written ]\n",
				o.output);
		hm_record_result__release(&r);
		return 0;
	}
	if (!quiet) {
		fprintf(stderr, "[ hitmap record: mode %s: %s ]\n", hm_rec_mode__name(r.mode), r.mode_why);
		fprintf(stderr, "[ hitmap record: wrote %s: %.3f MB, %llu samples on %d CPU%s, %llu lost events, %llu lost samples%s ]\n",
			o.output, r.bytes / 1e6, (unsigned long long)r.nr_samples, r.nr_cpus,
			r.nr_cpus == 1 ? "" : "s",
			(unsigned long long)r.lost, (unsigned long long)r.lost_samples,
			r.interrupted ? "; interrupted, the file is complete" : "");
		if (r.mode == HM_MODE_SPE)
			fprintf(stderr, "[ hitmap record: Arm SPE: %llu AUX trace records, %.3f MB of AUX data, "
				"%llu times lost (truncated or partial) ]\n",
				(unsigned long long)r.aux_records, r.aux_bytes / 1e6,
				(unsigned long long)r.aux_lost);
		if (r.mode == HM_MODE_CONTENTION) {
			fprintf(stderr, "[ hitmap record: contention_begin %llu, contention_end %llu%s",
				(unsigned long long)r.nr_begin, (unsigned long long)r.nr_end,
				o.futex_syscalls ? "" : " ]\n");
			if (o.futex_syscalls)
				fprintf(stderr, ", sys_enter_futex %llu, %llu futex->bucket pairs ]\n",
					(unsigned long long)r.nr_futex_sys, (unsigned long long)r.nr_pairs);
		}
		if (r.futex_tables_sum[0])
			fprintf(stderr, "[ hitmap record: %s ]\n", r.futex_tables_sum);
		if (o.futex_bpf)
			fprintf(stderr, "[ hitmap record: BPF pairing: %llu contention_begin seen, %llu in a futex call, %llu futex->bucket pairs (%llu events)%s ]\n",
				(unsigned long long)r.bpf_seen, (unsigned long long)r.bpf_in_futex,
				(unsigned long long)r.bpf_pairs, (unsigned long long)r.bpf_events, "");
		if (o.futex_bpf && r.bpf_checked)
			fprintf(stderr, "[ hitmap record: BPF pairs of the workload: %llu on buckets of its table, checked against the kernel's hash: %llu agree; %llu on other locks ]\n",
				(unsigned long long)r.bpf_checked, (unsigned long long)r.bpf_agree,
				(unsigned long long)r.bpf_not_bucket);
		if (o.workload && r.wl_cpu_secs > 0)
			fprintf(stderr, "[ hitmap record: workload %llu ops in %.3f CPU s, recorder %.3f CPU s while it ran: %.0f ops per CPU second ]\n",
				(unsigned long long)r.wl_total_ops, r.wl_cpu_secs, r.rec_cpu_secs,
				r.wl_total_ops / (r.wl_cpu_secs + r.rec_cpu_secs));
		if (o.workload && r.mode == HM_MODE_CONTENTION) {
			if (r.table_kind >= 0)
				fprintf(stderr, "[ hitmap record: %llu locks contended by the workload; %llu are buckets of the %s futex hash (%s%d, base 0x%llx, %llu slots), %llu attributed to table and index ]\n",
					(unsigned long long)r.nr_locks, (unsigned long long)r.nr_buckets,
					r.table_kind ? "private" : "global",
					r.table_kind ? "pid " : "node ", r.table_kind ? r.table_pid : 0,
					(unsigned long long)r.table_base, (unsigned long long)r.table_slots,
					(unsigned long long)r.nr_buckets_attributed);
			else if (r.nr_locks)
				fprintf(stderr, "[ hitmap record: %llu locks contended by the workload; none is a bucket of a known futex table ]\n",
					(unsigned long long)r.nr_locks);
			else
				fprintf(stderr, "[ hitmap record: no lock contended by the workload ]\n");
		}
	}
	if (!quiet && r.nr_rows) {
		int j, k, ns = r.nr_sockets < HM_REC_MAX_SOCK ? r.nr_sockets : HM_REC_MAX_SOCK;

		fprintf(stderr, "\ncontended futex buckets (%s hash%s): %llu contention events\n",
			r.table_kind ? "private" : "global", r.table_kind ? ", workload process" : ", node 0",
			(unsigned long long)r.bucket_events);
		fprintf(stderr, "%6s  %-18s %9s %7s %11s", "INDEX", "BUCKET", "EVENTS", "SHARE", "WAIT_US");
		for (k = 0; k < ns; k++)
			fprintf(stderr, "  S%d_EVENTS", k);
		fprintf(stderr, "\n");
		for (j = 0; j < r.nr_rows && j < 32; j++) {
			const struct hm_record_bucket *b = &r.buckets[j];

			fprintf(stderr, "%6llu  0x%-16llx %9llu %6.1f%% %11.1f", (unsigned long long)b->index,
				(unsigned long long)b->addr, (unsigned long long)b->events,
				r.bucket_events ? 100.0 * b->events / r.bucket_events : 0.0, b->wait_ns / 1e3);
			for (k = 0; k < ns; k++)
				fprintf(stderr, "  %10llu", (unsigned long long)b->sock[k]);
			fprintf(stderr, "%s\n", b->predicted ? "" : "  (index not in the workload's hash)");
		}
		if (r.nr_rows > 32)
			fprintf(stderr, "... %d more buckets\n", r.nr_rows - 32);
	}
	hm_record_result__release(&r);
	/*
	 * As perf record: the command's (or the workload's) failure is the
	 * exit status; one stopped by our own SIGINT/SIGTERM is not a failure.
	 */
	if (WIFEXITED(r.child_status) && WEXITSTATUS(r.child_status) &&
	    !(r.interrupted && WEXITSTATUS(r.child_status) == 126))
		return WEXITSTATUS(r.child_status);
	if (WIFSIGNALED(r.child_status) && !r.interrupted)
		return 128 + WTERMSIG(r.child_status);
	return 0;
unlock:
	if (lock_fd >= 0)
		close(lock_fd);
	return err;
}

HM_COMMAND("record", "record memory samples or futex bucket contention into perf.data", cmd_record)
