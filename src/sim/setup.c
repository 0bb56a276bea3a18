// SPDX-License-Identifier: GPL-2.0-only
/*
 * Setting a simulation up: options, the machine, the kernel model and its
 * what-if layouts, thread placement, the layout of every object and the
 * futexes' buckets (layout.c); and tearing it down.  The run is workload.c.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include "sim/coherence.h"

static int build_ksyms(struct hm_sim *s)
{
	return hm_sim__ksyms_text(&s->ksyms, &s->ksyms_len);
}

/* ------------------------------------------------------------- setup */

void hm_sim_opts__init(struct hm_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->preset = "srf";
	o->kernel = "6.16-rc4";
	o->futexes = 1024;
	o->seed = 1;
	o->ldlat = 30;
	o->period = 1000;
	o->placement = HM_PLACE_PERF;
	o->pad_field = -1;
	o->drop_field = -1;
}

static int place_threads(struct hm_sim *s)
{
	const struct hm_machine *m = &s->m;
	u32 i;

	for (i = 0; i < s->nr_threads; i++) {
		struct hm_sim_thread *t = &s->th[i];
		u32 cpu;

		if (s->o.placement == HM_PLACE_PERF) {
			/* perf bench: thread i on the i-th online CPU */
			cpu = i % m->nr_cpus;
		} else if (s->o.placement == HM_PLACE_COMPACT) {
			/* fill one socket, SMT siblings included, before the next */
			u32 k = i % m->nr_cpus, per = m->cores * (m->smt ? m->smt : 1);
			u32 sock = k / per, rest = k % per;

			cpu = hm_machine__cpu(m, sock * m->cores + rest % m->cores, rest / m->cores);
		} else {
			/* alternate sockets, then cores, then SMT siblings */
			u32 k = i % m->nr_cpus;
			u32 sock = k % m->sockets, rest = k / m->sockets;
			u32 core = sock * m->cores + rest % m->cores, th = rest / m->cores;

			cpu = hm_machine__cpu(m, core, th);
		}
		t->cpu = cpu;
		t->core = m->cpu_core[cpu];
		t->socket = m->cpu_socket[cpu];
		t->tid = s->pid + 1 + i;
	}
	return 0;
}

/* What-if layouts: a field on its own line, a field removed, another table size. */
static int apply_whatif(struct hm_sim *s)
{
	struct hm_futex_layout *l = &s->fm.layout;
	const struct hm_sim_opts *o = &s->o;

	if (o->global_slots)
		s->fm.global_slots = o->global_slots;
	if (o->drop_field >= 0) {
		if (o->drop_field == HM_FUTEX_FIELD_WAITERS || o->drop_field == HM_FUTEX_FIELD_LOCK ||
		    o->drop_field >= HM_FUTEX_FIELD_PAD) {
			hm_err("--drop-field %s: the wait path cannot work without it; drop priv or chain",
			       hm_futex_field__name(o->drop_field));
			return -EINVAL;
		}
		if (l->offset[o->drop_field] < 0) {
			hm_err("--drop-field %s: kernel %s has no such field in struct futex_hash_bucket",
			       hm_futex_field__name(o->drop_field), s->kmod->name);
			return -EINVAL;
		}
		l->offset[o->drop_field] = -1;
	}
	if (o->pad_field >= 0) {
		if (o->pad_field >= HM_FUTEX_FIELD_PAD || l->offset[o->pad_field] < 0) {
			hm_err("--pad-field %s: kernel %s has no such field in struct futex_hash_bucket",
			       hm_futex_field__name(o->pad_field), s->kmod->name);
			return -EINVAL;
		}
		if (o->pad_field == o->drop_field) {
			hm_err("--pad-field and --drop-field name the same field");
			return -EINVAL;
		}
		/*
		 * The field ____cacheline_aligned_in_smp: the bucket grows to two
		 * lines, the field alone in the second.  Its alignment stays
		 * SMP_CACHE_BYTES (64; an aligned member raises a struct's
		 * alignment to its own, not to the struct's size), so queues[]
		 * of struct futex_private_hash, whose alignment is the bucket's
		 * (it has no attribute of its own), still starts at the first
		 * 64-byte boundary after the header: +64, as without the pad.
		 */
		l->offset[o->pad_field] = 64;
		l->bucket_size = 128;
	}
	if (o->pad_field >= 0 || o->drop_field >= 0 || o->global_slots)
		snprintf(l->source, sizeof(l->source), "what-if:%s", s->kmod->name);
	return 0;
}

struct hm_sim *hm_sim__new(const struct hm_sim_opts *o)
{
	struct hm_sim *s = calloc(1, sizeof(*s));
	int err = -ENOMEM, i;

	if (!s)
		goto fail_errno;
	s->o = *o;
	s->kmod = hm_sim_kernel__find(o->kernel);
	if (!s->kmod) {
		char names[256];

		hm_sim_kernel__names(names, sizeof(names));
		hm_err("--kernel %s: not a modelled kernel; use one of %s", o->kernel ? o->kernel : "(none)",
		       names);
		err = -EINVAL;
		goto fail;
	}
	s->release = s->kmod->release;
	if (hm_futex_kernel__parse(s->release, &s->kern)) {
		err = -EINVAL;
		goto fail;
	}
	s->era = s->kmod->era;
	err = hm_machine__preset(&s->m, o->preset ? o->preset : "srf");
	if (err)
		goto fail;
	err = hm_machine__finish(&s->m, o->sockets, o->cores, o->smt);
	if (err)
		goto fail;
	s->m.read_migrates = o->read_migrates;
	for (i = 0; i < o->nr_latency; i++) {
		err = hm_machine__set_latency(&s->m, o->latency[i]);
		if (err)
			goto fail;
	}
	if (!o->futexes || o->futexes > 1u << 20) {
		hm_err("--futexes %u: must be 1..1048576 per thread", o->futexes);
		err = -EINVAL;
		goto fail;
	}
	if (o->slots && (o->slots < 2 || (o->slots & (o->slots - 1)))) {
		hm_err("--slots %llu: PR_FUTEX_HASH_SET_SLOTS takes 0 (the global hash) or a power of two >= 2; fix: e.g. --slots 16",
		       (unsigned long long)o->slots);
		err = -EINVAL;
		goto fail;
	}
	if ((o->slots || o->slots_set) && !s->kmod->private_hash) {
		/* perf bench -b: prctl(PR_FUTEX_HASH, SET_SLOTS) fails, and perf bench exits */
		hm_err("--slots %llu: kernel %s has no private hash (prctl PR_FUTEX_HASH fails); use --kernel 6.16-rc4, 6.17 or later",
		       (unsigned long long)o->slots, o->kernel);
		err = -EINVAL;
		goto fail;
	}
	if (o->global_slots && (o->global_slots < 4 || (o->global_slots & (o->global_slots - 1)) ||
				o->global_slots > (1ULL << 24))) {
		hm_err("--global-slots %llu: a power of two 4..16777216", (unsigned long long)o->global_slots);
		err = -EINVAL;
		goto fail;
	}
	if (!o->period) {
		hm_err("--period 0: the sampling period must be at least 1");
		err = -EINVAL;
		goto fail;
	}
	s->pid = 4242;
	s->nr_threads = o->threads ? o->threads : s->m.nr_cpus;
	if (s->nr_threads > 4096) {
		hm_err("--threads %u: at most 4096", s->nr_threads);
		err = -EINVAL;
		goto fail;
	}
	s->th = calloc(s->nr_threads, sizeof(*s->th));
	if (!s->th)
		goto fail;
	err = hm_futex_model__init(&s->fm, s->era);
	if (err)
		goto fail;
	s->fm_init = true;
	err = hm_futex_model__set_machine(&s->fm, s->m.nr_cpus, s->m.sockets);
	if (err)
		goto fail;
	hm_sim__mm_layout(s->kmod, &s->fm.mm);
	err = apply_whatif(s);
	if (err)
		goto fail;
	place_threads(s);
	err = hm_sim__make_layout(s);
	if (err)
		goto fail;
	if (s->m.host_op) {
		/* the op host.c timed: private, with the private hash where the kernel has one */
		struct hm_sim_tmpl tp;
		struct hm_sim_tctx c = {
			.k = s->kmod, .bl = &s->fm.layout, .fl = &s->fm.fph, .ml = &s->fm.mm,
			.private_hash = s->kmod->private_hash,
			.mm_unique_id = hm_sim__mm_unique_id(s->kmod),
		};

		hm_sim__build_template(&c, HM_SIM_OP_WAIT, &tp);
		hm_machine__host_calibrate(&s->m, &tp);
	}
	err = hm_sim__register_tables(s);
	if (err)
		goto fail;
	s->coh = hm_coh__new(&s->m, s->nr_threads * (o->futexes / 8 + 8) + 1024);
	if (!s->coh) {
		err = -ENOMEM;
		goto fail;
	}
	err = hm_sim__hash_futexes(s);
	if (err)
		goto fail;
	err = build_ksyms(s);
	if (err)
		goto fail;
	return s;
fail:
	errno = -err;
fail_errno:
	hm_sim__delete(s);
	if (!errno)
		errno = ENOMEM;
	return NULL;
}

void hm_sim__delete(struct hm_sim *s)
{
	if (!s)
		return;
	hm_sampler__delete(s->sp);
	hm_truth__delete(s->truth);
	hm_coh__delete(s->coh);
	if (s->fm_init)
		hm_futex_model__release(&s->fm);
	hm_machine__release(&s->m);
	free(s->th);
	free(s->bucket);
	free(s->fut);
	free(s->ld_left);
	free(s->st_left);
	free(s->bucket_table);
	free(s->bucket_index);
	free(s->page_line);
	free(s->folio_line);
	free(s->pt_line);
	free(s->bucket_line2);
	free(s->pcpu_line);
	free(s->qnode_line);
	free(s->ksyms);
	free(s);
}
