// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap script: one line per sample, like perf script, call chains one
 * frame a line under it; ip, sym, symoff, dso and srcline come from
 * script-sym.c.
 *
 * Built for speed: one big output buffer written with write(2), hand-rolled
 * integer formatting, no allocation per sample, a small cache for decoded
 * data_src strings.  Field order and widths follow perf script's so the two
 * outputs line up.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <hitmap/json.h>
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>
#include "cli.h"
#include "output.h"
#include "script-header.h"
#include "script-out.h"
#include "script-sym.h"
#include "script-threads.h"

static const char usage_text[] =
"usage: hitmap script -i FILE [-F FIELDS] [-G] [--ns] [--no-ordered] [--json]\n"
"\n"
"Print one line per sample of a perf.data file, as 'perf script' does, with\n"
"symbols.  FILE may be '-' for a pipe-mode stream.\n"
"\n"
"  -i, --input FILE    perf.data to read (default: perf.data)\n"
"  -F, --fields LIST   comma-separated fields, in any order (printed in perf's\n"
"                      order): comm,pid,tid,cpu,time,period,event,trace,ip,\n"
"                      sym,symoff,dso,srcline,addr,data_src,weight,ins_lat,\n"
"                      retire_lat,phys_addr,data_page_size,code_page_size.\n"
"                      '+f' / '-f' add to / remove from the default set.  A\n"
"                      field the event did not sample is an error.\n"
"  -G, --hide-call-graph  print ip alone, not the call chain of samples that\n"
"                      have one (by default one frame a line under the sample)\n"
"      --ns            print times in nanoseconds (default: microseconds)\n"
"      --no-ordered    print samples in file order, not sorted by time\n"
"      --json          print a JSON array, one object per sample\n"
"      --perf-compat V print as perf V script does: 6.1, 6.12 or 7.3 (default\n"
"                      7.3; data_src levels, pid width, comm after EXIT)\n"
"      --kallsyms FILE kernel symbols from FILE (default: this system's, when\n"
"                      the file's kernel is the running one)\n"
"  -k, --vmlinux FILE  kernel symbols (and source lines) from a vmlinux ELF\n"
"      --symfs DIR     look for user ELF files under DIR\n"
"      --header        print the file's header first, as perf script --header\n"
"      --header-only   print the header alone\n"
"  -I, --show-info     the header's features in full (perf's -I)\n"
"      --inline        add inlined functions to call chains, from DWARF (perf\n"
"                      7.3's default; perf 6.1 and 6.12 add none to the chains\n"
"                      the kernel records, and neither does hitmap for them)\n"
"      --no-inline     print call chains without inlined functions\n"
"  -h, --help          show this help\n";

enum {
	F_COMM = 1 << 0, F_PID = 1 << 1, F_TID = 1 << 2, F_CPU = 1 << 3,
	F_TIME = 1 << 4, F_PERIOD = 1 << 5, F_EVENT = 1 << 6, F_TRACE = 1 << 7,
	F_IP = 1 << 8, F_ADDR = 1 << 9, F_DATA_SRC = 1 << 10, F_WEIGHT = 1 << 11,
	F_INS_LAT = 1 << 12, F_PHYS_ADDR = 1 << 13, F_DPS = 1 << 14, F_CPS = 1 << 15,
	F_CALLCHAIN = 1 << 16,	/* not a field: ip prints the call chain, a frame a line */
	F_RETIRE_LAT = 1 << 17, F_SYM = 1 << 18, F_SYMOFF = 1 << 19, F_DSO = 1 << 20,
	F_SRCLINE = 1 << 21,
	F_NOIPOPTS = 1 << 22,	/* not a field: perf prints nothing for ip (see evsel_fields) */
};
#define F_SYMBOLS (F_SYM | F_SYMOFF | F_DSO | F_SRCLINE)

static const struct { const char *name; unsigned bit; u64 stype; } fields[] = {
	{ "comm", F_COMM, 0 },
	{ "pid", F_PID, PERF_SAMPLE_TID },
	{ "tid", F_TID, PERF_SAMPLE_TID },
	{ "cpu", F_CPU, PERF_SAMPLE_CPU },
	{ "time", F_TIME, PERF_SAMPLE_TIME },
	{ "period", F_PERIOD, PERF_SAMPLE_PERIOD },
	{ "event", F_EVENT, 0 },
	{ "trace", F_TRACE, PERF_SAMPLE_RAW },
	{ "ip", F_IP, PERF_SAMPLE_IP },
	{ "sym", F_SYM, 0 },
	{ "symoff", F_SYMOFF, 0 },
	{ "dso", F_DSO, 0 },
	{ "srcline", F_SRCLINE, 0 },
	{ "addr", F_ADDR, PERF_SAMPLE_ADDR },
	{ "data_src", F_DATA_SRC, PERF_SAMPLE_DATA_SRC },
	{ "weight", F_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT },
	{ "ins_lat", F_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT },
	{ "retire_lat", F_RETIRE_LAT, PERF_SAMPLE_WEIGHT_STRUCT },
	{ "phys_addr", F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR },
	{ "data_page_size", F_DPS, PERF_SAMPLE_DATA_PAGE_SIZE },
	{ "code_page_size", F_CPS, PERF_SAMPLE_CODE_PAGE_SIZE },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* ------------------------------------------------------------ data_src text */

#define DSRC_BITS 12

struct dsrc_cache {
	enum hm_perf_compat compat;
	u64	val[1 << DSRC_BITS];
	char	txt[1 << DSRC_BITS][104];
	u8	len[1 << DSRC_BITS];
	bool	used[1 << DSRC_BITS];
};

static const char *dsrc_text(struct dsrc_cache *c, u64 v, int *len)
{
	unsigned h = (unsigned)((v * 0x9e3779b97f4a7c15ULL) >> (64 - DSRC_BITS));

	if (!c->used[h] || c->val[h] != v) {
		c->val[h] = v;
		c->used[h] = true;
		c->txt[h][0] = 0;
		c->len[h] = 0;
		{
			/* src/mem/data_src.c: perf script's decoded text */
			int n = hm_data_src__scnprintf_v(v, c->compat, c->txt[h], sizeof(c->txt[h]));

			c->len[h] = n < 0 ? 0 : n >= (int)sizeof(c->txt[h]) ?
				    (int)sizeof(c->txt[h]) - 1 : n;
		}
	}
	*len = c->len[h];
	return c->txt[h];
}

/* perf's get_page_size_name(): "N/A", "4K", "2M", ... */
static int page_size_name(u64 v, char *b)
{
	static const char units[] = "BKMGTPE";
	int u = 0;

	if (!v) {
		memcpy(b, "N/A", 3);
		return 3;
	}
	while (v >= 1024 && !(v % 1024) && u < 6) {
		v /= 1024;
		u++;
	}
	{
		char t[24];
		int n = fmt_u64(t + sizeof(t), v);

		memcpy(b, t + sizeof(t) - n, n);
		if (u)
			b[n++] = units[u];
		return n;
	}
}

/* ------------------------------------------------------------------ script */

struct script {
	unsigned	want;		/* fields asked for */
	unsigned	add, del;	/* +f / -f */
	bool		user_set;
	bool		ns, json;
	bool		hide_callchain;	/* -G */
	bool		no_inline;	/* --no-inline */
	bool		header_only;	/* --header-only */
	struct hm_script_header hd;	/* --header, -I */
	enum hm_perf_compat compat;
	struct obuf	o;
	struct hm_script_threads threads;
	struct hm_script_sym *sym;	/* maps and symbols (script-sym.c), or NULL */
	const char	*kallsyms, *symfs, *vmlinux;
	struct dsrc_cache *dc;
	int		dsrc_maxlen;
	int		pid_width;	/* perf 6.1: %5d/%-5d; 6.12 and later: %7d/%-7d */
	int		name_width;
	char		**names;	/* per evsel */
	int		*name_len;
	unsigned	*evfields;	/* per evsel, 0: not decided yet */
	int		nnames;
	struct hm_json	*j;
	const struct hm_header *h;
	char		tpbuf[8192];
};

static int parse_fields(struct script *s, const char *arg)
{
	char *dup, *save = NULL, *tok;

	/* perf refuses this too ("Cannot set fields to 'none'") */
	if (!arg[strspn(arg, ",")]) {
		hm_cli__error("script: -F '%s' names no field; fix: name some, as in "
			      "-F comm,tid,time,addr, or leave -F out for the defaults", arg);
		return -EINVAL;
	}
	dup = strdup(arg);
	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int sign = 0;
		size_t i;

		if (*tok == '+' || *tok == '-')
			sign = *tok++ == '+' ? 1 : -1;
		for (i = 0; i < NFIELDS; i++)
			if (!strcmp(tok, fields[i].name))
				break;
		if (i == NFIELDS) {
			hm_cli__error("script: unknown field '%s' in -F; known: comm,pid,tid,cpu,"
				      "time,period,event,trace,ip,sym,symoff,dso,srcline,addr,data_src,"
				      "weight,ins_lat,retire_lat,phys_addr,data_page_size,code_page_size",
				      tok);
			free(dup);
			return -EINVAL;
		}
		if (sign > 0)
			s->add |= fields[i].bit;
		else if (sign < 0)
			s->del |= fields[i].bit;
		else {
			s->want |= fields[i].bit;
			s->user_set = true;
		}
	}
	free(dup);
	/* perf: "Cannot mix +-field with overridden fields" */
	if (s->user_set && (s->add || s->del)) {
		hm_cli__error("script: -F '%s' mixes +field/-field with a field list; fix: give "
			      "the whole list (-F time,cpu) or only changes (-F +cpu)", arg);
		return -EINVAL;
	}
	return 0;
}

/* --call-graph dwarf samples (user regs and stack): hitmap prints them as perf -G does */
static bool dwarf_type(u64 t)
{
	return (t & PERF_SAMPLE_REGS_USER) && (t & PERF_SAMPLE_STACK_USER);
}

/*
 * A sample type perf script prints call chains for (process_attr()'s
 * test), less the DWARF ones, which hitmap prints as perf -G does.
 */
static bool chain_type(u64 t)
{
	return (t & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK)) && !dwarf_type(t);
}

/*
 * perf script's default fields (its output[] table) for @e's type: ip,
 * sym, symoff, dso and period for every type but tracepoints; addr,
 * data_src, weight, phys_addr, the page sizes, ins_lat and (6.12 and
 * later) retire_lat for raw PMU events (PERF_TYPE_RAW) only.  Tracepoints
 * get ip, sym, symoff and dso when one of them has a call chain and no -F
 * was given (perf_session__check_output_opt()).
 */
static unsigned default_fields(const struct script *s, struct hm_reader *r,
			       const struct hm_evsel *e)
{
	u64 t = e->attr.sample_type;
	unsigned f = F_COMM | F_TID | F_EVENT;

	if (t & PERF_SAMPLE_CPU)
		f |= F_CPU;
	if (t & PERF_SAMPLE_TIME)
		f |= F_TIME;
	if (e->attr.type == PERF_TYPE_TRACEPOINT) {
		f |= F_TRACE;
		if (s->h->pipe || s->add || s->del || s->hide_callchain)
			return f;
		for (int i = 0; i < hm_reader__nr_evsels(r); i++) {
			const struct hm_evsel *o = hm_reader__evsel(r, i);

			if (o->attr.type == PERF_TYPE_TRACEPOINT &&
			    (o->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
				return f | F_IP | F_SYM | F_SYMOFF | F_DSO;
		}
		return f;
	}
	/* perf prints attr.sample_period when the samples do not carry one */
	f |= F_PERIOD | F_SYM | F_SYMOFF | F_DSO;
	if (t & PERF_SAMPLE_IP)
		f |= F_IP;
	if (e->attr.type != PERF_TYPE_RAW)
		return f;
	if (t & PERF_SAMPLE_ADDR)
		f |= F_ADDR;
	if (t & PERF_SAMPLE_DATA_SRC)
		f |= F_DATA_SRC;
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		f |= F_WEIGHT;
	/* ins_lat, and retire_lat from 6.12 */
	if (t & PERF_SAMPLE_WEIGHT_STRUCT)
		f |= F_INS_LAT | (s->compat == HM_PERF_6_1 ? 0 : F_RETIRE_LAT);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		f |= F_PHYS_ADDR;
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		f |= F_DPS;
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		f |= F_CPS;
	return f;
}

/*
 * Pipe mode: perf's process_attr() adds ip and sym to the fields of an
 * event's type (unless -F took them out) once an event with a call chain,
 * a branch stack or user stack has come, and sets what ip prints only for
 * the types it knows (below PERF_TYPE_MAX): an event of another PMU prints
 * nothing for ip.
 */
static unsigned pipe_fields(const struct script *s, struct hm_reader *r,
			    const struct hm_evsel *e, unsigned f)
{
	int first = -1;

	if (e->attr.type >= PERF_TYPE_MAX)
		return f | F_NOIPOPTS;
	for (int i = 0; i < hm_reader__nr_evsels(r) && first < 0; i++)
		if (chain_type(hm_reader__evsel(r, i)->attr.sample_type))
			first = i;
	if (first < 0 || s->hide_callchain)
		return f;
	for (int i = first; i < hm_reader__nr_evsels(r); i++)
		if (hm_reader__evsel(r, i)->attr.type == e->attr.type)
			return f | ((F_IP | F_SYM) & ~s->del);
	return f;
}

/* perf's sample_addr_correlates_sym(): page faults' data addresses have symbols too */
static bool addr_correlates(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_PAGE_FAULTS ||
						 a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
						 a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/* What the ip field prints (perf's print_ip_opts) for fields @f. */
static unsigned ip_opts(unsigned f)
{
	if (f & F_NOIPOPTS)
		return 0;
	return (f & F_IP ? HM_SIP_IP : 0) | (f & F_SYM ? HM_SIP_SYM : 0) |
	       (f & F_SYMOFF ? HM_SIP_SYMOFF : 0) | (f & F_DSO ? HM_SIP_DSO : 0) |
	       (f & F_SRCLINE ? HM_SIP_SRCLINE : 0);
}

/* perf's evsel__check_attr() refusals for -F's symbol fields; true after the error */
static bool symbol_fields_bad(const struct script *s, struct hm_reader *r,
			      const struct hm_evsel *e, unsigned f)
{
	const char *why = NULL;
	char nb[128];

	if ((f & (s->want | s->add) & (F_SYM | F_DSO)) &&
	    !(e->attr.sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR)))
		why = "sym and dso need an address, and the samples have neither ip nor addr";
	else if ((f & F_SYMOFF) && !(f & F_SYM))
		why = "symoff needs sym; add sym or drop symoff";
	else if ((f & F_SRCLINE) && !(f & F_IP))
		why = "srcline needs ip; add ip or drop srcline";
	if (!why)
		return false;
	hm_cli__error("%s: -F for '%s': %s", hm_reader__path(r),
		      hm_evsel__name_v(e, s->compat, nb, sizeof(nb)), why);
	return true;
}

/* Fields for evsel @e, checked once.  Returns 0 on a missing field (error printed). */
static unsigned evsel_fields(struct script *s, struct hm_reader *r, const struct hm_evsel *e)
{
	unsigned f;
	char nb[128];

	if (e->idx < s->nnames && s->evfields[e->idx])
		return s->evfields[e->idx];
	if (e->idx >= s->nnames) {
		int n = e->idx + 16;
		char **nn = realloc(s->names, n * sizeof(*nn));
		unsigned *nf;

		if (!nn)
			return 0;
		s->names = nn;
		nf = realloc(s->evfields, n * sizeof(*nf));
		if (!nf)
			return 0;
		s->evfields = nf;
		{
			int *nl = realloc(s->name_len, n * sizeof(int));

			if (!nl)
				return 0;
			s->name_len = nl;
		}
		for (int i = s->nnames; i < n; i++) {
			s->names[i] = NULL;
			s->evfields[i] = 0;
		}
		s->nnames = n;
	}
	f = s->user_set ? s->want : default_fields(s, r, e);
	f = (f | s->add) & ~s->del;
	if (s->h->pipe)
		f = pipe_fields(s, r, e, f);
	for (size_t i = 0; i < NFIELDS; i++) {
		bool have;

		if (!(f & fields[i].bit) || !fields[i].stype)
			continue;
		have = e->attr.sample_type & fields[i].stype;
		if (fields[i].bit == F_TRACE)
			have = e->attr.type == PERF_TYPE_TRACEPOINT && have;
		if (fields[i].bit == F_PERIOD)
			have = true;	/* attr.sample_period otherwise, as perf prints */
		if (have)
			continue;
		/* perf refuses a field -F names (list or +field) the samples lack */
		if ((s->want | s->add) & fields[i].bit) {
			hm_cli__error("%s: samples for '%s' do not have the %s field (sample_type "
				      "%#llx); drop '%s' from -F", hm_reader__path(r),
				      hm_evsel__name_v(e, s->compat, nb, sizeof(nb)), fields[i].name,
				      (unsigned long long)e->attr.sample_type, fields[i].name);
			return 0;
		}
		f &= ~fields[i].bit;
	}
	if ((s->user_set || s->add || s->del) && symbol_fields_bad(s, r, e, f))
		return 0;
	/*
	 * perf: with a call chain, ip is the chain (and comm is not padded).
	 * Not for --call-graph dwarf samples (user regs and stack): perf
	 * unwinds their user part, hitmap does not, and prints ip alone as
	 * perf -G does rather than a chain cut at the kernel.
	 */
	if ((f & F_IP) && !s->hide_callchain && (e->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    !dwarf_type(e->attr.sample_type))
		f |= F_CALLCHAIN;
	s->names[e->idx] = strdup(hm_evsel__name_v(e, s->compat, nb, sizeof(nb)));
	if (!s->names[e->idx])
		return 0;
	s->name_len[e->idx] = (int)strlen(s->names[e->idx]);
	/* perf pads event names to the longest one */
	for (int i = 0; i < hm_reader__nr_evsels(r); i++) {
		int n = (int)strlen(hm_evsel__name_v(hm_reader__evsel(r, i), s->compat, nb,
						       sizeof(nb)));

		if (n > s->name_width)
			s->name_width = n;
	}
	s->evfields[e->idx] = f | (1u << 31);
	return s->evfields[e->idx];
}

static const char *comm_of(struct script *s, u32 tid, char *tmp, int *len)
{
	const struct hm_script_thread *c = hm_script_threads__find(&s->threads, tid);

	if (c) {
		*len = c->len;
		return c->comm;
	}
	if (tid == 0) {
		*len = 7;
		return "swapper";
	}
	/* perf's ":%d": a sample of tid -1 (system-wide, no task) is ":-1" */
	*len = snprintf(tmp, 32, ":%d", (int)tid);
	return tmp;
}

static void print_text(struct script *s, const struct hm_sample *sm, unsigned f)
{
	struct obuf *o = &s->o;
	char tmp[32];

	if (f & F_COMM) {
		int cl;
		const char *c = comm_of(s, sm->tid, tmp, &cl);

		ob_pad(o, c, cl, f & F_CALLCHAIN ? 0 : 16, false);
		ob_ch(o, ' ');
	}
	if ((f & F_PID) && (f & F_TID)) {
		ob_s32(o, (s32)sm->pid, s->pid_width, false);
		ob_ch(o, '/');
		ob_s32(o, (s32)sm->tid, s->pid_width, true);
		ob_ch(o, ' ');
	} else if (f & F_PID) {
		ob_s32(o, (s32)sm->pid, s->pid_width, false);
		ob_ch(o, ' ');
	} else if (f & F_TID) {
		ob_s32(o, (s32)sm->tid, s->pid_width, false);
		ob_ch(o, ' ');
	}
	if (f & F_CPU) {
		char b[24];
		int n = fmt_u64(b + sizeof(b), sm->cpu);

		ob_ch(o, '[');
		if (n < 3)
			ob_str(o, "000", 3 - n);
		ob_str(o, b + sizeof(b) - n, n);
		ob_str(o, "] ", 2);
	}
	if (f & F_TIME) {
		u64 sec = sm->time / 1000000000ULL, frac = sm->time % 1000000000ULL;
		char b[24];
		int n, digits = s->ns ? 9 : 6;

		if (!s->ns)
			frac /= 1000;
		ob_u64(o, sec, 5, false);
		ob_ch(o, '.');
		n = fmt_u64(b + sizeof(b), frac);
		if (n < digits)
			ob_str(o, "000000000", digits - n);
		ob_str(o, b + sizeof(b) - n, n);
		ob_str(o, ": ", 2);
	}
	if (f & F_PERIOD) {
		ob_u64(o, sm->period, 10, false);
		ob_ch(o, ' ');
	}
	if (f & F_EVENT) {
		int i = sm->evsel->idx;

		ob_pad(o, s->names[i], s->name_len[i], s->name_width, false);
		ob_str(o, ": ", 2);
	}
	if ((f & F_TRACE) && sm->raw) {
		int n = hm_sample__format_tp(sm, s->h, s->tpbuf, sizeof(s->tpbuf));

		if (n > 0)
			ob_str(o, s->tpbuf, n);
	}
	if (f & F_ADDR) {
		ob_hex(o, sm->addr, 16);
		if (addr_correlates(&sm->evsel->attr))
			hm_script_sym__print_addr(s->sym, o, sm, ip_opts(f));
	}
	if (f & F_DATA_SRC) {
		char *d = ob_room(o, 160);
		char b[24];
		int n = fmt_hex(b + sizeof(b), sm->data_src), tl, len;
		const char *t = dsrc_text(s->dc, sm->data_src, &tl);

		len = n > 16 ? n : 16;
		memset(d, ' ', len - n);
		memcpy(d + len - n, b + sizeof(b) - n, n);
		d[len++] = ' ';
		memcpy(d + len, t, tl);
		len += tl;
		if (len > 99)
			len = 99;	/* perf formats into char out[100] */
		if (len > s->dsrc_maxlen)
			s->dsrc_maxlen = len;
		while (len < s->dsrc_maxlen)
			d[len++] = ' ';
		o->len += len;
	}
	if (f & F_WEIGHT)
		ob_u64(o, sm->weight, 16, false);
	if (f & F_INS_LAT)
		ob_u64(o, sm->ins_lat, 16, false);
	if (f & F_RETIRE_LAT)
		ob_u64(o, sm->weight3, 16, false);
	if (f & F_CALLCHAIN) {
		ob_ch(o, '\n');
		hm_script_sym__print_chain(s->sym, o, sm, ip_opts(f));
	} else if (f & F_IP) {
		ob_ch(o, ' ');
		hm_script_sym__print_ip(s->sym, o, sm, ip_opts(f));
	}

	if (f & F_PHYS_ADDR)
		ob_hex(o, sm->phys_addr, 16);
	if (f & F_DPS) {
		char b[24];
		int n = page_size_name(sm->data_page_size, b);

		ob_ch(o, ' ');
		ob_str(o, b, n);
	}
	if (f & F_CPS) {
		char b[24];
		int n = page_size_name(sm->code_page_size, b);

		ob_ch(o, ' ');
		ob_str(o, b, n);
	}
	ob_ch(o, '\n');
}

static void print_json(struct script *s, const struct hm_sample *sm, unsigned f)
{
	struct hm_json *j = s->j;
	char tmp[32];

	hm_json__obj_begin(j, NULL);
	if (f & F_COMM) {
		int cl;

		hm_json__str(j, "comm", comm_of(s, sm->tid, tmp, &cl));
	}
	if (f & F_PID)
		hm_json__s64(j, "pid", (s32)sm->pid);
	if (f & F_TID)
		hm_json__s64(j, "tid", (s32)sm->tid);
	if (f & F_CPU)
		hm_json__s64(j, "cpu", (s32)sm->cpu);
	if (f & F_TIME)
		hm_json__u64(j, "time", sm->time);
	if (f & F_PERIOD)
		hm_json__u64(j, "period", sm->period);
	if (f & F_EVENT)
		hm_json__str(j, "event", s->names[sm->evsel->idx]);
	if ((f & F_TRACE) && sm->raw) {
		int n = hm_sample__format_tp(sm, s->h, s->tpbuf, sizeof(s->tpbuf));

		hm_json__str(j, "trace", n >= 0 ? s->tpbuf : NULL);
		if (sm->evsel->tp_event) {
			struct tep_format_field *fl;

			hm_json__obj_begin(j, "fields");
			for (fl = sm->evsel->tp_event->format.fields; fl; fl = fl->next) {
				u64 v;

				if (fl->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
						 TEP_FIELD_IS_DYNAMIC))
					continue;
				if (!hm_sample__tp_field(sm, fl->name, &v))
					hm_json__u64(j, fl->name, v);
			}
			hm_json__obj_end(j);
		}
	}
	if (f & F_IP)
		hm_json__hex(j, "ip", sm->ip);
	if ((f & F_IP) && (f & (F_SYM | F_DSO))) {
		const char *sym, *dso;
		u64 off;

		hm_script_sym__name(s->sym, sm, sm->misc & PERF_RECORD_MISC_CPUMODE_MASK, sm->ip,
				    &sym, &off, &dso);
		if (f & F_SYM) {
			hm_json__str(j, "sym", sym);
			if (sym && (f & F_SYMOFF))
				hm_json__u64(j, "symoff", off);
		}
		if (f & F_DSO)
			hm_json__str(j, "dso", dso);
	}
	if (f & F_CALLCHAIN) {
		u64 end = hm_script_sym__chain_end(sm);

		hm_json__arr_begin(j, "callchain");
		for (u64 i = 0; i < end; i++)
			if (sm->callchain[i] < (u64)PERF_CONTEXT_MAX)
				hm_json__hex(j, NULL, sm->callchain[i]);
		hm_json__arr_end(j);
	}
	if (f & F_ADDR)
		hm_json__hex(j, "addr", sm->addr);
	if (f & F_DATA_SRC) {
		int tl;
		const char *t = dsrc_text(s->dc, sm->data_src, &tl);

		hm_json__hex(j, "data_src", sm->data_src);
		if (tl)
			hm_json__str(j, "data_src_decoded", t);
	}
	if (f & F_WEIGHT)
		hm_json__u64(j, "weight", sm->weight);
	if (f & F_INS_LAT)
		hm_json__u64(j, "ins_lat", sm->ins_lat);
	if (f & F_RETIRE_LAT)
		hm_json__u64(j, "retire_lat", sm->weight3);
	if (f & F_PHYS_ADDR)
		hm_json__hex(j, "phys_addr", sm->phys_addr);
	if (f & F_DPS)
		hm_json__u64(j, "data_page_size", sm->data_page_size);
	if (f & F_CPS)
		hm_json__u64(j, "code_page_size", sm->code_page_size);
	hm_json__obj_end(j);
}

/*
 * The maps (and symbols) the fields may need: symbols for sym, dso and
 * srcline; maps alone for perf 6.1's call chain frames (file-relative
 * user addresses).  0 or -ENOMEM.
 */
static int setup_sym(struct script *s, struct hm_reader *r)
{
	struct hm_script_sym_opts so = {
		.kallsyms = s->kallsyms, .symfs = s->symfs, .vmlinux = s->vmlinux,
		.compat = s->compat,
	};
	unsigned names = F_SYM | F_DSO | F_SRCLINE;
	bool chains = s->h->pipe;	/* pipe mode: the events come later */

	if (s->user_set && !s->h->pipe)
		so.symbols = s->want & names;
	else	/* the defaults, or pipe mode's added sym */
		so.symbols = ((F_SYM | F_DSO) & ~s->del) || ((s->want | s->add) & names);
	so.srcline = (s->want | s->add) & F_SRCLINE;
	for (int i = 0; i < hm_reader__nr_evsels(r); i++)
		if (hm_reader__evsel(r, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			chains = true;
	/*
	 * perf 7.3 adds inlined frames to call chains unless --no-inline;
	 * perf 6.1 and 6.12 (--inline or not) add none to the chains the
	 * kernel recorded (6.12 only to DWARF-unwound ones, which hitmap
	 * does not unwind).  Finding them needs the symbols.
	 */
	so.inlines = !s->no_inline && s->compat != HM_PERF_6_1 && s->compat != HM_PERF_6_12 &&
		     chains && !s->hide_callchain && !s->json;
	so.symbols = so.symbols || so.inlines;
	if (!so.symbols && (s->compat != HM_PERF_6_1 || s->hide_callchain || !chains))
		return 0;
	s->sym = hm_script_sym__new(s->h, &so);
	return s->sym ? 0 : -ENOMEM;
}

static int cmd_script(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "ns", no_argument, NULL, 'n' },
		{ "no-ordered", no_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
		{ "perf-compat", required_argument, NULL, 'P' },
		{ "hide-call-graph", no_argument, NULL, 'G' },
		{ "kallsyms", required_argument, NULL, 'K' },
		{ "symfs", required_argument, NULL, 'S' },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "no-inline", no_argument, NULL, 'W' },
		{ "inline", no_argument, NULL, 'L' },
		{ "header", no_argument, NULL, 'H' },
		{ "header-only", no_argument, NULL, 'O' },
		{ "show-info", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	enum hm_perf_compat compat = HM_PERF_NEWEST;
	const char *input = "perf.data";
	struct script *s;
	struct hm_reader_opts ro = { .ordered = true, .all_records = true };
	struct hm_reader *r = NULL;
	struct hm_event ev;
	int c, ret, rc = 0;

	s = calloc(1, sizeof(*s));
	if (!s)
		return hm_cli__error("script: out of memory");
	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:F:Gk:Ih", opts, NULL)) != -1) {
		switch (c) {
		case 'i': input = optarg; break;
		case 'F':
			if (parse_fields(s, optarg)) {
				rc = 2;
				goto out;
			}
			break;
		case 'n': s->ns = true; break;
		case 'u': ro.ordered = false; break;
		case 'j': s->json = true; break;
		case 'G': s->hide_callchain = true; break;
		case 'K': s->kallsyms = optarg; break;
		case 'S': s->symfs = optarg; break;
		case 'k': s->vmlinux = optarg; break;
		case 'W': s->no_inline = true; break;
		case 'L': s->no_inline = false; break;
		case 'H': s->hd.header = true; break;
		case 'O': s->hd.header = s->header_only = true; break;
		case 'I': s->hd.show_info = true; break;
		case 'P':
			if (hm_perf_compat__parse(optarg, &compat) < 0) {
				hm_cli__error("--perf-compat %s: unknown perf version; use one of "
					      HM_PERF_COMPAT_LIST, optarg);
				rc = 2;
				goto out;
			}
			break;
		case 'h': hm_cli__usage(usage_text); goto out;
		default: rc = hm_cli__bad_option("script", opts, argv, c); goto out;
		}
	}
	if (optind < argc) {
		rc = hm_cli__usage_error("script: unexpected argument '%s'; see 'hitmap script --help'",
				   argv[optind]);
		goto out;
	}
	if ((s->kallsyms && hm_in__check(s->kallsyms, "--kallsyms")) ||
	    (s->vmlinux && hm_in__check(s->vmlinux, "--vmlinux"))) {
		rc = 1;
		goto out;
	}
	s->o.p = malloc(OBUF_SIZE);
	s->dc = calloc(1, sizeof(*s->dc));
	if (!s->o.p || !s->dc) {
		rc = hm_cli__error("script: out of memory");
		goto out;
	}
	s->dc->compat = compat;
	s->hd.compat = compat;
	s->compat = compat;
	s->pid_width = compat == HM_PERF_6_1 ? 5 : 7;
	s->threads.exit_drops = compat != HM_PERF_6_1;

	s->o.fd = STDOUT_FILENO;
	r = hm_in__reader(input, &ro);
	if (!r) {
		rc = 1;
		goto out;
	}
	s->h = hm_reader__header(r);
	if (setup_sym(s, r) < 0)
		goto nomem;
	hm_script_header__begin(&s->hd, r, input);
	if (s->header_only)
		goto out;
	if (s->json) {
		s->j = hm_json__new(stdout, false);
		hm_json__arr_begin(s->j, NULL);
	}
	while ((ret = hm_reader__next(r, &ev)) > 0) {
		unsigned f;

		if (s->sym && hm_script_sym__event(s->sym, &ev) < 0)
			goto nomem;
		switch (ev.type) {
		case PERF_RECORD_SAMPLE:
			break;
		case PERF_RECORD_COMM: {
			const u32 *p = (const u32 *)ev.data;

			if (ev.size > 16 &&
			    hm_script_threads__comm(&s->threads, p[2], p[3], (const char *)ev.data + 16,
						    ev.size - 16) < 0)
				goto nomem;
			continue;
		}
		case HM_RECORD_HEADER_FEATURE:
			hm_script_header__feature(&s->hd, r, &ev, &s->o);
			continue;
		case PERF_RECORD_FORK:
		case PERF_RECORD_EXIT: {
			const u32 *p = (const u32 *)ev.data;

			if (ev.size < 24)
				continue;
			if (ev.type == PERF_RECORD_EXIT)
				hm_script_threads__exit(&s->threads, p[4]);
			else if (hm_script_threads__fork(&s->threads, p[2], p[3], p[4], p[5]) < 0)
				goto nomem;
			continue;
		}
		default:
			continue;
		}
		if (!ev.has_sample || !ev.sample.evsel)
			continue;
		f = evsel_fields(s, r, ev.sample.evsel);
		if (!f) {
			rc = 1;
			goto out;
		}
		if (hm_script_sym__sample(s->sym, &ev.sample) < 0)
			goto nomem;
		if (s->json)
			print_json(s, &ev.sample, f);
		else
			print_text(s, &ev.sample, f);
	}
	if (ret < 0) {
		ob_flush(&s->o);
		rc = hm_cli__lib_error(ret, input);
	}
	goto out;
nomem:
	rc = hm_cli__error("script: out of memory");
out:
	if (s->j) {
		hm_json__arr_end(s->j);
		hm_json__delete(s->j);
	}
	if (s->o.p) {
		ob_flush(&s->o);
		if (s->o.err && s->o.err != EPIPE && !rc)
			rc = hm_cli__error("<stdout>: cannot write: %s", strerror(s->o.err));
	}
	hm_reader__delete(r);
	for (int i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	free(s->evfields);
	free(s->name_len);
	hm_script_threads__release(&s->threads);
	hm_script_sym__delete(s->sym);
	free(s->dc);
	free(s->o.p);
	free(s);
	return rc;
}

HM_COMMAND("script", "print one line per sample (like perf script)", cmd_script)
