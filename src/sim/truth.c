// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ground truth: what the model knows about every sample it wrote, counted
 * per cache line, futex bucket (and field), field, CPU socket and object,
 * both as perf c2c counts them (hm_c2c_stats, from the data_src written) and
 * in hitmap's precise categories (from the model's true source, not from
 * decoding).  Plus the population: every simulated access by true source.
 *
 * Memory grows with distinct sampled lines and buckets, not with samples.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include "sim/coherence.h"
#include "util/htab.h"

struct tcount {
	struct hm_c2c_stats	c2c;
	u32			cat[HM_CAT__MAX];
};

struct tline {
	u32		line;
	u8		obj;
	u64		addr;
	struct tcount	c;
};

struct tbucket {
	s32		table;
	u64		index;
	u64		addr;
	struct tcount	c;
	struct hm_c2c_stats field[HM_FUTEX_FIELD__MAX];
};

/* One field of an object other than a bucket (the report's object rows). */
struct tofield {
	u8		obj;
	char		name[32];
	struct tcount	c;
};

struct hm_truth {
	const struct hm_sim	*s;
	struct tofield		*ofields;
	u32			nr_ofields, cap_ofields;
	struct hm_sim_mmfield	mmf[HM_SIM_MM_FIELDS_MAX], fphf[16];
	u32			nr_mmf, nr_fphf;
	struct tcount		total;
	struct tcount		field[HM_FUTEX_FIELD__MAX];
	struct tcount		obj[HM_OBJ__MAX];
	struct tcount		*sock;
	u32			nr_sock;
	/* bucket samples by requesting socket x the line's home node (nr_sock^2: one node per socket) */
	struct tcount		*xfer;
	struct tline		*lines;
	u32			nr_lines, cap_lines;
	struct hm_htab		line_map;	/* line -> index in lines */
	struct tbucket		*buckets;
	u32			nr_buckets, cap_buckets;
	struct hm_htab		bucket_map;	/* table << 48 | index -> index in buckets */
	u64			nr_samples;
	int			err;
};

/* Value for @key; UINT32_MAX when absent. */
static u32 tmap_get(const struct hm_htab *m, u64 key)
{
	const u64 *v = hm_htab__find(m, key);

	return v ? (u32)*v : UINT32_MAX;
}

struct hm_truth *hm_truth__new(const struct hm_sim *s)
{
	struct hm_truth *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->s = s;
	t->nr_mmf = hm_sim__mm_fields(s->kmod, t->mmf, HM_SIM_MM_FIELDS_MAX);
	if (t->nr_mmf > HM_SIM_MM_FIELDS_MAX)
		t->nr_mmf = HM_SIM_MM_FIELDS_MAX;
	t->nr_fphf = hm_sim__fph_fields(s->kmod, t->fphf, 16);
	if (t->nr_fphf > 16)
		t->nr_fphf = 16;
	t->nr_sock = s->m.sockets;
	t->sock = calloc(t->nr_sock, sizeof(*t->sock));
	t->xfer = calloc((size_t)t->nr_sock * t->nr_sock, sizeof(*t->xfer));
	if (!t->sock || !t->xfer) {
		hm_truth__delete(t);
		return NULL;
	}
	return t;
}

void hm_truth__delete(struct hm_truth *t)
{
	if (!t)
		return;
	free(t->sock);
	free(t->xfer);
	free(t->ofields);
	free(t->lines);
	free(t->buckets);
	hm_htab__fini(&t->line_map);
	hm_htab__fini(&t->bucket_map);
	free(t);
}

u64 hm_truth__pop(const struct hm_truth *t, int obj, int field, enum hm_src src)
{
	const struct hm_pop *p = &t->s->pop;

	if (obj >= 0 && obj < HM_OBJ__MAX)
		return p->obj[obj][src];
	if (field >= 0 && field < HM_FUTEX_FIELD__MAX)
		return p->field[field][src];
	return p->load[src];
}

void hm_truth__counts(const struct hm_truth *t, int obj, struct hm_c2c_stats *c2c,
		      u32 cat[HM_CAT__MAX])
{
	const struct tcount *c = obj >= 0 && obj < HM_OBJ__MAX ? &t->obj[obj] : &t->total;

	if (c2c)
		*c2c = c->c2c;
	if (cat)
		memcpy(cat, c->cat, sizeof(c->cat));
}

u64 hm_truth__samples(const struct hm_truth *t)
{
	return t->nr_samples;
}

static void count(struct tcount *c, enum hm_mem_cat cat, u64 ds, u64 addr, bool mapped)
{
	hm_c2c_stats__add(&c->c2c, ds, addr, mapped);
	c->cat[cat]++;
}

static const char *field_of(const struct hm_sim_mmfield *f, u32 n, u64 off, char *buf, size_t size)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (off >= f[i].off && off < (u64)f[i].off + f[i].size)
			return f[i].name;
	snprintf(buf, size, "+%llu", (unsigned long long)off);
	return buf;
}

/*
 * The field of object @obj that @addr is: the mm_struct and private hash
 * header fields as this kernel lays them out (mmlines.c), the struct page
 * fields the futex path reads (kpath.c key_shared), else the object itself.
 */
static const char *obj_field(const struct hm_truth *t, enum hm_obj obj, u64 addr, char *buf, size_t size)
{
	const struct hm_sim *s = t->s;

	switch (obj) {
	case HM_OBJ_FPH:	return field_of(t->fphf, t->nr_fphf, addr - s->lay.fph, buf, size);
	case HM_OBJ_MM:		return field_of(t->mmf, t->nr_mmf, addr - s->lay.mm, buf, size);
	case HM_OBJ_PAGE:
	case HM_OBJ_FOLIO:
		switch (addr & 63) {
		case 8:		return "compound_head";
		case 24:	return "mapping";
		case 52:	return "_refcount";
		default:
			snprintf(buf, size, "+%llu", (unsigned long long)(addr & 63));
			return buf;
		}
	case HM_OBJ_PT:		return s->o.thp ? "pmd" : "pte";
	case HM_OBJ_UWORD:	return "word";
	case HM_OBJ_PCPU:	return "futex_ref";
	case HM_OBJ_GLOBAL:	return s->kmod->runtime_const ? "__futex_queues" : "__futex_data";
	case HM_OBJ_QNODE:	return "qnode";
	default:		return hm_obj__name(obj);
	}
}

static void count_field(struct hm_truth *t, enum hm_obj obj, u64 addr, enum hm_mem_cat cat, u64 ds,
			bool mapped)
{
	char buf[24];
	const char *name = obj_field(t, obj, addr, buf, sizeof(buf));
	u32 i;

	for (i = 0; i < t->nr_ofields; i++)
		if (t->ofields[i].obj == obj && !strcmp(t->ofields[i].name, name))
			break;
	if (i == t->nr_ofields) {
		if (t->nr_ofields == t->cap_ofields) {
			u32 cap = t->cap_ofields ? 2 * t->cap_ofields : 16;
			struct tofield *n = realloc(t->ofields, cap * sizeof(*n));

			if (!n) {
				t->err = -ENOMEM;
				return;
			}
			t->ofields = n;
			t->cap_ofields = cap;
		}
		memset(&t->ofields[i], 0, sizeof(t->ofields[i]));
		t->ofields[i].obj = (u8)obj;
		snprintf(t->ofields[i].name, sizeof(t->ofields[i].name), "%s", name);
		t->nr_ofields++;
	}
	count(&t->ofields[i].c, cat, ds, addr, mapped);
}

void hm_truth__sample(struct hm_truth *t, const struct hm_sample *s, enum hm_mem_cat cat,
		      u64 ds, bool mapped, int socket, u32 line, enum hm_obj obj,
		      s32 table, u64 index, enum hm_futex_field field)
{
	u32 li;

	if (t->err)
		return;
	t->nr_samples++;
	count(&t->total, cat, ds, s->addr, mapped);
	count(&t->obj[obj], cat, ds, s->addr, mapped);
	if (obj != HM_OBJ_BUCKET)
		count_field(t, obj, s->addr, cat, ds, mapped);
	if (socket >= 0 && (u32)socket < t->nr_sock) {
		count(&t->sock[socket], cat, ds, s->addr, mapped);
		/* the home node as the report finds it: the sample's physical address */
		if (obj == HM_OBJ_BUCKET)
			count(&t->xfer[socket * t->nr_sock +
				       hm_sim__node_of(t->s, hm_sim__paddr(t->s, s->addr))],
			      cat, ds, s->addr, mapped);
	}
	li = tmap_get(&t->line_map, line);
	if (li == UINT32_MAX) {
		if (t->nr_lines == t->cap_lines) {
			u32 cap = t->cap_lines ? t->cap_lines * 2 : 256;
			struct tline *n = realloc(t->lines, cap * sizeof(*n));

			if (!n) {
				t->err = -ENOMEM;
				return;
			}
			t->lines = n;
			t->cap_lines = cap;
		}
		li = t->nr_lines++;
		memset(&t->lines[li], 0, sizeof(t->lines[li]));
		t->lines[li].line = line;
		t->lines[li].obj = (u8)obj;
		t->lines[li].addr = s->addr & ~63ULL;
		if (hm_htab__put(&t->line_map, line, li)) {
			t->err = -ENOMEM;
			return;
		}
	}
	count(&t->lines[li].c, cat, ds, s->addr, mapped);
	if (obj == HM_OBJ_BUCKET && table >= 0) {
		u64 key = ((u64)table << 48) | index;
		u32 bi = tmap_get(&t->bucket_map, key);

		if (bi == UINT32_MAX) {
			if (t->nr_buckets == t->cap_buckets) {
				u32 cap = t->cap_buckets ? t->cap_buckets * 2 : 256;
				struct tbucket *n = realloc(t->buckets, cap * sizeof(*n));

				if (!n) {
					t->err = -ENOMEM;
					return;
				}
				t->buckets = n;
				t->cap_buckets = cap;
			}
			bi = t->nr_buckets++;
			memset(&t->buckets[bi], 0, sizeof(t->buckets[bi]));
			t->buckets[bi].table = table;
			t->buckets[bi].index = index;
			/* where the bucket starts (not the sampled line: a padded bucket has two) */
			t->buckets[bi].addr = hm_sim__bucket_addr(t->s, table, index);
			if (!t->buckets[bi].addr)
				t->buckets[bi].addr = s->addr & ~63ULL;
			if (hm_htab__put(&t->bucket_map, key, bi)) {
				t->err = -ENOMEM;
				return;
			}
		}
		count(&t->buckets[bi].c, cat, ds, s->addr, mapped);
		if (field < HM_FUTEX_FIELD__MAX) {
			hm_c2c_stats__add(&t->buckets[bi].field[field], ds, s->addr, mapped);
			count(&t->field[field], cat, ds, s->addr, mapped);
		}
	}
}

/* ------------------------------------------------------------ JSON */

static void json_c2c(struct hm_json *j, const char *key, const struct hm_c2c_stats *st)
{
	hm_json__obj_begin(j, key);
#define HM_C2C_JSON(n) hm_json__u64(j, #n, st->n);
	HM_C2C_COUNTERS(HM_C2C_JSON)
#undef HM_C2C_JSON
	hm_json__obj_end(j);
}

static void json_cats(struct hm_json *j, const char *key, const u32 *cat, bool all)
{
	int c;

	hm_json__obj_begin(j, key);
	for (c = 0; c < HM_CAT__MAX; c++)
		if (all || cat[c])
			hm_json__u64(j, hm_mem_cat__name(c), cat[c]);
	hm_json__obj_end(j);
}

static const struct hm_truth *sort_t;

static int line_cmp(const void *a, const void *b)
{
	const struct tline *x = &sort_t->lines[*(const u32 *)a], *y = &sort_t->lines[*(const u32 *)b];

	if (x->c.c2c.tot_hitm != y->c.c2c.tot_hitm)
		return x->c.c2c.tot_hitm > y->c.c2c.tot_hitm ? -1 : 1;
	if (x->c.c2c.nr_entries != y->c.c2c.nr_entries)
		return x->c.c2c.nr_entries > y->c.c2c.nr_entries ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int bucket_cmp(const void *a, const void *b)
{
	const struct tbucket *x = &sort_t->buckets[*(const u32 *)a], *y = &sort_t->buckets[*(const u32 *)b];

	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static const char *proto_name(enum hm_sim_proto p)
{
	return p == HM_PROTO_MESIF ? "MESIF" : p == HM_PROTO_MOESI ? "MOESI" : "MESI";
}

static const char *pmu_name(enum hm_sim_pmu p)
{
	switch (p) {
	case HM_PMU_INTEL_SKL:	return "intel-pebs-skl";
	case HM_PMU_INTEL_CMT:	return "intel-pebs-cmt";
	case HM_PMU_AMD_ZEN4:	return "amd-ibs-zen4";
	case HM_PMU_ARM_SPE:	return "arm-spe";
	}
	return "?";
}

static void json_table_ref(struct hm_json *j, const struct hm_sim *s, s32 table)
{
	const struct hm_futex_table *t = table >= 0 && (u32)table < s->fm.nr_tables ? &s->fm.tables[table] : NULL;

	hm_json__str(j, "table", !t ? "unknown" : t->kind ? "private" : "global");
	if (t && !t->kind)
		hm_json__u64(j, "node", (u64)t->node);
	else
		hm_json__str(j, "node", NULL);
}

int hm_truth__write_json(const struct hm_truth *t, FILE *f)
{
	const struct hm_sim *s = t->s;
	const struct hm_machine *m = &s->m;
	struct hm_json *j;
	u32 *ord, i;
	int k, hot_field = -1, fld;
	u32 hot = 0;

	if (t->err)
		return t->err;
	j = hm_json__new(f, true);
	if (!j)
		return -ENOMEM;
	hm_json__obj_begin(j, NULL);
	hm_json__str(j, "format", "hitmap-simulate-truth/1");
	hm_json__obj_begin(j, "config");
	hm_json__str(j, "preset", m->name);
	hm_json__str(j, "machine", m->desc);
	hm_json__str(j, "vendor", hm_vendor__name(m->vendor));
	hm_json__str(j, "protocol", proto_name(m->proto));
	hm_json__str(j, "pmu", pmu_name(m->pmu));
	hm_json__u64(j, "sockets", m->sockets);
	hm_json__u64(j, "cores_per_socket", m->cores);
	hm_json__u64(j, "smt", m->smt);
	hm_json__u64(j, "llcs_per_socket", m->llcs);
	hm_json__u64(j, "cpus", m->nr_cpus);
	hm_json__str(j, "kernel", s->o.kernel);
	hm_json__str(j, "release", s->release);
	hm_json__str(j, "era", hm_futex_era__name(s->era));
	hm_json__u64(j, "threads", s->nr_threads);
	hm_json__u64(j, "futexes", s->o.futexes);
	hm_json__bool(j, "shared", s->o.shared);
	hm_json__str(j, "hash", s->lay.fph ? "private" : "global");
	hm_json__u64(j, "slots", s->lay.fph ? s->lay.fph_slots : s->lay.table_slots);
	hm_json__str(j, "placement", s->o.placement == HM_PLACE_SPREAD ? "spread" :
				     s->o.placement == HM_PLACE_PERF ? "perf" : "compact");
	hm_json__bool(j, "thp", s->o.thp);
	hm_json__bool(j, "read_migrates", s->m.read_migrates);
	hm_json__u64(j, "bucket_size", s->fm.layout.bucket_size);
	hm_json__str(j, "layout", s->fm.layout.source);
	hm_json__u64(j, "seed", s->o.seed);
	hm_json__u64(j, "ldlat", s->o.ldlat);
	hm_json__u64(j, "period", s->o.period);
	hm_json__obj_end(j);
	hm_json__obj_begin(j, "latency");
	for (k = 0; k < HM_LAT__MAX; k++)
		hm_json__u64(j, hm_lat__name(k), m->lat[k]);
	hm_json__obj_end(j);
	hm_json__obj_begin(j, "results");
	hm_json__u64(j, "ops", s->res.ops);
	hm_json__u64(j, "accesses", s->coh->nr_accesses);
	hm_json__u64(j, "samples", t->nr_samples);
	hm_json__u64(j, "simulated_ns", (u64)((double)s->res.cycles_max / m->ghz));
	hm_json__double(j, "ops_per_sec_thread", s->res.ops_per_sec_thread);
	hm_json__obj_end(j);
	hm_json__obj_begin(j, "population");
	hm_json__obj_begin(j, "loads_by_source");
	for (k = 0; k < HM_SRC__MAX; k++)
		hm_json__u64(j, hm_src__name(k), s->pop.load[k]);
	hm_json__obj_end(j);
	hm_json__u64(j, "rmw", s->pop.rmw);
	hm_json__u64(j, "stores", s->pop.store);
	hm_json__obj_end(j);

	hm_json__obj_begin(j, "samples");
	hm_json__u64(j, "total", t->nr_samples);
	json_cats(j, "hitmap", t->total.cat, true);
	json_c2c(j, "c2c", &t->total.c2c);
	hm_json__obj_end(j);

	/* fields over every bucket, with the hottest by HITM */
	hm_json__arr_begin(j, "fields");
	for (fld = 0; fld < HM_FUTEX_FIELD__MAX; fld++) {
		const struct tcount *c = &t->field[fld];

		if (!c->c2c.nr_entries)
			continue;
		if (c->c2c.tot_hitm > hot) {
			hot = c->c2c.tot_hitm;
			hot_field = fld;
		}
		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "field", hm_futex_field__name(fld));
		json_c2c(j, "c2c", &c->c2c);
		json_cats(j, "hitmap", c->cat, false);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);
	hm_json__str(j, "hottest_hitm_field", hot_field >= 0 ? hm_futex_field__name(hot_field) : NULL);

	hm_json__arr_begin(j, "sockets");
	for (i = 0; i < t->nr_sock; i++) {
		hm_json__obj_begin(j, NULL);
		hm_json__u64(j, "socket", i);
		json_c2c(j, "c2c", &t->sock[i].c2c);
		json_cats(j, "hitmap", t->sock[i].cat, false);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);

	/* bucket samples: requesting socket x home node (the report's --by socket cells) */
	hm_json__arr_begin(j, "xfer");
	for (i = 0; i < t->nr_sock * t->nr_sock; i++) {
		if (!t->xfer[i].c2c.nr_entries)
			continue;
		hm_json__obj_begin(j, NULL);
		hm_json__u64(j, "socket", i / t->nr_sock);
		hm_json__u64(j, "node", i % t->nr_sock);
		json_cats(j, "hitmap", t->xfer[i].cat, false);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);

	hm_json__arr_begin(j, "objects");
	for (k = 0; k < HM_OBJ__MAX; k++) {
		if (!t->obj[k].c2c.nr_entries)
			continue;
		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "object", hm_obj__name(k));
		json_c2c(j, "c2c", &t->obj[k].c2c);
		json_cats(j, "hitmap", t->obj[k].cat, false);
		if (k != HM_OBJ_BUCKET) {
			/* per field, in the order first sampled (the buckets have theirs below) */
			hm_json__obj_begin(j, "fields");
			for (i = 0; i < t->nr_ofields; i++) {
				if (t->ofields[i].obj != k)
					continue;
				hm_json__obj_begin(j, t->ofields[i].name);
				json_c2c(j, "c2c", &t->ofields[i].c.c2c);
				json_cats(j, "hitmap", t->ofields[i].c.cat, false);
				hm_json__obj_end(j);
			}
			hm_json__obj_end(j);
		}
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);

	ord = malloc((t->nr_lines > t->nr_buckets ? t->nr_lines : t->nr_buckets) * sizeof(u32) + 4);
	if (!ord) {
		hm_json__delete(j);
		return -ENOMEM;
	}
	sort_t = t;
	for (i = 0; i < t->nr_lines; i++)
		ord[i] = i;
	qsort(ord, t->nr_lines, sizeof(u32), line_cmp);
	hm_json__arr_begin(j, "lines");
	for (i = 0; i < t->nr_lines; i++) {
		const struct tline *l = &t->lines[ord[i]];

		hm_json__obj_begin(j, NULL);
		hm_json__hex(j, "addr", l->addr);
		hm_json__str(j, "object", hm_obj__name(l->obj));
		json_c2c(j, "c2c", &l->c.c2c);
		json_cats(j, "hitmap", l->c.cat, false);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);

	for (i = 0; i < t->nr_buckets; i++)
		ord[i] = i;
	qsort(ord, t->nr_buckets, sizeof(u32), bucket_cmp);
	hm_json__arr_begin(j, "buckets");
	for (i = 0; i < t->nr_buckets; i++) {
		const struct tbucket *b = &t->buckets[ord[i]];

		hm_json__obj_begin(j, NULL);
		json_table_ref(j, s, b->table);
		hm_json__u64(j, "index", b->index);
		hm_json__hex(j, "addr", b->addr);
		json_c2c(j, "c2c", &b->c.c2c);
		json_cats(j, "hitmap", b->c.cat, false);
		hm_json__obj_begin(j, "fields");
		for (fld = 0; fld < HM_FUTEX_FIELD__MAX; fld++)
			if (b->field[fld].nr_entries)
				json_c2c(j, hm_futex_field__name(fld), &b->field[fld]);
		hm_json__obj_end(j);
		hm_json__obj_end(j);
	}
	hm_json__arr_end(j);
	free(ord);
	hm_json__obj_end(j);
	hm_json__delete(j);
	return ferror(f) ? -EIO : 0;
}
