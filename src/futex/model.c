// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_futex_model: the tables known for one recording, the bucket layout, and
 * resolution of a data address to table/bucket/field, plus the non-bucket
 * hot lines of the futex path (private hash header, mm futex fields).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/futex.h>
#include <hitmap/log.h>
#include "model-index.h"

int hm_futex_model__init(struct hm_futex_model *m, enum hm_futex_era e)
{
	if (!m || (unsigned)e >= HM_FUTEX_ERA__MAX)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->era = e;
	hm_futex_layout__for_era(e, &m->layout);
	hm_futex_fph_layout__for_era(e, &m->fph);
	hm_futex_mm_layout__for_era(e, &m->mm);
	m->mm_seq = e == HM_FUTEX_ERA_7;
	m->nr_nodes = 1;
	m->global_slots = hm_futex__global_slots(e, 1, 1);
	return 0;
}

int hm_futex_model__set_machine(struct hm_futex_model *m, u32 nr_cpus, u32 nr_nodes)
{
	if (!m || !nr_cpus || !nr_nodes || nr_nodes > 4096)
		return -EINVAL;
	m->nr_nodes = m->era == HM_FUTEX_ERA_PRE_6_16 ? 1 : nr_nodes;
	m->global_slots = hm_futex__global_slots(m->era, nr_cpus, nr_nodes);
	return 0;
}

int hm_futex_model__set_machine_nodes(struct hm_futex_model *m, u32 nr_cpus, u64 node_mask)
{
	u32 count = __builtin_popcountll(node_mask), ids;
	int err;

	if (!node_mask)
		return -EINVAL;
	ids = 64 - __builtin_clzll(node_mask);
	err = hm_futex_model__set_machine(m, nr_cpus, count);	/* size: num_possible_nodes() */
	if (err || m->era == HM_FUTEX_ERA_PRE_6_16)
		return err;
	m->nr_nodes = ids;					/* the modulus: nr_node_ids */
	m->possible_nodes = node_mask == (ids == 64 ? ~0ull : (1ull << ids) - 1) ? 0 : node_mask;
	return 0;
}

void hm_futex_model__release(struct hm_futex_model *m)
{
	if (!m)
		return;
	free(m->tables);
	m->tables = NULL;
	m->nr_tables = 0;
	free(m->mms);
	m->mms = NULL;
	m->nr_mms = 0;
	free(m->regions);
	m->regions = NULL;
	m->nr_regions = 0;
	free(m->mm_names);
	m->mm_names = NULL;
	m->nr_mm_names = 0;
	hm_futex_index__delete(m->index);
	m->index = NULL;
}

int hm_futex_model__add_table(struct hm_futex_model *m, const struct hm_futex_table *t)
{
	struct hm_futex_table *n;
	u32 i;

	if (!m || !t || t->kind > 1 || !t->slots || (t->slots & (t->slots - 1))) {
		hm_err("futex table: slots must be a power of two; give e.g. global:0:ADDR:512");
		return -EINVAL;
	}
	m->gen++;
	/* the same table again (same kind and owner) replaces the old entry */
	for (i = 0; i < m->nr_tables; i++) {
		struct hm_futex_table *o = &m->tables[i];

		/* a global table of unknown node (-1) is told apart by its base */
		if (o->kind == t->kind && (t->kind ? o->pid == t->pid && o->base == t->base
						   : o->node == t->node && (t->node >= 0 || o->base == t->base))) {
			*o = *t;
			o->provenance[sizeof(o->provenance) - 1] = 0;
			return 0;
		}
	}
	n = realloc(m->tables, (m->nr_tables + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->tables = n;
	n[m->nr_tables] = *t;
	n[m->nr_tables].provenance[sizeof(n->provenance) - 1] = 0;
	m->nr_tables++;
	if (!t->kind && t->slots && m->era != HM_FUTEX_ERA__MAX)
		m->global_slots = t->slots;
	if (!t->kind && t->node >= 0 && (u32)t->node + 1 > m->nr_nodes && m->era != HM_FUTEX_ERA_PRE_6_16)
		m->nr_nodes = t->node + 1;
	return 0;
}

int hm_futex_model__add_mm(struct hm_futex_model *m, s32 pid, u64 mm)
{
	struct hm_futex_mm_ref *n;
	u32 i;

	m->gen++;
	for (i = 0; i < m->nr_mms; i++)
		if (m->mms[i].addr == mm) {
			m->mms[i].pid = pid;
			return 0;
		}
	n = realloc(m->mms, (m->nr_mms + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->mms = n;
	n[m->nr_mms].pid = pid;
	n[m->nr_mms].addr = mm;
	m->nr_mms++;
	return 0;
}

const char *hm_futex_region_kind__name(u32 kind)
{
	static const char *const n[HM_FUTEX_REGION__MAX] = {
		"mm", "words", "pt", "global", "pcpu", "qnode",
	};

	return kind < HM_FUTEX_REGION__MAX ? n[kind] : NULL;
}

int hm_futex_model__add_region(struct hm_futex_model *m, const struct hm_futex_region *r)
{
	struct hm_futex_region *n;
	u32 i;

	if (!m || !r || !r->size || r->kind >= HM_FUTEX_REGION__MAX || r->base + r->size < r->base)
		return -EINVAL;
	m->gen++;
	for (i = 0; i < m->nr_regions; i++)
		if (m->regions[i].base == r->base && m->regions[i].kind == r->kind) {
			m->regions[i] = *r;
			m->regions[i].name[sizeof(r->name) - 1] = 0;
			return 0;
		}
	n = realloc(m->regions, (m->nr_regions + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->regions = n;
	/* sorted by base, for the binary search of __region */
	for (i = m->nr_regions; i > 0 && n[i - 1].base > r->base; i--)
		n[i] = n[i - 1];
	n[i] = *r;
	n[i].name[sizeof(r->name) - 1] = 0;
	m->nr_regions++;
	return r->kind == HM_FUTEX_REGION_MM ? hm_futex_model__add_mm(m, r->pid, r->base) : 0;
}

static const char *const mm_field_names[HM_FUTEX_MM__MAX] = {
#define HM_FUTEX_MM_FNAME(n) [HM_FUTEX_MM_##n] = #n,
	HM_FUTEX_MM_FIELDS(HM_FUTEX_MM_FNAME)
#undef HM_FUTEX_MM_FNAME
};

int hm_futex_model__add_mm_name(struct hm_futex_model *m, const char *name, u32 off, u32 size)
{
	struct hm_futex_mm_name *n;
	int f;

	if (!m || !name || !*name || !size || off > 65536 || size > 65536)
		return -EINVAL;
	m->gen++;
	if (!m->nr_mm_names) {
		/* the file's mm_struct replaces the era's guess: a futex field it lacks is absent */
		for (f = 0; f < HM_FUTEX_MM__MAX; f++) {
			m->mm.offset[f] = -1;
			m->mm.size[f] = 0;
		}
	}
	n = realloc(m->mm_names, (m->nr_mm_names + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->mm_names = n;
	n += m->nr_mm_names++;
	n->off = off;
	n->size = size;
	snprintf(n->name, sizeof(n->name), "mm.%s", name);
	for (f = 0; f < HM_FUTEX_MM__MAX; f++)
		if (!strcmp(name, mm_field_names[f])) {
			m->mm.offset[f] = (s32)off;
			m->mm.size[f] = size;
		}
	return 0;
}

const struct hm_futex_region *hm_futex_model__region(const struct hm_futex_model *m, u64 addr)
{
	u32 lo = 0, hi = m ? m->nr_regions : 0;

	/* the last region starting at or below @addr (regions do not overlap) */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (m->regions[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - m->regions[lo - 1].base >= m->regions[lo - 1].size)
		return NULL;
	return &m->regions[lo - 1];
}

/* Whether table @t holds @addr (buckets of @bs bytes, 1 << @shift when @shift >= 0), and where. */
static bool table_hit(const struct hm_futex_model *m, const struct hm_futex_table *t, u64 addr, u32 bs,
		      int shift, struct hm_futex_loc *loc)
{
	u64 off, idx;

	if (!t->base || addr < t->base)
		return false;
	off = addr - t->base;
	idx = shift >= 0 ? off >> shift : off / bs;
	if (idx >= t->slots)
		return false;
	if (loc) {
		loc->table = t;
		loc->index = idx;
		loc->offset = off - idx * bs;
		loc->field = hm_futex_layout__field(&m->layout, loc->offset);
	}
	return true;
}

int hm_futex_model__resolve(const struct hm_futex_model *m, u64 addr, struct hm_futex_loc *loc)
{
	u32 bs = m->layout.bucket_size ? m->layout.bucket_size : 64;
	/* buckets of a power-of-two size (all kernels'): a shift, not a division per sample */
	int shift = (bs & (bs - 1)) ? -1 : __builtin_ctz(bs);
	int c = hm_futex_index__table(m, addr, bs);
	u32 i;

	if (c >= 0 && table_hit(m, &m->tables[c], addr, bs, shift, loc))
		return 1;
	for (i = 0; c == HM_FX_WALK && i < m->nr_tables; i++)
		if (table_hit(m, &m->tables[i], addr, bs, shift, loc))
			return 1;
	if (loc) {
		memset(loc, 0, sizeof(*loc));
		loc->field = HM_FUTEX_FIELD_PAD;
	}
	return 0;
}

const char *hm_futex_loc__name(const struct hm_futex_loc *loc)
{
	return loc && loc->table ? hm_futex_field__name(loc->field) : NULL;
}

static const char *fph_field(const struct hm_futex_model *m, u32 off)
{
	const struct hm_futex_fph_layout *f = &m->fph;

	/* widths: users/state 4, hash_mask 4, rcu 16, mm 8, custom 1, immutable 1 */
	if (f->users >= 0 && off >= (u32)f->users && off < (u32)f->users + 4)
		return m->era == HM_FUTEX_ERA_6_16 ? "fph.users" : "fph.state";
	if (f->hash_mask >= 0 && off >= (u32)f->hash_mask && off < (u32)f->hash_mask + 4)
		return "fph.hash_mask";
	if (f->rcu >= 0 && off >= (u32)f->rcu && off < (u32)f->rcu + 16)
		return "fph.rcu";
	if (f->mm >= 0 && off >= (u32)f->mm && off < (u32)f->mm + 8)
		return "fph.mm";
	if (f->custom >= 0 && off == (u32)f->custom)
		return "fph.custom";
	if (f->immutable >= 0 && off == (u32)f->immutable)
		return "fph.immutable";
	return "fph.pad";
}

static const char *const mm_names[HM_FUTEX_MM__MAX] = {
#define HM_FUTEX_MM_NAME(n) [HM_FUTEX_MM_##n] = "mm." #n,
	HM_FUTEX_MM_FIELDS(HM_FUTEX_MM_NAME)
#undef HM_FUTEX_MM_NAME
};

/* Whether @addr lies in private table @t's header (fph.queues bytes below its base), and what. */
static bool fph_hit(const struct hm_futex_model *m, const struct hm_futex_table *t, u64 addr,
		    struct hm_futex_site *site)
{
	if (t->kind != 1 || !t->base || addr >= t->base || addr < t->base - m->fph.queues)
		return false;
	site->where = HM_FUTEX_WHERE_FPH_HEADER;
	site->loc.table = t;
	site->loc.field = HM_FUTEX_FIELD_PAD;
	site->pid = t->pid;
	site->offset = addr - (t->base - m->fph.queues);
	site->name = fph_field(m, site->offset);
	return true;
}

/* @site: field @name of mm @i, at @addr. */
static bool mm_site(const struct hm_futex_model *m, u32 i, u64 addr, const char *name,
		    struct hm_futex_site *site)
{
	site->where = HM_FUTEX_WHERE_MM;
	site->loc.field = HM_FUTEX_FIELD_PAD;
	site->pid = m->mms[i].pid;
	site->offset = addr - m->mms[i].addr;
	site->name = name;
	return true;
}

/* Whether @addr is a futex field of mm @i (the metadata's fields, else the era's), and which. */
static bool mm_hit(const struct hm_futex_model *m, u32 i, u64 addr, struct hm_futex_site *site)
{
	u64 mm = m->mms[i].addr;
	int f;

	/* every field of the file's mm_struct, where the metadata lays it out */
	for (u32 j = 0; j < m->nr_mm_names && addr >= mm; j++) {
		const struct hm_futex_mm_name *n = &m->mm_names[j];

		if (addr - mm >= n->off && addr - mm < (u64)n->off + n->size)
			return mm_site(m, i, addr, n->name, site);
	}
	if (m->nr_mm_names)
		return false;
	for (f = 0; f < HM_FUTEX_MM__MAX; f++) {
		s32 o = m->mm.offset[f];

		if (o >= 0 && addr >= mm + o && addr < mm + o + hm_futex_mm__field_size(&m->mm, f))
			return mm_site(m, i, addr, mm_names[f], site);
	}
	return false;
}

int hm_futex_model__locate(const struct hm_futex_model *m, u64 addr, struct hm_futex_site *site)
{
	u32 i;
	int c;

	memset(site, 0, sizeof(*site));
	site->pid = -1;
	if (hm_futex_model__resolve(m, addr, &site->loc)) {
		site->where = HM_FUTEX_WHERE_BUCKET;
		site->offset = site->loc.offset;
		site->name = hm_futex_field__name(site->loc.field);
		site->pid = site->loc.table->kind ? site->loc.table->pid : -1;
		return 1;
	}
	if (m->fph.queues) {
		c = hm_futex_index__fph(m, addr);
		if (c >= 0 && fph_hit(m, &m->tables[c], addr, site))
			return 1;
		for (i = 0; c == HM_FX_WALK && i < m->nr_tables; i++)
			if (fph_hit(m, &m->tables[i], addr, site))
				return 1;
	}
	c = hm_futex_index__mm(m, addr);
	if (c >= 0 && mm_hit(m, (u32)c, addr, site))
		return 1;
	for (i = 0; c == HM_FX_WALK && i < m->nr_mms; i++)
		if (mm_hit(m, i, addr, site))
			return 1;
	site->loc.field = HM_FUTEX_FIELD_PAD;
	return 0;
}
