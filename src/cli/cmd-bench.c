// SPDX-License-Identifier: GPL-2.0-only
/* hitmap bench futex-hash: perf bench futex hash, faithfully, plus placement and --json. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "cli.h"
#include "workload/futex_hash.h"
#include <limits.h>
#include "util/num.h"

static const char bench_usage[] =
"usage: hitmap bench futex-hash [options]\n"
"\n"
"Run the futex hash benchmark of 'perf bench futex hash': every thread calls\n"
"FUTEX_WAIT on its own futexes with a value that never matches, so each call\n"
"takes and releases a futex hash bucket lock and returns EAGAIN.\n"
"\n"
"  -t, --threads N       worker threads (default: number of CPUs)\n"
"  -f, --futexes N       futexes per thread (default 1024)\n"
"  -r, --runtime SECS    run time in seconds (default 10)\n"
"  -s, --silent          no per-thread lines\n"
"  -S, --shared          shared futexes (no FUTEX_PRIVATE_FLAG)\n"
"  -m, --mlockall        mlockall(MCL_CURRENT|MCL_FUTURE) first\n"
"  -b, --buckets N       private hash slots via prctl(PR_FUTEX_HASH); 0: global hash;\n"
"                        negative (default -1): leave the kernel's choice\n"
"      --cpus LIST       CPUs to pin threads to, in order (default: online CPUs)\n"
"      --placement P     perf (default: thread i on CPU i mod N), spread (round-robin\n"
"                        over sockets) or compact (fill a socket first)\n"
"      --json            results as one JSON object\n"
"  -h, --help            this text\n"
"\n"
"The 'Averaged N operations/sec (+- X%), total secs = N' line matches perf's.\n"
"See hitmap-bench(1).\n";

static volatile sig_atomic_t bench_stop;

static void on_signal(int sig)
{
	bench_stop = 1;
}

static int parse_long(const char *opt, const char *arg, long min, long max, long *out)
{
	int64_t v;

	if (hm_num__parse_s64(arg, 0, min, max, &v)) {
		hm_cli__error("%s '%s': expected an integer %ld..%ld; fix the value",
			      opt, arg, min, max);
		return -1;
	}
	*out = (long)v;
	return 0;
}

int hm_cli__parse_futex_hash(const char *cmd, int argc, char **argv,
			     struct hm_futex_hash_opts *o, bool *silent, bool *json)
{
	enum { OPT_CPUS = 256, OPT_PLACEMENT, OPT_JSON };
	static const struct option longopts[] = {
		{ "threads",   required_argument, NULL, 't' },
		{ "futexes",   required_argument, NULL, 'f' },
		{ "runtime",   required_argument, NULL, 'r' },
		{ "silent",    no_argument,       NULL, 's' },
		{ "shared",    no_argument,       NULL, 'S' },
		{ "mlockall",  no_argument,       NULL, 'm' },
		{ "buckets",   required_argument, NULL, 'b' },
		{ "cpus",      required_argument, NULL, OPT_CPUS },
		{ "placement", required_argument, NULL, OPT_PLACEMENT },
		{ "json",      no_argument,       NULL, OPT_JSON },
		{ "help",      no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+:t:f:r:sSmb:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_long("-t", optarg, 0, HM_FUTEX_HASH_MAX_THREADS, &v))
				return -1;
			o->threads = (int)v;
			break;
		case 'f':
			if (parse_long("-f", optarg, 1, HM_FUTEX_HASH_MAX_FUTEXES, &v))
				return -1;
			o->futexes = (int)v;
			break;
		case 'r':
			if (parse_long("-r", optarg, 0, INT_MAX, &v))
				return -1;
			o->runtime = (int)v;
			break;
		case 's':
			*silent = true;
			break;
		case 'S':
			o->shared = true;
			break;
		case 'm':
			o->mlockall = true;
			break;
		case 'b':
			/* perf: any negative count leaves the hash alone (its default, -1) */
			if (parse_long("-b", optarg, INT_MIN, INT_MAX, &v))
				return -1;
			o->buckets = v < 0 ? -1 : v;
			break;
		case OPT_CPUS:
			o->cpus = optarg;
			break;
		case OPT_PLACEMENT:
			if (!strcmp(optarg, "perf"))
				o->placement = HM_PLACE_PERF;
			else if (!strcmp(optarg, "spread"))
				o->placement = HM_PLACE_SPREAD;
			else if (!strcmp(optarg, "compact"))
				o->placement = HM_PLACE_COMPACT;
			else {
				hm_cli__error("--placement '%s': unknown; fix: perf, spread or compact", optarg);
				return -1;
			}
			break;
		case OPT_JSON:
			if (!json) {
				hm_cli__error("--json: not a workload option here");
				return -1;
			}
			*json = true;
			break;
		case 'h':
			return 1;
		default:
			hm_cli__bad_option(cmd, longopts, argv, c);
			return -1;
		}
	}
	if (optind < argc) {
		hm_cli__usage_error("%s: unexpected argument '%s'", cmd, argv[optind]);
		return -1;
	}
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	struct hm_futex_hash_opts o;
	struct hm_futex_hash *fh;
	struct sigaction sa;
	bool silent = false, json = false;
	int ret, err;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		hm_cli__usage(bench_usage);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "futex-hash") && strcmp(argv[1], "futex/hash") &&
	    strcmp(argv[1], "hash"))
		return hm_cli__usage_error("bench: '%s' is not a benchmark; fix: hitmap bench futex-hash", argv[1]);
	hm_futex_hash_opts__init(&o);
	ret = hm_cli__parse_futex_hash("bench futex-hash", argc - 1, argv + 1, &o, &silent, &json);
	if (ret == 1) {
		hm_cli__usage(bench_usage);
		return 0;
	}
	if (ret < 0)
		return 2;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	o.stop = &bench_stop;

	fh = hm_futex_hash__new(&o);
	/* EINVAL: an option the workload refused (--cpus not a list, or offline) */
	if (!fh && errno == EINVAL)
		return hm_cli__lib_usage_error(-errno, "bench futex-hash");
	if (!fh)
		return hm_cli__lib_error(-errno, "bench futex-hash");
	if (!json) {
		hm_futex_hash__print_header(fh, stdout);
		fflush(stdout);
	}
	err = hm_futex_hash__run(fh);
	if (err) {
		hm_futex_hash__delete(fh);
		return hm_cli__lib_error(err, "bench futex-hash");
	}
	if (json)
		hm_futex_hash__print_json(fh, stdout);
	else
		hm_futex_hash__print_result(fh, stdout, silent);
	hm_futex_hash__delete(fh);
	return 0;
}

HM_COMMAND("bench", "run the futex hash benchmark (perf bench futex hash)", cmd_bench)
