// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap script: one line per sample, like perf script (without symbols),
 * call chains one frame a line under it.
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
#include <hitmap/symbols.h>
#include "cli.h"
#include "output.h"
#include "script-threads.h"

static const char usage_text[] =
"usage: hitmap script -i FILE [-F FIELDS] [-G] [--ns] [--no-ordered] [--json]\n"
"\n"
"Print one line per sample of a perf.data file, like 'perf script' but\n"
"without symbol resolution.  FILE may be '-' for a pipe-mode stream.\n"
"\n"
"  -i, --input FILE    perf.data to read (default: perf.data)\n"
"  -F, --fields LIST   comma-separated fields, in any order (printed in perf's\n"
"                      order): comm,pid,tid,cpu,time,period,event,trace,ip,\n"
"                      addr,data_src,weight,ins_lat,retire_lat,phys_addr,\n"
"                      data_page_size,code_page_size.  '+f' / '-f' add to /\n"
"                      remove from the default set.  A field the event did not\n"
"                      sample is an error.\n"
"  -G, --hide-call-graph  print ip alone, not the call chain of samples that\n"
"                      have one (by default one frame a line under the sample)\n"
"      --ns            print times in nanoseconds (default: microseconds)\n"
"      --no-ordered    print samples in file order, not sorted by time\n"
"      --json          print a JSON array, one object per sample\n"
"      --perf-compat V print as perf V script does: 6.1, 6.12 or 7.3 (default\n"
"                      7.3; data_src levels, pid width, comm after EXIT)\n"
"  -h, --help          show this help\n";

enum {
	F_COMM = 1 << 0, F_PID = 1 << 1, F_TID = 1 << 2, F_CPU = 1 << 3,
	F_TIME = 1 << 4, F_PERIOD = 1 << 5, F_EVENT = 1 << 6, F_TRACE = 1 << 7,
	F_IP = 1 << 8, F_ADDR = 1 << 9, F_DATA_SRC = 1 << 10, F_WEIGHT = 1 << 11,
	F_INS_LAT = 1 << 12, F_PHYS_ADDR = 1 << 13, F_DPS = 1 << 14, F_CPS = 1 << 15,
	F_CALLCHAIN = 1 << 16,	/* not a field: ip prints the call chain, a frame a line */
	F_RETIRE_LAT = 1 << 17,
};

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

/* ------------------------------------------------------------ output buffer */

#define OBUF_SIZE (1u << 20)

struct obuf {
	char	*p;
	size_t	len;
	int	fd;
	int	err;
};

static void ob_flush(struct obuf *o)
{
	size_t done = 0;

	while (done < o->len && !o->err) {
		ssize_t n = write(o->fd, o->p + done, o->len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			o->err = errno;
			break;
		}
		done += n;
	}
	o->len = 0;
}

static inline char *ob_room(struct obuf *o, size_t n)
{
	if (o->len + n > OBUF_SIZE)
		ob_flush(o);
	return o->p + o->len;
}

static inline void ob_str(struct obuf *o, const char *s, size_t n)
{
	if (n > OBUF_SIZE / 2)
		n = OBUF_SIZE / 2;
	memcpy(ob_room(o, n), s, n);
	o->len += n;
}

static inline void ob_ch(struct obuf *o, char c)
{
	*ob_room(o, 1) = c;
	o->len++;
}

/* right-aligned in @width (left-aligned when @left) */
static inline void ob_pad(struct obuf *o, const char *s, size_t n, int width, bool left)
{
	char *d = ob_room(o, n + (width > 0 ? width : 0));
	size_t pad = width > (int)n ? width - n : 0;

	if (!left) {
		memset(d, ' ', pad);
		memcpy(d + pad, s, n);
	} else {
		memcpy(d, s, n);
		memset(d + n, ' ', pad);
	}
	o->len += n + pad;
}

static inline int fmt_u64(char *end, u64 v)
{
	char *p = end;

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	return (int)(end - p);
}

static inline int fmt_hex(char *end, u64 v)
{
	static const char hex[] = "0123456789abcdef";
	char *p = end;

	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	return (int)(end - p);
}

static inline int ndigits(u64 v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* decimal straight into the buffer, right- or left-aligned in @width */
static inline void ob_udec(struct obuf *o, u64 v, int width, bool left, bool neg)
{
	int n = ndigits(v) + neg, pad = width > n ? width - n : 0;
	char *d = ob_room(o, n + pad), *p;

	if (!left)
		for (int i = 0; i < pad; i++)
			*d++ = ' ';
	p = d + n;
	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	if (neg)
		*--p = '-';
	d += n;
	if (left)
		for (int i = 0; i < pad; i++)
			*d++ = ' ';
	o->len = d - o->p;
}

static inline void ob_u64(struct obuf *o, u64 v, int width, bool left)
{
	ob_udec(o, v, width, left, false);
}

static inline void ob_s32(struct obuf *o, s32 v, int width, bool left)
{
	if (v >= 0)
		ob_udec(o, (u64)v, width, left, false);
	else
		ob_udec(o, (u64)-(s64)v, width, left, true);
}

static inline void ob_hex(struct obuf *o, u64 v, int width)
{
	static const char hex[] = "0123456789abcdef";
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1, pad = width > n ? width - n : 0;
	char *d = ob_room(o, n + pad), *p;

	for (int i = 0; i < pad; i++)
		*d++ = ' ';
	p = d + n;
	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	o->len = d + n - o->p;
}

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
	enum hm_perf_compat compat;
	struct obuf	o;
	struct hm_script_threads threads;
	struct hm_maps	*maps;		/* perf 6.1: call chain frames of user maps */
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
				      "time,period,event,trace,ip,addr,data_src,weight,ins_lat,retire_lat,"
				      "phys_addr,data_page_size,code_page_size (no symbols: use "
				      "perf script for sym/dso)", tok);
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

static unsigned default_fields(const struct script *s, const struct hm_evsel *e)
{
	u64 t = e->attr.sample_type;
	unsigned f = F_COMM | F_TID | F_EVENT;

	if (t & PERF_SAMPLE_CPU)
		f |= F_CPU;
	if (t & PERF_SAMPLE_TIME)
		f |= F_TIME;
	if (e->attr.type == PERF_TYPE_TRACEPOINT) {
		f |= F_TRACE;
		return f;
	}
	/* perf prints attr.sample_period when the samples do not carry one */
	f |= F_PERIOD;
	if (t & PERF_SAMPLE_IP)
		f |= F_IP;
	if (t & PERF_SAMPLE_ADDR)
		f |= F_ADDR;
	if (t & PERF_SAMPLE_DATA_SRC)
		f |= F_DATA_SRC;
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		f |= F_WEIGHT;
	/* perf's defaults for raw PMU events: ins_lat, and retire_lat from 6.12 */
	if (e->attr.type == PERF_TYPE_RAW && (t & PERF_SAMPLE_WEIGHT_STRUCT))
		f |= F_INS_LAT | (s->compat == HM_PERF_6_1 ? 0 : F_RETIRE_LAT);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		f |= F_PHYS_ADDR;
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		f |= F_DPS;
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		f |= F_CPS;
	return f;
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
	f = s->user_set ? s->want : default_fields(s, e);
	f = (f | s->add) & ~s->del;
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
		if (s->user_set && (s->want & fields[i].bit)) {
			hm_cli__error("%s: samples for '%s' do not have the %s field (sample_type "
				      "%#llx); drop '%s' from -F", hm_reader__path(r),
				      hm_evsel__name_v(e, s->compat, nb, sizeof(nb)), fields[i].name,
				      (unsigned long long)e->attr.sample_type, fields[i].name);
			return 0;
		}
		f &= ~fields[i].bit;
	}
	/*
	 * perf: with a call chain, ip is the chain (and comm is not padded).
	 * Not for --call-graph dwarf samples (user regs and stack): perf
	 * unwinds their user part, hitmap does not, and prints ip alone as
	 * perf -G does rather than a chain cut at the kernel.
	 */
	if ((f & F_IP) && !s->hide_callchain && (e->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    (~e->attr.sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)))
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

/*
 * The frames perf script prints of @sm's call chain, as its
 * thread__resolve_callchain_sample() takes them (callee first): context
 * markers (kernel, user, hypervisor) are skipped, at most 127 frames
 * (PERF_MAX_STACK_DEPTH) are kept, and an unknown marker (guest contexts
 * among them) discards the whole chain.  Returns how many of the entries
 * to walk, or 0 for none.
 */
static u64 callchain_end(const struct hm_sample *sm)
{
	u64 i, frames = 0;

	if (!sm->callchain)
		return 0;
	for (i = 0; i < sm->callchain_nr && frames < 127; i++) {
		u64 ip = sm->callchain[i];

		if (ip < (u64)PERF_CONTEXT_MAX)
			frames++;
		else if (ip != (u64)PERF_CONTEXT_HV && ip != (u64)PERF_CONTEXT_KERNEL &&
			 ip != (u64)PERF_CONTEXT_USER)
			return 0;
	}
	return i;
}

/* perf's identity__map_ip() maps: anonymous memory, [heap], [stack*], /SYSV* */
static bool map__is_identity(const struct hm_map *m)
{
	const char *f = m->filename ? m->filename : "";

	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || !strncmp(f, "[stack", 6) ||
	       !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

/*
 * A frame's address as perf prints it.  perf 6.1 prints a frame found in a
 * user map of the thread relative to the file (ip - start + pgoff, as
 * map__map_ip() gives it), every other one as it is; later perfs print
 * them all as they are.
 */
static u64 frame_ip(const struct script *s, const struct hm_sample *sm, u8 cpumode, u64 ip)
{
	const struct hm_map *m;

	if (!s->maps || cpumode != PERF_RECORD_MISC_USER)
		return ip;
	m = hm_maps__find_thread(s->maps, sm->pid, sm->tid, cpumode, ip);
	if (!m || m->kernel || m->type != HM_MAP_USER || map__is_identity(m))
		return ip;
	return ip - m->start + m->pgoff;
}

/* perf's sample__fprintf_callchain() with ip alone: "\t%16lx\n" a frame */
static void print_callchain(struct script *s, const struct hm_sample *sm)
{
	u64 end = callchain_end(sm);
	u8 cpumode = sm->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	for (u64 i = 0; i < end; i++) {
		u64 ip = sm->callchain[i];

		if (ip >= (u64)PERF_CONTEXT_MAX) {
			cpumode = ip == (u64)PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL :
				  ip == (u64)PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER :
				  PERF_RECORD_MISC_HYPERVISOR;
			continue;
		}
		ob_ch(&s->o, '\t');
		ob_hex(&s->o, frame_ip(s, sm, cpumode, ip), 16);
		ob_ch(&s->o, '\n');
	}
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
	if (f & F_ADDR)
		ob_hex(o, sm->addr, 16);
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
		print_callchain(s, sm);
	} else if (f & F_IP) {
		ob_ch(o, ' ');
		ob_hex(o, sm->ip, 16);
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
	if (f & F_CALLCHAIN) {
		u64 end = callchain_end(sm);

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
	while ((c = getopt_long(argc, argv, ":i:F:Gh", opts, NULL)) != -1) {
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
	s->o.p = malloc(OBUF_SIZE);
	s->dc = calloc(1, sizeof(*s->dc));
	if (!s->o.p || !s->dc) {
		rc = hm_cli__error("script: out of memory");
		goto out;
	}
	s->dc->compat = compat;
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
	if (compat == HM_PERF_6_1 && !s->hide_callchain) {
		bool chains = s->h->pipe;	/* pipe mode: the events come later */

		for (int i = 0; i < hm_reader__nr_evsels(r); i++)
			if (hm_reader__evsel(r, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
				chains = true;
		if (chains && !(s->maps = hm_maps__new()))
			goto nomem;
	}
	if (s->json) {
		s->j = hm_json__new(stdout, false);
		hm_json__arr_begin(s->j, NULL);
	}
	while ((ret = hm_reader__next(r, &ev)) > 0) {
		unsigned f;

		if (s->maps && ev.type != PERF_RECORD_SAMPLE && ev.type < HM_RECORD_HEADER_ATTR &&
		    hm_maps__process(s->maps, &ev) == -ENOMEM)
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
	hm_maps__delete(s->maps);
	free(s->dc);
	free(s->o.p);
	free(s);
	return rc;
}

HM_COMMAND("script", "print one line per sample (like perf script, without symbols)", cmd_script)
