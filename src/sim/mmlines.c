// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache lines of struct mm_struct and struct futex_private_hash that the
 * futex path reads, with every field that shares them, per modelled kernel,
 * and who writes each field while perf bench futex hash runs.
 *
 * Source: the BTF of a 6.18.44 x86_64 build (/sys/kernel/btf/vmlinux of the
 * machine the notes were taken on; it carries the mm-reuse fix and
 * a734d9fca84e, so it is the layout of the 7.2 model), checked by
 * tests/unit/test-sim-mmlines.c wherever such a BTF is present.  The other
 * kernels differ only in the futex block, as their mm_types.h has it:
 *
 *   6.12      no futex fields (no private hash)
 *   6.16-rc4  futex_hash_lock, futex_phash, futex_phash_new
 *             (#ifdef CONFIG_FUTEX_PRIVATE_HASH)
 *   6.16      none: FUTEX_PRIVATE_HASH depends on BROKEN, the block is
 *             compiled out and the fields after it move up 48 bytes
 *   6.17/6.18 + futex_batches, futex_rcu, futex_atomic, futex_ref (56180dd20c19)
 *   7.2/7.3   + futex_unique_id in front (the 6.18.44 BTF)
 *
 * The fields before the futex block (mm_count ... mm_lock_seq) are taken
 * from the 6.18.44 BTF for every kernel; the model reads only mm->pgd there.
 */
#include <stdio.h>
#include <string.h>
#include "sim/sim.h"

struct mmf {
	const char	*name;
	u16		size;
	const char	*writer;	/* who writes it while the benchmark runs; NULL: nobody after setup */
};

/* 6.18.44 BTF, offsets 0..255 (mm_count sits alone in the first line) */
static const struct { const char *name; u16 off, size; const char *writer; } head[] = {
	{ "mm_count",		0,   4,  "mmgrab/mmdrop: lazy-TLB switches of idle CPUs" },
	{ "mm_mt",		64,  16, "mmap/munmap (maple tree)" },
	{ "mmap_base",		80,  8,  NULL },
	{ "mmap_legacy_base",	88,  8,  NULL },
	{ "mmap_compat_base",	96,  8,  NULL },
	{ "mmap_compat_legacy_base", 104, 8, NULL },
	{ "task_size",		112, 8,  NULL },
	{ "pgd",		120, 8,  NULL },
	{ "membarrier_state",	128, 4,  "membarrier()" },
	{ "mm_users",		132, 4,  "mmget/mmput (/proc readers, remote GUP)" },
	{ "pcpu_cid",		136, 8,  NULL },
	{ "mm_cid_next_scan",	144, 8,  "scheduler tick, every 100 ms (mm_cid scan)" },
	{ "nr_cpus_allowed",	152, 4,  "sched_setaffinity" },
	{ "max_nr_cid",		156, 4,  "mm_cid allocation on migration" },
	{ "cpus_allowed_lock",	160, 4,  "sched_setaffinity" },
	{ "pgtables_bytes",	168, 8,  "page-table allocation" },
	{ "map_count",		176, 4,  "mmap/munmap" },
	{ "page_table_lock",	180, 4,  "page-table allocation" },
	{ "mmap_lock",		184, 40, "mmap/munmap, faults that fall back to it" },
	{ "mmlist",		224, 16, "swapoff" },
	{ "vma_writer_wait",	240, 8,  "VMA write locking" },
	{ "mm_lock_seq",	248, 4,  "VMA write locking" },
};

static const struct mmf fut_unique = { "futex_unique_id", 8, NULL /* once, at the first shared futex */ };
static const struct mmf fut_616[] = {
	{ "futex_hash_lock",	32, "private hash resize (thread creation, prctl)" },
	{ "futex_phash",	8,  "private hash pivot (resize)" },
	{ "futex_phash_new",	8,  "private hash resize" },
};
static const struct mmf fut_617[] = {
	{ "futex_batches",	8,  "private hash pivot (resize)" },
	{ "futex_rcu",		16, "private hash resize (call_rcu)" },
	{ "futex_atomic",	8,  "private hash resize (atomic mode)" },
	{ "futex_ref",		8,  NULL },
};
static const struct mmf tail[] = {
	{ "hiwater_rss",	8,  "munmap, exit" },
	{ "hiwater_vm",		8,  "mmap growth" },
	{ "total_vm",		8,  "mmap/munmap/brk" },
	{ "locked_vm",		8,  "mlock" },
	{ "pinned_vm",		8,  "long-term pins" },
	{ "data_vm",		8,  "mmap/munmap/brk" },
	{ "exec_vm",		8,  "mmap of code" },
	{ "stack_vm",		8,  "stack growth" },
};

static u32 put(struct hm_sim_mmfield *f, u32 n, u32 cap, const char *name, u32 off, u32 size,
	       const char *writer)
{
	if (n < cap) {
		f[n].name = name;
		f[n].off = off;
		f[n].size = size;
		f[n].writer = writer;
	}
	return n + 1;
}

u32 hm_sim__mm_fields(const struct hm_sim_kernel *k, struct hm_sim_mmfield *f, u32 cap)
{
	u32 n = 0, off = 256, i;

	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		n = put(f, n, cap, head[i].name, head[i].off, head[i].size, head[i].writer);
	if (k->mm_seq) {
		n = put(f, n, cap, fut_unique.name, off, fut_unique.size, fut_unique.writer);
		off += fut_unique.size;
	}
	if (k->private_hash) {
		for (i = 0; i < sizeof(fut_616) / sizeof(fut_616[0]); i++) {
			n = put(f, n, cap, fut_616[i].name, off, fut_616[i].size, fut_616[i].writer);
			off += fut_616[i].size;
		}
		if (k->ref == HM_SIM_REF_PERCPU)
			for (i = 0; i < sizeof(fut_617) / sizeof(fut_617[0]); i++) {
				n = put(f, n, cap, fut_617[i].name, off, fut_617[i].size, fut_617[i].writer);
				off += fut_617[i].size;
			}
	}
	for (i = 0; i < sizeof(tail) / sizeof(tail[0]); i++) {
		n = put(f, n, cap, tail[i].name, off, tail[i].size, tail[i].writer);
		off += tail[i].size;
	}
	return n;
}

s32 hm_sim__mm_field_off(const struct hm_sim_kernel *k, const char *name)
{
	struct hm_sim_mmfield f[HM_SIM_MM_FIELDS_MAX];
	u32 n = hm_sim__mm_fields(k, f, HM_SIM_MM_FIELDS_MAX), i;

	for (i = 0; i < n && i < HM_SIM_MM_FIELDS_MAX; i++)
		if (!strcmp(f[i].name, name))
			return (s32)f[i].off;
	return -1;
}

u32 hm_sim__fph_fields(const struct hm_sim_kernel *k, struct hm_sim_mmfield *f, u32 cap)
{
	u32 n = 0;

	if (!k->private_hash)
		return 0;
	/* 6.16: rcuref_t users; 6.17+: int state (the per-CPU reference's mode) */
	if (k->ref == HM_SIM_REF_RCUREF)
		n = put(f, n, cap, "users", 0, 4, "every private futex op (rcuref_get/put)");
	else
		n = put(f, n, cap, "state", 0, 4, "private hash resize (atomic mode)");
	n = put(f, n, cap, "hash_mask", 4, 4, NULL);
	n = put(f, n, cap, "rcu", 8, 16, "kvfree_rcu when replaced");
	n = put(f, n, cap, "mm", 24, 8, NULL);
	n = put(f, n, cap, "custom", 32, 1, NULL);
	if (k->ref == HM_SIM_REF_RCUREF)
		n = put(f, n, cap, "immutable", 33, 1, NULL);
	/* queues[] is ____cacheline_aligned: the first bucket starts the next line */
	return n;
}

/* "a b c": the fields of @f[0..n) on the 64-byte line of @off. */
void hm_sim__line_fields(const struct hm_sim_mmfield *f, u32 n, u32 off, char *buf, size_t len)
{
	u32 line = off & ~63u, i;
	size_t used = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (i = 0; i < n; i++) {
		if (f[i].off + f[i].size <= line || f[i].off >= line + 64)
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? " " : "",
					 f[i].name);
		if (used >= len)
			break;
	}
}
