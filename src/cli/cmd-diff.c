// SPDX-License-Identifier: GPL-2.0-only
/* hitmap diff: compare runs in LKP's layout, matched by what each metric is. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/symbols.h>
#include "cli.h"
#include "output.h"
#include "progress.h"
#include "report/metrics.h"
#include "util/num.h"

static const char diff_usage[] =
"usage: hitmap diff [options] BASE.data... -- NEW.data...\n"
"       hitmap diff [options] BASE.data NEW.data\n"
"       hitmap diff --metrics FILE.data...\n"
"\n"
"Compare recordings: each side is one or more perf.data files (repeated runs).\n"
"For every metric (LKP's perf-c2c.* set, hitmap's categories, sockets, nodes,\n"
"futex buckets, bucket fields, shared lines, workload results) print the mean,\n"
"%stddev and %change in LKP's comparison layout, and whether the change is\n"
"beyond the runs' noise.  Metrics are matched by what they are (futex table,\n"
"node and bucket index; bucket field; data symbol+offset; the code that touched\n"
"a line), never by address.\n"
"\n"
"      --json             rows as JSON\n"
"      --csv              rows as CSV\n"
"      --html FILE        also write a self-contained HTML page to FILE\n"
"      --all              every row (default: perf-c2c.*, workload and significant rows)\n"
"      --alpha A          family-wise significance level (default 0.05)\n"
"      --min-change PCT   changes below PCT % are never significant (default 0)\n"
"      --lines N          line rows for the N hottest lines of each run (default 20)\n"
"      --base-label S, --new-label S   column labels (default: the first file of each side)\n"
"      --metrics          print each file's metric set as JSON (no comparison)\n"
"      --kallsyms FILE    kernel symbols (default: the file's, or this system's)\n"
"  -k, --vmlinux FILE     kernel symbols (and source lines) from a vmlinux ELF, before\n"
"                         kallsyms (applies to every file)\n"
"      --symfs DIR        look for user ELF files under DIR\n"
"      --futex-table SPEC global:NODE:ADDR:SLOTS or private:PID:ADDR:SLOTS (repeatable,\n"
"                         applies to every file)\n"
"      --kernel REL       kernel release for the futex model (default: each file's)\n"
"      --perf-compat V    perf-c2c.* metrics as perf V counts them: 6.1, 6.12 or 7.3\n"
"                         (default: 7.3)\n"
"  -h, --help             this text\n"
"\n"
"Tests: Welch's t-test when both sides have 2+ runs (sample counts: variance at\n"
"least the mean); one run against several: a t prediction interval; one run\n"
"each: a Poisson (conditional binomial) test for sample counts.  Alpha is split\n"
"over the metric groups, Holm-Bonferroni within each.  See hitmap-diff(1).\n";

static int parse_double(const char *opt, const char *arg, double min, double max, double *out)
{
	double v;

	if (hm_num__parse_double(arg, min, max, &v))
		return hm_cli__error("%s '%s': expected a number from %g to %g", opt, arg, min, max);
	*out = v;
	return 0;
}

static void free_sets(struct hm_metrics **m, int n)
{
	int i;

	for (i = 0; i < n; i++)
		hm_metrics__delete(m[i]);
	free(m);
}

/*
 * --kallsyms FILE and --vmlinux FILE, checked once for all files: as for
 * hitmap report, one that cannot be opened is an error (1), one that gives
 * no symbols a warning, after which it is not used (kernel symbols then come
 * from kallsyms, or stay unknown for a bad --kallsyms, as in report).
 */
static int check_symbol_files(struct hm_report_opts *ro)
{
	char wbuf[160];
	const char *why;

	if ((ro->kallsyms && hm_in__check(ro->kallsyms, "--kallsyms")) ||
	    (ro->vmlinux && hm_in__check(ro->vmlinux, "--vmlinux")))
		return 1;
	if (ro->kallsyms && *ro->kallsyms) {
		struct hm_ksyms *k = hm_ksyms__load(ro->kallsyms);

		if (!k || !hm_ksyms__nr(k)) {
			size_t n = strlen(ro->kallsyms);

			why = k ? "no symbols in it (an empty table)" : hm_log__last_error();
			/* the reader's reason starts with the path: name it once */
			if (!strncmp(why, ro->kallsyms, n) && !strncmp(why + n, ": ", 2))
				why += n + 2;
			hm_warn("--kallsyms %s: %s; kernel addresses stay [unknown]", ro->kallsyms,
				why && *why ? why : "not a kallsyms file");
			ro->kallsyms = "";	/* none: as report after the same warning */
		}
		hm_ksyms__delete(k);
	}
	if (ro->vmlinux && (why = hm_elf__unusable(ro->vmlinux, wbuf, sizeof(wbuf)))) {
		hm_warn("--vmlinux %s: %s; kernel symbols come from kallsyms", ro->vmlinux, why);
		ro->vmlinux = NULL;
	}
	return 0;
}

/*
 * Runs without futex tables beside runs with them: one line each, naming
 * the file, why (the report's reason) and what gives the tables.
 */
static void warn_bare(struct hm_metrics **sets, int n)
{
	int i, with = 0;

	for (i = 0; i < n; i++)
		with += sets[i]->has_layout;
	if (!with || with == n)
		return;
	for (i = 0; i < n; i++) {
		const char *w = sets[i]->futex_tables;

		if (sets[i]->has_layout)
			continue;
		if (w && !strncmp(w, "none: ", 6))
			w += 6;
		hm_warn("%s has no futex tables (%s); its bucket, field and rank rows are not compared "
			"(\"-\"); fix: record it with hitmap record, or pass --futex-table SPEC, or the "
			"recorded kernel's --kallsyms FILE so that they are inferred",
			sets[i]->label, w && *w ? w : "no hitmap metadata");
	}
}

static int cmd_diff(int argc, char **argv)
{
	enum { O_JSON = 256, O_CSV, O_HTML, O_ALL, O_ALPHA, O_MINCHG, O_LINES, O_BLABEL, O_NLABEL,
	       O_METRICS, O_KALLSYMS, O_SYMFS, O_FUTEX, O_KERNEL, O_COMPAT };
	static const struct option longopts[] = {
		{ "json",        no_argument,       NULL, O_JSON },
		{ "csv",         no_argument,       NULL, O_CSV },
		{ "html",        required_argument, NULL, O_HTML },
		{ "all",         no_argument,       NULL, O_ALL },
		{ "alpha",       required_argument, NULL, O_ALPHA },
		{ "min-change",  required_argument, NULL, O_MINCHG },
		{ "lines",       required_argument, NULL, O_LINES },
		{ "base-label",  required_argument, NULL, O_BLABEL },
		{ "new-label",   required_argument, NULL, O_NLABEL },
		{ "metrics",     no_argument,       NULL, O_METRICS },
		{ "kallsyms",    required_argument, NULL, O_KALLSYMS },
		{ "vmlinux",     required_argument, NULL, 'k' },
		{ "symfs",       required_argument, NULL, O_SYMFS },
		{ "futex-table", required_argument, NULL, O_FUTEX },
		{ "kernel",      required_argument, NULL, O_KERNEL },
		{ "perf-compat", required_argument, NULL, O_COMPAT },
		{ "help",        no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct hm_diff_opts o = { .alpha = 0.05, .top_lines = 20 };
	struct hm_report_opts ro;
	enum hm_format fmt = HM_FMT_TEXT;
	const char *html = NULL;
	const char **tables = NULL;
	struct hm_metrics **sets = NULL;
	struct hm_diff *d = NULL;
	int nr_tables = 0, sep = -1, i, c, nfiles = 0, nr_base, rc = 1;
	bool metrics_only = false;
	char **files;
	double v = 0;

	memset(&ro, 0, sizeof(ro));
	ro.cacheline_size = 64;
	/* BASE... -- NEW...: options end at "--"; find it before getopt does */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			sep = i;
			break;
		}
	tables = calloc(argc, sizeof(*tables));
	if (!tables)
		return hm_cli__error("out of memory");
	optind = 1;
	rc = 2;		/* a bad option value is a usage error */
	while ((c = getopt_long(sep >= 0 ? sep : argc, argv, ":hk:", longopts, NULL)) != -1) {
		switch (c) {
		case O_JSON:
		case O_CSV:
			if (fmt != HM_FMT_TEXT && fmt != (c == O_JSON ? HM_FMT_JSON : HM_FMT_CSV)) {
				rc = hm_out__conflict("--json", "--csv");
				goto out;
			}
			fmt = c == O_JSON ? HM_FMT_JSON : HM_FMT_CSV;
			break;
		case O_HTML:	html = optarg; break;
		case O_ALL:	o.all = true; break;
		case O_ALPHA:
			if (parse_double("--alpha", optarg, 1e-12, 0.5, &o.alpha))
				goto out;
			break;
		case O_MINCHG:
			if (parse_double("--min-change", optarg, 0, 1e9, &o.min_change))
				goto out;
			break;
		case O_LINES:
			if (parse_double("--lines", optarg, 0, 1e7, &v))
				goto out;
			o.top_lines = (u32)v;
			break;
		case O_BLABEL:	o.base_label = optarg; break;
		case O_NLABEL:	o.new_label = optarg; break;
		case O_METRICS:	metrics_only = true; break;
		case O_KALLSYMS: ro.kallsyms = optarg; break;
		case 'k':	ro.vmlinux = optarg; break;
		case O_SYMFS:	ro.symfs = optarg; break;
		case O_FUTEX:
			rc = hm_cli__check_futex_table(optarg);
			if (rc)
				goto out;
			tables[nr_tables++] = optarg;
			break;
		case O_KERNEL:	ro.kernel_release = optarg; break;
		case O_COMPAT:
			if (hm_perf_compat__parse(optarg, &ro.perf_compat) < 0) {
				hm_cli__error("--perf-compat %s: unknown perf version; use one of "
					      HM_PERF_COMPAT_LIST, optarg);
				rc = 2;
				goto out;
			}
			break;
		case 'h':
			hm_cli__usage(diff_usage);
			rc = 0;
			goto out;
		default:
			rc = hm_cli__bad_option("diff", longopts, argv, c);
			goto out;
		}
	}
	rc = 1;
	ro.nr_futex_tables = nr_tables;
	ro.futex_tables = tables;
	/* files: getopt moved the operands before "--" to argv[optind..sep) */
	nr_base = (sep >= 0 ? sep : argc) - optind;
	nfiles = nr_base + (sep >= 0 ? argc - sep - 1 : 0);
	files = calloc(nfiles + 1, sizeof(*files));
	if (!files) {
		hm_cli__error("out of memory");
		goto out;
	}
	for (i = 0; i < nr_base; i++)
		files[i] = argv[optind + i];
	for (i = nr_base; i < nfiles; i++)
		files[i] = argv[sep + 1 + i - nr_base];
	if (!metrics_only) {
		if (sep < 0 && nfiles == 2) {
			nr_base = 1;
		} else if (sep < 0 || !nr_base || nfiles == nr_base) {
			hm_cli__error("diff: give BASE.data... -- NEW.data... (or two files); "
				      "'hitmap diff --help' shows how");
			free(files);
			rc = 2;
			goto out;
		}
	} else if (!nfiles) {
		hm_cli__error("diff --metrics: give one or more perf.data files");
		free(files);
		rc = 2;
		goto out;
	}
	for (i = 0, c = 0; i < nfiles; i++)
		c += !strcmp(files[i], "-");
	if (c > 1) {
		/* the second read of a pipe finds it empty: it compared stdin with nothing */
		hm_cli__error("diff: '-' (standard input) given %d times; it can be read once; "
			      "fix: give the other runs as files", c);
		free(files);
		rc = 2;
		goto out;
	}
	for (i = 0; i < nfiles; i++)
		hm_out__input(files[i]);
	/* the symbol files are inputs first: --html may not overwrite them */
	if (check_symbol_files(&ro) ||
	    (html && hm_out__check(hm_out__is_stdout(html) ? "-" : html, "--html", false))) {
		free(files);
		goto out;
	}
	sets = calloc(nfiles, sizeof(*sets));
	if (!sets) {
		free(files);
		hm_cli__error("out of memory");
		goto out;
	}
	for (i = 0; i < nfiles; i++) {
		struct hm_report_progress prog = { NULL, NULL };
		char label[320];

		snprintf(label, sizeof(label), "hitmap: reading %s", files[i]);
		prog.label = label;
		ro.on_progress = hm_progress__report_cb;
		ro.on_progress_priv = &prog;
		ro.input = files[i];
		/* the futex buckets need the tables before the pass: a pipe goes to a file first */
		if (!strcmp(files[i], "-") && !ro.nr_futex_tables && hm_in__spool_stdin("diff")) {
			free(files);
			free_sets(sets, i);
			sets = NULL;
			goto out;
		}
		sets[i] = hm_metrics__scan(&ro, metrics_only ? 0 : o.top_lines);
		hm_progress__delete(prog.p);
		if (!sets[i]) {
			hm_cli__lib_error(errno ? -errno : -EINVAL, files[i]);
			free(files);
			free_sets(sets, i);
			sets = NULL;
			goto out;
		}
	}
	free(files);
	if (metrics_only) {
		/* one file: its object; several: one JSON array of them, one document */
		if (nfiles > 1)
			fputs("[\n", stdout);
		for (i = 0; i < nfiles; i++) {
			if (i)
				fputs(",\n", stdout);
			if (hm_metrics__write_json(sets[i], stdout))
				break;
		}
		if (nfiles > 1 && i == nfiles)
			fputs("]\n", stdout);
		rc = hm_out__close(stdout) || i < nfiles;
		goto out_sets;
	}
	warn_bare(sets, nfiles);
	d = hm_diff__new(sets, nr_base, sets + nr_base, nfiles - nr_base, &o);
	if (!d) {
		hm_cli__lib_error(-ENOMEM, "diff");
		goto out_sets;
	}
	c = hm_diff__render(d, fmt, stdout);
	if (hm_out__close(stdout))
		goto out_diff;
	if (c) {
		hm_cli__error("diff: writing the output failed");
		goto out_diff;
	}
	if (html) {
		FILE *f = hm_out__open(html, "--html");

		if (!f)
			goto out_diff;
		c = hm_html__render_diff(d, f);
		if (hm_out__close(f))
			goto out_diff;
		if (c) {
			hm_cli__error("--html %s: writing the HTML page failed", html);
			goto out_diff;
		}
	}
	rc = 0;
out_diff:
	hm_diff__delete(d);
out_sets:
	free_sets(sets, nfiles);
out:
	free(tables);
	return rc;
}

HM_COMMAND("diff", "compare runs: LKP's %change table, matched by bucket, field and symbol", cmd_diff)
