// SPDX-License-Identifier: GPL-2.0-only
/* Live futex table discovery during a recording (futex-tables.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/futex.h>
#include <hitmap/log.h>
#include "futex-tables.h"

struct hm_rec_futex {
	struct hm_futex_probe	*probe;
};

struct hm_rec_futex *hm_rec_futex__start(const char *bpf_obj, int pid, char *why, size_t why_size)
{
	char buf[4096];
	const char *path = hm_futex_verify__bpf_path(bpf_obj, buf, sizeof(buf));
	struct hm_rec_futex *f;
	const char *no = NULL;

	if (why && why_size)
		why[0] = 0;
	/* preconditions first: a machine that cannot still records, without an error line */
	if (geteuid())
		no = "not root";
	else if (access(path, R_OK))
		no = "no verify.bpf.o beside hitmap (needs clang at build time)";
	else if (access("/sys/kernel/btf/vmlinux", R_OK))
		no = "no /sys/kernel/btf/vmlinux";
	if (no) {
		if (why && why_size)
			snprintf(why, why_size, "futex tables not discovered live: %s", no);
		hm_debug("record: futex tables not discovered live: %s", no);
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->probe = hm_futex_probe__new(path, pid);
	if (!f->probe) {
		if (why && why_size)
			snprintf(why, why_size, "futex tables not discovered live: %s",
				 hm_log__last_error()[0] ? hm_log__last_error() : strerror(errno));
		free(f);
		return NULL;
	}
	return f;
}

void hm_rec_futex__delete(struct hm_rec_futex *f)
{
	if (!f)
		return;
	hm_futex_probe__delete(f->probe);
	free(f);
}

/* Tables already in @meta (the built-in workload's own attribution). */
static bool in_meta(const struct hm_futex_model *old, const struct hm_futex_table *t)
{
	for (u32 i = 0; i < old->nr_tables; i++)
		if (old->tables[i].kind == t->kind && old->tables[i].base == t->base)
			return true;
	return false;
}

int hm_rec_futex__finish(struct hm_rec_futex *f, struct hm_meta *meta, char *sum, size_t sum_size)
{
	struct hm_futex_model m, old, add;
	struct hm_futex_probe_seen *seen = NULL;
	size_t ns = 0, q;
	int err, n = 0, nprivate = 0, nglobal = 0;

	if (sum && sum_size)
		sum[0] = 0;
	if (!f || !meta)
		return 0;
	err = hm_futex_geometry__this_machine(&m);
	if (err)
		return err;
	hm_futex_model__init(&old, m.era);
	hm_futex_model__init(&add, m.era);
	hm_futex_mm_layout__from_btf(NULL, &m.mm);
	add.layout = m.layout;
	add.fph = m.fph;
	add.mm = m.mm;
	hm_futex_model__from_meta(&old, meta);
	err = hm_futex_probe__collect(f->probe, &m);
	if (err < 0)
		goto out;
	for (u32 i = 0; i < m.nr_tables; i++) {
		if (in_meta(&old, &m.tables[i]))
			continue;
		err = hm_futex_model__add_table(&add, &m.tables[i]);
		if (err < 0)
			goto out;
		if (m.tables[i].kind)
			nprivate++;
		else
			nglobal++;
		n++;
	}
	for (u32 i = 0; i < m.nr_mms; i++)
		hm_futex_model__add_mm(&add, m.mms[i].pid, m.mms[i].addr);
	if (n || add.nr_mms) {
		err = hm_futex_model__to_meta(&add, meta);
		if (err < 0)
			goto out;
	}
	/* when each private hash was in use */
	if (!hm_futex_probe__seen(f->probe, m.fph.queues, &seen, &ns) && ns) {
		u64 *v = calloc(4 * ns, sizeof(*v));

		for (q = 0; v && q < ns; q++) {
			v[4 * q] = (u64)(s64)seen[q].pid;
			v[4 * q + 1] = seen[q].base;
			v[4 * q + 2] = seen[q].first_ns;
			v[4 * q + 3] = seen[q].last_ns;
		}
		if (v && ns * 32 < 0xffffffffull)
			hm_meta__add(meta, HM_META_FUTEX_VALID, v, (u32)(ns * 32));
		free(v);
	}
	if (sum && sum_size)
		snprintf(sum, sum_size, "futex tables seen live: %d private (%zu private hashes over time), %d global%s",
			 nprivate, ns, nglobal, nglobal ? "" : " (global tables need a contended bucket lock)");
	err = n;
out:
	free(seen);
	hm_futex_model__release(&m);
	hm_futex_model__release(&old);
	hm_futex_model__release(&add);
	return err;
}
