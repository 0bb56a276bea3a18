// SPDX-License-Identifier: GPL-2.0-only
/*
 * The samples futex table inference reads (hitmap/futex_infer.h), from a
 * pre-scan of a perf.data or from the report's own pass.
 *
 * The observer is the one filter and classifier of both: a sample counts
 * when kernel code touched kernel data and its IP is in futex code (a
 * spin-lock function counts when a futex function called it: the call
 * chain); it adds the line, offset, process, thread and the data's node.
 *
 * The futex views (buckets, fields, sockets, the HTML page, the diff
 * metrics) key their aggregates on the table and index each sample
 * resolves to during the pass, so they need the tables before it: a
 * pre-scan (one extra read, only for files that carry no table; pipes
 * cannot be read twice and get none).  The cache-line table names its
 * lines after the pass: the report feeds the same observer from its pass
 * (before the batch drops the call chain) and infers at the end, so the
 * default report needs no second read, a pipe infers as its file does, and
 * every view gets the same tables from the same samples.  Memory grows
 * with distinct lines, never samples.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/futex_infer.h>
#include <hitmap/log.h>

#define KERNEL_START	0xffff800000000000ull
#define CODE_CACHE	4096

struct code_cache {
	u64	ip[CODE_CACHE];
	u8	code[CODE_CACHE];
	u8	futex_fn[CODE_CACHE];	/* 1: a futex function (caller test) */
};

static bool futex_caller(const char *n)
{
	return n && (!strncmp(n, "futex_", 6) || !strncmp(n, "__futex_", 8) || !strcmp(n, "do_futex") ||
		     !strncmp(n, "__x64_sys_futex", 15));
}

static u8 classify(struct code_cache *c, const struct hm_ksyms *k, u64 ip, u8 *fut)
{
	u32 s = (u32)((ip * 0x9e3779b97f4a7c15ull) >> 52) & (CODE_CACHE - 1);
	const struct hm_ksym *sym;

	if (c->ip[s] == ip) {
		*fut = c->futex_fn[s];
		return c->code[s];
	}
	sym = k ? hm_ksyms__find(k, ip) : NULL;
	c->ip[s] = ip;
	c->code[s] = (u8)hm_futex_code__from_symbol(sym ? sym->name : NULL);
	c->futex_fn[s] = sym && futex_caller(sym->name);
	*fut = c->futex_fn[s];
	return c->code[s];
}

/* A spin-lock sample counts when a futex function called it (call chain). */
static bool called_from_futex(struct code_cache *c, const struct hm_ksyms *k, const struct hm_sample *s)
{
	u64 i;
	u8 fut;

	if (!(s->sample_type & PERF_SAMPLE_CALLCHAIN))
		return false;
	for (i = 0; i < s->callchain_nr && i < 8; i++) {
		u64 ip = s->callchain[i];

		if (ip >= (u64)-4095)	/* PERF_CONTEXT_* markers */
			continue;
		if (ip < KERNEL_START)
			break;
		classify(c, k, ip, &fut);
		if (fut)
			return true;
	}
	return false;
}

static u32 nr_nodes_of(const struct hm_topo *topo)
{
	int n = topo ? hm_topo__nr_nodes(topo) : 0;

	return n > 0 ? (u32)n : 1;
}

/*
 * Observations wait in a small batch: the line table is far larger than the
 * caches, so each one costs a miss; prefetching its slot as it arrives and
 * adding it OBS_BATCH samples later overlaps them.  The batch keeps the
 * arrival order (the lines' first-seen order is part of the inference).
 */
#define OBS_BATCH	64

struct pending_obs {
	u64	addr;
	s32	pid, node;
	u32	tid;
	u8	code;
};

struct hm_futex_observer {
	struct hm_futex_infer	*inf;
	u32			nr_pend;
	struct pending_obs	pend[OBS_BATCH];
	struct hm_symbols	*syms;
	const struct hm_ksyms	*k;		/* syms' kernel symbols, from the first kernel sample */
	bool			k_tried;
	const struct hm_topo	*topo;
	u64			with_addr, kernel_ip;
	struct code_cache	cc;
};

struct hm_futex_observer *hm_futex_observer__new(const struct hm_header *h, const char *release,
						 struct hm_symbols *syms, const struct hm_topo *topo,
						 const struct hm_futex_model *m)
{
	struct hm_futex_kernel kern;
	struct hm_futex_observer *o;

	if (!h || !m) {
		errno = EINVAL;
		return NULL;
	}
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	if (!release)
		release = h->osrelease;
	memset(&kern, 0, sizeof(kern));
	if (!release || hm_futex_kernel__parse(release, &kern) < 0) {
		kern.era = m->era;
		kern.per_node = m->era != HM_FUTEX_ERA_PRE_6_16;
		kern.private_hash = m->era != HM_FUTEX_ERA_PRE_6_16;
	}
	kern.era = m->era;	/* the report's choice (--kernel wins) */
	o->inf = hm_futex_infer__new(m, &kern, h->nr_cpus_avail ? h->nr_cpus_avail : h->nr_cpus_online,
				     h->nr_cpus_online, nr_nodes_of(topo));
	if (!o->inf) {
		free(o);
		errno = ENOMEM;
		return NULL;
	}
	/*
	 * The kernel symbols are looked up at the first kernel sample: the
	 * default kallsyms depends on the recorded kernel's build-id, which
	 * the kernel MMAP before it gives.
	 */
	o->syms = syms;
	o->topo = topo;
	return o;
}

void hm_futex_observer__delete(struct hm_futex_observer *o)
{
	if (!o)
		return;
	hm_futex_infer__delete(o->inf);
	free(o);
}

static int observer__drain(struct hm_futex_observer *o)
{
	u32 i;
	int err;

	for (i = 0; i < o->nr_pend; i++) {
		const struct pending_obs *p = &o->pend[i];

		err = hm_futex_infer__add(o->inf, (enum hm_futex_code)p->code, p->addr, p->pid, p->tid,
					  p->node, 1);
		if (err < 0)
			return err;
	}
	o->nr_pend = 0;
	return 0;
}

int hm_futex_observer__add(struct hm_futex_observer *o, const struct hm_sample *s)
{
	struct pending_obs *p;
	u8 code, fut;
	s32 node = -1;

	if (!s->addr)
		return 0;
	o->with_addr++;
	if (s->ip < KERNEL_START || s->addr < KERNEL_START)
		return 0;
	o->kernel_ip++;
	if (!o->k_tried) {
		o->k_tried = true;
		o->k = hm_symbols__ksyms(o->syms);
	}
	code = classify(&o->cc, o->k, s->ip, &fut);
	if (code == HM_FUTEX_CODE_NONE)
		return 0;
	if (code == HM_FUTEX_CODE_LOCK_ANY) {
		if (!called_from_futex(&o->cc, o->k, s))
			return 0;
		code = HM_FUTEX_CODE_SPIN;
	}
	if ((s->sample_type & PERF_SAMPLE_PHYS_ADDR) && s->phys_addr && o->topo)
		node = hm_topo__phys_node(o->topo, s->phys_addr);
	if (o->nr_pend == OBS_BATCH) {
		int err = observer__drain(o);

		if (err < 0)
			return err;
	}
	hm_futex_infer__prefetch(o->inf, s->addr, 0);
	p = &o->pend[o->nr_pend++];
	*p = (struct pending_obs){ .addr = s->addr, .pid = (s32)s->pid, .node = node, .tid = s->tid,
				   .code = code };
	return 0;
}

int hm_futex_observer__finish(struct hm_futex_observer *o, struct hm_futex_model *m,
			      struct hm_futex_infer_result *res)
{
	const struct hm_ksyms *k = o->k;
	int err;

	err = observer__drain(o);
	if (err < 0)
		return err;
	err = hm_futex_infer__finish(o->inf, m, res);
	if (err < 0 || res->tables)
		return err;
	/* nothing placed: say why, and what to pass */
	if (!o->with_addr)
		snprintf(res->why, sizeof(res->why),
			 "no sample has a data address (not a memory-sampling file: record with perf c2c record or hitmap record)");
	else if (!o->kernel_ip)
		snprintf(res->why, sizeof(res->why),
			 "no futex samples (%" PRIu64 " samples with data addresses, none from kernel code on kernel data)",
			 o->with_addr);
	else if (!res->samples && (!k || !hm_ksyms__nr(k) || hm_ksyms__all_zero(k)))
		snprintf(res->why, sizeof(res->why),
			 "no kernel symbols to find futex code; pass --kallsyms FILE (/proc/kallsyms of the recording kernel, read as root)");
	else if (!res->samples && !hm_ksyms__by_name(k, "futex_q_lock") && !hm_ksyms__by_name(k, "futex_hash"))
		snprintf(res->why, sizeof(res->why),
			 "the kernel symbols have no futex_q_lock/futex_hash; pass --kallsyms FILE of the recording kernel");
	else if (!res->samples)
		snprintf(res->why, sizeof(res->why),
			 "no futex samples (%" PRIu64 " kernel samples, none in futex code; "
			 "if the file comes from another kernel, pass its --kallsyms)", o->kernel_ip);
	return 0;
}

int hm_futex_infer__scan_file(const char *path, const char *release, struct hm_symbols *syms,
			      struct hm_maps *maps, const struct hm_topo *topo, struct hm_futex_model *m,
			      struct hm_futex_infer_result *res)
{
	/* the pass that follows reads the file again and says what is wrong with it */
	struct hm_reader_opts ro = { .ordered = false, .all_records = maps != NULL, .quiet = true };
	struct hm_futex_observer *o = NULL;
	const struct hm_header *h;
	struct hm_reader *rd;
	struct hm_event ev;
	int err;

	memset(res, 0, sizeof(*res));
	rd = hm_reader__new(path, &ro);
	if (!rd)
		return -errno;
	h = hm_reader__header(rd);
	/*
	 * The observer reads the header's release and CPU counts: a file in
	 * pipe mode (a pipe written to a file) has them from its header
	 * records, so the observer starts at the first sample, after them
	 * (or at the end of a file without one).
	 */
	while ((err = hm_reader__next(rd, &ev)) >= 0) {
		if (err && ev.type != PERF_RECORD_SAMPLE) {
			if (maps)
				hm_maps__process(maps, &ev);
			continue;
		}
		if (err && !ev.has_sample)
			continue;
		if (!o && !(o = hm_futex_observer__new(h, release, syms, topo, m))) {
			err = -ENOMEM;
			goto out;
		}
		if (!err)
			break;	/* the end */
		err = hm_futex_observer__add(o, &ev.sample);
		if (err < 0)
			goto out;
	}
	if (err < 0)
		goto out;
	err = hm_futex_observer__finish(o, m, res);
out:
	hm_futex_observer__delete(o);
	hm_reader__delete(rd);
	return err < 0 ? err : (int)res->tables;
}

static void describe_tables(const struct hm_futex_model *m, char *buf, size_t size)
{
	size_t len = strlen(buf);
	u32 i;

	for (i = 0; i < m->nr_tables && len + 1 < size; i++) {
		const struct hm_futex_table *t = &m->tables[i];
		char who[24];

		if (t->kind)
			snprintf(who, sizeof(who), "private:%d", t->pid);
		else if (t->node >= 0)
			snprintf(who, sizeof(who), "global:%d", t->node);
		else
			snprintf(who, sizeof(who), "global:?");
		len += snprintf(buf + len, size - len, "%s%s 0x%" PRIx64 " %" PRIu64 " slots",
				i ? "; " : " (", who, t->base, t->slots);
		if (i + 1 == m->nr_tables && len + 1 < size)
			len += snprintf(buf + len, size - len, ")");
	}
}

void hm_futex_model__note_geometry(struct hm_futex_model *m, const char *how)
{
	if (!m || !m->nr_tables || m->geometry[0])
		return;
	snprintf(m->geometry, sizeof(m->geometry), "%s, %u table%s", how, m->nr_tables,
		 m->nr_tables == 1 ? "" : "s");
	describe_tables(m, m->geometry, sizeof(m->geometry));
}

/* m->geometry after an inference that returned @n (tables or a negative errno). */
static int note_inference(struct hm_futex_model *m, const char *what, int n,
			  const struct hm_futex_infer_result *res)
{
	if (n < 0) {
		hm_warn("%s: futex table inference failed (%s); buckets stay unknown", what, strerror(-n));
		snprintf(m->geometry, sizeof(m->geometry), "none: inference failed (%s)", strerror(-n));
		return n;
	}
	if (!n) {
		snprintf(m->geometry, sizeof(m->geometry), "none: %s", res->why);
		return 0;
	}
	snprintf(m->geometry, sizeof(m->geometry),
		 "inferred from %" PRIu64 " futex samples on %" PRIu64 " lines, %u table%s%s",
		 res->samples, res->lines, m->nr_tables, m->nr_tables == 1 ? "" : "s",
		 res->unplaced ? " (some lines left unknown)" : "");
	describe_tables(m, m->geometry, sizeof(m->geometry));
	return n;
}

int hm_futex_model__infer_file(struct hm_futex_model *m, const char *path, const char *release,
			       struct hm_symbols *syms, struct hm_maps *maps, const struct hm_topo *topo)
{
	struct hm_futex_infer_result res;

	if (!m)
		return -EINVAL;
	if (m->nr_tables)
		return 0;
	memset(&res, 0, sizeof(res));
	if (!path) {
		snprintf(m->geometry, sizeof(m->geometry),
			 "none: a pipe is read once and the futex views need the tables before it "
			 "(the cache-line table infers them from the pipe); "
			 "write it to a file, or pass --futex-table global:NODE:ADDR:SLOTS");
		return 0;
	}
	return note_inference(m, path, hm_futex_infer__scan_file(path, release, syms, maps, topo, m, &res), &res);
}

int hm_futex_model__infer_observed(struct hm_futex_model *m, struct hm_futex_observer *o, const char *what)
{
	struct hm_futex_infer_result res;
	int n;

	if (!m || !o)
		return -EINVAL;
	if (m->nr_tables)
		return 0;
	memset(&res, 0, sizeof(res));
	n = hm_futex_observer__finish(o, m, &res);
	return note_inference(m, what, n < 0 ? n : (int)res.tables, &res);
}

int hm_futex_observer__merge(struct hm_futex_observer *dst, struct hm_futex_observer *src)
{
	int err = observer__drain(dst);

	if (!err)
		err = observer__drain(src);
	if (!err)
		err = hm_futex_infer__merge(dst->inf, src->inf);
	if (err < 0)
		return err;
	dst->with_addr += src->with_addr;
	dst->kernel_ip += src->kernel_ip;
	if (src->k_tried && !dst->k_tried) {
		dst->k_tried = true;
		dst->k = hm_symbols__ksyms(dst->syms);
	}
	return 0;
}
