// SPDX-License-Identifier: GPL-2.0-only
/* hitmap simulate: run the futex hash workload on a modelled machine, write perf.data. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include "cli.h"
#include "output.h"
#include "sim/sim.h"
#include "util/num.h"

static const char usage_text[] =
"usage: hitmap simulate [--preset NAME] [--sockets N] [--cores N] [--smt N]\n"
"                       [--kernel 6.12|6.16-rc4|6.16|6.17|6.18|7.2|7.3] [--threads N]\n"
"                       [--futexes N] [--shared [--thp]] [-b|--slots N] [--global-slots N]\n"
"                       [--pad-field F] [--drop-field F] [--read-migrates]\n"
"                       [--placement perf|compact|spread]\n"
"                       [--ops N | --seconds S] [--seed S] [--ldlat N] [--period N]\n"
"                       [--latency NAME=CYCLES]... [-o FILE] [--truth FILE.json]\n"
"                       [--kallsyms FILE] [--trace N] [--json]\n"
"       hitmap simulate [common options] [--runs N] --compare \"OPTIONS A\" \"OPTIONS B\"\n"
"       hitmap simulate --list-presets\n"
"       hitmap simulate [--kernel K] [--shared] [what-if options] --accesses\n"
"\n"
"Runs perf bench futex hash on a modelled multi-socket machine, through the\n"
"kernel's memory accesses of each futex operation for the kernel era chosen,\n"
"with a cache-coherence model (MESIF Intel, MOESI AMD, MESI Arm), and writes a\n"
"perf.data that perf c2c and hitmap report read, plus the ground truth.\n"
"\n"
"  --preset NAME       srf (default), skx, zen4, altra, host (this machine)\n"
"  --sockets/--cores/--smt N   reshape the machine (cores per socket)\n"
"  --kernel K          6.12 (one global table), 6.16-rc4 (private hash, rcuref\n"
"                      users; the default), 6.16 (final: private hash compiled out),\n"
"                      6.17 and 6.18 (per-CPU references), 7.2 (a734d9fca84e: no\n"
"                      priv), 7.3 (current 7.x: runtime constants)\n"
"  --threads N         worker threads (default: one per CPU)\n"
"  --futexes N         futexes per thread (1024)\n"
"  --shared            shared futexes (perf bench -S: global hash, GUP-fast folio\n"
"                      reference on the futex word's page)\n"
"  --thp               the futex arrays sit in a transparent huge page (one folio)\n"
"  -b, --slots N       private hash slots, as perf bench futex hash -b/--buckets\n"
"                      (0: the global hash; default: the kernel's auto size)\n"
"  --global-slots N    what-if: global table size per node (default: the kernel's)\n"
"  --read-migrates     what-if: a load of a line modified in another cache takes it\n"
"                      modified (the owner invalidates), so a load then an RMW of\n"
"                      the line is one transfer, not a transfer and an upgrade\n"
"  --pad-field F       what-if: bucket field F (waiters lock chain priv) on its own\n"
"                      cache line\n"
"  --drop-field F      what-if: bucket field F (priv, chain) and its accesses removed\n"
"  --placement P       perf (default): thread i on CPU i, as perf bench; compact: fill\n"
"                      a socket before the next; spread: sockets alternate\n"
"  --ops N             total futex operations (default: two passes over the futexes)\n"
"  --seconds S         simulated seconds instead\n"
"  --seed S            seed (same seed, same file, byte for byte)\n"
"  --ldlat N           load latency threshold in cycles (30)\n"
"  --period N          sample every N events per CPU (1000)\n"
"  --latency N=C       override a latency (l1 l2 llc hitm_local hitm_xdie hitm_remote\n"
"                      hit_xdie hit_remote dram_local dram_remote syscall store spin;\n"
"                      occupancy=P: percent of a transfer the line stays busy)\n"
"  -o, --output FILE   perf.data to write\n"
"  --truth FILE        ground truth JSON\n"
"  --kallsyms FILE     the model's kernel symbols, for perf script --kallsyms FILE\n"
"  --trace N           print the first N memory accesses: CPU, function, field,\n"
"                      line state before -> after, source and cycles\n"
"  --json              print the run's results as JSON\n"
"  --spe-samples       Arm presets: write PERF_RECORD_SAMPLEs, not SPE AUX data\n"
"  --accesses          list the memory accesses of one FUTEX_WAIT and one FUTEX_WAKE\n"
"                      of this kernel, layout and futex kind, and exit\n"
"  --runs N            with --compare: N runs per side (seeds S..S+N-1), LKP's mean\n"
"                      and %stddev\n"
"  --compare A B       run twice, with options A and then B on top of the others,\n"
"                      and explain what changed and why\n"
"\n"
"See hitmap-simulate(1) for the model, its assumptions and their sources.\n";

enum {
	OPT_PRESET = 256, OPT_SOCKETS, OPT_CORES, OPT_SMT, OPT_KERNEL, OPT_THREADS, OPT_FUTEXES,
	OPT_SHARED, OPT_SLOTS, OPT_PLACEMENT, OPT_OPS, OPT_SECONDS, OPT_SEED, OPT_LDLAT,
	OPT_PERIOD, OPT_LATENCY, OPT_TRUTH, OPT_KALLSYMS, OPT_TRACE, OPT_JSON, OPT_COMPARE, OPT_LIST, OPT_HELP,
	OPT_THP, OPT_READ_MIGRATES, OPT_GLOBAL_SLOTS, OPT_PAD, OPT_DROP, OPT_ACCESSES, OPT_RUNS,
	OPT_SPE_SAMPLES,
};

static const struct option long_opts[] = {
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "spe-samples", no_argument, NULL, OPT_SPE_SAMPLES },
	{ "sockets", required_argument, NULL, OPT_SOCKETS },
	{ "cores", required_argument, NULL, OPT_CORES },
	{ "smt", required_argument, NULL, OPT_SMT },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "futexes", required_argument, NULL, OPT_FUTEXES },
	{ "shared", no_argument, NULL, OPT_SHARED },
	{ "slots", required_argument, NULL, OPT_SLOTS },
	{ "buckets", required_argument, NULL, OPT_SLOTS },
	{ "thp", no_argument, NULL, OPT_THP },
	{ "read-migrates", no_argument, NULL, OPT_READ_MIGRATES },
	{ "global-slots", required_argument, NULL, OPT_GLOBAL_SLOTS },
	{ "pad-field", required_argument, NULL, OPT_PAD },
	{ "drop-field", required_argument, NULL, OPT_DROP },
	{ "placement", required_argument, NULL, OPT_PLACEMENT },
	{ "ops", required_argument, NULL, OPT_OPS },
	{ "seconds", required_argument, NULL, OPT_SECONDS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "ldlat", required_argument, NULL, OPT_LDLAT },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "latency", required_argument, NULL, OPT_LATENCY },
	{ "output", required_argument, NULL, 'o' },
	{ "truth", required_argument, NULL, OPT_TRUTH },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "list-presets", no_argument, NULL, OPT_LIST },
	{ "accesses", no_argument, NULL, OPT_ACCESSES },
	{ "runs", required_argument, NULL, OPT_RUNS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct hm_sim_opts o;
	const char	*lat[64];
	bool		json, compare, list, accesses;
	u32		runs;
	const char	*kallsyms;
	char		cmdline[1024];
};

/* --@opt @v: an integer @min..@max, else one line with the range */
static int parse_range(const char *opt, const char *v, u64 min, u64 max, u64 *out)
{
	if (hm_num__parse_u64(v, 0, max, out) || *out < min)
		return hm_cli__error("--%s %s: expected an integer %llu..%llu", opt, v,
				     (unsigned long long)min, (unsigned long long)max);
	return 0;
}

static int parse_u64(const char *opt, const char *v, u64 max, u64 *out)
{
	return parse_range(opt, v, 0, max, out);
}

/*
 * Options that cannot go together, after one parse (@top: the command line,
 * else one option string of --compare, parsed on top of the command line's
 * options, which it may override: --seconds there replaces an --ops here).
 */
static int check_combinations(const struct cli *c, bool top, bool ops_and_seconds, bool runs_set)
{
	if (ops_and_seconds)
		return hm_out__conflict("--ops", "--seconds");
	if (top && c->runs && !c->compare)
		return hm_cli__usage_error("--runs repeats the runs of --compare; without --compare "
					   "there is one run: drop --runs or add --compare \"A\" \"B\"");
	if (!top && runs_set)
		return hm_cli__usage_error("--runs goes before --compare, not in its option strings: "
					   "both sides run as often");
	/* the configuration that runs: the command line's, or a side of --compare */
	if ((!top || !c->compare) && c->o.thp && !c->o.shared)
		return hm_cli__usage_error("--thp without --shared: only shared futexes take a reference "
					   "on the futex word's folio (GUP-fast); add --shared");
	return 0;
}

/* Parse @argv into @c (on top of what it holds).  Returns 0, or 1 after printing an error. */
static int parse(struct cli *c, int argc, char **argv, bool top)
{
	bool ops_set = false, seconds_set = false, runs_set = false;
	int ch;
	u64 v;

	optind = 0;	/* GNU: reinitialize, the compared option strings are parsed again */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":o:b:", long_opts, NULL)) != -1) {
		switch (ch) {
		case OPT_PRESET:
			c->o.preset = optarg;
			break;
		case OPT_SOCKETS:
			if (parse_u64("sockets", optarg, 16, &v))
				return 1;
			c->o.sockets = (u32)v;
			break;
		case OPT_CORES:
			if (parse_u64("cores", optarg, 1024, &v))
				return 1;
			c->o.cores = (u32)v;
			break;
		case OPT_SMT:
			if (parse_u64("smt", optarg, 8, &v))
				return 1;
			c->o.smt = (u32)v;
			break;
		case OPT_KERNEL:
			if (!hm_sim_kernel__find(optarg)) {
				char names[256];

				hm_sim_kernel__names(names, sizeof(names));
				return hm_cli__error("--kernel %s: not a modelled kernel; use one of %s", optarg, names);
			}
			c->o.kernel = optarg;
			break;
		case OPT_THREADS:
			if (parse_u64("threads", optarg, 4096, &v))
				return 1;
			c->o.threads = (u32)v;
			break;
		case OPT_FUTEXES:
			if (parse_range("futexes", optarg, 1, 1u << 20, &v))
				return 1;
			c->o.futexes = (u32)v;
			break;
		case OPT_SHARED:
			c->o.shared = true;
			break;
		case OPT_SLOTS:
		case 'b':
			if (parse_u64("slots", optarg, 1ULL << 30, &v))
				return 1;
			c->o.slots = v;
			c->o.slots_set = true;
			break;
		case OPT_READ_MIGRATES:
			c->o.read_migrates = true;
			break;
		case OPT_THP:
			c->o.thp = true;
			break;
		case OPT_GLOBAL_SLOTS:
			if (parse_u64("global-slots", optarg, 1ULL << 24, &v))
				return 1;
			c->o.global_slots = v;
			break;
		case OPT_PAD:
		case OPT_DROP: {
			int f;

			for (f = 0; f < HM_FUTEX_FIELD_PAD; f++)
				if (!strcmp(optarg, hm_futex_field__name(f)))
					break;
			if (f == HM_FUTEX_FIELD_PAD)
				return hm_cli__error("--%s %s: not a bucket field; use waiters, lock, chain or priv",
						     ch == OPT_PAD ? "pad-field" : "drop-field", optarg);
			if (ch == OPT_PAD)
				c->o.pad_field = f;
			else
				c->o.drop_field = f;
			break;
		}
		case OPT_PLACEMENT:
			if (!strcmp(optarg, "perf"))
				c->o.placement = HM_PLACE_PERF;
			else if (!strcmp(optarg, "compact"))
				c->o.placement = HM_PLACE_COMPACT;
			else if (!strcmp(optarg, "spread"))
				c->o.placement = HM_PLACE_SPREAD;
			else
				return hm_cli__error("--placement %s: use perf, compact or spread", optarg);
			break;
		case OPT_OPS:
			if (parse_u64("ops", optarg, 1ULL << 40, &v))
				return 1;
			c->o.ops = v;
			c->o.seconds = 0;
			ops_set = true;
			break;
		case OPT_SECONDS:
			if (hm_num__parse_double(optarg, 0, 3600, &c->o.seconds) || !(c->o.seconds > 0))
				return hm_cli__error("--seconds %s: expected simulated seconds, 0 < S <= 3600", optarg);
			c->o.ops = 0;
			seconds_set = true;
			break;
		case OPT_SEED:
			if (parse_u64("seed", optarg, UINT64_MAX, &v))
				return 1;
			c->o.seed = v;
			break;
		case OPT_LDLAT:
			if (parse_u64("ldlat", optarg, 65535, &v))
				return 1;
			c->o.ldlat = (u32)v;
			break;
		case OPT_PERIOD:
			if (parse_range("period", optarg, 1, 1u << 30, &v))
				return 1;
			c->o.period = (u32)v;
			break;
		case OPT_LATENCY:
			if (c->o.nr_latency >= 64)
				return hm_cli__error("--latency: at most 64 overrides");
			c->lat[c->o.nr_latency++] = optarg;
			c->o.latency = c->lat;
			break;
		case 'o':
			c->o.output = optarg;
			break;
		case OPT_TRUTH:
			c->o.truth = optarg;
			break;
		case OPT_KALLSYMS:
			c->kallsyms = optarg;
			break;
		case OPT_TRACE:
			if (parse_u64("trace", optarg, 1ULL << 32, &v))
				return 1;
			c->o.trace = v;
			break;
		case OPT_SPE_SAMPLES:
			c->o.spe_samples = true;
			break;
		case OPT_JSON:
			c->json = true;
			break;
		case OPT_LIST:
			c->list = true;
			break;
		case OPT_ACCESSES:
			c->accesses = true;
			break;
		case OPT_RUNS:
			if (parse_u64("runs", optarg, 100, &v))
				return 1;
			if (!v)
				return hm_cli__error("--runs 0: at least one run per side");
			c->runs = (u32)v;
			runs_set = true;
			break;
		case OPT_HELP:
			hm_cli__usage(usage_text);
			exit(0);
		default:
			return hm_cli__bad_option("simulate", long_opts, argv, ch);
		}
	}
	return check_combinations(c, top, ops_set && seconds_set, runs_set);
}

/* The command line for the header, without the output paths (they must not change the file). */
static void make_cmdline(struct cli *c, int argc, char **argv)
{
	size_t len = 0;
	int i;

	len += snprintf(c->cmdline + len, sizeof(c->cmdline) - len, "hitmap simulate");
	for (i = 1; i < argc && len < sizeof(c->cmdline) - 1; i++) {
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output") ||
		    !strcmp(argv[i], "--truth") || !strcmp(argv[i], "--kallsyms")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--output=", 9) || !strncmp(argv[i], "--truth=", 8) ||
		    !strncmp(argv[i], "--kallsyms=", 11) ||
		    (!strncmp(argv[i], "-o", 2) && argv[i][2]))
			continue;
		len += snprintf(c->cmdline + len, sizeof(c->cmdline) - len, " %s", argv[i]);
	}
	c->o.cmdline = c->cmdline;
}

static void trace_line(void *ctx, const char *line)
{
	(void)ctx;
	printf("%s\n", line);
}

/*
 * hm_sim__new() failed: EINVAL is a machine, kernel or what-if option the
 * model does not take, a usage error (2) as a bad option is; others are 1.
 */
static int new_error(const char *what)
{
	int err = errno;

	return err == EINVAL ? hm_cli__lib_usage_error(-err, what) : hm_cli__lib_error(-err, what);
}

/* --accesses: the kernel path of one wait and one wake, as the run would make them. */
static int print_accesses(struct cli *c)
{
	struct hm_sim *s;

	c->o.output = NULL;
	c->o.truth = NULL;
	s = hm_sim__new(&c->o);
	if (!s)
		return new_error("simulate");
	hm_sim__print_accesses(s, stdout);
	hm_sim__delete(s);
	return 0;
}

/* ------------------------------------------------------------ compare */

static int run_compare(struct cli *base, const char *sa, const char *sb)
{
	const char *spec[2] = { sa, sb };
	struct hm_sim *sim[2] = { NULL, NULL };
	struct cli c[2];
	char *copies[2] = { NULL, NULL };
	char tmp[256];
	const char *td = getenv("TMPDIR");
	struct hm_sim_rates *rates[2] = { NULL, NULL };
	u32 runs = base->runs ? base->runs : 1, r;
	int i, k, fd, ret = 1;

	snprintf(tmp, sizeof(tmp), "%s/hitmap-compare.XXXXXX", td && *td ? td : "/tmp");
	fd = mkstemp(tmp);
	if (fd < 0)
		return hm_cli__error("%s: cannot create a scratch file for the samples: %s; set TMPDIR",
				     tmp, strerror(errno));
	close(fd);

	for (i = 0; i < 2; i++) {
		char *copy = copies[i] = strdup(spec[i]), *tok, *save = NULL;
		char *av[128];
		int ac = 0;

		if (!copy)
			goto out;
		av[ac++] = (char *)"simulate";
		for (tok = strtok_r(copy, " \t", &save); tok && ac < 127; tok = strtok_r(NULL, " \t", &save))
			av[ac++] = tok;
		av[ac] = NULL;
		c[i] = *base;
		c[i].o.latency = c[i].lat;
		c[i].o.output = NULL;
		c[i].o.truth = NULL;
		c[i].o.want_truth = true;
		c[i].o.count_steps = true;
		if (parse(&c[i], ac, av, false)) {
			ret = 2;
			goto out;
		}
		/* the samples (perf c2c's counts) go to a scratch file */
		c[i].o.output = tmp;
		c[i].o.truth = NULL;
		sim[i] = hm_sim__new(&c[i].o);
		if (!sim[i]) {
			ret = new_error(spec[i]);
			goto out;
		}
		k = hm_sim__run(sim[i]);
		unlink(tmp);
		if (k) {
			ret = hm_cli__lib_error(k, spec[i]);
			goto out;
		}
		rates[i] = calloc(runs, sizeof(*rates[i]));
		if (!rates[i]) {
			ret = hm_cli__error("out of memory");
			goto out;
		}
		hm_sim__rates(sim[i], &rates[i][0]);
		/* --runs N: the same configuration with the next seeds, for LKP's %stddev */
		for (r = 1; r < runs; r++) {
			struct hm_sim_opts o = c[i].o;
			struct hm_sim *x;

			o.seed += r;
			x = hm_sim__new(&o);
			if (!x) {
				ret = hm_cli__lib_error(-errno, spec[i]);
				goto out;
			}
			k = hm_sim__run(x);
			unlink(tmp);
			if (!k)
				hm_sim__rates(x, &rates[i][r]);
			hm_sim__delete(x);
			if (k) {
				ret = hm_cli__lib_error(k, spec[i]);
				goto out;
			}
		}
	}
	hm_sim__compare(stdout, sim[0], sim[1], sa, sb, rates[0], runs, rates[1], runs);
	ret = 0;
out:
	hm_sim__delete(sim[0]);
	hm_sim__delete(sim[1]);
	free(copies[0]);
	free(copies[1]);
	free(rates[0]);
	free(rates[1]);
	unlink(tmp);
	return ret;
}

static int cmd_simulate(int argc, char **argv)
{
	struct cli c;
	struct hm_sim *s;
	const char *out;
	int err;

	const char *cmp[2] = { NULL, NULL };
	char **av;
	int i, ac = 0;

	memset(&c, 0, sizeof(c));
	hm_sim_opts__init(&c.o);
	/* --compare A B: take the two option strings out before getopt sees them */
	av = calloc(argc + 1, sizeof(char *));
	if (!av)
		return hm_cli__error("out of memory");
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--compare")) {
			if (i + 2 >= argc) {
				free(av);
				return hm_cli__usage_error("--compare takes two quoted option strings, e.g. --compare \"--kernel 6.16\" \"--kernel 6.17\"");
			}
			cmp[0] = argv[i + 1];
			cmp[1] = argv[i + 2];
			c.compare = true;
			i += 2;
			continue;
		}
		av[ac++] = argv[i];
	}
	if (parse(&c, ac, av, true)) {
		free(av);
		return 2;	/* usage error */
	}
	if (c.compare) {
		if (optind < ac) {
			err = hm_cli__usage_error("unexpected argument '%s'; see 'hitmap simulate --help'", av[optind]);
			free(av);
			return err;
		}
		free(av);
		return run_compare(&c, cmp[0], cmp[1]);
	}
	free(av);
	if (c.list) {
		for (i = 0; hm_machine_presets[i]; i++)
			printf("%-8s %s\n", hm_machine_presets[i], hm_machine__preset_desc(hm_machine_presets[i]));
		return 0;
	}
	if (optind < argc)
		return hm_cli__usage_error("unexpected argument '%s'; see 'hitmap simulate --help'", argv[optind]);
	if (c.accesses)
		return print_accesses(&c);
	if ((c.o.output && hm_out__check(c.o.output, "-o", false)) ||
	    (c.o.truth && hm_out__check(c.o.truth, "--truth", false)) ||
	    (c.kallsyms && hm_out__check(c.kallsyms, "--kallsyms", false)))
		return 1;
	make_cmdline(&c, argc, argv);
	c.o.trace_fn = trace_line;
	if (c.o.trace)
		printf("%13s  %-34s %-24s %-5s %-18s %-23s %-9s    %-9s %-11s %s\n", "time", "who",
		       "function", "acc", "what", "line", "before", "after", "source", "latency");
	/*
	 * The perf.data and the truth are written beside their files and put
	 * in place when the run finished (output.h): a failed run keeps them.
	 */
	out = c.o.output;
	if (c.o.output)
		c.o.output = hm_out__begin(c.o.output, "-o", 0644, 0);
	if (c.o.truth)
		c.o.truth = hm_out__begin(c.o.truth, "--truth", 0666, 0);
	s = hm_sim__new(&c.o);
	if (!s) {
		err = new_error("simulate");
		goto drop;
	}
	err = hm_sim__run(s);
	if (err) {
		err = hm_out__lib_error(err, out ? out : "simulate");
		goto drop;
	}
	if (c.kallsyms) {
		FILE *f = hm_out__open(c.kallsyms, "--kallsyms");

		if (f) {
			size_t len;
			const char *text = hm_sim__ksyms(s, &len);

			fwrite(text, 1, len, f);
		}
		if (!f || hm_out__close(f)) {
			err = 1;
			goto drop;
		}
	}
	if (hm_out__commit(c.o.output) || hm_out__commit(c.o.truth)) {
		err = 1;
		goto drop;
	}
	hm_sim__print_summary(s, c.json, stdout);
	hm_sim__delete(s);
	return 0;
drop:
	hm_out__drop(c.o.output);
	hm_out__drop(c.o.truth);
	hm_sim__delete(s);
	return err;
}

HM_COMMAND("simulate", "model a multi-socket machine running the futex hash; write perf.data + truth",
	   cmd_simulate)
