// SPDX-License-Identifier: GPL-2.0-only
/* hitmap simulate: run the futex hash workload on a modelled machine, write perf.data. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include "cli.h"
#include "output.h"
#include "sim/sim.h"

static const char usage_text[] =
"usage: hitmap simulate [--preset NAME] [--sockets N] [--cores N] [--smt N]\n"
"                       [--kernel 6.12|6.16|6.17|6.18|7.0] [--threads N] [--futexes N]\n"
"                       [--shared] [--slots N] [--placement compact|spread]\n"
"                       [--ops N | --seconds S] [--seed S] [--ldlat N] [--period N]\n"
"                       [--latency NAME=CYCLES]... [-o FILE] [--truth FILE.json]\n"
"                       [--kallsyms FILE] [--trace N] [--json]\n"
"       hitmap simulate [common options] --compare \"OPTIONS A\" \"OPTIONS B\"\n"
"       hitmap simulate --list-presets\n"
"\n"
"Runs perf bench futex hash on a modelled multi-socket machine, through the\n"
"kernel's memory accesses of each futex operation for the kernel era chosen,\n"
"with a cache-coherence model (MESIF Intel, MOESI AMD, MESI Arm), and writes a\n"
"perf.data that perf c2c and hitmap report read, plus the ground truth.\n"
"\n"
"  --preset NAME       srf (default), skx, zen4, altra\n"
"  --sockets/--cores/--smt N   reshape the machine (cores per socket)\n"
"  --kernel K          6.12 (one global table), 6.16 (private hash, rcuref\n"
"                      users), 6.17 and 6.18 (per-CPU references), 7.0 (no priv)\n"
"  --threads N         worker threads (default: one per CPU)\n"
"  --futexes N         futexes per thread (1024)\n"
"  --shared            shared futexes (global hash, folio refcount)\n"
"  --slots N           private hash slots (default: the kernel's auto size)\n"
"  --placement P       compact: thread i on CPU i (perf bench); spread: sockets alternate\n"
"  --ops N             total futex operations (default: two passes over the futexes)\n"
"  --seconds S         simulated seconds instead\n"
"  --seed S            seed (same seed, same file, byte for byte)\n"
"  --ldlat N           load latency threshold in cycles (30)\n"
"  --period N          sample every N events per CPU (1000)\n"
"  --latency N=C       override a latency (l1 l2 llc hitm_local hitm_xdie hitm_remote\n"
"                      hit_xdie hit_remote dram_local dram_remote syscall store spin;\n"
"                      occupancy=P: percent of a transfer the line stays busy)\n"
"  -o FILE             perf.data to write\n"
"  --truth FILE        ground truth JSON\n"
"  --kallsyms FILE     the model's kernel symbols, for perf script --kallsyms FILE\n"
"  --trace N           print the first N memory accesses: CPU, function, field,\n"
"                      line state before -> after, source and cycles\n"
"  --json              print the run's results as JSON\n"
"  --compare A B       run twice, with options A and then B on top of the others,\n"
"                      and explain what changed and why\n"
"\n"
"See hitmap-simulate(1) for the model, its assumptions and their sources.\n";

enum {
	OPT_PRESET = 256, OPT_SOCKETS, OPT_CORES, OPT_SMT, OPT_KERNEL, OPT_THREADS, OPT_FUTEXES,
	OPT_SHARED, OPT_SLOTS, OPT_PLACEMENT, OPT_OPS, OPT_SECONDS, OPT_SEED, OPT_LDLAT,
	OPT_PERIOD, OPT_LATENCY, OPT_TRUTH, OPT_KALLSYMS, OPT_TRACE, OPT_JSON, OPT_COMPARE, OPT_LIST, OPT_HELP,
};

static const struct option long_opts[] = {
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "sockets", required_argument, NULL, OPT_SOCKETS },
	{ "cores", required_argument, NULL, OPT_CORES },
	{ "smt", required_argument, NULL, OPT_SMT },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "futexes", required_argument, NULL, OPT_FUTEXES },
	{ "shared", no_argument, NULL, OPT_SHARED },
	{ "slots", required_argument, NULL, OPT_SLOTS },
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
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct hm_sim_opts o;
	const char	*lat[64];
	bool		json, compare, list;
	const char	*kallsyms;
	char		cmdline[1024];
};

static int parse_u64(const char *opt, const char *v, u64 max, u64 *out)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(v, &end, 0);
	if (errno || end == v || *end || *v == '-' || x > max)
		return hm_cli__error("--%s %s: expected an integer 0..%llu", opt, v,
				     (unsigned long long)max);
	*out = x;
	return 0;
}

/* Parse @argv into @c (on top of what it holds).  Returns 0, or 1 after printing an error. */
static int parse(struct cli *c, int argc, char **argv, bool top)
{
	int ch;
	u64 v;
	char *end;

	optind = 0;	/* GNU: reinitialize, the compared option strings are parsed again */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":o:", long_opts, NULL)) != -1) {
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
			c->o.kernel = optarg;
			break;
		case OPT_THREADS:
			if (parse_u64("threads", optarg, 4096, &v))
				return 1;
			c->o.threads = (u32)v;
			break;
		case OPT_FUTEXES:
			if (parse_u64("futexes", optarg, 1u << 20, &v))
				return 1;
			c->o.futexes = (u32)v;
			break;
		case OPT_SHARED:
			c->o.shared = true;
			break;
		case OPT_SLOTS:
			if (parse_u64("slots", optarg, 1ULL << 30, &v))
				return 1;
			c->o.slots = v;
			break;
		case OPT_PLACEMENT:
			if (!strcmp(optarg, "compact"))
				c->o.placement = HM_PLACE_COMPACT;
			else if (!strcmp(optarg, "spread"))
				c->o.placement = HM_PLACE_SPREAD;
			else
				return hm_cli__error("--placement %s: use compact or spread", optarg);
			break;
		case OPT_OPS:
			if (parse_u64("ops", optarg, 1ULL << 40, &v))
				return 1;
			c->o.ops = v;
			c->o.seconds = 0;
			break;
		case OPT_SECONDS:
			errno = 0;
			c->o.seconds = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(c->o.seconds > 0) || c->o.seconds > 3600)
				return hm_cli__error("--seconds %s: expected simulated seconds, 0 < S <= 3600", optarg);
			c->o.ops = 0;
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
			if (parse_u64("period", optarg, 1u << 30, &v) || !v)
				return v ? 1 : hm_cli__error("--period 0: the sampling period must be at least 1");
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
		case OPT_JSON:
			c->json = true;
			break;
		case OPT_LIST:
			c->list = true;
			break;
		case OPT_HELP:
			hm_cli__usage(usage_text);
			exit(0);
		case ':':
			return hm_cli__error("option %s needs a value; see 'hitmap simulate --help'",
					     argv[optind - 1]);
		default:
			return hm_cli__error("unknown option '%s'; see 'hitmap simulate --help'",
					     argv[optind - 1]);
		}
	}
	return 0;
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

static const char *pct(char *b, size_t n, u64 part, u64 whole)
{
	if (!whole)
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.1f%%", 100.0 * (double)part / (double)whole);
	return b;
}

static void trace_line(void *ctx, const char *line)
{
	(void)ctx;
	printf("%s\n", line);
}

static u64 loads_total(const struct hm_sim *s)
{
	u64 t = 0;
	int k;

	for (k = 0; k < HM_SRC__MAX; k++)
		t += s->res.src[k];
	return t;
}

static void print_text(const struct hm_sim *s)
{
	const struct hm_machine *m = &s->m;
	u64 lt = loads_total(s);
	char b[32];
	int k;

	printf("machine   %s: %u socket(s) x %u cores x %u SMT = %u CPUs, %u LLC domain(s)/socket, %s\n",
	       m->name, m->sockets, m->cores, m->smt, m->nr_cpus, m->llcs,
	       m->proto == HM_PROTO_MESIF ? "MESIF" : m->proto == HM_PROTO_MOESI ? "MOESI" : "MESI");
	printf("kernel    %s (%s): %s hash, %llu slots%s\n", s->release, hm_futex_era__name(s->era),
	       s->lay.fph ? "private" : "global",
	       (unsigned long long)(s->lay.fph ? s->lay.fph_slots : s->lay.table_slots),
	       s->lay.fph ? "" : s->lay.nr_tables > 1 ? " per node" : "");
	printf("workload  %u threads x %u %s futexes, %s placement\n", s->nr_threads, s->o.futexes,
	       s->o.shared ? "shared" : "private",
	       s->o.placement == HM_PLACE_SPREAD ? "spread" : "compact");
	printf("ran       %llu ops, %llu memory accesses, %.3f ms simulated, %.0f ops/s per thread\n",
	       (unsigned long long)s->res.ops, (unsigned long long)s->res.accesses,
	       (double)s->res.cycles_max / m->ghz / 1e6, s->res.ops_per_sec_thread);
	printf("speed     %.2f s CPU, %.1f M simulated accesses/s on one core\n", s->res.wall_s,
	       s->res.wall_s > 0 ? (double)s->res.accesses / s->res.wall_s / 1e6 : 0.0);
	if (s->sp || s->o.output)
		printf("samples   %llu written to %s\n", (unsigned long long)s->res.samples,
		       s->o.output ? s->o.output : "-");
	printf("loads by source (all simulated loads and RMW load parts):\n");
	for (k = 0; k < HM_SRC__MAX; k++)
		if (s->res.src[k])
			printf("  %-12s %12llu  %7s\n", hm_src__name(k),
			       (unsigned long long)s->res.src[k], pct(b, sizeof(b), s->res.src[k], lt));
	printf("  %-12s %12llu\n  %-12s %12llu\n", "rmw", (unsigned long long)s->res.rmws,
	       "stores", (unsigned long long)s->res.stores);
}

static void print_json(const struct hm_sim *s)
{
	struct hm_json *j = hm_json__new(stdout, true);
	int k;

	if (!j)
		return;
	hm_json__obj_begin(j, NULL);
	hm_json__str(j, "preset", s->m.name);
	hm_json__u64(j, "cpus", s->m.nr_cpus);
	hm_json__str(j, "release", s->release);
	hm_json__str(j, "era", hm_futex_era__name(s->era));
	hm_json__str(j, "hash", s->lay.fph ? "private" : "global");
	hm_json__u64(j, "threads", s->nr_threads);
	hm_json__u64(j, "ops", s->res.ops);
	hm_json__u64(j, "accesses", s->res.accesses);
	hm_json__u64(j, "samples", s->res.samples);
	hm_json__double(j, "simulated_ms", (double)s->res.cycles_max / s->m.ghz / 1e6);
	hm_json__double(j, "ops_per_sec_thread", s->res.ops_per_sec_thread);
	hm_json__double(j, "cpu_s", s->res.wall_s);
	hm_json__double(j, "accesses_per_sec", s->res.wall_s > 0 ? s->res.accesses / s->res.wall_s : 0);
	hm_json__obj_begin(j, "loads_by_source");
	for (k = 0; k < HM_SRC__MAX; k++)
		hm_json__u64(j, hm_src__name(k), s->res.src[k]);
	hm_json__obj_end(j);
	hm_json__u64(j, "rmw", s->res.rmws);
	hm_json__u64(j, "stores", s->res.stores);
	hm_json__obj_end(j);
	hm_json__delete(j);
}

/* ------------------------------------------------------------ compare */

static u64 hitm_of(const struct hm_sim *s, int obj, int field, bool remote_only)
{
	u64 n = hm_truth__pop(s->truth, obj, field, HM_SRC_HITM_REMOTE);

	if (!remote_only)
		n += hm_truth__pop(s->truth, obj, field, HM_SRC_HITM_LOCAL) +
		     hm_truth__pop(s->truth, obj, field, HM_SRC_HITM_XDIE);
	return n;
}

static double per_kop(u64 n, u64 ops)
{
	return ops ? 1000.0 * (double)n / (double)ops : 0;
}

static void row(const char *what, double a, double b, const char *unit)
{
	char d[32];

	if (a == 0 && b == 0)
		return;
	if (a == 0)
		snprintf(d, sizeof(d), "new");
	else
		snprintf(d, sizeof(d), "%+.0f%%", 100.0 * (b - a) / a);
	printf("  %-34s %14.1f %14.1f  %8s  %s\n", what, a, b, d, unit);
}

static bool big_drop(double a, double b)
{
	return a > 1 && b < a * 0.2;
}

static bool big_rise(double a, double b)
{
	return b > 1 && b > a * 5 + 1;
}

static int field_hottest(const struct hm_sim *s)
{
	int f, best = -1;
	u64 bn = 0;

	for (f = 0; f < HM_FUTEX_FIELD__MAX; f++) {
		u64 n = hitm_of(s, -1, f, false);

		if (n > bn) {
			bn = n;
			best = f;
		}
	}
	return best;
}

static void explain(const struct hm_sim *a, const struct hm_sim *b)
{
	double fa = per_kop(hitm_of(a, HM_OBJ_FPH, -1, false), a->res.ops);
	double fb = per_kop(hitm_of(b, HM_OBJ_FPH, -1, false), b->res.ops);
	double pa = per_kop(hitm_of(a, -1, HM_FUTEX_FIELD_PRIV, false), a->res.ops);
	double pb = per_kop(hitm_of(b, -1, HM_FUTEX_FIELD_PRIV, false), b->res.ops);
	double ra = per_kop(a->res.src[HM_SRC_HITM_REMOTE], a->res.ops);
	double rb = per_kop(b->res.src[HM_SRC_HITM_REMOTE], b->res.ops);
	double da = per_kop(a->res.src[HM_SRC_DRAM_REMOTE], a->res.ops);
	double db = per_kop(b->res.src[HM_SRC_DRAM_REMOTE], b->res.ops);
	int ha = field_hottest(a), hb = field_hottest(b);
	int n = 0;

	printf("\nwhy:\n");
	if (big_drop(fa, fb) || big_rise(fa, fb)) {
		const struct hm_sim *hot = fa > fb ? a : b, *cold = fa > fb ? b : a;

		printf("- %s: the private hash header (struct futex_private_hash) %s.\n",
		       fa > fb ? "B" : "A", "no longer bounces between CPUs");
		if (hot->era == HM_FUTEX_ERA_6_16 && cold->era != HM_FUTEX_ERA_6_16)
			printf("  On 6.16 every futex operation takes and drops a reference with rcuref_get()/\n"
			       "  rcuref_put(): two atomic read-modify-writes of fph->users, one cache line that\n"
			       "  every thread of the process writes, so each operation finds it modified in\n"
			       "  another CPU's cache (HITM; remote HITM when that CPU is on the other socket).\n"
			       "  6.17 (56180dd20c19) counts references per CPU (futex_ref_get: this_cpu_inc),\n"
			       "  so the fph line is only read and stays shared in every cache.\n");
		else if (!cold->lay.fph)
			printf("  Without a private hash there is no fph line at all: the futexes hash into the\n"
			       "  global table(s).\n");
		n++;
	}
	if (big_drop(pa, pb) || big_rise(pa, pb)) {
		const struct hm_sim *gone = pa > pb ? b : a;

		printf("- HITM on the bucket's priv field %s in %s (%.1f -> %.1f per 1000 ops).\n",
		       pa > pb ? "disappears" : "appears", "B", pa, pb);
		printf("  6.16-6.18 read hb->priv first in every operation (futex_hash), right after\n"
		       "  another CPU wrote the same line (waiters, lock), so that load takes the HITM.\n");
		if (gone->era == HM_FUTEX_ERA_7)
			printf("  %s has no priv in struct futex_hash_bucket (a734d9fca84e removed it), so\n"
			       "  the first touch of the line is the waiters increment, which takes the HITM.\n",
			       gone->release);
		else if (gone->era == HM_FUTEX_ERA_PRE_6_16)
			printf("  %s has no priv: it came with the private hash in 6.16; the first touch of\n"
			       "  the line is the waiters increment.\n", gone->release);
		n++;
	}
	if (ha != hb && ha >= 0 && hb >= 0) {
		printf("- The hottest HITM field of the bucket moves from %s to %s.\n",
		       hm_futex_field__name(ha), hm_futex_field__name(hb));
		n++;
	}
	if ((ra < 0.01 && rb > 0.01) || (rb < 0.01 && ra > 0.01) || (da < 0.01 && db > 0.01) ||
	    (db < 0.01 && da > 0.01)) {
		const struct hm_sim *two = ra + da > rb + db ? a : b;

		const struct hm_sim *one = two == a ? b : a;

		printf("- %s shows remote HITM (%.1f vs %.1f per 1000 ops) and remote DRAM (%.1f vs %.1f).\n",
		       two == a ? "A" : "B", ra, rb, da, db);
		if (a->m.sockets != b->m.sockets)
			printf("  With %u sockets a line last written by a CPU of the other socket has to cross\n"
			       "  the socket link (remote HITM), and memory homed on the other node is remote\n"
			       "  DRAM; on one socket every transfer stays inside one LLC.\n", two->m.sockets);
		else if (a->o.placement != b->o.placement)
			printf("  %s placement keeps all %u threads on one socket (compact is what perf bench\n"
			       "  does: thread i on CPU i), so no line has to cross the socket link; %s\n"
			       "  placement puts threads on both sockets, so lines written on one socket are\n"
			       "  read on the other (remote HITM), and the other socket reads memory homed on\n"
			       "  node 0 (remote DRAM).\n",
			       one->o.placement == HM_PLACE_COMPACT ? "Compact" : "Spread", one->nr_threads,
			       two->o.placement == HM_PLACE_SPREAD ? "spread" : "compact");
		else
			printf("  Threads on both sockets now share lines: a line written on one socket and\n"
			       "  read on the other is a remote HITM.\n");
		n++;
	} else if (big_rise(ra, rb) || big_drop(ra, rb)) {
		printf("- Remote HITM %s (%.1f -> %.1f per 1000 ops).\n", rb > ra ? "rises" : "falls", ra, rb);
		if (a->o.placement != b->o.placement)
			printf("  Compact placement fills one socket before the other (perf bench pins thread i\n"
			       "  to CPU i), spread alternates sockets: shared lines written by threads of both\n"
			       "  sockets cross the socket link more often.\n");
		else if (a->lay.fph_slots != b->lay.fph_slots || !a->lay.fph != !b->lay.fph)
			printf("  The number of buckets changed: fewer buckets for the same futexes means more\n"
			       "  threads per bucket line, so more lines are written on one socket and read on\n"
			       "  the other.\n");
		n++;
	}
	if (a->lay.fph_slots != b->lay.fph_slots || !a->lay.fph != !b->lay.fph) {
		printf("- Buckets: A uses %s (%llu slots), B uses %s (%llu slots) for %u x %u futexes.\n",
		       a->lay.fph ? "a private hash" : "the global hash",
		       (unsigned long long)(a->lay.fph ? a->lay.fph_slots : a->lay.table_slots * a->lay.nr_tables),
		       b->lay.fph ? "a private hash" : "the global hash",
		       (unsigned long long)(b->lay.fph ? b->lay.fph_slots : b->lay.table_slots * b->lay.nr_tables),
		       b->nr_threads, b->o.futexes);
		n++;
	}
	{
		double oa = a->res.ops_per_sec_thread, ob = b->res.ops_per_sec_thread;

		if (oa > 0 && fabs(ob - oa) / oa > 0.05) {
			printf("- Throughput per thread %s by %.0f%%: %s.\n", ob > oa ? "rises" : "falls",
			       100.0 * fabs(ob - oa) / oa,
			       "each HITM or remote access stalls the operation for hundreds of cycles "
			       "(see the latency table in hitmap-simulate(1))");
			n++;
		}
	}
	if (!n)
		printf("- Nothing in the coherence traffic changed by more than the thresholds.\n");
}

static int run_compare(struct cli *base, const char *sa, const char *sb)
{
	const char *spec[2] = { sa, sb };
	struct hm_sim *sim[2] = { NULL, NULL };
	struct cli c[2];
	char *copies[2] = { NULL, NULL };
	int i, k, ret = 1;

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
		if (parse(&c[i], ac, av, false))
			goto out;
		c[i].o.output = NULL;
		c[i].o.truth = NULL;
		sim[i] = hm_sim__new(&c[i].o);
		if (!sim[i]) {
			ret = hm_cli__lib_error(-errno, spec[i]);
			goto out;
		}
		k = hm_sim__run(sim[i]);
		if (k) {
			ret = hm_cli__lib_error(k, spec[i]);
			goto out;
		}
	}
	printf("A: %s\n   %s, %s, %s hash, %u threads\n", sa, sim[0]->m.name, sim[0]->release,
	       sim[0]->lay.fph ? "private" : "global", sim[0]->nr_threads);
	printf("B: %s\n   %s, %s, %s hash, %u threads\n\n", sb, sim[1]->m.name, sim[1]->release,
	       sim[1]->lay.fph ? "private" : "global", sim[1]->nr_threads);
	printf("  %-34s %14s %14s  %8s\n", "", "A", "B", "change");
	row("ops/s per thread", sim[0]->res.ops_per_sec_thread, sim[1]->res.ops_per_sec_thread, "");
	for (k = 0; k < HM_SRC__MAX; k++) {
		char what[64];

		snprintf(what, sizeof(what), "loads from %s", hm_src__name(k));
		row(what, per_kop(sim[0]->res.src[k], sim[0]->res.ops),
		    per_kop(sim[1]->res.src[k], sim[1]->res.ops), "per 1000 ops");
	}
	for (k = 0; k < HM_OBJ__MAX; k++) {
		char what[64];

		snprintf(what, sizeof(what), "HITM on %s", hm_obj__name(k));
		row(what, per_kop(hitm_of(sim[0], k, -1, false), sim[0]->res.ops),
		    per_kop(hitm_of(sim[1], k, -1, false), sim[1]->res.ops), "per 1000 ops");
	}
	for (k = 0; k < HM_FUTEX_FIELD__MAX; k++) {
		char what[64];

		snprintf(what, sizeof(what), "HITM on bucket.%s", hm_futex_field__name(k));
		row(what, per_kop(hitm_of(sim[0], -1, k, false), sim[0]->res.ops),
		    per_kop(hitm_of(sim[1], -1, k, false), sim[1]->res.ops), "per 1000 ops");
	}
	explain(sim[0], sim[1]);
	ret = 0;
out:
	hm_sim__delete(sim[0]);
	hm_sim__delete(sim[1]);
	free(copies[0]);
	free(copies[1]);
	return ret;
}

static int cmd_simulate(int argc, char **argv)
{
	struct cli c;
	struct hm_sim *s;
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
				return hm_cli__error("--compare takes two quoted option strings, e.g. --compare \"--kernel 6.16\" \"--kernel 6.17\"");
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
		return 1;
	}
	if (c.compare) {
		if (optind < ac) {
			err = hm_cli__error("unexpected argument '%s'; see 'hitmap simulate --help'", av[optind]);
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
		return hm_cli__error("unexpected argument '%s'; see 'hitmap simulate --help'", argv[optind]);
	if ((c.o.output && hm_out__check(c.o.output, "-o", false)) ||
	    (c.o.truth && hm_out__check(c.o.truth, "--truth", false)) ||
	    (c.kallsyms && hm_out__check(c.kallsyms, "--kallsyms", false)))
		return 1;
	make_cmdline(&c, argc, argv);
	c.o.trace_fn = trace_line;
	if (c.o.trace)
		printf("%13s  %-34s %-24s %-5s %-18s %-23s %-9s    %-9s %-11s %s\n", "time", "who",
		       "function", "acc", "what", "line", "before", "after", "source", "latency");
	s = hm_sim__new(&c.o);
	if (!s)
		return hm_cli__lib_error(-errno, "simulate");
	err = hm_sim__run(s);
	if (err) {
		hm_sim__delete(s);
		return hm_cli__lib_error(err, c.o.output ? c.o.output : "simulate");
	}
	if (c.kallsyms) {
		FILE *f = hm_out__open(c.kallsyms, "--kallsyms");

		if (f)
			fwrite(s->ksyms, 1, s->ksyms_len, f);
		if (!f || hm_out__close(f)) {
			hm_sim__delete(s);
			return 1;
		}
	}
	if (c.json)
		print_json(s);
	else
		print_text(s);
	hm_sim__delete(s);
	return 0;
}

HM_COMMAND("simulate", "model a multi-socket machine running the futex hash; write perf.data + truth",
	   cmd_simulate)
