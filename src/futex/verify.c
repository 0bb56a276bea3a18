// SPDX-License-Identifier: GPL-2.0-only
/*
 * Live check of the hash model against the running kernel, by observation
 * (notes 2.10, 5.3, 5.4): a thread of this process parks in FUTEX_WAIT on a
 * known address; a BPF program (verify.bpf.c) reads the waiters word of
 * every bucket; the one bucket whose count went up is the bucket the kernel
 * used, and it is compared with the model's prediction.
 *   private: mm->futex_phash of this process (set to N slots by prctl).
 *   shared:  a shared FUTEX_WAIT on private anonymous memory (MMSHARED key,
 *            mm pointer from current->mm); the global table base is found
 *            first from lock:contention_begin on a contended bucket lock
 *            paired with the futex uaddr, then the 512-bucket table is read.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <hitmap/futex.h>
#include <hitmap/log.h>
#include "util/bpf-log.h"
#include "prctl-hash.h"

#define MAX_BUCKETS	1024

struct hm_vcfg {
	u32 tgid, nr;
	u64 base;
	u32 stride, waiters_off, task_mm, mm_phash, fph_mask, fph_queues;
	u32 watch_all, lock_off, mm_useq, pad;
};
struct hm_vsnap {
	u64 seq, mm, fph, base, mm_seq;
	u32 hash_mask, nr;
	u32 waiters[MAX_BUCKETS];
};
struct hm_vpair { u64 uaddr, lock; u32 tgid, op; };
struct hm_vproc { u64 mm, fph; u32 hash_mask, pad; u64 mm_seq; };

struct verify {
	struct bpf_object	*obj;
	struct bpf_link		*links[8];
	int			nr_links;
	int			cfg_fd, snap_fd, pairs_fd, ulock_fd;
	struct hm_vcfg		cfg;
	struct hm_futex_model	model;
	/* worker protocol */
	pthread_t		worker;
	bool			worker_up;
	u32			*cmd_addr;	/* set before cmd is, read after */
	int			cmd;		/* atomic: 0 idle, 1 wait, 2 done, 3 quit */
	int			cmd_op;
};

static long sys_futex(u32 *uaddr, int op, u32 val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void *worker_main(void *arg)
{
	struct verify *v = arg;

	for (;;) {
		int c;

		while ((c = __atomic_load_n(&v->cmd, __ATOMIC_ACQUIRE)) == 0 || c == 2)
			sched_yield();
		if (c == 3)
			break;
		sys_futex(v->cmd_addr, v->cmd_op, 0);
		__atomic_store_n(&v->cmd, 2, __ATOMIC_RELEASE);
	}
	return NULL;
}

static const char *bpf_path(const struct hm_futex_verify_opts *o, char *buf, size_t size);

const char *hm_futex_verify__bpf_path(const char *bpf_obj, char *buf, size_t size)
{
	struct hm_futex_verify_opts o = { .bpf_obj = bpf_obj };

	return bpf_path(&o, buf, size);
}

static const char *bpf_path(const struct hm_futex_verify_opts *o, char *buf, size_t size)
{
	const char *e = getenv("HITMAP_VERIFY_BPF");
	ssize_t n;
	char *slash;

	if (o->bpf_obj)
		return o->bpf_obj;
	if (e && *e)
		return e;
	n = readlink("/proc/self/exe", buf, size - 16);
	if (n <= 0)
		return "verify.bpf.o";
	buf[n] = 0;
	slash = strrchr(buf, '/');
	strcpy(slash ? slash + 1 : buf, "verify.bpf.o");
	return buf;
}

static void verify_close(struct verify *v)
{
	int i;

	if (v->worker_up) {
		__atomic_store_n(&v->cmd, 3, __ATOMIC_RELEASE);
		pthread_join(v->worker, NULL);
		v->worker_up = false;
	}
	for (i = 0; i < v->nr_links; i++)
		bpf_link__destroy(v->links[i]);
	v->nr_links = 0;
	bpf_object__close(v->obj);
	v->obj = NULL;
	hm_futex_model__release(&v->model);
}

/* An object built from an older verify.bpf.c has other map values: refuse it rather than misread them. */
static bool bpf_maps_match(struct bpf_object *obj)
{
	static const struct { const char *name; u32 size; } want[] = {
		{ "cfg", sizeof(struct hm_vcfg) }, { "snap", sizeof(struct hm_vsnap) },
		{ "procs", sizeof(struct hm_vproc) },
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(obj, want[i].name);

		if (m && bpf_map__value_size(m) != want[i].size)
			return false;
	}
	return true;
}

static int bpf_open(struct verify *v, const struct hm_futex_verify_opts *o, s32 tgid, bool watch_all)
{
	char buf[4096];
	const char *path = bpf_path(o, buf, sizeof(buf));
	struct bpf_program *p;
	struct hm_futex_mm_layout ml;
	int err;
	u32 k = 0;

	err = hm_futex_geometry__this_machine(&v->model);
	if (err)
		return err;
	if (hm_futex_mm_layout__from_btf(NULL, &ml) || ml.task_mm < 0) {
		hm_err("/sys/kernel/btf/vmlinux: no task_struct.mm in BTF; --verify needs a kernel with CONFIG_DEBUG_INFO_BTF");
		return -ENOENT;
	}
	v->model.mm = ml;
	hm_bpf_log__install();
	if (access(path, R_OK)) {
		hm_err("%s: BPF object not found; build it with 'clang -O2 -g -target bpf -I/usr/include/$(uname -m)-linux-gnu -c src/futex/verify.bpf.c -o %s' or pass --bpf-obj", path, path);
		return -ENOENT;
	}
	v->obj = bpf_object__open_file(path, NULL);
	if (!v->obj) {
		err = -errno;
		hm_err("%s: not a BPF object (%s); rebuild it from src/futex/verify.bpf.c", path, strerror(-err));
		return err;
	}
	if (!bpf_maps_match(v->obj)) {
		hm_err("%s: its maps do not match this hitmap; rebuild it from src/futex/verify.bpf.c", path);
		return -EINVAL;
	}
	err = bpf_object__load(v->obj);
	if (err) {
		hm_err("%s: the kernel refused the BPF programs (%s); run as root (CAP_BPF, CAP_PERFMON) on a kernel with BPF tracepoint programs", path, strerror(-err));
		return err;
	}
	v->cfg_fd = bpf_object__find_map_fd_by_name(v->obj, "cfg");
	v->snap_fd = bpf_object__find_map_fd_by_name(v->obj, "snap");
	v->pairs_fd = bpf_object__find_map_fd_by_name(v->obj, "pairs");
	v->ulock_fd = bpf_object__find_map_fd_by_name(v->obj, "ulock");
	if (v->cfg_fd < 0 || v->snap_fd < 0 || v->pairs_fd < 0 || v->ulock_fd < 0) {
		hm_err("%s: maps cfg/snap/pairs/ulock missing; rebuild it from src/futex/verify.bpf.c", path);
		return -EINVAL;
	}
	memset(&v->cfg, 0, sizeof(v->cfg));
	v->cfg.tgid = tgid;
	v->cfg.watch_all = watch_all;
	v->cfg.stride = v->model.layout.bucket_size;
	v->cfg.waiters_off = v->model.layout.offset[HM_FUTEX_FIELD_WAITERS];
	v->cfg.task_mm = ml.task_mm;
	v->cfg.mm_phash = ml.offset[HM_FUTEX_MM_futex_phash] > 0 ? ml.offset[HM_FUTEX_MM_futex_phash] : 0;
	v->cfg.fph_mask = v->model.fph.hash_mask >= 0 ? v->model.fph.hash_mask : 4;
	v->cfg.fph_queues = v->model.fph.queues;
	v->cfg.lock_off = v->model.layout.offset[HM_FUTEX_FIELD_LOCK];
	v->cfg.mm_useq = ml.unique_id > 0 ? ml.unique_id : 0;
	err = bpf_map_update_elem(v->cfg_fd, &k, &v->cfg, BPF_ANY);
	if (err)
		return -errno;
	bpf_object__for_each_program(p, v->obj) {
		struct bpf_link *l = bpf_program__attach(p);

		if (!l) {
			err = -errno;
			hm_err("BPF program %s: attach failed (%s); needs tracepoints (tracefs) and root",
			       bpf_program__name(p), strerror(-err));
			return err;
		}
		if (v->nr_links < 8)
			v->links[v->nr_links++] = l;
	}
	return 0;
}

static int verify_open(struct verify *v, const struct hm_futex_verify_opts *o)
{
	int err = bpf_open(v, o, getpid(), false);

	if (err)
		return err;
	if (pthread_create(&v->worker, NULL, worker_main, v))
		return -EAGAIN;
	v->worker_up = true;
	return 0;
}

static int set_cfg(struct verify *v, u64 base, u32 nr)
{
	u32 k = 0;

	v->cfg.base = base;
	v->cfg.nr = nr;
	return bpf_map_update_elem(v->cfg_fd, &k, &v->cfg, BPF_ANY) ? -errno : 0;
}

static int snapshot(struct verify *v, struct hm_vsnap *s)
{
	u32 k = 0;

	syscall(SYS_getppid);
	return bpf_map_lookup_elem(v->snap_fd, &k, s) ? -errno : 0;
}

static u64 rnd(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Park the worker on @addr with @op, find the one bucket whose waiters count
 * went up.  Returns the index, -1 when no single bucket was seen.
 */
static long observe(struct verify *v, u32 *addr, int op, const struct hm_vsnap *before,
		    struct hm_vsnap *now)
{
	long found = -1;
	int tries, spins;

	v->cmd_addr = addr;
	v->cmd_op = op;
	__atomic_store_n(&v->cmd, 1, __ATOMIC_RELEASE);
	for (tries = 0; tries < 20000; tries++) {
		u32 i, nch = 0, idx = 0;
		bool bad = false;

		if (snapshot(v, now))
			break;
		if (now->fph != before->fph || now->base != before->base || now->nr != before->nr)
			break;		/* the hash was replaced under us */
		for (i = 0; i < now->nr && i < MAX_BUCKETS; i++) {
			if (now->waiters[i] == before->waiters[i])
				continue;
			if (now->waiters[i] != before->waiters[i] + 1)
				bad = true;
			nch++;
			idx = i;
		}
		if (nch == 1 && !bad) {
			found = idx;
			break;
		}
		if (nch > 1 && tries > 200)
			break;
		if (__atomic_load_n(&v->cmd, __ATOMIC_ACQUIRE) == 2)
			break;		/* the wait returned: nothing to see */
		sched_yield();
	}
	/* release the worker: change the word so a late wait returns at once */
	__atomic_store_n(addr, 1, __ATOMIC_RELEASE);
	for (spins = 0; __atomic_load_n(&v->cmd, __ATOMIC_ACQUIRE) != 2; spins++) {
		sys_futex(addr, (op & FUTEX_PRIVATE_FLAG) | FUTEX_WAKE, INT_MAX);
		sched_yield();
	}
	__atomic_store_n(&v->cmd, 0, __ATOMIC_RELEASE);
	return found;
}

static u32 *pick(u8 *arena, size_t size, u8 *used, u64 *seed)
{
	for (;;) {
		u64 w = rnd(seed) % (size / 4);

		if (used[w / 8] & (1u << (w % 8)))
			continue;
		used[w / 8] |= 1u << (w % 8);
		return (u32 *)(arena + w * 4);
	}
}

/* Shared with the hammering threads: read and written atomically. */
struct hammer2 {
	u32		*target;
	int		op;
	int		quit;
};

static void *hammer2_main(void *arg)
{
	struct hammer2 *h = arg;

	while (!__atomic_load_n(&h->quit, __ATOMIC_ACQUIRE)) {
		u32 *a = __atomic_load_n(&h->target, __ATOMIC_ACQUIRE);

		if (a)
			sys_futex(a, __atomic_load_n(&h->op, __ATOMIC_RELAXED), 0xffffffffu);	/* value differs: lock, compare, EAGAIN */
		else
			sched_yield();
	}
	return NULL;
}

/* Hammer @a from 2 threads until a bucket lock is contended; its bucket address, or 0. */
static u64 observe_contention(struct verify *v, struct hammer2 *h, u32 *a, int op)
{
	u64 key = (u64)(uintptr_t)a, lock = 0;
	struct timespec ts = { 0, 100 * 1000 };
	int tries;

	__atomic_store_n(&h->op, op, __ATOMIC_RELAXED);
	__atomic_store_n(&h->target, a, __ATOMIC_RELEASE);
	for (tries = 0; tries < 5000; tries++) {	/* 0.5 s */
		if (!bpf_map_lookup_elem(v->ulock_fd, &key, &lock))
			break;
		lock = 0;
		nanosleep(&ts, NULL);
	}
	__atomic_store_n(&h->target, NULL, __ATOMIC_RELEASE);
	return lock ? lock - v->cfg.lock_off : 0;
}

static int contention_loop(struct verify *v, const struct hm_futex_verify_opts *o,
			   struct hm_futex_verify_result *r, u8 *arena, size_t size, u8 *used, u64 *seed,
			   bool private_op, u64 mm, u64 base, u64 slots)
{
	struct hammer2 h = { 0 };
	pthread_t th[2];
	u32 i;
	int n, err = 0;

	for (n = 0; n < 2; n++)
		if (pthread_create(&th[n], NULL, hammer2_main, &h))
			break;
	if (n < 2) {
		err = -EAGAIN;
		goto out;
	}
	for (i = 0; i < o->nr_addrs; i++) {
		u32 *a = pick(arena, size, used, seed);
		struct hm_futex_key k;
		u64 seen, idx;
		u32 node = 0;

		seen = observe_contention(v, &h, a, private_op ? FUTEX_WAIT | FUTEX_PRIVATE_FLAG : FUTEX_WAIT);
		r->tried++;
		if (!seen)
			continue;
		r->observed++;
		if (private_op)
			hm_futex_key__private(&k, mm, (u64)(uintptr_t)a);
		else
			hm_futex_key__shared_anon(&k, mm, (u64)(uintptr_t)a);
		if (getenv("HITMAP_VERIFY_SABOTAGE"))
			k.offset ^= 1;
		if (private_op)
			idx = hm_futex__hash_private(&k, slots);
		else
			hm_futex__hash_global(&v->model, &k, &node, &idx);
		if (seen == base + idx * v->model.layout.bucket_size && node == 0)
			r->agreed++;
		else
			hm_debug("contention %p: kernel bucket 0x%" PRIx64 ", model 0x%" PRIx64, (void *)a, seen,
				 base + idx * v->model.layout.bucket_size);
	}
out:
	__atomic_store_n(&h.quit, 1, __ATOMIC_RELEASE);
	while (n-- > 0)
		pthread_join(th[n], NULL);
	return err;
}

static int verify_private(struct verify *v, const struct hm_futex_verify_opts *o,
			  struct hm_futex_verify_result *r, u8 *arena, size_t size, u8 *used, u64 *seed)
{
	struct hm_vsnap *before = NULL, *now = NULL;
	long slots;
	u32 i;
	int err = 0;

	if (prctl(PR_FUTEX_HASH_, SET_SLOTS, o->slots, 0, 0)) {
		err = -errno;
		hm_err("prctl(PR_FUTEX_HASH, SET_SLOTS, %" PRIu64 "): %s; this kernel has no private futex hash (6.16 final or older)",
		       o->slots, strerror(errno));
		return err;
	}
	slots = prctl(PR_FUTEX_HASH_, GET_SLOTS, 0, 0, 0);
	if (slots <= 0 || (u64)slots != o->slots || slots > MAX_BUCKETS) {
		hm_err("prctl(PR_FUTEX_HASH, GET_SLOTS) = %ld after setting %" PRIu64 "; use --slots 16..1024", slots, o->slots);
		return -EINVAL;
	}
	r->slots = slots;
	before = malloc(sizeof(*before));
	now = malloc(sizeof(*now));
	if (!before || !now) {
		err = -ENOMEM;
		goto out;
	}
	err = set_cfg(v, 0, slots);
	if (err || (err = snapshot(v, before)))
		goto out;
	if (!before->fph || before->hash_mask + 1 != (u64)slots) {
		hm_err("BPF read of mm->futex_phash gave fph 0x%" PRIx64 " mask 0x%x, expected %ld slots; BTF offsets wrong?",
		       before->fph, before->hash_mask, slots);
		err = -EIO;
		goto out;
	}
	r->table_base = before->base;
	snprintf(r->how, sizeof(r->how), "waiters of mm->futex_phash buckets via BPF");
	if (o->by_contention) {
		snprintf(r->how, sizeof(r->how), "lock:contention_begin vs mm->futex_phash buckets");
		err = contention_loop(v, o, r, arena, size, used, seed, true, before->mm, before->base, slots);
		goto out;
	}
	for (i = 0; i < o->nr_addrs; i++) {
		u32 *a = pick(arena, size, used, seed);
		struct hm_futex_key k;
		long seen;

		if ((err = snapshot(v, before)))
			goto out;
		seen = observe(v, a, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, before, now);
		r->tried++;
		if (seen < 0)
			continue;
		r->observed++;
		hm_futex_key__private(&k, before->mm, (u64)(uintptr_t)a);
		if (r->observed <= 4)
			hm_debug("observed: private uaddr %p slots %ld -> kernel bucket %ld", (void *)a, slots, seen);
		if (getenv("HITMAP_VERIFY_SABOTAGE"))	/* test hook: a wrong model must disagree */
			k.offset ^= 1;
		if ((u64)seen == hm_futex__hash_private(&k, slots))
			r->agreed++;
		else
			hm_debug("private %p: kernel bucket %ld, model %" PRIu64, (void *)a, seen,
				 hm_futex__hash_private(&k, slots));
	}
out:
	free(before);
	free(now);
	return err;
}

struct hammer { u32 *addr; int *stop; };	/* *stop: atomic */

static void *hammer_main(void *arg)
{
	struct hammer *h = arg;

	while (!__atomic_load_n(h->stop, __ATOMIC_ACQUIRE))
		sys_futex(h->addr, FUTEX_WAIT, 0xffffffffu);	/* value differs: EAGAIN */
	return NULL;
}

/* What an MMSHARED key of this process hashes: the mm pointer, or the mm's id on kernels with the mm-reuse fix. */
static u64 shared_key_ptr(const struct verify *v, const struct hm_vsnap *s)
{
	return v->model.mm_seq ? s->mm_seq : s->mm;
}

/*
 * Find the global table's base from contended bucket locks paired with
 * uaddrs; @snap is taken again after the hammer (which gives the mm its
 * id at its first shared futex, on kernels that hash that id).
 */
static int find_global_base(struct verify *v, u32 *addr, struct hm_vsnap *snap, u64 *base)
{
	struct hm_vpair key, next;
	pthread_t th[4];
	struct hammer h;
	int stop = 0;	/* the hammers' flag, atomic */
	u64 best = 0, best_n = 0, n, lock_off = v->model.layout.offset[HM_FUTEX_FIELD_LOCK];
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	int i, round, err;
	bool first = true;

	*addr = 0;
	for (round = 0; round < 15 && !best; round++) {
		h.addr = addr;
		h.stop = &stop;
		__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);	/* no hammer runs: they were joined */
		for (i = 0; i < 4; i++)
			if (pthread_create(&th[i], NULL, hammer_main, &h))
				break;
		nanosleep(&ts, NULL);
		__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
		while (i-- > 0)
			pthread_join(th[i], NULL);
		first = true;
		while (!bpf_map_get_next_key(v->pairs_fd, first ? NULL : &key, &next)) {
			first = false;
			key = next;
			if (key.uaddr != (u64)(uintptr_t)addr || ((key.lock - lock_off) & 63))
				continue;
			if (!bpf_map_lookup_elem(v->pairs_fd, &key, &n) && n > best_n) {
				best_n = n;
				best = key.lock;
			}
		}
	}
	if (!best) {
		hm_err("lock:contention_begin never fired for a contended futex bucket in 3 s; cannot find the global table");
		return -ENOENT;
	}
	err = snapshot(v, snap);
	if (err)
		return err;
	{
		struct hm_futex_key k;
		u64 idx, bucket = best - lock_off;
		u32 node;

		hm_futex_key__shared_anon(&k, shared_key_ptr(v, snap), (u64)(uintptr_t)addr);
		hm_futex__hash_global(&v->model, &k, &node, &idx);
		hm_futex_geometry__global_base(bucket, v->model.global_slots, v->model.layout.bucket_size, base);
		hm_debug("global: contended lock 0x%" PRIx64 " (%" PRIu64 " events), base 0x%" PRIx64 ", model index %" PRIu64 " (kernel %" PRIu64 ")",
			 best, best_n, *base, idx, (bucket - *base) / v->model.layout.bucket_size);
	}
	return 0;
}

static int verify_shared(struct verify *v, const struct hm_futex_verify_opts *o,
			 struct hm_futex_verify_result *r, u8 *arena, size_t size, u8 *used, u64 *seed)
{
	struct hm_vsnap *before = NULL, *now = NULL;
	u64 base = 0, slots = v->model.global_slots;
	u32 i;
	int err;

	if (v->model.mm_seq && !v->cfg.mm_useq) {
		hm_err("this kernel hashes an mm sequence number for shared futexes, which hitmap cannot read; shared buckets are reported by address only");
		return -ENOSYS;
	}
	if (v->model.nr_nodes != 1 || slots > MAX_BUCKETS) {
		hm_err("global futex hash of %u nodes x %" PRIu64 " slots: --verify reads at most %d buckets of one node",
		       v->model.nr_nodes, slots, MAX_BUCKETS);
		return -ENOSYS;
	}
	before = malloc(sizeof(*before));
	now = malloc(sizeof(*now));
	if (!before || !now) {
		err = -ENOMEM;
		goto out;
	}
	if ((err = set_cfg(v, 0, 0)) || (err = snapshot(v, before)))
		goto out;
	err = find_global_base(v, pick(arena, size, used, seed), before, &base);
	if (err)
		goto out;
	if (v->model.mm_seq)
		hm_debug("shared keys hash mm->futex_unique_id %" PRIu64, before->mm_seq);
	r->slots = slots;
	r->table_base = base;
	snprintf(r->how, sizeof(r->how), "base from lock:contention_begin, waiters via BPF");
	if ((err = set_cfg(v, base, slots)))
		goto out;
	if (o->by_contention) {
		snprintf(r->how, sizeof(r->how), "lock:contention_begin vs the global table");
		err = contention_loop(v, o, r, arena, size, used, seed, false, shared_key_ptr(v, before), base, slots);
		goto out;
	}
	for (i = 0; i < o->nr_addrs; i++) {
		u32 *a = pick(arena, size, used, seed);
		struct hm_futex_key k;
		u64 idx;
		u32 node;
		long seen;

		if ((err = snapshot(v, before)))
			goto out;
		seen = observe(v, a, FUTEX_WAIT, before, now);
		r->tried++;
		if (seen < 0)
			continue;
		r->observed++;
		hm_futex_key__shared_anon(&k, shared_key_ptr(v, before), (u64)(uintptr_t)a);
		if (r->observed <= 4)
			hm_debug("observed: shared uaddr %p key 0x%" PRIx64 " -> kernel bucket %ld of %" PRIu64,
				 (void *)a, shared_key_ptr(v, before), seen, slots);
		if (getenv("HITMAP_VERIFY_SABOTAGE"))
			k.offset ^= 1;
		hm_futex__hash_global(&v->model, &k, &node, &idx);
		if ((u64)seen == idx && node == 0)
			r->agreed++;
		else
			hm_debug("shared %p: kernel bucket %ld, model %" PRIu64, (void *)a, seen, idx);
	}
out:
	free(before);
	free(now);
	return err;
}

int hm_futex__verify(const struct hm_futex_verify_opts *o, struct hm_futex_verify_result *priv,
		     struct hm_futex_verify_result *shared)
{
	struct verify v;
	size_t size = 4 << 20;
	u8 *arena, *used;
	u64 seed;
	int err, err2 = 0;

	memset(&v, 0, sizeof(v));
	if (priv)
		memset(priv, 0, sizeof(*priv));
	if (shared)
		memset(shared, 0, sizeof(*shared));
	if (!o || (!o->do_private && !o->do_shared))
		return -EINVAL;
	if (o->do_private && (!o->slots || (o->slots & (o->slots - 1)) || o->slots < 2 || o->slots > MAX_BUCKETS)) {
		hm_err("--slots %" PRIu64 ": the live check needs a power of two from 2 to %d", o->slots, MAX_BUCKETS);
		return -EINVAL;
	}
	seed = o->seed ? o->seed : 0x9e3779b97f4a7c15ull;
	arena = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED)
		return -errno;
	used = calloc(size / 4 / 8, 1);
	if (!used) {
		munmap(arena, size);
		return -ENOMEM;
	}
	err = verify_open(&v, o);
	if (!err && o->do_private && priv)
		err = verify_private(&v, o, priv, arena, size, used, &seed);
	if (!err && o->do_shared && shared)
		err2 = verify_shared(&v, o, shared, arena, size, used, &seed);
	verify_close(&v);
	free(used);
	munmap(arena, size);
	return err ? err : err2;
}

/* ------------------------------------------------------------------ probe */

struct hm_futex_probe {
	struct verify	v;
	int		procs_fd;
	int		phashes_fd;	/* -1: an older BPF object without it */
};
struct hm_vph_key { u32 tgid, pad; u64 fph; };
struct hm_vph { u64 first, last; u32 hash_mask, pad; };

struct hm_futex_probe *hm_futex_probe__new(const char *bpf_obj, s32 tgid)
{
	struct hm_futex_verify_opts o = { .bpf_obj = bpf_obj };
	struct hm_futex_probe *p = calloc(1, sizeof(*p));
	int err;

	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	err = bpf_open(&p->v, &o, tgid > 0 ? tgid : 0, true);
	if (!err) {
		p->procs_fd = bpf_object__find_map_fd_by_name(p->v.obj, "procs");
		p->phashes_fd = bpf_object__find_map_fd_by_name(p->v.obj, "phashes");
		if (p->procs_fd < 0) {
			hm_err("BPF object: no 'procs' map; rebuild it from src/futex/verify.bpf.c");
			err = -EINVAL;
		}
	}
	if (err) {
		hm_futex_probe__delete(p);
		errno = -err;
		return NULL;
	}
	return p;
}

void hm_futex_probe__delete(struct hm_futex_probe *p)
{
	if (!p)
		return;
	verify_close(&p->v);
	free(p);
}

struct vote { s32 node; u64 base; u64 pairs, events; };

static void vote_add(struct vote *vt, int *nr, int max, s32 node, u64 base, u64 n)
{
	int i;

	for (i = 0; i < *nr; i++)
		if (vt[i].node == node && vt[i].base == base) {
			vt[i].pairs++;
			vt[i].events += n;
			return;
		}
	if (*nr < max)
		vt[(*nr)++] = (struct vote){ node, base, 1, n };
}

static bool vote_better(const struct vote *a, const struct vote *b)
{
	return a->pairs != b->pairs ? a->pairs > b->pairs : a->events > b->events;
}

int hm_futex_probe__collect(struct hm_futex_probe *p, struct hm_futex_model *m)
{
	struct hm_vpair key, next;
	struct hm_vproc pr;
	struct vote vt[64], va[64];
	int nva = 0;
	u32 tg, tgn, bs = m->layout.bucket_size ? m->layout.bucket_size : 64;
	s32 lock_off = m->layout.offset[HM_FUTEX_FIELD_LOCK];
	int nvt = 0, added = 0, i;
	bool first = true;

	/* private hashes, exactly: mm->futex_phash and its hash_mask */
	while (!bpf_map_get_next_key(p->procs_fd, first ? NULL : &tg, &tgn)) {
		first = false;
		tg = tgn;
		if (bpf_map_lookup_elem(p->procs_fd, &tg, &pr))
			continue;
		if (pr.mm)
			hm_futex_model__add_mm(m, tg, pr.mm);
		if (pr.fph && pr.hash_mask) {
			struct hm_futex_table t = { .kind = 1, .node = -1, .pid = tg,
						    .base = pr.fph + m->fph.queues, .slots = (u64)pr.hash_mask + 1 };

			snprintf(t.provenance, sizeof(t.provenance), "bpf:mm->futex_phash");
			if (!hm_futex_model__add_table(m, &t))
				added++;
		}
	}
	/* every private hash seen, resized ones included */
	{
		struct hm_futex_probe_seen *seen = NULL;
		size_t ns = 0;

		if (!hm_futex_probe__seen(p, m->fph.queues, &seen, &ns))
			for (size_t q = 0; q < ns; q++) {
				struct hm_futex_table t = { .kind = 1, .node = -1, .pid = seen[q].pid,
							    .base = seen[q].base, .slots = seen[q].slots };

				if (hm_futex_model__resolve(m, t.base, NULL))
					continue;
				snprintf(t.provenance, sizeof(t.provenance), "bpf:mm->futex_phash");
				if (!hm_futex_model__add_table(m, &t))
					added++;
			}
		free(seen);
	}
	if (lock_off < 0)
		return added;
	/* global tables: contended bucket locks paired with their futex address */
	first = true;
	while (!bpf_map_get_next_key(p->v.pairs_fd, first ? NULL : &key, &next)) {
		struct hm_futex_loc loc;
		struct hm_futex_key k;
		u64 n = 0, bucket, idx, base;
		u32 node;
		bool have_proc;

		first = false;
		key = next;
		bucket = key.lock - lock_off;
		if ((bucket & 63) || bpf_map_lookup_elem(p->v.pairs_fd, &key, &n))
			continue;
		if (hm_futex_model__resolve(m, bucket, &loc) && loc.table->kind == 1)
			continue;	/* a private bucket */
		have_proc = !bpf_map_lookup_elem(p->procs_fd, &key.tgid, &pr);
		if (!have_proc)
			continue;
		if ((key.op & 128) && pr.fph && pr.hash_mask)
			continue;	/* a private op of a process with a private hash: not global */
		/* the exact key where it is known: private op without private hash, or anon with the mm pointer (or id) */
		if (key.op & 128) {
			hm_futex_key__private(&k, pr.mm, key.uaddr);
			hm_futex__hash_global(m, &k, &node, &idx);
			if (bucket >= idx * bs)
				vote_add(vt, &nvt, 64, node, bucket - idx * bs, n);
		} else if (!m->mm_seq || pr.mm_seq) {
			/* shared op: right when the page is anonymous (file pages hash the inode) */
			hm_futex_key__shared_anon(&k, m->mm_seq ? pr.mm_seq : pr.mm, key.uaddr);
			hm_futex__hash_global(m, &k, &node, &idx);
			if (bucket >= idx * bs)
				vote_add(vt, &nvt, 64, node, bucket - idx * bs, n);
		}
		/* fallback: the power-of-two alignment of the allocation, one node only */
		if (m->nr_nodes == 1 && !hm_futex_geometry__global_base(bucket, m->global_slots, bs, &base))
			vote_add(va, &nva, 64, 0, base, n);
	}
	for (u32 nd = 0; nd < m->nr_nodes && nd < 64; nd++) {
		int best = -1;

		const struct vote *w = vt;
		int nw = nvt;

		/* the base most (uaddr, lock) pairs agree on through the model beats alignment */
		for (i = 0; i < nvt; i++)
			if (vt[i].node == (s32)nd && (best < 0 || vote_better(&vt[i], &vt[best])))
				best = i;
		if (best < 0) {
			w = va;
			nw = nva;
			for (i = 0; i < nw; i++)
				if (w[i].node == (s32)nd && (best < 0 || vote_better(&w[i], &w[best])))
					best = i;
		}
		if (best >= 0) {
			struct hm_futex_table t = { .kind = 0, .node = nd, .pid = -1,
						    .base = w[best].base, .slots = m->global_slots };

			snprintf(t.provenance, sizeof(t.provenance), w == vt ? "bpf:contention+model" : "bpf:contention+align");
			if (!hm_futex_model__add_table(m, &t))
				added++;
		}
	}
	return added;
}

int hm_futex_probe__seen(struct hm_futex_probe *p, u32 queues, struct hm_futex_probe_seen **out, size_t *n)
{
	struct hm_vph_key key, next;
	struct hm_vph v;
	struct hm_futex_probe_seen *a = NULL;
	size_t cap = 0;
	bool first = true;

	*out = NULL;
	*n = 0;
	if (!p || p->phashes_fd < 0)
		return -ENOENT;
	while (!bpf_map_get_next_key(p->phashes_fd, first ? NULL : &key, &next)) {
		first = false;
		key = next;
		if (bpf_map_lookup_elem(p->phashes_fd, &key, &v) || !v.hash_mask)
			continue;
		if (*n == cap) {
			struct hm_futex_probe_seen *b = realloc(a, (cap = cap ? 2 * cap : 16) * sizeof(*b));

			if (!b) {
				free(a);
				return -ENOMEM;
			}
			a = b;
		}
		a[*n].pid = (s32)key.tgid;
		a[*n].base = key.fph + queues;
		a[*n].slots = (u64)v.hash_mask + 1;
		a[*n].first_ns = v.first;
		a[*n].last_ns = v.last;
		(*n)++;
	}
	*out = a;
	return 0;
}
