// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernels the simulator models and the memory accesses of one futex
 * operation in each, access by access, as that kernel's source and
 * configuration make them (kernel/futex/core.c, waitwake.c, futex.h at the
 * release; shared/docs/notes/futex.md sections 1.7, 2.4-2.8 and 4):
 *
 *   6.12      one global table (__futex_data: queues, hashsize); unlock, then
 *             waiters dec; no priv, no private hash
 *   6.16-rc4  FUTEX_PRIVATE_HASH=y: mm->futex_phash, fph->hash_mask,
 *             hb->priv (futex_hash), fph->immutable + rcuref_get(fph->users),
 *             ... hb->priv (futex_hash_put), fph->immutable + rcuref_put
 *   6.16      9a57c3773152 (v6.16-rc5): FUTEX_PRIVATE_HASH depends on
 *             BROKEN, so futex_hash() is __futex_hash(key, NULL) and
 *             futex_hash_put() is empty: no hb->priv load at all; the field
 *             is still in the bucket
 *   6.17/6.18 56180dd20c19: per-CPU references (futex_ref_get/put: fph->state,
 *             fph->mm, mm->futex_ref, this_cpu_inc/dec); hb->priv read twice
 *   7.0/7.1   the same futex hash path: a734d9fca84e (below) is in tip's
 *             locking/core pushed in June 2026 and came with the 7.2 merge
 *             window, after 7.1 was out
 *   7.2       a734d9fca84e "futex: Optimize futex hash bucket access
 *             patterns" (merged for v7.2, tag locking-core-2026-06-14): no
 *             priv in the bucket; futex_hash() returns {hb, fph}
 *   7.3       + runtime constants for the global hash (K Prateek Nayak's
 *             series, v5 June 2026): no __futex_data loads, one load of
 *             __futex_queues[node]; MMSHARED keys hash mm->futex.unique_id
 *
 * Shared futexes (FLAGS_SHARED) add get_futex_key's GUP-fast: the leaf page
 * table entry, page->compound_head, the folio reference (atomic on
 * folio->_refcount), folio->mapping, and folio_put.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "sim/sim.h"

/* ---------------------------------------------------------------- kernels */

const struct hm_sim_kernel hm_sim_kernels[] = {
	{ .name = "6.12", .release = "6.12.40", .era = HM_FUTEX_ERA_PRE_6_16,
	  .what = "one global table; unlock then waiters dec",
	  .unlock_first = true },
	{ .name = "6.16-rc4", .release = "6.16.0-rc4", .era = HM_FUTEX_ERA_6_16,
	  .what = "private hash on (rcuref users); hb->priv read in futex_hash/futex_hash_put",
	  .private_hash = true, .priv_loads = true, .ref = HM_SIM_REF_RCUREF, .per_node = true },
	{ .name = "6.16", .release = "6.16.0", .era = HM_FUTEX_ERA_6_16,
	  .what = "final: private hash compiled out (9a57c3773152); no hb->priv loads",
	  .per_node = true },
	{ .name = "6.17", .release = "6.17.0", .era = HM_FUTEX_ERA_6_17,
	  .what = "per-CPU references (56180dd20c19); hb->priv read twice",
	  .private_hash = true, .priv_loads = true, .ref = HM_SIM_REF_PERCPU, .per_node = true },
	{ .name = "6.18", .release = "6.18.0", .era = HM_FUTEX_ERA_6_17,
	  .what = "as 6.17 (6.18 changed only syscalls.c in kernel/futex)",
	  .private_hash = true, .priv_loads = true, .ref = HM_SIM_REF_PERCPU, .per_node = true },
	/*
	 * 7.0 and 7.1 (merge windows: locking-core-2026-02-08, -04-13) still have
	 * the 6.17/6.18 hash: a734d9fca84e came with locking-core-2026-06-14 (7.2),
	 * the runtime constants later (v5, June 2026), and the mm-reuse fix
	 * (mm->futex.unique_id) is modelled from 7.2 on, as before.
	 */
	{ .name = "7.0", .release = "7.0.0", .era = HM_FUTEX_ERA_6_17,
	  .what = "futex hash as 6.17/6.18 (a734d9fca84e came in 7.2); hb->priv read twice",
	  .private_hash = true, .priv_loads = true, .ref = HM_SIM_REF_PERCPU, .per_node = true },
	{ .name = "7.1", .release = "7.1.0", .era = HM_FUTEX_ERA_6_17,
	  .what = "as 7.0 (a734d9fca84e came in 7.2); hb->priv read twice",
	  .private_hash = true, .priv_loads = true, .ref = HM_SIM_REF_PERCPU, .per_node = true },
	{ .name = "7.2", .release = "7.2.0", .era = HM_FUTEX_ERA_7,
	  .what = "a734d9fca84e: no priv; futex_hash returns {hb, fph}",
	  .private_hash = true, .ref = HM_SIM_REF_PERCPU, .per_node = true, .mm_seq = true },
	{ .name = "7.3", .release = "7.3.0", .era = HM_FUTEX_ERA_7,
	  .what = "current 7.x: as 7.2 + runtime constants (no __futex_data loads)",
	  .private_hash = true, .ref = HM_SIM_REF_PERCPU, .per_node = true, .mm_seq = true,
	  .runtime_const = true },
};
const u32 hm_sim_nr_kernels = sizeof(hm_sim_kernels) / sizeof(hm_sim_kernels[0]);

const struct hm_sim_kernel *hm_sim_kernel__find(const char *name)
{
	u32 i;

	for (i = 0; name && i < hm_sim_nr_kernels; i++)
		if (!strcmp(hm_sim_kernels[i].name, name))
			return &hm_sim_kernels[i];
	return NULL;
}

void hm_sim_kernel__names(char *buf, size_t n)
{
	size_t len = 0;
	u32 i;

	if (!n)
		return;
	buf[0] = 0;
	for (i = 0; i < hm_sim_nr_kernels && len < n; i++)
		len += snprintf(buf + len, n - len, "%s%s", i ? ", " : "", hm_sim_kernels[i].name);
}

/* ---------------------------------------------------------------- ksyms */

static const struct { const char *name; u32 size; } ksyms[HM_K__MAX] = {
	[HM_K_DO_FUTEX]		     = { "do_futex", 0x1a0 },
	[HM_K_FUTEX_WAIT]	     = { "futex_wait", 0x120 },
	[HM_K___FUTEX_WAIT]	     = { "__futex_wait", 0x150 },
	[HM_K_FUTEX_WAIT_SETUP]	     = { "futex_wait_setup", 0x1e0 },
	[HM_K_GET_FUTEX_KEY]	     = { "get_futex_key", 0x3c0 },
	[HM_K_FUTEX_HASH]	     = { "futex_hash", 0xd0 },
	[HM_K___FUTEX_HASH]	     = { "__futex_hash", 0x130 },
	[HM_K_FUTEX_PRIVATE_HASH_GET] = { "futex_private_hash_get", 0x60 },
	[HM_K_FUTEX_PRIVATE_HASH_PUT] = { "futex_private_hash_put", 0x70 },
	[HM_K_FUTEX_REF_GET]	     = { "futex_ref_get", 0x60 },
	[HM_K_FUTEX_REF_PUT]	     = { "futex_ref_put", 0x70 },
	[HM_K_FUTEX_HASH_PUT]	     = { "futex_hash_put", 0x40 },
	[HM_K_FUTEX_Q_LOCK]	     = { "futex_q_lock", 0x70 },
	[HM_K_FUTEX_Q_UNLOCK]	     = { "futex_q_unlock", 0x40 },
	[HM_K_RAW_SPIN_LOCK]	     = { "_raw_spin_lock", 0x30 },
	[HM_K_QSPIN_SLOWPATH]	     = { "native_queued_spin_lock_slowpath", 0x2c0 },
	[HM_K_TRY_GRAB_FOLIO_FAST]   = { "try_grab_folio_fast", 0x180 },
	[HM_K_GUP_FAST_PTE_RANGE]    = { "gup_fast_pte_range", 0x200 },
	[HM_K_GUP_FAST_PMD_LEAF]     = { "gup_fast_pmd_leaf", 0x180 },
	[HM_K_FUTEX_WAKE]	     = { "futex_wake", 0x1c0 },
};

#define KTEXT_FUTEX	0xffffffff811c4000ULL	/* kernel/futex/ lives about here */

static u64 ksym_addr[HM_K__MAX];

static void ksyms_layout(void)
{
	u64 a = KTEXT_FUTEX;
	int i;

	if (ksym_addr[0])
		return;
	for (i = 0; i < HM_K__MAX; i++) {
		ksym_addr[i] = a;
		a += (ksyms[i].size + 0x3f) & ~0x3fULL;
	}
}

const char *hm_sim_ksym__name(int k)
{
	return k >= 0 && k < HM_K__MAX ? ksyms[k].name : "?";
}

u64 hm_sim_ksym__addr(int k)
{
	ksyms_layout();
	return k >= 0 && k < HM_K__MAX ? ksym_addr[k] : 0;
}

/* Function containing @ip, or NULL. */
const char *hm_sim_ksym__at(u64 ip)
{
	int i;

	ksyms_layout();
	for (i = 0; i < HM_K__MAX; i++)
		if (ip >= ksym_addr[i] && ip < ksym_addr[i] + ksyms[i].size)
			return ksyms[i].name;
	return NULL;
}

u64 hm_sim__ksym(const char *name)
{
	int i;

	ksyms_layout();
	for (i = 0; i < HM_K__MAX; i++)
		if (!strcmp(ksyms[i].name, name))
			return ksym_addr[i];
	if (!strcmp(name, "__futex_data"))
		return HM_SIM_KDATA_FUTEX;
	if (!strcmp(name, "_text"))
		return HM_SIM_KTEXT;
	return 0;
}

/* HM_META_KSYMS text: "ADDR T name" lines. */
int hm_sim__ksyms_text(char **out, size_t *out_len)
{
	size_t cap = 4096, len = 0;
	char *t = malloc(cap);
	int i;

	if (!t)
		return -ENOMEM;
	ksyms_layout();
	len += snprintf(t + len, cap - len, "%016llx T _text\n", (unsigned long long)HM_SIM_KTEXT);
	for (i = 0; i < HM_K__MAX; i++)
		len += snprintf(t + len, cap - len, "%016llx %c %s\n",
				(unsigned long long)ksym_addr[i],
				i == HM_K___FUTEX_HASH || i == HM_K_FUTEX_REF_GET || i == HM_K_FUTEX_REF_PUT ? 't' : 'T',
				ksyms[i].name);
	len += snprintf(t + len, cap - len, "%016llx d __futex_data\n",
			(unsigned long long)HM_SIM_KDATA_FUTEX);
	*out = t;
	*out_len = len;
	return 0;
}

/* ------------------------------------------------------------ templates */

static void add(struct hm_sim_tmpl *t, enum hm_obj obj, enum hm_acc acc, s32 off, int k,
		u32 ipoff, bool locked, enum hm_sim_step_kind kind, const char *what)
{
	struct hm_sim_step *s;

	if (off < 0 || t->n >= HM_SIM_MAX_STEPS)
		return;		/* the field is absent (or dropped): no access */
	s = &t->st[t->n++];
	memset(s, 0, sizeof(*s));
	s->obj = (u8)obj;
	s->acc = (u8)acc;
	s->off = (u16)off;
	s->ksym = (u8)k;
	s->ipoff = (u16)ipoff;
	s->locked = locked;
	s->kind = (u8)kind;
	s->line = UINT32_MAX;
	s->field = HM_FUTEX_FIELD__MAX;
	s->what = what;
}

static void add_bucket(struct hm_sim_tmpl *t, const struct hm_sim_tctx *c, enum hm_futex_field f,
		       enum hm_acc acc, int k, u32 ipoff, bool locked, enum hm_sim_step_kind kind)
{
	static const char *const names[HM_FUTEX_FIELD__MAX] = {
		"hb->waiters", "hb->lock", "hb->chain", "hb->priv", "hb pad",
	};
	u32 n = t->n;

	add(t, HM_OBJ_BUCKET, acc, c->bl->offset[f], k, ipoff, locked, kind, names[f]);
	if (t->n > n)
		t->st[n].field = (u8)f;
}

/* get_futex_key() of a shared futex on anonymous memory (notes 1.4, 3.3). */
static void key_shared(struct hm_sim_tmpl *t, const struct hm_sim_tctx *c)
{
	/* GUP-fast: pgd_offset(current->mm, addr) reads mm->pgd, then the walk's leaf entry
	 * (a PTE, or the PMD of a THP), then the page */
	add(t, HM_OBJ_MM, HM_ACC_LOAD, HM_SIM_MM_PGD, c->thp ? HM_K_GUP_FAST_PMD_LEAF : HM_K_GUP_FAST_PTE_RANGE,
	    0x12, false, HM_STEP_PLAIN, "mm->pgd");
	if (c->thp)
		add(t, HM_OBJ_PT, HM_ACC_LOAD, 0, HM_K_GUP_FAST_PMD_LEAF, 0x2e, false, HM_STEP_PLAIN, "pmd");
	else
		add(t, HM_OBJ_PT, HM_ACC_LOAD, 0, HM_K_GUP_FAST_PTE_RANGE, 0x5a, false, HM_STEP_PLAIN, "pte");
	/* try_grab_folio_fast: page_folio(page), folio_ref_try_add() */
	add(t, HM_OBJ_PAGE, HM_ACC_LOAD, 8, HM_K_TRY_GRAB_FOLIO_FAST, 0x1c, false, HM_STEP_PLAIN,
	    "page->compound_head");
	add(t, HM_OBJ_FOLIO, HM_ACC_RMW, 52, HM_K_TRY_GRAB_FOLIO_FAST, 0x48, true, HM_STEP_PLAIN,
	    "folio->_refcount");
	/* get_futex_key: mapping = READ_ONCE(folio->mapping); folio_test_anon() */
	add(t, HM_OBJ_FOLIO, HM_ACC_LOAD, 24, HM_K_GET_FUTEX_KEY, 0x10a, false, HM_STEP_PLAIN,
	    "folio->mapping");
	/* 7.x (and 6.12.115+): key->private.mm_seq = get_object_id(&mm->futex.unique_id) */
	if (c->k->mm_seq)
		add(t, HM_OBJ_MM, HM_ACC_LOAD, c->mm_unique_id, HM_K_GET_FUTEX_KEY, 0x13c, false,
		    HM_STEP_PLAIN, "mm->futex.unique_id");
	/* folio_put() */
	add(t, HM_OBJ_FOLIO, HM_ACC_RMW, 52, HM_K_GET_FUTEX_KEY, 0x16e, true, HM_STEP_PLAIN,
	    "folio->_refcount");
}

/* futex_hash(): the bucket, and a reference on the private hash where one is used. */
static void hash_get(struct hm_sim_tmpl *t, const struct hm_sim_tctx *c)
{
	const struct hm_sim_kernel *k = c->k;
	const struct hm_futex_fph_layout *fl = c->fl;

	if (c->private_hash) {
		/* __futex_hash_private: rcu_dereference(mm->futex_phash), fph->hash_mask */
		add(t, HM_OBJ_MM, HM_ACC_LOAD, c->ml->offset[HM_FUTEX_MM_futex_phash], HM_K___FUTEX_HASH,
		    0x19, false, HM_STEP_PLAIN, "mm->futex_phash");
		add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->hash_mask, HM_K___FUTEX_HASH, 0x22, false, HM_STEP_PLAIN,
		    "fph->hash_mask");
	} else if (k->runtime_const) {
		/* runtime_const_ptr(__futex_queues)[node]; mask and shift are immediates */
		add(t, HM_OBJ_GLOBAL, HM_ACC_LOAD, 0, HM_K___FUTEX_HASH, 0x3a, false, HM_STEP_PLAIN,
		    "__futex_queues[node]");
	} else if (k->era == HM_FUTEX_ERA_PRE_6_16) {
		add(t, HM_OBJ_GLOBAL, HM_ACC_LOAD, 0, HM_K_FUTEX_HASH, 0x3a, false, HM_STEP_PLAIN,
		    "__futex_data.queues/hashsize");
	} else {
		add(t, HM_OBJ_GLOBAL, HM_ACC_LOAD, 0, HM_K___FUTEX_HASH, 0x3a, false, HM_STEP_PLAIN,
		    "__futex_data.hashmask/hashshift/queues[node]");
	}
	/* futex_hash(): fph = hb->priv (only with FUTEX_PRIVATE_HASH, before a734d9fca84e) */
	if (k->priv_loads)
		add_bucket(t, c, HM_FUTEX_FIELD_PRIV, HM_ACC_LOAD, HM_K_FUTEX_HASH, 0x32, false, HM_STEP_PLAIN);
	if (!c->private_hash)
		return;
	if (k->ref == HM_SIM_REF_RCUREF) {
		/* futex_private_hash_get: if (fph->immutable) ...; rcuref_get(&fph->users) */
		add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->immutable, HM_K_FUTEX_PRIVATE_HASH_GET, 0x9, false,
		    HM_STEP_PLAIN, "fph->immutable");
		add(t, HM_OBJ_FPH, HM_ACC_RMW, fl->users, HM_K_FUTEX_PRIVATE_HASH_GET, 0x14, true,
		    HM_STEP_PLAIN, "fph->users");
	} else if (k->ref == HM_SIM_REF_PERCPU) {
		/* futex_ref_get: smp_load_acquire(&fph->state), fph->mm, this_cpu_inc(*mm->futex_ref) */
		add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->users, HM_K_FUTEX_REF_GET, 0xb, false, HM_STEP_PLAIN,
		    "fph->state");
		add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->mm, HM_K_FUTEX_REF_GET, 0x12, false, HM_STEP_PLAIN,
		    "fph->mm");
		add(t, HM_OBJ_MM, HM_ACC_LOAD, c->ml->offset[HM_FUTEX_MM_futex_ref], HM_K_FUTEX_REF_GET, 0x16,
		    false, HM_STEP_PLAIN, "mm->futex_ref");
		add(t, HM_OBJ_PCPU, HM_ACC_RMW, 0, HM_K_FUTEX_REF_GET, 0x1d, false, HM_STEP_PLAIN,
		    "per-CPU futex_ref");
	}
}

/* futex_hash_put() at the end of the hb scope. */
static void hash_put(struct hm_sim_tmpl *t, const struct hm_sim_tctx *c)
{
	const struct hm_sim_kernel *k = c->k;
	const struct hm_futex_fph_layout *fl = c->fl;

	if (k->priv_loads)
		add_bucket(t, c, HM_FUTEX_FIELD_PRIV, HM_ACC_LOAD, HM_K_FUTEX_HASH_PUT, 0x8, false, HM_STEP_PLAIN);
	if (!c->private_hash)
		return;
	if (k->ref == HM_SIM_REF_RCUREF) {
		add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->immutable, HM_K_FUTEX_PRIVATE_HASH_PUT, 0x9, false,
		    HM_STEP_PLAIN, "fph->immutable");
		add(t, HM_OBJ_FPH, HM_ACC_RMW, fl->users, HM_K_FUTEX_PRIVATE_HASH_PUT, 0x11, true,
		    HM_STEP_PLAIN, "fph->users");
	} else if (k->ref == HM_SIM_REF_PERCPU) {
		add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->users, HM_K_FUTEX_REF_PUT, 0xb, false, HM_STEP_PLAIN,
		    "fph->state");
		add(t, HM_OBJ_FPH, HM_ACC_LOAD, fl->mm, HM_K_FUTEX_REF_PUT, 0x12, false, HM_STEP_PLAIN,
		    "fph->mm");
		add(t, HM_OBJ_MM, HM_ACC_LOAD, c->ml->offset[HM_FUTEX_MM_futex_ref], HM_K_FUTEX_REF_PUT, 0x16,
		    false, HM_STEP_PLAIN, "mm->futex_ref");
		add(t, HM_OBJ_PCPU, HM_ACC_RMW, 0, HM_K_FUTEX_REF_PUT, 0x1d, false, HM_STEP_PLAIN,
		    "per-CPU futex_ref");
	}
}

void hm_sim__build_template(const struct hm_sim_tctx *c, enum hm_sim_op op, struct hm_sim_tmpl *t)
{
	t->n = 0;
	if (c->shared)
		key_shared(t, c);
	hash_get(t, c);
	if (op == HM_SIM_OP_WAKE) {
		/*
		 * futex_wake: if (!futex_hb_waiters_pending(hb)) return;  smp_mb() +
		 * atomic_read(&hb->waiters).  The workload has no sleeping waiter, so
		 * the lock and the chain walk are not reached.
		 */
		add_bucket(t, c, HM_FUTEX_FIELD_WAITERS, HM_ACC_LOAD, HM_K_FUTEX_WAKE, 0x7c, false, HM_STEP_PLAIN);
		hash_put(t, c);
		return;
	}
	/* futex_q_lock: futex_hb_waiters_inc (lock incl + smp_mb), spin_lock(&hb->lock) */
	add_bucket(t, c, HM_FUTEX_FIELD_WAITERS, HM_ACC_RMW, HM_K_FUTEX_Q_LOCK, 0x1d, true, HM_STEP_PLAIN);
	add_bucket(t, c, HM_FUTEX_FIELD_LOCK, HM_ACC_RMW, HM_K_RAW_SPIN_LOCK, 0x9, true, HM_STEP_LOCK);
	/* futex_get_value_locked: the user word, from kernel code */
	add(t, HM_OBJ_UWORD, HM_ACC_LOAD, 0, HM_K_FUTEX_WAIT_SETUP, 0x8a, false, HM_STEP_PLAIN, "futex word");
	if (c->k->unlock_first) {
		/* 6.12: spin_unlock, then waiters dec */
		add_bucket(t, c, HM_FUTEX_FIELD_LOCK, HM_ACC_STORE, HM_K_FUTEX_Q_UNLOCK, 0x8, false, HM_STEP_UNLOCK);
		add_bucket(t, c, HM_FUTEX_FIELD_WAITERS, HM_ACC_RMW, HM_K_FUTEX_Q_UNLOCK, 0xd, true, HM_STEP_PLAIN);
	} else {
		/* 6.16+: "futex: Decrease the waiter count before the unlock operation" */
		add_bucket(t, c, HM_FUTEX_FIELD_WAITERS, HM_ACC_RMW, HM_K_FUTEX_Q_UNLOCK, 0x9, true, HM_STEP_PLAIN);
		add_bucket(t, c, HM_FUTEX_FIELD_LOCK, HM_ACC_STORE, HM_K_FUTEX_Q_UNLOCK, 0x12, false, HM_STEP_UNLOCK);
	}
	hash_put(t, c);
}

const char *hm_sim_acc__name(int a)
{
	static const char *const n[] = { "load", "store", "rmw" };

	return a >= 0 && a < 3 ? n[a] : "?";
}

/* Context for kernel @name with the era's default layouts (unit tests, the access table). */
int hm_sim_tctx__defaults(struct hm_sim_tctx *c, struct hm_sim_layouts *l, const char *name,
			  bool shared, bool private_hash_used)
{
	const struct hm_sim_kernel *k = hm_sim_kernel__find(name);

	if (!k)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	hm_futex_layout__for_era(k->era, &l->bl);
	hm_futex_fph_layout__for_era(k->era, &l->fl);
	hm_futex_mm_layout__for_era(k->era, &l->ml);
	hm_sim__mm_layout(k, &l->ml);
	c->k = k;
	c->bl = &l->bl;
	c->fl = &l->fl;
	c->ml = &l->ml;
	c->shared = shared;
	c->private_hash = private_hash_used && k->private_hash && !shared;
	c->mm_unique_id = hm_sim__mm_unique_id(k);
	return 0;
}

s32 hm_sim__mm_unique_id(const struct hm_sim_kernel *k)
{
	/*
	 * No BTF of a 7.x build here; the 6.18.44 stable build that carries both
	 * the mm-reuse fix and a734d9fca84e has futex_unique_id at +256, right
	 * before futex_hash_lock (mmlines.c).
	 */
	return k->mm_seq ? hm_sim__mm_field_off(k, "futex_unique_id") : -1;
}

/* The mm's futex fields of kernel @k, from its mm_struct layout (mmlines.c). */
void hm_sim__mm_layout(const struct hm_sim_kernel *k, struct hm_futex_mm_layout *l)
{
	static const char *const names[HM_FUTEX_MM__MAX] = {
#define HM_SIM_MM_NAME(n) #n,
		HM_FUTEX_MM_FIELDS(HM_SIM_MM_NAME)
#undef HM_SIM_MM_NAME
	};
	struct hm_sim_mmfield f[HM_SIM_MM_FIELDS_MAX];
	u32 n = hm_sim__mm_fields(k, f, HM_SIM_MM_FIELDS_MAX), i, j;

	for (i = 0; i < HM_FUTEX_MM__MAX; i++) {
		l->offset[i] = -1;
		l->size[i] = 0;
		for (j = 0; j < n && j < HM_SIM_MM_FIELDS_MAX; j++)
			if (!strcmp(f[j].name, names[i])) {
				l->offset[i] = (s32)f[j].off;
				l->size[i] = f[j].size;
			}
	}
	l->task_mm = -1;
	l->unique_id = -1;
}
