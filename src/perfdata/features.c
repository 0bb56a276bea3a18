// SPDX-License-Identifier: GPL-2.0-only
/*
 * Header feature sections (tools/perf/util/header.c write_* / process_*),
 * parsed into struct hm_header.  The same payloads come in file mode (the
 * feature table after the data) and in pipe mode (HEADER_FEATURE records).
 * Every count is checked against the bytes left, so a corrupt section fails
 * the section, never the process.
 */
#include <errno.h>
#include <stdlib.h>
#include "reader-int.h"
#include "record-swap.h"

char *hm_cur__str(struct hm_cur *c)
{
	u32 len = hm_cur__u32(c);
	const u8 *p = hm_cur__bytes(c, len);
	size_t n;
	char *s;

	if (!p)
		return NULL;
	n = strnlen((const char *)p, len);
	s = malloc(n + 1);
	if (!s) {
		c->err = true;
		return NULL;
	}
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

static void free_strv(char **v, u32 n)
{
	if (!v)
		return;
	for (u32 i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* u32 nr; string[nr] */
static char **strlist(struct hm_cur *c, u32 *nr)
{
	u32 n = hm_cur__u32(c);
	char **v;

	*nr = 0;
	if (c->err || n > hm_cur__left(c) / 4) {
		c->err = true;
		return NULL;
	}
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		c->err = true;
		return NULL;
	}
	for (u32 i = 0; i < n; i++) {
		v[i] = hm_cur__str(c);
		if (c->err) {
			free_strv(v, i + 1);
			return NULL;
		}
	}
	*nr = n;
	return v;
}

static void set_str(char **dst, struct hm_cur *c)
{
	char *s = hm_cur__str(c);

	if (c->err) {
		free(s);
		return;
	}
	free(*dst);
	*dst = s;
}

void hm_reader__free_desc(struct hm_reader *r)
{
	for (u32 i = 0; i < r->nr_desc; i++)
		free(r->desc[i].name);
	free(r->desc);
	r->desc = NULL;
	r->nr_desc = 0;
}

/* Keep entry @i of a pipe EVENT_DESC of @nr entries for a later HEADER_ATTR. */
static int keep_desc(struct hm_reader *r, u32 i, u32 nr, char *name, u64 id0, u32 nids)
{
	if (!r->desc) {
		r->desc = calloc(nr, sizeof(*r->desc));
		if (!r->desc)
			return -ENOMEM;
		r->nr_desc = nr;
	}
	if (i >= r->nr_desc)
		return 0;
	free(r->desc[i].name);
	r->desc[i].name = name;
	r->desc[i].id0 = id0;
	r->desc[i].nids = nids;
	return 0;
}

/*
 * perf's evlist__set_event_name: the entry whose first id is one of the
 * event's; an event without ids (perf.data.piped.no_attr_ids) or an entry
 * without ids goes by position.
 */
void hm_reader__name_evsel(struct hm_reader *r, struct hm_evsel *e)
{
	struct hm_evdesc *d = NULL;

	if (!r->nr_desc || e->name)
		return;
	for (u32 i = 0; i < r->nr_desc && !d; i++)
		for (u32 j = 0; j < e->nr_ids && r->desc[i].nids && r->desc[i].name; j++)
			if (e->ids[j] == r->desc[i].id0) {
				d = &r->desc[i];
				break;
			}
	if (!d && e->idx >= 0 && (u32)e->idx < r->nr_desc &&
	    (!e->nr_ids || !r->desc[e->idx].nids))
		d = &r->desc[e->idx];
	if (d && d->name) {
		e->name = d->name;
		e->name_late = true;
		d->name = NULL;
	}
}

static int feat_event_desc(struct hm_reader *r, struct hm_cur *c)
{
	u32 nr = hm_cur__u32(c), asz = hm_cur__u32(c);

	if (c->err || asz < 64 || asz > 4096)
		return -EINVAL;
	/* each entry takes at least its attr, nids and a string's length: no absurd nr */
	if ((u64)nr > hm_cur__left(c) / (asz + 8))
		return -EINVAL;
	/* pipe mode: a name for an event still to come is kept for it */
	if (r->h.pipe)
		hm_reader__free_desc(r);
	for (u32 i = 0; i < nr && !c->err; i++) {
		const u8 *attr = hm_cur__bytes(c, asz);
		u32 nids = hm_cur__u32(c);
		char *name = hm_cur__str(c);
		struct hm_evsel *e = NULL;
		u64 id0 = 0;

		(void)attr;
		if (c->err || nids > hm_cur__left(c) / 8) {
			free(name);
			return -EINVAL;
		}
		if (nids)
			id0 = hm_cur__u64(c);
		hm_cur__bytes(c, (u64)(nids ? nids - 1 : 0) * 8);
		/* match by first id, as perf does; else by position */
		for (int k = 0; k < hm_reader__nr_evsel_int(r) && !e && nids; k++) {
			struct hm_evsel *x = hm_reader__evsel_int(r, k);

			for (u32 j = 0; j < x->nr_ids; j++)
				if (x->ids[j] == id0) {
					e = x;
					break;
				}
		}
		if (!e && (int)i < hm_reader__nr_evsel_int(r) &&
		    (nr == (u32)hm_reader__nr_evsel_int(r) || !nids))
			e = hm_reader__evsel_int(r, i);
		if (e && name && !e->name) {
			e->name = name;
			name = NULL;
		}
		if (!e && name && r->h.pipe && !c->err) {
			if (keep_desc(r, i, nr, name, id0, nids) < 0) {
				free(name);
				return -ENOMEM;
			}
			name = NULL;
		}
		free(name);
	}
	return c->err ? -EINVAL : 0;
}

/* Highest CPU named in @v (cpulists), +1; 0 when none or unparsable. */
static u32 cpus_in_lists(char **v, u32 n)
{
	u32 max = 0;

	for (u32 i = 0; i < n; i++) {
		const char *p = v[i];

		while (p && *p) {
			char *end;
			unsigned long a = strtoul(p, &end, 10);

			if (end == p || a >= HM_MAX_CPUS)
				return 0;
			if (a + 1 > max)
				max = a + 1;
			p = end + strspn(end, ",- \n");
		}
	}
	return max;
}

/*
 * NRCPUS was absent or corrupt: the CPU count the per-CPU part of
 * CPU_TOPOLOGY was written with, if the highest CPU of the sibling lists
 * accounts for its size exactly (nr * 8, or nr * 8 + die list + nr * 4).
 */
static u32 cpus_from_layout(struct hm_header *h, const struct hm_cur *c)
{
	u32 nr = cpus_in_lists(h->package_cpus, h->nr_package_cpus);
	struct hm_cur t = *c;
	u32 n;

	if (!nr || (u64)nr * 8 > hm_cur__left(&t))
		return 0;
	if (hm_cur__left(&t) == (u64)nr * 8)
		return nr;
	hm_cur__bytes(&t, (u64)nr * 8);
	n = hm_cur__u32(&t);
	for (u32 i = 0; i < n && !t.err; i++)
		hm_cur__bytes(&t, hm_cur__u32(&t));
	return !t.err && hm_cur__left(&t) == (u64)nr * 4 ? nr : 0;
}

/*
 * What perf's process_cpu_topology() takes the two sibling lists to fill:
 * each string as if padded to 64 bytes (NAME_ALIGN), whatever its length
 * field says.  A section no longer than that has no per-CPU ids for perf.
 */
static u64 perf_lists_size(const struct hm_header *h)
{
	u64 size = 8;

	for (u32 i = 0; i < h->nr_package_cpus; i++)
		size += (strlen(h->package_cpus[i]) + 1 + 63) / 64 * 64 + 4;
	for (u32 i = 0; i < h->nr_core_cpus; i++)
		size += (strlen(h->core_cpus[i]) + 1 + 63) / 64 * 64 + 4;
	return size;
}

static int feat_cpu_topology(struct hm_header *h, struct hm_cur *c)
{
	u64 section = hm_cur__left(c);

	h->cpu_ids_hidden = false;
	free_strv(h->package_cpus, h->nr_package_cpus);
	free_strv(h->core_cpus, h->nr_core_cpus);
	free_strv(h->die_cpus, h->nr_die_cpus);
	h->package_cpus = h->core_cpus = h->die_cpus = NULL;
	h->nr_package_cpus = h->nr_core_cpus = h->nr_die_cpus = 0;
	free(h->cpu);
	h->cpu = NULL;

	h->package_cpus = strlist(c, &h->nr_package_cpus);
	if (c->err)
		return -EINVAL;
	h->core_cpus = strlist(c, &h->nr_core_cpus);
	if (c->err)
		return -EINVAL;
	if (!hm_cur__left(c))
		return 0;
	h->cpu_ids_hidden = section <= perf_lists_size(h);
	if (!h->nr_cpus_avail)
		h->nr_cpus_avail = cpus_from_layout(h, c);
	if (!h->nr_cpus_avail)
		return 0;	/* NRCPUS unknown: the sibling lists only */
	if ((u64)h->nr_cpus_avail * 8 > hm_cur__left(c))
		return -EINVAL;
	h->cpu = calloc(h->nr_cpus_avail, sizeof(*h->cpu));
	if (!h->cpu)
		return -ENOMEM;
	for (u32 i = 0; i < h->nr_cpus_avail; i++) {
		h->cpu[i].core_id = (int)hm_cur__u32(c);
		h->cpu[i].socket_id = (int)hm_cur__u32(c);
		h->cpu[i].die_id = -1;
	}
	if (!hm_cur__left(c))
		return 0;
	h->die_cpus = strlist(c, &h->nr_die_cpus);
	if (c->err)
		return -EINVAL;
	if ((u64)h->nr_cpus_avail * 4 > hm_cur__left(c))
		return -EINVAL;
	for (u32 i = 0; i < h->nr_cpus_avail; i++)
		h->cpu[i].die_id = (int)hm_cur__u32(c);
	return 0;
}

static int feat_numa(struct hm_header *h, struct hm_cur *c)
{
	u32 n = hm_cur__u32(c);

	if (h->numa)
		for (u32 i = 0; i < h->nr_numa_nodes; i++)
			free(h->numa[i].cpus);
	free(h->numa);
	h->numa = NULL;
	h->nr_numa_nodes = 0;
	if (c->err || n > hm_cur__left(c) / 24 || n > HM_MAX_NODES)
		return -EINVAL;
	h->numa = calloc(n ? n : 1, sizeof(*h->numa));
	if (!h->numa)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		h->numa[i].node = hm_cur__u32(c);
		h->numa[i].mem_total_kb = hm_cur__u64(c);
		h->numa[i].mem_free_kb = hm_cur__u64(c);
		h->numa[i].cpus = hm_cur__str(c);
		h->nr_numa_nodes = i + 1;
		if (c->err || h->numa[i].node >= HM_MAX_NODES)
			return -EINVAL;
	}
	return 0;
}

static int feat_mem_topology(struct hm_header *h, struct hm_cur *c)
{
	u64 ver = hm_cur__u64(c), bs = hm_cur__u64(c), n = hm_cur__u64(c);

	(void)ver;
	if (h->mem)
		for (u64 i = 0; i < h->nr_mem_nodes; i++)
			free(h->mem[i].bitmap);
	free(h->mem);
	h->mem = NULL;
	h->nr_mem_nodes = 0;
	if (c->err || n > hm_cur__left(c) / 24 || n > HM_MAX_NODES || !bs)
		return -EINVAL;
	h->mem_block_size = bs;
	h->mem = calloc(n ? n : 1, sizeof(*h->mem));
	if (!h->mem)
		return -ENOMEM;
	for (u64 i = 0; i < n; i++) {
		u64 words;

		h->mem[i].node = hm_cur__u64(c);
		hm_cur__u64(c);			/* size: number of blocks */
		h->mem[i].nbits = hm_cur__u64(c);
		h->nr_mem_nodes = i + 1;
		/* nbits / 64 first: nbits + 63 wraps for a corrupt count */
		words = h->mem[i].nbits / 64 + !!(h->mem[i].nbits % 64);
		if (c->err || words > hm_cur__left(c) / 8 || h->mem[i].node >= HM_MAX_NODES)
			return -EINVAL;
		h->mem[i].bitmap = calloc(words ? words : 1, 8);
		if (!h->mem[i].bitmap)
			return -ENOMEM;
		for (u64 k = 0; k < words; k++)
			h->mem[i].bitmap[k] = hm_cur__u64(c);
	}
	return 0;
}

static int feat_cache(struct hm_header *h, struct hm_cur *c)
{
	u32 ver = hm_cur__u32(c), n = hm_cur__u32(c);

	if (h->caches)
		for (u32 i = 0; i < h->nr_caches; i++) {
			free(h->caches[i].type);
			free(h->caches[i].size);
			free(h->caches[i].map);
		}
	free(h->caches);
	h->caches = NULL;
	h->nr_caches = 0;
	if (c->err || ver != 1 || n > hm_cur__left(c) / 28)
		return -EINVAL;
	h->caches = calloc(n ? n : 1, sizeof(*h->caches));
	if (!h->caches)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		struct hm_cache_level *l = &h->caches[i];

		l->level = hm_cur__u32(c);
		l->line_size = hm_cur__u32(c);
		l->sets = hm_cur__u32(c);
		l->ways = hm_cur__u32(c);
		l->type = hm_cur__str(c);
		l->size = hm_cur__str(c);
		l->map = hm_cur__str(c);
		h->nr_caches = i + 1;
		if (c->err)
			return -EINVAL;
	}
	return 0;
}

static int feat_pmu_mappings(struct hm_header *h, struct hm_cur *c)
{
	u32 n = hm_cur__u32(c);

	free(h->pmu_types);
	free_strv(h->pmu_names, h->nr_pmu_mappings);
	h->pmu_types = NULL;
	h->pmu_names = NULL;
	h->nr_pmu_mappings = 0;
	if (c->err || n > hm_cur__left(c) / 8)
		return -EINVAL;
	h->pmu_types = calloc(n ? n : 1, sizeof(u32));
	h->pmu_names = calloc(n ? n : 1, sizeof(char *));
	if (!h->pmu_types || !h->pmu_names)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		h->pmu_types[i] = hm_cur__u32(c);
		h->pmu_names[i] = hm_cur__str(c);
		h->nr_pmu_mappings = i + 1;
		if (c->err)
			return -EINVAL;
	}
	return 0;
}

static int feat_group_desc(struct hm_header *h, struct hm_cur *c)
{
	u32 n = hm_cur__u32(c);

	free_strv(h->group_names, h->nr_groups);
	free(h->group_leader);
	free(h->group_members);
	h->group_names = NULL;
	h->group_leader = h->group_members = NULL;
	h->nr_groups = 0;
	if (c->err || n > hm_cur__left(c) / 12)
		return -EINVAL;
	h->group_names = calloc(n ? n : 1, sizeof(char *));
	h->group_leader = calloc(n ? n : 1, sizeof(u32));
	h->group_members = calloc(n ? n : 1, sizeof(u32));
	if (!h->group_names || !h->group_leader || !h->group_members)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		h->group_names[i] = hm_cur__str(c);
		h->group_leader[i] = hm_cur__u32(c);
		h->group_members[i] = hm_cur__u32(c);
		h->nr_groups = i + 1;
		if (c->err)
			return -EINVAL;
	}
	return 0;
}

static int feat_hybrid(struct hm_header *h, struct hm_cur *c)
{
	u32 n = hm_cur__u32(c);

	free_strv(h->hybrid_pmu, h->nr_hybrid);
	free_strv(h->hybrid_cpus, h->nr_hybrid);
	h->hybrid_pmu = h->hybrid_cpus = NULL;
	h->nr_hybrid = 0;
	if (c->err || n > hm_cur__left(c) / 8)
		return -EINVAL;
	h->hybrid_pmu = calloc(n ? n : 1, sizeof(char *));
	h->hybrid_cpus = calloc(n ? n : 1, sizeof(char *));
	if (!h->hybrid_pmu || !h->hybrid_cpus)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		h->hybrid_pmu[i] = hm_cur__str(c);
		h->hybrid_cpus[i] = hm_cur__str(c);
		h->nr_hybrid = i + 1;
		if (c->err)
			return -EINVAL;
	}
	return 0;
}

static int pmu_caps_one(struct hm_pmu_caps *pc, struct hm_cur *c, bool with_name)
{
	u32 n = hm_cur__u32(c);

	if (c->err || n > hm_cur__left(c) / 8)
		return -EINVAL;
	pc->names = calloc(n ? n : 1, sizeof(char *));
	pc->values = calloc(n ? n : 1, sizeof(char *));
	if (!pc->names || !pc->values)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		pc->names[i] = hm_cur__str(c);
		pc->values[i] = hm_cur__str(c);
		pc->nr = i + 1;
		if (c->err)
			return -EINVAL;
	}
	if (with_name) {
		pc->pmu_name = hm_cur__str(c);
		if (c->err)
			return -EINVAL;
	}
	return 0;
}

static int feat_pmu_caps(struct hm_header *h, struct hm_cur *c, bool cpu)
{
	u32 n = cpu ? 1 : hm_cur__u32(c);
	struct hm_pmu_caps *v;
	int err;

	if (c->err || (!cpu && n > hm_cur__left(c) / 8))
		return -EINVAL;
	v = realloc(h->pmu_caps, (h->nr_pmu_caps + (u64)n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	h->pmu_caps = v;
	for (u32 i = 0; i < n; i++) {
		struct hm_pmu_caps *pc = &h->pmu_caps[h->nr_pmu_caps++];

		memset(pc, 0, sizeof(*pc));
		err = pmu_caps_one(pc, c, !cpu);
		if (err)
			return err;
	}
	return 0;
}

static int feat_build_id(struct hm_header *h, struct hm_cur *c)
{
	while (hm_cur__left(c) >= 8) {
		const u8 *rec = c->p;
		u16 misc = hm_sw16(hm_ld16(rec + 4), c->sw);
		u16 size = hm_sw16(hm_ld16(rec + 6), c->sw);
		struct hm_build_id *b;
		const u8 *body;

		if (size < 8 + 4 + 24 || size > hm_cur__left(c))
			return -EINVAL;
		body = hm_cur__bytes(c, size);
		if (!body)
			return -EINVAL;
		b = realloc(h->build_ids, (h->nr_build_ids + 1) * sizeof(*b));
		if (!b)
			return -ENOMEM;
		h->build_ids = b;
		b = &h->build_ids[h->nr_build_ids++];
		memset(b, 0, sizeof(*b));
		b->misc = misc;
		b->pid = (s32)hm_sw32(hm_ld32(body + 8), c->sw);
		memcpy(b->id, body + 12, 20);
		b->size = (misc & (1 << 15)) ? body[32] : 20;
		if (b->size > 20)
			b->size = 20;
		b->filename = strndup((const char *)body + 36, size - 36);
		if (!b->filename)
			return -ENOMEM;
	}
	return 0;
}

/* u32 version (1), u32 clockid, u64 tod_ns, u64 clockid_ns */
static int feat_clock_data(struct hm_header *h, struct hm_cur *c)
{
	u32 ver = hm_cur__u32(c), id = hm_cur__u32(c);
	u64 tod = hm_cur__u64(c), ref = hm_cur__u64(c);

	if (c->err || ver != 1)
		return -EINVAL;
	h->clock_id = id;
	h->clock_tod_ns = tod;
	h->clock_ref_ns = ref;
	return 0;
}

/*
 * A section that failed to parse leaves nothing behind: half-filled tables
 * (a node whose bitmap was never read, a count the data does not back) are
 * freed, so no consumer sizes or indexes anything with them.  The parsers
 * free what they replace first, so running one on no bytes empties it.
 */
static void feature_drop(struct hm_header *h, int feat)
{
	struct hm_cur none = { .err = true };

	switch (feat) {
	case HM_FEAT_NRCPUS:
		/* the previous good value (if any) stays; h->cpu matches it */
		break;
	case HM_FEAT_CPU_TOPOLOGY:	feat_cpu_topology(h, &none); break;
	case HM_FEAT_NUMA_TOPOLOGY:	feat_numa(h, &none); break;
	case HM_FEAT_MEM_TOPOLOGY:	feat_mem_topology(h, &none); break;
	case HM_FEAT_CACHE:		feat_cache(h, &none); break;
	case HM_FEAT_PMU_MAPPINGS:	feat_pmu_mappings(h, &none); break;
	case HM_FEAT_GROUP_DESC:	feat_group_desc(h, &none); break;
	case HM_FEAT_HYBRID_TOPOLOGY:	feat_hybrid(h, &none); break;
	case HM_FEAT_BPF_BTF:		hm_feat__btf_free(h); break;
	case HM_FEAT_BPF_PROG_INFO:	hm_feat__bpf_progs_free(h); break;
	default:
		break;
	}
}

/*
 * Keep section @feat as it came (h->feat_raw), numbers made native, for
 * writers that pass it on; not the features kept otherwise.  A section of
 * the other byte order whose layout is not known is not kept.
 */
static int keep_raw(struct hm_reader *r, int feat, const u8 *buf, u64 size)
{
	struct hm_header *h = hm_reader__hdr(r);
	struct hm_feat_raw *k;
	void *p = NULL;

	if (feat <= 0 || feat >= HM_FEAT_BITS || !hm_feature__name(feat) ||
	    feat == HM_FEAT_TRACING_DATA || feat == HM_FEAT_BUILD_ID || feat == HM_FEAT_EVENT_DESC)
		return 0;
	if (!h->feat_raw) {
		h->feat_raw = calloc(HM_FEAT_BITS, sizeof(*h->feat_raw));
		if (!h->feat_raw)
			return -ENOMEM;
	}
	k = &h->feat_raw[feat];
	if (size) {
		p = malloc(size);
		if (!p)
			return -ENOMEM;
		memcpy(p, buf, size);
		if (hm_reader__swap(r) &&
		    !hm_feat__swap(feat, p, size, h->nr_cpus_avail, true)) {
			free(p);
			free(k->data);
			memset(k, 0, sizeof(*k));
			return 0;
		}
	}
	free(k->data);
	k->data = p;
	k->size = size;
	k->present = true;
	return 0;
}

int hm_feature__parse(struct hm_reader *r, int feat, const u8 *buf, u64 size, u64 file_off)
{
	struct hm_header *h = hm_reader__hdr(r);
	struct hm_cur c = { .p = buf, .end = buf + size, .sw = hm_reader__swap(r) };
	int err = 0;

	(void)file_off;
	if (!size && feat != HM_FEAT_HITMAP) {
		/*
		 * An empty section: nothing to parse, but in a file the
		 * feature is there for perf (BRANCH_STACK and STAT are empty
		 * by design; perf 3.14 left CPUDESC empty), so its bit stays.
		 * An empty HEADER_FEATURE record is none: perf 6.1 and 6.12
		 * end their features with one of id 32 (CPU_DOMAIN_INFO to
		 * perf 7.3, which does not take it).
		 */
		if (h->pipe)
			return 0;
		err = keep_raw(r, feat, NULL, 0);
		if (!err && feat > 0 && feat < HM_FEAT_BITS)
			h->feat_bits[feat / 64] |= 1ULL << (feat % 64);
		return err;
	}
	switch (feat) {
	case HM_FEAT_HOSTNAME:	set_str(&h->hostname, &c); break;
	case HM_FEAT_OSRELEASE:	set_str(&h->osrelease, &c); break;
	case HM_FEAT_VERSION:	set_str(&h->version, &c); break;
	case HM_FEAT_ARCH:	set_str(&h->arch, &c); break;
	case HM_FEAT_CPUDESC:	set_str(&h->cpudesc, &c); break;
	case HM_FEAT_CPUID:	set_str(&h->cpuid, &c); break;
	case HM_FEAT_NRCPUS: {
		u32 avail = hm_cur__u32(&c), online = hm_cur__u32(&c);

		/* a corrupt value is not kept: it sizes per-CPU tables */
		if (c.err || !avail || avail > HM_MAX_CPUS || online > avail) {
			err = -EINVAL;
			break;
		}
		if (h->cpu && avail != h->nr_cpus_avail) {
			free(h->cpu);	/* sized by the old count */
			h->cpu = NULL;
		}
		h->nr_cpus_avail = avail;
		h->nr_cpus_online = online;
		break;
	}
	case HM_FEAT_TOTAL_MEM:
		h->total_mem_kb = hm_cur__u64(&c);
		break;
	case HM_FEAT_CMDLINE: {
		u32 n;
		char **v = strlist(&c, &n);

		if (!c.err) {
			free_strv(h->cmdline_argv, h->cmdline_argc);
			h->cmdline_argv = v;
			h->cmdline_argc = n;
		}
		break;
	}
	case HM_FEAT_EVENT_DESC:	err = feat_event_desc(r, &c); break;
	case HM_FEAT_CPU_TOPOLOGY:	err = feat_cpu_topology(h, &c); break;
	case HM_FEAT_NUMA_TOPOLOGY:	err = feat_numa(h, &c); break;
	case HM_FEAT_MEM_TOPOLOGY:	err = feat_mem_topology(h, &c); break;
	case HM_FEAT_CACHE:		err = feat_cache(h, &c); break;
	case HM_FEAT_PMU_MAPPINGS:	err = feat_pmu_mappings(h, &c); break;
	case HM_FEAT_GROUP_DESC:	err = feat_group_desc(h, &c); break;
	case HM_FEAT_HYBRID_TOPOLOGY:	err = feat_hybrid(h, &c); break;
	case HM_FEAT_CPU_PMU_CAPS:	err = feat_pmu_caps(h, &c, true); break;
	case HM_FEAT_PMU_CAPS:		err = feat_pmu_caps(h, &c, false); break;
	case HM_FEAT_BUILD_ID:		err = feat_build_id(h, &c); break;
	case HM_FEAT_CLOCK_DATA:	err = feat_clock_data(h, &c); break;
	case HM_FEAT_BPF_PROG_INFO:	err = hm_feat__bpf_prog_info(h, &c); break;
	case HM_FEAT_BPF_BTF:		err = hm_feat__bpf_btf(h, &c); break;
	case HM_FEAT_CLOCKID:
		h->clockid_res_ns = hm_cur__u64(&c);
		break;
	case HM_FEAT_SAMPLE_TIME:
		h->sample_time_first = hm_cur__u64(&c);
		h->sample_time_last = hm_cur__u64(&c);
		break;
	case HM_FEAT_COMPRESSED:
		h->comp_version = hm_cur__u32(&c);
		h->comp_type = hm_cur__u32(&c);
		h->comp_level = hm_cur__u32(&c);
		h->comp_ratio = hm_cur__u32(&c);
		h->comp_mmap_len = hm_cur__u32(&c);
		break;
	case HM_FEAT_TRACING_DATA: {
		u64 used = 0;

		err = hm_tracing__parse(h, buf, size, &used);
		if (!err)
			hm_tracing__attach(r);
		if (!err) {	/* the raw blob too, for writers that pass it on */
			void *p = malloc(size ? size : 1);

			if (!p)
				return -ENOMEM;
			memcpy(p, buf, size);
			free(h->tracing_data);
			h->tracing_data = p;
			h->tracing_data_size = size;
		}
		break;
	}
	case HM_FEAT_HITMAP: {
		void *p = malloc(size ? size : 1);

		if (!p)
			return -ENOMEM;
		memcpy(p, buf, size);
		free(h->hitmap_meta);
		h->hitmap_meta = p;
		h->hitmap_meta_size = size;
		break;
	}
	default:
		break;	/* not parsed (DIR_FORMAT, AUXTRACE, E_MACHINE, ...): kept raw */
	}
	if (!err && c.err)
		err = -EINVAL;
	if (err)
		feature_drop(h, feat);
	if (!err)
		err = keep_raw(r, feat, buf, size);
	if (!err && feat > 0 && feat < HM_FEAT_BITS)
		h->feat_bits[feat / 64] |= 1ULL << (feat % 64);
	return err;
}

/* ---- in-place byte swap of a section to native (HEADER_FEATURE's ev.data) */

void hm_feature__swap(struct hm_reader *r, u64 feat, u8 *buf, u64 size)
{
	u8 *p = buf, *end = buf + size;
	u32 n, asz;

	if (feat != HM_FEAT_EVENT_DESC) {
		if (feat < HM_FEAT_BITS)
			hm_feat__swap((int)feat, buf, size, hm_reader__hdr(r)->nr_cpus_avail, true);
		return;	/* HITMAP and unknown: as in the file */
	}
	/* u32 nr, u32 attr size, {attr, u32 nr_ids, string name, u64 ids[]}[nr] */
	if (size < 8)
		return;
	n = bswap_32(hm_ld32(p));
	asz = bswap_32(hm_ld32(p + 4));
	hm_st32(p, n);
	hm_st32(p + 4, asz);
	p += 8;
	for (u32 i = 0; i < n; i++) {
		u32 nids, len;

		if ((u64)(end - p) < (u64)asz + 8)
			return;
		hm_attr__swap(p, asz);
		p += asz;
		nids = bswap_32(hm_ld32(p));
		hm_st32(p, nids);
		len = bswap_32(hm_ld32(p + 4));
		hm_st32(p + 4, len);
		p += 8;
		if ((u64)(end - p) < len || (u64)(end - p - len) / 8 < nids)
			return;
		p += len;
		hm_swap64_mem(p, (size_t)nids * 8);
		p += (size_t)nids * 8;
	}
}
