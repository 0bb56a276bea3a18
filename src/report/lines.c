// SPDX-License-Identifier: GPL-2.0-only
/* Per cache line aggregation; see lines.h. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lines.h"
#include "names.h"
#include "util/bigalloc.h"
#include "util/htab.h"
#include "util/prefault.h"
#include "util/prefetch.h"

/* a line's fixed part and its two strides (lines.h) */
_Static_assert(offsetof(struct hm_line, ext) == HM_LINE_FIXED && sizeof(struct hm_line) == 256 &&
	       HM_LINE_FIXED + 8 * HM_LINE_EXT == 320 && HM_LINE_FIXED + 8 * HM_LINE_EXT_BIG == 384 &&
	       sizeof(struct hm_line_first) == 32, "hm_line's layout");

static inline u64 *cpus_of(struct hm_line *ln)
{
	return ln->ext_at ? ln->ext : (u64 *)(uintptr_t)ln->ext[0];
}

static inline u32 *node_of(struct hm_line *ln)
{
	return ln->ext_at ? (u32 *)&ln->ext[ln->ext_at] : (u32 *)(uintptr_t)ln->ext[1];
}

/*
 * 8 bytes: the low 32 bits of the address's hash (which place it, so the
 * table grows without reading the lines) and the line's index + 1 (0
 * empty).  A hash that matches is checked against the line's address.
 */
struct slot {
	u32	hash;
	u32	idx;
};

static inline u32 hash32(u64 addr)
{
	return (u32)hm_hash_u64(addr);
}

/*
 * Lines live in segments that double (SEG0 lines, then 2 * SEG0, ...):
 * adding lines never moves them, so the table grows without copying
 * (and faulting in) what it holds, and a line's address is stable.
 */
#define SEG0_SHIFT	8
#define SEG0		(1u << SEG0_SHIFT)
#define POP_STRETCH	(128u << 10)	/* bytes of lines faulted in at once */
#define POP_AHEAD	(8u << 20)	/* asked of a prefault server ahead of that */
#define MAX_SEGS	32

struct hm_lines {
	u32		cls;
	int		nr_cpus, nr_nodes;
	size_t		nr, alloc;	/* lines */
	size_t		stride;		/* bytes a line: 320 or 384 (lines.h) */
	u8		ext_at;		/* the lines' ext_at: 0 when the bitmap and counters do not fit */
	u16		first_at;	/* a line's hm_line_first at this offset in it; 0: in fseg */
	void		*seg[MAX_SEGS];
	struct hm_line_first *fseg[MAX_SEGS];	/* beside seg[], where first_at is 0 */
	char		*pop_end, *pop_lim;	/* the last segment's lines: populated up to, its end */
	struct hm_prefault *pf;		/* an idle thread's, populating ahead (or NULL) */
	struct slot	*slot;		/* open addressing */
	size_t		nr_slots;	/* power of two, at most 1 << 32 */
	size_t		bytes;
	u64		nr_added;	/* samples added: the next one's seq */
	struct hm_arena	arena;		/* per-line blocks, offsets, code addresses */
	void		*free_offs[16], *free_ips[8];	/* outgrown blocks by log2(capacity) */
	hm_lines_fill_fn fill;		/* details deferred (hm_lines__defer_details) */
	void		*fill_priv;
};

/* Segment @k's lines. */
static inline size_t seg_lines(int k)
{
	return (size_t)SEG0 << k;
}

/* The segment of line @i (index, not index + 1): segment k holds SEG0 << k lines. */
static inline int seg_of(size_t i)
{
	return 63 - __builtin_clzll(i + SEG0) - SEG0_SHIFT;
}

/* Line @i (index, not index + 1). */
static inline struct hm_line *ln_at(const struct hm_lines *l, size_t i)
{
	int k = seg_of(i);

	return (struct hm_line *)((char *)l->seg[k] + (i + SEG0 - seg_lines(k)) * l->stride);
}

/* Line @i's first sample (@ln: line @i). */
static inline struct hm_line_first *first_of(const struct hm_lines *l, const struct hm_line *ln, size_t i)
{
	int k = seg_of(i);

	if (l->first_at)
		return (struct hm_line_first *)((char *)ln + l->first_at);
	return &l->fseg[k][i + SEG0 - seg_lines(k)];
}

/*
 * Segment @k's bytes: its lines, then (first_at 0) their first samples;
 * from 2 MiB on, whole huge pages, all advised as such (bigalloc.h advises
 * the whole huge pages of the size asked): the tail of a segment, which
 * the lines added reach in turn, does not fault in 4 KiB at a time (10 us
 * a fault in a 2-CPU VM: 384 of them for the 11.5 MB segment of 32768
 * lines of 352 bytes).
 */
static inline size_t seg_bytes(const struct hm_lines *l, int k)
{
	return hm_big__round(seg_lines(k) * (l->stride + (l->first_at ? 0 : sizeof(struct hm_line_first))));
}

/* Segment @k's lines and first samples unmapped. */
static void seg_free(struct hm_lines *l, int k)
{
	hm_big__free(l->seg[k], seg_bytes(l, k));
	l->seg[k] = NULL;
	l->fseg[k] = NULL;
}

/* Room for line l->nr (a new segment when full); NULL: ENOMEM. */
static struct hm_line *ln_next(struct hm_lines *l)
{
	struct hm_line *ln;

	if (l->nr == l->alloc) {
		int k = seg_of(l->nr);

		if (k >= MAX_SEGS)
			return NULL;
		/* one mapping: huge pages for both parts from 2 MiB on (bigalloc.h) */
		l->seg[k] = hm_big__alloc(seg_bytes(l, k));
		if (!l->seg[k])
			return NULL;
		if (!l->first_at)
			l->fseg[k] = (struct hm_line_first *)((char *)l->seg[k] + seg_lines(k) * l->stride);
		l->alloc += seg_lines(k);
		l->pop_end = l->seg[k];
		l->pop_lim = (char *)l->seg[k] + seg_lines(k) * l->stride;
	}
	ln = ln_at(l, l->nr);
	if ((char *)ln + l->stride > l->pop_end) {
		/* the next stretch of lines faults in at once (bigalloc.h), unless a server did */
		size_t n = (size_t)(l->pop_lim - l->pop_end);
		void *base = l->seg[seg_of(l->nr)];	/* the last segment: the stream's base */

		n = n < POP_STRETCH ? n : POP_STRETCH;
		if (!l->pf || hm_prefault__done(l->pf, base) < l->pop_end + n)
			hm_big__populate(l->pop_end, n);
		l->pop_end += n;
		if (l->pf)
			hm_prefault__ahead(l->pf, base, (size_t)(l->pop_lim - l->pop_end) > POP_AHEAD ?
					   l->pop_end + POP_AHEAD : l->pop_lim);
	}
	return ln;
}

const struct hm_line_first *hm_lines__first(const struct hm_lines *l, const struct hm_line *ln)
{
	size_t base = 0;

	if (l->first_at)
		return (const struct hm_line_first *)((const char *)ln + l->first_at);
	/* the segment that holds it (a few, doubling) */
	for (int k = 0; k < MAX_SEGS && l->seg[k]; base += seg_lines(k), k++) {
		const char *p = (const char *)ln, *b = l->seg[k];

		if (p >= b && p < b + seg_lines(k) * l->stride)
			return first_of(l, ln, base + (size_t)(p - b) / l->stride);
	}
	return NULL;
}

void hm_lines__ref(const struct hm_lines *l, const struct hm_line *ln, struct hm_line_ref *ref)
{
	const struct hm_line_first *f = l ? hm_lines__first(l, ln) : NULL;

	*ref = (struct hm_line_ref){
		.line = ln->addr, .first_addr = f ? f->addr : ln->addr, .pid = ln->first_pid,
		.has_code = f != NULL, .code_pid = ln->first_pid, .code_cpumode = ln->first_cpumode,
		.code_ip = f ? f->ip : 0,
	};
}

/* A block of 1 << k elements of @elem bytes: reuse an outgrown one first. */
static void *blk_get(struct hm_lines *l, void **heads, int k, size_t elem)
{
	void *p = heads[k];

	if (p) {
		heads[k] = *(void **)p;
		return p;
	}
	return hm_arena__alloc(&l->arena, ((size_t)1 << k) * elem);
}

static void blk_put(void **heads, int k, void *p)
{
	*(void **)p = heads[k];
	heads[k] = p;
}

static int log2u(u32 v)
{
	return 31 - __builtin_clz(v);
}

struct hm_lines *hm_lines__new(u32 cacheline_size, int nr_cpus, int nr_nodes)
{
	struct hm_lines *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->cls = cacheline_size ? cacheline_size : 64;
	l->nr_cpus = nr_cpus > 0 ? nr_cpus : 1;
	l->nr_nodes = nr_nodes > 0 ? nr_nodes : 0;
	{
		/* the bitmap's words, then 3 counters a node; in a block: its 2 pointers */
		size_t words = ((size_t)l->nr_cpus + 63) / 64, need = words + ((size_t)l->nr_nodes * 3 + 1) / 2;
		size_t used;

		l->stride = need <= HM_LINE_EXT ? 320 : need <= HM_LINE_EXT_BIG ? 384 : 320;
		l->ext_at = need <= HM_LINE_EXT_BIG ? (u8)words : 0;
		used = HM_LINE_FIXED + 8 * (l->ext_at ? need : 2);
		/* the first sample's fields at the line's end where they fit (lines.h) */
		l->first_at = used + sizeof(struct hm_line_first) <= l->stride ?
			      (u16)(l->stride - sizeof(struct hm_line_first)) : 0;
	}
	l->nr_slots = 1024;
	l->slot = hm_big__alloc(l->nr_slots * sizeof(*l->slot));
	if (!l->slot) {
		free(l);
		return NULL;
	}
	return l;
}

void hm_lines__delete(struct hm_lines *l)
{
	if (!l)
		return;
	hm_arena__release(&l->arena);
	for (int k = 0; k < MAX_SEGS; k++)
		seg_free(l, k);
	hm_big__free(l->slot, l->nr_slots * sizeof(*l->slot));
	free(l);
}

static int rehash(struct hm_lines *l)
{
	size_t n = l->nr_slots * 2, mask = n - 1;
	/* half of it is written at random below */
	struct slot *s = n <= (1ULL << 32) ? hm_big__alloc_now(n * sizeof(*s)) : NULL;

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < l->nr_slots; i++) {
		size_t h;

		if (!l->slot[i].idx)
			continue;
		h = l->slot[i].hash & mask;
		while (s[h].idx)
			h = (h + 1) & mask;
		s[h] = l->slot[i];
	}
	hm_big__free(l->slot, l->nr_slots * sizeof(*l->slot));
	l->slot = s;
	l->nr_slots = n;
	return 0;
}

static void first_access(struct hm_line *ln, struct hm_line_first *f, const struct hm_sample *s, u64 seq)
{
	/* what names the line (names.c): its first access */
	f->addr = s->addr;
	f->ip = s->ip;
	ln->first_pid = s->pid;
	ln->first_cpumode = s->misc & 7;
	f->seq = seq;
}

/* The line of @addr, its index in *@idx; a new one takes @s as its first access. */
static struct hm_line *find_or_add(struct hm_lines *l, u64 addr, const struct hm_sample *s, u64 seq,
				   size_t *idx)
{
	u32 hv = hash32(addr);
	size_t mask = l->nr_slots - 1, h = hv & mask;
	size_t ext = (l->nr_cpus + 63) / 64 * sizeof(u64) + l->nr_nodes * 3 * sizeof(u32);
	struct hm_line *ln;

	while (l->slot[h].idx) {
		if (l->slot[h].hash == hv && (ln = ln_at(l, l->slot[h].idx - 1))->addr == addr) {
			*idx = l->slot[h].idx - 1;
			return ln;
		}
		h = (h + 1) & mask;
	}
	ln = ln_next(l);
	if (!ln)
		return NULL;
	memset(ln, 0, l->stride);
	ln->addr = addr;
	*idx = l->nr;
	first_access(ln, first_of(l, ln, l->nr), s, seq);
	ln->ext_at = l->ext_at;
	if (!ln->ext_at) {
		/* one block: the CPU bitmap, then the per-node counters */
		u64 *cpus = hm_arena__alloc(&l->arena, ext);

		if (!cpus)
			return NULL;
		ln->ext[0] = (uintptr_t)cpus;
		ln->ext[1] = (uintptr_t)(cpus + (l->nr_cpus + 63) / 64);
	}
	l->slot[h].hash = hv;
	l->slot[h].idx = (u32)++l->nr;
	if (l->nr * 2 > l->nr_slots && rehash(l) < 0)
		return NULL;
	return ln;
}

static struct hm_line_off *find_off(struct hm_lines *l, struct hm_line *ln, u32 off)
{
	u32 lo = 0, hi = ln->nr_offs;

	/* offsets kept sorted; lines have few */
	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		if (ln->offs[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ln->nr_offs && ln->offs[lo].off == off)
		return &ln->offs[lo];
	if (ln->nr_offs == ln->alloc_offs) {
		u32 na = ln->alloc_offs ? ln->alloc_offs * 2 : 4;
		struct hm_line_off *no;

		if (log2u(na) >= 16)
			return NULL;
		no = blk_get(l, l->free_offs, log2u(na), sizeof(*no));
		if (!no)
			return NULL;
		if (ln->nr_offs) {
			memcpy(no, ln->offs, ln->nr_offs * sizeof(*no));
			blk_put(l->free_offs, log2u(ln->alloc_offs), ln->offs);
		}
		ln->offs = no;
		ln->alloc_offs = na;
	}
	memmove(&ln->offs[lo + 1], &ln->offs[lo], (ln->nr_offs - lo) * sizeof(*ln->offs));
	memset(&ln->offs[lo], 0, sizeof(*ln->offs));
	ln->offs[lo].off = off;
	ln->nr_offs++;
	return &ln->offs[lo];
}

int hm_lines__add(struct hm_lines *l, const struct hm_mem_sample *ms,
		  const struct hm_c2c_stats *one, int node_idx)
{
	return hm_lines__add_at(l, ms, one, node_idx, l->nr_added++, 0);
}

u32 hm_lines__lookup(const struct hm_lines *l, u64 line)
{
	u32 hv = hash32(line);
	size_t mask = l->nr_slots - 1, h = hv & mask;

	while (l->slot[h].idx) {
		if (l->slot[h].hash == hv && ln_at(l, l->slot[h].idx - 1)->addr == line)
			return l->slot[h].idx;
		h = (h + 1) & mask;
	}
	return 0;
}

u32 hm_lines__hint(const struct hm_lines *l, u64 line)
{
	u32 hv = hash32(line);
	size_t mask = l->nr_slots - 1, h = hv & mask;

	while (l->slot[h].idx) {
		if (l->slot[h].hash == hv)
			return l->slot[h].idx;
		h = (h + 1) & mask;
	}
	return 0;
}

void hm_lines__prefetch_at(const struct hm_lines *l, u32 hint, int stage)
{
	const struct hm_line *ln;

	if (!hint)
		return;
	ln = ln_at(l, hint - 1);
	if (stage == 0) {
		/* every cache line of it (lines are 64-byte aligned) */
		for (size_t o = 0; o < l->stride; o += 64)
			hm_prefetch((const char *)ln + o);
	} else {
		/* what the line points to: reading the line here waits for it, so only where there is some */
		if (!l->fill && ln->offs)
			hm_prefetch(ln->offs);
		if (!l->ext_at)
			hm_prefetch((const void *)(uintptr_t)ln->ext[0]);
	}
}

void hm_lines__prefetch_ips_at(const struct hm_lines *l, u32 hint, u64 addr)
{
	const struct hm_line *ln;
	u32 off, lo = 0, hi;

	if (!hint)
		return;
	ln = ln_at(l, hint - 1);
	off = (u32)(addr - ln->addr);
	hi = ln->nr_offs;
	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		if (ln->offs[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ln->nr_offs && ln->offs[lo].off == off && ln->offs[lo].ip)
		hm_prefetch(ln->offs[lo].ip);
}

int hm_lines__add_at(struct hm_lines *l, const struct hm_mem_sample *ms,
		     const struct hm_c2c_stats *one, int node_idx, u64 seq, u32 hint)
{
	return hm_lines__add_key(l, ms, one, node_idx, seq, hint, 0);
}

int hm_lines__add_key(struct hm_lines *l, const struct hm_mem_sample *ms,
		      const struct hm_c2c_stats *one, int node_idx, u64 seq, u32 hint, u32 pkey)
{
	const struct hm_sample *s = ms->s;
	struct hm_line *ln = hint ? ln_at(l, hint - 1) : NULL;
	u32 hitm = one->lcl_hitm + one->rmt_hitm;
	u32 peer = one->lcl_peer + one->rmt_peer;
	double w = (double)s->weight;
	int other = 0, err;
	size_t at = hint ? hint - 1 : 0;
	u32 i;

	if (!ln || ln->addr != ms->line)
		ln = find_or_add(l, ms->line, s, seq, &at);
	if (!ln)
		return -ENOMEM;
	if (pkey) {
		if (!ln->pkey)
			ln->pkey = pkey;	/* a new line */
		if ((ln->pkey & ~HM_LINE_PKEY_OTHER) != pkey) {
			ln->pkey |= HM_LINE_PKEY_OTHER;
			other = 1;
		}
	}
	/* only line 0 can have been first touched at address 0: then the first nonzero */
	if (!ms->line && !first_of(l, ln, at)->addr)
		first_access(ln, first_of(l, ln, at), s, seq);
	hm_c2c_stats__sum(&ln->st, one);
	if (hm_line__cat_slot(ms->cls.cat) >= 0)
		ln->cat[hm_line__cat_slot(ms->cls.cat)]++;
	ln->cost += w;
	if (ms->cls.load)
		ln->w_load += w;
	if (ms->cpu_socket >= 0 && ms->cpu_socket < 64)
		ln->sockets |= 1ULL << ms->cpu_socket;
	if (ms->data_node >= 0 && ms->data_node < 64)
		ln->data_nodes |= 1ULL << ms->data_node;
	/* perf's c2c_he__set_node(): phys 0 is skipped, not a change */
	if (s->phys_addr && s->phys_addr != ln->last_phys) {
		if (!ln->pa_cnt)
			first_of(l, ln, at)->phys = s->phys_addr;
		ln->pa_cnt++;
		ln->last_phys = s->phys_addr;
	}
	if ((s->sample_type & PERF_SAMPLE_CPU) && s->cpu < (u32)l->nr_cpus)
		cpus_of(ln)[s->cpu / 64] |= 1ULL << (s->cpu % 64);
	if (node_idx >= 0 && node_idx < l->nr_nodes) {
		u32 *node = node_of(ln);

		node[node_idx * 3] += hitm;
		node[node_idx * 3 + 1] += peer;
		node[node_idx * 3 + 2] += one->store;
	}
	for (i = 0; i < ln->nr_pids; i++)
		if (ln->pid[i] == s->pid)
			break;
	if (i == ln->nr_pids && i < HM_LINE_MAX_PIDS)
		ln->pid[ln->nr_pids++] = s->pid;
	if (l->fill)
		return other;	/* the offsets come later, for the lines shown */
	err = hm_lines__add_details(l, ln, ms, one);
	return err < 0 ? err : other;
}

int hm_lines__add_details(struct hm_lines *l, struct hm_line *ln, const struct hm_mem_sample *ms,
			  const struct hm_c2c_stats *one)
{
	const struct hm_sample *s = ms->s;
	struct hm_line_off *o;
	u32 hitm = one->lcl_hitm + one->rmt_hitm;
	double w = (double)s->weight;
	u32 i;

	o = find_off(l, ln, (u32)(s->addr - ms->line));
	if (!o)
		return -ENOMEM;
	o->lcl_hitm += one->lcl_hitm;
	o->rmt_hitm += one->rmt_hitm;
	o->store += one->store;
	o->load += one->ld_fbhit + one->ld_l1hit + one->ld_l2hit + one->ld_llchit + one->lcl_hitm +
		   one->lcl_dram + one->rmt_dram + one->rmt_hitm + one->rmt_hit;
	if (ms->cls.cat == HM_CAT_HITM_XDIE)
		o->hitm_xdie++;
	if (ms->cls.load) {
		o->w_load += (float)w;
		o->n_load++;
	}
	if (hitm) {
		o->w_hitm += (float)w;
		o->n_hitm++;
	}
	for (i = 0; i < o->nr_ips; i++)
		if (o->ip[i].ip == s->ip && o->ip[i].pid == s->pid)
			break;
	if (i == o->nr_ips) {
		if (i == HM_LINE_MAX_IPS) {
			o->ips_dropped++;
			return 0;
		}
		if (o->nr_ips == o->alloc_ips) {
			u8 na = o->alloc_ips ? o->alloc_ips * 2 : 1;
			struct hm_line_ip *ni = blk_get(l, l->free_ips, log2u(na), sizeof(*ni));

			if (!ni)
				return -ENOMEM;
			if (o->nr_ips) {
				memcpy(ni, o->ip, o->nr_ips * sizeof(*ni));
				blk_put(l->free_ips, log2u(o->alloc_ips), o->ip);
			}
			o->ip = ni;
			o->alloc_ips = na;
		}
		o->ip[i] = (struct hm_line_ip){ .ip = s->ip, .pid = s->pid, .tid = s->tid,
						.cpumode = s->misc & 7 };
		o->nr_ips++;
	}
	if (o->ip[i].nr < HM_LINE_IP_NR_MAX)
		o->ip[i].nr++;
	if (hitm && o->ip[i].hitm < 0xffff)
		o->ip[i].hitm++;
	if (one->store && o->ip[i].store < 0xffff)
		o->ip[i].store++;
	return 0;
}

/* Take over @src's arena chunks (the blocks its lines point to). */
static int arena_adopt(struct hm_arena *dst, struct hm_arena *src)
{
	size_t need = dst->nr_chunks + src->nr_chunks;

	if (need > dst->alloc_chunks) {
		void **nc = realloc(dst->chunks, (need ? need : 1) * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		dst->chunks = nc;
		dst->alloc_chunks = need;
	}
	if (src->nr_chunks)	/* both may be empty: no memcpy from/to NULL */
		memcpy(dst->chunks + dst->nr_chunks, src->chunks, src->nr_chunks * sizeof(void *));
	dst->nr_chunks = need;
	dst->bytes += src->bytes;
	free(src->chunks);
	memset(src, 0, sizeof(*src));
	return 0;
}

struct hm_lines *hm_lines__merge(struct hm_lines **parts, int n)
{
	struct hm_lines *l = NULL;
	size_t total = 0, *pos = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (!parts[i] || parts[i]->stride != parts[0]->stride)
			goto out;	/* lines of one shape only: one machine's */
	if (n == 1) {
		l = parts[0];
		parts[0] = NULL;
		goto out;
	}
	for (i = 0; i < n; i++)
		total += parts[i]->nr;
	l = hm_lines__new(parts[0]->cls, parts[0]->nr_cpus, parts[0]->nr_nodes);
	pos = calloc(n > 0 ? (size_t)n : 1, sizeof(*pos));
	if (!l || !pos)
		goto fail;
	/* the parts' slots are not read: freed before the merged table grows */
	for (i = 0; i < n; i++) {
		hm_big__free(parts[i]->slot, parts[i]->nr_slots * sizeof(*parts[i]->slot));
		parts[i]->slot = NULL;
	}
	/* k-way merge on the first sample's number: the single pass's order */
	while (l->nr < total) {
		struct hm_line *ln = ln_next(l);
		int best = -1;
		size_t j;

		if (!ln)
			goto fail;
		for (i = 0; i < n; i++)
			if (pos[i] < parts[i]->nr &&
			    (best < 0 || first_of(parts[i], ln_at(parts[i], pos[i]), pos[i])->seq <
					 first_of(parts[best], ln_at(parts[best], pos[best]), pos[best])->seq))
				best = i;
		memcpy(ln, ln_at(parts[best], pos[best]), l->stride);
		*first_of(l, ln, l->nr) = *first_of(parts[best], ln_at(parts[best], pos[best]), pos[best]);
		pos[best]++;
		l->nr++;
		/* a part's segment read to its end is unmapped: no two copies of every line */
		j = pos[best] + SEG0;
		if (!(j & (j - 1)))
			seg_free(parts[best], seg_of(pos[best]) - 1);	/* the one before pos's */
	}
	while (l->nr * 2 > l->nr_slots)
		if (rehash(l) < 0)
			goto fail;
	for (size_t k = 0; k < l->nr; k++) {
		u32 hv = hash32(ln_at(l, k)->addr);
		size_t mask = l->nr_slots - 1, h = hv & mask;

		while (l->slot[h].idx)
			h = (h + 1) & mask;
		l->slot[h].hash = hv;
		l->slot[h].idx = (u32)k + 1;
	}
	for (i = 0; i < n; i++) {
		l->nr_added += parts[i]->nr_added;
		if (arena_adopt(&l->arena, &parts[i]->arena) < 0)
			goto fail;
	}
	goto out;
fail:
	hm_lines__delete(l);
	l = NULL;
out:
	free(pos);
	for (i = 0; i < n; i++)
		hm_lines__delete(parts[i]);
	return l;
}

void hm_lines__set_prefault(struct hm_lines *l, struct hm_prefault *pf)
{
	l->pf = pf;
}

void hm_lines__defer_details(struct hm_lines *l, hm_lines_fill_fn fill, void *priv)
{
	l->fill = fill;
	l->fill_priv = priv;
}

bool hm_lines__deferred(const struct hm_lines *l)
{
	return l->fill != NULL;
}

struct hm_line *hm_lines__at(struct hm_lines *l, u32 hint)
{
	return hint && hint <= l->nr ? ln_at(l, hint - 1) : NULL;
}

int hm_lines__fill(struct hm_lines *l, struct hm_line *const *v, size_t n)
{
	size_t want = 0;
	int err;

	if (!l->fill)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!v[i]->details) {
			v[i]->details = 1;
			want++;
		}
	if (!want)
		return 0;
	err = l->fill(l->fill_priv, l);
	for (size_t i = 0; i < l->nr; i++)
		if (ln_at(l, i)->details == 1)
			ln_at(l, i)->details = err < 0 ? 0 : 2;
	return err;
}

void hm_lines__prefetch_slot(const struct hm_lines *l, u64 line)
{
	hm_prefetch(&l->slot[hash32(line) & (l->nr_slots - 1)]);
}

size_t hm_lines__count(const struct hm_lines *l)
{
	return l ? l->nr : 0;
}

struct hm_line *hm_lines__get(struct hm_lines *l, size_t i)
{
	return l && i < l->nr ? ln_at(l, i) : NULL;
}

int hm_lines__nr_cpus(const struct hm_lines *l)
{
	return l->nr_cpus;
}

u32 hm_lines__cacheline(const struct hm_lines *l)
{
	return l->cls;
}

size_t hm_lines__bytes(const struct hm_lines *l)
{
	return l->arena.bytes + l->alloc * (l->stride + (l->first_at ? 0 : sizeof(struct hm_line_first))) +
	       l->nr_slots * sizeof(struct slot);
}

double hm_line__metric(const struct hm_line *ln, enum hm_sort s)
{
	switch (s) {
	case HM_SORT_RMT:	return ln->st.rmt_hitm;
	case HM_SORT_LCL:	return ln->st.lcl_hitm;
	case HM_SORT_PEER:	return ln->st.tot_peer;
	case HM_SORT_COST:	return ln->cost;
	case HM_SORT_TOT:
	default:		return ln->st.tot_hitm;
	}
}

static enum hm_sort sort_key;

static int line_cmp(const void *a, const void *b)
{
	const struct hm_line *x = *(const struct hm_line *const *)a;
	const struct hm_line *y = *(const struct hm_line *const *)b;
	double mx = hm_line__metric(x, sort_key), my = hm_line__metric(y, sort_key);

	if (mx != my)
		return mx > my ? -1 : 1;
	/* ties: more HITM, then stores, then address */
	if (x->st.tot_hitm != y->st.tot_hitm)
		return x->st.tot_hitm > y->st.tot_hitm ? -1 : 1;
	if (x->st.store != y->st.store)
		return x->st.store > y->st.store ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* perf's "shared": HITM or peer loads by perf's counters (so the table has perf's lines). */
static bool is_shared(const struct hm_line *ln)
{
	return ln->st.lcl_hitm || ln->st.rmt_hitm || ln->st.lcl_peer || ln->st.rmt_peer;
}

/*
 * perf's he__display(): --show-all shows every line, HITM or not; else a
 * line shows when its metric is at least 0.1% of the shared lines' total.
 * -d cost (hitmap's) weighs every line, as the Pareto view does
 * (render-pareto.c): lines without HITMs (DRAM, locks) show by their cost.
 */
struct hm_line **hm_lines__shared(struct hm_lines *l, enum hm_sort s, bool all, size_t *n)
{
	struct hm_line **v = malloc((l->nr ? l->nr : 1) * sizeof(*v));
	bool every = s == HM_SORT_COST;
	double total = 0;
	size_t k = 0;
	int err;

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < l->nr; i++)
		if (every || is_shared(ln_at(l, i)))
			total += hm_line__metric(ln_at(l, i), s);
	for (size_t i = 0; i < l->nr; i++) {
		struct hm_line *ln = ln_at(l, i);

		if (!all && ((!every && !is_shared(ln)) || total <= 0 ||
			     hm_line__metric(ln, s) / total < 0.001))
			continue;
		v[k++] = ln;
	}
	sort_key = s;
	qsort(v, k, sizeof(*v), line_cmp);
	err = hm_lines__fill(l, v, k);
	if (err < 0) {
		free(v);
		errno = -err;
		return NULL;
	}
	*n = k;
	return v;
}

#define MERGE_D	4

/* @src's line @b (its @bi), new to @dst, appended to it as it is (its own bitmap and counters); 0 or -ENOMEM. */
static int merge_new_line(struct hm_lines *dst, const struct hm_lines *src, const struct hm_line *b,
			  size_t bi, u64 seq_base)
{
	size_t words = (dst->nr_cpus + 63) / 64, ai;
	const struct hm_line_first *bf = first_of(src, b, bi);
	struct hm_sample s = { .addr = bf->addr, .ip = bf->ip, .pid = b->first_pid,
			       .misc = b->first_cpumode };
	struct hm_line *a = find_or_add(dst, b->addr, &s, bf->seq + seq_base, &ai);
	u64 blk[2];

	if (!a)
		return -ENOMEM;
	blk[0] = a->ext[0];
	blk[1] = a->ext[1];
	memcpy(a, b, dst->stride);
	*first_of(dst, a, ai) = *bf;
	first_of(dst, a, ai)->seq = bf->seq + seq_base;
	if (!a->ext_at) {
		a->ext[0] = blk[0];
		a->ext[1] = blk[1];
		memcpy(cpus_of(a), hm_line__cpus(b), words * sizeof(u64));
		if (dst->nr_nodes)
			memcpy(node_of(a), hm_line__node(b), dst->nr_nodes * 3 * sizeof(u32));
	}
	return 0;
}

/*
 * @src's line @b (its @bi) into @dst's line @a (its @ai) of the same
 * address (its pkey is perf's merge's).
 */
static void merge_found_line(const struct hm_lines *dst, struct hm_line *a, size_t ai,
			     const struct hm_lines *src, const struct hm_line *b, size_t bi, u64 seq_base)
{
	size_t words = (dst->nr_cpus + 63) / 64;
	struct hm_line_first *af = first_of(dst, a, ai);
	const struct hm_line_first *bf = first_of(src, b, bi);
	u32 i, j;

	/* line 0 first touched at address 0 here: the first nonzero access names it */
	if (!a->addr && !af->addr && bf->addr) {
		af->addr = bf->addr;
		af->ip = bf->ip;
		a->first_pid = b->first_pid;
		a->first_cpumode = b->first_cpumode;
		af->seq = bf->seq + seq_base;
	}
	hm_c2c_stats__sum(&a->st, &b->st);
	for (i = 0; i < HM_LINE_CATS; i++)
		a->cat[i] += b->cat[i];
	a->cost += b->cost;
	a->w_load += b->w_load;
	a->sockets |= b->sockets;
	a->data_nodes |= b->data_nodes;
	if (b->pa_cnt) {
		/* the part counted its first address as a change from none */
		if (!a->pa_cnt)
			af->phys = bf->phys;
		a->pa_cnt += b->pa_cnt - (a->last_phys && a->last_phys == bf->phys);
		a->last_phys = b->last_phys;
	}
	for (i = 0; i < words; i++)
		cpus_of(a)[i] |= hm_line__cpus(b)[i];
	for (i = 0; i < (u32)dst->nr_nodes * 3; i++)
		node_of(a)[i] += hm_line__node(b)[i];
	for (j = 0; j < b->nr_pids; j++) {
		for (i = 0; i < a->nr_pids; i++)
			if (a->pid[i] == b->pid[j])
				break;
		if (i == a->nr_pids && i < HM_LINE_MAX_PIDS)
			a->pid[a->nr_pids++] = b->pid[j];
	}
}

static bool merge_swaps(const struct hm_lines *dst, u64 seq_base)
{
	return !dst->nr && !seq_base && !dst->nr_added;
}

int hm_lines__merge_found(struct hm_lines *dst, const struct hm_lines *src, u64 seq_base, u64 **fresh)
{
	size_t n = src->nr;
	u64 *bits;

	*fresh = NULL;
	if (src->nr_cpus != dst->nr_cpus || src->nr_nodes != dst->nr_nodes || !dst->fill || !src->fill)
		return -EINVAL;
	if (merge_swaps(dst, seq_base))
		return 0;	/* hm_lines__merge_new takes @src as it is */
	bits = calloc(n / 64 + 1, sizeof(*bits));
	if (!bits)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		const struct hm_line *b = ln_at(src, k);
		u32 idx;

		/* the lookups ahead: @src's line 4 * MERGE_D on, a slot 2 * MERGE_D, its line MERGE_D */
		if (k + 4 * MERGE_D < n)
			hm_prefetch(ln_at(src, k + 4 * MERGE_D));
		if (k + 2 * MERGE_D < n)
			hm_lines__prefetch_slot(dst, ln_at(src, k + 2 * MERGE_D)->addr);
		if (k + MERGE_D < n)
			hm_lines__prefetch_at(dst, hm_lines__hint(dst, ln_at(src, k + MERGE_D)->addr), 0);
		idx = hm_lines__lookup(dst, b->addr);
		if (idx)
			merge_found_line(dst, ln_at(dst, idx - 1), idx - 1, src, b, k, seq_base);
		else
			bits[k / 64] |= 1ULL << (k % 64);
	}
	*fresh = bits;
	return 0;
}

int hm_lines__merge_new(struct hm_lines *dst, struct hm_lines *src, u64 seq_base, u64 *fresh)
{
	size_t k = 0;

	if (src->nr_cpus != dst->nr_cpus || src->nr_nodes != dst->nr_nodes || !dst->fill || !src->fill)
		return -EINVAL;
	if (merge_swaps(dst, seq_base)) {
		/* the first part: its table as it is, @dst's deferral kept */
		struct hm_lines t = *dst;

		*dst = *src;
		dst->fill = t.fill;
		dst->fill_priv = t.fill_priv;
		*src = t;
		return 0;
	}
	if (!fresh && src->nr)
		return -EINVAL;
	/*
	 * The new lines in @src's order, each segment unmapped once passed,
	 * the slots at once (@src's lines are not looked up any more): the
	 * merge holds little more than @dst, not both tables and @dst's growth.
	 */
	hm_big__free(src->slot, src->nr_slots * sizeof(*src->slot));
	src->slot = NULL;
	for (int g = 0; g < MAX_SEGS && src->seg[g]; g++) {
		for (size_t e = k + seg_lines(g); k < e && k < src->nr; k++) {
			int err;

			if (!(fresh[k / 64] >> (k % 64) & 1))
				continue;
			err = merge_new_line(dst, src, ln_at(src, k), k, seq_base);
			if (err < 0)
				return err;
		}
		seg_free(src, g);
	}
	dst->nr_added += src->nr_added;
	/* @src left empty */
	hm_arena__release(&src->arena);
	memset(src->free_offs, 0, sizeof(src->free_offs));
	memset(src->free_ips, 0, sizeof(src->free_ips));
	src->nr = src->alloc = 0;
	src->pop_end = src->pop_lim = NULL;	/* its segments are unmapped */
	src->nr_added = 0;
	src->nr_slots = 1024;
	src->slot = hm_big__alloc(src->nr_slots * sizeof(*src->slot));
	return src->slot ? 0 : -ENOMEM;
}

int hm_lines__merge_after(struct hm_lines *dst, struct hm_lines *src, u64 seq_base)
{
	u64 *fresh;
	int err = hm_lines__merge_found(dst, src, seq_base, &fresh);

	if (!err)
		err = hm_lines__merge_new(dst, src, seq_base, fresh);
	free(fresh);
	return err;
}
