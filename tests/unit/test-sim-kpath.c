// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modelled accesses of one FUTEX_WAIT (value mismatch, EAGAIN) and one
 * FUTEX_WAKE (no waiter) per kernel, against tables written from each
 * version's kernel/futex/core.c, waitwake.c and futex.h (the same tables
 * as samples/teaching/futex-accesses.md): function, what, kind, in order.
 */
#include <string.h>
#include "tap.h"
#include "sim/sim.h"

static void render(const struct hm_sim_tmpl *t, char *buf, size_t n)
{
	size_t len = 0;
	u32 i;

	buf[0] = 0;
	for (i = 0; i < t->n && len < n; i++)
		len += snprintf(buf + len, n - len, "%s %s %s\n", hm_sim_ksym__name(t->st[i].ksym),
				t->st[i].what, hm_sim_acc__name(t->st[i].acc));
}

static void check_path(const char *kernel, bool shared, enum hm_sim_op op, const char *expect)
{
	struct hm_sim_tctx c;
	struct hm_sim_layouts l;
	struct hm_sim_tmpl t;
	char got[4096], name[128];

	snprintf(name, sizeof(name), "kpath %s %s %s", kernel, shared ? "shared" : "private",
		 op == HM_SIM_OP_WAIT ? "wait" : "wake");
	if (hm_sim_tctx__defaults(&c, &l, kernel, shared, true)) {
		FAILF(name, "unknown kernel");
		return;
	}
	hm_sim__build_template(&c, op, &t);
	render(&t, got, sizeof(got));
	if (!strcmp(got, expect))
		PASS(name);
	else
		FAILF(name, "accesses differ from the table.\n--- model:\n%s--- table:\n%s", got, expect);
}

/* pieces of the tables */
#define GLOBAL_612	"futex_hash __futex_data.queues/hashsize load\n"
#define GLOBAL_616	"__futex_hash __futex_data.hashmask/hashshift/queues[node] load\n"
#define GLOBAL_RC	"__futex_hash __futex_queues[node] load\n"
#define PRIVATE_HASH	"__futex_hash mm->futex_phash load\n" \
			"__futex_hash fph->hash_mask load\n"
#define PRIV_GET	"futex_hash hb->priv load\n"
#define PRIV_PUT	"futex_hash_put hb->priv load\n"
#define RCUREF_GET	"futex_private_hash_get fph->immutable load\n" \
			"futex_private_hash_get fph->users rmw\n"
#define RCUREF_PUT	"futex_private_hash_put fph->immutable load\n" \
			"futex_private_hash_put fph->users rmw\n"
#define REF_GET		"futex_ref_get fph->state load\n" \
			"futex_ref_get fph->mm load\n" \
			"futex_ref_get mm->futex_ref load\n" \
			"futex_ref_get per-CPU futex_ref rmw\n"
#define REF_PUT		"futex_ref_put fph->state load\n" \
			"futex_ref_put fph->mm load\n" \
			"futex_ref_put mm->futex_ref load\n" \
			"futex_ref_put per-CPU futex_ref rmw\n"
#define LOCKED_612	"futex_q_lock hb->waiters rmw\n" \
			"_raw_spin_lock hb->lock rmw\n" \
			"futex_wait_setup futex word load\n" \
			"futex_q_unlock hb->lock store\n" \
			"futex_q_unlock hb->waiters rmw\n"
#define LOCKED		"futex_q_lock hb->waiters rmw\n" \
			"_raw_spin_lock hb->lock rmw\n" \
			"futex_wait_setup futex word load\n" \
			"futex_q_unlock hb->waiters rmw\n" \
			"futex_q_unlock hb->lock store\n"
#define WAKE		"futex_wake hb->waiters load\n"
#define GUP		"gup_fast_pte_range mm->pgd load\n" \
			"gup_fast_pte_range pte load\n" \
			"try_grab_folio_fast page->compound_head load\n" \
			"try_grab_folio_fast folio->_refcount rmw\n" \
			"get_futex_key folio->mapping load\n"
#define GUP_PUT		"get_futex_key folio->_refcount rmw\n"
#define MM_SEQ		"get_futex_key mm->futex.unique_id load\n"

int main(void)
{
	struct hm_sim_tctx c;
	struct hm_sim_layouts l;
	struct hm_sim_tmpl t;
	u32 i, k;

	/* 6.12: one global table, unlock before the waiters decrement */
	check_path("6.12", false, HM_SIM_OP_WAIT, GLOBAL_612 LOCKED_612);
	check_path("6.12", false, HM_SIM_OP_WAKE, GLOBAL_612 WAKE);
	check_path("6.12", true, HM_SIM_OP_WAIT, GUP GUP_PUT GLOBAL_612 LOCKED_612);
	/* 6.16-rc4: private hash with rcuref users */
	check_path("6.16-rc4", false, HM_SIM_OP_WAIT, PRIVATE_HASH PRIV_GET RCUREF_GET LOCKED PRIV_PUT RCUREF_PUT);
	check_path("6.16-rc4", false, HM_SIM_OP_WAKE, PRIVATE_HASH PRIV_GET RCUREF_GET WAKE PRIV_PUT RCUREF_PUT);
	/* -S: keys are FUT_OFF_MMSHARED, __futex_hash_private returns NULL, hb->priv is NULL */
	check_path("6.16-rc4", true, HM_SIM_OP_WAIT, GUP GUP_PUT GLOBAL_616 PRIV_GET LOCKED PRIV_PUT);
	check_path("6.16-rc4", true, HM_SIM_OP_WAKE, GUP GUP_PUT GLOBAL_616 PRIV_GET WAKE PRIV_PUT);
	/* 6.16 final: FUTEX_PRIVATE_HASH depends on BROKEN: futex_hash() = __futex_hash(key, NULL) */
	check_path("6.16", false, HM_SIM_OP_WAIT, GLOBAL_616 LOCKED);
	check_path("6.16", false, HM_SIM_OP_WAKE, GLOBAL_616 WAKE);
	check_path("6.16", true, HM_SIM_OP_WAIT, GUP GUP_PUT GLOBAL_616 LOCKED);
	check_path("6.16", true, HM_SIM_OP_WAKE, GUP GUP_PUT GLOBAL_616 WAKE);
	/* 6.17, 6.18: per-CPU references */
	check_path("6.17", false, HM_SIM_OP_WAIT, PRIVATE_HASH PRIV_GET REF_GET LOCKED PRIV_PUT REF_PUT);
	check_path("6.17", false, HM_SIM_OP_WAKE, PRIVATE_HASH PRIV_GET REF_GET WAKE PRIV_PUT REF_PUT);
	check_path("6.18", false, HM_SIM_OP_WAIT, PRIVATE_HASH PRIV_GET REF_GET LOCKED PRIV_PUT REF_PUT);
	check_path("6.18", true, HM_SIM_OP_WAIT, GUP GUP_PUT GLOBAL_616 PRIV_GET LOCKED PRIV_PUT);
	check_path("6.18", false, HM_SIM_OP_WAKE, PRIVATE_HASH PRIV_GET REF_GET WAKE PRIV_PUT REF_PUT);
	/* 7.0, 7.1: the 6.17/6.18 path (a734d9fca84e came in 7.2) */
	check_path("7.0", false, HM_SIM_OP_WAIT, PRIVATE_HASH PRIV_GET REF_GET LOCKED PRIV_PUT REF_PUT);
	check_path("7.0", false, HM_SIM_OP_WAKE, PRIVATE_HASH PRIV_GET REF_GET WAKE PRIV_PUT REF_PUT);
	check_path("7.0", true, HM_SIM_OP_WAIT, GUP GUP_PUT GLOBAL_616 PRIV_GET LOCKED PRIV_PUT);
	check_path("7.0", true, HM_SIM_OP_WAKE, GUP GUP_PUT GLOBAL_616 PRIV_GET WAKE PRIV_PUT);
	check_path("7.1", false, HM_SIM_OP_WAIT, PRIVATE_HASH PRIV_GET REF_GET LOCKED PRIV_PUT REF_PUT);
	check_path("7.1", true, HM_SIM_OP_WAIT, GUP GUP_PUT GLOBAL_616 PRIV_GET LOCKED PRIV_PUT);
	/* 7.2: a734d9fca84e, no priv */
	check_path("7.2", false, HM_SIM_OP_WAIT, PRIVATE_HASH REF_GET LOCKED REF_PUT);
	check_path("7.2", false, HM_SIM_OP_WAKE, PRIVATE_HASH REF_GET WAKE REF_PUT);
	check_path("7.2", true, HM_SIM_OP_WAIT, GUP MM_SEQ GUP_PUT GLOBAL_616 LOCKED);
	/* 7.3: runtime constants */
	check_path("7.3", false, HM_SIM_OP_WAIT, PRIVATE_HASH REF_GET LOCKED REF_PUT);
	check_path("7.3", false, HM_SIM_OP_WAKE, PRIVATE_HASH REF_GET WAKE REF_PUT);
	check_path("7.3", true, HM_SIM_OP_WAIT, GUP MM_SEQ GUP_PUT GLOBAL_RC LOCKED);
	check_path("7.3", true, HM_SIM_OP_WAKE, GUP MM_SEQ GUP_PUT GLOBAL_RC WAKE);

	/* 6.16 final: no access to priv anywhere (the field is still in the bucket) */
	for (k = 0; k < 4; k++) {
		int priv = 0;

		hm_sim_tctx__defaults(&c, &l, "6.16", k & 1, true);
		hm_sim__build_template(&c, k & 2 ? HM_SIM_OP_WAKE : HM_SIM_OP_WAIT, &t);
		for (i = 0; i < t.n; i++)
			priv += t.st[i].obj == HM_OBJ_BUCKET && t.st[i].field == HM_FUTEX_FIELD_PRIV;
		CHECK_EQ(k & 1 ? (k & 2 ? "6.16 final shared wake: no priv access" : "6.16 final shared wait: no priv access")
			       : (k & 2 ? "6.16 final private wake: no priv access" : "6.16 final private wait: no priv access"),
			 priv, 0);
	}
	CHECK("6.16 final layout keeps the priv field", l.bl.offset[HM_FUTEX_FIELD_PRIV] == 24);
	/* the bucket offsets come from the layout: priv at +24 on 6.16-rc4 */
	hm_sim_tctx__defaults(&c, &l, "6.16-rc4", false, true);
	hm_sim__build_template(&c, HM_SIM_OP_WAIT, &t);
	CHECK("6.16-rc4: hb->priv load at +24", t.st[2].obj == HM_OBJ_BUCKET && t.st[2].off == 24 &&
	      t.st[2].field == HM_FUTEX_FIELD_PRIV);
	/* THP: GUP-fast reads the PMD leaf */
	hm_sim_tctx__defaults(&c, &l, "6.18", true, false);
	c.thp = true;
	hm_sim__build_template(&c, HM_SIM_OP_WAIT, &t);
	CHECK_STR("THP: the PMD leaf", t.st[1].what, "pmd");
	/* 7.x: the unique id and the futex block as in the 6.18.44 BTF */
	hm_sim_tctx__defaults(&c, &l, "7.3", true, false);
	hm_sim__build_template(&c, HM_SIM_OP_WAIT, &t);
	CHECK("7.3: mm->futex.unique_id at +256", t.st[5].obj == HM_OBJ_MM && t.st[5].off == 256);
	CHECK_EQ("7.3: mm->futex_ref at +344", l.ml.offset[HM_FUTEX_MM_futex_ref], 344);
	hm_sim_tctx__defaults(&c, &l, "6.18", false, true);
	CHECK_EQ("6.18: mm->futex_ref at +336", l.ml.offset[HM_FUTEX_MM_futex_ref], 336);
	/* names */
	hm_sim_tctx__defaults(&c, &l, "7.0", false, true);
	CHECK_EQ("7.0: mm->futex_ref at +336 (no unique id)", l.ml.offset[HM_FUTEX_MM_futex_ref], 336);
	CHECK("7.0: priv at +24", l.bl.offset[HM_FUTEX_FIELD_PRIV] == 24);
	CHECK("unknown kernel name", !hm_sim_kernel__find("7.0.0") && !hm_sim_kernel__find("6.16.0"));
	CHECK("6.16 is the final release", hm_sim_kernel__find("6.16") &&
	      !hm_sim_kernel__find("6.16")->private_hash);
	{
		char names[256];

		hm_sim_kernel__names(names, sizeof(names));
		CHECK_STR("known names", names, "6.12, 6.16-rc4, 6.16, 6.17, 6.18, 7.0, 7.1, 7.2, 7.3");
	}
	TAP_DONE();
}
