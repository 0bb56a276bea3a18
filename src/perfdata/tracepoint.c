// SPDX-License-Identifier: GPL-2.0-only
/*
 * TRACING_DATA (feature 1 in file mode, HEADER_TRACING_DATA in pipe mode):
 * the blob perf's trace-event-info.c writes, parsed here with libtraceevent
 * so that RAW tracepoint samples decode to named fields.
 *
 *   "\027\010\104tracing" version\0 endian(1) long_size(1) u32 page_size
 *   "header_page\0" u64 size data   "header_event\0" u64 size data
 *   u32 nr_ftrace { u64 size; format }      u32 nr_systems { name\0; u32 nr { u64 size; format } }
 *   u32 kallsyms_size data   u32 printk_size data   [>= 0.6: u64 cmdlines_size data]
 */
#include <errno.h>
#include <stdlib.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "reader-int.h"

struct tcur {
	const u8	*p, *end;
	bool		big;	/* file is big-endian */
	bool		err;
};

static const u8 *t_bytes(struct tcur *c, u64 n)
{
	const u8 *p = c->p;

	if (c->err || (u64)(c->end - c->p) < n) {
		c->err = true;
		return NULL;
	}
	c->p += n;
	return p;
}

static u64 t_num(struct tcur *c, int n)
{
	const u8 *p = t_bytes(c, n);
	u64 v = 0;

	if (!p)
		return 0;
	for (int i = 0; i < n; i++)
		v |= (u64)p[c->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static const char *t_str(struct tcur *c)
{
	const u8 *p = c->p;
	size_t n;

	if (c->err)
		return NULL;
	n = strnlen((const char *)p, c->end - c->p);
	if (p + n >= c->end) {
		c->err = true;
		return NULL;
	}
	c->p += n + 1;
	return (const char *)p;
}

int hm_tracing__parse(struct hm_header *h, const u8 *buf, u64 size, u64 *used)
{
	static const u8 magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct tcur c = { .p = buf, .end = buf + size };
	struct tep_handle *tep;
	const char *ver;
	const u8 *p;
	u64 n, sz;
	int long_size, page_size;
	char *tmp = NULL;

	p = t_bytes(&c, sizeof(magic));
	if (!p || memcmp(p, magic, sizeof(magic)))
		return -EINVAL;
	ver = t_str(&c);
	p = t_bytes(&c, 2);
	if (!ver || !p)
		return -EINVAL;
	c.big = p[0];
	long_size = p[1];
	page_size = (int)t_num(&c, 4);
	if (c.err)
		return -EINVAL;

	tep = tep_alloc();
	if (!tep)
		return -ENOMEM;
	tep_set_flag(tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(tep, c.big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, page_size);

	/* header_page */
	p = t_bytes(&c, 12);
	if (!p || memcmp(p, "header_page", 12))
		goto bad;
	sz = t_num(&c, 8);
	p = t_bytes(&c, sz);
	if (!p)
		goto bad;
	tmp = malloc(sz + 1);
	if (!tmp)
		goto bad;
	memcpy(tmp, p, sz);
	tmp[sz] = 0;
	if (!tep_parse_header_page(tep, tmp, sz, tep_get_long_size(tep)))
		tep_set_long_size(tep, tep_get_header_page_size(tep));
	free(tmp);
	tmp = NULL;
	/* header_event */
	p = t_bytes(&c, 13);
	if (!p || memcmp(p, "header_event", 13))
		goto bad;
	sz = t_num(&c, 8);
	if (!t_bytes(&c, sz))
		goto bad;

	/* ftrace formats */
	n = t_num(&c, 4);
	for (u64 i = 0; i < n && !c.err; i++) {
		sz = t_num(&c, 8);
		p = t_bytes(&c, sz);
		if (p)
			tep_parse_event(tep, (const char *)p, sz, "ftrace");
	}
	/* event formats by system */
	n = t_num(&c, 4);
	for (u64 i = 0; i < n && !c.err; i++) {
		const char *sys = t_str(&c);
		u64 cnt = t_num(&c, 4);

		for (u64 j = 0; j < cnt && !c.err; j++) {
			sz = t_num(&c, 8);
			p = t_bytes(&c, sz);
			if (p && sys)
				tep_parse_event(tep, (const char *)p, sz, sys);
		}
	}
	if (c.err)
		goto bad;
	/* kallsyms, printk formats, saved cmdlines: not needed; tolerate absence */
	sz = t_num(&c, 4);
	t_bytes(&c, sz);
	if (!c.err) {
		sz = t_num(&c, 4);
		t_bytes(&c, sz);
	}
	if (!c.err && atof(ver) >= 0.6 && c.p < c.end) {
		sz = t_num(&c, 8);
		t_bytes(&c, sz);
	}
	if (h->tep)
		tep_free(h->tep);
	h->tep = tep;
	if (used)
		*used = c.p - buf;
	return 0;
bad:
	free(tmp);
	tep_free(tep);
	return -EINVAL;
}

void hm_tracing__attach(struct hm_reader *r)
{
	struct hm_header *h = hm_reader__hdr(r);

	if (!h->tep)
		return;
	for (int i = 0; i < hm_reader__nr_evsel_int(r); i++) {
		struct hm_evsel *e = hm_reader__evsel_int(r, i);

		if (e->attr.type == PERF_TYPE_TRACEPOINT && !e->tp_event) {
			e->tp_event = tep_find_event(h->tep, (int)e->attr.config);
			if (e->tp_event && !e->name) {
				char buf[256];

				snprintf(buf, sizeof(buf), "%s:%s", e->tp_event->system,
					 e->tp_event->name);
				e->name = strdup(buf);
			}
		}
	}
}

int hm_sample__format_tp(const struct hm_sample *s, const struct hm_header *h,
			 char *buf, size_t size)
{
	static __thread struct trace_seq seq;
	static __thread bool seq_init;
	struct tep_record rec;
	struct tep_event *ev;
	size_t n;

	if (!s || !s->evsel || !h || !h->tep || !s->raw || !size)
		return -EINVAL;
	ev = s->evsel->tp_event;
	if (!ev)
		return -ENOENT;
	if (!seq_init) {
		trace_seq_init(&seq);
		seq_init = true;
	}
	trace_seq_reset(&seq);
	memset(&rec, 0, sizeof(rec));
	rec.ts = s->time;
	rec.cpu = (int)s->cpu;
	rec.size = (int)s->raw_size;
	rec.data = (void *)s->raw;
	tep_print_event(h->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	n = seq.len < size - 1 ? seq.len : size - 1;
	memcpy(buf, seq.buffer, n);
	buf[n] = 0;
	return (int)n;
}

int hm_sample__tp_field(const struct hm_sample *s, const char *field, u64 *val)
{
	struct tep_format_field *f;
	unsigned long long v;

	if (!s || !s->evsel || !s->evsel->tp_event || !s->raw)
		return -EINVAL;
	f = tep_find_any_field(s->evsel->tp_event, field);
	if (!f)
		return -ENOENT;
	if ((u64)f->offset + f->size > s->raw_size)
		return -ERANGE;
	if (tep_read_number_field(f, s->raw, &v))
		return -EINVAL;
	*val = v;
	return 0;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define HM_ASAN 1
#endif
#ifdef HM_ASAN
/*
 * libtraceevent 1.7 leaks small buffers when tep_parse_event() fails on a
 * malformed format (corrupt TRACING_DATA); that is its bug, not ours.
 * Under ASan/LSan (make SAN=1, make fuzz) keep those out of leak reports.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}
#endif
