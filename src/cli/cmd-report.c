// SPDX-License-Identifier: GPL-2.0-only
/* hitmap report: perf c2c's numbers, hitmap's precise categories, one row per cache line. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "cli.h"
#include "output.h"
#include "report/report.h"
#include "report/render-c2c.h"
#include "report/pareto.h"
#include "report/metrics.h"
#include "report/html-contention.h"
#include "progress.h"
#include "report-tui.h"
#include "hints.h"
#include "util/num.h"

static const char report_usage[] =
"usage: hitmap report [-i FILE] [options]\n"
"\n"
"Read a perf.data file with memory samples (perf c2c record, perf mem record,\n"
"hitmap record) in one streaming pass and report cache-line contention: perf\n"
"c2c's counters exactly, hitmap's precise vendor-aware categories, and the\n"
"shared cache-line table with one row per virtual cache line.\n"
"\n"
"  -i, --input FILE       perf.data file or folder (default: perf.data)\n"
"      --stats            only the Trace Event and Global Shared Cache Line blocks\n"
"      --json             JSON: \"perf_c2c\" (perf's 32 counters), \"hitmap\" (categories),\n"
"                         \"lines\" (the table, unless --stats)\n"
"      --csv              the cache-line table as CSV\n"
"      --lkp              LKP's perf-c2c.* metric lines\n"
"      --html FILE        also write the self-contained HTML report to FILE\n"
"                         (\"-\": standard output, instead of the text report)\n"
"  -d, --display KEY      sort lines on tot (default), rmt, lcl, peer HITM/peer counts,\n"
"                         or cost (sum of sample weights)\n"
"  -N, --node-info        per-node breakdown of each line (like perf c2c -N;\n"
"                         -NN: the CPUs of each node)\n"
"      --show-all         no 0.1% display filter\n"
"      --stdio            text output even with --tui (perf's option)\n"
"      --pareto           perf c2c report --stdio's layout: its Shared Data Cache\n"
"                         Line Table and Shared Cache Line Distribution Pareto\n"
"  -c, --coalesce LIST    Pareto rows per offset and LIST of tid, pid, iaddr, dso\n"
"                         (default iaddr; implies --pareto)\n"
"      --full-symbols     Pareto symbols and sources not cut at 30 columns\n"
"                         (implies --pareto)\n"
"  -g, --call-graph MODE  accepted for perf's command lines; hitmap prints no\n"
"                         call chains (as perf does with 'none')\n"
"  -v, --verbose          what the pass did: ranges, second reads, ELF files not found\n"
"      --stitch-lbr       accepted for perf's command lines (no call chains to stitch)\n"
"  -f, --force            accepted for perf's command lines: hitmap reads a file\n"
"                         whoever owns it (perf wants -f when neither you nor\n"
"                         root owns it)\n"
"      --max-lines N      at most N lines in the table\n"
"      --kallsyms FILE    kernel symbols from FILE (default: the file's, or this system's)\n"
"  -k, --vmlinux FILE     kernel symbols (and source lines) from a vmlinux ELF,\n"
"                         before kallsyms\n"
"      --symfs DIR        look for user ELF files under DIR\n"
"      --no-source        no source:line lookups\n"
"      --futex-table SPEC a futex hash table: global:NODE:ADDR:SLOTS or\n"
"                         private:PID:ADDR:SLOTS (repeatable)\n"
"      --kernel REL       kernel release for the futex model (default: the file's)\n"
"      --by VIEW          futex views: bucket, field or socket (hitmap's precise\n"
"                         categories: each sample counted once)\n"
"      --perf-counters    --by views: perf c2c's counters beside the categories\n"
"      --cacheline N      cache-line size in bytes (default 64)\n"
"      --double-cl        group lines at twice the line size, like perf c2c --double-cl\n"
"      --perf-compat V    perf's counters, table and LKP metrics as perf V computes\n"
"                         them: 6.1, 6.12 or 7.3 (default: 7.3)\n"
"      --threads N        threads of the pass (default: the CPUs available;\n"
"                         a file: at most 8 ranges, or one thread where it is\n"
"                         too small or has too many lines a sample for cutting\n"
"                         to pay); the output is the same for every N\n"
"      --tui              interactive browser (terminal only): lines, offsets, code,\n"
"                         source, bucket/field/socket views; ? lists its keys\n"
"  -h, --help             this text\n"
"\n"
"See hitmap-report(1) for the columns and the vendor encodings.\n";

static int parse_num(const char *opt, const char *arg, long min, long max, long *out)
{
	int64_t v;

	if (hm_num__parse_s64(arg, 0, min, max, &v))
		{ hm_cli__error("%s '%s': expected a number from %ld to %ld", opt, arg, min, max); return -1; }
	*out = (long)v;
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	enum { O_STATS = 256, O_JSON, O_CSV, O_LKP, O_HTML, O_KALLSYMS, O_SYMFS, O_NOSRC,
	       O_FUTEX, O_KERNEL, O_BY, O_CL, O_SHOWALL, O_MAX, O_PERFCNT, O_TUI, O_STDIO, O_FULLSYM,
	       O_PARETO, O_COMPAT, O_DOUBLECL, O_THREADS, O_STITCH };
	static const struct option longopts[] = {
		{ "input",       required_argument, NULL, 'i' },
		{ "stats",       no_argument,       NULL, O_STATS },
		{ "json",        no_argument,       NULL, O_JSON },
		{ "csv",         no_argument,       NULL, O_CSV },
		{ "lkp",         no_argument,       NULL, O_LKP },
		{ "html",        required_argument, NULL, O_HTML },
		{ "display",     required_argument, NULL, 'd' },
		{ "node-info",   no_argument,       NULL, 'N' },
		{ "show-all",    no_argument,       NULL, O_SHOWALL },
		{ "stdio",       no_argument,       NULL, O_STDIO },
		{ "pareto",      no_argument,       NULL, O_PARETO },
		{ "coalesce",    required_argument, NULL, 'c' },
		{ "full-symbols", no_argument,      NULL, O_FULLSYM },
		{ "call-graph",  required_argument, NULL, 'g' },
		{ "force",       no_argument,       NULL, 'f' },
		{ "verbose",     no_argument,       NULL, 'v' },
		{ "stitch-lbr",  no_argument,       NULL, O_STITCH },
		{ "max-lines",   required_argument, NULL, O_MAX },
		{ "kallsyms",    required_argument, NULL, O_KALLSYMS },
		{ "vmlinux",     required_argument, NULL, 'k' },
		{ "symfs",       required_argument, NULL, O_SYMFS },
		{ "no-source",   no_argument,       NULL, O_NOSRC },
		{ "futex-table", required_argument, NULL, O_FUTEX },
		{ "kernel",      required_argument, NULL, O_KERNEL },
		{ "by",          required_argument, NULL, O_BY },
		{ "perf-counters", no_argument,     NULL, O_PERFCNT },
		{ "cacheline",   required_argument, NULL, O_CL },
		{ "double-cl",   no_argument,       NULL, O_DOUBLECL },
		{ "perf-compat", required_argument, NULL, O_COMPAT },
		{ "tui",         no_argument,       NULL, O_TUI },
		{ "threads",     required_argument, NULL, O_THREADS },
		{ "help",        no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool tui = false, stdio = false;
	struct hm_report_opts ro;
	struct hm_render_opts rd;
	enum hm_format fmt = HM_FMT_TEXT;
	enum hm_bucket_view view = HM_BY_BUCKET;
	bool stats = false, by = false, double_cl = false, perf_counters = false;
	const char **tables = NULL;
	struct hm_report *r = NULL;
	struct hm_metrics *metrics = NULL;
	struct hm_report_progress prog = { NULL, NULL };
	const char *html = NULL, *fmt_opt = NULL, *arch;
	char by_opt[64] = "--by";
	char *html_extra = NULL;
	bool perf_layout = false, display_given = false;
	struct hm_pareto_opts popts;
	struct hm_pareto_render prd;
	char label[320], grouping[80], bad[32];
	int c, err = 0, rc = 1;
	long v;

	memset(&ro, 0, sizeof(ro));
	memset(&rd, 0, sizeof(rd));
	memset(&prd, 0, sizeof(prd));
	ro.input = "perf.data";
	ro.cacheline_size = 64;
	hm_pareto_opts__parse(&popts, "iaddr", bad, sizeof(bad));
	tables = calloc(argc, sizeof(*tables));
	if (!tables)
		return hm_cli__error("out of memory");
	optind = 1;
	rc = 2;		/* a bad option value is a usage error */
	while ((c = getopt_long(argc, argv, ":i:d:Nc:g:fvk:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			ro.input = optarg;
			break;
		case O_STATS:
			stats = true;
			break;
		case O_JSON:
		case O_CSV:
		case O_LKP:
			if (fmt_opt && strcmp(fmt_opt, argv[optind - 1])) {
				rc = hm_out__conflict(fmt_opt, argv[optind - 1]);
				goto out;
			}
			fmt_opt = argv[optind - 1];
			fmt = c == O_JSON ? HM_FMT_JSON : c == O_CSV ? HM_FMT_CSV : HM_FMT_LKP;
			break;
		case O_HTML:
			html = optarg;
			break;
		case 'd':
			display_given = true;
			if (!strcmp(optarg, "tot"))
				rd.sort = HM_SORT_TOT;
			else if (!strcmp(optarg, "rmt"))
				rd.sort = HM_SORT_RMT;
			else if (!strcmp(optarg, "lcl"))
				rd.sort = HM_SORT_LCL;
			else if (!strcmp(optarg, "peer"))
				rd.sort = HM_SORT_PEER;
			else if (!strcmp(optarg, "cost"))
				rd.sort = HM_SORT_COST;
			else {
				hm_cli__error("-d %s: unknown display; use tot, rmt, lcl, peer or cost", optarg);
				goto out;
			}
			break;
		case 'N':
			rd.node_info++;
			break;
		case O_SHOWALL:
			rd.show_all = true;
			break;
		case O_STDIO:
			stdio = true;
			break;
		case O_PARETO:
			/* text, never the TUI, in perf c2c report --stdio's layout */
			perf_layout = stdio = true;
			break;
		case 'c':
			if (hm_pareto_opts__parse(&popts, optarg, bad, sizeof(bad)) < 0) {
				hm_cli__error("-c %s: unrecognized sort token '%s'; use tid, pid, iaddr or dso",
					      optarg, bad);
				rc = 2;
				goto out;
			}
			perf_layout = stdio = true;
			break;
		case 'g':
			/* perf prints call chains under the Pareto rows unless 'none' */
			if (strncmp(optarg, "none", 4))
				hm_warn("--call-graph %s: hitmap prints no call chains; the Pareto "
					"is perf's with --call-graph none", optarg);
			break;
		case 'f':
			break;	/* hitmap has no owner check for -f to lift */
		case O_STITCH:
			break;	/* LBR stitching only changes call chains, which hitmap does not print */
		case 'v':
			hm_cli__verbose();
			break;
		case O_FULLSYM:
			prd.full_symbols = true;
			perf_layout = stdio = true;
			break;
		case O_MAX:
			if (parse_num("--max-lines", optarg, 0, 1L << 30, &v) < 0)
				goto out;
			rd.max_lines = (int)v;
			break;
		case O_KALLSYMS:
			ro.kallsyms = optarg;
			break;
		case 'k':
			ro.vmlinux = optarg;
			break;
		case O_SYMFS:
			ro.symfs = optarg;
			break;
		case O_NOSRC:
			ro.no_source = true;
			break;
		case O_FUTEX:
			rc = hm_cli__check_futex_table(optarg);
			if (rc)
				goto out;
			tables[ro.nr_futex_tables++] = optarg;
			break;
		case O_KERNEL:
			ro.kernel_release = optarg;
			break;
		case O_BY:
			by = true;
			snprintf(by_opt, sizeof(by_opt), "--by %s", optarg);
			if (!strcmp(optarg, "bucket"))
				view = HM_BY_BUCKET;
			else if (!strcmp(optarg, "field"))
				view = HM_BY_FIELD;
			else if (!strcmp(optarg, "socket"))
				view = HM_BY_SOCKET;
			else {
				hm_cli__error("--by %s: unknown view; use bucket, field or socket", optarg);
				goto out;
			}
			break;
		case O_PERFCNT:
			perf_counters = true;
			break;
		case O_CL:
			if (parse_num("--cacheline", optarg, 8, 4096, &v) < 0)
				goto out;
			if (v & (v - 1)) {
				hm_cli__error("--cacheline %ld: not a power of two; use 64 or 128", v);
				goto out;
			}
			ro.cacheline_size = (u32)v;
			break;
		case O_DOUBLECL:
			double_cl = true;
			break;
		case O_COMPAT:
			if (hm_perf_compat__parse(optarg, &ro.perf_compat) < 0) {
				hm_cli__error("--perf-compat %s: unknown perf version; use one of "
					      HM_PERF_COMPAT_LIST, optarg);
				rc = 2;
				goto out;
			}
			break;
		case O_THREADS:
			if (parse_num("--threads", optarg, 1, 1024, &v) < 0)
				goto out;
			ro.threads = (int)v;
			break;
		case O_TUI:
			tui = true;
			break;
		case 'h':
			hm_cli__usage(report_usage);
			rc = 0;
			goto out;
		default:
			rc = hm_cli__bad_option("report", longopts, argv, c);
			goto out;
		}
	}
	if (optind < argc) {
		hm_cli__error("report: unexpected argument '%s'; give the file with -i", argv[optind]);
		rc = 2;
		goto out;
	}
	/* views and formats that do not go together: say so, do not drop one */
	if (by && fmt == HM_FMT_LKP) {
		rc = hm_out__conflict(by_opt, "--lkp");
		goto out;
	}
	if (by && stats) {
		rc = hm_out__conflict(by_opt, "--stats");
		goto out;
	}
	if (stats && fmt == HM_FMT_CSV) {
		rc = hm_out__conflict("--stats", "--csv");
		goto out;
	}
	if (!by && perf_counters) {
		hm_cli__error("--perf-counters: adds perf's counters to the --by views; fix: "
			      "give --by bucket, field or socket");
		goto out;
	}
	rc = 1;
	hm_out__input(ro.input);
	if ((ro.kallsyms && hm_in__check(ro.kallsyms, "--kallsyms")) ||
	    (ro.vmlinux && hm_in__check(ro.vmlinux, "--vmlinux")))
		goto out;
	if (html && hm_out__is_stdout(html))
		html = "-";	/* --html /dev/stdout: the same stream as the other formats */
	if (html && (hm_out__check(html, "--html", true) ||
		     (!strcmp(html, "-") && fmt_opt && (rc = hm_out__conflict(fmt_opt, "--html -"))) ||
		     (!strcmp(html, "-") && by && (rc = hm_out__conflict(by_opt, "--html -")))))
		goto out;
	rd.stats_only = stats;
	if (double_cl) {
		/* perf 6.3+: cl_address()/cl_offset() with twice the line size */
		if (ro.cacheline_size > 2048) {
			hm_cli__error("--double-cl with --cacheline %u: over 4096 bytes", ro.cacheline_size);
			rc = 2;
			goto out;
		}
		ro.cacheline_size *= 2;
		rd.double_cl = true;
	}
	if (rd.node_info > 2)
		rd.node_info = 2;	/* like perf */
	if (fmt != HM_FMT_TEXT || by)
		perf_layout = false;	/* --pareto is the text report's layout */
	if (perf_layout) {
		hm_pareto_opts__grouping(&popts, grouping, sizeof(grouping));
		rd.grouping = grouping;
		prd.sort = rd.sort;
		prd.node_info = rd.node_info;
		prd.show_all = rd.show_all;
		prd.no_source = ro.no_source;
		prd.double_cl = rd.double_cl;
		if (!stats)
			ro.pareto = &popts;
	}
	ro.futex_tables = tables;
	ro.want_lines = !stats && !by && fmt != HM_FMT_LKP && !perf_layout;
	ro.want_buckets = by;
	tui = tui && !stdio && fmt == HM_FMT_TEXT && !stats && !by && !html;
	if (tui && !hm_cli__tui_possible())
		tui = false;	/* like perf: not a terminal, so text */
	if (tui)
		ro.want_lines = ro.want_buckets = true;
	if (html) {
		/* the page's metrics read the same single pass's aggregation */
		hm_metrics__want(&ro);
		if (!strcmp(html, "-"))
			fmt = HM_FMT_HTML;
	}
	/* --by alone renders only the futex views: the pass builds only what they read */
	ro.futex_views_only = by && !html && !tui && !ro.want_lines && !ro.pareto;
	/* --lkp alone prints the Trace Event counts: the pass builds nothing else */
	ro.counts_only = fmt == HM_FMT_LKP && !html && !tui && !by;
	/* text, JSON and CSV print offsets for the lines they show only */
	ro.defer_details = !tui && !html;
	/*
	 * The futex views key their rows on the tables during the pass: a pipe
	 * without --futex-table is copied to a temporary file, so that its
	 * tables can be read or inferred before the pass, as from a file.
	 */
	if (ro.want_buckets && !ro.nr_futex_tables && !strcmp(ro.input, "-") &&
	    hm_in__spool_stdin(html ? "--html" : tui ? "--tui" : "--by"))
		goto out;
	snprintf(label, sizeof(label), "hitmap: reading %s", ro.input);
	prog.label = label;
	ro.on_progress = hm_progress__report_cb;
	ro.on_progress_priv = &prog;
	r = hm_report__new(&ro);
	if (!r) {
		hm_cli__lib_error(-errno, ro.input);
		goto out;
	}
	err = hm_report__run(r);
	hm_progress__delete(prog.p);
	prog.p = NULL;
	if (err < 0) {
		hm_cli__lib_error(err, ro.input);
		goto out;
	}
	if (html) {
		metrics = hm_metrics__from_report(r, 0);
		if (!metrics) {
			hm_cli__lib_error(-errno, ro.input);
			goto out;
		}
		/* contention mode: the page's contention view */
		html_extra = hm_html_contention__page_section(r, metrics, &ro);
		if (!html_extra) {
			hm_cli__lib_error(-errno, ro.input);
			goto out;
		}
		if (strcmp(html, "-")) {
			FILE *f = hm_out__open(html, "--html");

			if (!f)
				goto out;
			err = hm_html__render_metrics_extra(metrics, html_extra, f);
			/* a page that could not be made whole does not replace the old one */
			if (err < 0 ? hm_out__abandon(f) : hm_out__close(f))
				goto out;
			if (err < 0) {
				hm_cli__error("--html %s: %s", html, strerror(-err));
				goto out;
			}
		}
	}
	arch = hm_report__arch(r);
	if (perf_layout && !display_given && arch && (!strncmp(arch, "aarch64", 7) || !strncmp(arch, "arm64", 5))) {
		/* perf's default on arm64, which has no HITM: peer */
		rd.sort = HM_SORT_PEER;
		prd.sort = HM_SORT_PEER;
	}
	if (tui) {
		err = hm_cli__report_tui(r, &rd, ro.symfs);
		rc = err < 0 ? 1 : 0;
		goto out;
	}
	/* a memory view with nothing to show: say why, and which view has something */
	if (!by && !hm_report__has_memory_samples(r)) {
		const char *name = hm_reader__name_of(ro.input);

		if (!hm_report__has_contention_events(r))
			fprintf(stderr, "hitmap: warning: %s: no memory samples (no load or store with a "
				"data source): perf c2c's counters and the line table are empty; record "
				"with 'hitmap record' or 'perf c2c record'\n", name);
		else
			fprintf(stderr, "hitmap: warning: %s: a contention-mode recording (lock tracepoints, "
				"no memory samples): perf c2c's counters and the line table are empty; its "
				"view is 'hitmap report -i %s --by bucket'\n", name, ro.input);
	}
	if (by) {
		err = hm_report__render_futex(r, view, fmt, perf_counters, stdout);
	} else if (fmt == HM_FMT_JSON) {
		err = hm_render__json(r, &rd, stdout);
	} else if (fmt == HM_FMT_LKP) {
		err = hm_render__lkp(r, stdout);
	} else if (fmt == HM_FMT_CSV) {
		err = stats ? hm_render__stats(r, &rd, stdout) : hm_render__csv(r, &rd, stdout);
	} else if (fmt == HM_FMT_HTML) {
		err = hm_html__render_metrics_extra(metrics, html_extra, stdout);
	} else {
		err = hm_render__stats(r, &rd, stdout);
		if (!err && !stats && perf_layout)
			err = hm_pareto__render(hm_report__pareto(r), r, &prd, stdout);
		else if (!err && !stats)
			err = hm_render__lines_text(r, &rd, stdout);
	}
	if (hm_out__close(stdout))
		goto out;
	if (err < 0) {
		hm_cli__error("report: %s", strerror(-err));
		goto out;
	}
	if (fmt == HM_FMT_TEXT && !stats)
		hm_cli__report_hints(r, ro.input, by ? (int)view : -1);
	rc = 0;
out:
	hm_progress__delete(prog.p);
	hm_metrics__delete(metrics);
	free(html_extra);
	hm_report__delete(r);
	free(tables);
	return rc;
}

HM_COMMAND("report", "perf c2c's report, exact, plus precise categories and one row per line", cmd_report)
