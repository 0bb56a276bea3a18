// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap report: one streaming pass over a perf.data file.
 *
 *   read -> maps (non-sample records) -> classify (perf's counters and
 *   hitmap's categories) -> resolve (socket, node, data node, futex bucket)
 *   -> aggregate (totals, cache lines, perf's level-1 entries, buckets)
 *
 * perf's level-1 entries (perf-lines.c) reproduce perf c2c's cache-line
 * grouping so that the Global Shared Cache Line block has perf's numbers;
 * this file builds their key (data map ids below).  hitmap's own table
 * (lines.c) has one row per virtual line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/futex_infer.h>
#include <hitmap/log.h>
#include "report.h"
#include "lines.h"
#include "pareto.h"
#include "parallel.h"
#include "util/bigalloc.h"
#include "places.h"
#include "perf-lines.h"
#include "details.h"
#include "dsrc-cache.h"

/* ------------------------------------------- data map ids of perf's level-1 key */

/*
 * perf compares data maps by their DSO's id (maj, min, ino, ino_generation
 * from MMAP2; zero for MMAP, build-id MMAP2 and anonymous memory) and groups
 * private user memory with a zero id by pid.  hm_map has no id, so the ids
 * are taken from the MMAP2 records here, keyed by the map they created.
 */
struct hm_map_ids {
	struct { const struct hm_map *map; u32 id; } *e;
	size_t nr, nr_slots;
};

static size_t ptr_hash(const void *p)
{
	u64 x = (u64)(uintptr_t)p * 0x9e3779b97f4a7c15ULL;

	return (size_t)(x ^ (x >> 29));
}

static int map_ids__put(struct hm_map_ids *t, const struct hm_map *map, u32 id)
{
	size_t h;

	if ((t->nr + 1) * 2 > t->nr_slots) {
		size_t ns = t->nr_slots ? t->nr_slots * 2 : 256;
		__typeof__(t->e) ne = calloc(ns, sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		for (size_t i = 0; i < t->nr_slots; i++) {
			if (!t->e[i].map)
				continue;
			h = ptr_hash(t->e[i].map) & (ns - 1);
			while (ne[h].map)
				h = (h + 1) & (ns - 1);
			ne[h] = t->e[i];
		}
		free(t->e);
		t->e = ne;
		t->nr_slots = ns;
	}
	h = ptr_hash(map) & (t->nr_slots - 1);
	while (t->e[h].map && t->e[h].map != map)
		h = (h + 1) & (t->nr_slots - 1);
	if (!t->e[h].map)
		t->nr++;
	t->e[h].map = map;
	t->e[h].id = id;
	return 0;
}

static u32 map_ids__get(const struct hm_map_ids *t, const struct hm_map *map)
{
	size_t h;

	if (!t->nr)
		return 0;
	h = ptr_hash(map) & (t->nr_slots - 1);
	while (t->e[h].map) {
		if (t->e[h].map == map)
			return t->e[h].id;
		h = (h + 1) & (t->nr_slots - 1);
	}
	return 0;
}

/* After an MMAP2 with a device/inode: remember the id of the map it made. */
static int map_ids__note(struct hm_map_ids *t, const struct hm_maps *maps, const struct hm_event *ev)
{
	const u8 *d = ev->data;
	u32 pid, maj, min;
	u64 addr, ino, gen, x;
	const struct hm_map *map;

	if (ev->type != PERF_RECORD_MMAP2 || ev->size < 8 + 8 + 24 + 24 ||
	    (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
		return 0;
	memcpy(&pid, d + 8, 4);
	memcpy(&addr, d + 16, 8);
	memcpy(&maj, d + 40, 4);
	memcpy(&min, d + 44, 4);
	memcpy(&ino, d + 48, 8);
	memcpy(&gen, d + 56, 8);
	if (!maj && !min && !ino && !gen)
		return 0;
	map = hm_maps__find(maps, pid, ev->misc & 7, addr);
	if (!map || map->start != addr)
		return 0;
	x = ((u64)maj << 40 ^ (u64)min << 20 ^ ino ^ gen << 32) * 0xff51afd7ed558ccdULL;
	return map_ids__put(t, map, (u32)(x >> 32) | 1);
}

/* ---------------------------------------------------------------- report */

struct hm_report *hm_report__new(const struct hm_report_opts *opts)
{
	struct hm_report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->opts = *opts;
	r->name = hm_reader__name_of(opts->input);
	if (!r->opts.cacheline_size)
		r->opts.cacheline_size = 64;
	if (r->opts.cacheline_size & (r->opts.cacheline_size - 1)) {
		hm_err("cache line size %u is not a power of two; use 64 or 128",
		       r->opts.cacheline_size);
		free(r);
		errno = EINVAL;
		return NULL;
	}
	if (r->opts.want_lines || r->opts.want_buckets || r->opts.pareto)
		r->opts.counts_only = false;	/* a view that reads more than the counts */
	return r;
}

void hm_report__delete(struct hm_report *r)
{
	if (!r)
		return;
	if (r->buckets)
		hm_buckets__delete(r->buckets);
	hm_par__delete(r->par);
	hm_lines__delete(r->lines);
	hm_pareto__delete(r->pareto);
	hm_perf_lines__delete(r->perf_lines);
	hm_maps__delete(r->maps);	/* before the symbols it loads kallsyms from */
	hm_symbols__delete(r->syms);
	hm_report__chunks_delete(r->chunks);
	hm_futex_observer__delete(r->infer);
	hm_futex_model__release(&r->futex);
	hm_meta__delete(r->meta);
	hm_topo__delete(r->topo);
	hm_reader__delete(r->reader);
	free(r->cpu_node_idx);
	free(r->cpu_place);
	hm_places__delete(r->places);
	if (r->map_ids)
		free(r->map_ids->e);
	free(r->map_ids);
	hm_dsrc_cache__delete(r->dsrc_cache);
	free(r);
}

static int setup_futex(struct hm_report *r)
{
	enum hm_futex_era era;
	const char *rel = r->opts.kernel_release;
	u32 len;
	char buf[64];
	int err;

	if (!rel) {
		const char *k = hm_meta__find(r->meta, HM_META_KERNEL, &len);

		if (k && len) {
			snprintf(buf, sizeof(buf), "%.*s", (int)(len < 63 ? len : 63), k);
			rel = buf;
		}
	}
	if (!rel)
		rel = r->header->osrelease;
	era = hm_futex_era__from_release(rel ? rel : "");
	if (era >= HM_FUTEX_ERA__MAX) {
		/* no or unparsable release: the c2c views do not need it */
		if (r->opts.want_buckets || r->opts.nr_futex_tables)
			hm_warn("%s: kernel release '%s' unknown; assuming the 6.17 futex layout "
				"(%s)", r->name, rel ? rel : "",
				r->opts.kernel_release ? "--kernel takes a release such as 6.16.3 or 6.12.30"
						       : "give --kernel REL");
		era = HM_FUTEX_ERA_6_17;
	}
	err = hm_futex_model__init(&r->futex, era);
	if (err < 0)
		return err;
	err = hm_futex_model__from_meta(&r->futex, r->meta);
	if (err < 0)
		hm_warn("%s: futex tables in the hitmap metadata are unreadable; ignoring them",
			r->name);
	hm_futex_model__note_geometry(&r->futex, "metadata");
	for (int i = 0; i < r->opts.nr_futex_tables; i++) {
		struct hm_futex_table t;

		err = hm_futex_table__parse(r->opts.futex_tables[i], &t);
		if (err < 0)
			return err;
		err = hm_futex_model__add_table(&r->futex, &t);
		if (err < 0)
			return err;
	}
	hm_futex_model__note_geometry(&r->futex, "given (--futex-table)");
	return 0;
}

static int setup_nodes(struct hm_report *r)
{
	int nr_cpus = hm_topo__nr_cpus(r->topo);

	r->cpu_node_idx = malloc((nr_cpus ? nr_cpus : 1) * sizeof(int));
	if (!r->cpu_node_idx)
		return -ENOMEM;
	r->places = hm_places__new(r->topo);
	if (!r->places)
		return -ENOMEM;
	for (int c = 0; c < nr_cpus; c++) {
		int node = hm_topo__cpu_node(r->topo, c);

		r->cpu_node_idx[c] = -1;
		for (int i = 0; node >= 0 && i < hm_topo__nr_nodes(r->topo); i++)
			if (hm_topo__node_id(r->topo, i) == node)
				r->cpu_node_idx[c] = i;
	}
	return 0;
}

/* perf's al_addr: identity for the kernel image, map-relative otherwise. */
static u64 al_addr(const struct hm_map *map, u64 addr)
{
	if (!map || map->type == HM_MAP_VMLINUX)
		return addr;
	return addr - map->start + map->pgoff;
}

/*
 * Samples are processed in batches: the hash tables are far larger than the
 * caches, so each sample costs a few cache misses; resolving a batch first
 * and prefetching its slots, then its entries, overlaps those misses.
 * Non-sample records flush the batch, so maps are always current.
 */
#define BATCH 64

struct pending {
	/*
	 * The reader decodes each record into the next free slot's event
	 * (copying a sample out of an event cost a tenth of the pass's
	 * instructions outside the tables); s is that event's sample.  A
	 * sample kept owns what it points to: the RAW payload is copied into
	 * the batch's arena (struct batch); the other pointer fields (read
	 * values, call chain, branches) are cleared.  Nothing here points into
	 * the reader's buffers, which the next hm_reader__next may reuse.
	 */
	union {
		struct hm_event	ev;
		struct {
			u8		ev_head[offsetof(struct hm_event, sample)];
			struct hm_sample s;
		};
	};
	const struct hm_map	*dmap, *imap;
	struct perf_key		k;
	u64			kh;		/* k's hash; with pkey, (line, pkey)'s (flush) */
	u32			pkey;		/* hm_perf_lines__key_id of k: counted through the line */
	u32			lhint;		/* hm_lines__hint of its line */
};

_Static_assert(offsetof(struct pending, s) == offsetof(struct pending, ev.sample),
	       "pending.s is its event's sample");

/* perf's level-1 entries and the places are built (futex_views_only, counts_only: not read). */
static inline bool perf_keys(const struct hm_report *r)
{
	return !r->opts.futex_views_only && !r->opts.counts_only;
}

static void resolve(struct hm_report *r, struct pending *p)
{
	const struct hm_sample *s = &p->s;
	u8 cpumode = s->misc & 7;
	u64 cl = ~(u64)(r->opts.cacheline_size - 1);

	p->dmap = p->imap = NULL;
	p->pkey = 0;
	if (r->maps) {
		/* perf's order: the ip first (it may load kallsyms), then the data */
		p->imap = hm_maps__find_ip_thread(r->maps, s->pid, s->tid, s->ip);
		p->dmap = hm_maps__find_thread(r->maps, s->pid, s->tid, cpumode, s->addr);
	}
	if (!perf_keys(r))
		return;		/* the key is what perf's line table and the Pareto read */
	/* perf's level-1 entry (sort__dcacheline_cmp) */
	memset(&p->k, 0, sizeof(p->k));
	p->k.cpumode = cpumode;
	p->k.mapped = p->dmap != NULL;
	if (p->dmap)
		p->k.dso_id = map_ids__get(r->map_ids, p->dmap);
	if (p->dmap && cpumode != PERF_RECORD_MISC_KERNEL && !(p->dmap->flags & MAP_SHARED) &&
	    !p->k.dso_id)
		p->k.pid = s->pid;
	p->k.line = al_addr(p->dmap, s->addr) & cl;
	/* a sample that goes to the line table counts for perf's entries there (perf-lines.h) */
	if (r->lines && s->addr)
		p->pkey = hm_perf_lines__key_id(r->perf_lines, &p->k, s->addr & cl);
	p->kh = p->pkey ? 0 : hm_perf_key__hash(&p->k);
}

/* The sample's data_src decoded (dsrc-cache.h); counted in r->c2c with @count. */
static const struct hm_dsrc_ent *classify(struct hm_report *r, u64 data_src, u64 daddr, bool mapped,
					  bool count)
{
	const struct hm_dsrc_how how = { r->vendor, r->opts.perf_compat, r->par };

	return hm_dsrc_cache__get(r->dsrc_cache, &how, data_src, daddr, mapped,
				  count ? &r->c2c : NULL);
}

/* A CPU's topology, read once a sample (the topology's lookups, in one place). */
struct hm_cpu_place {
	int	socket, node;
	int	node_idx;	/* r->cpu_node_idx */
};

/* r->cpu_place, from the topology and r->cpu_node_idx (a part's are its whole's). */
static int cpu_places(struct hm_report *r)
{
	int n = hm_topo__nr_cpus(r->topo);

	r->cpu_place = malloc((n ? n : 1) * sizeof(*r->cpu_place));
	if (!r->cpu_place)
		return -ENOMEM;
	for (int c = 0; c < n; c++) {
		r->cpu_place[c].socket = hm_topo__cpu_socket(r->topo, c);
		r->cpu_place[c].node = hm_topo__cpu_node(r->topo, c);
		r->cpu_place[c].node_idx = r->cpu_node_idx[c];
	}
	r->nr_cpu_place = n;
	return 0;
}

static int process_sample(struct hm_report *r, const struct pending *p)
{
	const struct hm_sample *s = &p->s;
	struct hm_mem_sample ms;
	const struct hm_dsrc_ent *de;
	const struct hm_c2c_stats *one;
	bool has_cpu = s->sample_type & PERF_SAMPLE_CPU;
	int node_idx = -1, one_idx, err;
	u8 cd;

	memset(&ms, 0, sizeof(ms));
	ms.s = s;
	ms.compat = r->opts.perf_compat;
	ms.mapped = p->dmap && p->imap;
	de = classify(r, s->data_src, s->addr, ms.mapped, true);
	if (!de)
		return -ENOMEM;
	one = &de->one;
	ms.perf = one;
	ms.cls = de->cls;
	one_idx = de->one_idx;
	cd = de->cdiff;
	if (cd != 0xff && !r->cdiff.n[cd][ms.cls.cat]++) {
		r->cdiff.data_src[cd][ms.cls.cat] = s->data_src;
		r->cdiff.remote[cd][ms.cls.cat] = one->rmt_dram != 0;
	}
	r->cats.nr[ms.cls.cat]++;
	r->nr_samples++;

	if (has_cpu) {
		if (s->cpu < r->nr_cpu_place) {
			const struct hm_cpu_place *cp = &r->cpu_place[s->cpu];

			ms.cpu_socket = cp->socket;
			ms.cpu_node = cp->node;
			node_idx = cp->node_idx;
		} else {
			ms.cpu_socket = ms.cpu_node = -1;
		}
	} else {
		ms.cpu_socket = ms.cpu_node = -1;
		r->nr_nocpu++;
	}
	/* the data's node: read by every view but the counts alone (a search a sample) */
	ms.data_node = s->phys_addr && (!r->opts.counts_only || r->opts.on_sample) ?
		       hm_topo__phys_node(r->topo, s->phys_addr) : -1;
	ms.line = s->addr & ~(u64)(r->opts.cacheline_size - 1);
	if (perf_keys(r)) {	/* what only the other views read */
		hm_places__add(r->places, &ms);
		if (!p->pkey) {
			if (r->lines && s->addr)
				return -ENOMEM;	/* hm_perf_lines__key_id failed */
			err = hm_perf_lines__add(r->perf_lines, &p->k, p->kh, one);
			if (err < 0)
				return err;
		}
	}
	/* the futex views read it, and an on_sample hook may: not the line table's views */
	if (r->futex.nr_tables && (r->buckets || r->opts.on_sample))
		hm_futex_model__resolve(&r->futex, s->addr, &ms.futex);
	if (r->par && s->addr) {
		/* the line's worker adds it (parallel.c), in the pass's order */
		if (one_idx < 0)
			return one_idx;
		err = hm_par__add(r->par, &ms, one_idx, node_idx, r->nr_samples);
		if (err < 0)
			return err;
	} else if (r->lines && s->addr) {
		err = hm_lines__add_key(r->lines, &ms, one, node_idx, r->nr_samples, p->lhint, p->pkey);
		if (err > 0)	/* not the perf key of the line's first sample */
			err = hm_perf_lines__add_other(r->perf_lines, ms.line, p->pkey, one);
		if (err < 0)
			return err;
	}
	if (r->pareto) {
		struct hm_pareto_key pk = { .line = p->k.line, .pid = p->k.pid, .dso_id = p->k.dso_id,
					    .cpumode = p->k.cpumode, .mapped = p->k.mapped };

		err = hm_pareto__add(r->pareto, &pk, &ms, one, p->imap);
		if (err < 0)
			return err;
	}
	if (r->buckets) {
		err = hm_buckets__add(r->buckets, r, &ms);
		if (err < 0)
			return err;
	}
	if (r->opts.on_sample) {
		err = r->opts.on_sample(r->opts.on_sample_priv, r, &ms);
		if (err < 0)
			return err;
	}
	return 0;
}

/*
 * Software pipeline over the batch: sample i + 3D gets its hash slots
 * prefetched, i + 2D its line and perf entry, i + D its line's offsets,
 * while sample i is processed; D bounds the misses in flight.
 */
#define PF_D 2

static int flush(struct hm_report *r, struct pending *b, int n)
{
	struct hm_perf_lines *pl = r->perf_lines, *t;
	u64 cl = ~(u64)(r->opts.cacheline_size - 1);
	bool deferred = r->lines && hm_lines__deferred(r->lines);
	int i, err;

	if (!r->cpu_place && (err = cpu_places(r)) < 0)
		return err;
	for (i = 0; i < n; i++)
		resolve(r, &b[i]);
	for (i = -3 * PF_D; i < n; i++) {
		int j = i + 3 * PF_D, k = i + 2 * PF_D, m = i + PF_D;

		if (j < n) {
			/* perf's entry, or where the line counts it, the other keys' (if any) */
			t = b[j].pkey ? pl->other : pl;
			if (b[j].pkey && t)
				b[j].kh = hm_perf_lines__other_hash(b[j].s.addr & cl, b[j].pkey);
			if (perf_keys(r))
				hm_perf_lines__prefetch(t, b[j].kh, 2);
			if (r->lines && b[j].s.addr)
				hm_lines__prefetch_slot(r->lines, b[j].s.addr & cl);
		}
		if (k >= 0 && k < n) {
			if (perf_keys(r))
				hm_perf_lines__prefetch(b[k].pkey ? pl->other : pl, b[k].kh, 1);
			b[k].lhint = 0;
			if (r->lines && b[k].s.addr) {
				b[k].lhint = hm_lines__hint(r->lines, b[k].s.addr & cl);
				hm_lines__prefetch_at(r->lines, b[k].lhint, 0);
			}
		}
		if (m >= 0 && m < n && r->lines)
			hm_lines__prefetch_at(r->lines, b[m].lhint, 1);
		if (i + PF_D / 2 >= 0 && i + PF_D / 2 < n && r->lines && !deferred)
			hm_lines__prefetch_ips_at(r->lines, b[i + PF_D / 2].lhint, b[i + PF_D / 2].s.addr);
		if (i >= 0) {
			err = process_sample(r, &b[i]);
			if (err < 0)
				return err;
		}
	}
	return 0;
}

struct details {
	struct hm_report	*r;
	struct hm_lines		*l;
};

/* One sample of a line shown, to its details (on the detail pipe's thread with threads > 1). */
static int detail_add(void *priv, const struct hm_detail *d)
{
	struct details *dt = priv;
	struct hm_report *r = dt->r;
	struct hm_sample s = { .ip = d->ip, .addr = d->addr, .weight = d->weight,
			       .data_src = d->data_src, .pid = d->pid, .tid = d->tid, .misc = d->misc };
	struct hm_mem_sample ms;
	const struct hm_dsrc_ent *de = classify(r, s.data_src, s.addr, d->mapped, false);

	if (!de)
		return -ENOMEM;
	memset(&ms, 0, sizeof(ms));
	ms.s = &s;
	ms.line = s.addr & ~(u64)(r->opts.cacheline_size - 1);
	ms.cls = de->cls;
	return hm_lines__add_details(dt->l, d->ln, &ms, &de->one);
}

/* The deferred details' second read (report-details.c), each sample added by detail_add. */
static int details_pass(void *priv, struct hm_lines *l)
{
	struct details dt = { priv, l };

	return hm_report__details_read(priv, l, detail_add, &dt);
}

/* Offsets later, from a second read: only a file can be read twice. */
static bool defer_details(const struct hm_report *r)
{
	return r->opts.defer_details && !r->header->pipe && strcmp(r->opts.input, "-");
}

/* The line table, or its workers (threads > 1 with the file not in ranges). */
static int setup_lines(struct hm_report *r)
{
	if (r->opts.want_lines && r->nr_threads > 1 && !r->chunks) {
		/* the table is built by nr_threads - 1 workers; r->lines after the pass */
		r->par = hm_par__new(r->nr_threads - 1, r->opts.cacheline_size,
				     hm_topo__nr_cpus(r->topo), hm_topo__nr_nodes(r->topo));
		if (!r->par)
			return errno ? -errno : -ENOMEM;
		if (defer_details(r))
			hm_par__defer_details(r->par, details_pass, r);
	} else if (r->opts.want_lines) {
		r->lines = hm_lines__new(r->opts.cacheline_size, hm_topo__nr_cpus(r->topo),
					 hm_topo__nr_nodes(r->topo));
		if (!r->lines)
			return -ENOMEM;
		if (defer_details(r))
			hm_lines__defer_details(r->lines, details_pass, r);
	}
	return 0;
}

/* Everything that needs the file's header: topology, vendor, metadata, futex model, tables. */
static int setup_header(struct hm_report *r)
{
	struct hm_symbols_opts so;
	int err;

	r->header = hm_reader__header(r->reader);
	r->vendor = hm_vendor__from_header(r->header);
	r->topo = hm_topo__new_from_header(r->header);
	if (!r->topo)
		return -ENOMEM;
	if (r->header->hitmap_meta && r->header->hitmap_meta_size) {
		r->meta = hm_meta__parse(r->header->hitmap_meta, r->header->hitmap_meta_size,
					 r->header->needs_swap);
		if (!r->meta)
			hm_warn("%s: hitmap metadata section is corrupt; ignoring it", r->name);
	}
	if (!r->meta)
		r->meta = hm_meta__new();
	if (!r->meta)
		return -ENOMEM;
	err = setup_futex(r);
	if (err < 0)
		return err;
	err = setup_nodes(r);
	if (err < 0)
		return err;
	hm_maps__set_build_ids(r->maps, r->header);
	/*
	 * perf widens the kernel map to kallsyms' range at the first kernel
	 * hit; without the same loader, kernel data past _etext would count
	 * as unmapped where perf counts it mapped.
	 */
	hm_report__symbols_opts(r, &so);
	r->syms = hm_symbols__new(&so);
	if (!r->syms)
		return -ENOMEM;
	/* one kallsyms for the maps (perf's kernel-map widening) and every resolver */
	hm_symbols__attach_maps(r->syms, r->maps);
	/* no table in the file or the options: infer them from the samples (report-infer.c) */
	err = hm_report__infer_setup(r);
	if (err < 0)
		return err;
	/* the tables as the pass sees them, for a binary search a sample */
	err = hm_futex_model__index(&r->futex);
	if (err < 0)
		return err;
	/*
	 * Default: the CPUs available; where the table's details come from
	 * a second read, the file in ranges (at most HM_RANGES_THREADS, and
	 * the first range says whether cutting pays, report-range.c) or one
	 * thread (the sharded pass measured no faster on two CPUs: medians
	 * 0.45 s vs 0.49 s on the futex bench file, 0.67 s vs 0.48 s on 50k
	 * lines, at twice the memory).
	 */
	r->nr_threads = r->opts.threads > 0 ? r->opts.threads : hm_report__cpus_available();
	if (r->opts.threads <= 0 && defer_details(r) && r->nr_threads > HM_RANGES_THREADS)
		r->nr_threads = HM_RANGES_THREADS;
	err = hm_report__chunks_plan(r);	/* the file in ranges, one a thread */
	if (err < 0)
		return err;
	if (r->opts.threads <= 0 && defer_details(r) && !r->chunks)
		r->nr_threads = 1;
	err = setup_lines(r);
	if (err < 0)
		return err;
	if (r->opts.pareto) {
		r->pareto = hm_pareto__new(r->opts.pareto, r->opts.cacheline_size,
					   hm_topo__nr_cpus(r->topo), hm_topo__nr_nodes(r->topo),
					   r->cpu_node_idx);
		if (!r->pareto)
			return -ENOMEM;
	}
	if (r->opts.want_buckets) {
		r->buckets = hm_buckets__new(r);
		if (!r->buckets)
			return errno ? -errno : -ENOMEM;
	}
	return 0;
}

/* The batch and the arena its samples' RAW payloads live in. */
struct batch {
	struct pending	*p;
	int		n;
	u8		*arena;
	size_t		used, cap;
};

static int batch__flush(struct hm_report *r, struct batch *b)
{
	int err = b->n ? flush(r, b->p, b->n) : 0;

	b->n = 0;
	b->used = 0;
	return err;
}

/*
 * Keep the sample just decoded into the next free slot (b->p[b->n].ev):
 * its RAW payload (and call chain) copied into the arena, flushing the
 * batch first (the sample moves to the first slot) when the batch or the
 * arena is full.
 */
static int batch__keep(struct hm_report *r, struct batch *b)
{
	struct hm_sample *c = &b->p[b->n].s;
	size_t need, cc;
	int err;

	/* a memory sample points to nothing (hm_sample__init cleared the pointers) */
	if (b->n < BATCH && !c->raw && !c->callchain && !c->read && !c->branch) {
		b->n++;
		return 0;
	}
	need = (c->raw && c->raw_size) ? ((size_t)c->raw_size + 7) & ~(size_t)7 : 0;
	/* the futex views read contention_begin's call chain (waits.c): kept beside the payload */
	cc = r->buckets && c->callchain ? c->callchain_nr * sizeof(u64) : 0;
	if (b->n == BATCH || b->used + need + cc > b->cap) {
		int n = b->n;

		err = batch__flush(r, b);
		if (err < 0)
			return err;
		if (n) {
			b->p[0].ev = b->p[n].ev;
			c = &b->p[0].s;
		}
	}
	if (need + cc > b->cap) {
		/* empty now: growing moves nothing anyone points to */
		u8 *a = realloc(b->arena, need + cc);

		if (!a)
			return -ENOMEM;
		b->arena = a;
		b->cap = need + cc;
	}
	c->read = NULL;
	c->read_nr = 0;
	c->branch = NULL;
	c->branch_nr = 0;
	if (need) {
		memcpy(b->arena + b->used, c->raw, c->raw_size);
		c->raw = b->arena + b->used;
		b->used += need;
	} else {
		c->raw = NULL;
		c->raw_size = 0;
	}
	if (cc) {
		memcpy(b->arena + b->used, c->callchain, cc);
		c->callchain = (const u64 *)(b->arena + b->used);
		b->used += cc;
	} else {
		c->callchain = NULL;
		c->callchain_nr = 0;
	}
	b->n++;
	return 0;
}

/*
 * The pass: 0 when the file is read (or, for a part, its range), 1 when
 * setup_header cut the file into ranges instead (nothing read yet: the
 * parts' pass and merge, report-chunks.c, run them), or a negative errno.
 */
static int pass_read(struct hm_report *r);

int hm_report__pass(struct hm_report *r)
{
	struct hm_reader_opts ro = { .ordered = true, .all_records = true,
				     .queue_bytes = r->opts.queue_bytes };
	int err;

	ro.zstd_ahead = hm_report__zstd_ahead(r);
	/* the counts alone: samples between rounds of samples need no order among themselves */
	ro.counts_order = r->opts.counts_only && !r->opts.on_sample && !getenv("HITMAP_ALL_ORDERED");
	r->reader = r->chunk ? hm_report__chunk_reader(r) : hm_reader__new(r->opts.input, &ro);
	if (!r->reader)
		return -errno;
	r->header = hm_reader__header(r->reader);
	r->maps = hm_maps__new();
	if (!r->maps)
		return -ENOMEM;
	r->perf_lines = hm_perf_lines__new();
	r->map_ids = calloc(1, sizeof(*r->map_ids));
	r->dsrc_cache = hm_dsrc_cache__new();
	if (!r->perf_lines || !r->map_ids || !r->dsrc_cache)
		return -ENOMEM;
	/* in pipe mode the header arrives as records: set up at the first sample */
	if (!r->header->pipe) {
		err = r->chunk ? hm_report__chunk_setup(r) : setup_header(r);
		if (err < 0)
			return err;
	}
	if (r->chunks)
		return 1;
	return pass_read(r);
}

/* The line table's workers done: their shards merged into r->lines. */
static int par_finish(struct hm_report *r)
{
	int err = hm_par__finish(r->par, &r->lines);

	/* the merged table's lines have totals only, as each part's */
	if (r->lines && defer_details(r))
		hm_lines__defer_details(r->lines, details_pass, r);
	hm_par__delete(r->par);
	r->par = NULL;
	return err;
}

/* The pass's read of the file (or of a part's range) after its setup. */
static int pass_read(struct hm_report *r)
{
	struct hm_event *ev;
	struct batch batch = { 0 };
	u64 nr_records = 0;
	int err;

	batch.p = malloc((BATCH + 1) * sizeof(*batch.p));	/* a full batch and the next record */
	batch.cap = BATCH * 32;
	batch.arena = malloc(batch.cap);
	if (!batch.p || !batch.arena) {
		free(batch.p);
		free(batch.arena);
		return -ENOMEM;
	}
	for (;;) {
		/* decoded into the batch's next slot (struct pending), one past a full batch */
		ev = &batch.p[batch.n].ev;
		err = r->chunk ? hm_report__chunk_next(r, ev) : hm_reader__next(r->reader, ev);
		if (err <= 0)
			break;
		if (r->opts.on_progress && (++nr_records & 4095) == 0)
			r->opts.on_progress(r->opts.on_progress_priv,
					    ev->file_offset > r->header->data_offset ?
					    ev->file_offset - r->header->data_offset : 0,
					    r->header->pipe ? 0 : r->header->data_size);
		if (ev->type != PERF_RECORD_SAMPLE) {
			/* the batch's samples, not this slot */
			err = batch__flush(r, &batch);
			if (err < 0)
				break;
			hm_maps__process(r->maps, ev);
			if (ev->type == PERF_RECORD_MMAP2) {
				err = map_ids__note(r->map_ids, r->maps, ev);
				if (err < 0)
					break;
			}
			continue;
		}
		if (!ev->has_sample)
			continue;
		if (!r->topo) {
			err = setup_header(r);
			if (err < 0)
				break;
		}
		if (r->infer && (err = hm_futex_observer__add(r->infer, &ev->sample)) < 0)
			break;
		err = batch__keep(r, &batch);
		if (err < 0)
			break;
	}
	if (err >= 0)
		err = batch__flush(r, &batch);
	/* perf's entries from the line table; a part's after the parts' merge (pass_end) */
	if (err >= 0 && !r->chunk)
		err = hm_perf_lines__finish(r->perf_lines, r->lines);
	hm_dsrc_cache__fold(r->dsrc_cache, &r->c2c);
	if (r->par) {
		int e2 = par_finish(r);

		if (err >= 0)
			err = e2;
	}
	free(batch.p);
	free(batch.arena);
	return err < 0 ? err : 0;
}

/*
 * The one-reader pass of a report whose ranges were given up (the cuts'
 * scan refused the file while the first range ran, report-chunks.c): the
 * tables setup_header makes without ranges, then the whole file.
 */
int hm_report__pass_whole(struct hm_report *r)
{
	int err;

	hm_report__chunks_delete(r->chunks);
	r->chunks = NULL;
	hm_lines__delete(r->lines);
	r->lines = NULL;
	err = setup_lines(r);
	return err < 0 ? err : pass_read(r);
}

/* What follows the pass (or the parts' merge), given its result @err. */
int hm_report__pass_end(struct hm_report *r, int err)
{
	if (r->opts.on_progress && r->header && !r->header->pipe)
		r->opts.on_progress(r->opts.on_progress_priv, r->header->data_size,
				    r->header->data_size);
	if (err < 0)
		return err;
	if (!r->topo) {
		/* no samples at all (a pipe: set up only now, its workers' empty table too) */
		err = setup_header(r);
		if (err >= 0 && r->par)
			err = par_finish(r);
		if (err < 0)
			return err;
	}
	err = hm_perf_lines__finish(r->perf_lines, r->lines);
	if (err < 0)
		return err;
	r->nr_shared = hm_perf_lines__shared(r->perf_lines, &r->shared);
	err = hm_buckets__finish(r->buckets);
	if (err >= 0)
		err = hm_report__infer_finish(r);
	if (err < 0)
		return err;
	if (r->nr_nocpu)
		hm_warn("%s: %llu samples have no CPU (recorded without --sample-cpu); "
			"their socket and node are unknown", r->name,
			(unsigned long long)r->nr_nocpu);

	return 0;
}
