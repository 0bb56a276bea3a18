// SPDX-License-Identifier: GPL-2.0-only
/*
 * The contention view of the HTML report (html-contention.h): static tables
 * written from the futex views' aggregation (buckets.c), formatted as the
 * text views format them, so a number on the page is the number --stdio
 * prints.  No script: the page's CSP allows only its own inline one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "buckets.h"
#include "waits.h"
#include "html-contention.h"
#include "html-esc.h"

/* <tr> of header cells; bit i of @text: column i is text (left-aligned). */
static void head(FILE *f, const char *const *names, int n, unsigned text)
{
	fputs("<thead><tr>", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "<th%s>%s</th>", text >> i & 1 ? " class=\"l\"" : "", names[i]);
	fputs("</tr></thead>\n<tbody>\n", f);
}

static void bucket_rows(FILE *f, const struct hm_buckets *b, const struct hm_report *r, unsigned max)
{
	static const char *const cols[] = {
		"TABLE", "NODE", "INDEX", "CONTENDED", "WAIT_US", "AVG_US", "MAX_US", "FIELD", "CALLERS",
	};
	const struct hm_futex_model *fm = hm_report__futex(r);
	unsigned shown = 0, with = 0;
	char funcs[256];
	int hf;
	u32 *o, n, i;

	o = hm_buckets__order(b, HM_BY_BUCKET, &n);
	if (!o)
		return;
	for (i = 0; i < n; i++) {
		struct hm_bucket_info e;

		hm_buckets__bucket(b, o[i], &e);
		with += e.contended > 0;
	}
	fprintf(f, "<h3>Waits per bucket</h3>\n<p class=\"muted\">%u bucket%s contended; waits from "
		"contention_begin to contention_end (microseconds); CALLERS: the waiting code, from the "
		"call chain%s</p>\n", with, with == 1 ? "" : "s",
		with > max ? "; the most contended first, 'hitmap report --by bucket' lists all" : "");
	fputs("<div style=\"max-height:480px;overflow:auto\"><table id=\"contention-buckets\">", f);
	head(f, cols, 9, 1u << 0 | 1u << 7 | 1u << 8);
	for (i = 0; i < n && shown < max; i++) {
		struct hm_bucket_info e;
		const struct hm_futex_table *t;

		hm_buckets__bucket(b, o[i], &e);
		t = e.table >= 0 ? &fm->tables[e.table] : NULL;
		if (!e.contended)
			continue;
		shown++;
		hf = hm_buckets__hottest(b, o[i], funcs, sizeof(funcs));
		fputs("<tr><td class=\"l\">", f);
		if (!t)
			fputs("unknown", f);
		else if (t->kind)
			fprintf(f, "private:%d", t->pid);
		else
			fputs("global", f);
		fputs("</td><td>", f);
		if (t && !t->kind)
			fprintf(f, "%d", t->node);
		else
			fputc('-', f);
		fputs("</td><td>", f);
		if (t)
			fprintf(f, "%" PRIu64, e.index);
		else
			fputs("unknown", f);
		fprintf(f, "</td><td>%" PRIu64 "</td><td>%.1f</td><td>%.2f</td><td>%.1f</td><td class=\"l\">%s"
			"</td><td class=\"l\">", e.contended, e.wait_ns / 1e3,
			e.waits ? e.wait_ns / 1e3 / e.waits : 0.0, e.wait_max_ns / 1e3,
			hf >= 0 ? hm_futex_field__name(hf) : "-");
		hm_html__escape(f, funcs);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	free(o);
}

static void socket_rows(FILE *f, const struct hm_buckets *b)
{
	static const char *const cols[] = { "SOCKET", "NODE", "CONTENDED", "WAIT_US", "AVG_US" };
	struct hm_buckets_totals tot;

	hm_buckets__totals(b, &tot);

	fputs("<h3>Waits per socket</h3>\n<p class=\"muted\">requesting CPU socket x the table's node "
	      "(private hashes have no node of their own: \"private\")</p>\n<table id=\"contention-sockets\">", f);
	head(f, cols, 5, 0);
	for (u32 s = 0; s < tot.nr_sockets; s++)
		for (u32 n = 0; n <= tot.nr_nodes; n++) {
			struct hm_bucket_cell c;

			hm_buckets__cell(b, s, n, &c);
			if (!c.contentions)
				continue;
			fprintf(f, "<tr><td>%u</td><td>", s);
			if (n)
				fprintf(f, "%u", n - 1);
			else
				fputs("private", f);
			fprintf(f, "</td><td>%" PRIu64 "</td><td>%.1f</td><td>%.2f</td></tr>\n", c.contentions,
				c.wait_ns / 1e3, c.wait_ns / 1e3 / c.contentions);
		}
	fputs("</tbody></table>\n", f);
}

static int caller_rows(FILE *f, const struct hm_buckets *b)
{
	static const char *const cols[] = { "CONTENDED", "TOTAL_WAIT_US", "AVG_US", "MAX_US", "CALLER" };
	struct hm_waits_row *v;
	unsigned n;

	v = hm_waits__rows(hm_buckets__callers(b), &n);
	if (!v)
		return -ENOMEM;
	fputs("<h3>Callers</h3>\n<p class=\"muted\">who waits on bucket locks: the first two call-chain "
	      "frames outside the lock code (like perf lock contention)</p>\n"
	      "<div style=\"max-height:420px;overflow:auto\"><table id=\"contention-callers\">", f);
	head(f, cols, 5, 1u << 4);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "<tr><td>%" PRIu64 "</td><td>%.1f</td><td>%.2f</td><td>%.1f</td><td class=\"l\">",
			v[i].contended, v[i].wait_ns / 1e3, v[i].waits ? v[i].wait_ns / 1e3 / v[i].waits : 0.0,
			v[i].max_ns / 1e3);
		hm_html__escape(f, v[i].caller);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	free(v);
	return 0;
}

char *hm_html_contention__section(const struct hm_report *r, unsigned max_rows)
{
	const struct hm_buckets *b = r ? hm_report__buckets(r) : NULL;
	struct hm_buckets_totals tot = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err = 0;

	if (b)
		hm_buckets__totals(b, &tot);
	if (!b || (hm_buckets__memory_mode(b, r) && !tot.contentions))
		return strdup("");
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputs("<section id=\"contention-section\"><h2>Futex bucket lock contention (contention mode)</h2>\n", f);
	if (!tot.contentions) {
		fputs("<p>Nothing contended while recording: more threads, fewer buckets, a longer run.</p>\n", f);
	} else {
		fprintf(f, "<p class=\"muted\" id=\"contention-summary\">%" PRIu64 " lock contentions, %" PRIu64
			" on bucket locks of known tables (lock:contention_begin; what 'hitmap report --by bucket' "
			"and '--by socket' print)</p>\n", tot.contentions, tot.contentions_resolved);
		bucket_rows(f, b, r, max_rows ? max_rows : 500);
		socket_rows(f, b);
		err = caller_rows(f, b);
	}
	fputs("</section>\n", f);
	if (fclose(f) || err) {
		free(buf);
		errno = ENOMEM;
		return NULL;
	}
	return buf;
}

char *hm_html_contention__page_section(const struct hm_report *r, const struct hm_metrics *m,
					const struct hm_report_opts *opts)
{
	struct hm_report_opts o = *opts;
	struct hm_report *own;
	char *s;
	int err;

	if (hm_report__buckets(r))
		return hm_html_contention__section(r, 0);
	(void)m;
	if (!hm_report__has_contention_events(r) || !o.input || !strcmp(o.input, "-"))
		return strdup("");
	o.want_lines = false;
	o.want_buckets = true;
	o.pareto = NULL;
	o.on_progress = NULL;
	own = hm_report__new(&o);
	if (!own)
		return NULL;
	err = hm_report__run(own);
	s = err < 0 ? NULL : hm_html_contention__section(own, 0);
	hm_report__delete(own);
	if (err < 0)
		errno = -err;
	return s;
}
