// SPDX-License-Identifier: GPL-2.0-only
/* Futex model: resolve/locate, --futex-table specs, base inference, boot line, metadata. */
#include <errno.h>
#include <string.h>
#include <hitmap/futex.h>
#include <hitmap/futex_names.h>
#include <hitmap/meta.h>
#include "tap.h"

int main(void)
{
	struct hm_futex_model m, m2;
	struct hm_futex_table t;
	struct hm_futex_loc loc;
	struct hm_futex_site site;
	struct hm_meta *meta;
	char buf[128];
	u64 base, slots;
	u32 nodes;
	bool linear;
	int i, n;

	hm_futex_model__init(&m, HM_FUTEX_ERA_6_17);
	CHECK("parse global spec", !hm_futex_table__parse("global:0:ffff888100998000:512", &t) &&
	      t.kind == 0 && t.node == 0 && t.base == 0xffff888100998000ull && t.slots == 512 &&
	      !strcmp(t.provenance, "user"));
	CHECK_EQ("add global", hm_futex_model__add_table(&m, &t), 0);
	CHECK("parse private spec", !hm_futex_table__parse("private:4242:0xffff88815ece9040:16", &t) &&
	      t.kind == 1 && t.pid == 4242 && t.node == -1 && t.slots == 16);
	CHECK_EQ("add private", hm_futex_model__add_table(&m, &t), 0);
	hm_futex_table__format(&t, buf, sizeof(buf));
	CHECK_STR("format spec", buf, "private:4242:0xffff88815ece9040:16");
	CHECK("reject slots 3", hm_futex_table__parse("global:0:ffff888100998000:3", &t) < 0);
	CHECK("reject unaligned", hm_futex_table__parse("global:0:ffff888100998004:512", &t) < 0);
	CHECK("reject kind", hm_futex_table__parse("percpu:0:ffff888100998000:512", &t) < 0);
	CHECK("reject missing field", hm_futex_table__parse("global:0:ffff888100998000", &t) < 0);
	CHECK("reject junk addr", hm_futex_table__parse("global:0:xyz:512", &t) < 0);
	CHECK("reject extra field", hm_futex_table__parse("global:0:1000:512:9", &t) < 0);

	/* resolve: bucket 3 of the global table, field lock (+4) */
	CHECK("resolve lock", hm_futex_model__resolve(&m, 0xffff888100998000ull + 3 * 64 + 4, &loc) == 1 &&
	      loc.index == 3 && loc.field == HM_FUTEX_FIELD_LOCK && loc.offset == 4 && loc.table->kind == 0);
	CHECK("resolve waiters", hm_futex_model__resolve(&m, 0xffff888100998000ull + 511 * 64, &loc) == 1 &&
	      loc.index == 511 && loc.field == HM_FUTEX_FIELD_WAITERS);
	CHECK("resolve chain", hm_futex_model__resolve(&m, 0xffff888100998000ull + 9 * 64 + 16, &loc) == 1 &&
	      loc.field == HM_FUTEX_FIELD_CHAIN);
	CHECK("resolve priv", hm_futex_model__resolve(&m, 0xffff888100998000ull + 9 * 64 + 24, &loc) == 1 &&
	      loc.field == HM_FUTEX_FIELD_PRIV);
	CHECK("resolve pad", hm_futex_model__resolve(&m, 0xffff888100998000ull + 9 * 64 + 40, &loc) == 1 &&
	      loc.field == HM_FUTEX_FIELD_PAD);
	CHECK("past the end", hm_futex_model__resolve(&m, 0xffff888100998000ull + 512 * 64, &loc) == 0 && !loc.table);
	CHECK("before the start", hm_futex_model__resolve(&m, 0xffff888100998000ull - 4, &loc) == 0);
	CHECK("resolve private bucket 15 priv", hm_futex_model__resolve(&m, 0xffff88815ece9040ull + 15 * 64 + 24, &loc) == 1 &&
	      loc.table->kind == 1 && loc.table->pid == 4242 && loc.index == 15 && loc.field == HM_FUTEX_FIELD_PRIV);
	CHECK_STR("loc name", hm_futex_loc__name(&loc), "priv");

	/* non-bucket lines: the private hash header and mm fields */
	CHECK("fph state", hm_futex_model__locate(&m, 0xffff88815ece9000ull, &site) == 1 &&
	      site.where == HM_FUTEX_WHERE_FPH_HEADER && site.pid == 4242 && !strcmp(site.name, "fph.state"));
	CHECK("fph hash_mask", hm_futex_model__locate(&m, 0xffff88815ece9004ull, &site) == 1 &&
	      !strcmp(site.name, "fph.hash_mask"));
	CHECK("fph mm", hm_futex_model__locate(&m, 0xffff88815ece9018ull, &site) == 1 && !strcmp(site.name, "fph.mm"));
	hm_futex_model__add_mm(&m, 4242, 0xffff888104e2c000ull);
	CHECK("mm futex_phash", hm_futex_model__locate(&m, 0xffff888104e2c000ull + 288, &site) == 1 &&
	      site.where == HM_FUTEX_WHERE_MM && !strcmp(site.name, "mm.futex_phash") && site.pid == 4242);
	CHECK("mm futex_ref", hm_futex_model__locate(&m, 0xffff888104e2c000ull + 336, &site) == 1 &&
	      !strcmp(site.name, "mm.futex_ref"));
	CHECK("mm unrelated", hm_futex_model__locate(&m, 0xffff888104e2c000ull + 8, &site) == 0 &&
	      site.where == HM_FUTEX_WHERE_NONE);
	CHECK("locate bucket", hm_futex_model__locate(&m, 0xffff888100998000ull + 64 + 8, &site) == 1 &&
	      site.where == HM_FUTEX_WHERE_BUCKET && !strcmp(site.name, "chain") && site.loc.index == 1);

	/* base inference from one observed bucket (notes 2.10, 5.4) */
	CHECK("global base from bucket 462", !hm_futex_geometry__global_base(0xffff8881009b7380ull, 512, 64, &base) &&
	      base == 0xffff8881009b0000ull);
	CHECK("private base from lock-4 (kmalloc-2k)", !hm_futex_geometry__private_base(0xffff88815ece9080ull, 16, 64, 64, &base) &&
	      base == 0xffff88815ece9040ull);
	CHECK("private base 1024 slots (order 5)", !hm_futex_geometry__private_base(0xffff88814f380040ull + 700 * 64, 1024, 64, 64, &base) &&
	      base == 0xffff88814f380040ull);
	CHECK("base rejects slots 0", hm_futex_geometry__global_base(0x1000, 0, 64, &base) < 0);

	/* boot line */
	CHECK("bootlog 6.16+", !hm_futex_geometry__parse_bootlog(
		"[    0.261939] futex hash table entries: 512 (32768 bytes on 1 NUMA nodes, total 32 KiB, linear).",
		&slots, &nodes, &linear) && slots == 512 && nodes == 1 && linear);
	CHECK("bootlog pre-6.16", !hm_futex_geometry__parse_bootlog(
		"futex hash table entries: 65536 (order: 10, 4194304 bytes, vmalloc hugepage)",
		&slots, &nodes, &linear) && slots == 65536 && nodes == 1 && !linear);
	CHECK("bootlog absent", hm_futex_geometry__parse_bootlog("Linux version 6.18", &slots, &nodes, NULL) == -ENOENT);

	/* metadata round trip */
	meta = hm_meta__new();
	CHECK("meta new", meta != NULL);
	if (meta) {
		void *raw = NULL;
		u64 rawsize = 0;
		struct hm_meta *back;

		m.layout.offset[HM_FUTEX_FIELD_CHAIN] = 16;	/* a BTF-like override must survive */
		snprintf(m.layout.source, sizeof(m.layout.source), "btf");
		CHECK_EQ("add_mm", hm_futex_model__add_mm(&m, 4242, 0xffff888123456000ull), 0);
		{
			struct hm_futex_region r = { .base = 0x55d4c8a1b000ull, .size = 0x1000, .pid = 4242,
						     .kind = HM_FUTEX_REGION_WORDS, .name = "heap" };
			struct hm_futex_region pt = { .base = 0xffff888040043000ull, .size = 0x2000, .pid = -1,
						      .kind = HM_FUTEX_REGION_PT, .name = "pte" };

			CHECK_EQ("add region", hm_futex_model__add_region(&m, &r), 0);
			CHECK_EQ("add pt region", hm_futex_model__add_region(&m, &pt), 0);
			CHECK("empty region refused", hm_futex_model__add_region(&m, &(struct hm_futex_region){
				.base = 1, .size = 0, .kind = HM_FUTEX_REGION_PT }) == -EINVAL);
			CHECK_EQ("add mm field", hm_futex_model__add_mm_name(&m, "pgd", 120, 8), 0);
			CHECK_EQ("add mm futex field", hm_futex_model__add_mm_name(&m, "futex_phash", 296, 8), 0);
		}
		CHECK_EQ("to_meta", hm_futex_model__to_meta(&m, meta), 0);
		CHECK_EQ("serialize", hm_meta__serialize(meta, &raw, &rawsize), 0);
		back = raw ? hm_meta__parse(raw, rawsize, false) : NULL;
		hm_futex_model__init(&m2, HM_FUTEX_ERA_6_17);
		CHECK_EQ("from_meta", back ? hm_futex_model__from_meta(&m2, back) : -1, 0);
		CHECK_EQ("tables back", m2.nr_tables, 2);
		n = 0;
		for (i = 0; i < (int)m2.nr_tables && i < 2; i++)
			n += m2.tables[i].base == m.tables[i].base && m2.tables[i].slots == m.tables[i].slots &&
			     m2.tables[i].kind == m.tables[i].kind && m2.tables[i].pid == m.tables[i].pid &&
			     m2.tables[i].node == m.tables[i].node && !strcmp(m2.tables[i].provenance, "user");
		CHECK_EQ("tables equal", n, 2);
		CHECK("layout back", m2.layout.offset[HM_FUTEX_FIELD_CHAIN] == 16 &&
		      m2.layout.offset[HM_FUTEX_FIELD_PRIV] == 24 && !strcmp(m2.layout.source, "btf"));
		CHECK("registered mm back", m2.nr_mms == m.nr_mms && m2.nr_mms >= 1 &&
		      m2.mms[m2.nr_mms - 1].pid == 4242 &&
		      m2.mms[m2.nr_mms - 1].addr == 0xffff888123456000ull);
		CHECK("regions back", m2.nr_regions == 2 && m2.regions[0].kind == HM_FUTEX_REGION_WORDS &&
		      m2.regions[1].kind == HM_FUTEX_REGION_PT && !strcmp(m2.regions[1].name, "pte") &&
		      hm_futex_model__region(&m2, 0x55d4c8a1bffcull) == &m2.regions[0] &&
		      !hm_futex_model__region(&m2, 0x55d4c8a1c000ull) &&
		      hm_futex_model__region(&m2, 0xffff888040044ff8ull) == &m2.regions[1]);
		CHECK("mm fields back", m2.nr_mm_names == 2 && m2.mm.offset[HM_FUTEX_MM_futex_phash] == 296 &&
		      m2.mm.offset[HM_FUTEX_MM_futex_ref] == -1);
		{
			char name[64];

			CHECK("mm.pgd located", hm_futex_model__locate(&m2, 0xffff888123456000ull + 124, &site) == 1 &&
			      site.where == HM_FUTEX_WHERE_MM && !strcmp(site.name, "mm.pgd"));
			CHECK("mm.futex_phash at the file's offset", hm_futex_model__locate(&m2, 0xffff888123456000ull + 296,
											  &site) == 1 &&
			      !strcmp(site.name, "mm.futex_phash"));
			CHECK("pte named by its region", hm_futex__name_addr(&m2, 0xffff888040043010ull, "gup_fast_pte_range",
									     name, sizeof(name)) == 1 &&
			      !strcmp(name, "page table pte"));
			CHECK("futex word named by its region", hm_futex__name_addr(&m2, 0x55d4c8a1b2c0ull, NULL, name,
										    sizeof(name)) == 1 &&
			      !strcmp(name, "futex word 0x55d4c8a1b2c0"));
		}
		hm_futex_model__release(&m2);
		hm_meta__delete(back);
		free(raw);
		hm_meta__delete(meta);
	}
	hm_futex_model__release(&m);
	hm_futex_model__release(&m);	/* twice is fine */
	TAP_DONE();
}
