// SPDX-License-Identifier: GPL-2.0-only
/* Futex table geometry and bucket layout <-> HM_META_FUTEX_TABLE/LAYOUT entries. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/futex.h>
#include <hitmap/log.h>

/* The private tables whose header (struct futex_private_hash before queues[]) the metadata lays out. */
static u32 fph_headers(const struct hm_futex_model *m)
{
	u32 n = 0;

	for (u32 i = 0; m->fph.queues && i < m->nr_tables; i++)
		if (m->tables[i].kind == 1 && m->tables[i].base > m->fph.queues)
			n++;
	return n;
}

/*
 * HM_META_FUTEX_OBJECTS: the regions and the mm_struct fields, as text
 * (meta.h); and per private table its header, "fph PID FPH QUEUES
 * futex_private_hash": struct futex_private_hash at FPH, bucket 0 (the
 * table's base) at FPH + QUEUES, offsetof(queues) as the writer's kernel
 * (BTF) or model lays it out.  A reader that predates the line skips it
 * as a region of a kind it does not know.
 */
static int objects_to_meta(const struct hm_futex_model *m, struct hm_meta *meta)
{
	u32 nfph = fph_headers(m);
	size_t cap = 64 + (size_t)(m->nr_regions + nfph) * 80 + (size_t)m->nr_mm_names * 64, len = 0;
	char *t;
	u32 i;
	int err;

	if (!m->nr_regions && !m->nr_mm_names && !nfph)
		return 0;
	t = malloc(cap);
	if (!t)
		return -ENOMEM;
	for (i = 0; nfph && i < m->nr_tables; i++) {
		const struct hm_futex_table *pt = &m->tables[i];

		if (pt->kind == 1 && pt->base > m->fph.queues)
			len += (size_t)snprintf(t + len, cap - len, "fph %d %" PRIx64 " %x futex_private_hash\n",
						pt->pid, pt->base - m->fph.queues, m->fph.queues);
	}
	for (i = 0; i < m->nr_regions; i++) {
		const struct hm_futex_region *r = &m->regions[i];

		len += (size_t)snprintf(t + len, cap - len, "%s %d %" PRIx64 " %" PRIx64 " %s\n",
					hm_futex_region_kind__name(r->kind), r->pid, r->base, r->size,
					r->name[0] ? r->name : "-");
	}
	for (i = 0; i < m->nr_mm_names; i++)
		len += (size_t)snprintf(t + len, cap - len, "mmfield %u %u %s\n", m->mm_names[i].off,
					m->mm_names[i].size, m->mm_names[i].name + 3);
	err = len < cap ? hm_meta__add(meta, HM_META_FUTEX_OBJECTS, t, (u32)len) : -E2BIG;
	free(t);
	return err;
}

/* One line of HM_META_FUTEX_OBJECTS; a line of an unknown kind is skipped (newer files). */
static int object_from_line(struct hm_futex_model *m, const char *line, int entry)
{
	struct hm_futex_region r;
	char kind[16], name[40];
	unsigned long long base, size;
	unsigned off, sz;
	int pid, k;

	if (sscanf(line, "mmfield %u %u %39s", &off, &sz, name) == 3)
		return hm_futex_model__add_mm_name(m, name, off, sz) == -ENOMEM ? -ENOMEM : 0;
	if (sscanf(line, "%15s %d %llx %llx %39s", kind, &pid, &base, &size, name) != 5) {
		hm_warn("hitmap metadata: futex objects entry %d: line \"%.40s\" is not KIND PID BASE SIZE NAME; skipped",
			entry, line);
		return 0;
	}
	if (!strcmp(kind, "fph")) {
		/*
		 * A private hash's header: SIZE is offsetof(queues), where the
		 * writer's kernel puts bucket 0 (a padded bucket, another
		 * SMP_CACHE_BYTES); it replaces the era's assumption.
		 */
		if (!size || size > 4096 || (size & 7) || base > UINT64_MAX - size) {
			hm_warn("hitmap metadata: futex objects entry %d: private hash header of %llu bytes; using %u",
				entry, size, m->fph.queues);
			return 0;
		}
		m->fph.queues = (u32)size;
		return 0;
	}
	for (k = 0; k < HM_FUTEX_REGION__MAX; k++)
		if (!strcmp(kind, hm_futex_region_kind__name((u32)k)))
			break;
	if (k == HM_FUTEX_REGION__MAX)
		return 0;
	memset(&r, 0, sizeof(r));
	r.kind = (u32)k;
	r.pid = pid;
	r.base = base;
	r.size = size;
	snprintf(r.name, sizeof(r.name), "%.23s", strcmp(name, "-") ? name : "");
	return hm_futex_model__add_region(m, &r) == -ENOMEM ? -ENOMEM : 0;
}

static int objects_from_meta(struct hm_futex_model *m, const char *data, u32 len, int entry)
{
	char line[128];
	u32 i = 0;
	int err;

	while (i < len) {
		u32 n = 0;

		while (i < len && data[i] != '\n') {
			if (n + 1 < sizeof(line))
				line[n++] = data[i];
			i++;
		}
		i++;
		line[n] = 0;
		if (!n)
			continue;
		err = object_from_line(m, line, entry);
		if (err)
			return err;
	}
	return 0;
}

int hm_futex_model__to_meta(const struct hm_futex_model *m, struct hm_meta *meta)
{
	struct hm_meta_futex_layout ml;
	u32 i;
	int f, err;

	for (i = 0; i < m->nr_tables; i++) {
		const struct hm_futex_table *t = &m->tables[i];
		struct hm_meta_futex_table mt;

		memset(&mt, 0, sizeof(mt));
		mt.kind = t->kind;
		mt.node = t->kind ? -1 : t->node;
		mt.pid = t->kind ? t->pid : -1;
		mt.bucket_size = m->layout.bucket_size;
		mt.base = t->base;
		mt.slots = t->slots;
		memcpy(mt.provenance, t->provenance, sizeof(mt.provenance));
		mt.provenance[sizeof(mt.provenance) - 1] = 0;
		err = hm_meta__add(meta, HM_META_FUTEX_TABLE, &mt, sizeof(mt));
		if (err)
			return err;
	}
	memset(&ml, 0, sizeof(ml));
	ml.bucket_size = m->layout.bucket_size;
	for (f = 0; f < HM_FUTEX_FIELD_PAD; f++) {
		if (m->layout.offset[f] < 0)
			continue;
		snprintf(ml.field[ml.nr_fields].name, sizeof(ml.field[0].name), "%s",
			 hm_futex_field__name(f));
		ml.field[ml.nr_fields].offset = m->layout.offset[f];
		ml.field[ml.nr_fields].size = m->layout.size[f];
		ml.nr_fields++;
	}
	snprintf(ml.source, sizeof(ml.source), "%s", m->layout.source);
	err = hm_meta__add(meta, HM_META_FUTEX_LAYOUT, &ml, sizeof(ml));
	if (!err)
		err = objects_to_meta(m, meta);
	if (err || !m->nr_mms)
		return err;
	/* the registered mm_structs, so their futex fields are named offline too */
	{
		u64 *pairs = calloc(2 * (size_t)m->nr_mms, sizeof(*pairs));

		if (!pairs)
			return -ENOMEM;
		for (i = 0; i < m->nr_mms; i++) {
			pairs[2 * i] = (u64)(s64)m->mms[i].pid;
			pairs[2 * i + 1] = m->mms[i].addr;
		}
		err = hm_meta__add(meta, HM_META_FUTEX_MMS, pairs, m->nr_mms * 16);
		free(pairs);
	}
	return err;
}

int hm_futex_model__from_meta(struct hm_futex_model *m, const struct hm_meta *meta)
{
	const void *data;
	u32 tag, len, i;
	int idx, err;

	if (!meta)
		return 0;
	for (idx = 0; hm_meta__get(meta, idx, &tag, &data, &len) == 1; idx++) {
		if (tag == HM_META_FUTEX_LAYOUT) {
			struct hm_meta_futex_layout ml;
			struct hm_futex_layout l;
			int f;

			memset(&ml, 0, sizeof(ml));
			memcpy(&ml, data, len < sizeof(ml) ? len : sizeof(ml));
			if (!ml.bucket_size || ml.bucket_size > 4096 || ml.nr_fields > 8) {
				hm_warn("hitmap metadata: futex layout entry %d is corrupt (bucket size %u, %u fields); using the model's",
					idx, ml.bucket_size, ml.nr_fields);
				continue;
			}
			memset(&l, 0, sizeof(l));
			l.bucket_size = ml.bucket_size;
			for (f = 0; f < HM_FUTEX_FIELD__MAX; f++)
				l.offset[f] = -1;
			for (i = 0; i < ml.nr_fields; i++) {
				ml.field[i].name[sizeof(ml.field[i].name) - 1] = 0;
				for (f = 0; f < HM_FUTEX_FIELD_PAD; f++)
					if (!strcmp(ml.field[i].name, hm_futex_field__name(f)) &&
					    ml.field[i].offset < ml.bucket_size) {
						l.offset[f] = ml.field[i].offset;
						l.size[f] = ml.field[i].size;
					}
			}
			ml.source[sizeof(ml.source) - 1] = 0;
			snprintf(l.source, sizeof(l.source), "%s", ml.source);
			m->layout = l;
		} else if (tag == HM_META_FUTEX_OBJECTS) {
			err = objects_from_meta(m, data, len, idx);
			if (err)
				return err;
		} else if (tag == HM_META_FUTEX_MMS) {
			for (i = 0; i + 16 <= len; i += 16) {
				u64 pid, mm;

				memcpy(&pid, (const u8 *)data + i, 8);
				memcpy(&mm, (const u8 *)data + i + 8, 8);
				err = hm_futex_model__add_mm(m, (s32)pid, mm);
				if (err == -ENOMEM)
					return err;
			}
		} else if (tag == HM_META_FUTEX_TABLE) {
			struct hm_meta_futex_table mt;
			struct hm_futex_table t;

			if (len < offsetof(struct hm_meta_futex_table, provenance)) {
				hm_warn("hitmap metadata: futex table entry %d is %u bytes, too short; skipped", idx, len);
				continue;
			}
			memset(&mt, 0, sizeof(mt));
			memcpy(&mt, data, len < sizeof(mt) ? len : sizeof(mt));
			memset(&t, 0, sizeof(t));
			t.kind = mt.kind;
			t.node = mt.node;
			t.pid = mt.pid;
			t.base = mt.base;
			t.slots = mt.slots;
			memcpy(t.provenance, mt.provenance, sizeof(t.provenance));
			t.provenance[sizeof(t.provenance) - 1] = 0;
			err = hm_futex_model__add_table(m, &t);
			if (err == -ENOMEM)
				return err;
			if (err)
				hm_warn("hitmap metadata: futex table entry %d is invalid (slots %llu); skipped",
					idx, (unsigned long long)mt.slots);
		}
	}
	return 0;
}
