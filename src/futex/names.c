// SPDX-License-Identifier: GPL-2.0-only
/*
 * Names of the lines on the futex path (notes 4, 4.4): buckets, the private
 * hash header, mm_struct fields, struct page/folio lines in vmemmap, the
 * per-CPU reference counters and the futex word itself.  Field names come
 * from BTF when a names object was built with it, else from the era's layout.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <hitmap/futex_names.h>
#include <hitmap/futex_infer.h>
#include <hitmap/log.h>

#define USER_END	0x0000800000000000ull
#define PAGE_STRUCT	64u

/* struct page on x86_64/arm64 6.x without BTF (include/linux/mm_types.h) */
static const struct { u32 off, size; const char *name; } page_default[] = {
	{ 0, 8, "flags" }, { 8, 16, "lru" }, { 24, 8, "mapping" }, { 32, 8, "index" },
	{ 40, 8, "private" }, { 48, 4, "_mapcount" }, { 52, 4, "_refcount" }, { 56, 8, "memcg_data" },
};

struct hm_futex_names {
	char	page[PAGE_STRUCT][40];	/* field at each byte of struct page ("" unknown) */
	u32	page_size;		/* sizeof(struct page): 64, or the BTF value */
	char	mm[4096 / 8][32];	/* field of mm_struct per 8-byte word (BTF only) */
	u32	mm_size;
	bool	btf;
};

/* Innermost named member of @id covering byte @off, as a dotted path. */
static int btf_path_at(const struct btf *btf, __u32 id, u32 off, char *buf, size_t size, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int i, n;

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_composite(t) || depth > 4)
		return -ENOENT;
	m = btf_members(t);
	n = btf_vlen(t);
	for (i = 0; i < n; i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		u32 mo = btf_member_bit_offset(t, i) / 8;
		long sz = btf__resolve_size(btf, m->type);
		size_t len = strlen(buf);

		if (sz <= 0 || off < mo || off >= mo + (u64)sz)
			continue;
		if (mn && *mn) {
			snprintf(buf + len, size - len, "%s%s", len ? "." : "", mn);
			/* a small named struct (list_head, atomic_t): its own member name adds little */
			if (sz > 16)
				btf_path_at(btf, m->type, off - mo, buf, size, depth + 1);
			return 0;
		}
		if (!btf_path_at(btf, m->type, off - mo, buf, size, depth + 1))
			return 0;
	}
	return -ENOENT;
}

static void load_btf(struct hm_futex_names *n, const char *path)
{
	struct btf *btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
	const struct btf_type *t;
	int id;
	u32 o;

	if (!btf) {
		hm_debug("%s: no BTF; futex-path names from the era's layouts", path ? path : "vmlinux");
		return;
	}
	id = btf__find_by_name_kind(btf, "page", BTF_KIND_STRUCT);
	if (id > 0 && (t = btf__type_by_id(btf, id)) && t->size <= PAGE_STRUCT) {
		n->page_size = t->size;
		for (o = 0; o < t->size; o++) {
			n->page[o][0] = 0;
			btf_path_at(btf, id, o, n->page[o], sizeof(n->page[o]), 0);
		}
		n->btf = true;
	}
	id = btf__find_by_name_kind(btf, "mm_struct", BTF_KIND_STRUCT);
	if (id > 0 && (t = btf__type_by_id(btf, id))) {
		n->mm_size = t->size < 4096 ? t->size : 4096;
		for (o = 0; o < n->mm_size; o += 8)
			btf_path_at(btf, id, o, n->mm[o / 8], sizeof(n->mm[o / 8]), 0);
		n->btf = true;
	}
	btf__free(btf);
}

struct hm_futex_names *hm_futex_names__new(const char *btf_path)
{
	struct hm_futex_names *n = calloc(1, sizeof(*n));
	size_t i;
	u32 o;

	if (!n)
		return NULL;
	n->page_size = PAGE_STRUCT;
	for (i = 0; i < sizeof(page_default) / sizeof(page_default[0]); i++)
		for (o = page_default[i].off; o < page_default[i].off + page_default[i].size; o++)
			snprintf(n->page[o], sizeof(n->page[o]), "%s", page_default[i].name);
	if (!btf_path || *btf_path)
		load_btf(n, btf_path);
	return n;
}

void hm_futex_names__delete(struct hm_futex_names *n)
{
	free(n);
}

bool hm_futex_names__has_btf(const struct hm_futex_names *n)
{
	return n && n->btf;
}

/* Functions whose data accesses are struct page/folio (GUP-fast, folio references). */
static bool page_code(const char *f)
{
	static const char *const names[] = {
		"try_grab_folio_fast", "try_grab_folio", "try_get_folio", "gup_fast", "gup_fast_pte_range",
		"gup_fast_pmd_range", "gup_fast_fallback", "get_user_pages_fast", "get_futex_key",
		"folio_put", "__folio_put", "put_page", "folio_try_get", "get_page", "folio_get",
		"internal_get_user_pages_fast", "lockless_pages_from_mm", NULL,
	};
	int i;

	for (i = 0; f && names[i]; i++)
		if (!strcmp(f, names[i]))
			return true;
	return false;
}

static bool futex_fn(const char *f)
{
	return f && (!strncmp(f, "futex_", 6) || !strncmp(f, "__futex_", 8) || !strcmp(f, "get_futex_key") ||
		     !strcmp(f, "do_futex"));
}

bool hm_futex__path_function(const char *func)
{
	return futex_fn(func) || page_code(func) || hm_futex_code__from_symbol(func) != HM_FUTEX_CODE_NONE;
}

u64 hm_futex__vmemmap_base(u64 addr)
{
	/* x86_64 without memory randomization: 4-level and 5-level vmemmap */
	if (addr >= 0xffffea0000000000ull && addr < 0xffffeb0000000000ull)
		return 0xffffea0000000000ull;
	if (addr >= 0xffd4000000000000ull && addr < 0xffd6000000000000ull)
		return 0xffd4000000000000ull;
	return 0;
}

/* The name of @addr in region @r (names.h's vocabulary); 0 when @r is NULL. */
static int region_name(const struct hm_futex_region *r, u64 addr, char *buf, size_t size)
{
	if (!r)
		return 0;
	switch (r->kind) {
	case HM_FUTEX_REGION_MM:
		/* a byte of the mm_struct no field of the metadata covers */
		snprintf(buf, size, "mm_struct(pid %d).+%" PRIu64, r->pid, addr - r->base);
		return 1;
	case HM_FUTEX_REGION_WORDS:
		snprintf(buf, size, "futex word 0x%" PRIx64, addr);
		return 1;
	case HM_FUTEX_REGION_PT:
		snprintf(buf, size, "page table %s", r->name[0] ? r->name : "entry");
		return 1;
	case HM_FUTEX_REGION_GLOBAL:
		snprintf(buf, size, "%s", r->name[0] ? r->name : "__futex_data");
		return 1;
	case HM_FUTEX_REGION_PCPU:
		snprintf(buf, size, "pcpu futex_ref");
		return 1;
	case HM_FUTEX_REGION_QNODE:
		snprintf(buf, size, "qspinlock qnode");
		return 1;
	default:
		return 0;
	}
}

int hm_futex_names__name(const struct hm_futex_names *n, const struct hm_futex_model *m, u64 addr,
			 const char *func, char *buf, size_t size)
{
	struct hm_futex_site site;
	u64 vb;

	if (!buf || !size)
		return -EINVAL;
	buf[0] = 0;
	if (m && hm_futex_model__locate(m, addr, &site)) {
		const struct hm_futex_table *t = site.loc.table;

		switch (site.where) {
		case HM_FUTEX_WHERE_BUCKET:
			if (t->kind)
				snprintf(buf, size, "futex bucket private:%d[%" PRIu64 "].%s", t->pid, site.loc.index,
					 site.name);
			else
				snprintf(buf, size, "futex bucket global:%d[%" PRIu64 "].%s", t->node, site.loc.index,
					 site.name);
			return 1;
		case HM_FUTEX_WHERE_FPH_HEADER:
			snprintf(buf, size, "futex_private_hash(pid %d).%s", site.pid, site.name + 4);
			return 1;
		case HM_FUTEX_WHERE_MM:
			snprintf(buf, size, "mm_struct(pid %d).%s", site.pid, site.name + 3);
			return 1;
		default:
			break;
		}
	}
	/* memory the file's metadata names (HM_META_FUTEX_OBJECTS): exact, before any guess from code */
	if (m && region_name(hm_futex_model__region(m, addr), addr, buf, size))
		return 1;
	/* other fields of a registered mm_struct (BTF), beside the futex ones */
	for (u32 i = 0; m && n && n->mm_size && i < m->nr_mms; i++) {
		u64 mm = m->mms[i].addr;

		if (addr >= mm && addr < mm + n->mm_size && n->mm[(addr - mm) / 8][0]) {
			snprintf(buf, size, "mm_struct(pid %d).%s", m->mms[i].pid, n->mm[(addr - mm) / 8]);
			return 1;
		}
	}
	/* struct page / folio in vmemmap: by the known region, or by the code that touched it */
	vb = hm_futex__vmemmap_base(addr);
	if (vb || (page_code(func) && addr >= USER_END)) {
		u32 ps = n ? n->page_size : PAGE_STRUCT, off = (u32)((vb ? addr - vb : addr) % ps);
		const char *field = n ? n->page[off] : NULL;
		char fb[16];

		if (!field || !*field) {
			field = fb;
			for (size_t i = 0; i < sizeof(page_default) / sizeof(page_default[0]); i++)
				if (off >= page_default[i].off && off < page_default[i].off + page_default[i].size)
					field = page_default[i].name;
			if (field == fb)
				snprintf(fb, sizeof(fb), "+%u", off);
		}
		if (vb)
			snprintf(buf, size, "page pfn 0x%" PRIx64 ".%s", (addr - vb) / ps, field);
		else
			snprintf(buf, size, "page (vmemmap).%s", field);
		return 1;
	}
	if (!func)
		return 0;
	switch (hm_futex_code__from_symbol(func)) {
	case HM_FUTEX_CODE_REF:
		if (addr >= USER_END) {
			/*
			 * 6.16 counts references in the private hash itself
			 * (rcuref_t users at fph+0, futex_private_hash_get/put);
			 * the per-CPU counter mm->futex_ref points to came in
			 * 6.17 (56180dd20c19, futex_ref_get/put: this_cpu_inc).
			 */
			snprintf(buf, size, "%s", m && m->era == HM_FUTEX_ERA_6_16 ? "fph.users" : "pcpu futex_ref");
			return 1;
		}
		break;
	case HM_FUTEX_CODE_HASH_INNER:
		if (addr >= 0xffffffff80000000ull) {
			snprintf(buf, size, "__futex_data");
			return 1;
		}
		break;
	default:
		break;
	}
	if (addr < USER_END && futex_fn(func)) {
		snprintf(buf, size, "futex word 0x%" PRIx64 " (user page 0x%" PRIx64 ")", addr, addr & ~(u64)0xfff);
		return 1;
	}
	return 0;
}

int hm_futex__name_addr(const struct hm_futex_model *m, u64 addr, const char *func, char *buf, size_t size)
{
	return hm_futex_names__name(NULL, m, addr, func, buf, size);
}
