// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mm_struct and futex_private_hash lines the simulator models
 * (src/sim/mmlines.c): the fields never overlap, each kernel's futex block is
 * what its mm_types.h compiles in, the offsets the access templates use name
 * the field they say they read, the 6.17/6.18 offsets agree with the futex
 * layer's own table of the 6.18 build, and, where this machine has a BTF
 * with such a layout, every field agrees with it.
 */
#include <errno.h>
#include <string.h>
#include <bpf/btf.h>
#include "tap.h"
#include "sim/sim.h"

static const struct hm_sim_mmfield *field(const struct hm_sim_mmfield *f, u32 n, const char *name)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

static void check_sane(const char *kernel)
{
	const struct hm_sim_kernel *k = hm_sim_kernel__find(kernel);
	struct hm_sim_mmfield f[HM_SIM_MM_FIELDS_MAX];
	char name[96];
	u32 n, i, bad = 0;

	n = hm_sim__mm_fields(k, f, HM_SIM_MM_FIELDS_MAX);
	snprintf(name, sizeof(name), "mmlines %s fits", kernel);
	CHECK(name, n > 0 && n <= HM_SIM_MM_FIELDS_MAX);
	for (i = 1; i < n && i < HM_SIM_MM_FIELDS_MAX; i++)
		if (f[i].off < f[i - 1].off + f[i - 1].size)
			bad++;
	snprintf(name, sizeof(name), "mmlines %s no overlap", kernel);
	CHECK_EQ(name, bad, 0);
}

/* Every mm access of every template reads the start of the field its name says. */
static void check_templates(const char *kernel, bool shared)
{
	struct hm_sim_tctx c;
	struct hm_sim_layouts l;
	struct hm_sim_tmpl t;
	struct hm_sim_mmfield f[HM_SIM_MM_FIELDS_MAX];
	char name[96], why[160] = "";
	u32 n, i, bad = 0;
	int op;

	if (hm_sim_tctx__defaults(&c, &l, kernel, shared, true))
		return;
	n = hm_sim__mm_fields(c.k, f, HM_SIM_MM_FIELDS_MAX);
	for (op = HM_SIM_OP_WAIT; op <= HM_SIM_OP_WAKE; op++) {
		hm_sim__build_template(&c, (enum hm_sim_op)op, &t);
		for (i = 0; i < t.n; i++) {
			const char *w = t.st[i].what, *dot;
			const struct hm_sim_mmfield *m;

			if (t.st[i].obj != HM_OBJ_MM)
				continue;
			/* "mm->futex_phash", "mm->pgd", "mm->futex.unique_id" (7.x: futex_unique_id in the BTF) */
			dot = strstr(w, "->");
			m = NULL;
			if (dot && !strcmp(dot + 2, "futex.unique_id"))
				m = field(f, n, "futex_unique_id");
			else if (dot)
				m = field(f, n, dot + 2);
			if (!m || m->off != t.st[i].off) {
				bad++;
				snprintf(why, sizeof(why), "%s at mm+%u, table %d", w, t.st[i].off, m ? (int)m->off : -1);
			}
		}
	}
	snprintf(name, sizeof(name), "mmlines %s%s templates read named fields", kernel, shared ? " shared" : "");
	if (!bad)
		PASS(name);
	else
		FAILF(name, "%s", why);
}

/* ---------------------------------------------------------------- BTF */

static int btf_find(const struct btf *btf, __u32 id, const char *name, __u32 base, __u32 *off, __u32 *size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	__u16 i, vlen;

	if (!t || (!btf_is_struct(t) && !btf_is_union(t)))
		return -ENOENT;
	m = btf_members(t);
	vlen = btf_vlen(t);
	for (i = 0; i < vlen; i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		__u32 at = base + btf_member_bit_offset(t, i) / 8;

		if (mn && *mn) {
			if (!strcmp(mn, name)) {
				__s64 sz = btf__resolve_size(btf, m->type);

				*off = at;
				*size = sz > 0 ? (__u32)sz : 0;
				return 0;
			}
		} else if (!btf_find(btf, btf__resolve_type(btf, m->type), name, at, off, size)) {
			return 0;
		}
	}
	return -ENOENT;
}

static void check_btf(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct hm_sim_kernel *k;
	struct hm_sim_mmfield f[HM_SIM_MM_FIELDS_MAX];
	char why[256] = "";
	__u32 off, size;
	__s32 mm, fph;
	u32 n, i, bad = 0;

	if (!btf) {
		SKIP("mmlines btf", "no kernel BTF here (/sys/kernel/btf/vmlinux)");
		return;
	}
	mm = btf__find_by_name_kind(btf, "mm_struct", BTF_KIND_STRUCT);
	if (mm < 0) {
		SKIP("mmlines btf", "the kernel BTF has no struct mm_struct");
		goto out;
	}
	/* the modelled kernel whose futex block this kernel has */
	if (!btf_find(btf, mm, "futex_unique_id", 0, &off, &size))
		k = hm_sim_kernel__find("7.2");
	else if (!btf_find(btf, mm, "futex_ref", 0, &off, &size))
		k = hm_sim_kernel__find("6.18");
	else if (!btf_find(btf, mm, "futex_phash", 0, &off, &size))
		k = hm_sim_kernel__find("6.16-rc4");
	else {
		SKIP("mmlines btf", "this kernel's mm_struct has no futex fields: nothing of the modelled layouts to check");
		goto out;
	}
	n = hm_sim__mm_fields(k, f, HM_SIM_MM_FIELDS_MAX);
	for (i = 0; i < n && i < HM_SIM_MM_FIELDS_MAX; i++) {
		bool found = !btf_find(btf, mm, f[i].name, 0, &off, &size);

		if (!found || off != f[i].off || size != f[i].size) {
			bad++;
			snprintf(why, sizeof(why), "kernel %s: %s model +%u (%u bytes), BTF %s +%u (%u bytes)",
				 k->name, f[i].name, f[i].off, f[i].size, found ? "" : "none", found ? off : 0,
				 found ? size : 0);
		}
	}
	printf("# running kernel's mm_struct checked against the %s model: %u fields\n", k->name, n);
	if (!bad)
		PASS("mmlines btf mm_struct");
	else
		FAILF("mmlines btf mm_struct", "%u fields differ, e.g. %s", bad, why);
	fph = btf__find_by_name_kind(btf, "futex_private_hash", BTF_KIND_STRUCT);
	if (fph < 0) {
		SKIP("mmlines btf fph", "no struct futex_private_hash in the BTF");
		goto out;
	}
	n = hm_sim__fph_fields(k, f, HM_SIM_MM_FIELDS_MAX);
	bad = 0;
	for (i = 0; i < n && i < HM_SIM_MM_FIELDS_MAX; i++)
		if (btf_find(btf, fph, f[i].name, 0, &off, &size) || off != f[i].off) {
			bad++;
			snprintf(why, sizeof(why), "%s model +%u", f[i].name, f[i].off);
		}
	if (!btf_find(btf, fph, "queues", 0, &off, &size) && off != 64) {
		bad++;
		snprintf(why, sizeof(why), "queues at +%u, not on the next line", off);
	}
	if (!bad)
		PASS("mmlines btf futex_private_hash");
	else
		FAILF("mmlines btf futex_private_hash", "%s", why);
out:
	btf__free(btf);
}

int main(void)
{
	static const char *const kernels[] = { "6.12", "6.16-rc4", "6.16", "6.17", "6.18", "7.2", "7.3" };
	struct hm_futex_mm_layout era, sim;
	struct hm_sim_mmfield f[HM_SIM_MM_FIELDS_MAX];
	u32 i, n;

	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		check_sane(kernels[i]);
		check_templates(kernels[i], false);
		check_templates(kernels[i], true);
	}
	/* 6.16 final compiles the block out: no futex field, the tail moves up 48 bytes */
	CHECK_EQ("mmlines 6.16 no futex_phash", hm_sim__mm_field_off(hm_sim_kernel__find("6.16"), "futex_phash"), -1);
	CHECK_EQ("mmlines 6.16 tail moves up",
		 hm_sim__mm_field_off(hm_sim_kernel__find("6.16-rc4"), "hiwater_rss") -
			 hm_sim__mm_field_off(hm_sim_kernel__find("6.16"), "hiwater_rss"), 48);
	CHECK_EQ("mmlines 6.12 no futex fields", hm_sim__mm_field_off(hm_sim_kernel__find("6.12"), "futex_hash_lock"), -1);
	/* 7.x: futex_unique_id in front of the 6.17 block */
	CHECK_EQ("mmlines 7.2 unique id", hm_sim__mm_unique_id(hm_sim_kernel__find("7.2")), 256);
	CHECK_EQ("mmlines 7.2 block moved 8",
		 hm_sim__mm_field_off(hm_sim_kernel__find("7.2"), "futex_ref") -
			 hm_sim__mm_field_off(hm_sim_kernel__find("6.18"), "futex_ref"), 8);
	/* the futex layer's table of the 6.18 build (notes 2.7, 4.1) agrees for 6.17/6.18 */
	hm_futex_mm_layout__for_era(HM_FUTEX_ERA_6_17, &era);
	hm_sim__mm_layout(hm_sim_kernel__find("6.18"), &sim);
	for (i = 0, n = 0; i < HM_FUTEX_MM__MAX; i++)
		n += era.offset[i] != sim.offset[i];
	CHECK_EQ("mmlines 6.18 agrees with the futex layer's 6.18 layout", n, 0);
	/* neighbours: futex_phash shares its line with the resize fields, never with a hot writer */
	{
		const struct hm_sim_kernel *k = hm_sim_kernel__find("6.18");
		char buf[256];

		n = hm_sim__mm_fields(k, f, HM_SIM_MM_FIELDS_MAX);
		hm_sim__line_fields(f, n, (u32)hm_sim__mm_field_off(k, "futex_phash"), buf, sizeof(buf));
		CHECK_STR("mmlines 6.18 futex_phash line", buf,
			  "futex_hash_lock futex_phash futex_phash_new futex_batches futex_rcu");
		hm_sim__line_fields(f, n, (u32)hm_sim__mm_field_off(k, "futex_ref"), buf, sizeof(buf));
		CHECK_STR("mmlines 6.18 futex_ref line", buf,
			  "futex_rcu futex_atomic futex_ref hiwater_rss hiwater_vm total_vm locked_vm pinned_vm");
	}
	check_btf();
	TAP_DONE();
}
