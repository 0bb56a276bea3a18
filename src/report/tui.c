// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap report --tui: perf c2c report's habit (lines -> offsets -> code ->
 * source) over hitmap's single pass, with the futex views beside it.
 *
 * Screens form a stack: the cache-line table at the bottom; Enter opens a
 * line's offsets and code addresses, Enter on a code address its source;
 * b/f/s push the bucket, field and socket tables (tui-futex.c), Enter on a
 * bucket its cache lines; i the totals, ? the keys.  Esc or q pops; q on
 * the table quits.  / searches the current screen, n repeats.  d cycles the
 * line table's sort key like -d, and a futex table's sort column (D back,
 * r reverses); < > scroll sideways.
 *
 * Everything the TUI reads from the report goes through the rd_* functions
 * below, over the report's accessors (report-access.c); data is named by
 * names.c as in the text table, JSON, CSV and HTML.
 */
#include <ctype.h>
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/lines.h"
#include "report/render-c2c.h"
#include "report/tui.h"
#include "report/tui-futex.h"
#include "util/clock.h"

/* ================================================================ report reads */

/* The table's lines, sorted on @s; *n of them.  NULL with *n 0 when none. */
static struct hm_line **rd_lines(struct hm_report *r, enum hm_sort s, bool all, size_t *n)
{
	*n = 0;
	if (!hm_report__lines(r))
		return NULL;
	return hm_lines__shared(hm_report__lines(r), s, all, n);
}

/* Every line (shared or not) with a byte in [@lo, @hi); malloc'ed, *n of them. */
static struct hm_line **rd_lines_in(struct hm_report *r, u64 lo, u64 hi, size_t *n)
{
	struct hm_lines *lines = hm_report__lines(r);
	size_t nr = lines ? hm_lines__count(lines) : 0, k = 0;
	struct hm_line **v = malloc(sizeof(*v) * (nr ? nr : 1));
	u64 cl = lines ? hm_lines__cacheline(lines) : 64;

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < nr; i++) {
		struct hm_line *ln = hm_lines__get(lines, i);

		if (ln->addr < hi && ln->addr + cl > lo)
			v[k++] = ln;
	}
	*n = k;
	return v;
}

static const struct hm_c2c_stats *rd_totals(const struct hm_report *r)
{
	return hm_report__c2c(r);
}

static const char *rd_input(const struct hm_report *r)
{
	return hm_report__opts(r)->input;
}

static u64 rd_nr_samples(const struct hm_report *r)
{
	return hm_report__nr_samples(r);
}

/* Symbol, dso and source file:line of a code address. */
static void rd_code(const struct hm_report *r, u32 pid, u8 cpumode, u64 ip, char *sym, size_t ssz,
		    char *file, size_t fsz, int *line)
{
	struct hm_symbol_info info;

	snprintf(sym, ssz, "[unknown]");
	*file = 0;
	*line = 0;
	if (!hm_report__symbols(r) || !hm_report__maps(r) ||
	    hm_symbols__resolve(hm_report__symbols(r), hm_report__maps(r), pid, cpumode, ip, &info) < 0)
		return;
	if (info.name)
		snprintf(sym, ssz, "%s+0x%llx", info.name, (unsigned long long)info.offset);
	else if (info.dso)
		snprintf(sym, ssz, "[%s]", info.dso);
	if (info.file && info.line) {
		snprintf(file, fsz, "%s", info.file);
		*line = info.line;
	}
}

/*
 * What the data address is, in the words of the text table, JSON, CSV and
 * the HTML page (names.c through the report): the line's name, or the
 * byte's field or symbol+offset.
 */
static void rd_line_name(const struct hm_report *r, const struct hm_line *ln, char *buf, size_t sz)
{
	hm_report__line_name(r, ln, buf, sz);
}

static void rd_offset_name(const struct hm_report *r, const struct hm_line *ln, u32 off, char *buf, size_t sz)
{
	hm_report__offset_name(r, ln->addr + off, ln->first_pid, buf, sz);
	if (!buf[0])
		snprintf(buf, sz, "-");
}

enum tui_view { TV_BUCKET, TV_FIELD, TV_SOCKET, TV_STATS };

/* A text view of the report, rendered as --stdio renders it; malloc'ed. */
static char *rd_view_text(struct hm_report *r, enum tui_view v, size_t *len)
{
	static const enum hm_bucket_view bv[] = { HM_BY_BUCKET, HM_BY_FIELD, HM_BY_SOCKET };
	struct hm_render_opts ro = { .sort = HM_SORT_TOT, .stats_only = true };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int err;

	if (!f)
		return NULL;
	if (v == TV_STATS)
		err = hm_render__stats(r, &ro, f);
	else if (hm_report__buckets(r))
		err = hm_buckets__render(hm_report__buckets(r), r, bv[v], HM_FMT_TEXT, false, f);
	else
		err = fputs("no futex views: the report ran without them\n", f) < 0 ? -EIO : 0;
	if (fclose(f) || err < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ================================================================ screens */

enum scr_type { S_LINES, S_DETAIL, S_TEXT, S_SOURCE, S_TABLE };

struct src_ref {
	char	*file;		/* NULL: no source */
	int	line;
};

struct screen {
	enum scr_type	type;
	char		title[256];
	char		header[512];
	size_t		nr, top, cur;
	int		left;		/* columns scrolled off to the left */
	char		**text;		/* DETAIL, TEXT, SOURCE: one string per row */
	struct src_ref	*src;		/* DETAIL: per row */
	struct hm_line	**lines;	/* LINES */
	long		hl;		/* SOURCE: row to highlight, -1 */
	struct hm_tui_table *tab;	/* TABLE: one of tui.tab[] */
	char		what[160];	/* LINES above the table: whose lines */
};

#define MAX_SCREENS 8

struct tui {
	struct hm_report	*r;
	const struct hm_tui_opts *o;
	enum hm_sort		sort;
	struct screen		st[MAX_SCREENS];
	int			depth;
	char			msg[256];
	char			search[128];
	double			all_cost;
	struct hm_tui_table	*tab[TV_STATS];	/* the futex tables, built once */
};

static const char *const sort_name[] = {
	[HM_SORT_TOT] = "tot", [HM_SORT_RMT] = "rmt", [HM_SORT_LCL] = "lcl",
	[HM_SORT_PEER] = "peer", [HM_SORT_COST] = "cost",
};

static double pct(double a, double b)
{
	return b > 0 ? 100.0 * a / b : 0;
}

static void screen_free(struct screen *s)
{
	size_t i;

	if (s->text)
		for (i = 0; i < s->nr; i++)
			free(s->text[i]);
	if (s->src)
		for (i = 0; i < s->nr; i++)
			free(s->src[i].file);
	free(s->text);
	free(s->src);
	free(s->lines);	/* s->tab: the tui's, kept for the next time */
	memset(s, 0, sizeof(*s));
}

static int screen_add(struct screen *s, size_t *cap, const char *text, const char *file, int line)
{
	if (s->nr == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		char **t = realloc(s->text, n * sizeof(*t));

		if (!t)
			return -ENOMEM;
		s->text = t;
		if (s->type == S_DETAIL) {
			struct src_ref *sr = realloc(s->src, n * sizeof(*sr));

			if (!sr)
				return -ENOMEM;
			s->src = sr;
		}
		*cap = n;
	}
	s->text[s->nr] = strdup(text);
	if (!s->text[s->nr])
		return -ENOMEM;
	if (s->type == S_DETAIL) {
		s->src[s->nr].file = file && *file ? strdup(file) : NULL;
		s->src[s->nr].line = line;
	}
	s->nr++;
	return 0;
}

/* One row of a cache-line table (formatted when drawn or searched). */
static void line_row(const struct tui *t, const struct screen *sc, size_t i, char *buf, size_t sz)
{
	const struct hm_line *ln = sc->lines[i];
	const struct hm_c2c_stats *s = &ln->st, *tot = rd_totals(t->r);
	char name[160];
	double m;

	switch (t->sort) {
	case HM_SORT_RMT:  m = pct(s->rmt_hitm, tot->rmt_hitm); break;
	case HM_SORT_LCL:  m = pct(s->lcl_hitm, tot->lcl_hitm); break;
	case HM_SORT_PEER: m = pct(s->tot_peer, tot->tot_peer); break;
	case HM_SORT_COST: m = pct(ln->cost, t->all_cost); break;
	default:           m = pct(s->tot_hitm, tot->tot_hitm); break;
	}
	rd_line_name(t->r, ln, name, sizeof(name));
	snprintf(buf, sz, "%5zu %#18llx %7.2f%% %7u %7u %7u %7u %7u %8llu %10.0f  %s",
		 i, (unsigned long long)ln->addr, m, s->tot_hitm, s->lcl_hitm, s->rmt_hitm,
		 s->store, (unsigned)hm_c2c_stats__total_loads(s),
		 (unsigned long long)hm_c2c_stats__total_records(s), ln->cost, name);
}

static void row_text(const struct tui *t, const struct screen *s, size_t i, char *buf, size_t sz)
{
	if (s->type == S_LINES)
		line_row(t, s, i, buf, sz);
	else if (s->type == S_TABLE)
		hm_tui_table__row(s->tab, i, buf, sz);
	else
		snprintf(buf, sz, "%s", s->text[i]);
}

static int push(struct tui *t)
{
	if (t->depth + 1 >= MAX_SCREENS) {
		snprintf(t->msg, sizeof(t->msg), "too many screens open; Esc goes back");
		return -1;
	}
	memset(&t->st[++t->depth], 0, sizeof(t->st[0]));
	t->st[t->depth].hl = -1;
	return 0;
}

static const char *const sort_what[] = { "Total HITMs", "Remote HITMs", "Local HITMs", "peer loads", "cost" };

static void lines_header(const struct tui *t, struct screen *s)
{
	snprintf(s->header, sizeof(s->header), "%5s %18s %8s %7s %7s %7s %7s %7s %8s %10s  %s",
		 "Index", "Cacheline", t->sort == HM_SORT_COST ? "Cost%" : t->sort == HM_SORT_PEER ? "Peer%" :
		 t->sort == HM_SORT_RMT ? "Rmt%" : t->sort == HM_SORT_LCL ? "Lcl%" : "Hitm%",
		 "Hitm", "LclHitm", "RmtHitm", "Stores", "Loads", "Records", "Cost", "Data");
}

static enum hm_sort lsort_key;

static int lsort_cmp(const void *a, const void *b)
{
	const struct hm_line *x = *(struct hm_line *const *)a, *y = *(struct hm_line *const *)b;
	double mx = hm_line__metric(x, lsort_key), my = hm_line__metric(y, lsort_key);

	if (mx != my)
		return mx > my ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* A bucket's lines screen (above the table): sorted on the table's key. */
static void sub_lines_sort(const struct tui *t, struct screen *s)
{
	char what[sizeof(s->what)];

	lsort_key = t->sort;
	qsort(s->lines, s->nr, sizeof(*s->lines), lsort_cmp);
	/* a copy: gcc's -Wrestrict cannot tell the two arrays of *s apart once inlined */
	memcpy(what, s->what, sizeof(what));
	snprintf(s->title, sizeof(s->title), "Cache lines of %.150s: %zu line%s, sorted on %s (d: next key); Enter: offsets",
		 what, s->nr, s->nr == 1 ? "" : "s", sort_what[t->sort]);
	lines_header(t, s);
}

static int lines_build(struct tui *t)
{
	struct screen *s = &t->st[0];
	const char *const *what = sort_what;

	bool all = t->o->show_all;

	free(s->lines);
	s->type = S_LINES;
	s->lines = rd_lines(t->r, t->sort, all, &s->nr);
	if (!s->nr && !all) {
		/* none above perf's 0.1% display filter (many even lines): show them all */
		free(s->lines);
		all = true;
		s->lines = rd_lines(t->r, t->sort, all, &s->nr);
	}
	if (!s->lines && s->nr)
		return -ENOMEM;
	s->top = s->cur = 0;
	snprintf(s->title, sizeof(s->title), "Shared cache lines of %s: %zu lines, %llu samples, sorted on %s (-d %s)%s",
		 rd_input(t->r), s->nr, (unsigned long long)rd_nr_samples(t->r), what[t->sort],
		 sort_name[t->sort], all && !t->o->show_all ? ", all (none above 0.1%)" : "");
	lines_header(t, s);
	return 0;
}

/* d on a lines screen: the next sort key, for the table and the bucket lines above it. */
static int lines_resort(struct tui *t)
{
	int err;

	t->sort = (t->sort + 1) % (HM_SORT_COST + 1);
	err = lines_build(t);
	for (int k = 1; k <= t->depth && !err; k++)
		if (t->st[k].type == S_LINES)
			sub_lines_sort(t, &t->st[k]);
	snprintf(t->msg, sizeof(t->msg), "sorted on %s", sort_name[t->sort]);
	return err;
}

static int ip_cmp(const void *a, const void *b)
{
	const struct hm_line_ip *x = a, *y = b;

	if (x->hitm != y->hitm)
		return x->hitm > y->hitm ? -1 : 1;
	if (x->nr != y->nr)
		return x->nr > y->nr ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* Enter on a line: its offsets, their code addresses, data names and source. */
static int open_detail(struct tui *t, const struct hm_line *ln)
{
	struct screen *s;
	size_t cap = 0;
	int err = 0;

	if (push(t))
		return 0;
	s = &t->st[t->depth];
	s->type = S_DETAIL;
	snprintf(s->title, sizeof(s->title), "Line %#llx: hitm %u (local %u, remote %u), stores %u, loads %u; Enter: source",
		 (unsigned long long)ln->addr, ln->st.tot_hitm, ln->st.lcl_hitm, ln->st.rmt_hitm,
		 ln->st.store, (unsigned)hm_c2c_stats__total_loads(&ln->st));
	snprintf(s->header, sizeof(s->header), "%6s %7s %7s %7s %7s  %-32s %18s %7s  %-40s %s",
		 "Offset", "LclHitm", "RmtHitm", "Stores", "Loads", "Data", "Code address", "Pid",
		 "Symbol", "Source");
	for (u32 k = 0; k < ln->nr_offs && !err; k++) {
		const struct hm_line_off *of = &ln->offs[k];
		u32 nips = of->nr_ips < HM_LINE_MAX_IPS ? of->nr_ips : HM_LINE_MAX_IPS;
		char data[160], row[768], sym[160], file[512], fl[560], offs[16];
		int line;

		snprintf(offs, sizeof(offs), "0x%x", of->off);
		rd_offset_name(t->r, ln, of->off, data, sizeof(data));
		if (!nips) {
			snprintf(row, sizeof(row), "%6s %7u %7u %7u %7u  %-32.32s", offs, of->lcl_hitm,
				 of->rmt_hitm, of->store, of->load, data);
			err = screen_add(s, &cap, row, NULL, 0);
			continue;
		}
		/* most HITM first, as --stdio's details */
		struct hm_line_ip ips[HM_LINE_MAX_IPS];

		memcpy(ips, of->ip, nips * sizeof(*ips));
		qsort(ips, nips, sizeof(*ips), ip_cmp);
		for (u32 j = 0; j < nips && !err; j++) {
			const struct hm_line_ip *ip = &ips[j];

			rd_code(t->r, ip->pid, ip->cpumode, ip->ip, sym, sizeof(sym), file, sizeof(file), &line);
			if (line)
				snprintf(fl, sizeof(fl), "%s:%d", file, line);
			else
				snprintf(fl, sizeof(fl), "-");
			if (!j)
				snprintf(row, sizeof(row), "%6s %7u %7u %7u %7u  %-32.32s %#18llx %7u  %-40.40s %s",
					 offs, of->lcl_hitm, of->rmt_hitm, of->store, of->load, data,
					 (unsigned long long)ip->ip, ip->pid, sym, fl);
			else
				snprintf(row, sizeof(row), "%6s %7s %7s %7s %7s  %-32s %#18llx %7u  %-40.40s %s",
					 "", "", "", "", "", "", (unsigned long long)ip->ip, ip->pid, sym, fl);
			err = screen_add(s, &cap, row, line ? file : NULL, line);
		}
	}
	if (!err && !s->nr)
		err = screen_add(s, &cap, "(no offsets recorded for this line)", NULL, 0);
	return err;
}

static int open_text(struct tui *t, const char *title, const char *text)
{
	struct screen *s;
	size_t cap = 0;
	const char *p = text;
	int err = 0;

	if (push(t))
		return 0;
	s = &t->st[t->depth];
	s->type = S_TEXT;
	snprintf(s->title, sizeof(s->title), "%s", title);
	while (*p && !err) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char *row = strndup(p, n);

		if (!row)
			return -ENOMEM;
		err = screen_add(s, &cap, row, NULL, 0);
		free(row);
		p += n + (e != NULL);
	}
	return err;
}

static void table_title(struct screen *s)
{
	bool rev;
	int c = hm_tui_table__sort_col(s->tab, &rev);

	snprintf(s->title, sizeof(s->title), "%.180s; sorted on %s%s", hm_tui_table__title(s->tab),
		 hm_tui_table__col_name(s->tab, c), c < 0 ? "" : rev ? " (ascending)" : " (descending)");
}

/* A futex view as a table (b, f, s); i: the totals as text. */
static int open_view(struct tui *t, enum tui_view v)
{
	struct hm_tui_table *tab;
	struct screen *s;
	double t0 = hm_clock__mono(), c0 = hm_clock__thread_cpu();
	size_t len = 0;
	char *text;
	int err;

	if (v == TV_STATS) {
		text = rd_view_text(t->r, v, &len);
		if (!text)
			return -ENOMEM;
		err = open_text(t, "Totals (--stats)", text);
		free(text);
		return err;
	}
	tab = t->tab[v];
	if (!tab)
		tab = v == TV_BUCKET ? hm_tui_futex__buckets(t->r) : v == TV_FIELD ? hm_tui_futex__fields(t->r) :
			hm_tui_futex__sockets(t->r);
	if (!tab) {
		if (errno != ENOENT)
			return -ENOMEM;
		snprintf(t->msg, sizeof(t->msg), "no futex views: the report ran without them");
		return 0;
	}
	t->tab[v] = tab;
	if (push(t))
		return 0;
	s = &t->st[t->depth];
	s->type = S_TABLE;
	s->tab = tab;
	s->nr = hm_tui_table__nr(tab);
	table_title(s);
	snprintf(t->msg, sizeof(t->msg), "%zu rows in %.0f ms (cpu %.0f ms); %sd/D: sort column  r: reverse",
		 s->nr, (hm_clock__mono() - t0) * 1000, (hm_clock__thread_cpu() - c0) * 1000,
		 v == TV_BUCKET ? "Enter: the bucket's lines  " : "");
	return 0;
}

/* d, D, r on a table: sort on the next or previous column, or reverse. */
static void table_sort(struct tui *t, struct screen *s, int ch)
{
	bool rev;
	int c = hm_tui_table__sort_col(s->tab, &rev);

	if (ch == 'r')
		rev = !rev;
	else
		c = hm_tui_table__col_next(s->tab, c, ch == 'd' ? 1 : -1), rev = false;
	hm_tui_table__sort(s->tab, c, rev);
	s->cur = s->top = 0;
	table_title(s);
	snprintf(t->msg, sizeof(t->msg), "sorted on %s%s", hm_tui_table__col_name(s->tab, c),
		 c < 0 ? "" : rev ? " (ascending)" : " (descending)");
}

/* The row's TABLE, NODE and INDEX: "global.node0.bucket.7", "private:42.bucket.3", "fph.users". */
static void bucket_name(const struct screen *s, char *buf, size_t size)
{
	char tab[64], node[24], idx[24];

	hm_tui_table__cell(s->tab, s->cur, 0, tab, sizeof(tab));
	hm_tui_table__cell(s->tab, s->cur, 1, node, sizeof(node));
	hm_tui_table__cell(s->tab, s->cur, 2, idx, sizeof(idx));
	snprintf(buf, size, "%s%s%s%s%s", tab, strcmp(node, "-") ? ".node" : "", strcmp(node, "-") ? node : "",
		 strcmp(idx, "-") ? ".bucket." : "", strcmp(idx, "-") ? idx : "");
}

/* Enter on a bucket (or futex object) row: the cache lines its bytes are on. */
static int open_bucket_lines(struct tui *t, const struct screen *from)
{
	char name[160];
	struct screen *s;
	u64 addr, size;

	hm_tui_table__key(from->tab, from->cur, &addr, &size);
	if (!size) {
		snprintf(t->msg, sizeof(t->msg), "Enter opens lines from the bucket table (b)");
		return 0;
	}
	if (push(t))
		return 0;
	s = &t->st[t->depth];
	s->type = S_LINES;
	s->lines = rd_lines_in(t->r, addr, addr + size, &s->nr);
	if (!s->lines) {
		t->depth--;
		return -ENOMEM;
	}
	bucket_name(from, name, sizeof(name));
	snprintf(s->what, sizeof(s->what), "%.100s %#llx+%llu", name, (unsigned long long)addr,
		 (unsigned long long)size);
	if (!s->nr) {
		screen_free(s);
		t->depth--;
		snprintf(t->msg, sizeof(t->msg), "%.60s: no memory samples on its cache lines%s", name,
			 hm_tui_futex__memory_mode(t->r) ? "" : " (contention mode records lock events only)");
		return 0;
	}
	sub_lines_sort(t, s);
	return 0;
}

static FILE *open_source(const struct tui *t, const char *file, char *path, size_t sz)
{
	FILE *f;

	if (t->o->symfs && *t->o->symfs) {
		snprintf(path, sz, "%s/%s", t->o->symfs, file);
		f = fopen(path, "r");
		if (f)
			return f;
	}
	snprintf(path, sz, "%s", file);
	return fopen(path, "r");
}

static int open_src(struct tui *t, const struct src_ref *ref)
{
	char path[1024], buf[1024], row[1100];
	struct screen *s;
	size_t cap = 0;
	FILE *f;
	int n = 0, err = 0;

	if (!ref->file) {
		snprintf(t->msg, sizeof(t->msg), "no source line for this row (no debug info, or --no-source)");
		return 0;
	}
	f = open_source(t, ref->file, path, sizeof(path));
	if (!f) {
		snprintf(t->msg, sizeof(t->msg), "%.200s: %s; --symfs DIR looks under DIR", ref->file,
			 strerror(errno));
		return 0;
	}
	if (push(t)) {
		fclose(f);
		return 0;
	}
	s = &t->st[t->depth];
	s->type = S_SOURCE;
	snprintf(s->title, sizeof(s->title), "%.200s:%d", path, ref->line);
	while (fgets(buf, sizeof(buf), f) && !err) {
		buf[strcspn(buf, "\n")] = 0;
		for (char *c = buf; *c; c++)
			if (*c == '\t')
				*c = ' ';
		n++;
		snprintf(row, sizeof(row), "%c%6d  %s", n == ref->line ? '>' : ' ', n, buf);
		err = screen_add(s, &cap, row, NULL, 0);
	}
	fclose(f);
	s->hl = ref->line - 1;
	if (s->hl >= 0 && (size_t)s->hl < s->nr) {
		s->cur = s->hl;
		s->top = s->hl > 10 ? s->hl - 10 : 0;
	}
	return err;
}

static const char help_text[] =
"hitmap report --tui keys\n"
"\n"
"  Up/Down, PgUp/PgDn, Home/End   move;  <, >  scroll sideways\n"
"  Enter        lines: open the line's offsets and code addresses\n"
"               line:  open the source of the code address (when known)\n"
"               buckets (b): the cache lines of the bucket (or futex object)\n"
"  d            lines: next sort key (tot, rmt, lcl, peer, cost), like -d\n"
"               futex tables: sort on the next column (D: the previous one);\n"
"               the first press after the last column: --stdio's order\n"
"  r            futex tables: reverse the order\n"
"  /            search this screen (case-insensitive); n: next match\n"
"  b, f, s      futex buckets, bucket fields, sockets (--by bucket|field|socket)\n"
"  i            totals (--stats)\n"
"  ?            this help\n"
"  Esc, q, Left back; q on the table quits\n"
"\n"
"The numbers are those of 'hitmap report --stdio' (and --by VIEW) for the same file.\n";

/* ================================================================ drawing */

/* @buf from column @left on (< >), as much as fits. */
static void put(int y, const char *buf, int left, int cols)
{
	int len = strlen(buf);

	if (left < len)
		mvaddnstr(y, 0, buf + left, cols);
}

static void draw(struct tui *t)
{
	struct screen *s = &t->st[t->depth];
	int rows, cols, body, y = 0;
	char buf[1200];

	getmaxyx(stdscr, rows, cols);
	erase();
	if (s->type == S_TABLE)
		hm_tui_table__header(s->tab, s->header, sizeof(s->header));
	body = rows - 3 - (s->header[0] != 0);
	if (body < 1)
		body = 1;
	if (s->cur < s->top)
		s->top = s->cur;
	if (s->cur >= s->top + (size_t)body)
		s->top = s->cur - body + 1;
	attron(A_REVERSE | A_BOLD);
	mvhline(y, 0, ' ', cols);
	mvaddnstr(y++, 0, s->title, cols);
	attroff(A_REVERSE | A_BOLD);
	if (s->header[0]) {
		attron(A_BOLD | A_UNDERLINE);
		put(y++, s->header, s->left, cols);
		attroff(A_BOLD | A_UNDERLINE);
	}
	int i;

	for (i = 0; i < body && s->top + i < s->nr; i++) {
		size_t k = s->top + i;
		bool sel = k == s->cur && s->type != S_TEXT;
		int len;

		row_text(t, s, k, buf, sizeof(buf));
		len = (int)strlen(buf) - s->left;
		if (len < 0)
			len = 0;
		if (sel || (s->type == S_SOURCE && (long)k == s->hl))
			attron(sel ? A_REVERSE : A_BOLD);
		put(y + i, buf, s->left, cols);
		if (sel)
			mvhline(y + i, len < cols ? len : cols - 1, ' ', cols - len > 0 ? cols - len : 0);
		attroff(A_REVERSE | A_BOLD);
	}
	/* a table's foot (the HITM matrix, the callers) under its last row */
	if (s->type == S_TABLE && s->top + i >= s->nr)
		for (size_t f = 0; f < hm_tui_table__nr_foot(s->tab) && i + 1 + (int)f < body; f++)
			put(y + i + 1 + (int)f, hm_tui_table__foot(s->tab, f), s->left, cols);
	if (!s->nr)
		mvaddnstr(y, 0, s->type == S_LINES ?
			  "no shared cache lines (no HITM or peer loads); b, f, s: futex views, i: totals" :
			  "(empty)", cols);
	snprintf(buf, sizeof(buf), "%zu/%zu  %s", s->nr ? s->cur + 1 : 0, s->nr,
		 t->msg[0] ? t->msg : s->type == S_LINES ?
		 "Enter: offsets  d: sort  /: search  b f s: futex views  i: totals  ?: help  q: quit" :
		 s->type == S_TABLE ? "d/D: sort column  r: reverse  /: search  </>: scroll  Enter: lines (buckets)  Esc/q: back" :
		 "Esc/q: back  /: search  n: next  ?: help");
	attron(A_REVERSE);
	mvhline(rows - 1, 0, ' ', cols);
	mvaddnstr(rows - 1, 0, buf, cols);
	attroff(A_REVERSE);
	refresh();
}

static bool contains(const char *hay, const char *needle)
{
	return strcasestr(hay, needle) != NULL;
}

static void search_next(struct tui *t)
{
	struct screen *s = &t->st[t->depth];
	char buf[1200];

	if (!t->search[0] || !s->nr)
		return;
	for (size_t i = 1; i <= s->nr; i++) {
		size_t k = (s->cur + i) % s->nr;

		row_text(t, s, k, buf, sizeof(buf));
		if (contains(buf, t->search)) {
			s->cur = k;
			snprintf(t->msg, sizeof(t->msg), "/%s: row %zu%s", t->search, k + 1,
				 k <= s->cur && i > s->nr - s->cur - 1 ? " (wrapped)" : "");
			return;
		}
	}
	snprintf(t->msg, sizeof(t->msg), "/%s: not found", t->search);
}

static void prompt_search(struct tui *t)
{
	int rows, cols;
	char buf[128];

	getmaxyx(stdscr, rows, cols);
	(void)cols;
	mvhline(rows - 1, 0, ' ', COLS);
	mvaddstr(rows - 1, 0, "/");
	echo();
	curs_set(1);
	if (getnstr(buf, sizeof(buf) - 1) == OK && buf[0])
		snprintf(t->search, sizeof(t->search), "%s", buf);
	noecho();
	curs_set(0);
	search_next(t);
}

static void pop(struct tui *t)
{
	if (t->depth > 0)
		screen_free(&t->st[t->depth--]);
}

int hm_tui__run(struct hm_report *r, const struct hm_tui_opts *o)
{
	struct tui *t;
	SCREEN *scr = NULL;
	FILE *tty = NULL;
	int ch, err = 0, tty_fd;
	bool quit = false;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -ENOTTY;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->r = r;
	t->o = o;
	t->sort = o->sort;
	t->st[0].hl = -1;
	if (hm_report__lines(r))
		for (size_t k = 0; k < hm_lines__count(hm_report__lines(r)); k++)
			t->all_cost += hm_lines__get(hm_report__lines(r), k)->cost;
	err = lines_build(t);
	if (err)
		goto out;
	setlocale(LC_ALL, "");
	/*
	 * The terminal itself, not the process's stdout: the CLI may have
	 * replaced stdout by a checked stream without a file descriptor.
	 */
	tty_fd = dup(STDOUT_FILENO);
	tty = tty_fd >= 0 ? fdopen(tty_fd, "w") : NULL;
	if (!tty) {
		if (tty_fd >= 0)
			close(tty_fd);
		err = -ENOTTY;
		goto out;
	}
	scr = newterm(NULL, tty, stdin);
	if (!scr) {
		err = -ENOTTY;
		goto out;
	}
	set_term(scr);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	/* no lines (contention mode): start on the buckets */
	if (!t->st[0].nr && hm_report__buckets(r))
		err = open_view(t, TV_BUCKET);
	if (o->t_ready > 0 && !err) {
		/* the first screen drawn and handed to the terminal: the time a user waits */
		draw(t);
		snprintf(t->msg, sizeof(t->msg), "ready %.0f ms after the pass (cpu %.0f ms); ? for help",
			 (hm_clock__mono() - o->t_ready) * 1000, (hm_clock__thread_cpu() - o->t_ready_cpu) * 1000);
	}
	while (!quit && !err) {
		struct screen *s = &t->st[t->depth];
		int rows = LINES - 4;

		draw(t);
		t->msg[0] = 0;
		ch = getch();
		switch (ch) {
		case KEY_UP: case 'k':
			if (s->cur)
				s->cur--;
			break;
		case KEY_DOWN: case 'j':
			if (s->cur + 1 < s->nr)
				s->cur++;
			break;
		case KEY_PPAGE:
			s->cur = s->cur > (size_t)rows ? s->cur - rows : 0;
			break;
		case KEY_NPAGE: case ' ':
			s->cur = s->nr ? (s->cur + rows < s->nr ? s->cur + rows : s->nr - 1) : 0;
			break;
		case KEY_HOME: case 'g':
			s->cur = 0;
			break;
		case KEY_END: case 'G':
			s->cur = s->nr ? s->nr - 1 : 0;
			break;
		case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT:
			if (s->type == S_LINES && s->nr)
				err = open_detail(t, s->lines[s->cur]);
			else if (s->type == S_DETAIL && s->nr)
				err = open_src(t, &s->src[s->cur]);
			else if (s->type == S_TABLE && s->nr)
				err = open_bucket_lines(t, s);
			break;
		case 'd': case 'D': case 'r':
			if (s->type == S_LINES && ch == 'd')
				err = lines_resort(t);
			else if (s->type == S_TABLE)
				table_sort(t, s, ch);
			break;
		case '<': case KEY_SLEFT:
			s->left = s->left > 8 ? s->left - 8 : 0;
			break;
		case '>': case KEY_SRIGHT:
			s->left += 8;
			break;
		case '/':
			prompt_search(t);
			break;
		case 'n':
			search_next(t);
			break;
		case 'b': err = open_view(t, TV_BUCKET); break;
		case 'f': err = open_view(t, TV_FIELD); break;
		case 's': err = open_view(t, TV_SOCKET); break;
		case 'i': err = open_view(t, TV_STATS); break;
		case '?': case 'h': err = open_text(t, "Help", help_text); break;
		case 27: case KEY_LEFT: case KEY_BACKSPACE:
			pop(t);
			break;
		case 'q':
			if (t->depth == 0)
				quit = true;
			else
				pop(t);
			break;
		case KEY_RESIZE:
			break;
		default:
			break;
		}
	}
	endwin();
out:
	if (scr)
		delscreen(scr);
	if (tty)
		fclose(tty);
	while (t->depth > 0)
		pop(t);
	screen_free(&t->st[0]);
	for (int v = 0; v < TV_STATS; v++)
		hm_tui_table__delete(t->tab[v]);
	free(t);
	return err;
}
