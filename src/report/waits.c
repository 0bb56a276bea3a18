// SPDX-License-Identifier: GPL-2.0-only
/* Contention mode: callers from call chains, and their waits (like perf lock contention). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/waits.h"
#include "util/htab.h"

struct caller {
	const char	*name;		/* owned: its hash in the u64 before it (name_of) */
	u64		n, waits, total_ns, max_ns;
};

struct hm_waits {
	struct caller	*c;
	unsigned	nr, alloc;	/* open addressing, alloc a power of two */
};

/* Lock internals and tracing glue: never "the caller". */
static bool lock_internal(const char *fn)
{
	static const char *const pfx[] = {
		"__pv_queued_spin_lock", "native_queued_spin_lock", "queued_spin_lock", "pv_queued_spin_lock",
		"_raw_spin_lock", "__raw_spin_lock", "do_raw_spin_lock", "raw_spin_lock", "_raw_read_lock",
		"_raw_write_lock", "queued_read_lock", "queued_write_lock", "rwsem_down", "__rwsem",
		"mutex_lock", "__mutex_lock", "mutex_spin_on_owner", "rt_mutex", "__rt_mutex", "osq_lock",
		"trace_contention", "__traceiter_contention", "perf_trace", "perf_tp_event", "trace_event",
		"__bpf_trace", NULL,
	};
	int i;

	for (i = 0; pfx[i]; i++)
		if (!strncmp(fn, pfx[i], strlen(pfx[i])))
			return true;
	return false;
}

int hm_waits__caller(struct hm_symbols *syms, const struct hm_maps *maps, const struct hm_sample *s,
		     char *buf, size_t size)
{
	struct hm_symbol_info info;
	size_t len = 0;
	int frames = 0;
	u8 mode = PERF_RECORD_MISC_KERNEL;

	*buf = 0;
	if (!(s->sample_type & PERF_SAMPLE_CALLCHAIN) || !s->callchain || !syms)
		return 0;
	for (u64 i = 0; i < s->callchain_nr && frames < 2; i++) {
		u64 ip = s->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {	/* PERF_CONTEXT_KERNEL/USER markers */
			mode = ip == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
			continue;
		}
		if (hm_symbols__resolve(syms, maps, s->pid, mode, ip, &info) < 0 || !info.name)
			continue;
		if (!frames && lock_internal(info.name))
			continue;
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s", frames ? " <- " : "", info.name);
		frames++;
	}
	return frames > 0;
}

bool hm_waits__bucket_site(const char *chain)
{
	static const char *const not_bucket[] = {
		"futex_hash_allocate", "futex_private_hash", "futex_pivot", "futex_ref", "futex_hash_free",
		"futex_mm_init", "futex_hash_prctl", "futex_exit", "futex_exec", "futex_cleanup", NULL,
	};
	int i;

	/* prefixes of the first frame (no prefix holds the " <- " separator) */
	if (strncmp(chain, "futex_", 6) && strncmp(chain, "__futex_", 8) && strncmp(chain, "double_lock_hb", 14))
		return false;
	for (i = 0; not_bucket[i]; i++)
		if (!strncmp(chain, not_bucket[i], strlen(not_bucket[i])))
			return false;
	return true;
}

struct hm_waits *hm_waits__new(void)
{
	return calloc(1, sizeof(struct hm_waits));
}

void hm_waits__delete(struct hm_waits *w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < w->alloc; i++)
		if (w->c[i].name)
			free((char *)w->c[i].name - sizeof(u64));
	free(w->c);
	free(w);
}

/* An interned name's hash: kept before it, so that begin and end (every event) do not hash the string. */
static u64 interned_hash(const char *name)
{
	u64 h;

	memcpy(&h, name - sizeof(h), sizeof(h));
	return h;
}

/* @name's slot; @by_ptr: @name is interned (compare pointers, hash kept) */
static struct caller *slot(struct hm_waits *w, const char *name, bool by_ptr)
{
	unsigned mask, i;

	if (!w->alloc)
		return NULL;
	mask = w->alloc - 1;
	for (i = (by_ptr ? interned_hash(name) : hm_hash_str(name)) & mask;; i = (i + 1) & mask) {
		struct caller *c = &w->c[i];

		if (!c->name || (by_ptr ? c->name == name : !strcmp(c->name, name)))
			return c;
	}
}

const char *hm_waits__intern(struct hm_waits *w, const char *name)
{
	struct caller *c;

	if (2 * (w->nr + 1) > w->alloc) {
		unsigned n = w->alloc ? 2 * w->alloc : 64, old = w->alloc;
		struct caller *oc = w->c, *nc = calloc(n, sizeof(*nc));

		if (!nc)
			return NULL;
		w->c = nc;
		w->alloc = n;
		for (unsigned i = 0; i < old; i++)
			if (oc[i].name)
				*slot(w, oc[i].name, true) = oc[i];
		free(oc);
	}
	c = slot(w, name, false);
	if (!c->name) {
		size_t len = strlen(name) + 1;
		u64 h = hm_hash_str(name);
		char *p = malloc(sizeof(h) + len);

		if (!p)
			return NULL;
		memcpy(p, &h, sizeof(h));
		memcpy(p + sizeof(h), name, len);
		c->name = p + sizeof(h);
		w->nr++;
	}
	return c->name;
}

int hm_waits__begin(struct hm_waits *w, const char *name)
{
	struct caller *c = name ? slot(w, name, true) : NULL;

	if (!c || !c->name)
		return -ENOENT;
	c->n++;
	return 0;
}

void hm_waits__end(struct hm_waits *w, const char *name, u64 ns)
{
	struct caller *c = name ? slot(w, name, true) : NULL;

	if (!c || !c->name)
		return;
	c->waits++;
	c->total_ns += ns;
	if (ns > c->max_ns)
		c->max_ns = ns;
}

unsigned hm_waits__count(const struct hm_waits *w)
{
	return w ? w->nr : 0;
}

static int cmp_caller(const void *a, const void *b)
{
	const struct caller *x = *(const struct caller *const *)a, *y = *(const struct caller *const *)b;

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const struct caller **sorted(const struct hm_waits *w, unsigned *n)
{
	const struct caller **v = malloc((w->nr + 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (unsigned i = 0; i < w->alloc; i++)
		if (w->c[i].name && w->c[i].n)
			v[(*n)++] = &w->c[i];
	qsort(v, *n, sizeof(*v), cmp_caller);
	return v;
}

struct hm_waits_row *hm_waits__rows(const struct hm_waits *w, unsigned *n)
{
	const struct caller **v;
	struct hm_waits_row *out;

	*n = 0;
	if (!w)
		return calloc(1, sizeof(*out));
	v = sorted(w, n);
	out = v ? calloc(*n + 1, sizeof(*out)) : NULL;
	for (unsigned i = 0; out && i < *n; i++)
		out[i] = (struct hm_waits_row){ .caller = v[i]->name, .contended = v[i]->n,
						.waits = v[i]->waits, .wait_ns = v[i]->total_ns,
						.max_ns = v[i]->max_ns };
	free(v);
	if (!out) {
		*n = 0;
		errno = ENOMEM;
	}
	return out;
}

int hm_waits__render_text(const struct hm_waits *w, FILE *f)
{
	const struct caller **v;
	unsigned n;

	if (!w || !w->nr)
		return 0;
	v = sorted(w, &n);
	if (!v)
		return -ENOMEM;
	fprintf(f, "\nContention on bucket locks by caller (kernel call chain; like perf lock contention)\n\n");
	fprintf(f, "%10s %12s %10s %10s  %s\n", "CONTENDED", "TOTAL_WAIT_US", "AVG_US", "MAX_US", "CALLER");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%10" PRIu64 " %12.1f %10.2f %10.1f  %s\n", v[i]->n, v[i]->total_ns / 1e3,
			v[i]->waits ? v[i]->total_ns / 1e3 / v[i]->waits : 0.0, v[i]->max_ns / 1e3, v[i]->name);
	free(v);
	return 0;
}

void hm_waits__render_json(const struct hm_waits *w, struct hm_json *j, const char *key)
{
	const struct caller **v;
	unsigned n;

	hm_json__arr_begin(j, key);
	v = w ? sorted(w, &n) : NULL;
	for (unsigned i = 0; v && i < n; i++) {
		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "caller", v[i]->name);
		hm_json__u64(j, "contended", v[i]->n);
		hm_json__u64(j, "wait_ns", v[i]->total_ns);
		hm_json__u64(j, "avg_wait_ns", v[i]->waits ? v[i]->total_ns / v[i]->waits : 0);
		hm_json__u64(j, "max_wait_ns", v[i]->max_ns);
		hm_json__obj_end(j);
	}
	free(v);
	hm_json__arr_end(j);
}
