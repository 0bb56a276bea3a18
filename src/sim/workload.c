// SPDX-License-Identifier: GPL-2.0-only
/*
 * The futex hash workload (perf bench futex hash: every thread FUTEX_WAITs on
 * each of its futexes with a value that does not match, so each operation
 * takes and drops the bucket lock and returns EAGAIN), run through the
 * kernel's memory accesses per operation of the kernel chosen (kpath.c).
 *
 * Threads are scheduled by simulated time, one memory access at a time, so
 * accesses of different CPUs interleave the way their latencies allow.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hitmap/log.h>
#include "sim/coherence.h"
#include "sim/sched.h"
#include "util/prefetch.h"

#define KTEXT_BASE	HM_SIM_KTEXT
#define KMAP_LEN	HM_SIM_KMAP_LEN
#define KDATA_FUTEX	HM_SIM_KDATA_FUTEX

static u64 ksym_addr[HM_K__MAX];	/* hm_sim_ksym__addr(), cached for the run loop */

#define sim_phys	hm_sim__paddr
#define phys_node	hm_sim__node_of

/* ------------------------------------------------------------- run */

#define TID_BITS HM_SCHED_TID_BITS

static inline u64 obj_addr(const struct hm_sim *s, const struct hm_sim_thread *t, u64 k,
			   const struct hm_sim_step *st)
{
	switch (st->obj) {
	case HM_OBJ_BUCKET:	return s->bucket[k] + st->off;
	case HM_OBJ_FPH:	return s->lay.fph + st->off;
	case HM_OBJ_MM:		return s->lay.mm + st->off;
	case HM_OBJ_PCPU:	return hm_sim__pcpu_addr(s, t->cpu);
	case HM_OBJ_UWORD:	return t->arr + 4ULL * t->j;
	case HM_OBJ_PAGE:	return hm_sim__page_addr(s, sim_phys(s, t->arr + 4ULL * t->j), false) + st->off;
	case HM_OBJ_FOLIO:	return hm_sim__page_addr(s, sim_phys(s, t->arr + 4ULL * t->j), true) + st->off;
	case HM_OBJ_PT:		return hm_sim__pt_addr(s, t->arr + 4ULL * t->j);
	case HM_OBJ_GLOBAL:	return s->lay.futex_data + st->off;
	case HM_OBJ_QNODE:	return hm_sim__qnode_addr(s, st->line) + st->off;
	}
	return 0;
}

/*
 * Where each template step finds its line, without a switch (an indirect
 * jump that mispredicts as threads at different steps interleave): the u32
 * at @base + ((futex & kmask) << kshift) + ((cpu & cmask) << 2), so a
 * per-futex array, a per-CPU one, or the step's own line (both masks 0).
 */
struct line_src {
	const char	*base;
	u64		kmask;
	u32		kshift, cmask;
};

static void line_src__init(struct line_src *ls, const struct hm_sim *s, const struct hm_sim_step *st)
{
	const struct hm_sim_fut *f = s->fut;

	memset(ls, 0, sizeof(*ls));
	ls->kmask = UINT64_MAX;
	ls->kshift = 2;
	switch (st->obj) {
	case HM_OBJ_BUCKET:
		if (st->off < 64) {
			ls->base = (const char *)&f[0].bucket_line;
			ls->kshift = 3;
		} else {
			ls->base = (const char *)s->bucket_line2;
		}
		break;
	case HM_OBJ_UWORD:
		ls->base = (const char *)&f[0].uword_line;
		ls->kshift = 3;
		break;
	case HM_OBJ_PAGE:	ls->base = (const char *)s->page_line; break;
	case HM_OBJ_FOLIO:	ls->base = (const char *)s->folio_line; break;
	case HM_OBJ_PT:		ls->base = (const char *)s->pt_line; break;
	case HM_OBJ_PCPU:
		ls->base = (const char *)s->pcpu_line;
		ls->kmask = 0;
		ls->cmask = UINT32_MAX;
		break;
	default:
		ls->base = (const char *)&st->line;
		ls->kmask = 0;
		break;
	}
}

static inline u32 line_src__get(const struct line_src *ls, u64 k, u32 cpu)
{
	u32 v;

	memcpy(&v, ls->base + ((k & ls->kmask) << ls->kshift) + ((size_t)(cpu & ls->cmask) << 2), sizeof(v));
	return v;
}

static __attribute__((noinline)) int emit(struct hm_sim *s, const struct hm_sim_thread *t, u64 k,
					   const struct hm_sim_step *st, u64 ip,
					   const struct hm_coh_result *r, bool store_part, u32 line)
{
	struct hm_sample_in in;
	u64 ds;
	enum hm_mem_cat cat;
	int ret;

	memset(&in, 0, sizeof(in));
	in.cpu = t->cpu;
	in.tid = t->tid;
	in.time = (u64)((double)t->time / s->m.ghz);
	in.ip = ip;
	in.addr = obj_addr(s, t, k, st);
	in.acc = st->acc;
	in.store_part = store_part;
	in.r = r;
	in.locked = st->locked;
	in.kernel = true;
	ret = hm_sampler__write(s->sp, &in, &ds, &cat);
	if (ret == 1 && s->truth) {
		struct hm_sample smp;
		/*
		 * Every sample is kernel-mode: perf looks the data address up in the
		 * kernel maps only.  The kernel map (the MMAP2 of [kernel.kallsyms]_text
		 * sample.c writes) covers the image, so __futex_data has a map; the
		 * direct map and user addresses have none.
		 */
		bool mapped = in.addr >= KTEXT_BASE && in.addr < KTEXT_BASE + KMAP_LEN;
		enum hm_futex_field f = HM_FUTEX_FIELD__MAX;

		if (st->obj == HM_OBJ_BUCKET)
			f = (enum hm_futex_field)st->field;
		memset(&smp, 0, sizeof(smp));
		smp.addr = in.addr;
		smp.cpu = in.cpu;
		smp.tid = in.tid;
		smp.ip = ip;
		smp.weight = r->weight;
		hm_truth__sample(s->truth, &smp, cat, ds, mapped, (int)t->socket, line,
				 (enum hm_obj)st->obj,
				 st->obj == HM_OBJ_BUCKET ? s->bucket_table[k] : -1,
				 st->obj == HM_OBJ_BUCKET ? s->bucket_index[k] : 0, f);
	}
	return ret < 0 ? ret : 0;
}

/* "M@12" (state and owner core) or "S" for a line. */
static void line_state(const struct hm_coh *c, u32 id, char *b, size_t n)
{
	const struct hm_coh_line *l = &c->lines[id];
	static const char st[] = "ISEMOF";

	if (l->owner != 0xffff)
		snprintf(b, n, "%c@core%u", l->state < 6 ? st[l->state] : '?', l->owner);
	else
		snprintf(b, n, "%c", l->state < 6 ? st[l->state] : '?');
}

static const char *const acc_names[] = { "load", "store", "rmw" };

static void trace_one(struct hm_sim *s, const struct hm_sim_thread *t, u64 k, const struct hm_sim_step *st,
		      u64 ip, u32 line, const char *before, const struct hm_coh_result *r)
{
	char after[32], what[48], fn[64], buf[360];
	const char *name = hm_sim_ksym__at(ip);

	/* function+offset, as perf prints a symbol: the slowpath's steps differ by offset */
	if (name)
		snprintf(fn, sizeof(fn), "%s+0x%llx", name, (unsigned long long)(ip - hm_sim__ksym(name)));
	else
		snprintf(fn, sizeof(fn), "?");
	line_state(s->coh, line, after, sizeof(after));
	if (st->obj == HM_OBJ_BUCKET)
		snprintf(what, sizeof(what), "bucket[%llu].%s", (unsigned long long)s->bucket_index[k],
			 hm_futex_field__name(st->field));
	else
		snprintf(what, sizeof(what), "%s", st->what ? st->what : hm_obj__name(st->obj));
	snprintf(buf, sizeof(buf),
		 "%10.1f ns  cpu %3u (socket %u, core %3u)  %-30s %-5s %-18s line 0x%llx %-9s -> %-9s %-11s %5u cycles",
		 (double)t->time / s->m.ghz, t->cpu, t->socket, t->core, fn, acc_names[st->acc], what,
		 (unsigned long long)s->coh->addrs[line], before, after,
		 st->acc == HM_ACC_STORE ? (r->l1_hit ? "l1 (owned)" : "rfo") : hm_src__name(r->src),
		 st->acc == HM_ACC_LOAD ? r->weight : r->cost);
	s->o.trace_fn(s->o.trace_ctx, buf);
}

/*
 * Count the access on its CPU's counter; true when the counter overflows.
 * Intel: mem-loads counts loads above ldlat, mem-stores every store (the
 * store half of an RMW too).  AMD IBS and Arm SPE: one counter over ops (an
 * RMW is one op, sampled as a load).
 */
static inline bool sample_due(struct hm_sim *s, u32 cpu, enum hm_acc a, bool store_part, u32 weight)
{
	u32 *left;

	if (s->m.vendor == HM_VENDOR_INTEL) {
		if (!store_part) {
			if (weight <= s->o.ldlat)
				return false;
			left = &s->ld_left[cpu];
		} else {
			left = &s->st_left[cpu];
		}
	} else {
		if (store_part && a == HM_ACC_RMW)
			return false;
		left = &s->ld_left[cpu];
	}
	if (--*left)
		return false;
	*left = s->o.period;
	return true;
}

static inline __attribute__((always_inline)) int account(struct hm_sim *s, const struct hm_sim_thread *t, u64 k,
			  const struct hm_sim_step *st, u64 ip, const struct hm_coh_result *r, u32 line)
{
	int err = 0;

	if (st->acc != HM_ACC_STORE && sample_due(s, t->cpu, st->acc, false, r->weight))
		err = emit(s, t, k, st, ip, r, false, line);
	if (!err && st->acc != HM_ACC_LOAD && sample_due(s, t->cpu, st->acc, true, r->weight))
		err = emit(s, t, k, st, ip, r, true, line);
	return err;
}

#define CAL_SHIFT	5	/* 32 cycles a bucket */
#define CAL_N		128	/* buckets: 4096 cycles ahead */
#define CAL_CAP		16	/* op starts a bucket; more are not prefetched */
#define CAL_LEAD	256	/* cycles */

struct cal {
	u16	n[CAL_N];
	u16	tid[CAL_N][CAL_CAP];
};

/* Thread @ti starts an op at cycle @start: prefetch its lines CAL_LEAD cycles before. */
static inline void cal_add(struct cal *c, u64 next, u64 start, u32 ti)
{
	u64 b = (start > CAL_LEAD ? start - CAL_LEAD : 0) >> CAL_SHIFT;
	u32 i;

	if (b < next)
		b = next;
	if (b >= next + CAL_N)
		return;
	i = (u32)(b % CAL_N);
	if (c->n[i] < CAL_CAP)
		c->tid[i][c->n[i]++] = (u16)ti;
}

/* Run the buckets from @next through @now; returns the next bucket to run. */
static __attribute__((noinline)) u64 cal_run(struct hm_sim *s, struct cal *c, u64 next, u64 now)
{
	if (now - next >= CAL_N)
		next = now - (CAL_N - 1);
	for (; next <= now; next++) {
		u32 i = (u32)(next % CAL_N), j;

		for (j = 0; j < c->n[i]; j++) {
			const struct hm_sim_thread *tu = &s->th[c->tid[i][j]];
			const struct hm_sim_fut *uf = &s->fut[(u64)c->tid[i][j] * s->o.futexes + tu->j];

			hm_coh__touch_line(s->coh, tu->core, uf->bucket_line);
			hm_prefetch(&s->coh->lines[uf->uword_line]);
		}
		c->n[i] = 0;
	}
	return next;
}

/*
 * The bucket lock's queued spinlock, as kernel/locking/qspinlock.c runs it
 * (x86, no paravirt): the fast path's cmpxchg; a first contender sets the
 * pending bit and spins reading the lock word; later ones swap themselves in
 * as the MCS queue's tail, link into their predecessor's per-CPU node and
 * spin on their own node until the predecessor hands the queue head over;
 * the head spins on the lock word until neither locked nor pending is set,
 * then takes the lock and writes its successor's node.  Every one of these
 * is a memory access of the coherence model, so the lock line's bouncing
 * while waiters spin and the holder's longer critical section follow from
 * it.  A spin iteration costs its load plus one PAUSE (cpu_relax).
 */
enum { LK_NONE, LK_PEND, LK_QUEUED, LK_WOKEN, LK_HEAD };

struct qspin_ctx {
	struct hm_sim		*s;
	struct hm_sched		*q;
	u64			*traced;
	char			*before;
	bool			steps;
};

/* One access of the slowpath by @t at its clock, which advances by its cost. */
static int qspin_access(struct qspin_ctx *q, struct hm_sim_thread *t, u64 k, const struct hm_sim_step *st,
			u32 line, enum hm_acc a, u32 ipoff, int qnode_cpu)
{
	struct hm_sim *s = q->s;
	struct hm_sim_step sp = *st;
	struct hm_coh_result r;
	int err = 0;

	sp.acc = (u8)a;
	sp.ksym = HM_K_QSPIN_SLOWPATH;
	sp.ipoff = (u16)ipoff;
	sp.locked = a == HM_ACC_RMW;
	if (qnode_cpu >= 0) {
		sp.obj = HM_OBJ_QNODE;
		sp.field = HM_FUTEX_FIELD__MAX;
		sp.off = 0;
		sp.line = (u32)qnode_cpu;
		sp.what = "qnode";
	}
	if (*q->traced < s->o.trace)
		line_state(s->coh, line, q->before, 32);
	hm_coh__access(s->coh, t->cpu, line, a, t->time, &r);
	if (*q->traced < s->o.trace && s->o.trace_fn) {
		(*q->traced)++;
		trace_one(s, t, k, &sp, ksym_addr[sp.ksym] + sp.ipoff, line, q->before, &r);
	}
	if (s->sp)
		err = account(s, t, k, &sp, ksym_addr[sp.ksym] + sp.ipoff, &r, line);
	hm_pop__count(&s->pop, r.src, a, sp.obj, sp.field, HM_SIM_MAX_STEPS, q->steps);
	s->res.spins++;
	t->time += r.cost;
	return err;
}

/* The spin of one iteration that found the lock taken: PAUSE, then run again. */
static inline void qspin_again(struct qspin_ctx *q, struct hm_sim_thread *t, u32 ti)
{
	t->time += q->s->m.lat[HM_LAT_SPIN];
	hm_sched__hold(q->q, (t->time << TID_BITS) | ti);
}

/*
 * Thread @ti at spin_lock(&hb->lock).  Returns 0 when it takes the lock now
 * with the access *@acq at *@ipoff (the step's own access, which the caller
 * makes), 1 when it was rescheduled (spinning, or asleep in the MCS queue), or
 * a negative errno.  *@handoff: the successor to hand the queue head to once
 * the lock is taken (thread + 1), 0 none.
 */
static int qspin_lock(struct qspin_ctx *q, u32 ti, u64 k, const struct hm_sim_step *st, u32 line,
		      enum hm_acc *acq, u32 *ipoff, u16 *handoff)
{
	struct hm_sim *s = q->s;
	struct hm_sim_thread *t = &s->th[ti];
	struct hm_coh_qlock *l = &s->coh->lines[line].lock;
	u16 me = (u16)(ti + 1), prev;
	int err;

	*handoff = 0;
	switch (t->lk) {
	case LK_NONE:
		if (!l->locked && !l->pending && !l->tail) {
			/* queued_spin_lock: atomic_try_cmpxchg_acquire(&lock->val, 0, LOCKED) */
			l->locked = me;
			*acq = HM_ACC_RMW;
			return 0;
		}
		/* the fast path's cmpxchg fails, but owns the line as any locked RMW */
		s->res.contended++;
		t->lk_since = t->time;
		err = qspin_access(q, t, k, st, line, HM_ACC_RMW, st->ipoff, -1);
		if (err)
			return err;
		if (!l->pending && !l->tail) {
			/* queued_fetch_set_pending_acquire (lock btsl), then wait for !locked */
			err = qspin_access(q, t, k, st, line, HM_ACC_RMW, 0x3e, -1);
			l->pending = me;
			t->lk = LK_PEND;
			qspin_again(q, t, ti);
			return err ? err : 1;
		}
		/* queue: node->locked = 0, node->next = NULL on this CPU's qnodes[0]; xchg_tail(lock, tail) */
		err = qspin_access(q, t, k, st, s->qnode_line[t->cpu], HM_ACC_STORE, 0xc8, (int)t->cpu);
		if (!err)
			err = qspin_access(q, t, k, st, line, HM_ACC_RMW, 0xe4, -1);
		if (err)
			return err;
		prev = l->tail;
		l->tail = me;
		if (!prev) {
			t->lk = LK_HEAD;
			qspin_again(q, t, ti);
			return 1;
		}
		/* WRITE_ONCE(prev->next, node), then spin on node->locked: asleep until the hand-off */
		err = qspin_access(q, t, k, st, s->qnode_line[s->th[prev - 1].cpu], HM_ACC_STORE, 0x118,
				   (int)s->th[prev - 1].cpu);
		s->th[prev - 1].qnext = me;
		t->lk = LK_QUEUED;
		hm_sched__hold(q->q, UINT64_MAX);
		return err ? err : 1;
	case LK_PEND:
		/* smp_cond_load_acquire(&lock->locked, !VAL) */
		err = qspin_access(q, t, k, st, line, HM_ACC_LOAD, 0x6c, -1);
		if (err)
			return err;
		if (l->locked) {
			qspin_again(q, t, ti);
			return 1;
		}
		/* clear_pending_set_locked: one 16-bit store */
		l->pending = 0;
		l->locked = me;
		t->lk = LK_NONE;
		*acq = HM_ACC_STORE;
		*ipoff = 0x7a;
		return 0;
	case LK_WOKEN:
		/* arch_mcs_spin_lock_contended: the load that sees node->locked written */
		err = qspin_access(q, t, k, st, s->qnode_line[t->cpu], HM_ACC_LOAD, 0x150, (int)t->cpu);
		if (err)
			return err;
		t->lk = LK_HEAD;
		/* fall through */
	case LK_HEAD:
	default:
		/* atomic_cond_read_acquire(&lock->val, !(VAL & _Q_LOCKED_PENDING_MASK)) */
		err = qspin_access(q, t, k, st, line, HM_ACC_LOAD, 0x184, -1);
		if (err)
			return err;
		if (l->locked || l->pending) {
			qspin_again(q, t, ti);
			return 1;
		}
		t->lk = LK_NONE;
		l->locked = me;
		*ipoff = 0x1a4;
		if (l->tail == me) {
			/* the last in the queue: atomic_try_cmpxchg_relaxed(&lock->val, &val, LOCKED) */
			l->tail = 0;
			*acq = HM_ACC_RMW;
			return 0;
		}
		/* set_locked, then hand the queue head to the successor */
		*acq = HM_ACC_STORE;
		*handoff = t->qnext;
		t->qnext = 0;
		return 0;
	}
}

/*
 * After set_locked: smp_cond_load_relaxed(&node->next, VAL) (the successor
 * wrote it), arch_mcs_spin_unlock_contended(&next->locked), and the
 * successor wakes as the queue head.
 */
static int qspin_handoff(struct qspin_ctx *q, u32 ti, u64 k, const struct hm_sim_step *st, u16 next)
{
	struct hm_sim *s = q->s;
	struct hm_sim_thread *t = &s->th[ti], *n = &s->th[next - 1];
	int err;

	err = qspin_access(q, t, k, st, s->qnode_line[t->cpu], HM_ACC_LOAD, 0x1b8, (int)t->cpu);
	if (!err)
		err = qspin_access(q, t, k, st, s->qnode_line[n->cpu], HM_ACC_STORE, 0x1c6, (int)n->cpu);
	if (n->time < t->time)
		n->time = t->time;
	n->lk = LK_WOKEN;
	hm_sched__add(q->q, (n->time << TID_BITS) | (next - 1));
	return err;
}

void hm_sim__template(const struct hm_sim *s, enum hm_sim_op op, struct hm_sim_tmpl *t)
{
	struct hm_sim_tctx c;

	memset(&c, 0, sizeof(c));
	c.k = s->kmod;
	c.bl = &s->fm.layout;
	c.fl = &s->fm.fph;
	c.ml = &s->fm.mm;
	c.shared = s->o.shared;
	c.private_hash = s->lay.fph != 0;
	c.thp = s->o.thp;
	c.mm_unique_id = hm_sim__mm_unique_id(s->kmod);
	hm_sim__build_template(&c, op, t);
}

int hm_sim__run(struct hm_sim *s)
{
	struct hm_sim_tmpl tp;
	struct hm_sched *q = NULL;
	struct qspin_ctx qc;
	struct hm_sim_step acs;
	enum hm_acc acq;
	u16 handoff;
	u64 end_cycles = UINT64_MAX, target_ops = s->o.ops, total_ops = 0, rng = s->o.seed;
	u64 traced = 0;
	/*
	 * With many threads, an op's lines are evicted from the host's caches by
	 * the other threads' ops before it starts.  A calendar of op starts (by
	 * simulated time, CAL_SHIFT cycles a bucket) prefetches each thread's
	 * next futex's lines CAL_LEAD cycles before that op starts.  It only
	 * touches the host's caches: the simulation is the same without it.
	 */
	struct cal *cal = NULL;
	u64 cal_next = 0;
	/* the next clock at which the calendar runs or the run ends: one compare an access */
	u64 check_at;
	const bool steps = s->o.count_steps;
	bool ops_done = false;
	u32 ti;
	u64 (*cnt)[3][HM_SRC__MAX] = NULL;	/* accesses by template step, access and source */
	bool tracing, sampling;
	const bool intel = s->m.vendor == HM_VENDOR_INTEL;
	const u32 ldlat = s->o.ldlat, period = s->o.period;
	u32 *ld_left, *st_left;
	u64 tip[HM_SIM_MAX_STEPS];	/* code address of each step */
	bool pref[HM_SIM_MAX_STEPS];	/* the step's line is not a hot singleton: prefetch it */
	struct line_src lsrc[HM_SIM_MAX_STEPS];	/* where each step's line is */
	char before[32];
	u32 i, n;
	int err = 0;
	struct timespec t0, t1;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (i = 0; i < HM_K__MAX; i++)
		ksym_addr[i] = hm_sim_ksym__addr((int)i);
	hm_sim__template(s, HM_SIM_OP_WAIT, &tp);
	for (n = 0; n < tp.n; n++) {
		struct hm_sim_step *st = &tp.st[n];
		u64 a = 0;

		if (st->obj == HM_OBJ_FPH)
			a = s->lay.fph + st->off;
		else if (st->obj == HM_OBJ_MM)
			a = s->lay.mm + st->off;
		else if (st->obj == HM_OBJ_GLOBAL)
			a = s->lay.futex_data + st->off;
		if (a) {
			st->line = hm_coh__line(s->coh, a, phys_node(s, sim_phys(s, a)));
			if (st->line == UINT32_MAX)
				return -ENOMEM;
		}
	}
	s->tp = tp;
	for (n = 0; n < tp.n; n++) {
		u8 o = tp.st[n].obj;

		tip[n] = ksym_addr[tp.st[n].ksym] + tp.st[n].ipoff;
		/* the mm, the private hash, __futex_data, the per-CPU counter: L1 hits, hot in the host's cache */
		pref[n] = !(o == HM_OBJ_MM || o == HM_OBJ_FPH || o == HM_OBJ_GLOBAL || o == HM_OBJ_PCPU);
		line_src__init(&lsrc[n], s, &tp.st[n]);
	}
	if (s->o.output) {
		u64 srng = s->o.seed ^ 0x5eed5eed5eedULL;

		s->ld_left = calloc(s->m.nr_cpus, sizeof(u32));
		s->st_left = calloc(s->m.nr_cpus, sizeof(u32));
		if (!s->ld_left || !s->st_left)
			return -ENOMEM;
		for (i = 0; i < s->m.nr_cpus; i++) {
			/* counters start at a seeded point of their period */
			s->ld_left[i] = 1 + (u32)(hm_sim__splitmix(&srng) % s->o.period);
			s->st_left[i] = 1 + (u32)(hm_sim__splitmix(&srng) % s->o.period);
		}
		s->sp = hm_sampler__new(s, s->o.output);
		if (!s->sp)
			return -errno;
	}
	if (s->o.truth || s->o.output || s->o.want_truth) {
		s->truth = hm_truth__new(s);
		if (!s->truth)
			return -ENOMEM;
	}
	if (!target_ops && s->o.seconds <= 0)
		target_ops = 2ULL * s->nr_threads * s->o.futexes;
	if (s->o.seconds > 0)
		end_cycles = (u64)(s->o.seconds * s->m.ghz * 1e9);
	if (s->nr_threads > 64) {
		cal = calloc(1, sizeof(*cal));
		if (!cal)
			return -ENOMEM;
	}
	q = hm_sched__new(s->nr_threads);
	cnt = calloc(HM_SIM_MAX_STEPS, sizeof(*cnt));
	if (!q || !cnt) {
		hm_sched__delete(q);
		free(cnt);
		free(cal);
		return -ENOMEM;
	}
	qc.s = s;
	qc.q = q;
	qc.traced = &traced;
	qc.before = before;
	qc.steps = steps;
	tracing = s->o.trace > 0;
	check_at = cal ? 0 : end_cycles;
	sampling = s->sp != NULL;
	ld_left = s->ld_left;
	st_left = s->st_left;
	/* start skew: threads are released by a condition variable broadcast */
	for (i = 0; i < s->nr_threads; i++) {
		s->th[i].time = hm_sim__splitmix(&rng) % 2000;
		s->th[i].j = 0;
		hm_sched__add(q, (s->th[i].time << TID_BITS) | i);
	}

	while ((ti = hm_sched__next(q)) != HM_SCHED_NONE) {
		struct hm_sim_thread *t = &s->th[ti];
		u64 k = (u64)ti * s->o.futexes + t->j;
		const struct hm_sim_step *st = &tp.st[t->step];
		struct hm_coh_result r;
		u32 line = line_src__get(&lsrc[t->step], k, t->cpu);
		u64 ip = tip[t->step];
		u64 cost;

		if (__builtin_expect(t->time >= check_at, 0)) {
			if (cal && (t->time >> CAL_SHIFT) >= cal_next)
				cal_next = cal_run(s, cal, cal_next, t->time >> CAL_SHIFT);
			check_at = end_cycles;
			if (cal && (cal_next << CAL_SHIFT) < check_at)
				check_at = cal_next << CAL_SHIFT;
			if (ops_done)
				check_at = 0;
			if (t->time >= end_cycles || ops_done) {
				/* this thread is done: drop it */
				hm_sched__hold(q, UINT64_MAX);
				continue;
			}
		}
		acq = (enum hm_acc)st->acc;
		handoff = 0;
		if (st->kind == HM_STEP_LOCK) {
			u32 ipoff = 0;
			int rc;

			rc = qspin_lock(&qc, ti, k, st, line, &acq, &ipoff, &handoff);

			if (rc < 0) {
				err = rc;
				break;
			}
			if (rc > 0)
				continue;	/* spinning, or queued */
			if (ipoff || acq != st->acc) {
				s->res.lock_wait += t->time - t->lk_since;
				/* taken in the slowpath: the access that takes it */
				acs = *st;
				acs.acc = (u8)acq;
				acs.ksym = HM_K_QSPIN_SLOWPATH;
				acs.ipoff = (u16)ipoff;
				acs.locked = acq == HM_ACC_RMW;
				st = &acs;
				ip = ksym_addr[HM_K_QSPIN_SLOWPATH] + ipoff;
			}
		}
		if (__builtin_expect(tracing, 0) && traced < s->o.trace)
			line_state(s->coh, line, before, sizeof(before));
		hm_coh__access_core(s->coh, t->cpu, t->core, line, acq, t->time, &r);
		if (__builtin_expect(tracing, 0) && traced < s->o.trace && s->o.trace_fn) {
			traced++;
			trace_one(s, t, k, st, ip, line, before, &r);
		}
		if (st->kind == HM_STEP_UNLOCK)
			s->coh->lines[line].lock.locked = 0;
		if (sampling) {
			/* account(), with the counters' constants in locals */
			u32 cpu = t->cpu;

			if (intel) {
				if (acq != HM_ACC_STORE && r.weight > ldlat && !--ld_left[cpu]) {
					ld_left[cpu] = period;
					err = emit(s, t, k, st, ip, &r, false, line);
				}
				if (!err && acq != HM_ACC_LOAD && !--st_left[cpu]) {
					st_left[cpu] = period;
					err = emit(s, t, k, st, ip, &r, true, line);
				}
			} else if (!--ld_left[cpu]) {
				/* one counter over ops: an RMW is sampled as its load */
				ld_left[cpu] = period;
				err = emit(s, t, k, st, ip, &r, acq == HM_ACC_STORE, line);
			}
			if (err)
				break;
		}
		/*
		 * The population: by step, access and source here (the step
		 * gives the object and the field), into s->pop at the end.
		 */
		cnt[t->step][acq][r.src]++;
		cost = r.cost;
		if (__builtin_expect(handoff != 0, 0)) {
			t->time += cost;
			cost = 0;
			err = qspin_handoff(&qc, ti, k, st, handoff);
			if (err)
				break;
		}
		if (++t->step == tp.n) {
			t->step = 0;
			t->ops++;
			total_ops++;
			if (target_ops && total_ops >= target_ops) {
				ops_done = true;
				check_at = 0;
			}
			if (++t->j == s->o.futexes)
				t->j = 0;
			cost += s->m.lat[HM_LAT_SYSCALL];
			{
				const struct hm_sim_fut *nf = &s->fut[(u64)ti * s->o.futexes + t->j];
				u32 ahead = t->j + 8 < s->o.futexes ? t->j + 8 : 0;

				hm_coh__prefetch(s->coh, t->cpu, nf->bucket_line);
				hm_coh__prefetch(s->coh, t->cpu, nf->uword_line);
				/* the futexes of later ops */
				hm_prefetch(&s->fut[(u64)ti * s->o.futexes + ahead]);
				if (s->o.shared)
					hm_prefetch(&s->page_line[(u64)ti * s->o.futexes + ahead]);
			}
		}
		t->time += cost;
		/* warm the host caches for this thread's next access */
		if (pref[t->step]) {
			u32 nl = line_src__get(&lsrc[t->step], (u64)ti * s->o.futexes + t->j, t->cpu);

			hm_coh__prefetch(s->coh, t->cpu, nl);
			/*
			 * and the slot a miss will look at in the owner's L2 (the line's
			 * entry is warm: the calendar or this op's access brought it)
			 */
			if (t->step)
				hm_coh__prefetch_owner(s->coh, nl);
		}
		if (!t->step) {
			if (cal)
				cal_add(cal, cal_next, t->time, ti);
			else if (tp.n > 1)
				/* the op's bucket line was fetched at the end of the last op */
				hm_coh__prefetch_owner(s->coh, line_src__get(&lsrc[1], (u64)ti * s->o.futexes + t->j, t->cpu));
		}
		hm_sched__hold(q, (t->time << TID_BITS) | ti);
	}
	hm_sched__delete(q);
	free(cal);
	if (err) {
		free(cnt);
		return err;
	}
	for (n = 0; n < tp.n; n++) {
		u32 a, src;

		for (a = 0; a < 3; a++)
			for (src = 0; src < HM_SRC__MAX; src++)
				hm_pop__add(&s->pop, (u8)src, (u8)a, tp.st[n].obj, tp.st[n].field, n, steps,
					    cnt[n][a][src]);
	}
	free(cnt);
	s->res.ops = total_ops;
	s->res.accesses = s->coh->nr_accesses;
	memcpy(s->res.src, s->pop.load, sizeof(s->res.src));
	s->res.rmws = s->pop.rmw;
	s->res.stores = s->pop.store;
	{
		double sum = 0;

		for (i = 0; i < s->nr_threads; i++) {
			double sec = (double)s->th[i].time / (s->m.ghz * 1e9);

			if (s->th[i].time > s->res.cycles_max)
				s->res.cycles_max = s->th[i].time;
			if (sec > 0)
				sum += (double)s->th[i].ops / sec;
		}
		s->res.ops_per_sec_thread = s->nr_threads ? sum / s->nr_threads : 0;
	}
	if (s->sp) {
		s->res.samples = 0;
		err = hm_sampler__close(s->sp);
		if (err)
			return err;
	}
	if (s->truth && s->o.truth) {
		FILE *f = fopen(s->o.truth, "w");

		if (!f) {
			err = -errno;
			hm_err("%s: cannot create the truth file: %s", s->o.truth, strerror(errno));
			return err;
		}
		err = hm_truth__write_json(s->truth, f);
		if (fflush(f))
			err = -(errno ? errno : EIO);	/* the real cause, not write_json's EIO */
		else if (ferror(f) && !err)
			err = -EIO;
		if (fclose(f) && !err)
			err = -(errno ? errno : EIO);
		if (err) {
			hm_err("%s: cannot write the truth file: %s", s->o.truth, strerror(-err));
			return err;
		}
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	s->res.wall_s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
}
