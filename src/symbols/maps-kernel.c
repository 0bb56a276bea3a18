// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel and module maps: kept in insertion order, looked up through a flat
 * view painted largest first (built on demand); the kernel map gets its
 * kallsyms range at its first hit, as perf's map__load().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <hitmap/log.h>
#include "maps-int.h"

int hm_kmaps__add(struct hm_maps *m, struct hm_map *map)
{
	if (hm_maps__grow32((void **)&m->kmaps, &m->alloc_kmaps, m->nr_kmaps + 1, sizeof(*m->kmaps)) < 0)
		return -ENOMEM;
	m->kmaps[m->nr_kmaps++] = map;
	m->kdirty = true;
	return 0;
}

void hm_kmaps__remove(struct hm_maps *m, const struct hm_map *map)
{
	for (u32 i = 0; i < m->nr_kmaps; i++) {
		if (m->kmaps[i] == map) {
			memmove(m->kmaps + i, m->kmaps + i + 1, (m->nr_kmaps - i - 1) * sizeof(*m->kmaps));
			m->nr_kmaps--;
			m->kdirty = true;
			return;
		}
	}
}

static int cmp_size_desc(const void *a, const void *b)
{
	const struct hm_map *x = *(struct hm_map *const *)a, *y = *(struct hm_map *const *)b;
	u64 sx = x->end - x->start, sy = y->end - y->start;

	return sx < sy ? 1 : sx > sy ? -1 : 0;
}

/* Paint @seg over the flat view: later (smaller) maps win where they overlap. */
static int kflat_paint(struct hm_maps *m, struct hm_kseg seg)
{
	u32 i, j, n = 0;
	struct hm_kseg ins[3];

	i = j = hm_kflat__index(m->kflat, m->nr_kflat, seg.start);
	while (j < m->nr_kflat && m->kflat[j].start < seg.end)
		j++;
	if (j > i && m->kflat[i].start < seg.start) {
		ins[n] = m->kflat[i];
		ins[n++].end = seg.start;
	}
	ins[n++] = seg;
	if (j > i && m->kflat[j - 1].end > seg.end) {
		ins[n] = m->kflat[j - 1];
		ins[n++].start = seg.end;
	}
	if (hm_maps__grow32((void **)&m->kflat, &m->alloc_kflat, m->nr_kflat - (j - i) + n, sizeof(*m->kflat)) < 0)
		return -ENOMEM;
	memmove(m->kflat + i + n, m->kflat + j, (m->nr_kflat - j) * sizeof(*m->kflat));
	memcpy(m->kflat + i, ins, n * sizeof(*ins));
	m->nr_kflat = m->nr_kflat - (j - i) + n;
	return 0;
}

/* Rebuild the flat view: each address maps to the smallest kernel map holding it. */
static int kflat_build(struct hm_maps *m)
{
	struct hm_map **order;
	int err = 0;

	m->nr_kflat = 0;
	if (!m->nr_kmaps) {
		m->kdirty = false;
		return 0;
	}
	order = malloc(m->nr_kmaps * sizeof(*order));
	if (!order)
		return -ENOMEM;
	memcpy(order, m->kmaps, m->nr_kmaps * sizeof(*order));
	/* stable enough: equal sizes keep the later insertion on top */
	qsort(order, m->nr_kmaps, sizeof(*order), cmp_size_desc);
	for (u32 i = 0; i < m->nr_kmaps && !err; i++) {
		if (order[i]->end <= order[i]->start)
			continue;
		err = kflat_paint(m, (struct hm_kseg){ order[i]->start, order[i]->end, order[i] });
	}
	free(order);
	if (!err)
		m->kdirty = false;
	return err;
}

const struct hm_map *hm_kmaps__find(const struct hm_maps *cm, u64 addr)
{
	struct hm_maps *m = (struct hm_maps *)cm;	/* the flat view is a cache */
	u32 lo;

	if (m->kdirty && kflat_build(m) < 0) {
		/* out of memory: fall back to a scan */
		const struct hm_map *best = NULL;

		for (u32 i = 0; i < m->nr_kmaps; i++) {
			const struct hm_map *k = m->kmaps[i];

			if (k->start <= addr && addr < k->end &&
			    (!best || k->end - k->start <= best->end - best->start))
				best = k;
		}
		return best;
	}
	lo = hm_kflat__index(m->kflat, m->nr_kflat, addr);
	if (lo < m->nr_kflat && m->kflat[lo].start <= addr)
		return m->kflat[lo].map;
	return NULL;
}

const struct hm_map *hm_kmaps__find_any(const struct hm_maps *m, u64 addr)
{
	return hm_kmaps__find(m, addr);
}

/* machine__process_kernel_mmap_event() */
int hm_maps__kernel_mmap(struct hm_maps *m, u64 start, u64 len, u64 pgoff, const char *name,
		       const u8 *bid, u8 bid_size, u16 misc, u32 prot, u32 flags)
{
	bool is_kernel = !strncmp(name, KERNEL_MMAP_NAME, strlen(KERNEL_MMAP_NAME) - 1);
	struct hm_map *map;
	u8 type;

	if (name[0] == '/' || (!is_kernel && name[0] == '['))
		type = HM_MAP_MODULE;
	else if (is_kernel)
		type = HM_MAP_VMLINUX;
	else if (!strcmp(name, ENTRY_TRAMPOLINE_NAME))
		type = HM_MAP_KEXTRA;
	else
		return 0;	/* perf ignores it */

	if (type == HM_MAP_VMLINUX)
		snprintf(m->ref_name, sizeof(m->ref_name), "%s", name + strlen(KERNEL_MMAP_NAME));
	if (type == HM_MAP_VMLINUX && m->vmlinux) {
		map = m->vmlinux;	/* machine__update_kernel_mmap: same map, new range */
	} else {
		map = hm_maps__map_new(m);
		if (!map)
			return -ENOMEM;
		map->filename = (char *)hm_strpool__intern(m->pool,
				type == HM_MAP_VMLINUX ? KERNEL_MMAP_NAME : name);
		if (!map->filename)
			return -ENOMEM;
		map->kernel = true;
		map->type = type;
		if (hm_kmaps__add(m, map) < 0)
			return -ENOMEM;
		if (type == HM_MAP_VMLINUX)
			m->vmlinux = map;
	}
	map->start = start;
	map->end = start + len;
	if (type == HM_MAP_VMLINUX && start == 0 && map->end == 0)
		map->end = ~0ULL;	/* zero-sized synthesized kernel MMAP */
	if (map->end < map->start)
		map->end = ~0ULL;
	map->pgoff = pgoff;
	map->misc = misc;
	map->prot = prot;
	map->flags = flags;
	if (bid && bid_size) {
		memcpy(map->build_id, bid, bid_size > 20 ? 20 : bid_size);
		map->build_id_size = bid_size > 20 ? 20 : bid_size;
	} else {
		hm_maps__apply_build_id(m, map);
	}
	m->kdirty = true;
	return 0;
}

/*
 * perf's map__load() of the kernel map at its first hit: kallsyms loaded,
 * symbols moved by the relocation delta (kallsyms__delta), the map set to
 * their range (map__fixup_start/end).
 */
static void vmlinux_load(struct hm_maps *m)
{
	const struct hm_ksyms *k;
	u64 start = 0, end = 0, delta = 0;

	m->vmlinux_loaded = true;
	m->loaded_at1 = m->nr_side + 1;
	if (!m->ksyms_fn)
		return;
	k = m->ksyms_fn(m->ksyms_ctx);
	if (!k || hm_ksyms__kernel_range(k, &start, &end) < 0)
		return;
	if (m->vmlinux->pgoff && m->ref_name[0]) {
		const struct hm_ksym *ref = hm_ksyms__by_name(k, m->ref_name);

		if (!ref)
			return;	/* perf: kallsyms__delta fails, nothing loaded */
		delta = ref->start - m->vmlinux->pgoff;
	}
	m->vmlinux->start = start - delta;
	m->vmlinux->end = end - delta;
	m->kdirty = true;
	m->gen++;	/* lookups made before may answer differently now */
}

const struct hm_map *hm_maps__kfind(const struct hm_maps *cm, u64 addr)
{
	struct hm_maps *m = (struct hm_maps *)cm;	/* loading is a cache fill */
	const struct hm_map *map = hm_kmaps__find(m, addr);

	if (map && map == m->vmlinux && !m->vmlinux_loaded) {
		vmlinux_load(m);
		map = hm_kmaps__find(m, addr);
	}
	return map;
}


int hm_maps__load_kernel(struct hm_maps *m)
{
	if (!m || !m->vmlinux || m->vmlinux_loaded)
		return 0;
	vmlinux_load(m);
	m->load_given = true;
	return 1;
}

u64 hm_maps__kernel_loaded(const struct hm_maps *m, bool *given)
{
	if (given)
		*given = m && m->loaded_at1 && m->load_given;
	return m && m->loaded_at1 ? m->loaded_at1 - 1 : UINT64_MAX;
}

const char *hm_maps__kernel_ref(const struct hm_maps *m)
{
	return m && m->vmlinux && m->vmlinux->pgoff ? m->ref_name : "";
}
