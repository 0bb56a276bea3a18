// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap record's contention accounting: per lock address the
 * contention_begin events (and the workload's), and the futex uaddr -> hash
 * bucket pairs from sys_enter_futex; then the attribution of the contended
 * buckets to a futex hash table and index, which the file's metadata names.
 * The waits and the per-bucket summary are the report's, read back from the
 * written file (record-summary.c).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hitmap/futex.h>
#include "futex-tables.h"
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include <hitmap/topo.h>
#include "record/bpfpair.h"
#include "record/buildid.h"
#include "record/contention.h"
#include "record/evsel.h"
#include "record/mmap.h"
#include "record/record.h"
#include "record/record-int.h"

#define DEFINE_SET(name, type, keyexpr, hashexpr, eqexpr)					\
static type *name##__find(struct name *s, type *key, bool add)			\
{										\
	size_t i;								\
	if (add && (s->nr + 1) * 2 > s->cap) {					\
		struct name n = { NULL, s->cap ? s->cap * 2 : 1024, 0 };	\
		n.e = calloc(n.cap, sizeof(type));				\
		if (!n.e)							\
			return NULL;						\
		for (i = 0; i < s->cap; i++) {					\
			type *a = &s->e[i], *b;					\
			if (!(a->keyexpr))					\
				continue;					\
			b = name##__find(&n, a, false);				\
			*b = *a;						\
			n.nr++;							\
		}								\
		free(s->e);							\
		*s = n;								\
	}									\
	if (!s->cap)								\
		return NULL;							\
	i = (size_t)(((u64)(hashexpr) * 0x9e3779b97f4a7c15ULL) >> 20) & (s->cap - 1); \
	for (;; i = (i + 1) & (s->cap - 1)) {					\
		type *a = &s->e[i];						\
		if (!(a->keyexpr)) {						\
			if (!add)						\
				return a;					\
			*a = *key;						\
			s->nr++;						\
			return a;						\
		}								\
		if (eqexpr)							\
			return a;						\
	}									\
}

DEFINE_SET(lockset, struct lockent, addr, key->addr, a->addr == key->addr)
DEFINE_SET(pairset, struct pairent, uaddr, key->uaddr ^ (key->hb << 7), a->uaddr == key->uaddr && a->hb == key->hb)
DEFINE_SET(tidset, struct tident, tid, key->tid, a->tid == key->tid)

/* ------------------------------------------------------------ record parsing */

/* Event @idx as the perf.data sample decoder sees it (set up on first use). */
static const struct hm_evsel *dec_evsel(struct hm_rec_session *s, int idx)
{
	struct hm_evsel *e = &s->dec[idx];

	if (!s->dec_ready[idx]) {
		memset(e, 0, sizeof(*e));
		e->idx = idx;
		e->attr = s->ev[idx].attr;
		hm_evsel__derive(e);
		s->dec_ready[idx] = true;
	}
	return e;
}

static int evsel_of_id(const struct hm_rec_session *s, u64 id)
{
	int i, c;

	for (i = 0; i < s->nr_ev; i++)
		for (c = 0; c < s->ev[i].nr_cpus; c++)
			if (s->ev[i].id[c] == id)
				return i;
	return -1;
}

static u64 raw_field(const struct hm_sample *v, const struct hm_tp_field *f)
{
	u64 x = 0;

	if (f->offset < 0 || !v->raw || f->offset + f->size > (int)v->raw_size)
		return 0;
	if (f->size == 8)
		memcpy(&x, (const u8 *)v->raw + f->offset, 8);
	else if (f->size == 4) {
		u32 y;

		memcpy(&y, (const u8 *)v->raw + f->offset, 4);
		x = y;
	}
	return x;
}

void hm_rec__account(struct hm_rec_session *s, const struct perf_event_header *h)
{
	struct hm_sample v;
	struct tident tk = { 0 }, *t;
	u64 id;
	int idx;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	s->res->nr_samples++;
	/*
	 * Every evsel of a contention session has IDENTIFIER first: the id says
	 * whose layout the rest has (contention_begin alone carries a call
	 * chain, so decoding an end or a sys_enter_futex with its layout fails).
	 * A PMU session with one event may have no id: its layout is ev[0]'s.
	 */
	idx = -1;
	if ((s->ev[0].attr.sample_type & PERF_SAMPLE_IDENTIFIER) &&
	    h->size >= sizeof(*h) + sizeof(id)) {
		memcpy(&id, h + 1, sizeof(id));
		idx = evsel_of_id(s, id);
	}
	if (hm_sample__decode(dec_evsel(s, idx < 0 ? 0 : idx), h, h->size, &v))
		return;
	if (v.time && (v.sample_type & PERF_SAMPLE_TIME)) {
		if (!s->time_first || v.time < s->time_first)
			s->time_first = v.time;
		if (v.time > s->time_last)
			s->time_last = v.time;
	}
	if (s->ev_begin < 0 || idx < 0)
		return;
	tk.tid = v.tid ? v.tid : 0xffffffff;
	if (idx == s->ev_begin) {
		struct lockent lk = { 0 }, *l;

		s->res->nr_begin++;
		lk.addr = raw_field(&v, &s->ct.tp[HM_TP_BEGIN].f1);
		if (!lk.addr)
			return;
		l = lockset__find(&s->locks, &lk, true);
		if (!l)
			return;
		l->count++;
		if (s->child > 0 && (pid_t)v.pid == s->child)
			l->wl_count++;
		t = tidset__find(&s->tids, &tk, true);
		if (t) {
			if (t->uaddr) {
				struct pairent pk = { t->uaddr, lk.addr };

				pairset__find(&s->pairs, &pk, true);
				t->uaddr = 0;
			}
		}
	} else if (idx == s->ev_end) {
		/* the waits: the report's pairing, on the file (record-summary.c) */
		s->res->nr_end++;
	} else if (idx == s->ev_futex) {
		s->res->nr_futex_sys++;
		t = tidset__find(&s->tids, &tk, true);
		if (t)
			t->uaddr = raw_field(&v, &s->ct.tp[HM_TP_FUTEX].f1);
	}
}

/* ------------------------------------------------------------ futex attribution */

static int bucket_cmp(const void *a, const void *b)
{
	const struct hm_record_bucket *x = a, *y = b;

	if (x->events != y->events)
		return x->events < y->events ? 1 : -1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void hm_record_result__release(struct hm_record_result *r)
{
	if (r) {
		free(r->buckets);
		r->buckets = NULL;
		r->nr_rows = 0;
	}
}

void hm_rec__attribute(struct hm_rec_session *s, struct hm_meta *meta)
{
	struct hm_record_result *r = s->res;
	struct hm_futex_model m;
	struct hm_futex_table tab;
	bool have_model = hm_futex_geometry__this_machine(&m) == 0;
	struct hm_record_bucket *rows;
	u64 slots, best_base = 0, best_events = 0, *bases = NULL;
	u8 *predicted = NULL;
	int lock_off, i, t;
	bool private_tab;
	size_t k;

	r->table_kind = -1;
	if (!have_model)
		return;
	if (!s->wl) {
		/* a command: its futex addresses are unknown; keep the observed pairs only */
		lock_off = m.layout.offset[HM_FUTEX_FIELD_LOCK] >= 0 ? m.layout.offset[HM_FUTEX_FIELD_LOCK] : 4;
		goto out;
	}
	lock_off = m.layout.offset[HM_FUTEX_FIELD_LOCK] >= 0 ? m.layout.offset[HM_FUTEX_FIELD_LOCK] : 4;
	private_tab = s->wl && s->wl->slots > 0 && !s->o->wl.shared;
	slots = private_tab ? (u64)s->wl->slots : m.global_slots;
	if (!slots || !s->locks.cap)
		goto out;

	/* the workload's futexes, hashed: which private indices can appear */
	if (private_tab) {
		predicted = calloc(slots, 1);
		if (!predicted)
			goto out;
		for (t = 0; t < s->wl->nr_threads; t++)
			for (i = 0; i < s->wl->futexes; i++) {
				struct hm_futex_key key;

				hm_futex_key__private(&key, 0, s->wl->base[t] + 4 * (u64)i);
				predicted[hm_futex__hash_private(&key, slots)] = 1;
			}
	}
	/* candidate table base of every lock the workload contended; majority by events */
	bases = calloc(s->locks.cap, sizeof(*bases));
	if (!bases)
		goto out;
	for (k = 0; k < s->locks.cap; k++) {
		struct lockent *l = &s->locks.e[k];
		u64 base = 0, ev = 0;
		size_t j;

		if (!l->addr || !l->wl_count)
			continue;
		r->nr_locks++;
		/* buckets are cache-line aligned: &hb->lock sits at lock_off in its line */
		if ((l->addr - lock_off) % m.layout.bucket_size)
			continue;
		if (private_tab)
			hm_futex_geometry__private_base(l->addr - lock_off, slots, m.layout.bucket_size,
							m.fph.queues ? m.fph.queues : 64, &base);
		else
			hm_futex_geometry__global_base(l->addr - lock_off, slots, m.layout.bucket_size,
						       &base);
		bases[k] = base;
		for (j = 0; j < s->locks.cap; j++)
			if (bases[j] == base && s->locks.e[j].addr)
				ev += s->locks.e[j].wl_count;
		if (base && ev > best_events) {
			best_events = ev;
			best_base = base;
		}
	}
	if (!best_base)
		goto out;
	/* every lock in the table: index from the base; private: checked against the hash */
	for (k = 0; k < s->locks.cap; k++) {
		struct lockent *l = &s->locks.e[k];
		u64 hb, idx;

		if (!l->addr || !l->wl_count || bases[k] != best_base)
			continue;
		hb = l->addr - lock_off;
		if ((hb - best_base) % m.layout.bucket_size)
			continue;
		idx = (hb - best_base) / m.layout.bucket_size;
		if (idx >= slots)
			continue;
		r->nr_buckets++;
		r->bucket_events += l->wl_count;
		if (!predicted || predicted[idx])
			r->nr_buckets_attributed++;
		rows = realloc(r->buckets, (r->nr_rows + 1) * sizeof(*rows));
		if (rows) {
			struct hm_record_bucket *b = &rows[r->nr_rows++];

			r->buckets = rows;
			memset(b, 0, sizeof(*b));
			b->index = idx;
			b->addr = hb;
			b->events = l->wl_count;
			b->predicted = !predicted || predicted[idx];
		}
	}
	if (r->nr_rows)
		qsort(r->buckets, r->nr_rows, sizeof(*r->buckets), bucket_cmp);
	memset(&tab, 0, sizeof(tab));
	tab.kind = private_tab ? 1 : 0;
	tab.node = private_tab ? -1 : 0;
	tab.pid = private_tab ? s->wl->pid : -1;
	tab.base = best_base;
	tab.slots = slots;
	snprintf(tab.provenance, sizeof(tab.provenance), "contention+model");
	if (!hm_futex_model__add_table(&m, &tab) && meta)
		hm_futex_model__to_meta(&m, meta);
	r->table_kind = tab.kind;
	r->table_base = best_base;
	r->table_slots = slots;
	r->table_pid = tab.pid;
	/* --futex-bpf: the kernel's own pairing, checked against the model */
	if (private_tab && s->nr_bpf_pairs) {
		size_t q;

		for (q = 0; q < s->nr_bpf_pairs; q++) {
			const struct hm_bpf_pair *bp = &s->bpf_pairs[q];
			struct hm_futex_key key;
			u64 want;

			if ((pid_t)bp->tgid != s->wl->pid)
				continue;
			/* only bucket locks of this table: other locks taken in a futex call are not */
			if ((bp->lock - lock_off) % m.layout.bucket_size || bp->lock - lock_off < best_base ||
			    bp->lock - lock_off >= best_base + slots * m.layout.bucket_size) {
				r->bpf_not_bucket++;
				continue;
			}
			hm_futex_key__private(&key, 0, bp->uaddr);
			want = best_base + m.layout.bucket_size * hm_futex__hash_private(&key, slots);
			r->bpf_checked++;
			r->bpf_agree += bp->lock - lock_off == want;
		}
	}
	/* uaddr -> bucket pairs: observed in BPF, else computed for the private hash of the workload */
	if (private_tab && meta && !s->nr_bpf_pairs) {
		u64 n = (u64)s->wl->nr_threads * s->wl->futexes, j = 0;
		u64 *pairs = calloc(n * 2, sizeof(u64));

		for (t = 0; pairs && t < s->wl->nr_threads; t++)
			for (i = 0; i < s->wl->futexes; i++) {
				struct hm_futex_key key;
				u64 ua = s->wl->base[t] + 4 * (u64)i;

				hm_futex_key__private(&key, 0, ua);
				pairs[j++] = ua;
				pairs[j++] = best_base + m.layout.bucket_size *
					     hm_futex__hash_private(&key, slots);
			}
		if (pairs && n * 16 < 0xffffffffULL) {
			hm_meta__add(meta, HM_META_FUTEX_ADDRS, pairs, (u32)(n * 16));
			r->nr_pairs = n;
		}
		free(pairs);
	}
out:
	if (meta && s->nr_bpf_pairs && !r->nr_pairs) {
		u64 *pairs = calloc(s->nr_bpf_pairs * 2, sizeof(u64)), j = 0;

		for (k = 0; pairs && k < s->nr_bpf_pairs; k++) {
			pairs[j++] = s->bpf_pairs[k].uaddr;
			pairs[j++] = s->bpf_pairs[k].lock - lock_off;
		}
		if (pairs && j * 8 < 0xffffffffULL) {
			hm_meta__add(meta, HM_META_FUTEX_ADDRS, pairs, (u32)(j * 8));
			r->nr_pairs = j / 2;
		}
		free(pairs);
	}
	/* observed pairs from --futex-syscalls */
	if (meta && s->pairs.nr && !r->nr_pairs) {
		u64 *pairs = calloc(s->pairs.nr * 2, sizeof(u64)), j = 0;

		for (k = 0; pairs && k < s->pairs.cap; k++)
			if (s->pairs.e[k].uaddr) {
				pairs[j++] = s->pairs.e[k].uaddr;
				pairs[j++] = s->pairs.e[k].hb - lock_off;
			}
		if (pairs) {
			hm_meta__add(meta, HM_META_FUTEX_ADDRS, pairs, (u32)(j * 8));
			r->nr_pairs = j / 2;
		}
		free(pairs);
	}
	free(bases);
	free(predicted);
	hm_futex_model__release(&m);
}
