// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF side of `hitmap record --futex-bpf`: on lock:contention_begin, when the
 * current task is inside a futex system call, pair the futex address (the
 * first syscall argument, read from the task's user registers) with the
 * contended lock (&bucket->lock) and count the pair in a hash map.  No
 * syscall tracepoint is enabled, so futex calls that do not contend cost
 * nothing.  It returns 1 everywhere: a 0 would drop the tracepoint's perf
 * samples for every perf event on it (perf_trace_run_bpf_submit).
 * x86_64.  Built with
 *   clang -O2 -g -target bpf -c src/record/pair.bpf.c -o record-pair.bpf.o
 * (tests/sh/record-bpf.sh and tests/bench/bench-futex.sh do that).  The host
 * compiler sees an empty file.
 */
#ifdef __bpf__
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

struct task_struct;

/* x86_64 struct pt_regs (arch/x86/include/asm/ptrace.h) */
struct hm_pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

struct hm_pcfg {
	__u32 tgid;		/* 0: every process */
	__u32 pad;
};

struct hm_pkey {
	__u64 uaddr, lock;
	__u32 tgid, nr;		/* process, syscall number */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hm_pcfg);
} cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 262144);
	__type(key, struct hm_pkey);
	__type(value, __u64);
} pairs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");	/* 0: contention_begin seen, 1: in a futex call */

/* tracepoint/lock/contention_begin: common fields, then lock_addr, flags */
struct hm_contention_begin {
	__u64 common;
	__u64 lock_addr;
	__u32 flags;
};

static __always_inline void bump(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &i);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("tracepoint/lock/contention_begin")
int hm_on_contention_begin(struct hm_contention_begin *ctx)
{
	__u32 zero = 0, tgid = bpf_get_current_pid_tgid() >> 32;
	struct hm_pcfg *c = bpf_map_lookup_elem(&cfg, &zero);
	struct task_struct *t;
	struct hm_pt_regs *regs;
	struct hm_pkey k = {};
	unsigned long nr = 0, di = 0;
	__u64 one = 1, *v;

	if (!c || (c->tgid && c->tgid != tgid))
		return 1;
	bump(0);
	t = bpf_get_current_task_btf();
	regs = (struct hm_pt_regs *)bpf_task_pt_regs(t);
	if (!regs)
		return 1;
	bpf_probe_read_kernel(&nr, sizeof(nr), &regs->orig_ax);
	/* futex 202, futex_wake 454, futex_wait 455 (uaddr first); futex_requeue 456 takes a vector */
	if (nr != 202 && nr != 454 && nr != 455)
		return 1;
	bpf_probe_read_kernel(&di, sizeof(di), &regs->di);
	bump(1);
	k.uaddr = di;
	k.lock = ctx->lock_addr;
	k.tgid = tgid;
	k.nr = nr;
	v = bpf_map_lookup_elem(&pairs, &k);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&pairs, &k, &one, BPF_NOEXIST);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
#endif
