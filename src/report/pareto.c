// SPDX-License-Identifier: GPL-2.0-only
/* perf c2c's line x offset x code address aggregation; see pareto.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "pareto.h"
#include "util/bigalloc.h"
#include "util/htab.h"

/* ------------------------------------------------------------- options */

static const char *const field_name[] = {
	[HM_PARETO_TID] = "tid", [HM_PARETO_PID] = "pid",
	[HM_PARETO_IADDR] = "iaddr", [HM_PARETO_DSO] = "dso",
};

int hm_pareto_opts__parse(struct hm_pareto_opts *o, const char *text, char *bad, size_t bad_size)
{
	const char *p = text;

	memset(o, 0, sizeof(*o));
	snprintf(o->text, sizeof(o->text), "%s", text);
	while (*p) {
		size_t n = strcspn(p, ", ");
		int f = -1;

		for (int i = 0; n && i < (int)(sizeof(field_name) / sizeof(field_name[0])); i++)
			if (strlen(field_name[i]) == n && !strncmp(p, field_name[i], n))
				f = i;
		if (n && f < 0 && !(n == 6 && !strncmp(p, "offset", 6))) {
			snprintf(bad, bad_size, "%.*s", (int)n, p);
			return -EINVAL;
		}
		if (f >= 0) {
			if (o->nr_fields == HM_PARETO_MAX_FIELDS) {
				snprintf(bad, bad_size, "%.*s", (int)n, p);
				return -EINVAL;
			}
			o->field[o->nr_fields++] = f;
		}
		p += n;
		p += strspn(p, ", ");
	}
	return 0;
}

bool hm_pareto_opts__has(const struct hm_pareto_opts *o, enum hm_pareto_field f)
{
	for (int i = 0; i < o->nr_fields; i++)
		if (o->field[i] == f)
			return true;
	return false;
}

void hm_pareto_opts__grouping(const struct hm_pareto_opts *o, char *buf, size_t size)
{
	snprintf(buf, size, "offset,%s", o->text);
}

/* ---------------------------------------------------------- aggregation */

/*
 * Open addressing; a slot keeps the entry's index and the high half of its
 * hash, so a probe that does not match rarely touches the entry itself.
 * Tables and arrays are hm_big (huge pages once large): the lookups are
 * random over far more memory than the caches hold.
 */
struct slot {
	u32	idx;		/* index + 1, 0 empty */
	u32	tag;		/* hash >> 32 */
};

struct hm_pareto {
	struct hm_pareto_opts	o;
	u64			cl_mask;
	int			nr_cpus, nr_nodes;
	const int		*cpu_node_idx;
	bool			by_tid, by_pid, by_ip, by_dso;

	struct hm_pareto_line	*line;
	size_t			nr_lines, alloc_lines;
	struct slot		*lslot;
	size_t			nr_lslots;

	struct hm_pareto_row	*row;
	size_t			nr_rows, alloc_rows;
	struct slot		*rslot;
	size_t			nr_rslots;

	struct hm_arena		arena;		/* rows' CPU bitmaps and node counters */

	/* code maps' short names, by map (few distinct maps) */
	struct { const struct hm_map *map; char *name; } *dn;
	size_t			nr_dn, nr_dn_slots;
	const struct hm_map	*last_map;
	const char		*last_name;
};

static u64 str_hash(const char *s)
{
	u64 h = 0xcbf29ce484222325ULL;

	if (!s)
		return 0;
	for (; *s; s++)
		h = (h ^ (u8)*s) * 0x100000001b3ULL;
	return h | 1;
}

/*
 * perf's short name of a code object (dsos.c dso__set_basename, kmod_path):
 * "[name]" of a kernel module path with '-' as '_', "[JIT] tid N" of
 * /tmp/perf-N.map, the bracketed names as they are, else the base name.
 */
static char *short_name_new(const struct hm_map *m)
{
	const char *n = m->filename, *b;
	char buf[300];
	int tid;

	if (n[0] == '[')
		return strdup(n);
	b = strrchr(n, '/');
	b = b && b[1] ? b + 1 : n;
	if (m->type == HM_MAP_MODULE) {
		size_t k = strcspn(b, ".");

		if (k > sizeof(buf) - 3)
			k = sizeof(buf) - 3;
		buf[0] = '[';
		for (size_t i = 0; i < k; i++)
			buf[i + 1] = b[i] == '-' ? '_' : b[i];
		buf[k + 1] = ']';
		buf[k + 2] = '\0';
		return strdup(buf);
	}
	if (sscanf(n, "/tmp/perf-%d.map", &tid) == 1) {
		snprintf(buf, sizeof(buf), "[JIT] tid %d", tid);
		return strdup(buf);
	}
	return strdup(b);
}

static u64 line_hash(const struct hm_pareto_key *k)
{
	return hm_hash_u64(k->line ^ hm_hash_u64((u64)k->pid << 32 ^ (u64)k->dso_id << 8 ^
				     (u64)k->cpumode << 1 ^ k->mapped));
}

static bool line_eq(const struct hm_pareto_key *a, const struct hm_pareto_key *b)
{
	return a->line == b->line && a->pid == b->pid && a->dso_id == b->dso_id &&
	       a->cpumode == b->cpumode && a->mapped == b->mapped;
}

/* The row key: the fields -c does not name are left out (zero). */
struct row_key {
	u32		line, off, pid, tid;
	u64		ip;
	const char	*dso;
	u64		dso_h;
};

static u64 row_hash(const struct row_key *k)
{
	return hm_hash_u64(((u64)k->line << 32 | k->off) ^ hm_hash_u64(k->ip ^ ((u64)k->pid << 32 | k->tid)) ^
		     k->dso_h);
}

static bool row_eq(const struct hm_pareto *pa, const struct hm_pareto_row *r, const struct row_key *k)
{
	if (r->line != k->line || r->off != k->off)
		return false;
	if (pa->by_ip && r->ip != k->ip)
		return false;
	if (pa->by_tid && r->tid != k->tid)
		return false;
	if (pa->by_pid && r->pid != k->pid)
		return false;
	if (pa->by_dso && r->dso != k->dso) {
		if (!r->dso || !k->dso || strcmp(r->dso, k->dso))
			return false;
	}
	return true;
}

static u64 row_hash_of(const struct hm_pareto *pa, const struct hm_pareto_row *r)
{
	struct row_key k = { .line = r->line, .off = r->off };

	if (pa->by_ip)
		k.ip = r->ip;
	if (pa->by_tid)
		k.tid = r->tid;
	if (pa->by_pid)
		k.pid = r->pid;
	if (pa->by_dso)
		k.dso_h = str_hash(r->dso);
	return row_hash(&k);
}

static size_t ptr_hash(const void *p)
{
	return (size_t)hm_hash_u64((u64)(uintptr_t)p);
}

static const char *short_name(struct hm_pareto *pa, const struct hm_map *m)
{
	size_t h, mask;

	if (!m || !m->filename)
		return NULL;
	if (m == pa->last_map)
		return pa->last_name;
	if ((pa->nr_dn + 1) * 2 > pa->nr_dn_slots) {
		size_t ns = pa->nr_dn_slots ? pa->nr_dn_slots * 2 : 64;
		__typeof__(pa->dn) nd = calloc(ns, sizeof(*nd));

		if (!nd)
			return NULL;
		for (size_t i = 0; i < pa->nr_dn_slots; i++) {
			if (!pa->dn[i].map)
				continue;
			h = ptr_hash(pa->dn[i].map) & (ns - 1);
			while (nd[h].map)
				h = (h + 1) & (ns - 1);
			nd[h] = pa->dn[i];
		}
		free(pa->dn);
		pa->dn = nd;
		pa->nr_dn_slots = ns;
	}
	mask = pa->nr_dn_slots - 1;
	h = ptr_hash(m) & mask;
	while (pa->dn[h].map && pa->dn[h].map != m)
		h = (h + 1) & mask;
	if (!pa->dn[h].map) {
		pa->dn[h].name = short_name_new(m);
		if (!pa->dn[h].name)
			return NULL;
		pa->dn[h].map = m;
		pa->nr_dn++;
	}
	pa->last_map = m;
	pa->last_name = pa->dn[h].name;
	return pa->last_name;
}

struct hm_pareto *hm_pareto__new(const struct hm_pareto_opts *o, u32 cacheline_size,
				 int nr_cpus, int nr_nodes, const int *cpu_node_idx)
{
	struct hm_pareto *pa = calloc(1, sizeof(*pa));

	if (!pa)
		return NULL;
	pa->o = *o;
	pa->cl_mask = ~(u64)((cacheline_size ? cacheline_size : 64) - 1);
	pa->nr_cpus = nr_cpus > 0 ? nr_cpus : 1;
	pa->nr_nodes = nr_nodes > 0 ? nr_nodes : 0;
	pa->cpu_node_idx = cpu_node_idx;
	pa->by_tid = hm_pareto_opts__has(o, HM_PARETO_TID);
	pa->by_pid = hm_pareto_opts__has(o, HM_PARETO_PID);
	pa->by_ip = hm_pareto_opts__has(o, HM_PARETO_IADDR);
	pa->by_dso = hm_pareto_opts__has(o, HM_PARETO_DSO);
	pa->nr_lslots = pa->nr_rslots = 1024;
	pa->lslot = hm_big__alloc(pa->nr_lslots * sizeof(struct slot));
	pa->rslot = hm_big__alloc(pa->nr_rslots * sizeof(struct slot));
	if (!pa->lslot || !pa->rslot) {
		hm_pareto__delete(pa);
		errno = ENOMEM;
		return NULL;
	}
	return pa;
}

void hm_pareto__delete(struct hm_pareto *pa)
{
	if (!pa)
		return;
	for (size_t i = 0; i < pa->nr_dn_slots; i++)
		free(pa->dn[i].name);
	free(pa->dn);
	hm_arena__release(&pa->arena);
	hm_big__free(pa->line, pa->alloc_lines * sizeof(*pa->line));
	hm_big__free(pa->row, pa->alloc_rows * sizeof(*pa->row));
	hm_big__free(pa->lslot, pa->nr_lslots * sizeof(struct slot));
	hm_big__free(pa->rslot, pa->nr_rslots * sizeof(struct slot));
	free(pa);
}

/* Double a table: its entries' hashes are recomputed by @hash_of. */
static int slots_grow(struct slot **slots, size_t *nr_slots, size_t nr, const void *base,
		      size_t stride, u64 (*hash_of)(const struct hm_pareto *, const void *),
		      const struct hm_pareto *pa)
{
	size_t ns = *nr_slots * 2, mask = ns - 1;
	struct slot *s = hm_big__alloc(ns * sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		u64 x = hash_of(pa, (const char *)base + i * stride);
		size_t h = x & mask;

		while (s[h].idx)
			h = (h + 1) & mask;
		s[h].idx = (u32)i + 1;
		s[h].tag = (u32)(x >> 32);
	}
	hm_big__free(*slots, *nr_slots * sizeof(**slots));
	*slots = s;
	*nr_slots = ns;
	return 0;
}

static u64 line_hash_of(const struct hm_pareto *pa, const void *e)
{
	return line_hash(&((const struct hm_pareto_line *)e)->k);
}

static u64 row_hash_of_v(const struct hm_pareto *pa, const void *e)
{
	return row_hash_of(pa, e);
}

/* Grow a dense array by doubling (hm_big: mremap, no copy). */
static int array_grow(void **p, size_t *alloc, size_t elem, size_t first)
{
	size_t na = *alloc ? *alloc * 2 : first;
	void *q = hm_big__realloc(*p, *alloc * elem, na * elem);

	if (!q)
		return -ENOMEM;
	*p = q;
	*alloc = na;
	return 0;
}

static struct hm_pareto_line *find_line(struct hm_pareto *pa, const struct hm_pareto_key *k,
					u64 addr, u32 *idx)
{
	u64 x = line_hash(k);
	size_t mask = pa->nr_lslots - 1, h = x & mask;
	u32 tag = (u32)(x >> 32);
	struct hm_pareto_line *ln;

	while (pa->lslot[h].idx) {
		if (pa->lslot[h].tag == tag) {
			ln = &pa->line[pa->lslot[h].idx - 1];
			if (line_eq(&ln->k, k)) {
				*idx = pa->lslot[h].idx - 1;
				return ln;
			}
		}
		h = (h + 1) & mask;
	}
	if (pa->nr_lines == pa->alloc_lines &&
	    array_grow((void **)&pa->line, &pa->alloc_lines, sizeof(*pa->line), 1024) < 0)
		return NULL;
	if (pa->nr_lines >= 0xffffffffu)
		return NULL;
	*idx = (u32)pa->nr_lines;
	ln = &pa->line[pa->nr_lines];
	memset(ln, 0, sizeof(*ln));
	ln->k = *k;
	ln->addr = addr & pa->cl_mask;
	pa->lslot[h].idx = (u32)++pa->nr_lines;
	pa->lslot[h].tag = tag;
	if (pa->nr_lines * 2 > pa->nr_lslots &&
	    slots_grow(&pa->lslot, &pa->nr_lslots, pa->nr_lines, pa->line, sizeof(*pa->line),
		       line_hash_of, pa) < 0)
		return NULL;
	return &pa->line[*idx];
}

static struct hm_pareto_row *find_row(struct hm_pareto *pa, const struct row_key *k,
				      const struct hm_sample *s, const struct hm_map *imap,
				      const char *dso)
{
	u64 x = row_hash(k);
	size_t mask = pa->nr_rslots - 1, h = x & mask;
	u32 tag = (u32)(x >> 32);
	struct hm_pareto_row *rw;
	size_t cpu_words = ((size_t)pa->nr_cpus + 63) / 64;

	while (pa->rslot[h].idx) {
		if (pa->rslot[h].tag == tag) {
			rw = &pa->row[pa->rslot[h].idx - 1];
			if (row_eq(pa, rw, k))
				return rw;
		}
		h = (h + 1) & mask;
	}
	if (pa->nr_rows == pa->alloc_rows &&
	    array_grow((void **)&pa->row, &pa->alloc_rows, sizeof(*pa->row), 4096) < 0)
		return NULL;
	if (pa->nr_rows >= 0xffffffffu)
		return NULL;
	rw = &pa->row[pa->nr_rows];
	memset(rw, 0, sizeof(*rw));
	rw->line = k->line;
	rw->off = k->off;
	rw->pid = s->pid;
	rw->tid = s->tid;
	rw->ip = s->ip;
	rw->cpumode = s->misc & 7;
	rw->imap = imap;
	rw->dso = dso;
	/* one block: the CPU bitmap, then the per-node counters */
	rw->cpus = hm_arena__alloc(&pa->arena, cpu_words * sizeof(u64) +
				   (size_t)pa->nr_nodes * sizeof(struct hm_pareto_node));
	if (!rw->cpus)
		return NULL;
	if (pa->nr_nodes)
		rw->node = (struct hm_pareto_node *)(rw->cpus + cpu_words);
	pa->line[k->line].nr_rows++;
	pa->rslot[h].idx = (u32)++pa->nr_rows;
	pa->rslot[h].tag = tag;
	if (pa->nr_rows * 2 > pa->nr_rslots &&
	    slots_grow(&pa->rslot, &pa->nr_rslots, pa->nr_rows, pa->row, sizeof(*pa->row),
		       row_hash_of_v, pa) < 0)
		return NULL;
	return &pa->row[pa->nr_rows - 1];
}

/* perf's update_stats(): the running mean, in the same floating-point steps. */
static void mean_add(struct hm_pareto_mean *m, u64 val)
{
	double delta;

	m->n++;
	delta = (double)val - m->mean;
	m->mean += delta / (double)m->n;
}

/* perf's c2c_he__set_node(): no PHYS_ADDR or no node leaves both unchanged. */
static void set_node(u64 *nodes, u64 *paddr, u32 *cnt, u64 phys, int node)
{
	if (!phys || node < 0)
		return;
	if (node < 64)
		*nodes |= 1ULL << node;
	if (*paddr != phys) {
		(*cnt)++;
		*paddr = phys;
	}
}

int hm_pareto__add(struct hm_pareto *pa, const struct hm_pareto_key *k,
		   const struct hm_mem_sample *ms, const struct hm_c2c_stats *one,
		   const struct hm_map *imap)
{
	const struct hm_sample *s = ms->s;
	struct hm_pareto_line *ln;
	struct hm_pareto_row *rw;
	struct row_key rk;
	const char *dso = short_name(pa, imap);
	bool has_cpu = s->sample_type & PERF_SAMPLE_CPU;
	u32 cpu = has_cpu ? s->cpu : 0, li;
	int node;

	if (imap && imap->filename && !dso)
		return -ENOMEM;
	ln = find_line(pa, k, s->addr, &li);
	if (!ln)
		return -ENOMEM;
	hm_c2c_stats__sum(&ln->st, one);
	ln->cost += (double)s->weight;
	set_node(&ln->nodes, &ln->paddr, &ln->paddr_cnt, s->phys_addr, ms->data_node);

	memset(&rk, 0, sizeof(rk));
	rk.line = li;
	rk.off = (u32)(s->addr & ~pa->cl_mask);
	if (pa->by_ip)
		rk.ip = s->ip;
	if (pa->by_tid)
		rk.tid = s->tid;
	if (pa->by_pid)
		rk.pid = s->pid;
	if (pa->by_dso) {
		rk.dso = dso;
		rk.dso_h = str_hash(dso);
	}
	rw = find_row(pa, &rk, s, imap, dso);
	if (!rw)
		return -ENOMEM;
	hm_c2c_stats__sum(&rw->st, one);
	rw->cost += (double)s->weight;
	/* a sample without a CPU counts on CPU 0's node, like perf */
	if (pa->nr_nodes && cpu < (u32)pa->nr_cpus) {
		node = pa->cpu_node_idx[cpu];
		if (node >= 0 && node < pa->nr_nodes) {
			struct hm_pareto_node *nd = &rw->node[node];

			nd->lcl_hitm += one->lcl_hitm;
			nd->rmt_hitm += one->rmt_hitm;
			nd->tot_peer += one->tot_peer;
			nd->store += one->store;
		}
	}
	/* perf's compute_stats(): the first kind that matches takes the weight */
	if (one->rmt_hitm)
		mean_add(&rw->mean[HM_PM_RMT_HITM], s->weight);
	else if (one->lcl_hitm)
		mean_add(&rw->mean[HM_PM_LCL_HITM], s->weight);
	else if (one->rmt_peer)
		mean_add(&rw->mean[HM_PM_RMT_PEER], s->weight);
	else if (one->lcl_peer)
		mean_add(&rw->mean[HM_PM_LCL_PEER], s->weight);
	else if (one->load)
		mean_add(&rw->mean[HM_PM_LOAD], s->weight);
	if (has_cpu && cpu < (u32)pa->nr_cpus)
		rw->cpus[cpu / 64] |= 1ULL << (cpu % 64);
	set_node(&rw->nodes, &rw->paddr, &rw->paddr_cnt, s->phys_addr, ms->data_node);
	return 0;
}

size_t hm_pareto__nr_lines(const struct hm_pareto *pa)
{
	return pa ? pa->nr_lines : 0;
}

const struct hm_pareto_line *hm_pareto__line(const struct hm_pareto *pa, size_t i)
{
	return i < pa->nr_lines ? &pa->line[i] : NULL;
}

size_t hm_pareto__nr_rows(const struct hm_pareto *pa)
{
	return pa ? pa->nr_rows : 0;
}

const struct hm_pareto_row *hm_pareto__row(const struct hm_pareto *pa, size_t i)
{
	return i < pa->nr_rows ? &pa->row[i] : NULL;
}

const struct hm_pareto_opts *hm_pareto__opts(const struct hm_pareto *pa)
{
	return &pa->o;
}

int hm_pareto__nr_cpus(const struct hm_pareto *pa)
{
	return pa->nr_cpus;
}

int hm_pareto__nr_nodes(const struct hm_pareto *pa)
{
	return pa->nr_nodes;
}

const int *hm_pareto__cpu_node_idx(const struct hm_pareto *pa)
{
	return pa->cpu_node_idx;
}

size_t hm_pareto__bytes(const struct hm_pareto *pa)
{
	return pa->arena.bytes + pa->alloc_lines * sizeof(*pa->line) +
	       pa->alloc_rows * sizeof(*pa->row) +
	       (pa->nr_lslots + pa->nr_rslots) * sizeof(struct slot);
}
