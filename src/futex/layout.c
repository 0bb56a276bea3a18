// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct futex_hash_bucket, struct futex_private_hash and the futex fields
 * of mm_struct, per era (x86_64, no spinlock debugging), with overrides from
 * BTF (libbpf btf__ API) and DWARF (libdw).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <hitmap/futex.h>
#include <hitmap/log.h>

static const char *const field_names[HM_FUTEX_FIELD__MAX] = {
	[HM_FUTEX_FIELD_WAITERS] = "waiters",
	[HM_FUTEX_FIELD_LOCK]	 = "lock",
	[HM_FUTEX_FIELD_CHAIN]	 = "chain",
	[HM_FUTEX_FIELD_PRIV]	 = "priv",
	[HM_FUTEX_FIELD_PAD]	 = "pad",
};

const char *hm_futex_field__name(enum hm_futex_field f)
{
	return (unsigned)f < HM_FUTEX_FIELD__MAX ? field_names[f] : "unknown";
}

static const char *const mm_field_names[HM_FUTEX_MM__MAX] = {
#define HM_FUTEX_MM_NAME(n) [HM_FUTEX_MM_##n] = #n,
	HM_FUTEX_MM_FIELDS(HM_FUTEX_MM_NAME)
#undef HM_FUTEX_MM_NAME
};

const char *hm_futex_mm_field__name(enum hm_futex_mm_field f)
{
	return (unsigned)f < HM_FUTEX_MM__MAX ? mm_field_names[f] : "unknown";
}

int hm_futex_layout__for_era(enum hm_futex_era e, struct hm_futex_layout *l)
{
	if ((unsigned)e >= HM_FUTEX_ERA__MAX || !l)
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	l->bucket_size = 64;
	l->offset[HM_FUTEX_FIELD_WAITERS] = 0;  l->size[HM_FUTEX_FIELD_WAITERS] = 4;
	l->offset[HM_FUTEX_FIELD_LOCK]	  = 4;  l->size[HM_FUTEX_FIELD_LOCK]	= 4;
	l->offset[HM_FUTEX_FIELD_CHAIN]	  = 8;  l->size[HM_FUTEX_FIELD_CHAIN]	= 16;
	if (e == HM_FUTEX_ERA_6_16 || e == HM_FUTEX_ERA_6_17) {
		l->offset[HM_FUTEX_FIELD_PRIV] = 24;
		l->size[HM_FUTEX_FIELD_PRIV] = 8;
	} else {
		l->offset[HM_FUTEX_FIELD_PRIV] = -1;
	}
	l->offset[HM_FUTEX_FIELD_PAD] = -1;	/* whatever no field covers */
	snprintf(l->source, sizeof(l->source), "model:%s", hm_futex_era__name(e));
	return 0;
}

enum hm_futex_field hm_futex_layout__field(const struct hm_futex_layout *l, u32 off)
{
	int f;

	for (f = 0; f < HM_FUTEX_FIELD_PAD; f++)
		if (l->offset[f] >= 0 && off >= (u32)l->offset[f] &&
		    off < (u32)l->offset[f] + l->size[f])
			return f;
	return HM_FUTEX_FIELD_PAD;
}

int hm_futex_fph_layout__for_era(enum hm_futex_era e, struct hm_futex_fph_layout *l)
{
	if ((unsigned)e >= HM_FUTEX_ERA__MAX || !l)
		return -EINVAL;
	if (e == HM_FUTEX_ERA_PRE_6_16) {
		*l = (struct hm_futex_fph_layout){ 0, -1, -1, -1, -1, -1, -1 };
		return 0;
	}
	*l = (struct hm_futex_fph_layout){
		.queues = 64, .users = 0, .hash_mask = 4, .rcu = 8, .mm = 24, .custom = 32,
		.immutable = e == HM_FUTEX_ERA_6_16 ? 33 : -1,
	};
	return 0;
}

void hm_futex_mm_layout__for_era(enum hm_futex_era e, struct hm_futex_mm_layout *l)
{
	int i;

	for (i = 0; i < HM_FUTEX_MM__MAX; i++) {
		l->offset[i] = -1;
		l->size[i] = 0;
	}
	l->task_mm = -1;
	l->unique_id = -1;		/* BTF tells: some builds of a release have it */
	if (e == HM_FUTEX_ERA_PRE_6_16)
		return;
	/* the 6.18 build of notes 4.1/2.7; config dependent: BTF overrides */
	l->offset[HM_FUTEX_MM_futex_hash_lock] = 256; l->size[HM_FUTEX_MM_futex_hash_lock] = 32;
	l->offset[HM_FUTEX_MM_futex_phash] = 288;     l->size[HM_FUTEX_MM_futex_phash] = 8;
	l->offset[HM_FUTEX_MM_futex_phash_new] = 296; l->size[HM_FUTEX_MM_futex_phash_new] = 8;
	if (e != HM_FUTEX_ERA_6_16) {
		l->offset[HM_FUTEX_MM_futex_batches] = 304; l->size[HM_FUTEX_MM_futex_batches] = 8;
		l->offset[HM_FUTEX_MM_futex_rcu] = 312;     l->size[HM_FUTEX_MM_futex_rcu] = 16;
		l->offset[HM_FUTEX_MM_futex_atomic] = 328;  l->size[HM_FUTEX_MM_futex_atomic] = 8;
		l->offset[HM_FUTEX_MM_futex_ref] = 336;     l->size[HM_FUTEX_MM_futex_ref] = 8;
	}
}

/* ------------------------------------------------------------------ BTF */

/*
 * The running kernel's BTF, parsed once per process: each parse costs tens
 * of ms (seconds on a busy machine) and record needs the layouts several
 * times while setting up and finishing. Freed at exit.
 */
static struct btf *vmlinux_btf;
static int vmlinux_btf_errno;
static pthread_once_t vmlinux_btf_once = PTHREAD_ONCE_INIT;

static void free_vmlinux_btf(void)
{
	btf__free(vmlinux_btf);
	vmlinux_btf = NULL;
}

static void load_vmlinux_btf(void)
{
	vmlinux_btf = btf__load_vmlinux_btf();
	if (vmlinux_btf)
		atexit(free_vmlinux_btf);
	else
		vmlinux_btf_errno = errno;
}

static void close_btf(struct btf *btf)
{
	if (btf != vmlinux_btf)
		btf__free(btf);
}

static struct btf *open_btf(const char *path)
{
	struct btf *btf;

	if (!path) {
		pthread_once(&vmlinux_btf_once, load_vmlinux_btf);
		errno = vmlinux_btf_errno;
	}
	btf = path ? btf__parse(path, NULL) : vmlinux_btf;
	if (!btf) {
		int err = errno ? -errno : -ENOENT;

		hm_debug("%s: no BTF (%s)", path ? path : "/sys/kernel/btf/vmlinux", strerror(-err));
		errno = -err;
	}
	return btf;
}

/* Find member @name in struct/union @id, descending into anonymous members. */
static int btf_member(const struct btf *btf, __u32 id, const char *name, u32 *off, u32 *size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int i, n;

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_composite(t))
		return -ENOENT;
	m = btf_members(t);
	n = btf_vlen(t);
	for (i = 0; i < n; i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		u32 bit = btf_member_bit_offset(t, i);

		if (mn && *mn) {
			if (!strcmp(mn, name)) {
				long sz = btf__resolve_size(btf, m->type);

				*off = bit / 8;
				*size = sz > 0 ? (u32)sz : 0;
				return 0;
			}
		} else if (!btf_member(btf, m->type, name, off, size)) {
			*off += bit / 8;
			return 0;
		}
	}
	return -ENOENT;
}

static int btf_struct(const struct btf *btf, const char *name, __u32 *id, u32 *size)
{
	int r = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
	const struct btf_type *t;

	if (r < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, r);
	*id = r;
	*size = t->size;
	return 0;
}

int hm_futex_layout__from_btf(const char *path, struct hm_futex_layout *l)
{
	static const char *const names[] = { "waiters", "lock", "chain", "priv" };
	struct btf *btf = open_btf(path);
	struct hm_futex_layout n;
	__u32 id;
	u32 size, off, fsz;
	int f, err;

	if (!btf)
		return -errno;
	err = btf_struct(btf, "futex_hash_bucket", &id, &size);
	if (err)
		goto out;
	memset(&n, 0, sizeof(n));
	n.bucket_size = size;
	for (f = 0; f < HM_FUTEX_FIELD__MAX; f++)
		n.offset[f] = -1;
	for (f = 0; f < 4; f++) {
		if (!btf_member(btf, id, names[f], &off, &fsz)) {
			n.offset[f] = off;
			n.size[f] = fsz;
		}
	}
	if (n.offset[HM_FUTEX_FIELD_LOCK] < 0) {
		err = -ENOENT;
		goto out;
	}
	snprintf(n.source, sizeof(n.source), "btf");
	*l = n;
out:
	close_btf(btf);
	return err;
}

int hm_futex_fph_layout__from_btf(const char *path, struct hm_futex_fph_layout *l)
{
	struct btf *btf = open_btf(path);
	struct hm_futex_fph_layout n = { 0, -1, -1, -1, -1, -1, -1 };
	__u32 id;
	u32 size, off, fsz;
	int err;

	if (!btf)
		return -errno;
	err = btf_struct(btf, "futex_private_hash", &id, &size);
	if (err)
		goto out;
	if (btf_member(btf, id, "queues", &off, &fsz)) {
		err = -ENOENT;
		goto out;
	}
	n.queues = off;
#define F(field, name) if (!btf_member(btf, id, name, &off, &fsz)) n.field = off;
	F(hash_mask, "hash_mask") F(rcu, "rcu") F(mm, "mm") F(custom, "custom")
	F(immutable, "immutable")
	if (!btf_member(btf, id, "users", &off, &fsz) || !btf_member(btf, id, "state", &off, &fsz))
		n.users = off;
#undef F
	*l = n;
out:
	close_btf(btf);
	return err;
}

int hm_futex_mm_layout__from_btf(const char *path, struct hm_futex_mm_layout *l)
{
	struct btf *btf = open_btf(path);
	struct hm_futex_mm_layout n;
	__u32 id;
	u32 size, off, fsz;
	int i, err;

	if (!btf)
		return -errno;
	hm_futex_mm_layout__for_era(HM_FUTEX_ERA_PRE_6_16, &n);	/* all -1 */
	err = btf_struct(btf, "mm_struct", &id, &size);
	if (err)
		goto out;
	for (i = 0; i < HM_FUTEX_MM__MAX; i++)
		if (!btf_member(btf, id, mm_field_names[i], &off, &fsz)) {
			n.offset[i] = off;
			n.size[i] = fsz;
		}
	/* the mm-reuse fix (6.12.115+, some 6.18 builds, 7.2+): MMSHARED keys hash this id, not the mm */
	if (!btf_member(btf, id, "futex_unique_id", &off, &fsz))
		n.unique_id = off;
	if (!btf_struct(btf, "task_struct", &id, &size) &&
	    !btf_member(btf, id, "mm", &off, &fsz))
		n.task_mm = off;
	*l = n;
out:
	close_btf(btf);
	return err;
}

/* ---------------------------------------------------------------- DWARF */

static int dwarf_struct_layout(Dwarf_Die *st, struct hm_futex_layout *n)
{
	static const char *const names[] = { "waiters", "lock", "chain", "priv" };
	Dwarf_Die m;
	Dwarf_Word sz;
	int f;

	memset(n, 0, sizeof(*n));
	for (f = 0; f < HM_FUTEX_FIELD__MAX; f++)
		n->offset[f] = -1;
	if (dwarf_aggregate_size(st, &sz) != 0)
		return -ENOENT;
	n->bucket_size = sz;
	if (dwarf_child(st, &m) != 0)
		return -ENOENT;
	do {
		Dwarf_Attribute a;
		Dwarf_Word off;
		Dwarf_Die type;
		const char *mn;

		if (dwarf_tag(&m) != DW_TAG_member || !(mn = dwarf_diename(&m)))
			continue;
		for (f = 0; f < 4; f++)
			if (!strcmp(mn, names[f]))
				break;
		if (f == 4)
			continue;
		if (!dwarf_attr(&m, DW_AT_data_member_location, &a) || dwarf_formudata(&a, &off))
			continue;
		n->offset[f] = off;
		if (dwarf_attr_integrate(&m, DW_AT_type, &a) && dwarf_formref_die(&a, &type) &&
		    !dwarf_aggregate_size(&type, &sz))
			n->size[f] = sz;
	} while (dwarf_siblingof(&m, &m) == 0);
	return n->offset[HM_FUTEX_FIELD_LOCK] >= 0 ? 0 : -ENOENT;
}

int hm_futex_layout__from_dwarf(const char *elf, struct hm_futex_layout *l)
{
	static const Dwfl_Callbacks cb = {
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	Dwarf_Off off = 0, next;
	size_t hsize;
	int err = -ENOENT;

	if (access(elf, R_OK)) {
		err = -errno;
		hm_err("%s: %s; give an ELF with debug info", elf, strerror(errno));
		return err;
	}
	/* dwfl applies the relocations of ET_REL files (.o, .ko) */
	dwfl = dwfl_begin(&cb);
	if (!dwfl)
		return -ENOMEM;
	mod = dwfl_report_offline(dwfl, "futex", elf, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	dw = mod ? dwfl_module_getdwarf(mod, &bias) : NULL;
	if (!dw) {
		hm_err("%s: no DWARF debug info; build it with -g or give the debuginfo file", elf);
		dwfl_end(dwfl);
		return -ENOENT;
	}
	while (err && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, d;

		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &d) == 0) {
			do {
				struct hm_futex_layout n;
				const char *name;

				if (dwarf_tag(&d) != DW_TAG_structure_type || dwarf_hasattr(&d, DW_AT_declaration))
					continue;
				name = dwarf_diename(&d);
				if (!name || strcmp(name, "futex_hash_bucket"))
					continue;
				if (!dwarf_struct_layout(&d, &n)) {
					snprintf(n.source, sizeof(n.source), "dwarf");
					*l = n;
					err = 0;
					break;
				}
			} while (dwarf_siblingof(&d, &d) == 0);
		}
		off = next;
	}
	dwfl_end(dwfl);
	if (err)
		hm_debug("%s: no struct futex_hash_bucket in the DWARF", elf);
	return err;
}
