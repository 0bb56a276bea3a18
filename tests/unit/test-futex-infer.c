// SPDX-License-Identifier: GPL-2.0-only
/* Futex table inference from samples, and the names of futex-path lines. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/futex.h>
#include <hitmap/futex_infer.h>
#include <hitmap/futex_names.h>
#include "tap.h"

static u64 rnd(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Feed @n samples spread over a table: @kind 1 private (base = fph + 64), 0 global. */
static void feed(struct hm_futex_infer *inf, u64 base, u64 slots, u32 n, s32 pid, s32 node, u64 *seed)
{
	static const enum hm_futex_code code[] = { HM_FUTEX_CODE_Q_LOCK, HM_FUTEX_CODE_Q_UNLOCK,
						   HM_FUTEX_CODE_HASH, HM_FUTEX_CODE_HASH_PUT };
	static const u32 off[] = { 0, 0, 24, 24 };

	for (u32 i = 0; i < n; i++) {
		u32 k = rnd(seed) % 4;

		hm_futex_infer__add(inf, code[k], base + 64 * (rnd(seed) % slots) + off[k], pid, 100 + i % 8, node, 1);
	}
}

static int find(const struct hm_futex_model *m, u32 kind, u64 base, u64 slots)
{
	for (u32 i = 0; i < m->nr_tables; i++)
		if (m->tables[i].kind == kind && m->tables[i].base == base && m->tables[i].slots == slots)
			return (int)i;
	return -1;
}

int main(void)
{
	struct hm_futex_kernel k;
	struct hm_futex_model m;
	struct hm_futex_infer *inf;
	struct hm_futex_infer_result res;
	struct hm_futex_names *nm;
	u64 seed = 0x1234567, g0 = 0xffff888100400000ull, g1 = 0xffff888200400000ull, fph = 0xffff888140020000ull;
	char buf[160];
	int n, t;

	CHECK_EQ("code: futex_q_lock", hm_futex_code__from_symbol("futex_q_lock"), HM_FUTEX_CODE_Q_LOCK);
	CHECK_EQ("code: spin lock needs a call chain", hm_futex_code__from_symbol("_raw_spin_lock"),
		 HM_FUTEX_CODE_LOCK_ANY);
	CHECK_EQ("code: other", hm_futex_code__from_symbol("memcpy"), HM_FUTEX_CODE_NONE);
	CHECK_EQ("code: a compiler clone keeps its class", hm_futex_code__from_symbol("futex_q_unlock.constprop.0"),
		 HM_FUTEX_CODE_Q_UNLOCK);
	CHECK_EQ("code: a prefix is not the function", hm_futex_code__from_symbol("futex_q_lockx"), HM_FUTEX_CODE_NONE);

	/* 6.18, 16 CPUs, 2 nodes: 2048 slots per node; a process of 8 threads: 32-slot private hash */
	hm_futex_kernel__parse("6.18.2", &k);
	hm_futex_model__init(&m, k.era);
	inf = hm_futex_infer__new(&m, &k, 16, 16, 2);
	feed(inf, g0, 2048, 400, -1, 0, &seed);
	feed(inf, g1, 2048, 400, -1, 1, &seed);
	feed(inf, fph + 64, 32, 300, 77, 0, &seed);
	/* a second process, too few lines to place its private hash */
	feed(inf, 0xffff888150000840ull, 16, 3, 78, 0, &seed);
	n = hm_futex_infer__finish(inf, &m, &res);
	CHECK_EQ("infer: 3 tables", n, 3);
	t = find(&m, 0, g0, 2048);
	CHECK("infer: global node 0 base and node", t >= 0 && m.tables[t].node == 0);
	t = find(&m, 0, g1, 2048);
	CHECK("infer: global node 1 base and node", t >= 0 && m.tables[t].node == 1);
	t = find(&m, 1, fph + 64, 32);
	CHECK("infer: private hash of pid 77 (8 threads: 32 slots)", t >= 0 && m.tables[t].pid == 77);
	CHECK("infer: provenance says inferred", t >= 0 && !strncmp(m.tables[t].provenance, "inferred:", 9));
	CHECK("infer: the 3-line process stays unknown", !hm_futex_model__resolve(&m, 0xffff888150000840ull, NULL));
	hm_futex_infer__delete(inf);

	/* a table twice the size the header's CPU count gives: two neighbouring blocks, left unknown */
	{
		struct hm_futex_model m3;

		hm_futex_model__init(&m3, k.era);
		inf = hm_futex_infer__new(&m3, &k, 8, 8, 1);	/* 2048 slots expected; the table has 4096 */
		feed(inf, g0 & ~((4096ull * 64) - 1), 4096, 600, -1, 0, &seed);
		n = hm_futex_infer__finish(inf, &m3, &res);
		CHECK("infer: a larger table than expected is not split into two (unknown, never wrong)",
		      n == 0 && res.unplaced == 2);
		hm_futex_infer__delete(inf);
		hm_futex_model__release(&m3);
	}

	/* names, with the tables just inferred */
	hm_futex_model__add_mm(&m, 77, 0xffff888160000000ull);
	nm = hm_futex_names__new("");	/* no BTF: the era's layouts */
	CHECK("name: bucket", hm_futex_names__name(nm, &m, g1 + 64 * 5 + 4, NULL, buf, sizeof(buf)) == 1 &&
	      !strcmp(buf, "futex bucket global:1[5].lock"));
	CHECK("name: private bucket", hm_futex_names__name(nm, &m, fph + 64 + 64 * 3, NULL, buf, sizeof(buf)) == 1 &&
	      !strcmp(buf, "futex bucket private:77[3].waiters"));
	CHECK("name: fph header", hm_futex_names__name(nm, &m, fph + 4, NULL, buf, sizeof(buf)) == 1 &&
	      !strcmp(buf, "futex_private_hash(pid 77).hash_mask"));
	CHECK("name: mm futex_phash", hm_futex_names__name(nm, &m, 0xffff888160000000ull + 288, NULL, buf, sizeof(buf)) == 1 &&
	      !strcmp(buf, "mm_struct(pid 77).futex_phash"));
	CHECK("name: struct page refcount in vmemmap",
	      hm_futex_names__name(nm, &m, 0xffffea0000000000ull + 64 * 0x1234 + 52, NULL, buf, sizeof(buf)) == 1 &&
	      !strcmp(buf, "page pfn 0x1234._refcount"));
	CHECK("name: struct page by the code that touched it",
	      hm_futex_names__name(nm, &m, 0xffffd40000000018ull, "try_grab_folio_fast", buf, sizeof(buf)) == 1 &&
	      !strcmp(buf, "page (vmemmap).mapping"));
	CHECK("name: per-CPU reference", hm_futex_names__name(nm, &m, 0xffff88823f42b3e0ull, "futex_ref_get", buf, sizeof(buf)) == 1 &&
	      !strcmp(buf, "pcpu futex_ref"));
	CHECK("name: futex word", hm_futex_names__name(nm, &m, 0x55d4c8a1b2c4ull, "futex_wait_setup", buf, sizeof(buf)) == 1 &&
	      strstr(buf, "futex word 0x55d4c8a1b2c4"));
	CHECK_EQ("name: unrelated line", hm_futex_names__name(nm, &m, 0xffff888170000000ull, "memcpy", buf, sizeof(buf)), 0);
	CHECK_EQ("name: without a names object", hm_futex__name_addr(&m, g0 + 24, NULL, buf, sizeof(buf)), 1);
	hm_futex_names__delete(nm);

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		SKIP("name: BTF field names", "no /sys/kernel/btf/vmlinux");
	} else {
		struct hm_futex_mm_layout ml;

		nm = hm_futex_names__new(NULL);
		CHECK("name: BTF loaded", hm_futex_names__has_btf(nm));
		CHECK("name: BTF struct page _refcount",
		      hm_futex_names__name(nm, NULL, 0xffffea0000000000ull + 52, NULL, buf, sizeof(buf)) == 1 &&
		      strstr(buf, "._refcount"));
		if (!hm_futex_mm_layout__from_btf(NULL, &ml) && ml.offset[HM_FUTEX_MM_futex_phash] >= 0) {
			struct hm_futex_model m2;

			hm_futex_model__init(&m2, HM_FUTEX_ERA_6_17);
			m2.mm = ml;
			hm_futex_model__add_mm(&m2, 1, 0xffff888160000000ull);
			CHECK("name: BTF mm_struct field beside the futex ones",
			      hm_futex_names__name(nm, &m2, 0xffff888160000000ull, NULL, buf, sizeof(buf)) == 1 &&
			      !strncmp(buf, "mm_struct(pid 1).", 17));
			hm_futex_model__release(&m2);
		} else {
			SKIP("name: BTF mm_struct field beside the futex ones", "this kernel's mm_struct has no futex_phash");
		}
		hm_futex_names__delete(nm);
	}
	hm_futex_model__release(&m);
	TAP_DONE();
}
