// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF side of `hitmap hash --verify` (and of futex geometry discovery):
 * built with  clang -O2 -g -target bpf -c src/futex/verify.bpf.c -o verify.bpf.o
 * (tests/sh/futex-verify.sh does that).  The host compiler sees an empty file.
 *
 *  - sys_enter_getppid (from the target process): snapshot current->mm,
 *    mm->futex_phash, fph->hash_mask and the waiters word of cfg.nr buckets
 *    from cfg.base (0: the private hash's queues[]).  Offsets come from BTF
 *    through the cfg map, so no vmlinux.h and no CO-RE are needed.
 *  - sys_enter_futex / sys_exit_futex: remember the uaddr a thread of the
 *    target is in a futex call for.
 *  - lock:contention_begin: pair that uaddr with the contended lock address
 *    (&hb->lock of the bucket the kernel used).
 */
#ifdef __bpf__
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

#define MAX_BUCKETS 1024

struct hm_vcfg {
	__u32 tgid;		/* process to watch; 0 with watch_all: every process */
	__u32 nr;		/* buckets to read */
	__u64 base;		/* bucket 0; 0: mm->futex_phash + queues */
	__u32 stride;		/* bucket size */
	__u32 waiters_off;
	__u32 task_mm;		/* offsetof(task_struct, mm) */
	__u32 mm_phash;		/* offsetof(mm_struct, futex_phash) */
	__u32 fph_mask;		/* offsetof(futex_private_hash, hash_mask) */
	__u32 fph_queues;
	__u32 watch_all;
	__u32 lock_off;		/* offsetof(futex_hash_bucket, lock) */
	__u32 mm_useq;		/* offsetof(mm_struct, futex_unique_id); 0: none */
	__u32 pad;
};

struct hm_vsnap {
	__u64 seq;
	__u64 mm;
	__u64 fph;
	__u64 base;
	__u64 mm_seq;		/* mm->futex_unique_id, what MMSHARED keys hash there */
	__u32 hash_mask;
	__u32 nr;
	__u32 waiters[MAX_BUCKETS];
};

struct hm_vpair { __u64 uaddr, lock; __u32 tgid, op; };
struct hm_vinflight { __u64 uaddr; __u32 op, pad; };
struct hm_vproc { __u64 mm, fph; __u32 hash_mask, pad; __u64 mm_seq; };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hm_vcfg);
} cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hm_vsnap);
} snap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct hm_vinflight);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct hm_vproc);
} procs SEC(".maps");

/* every private hash a process used (a resize makes a new one), with when: first and last seen */
struct hm_vph_key { __u32 tgid, pad; __u64 fph; };
struct hm_vph { __u64 first, last; __u32 hash_mask, pad; };
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct hm_vph_key);
	__type(value, struct hm_vph);
} phashes SEC(".maps");

/* uaddr -> the last contended spinlock that looks like a bucket lock */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);
	__type(value, __u64);
} ulock SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct hm_vpair);
	__type(value, __u64);
} pairs SEC(".maps");

static __always_inline struct hm_vcfg *target(void)
{
	__u32 k = 0;
	struct hm_vcfg *c = bpf_map_lookup_elem(&cfg, &k);

	if (!c)
		return 0;
	if (c->watch_all && !c->tgid)
		return c;
	if (!c->tgid || (bpf_get_current_pid_tgid() >> 32) != c->tgid)
		return 0;
	return c;
}

/*
 * Every program returns 1: a tracepoint's BPF program that returns 0 drops the
 * event for every perf listener of that tracepoint (perf_trace_run_bpf_submit,
 * perf_syscall_enter), which would hide it from a concurrent perf record and
 * from hitmap record's own lock:contention_begin samples.
 */
SEC("tracepoint/syscalls/sys_enter_getppid")
int hm_snapshot(void *ctx)
{
	struct hm_vcfg *c = target();
	struct hm_vsnap *s;
	__u64 task, mm = 0, fph = 0, base;
	__u32 k = 0, i, nr;

	if (!c)
		return 1;
	s = bpf_map_lookup_elem(&snap, &k);
	if (!s)
		return 1;
	task = (__u64)bpf_get_current_task();
	bpf_probe_read_kernel(&mm, sizeof(mm), (void *)(task + c->task_mm));
	s->mm = mm;
	s->mm_seq = 0;
	if (mm && c->mm_useq)
		bpf_probe_read_kernel(&s->mm_seq, sizeof(s->mm_seq), (void *)(mm + c->mm_useq));
	if (mm && c->mm_phash)
		bpf_probe_read_kernel(&fph, sizeof(fph), (void *)(mm + c->mm_phash));
	s->fph = fph;
	s->hash_mask = 0;
	if (fph)
		bpf_probe_read_kernel(&s->hash_mask, sizeof(s->hash_mask), (void *)(fph + c->fph_mask));
	base = c->base ? c->base : (fph ? fph + c->fph_queues : 0);
	s->base = base;
	nr = c->nr;
	if (nr > MAX_BUCKETS)
		nr = MAX_BUCKETS;
	s->nr = base ? nr : 0;
	for (i = 0; i < MAX_BUCKETS; i++) {
		if (i >= nr || !base)
			break;
		if (bpf_probe_read_kernel(&s->waiters[i], sizeof(__u32),
					  (void *)(base + (__u64)i * c->stride + c->waiters_off)))
			s->waiters[i] = 0xffffffff;
	}
	s->seq++;
	return 1;
}

struct sys_enter_futex_args {
	__u64 common;
	__s32 nr;
	__u32 pad;
	__u64 uaddr, op, val, utime, uaddr2, val3;
};

SEC("tracepoint/syscalls/sys_enter_futex")
int hm_futex_enter(struct sys_enter_futex_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = id >> 32;
	struct hm_vinflight in = { ctx->uaddr, (__u32)ctx->op, 0 };
	struct hm_vcfg *c = target();
	struct hm_vproc p = {};
	__u64 task;

	if (!c)
		return 1;
	bpf_map_update_elem(&inflight, &tid, &in, BPF_ANY);
	if (!c->watch_all)
		return 1;
	/* geometry probe: this process's mm and private hash */
	task = (__u64)bpf_get_current_task();
	bpf_probe_read_kernel(&p.mm, sizeof(p.mm), (void *)(task + c->task_mm));
	if (p.mm && c->mm_phash)
		bpf_probe_read_kernel(&p.fph, sizeof(p.fph), (void *)(p.mm + c->mm_phash));
	if (p.mm && c->mm_useq)
		bpf_probe_read_kernel(&p.mm_seq, sizeof(p.mm_seq), (void *)(p.mm + c->mm_useq));
	if (p.fph)
		bpf_probe_read_kernel(&p.hash_mask, sizeof(p.hash_mask), (void *)(p.fph + c->fph_mask));
	bpf_map_update_elem(&procs, &tgid, &p, BPF_ANY);
	if (p.fph) {
		struct hm_vph_key hk = { tgid, 0, p.fph };
		struct hm_vph *h = bpf_map_lookup_elem(&phashes, &hk);
		__u64 now = bpf_ktime_get_ns();

		if (h) {
			h->last = now;
		} else {
			struct hm_vph nh = { now, now, p.hash_mask, 0 };

			bpf_map_update_elem(&phashes, &hk, &nh, BPF_NOEXIST);
		}
	}
	return 1;
}

SEC("tracepoint/syscalls/sys_exit_futex")
int hm_futex_exit(void *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (!target())
		return 1;
	bpf_map_delete_elem(&inflight, &tid);
	return 1;
}

struct contention_begin_args {
	__u64 common;
	__u64 lock_addr;
	__u32 flags;
};

SEC("tracepoint/lock/contention_begin")
int hm_contention(struct contention_begin_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct hm_vinflight *in;
	struct hm_vpair p;
	__u64 *n, one = 1;
	struct hm_vcfg *c = target();

	if (!c)
		return 1;
	in = bpf_map_lookup_elem(&inflight, &tid);
	if (!in)
		return 1;
	p.uaddr = in->uaddr;
	p.lock = ctx->lock_addr;
	p.tgid = id >> 32;
	p.op = in->op;
	n = bpf_map_lookup_elem(&pairs, &p);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&pairs, &p, &one, BPF_NOEXIST);
	if ((ctx->flags & 1) && !((p.lock - c->lock_off) & 63))	/* LCB_F_SPIN */
		bpf_map_update_elem(&ulock, &p.uaddr, &p.lock, BPF_ANY);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
#endif
